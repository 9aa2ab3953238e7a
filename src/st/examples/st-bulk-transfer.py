#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python twin of st-bulk-transfer.cc: ST bulk transfer between two hosts through a GSN
# switch; host 0 writes (or reads) large single-use transfers to (from) host 1 with
# StBulkClient and StServer, and the program prints the goodput against the analytic payload
# rate of the DATA Messages. For the same arguments it prints what the C++ program prints.
#
#   host 0 ==== switch ==== host 1      (GsnFabricHelper, GsnTopologyBuilder.Star(2))
#
# Usage: st-bulk-transfer.py [--size=BYTES] [--transfers=N] [--outstanding=N] [--read=1]
#                            [--bufsize=LOG2] [--linkMode=Micropacket|Run] [--pcap=1]
# A bad value prints one line naming the option and exits with status 1.

import math
import sys
from ctypes import c_wchar_p

from ns import ns


def main(argv):
    sizeText = c_wchar_p("4194304")
    transfersText = c_wchar_p("4")
    outstandingText = c_wchar_p("1")
    readText = c_wchar_p("0")
    bufsizeText = c_wchar_p("14")
    pcapText = c_wchar_p("0")
    linkModeText = c_wchar_p("Micropacket")
    hostText = c_wchar_p("Ideal")

    cmd = ns.core.CommandLine(__file__)
    check = ns.gsn.GsnCommandLineChecks("st-bulk-transfer")
    check.AddValue(cmd, "size", "Bytes per transfer (1 to 268435456)", sizeText)
    check.AddValue(cmd, "transfers", "Transfers (1 to 1000000)", transfersText)
    check.AddValue(cmd, "outstanding", "Transfers in progress at once (1 to 1024)", outstandingText)
    check.AddValue(cmd, "read", "Bulk read (host 1 is the source) instead of a write", readText)
    check.AddValue(cmd, "bufsize", "ST Bufsize (log2; the STU size on GSN), 8..24", bufsizeText)
    check.AddValue(cmd, "linkMode", "Link mode of every port: Micropacket or Run", linkModeText)
    check.AddValue(
        cmd,
        "host",
        "Host adapter profile of both hosts: Ideal, Adapter or Origin2000",
        hostText,
    )
    check.AddValue(
        cmd,
        "pcap",
        "Write pcap traces st-bulk-transfer-*.pcap of the hosts and the switch ports",
        pcapText,
    )
    check.Parse(cmd, argv)
    # The server holds a transfer's bytes in memory: at most 256 MiB.
    size = check.Integer("size", sizeText.value, 1, 1 << 28)
    transfers = check.Integer("transfers", transfersText.value, 1, 1000000)
    outstanding = check.Integer("outstanding", outstandingText.value, 1, 1024)
    read = check.Boolean("read", readText.value)
    bufsize = check.Integer("bufsize", bufsizeText.value, 8, 24)
    pcap = check.Boolean("pcap", pcapText.value)
    linkMode = check.Choice("linkMode", linkModeText.value, ["Micropacket", "Run"])
    host = check.Choice("host", hostText.value, ns.gsn.GsnHostAdapterHelper.GetProfileNames())

    fabricHelper = ns.gsn.GsnFabricHelper()
    fabricHelper.SetLinkMode(linkMode)
    fabricHelper.SetHostProfile(host)
    fabric = fabricHelper.Install(ns.gsn.GsnTopologyBuilder.Star(2))

    st = ns.st.StHelper()
    st.SetAttribute("Bufsize", ns.core.UintegerValue(bufsize))
    addresses = ns.internet.Ipv4AddressHelper("10.1.1.0", "255.255.255.0")
    st.Install(fabric.endpointDevices, addresses)
    ns.st.StHelper.PopulateStaticTables(fabric.endpoints)
    serverAddress = fabric.endpoints.Get(1).GetObject[ns.st.StProtocol]().GetLocalAddress()

    server = ns.st.StServerHelper(5000)
    server.SetAttribute("BufferSize", ns.core.UintegerValue(size))
    serverApps = server.Install(fabric.endpoints.Get(1))
    client = ns.st.StBulkClientHelper(serverAddress, 5000)
    client.SetAttribute(
        "Mode", ns.core.EnumValue(ns.st.StBulkClient.READ if read else ns.st.StBulkClient.WRITE)
    )
    client.SetAttribute("TransferSize", ns.core.UintegerValue(size))
    client.SetAttribute("Transfers", ns.core.UintegerValue(transfers))
    client.SetAttribute("Outstanding", ns.core.UintegerValue(outstanding))
    clientApps = client.Install(fabric.endpoints.Get(0))
    # The links come up in a few microseconds.
    clientApps.Start(ns.core.MicroSeconds(10))
    if pcap:
        fabricHelper.EnablePcapAll("st-bulk-transfer")

    ns.core.Simulator.Stop(ns.core.Seconds(1))
    ns.core.Simulator.Run()

    c = clientApps.Get(0)
    s = serverApps.Get(0)
    stu = math.pow(2.0, bufsize)
    micropackets = math.ceil((16 + 8 + 40 + stu) / 32.0)
    ceiling = 6.4 * stu / (32.0 * micropackets)
    print(
        "ST bulk %s through one GSN switch%s: %d x %d bytes, %d outstanding, STU %g bytes"
        % (
            "read" if read else "write",
            "" if host == "Ideal" else " (host " + host + ")",
            transfers,
            size,
            outstanding,
            stu,
        )
    )
    print(
        "  completed %d transfers, %d bytes, failed %d, corrupt %d"
        % (c.GetCompleted(), c.GetBytes(), c.GetFailed(), c.GetCorrupt() + s.GetCorrupt())
    )
    print(
        "  goodput %.4f Gbit/s from %s to %s; payload-rate ceiling %.4f Gbit/s (%.4f%%)"
        % (
            c.GetThroughput() / 1e9,
            c.GetFirstStart().As(ns.core.Time.US).ToString(4, True),
            c.GetLastCompletion().As(ns.core.Time.US).ToString(4, True),
            ceiling,
            100.0 * c.GetThroughput() / 1e9 / ceiling,
        )
    )
    counters = fabric.endpoints.Get(0).GetObject[ns.st.StProtocol]().GetCounters()
    print(
        "  host 0 sent %d ST operations, %d data bytes; dropped %d"
        % (
            counters.Get(ns.st.StStat.TxOps),
            counters.Get(ns.st.StStat.TxDataBytes),
            counters.Dropped(),
        )
    )
    ok = c.GetCompleted() == transfers and c.GetCorrupt() + s.GetCorrupt() == 0
    ns.core.Simulator.Destroy()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
