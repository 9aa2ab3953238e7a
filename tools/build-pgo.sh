#!/usr/bin/env bash
# A profile-guided build (GCC's -fprofile-generate / -fprofile-use) for long studies:
#   tools/build-pgo.sh [build-dir [cmake options...]]      (default: build-pgo)
# builds the benchmarks with profiling, runs them on a training set of fabrics (run mode and
# micropacket mode, with and without exact credits), then builds everything again in the
# same directory laid out for the recorded profile. Same results as the plain build; the
# figures of bench/README.md say how much faster. Takes two builds (about 15 min on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-pgo}
shift || true
extra=("$@") # e.g. -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON
profile="$(pwd)/${dir}/pgo-profile"

rm -rf "${profile}"
cmake -S . -B "${dir}" -DGSN_PGO=generate -DGSN_PGO_DIR="${profile}" "${extra[@]}"
cmake --build "${dir}" -j2 --target gsn-fabric-bench gsn-link-bench

bench="${dir}/bench/gsn-fabric-bench"
wheel=--scheduler=ns3::GsnTimingWheelScheduler
echo "training: run mode k = 8, k = 4 with exact credits and with random VCs"
"${bench}" --model=gsn-run --k=8 "${wheel}" > /dev/null
"${bench}" --model=gsn-run --k=4 "${wheel}" --ns3::GsnPortDevice::ExactCredits=true > /dev/null
"${bench}" --model=gsn-run --k=4 "${wheel}" --vc=4 > /dev/null
echo "training: micropacket mode k = 4, a saturated link"
"${bench}" --model=gsn --k=4 --simTime=200us "${wheel}" > /dev/null
"${dir}/bench/gsn-link-bench" --repeat=1 > /dev/null

cmake -S . -B "${dir}" -DGSN_PGO=use -DGSN_PGO_DIR="${profile}" "${extra[@]}"
cmake --build "${dir}" -j2
echo "profile-guided build ready in ${dir}"
