#! /usr/bin/env python3
# Examples of the st module that test.py runs as tests: (command, run condition, valgrind).
# Each example exits non-zero when its transfers do not all complete intact.
cpp_examples = [
    ("st-bulk-transfer", "True", "True"),
    ("st-bulk-transfer --read=1 --size=1048576 --transfers=2 --outstanding=2", "True", "True"),
    ("st-memory-latency", "True", "True"),
    ("st-memory-latency --switch=1 --size=1024 --iterations=10", "True", "True"),
    ("st-memory-latency --size=65535 --iterations=5", "True", "True"),
    ("st-bulk-transfer --host=Origin2000 --transfers=2 --linkMode=Run", "True", "True"),
    ("st-memory-latency --switch=1 --host=Origin2000 --iterations=10", "True", "True"),
    ("st-over-ethernet", "True", "True"),
]

# Python twins of the examples (examples/<name>.py), run when the Python bindings are built;
# tools/test-python-twins.py checks that each prints what its C++ program prints.
python_examples = [
    ("st-bulk-transfer.py", "ENABLE_PYTHON_BINDINGS"),
    ("st-bulk-transfer.py --read=1 --size=1048576 --transfers=2 --outstanding=2 --linkMode=Run", "ENABLE_PYTHON_BINDINGS"),
]
