#! /usr/bin/env python3
# Examples of the gsn module that test.py runs as tests: (command, run condition, valgrind).
cpp_examples = [
    ("gsn-two-hosts", "True", "True"),
    ("gsn-two-hosts --vc=3 --length=40 --size=100 --interval=1us --duration=100us", "True", "True"),
    ("gsn-fat-tree", "True", "True"),
    ("gsn-animation --simTime=20us", "True", "True"),
    ("gsn-fat-tree --pattern=Permutation --vc=4 --load=0.3 --simTime=300us", "True", "True"),
    ("gsn-fat-tree --drain=1 --simTime=300us --json=summary.json --csv=messages.csv", "True", "True"),
    ("gsn-fabric-scaling --topology=mesh --x=3 --y=3 --simTime=200us --progress=0", "True", "True"),
    ("gsn-fabric-scaling --topology=torus --x=3 --y=3 --routing=UpDown --simTime=200us --progress=0", "True", "True"),
    ("gsn-fabric-scaling --topology=fattree --k=4 --linkMode=Run --simTime=200us --progress=0", "True", "True"),
    ("gsn-fabric-scaling --topology=fattree --k=4 --linkMode=Run --errorRate=1e-4 --simTime=200us --progress=0", "True", "True"),
    ("gsn-fabric-scaling --topology=fattree --k=4 --errorRate=1e-2 --drain=1 --simTime=200us --progress=0", "True", "True"),
    # ns-3.37's HeapScheduler mishandles Simulator::Remove; the ports must not rely on it.
    # (--scheduler, not --SchedulerType: the example binds its --scheduler after parsing.)
    ("gsn-fabric-scaling --topology=fattree --k=8 --linkMode=Run --simTime=200us --progress=0 --scheduler=ns3::HeapScheduler", "True", "True"),
]

# Python twins of the examples (examples/<name>.py), run when the Python bindings are built;
# tools/test-python-twins.py checks that each prints what its C++ program prints.
python_examples = [
    ("gsn-two-hosts.py", "ENABLE_PYTHON_BINDINGS"),
    ("gsn-two-hosts.py --vc=3 --length=40 --size=100 --interval=1us --duration=100us --pcap=1 --ascii=1", "ENABLE_PYTHON_BINDINGS"),
    ("gsn-fat-tree.py", "ENABLE_PYTHON_BINDINGS"),
    ("gsn-fat-tree.py --pattern=Permutation --vc=4 --load=0.3 --simTime=300us", "ENABLE_PYTHON_BINDINGS"),
    ("gsn-fat-tree.py --drain=1 --simTime=300us --json=summary.json --csv=messages.csv --details=1", "ENABLE_PYTHON_BINDINGS"),
    ("gsn-fabric-scaling.py --topology=mesh --x=3 --y=3 --simTime=200us --progress=0", "ENABLE_PYTHON_BINDINGS"),
    ("gsn-fabric-scaling.py --topology=fattree --k=4 --linkMode=Run --errorRate=1e-4 --simTime=200us --progress=0 --json=summary.json", "ENABLE_PYTHON_BINDINGS"),
]
