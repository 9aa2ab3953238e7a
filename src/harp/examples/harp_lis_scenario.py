# SPDX-License-Identifier: GPL-2.0-only
#
# The Python twin of harp-lis-scenario.h: the scenario shared by the examples of the seed's
# figures 1-31 and 1-32: hosts A..L (no I) in two logical IP subnets of 192.0.2.0 with netmask
# 0xFFFFFFE0, the router J/H (one system with two GSN interfaces), IPv4 over GSN resolved by
# HARP, pings, and a report of the paths taken. The figure scripts give the fabric; this
# module does the rest, and prints what the C++ programs print.

import sys
from ctypes import c_wchar_p

from ns import ns

# A host of the seed's figures: (endpoint name, IPv4 address, LIS). Host number = letter
# position (A = 1, ..., L = 12), plus 32 in LIS_2.
HOSTS = [
    ("A", "192.0.2.1", 1),
    ("B", "192.0.2.2", 1),
    ("C", "192.0.2.35", 2),
    ("D", "192.0.2.36", 2),
    ("E", "192.0.2.5", 1),
    ("F", "192.0.2.38", 2),
    ("G", "192.0.2.39", 2),
    ("H", "192.0.2.40", 2),
    ("J", "192.0.2.10", 1),
    ("K", "192.0.2.11", 1),
    ("L", "192.0.2.12", 1),
]


def Address(name):
    """The address of a host."""
    for h in HOSTS:
        if h[0] == name:
            return ns.network.Ipv4Address(h[1])
    return ns.network.Ipv4Address()


class PingReport:
    """What one ping saw."""

    def __init__(self, source, to):
        self.source = source
        self.to = to
        self.replies = 0
        self.firstRtt = ns.core.Time()  # RTT of the first (address resolution included)
        self.minRtt = ns.core.Time()
        self.minTtl = 256  # lowest TTL of the replies at the source
        self.forwarders = []  # nodes that forwarded the requests


