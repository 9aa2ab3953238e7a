#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python twin of gsn-two-hosts.cc: two hosts on one GSN cable exchange Messages through
# ns-3's PacketSocket applications, and the program prints the throughput each direction
# achieved. For the same arguments it prints what the C++ program prints.
#
#   host 0 ==== GSN cable ==== host 1
#
# Usage: gsn-two-hosts.py [--size=BYTES] [--interval=TIME] [--duration=TIME] [--length=M]
#                         [--vc=0..3] [--pcap=1] [--ascii=1]
# A bad value prints one line naming the option and exits with status 1.

import math
import sys
from ctypes import c_wchar_p

from ns import ns


class RxStats:
    """What one server received."""

    def __init__(self):
        self.bytes = 0  # all bytes
        self.firstBytes = 0  # bytes of the first Message
        self.first = ns.core.Time()  # arrival of the first Message
        self.last = ns.core.Time()  # arrival of the last Message


def main(argv):
    sizeText = c_wchar_p("60000")
    intervalText = c_wchar_p("70us")
    durationText = c_wchar_p("2ms")
    lengthText = c_wchar_p("10")
    vcText = c_wchar_p("1")
    pcapText = c_wchar_p("0")
    asciiText = c_wchar_p("0")

    cmd = ns.core.CommandLine(__file__)
    check = ns.gsn.GsnCommandLineChecks("gsn-two-hosts")
    check.AddValue(cmd, "size", "Payload bytes per Message (1 or more)", sizeText)
    check.AddValue(cmd, "interval", "Time between Messages of each host (above 0)", intervalText)
    check.AddValue(cmd, "duration", "Simulated time of traffic (above 0)", durationText)
    check.AddValue(cmd, "length", "Cable length in metres (copper, 0.2 to 40)", lengthText)
    check.AddValue(cmd, "vc", "Virtual channel of the traffic (0-3)", vcText)
    check.AddValue(cmd, "pcap", "Write pcap traces gsn-two-hosts-*.pcap", pcapText)
    check.AddValue(cmd, "ascii", "Write an ASCII trace gsn-two-hosts.tr", asciiText)
    check.Parse(cmd, argv)

    size = check.Integer("size", sizeText.value, 1, 2**32 - 1)
    # A zero interval would send every Message at one instant, for ever.
    interval = check.Duration(
        "interval",
        intervalText.value,
        ns.core.NanoSeconds(1),
        ns.core.Days(1),
        "must be a time from 1ns to 1d, e.g. 70us",
    )
    duration = check.Duration(
        "duration",
        durationText.value,
        ns.core.NanoSeconds(1),
        ns.core.Days(1),
    )
    # 5 ns per metre: below 0.2 m the delay rounds to zero, which the channel refuses.
    length = check.Real(
        "length",
        lengthText.value,
        0.2,
        40.0,
        "must be a number from 0.2 to 40 (metres of copper cable)",
    )
    vc = check.Integer("vc", vcText.value, 0, 3)
    pcap = check.Boolean("pcap", pcapText.value)
    ascii = check.Boolean("ascii", asciiText.value)

    hosts = ns.network.NodeContainer()
    hosts.Create(2)
    gsn = ns.gsn.GsnHelper()
    gsn.SetChannelAttribute("Length", ns.core.DoubleValue(length))
    gsn.SetDeviceAttribute("DefaultVc", ns.core.UintegerValue(vc))
    devices = gsn.Install(hosts)

    packetSocket = ns.network.PacketSocketHelper()
    packetSocket.Install(hosts)

    rx = [RxStats(), RxStats()]

    def countRx(server, packet, address):
        s = rx[server]
        if s.bytes == 0:
            s.first = ns.core.Simulator.Now()
            s.firstBytes = packet.GetSize()
        s.bytes += packet.GetSize()
        s.last = ns.core.Simulator.Now()

    start = ns.core.MicroSeconds(10)
    for i in range(2):
        peer = 1 - i
        to = ns.network.PacketSocketAddress()
        to.SetSingleDevice(devices.Get(i).GetIfIndex())
        to.SetPhysicalAddress(devices.Get(peer).GetAddress())
        to.SetProtocol(0x88B5)

        client = ns.network.PacketSocketClient()
        client.SetRemote(to)
        client.SetAttribute("PacketSize", ns.core.UintegerValue(size))
        client.SetAttribute("Interval", ns.core.TimeValue(interval))
        client.SetAttribute("MaxPackets", ns.core.UintegerValue(0))
        hosts.Get(i).AddApplication(client)
        client.SetStartTime(start)
        client.SetStopTime(start + duration)

        local = ns.network.PacketSocketAddress()
        local.SetSingleDevice(devices.Get(peer).GetIfIndex())
        local.SetProtocol(0x88B5)
        server = ns.network.PacketSocketServer()
        server.SetLocal(local)
        hosts.Get(peer).AddApplication(server)
        server.TraceConnectWithoutContext("Rx", lambda p, a, peer=peer: countRx(peer, p, a))
        server.SetStartTime(ns.core.Seconds(0))

    if pcap:
        gsn.EnablePcapAll("gsn-two-hosts")
    if ascii:
        asciiHelper = ns.network.AsciiTraceHelper()
        gsn.EnableAsciiAll(asciiHelper.CreateFileStream("gsn-two-hosts.tr"))

    # Let the last Messages drain before stopping.
    ns.core.Simulator.Stop(start + duration + ns.core.MilliSeconds(1))
    ns.core.Simulator.Run()

    print(
        "GSN two hosts: %d-byte Messages every %s for %s, %g m cable, VC %d"
        % (size, interval.As(ns.core.Time.US), duration.As(ns.core.Time.MS), length, vc)
    )
    print("  offered per host: %.3f Gbit/s" % (size * 8.0 / interval.GetSeconds() / 1e9))
    for i in range(2):
        d = devices.Get(i)
        mc = d.GetMessageCounters()
        lc = d.GetLinkCounters()
        s = rx[i]
        # Rate between the first and the last arrival (the first Message opens the window).
        span = (s.last - s.first).GetSeconds()
        rate = (s.bytes - s.firstBytes) * 8.0 / span / 1e9 if span > 0 else 0.0
        print(
            "  host %d received %d bytes: %.3f Gbit/s; sent %d Messages, %d micropackets "
            "(%d Credit-only, %d Null), refused %d"
            % (
                i,
                s.bytes,
                rate,
                mc["txMessages"],
                lc["txMicropackets"],
                lc["creditOnlySent"],
                lc["nullSent"],
                mc["txQueueDrops"] + mc["txRefusedTooLong"],
            )
        )
    print(
        "  payload-rate ceiling for this size: %.3f Gbit/s"
        % (6.4 * size / (32.0 * math.ceil((24.0 + size) / 32.0)))
    )
    ns.core.Simulator.Destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
