#!/usr/bin/env python3
"""Split a program's heap peak, as heaptrack recorded it, by the part of the model that holds it.

heaptrack (Debian package ``heaptrack``) records every allocation with its call stack;
``heaptrack_print --print-peaks`` lists, for each allocation site, the memory alive at the
heap peak and the call stacks it came from. This tool reads that listing and gives each
stack to the first part below whose pattern it contains (so an allocation made while
building another rank's node counts there, not under "elements of this process"):

  tools/heap-by-part.py FILE.zst [FILE.zst ...]

For each file: megabytes per part and the heap peak. Needs heaptrack_print on the PATH.
Example (one process and 2 MPI ranks of the same fabric, built and not run):

  heaptrack -o one build/examples/gsn-fabric-scaling --k=24 --simTime=6us --progress=0
  mpirun -np 2 sh -c 'exec heaptrack -o rank.$OMPI_COMM_WORLD_RANK \\
      build/examples/gsn-fabric-scaling --k=24 --simTime=6us --progress=0 --mpi=1 \\
      --partition=graph'
  tools/heap-by-part.py one.zst rank.0.zst rank.1.zst
"""

import re
import subprocess
import sys
from collections import Counter

# (part, pattern over the call stack); the first that matches takes the allocation.
PARTS = [
    (
        "a node per element (on every rank) and other ranks' GsnRemotePorts",
        r"GsnFabricHelper::NameRemotePort|GsnFabricHelper::Install\(.*\n.*gsn-fabric-helper\.cc:"
        r"198\b",
    ),
    ("MPI (ns-3's mpi module, Open MPI)", r"opal_|ompi_|mca_|MpiInterface|GsnMpiHelper"),
    ("ns-3's registry of Times made before Simulator::Run", r"ns3::Time::Mark"),
    ("statistics (GsnTrafficStats)", r"GsnTrafficStats"),
    ("routes in the switches (GsnSwitch::SetRoute)", r"GsnSwitch::SetRoute"),
    ("routing: tables, computing and checking", r"GsnRouting|ComputeTables|GsnDeadlockChecker"),
    ("the topology (GsnTopology)", r"GsnTopology::"),
    ("traffic generators", r"GsnTrafficGenerator|GsnTrafficHelper"),
    ("the deadlock watchdog", r"GsnFabricWatchdog"),
    (
        "this process's elements (switches, ports, devices, cables)",
        r"GsnSwitch|GsnPortDevice|GsnNetDevice|GsnChannel|GsnFabricHelper|GsnHostAdapter",
    ),
    ("the scheduler and its events", r"Scheduler|MakeEvent|Simulator"),
]

SIZE = re.compile(r"^\s*([\d.]+)([KMG]?)B?\s+(?:peak memory )?consumed over \d+ calls from")
UNIT = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9}


def parts_of(path):
    listing = subprocess.run(
        [
            "heaptrack_print",
            "-f",
            path,
            "--print-peaks",
            "1",
            "--print-allocators",
            "0",
            "--print-leaks",
            "0",
            "--print-temporary",
            "0",
            "--peak-limit",
            "100000",
            "--sub-peak-limit",
            "100000",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # Each site's heading line gives its total, then its callers each with their share
    # ("N consumed over M calls from:"); a site without callers counts whole.
    blocks = []
    current = None
    for line in listing.splitlines():
        m = SIZE.match(line)
        if m:
            size = float(m.group(1)) * UNIT[m.group(2)]
            is_site = "peak memory consumed" in line
            if is_site:
                blocks.append({"size": size, "stack": [], "callers": []})
                current = blocks[-1]["stack"]
            else:
                blocks[-1]["callers"].append({"size": size, "stack": []})
                current = blocks[-1]["callers"][-1]["stack"]
            continue
        if current is not None:
            current.append(line)
    peak = re.search(r"peak heap memory consumption: ([\d.]+)([KMG]?)", listing)
    total = Counter()
    for site in blocks:
        pieces = site["callers"] or [{"size": site["size"], "stack": []}]
        for piece in pieces:
            stack = "\n".join(site["stack"] + piece["stack"])
            for name, pattern in PARTS:
                if re.search(pattern, stack):
                    total[name] += piece["size"]
                    break
            else:
                total["anything else"] += piece["size"]
    return total, float(peak.group(1)) * UNIT[peak.group(2)] if peak else 0.0


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) >= 2 else 2
    for path in sys.argv[1:]:
        total, peak = parts_of(path)
        print(f"{path}: heap peak {peak / 1e6:.1f} MB")
        for name, _ in PARTS + [("anything else", "")]:
            if total[name]:
                print(f"  {total[name] / 1e6:8.1f} MB  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
