#!/usr/bin/env python3
"""The Python twins of the examples print what their C++ programs print (test.py's system
test python-twins).

Every Python example listed in an examples-to-run.py file (python_examples) whose C++ twin
is built (build/examples/<name without .py>) runs with the listed arguments next to its twin,
each in a folder of its own; both must end with the same exit status and write the same
standard output, the same standard error and the same files (JSON, CSV, pcap, ASCII traces).
Wall-clock figures (the "build ... s, run ... s" of gsn-fabric-scaling) are masked. Then the
bad option values of tools/test-example-cli.py are given to every twin: the same one line and
the same exit status.

Usage: test-python-twins.py BUILD_DIR [PYTHON]
  (exit 0: passed, 1: failed, 77: no Python bindings or no twin built)
Python standard library only.
"""

import difflib
import filecmp
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 600.0

# Wall-clock figures, which differ from run to run.
WALL = re.compile(
    r"build \S+ s, run \S+ s, \S+ events/s, \S+ wall s per simulated ms"
)


def normalise(text):
    return WALL.sub("build T s, run T s, R events/s, W wall s per simulated ms", text)


def listed_twins(build_dir):
    """[(script path, arguments, C++ program path)] from the examples-to-run.py files."""
    files = [os.path.join(TOP, "test", "examples-to-run.py"),
             os.path.join(TOP, "examples", "examples-to-run.py")]
    files += sorted(
        os.path.join(TOP, "src", m, "test", "examples-to-run.py")
        for m in os.listdir(os.path.join(TOP, "src"))
    )
    twins = []
    for path in files:
        if not os.path.isfile(path):
            continue
        namespace = {}
        with open(path, encoding="utf-8") as f:
            exec(compile(f.read(), path, "exec"), namespace)  # noqa: S102 -- ns-3's format
        folder = os.path.join(os.path.dirname(os.path.dirname(path)), "examples")
        for entry in namespace.get("python_examples", []):
            words = shlex.split(entry[0])
            script = os.path.join(folder, words[0])
            program = os.path.join(build_dir, "examples", words[0][: -len(".py")])
            if os.access(program, os.X_OK):
                twins.append((script, words[1:], program))
    return twins


def run(argv, cwd, env):
    try:
        proc = subprocess.run(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %g s" % TIMEOUT
    return (
        proc.returncode,
        normalise(proc.stdout.decode("utf-8", "replace")),
        proc.stderr.decode("utf-8", "replace"),
    )


def compare(label, cpp, py, cpp_dir=None, py_dir=None):
    """[problems] between two runs (and the files they wrote)."""
    problems = []
    names = ("exit status", "standard output", "standard error")
    for name, a, b in zip(names, cpp, py):
        if a != b:
            if isinstance(a, str) and isinstance(b, str):
                diff = difflib.unified_diff(
                    a.splitlines(), b.splitlines(), "C++", "Python", lineterm="", n=0
                )
                text = "\n".join("    " + line for line in diff)
            else:
                text = "    C++: %r, Python: %r" % (a, b)
            problems.append("%s: %s differs:\n%s" % (label, name, text))
    if cpp_dir and py_dir:
        cpp_files = sorted(os.listdir(cpp_dir))
        py_files = sorted(os.listdir(py_dir))
        if cpp_files != py_files:
            problems.append("%s: files written: C++ %s, Python %s" % (label, cpp_files, py_files))
        for name in set(cpp_files) & set(py_files):
            if not filecmp.cmp(os.path.join(cpp_dir, name), os.path.join(py_dir, name), False):
                problems.append("%s: file %s differs" % (label, name))
    return problems


def cli_cases(tmp):
    """The bad option values of tools/test-example-cli.py."""
    path = os.path.join(TOP, "tools", "test-example-cli.py")
    spec = importlib.util.spec_from_file_location("example_cli", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.cases(tmp)


def main(argv):
    build_dir = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(TOP, "build"))
    python = argv[2] if len(argv) > 2 else sys.executable
    package = os.path.join(build_dir, "bindings", "python")
    if not os.path.isdir(os.path.join(package, "ns")):
        print("no Python bindings in %s (GSN_ENABLE_PYTHON)" % build_dir)
        return 77
    env = dict(os.environ)
    env["PYTHONPATH"] = package + os.pathsep + env.get("PYTHONPATH", "")
    twins = listed_twins(build_dir)
    if not twins:
        print("no Python example with a built C++ twin")
        return 77

    problems = []
    with tempfile.TemporaryDirectory(prefix="python-twins-") as tmp:
        for n, (script, args, program) in enumerate(twins):
            label = " ".join([os.path.basename(script)] + args)
            cpp_dir = os.path.join(tmp, "%d-cpp" % n)
            py_dir = os.path.join(tmp, "%d-py" % n)
            os.makedirs(cpp_dir)
            os.makedirs(py_dir)
            cpp = run([program] + args, cpp_dir, env)
            py = run([python, script] + args, py_dir, env)
            found = compare(label, cpp, py, cpp_dir, py_dir)
            problems += found
            print("%s: %s" % ("SAME" if not found else "DIFFERENT", label), flush=True)

        scripts = {os.path.basename(p): s for s, _, p in twins}
        checked = alike = 0
        for program, args, _ in cli_cases(tmp):
            if program not in scripts:
                continue
            label = " ".join([program + ".py"] + args)
            cpp = run([os.path.join(build_dir, "examples", program)] + args, tmp, env)
            py = run([python, scripts[program]] + args, tmp, env)
            found = compare(label, cpp, py)
            problems += found
            checked += 1
            alike += 0 if found else 1
            if found:
                print("DIFFERENT: %s" % label, flush=True)
        print("%d bad option values: %d answered alike" % (checked, alike))

    for p in problems:
        print(p)
    print("%d twin runs compared, %d problems" % (len(twins), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
