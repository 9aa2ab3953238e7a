#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A scaling study of GSN fat trees: sweeps fabric size, offered load and traffic pattern over
several seeds, runs the points in parallel processes (build/examples/gsn-fabric-scaling), and
writes one CSV row per point with the mean over seeds and a 95% confidence interval (Student t)
of delivered throughput and of the latency percentiles; with gnuplot installed it also plots
throughput and p50/p99 latency against load.

Example (small, a few minutes on 2 cores):
  tools/gsn-scaling-study.py --k 4 --loads 0.1,0.3,0.5 --patterns UniformRandom --seeds 1,2,3
Each point split over MPI ranks (ns-3's mpi module in the build; on a cluster, give the
launcher a host file and run one point at a time):
  tools/gsn-scaling-study.py --k 16 --ranks 64 --jobs 1 --mpirun "mpirun --hostfile hosts"

The per-run statistics (percentiles, per-run confidence interval of the mean latency) come
from GsnTrafficStats (GSL); this script combines runs of different seeds.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (then 1.96).
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_ci(values):
    """Mean and half-width of its 95% confidence interval (0 for a single value)."""
    values = [v for v in values if v is not None and not math.isnan(v)]
    if not values:
        return float("nan"), float("nan")
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, 0.0
    df = len(values) - 1
    t = T975[df - 1] if df <= len(T975) else 1.96
    return m, t * statistics.stdev(values) / math.sqrt(len(values))


def run_point(program, k, load, pattern, seed, sim_time, size, workdir, timeout, link_mode,
              error_rate, sim_args, launcher=()):
    """One simulation (under launcher, e.g. mpirun -np N, with its own MPI options already in
    sim_args); returns a dict of figures or raises RuntimeError."""
    out = os.path.join(workdir, "k%d-l%g-%s-s%d.json" % (k, load, pattern, seed))
    argv = [program, "--topology=fattree", "--k=%d" % k, "--load=%g" % load,
            "--pattern=%s" % pattern, "--seed=%d" % seed, "--simTime=%s" % sim_time,
            "--size=%d" % size, "--progress=0", "--json=%s" % out,
            "--linkMode=%s" % link_mode, "--errorRate=%g" % error_rate] + sim_args
    argv = list(launcher) + argv
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(argv), proc.returncode,
                                                   proc.stderr.strip()[-400:]))
    with open(out, encoding="utf-8") as f:
        summary = json.load(f)
    lat = summary["latency_ns"]
    return {
        "throughput_gbps": summary["throughput_bps"]["delivered"] / 1e9,
        "offered_gbps": summary["throughput_bps"]["offered"] / 1e9,
        "p50_us": (lat["p50"] or float("nan")) / 1e3,
        "p99_us": (lat["p99"] or float("nan")) / 1e3,
        "mean_us": (lat["mean"] or float("nan")) / 1e3,
        "wall_s": time.monotonic() - start,
    }


