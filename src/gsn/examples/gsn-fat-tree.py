#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python twin of gsn-fat-tree.cc: a fat tree of GSN switches (k^3/4 endpoints: 16 for
# k = 4) under uniform random traffic of 60000-byte Messages with Poisson arrivals; prints
# delivered throughput, latency percentiles, link utilisation and credit stalls. For the same
# arguments it prints what the C++ program prints.
#
# Usage: gsn-fat-tree.py [--k=4] [--load=0.5] [--size=60000] [--simTime=1ms] [--warmup=100us]
#                        [--pattern=UniformRandom] [--vc=3] [--routing=Auto] [--seed=1]
#                        [--drain=1] [--drainLimit=100ms] [--json=FILE] [--csv=FILE] [--pcap=1]
#                        [--details=1]
# A bad value prints one line naming the option and exits with status 1.

import sys
from ctypes import c_wchar_p

from ns import ns


def main(argv):
    # Options are read as text and checked by GsnCommandLineChecks, as in the C++ program.
    kText = c_wchar_p("4")
    loadText = c_wchar_p("0.5")
    sizeText = c_wchar_p("60000")
    simTimeText = c_wchar_p("1ms")
    warmupText = c_wchar_p("100us")
    pattern = c_wchar_p("UniformRandom")
    vcText = c_wchar_p("3")
    routing = c_wchar_p("Auto")
    seedText = c_wchar_p("1")
    drainText = c_wchar_p("0")
    drainLimitText = c_wchar_p("100ms")
    json = c_wchar_p("")
    csv = c_wchar_p("")
    pcapText = c_wchar_p("0")
    detailsText = c_wchar_p("0")

    cmd = ns.core.CommandLine(__file__)
    check = ns.gsn.GsnCommandLineChecks("gsn-fat-tree")
    check.AddValue(cmd, "k", "Switch ports of the fat tree (even, 2 to 64): k^3/4 endpoints", kText)
    check.AddValue(
        cmd,
        "load",
        "Offered load per endpoint, fraction (0 to 1) of 6.4 Gbit/s",
        loadText,
    )
    check.AddValue(
        cmd, "size", "Message bytes, the 28-byte traffic header included (28 or more)", sizeText
    )
    check.AddValue(
        cmd,
        "simTime",
        "Time during which endpoints generate traffic (traffic starts at 5us)",
        simTimeText,
    )
    check.AddValue(cmd, "warmup", "Start of the measurement window (before simTime)", warmupText)
    check.AddValue(
        cmd,
        "pattern",
        "UniformRandom, Permutation, AllToAll, Incast or HotSpot",
        pattern,
    )
    check.AddValue(
        cmd,
        "vc",
        "Virtual channel of the traffic (0-3; 4: random among those that carry the Message)",
        vcText,
    )
    check.AddValue(cmd, "routing", "Auto, MinHop, UpDown or DimensionOrder", routing)
    check.AddValue(cmd, "seed", "Run number (RngRun) of the random streams", seedText)
    check.AddValue(
        cmd,
        "drain",
        "1: after simTime, run until no Message is in flight (at most drainLimit); "
        "0: stop 1 ms after simTime",
        drainText,
    )
    check.AddValue(cmd, "drainLimit", "Longest time to drain with --drain=1", drainLimitText)
    check.AddValue(cmd, "json", "Write the summary as JSON to this file", json)
    check.AddValue(
        cmd, "csv", "Write every Message (source, destination, bytes, times) as CSV", csv
    )
    check.AddValue(
        cmd,
        "pcap",
        "Write pcap traces of the endpoints (gsn-fat-tree-*.pcap)",
        pcapText,
    )
    check.AddValue(cmd, "details", "Also print one line per endpoint and per port", detailsText)
    check.Parse(cmd, argv)

    k = check.Integer("k", kText.value, 2, 64, "must be an even integer from 2 to 64")
    if k % 2 != 0:
        check.Fail("k", kText.value, "must be an even integer from 2 to 64")
    load = check.Real("load", loadText.value, 0.0, 1.0)
    size = check.Integer("size", sizeText.value, 28, 2**32 - 1)
    start = ns.core.MicroSeconds(5)  # links come up in a few microseconds
    simTime = check.Duration(
        "simTime",
        simTimeText.value,
        start + ns.core.NanoSeconds(1),
        ns.core.Days(1),
        "must be a time above 5us (traffic starts at 5us), at most 1d, e.g. 1ms",
    )
    warmup = check.Duration(
        "warmup",
        warmupText.value,
        ns.core.Seconds(0),
        simTime - ns.core.NanoSeconds(1),
        "must be a time from 0 to below simTime (" + simTimeText.value + "), e.g. 100us",
    )
    check.Choice(
        "pattern", pattern.value, ["UniformRandom", "Permutation", "AllToAll", "Incast", "HotSpot"]
    )
    vc = check.Integer("vc", vcText.value, 0, 4)
    seed = check.Integer("seed", seedText.value, 0, 2**63 - 1)
    drain = check.Boolean("drain", drainText.value)
    drainLimit = check.Duration(
        "drainLimit", drainLimitText.value, ns.core.NanoSeconds(1), ns.core.Days(1)
    )
    check.WritableFile("json", json.value)
    check.WritableFile("csv", csv.value)
    pcap = check.Boolean("pcap", pcapText.value)
    details = check.Boolean("details", detailsText.value)
    topology = ns.gsn.GsnTopologyBuilder.FatTree(k)
    check.Fabric("k", kText.value, topology, "routing", routing.value)
    ns.core.RngSeedManager.SetRun(seed)

    fabricHelper = ns.gsn.GsnFabricHelper()
    fabricHelper.SetRoutingAlgorithm(routing.value)
    fabric = fabricHelper.Install(topology)
    fabricHelper.AssignStreams(fabric, 1)

    traffic = ns.gsn.GsnTrafficHelper()
    traffic.SetAttribute("Pattern", ns.core.StringValue(pattern.value))
    traffic.SetAttribute("OfferedLoad", ns.core.DoubleValue(load))
    traffic.SetAttribute(
        "MessageSize", ns.core.StringValue("ns3::ConstantRandomVariable[Constant=%d]" % size)
    )
    traffic.SetAttribute("Vc", ns.core.UintegerValue(vc))
    traffic.SetStatsAttribute("WindowStart", ns.core.TimeValue(warmup))
    traffic.SetStatsAttribute("WindowEnd", ns.core.TimeValue(simTime))
    apps = traffic.Install(fabric.endpointDevices)
    traffic.AssignStreams(apps, 100000)
    apps.Start(start)
    apps.Stop(simTime)
    stats = traffic.GetStats()
    stats.AddLinks(fabric.GetAllPorts())
    stats.AddDropSources(fabric.endpointDevices, fabric.switches)
    if pcap:
        fabricHelper.EnablePcap("gsn-fat-tree", fabric.endpointDevices)

    if drain:
        stats.StopWhenDrained(simTime, drainLimit)
    else:
        # Let Messages in flight at the end drain before the statistics are read.
        ns.core.Simulator.Stop(simTime + ns.core.MilliSeconds(1))
    ns.core.Simulator.Run()

    print(
        "GSN fat tree k=%d: %d endpoints, %d switches; %s traffic of %d-byte Messages at %g%% "
        "load on VC %d, %s (window from %s)"
        % (
            k,
            fabric.endpoints.GetN(),
            fabric.switches.GetN(),
            pattern.value,
            size,
            load * 100,
            vc,
            simTime.As(ns.core.Time.MS),
            warmup.As(ns.core.Time.US),
        )
    )
    if drain:
        print(
            ("Drained at " if stats.IsDrained() else "Not drained within --drainLimit: stopped at ")
            + str(stats.GetDrainStop().As(ns.core.Time.US))
        )
    stats.Print(sys.stdout, details)
    if json.value:
        try:
            stats.WriteSummaryJson(json.value)
        except ValueError:
            check.Fail("json", json.value, "could not be written")
    if csv.value:
        try:
            stats.WriteCsv(csv.value)
        except ValueError:
            check.Fail("csv", csv.value, "could not be written")
    ns.core.Simulator.Destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
