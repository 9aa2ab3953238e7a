/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The seed's figure 1-32: the same hosts, addresses and LIS as figure 1-31 on a two-switch
 * fabric (GsnTopologyBuilder::TwoSwitchFigure132): A, B, C, D on sw1; E, F, G, H, J, K, L on
 * sw2; the cable between the switches is the bridging path that lets each LIS span both. The
 * router J/H now hangs on sw2, yet A (sw1) still reaches C (sw1) only through it: the
 * addressing did not change with the hardware. The program pings B, E and C from A and prints
 * replies, RTTs, the reply TTL (IP hops), the path and how many Messages each switch forwarded.
 *
 *      A  B  C  D                 E  F  G  H  J  K  L      H and J: one router system
 *      |  |  |  |                 |  |  |  |  |  |  |
 *    +------------+  port 7     +---------------------+
 *    |    sw1     |=============|         sw2         |
 *    +------------+             +---------------------+
 *
 * Usage: harp-figure-1-32 [--broadcast=1] [--count=N] [--tables=1] [--pcap=1]
 */
#include "harp-lis-scenario.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    return harpexample::Main("1-32", GsnTopologyBuilder::TwoSwitchFigure132(), argc, argv);
}
