#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run gsn-fabric-bench for each fabric size and model, one process per run.

Each run is its own process, so its peak memory (ru_maxrss) is its own. A run that exceeds
--timeout is killed and reported as "timeout". Prints a table with GSN side by side with each
point-to-point baseline (wall time ratio, events ratio, memory per endpoint), writes
bench/results/fabric-bench-<topology>[-vc<V>].csv (the current result file of that sweep; -vcV
unless the Messages go on VC 3, the default) and,
if gnuplot is installed, a PNG of wall time and
events against fabric size (log-log). It measures; it asserts nothing.

Usage: bench/run-fabric-bench.py [--bin build/bench/gsn-fabric-bench] [--large]
                                 [--topology kary|fattree] [--sizes 16,64,256]
                                 [--models gsn,gsn-run,p2p-nix,p2p-global]
                                 [--timeout 600] [--repeat 1] [--load 0.5] [--size 60000]
                                 [--simTime 1ms] [--seed 1] [--csv FILE] [--append]
                                 [--png FILE]
"""

import argparse
import csv
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODELS = ["gsn", "gsn-run", "p2p-nix", "p2p-global"]
GSN_MODELS = ["gsn", "gsn-run"]
BASELINES = ["p2p-nix", "p2p-global"]


def parse_figures(stdout):
    """The key=value line of the benchmark, as a dict (empty if there is none)."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("model="):
            return dict(f.split("=", 1) for f in line.split() if "=" in f)
    return {}


def fat_tree_k(endpoints):
    """The even k whose fat tree (k^3/4 endpoints) has this many endpoints, or None."""
    k = round((4 * endpoints) ** (1.0 / 3))
    return k if k >= 2 and k % 2 == 0 and k ** 3 // 4 == endpoints else None


def topology_arg(topology, endpoints):
    """The benchmark's option choosing the fabric of this many endpoints."""
    if topology == "fattree":
        return "--k=%d" % fat_tree_k(endpoints)
    return "--endpoints=%d" % endpoints


def run_one(args, model, endpoints, run):
    cmd = [
        args.bin,
        "--model=" + model,
        topology_arg(args.topology, endpoints),
        "--load=%s" % args.load,
        "--size=%d" % args.size,
        "--simTime=" + args.simTime,
        "--seed=%d" % args.seed,
        "--scheduler=" + args.scheduler,
        "--vc=%d" % args.vc,
    ]
    row = {"model": model, "endpoints": str(endpoints), "run": str(run)}
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        row.update(status="timeout", process_s="%.1f" % (time.monotonic() - t0))
        return row
    row["process_s"] = "%.3f" % (time.monotonic() - t0)
    figures = parse_figures(p.stdout)
    if p.returncode != 0 or not figures:
        row["status"] = "error rc=%d" % p.returncode
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        row["error"] = " | ".join(tail)
        return row
    row.update(figures)
    row["status"] = "ok"
    return row


def num(row, key):
    try:
        return float(row[key])
    except (KeyError, TypeError, ValueError):
        return None


def ratio(a, b):
    return "%.3g" % (a / b) if a is not None and b else "-"


def best(rows):
    """The run with the smallest run_s among the ok ones, else the first."""
    ok = [r for r in rows if r.get("status") == "ok"]
    return min(ok, key=lambda r: float(r["run_s"])) if ok else rows[0]


def print_table(points, sizes, models):
    print()
    print("%-10s %-6s %-8s %10s %12s %9s %9s %12s %10s %9s %9s" % (
        "model", "ends", "status", "delivered", "events", "build_s", "run_s", "events/s",
        "rss_KiB", "KiB/ep", "grow/ep"))
    for n in sizes:
        for m in models:
            if (m, n) not in points:
                continue
            r = best(points[(m, n)])
            if r.get("status") != "ok":
                print("%-10s %-6d %-8s (after %s s)" % (m, n, r["status"], r.get("process_s")))
                continue
            print("%-10s %-6d %-8s %10s %12s %9s %9s %12s %10s %9s %9s" % (
                m, n, "ok", "%s/%s" % (r["delivered_messages"], r["messages"]), r["events"], r["build_s"], r["run_s"], r["events_per_s"],
                r["peak_rss_kib"], r["rss_per_endpoint_kib"], r["rss_growth_per_endpoint_kib"]))
    print("(delivered: Messages delivered by the end of the run / Messages sent; KiB/ep: peak RSS /"
          " endpoints;\n grow/ep: (peak RSS - RSS at the start of main) / endpoints)")
    for gm in GSN_MODELS:
        if gm in models:
            print_ratios(points, sizes, models, gm)