class LisScenario:
    """The running scenario."""

    def __init__(self, topology, broadcast):
        fabricHelper = ns.harp.HarpFabricHelper()
        fabricHelper.SetSwitchAttribute("BroadcastCapable", ns.core.BooleanValue(broadcast))
        fabricHelper.AddHost(["J", "H"])  # the router: one system, interfaces J and H
        self.fabric = fabricHelper.Install(topology)
        hosts = ns.harp.HarpFabricHelper.GetHosts(self.fabric)
        internet = ns.internet.InternetStackHelper()
        internet.Install(hosts)

        for name, address, lis in HOSTS:
            ip = ns.network.Ipv4Address(address)
            mask = ns.network.Ipv4Mask(0xFFFFFFE0)
            assign = ns.internet.Ipv4AddressHelper(
                ip.CombineMask(
                    mask), mask, ns.network.Ipv4Address(ip.Get() & ~mask.Get() & 0xFFFFFFFF,
                )
            )
            assign.Assign(ns.network.NetDeviceContainer(self.Device(name)))
            ns.core.Names.Add(name, self.Device(name))  # for the report
        routing = ns.internet.Ipv4StaticRoutingHelper()
        for name, address, lis in HOSTS:
            if name in ("J", "H"):
                continue  # the router has both LIS connected
            ipv4 = self.Node(name).GetObject[ns.internet.Ipv4]()
            routing.GetStaticRouting(ipv4).SetDefaultRoute(
                ns.network.Ipv4Address("192.0.2.10" if lis == 1 else "192.0.2.40"),
                ipv4.GetInterfaceForDevice(self.Device(name)),
            )

        # Two HARP servers per LIS, the same list on every host; the router's daemon serves
        # both LIS. Unused on a broadcast fabric.
        harp = ns.harp.HarpHelper()
        for server in ("J", "B", "H", "D"):
            harp.AddServer(self.Device(server))
        devices = ns.network.NetDeviceContainer()
        for h in HOSTS:
            devices.Add(self.Device(h[0]))
        harp.Install(devices)

        self.pings = []
        self.active = {}  # ping by src ^ dst address
        self.switchForwards = []  # Messages forwarded per switch

    def Device(self, name):
        return self.fabric.GetEndpointDevice(self.fabric.GetEndpointIndex(name))

    def Node(self, name):
        return self.fabric.endpoints.Get(self.fabric.GetEndpointIndex(name))

    def NodeName(self, node):
        """The name of the node (the router is "J/H")."""
        return "router J/H" if node == self.Node("J") else ns.core.Names.FindName(node.GetDevice(0))

    def Ping(self, source, to, start, count):
        """Ping to from source count times from start."""
        self.pings.append(PingReport(source, to))
        index = len(self.pings) - 1
        ping = ns.CreateObject[ns.applications.V4Ping]()
        ping.SetAttribute("Remote", ns.network.Ipv4AddressValue(Address(to)))
        self.Node(source).AddApplication(ping)
        ping.SetStartTime(start)
        ping.SetStopTime(start + ns.core.Seconds(count) - ns.core.MilliSeconds(500))
        ping.TraceConnectWithoutContext("Rtt", lambda rtt: self.OnRtt(index, rtt))
        self.active[Address(source).Get() ^ Address(to).Get()] = index

    def Run(self, figure, broadcast, stop, count, tables):
        """Run until stop and print the report; return 0 if every ping was answered."""
        for i in range(self.fabric.endpoints.GetN()):
            node = self.fabric.endpoints.Get(i)
            ipv4 = node.GetObject[ns.internet.Ipv4L3Protocol]()
            ipv4.TraceConnectWithoutContext(
                "LocalDeliver", lambda h, p, i, node=node: self.OnDeliver(node, h, p)
            )
            ipv4.TraceConnectWithoutContext(
                "UnicastForward", lambda h, p, i, node=node: self.OnForward(node, h, p)
            )
        for s, sw in enumerate(self.fabric.switchObjects):
            sw.TraceConnectWithoutContext("MessageForward", lambda *args, s=s: self.OnSwitch(s))
        # HARP refuses to resolve a host of another LIS, even on the same switch.
        a = self.Node("A").GetObject[ns.harp.HarpProtocol]().GetInterfaceForDevice(self.Device("A"))
        direct = ["answered"]

        def answered(ip, ok, ula):
            direct[0] = "resolved (wrong!)" if ok else "refused"

        ns.core.Simulator.ScheduleWithContext(
            self.Node("A").GetId(),
            ns.core.Seconds(4),
            lambda: a.ResolveAsync(Address("C"), answered),
        )
        ns.core.Simulator.Stop(stop)
        ns.core.Simulator.Run()

        out = sys.stdout
        out.write(
            "Seed figure %s: %d switch(es), %s fabric, LIS_1 = 192.0.2.0/27, LIS_2 = "
            "192.0.2.32/27 (netmask 0xFFFFFFE0)\n"
            % (
                figure,
                len(self.fabric.switchObjects),
                "broadcast" if broadcast else "non-broadcast",
            )
        )
        client = a.GetClient()
        detected = bool(client.IsBroadcastFabric())
        out.write(
            "  A's HARP: phase %s, self-test found a %s fabric"
            % (ns.harp.PhaseName(client.GetPhase()), "broadcast" if detected else "non-broadcast")
        )
        if not detected:
            out.write("; servers")
            for server in client.GetServers():
                out.write(" %s (%s)" % (server.address, server.ula))
        out.write("\n  A asks HARP for C (%s, LIS_2) directly: %s\n" % (Address("C"), direct[0]))
        status = 0
        for p in self.pings:
            hops = 64 - p.minTtl + 1 if p.minTtl <= 64 else 0
            out.write(
                "  ping %s (%s) -> %s (%s): %d/%d replies"
                % (p.source, Address(p.source), p.to, Address(p.to), p.replies, count)
            )
            if p.replies > 0:
                out.write(
                    ", RTT %.2f us (first %.2f us: ns-3's ARP request jitter and HARP), reply "
                    "TTL %d (%d IP hop%s), path %s"
                    % (
                        p.minRtt.GetNanoSeconds() / 1e3,
                        p.firstRtt.GetNanoSeconds() / 1e3,
                        p.minTtl,
                        hops,
                        "" if hops == 1 else "s",
                        p.source,
                    )
                )
                for f in p.forwarders:
                    out.write(" -> " + f)
                out.write(" -> " + p.to)
            out.write("\n")
            status |= 0 if p.replies == count else 1
        for s, forwarded in enumerate(self.switchForwards):
            element = self.fabric.topology.GetElement(self.fabric.switchElements[s])
            out.write("  switch %s forwarded %d Messages\n" % (element.name, forwarded))
        if tables:
            ns.harp.HarpHelper.PrintTables(ns.harp.HarpFabricHelper.GetHosts(self.fabric), out)
        status |= 0 if direct[0] == "refused" else 1
        return status

    def EnablePcap(self, prefix):
        """Write pcap traces of every host interface, prefix-<node>-<device>.pcap."""
        gsn = ns.gsn.GsnHelper()
        gsn.EnablePcap(prefix, self.fabric.endpointDevices)

    def OnRtt(self, index, rtt):
        p = self.pings[index]
        if p.replies == 0:
            p.firstRtt = rtt
            p.minRtt = rtt
        p.replies += 1
        p.minRtt = min(p.minRtt, rtt)

    def OnDeliver(self, node, header, packet):
        """Echo replies (ICMP type 0) delivered to a pinging host: their TTL."""
        if header.GetProtocol() != 1:
            return
        kind = packet.CopyData(1)[0]
        index = self.active.get(header.GetSource().Get() ^ header.GetDestination().Get())
        if (
            kind == 0
            and index is not None
            and Address(self.pings[index].source) == header.GetDestination()
        ):
            self.pings[index].minTtl = min(self.pings[index].minTtl, header.GetTtl())

    def OnForward(self, node, header, packet):
        """Echo requests forwarded by a node: the path."""
        index = self.active.get(header.GetSource().Get() ^ header.GetDestination().Get())
        if (
            header.GetProtocol() != 1
            or index is None
            or Address(self.pings[index].source) != header.GetSource()
        ):
            return
        f = self.pings[index].forwarders
        name = self.NodeName(node)
        if name not in f:
            f.append(name)

    def OnSwitch(self, s):
        if len(self.switchForwards) <= s:
            self.switchForwards.extend(
                [0] * (len(self.fabric.switchObjects) - len(self.switchForwards)),
            )
        self.switchForwards[s] += 1


