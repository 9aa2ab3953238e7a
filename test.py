#!/usr/bin/env python3
"""ns-3-style test driver for the standalone build of the gsn, st and harp modules.

It builds the project (unless -n), then runs, as separate processes:
  * every ns-3 TestSuite linked into build/test-runner (one process per suite);
  * every standalone engine unit-test program build/*-core-test (Boost.Test, no ns-3);
  * the wscript-consistency check (tools/check-wscript.py);
  * the gsn-dissector check (tools/test-dissector.sh; skipped when tshark is missing);
  * gsn-mpi (tools/test-mpi.sh): a fabric split over 1, 2 and 4 MPI ranks against one process
    (skipped without MPI in the build);
  * the install-package check (tools/test-install.sh: cmake --install, then a scenario project
    built against the installed package);
  * the example-cli check (tools/test-example-cli.py: bad option values of the examples end
    with one line and exit status 1);
  * the st-dissector check (tools/test-st-dissector.sh; skipped when tshark is missing);
  * the sphinx-docs check (tools/build-docs.sh: the HTML documentation builds without a
    Sphinx warning; skipped without sphinx-build);
  * the doc-figures check (tools/check-figures.py: the quick figures of the README and
    bench/README.md, re-run by the programs that print them);
  * the doc-attributes check (tools/check-doc-attributes.py: the docs' attribute tables list
    every attribute of their class with the code's default);
  * the fuzz-smoke check (tools/fuzz.sh --smoke: the libFuzzer targets of fuzz/ a few seconds
    each; skipped without clang and its fuzzer runtime);
  * the st-host-unit tests (build/host/st-host-test, Boost.Test: the host's Ethernet framing,
    the test programs' pattern and messages);
  * the st-host-netns check (tools/test-st-host.sh: the ST host programs and libst between two
    network namespaces; skipped without root);
  * the st-host-wire check (tools/test-st-wire.sh: the same writes by the simulator and by the
    host layer decode to the same ST operations; skipped without root, tshark or the examples);
  * the st-host-interop check (tools/test-st-interop.sh: a simulated ST host on an FdNetDevice
    and the host programs talking to it; skipped without root or the example);
  * the harp-host-netns check (tools/test-harp-host.sh: harpd and gsnarp with a server and two
    clients in three network namespaces; skipped without root);
  * the Python checks, when the bindings are built (GSN_ENABLE_PYTHON): python-bindings (the
    unittest suite bindings/python/tests) and python-twins (tools/test-python-twins.py: the
    Python twins of the examples print what their C++ programs print);
  * every example listed in an examples-to-run.py file (test/, examples/, src/<module>/test/):
    cpp_examples as programs of build/examples, python_examples as scripts of the examples/
    folder next to the list, run with the bindings on PYTHONPATH.

It ends with ns-3's closing line
  N of M tests passed (P passed, S skipped, F failed, C crashed, 0 valgrind errors)
and exits non-zero if a test failed or crashed, or if no test ran at all.

Python standard library only.
"""

import argparse
import concurrent.futures
import glob
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.abspath(__file__))

FULLNESS_LEVELS = ["QUICK", "EXTENSIVE", "TAKES_FOREVER"]

# Test kinds, as ns-3's TestRunner names them ("core" means every TestSuite-based test).
KINDS = ["core", "unit", "system", "example", "performance"]


class Job:
    """One test to run: a process whose exit status is the verdict."""

    def __init__(
        self, label, name, kind, argv=None, cwd=None, skip_reason=None, fail_reason=None, env=None
    ):
        self.env = env  # extra environment variables
        self.label = label  # "TestSuite" or "Example" (as ns-3 prints them)
        self.name = name  # suite name, or the example's command line
        self.kind = kind  # unit, system, example, performance
        self.argv = argv
        self.cwd = cwd
        self.skip_reason = skip_reason  # not run: SKIP
        self.fail_reason = fail_reason  # not runnable: FAIL without running
        # Results
        self.status = None  # PASS, FAIL, CRASH, SKIP
        self.reason = ""
        self.elapsed = 0.0
        self.output = ""