def print_ratios(points, sizes, models, gm):
    print()
    print("%s / baseline (wall time = run_s; x > 1: GSN is slower / uses more)" % gm)
    print("%-6s %-11s %9s %9s %9s %11s %11s %11s %11s" % (
        "ends", "baseline", "run_s x", "total_s x", "events x", "gsn KiB/ep", "base KiB/ep",
        "gsn grow/ep", "base grow/ep"))
    baselines = [b for b in ["gsn"] + BASELINES if b != gm]
    for n in sizes:
        if (gm, n) not in points:
            continue
        g = best(points[(gm, n)])
        for b in baselines:
            if b not in models or (b, n) not in points:
                continue
            p = best(points[(b, n)])
            gs, ps = g.get("status"), p.get("status")
            if gs != "ok" or ps != "ok":
                print("%-6d %-11s %s %s, %s %s" % (n, b, gm, gs, b, ps))
                continue
            gt = num(g, "build_s") + num(g, "run_s")
            pt = num(p, "build_s") + num(p, "run_s")
            print("%-6d %-11s %9s %9s %9s %11s %11s %11s %11s" % (
                n, b, ratio(num(g, "run_s"), num(p, "run_s")), ratio(gt, pt),
                ratio(num(g, "events"), num(p, "events")), g["rss_per_endpoint_kib"],
                p["rss_per_endpoint_kib"], g["rss_growth_per_endpoint_kib"],
                p["rss_growth_per_endpoint_kib"]))


def read_csv(path):
    with open(path, newline="") as f:
        return [dict((k, v) for k, v in r.items() if v != "") for r in csv.DictReader(f)]


def write_csv(path, rows):
    keys = ["date", "model", "endpoints", "run", "status", "process_s"]
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow(r)


