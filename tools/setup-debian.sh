#!/usr/bin/env bash
# Installs what the project needs on Debian 12 (bookworm): ns-3.37 and the libraries its CMake
# configuration silently needs, Boost, the compiler and build tools, Python 3, tshark, and what
# building ns-3's source package needs.
# The one list of packages of the project: .ci/run and tools/run-default.sh call this script.
#
# Usage: tools/setup-debian.sh [--print]      (--print: only print the package list)
# Runs apt-get through sudo when not root. Skips apt-get altogether when every package is
# already installed (set GSN_FORCE_APT=1 to run apt-get anyway).
set -euo pipefail

PACKAGES=(
  libns3-dev
  # ns3: the helper programs in /usr/libexec/ns3 that ns-3's CMake package file checks for;
  # without them find_package(ns3) fails.
  ns3
  libpython3-dev
  libxml2-dev
  libgsl-dev
  libsqlite3-dev
  libboost-dev
  libboost-graph-dev
  libboost-test-dev
  cmake
  g++
  make
  python3
  tshark
  # gnuplot-nox: the PNG plots of bench/run-fabric-bench.py and tools/gsn-scaling-study.py
  gnuplot-nox
  # dpkg-dev (dpkg-source) and ninja-build: tools/ns3-tree-test.sh unpacks Debian's ns3
  # source package and builds it with ns-3's own ./ns3 (Ninja when present).
  dpkg-dev
  ninja-build
  # clang, libclang-rt-14-dev: the libFuzzer targets of fuzz/ (tools/fuzz.sh, test.py's
  # fuzz-smoke, skipped without them)
  clang
  libclang-rt-14-dev
  # python3-sphinx: the HTML documentation (tools/build-docs.sh, CMake target doc) and
  # test.py's sphinx-docs check
  python3-sphinx
  # iproute2 (ip netns, veth) and nftables (1% frame loss on kernels without netem): the
  # st-host-netns test of the ST host programs (tools/test-st-host.sh)
  iproute2
  nftables
  # iperf3: the TCP side of bench/st-host-bench.py
  iperf3
  # pybind11-dev, python3-pybind11, python3-dev: the Python bindings (package ns,
  # GSN_ENABLE_PYTHON); python3-matplotlib: the plots of tools/gsn-python-study.py
  pybind11-dev
  python3-pybind11
  python3-dev
  python3-matplotlib
  # libopenmpi-dev, openmpi-bin: ns-3's mpi module built from Debian's ns3 source package
  # (GSN_ENABLE_MPI) and fabrics across MPI ranks (test.py's gsn-mpi)
  libopenmpi-dev
  openmpi-bin
  # nlohmann-json3-dev: the test suites parse the JSON the modules write
  nlohmann-json3-dev
  # libmetis-dev: the graph partitioner of fabrics split over MPI ranks
  # (GsnFabricHelper::PartitionGraph; without it the fabric helper partitions in blocks)
  libmetis-dev
  # valgrind: the instruction counts bench/README.md and gsn-performance.rst quote
  # (valgrind --tool=callgrind), which do not depend on the machine's load
  valgrind
)

if [[ "${1:-}" == "--print" ]]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != "installed" ]]; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 && "${GSN_FORCE_APT:-0}" != "1" ]]; then
  echo "setup-debian: all ${#PACKAGES[@]} packages are installed"
  exit 0
fi

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  SUDO=(sudo)
fi

echo "setup-debian: installing ${missing[*]:-${PACKAGES[*]}}"
"${SUDO[@]}" apt-get update
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${PACKAGES[@]}"