class Runner:
    """Runs jobs in parallel, each in its own process group so that a hang can be killed."""

    def __init__(self, env, timeout, verbose):
        self.env = env
        self.timeout = timeout
        self.verbose = verbose
        self.lock = threading.Lock()
        self.running = set()
        self.done = 0
        self.total = 0
        self.interrupted = False

    def run_one(self, job):
        if job.skip_reason is not None:
            job.status, job.reason = "SKIP", job.skip_reason
        elif job.fail_reason is not None:
            job.status, job.reason = "FAIL", job.fail_reason
        elif self.interrupted:
            job.status, job.reason = "SKIP", "interrupted"
        else:
            self._execute(job)
        self._report(job)
        return job

    def _execute(self, job):
        start = time.monotonic()
        try:
            env = self.env
            if job.env:
                env = dict(self.env)
                env.update(job.env)
            proc = subprocess.Popen(
                job.argv,
                cwd=job.cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as err:
            job.status, job.reason = "FAIL", "cannot start: %s" % err
            return
        with self.lock:
            self.running.add(proc)
        try:
            out, _ = proc.communicate(timeout=self.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            out, _ = proc.communicate()
            timed_out = True
        finally:
            with self.lock:
                self.running.discard(proc)
        job.elapsed = time.monotonic() - start
        job.output = out.decode("utf-8", errors="replace")
        rc = proc.returncode
        if timed_out:
            job.status, job.reason = "FAIL", "timed out after %g s" % self.timeout
        elif self.interrupted and rc != 0:
            job.status, job.reason = "SKIP", "interrupted"
        elif rc < 0:
            try:
                signame = signal.Signals(-rc).name
            except ValueError:
                signame = "signal %d" % -rc
            job.status, job.reason = "CRASH", "killed by %s" % signame
        elif rc == 77 and job.label == "TestSuite":
            # The automake convention: the check cannot run here (e.g. no tshark).
            lines = job.output.strip().splitlines()
            job.status, job.reason = "SKIP", lines[-1] if lines else "exit 77"
        elif rc != 0:
            job.status, job.reason = "FAIL", "exit code %d" % rc
        else:
            job.status = "PASS"

    def _report(self, job):
        with self.lock:
            self.done += 1
            line = "[%d/%d] %s: %s %s" % (self.done, self.total, job.status, job.label, job.name)
            if job.status == "SKIP":
                line += " (%s)" % job.reason
            else:
                line += " (%.3f s)" % job.elapsed
                if job.reason:
                    line += " (%s)" % job.reason
            print(line, flush=True)
            if self.verbose and job.output:
                print(_indent(job.output), flush=True)
            elif job.status in ("FAIL", "CRASH") and job.output:
                print(_indent(_tail(job.output, 60)), flush=True)

    def interrupt(self):
        self.interrupted = True
        with self.lock:
            procs = list(self.running)
        for proc in procs:
            _kill_group(proc)


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _indent(text, prefix="    "):
    return "\n".join(prefix + line for line in text.rstrip("\n").split("\n"))


def _tail(text, lines):
    parts = text.rstrip("\n").split("\n")
    if len(parts) <= lines:
        return text
    return "[... %d lines not shown ...]\n" % (len(parts) - lines) + "\n".join(parts[-lines:])


# ---------------------------------------------------------------------------------------------
# Build


def build(build_dir, jobs):
    """Configures (if needed) and builds; returns the build's exit status."""
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        cmd = ["cmake", "-S", TOP, "-B", build_dir]
        print("test.py: " + " ".join(shlex.quote(c) for c in cmd), flush=True)
        rc = subprocess.call(cmd, cwd=TOP)
        if rc != 0:
            return rc
    cmd = ["cmake", "--build", build_dir, "-j%d" % jobs]
    print("test.py: " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    return subprocess.call(cmd, cwd=TOP)


def read_cmake_cache(build_dir):
    values = {}
    path = os.path.join(build_dir, "CMakeCache.txt")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith(("#", "//")) or "=" not in line:
                    continue
                key, value = line.split("=", 1)
                values[key.split(":", 1)[0]] = value
    except OSError:
        pass
    return values


def cache_bool(cache, key, default):
    value = cache.get(key)
    if value is None:
        return default
    return value.upper() not in ("", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND") and not (
        value.upper().endswith("-NOTFOUND")
    )


# ---------------------------------------------------------------------------------------------
# Discovering tests


def list_runner_suites(runner):
    """[(name, kind)] of the TestSuites linked into the test runner."""
    if not os.access(runner, os.X_OK):
        return []
    proc = subprocess.run(
        [runner, "--print-test-name-list", "--print-test-types"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=TOP,
    )
    text = proc.stdout.decode("utf-8", errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(
            "%s --print-test-name-list --print-test-types failed (%d):\n%s"
            % (runner, proc.returncode, text)
        )
    suites = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        kind, name = fields[0].rstrip(":"), " ".join(fields[1:])
        suites.append((name, kind))
    return suites


def list_core_tests(build_dir):
    """Standalone engine unit tests: build/*-core-test executables."""
    found = []
    for path in sorted(glob.glob(os.path.join(build_dir, "*-core-test"))):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            found.append(path)
    return found


def fuzz_skip_reason():
    """Why the fuzz targets cannot be built here (None if they can): clang++ and libFuzzer."""
    clang = shutil.which("clang++")
    if clang is None:
        return "no clang++ (Debian: clang, libclang-rt-14-dev)"
    name = "libclang_rt.fuzzer-%s.a" % os.uname().machine
    try:
        out = subprocess.run(
            [clang, "-print-file-name=" + name], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        ).stdout.decode("utf-8", errors="replace").strip()
    except OSError:
        out = ""
    if not os.path.isabs(out) or not os.path.isfile(out):
        return "no libFuzzer runtime %s for clang++ (Debian: libclang-rt-14-dev)" % name
    return None


def module_of(relpath):
    """The module whose examples-to-run.py this is (src/<module>/...), or None."""
    parts = relpath.split(os.sep)
    return parts[1] if len(parts) > 2 and parts[0] == "src" else None


def examples_to_run_files():
    """The examples-to-run.py files of the project, in a fixed order."""
    files = []
    for rel in ("test/examples-to-run.py", "examples/examples-to-run.py"):
        path = os.path.join(TOP, rel)
        if os.path.isfile(path):
            files.append(path)
    for module_dir in sorted(glob.glob(os.path.join(TOP, "src", "*"))):
        # Only modules that the build knows about.
        if not os.path.isfile(os.path.join(module_dir, "CMakeLists.txt")):
            continue
        path = os.path.join(module_dir, "test", "examples-to-run.py")
        if os.path.isfile(path):
            files.append(path)
    return files


def condition_variables(build_dir, cache):
    """The variables that ns-3's test.py lets examples-to-run.py conditions use."""
    ns3_include = "/usr/include/ns3"
    modules = []
    for path in sorted(glob.glob(os.path.join(ns3_include, "*-module.h"))):
        modules.append("ns3-" + os.path.basename(path)[: -len("-module.h")])
    own = [
        "ns3-" + os.path.basename(d)
        for d in sorted(glob.glob(os.path.join(TOP, "src", "*")))
        if os.path.isfile(os.path.join(d, "CMakeLists.txt"))
    ]
    build_type = cache.get("CMAKE_BUILD_TYPE", "")
    return {
        "ENABLE_REAL_TIME": os.path.exists(os.path.join(ns3_include, "realtime-simulator-impl.h")),
        "ENABLE_THREADING": os.path.exists(os.path.join(ns3_include, "system-thread.h")),
        "ENABLE_EXAMPLES": cache_bool(cache, "GSN_ENABLE_EXAMPLES", True),
        "ENABLE_TESTS": cache_bool(cache, "GSN_ENABLE_TESTS", True),
        "ENABLE_PYTHON_BINDINGS": python_bindings(build_dir, cache) is not None,
        "ENABLE_MPI": False,
        "ENABLE_EMU": False,
        "ENABLE_TAP": False,
        "ENABLE_GSL": cache_bool(cache, "GSL_FOUND", False),
        "ENABLE_SUDO": False,
        "ENABLE_VALGRIND_TESTS": False,
        "VALGRIND_FOUND": False,
        "NSCLICK": False,
        "ENABLE_BRITE": False,
        "ENABLE_OPENFLOW": False,
        "NS3_ENABLED_MODULES": modules + own,
        "NS3_ENABLED_CONTRIBUTED_MODULES": [],
        "NS3_MODULE_PATH": [os.path.join(build_dir, "lib")],
        "EXAMPLE_DIRECTORIES": [],
        "APPNAME": "ns",
        "BUILD_PROFILE": {"Debug": "debug", "": "default"}.get(build_type, "optimized"),
        "VERSION": "3.37",
        "PYTHON": [sys.executable],
    }


def python_bindings(build_dir, cache):
    """(interpreter, package folder) of the Python bindings, or None if they are not built."""
    if not cache_bool(cache, "GSN_ENABLE_PYTHON", False):
        return None
    package = os.path.join(build_dir, "bindings", "python")
    if not glob.glob(os.path.join(package, "ns", "_ns*.so")):
        return None
    python = cache.get("GSN_PYTHON_EXECUTABLE") or sys.executable
    return python, package


def python_env(bindings):
    """The environment additions under which Python jobs find the bindings."""
    old = os.environ.get("PYTHONPATH", "")
    return {"PYTHONPATH": bindings[1] + (os.pathsep + old if old else "")}


def load_examples_file(path):
    namespace = {}
    with open(path, encoding="utf-8") as f:
        code = compile(f.read(), path, "exec")
    exec(code, namespace)  # noqa: S102 -- ns-3's own format: a Python file of lists
    return list(namespace.get("cpp_examples", [])), list(namespace.get("python_examples", []))


# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Run the ns-3 test suites, engine unit tests and examples of this project.",
        epilog="The closing line is ns-3's: 'N of M tests passed (P passed, S skipped, F failed, "
        "C crashed, 0 valgrind errors)'. Exit status: 0 when everything that ran passed, 1 "
        "otherwise (also when no test ran), 2 when the build failed.",
    )
    p.add_argument("-l", "--list", action="store_true", help="print the tests and exit")
    p.add_argument(
        "-s",
        "--suite",
        action="append",
        default=[],
        metavar="SUITE",
        help="run only this test suite (repeat, or separate by commas, for several)",
    )
    p.add_argument(
        "-e",
        "--example",
        action="append",
        default=[],
        metavar="EXAMPLE",
        help="run only this example (program name, or the full line of examples-to-run.py)",
    )
    p.add_argument(
        "-c",
        "--constrain",
        default="",
        metavar="KIND",
        help="run only tests of this kind: %s" % ", ".join(KINDS),
    )
    p.add_argument(
        "-f",
        "--fullness",
        default="QUICK",
        type=str.upper,
        choices=FULLNESS_LEVELS,
        help="duration of the tests to run (default QUICK)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="print every test's output")
    p.add_argument("-n", "--no-build", action="store_true", help="do not build before testing")
    p.add_argument(
        "-u",
        "--update-data",
        action="store_true",
        help="ask tests to regenerate their reference data: sets GSN_UPDATE_DATA=1 in their "
        "environment (ns-3.37's TestRunner has no such option)",
    )
    p.add_argument("-t", "--text", metavar="FILE", help="write a text report to FILE(.txt)")
    p.add_argument(
        "-j", "--jobs", type=int, default=2, metavar="N", help="tests run in parallel (default 2)"
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=1200.0,
        metavar="SECONDS",
        help="a test running longer fails (default 1200)",
    )
    p.add_argument(
        "--build-dir",
        default=os.path.join(TOP, "build"),
        help="the CMake build folder (default ./build)",
    )
    args = p.parse_args(argv)
    args.suite = [s for item in args.suite for s in item.split(",") if s]
    if args.constrain and args.constrain not in KINDS:
        p.error("unknown test kind %r (one of %s)" % (args.constrain, ", ".join(KINDS)))
    if args.jobs < 1:
        p.error("-j must be at least 1")
    args.build_dir = os.path.abspath(args.build_dir)
    return args


def kind_selected(kind, args, named):
    """Whether a suite of this kind runs under -c (and the performance rule)."""
    if args.constrain == "core":
        ok = kind != "example"
    elif args.constrain:
        ok = kind == args.constrain
    else:
        ok = True
    # As in ns-3, performance tests run only when asked for.
    if kind == "performance" and args.constrain != "performance" and not named:
        return False
    return ok


def collect_jobs(args, outdir):
    """Returns (jobs, errors)."""
    build_dir = args.build_dir
    runner = os.path.join(build_dir, "test-runner")
    cache = read_cmake_cache(build_dir)
    jobs = []
    errors = []

    fullness = "--fullness=%s" % args.fullness
    want_suites = not args.example or bool(args.suite)
    want_examples = (not args.suite or bool(args.example)) and args.constrain in ("", "example")
    if args.example:
        want_examples = True

    # --- TestSuites: ns-3 suites in the runner, engine unit tests, wscript check.
    suites = []  # (name, kind, argv)
    try:
        for name, kind in list_runner_suites(runner):
            # --verbose makes the runner print the details of a failure (shown on failure or -v).
            argv = [runner, "--suite=%s" % name, fullness, "--tempdir=%s" % outdir, "--verbose"]
            suites.append((name, kind, argv))
    except RuntimeError as err:
        errors.append(str(err))
    for path in list_core_tests(build_dir):
        suites.append((os.path.basename(path), "unit", [path]))
    check = os.path.join(TOP, "tools", "check-wscript.py")
    if os.path.isfile(check):
        suites.append(("wscript-consistency", "unit", [sys.executable, check]))
    # The Wireshark dissector against a trace the gsn-two-hosts example writes.
    dissector = os.path.join(TOP, "tools", "test-dissector.sh")
    if os.path.isfile(dissector):
        suites.append(("gsn-dissector", "system", ["bash", dissector, build_dir]))
    # cmake --install, and a scenario project built against the installed package.
    install = os.path.join(TOP, "tools", "test-install.sh")
    if os.path.isfile(install):
        suites.append(("install-package", "system", ["bash", install, build_dir]))
    # The examples refuse bad option values: one line, exit status 1 (77: none built).
    cli = os.path.join(TOP, "tools", "test-example-cli.py")
    if os.path.isfile(cli):
        suites.append(("example-cli", "system", [sys.executable, cli, build_dir]))
    # The fabric's pcap traces (switch ports too) and the ST dissector, from ST examples.
    st_dissector = os.path.join(TOP, "tools", "test-st-dissector.sh")
    if os.path.isfile(st_dissector):
        suites.append(("st-dissector", "system", ["bash", st_dissector, build_dir]))

    # The documentation builds with Sphinx without a warning (77: no sphinx-build).
    docs = os.path.join(TOP, "tools", "build-docs.sh")
    if os.path.isfile(docs):
        reference = os.path.join(build_dir, "typeid-reference")
        argv = ["bash", docs, os.path.join(outdir, "docs"), reference]
        suites.append(("sphinx-docs", "unit", argv))
    # The figures the README and bench/README.md quote, re-run (the quick ones).
    figures = os.path.join(TOP, "tools", "check-figures.py")
    if os.path.isfile(figures):
        suites.append(("doc-figures", "system", [sys.executable, figures, "--build-dir", build_dir]))
    # The hand-written attribute tables of the docs agree with the registered TypeIds.
    doc_attributes = os.path.join(TOP, "tools", "check-doc-attributes.py")
    if os.path.isfile(doc_attributes):
        argv = [sys.executable, doc_attributes, os.path.join(build_dir, "typeid-reference")]
        suites.append(("doc-attributes", "unit", argv))

    skips = {}
    # The Linux adaptation's unit tests (frames, pattern, messages; no network needed).
    st_host_unit = os.path.join(build_dir, "host", "st-host-test")
    if cache_bool(cache, "GSN_ENABLE_HOST", False) and os.path.isfile(st_host_unit):
        suites.append(("st-host-unit", "unit", [st_host_unit]))
    # ST on real Linux networking: two network namespaces and a veth pair (root only; the
    # script exits 77, a SKIP, without root or without namespaces).
    st_host = os.path.join(TOP, "tools", "test-st-host.sh")
    if os.path.isfile(st_host):
        suites.append(("st-host-netns", "system", ["bash", st_host, build_dir]))
        if not cache_bool(cache, "GSN_ENABLE_HOST", False):
            skips["st-host-netns"] = "the host programs are not built (GSN_ENABLE_HOST=OFF)"

    # The host's wire bytes against the simulator's (tshark), and a simulated ST host on a
    # real interface (FdNetDevice) talking to the host programs (root only; need the examples).
    for name, script in (("st-host-wire", "test-st-wire.sh"), ("st-host-interop", "test-st-interop.sh")):
        path = os.path.join(TOP, "tools", script)
        if os.path.isfile(path):
            suites.append((name, "system", ["bash", path, build_dir]))
            if not cache_bool(cache, "GSN_ENABLE_HOST", False):
                skips[name] = "the host programs are not built (GSN_ENABLE_HOST=OFF)"

    # harpd and gsnarp: a HARP server and two clients in three network namespaces (root only).
    harp_host = os.path.join(TOP, "tools", "test-harp-host.sh")
    if os.path.isfile(harp_host):
        suites.append(("harp-host-netns", "system", ["bash", harp_host, build_dir]))
        if not cache_bool(cache, "GSN_ENABLE_HOST", False):
            skips["harp-host-netns"] = "the host programs are not built (GSN_ENABLE_HOST=OFF)"
    # The Python bindings: their unittest suite, and the Python twins of the examples against
    # their C++ programs (skipped when the bindings are not built).
    bindings = python_bindings(build_dir, cache)
    python = bindings[0] if bindings else sys.executable
    envs = {}
    unit_tests = os.path.join(TOP, "bindings", "python", "tests")
    if os.path.isdir(unit_tests):
        argv = [python, "-m", "unittest", "discover", "-s", unit_tests, "-p", "test_*.py", "-v"]
        suites.append(("python-bindings", "unit", argv))
    twins = os.path.join(TOP, "tools", "test-python-twins.py")
    if os.path.isfile(twins):
        suites.append(("python-twins", "system", [python, twins, build_dir, python]))
    for name in ("python-bindings", "python-twins"):
        if bindings is None:
            skips[name] = "no Python bindings in this build (GSN_ENABLE_PYTHON)"
        else:
            envs[name] = python_env(bindings)

    # The libFuzzer targets of fuzz/ (tools/fuzz.sh --smoke): a few seconds each over their
    # committed corpus; skipped where clang or its fuzzer runtime is missing.
    fuzz = os.path.join(TOP, "tools", "fuzz.sh")
    if os.path.isfile(fuzz):
        argv = ["bash", fuzz, "--smoke", "--build-dir", build_dir.rstrip(os.sep) + "-fuzz"]
        suites.append(("fuzz-smoke", "unit", argv))
        reason = fuzz_skip_reason()
        if reason:
            skips["fuzz-smoke"] = reason

    # A fabric split over MPI ranks (ns-3's mpi module): every Message delivered at the same
    # simulated time on 1, 2 and 4 ranks, both synchronisation algorithms, and the refused
    # configurations (skipped when the build has no MPI).
    mpi = os.path.join(TOP, "tools", "test-mpi.sh")
    if os.path.isfile(mpi):
        suites.append(("gsn-mpi", "system", ["bash", mpi, build_dir]))
        if not cache_bool(cache, "GSN_ENABLE_MPI", False):
            skips["gsn-mpi"] = "no MPI in this build (GSN_ENABLE_MPI, libopenmpi-dev)"

    known = {name for name, _, _ in suites}
    for name in args.suite:
        if name not in known:
            errors.append("no test suite named %r (see ./test.py -l)" % name)

    if want_suites:
        for name, kind, argv in suites:
            named = name in args.suite
            if args.suite and not named:
                continue
            if not kind_selected(kind, args, named):
                continue
            in_top = (
                "wscript-consistency",
                "gsn-dissector",
                "st-dissector",
                "install-package",
                "example-cli",
                "fuzz-smoke",
                "sphinx-docs",
                "doc-attributes",
                "doc-figures",
                "st-host-netns",
                "harp-host-netns",
                "st-host-wire",
                "st-host-interop",
                "python-twins",
                "gsn-mpi",
            )
            cwd = TOP if name in in_top else outdir
            jobs.append(
                Job(
                    "TestSuite",
                    name,
                    kind,
                    argv=argv,
                    cwd=cwd,
                    skip_reason=skips.get(name),
                    env=envs.get(name),
                )
            )

    # --- Examples listed in examples-to-run.py files.
    variables = condition_variables(build_dir, cache)
    examples_enabled = variables["ENABLE_EXAMPLES"]
    listed = []  # (command line, condition, fullness)
    python_listed = []
    for path in examples_to_run_files():
        rel = os.path.relpath(path, TOP)
        try:
            cpp, py = load_examples_file(path)
        except Exception as err:  # a broken list is a failure, not a crash of test.py
            errors.append("%s: %s" % (rel, err))
            continue
        for entry in cpp:
            if not isinstance(entry, (tuple, list)) or len(entry) < 2:
                errors.append("%s: bad cpp_examples entry %r" % (rel, entry))
                continue
            ex_fullness = str(entry[3]).upper() if len(entry) > 3 else "QUICK"
            listed.append((str(entry[0]).strip(), str(entry[1]), ex_fullness, module_of(rel)))
        for entry in py:
            if not isinstance(entry, (tuple, list)) or not entry:
                errors.append("%s: bad python_examples entry %r" % (rel, entry))
                continue
            condition = str(entry[1]) if len(entry) > 1 else "True"
            folder = os.path.join(os.path.dirname(os.path.dirname(path)), "examples")
            python_listed.append((str(entry[0]).strip(), condition, folder))

    seen = set()
    example_names = set()
    built_modules = cache.get("GSN_MODULES", "gsn;harp;st").split(";")
    for cmdline, condition, ex_fullness, module in listed:
        if cmdline in seen:
            continue
        seen.add(cmdline)
        words = shlex.split(cmdline)
        if not words:
            continue
        program = os.path.basename(words[0])
        example_names.add(program)
        if args.example and program not in args.example and cmdline not in args.example:
            continue
        if not want_examples:
            continue
        job = Job(
            "Example",
            cmdline,
            "example",
            argv=[os.path.join(build_dir, "examples", program)] + words[1:],
            cwd=os.path.join(outdir, _safe_name(cmdline)),
        )
        try:
            run_it = bool(eval(condition, dict(variables)))  # noqa: S307 -- ns-3's format
        except Exception as err:
            run_it = True
            job.fail_reason = "cannot evaluate condition %r: %s" % (condition, err)
        if job.fail_reason:
            pass
        elif not run_it:
            job.skip_reason = "condition %s is false" % condition
        elif FULLNESS_LEVELS.index(ex_fullness if ex_fullness in FULLNESS_LEVELS else "QUICK") > (
            FULLNESS_LEVELS.index(args.fullness)
        ):
            job.skip_reason = "needs fullness %s" % ex_fullness
        elif module and module not in built_modules:
            job.skip_reason = "module %s is not built (GSN_MODULES)" % module
        elif not os.access(job.argv[0], os.X_OK):
            if examples_enabled:
                job.fail_reason = "example program %s was not built" % job.argv[0]
            else:
                job.skip_reason = "examples are not built (GSN_ENABLE_EXAMPLES=OFF)"
        jobs.append(job)

    # -e PROGRAM not listed anywhere: run the built program without arguments, as ns-3 does.
    python_names = {shlex.split(c)[0] for c, _, _ in python_listed if shlex.split(c)}
    for name in args.example:
        if name in seen or name in example_names or name in python_names:
            continue
        program = os.path.join(build_dir, "examples", os.path.basename(name))
        if os.access(program, os.X_OK):
            jobs.append(
                Job("Example", name, "example", argv=[program], cwd=os.path.join(outdir, name))
            )
        else:
            errors.append("no example named %r (looked for %s)" % (name, program))

    # Python examples: the script in the examples/ folder next to the list, with the bindings.
    bindings = python_bindings(build_dir, cache)
    for cmdline, condition, folder in python_listed:
        if cmdline in seen:
            continue
        seen.add(cmdline)
        words = shlex.split(cmdline)
        if not words:
            continue
        script = words[0]
        if args.example and script not in args.example and cmdline not in args.example:
            continue
        if not want_examples:
            continue
        python = bindings[0] if bindings else sys.executable
        job = Job(
            "Example",
            cmdline,
            "example",
            argv=[python, os.path.join(folder, script)] + words[1:],
            cwd=os.path.join(outdir, _safe_name(cmdline)),
            env=python_env(bindings) if bindings else None,
        )
        try:
            run_it = bool(eval(condition, dict(variables)))  # noqa: S307 -- ns-3's format
        except Exception as err:
            run_it = True
            job.fail_reason = "cannot evaluate condition %r: %s" % (condition, err)
        if job.fail_reason:
            pass
        elif bindings is None:
            job.skip_reason = "no Python bindings in this build (GSN_ENABLE_PYTHON)"
        elif not run_it:
            job.skip_reason = "condition %s is false" % condition
        elif not os.path.isfile(job.argv[1]):
            job.fail_reason = "no script %s" % job.argv[1]
        jobs.append(job)

    return jobs, errors


def _safe_name(text):
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)[:120]


def print_list(jobs):
    print("Test Type    Test Name")
    print("---------    ---------")
    for job in jobs:
        print("%-12s %s" % (job.kind, job.name))


def write_text_report(path, jobs, closing):
    if not path.endswith(".txt"):
        path += ".txt"
    with open(path, "w", encoding="utf-8") as f:
        for job in jobs:
            f.write("%s: %s %s" % (job.status, job.label, job.name))
            if job.status != "SKIP":
                f.write(" (%.3f s)" % job.elapsed)
            if job.reason:
                f.write(" (%s)" % job.reason)
            f.write("\n")
            if job.output and (job.status in ("FAIL", "CRASH") or job.label == "TestSuite"):
                f.write(_indent(job.output) + "\n")
        f.write(closing + "\n")
    print("test.py: text report written to %s" % path)


def make_output_dir(build_dir):
    base = os.path.join(build_dir, "testpy-output")
    os.makedirs(base, exist_ok=True)
    # Keep the latest few runs only.
    old = sorted(d for d in os.listdir(base) if os.path.isdir(os.path.join(base, d)))
    for d in old[:-4]:
        shutil.rmtree(os.path.join(base, d), ignore_errors=True)
    stamp = time.strftime("%Y-%m-%d-%H-%M-%S")
    outdir = os.path.join(base, stamp)
    n = 1
    while os.path.exists(outdir):
        n += 1
        outdir = os.path.join(base, "%s-%d" % (stamp, n))
    os.makedirs(outdir)
    return outdir


def _interrupt_handler(signum, frame):
    raise KeyboardInterrupt


def main(argv):
    args = parse_args(argv)
    # Tests run in their own sessions: on Ctrl-C or SIGTERM (a CI timeout), test.py kills them.
    signal.signal(signal.SIGINT, _interrupt_handler)
    signal.signal(signal.SIGTERM, _interrupt_handler)
    os.chdir(TOP)

    if not args.no_build:
        rc = build(args.build_dir, args.jobs)
        if rc != 0:
            print("test.py: the build failed (exit %d); no test was run" % rc, flush=True)
            return 2

    if args.list:
        jobs, errors = collect_jobs(args, os.path.join(args.build_dir, "testpy-output"))
        for err in errors:
            print("test.py: error: %s" % err, flush=True)
        print_list(jobs)
        return 1 if errors else 0

    outdir = make_output_dir(args.build_dir)
    jobs, errors = collect_jobs(args, outdir)
    for err in errors:
        print("test.py: error: %s" % err, flush=True)

    for job in jobs:
        if job.cwd and job.argv:
            os.makedirs(job.cwd, exist_ok=True)

    env = dict(os.environ)
    if args.update_data:
        env["GSN_UPDATE_DATA"] = "1"
    runner = Runner(env, args.timeout, args.verbose)
    runner.total = len(jobs)
    results = []
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    try:
        futures = [pool.submit(runner.run_one, job) for job in jobs]
        for fut in futures:
            results.append(fut.result())
    except KeyboardInterrupt:
        print("\ntest.py: interrupted; stopping the running tests", flush=True)
        runner.interrupt()
        pool.shutdown(wait=True, cancel_futures=True)
        return 130
    pool.shutdown(wait=True)

    passed = sum(1 for j in results if j.status == "PASS")
    skipped = sum(1 for j in results if j.status == "SKIP")
    failed = sum(1 for j in results if j.status == "FAIL")
    crashed = sum(1 for j in results if j.status == "CRASH")
    total = len(results)

    bad = [j for j in results if j.status in ("FAIL", "CRASH")]
    if bad:
        print("\nList of failed or crashed tests:")
        for j in bad:
            print("    %s: %s %s (%s)" % (j.status, j.label, j.name, j.reason))
    if passed + failed + crashed == 0:
        print("test.py: error: no test was run", flush=True)
    print("test.py: test output folder %s" % os.path.relpath(outdir, TOP))

    closing = "%d of %d tests passed (%d passed, %d skipped, %d failed, %d crashed, %s)" % (
        passed,
        total,
        passed,
        skipped,
        failed,
        crashed,
        "0 valgrind errors",
    )
    if args.text:
        write_text_report(args.text, results, closing)
    print(closing, flush=True)
    # The same counts in the plain form that CI systems read.
    print("Summary: %d passed, %d failed, %d skipped" % (passed, failed + crashed, skipped),
          flush=True)

    if failed or crashed or errors or passed == 0:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
