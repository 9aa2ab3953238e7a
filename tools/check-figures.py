#!/usr/bin/env python3
"""Re-run the programs behind the figures the docs quote, and report any that no longer match.

Each entry below names a document, the exact text of a figure in it, the command that
produced the figure and how to read the figure from the command's output. A figure fails
when the document no longer contains its text (the list is out of date) or when the command
prints something else. Simulated results must match exactly; wall times (marked) only within
a factor. Quick entries (a few seconds each) run by default and in test.py's doc-figures
check; --all adds the long ones (benchmarks of large fabrics), to run by hand.

  tools/check-figures.py [--build-dir build] [--all] [--list]
Exit status 0 when every figure matches, 1 otherwise. Python standard library only.
"""

import argparse
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# doc, text in the doc, command (relative to the build folder), regex on the output whose
# first group is the figure, expected value (as printed), quick, wall (compare within x3)
FIGURES = [
    # One saturated link: events per simulated ms in each model.
    ("README.md", "| 57,065 | 564 (101x fewer) | 30 |", ["bench/gsn-link-bench"],
     r"gsn \(micropacket mode\)\s+(\d+)", "57065", True, False),
    ("README.md", "| 57,065 | 564 (101x fewer) | 30 |", ["bench/gsn-link-bench"],
     r"gsn \(run mode\)\s+(\d+)", "564", True, False),
    ("README.md", "| 57,065 | 564 (101x fewer) | 30 |", ["bench/gsn-link-bench"],
     r"ns-3 point-to-point 6.4 Gbit/s\s+(\d+)", "30", True, False),
    ("bench/README.md", "57,065 and 564 (101.2x)", ["bench/gsn-link-bench"],
     r"ratio gsn micropacket/run mode: ([\d.]+)x events", "101.2", True, False),
    ("src/gsn/doc/gsn-performance.rst", "57,065 and 564 (101.2x)", ["bench/gsn-link-bench"],
     r"ratio gsn micropacket/run mode: ([\d.]+)x events", "101.2", True, False),
    # The differential test of the link modes (about 25 s).
    ("src/gsn/doc/gsn-link-modes.rst", "     - 120x", ["test-runner", "--suite=gsn-link-mode",
                                                    "--verbose"],
     r"back-to-back, 1 MiB in 65000-byte Messages: 16 Messages; largest delivery-time "
     r"difference 0 ns, 0 differ; mean latency \d+ -> \d+ ns; events \d+ -> \d+ \(([\d.]+)x",
     "120.201", True, False),
    ("src/gsn/doc/gsn-link-modes.rst", "     - 57 ns; 90 us", ["test-runner",
                                                        "--suite=gsn-link-mode", "--verbose"],
     r"uniform on VC 1 only, 4-ary fat tree: 300 Messages; largest delivery-time difference "
     r"(\d+) ns", "90240", True, False),
    # The default scenario.
    ("README.md", "Messages: 107 sent, 84 delivered", ["examples/gsn-fat-tree"],
     r"Messages: (\d+ sent, \d+ delivered)", "107 sent, 84 delivered", True, False),
    ("README.md", "delivered 44.8 Gbit/s", ["examples/gsn-fat-tree"],
     r"delivered ([\d.]+) Gbit/s", "44.8", True, False),
    ("README.md", "p50 223.947", ["examples/gsn-fat-tree"],
     r"p50 ([\d.]+)", "223.947", True, False),
    ("README.md", "credit stalls +7984.41us", ["examples/gsn-fat-tree"],
     r"credit stalls \+([\d.]+)us", "7984.41", True, False),
    # The default scenario in the run mode on random VCs: where runs departed from the reference.
    ("README.md", "`run waits 3284 (+2346.12us)` for 1530 Messages",
     ["examples/gsn-fat-tree", "--ns3::GsnPortDevice::LinkMode=Run", "--vc=4", "--size=4000"],
     r"run waits (\d+ \(\+[\d.]+us\))", "3284 (+2346.12us)", True, False),
    ("README.md", "`run waits 3284 (+2346.12us)` for 1530 Messages",
     ["examples/gsn-fat-tree", "--ns3::GsnPortDevice::LinkMode=Run", "--vc=4", "--size=4000"],
     r"Latency \(us, (\d+) Messages\)", "1530", True, False),
    # ST over GSN.
    ("README.md", "goodput 6.3727 Gbit/s", ["examples/st-bulk-transfer"],
     r"goodput ([\d.]+) Gbit/s", "6.3727", True, False),
    ("README.md", "(99.9620%)", ["examples/st-bulk-transfer"],
     r"ceiling [\d.]+ Gbit/s \(([\d.]+)%\)", "99.9620", True, False),
    # The 1024-endpoint fat tree in the run mode (long: about a minute with its set-up).
    ("README.md", "| same tree, events | 110.1 M | 1.35 M |",
     ["bench/gsn-fabric-bench", "--k=16", "--model=gsn-run",
      "--scheduler=ns3::GsnTimingWheelScheduler"],
     r" events=(\d+)", "1347045", False, False),
    ("README.md", "| same tree, Messages delivered in 1 ms (of 6872) | 4286 | 4276 |",
     ["bench/gsn-fabric-bench", "--k=16", "--model=gsn-run",
      "--scheduler=ns3::GsnTimingWheelScheduler"],
     r" delivered_messages=(\d+)", "4276", False, False),
    ("src/gsn/doc/gsn-performance.rst", "1,347,045 events",
     ["bench/gsn-fabric-bench", "--k=16", "--model=gsn-run",
      "--scheduler=ns3::GsnTimingWheelScheduler"],
     r" events=(\d+)", "1347045", False, False),
]


