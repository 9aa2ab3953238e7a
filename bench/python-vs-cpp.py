#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The same scenario driven from C++ and from Python, side by side.

Runs build/examples/gsn-fabric-scaling and its Python twin src/gsn/examples/
gsn-fabric-scaling.py (through the bindings of build/bindings/python) with the same arguments,
by default the k = 16 fat tree (1024 endpoints) in the run link mode for 1 ms, taking turns
(C++, Python, Python with a Python callback on every Message delivery) --repeat times, and
prints per variant the build and run wall times, the events, and the difference from C++ (the
fastest runs, and the medians). The C++ and Python runs must report the same events and
statistics (it says so); the third variant prints how many callbacks ran and what each cost.

Usage: bench/python-vs-cpp.py [--build-dir build] [--python /usr/bin/python3] [--repeat 3]
                              [-- ARGUMENTS FOR gsn-fabric-scaling]
A benchmark, not a test: wall times depend on the machine and its load.
Python standard library only.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ARGS = ["--topology=fattree", "--k=16", "--linkMode=Run", "--progress=0"]
FIGURES = re.compile(
    r"^events (\d+), build (\S+) s, run (\S+) s, (\S+) events/s, (\S+) wall s per simulated ms",
    re.M,
)
CALLBACKS = re.compile(r"^Python delivery callback: (\d+) calls", re.M)


def run(argv, env):
    proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.decode("utf-8", "replace")
    if proc.returncode != 0:
        sys.exit("%s failed (%d):\n%s%s" % (argv[0], proc.returncode, out, proc.stderr.decode()))
    m = FIGURES.search(out)
    if not m:
        sys.exit("no figures in the output of %s:\n%s" % (" ".join(argv), out))
    calls = CALLBACKS.search(out)
    results = FIGURES.sub("", CALLBACKS.sub("", out)).strip()
    return {
        "events": int(m.group(1)),
        "build": float(m.group(2)),
        "run": float(m.group(3)),
        "calls": int(calls.group(1)) if calls else 0,
        "results": results,
    }


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build-dir", default=os.path.join(TOP, "build"))
    p.add_argument("--python", default=sys.executable, help="the interpreter of the bindings")
    p.add_argument("--repeat", type=int, default=3, help="runs of each variant (median)")
    p.add_argument("args", nargs="*", help="arguments of gsn-fabric-scaling (after --)")
    a = p.parse_args(argv)
    args = a.args or DEFAULT_ARGS
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(a.build_dir, "bindings", "python")
    cpp = [os.path.join(a.build_dir, "examples", "gsn-fabric-scaling")] + args
    py = [a.python, os.path.join(TOP, "src", "gsn", "examples", "gsn-fabric-scaling.py")] + args
    variants = [
        ("C++", cpp),
        ("Python", py),
        ("Python + delivery callback", py + ["--deliveryCallback=1"]),
    ]
    runs = {name: [] for name, _ in variants}
    print("gsn-fabric-scaling %s, %d runs each, taking turns" % (" ".join(args), a.repeat))
    for i in range(a.repeat):
        for name, command in variants:
            r = run(command, env)
            runs[name].append(r)
            print(
                "  run %d %-27s build %7.3f s, run %7.3f s" % (i + 1, name, r["build"], r["run"]),
                flush=True,
            )

    same = all(
        r["events"] == runs["C++"][0]["events"] and r["results"] == runs["C++"][0]["results"]
        for rs in runs.values()
        for r in rs
    )
    # On a shared machine the fastest run is the one least disturbed; the median is shown too.
    base = min(r["run"] for r in runs["C++"])
    base_median = statistics.median(r["run"] for r in runs["C++"])
    print()
    print(
        "%-27s %9s %9s %11s %12s %11s %11s"
        % ("variant", "build s", "run s", "vs C++", "events", "median run", "vs C++")
    )
    for name, _ in variants:
        build = min(r["build"] for r in runs[name])
        run_s = min(r["run"] for r in runs[name])
        median = statistics.median(r["run"] for r in runs[name])
        print(
            "%-27s %9.3f %9.3f %+10.1f%% %12d %11.3f %+10.1f%%"
            % (
                name,
                build,
                run_s,
                100.0 * (run_s - base) / base,
                runs[name][0]["events"],
                median,
                100.0 * (median - base_median) / base_median,
            )
        )
    print("same events and statistics in every run: %s" % ("yes" if same else "NO"))
    calls = runs["Python + delivery callback"][0]["calls"]
    if calls:
        extra = min(r["run"] for r in runs["Python + delivery callback"])
        extra -= min(r["run"] for r in runs["Python"])
        print(
            "delivery callback: %d calls per run, %+.3f s per run, %.2f us per call"
            % (calls, extra, 1e6 * extra / calls)
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
