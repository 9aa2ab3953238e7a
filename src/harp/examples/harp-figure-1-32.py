#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python twin of harp-figure-1-32.cc, the seed's figure 1-32: the hosts, addresses and
# LIS of figure 1-31 on a two-switch fabric (GsnTopologyBuilder.TwoSwitchFigure132): A, B, C,
# D on sw1; E, F, G, H, J, K, L on sw2. The router J/H hangs on sw2, yet A (sw1) still reaches
# C (sw1) only through it. The program prints what the C++ program prints.
#
# Usage: harp-figure-1-32.py [--broadcast=1] [--count=N] [--tables=1] [--pcap=1]

import sys

from harp_lis_scenario import Main
from ns import ns

if __name__ == "__main__":
    sys.exit(Main("1-32", ns.gsn.GsnTopologyBuilder.TwoSwitchFigure132(), sys.argv))