def run(build_dir, command, cache):
    key = tuple(command)
    if key not in cache:
        program = os.path.join(build_dir, command[0])
        if not os.access(program, os.X_OK):
            cache[key] = (None, "no %s (build the project first)" % program)
        else:
            try:
                proc = subprocess.run([program] + command[1:], cwd=build_dir,
                                      capture_output=True, text=True, timeout=900)
                cache[key] = (proc.stdout + proc.stderr, None)
            except subprocess.TimeoutExpired:
                cache[key] = (None, "timed out")
    return cache[key]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(TOP, "build"))
    parser.add_argument("--all", action="store_true", help="also the long ones")
    parser.add_argument("--list", action="store_true", help="list the figures and exit")
    args = parser.parse_args()
    build_dir = os.path.abspath(args.build_dir)
    cache = {}
    problems = 0
    checked = 0
    for doc, text, command, pattern, expected, quick, wall in FIGURES:
        shown = " ".join(command)
        if args.list:
            print("%-16s %-40s %s" % (doc, text[:40], shown))
            continue
        if not quick and not args.all:
            continue
        checked += 1
        with open(os.path.join(TOP, doc), encoding="utf-8") as f:
            # Whitespace-insensitive: a figure may be wrapped over lines.
            if " ".join(text.split()) not in " ".join(f.read().split()):
                print("%s: no longer says %r: update tools/check-figures.py" % (doc, text))
                problems += 1
                continue
        output, error = run(build_dir, command, cache)
        if error:
            print("%s: %s: %s" % (doc, shown, error))
            problems += 1
            continue
        m = re.search(pattern, output)
        if not m:
            print("%s: %s printed nothing that matches %r" % (doc, shown, pattern))
            problems += 1
            continue
        got = m.group(1)
        same = got == expected
        if wall:
            same = 1 / 3 <= float(got) / float(expected) <= 3
        if not same:
            print("%s: %r: %s now gives %s, the doc says %s" % (doc, text, shown, got, expected))
            problems += 1
    if not args.list:
        print("%d figures checked against their commands, %d problems" % (checked, problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
