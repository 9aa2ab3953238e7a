#!/usr/bin/env python3
"""ST on a veth pair against TCP (iperf3) on the same pair, in one run.

Makes two network namespaces joined by a veth pair (removed at the end), then for each
transfer size runs build/host/st-bw (write) and iperf3 (TCP, the same bytes in one
connection) and records throughput and the CPU time both ends spent per byte moved; then the
round-trip latency of small messages (st-bw runs with --no-verify: iperf3 checks no data either): st-lat (a write ping-pong and a GET) against a TCP
ping-pong (Python sockets, TCP_NODELAY). Writes a CSV and, with gnuplot, a PNG. Needs root
and iperf3 (Debian: apt-get install iperf3). Prints figures; it is no test.

  sudo bench/st-host-bench.py [--build-dir build] [--mtu 9000] [--total 256M] [--out PREFIX]
"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20]

TCP_PINGPONG = r"""
import socket, sys, time
mode, host, size, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def recvn(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise SystemExit(1)
        b += c
    return b
if mode == "server":
    l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    l.bind((host, 5201 + 7)); l.listen(1); print("ready", flush=True)
    c, _ = l.accept(); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for _ in range(count):
        c.sendall(recvn(c, size))
else:
    s = socket.create_connection((host, 5201 + 7)); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    msg = b"x" * size; rtt = []
    for _ in range(count):
        t0 = time.perf_counter_ns(); s.sendall(msg); recvn(s, size); rtt.append((time.perf_counter_ns() - t0) / 1e3)
    rtt.sort(); print("%.2f %.2f %.2f" % (rtt[0], rtt[len(rtt) // 2], rtt[int(len(rtt) * 0.99)]))
"""


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def size_text(n):
    for unit, shift in (("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return str(n)


class Pair:
    """Two namespaces a and b, veth ends va and vb, 10.183.0.1 and .2."""

    def __init__(self, mtu):
        tag = "stb%d" % os.getpid()
        self.a, self.b, self.va, self.vb = tag + "-a", tag + "-b", tag + "a", tag + "b"
        self.ipa, self.ipb = "10.183.0.1", "10.183.0.2"
        run(["ip", "netns", "add", self.a])
        run(["ip", "netns", "add", self.b])
        run(["ip", "link", "add", self.va, "netns", self.a, "type", "veth", "peer", "name", self.vb,
             "netns", self.b])
        for ns, dev, ip in ((self.a, self.va, self.ipa), (self.b, self.vb, self.ipb)):
            run(["ip", "-n", ns, "addr", "add", ip + "/24", "dev", dev])
            run(["ip", "-n", ns, "link", "set", dev, "mtu", str(mtu), "up"])
            run(["ip", "-n", ns, "link", "set", "lo", "up"])
        for _ in range(50):
            if all("state UP" in run(["ip", "-n", ns, "link", "show", dev]).stdout
                   for ns, dev in ((self.a, self.va), (self.b, self.vb))):
                break
            time.sleep(0.1)

    def close(self):
        for ns in (self.a, self.b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    def start(self, ns, cmd):
        return subprocess.Popen(["ip", "netns", "exec", ns] + cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)


def finish(proc, timeout=300):
    """Waits for proc; returns (output, CPU seconds it used, user + system)."""
    deadline = time.time() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            break
        if time.time() > deadline:
            proc.kill()
            raise RuntimeError("timed out: %s" % proc.args)
        time.sleep(0.01)
    proc.returncode = os.waitstatus_to_exitcode(status)
    out = proc.stdout.read()
    if proc.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(proc.args), out))
    return out, usage.ru_utime + usage.ru_stime


def st_bw(pair, host, size, count):
    server = pair.start(pair.b, [host + "/st-bw", "-s", "--once", "-q", "-i", pair.vb])
    time.sleep(0.3)
    client = pair.start(pair.a, [host + "/st-bw", "-q", "-i", pair.va, "--size=%d" % size,
                                 "--count=%d" % count, "--outstanding=2", "--no-verify", pair.ipb])
    out, ccpu = finish(client)
    _, scpu = finish(server)
    fields = out.split("\n")[0].split()  # mode bytes count seconds Gbit/s MiB/s retrans
    return float(fields[4]), ccpu + scpu, int(fields[6])


def iperf(pair, size, total):
    server = pair.start(pair.b, ["iperf3", "-s", "-1", "-B", pair.ipb])
    time.sleep(0.3)
    client = pair.start(pair.a, ["iperf3", "-c", pair.ipb, "-n", str(total),
                                 "-l", str(min(size, 128 << 10)), "-f", "g"])
    out, ccpu = finish(client)
    _, scpu = finish(server)
    line = [l for l in out.splitlines() if "receiver" in l][-1].split()
    return float(line[line.index("Gbits/sec") - 1]), ccpu + scpu


def st_lat(pair, host, mode, size, count):
    server = pair.start(pair.b, [host + "/st-lat", "-s", "--once", "-q", "-i", pair.vb])
    time.sleep(0.3)
    client = pair.start(pair.a, [host + "/st-lat", "-q", "-i", pair.va, "--mode=" + mode,
                                 "--size=%d" % size, "--count=%d" % count, pair.ipb])
    out, _ = finish(client)
    finish(server)
    f = out.split()  # mode bytes count min mean median p99 max
    return float(f[3]), float(f[5]), float(f[6])


def tcp_lat(pair, size, count):
    server = pair.start(pair.b, [sys.executable, "-c", TCP_PINGPONG, "server", pair.ipb, str(size),
                                 str(count)])
    server.stdout.readline()
    client = pair.start(pair.a, [sys.executable, "-c", TCP_PINGPONG, "client", pair.ipb, str(size),
                                 str(count)])
    out, _ = finish(client)
    finish(server)
    return tuple(float(x) for x in out.split())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build-dir", default=os.path.join(TOP, "build"))
    p.add_argument("--mtu", type=int, default=9000)
    p.add_argument("--total", default="256M", help="bytes per size (K, M suffixes)")
    p.add_argument("--count", type=int, default=2000, help="round trips for latency")
    p.add_argument("--out", default=os.path.join(TOP, "bench", "results", "st-host-bench"),
                   help="prefix of the CSV and PNG (default: the current result files)")
    a = p.parse_args()
    if os.geteuid() != 0:
        sys.exit("st-host-bench: needs root (network namespaces, raw sockets)")
    if shutil.which("iperf3") is None:
        sys.exit("st-host-bench: iperf3 is missing (Debian: apt-get install iperf3)")
    host = os.path.join(a.build_dir, "host")
    total = int(a.total[:-1]) << {"K": 10, "M": 20, "G": 30}[a.total[-1]] if a.total[-1] in "KMG" else int(a.total)
    pair = Pair(a.mtu)
    rows = []
    try:
        for size in SIZES:
            count = max(1, total // size)
            st_gbps, st_cpu, retrans = st_bw(pair, host, size, count)
            tcp_gbps, tcp_cpu = iperf(pair, size, count * size)
            moved = count * size
            rows.append(["throughput", size, count, "%.3f" % st_gbps, "%.3f" % tcp_gbps,
                         "%.3f" % (st_cpu / moved * 1e9), "%.3f" % (tcp_cpu / moved * 1e9),
                         retrans, "", "", ""])
            print("%8s x %-6d ST %7.3f Gbit/s %6.2f ns CPU/byte (%d resent)   TCP %7.3f Gbit/s "
                  "%6.2f ns CPU/byte" % (size_text(size), count, st_gbps, st_cpu / moved * 1e9,
                                         retrans, tcp_gbps, tcp_cpu / moved * 1e9), flush=True)
        for size in (64, 1024):
            w = st_lat(pair, host, "write", size, a.count)
            g = st_lat(pair, host, "get", size, a.count)
            t = tcp_lat(pair, size, a.count)
            for name, v in (("st-write", w), ("st-get", g), ("tcp", t)):
                rows.append(["latency-" + name, size, a.count, "", "", "", "", "",
                             "%.2f" % v[0], "%.2f" % v[1], "%.2f" % v[2]])
            print("%8s round trip (min/median/p99 us): ST write %.1f/%.1f/%.1f  ST GET "
                  "%.1f/%.1f/%.1f  TCP %.1f/%.1f/%.1f" % ((size_text(size),) + w + g + t),
                  flush=True)
    finally:
        pair.close()
    csv_path = a.out + ".csv"
    os.makedirs(os.path.dirname(csv_path), exist_ok=True)
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["# st-host-bench.py --mtu %d --total %s --count %d" % (a.mtu, a.total, a.count)])
        w.writerow(["what", "bytes", "count", "st_gbps", "tcp_gbps", "st_cpu_ns_per_byte",
                    "tcp_cpu_ns_per_byte", "st_retransmissions", "rtt_min_us", "rtt_median_us",
                    "rtt_p99_us"])
        w.writerows(rows)
    print("st-host-bench: wrote %s" % csv_path)
    if shutil.which("gnuplot"):
        png = a.out + ".png"
        script = """
set terminal png size 1000,420; set output '%s'; set datafile separator ','
set multiplot layout 1,2
set logscale x 2; set xlabel 'transfer size'; set key top left
set xtics ('4K' 4096, '64K' 65536, '1M' 1048576, '16M' 16777216, '64M' 67108864)
set ylabel 'Gbit/s'; set title 'ST (st-bw) vs TCP (iperf3), veth, MTU %d'
plot '%s' using (strcol(1) eq 'throughput' ? $2 : NaN):4 with linespoints title 'ST', \\
     '' using (strcol(1) eq 'throughput' ? $2 : NaN):5 with linespoints title 'TCP'
set ylabel 'CPU ns per byte (both ends)'; set title 'CPU time per byte'
plot '%s' using (strcol(1) eq 'throughput' ? $2 : NaN):6 with linespoints title 'ST', \\
     '' using (strcol(1) eq 'throughput' ? $2 : NaN):7 with linespoints title 'TCP'
unset multiplot
""" % (png, a.mtu, csv_path, csv_path)
        r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
        print("st-host-bench: wrote %s" % png if r.returncode == 0 else r.stderr)


if __name__ == "__main__":
    main()