def plot(path, points, sizes, models, title):
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("gnuplot not found: no plot written (install gnuplot to get %s)" % path)
        return
    with tempfile.TemporaryDirectory() as tmp:
        series = []
        for m in models:
            data = os.path.join(tmp, m + ".dat")
            with open(data, "w") as f:
                for n in sizes:
                    if (m, n) in points:
                        r = best(points[(m, n)])
                        if r.get("status") == "ok":
                            f.write("%d %s %s\n" % (n, r["run_s"], r["events"]))
            if os.path.getsize(data):
                series.append((m, data))
        if not series:
            print("no successful run: no plot")
            return
        wall = ", ".join("'%s' using 1:2 with linespoints title '%s'" % (d, m) for m, d in series)
        events = ", ".join("'%s' using 1:3 with linespoints title '%s'" % (d, m)
                           for m, d in series)
        script = "\n".join([
            "set terminal png size 1200,500",
            "set output '%s'" % path,
            "set multiplot layout 1,2 title '%s'" % title,
            "set logscale xy",
            "set grid",
            "set key top left",
            "set xlabel 'endpoints'",
            "set ylabel 'wall seconds (Simulator::Run)'",
            "plot " + wall,
            "set ylabel 'simulated events'",
            "plot " + events,
            "unset multiplot",
        ]) + "\n"
        p = subprocess.run([gnuplot], input=script, capture_output=True, text=True)
        if p.returncode != 0:
            print("gnuplot failed: " + p.stderr.strip())
        else:
            print("plot: " + path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bench", "gsn-fabric-bench"))
    ap.add_argument("--topology", choices=["kary", "fattree"], default="kary",
                    help="kary: 4-ary n-trees (endpoints powers of 4); fattree: Al-Fares fat"
                    " trees of k-port switches (k^3/4 endpoints: 16, 128, 1024 for k = 4, 8, 16)")
    ap.add_argument("--sizes", help="endpoints (default 16,64,256; with --topology fattree"
                    " 16,128)")
    ap.add_argument("--large", action="store_true", help="also 1024 endpoints")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run")
    ap.add_argument("--repeat", type=int, default=1, help="runs per point (the fastest is shown)")
    ap.add_argument("--load", default="0.5")
    ap.add_argument("--size", type=int, default=60000)
    ap.add_argument("--simTime", default="1ms")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--vc", type=int, default=3, choices=range(5),
                    help="GSN models: the Messages' VC, or 4 for a random one each (the "
                         "point-to-point models carry the same Messages without VCs)")
    ap.add_argument("--scheduler", default="ns3::MapScheduler",
                    help="ns-3 event scheduler of every run (ns3::GsnTimingWheelScheduler: fastest)")
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    ap.add_argument("--csv", help="default: bench/results/fabric-bench-<topology>[-vc<V>].csv")
    ap.add_argument("--append", action="store_true",
                    help="keep the rows already in the CSV file (table and plot use them too)")
    ap.add_argument("--png", help="default: the CSV's name with .png")
    args = ap.parse_args()

    if not os.access(args.bin, os.X_OK):
        sys.exit("%s: no such program (build the gsn-fabric-bench target, or give --bin)"
                 % args.bin)
    if args.sizes is None:
        args.sizes = "16,128" if args.topology == "fattree" else "16,64,256"
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.topology == "fattree":
        bad = [n for n in sizes if fat_tree_k(n) is None]
        if bad:
            sys.exit("--topology fattree: %s endpoints is no fat tree (k^3/4 for even k:"
                     " 16, 54, 128, 250, 432, 686, 1024, ...)" % ",".join(map(str, bad)))
    if args.large and 1024 not in sizes:
        sizes.append(1024)
    models = [m for m in args.models.split(",") if m]
    results = os.path.join(HERE, "results")
    name = "fabric-bench-%s%s" % (args.topology, "" if args.vc == 3 else "-vc%d" % args.vc)
    csv_path = args.csv or os.path.join(results, name + ".csv")
    png_path = args.png or os.path.splitext(csv_path)[0] + ".png"

    rows = []
    points = {}
    if args.append and os.path.exists(csv_path):
        for r in read_csv(csv_path):
            if r.get("fabric", "kary") != args.topology:
                sys.exit("%s holds %s rows: --append them to a file of the same --topology"
                         % (csv_path, r.get("fabric", "kary")))
            rows.append(r)
            points.setdefault((r["model"], int(r["endpoints"])), []).append(r)
    for n in sizes:
        for m in models:
            done = len(points.get((m, n), []))
            for run in range(done + 1, done + args.repeat + 1):
                print("running %s, %d endpoints, run %d ..." % (m, n, run), end=" ", flush=True)
                r = run_one(args, m, n, run)
                r["date"] = args.date
                r["fabric"] = args.topology
                print(r["status"], "run_s=%s" % r.get("run_s", "-"),
                      "process_s=%s" % r.get("process_s"), flush=True)
                rows.append(r)
                points.setdefault((m, n), []).append(r)
                write_csv(csv_path, rows)  # after every run: a killed sweep keeps its results

    # The table and the plot show every point of the file, this run's and earlier ones.
    all_sizes = sorted(set(n for _, n in points))
    all_models = [m for m in MODELS if any(k[0] == m for k in points)]
    all_models += sorted(set(m for m, _ in points) - set(all_models))
    print_table(points, all_sizes, all_models)
    print()
    print("results: " + csv_path)
    plot(png_path, points, all_sizes, all_models,
         "%s, uniform random %s-byte Messages at load %s on %s, %s" % (
             "fat trees of k-port switches" if args.topology == "fattree" else "4-ary n-trees",
             args.size, args.load,
             "random VCs" if args.vc == 4 else "VC %d" % args.vc, args.simTime))


if __name__ == "__main__":
    main()
