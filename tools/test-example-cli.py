#!/usr/bin/env python3
"""Command-line checks of the example programs (test.py's system test example-cli).

Runs the examples of the gsn, st and harp modules with bad option values and checks that
each run ends within a timeout, with exit status 1, nothing on standard output and exactly
one line on standard error that names the option ("--size=..."). A value that the programs
used to wrap, ignore, freeze on or abort on fails this test if it comes back. Programs that
are not built (a module left out of the build) are skipped.

Usage: test-example-cli.py [BUILD_DIR]   (exit 0: passed, 1: failed, 77: no example built)
Python standard library only.
"""

import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 30.0  # seconds per run; a frozen run (e.g. --size=0 before the checks) fails


def cases(tmp):
    """(program, arguments, option the message must name)."""
    folder = tmp
    missing = os.path.join(tmp, "no-such-folder", "out.json")
    empty = os.path.join(tmp, "empty.topo")
    uncabled = os.path.join(tmp, "uncabled.topo")
    malformed = os.path.join(tmp, "malformed.topo")
    with open(empty, "w", encoding="utf-8"):
        pass
    with open(uncabled, "w", encoding="utf-8") as f:
        f.write("endpoint a\nendpoint b\nswitch s 4\nlink a:0 s:0\n")
    with open(malformed, "w", encoding="utf-8") as f:
        f.write("endpoint a\nwire a:0 b:0\n")
    short = ["--simTime=20us"]
    ft = "gsn-fat-tree"
    fs = "gsn-fabric-scaling"
    th = "gsn-two-hosts"
    fs_small = ["--topology=fattree", "--k=4", "--progress=0"] + short
    return [
        # Sizes the generator cannot honour, wrapped negatives, junk.
        (ft, ["--size=0"], "size"),
        (ft, ["--size=27"], "size"),
        (ft, ["--size=-1"], "size"),
        (ft, ["--size=4294967296"], "size"),
        (ft, ["--size=12abc"], "size"),
        (ft, ["--k=-2"], "k"),
        (ft, ["--k=3"], "k"),
        (ft, ["--k=0"], "k"),
        (ft, ["--load=-0.1"], "load"),
        (ft, ["--load=1.5"], "load"),
        (ft, ["--load=nan"], "load"),
        (ft, ["--simTime=0"], "simTime"),
        (ft, ["--simTime=-1ms"], "simTime"),
        (ft, ["--simTime=1parsec"], "simTime"),
        (ft, ["--warmup=2ms"], "warmup"),
        (ft, ["--warmup=-1us"], "warmup"),
        (ft, ["--pattern=Bogus"], "pattern"),
        (ft, ["--vc=5"], "vc"),
        (ft, ["--vc=-1"], "vc"),
        (ft, ["--routing=Bogus"], "routing"),
        (ft, ["--routing=DimensionOrder"], "routing"),
        (ft, ["--seed=-1"], "seed"),
        (ft, ["--json=" + missing], "json"),
        (ft, ["--json=" + folder], "json"),
        (ft, ["--csv=" + missing], "csv"),
        (ft, ["--pcap=maybe"], "pcap"),
        (ft, ["--drain=2"], "drain"),
        (ft, ["--drainLimit=0s"], "drainLimit"),
        # Unknown options and bad values of ns-3's own settings: one line, not the help.
        (ft, ["--bogus=1"], "bogus"),
        (ft, ["--sizes=100"], "sizes"),
        (ft, ["--SchedulerType=ns3::Bogus"], "SchedulerType"),
        (ft, ["--ns3::GsnTrafficGenerator::OfferedLoad=2"], "ns3::GsnTrafficGenerator::OfferedLoad"),
        (ft, ["--ns3::GsnNoSuchType::Attribute=1"], "ns3::GsnNoSuchType::Attribute"),
        (th, ["--bogus"], "bogus"),
        (fs, fs_small + ["--size=0"], "size"),
        (fs, fs_small + ["--size=-1"], "size"),
        (fs, ["--progress=0", "--k=-2"], "k"),
        (fs, ["--progress=0", "--k=5"], "k"),
        (fs, ["--progress=0", "--topology=bogus"], "topology"),
        (fs, ["--progress=0", "--topology=karyntree", "--n=0"], "n"),
        (fs, ["--progress=0", "--topology=karyntree", "--k=65535", "--n=64"], "topology"),
        (fs, ["--progress=0", "--topology=mesh", "--x=0"], "x"),
        (fs, ["--progress=0", "--topology=torus", "--y=-1"], "y"),
        (fs, ["--progress=0", "--topology=star", "--k=0"], "k"),
        (fs, ["--progress=0", "--topology=file"], "file"),
        (fs, ["--progress=0", "--topology=file", "--file=" + folder], "file"),
        (fs, ["--progress=0", "--topology=file", "--file=" + missing], "file"),
        (fs, ["--progress=0", "--topology=file", "--file=" + empty], "file"),
        (fs, ["--progress=0", "--topology=file", "--file=" + uncabled], "file"),
        (fs, ["--progress=0", "--topology=file", "--file=" + malformed], "file"),
        (fs, fs_small + ["--routing=DimensionOrder"], "routing"),
        (fs, fs_small + ["--linkMode=Bogus"], "linkMode"),
        (fs, fs_small + ["--scheduler=ns3::Bogus"], "scheduler"),
        (fs, fs_small + ["--scheduler=ns3::Node"], "scheduler"),
        (fs, fs_small + ["--errorRate=2"], "errorRate"),
        (fs, fs_small + ["--load=2"], "load"),
        (fs, fs_small + ["--vc=9"], "vc"),
        (fs, fs_small + ["--pattern=Bogus"], "pattern"),
        (fs, ["--progress=0", "--simTime=0"], "simTime"),
        (fs, fs_small + ["--json=" + missing], "json"),
        (fs, fs_small + ["--progress=2"], "progress"),
        (fs, fs_small + ["--mpi=2"], "mpi"),
        (fs, fs_small + ["--sync=Bogus"], "sync"),
        (fs, fs_small + ["--partition=bogus"], "partition"),
        (th, ["--interval=0s"], "interval"),
        (th, ["--interval=-1us"], "interval"),
        (th, ["--size=0"], "size"),
        (th, ["--size=-1"], "size"),
        (th, ["--length=0"], "length"),
        (th, ["--length=41"], "length"),
        (th, ["--length=-3"], "length"),
        (th, ["--vc=4"], "vc"),
        (th, ["--duration=0s"], "duration"),
        (th, ["--ascii=2"], "ascii"),
        ("st-bulk-transfer", ["--size=-1"], "size"),
        ("st-bulk-transfer", ["--transfers=-1"], "transfers"),
        ("st-bulk-transfer", ["--outstanding=0"], "outstanding"),
        ("st-bulk-transfer", ["--bufsize=25"], "bufsize"),
        ("st-bulk-transfer", ["--host=Origin"], "host"),
        ("st-memory-latency", ["--size=7"], "size"),
        ("st-memory-latency", ["--iterations=-1"], "iterations"),
        ("st-memory-latency", ["--length=0"], "length"),
        ("st-memory-latency", ["--host=ideal"], "host"),
        ("st-over-ethernet", ["--size=0"], "size"),
        ("st-over-ethernet", ["--rate=bogus"], "rate"),
        ("st-over-ethernet", ["--rate=0bps"], "rate"),
        ("harp-tcp-throughput", ["--segment=0"], "segment"),
        ("harp-tcp-throughput", ["--length=0"], "length"),
        ("harp-tcp-throughput", ["--window=0s"], "window"),
        ("harp-tcp-throughput", ["--delack=-1"], "delack"),
        ("harp-tcp-throughput", ["--host=Origin1000"], "host"),
        ("harp-figure-1-31", ["--count=-1"], "count"),
        ("harp-figure-1-32", ["--bogus"], "bogus"),
    ]


