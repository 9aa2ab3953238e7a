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

python_examples = []
