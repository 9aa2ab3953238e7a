# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of the Python bindings (test.py's python-bindings): object lifetimes, exceptions
instead of ns-3 aborts, callbacks (events, trace sources) and results as Python objects.

Run with the bindings on PYTHONPATH:
    PYTHONPATH=build/bindings/python python3 -m unittest discover -s bindings/python/tests
A binding that lets ns-3 abort ends this process: the suite then fails as a whole.
"""

import ctypes
import gc
import math
import os
import tempfile
import unittest
import weakref

from ns import ns

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def two_hosts():
    """Two nodes on one GSN cable: (nodes, devices)."""
    nodes = ns.network.NodeContainer()
    nodes.Create(2)
    devices = ns.gsn.GsnHelper().Install(nodes)
    return nodes, devices


def small_run(k=4, sim_time="200us", load=0.3, link_mode="Micropacket", vc=3):
    """A short fat-tree traffic run: (fabric, stats), simulation not run yet."""
    helper = ns.gsn.GsnFabricHelper()
    helper.SetLinkMode(link_mode)
    fabric = helper.Install(ns.gsn.GsnTopologyBuilder.FatTree(k))
    traffic = ns.gsn.GsnTrafficHelper()
    traffic.SetAttribute("Vc", ns.core.UintegerValue(vc))
    traffic.SetAttribute("OfferedLoad", ns.core.DoubleValue(load))
    traffic.SetAttribute(
        "MessageSize", ns.core.StringValue("ns3::ConstantRandomVariable[Constant=4000]")
    )
    traffic.SetStatsAttribute("WindowStart", ns.core.TimeValue(ns.core.MicroSeconds(20)))
    apps = traffic.Install(fabric.endpointDevices)
    traffic.AssignStreams(apps, 1000)
    apps.Start(ns.core.MicroSeconds(5))
    apps.Stop(ns.core.Time(sim_time))
    stats = traffic.GetStats()
    stats.AddLinks(fabric.GetAllPorts())
    stats.AddDropSources(fabric.endpointDevices, fabric.switches)
    ns.core.Simulator.Stop(ns.core.Time(sim_time) + ns.core.MilliSeconds(1))
    return fabric, stats


class Base(unittest.TestCase):
    def tearDown(self):
        ns.core.Simulator.Destroy()
        ns.core.Config.Reset()


class LifetimeTest(Base):
    def test_container_keeps_nodes_and_devices(self):
        nodes, devices = two_hosts()
        ids = [nodes.Get(i).GetId() for i in range(2)]
        addresses = [str(devices.Get(i).GetAddress()) for i in range(2)]
        # Only the containers hold them now (and the node list).
        gc.collect()
        self.assertEqual([n.GetId() for n in nodes], ids)
        self.assertEqual([str(d.GetAddress()) for d in devices], addresses)
        self.assertEqual(devices.Get(0).GetNode().GetId(), ids[0])

    def test_reference_counts_follow_python_and_containers(self):
        stats = ns.gsn.GsnTrafficStats()
        self.assertEqual(stats.GetReferenceCount(), 1)
        nodes, devices = two_hosts()
        device = devices.Get(0)
        before = device.GetReferenceCount()
        extra = ns.network.NetDeviceContainer(device)
        self.assertEqual(device.GetReferenceCount(), before + 1)
        del extra
        gc.collect()
        self.assertEqual(device.GetReferenceCount(), before)

    def test_object_given_to_a_node_outlives_its_python_name(self):
        nodes, devices = two_hosts()
        client = ns.network.PacketSocketClient()
        nodes.Get(0).AddApplication(client)
        del client
        gc.collect()
        app = nodes.Get(0).GetApplication(0)
        self.assertIsInstance(app, ns.network.PacketSocketClient)
        app.SetAttribute("PacketSize", ns.core.UintegerValue(100))

    def test_objects_come_back_as_their_own_class(self):
        fabric = ns.gsn.GsnFabricHelper().Install(ns.gsn.GsnTopologyBuilder.Star(2))
        self.assertIsInstance(fabric.endpointDevices.Get(0), ns.gsn.GsnNetDevice)
        self.assertIsInstance(fabric.switchPorts.Get(0), ns.gsn.GsnSwitchPort)
        self.assertIsInstance(fabric.switchObjects[0], ns.gsn.GsnSwitch)
        self.assertIsInstance(fabric.endpointDevices.Get(0).GetCable(), ns.gsn.GsnChannel)
        ns.internet.InternetStackHelper().Install(fabric.endpoints)
        ipv4 = fabric.endpoints.Get(0).GetObject[ns.internet.Ipv4]()
        self.assertIsInstance(ipv4, ns.internet.Ipv4L3Protocol)
        self.assertIs(ns.DynamicCast[ns.gsn.GsnNetDevice](fabric.switchPorts.Get(0)), None)
        self.assertIsNone(fabric.endpoints.Get(0).GetObject[ns.st.StProtocol]())

    def test_callbacks_released_at_destroy(self):
        nodes, devices = two_hosts()

        class Sink:
            def __init__(self):
                self.calls = 0

            def __call__(self, packet):
                self.calls += 1

        sink = Sink()
        alive = weakref.ref(sink)
        self.assertTrue(devices.Get(0).TraceConnectWithoutContext("MacTx", sink))
        ns.core.Simulator.Schedule(ns.core.Seconds(1), lambda s: None, sink)
        del sink
        gc.collect()
        self.assertIsNotNone(alive(), "ns-3 holds the callable while the simulation exists")
        self.assertGreater(ns.core.Simulator.GetHeldCallableCount(), 0)
        ns.core.Simulator.Destroy()
        gc.collect()
        self.assertIsNone(alive(), "Simulator.Destroy released the callable")
        self.assertEqual(ns.core.Simulator.GetHeldCallableCount(), 0)


class ExceptionTest(Base):
    def assertRaisesMessage(self, exception, text, fn, *args):
        with self.assertRaises(exception) as caught:
            fn(*args)
        self.assertIn(text, str(caught.exception))

    def test_config_defaults(self):
        self.assertRaisesMessage(
            ValueError,
            "does not exist",
            ns.core.Config.SetDefault,
            "ns3::GsnChannel::NoSuchThing",
            ns.core.DoubleValue(1),
        )
        self.assertRaisesMessage(
            ValueError,
            '"abc" is not a number',
            ns.core.Config.SetDefault,
            "ns3::GsnChannel::Length",
            ns.core.StringValue("abc"),
        )
        self.assertRaisesMessage(
            ValueError,
            "no TypeId",
            ns.core.Config.SetDefault,
            "ns3::NoSuchType::Length",
            ns.core.DoubleValue(1),
        )
        self.assertRaisesMessage(
            ValueError,
            "is not a time",
            ns.core.Config.SetDefault,
            "ns3::GsnFabricWatchdog::StallTime",
            ns.core.StringValue("1 fortnight"),
        )
        ns.core.Config.SetDefault("ns3::GsnChannel::Length", ns.core.StringValue("7"))

    def test_attributes_and_factories(self):
        nodes, devices = two_hosts()
        device = devices.Get(0)
        self.assertRaisesMessage(
            ValueError, "does not exist", device.SetAttribute, "Nope", ns.core.UintegerValue(1)
        )
        self.assertRaisesMessage(
            ValueError, "Invalid value", device.SetAttribute, "DefaultVc", ns.core.UintegerValue(9)
        )
        self.assertRaisesMessage(
            ValueError, "no TypeId", ns.core.ObjectFactory, "ns3::NoSuchType"
        )
        helper = ns.gsn.GsnTrafficHelper()
        self.assertRaisesMessage(
            ValueError,
            "no TypeId",
            helper.SetAttribute,
            "MessageSize",
            ns.core.StringValue("ns3::NoSuchVariable[Constant=3]"),
        )
        self.assertRaisesMessage(
            ValueError,
            "is not a number",
            helper.SetAttribute,
            "MessageSize",
            ns.core.StringValue("ns3::ConstantRandomVariable[Constant=many]"),
        )
        self.assertRaisesMessage(
            ValueError, "Can't Parse Time", ns.core.Time, "5 parsecs"
        )
        self.assertRaisesMessage(ValueError, "not an IPv4", ns.network.Ipv4Address, "300.1.2.3")

    def test_topologies_and_routing(self):
        self.assertRaisesMessage(ValueError, "even", ns.gsn.GsnTopologyBuilder.FatTree, 3)
        t = ns.gsn.GsnTopology()
        a = t.AddEndpoint("a")
        s = t.AddSwitch(4, "s")
        t.Connect(a, 0, s, 0)
        self.assertRaises(ValueError, t.Connect, a, 0, s, 1)
        t.AddEndpoint("lonely")
        helper = ns.gsn.GsnFabricHelper()
        self.assertRaisesMessage(ValueError, "impossible topology", helper.Install, t)
        fat = ns.gsn.GsnTopologyBuilder.FatTree(4)
        nodes = ns.network.NodeList.GetNNodes()
        helper.SetRoutingAlgorithm("DimensionOrder")
        self.assertRaisesMessage(ValueError, "routing DimensionOrder", helper.Install, fat)
        helper.SetRoutingAlgorithm("Bogus")
        self.assertRaisesMessage(ValueError, "unknown routing algorithm", helper.Install, fat)
        # Minimum-hop routing on a ring can deadlock: refused, naming the cycle.
        ring = ns.gsn.GsnTopologyBuilder.Ring(5)
        helper.SetRoutingAlgorithm("MinHop")
        self.assertRaisesMessage(ValueError, "cycle", helper.Install, ring)
        # Refused routes leave nothing built.
        self.assertEqual(ns.network.NodeList.GetNNodes(), nodes)
        # Broadcast set up by Admin micropackets reaches 7 switch hops from the manager at most.
        far = ns.gsn.GsnFabricHelper()
        far.SetAdminBroadcastSetup(True)
        self.assertRaisesMessage(
            ValueError, "crosses at most 7", far.Install, ns.gsn.GsnTopologyBuilder.Ring(18)
        )
        self.assertRaisesMessage(ValueError, "link mode", helper.SetLinkMode, "Fast")
        helper.SetRoutingAlgorithm("Auto")
        helper.SetChannelAttribute("Length", ns.core.DoubleValue(100))
        self.assertRaisesMessage(ValueError, "at most 40 m", helper.Install, fat)

    def test_helpers(self):
        nodes = ns.network.NodeContainer(3)
        self.assertRaisesMessage(ValueError, "exactly two", ns.gsn.GsnHelper().Install, nodes)
        traffic = ns.gsn.GsnTrafficHelper()
        self.assertRaisesMessage(ValueError, "has no GsnNetDevice", traffic.Install, nodes)
        fabric = ns.gsn.GsnFabricHelper().Install(ns.gsn.GsnTopologyBuilder.Star(2))
        traffic.SetAttribute(
            "MessageSize", ns.core.StringValue("ns3::ConstantRandomVariable[Constant=10]")
        )
        self.assertRaisesMessage(ValueError, "traffic header", traffic.Install, fabric.endpoints)
        self.assertRaisesMessage(
            ValueError,
            "StHelper.Install first",
            ns.st.StServerHelper(5000).Install,
            fabric.endpoints,
        )
        self.assertRaisesMessage(
            ValueError, "internet stack first", ns.harp.HarpHelper().Install, fabric.endpointDevices
        )
        self.assertRaisesMessage(ValueError, "no endpoint named", fabric.GetEndpointIndex, "nobody")
        self.assertRaises(IndexError, fabric.endpoints.Get, 2)
        ns.core.Names.Add("first", fabric.endpoints.Get(0))
        self.assertRaisesMessage(
            ValueError,
            "taken",
            ns.core.Names.Add,
            "first",
            fabric.endpoints.Get(1),
        )
        self.assertRaisesMessage(
            ValueError,
            "not found",
            ns.core.LogComponentEnable,
            "NoSuchLog",
            ns.core.LOG_LEVEL_ALL,
        )
        self.assertRaisesMessage(
            ValueError,
            "does not exist",
            fabric.endpointDevices.Get(0).TraceConnectWithoutContext,
            "NoSuchTrace",
            lambda: None,
        )
        ns.core.Names.Clear()

    def test_host_adapter_helper(self):
        nodes, devices = two_hosts()
        host = ns.gsn.GsnHostAdapterHelper()
        self.assertIn("Origin2000", ns.gsn.GsnHostAdapterHelper.GetProfileNames())
        self.assertRaisesMessage(ValueError, "no profile", host.SetProfile, "Cray")
        rate = ns.network.DataRateValue(ns.network.DataRate("400MBps"))
        self.assertRaisesMessage(ValueError, "names no part", host.Set, "Disk/Rate", rate)
        self.assertRaises(ValueError, host.Set, "Cpu/NoSuchRate", rate)
        self.assertFalse(host.InstallsAdapter())  # Ideal: no adapter
        host.SetProfile("Origin2000")
        host.Set("Cpu/CopyRate", rate)
        self.assertTrue(host.InstallsAdapter())
        adapter = host.Install(devices.Get(0))
        self.assertIsInstance(adapter, ns.gsn.GsnHostAdapter)
        host.Install(devices)
        got = ns.core.Config.LookupMatches(
            "/NodeList/%d/DeviceList/0/$ns3::GsnNetDevice/HostAdapter/Cpu" % nodes.Get(1).GetId()
        )
        self.assertEqual(len(got), 1)
        self.assertEqual(str(got[0].GetAttribute("CopyRate")), "3200000000bps")

    def test_python_exception_in_an_event_stops_the_run(self):
        seen = []

        def fails():
            raise KeyError("from an event")

        ns.core.Simulator.Schedule(ns.core.MicroSeconds(3), fails)
        ns.core.Simulator.Schedule(ns.core.MicroSeconds(5), lambda: seen.append(1))
        with self.assertRaises(KeyError):
            ns.core.Simulator.Run()
        self.assertEqual(ns.core.Simulator.Now(), ns.core.MicroSeconds(3))
        self.assertEqual(seen, [])
        self.assertRaises(ValueError, ns.core.Simulator.Schedule, ns.core.Seconds(-1), fails)


class CallbackTest(Base):
    def test_events_with_arguments_in_time_order(self):
        log = []
        ns.core.Simulator.Schedule(
            ns.core.MicroSeconds(2),
            lambda a,
            b: log.append((a, b, str(ns.core.Simulator.Now()))),
            "x",
            2,
        )
        ns.core.Simulator.Schedule(ns.core.MicroSeconds(1), lambda: log.append("first"))
        cancelled = ns.core.Simulator.Schedule(ns.core.MicroSeconds(1), lambda: log.append("no"))
        ns.core.Simulator.Cancel(cancelled)
        ns.core.Simulator.ScheduleWithContext(
            7, ns.core.MicroSeconds(3), lambda: log.append(ns.core.Simulator.GetContext())
        )
        ns.core.Simulator.Run()
        self.assertEqual(log, ["first", ("x", 2, "+2000ns"), 7])

    def test_device_traces(self):
        nodes, devices = two_hosts()
        drops = []
        sent = []
        devices.Get(0).TraceConnectWithoutContext("MacTxDrop", lambda p: drops.append(p.GetSize()))
        ns.core.Config.Connect(
            "/NodeList/%d/DeviceList/0/$ns3::GsnNetDevice/MacTx" % nodes.Get(0).GetId(),
            lambda context, p: sent.append((context, p.GetSize())),
        )
        limit = devices.Get(0).GetMaxMessageBytes(1)
        peer = devices.Get(1).GetAddress()
        ok = devices.Get(0).Send(ns.network.Packet(100), peer, 0x88B5)
        too_long = devices.Get(0).Send(ns.network.Packet(int(limit) + 1), peer, 0x88B5)
        self.assertTrue(ok)
        self.assertFalse(too_long)
        self.assertEqual(drops, [int(limit) + 1])
        self.assertEqual(sent[0][1], 100)
        self.assertIn("/MacTx", sent[0][0])

    def test_run_waits_in_summary(self):
        # The run mode with short Messages on all VCs: some VC waits for a run's end, and the
        # summary's total is the sum of its links'.
        fabric, stats = small_run(sim_time="300us", load=0.5, link_mode="Run", vc=4)
        ns.core.Simulator.Run()
        summary = stats.Summarize()
        self.assertEqual(summary["run_mode_links"], fabric.GetAllPorts().GetN())
        self.assertGreater(summary["run_waits"], 0)
        self.assertEqual(summary["run_waits"], sum(k["run_waits"] for k in summary["links"]))
        self.assertGreater(summary["run_wait_s"], 0)

    def test_delivered_trace_and_summary(self):
        fabric, stats = small_run()
        delivered = []
        stats.TraceConnectWithoutContext(
            "Delivered", lambda source, sequence, record: delivered.append(
                (source, sequence, record.arrivalNs),
            )
        )
        ns.core.Simulator.Run()
        self.assertGreater(len(delivered), 10)
        self.assertEqual(len(delivered), stats.GetDelivered())
        source, sequence, arrival = delivered[0]
        self.assertEqual(stats.GetRecords(source)[sequence]["arrival_ns"], arrival)

        summary = stats.Summarize()
        self.assertEqual(summary["messages"]["sent"] - summary["messages"]["undelivered"],
                         summary["latency_ns"]["count"])
        latency = summary["latency_ns"]
        self.assertLessEqual(latency["min"], latency["p50"])
        self.assertLessEqual(latency["p50"], latency["p90"])
        self.assertLessEqual(latency["p90"], latency["p99"])
        self.assertLessEqual(latency["p99"], latency["max"])
        self.assertLess(latency["ci95_low"], latency["mean"])
        self.assertLess(latency["mean"], latency["ci95_high"])
        self.assertGreater(summary["throughput_bps"]["delivered"], 0)
        self.assertEqual(len(summary["endpoints"]), 16)
        self.assertEqual(len(summary["links"]), fabric.GetAllPorts().GetN())
        self.assertTrue(0 < summary["link_utilisation"]["mean"] <= 1)
        self.assertEqual(summary["run_mode_links"], 0)  # (the micropacket mode: no run waits)
        self.assertEqual(summary["run_waits"], 0)
        self.assertFalse(summary["links"][0]["run_mode"])
        records = stats.GetAllRecords()
        self.assertEqual(len(records), stats.GetSent())
        arrived = [r for r in records if r["arrival_ns"] is not None]
        self.assertEqual(len(arrived), stats.GetDelivered())
        self.assertTrue(all(r["latency_ns"] == r["arrival_ns"] - r["send_ns"] for r in arrived))

    def test_every_trace_source_of_the_modules_connects(self):
        covered = set(ns.TraceSignatureNames())
        missing = []
        for name in ns.core.TypeId.GetRegisteredNames():
            tid = ns.core.TypeId.LookupByName(name)
            if tid.GetGroupName() in ("Gsn", "St", "Harp"):
                for source in tid.GetTraceSources():
                    if source["callback"] not in covered:
                        missing.append("%s::%s (%s)" % (name, source["name"], source["callback"]))
        self.assertEqual(missing, [])

    def test_ip_applications_flow_monitor_and_pcap(self):
        nodes, devices = two_hosts()
        ns.internet.InternetStackHelper().Install(nodes)
        addresses = ns.internet.Ipv4AddressHelper("10.1.1.0", "255.255.255.0")
        interfaces = addresses.Assign(devices)
        server = ns.applications.UdpEchoServerHelper(9)
        server.Install(nodes.Get(1)).Start(ns.core.Seconds(0))
        client = ns.applications.UdpEchoClientHelper(interfaces.GetAddress(1), 9)
        client.SetAttribute("MaxPackets", ns.core.UintegerValue(3))
        client.SetAttribute("Interval", ns.core.TimeValue(ns.core.MicroSeconds(100)))
        client.Install(nodes.Get(0)).Start(ns.core.MicroSeconds(10))
        monitor = ns.flow_monitor.FlowMonitorHelper()
        flows = monitor.InstallAll()
        with tempfile.TemporaryDirectory() as tmp:
            ns.gsn.GsnHelper().EnablePcap(os.path.join(tmp, "echo"), devices.Get(0))
            ns.core.Simulator.Stop(ns.core.MilliSeconds(1))
            ns.core.Simulator.Run()
            stats = flows.GetFlowStats()
            self.assertEqual(len(stats), 2)  # the requests and the echoes
            classifier = monitor.GetClassifier()
            for flow, s in stats.items():
                self.assertEqual(s["rxPackets"], 3)
                self.assertEqual(classifier.FindFlow(flow)["protocol"], 17)
            ns.core.Simulator.Destroy()  # closes the pcap file
            pcap = os.path.join(tmp, "echo-%d-0.pcap" % nodes.Get(0).GetId())
            self.assertGreater(os.path.getsize(pcap), 24)  # records after the file header

    def test_tcp_traces(self):
        nodes, devices = two_hosts()
        ns.internet.InternetStackHelper().Install(nodes)
        addresses = ns.internet.Ipv4AddressHelper("10.1.1.0", "255.255.255.0")
        interfaces = addresses.Assign(devices)
        sink = ns.applications.PacketSinkHelper(
            "ns3::TcpSocketFactory", ns.network.InetSocketAddress(ns.network.Ipv4Address.GetAny(), 9)
        )
        sink.Install(nodes.Get(1)).Start(ns.core.Seconds(0))
        bulk = ns.applications.BulkSendHelper(
            "ns3::TcpSocketFactory", ns.network.InetSocketAddress(interfaces.GetAddress(1), 9)
        )
        bulk.SetAttribute("MaxBytes", ns.core.UintegerValue(50000))
        bulk.Install(nodes.Get(0)).Start(ns.core.MicroSeconds(10))
        states, sent, highest = [], [], []

        def connect():
            base = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/"
            ns.core.Config.ConnectWithoutContext(base + "State", lambda old, new: states.append(new))
            ns.core.Config.ConnectWithoutContext(
                base + "Tx", lambda p, h, sock: sent.append((h.GetSequenceNumber(), sock))
            )
            ns.core.Config.ConnectWithoutContext(
                base + "HighestSequence", lambda old, new: highest.append(int(new))
            )

        # The socket exists once the application has started (at 10 us).
        ns.core.Simulator.Schedule(ns.core.MicroSeconds(10) + ns.core.NanoSeconds(1), connect)
        ns.core.Simulator.Stop(ns.core.MilliSeconds(5))
        ns.core.Simulator.Run()
        self.assertIn(ns.internet.TcpStates_t.ESTABLISHED, states)
        self.assertGreater(len(sent), 10)
        self.assertIsInstance(sent[0][1], ns.internet.TcpSocketBase)
        self.assertEqual(highest[-1], 50001)  # the SYN's number, then 50000 bytes
        self.assertEqual(highest, sorted(highest))

    def test_st_sockets_carry_bulk_send_to_packet_sink(self):
        nodes, devices = two_hosts()
        addresses = ns.internet.Ipv4AddressHelper("10.1.1.0", "255.255.255.0")
        ns.st.StHelper().Install(devices, addresses)
        ns.st.StHelper.PopulateStaticTables(nodes)
        self.assertEqual(ns.st.StSocketFactory.GetTypeId().GetName(), "ns3::StSocketFactory")
        server = nodes.Get(1).GetObject[ns.st.StProtocol]().GetLocalAddress()
        any_port = ns.network.InetSocketAddress(ns.network.Ipv4Address.GetAny(), 5000)
        sink = ns.applications.PacketSinkHelper(
            "ns3::StSocketFactory", ns.network.Address(any_port)
        )
        sinks = sink.Install(nodes.Get(1))
        to_server = ns.network.InetSocketAddress(server, 5000)
        bulk = ns.applications.BulkSendHelper("ns3::StSocketFactory", ns.network.Address(to_server))
        bulk.SetAttribute("MaxBytes", ns.core.UintegerValue(200000))
        bulk.Install(nodes.Get(0)).Start(ns.core.MicroSeconds(10))
        ns.core.Simulator.Stop(ns.core.MilliSeconds(50))
        ns.core.Simulator.Run()
        self.assertEqual(sinks.Get(0).GetTotalRx(), 200000)
        ns.core.Simulator.Destroy()

    def test_st_names_refuse_port_zero(self):
        with self.assertRaises(ValueError) as caught:
            ns.st.StHelper.AddService("x", 0)
        self.assertIn("Port 0", str(caught.exception))
        ns.st.StHelper.AddService("st-data", 4100)
        ns.st.StHelper.AddHost("server", ns.network.Ipv4Address("10.1.1.2"))
        ns.core.Simulator.Destroy()

    def test_empty_summary_has_nan(self):
        stats = ns.gsn.GsnTrafficStats()
        stats.SetEndpointCount(2)
        latency = stats.Summarize()["latency_ns"]
        self.assertEqual(latency["count"], 0)
        self.assertTrue(math.isnan(latency["mean"]))

    def test_command_line_with_ctypes(self):
        number = ctypes.c_int(3)
        rate = ctypes.c_double(0.5)
        flag = ctypes.c_bool(False)
        name = ctypes.c_wchar_p("default")
        cmd = ns.core.CommandLine("test")
        cmd.AddValue("number", "a number", number)
        cmd.AddValue("rate", "a rate", rate)
        cmd.AddValue("flag", "a flag", flag)
        cmd.AddValue("name", "a name", name)
        cmd.Parse(["test", "--number=-7", "--rate=0.25", "--flag", "--name=x"])
        self.assertEqual((number.value, rate.value, flag.value, name.value), (-7, 0.25, True, "x"))
        self.assertRaises(TypeError, cmd.AddValue, "bad", "not ctypes", 3)

    def test_topology_text_and_routes(self):
        t = ns.gsn.GsnTopologyBuilder.Star(3)
        again = ns.gsn.GsnTopology.Parse(t.ToText())
        self.assertEqual(again.ToText(), t.ToText())
        tables = ns.gsn.GsnRouting.Create("MinHop").Compute(t)
        route = tables.Route(t, 0, 2)
        self.assertEqual(route[0], (0, 0))
        self.assertEqual(route[-1][0], t.FindElement("sw0"))
        self.assertEqual(ns.gsn.GsnDeadlockChecker.FindCycle(t, tables), [])
        columns = {}
        ns.gsn.GsnRouting.Create("MinHop").ComputeColumns(
            t, lambda e, column: columns.setdefault(e, list(column)))
        self.assertEqual(sorted(columns), [0, 1, 2])
        sw = t.FindElement("sw0")
        for e, column in columns.items():
            self.assertEqual(column[sw], tables.Get(sw, e))


class DistributedTest(Base):
    """The distributed API: partitions of a fabric over MPI ranks, and GsnMpiHelper (here in
    one process; tools/test-mpi.sh runs the Python example under mpirun)."""

    def assertRaisesMessage(self, exception, text, fn, *args):
        with self.assertRaises(exception) as caught:
            fn(*args)
        self.assertIn(text, str(caught.exception))

    def test_mpi_helper_matches_the_build(self):
        mpi = ns.gsn.GsnMpiHelper
        available = mpi.IsAvailable()
        self.assertIsInstance(available, bool)
        # The cable across ranks exists exactly where the helper says MPI is built, and so do
        # the helper's MPI methods; the option checks exist in every build.
        remote = ns.core.TypeId.LookupByNameFailSafe("ns3::GsnRemoteChannel")
        self.assertEqual(remote is not None, available)
        for name in ("Enable", "GetRank", "GetSize", "StartLocalOnly", "GatherStats",
                     "GatherValue", "GetMicropacketsReceivedAhead", "Disable"):
            self.assertEqual(hasattr(mpi, name), available, name)
        self.assertTrue(hasattr(mpi, "EnableFromCommandLine"))
        self.assertTrue(hasattr(mpi, "PartitionFromCommandLine"))
        if available:
            # (Refused before MPI starts; tools/test-mpi.sh enables it under mpirun.)
            self.assertRaisesMessage(ValueError, "Distributed or NullMessage", mpi.Enable, "Bogus")
            self.assertEqual((mpi.GetRank(), mpi.GetSize()), (0, 1))
            self.assertEqual(mpi.GatherValue(2.5), [2.5])
            self.assertEqual(mpi.GetMicropacketsReceivedAhead(), 0)

    def test_partitions(self):
        helper = ns.gsn.GsnFabricHelper
        fat = ns.gsn.GsnTopologyBuilder.FatTree(4)
        blocks = helper.PartitionBlocks(fat, 2)
        self.assertEqual(len(blocks), fat.GetNElements())
        self.assertEqual(sorted(set(blocks)), [0, 1])
        self.assertEqual(helper.CheckRanks(fat, blocks, 2), "")
        # Two pods per rank, the core switches on rank 0 (ties go to the lower rank): only the
        # core cables of rank 1's pods are cut.
        self.assertEqual(helper.CountCutCables(fat, blocks), 8)
        self.assertEqual(helper.ChooseMethod(fat, helper.AUTO), helper.BLOCKS)
        self.assertEqual(helper.Partition(fat, 2, helper.AUTO), blocks)
        self.assertEqual(helper.Partition(fat, 1), [0] * fat.GetNElements())
        self.assertRaisesMessage(ValueError, "at least one rank", helper.PartitionBlocks, fat, 0)
        self.assertRaisesMessage(ValueError, "2 ranks for", helper.CountCutCables, fat, [0, 1])
        moved = list(blocks)
        moved[fat.FindElement("ep0")] = 1 - moved[fat.FindElement("ep0")]
        self.assertIn("must be on its switch's rank", helper.CheckRanks(fat, moved, 2))
        self.assertIn("is given rank 2 of 2", helper.CheckRanks(fat, [2] * len(blocks), 2))
        self.assertIn("rank 1 of 2 has no element", helper.CheckRanks(fat, [0] * len(blocks), 2))
        campus = ns.gsn.GsnTopology.ReadFile(
            os.path.join(TOP, "src", "gsn", "examples", "gsn-campus.topo")
        )
        if helper.HasGraphPartitioner():
            self.assertEqual(helper.ChooseMethod(campus, helper.AUTO), helper.GRAPH)
            graph = helper.PartitionGraph(campus, 4)
            # One building per rank (src/gsn/doc/gsn-distributed.rst): 5 of 77 cables cut.
            self.assertEqual(helper.CountCutCables(campus, graph), 5)
            self.assertEqual(helper.Partition(campus, 4), graph)
            small = ns.gsn.GsnTopologyBuilder.FatTree(2)
            self.assertRaisesMessage(
                ValueError, "use at most 5 ranks", helper.PartitionGraph, small, 6
            )
            self.assertIn("use at most 5", helper.CheckPartition(small, 6, helper.GRAPH))
            self.assertEqual(helper.CheckPartition(small, 6, helper.BLOCKS), "")
        else:
            self.assertEqual(helper.ChooseMethod(campus, helper.AUTO), helper.BLOCKS)
            self.assertRaisesMessage(
                ValueError, "no graph partitioner", helper.PartitionGraph, campus, 4
            )

    def test_split_fabric_refused_before_anything_is_built(self):
        fat = ns.gsn.GsnTopologyBuilder.FatTree(4)
        nodes = ns.network.NodeList.GetNNodes()
        helper = ns.gsn.GsnFabricHelper()
        self.assertRaisesMessage(ValueError, "at least one rank", helper.SetRanks, 0)
        helper.SetElementRanks([0, 1], 2)
        self.assertRaisesMessage(ValueError, "SetElementRanks gave 2 ranks", helper.Install, fat)
        helper.SetElementRanks([], 40)  # (no ranks by hand: the partition again)
        self.assertRaisesMessage(ValueError, "has no element of the fabric", helper.Install, fat)
        helper.SetRanks(2)
        if not ns.gsn.GsnMpiHelper.IsAvailable():
            self.assertRaisesMessage(ValueError, "no ns-3 mpi module", helper.Install, fat)
        else:
            ns.core.Config.SetDefault(
                "ns3::GsnRemoteChannel::MinDelay", ns.core.TimeValue(ns.core.NanoSeconds(100))
            )
            self.assertRaisesMessage(
                ValueError, "below ns3::GsnRemoteChannel::MinDelay", helper.Install, fat
            )
            ns.core.Config.Reset()
            helper.SetLinkMode("Run")
            self.assertRaisesMessage(ValueError, "run link mode", helper.Install, fat)
            helper.SetLinkMode("Micropacket")
            # A valid split, but MPI does not run here.
            self.assertRaisesMessage(ValueError, "but MPI runs 1", helper.Install, fat)
        self.assertEqual(ns.network.NodeList.GetNNodes(), nodes)
        helper.SetRanks(1)
        fabric = helper.Install(fat)
        self.assertEqual(list(fabric.elementRanks), [0] * fat.GetNElements())
        self.assertTrue(fabric.IsLocalEndpoint(0))
        self.assertRaises(IndexError, fabric.IsLocalEndpoint, 16)


def st_pair():
    """Two ST hosts, 10.1.1.1 and 10.1.1.2, on one GSN cable: their StProtocol objects."""
    nodes, devices = two_hosts()
    ns.st.StHelper().Install(devices, ns.internet.Ipv4AddressHelper("10.1.1.0", "255.255.255.0"))
    ns.st.StHelper.PopulateStaticTables(nodes)
    return nodes, [nodes.Get(i).GetObject[ns.st.StProtocol]() for i in range(2)]


class BypassTest(Base):
    """The ST Bypass API: the draft's routines from the script, StBypassApi inside events."""

    def listen_and_map(self, api, port, buffer):
        """A server handle listening on port that maps buffer once its connection is up."""
        err, server = api.Create()
        self.assertEqual(err, ns.st.ST_OK)
        self.assertEqual(ns.st.st_listen(server, None, str(port)), ns.st.ST_OK)
        got = []
        mapped = {}

        def received(e, hdr, payload):
            got.append((e, hdr, payload))
            if e == ns.st.ST_OK:
                api.Rx(server, ns.core.Seconds(-1), received)

        def accepted(e):
            self.assertEqual(e, ns.st.ST_OK)
            err, mh, mx = ns.st.st_map(server, ns.st.ST_PIN_RX, buffer)
            self.assertEqual(err, ns.st.ST_OK)
            mapped["mx"] = mx
            api.Rx(server, ns.core.Seconds(-1), received)

        api.Accept(server, accepted)
        return server, got, mapped

    def test_blocking_routines_from_the_script(self):
        nodes, proto = st_pair()
        dst = bytearray(40000)
        server, got, mapped = self.listen_and_map(proto[1].GetBypass(), 4000, dst)
        proto[0].GetBypass().MakeDefault()
        err, client = ns.st.st_create()
        self.assertEqual(err, ns.st.ST_OK)
        self.assertEqual(ns.st.st_connect(client, "10.1.1.9", "4000"), ns.st.ST_EHOSTUNREACH)
        self.assertEqual(ns.st.st_connect(client, "10.1.1.2", "4000"), ns.st.ST_OK)
        self.assertGreater(ns.core.Simulator.Now().GetNanoSeconds(), 0)
        self.assertAlmostEqual(ns.st.st_time(), ns.core.Simulator.Now().GetSeconds(), places=12)
        src = bytes(range(256)) * 156 + bytes(64)
        err, mt, _ = ns.st.st_map(client, ns.st.ST_PIN_TX, src)
        self.assertEqual(err, ns.st.ST_OK)
        data = ns.st.st_header_t(ns.st.StOp.Data, ns.st.StFlag.LAST | 3)
        self.assertEqual(data.op, ns.st.StOp.Data)
        self.assertEqual(data.flags, ns.st.StFlag.LAST | 3)
        data.mx = mapped["mx"]
        self.assertEqual(ns.st.st_tx(client, data, None, len(src)), ns.st.ST_OK)
        self.assertEqual(ns.st.st_flush(client, -1)[0], ns.st.ST_OK)
        # A st_rx with a timeout lets the DATA arrive.
        err, hdr, payload = ns.st.st_rx(client, 0.001)
        self.assertEqual(err, ns.st.ST_EWOULDBLOCK)
        self.assertEqual(bytes(dst), src)
        self.assertTrue(got and all(e == ns.st.ST_OK for e, _, _ in got))
        self.assertEqual(got[-1][1].op, ns.st.StOp.Data)
        self.assertEqual(ns.st.st_unmap(mt), ns.st.ST_OK)
        self.assertEqual(ns.st.st_close(client), ns.st.ST_OK)
        self.assertEqual(ns.st.st_delete(client), ns.st.ST_OK)
        self.assertEqual(ns.st.st_delete(client), ns.st.ST_EINVAL)
        self.assertIn("Bypass", ns.st.st_version())

    def test_event_driven_api_options_and_payload(self):
        nodes, proto = st_pair()
        api = [p.GetBypass() for p in proto]
        dst = bytearray(256)
        server, got, mapped = self.listen_and_map(api[1], 4001, dst)
        err, client = api[0].Create()
        self.assertEqual(ns.st.st_setopt(client, ns.st.ST_OPT_CTS_REQ, 3), ns.st.ST_OK)
        self.assertEqual(ns.st.st_getopt(client, ns.st.ST_OPT_CTS_REQ), (ns.st.ST_OK, 3))
        self.assertEqual(ns.st.st_getopt(client, 99999)[0], ns.st.ST_ENOPROTOOPT)
        done = []

        def connected(e):
            done.append(("connect", e))
            self.assertEqual(ns.st.st_getopt(client, ns.st.ST_OPT_PORT_REMOTE)[0], ns.st.ST_OK)
            rs = ns.st.st_header_t(ns.st.StOp.Rmr)
            self.assertEqual(ns.st.st_tx(client, rs, bytes([0xAB]) * 32), ns.st.ST_OK)
            api[0].Flush(client, -1, lambda e, n: done.append(("flush", e, n)))

        api[0].Connect(client, "10.1.1.2", "4001", connected)
        self.assertEqual(api[0].GetPendingCount(), 1)
        ns.core.Simulator.Stop(ns.core.MilliSeconds(1))
        ns.core.Simulator.Run()
        self.assertEqual(done[0], ("connect", ns.st.ST_OK))
        self.assertEqual(done[1][:2], ("flush", ns.st.ST_OK))
        rmr = [(h, p) for e, h, p in got if e == ns.st.ST_OK and h.op == ns.st.StOp.Rmr]
        self.assertEqual(len(rmr), 1)
        self.assertEqual(rmr[0][1], bytes([0xAB]) * 32)

    def test_mistakes_raise_or_return_errors(self):
        nodes, proto = st_pair()
        api = proto[0].GetBypass()
        err, h = api.Create()
        self.assertRaises(ValueError, ns.st.st_tx, h, ns.st.st_header_t(ns.st.StOp.Rmr), b"short")
        self.assertRaises(ValueError, ns.st.st_header_t, ns.st.StOp.Data, 0x800)
        self.assertRaises(ValueError, ns.st.st_rx, h, -1.0)
        # A connection is needed before st_map; the buffer is not kept then.
        self.assertEqual(ns.st.st_map(h, ns.st.ST_PIN_TX, b"x" * 64)[0], ns.st.ST_ENOTCONN)
        # Receive memory must be writable.
        self.assertRaises(ValueError, ns.st.st_map, h, ns.st.ST_PIN_RX, b"x" * 64)
        # st_accept on a handle that listens to nothing would wait for ever: an exception.
        self.assertEqual(ns.st.st_listen(h, None, "4100"), ns.st.ST_OK)
        with self.assertRaisesRegex(RuntimeError, "waits for ever"):
            ns.st.st_accept(h)
        # Inside an event, a routine that would have to wait raises; the run goes on.
        err, c = proto[1].GetBypass().Create()
        seen = []

        def inside():
            try:
                ns.st.st_connect(c, "10.1.1.1", "4100")
            except RuntimeError as e:
                seen.append(str(e))

        ns.core.Simulator.Schedule(ns.core.MicroSeconds(1), inside)
        ns.core.Simulator.Run()
        self.assertEqual(len(seen), 1)
        self.assertIn("StBypassApi", seen[0])

    def test_mapped_memory_is_held_until_unmapped(self):
        nodes, proto = st_pair()
        api = [p.GetBypass() for p in proto]
        dst = bytearray(64)
        server, got, mapped = self.listen_and_map(api[1], 4002, dst)
        api[0].MakeDefault()
        err, client = ns.st.st_create()
        self.assertEqual(ns.st.st_connect(client, "10.1.1.2", "4002"), ns.st.ST_OK)
        src = bytearray(b"\x5a" * 64)
        ref = weakref.ref(ns.st.st_map(client, ns.st.ST_PIN_TX, src)[1])
        # Exported while mapped: resizing would move memory the engine reads.
        self.assertRaises(BufferError, src.extend, b"more")
        data = ns.st.st_header_t(ns.st.StOp.Data, ns.st.StFlag.LAST)
        data.mx = mapped["mx"]
        self.assertEqual(ns.st.st_tx(client, data, None, 64), ns.st.ST_OK)
        ns.st.st_rx(client, 0.0005)
        self.assertEqual(bytes(dst), bytes(src))
        self.assertEqual(ns.st.st_delete(client), ns.st.ST_OK)
        src.extend(b"more")  # st_delete released it
        self.assertEqual(len(src), 68)
        del ref


if __name__ == "__main__":
    unittest.main()