def Main(figure, topology, argv):
    """The whole example: parse the command line, build, run, report; return the status."""
    broadcastText = c_wchar_p("0")
    countText = c_wchar_p("5")
    tablesText = c_wchar_p("0")
    pcapText = c_wchar_p("0")
    cmd = ns.core.CommandLine()
    check = ns.gsn.GsnCommandLineChecks("harp-figure-" + figure)
    cmd.Usage("Seed figure " + figure + ": two LIS on GSN, the router J/H, HARP.")
    check.AddValue(
        cmd,
        "broadcast",
        "Switches broadcast (HARP then needs no server)",
        broadcastText,
    )
    check.AddValue(cmd, "count", "Echo requests per ping (1 to 1000)", countText)
    check.AddValue(cmd, "tables", "Print every host's HARP table at the end", tablesText)
    check.AddValue(cmd, "pcap", "Write pcap traces harp-figure-*.pcap", pcapText)
    check.Parse(cmd, argv)
    broadcast = check.Boolean("broadcast", broadcastText.value)
    count = check.Integer("count", countText.value, 1, 1000)
    tables = check.Boolean("tables", tablesText.value)
    pcap = check.Boolean("pcap", pcapText.value)

    scenario = LisScenario(topology, broadcast)
    start = ns.core.Seconds(5)  # after detection (3 s) and registration
    scenario.Ping("A", "B", start, count)  # same LIS, same switch: direct
    scenario.Ping("A", "E", start, count)  # same LIS (across switches in 1-32): direct
    scenario.Ping("A", "C", start, count)  # LIS_2: through the router
    if pcap:
        scenario.EnablePcap("harp-figure-" + figure)
    status = scenario.Run(figure, broadcast, start + ns.core.Seconds(count + 1), count, tables)
    ns.core.Simulator.Destroy()
    return status
