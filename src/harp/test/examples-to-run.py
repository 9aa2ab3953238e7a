#! /usr/bin/env python3
# Examples of the harp module that test.py runs as tests: (command, run condition, valgrind).
# Each exits non-zero if a ping went unanswered or HARP resolved across LIS.
cpp_examples = [
    ("harp-figure-1-31", "True", "True"),
    ("harp-figure-1-31 --broadcast=1", "True", "True"),
    ("harp-figure-1-32", "True", "True"),
    ("harp-figure-1-32 --broadcast=1 --tables=1", "True", "True"),
    ("harp-tcp-throughput", "True", "True"),
    ("harp-tcp-throughput --host=Origin2000 --window=5ms", "True", "True"),
]

# Python twins of the examples (examples/<name>.py), run when the Python bindings are built;
# tools/test-python-twins.py checks that each prints what its C++ program prints.
python_examples = [
    ("harp-figure-1-31.py", "ENABLE_PYTHON_BINDINGS"),
    ("harp-figure-1-31.py --broadcast=1 --tables=1", "ENABLE_PYTHON_BINDINGS"),
    ("harp-figure-1-32.py", "ENABLE_PYTHON_BINDINGS"),
    ("harp-figure-1-32.py --broadcast=1 --tables=1 --count=2", "ENABLE_PYTHON_BINDINGS"),
]