def check(program, args, option, tmp):
    """Returns an error text, or None if the run behaved."""
    cmd = [program] + args
    try:
        proc = subprocess.run(cmd, cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "did not end within %g s" % TIMEOUT
    out = proc.stdout.decode("utf-8", errors="replace")
    err = proc.stderr.decode("utf-8", errors="replace")
    lines = [line for line in err.splitlines() if line.strip()]
    if proc.returncode != 1:
        return "exit status %d, not 1; stderr: %s" % (proc.returncode, err.strip()[-300:])
    if out.strip():
        return "wrote to standard output: %s" % out.strip()[:300]
    if len(lines) != 1:
        return "%d lines on standard error, not 1: %s" % (len(lines), err.strip()[:300])
    if "--%s=" % option not in lines[0] and "--%s:" % option not in lines[0]:
        return "the message does not name --%s: %s" % (option, lines[0])
    return None


def main(argv):
    build_dir = os.path.abspath(argv[1]) if len(argv) > 1 else os.path.join(TOP, "build")
    examples = os.path.join(build_dir, "examples")
    failures = 0
    ran = 0
    with tempfile.TemporaryDirectory(prefix="example-cli-") as tmp:
        for name, args, option in cases(tmp):
            program = os.path.join(examples, name)
            line = "%s %s" % (name, " ".join(args))
            if not os.access(program, os.X_OK):
                print("skipped (not built): %s" % line)
                continue
            ran += 1
            error = check(program, args, option, tmp)
            if error:
                failures += 1
                print("FAIL: %s: %s" % (line, error))
            else:
                print("ok: %s" % line)
    if ran == 0:
        print("SKIP: no example is built in %s" % examples)
        return 77
    print("%d of %d bad command lines handled" % (ran - failures, ran))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
