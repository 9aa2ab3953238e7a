#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A study of GSN fat trees driven from Python: sweeps fabric size and offered load over seeds,
runs each point in a process of its own through the Python bindings (no program output to
parse: the statistics come back as dicts), and writes a CSV with one row per run and a plot
(matplotlib) of delivered throughput and latency against load with 95% confidence intervals.

Every run's figures come from GsnTrafficStats.Summarize(): delivered throughput, latency mean,
percentiles and the 95% confidence interval of the mean latency (batch means within the run).
The plotted intervals combine the seeds of a point (Student t over the per-run values); with a
single seed the latency interval is the run's own.

Example (a few seconds on 2 cores):
  PYTHONPATH=build/bindings/python python3 tools/gsn-python-study.py \\
      --k 4,8 --loads 0.1,0.3,0.5,0.7 --seeds 1,2,3 --out study
Writes study/runs.csv and study/throughput-latency.png. Needs python3-matplotlib for the plot.
"""

import argparse
import csv
import math
import multiprocessing
import os
import statistics
import sys
import time

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (then 1.96).
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_ci(values):
    """Mean and half-width of its 95% confidence interval (NaN for a single value)."""
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return float("nan"), float("nan")
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan")
    df = len(values) - 1
    t = T975[df - 1] if df <= len(T975) else 1.96
    return m, t * statistics.stdev(values) / math.sqrt(len(values))


def run_point(point):
    """One simulation in this (fresh) process: the point's figures as a dict."""
    from ns import ns  # imported here: each point runs in a process of its own

    k, load, seed, options = point
    start = time.monotonic()
    ns.core.RngSeedManager.SetRun(seed)
    ns.core.GlobalValue.Bind("SchedulerType", ns.core.StringValue(options["scheduler"]))
    helper = ns.gsn.GsnFabricHelper()
    helper.SetLinkMode(options["link_mode"])
    fabric = helper.Install(ns.gsn.GsnTopologyBuilder.FatTree(k))
    helper.AssignStreams(fabric, 1)
    sim_time = ns.core.Time(options["sim_time"])
    traffic = ns.gsn.GsnTrafficHelper()
    traffic.SetAttribute("Pattern", ns.core.StringValue(options["pattern"]))
    traffic.SetAttribute("OfferedLoad", ns.core.DoubleValue(load))
    traffic.SetAttribute(
        "MessageSize",
        ns.core.StringValue("ns3::ConstantRandomVariable[Constant=%d]" % options["size"]),
    )
    traffic.SetStatsAttribute("WindowStart", ns.core.TimeValue(sim_time / 10))
    traffic.SetStatsAttribute("WindowEnd", ns.core.TimeValue(sim_time))
    apps = traffic.Install(fabric.endpointDevices)
    traffic.AssignStreams(apps, 100000)
    apps.Start(ns.core.MicroSeconds(5))
    apps.Stop(sim_time)
    stats = traffic.GetStats()
    stats.AddLinks(fabric.GetAllPorts())
    stats.AddDropSources(fabric.endpointDevices, fabric.switches)
    stats.StopWhenDrained(sim_time, ns.core.MilliSeconds(100))
    ns.core.Simulator.Run()
    s = stats.Summarize()
    ns.core.Simulator.Destroy()
    latency = s["latency_ns"]
    return {
        "k": k,
        "endpoints": fabric.endpoints.GetN(),
        "load": load,
        "seed": seed,
        "offered_gbps": s["throughput_bps"]["offered"] / 1e9,
        "delivered_gbps": s["throughput_bps"]["delivered"] / 1e9,
        "messages": latency["count"],
        "mean_us": latency["mean"] / 1e3,
        "ci95_low_us": latency["ci95_low"] / 1e3,
        "ci95_high_us": latency["ci95_high"] / 1e3,
        "p50_us": latency["p50"] / 1e3,
        "p99_us": latency["p99"] / 1e3,
        "utilisation": s["link_utilisation"]["mean"],
        "lost": s["messages"]["lost"],
        "wall_s": time.monotonic() - start,
    }


def summarise(rows):
    """Per (k, load): the means over seeds and their 95% intervals."""
    points = {}
    for r in rows:
        points.setdefault((r["k"], r["load"]), []).append(r)
    out = []
    for (k, load), runs in sorted(points.items()):
        thr, thr_ci = mean_ci([r["delivered_gbps"] for r in runs])
        lat, lat_ci = mean_ci([r["mean_us"] for r in runs])
        if len(runs) == 1:  # the run's own interval (batch means)
            lat_ci = (runs[0]["ci95_high_us"] - runs[0]["ci95_low_us"]) / 2
        p99, p99_ci = mean_ci([r["p99_us"] for r in runs])
        out.append(
            {
                "k": k,
                "endpoints": runs[0]["endpoints"],
                "load": load,
                "seeds": len(runs),
                "delivered_gbps": thr,
                "delivered_ci": thr_ci,
                "mean_us": lat,
                "mean_ci": lat_ci,
                "p99_us": p99,
                "p99_ci": p99_ci,
            }
        )
    return out


