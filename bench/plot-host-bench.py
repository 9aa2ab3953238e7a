#!/usr/bin/env python3
"""Plot the sweep of gsn-host-bench: throughput and latency of one transfer against its size,
for the link alone, ST and TCP under each host adapter profile, as one PNG (gnuplot).

Usage: bench/plot-host-bench.py [--bin build/bench/gsn-host-bench] [--csv FILE] [--png FILE]
                                [--run] [bench options after --, e.g. -- --maxSize=1048576]
Without --run it plots an existing CSV (default bench/results/host-bench.csv); with --run it
first runs the benchmark and writes that CSV. It measures and plots; it asserts nothing.
"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KIND_NAMES = {"link": "link alone", "st": "ST write", "tcp": "TCP message"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bench", "gsn-host-bench"))
    parser.add_argument("--csv", default=os.path.join(HERE, "results", "host-bench.csv"))
    parser.add_argument("--png", default=None, help="default: the CSV's name with .png")
    parser.add_argument("--run", action="store_true", help="run the benchmark first")
    parser.add_argument("rest", nargs="*", help="options passed to the benchmark")
    args = parser.parse_args()
    png = args.png or os.path.splitext(args.csv)[0] + ".png"

    if args.run:
        p = subprocess.run([args.bin] + args.rest, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("gsn-host-bench failed: " + p.stderr.strip())
        os.makedirs(os.path.dirname(args.csv) or ".", exist_ok=True)
        with open(args.csv, "w") as f:
            f.write(p.stdout)

    series = {}
    with open(args.csv) as f:
        for row in csv.DictReader(f):
            if float(row["latency_us"]) <= 0:
                continue
            key = (row["profile"], row["kind"])
            series.setdefault(key, []).append(
                (int(row["bytes"]), float(row["gbps"]), float(row["latency_us"])))
    if not series:
        sys.exit("no data in " + args.csv)

    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        sys.exit("gnuplot not found (Debian: gnuplot-nox): no plot written")
    with tempfile.TemporaryDirectory() as tmp:
        plots = []
        for i, (key, points) in enumerate(sorted(series.items())):
            data = os.path.join(tmp, "%d.dat" % i)
            with open(data, "w") as f:
                for n, gbps, lat in sorted(points):
                    f.write("%d %g %g\n" % (n, gbps, lat))
            plots.append((data, "%s, %s" % (key[0], KIND_NAMES.get(key[1], key[1]))))
        rate = ", ".join("'%s' using 1:2 with linespoints title '%s'" % p for p in plots)
        latency = ", ".join("'%s' using 1:3 with linespoints title '%s'" % p for p in plots)
        script = "\n".join([
            "set terminal png size 1400,560",
            "set output '%s'" % png,
            "set multiplot layout 1,2 title 'One transfer between two GSN hosts, by host "
            "adapter profile (gsn-host-bench)'",
            "set grid",
            "set key top left",
            "set logscale x 2",
            "set format x '2^{%L}'",
            "set xlabel 'transfer size (bytes)'",
            "set ylabel 'throughput: size / latency (Gbit/s)'",
            "plot " + rate,
            "set logscale y",
            "set ylabel 'latency: call to all data at the destination (us)'",
            "plot " + latency,
            "unset multiplot",
        ])
        p = subprocess.run([gnuplot], input=script, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("gnuplot failed: " + p.stderr.strip())
    print("wrote " + png)


if __name__ == "__main__":
    main()