def plot(csv_path, png_path, patterns, sizes):
    """Throughput and latency against load, one line per (size, pattern), with error bars."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("gnuplot is not installed: no plot (apt-get install gnuplot-nox)")
        return
    columns = {"throughput_gbps": 5, "p50_us": 7, "p99_us": 9}
    script = ["set terminal pngcairo size 1500,450 noenhanced", "set output '%s'" % png_path,
              "set datafile separator ','", "set key top left", "set xlabel 'offered load'",
              "set multiplot layout 1,3"]
    for name, col in columns.items():
        script.append("set ylabel '%s'" % name)
        series = []
        for k in sizes:
            for pattern in patterns:
                series.append(
                    "'%s' using ($1==%d && strcol(2) eq '%s' ? $3 : 1/0):%d:%d with yerrorlines "
                    "title 'k=%d %s'" % (csv_path, k, pattern, col, col + 1, k, pattern))
        script.append("plot " + ", ".join(series))
    script.append("unset multiplot")
    subprocess.run([gnuplot], input="\n".join(script), text=True, check=False)
    print("plot: %s" % png_path)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(TOP, "build"))
    parser.add_argument("--k", default="4", help="fat-tree switch ports, comma separated")
    parser.add_argument("--loads", default="0.1,0.3,0.5,0.7")
    parser.add_argument("--patterns", default="UniformRandom,Permutation")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--sim-time", default="300us")
    parser.add_argument("--size", type=int, default=60000)
    parser.add_argument("--jobs", type=int, default=2, help="simulations at a time")
    parser.add_argument("--link-mode", default="Micropacket", choices=["Micropacket", "Run"],
                        help="GsnPortDevice::LinkMode: the reference, or the faster runs")
    parser.add_argument("--error-rate", type=float, default=0.0,
                        help="probability that a link corrupts a micropacket (0-1)")
    parser.add_argument("--sim-args", default="",
                        help="more arguments for every simulation, e.g. "
                             "--sim-args=--ns3::GsnPortDevice::ExactCredits=true")
    parser.add_argument("--ranks", type=int, default=1,
                        help="MPI ranks per simulation (above 1: run under --mpirun with "
                             "--mpi=1; needs ns-3's mpi module in the build)")
    parser.add_argument("--sync", default="Distributed", choices=["Distributed", "NullMessage"],
                        help="MPI synchronisation with --ranks above 1")
    parser.add_argument("--mpirun", default="mpirun",
                        help="the MPI launcher and its options, e.g. 'mpirun --hostfile hosts' "
                             "(--allow-run-as-root is added as root)")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--out", default=os.path.join(TOP, "build", "study"))
    args = parser.parse_args()
    if not 0.0 <= args.error_rate <= 1.0:
        parser.error("--error-rate must be in [0, 1]")
    if args.ranks < 1:
        parser.error("--ranks must be at least 1")
    launcher = []
    sim_args = shlex.split(args.sim_args)
    if args.ranks > 1:
        launcher = shlex.split(args.mpirun)
        if os.geteuid() == 0:
            launcher.append("--allow-run-as-root")
        launcher += ["-np", str(args.ranks)]
        sim_args += ["--mpi=1", "--sync=%s" % args.sync]

    program = os.path.join(args.build_dir, "examples", "gsn-fabric-scaling")
    if not os.access(program, os.X_OK):
        sys.exit("%s is not built (cmake --build %s)" % (program, args.build_dir))
    sizes = [int(x) for x in args.k.split(",")]
    loads = [float(x) for x in args.loads.split(",")]
    patterns = args.patterns.split(",")
    seeds = [int(x) for x in args.seeds.split(",")]
    os.makedirs(args.out, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="runs-", dir=args.out)

    points = [(k, l, p, s) for k in sizes for l in loads for p in patterns for s in seeds]
    results = {}
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_point, program, k, l, p, s, args.sim_time, args.size,
                               workdir, args.timeout, args.link_mode, args.error_rate,
                               sim_args, launcher): (k, l, p, s)
                   for k, l, p, s in points}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            key = futures[future]
            try:
                results[key] = future.result()
                print("[%d/%d] k=%d load=%g %s seed=%d: %.2f Gbit/s, p99 %.1f us (%.1f s)" % (
                    done, len(points), *key, results[key]["throughput_gbps"],
                    results[key]["p99_us"], results[key]["wall_s"]), flush=True)
            except (RuntimeError, subprocess.TimeoutExpired) as err:
                failures += 1
                print("[%d/%d] k=%d load=%g %s seed=%d: FAILED %s" % (done, len(points), *key,
                                                                    err), flush=True)

    csv_path = os.path.join(args.out, "study.csv")
    with open(csv_path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["k", "pattern", "load", "seeds", "throughput_gbps",
                         "throughput_ci95", "p50_us", "p50_ci95", "p99_us", "p99_ci95",
                         "offered_gbps", "error_rate", "sim_args"])
        for k in sizes:
            for pattern in patterns:
                for load in loads:
                    runs = [results[(k, load, pattern, s)] for s in seeds
                            if (k, load, pattern, s) in results]
                    if not runs:
                        continue
                    row = [k, pattern, load, len(runs)]
                    for name in ("throughput_gbps", "p50_us", "p99_us"):
                        row.extend("%.6g" % v for v in mean_ci([r[name] for r in runs]))
                    row.append("%.6g" % statistics.fmean(r["offered_gbps"] for r in runs))
                    row.append("%g" % args.error_rate)
                    row.append(args.sim_args)
                    writer.writerow(row)
    print("results: %s" % csv_path)
    plot(csv_path, os.path.join(args.out, "study.png"), patterns, sizes)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
