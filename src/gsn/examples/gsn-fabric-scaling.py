#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python twin of gsn-fabric-scaling.cc: any fabric the builders make (or one read from a
# topology file) of any size, under a chosen traffic pattern and load, with progress printed
# during long runs and the figures a study needs at the end (throughput, latency, events, wall
# time). For the same arguments it prints what the C++ program prints, wall times aside.
#
# Usage: gsn-fabric-scaling.py [--topology=fattree] [--k=8] [--n=2] [--x=4] [--y=4]
#                              [--file=PATH] [--load=0.5] [--size=60000] [--simTime=1ms]
#                              [--pattern=UniformRandom] [--vc=3] [--routing=Auto]
#                              [--linkMode=Micropacket] [--errorRate=0] [--seed=1]
#                              [--progress=1] [--drain=1] [--drainLimit=100ms] [--json=FILE]
#                              [--scheduler=ns3::GsnTimingWheelScheduler] [--mpi=1]
#                              [--sync=Distributed|NullMessage]
#                              [--partition=auto|blocks|graph] [--deliveryCallback=1]
#   --topology: fattree (k), karyntree (k, n), mesh (x, y), torus (x, y), star (k), file
#   --deliveryCallback (Python only): count every Message delivery in a Python callback
#     (GsnTrafficStats' Delivered trace source), to measure what a callback costs
#   --mpi: split the fabric over the ranks of mpirun (mpirun -np N python3 ... --mpi=1); rank 0
#     gathers the statistics and prints them, as the C++ program does
# A bad value prints one line naming the option and exits with status 1.

import io
import sys
import time
from ctypes import c_wchar_p

from ns import ns


