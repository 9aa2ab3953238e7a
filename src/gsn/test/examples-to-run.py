#! /usr/bin/env python3
# Examples of the gsn module that test.py runs as tests: (command, run condition, valgrind).
cpp_examples = [
    ("gsn-two-hosts", "True", "True"),
    ("gsn-two-hosts --vc=3 --length=40 --size=100 --interval=1us --duration=100us", "True", "True"),
]

python_examples = []