def plot(points, path, title):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib (Debian: python3-matplotlib): no plot")
        return False
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for k in sorted({p["k"] for p in points}):
        ps = [p for p in points if p["k"] == k]
        loads = [p["load"] for p in ps]
        label = "k=%d (%d endpoints)" % (k, ps[0]["endpoints"])
        left.errorbar(
            loads,
            [p["delivered_gbps"] / p["endpoints"] for p in ps],
            yerr=[(p["delivered_ci"] or 0) / p["endpoints"] for p in ps],
            marker="o",
            capsize=3,
            label=label,
        )
        line = right.errorbar(
            loads, [p["mean_us"] for p in ps], yerr=[p["mean_ci"] for p in ps],
            marker="o", capsize=3, label=label + " mean",
        )
        right.errorbar(
            loads, [p["p99_us"] for p in ps], yerr=[p["p99_ci"] for p in ps], marker="^",
            linestyle="--", capsize=3, color=line[0].get_color(), label=label + " p99",
        )
    left.set_xlabel("offered load (fraction of 6.4 Gbit/s per endpoint)")
    left.set_ylabel("delivered throughput per endpoint (Gbit/s)")
    left.grid(True, alpha=0.3)
    left.legend()
    right.set_xlabel("offered load")
    right.set_ylabel("Message latency (us)")
    right.set_yscale("log")
    right.grid(True, alpha=0.3)
    right.legend(fontsize="small")
    fig.suptitle(title + " (95% confidence intervals)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def floats(text):
    return [float(x) for x in text.split(",") if x]


def ints(text):
    return [int(x) for x in text.split(",") if x]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--k", type=ints, default=[4, 8], help="fat-tree sizes (even), e.g. 4,8")
    p.add_argument("--loads", type=floats, default=[0.1, 0.3, 0.5, 0.7])
    p.add_argument("--seeds", type=ints, default=[1, 2, 3])
    p.add_argument("--sim-time", default="1ms", help="traffic time of each run")
    p.add_argument("--size", type=int, default=60000, help="Message bytes")
    p.add_argument("--pattern", default="UniformRandom")
    p.add_argument("--link-mode", default="Run", choices=["Micropacket", "Run"])
    p.add_argument("--scheduler", default="ns3::GsnTimingWheelScheduler")
    p.add_argument("--jobs", type=int, default=2, help="processes in parallel")
    p.add_argument("--out", default="gsn-python-study", help="output folder")
    a = p.parse_args(argv)

    options = {
        "sim_time": a.sim_time,
        "size": a.size,
        "pattern": a.pattern,
        "link_mode": a.link_mode,
        "scheduler": a.scheduler,
    }
    work = [(k, load, seed, options) for k in a.k for load in a.loads for seed in a.seeds]
    os.makedirs(a.out, exist_ok=True)
    print("%d runs in %d processes" % (len(work), a.jobs), flush=True)
    start = time.monotonic()
    # A fresh process per run: ns-3's simulator and its objects are per process.
    context = multiprocessing.get_context("spawn")
    with context.Pool(a.jobs, maxtasksperchild=1) as pool:
        rows = []
        for r in pool.imap_unordered(run_point, work):
            rows.append(r)
            print(
                "  k=%d load=%g seed=%d: %.2f Gbit/s delivered, mean latency %.1f us (%.1f s)"
                % (r["k"], r["load"], r["seed"], r["delivered_gbps"], r["mean_us"], r["wall_s"]),
                flush=True,
            )
    rows.sort(key=lambda r: (r["k"], r["load"], r["seed"]))
    runs_csv = os.path.join(a.out, "runs.csv")
    with open(runs_csv, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    points = summarise(rows)
    print()
    print("%4s %6s %6s %22s %22s %22s" % ("k", "load", "seeds", "Gbit/s per endpoint",
                                          "mean latency us", "p99 latency us"))
    for q in points:
        print(
            "%4d %6g %6d %12.3f +- %-7.3f %12.1f +- %-7.1f %12.1f +- %-7.1f"
            % (q["k"], q["load"], q["seeds"], q["delivered_gbps"] / q["endpoints"],
               (q["delivered_ci"] or 0) / q["endpoints"], q["mean_us"], q["mean_ci"],
               q["p99_us"], q["p99_ci"])
        )
    png = os.path.join(a.out, "throughput-latency.png")
    title = "GSN fat trees, %s, %d-byte Messages, %s link mode" % (a.pattern, a.size, a.link_mode)
    if plot(points, png, title):
        print("plot: %s" % png)
    print("runs: %s (%.1f s in all)" % (runs_csv, time.monotonic() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
