#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python twin of harp-figure-1-31.cc, the seed's figure 1-31: one GSN switch to which
# every interface is attached, two logical IP subnets (LIS_1 = 192.0.2.0-31: A, B, E, J, K, L;
# LIS_2 = 192.0.2.32-63: C, D, F, G, H) and the router whose interfaces are J and H. A reaches
# C only through the router, although both hang on the same switch; HARP will not resolve C
# for A. The program pings B, E and C from A and prints replies, RTTs, the reply TTL (IP hops)
# and the path, as the C++ program does.
#
# Usage: harp-figure-1-31.py [--broadcast=1] [--count=N] [--tables=1] [--pcap=1]

import sys

from harp_lis_scenario import HOSTS, Main
from ns import ns


def main(argv):
    topology = ns.gsn.GsnTopology()
    hosts = [topology.AddEndpoint(name) for name, _, _ in HOSTS]
    sw = topology.AddSwitch(12, "sw")
    for i, host in enumerate(hosts):
        topology.Connect(host, 0, sw, i)
    return Main("1-31", topology, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
