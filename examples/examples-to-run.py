# Examples that ./test.py runs (ns-3's format). Each entry of cpp_examples is
#   ("program-name arguments", "condition to run", "condition to run under valgrind")
# where the conditions are Python expressions over ns-3's test.py variables (ENABLE_EXAMPLES,
# ENABLE_TESTS, ENABLE_REAL_TIME, ...). An example passes when it exits with status 0.
# The program is build/examples/<program-name>.
cpp_examples = []

# ("script.py arguments", "condition"): Python scripts of examples/, run by test.py with the
# Python bindings (skipped when the build has none, ENABLE_PYTHON_BINDINGS false).
python_examples = []