def main(argv):
    topology = c_wchar_p("fattree")
    kText = c_wchar_p("8")
    nText = c_wchar_p("2")
    xText = c_wchar_p("4")
    yText = c_wchar_p("4")
    file = c_wchar_p("")
    loadText = c_wchar_p("0.5")
    sizeText = c_wchar_p("60000")
    simTimeText = c_wchar_p("1ms")
    pattern = c_wchar_p("UniformRandom")
    vcText = c_wchar_p("3")
    routing = c_wchar_p("Auto")
    seedText = c_wchar_p("1")
    errorRateText = c_wchar_p("0")
    progressText = c_wchar_p("1")
    drainText = c_wchar_p("0")
    drainLimitText = c_wchar_p("100ms")
    json = c_wchar_p("")
    scheduler = c_wchar_p("ns3::GsnTimingWheelScheduler")
    linkMode = c_wchar_p("Micropacket")
    mpiText = c_wchar_p("0")
    sync = c_wchar_p("Distributed")
    partition = c_wchar_p("auto")
    callbackText = c_wchar_p("0")

    cmd = ns.core.CommandLine(__file__)
    check = ns.gsn.GsnCommandLineChecks("gsn-fabric-scaling")
    check.AddValue(cmd, "topology", "fattree, karyntree, mesh, torus, star or file", topology)
    check.AddValue(
        cmd,
        "k",
        "fattree: switch ports (even); karyntree: arity; star: endpoints",
        kText,
    )
    check.AddValue(cmd, "n", "karyntree: levels", nText)
    check.AddValue(cmd, "x", "mesh/torus: switches along x", xText)
    check.AddValue(cmd, "y", "mesh/torus: switches along y", yText)
    check.AddValue(cmd, "file", "topology file (with --topology=file)", file)
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
    check.AddValue(
        cmd,
        "linkMode",
        "Micropacket (the reference) or Run (fewer events, approximate under contention)",
        linkMode,
    )
    check.AddValue(
        cmd,
        "errorRate",
        "Probability (0 to 1) that a link corrupts a micropacket (go-back-N resends it)",
        errorRateText,
    )
    check.AddValue(cmd, "seed", "Run number (RngRun)", seedText)
    check.AddValue(cmd, "progress", "Print progress every few wall seconds", progressText)
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
        cmd,
        "scheduler",
        "ns-3 event scheduler (the same events in the same order under each; the default is "
        "the fastest on large fabrics)",
        scheduler,
    )
    check.AddValue(cmd, "mpi", "Split the fabric over the MPI ranks of mpirun", mpiText)
    check.AddValue(
        cmd,
        "sync",
        "MPI synchronisation: Distributed (granted time windows) or NullMessage",
        sync,
    )
    check.AddValue(
        cmd,
        "partition",
        "How the fabric is split over the MPI ranks: auto (blocks for the builders' shapes, "
        "graph for a topology file), blocks, or graph (METIS)",
        partition,
    )
    check.AddValue(
        cmd,
        "deliveryCallback",
        "Python only: count every Message delivery in a Python callback (its cost)",
        callbackText,
    )
    check.Parse(cmd, argv)

    check.Choice(
        "topology",
        topology.value,
        ["fattree", "karyntree", "mesh", "torus", "star", "file"],
    )
    # Ranges per shape; the builder then refuses fabrics above its element limit.
    maxPorts = 65535
    try:
        if topology.value == "fattree":
            even = "must be an even integer from 2 to 64 with --topology=fattree"
            k = check.Integer("k", kText.value, 2, 64, even)
            if k % 2 != 0:
                check.Fail("k", kText.value, even)
            t = ns.gsn.GsnTopologyBuilder.FatTree(k)
        elif topology.value == "karyntree":
            k = check.Integer("k", kText.value, 2, maxPorts)
            n = check.Integer("n", nText.value, 1, 64)
            t = ns.gsn.GsnTopologyBuilder.KaryNTree(k, n)
        elif topology.value in ("mesh", "torus"):
            x = check.Integer("x", xText.value, 1, maxPorts)
            y = check.Integer("y", yText.value, 1, maxPorts)
            if topology.value == "mesh":
                t = ns.gsn.GsnTopologyBuilder.Mesh2D(x, y)
            else:
                t = ns.gsn.GsnTopologyBuilder.Torus2D(x, y)
        elif topology.value == "star":
            t = ns.gsn.GsnTopologyBuilder.Star(check.Integer("k", kText.value, 1, maxPorts))
        else:
            check.ReadableFile("file", file.value)
            t = ns.gsn.GsnTopology.ReadFile(file.value)
    except ValueError as e:
        if topology.value == "file":
            check.Fail("file", file.value, str(e))
        check.Fail("topology", topology.value, str(e))
    fromFile = topology.value == "file"
    check.Fabric(
        "file" if fromFile else "topology",
        file.value if fromFile else topology.value,
        t,
        "routing",
        routing.value,
    )
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
    check.Choice(
        "pattern", pattern.value, ["UniformRandom", "Permutation", "AllToAll", "Incast", "HotSpot"]
    )
    vc = check.Integer("vc", vcText.value, 0, 4)
    check.Choice("linkMode", linkMode.value, ["Micropacket", "Run"])
    errorRate = check.Real("errorRate", errorRateText.value, 0.0, 1.0)
    seed = check.Integer("seed", seedText.value, 0, 2**63 - 1)
    progress = check.Boolean("progress", progressText.value)
    drain = check.Boolean("drain", drainText.value)
    drainLimit = check.Duration(
        "drainLimit", drainLimitText.value, ns.core.NanoSeconds(1), ns.core.Days(1)
    )
    check.WritableFile("json", json.value)
    check.SchedulerType("scheduler", scheduler.value)
    deliveryCallback = check.Boolean("deliveryCallback", callbackText.value)
    ns.core.GlobalValue.Bind("SchedulerType", ns.core.StringValue(scheduler.value))
    ns.core.RngSeedManager.SetRun(seed)
    mpiHelper = ns.gsn.GsnMpiHelper
    partitionMethod = mpiHelper.PartitionFromCommandLine(check, partition.value)
    mpi = mpiHelper.EnableFromCommandLine(
        check, mpiText.value, sync.value, drain, drainText.value, argv
    )
    # (GetSize and GetRank exist where the build has MPI; without it --mpi=1 was refused.)
    ranks = mpiHelper.GetSize() if mpi else 1
    rank = mpiHelper.GetRank() if mpi else 0

    wall0 = time.monotonic()
    fabricHelper = ns.gsn.GsnFabricHelper()
    fabricHelper.SetRoutingAlgorithm(routing.value)
    fabricHelper.SetLinkMode(linkMode.value)
    fabricHelper.SetPartitionMethod(partitionMethod)
    fabricHelper.SetRanks(ranks)
    fabric = fabricHelper.Install(t)
    streams = fabricHelper.AssignStreams(fabric, 1)
    if errorRate > 0.0:
        ns.gsn.GsnHelper.SetMicropacketErrorRate(fabric.GetAllPorts(), errorRate, 1 + streams)

    traffic = ns.gsn.GsnTrafficHelper()
    traffic.SetAttribute("Pattern", ns.core.StringValue(pattern.value))
    traffic.SetAttribute("OfferedLoad", ns.core.DoubleValue(load))
    traffic.SetAttribute(
        "MessageSize", ns.core.StringValue("ns3::ConstantRandomVariable[Constant=%d]" % size)
    )
    traffic.SetAttribute("Vc", ns.core.UintegerValue(vc))
    traffic.SetStatsAttribute("WindowStart", ns.core.TimeValue(simTime / 10))
    traffic.SetStatsAttribute("WindowEnd", ns.core.TimeValue(simTime))
    apps = traffic.Install(fabric.endpointDevices)
    traffic.AssignStreams(apps, 100000)
    apps.Start(start)
    apps.Stop(simTime)
    if mpi:
        mpiHelper.StartLocalOnly(apps, fabric)
    stats = traffic.GetStats()
    stats.SetPartial(ranks > 1)
    stats.AddLinks(fabric.GetAllPorts())
    stats.AddDropSources(fabric.endpointDevices, fabric.switches)
    deliveries = [0]
    if deliveryCallback:

        def delivered(source, sequence, record):
            deliveries[0] += 1

        stats.TraceConnectWithoutContext("Delivered", delivered)
    wall1 = time.monotonic()

    show = ns.core.ShowProgress(ns.core.Seconds(2)) if progress and rank == 0 else None
    if drain:
        stats.StopWhenDrained(simTime, drainLimit)
    else:
        ns.core.Simulator.Stop(simTime + ns.core.MilliSeconds(1))
    events0 = ns.core.Simulator.GetEventCount()
    ns.core.Simulator.Run()
    wall2 = time.monotonic()
    events = ns.core.Simulator.GetEventCount() - events0
    show = None

    build = wall1 - wall0
    run = wall2 - wall1
    if mpi:
        mpiHelper.GatherStats(stats)
        rankEvents = mpiHelper.GatherValue(float(events))
        rankRun = mpiHelper.GatherValue(run)
        rankAhead = mpiHelper.GatherValue(float(mpiHelper.GetMicropacketsReceivedAhead()))
        rankPorts = mpiHelper.GatherValue(float(fabric.GetNLocalPorts()))
    else:
        rankEvents, rankRun = [float(events)], [run]
        rankPorts = [float(fabric.GetNLocalPorts())]
    # Rank 0 prints; the others' lines go nowhere.
    out = sys.stdout if rank == 0 else io.StringIO()
    print(
        "GSN %s: %d endpoints, %d switches; %s, %d-byte Messages, %g%% load, %s of traffic"
        % (
            topology.value,
            fabric.endpoints.GetN(),
            fabric.switches.GetN(),
            pattern.value,
            size,
            load * 100,
            simTime.As(ns.core.Time.MS),
        ),
        file=out,
    )
    if drain:
        print(
            ("Drained at " if stats.IsDrained() else "Not drained within --drainLimit: stopped at ")
            + str(stats.GetDrainStop().As(ns.core.Time.US)),
            file=out,
        )
    stats.Print(out, False)
    # (ShowProgress's own events, spaced by wall time, vary by a few between runs.)
    print(
        "events %d%s, build %g s, run %g s, %g events/s, %g wall s per simulated ms"
        % (
            events,
            " (with the progress meter's)" if progress else "",
            build,
            run,
            events / max(run, 1e-9),
            run / (simTime.GetSeconds() * 1e3 + 1.0),
        ),
        file=out,
    )
    if mpi:
        # How the fabric was split: the cables between ranks are what MPI carries.
        perRank = [0] * ranks
        for r in fabric.elementRanks:
            perRank[r] += 1
        graph = ns.gsn.GsnFabricHelper.ChooseMethod(t, partitionMethod) == (
            ns.gsn.GsnFabricHelper.GRAPH
        )
        print(
            "partition: %s (%s), %d of %d cables cut, elements per rank: %s, "
            "ports built per rank: %s (of %d)"
            % (
                partition.value,
                "graph" if graph else "blocks",
                ns.gsn.GsnFabricHelper.CountCutCables(t, fabric.elementRanks),
                len(t.GetCables()),
                " ".join(str(n) for n in perRank),
                " ".join(str(int(n)) for n in rankPorts),
                fabric.GetAllPorts().GetN(),
            ),
            file=out,
        )
    if ranks > 1:
        # (The line above is rank 0's; each rank's own figures:)
        for r in range(len(rankEvents)):
            print(
                "rank %d of %d: events %d, received ahead %d, run %g s"
                % (r, ranks, int(rankEvents[r]), int(rankAhead[r]), rankRun[r]),
                file=out,
            )
    if deliveryCallback:
        print("Python delivery callback: %d calls" % deliveries[0], file=out)
    if json.value and rank == 0:
        try:
            stats.WriteSummaryJson(json.value)
        except ValueError:
            check.Fail("json", json.value, "could not be written")
    ns.core.Simulator.Destroy()
    if mpi:
        mpiHelper.Disable()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
