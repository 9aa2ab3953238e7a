#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""How faithful is the run link mode? Runs the same fat-tree scenario over several seeds, once
in the reference link mode (Micropacket) and once in the run mode per MaxRunLength, and
compares the outcomes seed by seed (paired, so that the seed-to-seed spread of the traffic
cancels): delivered throughput, mean, p50 and p99 latency, link utilisation and credit-stall
time. For each figure it prints the reference's mean over seeds with its 95% confidence
interval, and the run mode's mean paired difference with its 95% confidence interval, in
absolute terms and relative to the reference. A difference whose interval contains zero is
not distinguishable from the reference with this many seeds. Also printed: simulated events
and wall seconds of each mode (means over seeds), and the run mode's run waits in the
statistics window (times a VC waited for a run's end where micropacket by micropacket it
would have gone at once, and their time: where the runs departed from the reference).

Per-Message delivery times are not compared here: under contention one slot's difference
changes later arbitration decisions, and single Messages then move by whole Message times in
either direction (src/gsn/doc/gsn-link-modes.rst); the distributions are what a study uses.

Example (about 3 minutes on 2 cores):
  bench/link-mode-fidelity.py --k 8 --seeds 1,2,3,4,5,6 --run-lengths 16,256
"""
import argparse
import concurrent.futures
import csv
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_mean_ci():
    """mean_ci() of the scaling study (Student-t 95% interval), shared rather than copied."""
    spec = importlib.util.spec_from_file_location(
        "gsn_scaling_study", os.path.join(TOP, "tools", "gsn-scaling-study.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.mean_ci


mean_ci = load_mean_ci()

# Figure name -> how to read it from gsn-fabric-scaling's JSON summary.
FIGURES = {
    "throughput_gbps": lambda s: s["throughput_bps"]["delivered"] / 1e9,
    "mean_latency_us": lambda s: s["latency_ns"]["mean"] / 1e3,
    "p50_latency_us": lambda s: s["latency_ns"]["p50"] / 1e3,
    "p99_latency_us": lambda s: s["latency_ns"]["p99"] / 1e3,
    "link_utilisation": lambda s: s["link_utilisation"]["mean"],
    "credit_stall_ms": lambda s: s["credit_stall_s"] * 1e3,
}

# The run mode's departures (none in the reference), from the same summary.
DEPARTURES = {
    "run_waits": lambda s: s["run_waits"],
    "run_wait_ms": lambda s: s["run_wait_s"] * 1e3,
}


def run_one(program, args, seed, run_length, workdir):
    """One simulation; run_length 0 is the reference mode. Returns figures, events, wall s."""
    label = "ref" if run_length == 0 else "run%d" % run_length
    out = os.path.join(workdir, "%s-s%d.json" % (label, seed))
    argv = [program, "--topology=fattree", "--k=%d" % args.k, "--load=%g" % args.load,
            "--pattern=%s" % args.pattern, "--vc=%d" % args.vc, "--size=%d" % args.size,
            "--simTime=%s" % args.sim_time, "--seed=%d" % seed, "--progress=0",
            "--errorRate=%g" % args.error_rate, "--json=%s" % out]
    if run_length == 0:
        argv.append("--linkMode=Micropacket")
    else:
        argv += ["--linkMode=Run", "--ns3::GsnPortDevice::MaxRunLength=%d" % run_length]
        argv += args.run_args.split()
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=args.timeout)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(argv), proc.returncode,
                                                   proc.stderr.strip()[-400:]))
    with open(out, encoding="utf-8") as f:
        summary = json.load(f)
    figures = {name: read(summary) for name, read in {**FIGURES, **DEPARTURES}.items()}
    events = re.search(r"^events (\d+)", proc.stdout, re.M)
    figures["events"] = int(events.group(1)) if events else float("nan")
    figures["wall_s"] = wall
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(TOP, "build"))
    parser.add_argument("--k", type=int, default=4, help="fat-tree switch ports")
    parser.add_argument("--load", type=float, default=0.5)
    parser.add_argument("--pattern", default="UniformRandom")
    parser.add_argument("--vc", type=int, default=3, help="0-3, or 4 for a random VC among those that carry the Message")
    parser.add_argument("--size", type=int, default=60000)
    parser.add_argument("--error-rate", type=float, default=0.0,
                        help="probability that a link corrupts a micropacket")
    parser.add_argument("--sim-time", default="1ms")
    parser.add_argument("--seeds", default="1,2,3,4,5,6,7,8,9,10")
    parser.add_argument("--run-lengths", default="256",
                        help="MaxRunLength values of the run mode, comma separated")
    parser.add_argument("--run-args", default="",
                        help="more arguments for the run-mode simulations, e.g. "
                             "--run-args=--ns3::GsnPortDevice::ExactCredits=true")
    parser.add_argument("--jobs", type=int, default=2, help="simulations at a time")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--csv", default=os.path.join(TOP, "build", "link-mode-fidelity.csv"))
    args = parser.parse_args()
    if not 0.0 <= args.error_rate <= 1.0:
        parser.error("--error-rate must be in [0, 1]")

    program = os.path.join(args.build_dir, "examples", "gsn-fabric-scaling")
    if not os.access(program, os.X_OK):
        sys.exit("%s is not built (cmake --build %s)" % (program, args.build_dir))
    seeds = [int(x) for x in args.seeds.split(",")]
    lengths = [int(x) for x in args.run_lengths.split(",")]
    if any(length < 1 for length in lengths):
        sys.exit("--run-lengths: every MaxRunLength must be at least 1")
    workdir = tempfile.mkdtemp(prefix="fidelity-")

    jobs = [(s, length) for s in seeds for length in [0] + lengths]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_one, program, args, s, length, workdir): (s, length)
                   for s, length in jobs}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            seed, length = futures[future]
            results[(seed, length)] = future.result()
            print("[%d/%d] seed %d %s: %.1f s" % (
                done, len(jobs), seed, "reference" if length == 0 else "run %d" % length,
                results[(seed, length)]["wall_s"]), file=sys.stderr, flush=True)

    print("fat tree k=%d, %s, VC %s, %d-byte Messages, load %g, %s, %d seeds%s" % (
        args.k, args.pattern, "random" if args.vc == 4 else args.vc, args.size, args.load,
        args.sim_time, len(seeds),
        ", micropacket error rate %g" % args.error_rate if args.error_rate else ""))
    if args.run_args:
        print("run mode with: %s" % args.run_args)
    rows = []
    for length in lengths:
        print("\nMaxRunLength %d: figure, reference mean +- 95%% CI, run - reference +- 95%% CI"
              % length)
        for name in list(FIGURES) + ["events", "wall_s"]:
            ref = [results[(s, 0)][name] for s in seeds]
            run = [results[(s, length)][name] for s in seeds]
            ref_mean, ref_ci = mean_ci(ref)
            run_mean, _ = mean_ci(run)
            diff_mean, diff_ci = mean_ci([r - q for r, q in zip(run, ref)])
            rel = 100.0 * diff_mean / ref_mean if ref_mean else float("nan")
            rel_ci = 100.0 * diff_ci / ref_mean if ref_mean else float("nan")
            if name in ("events", "wall_s"):
                # Costs: the paired difference says little; the ratio is what is asked.
                print("  %-18s %14.6g reference, %.6g run: %.1fx fewer" % (
                    name, ref_mean, run_mean, ref_mean / run_mean if run_mean else float("nan")))
            else:
                print("  %-18s %14.6g +- %-11.4g %+12.4g +- %-11.4g (%+.1f%% +- %.1f%%)" % (
                    name, ref_mean, ref_ci, diff_mean, diff_ci, rel, rel_ci))
            rows.append([args.k, args.pattern, args.vc, args.load, args.error_rate,
                         len(seeds), length, name,
                         "%.6g" % ref_mean, "%.6g" % ref_ci, "%.6g" % run_mean,
                         "%.6g" % diff_mean, "%.6g" % diff_ci, "%.3f" % rel, "%.3f" % rel_ci])
        for name in DEPARTURES:
            run_mean, run_ci = mean_ci([results[(s, length)][name] for s in seeds])
            print("  %-18s %14.6g +- %-11.4g per seed in the run mode (0 in the reference)" % (
                name, run_mean, run_ci))
            rows.append([args.k, args.pattern, args.vc, args.load, args.error_rate,
                         len(seeds), length, name, "0", "0", "%.6g" % run_mean,
                         "%.6g" % run_mean, "%.6g" % run_ci, "nan", "nan"])
    os.makedirs(os.path.dirname(os.path.abspath(args.csv)), exist_ok=True)
    with open(args.csv, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["k", "pattern", "vc", "load", "error_rate", "seeds", "max_run_length",
                         "figure",
                         "reference", "reference_ci95", "run", "difference", "difference_ci95",
                         "difference_pct", "difference_ci95_pct"])
        writer.writerows(rows)
    print("\nresults: %s" % args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
