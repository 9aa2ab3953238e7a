#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang, its own build folder) and runs each over a
# copy of its committed seed corpus (fuzz/corpus/<target>/, which never grows), then prints per
# target the runs executed and their rate. Exit status: 0 if no target crashed, 1 if one did
# (its input is kept in BUILD/artifacts/), 2 for a build or usage error, 77 (--smoke only)
# when clang or its fuzzer runtime is missing.
#
# Usage: tools/fuzz.sh [--smoke] [--build-dir DIR] [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  default 60 (--smoke: 8, or $GSN_FUZZ_SMOKE_SECONDS)
#   TARGET              default all, e.g. st-endpoint-fuzzer (see fuzz/CMakeLists.txt)
#   --smoke             the test.py check: short runs, skipped (77) without clang
#   --build-dir DIR     default build-fuzz
# Builds with one job under nice (the machines are shared); set GSN_FUZZ_JOBS to change it.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="$TOP/build-fuzz"
SMOKE=0
SECONDS_PER=""
TARGETS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --smoke) SMOKE=1 ;;
    --build-dir) BUILD=$(realpath -m "$2"); shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *)
      if [[ -z "$SECONDS_PER" && "$1" =~ ^[0-9]+$ ]]; then SECONDS_PER=$1; else TARGETS+=("$1"); fi ;;
  esac
  shift
done
if [[ -z "$SECONDS_PER" ]]; then
  if [[ $SMOKE == 1 ]]; then SECONDS_PER=${GSN_FUZZ_SMOKE_SECONDS:-8}; else SECONDS_PER=60; fi
fi

missing() {
  if [[ $SMOKE == 1 ]]; then echo "SKIP: $*"; exit 77; fi
  echo "fuzz.sh: $*" >&2; exit 2
}
command -v clang++ >/dev/null || missing "clang++ not found (Debian: apt-get install clang libclang-rt-14-dev)"
rt=$(clang++ -print-file-name="libclang_rt.fuzzer-$(uname -m).a")
[[ -f "$rt" ]] || missing "clang's libFuzzer runtime not found (Debian: apt-get install libclang-rt-14-dev)"

mkdir -p "$BUILD"
if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
  nice cmake -S "$TOP/fuzz" -B "$BUILD" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log"; exit 2; }
fi
nice cmake --build "$BUILD" -j"${GSN_FUZZ_JOBS:-1}" >"$BUILD/build.log" 2>&1 || {
  tail -n 60 "$BUILD/build.log"; echo "fuzz.sh: the build failed"; exit 2; }

if [[ ${#TARGETS[@]} -eq 0 ]]; then
  for d in "$TOP"/fuzz/corpus/*/; do TARGETS+=("$(basename "$d")"); done
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gsn-fuzz.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$BUILD/artifacts"
failed=()
printf '%-24s %10s %8s %7s  %s\n' target runs exec/s corpus result
for t in "${TARGETS[@]}"; do
  exe="$BUILD/$t"
  [[ -x "$exe" ]] || { echo "fuzz.sh: no target $t in $BUILD" >&2; exit 2; }
  mkdir -p "$WORK/$t"
  [[ -d "$TOP/fuzz/corpus/$t" ]] && cp "$TOP/fuzz/corpus/$t"/* "$WORK/$t"/ 2>/dev/null || true
  log="$BUILD/artifacts/$t.log"
  # -timeout: one input taking longer is a hang, reported as a crash.
  # A dictionary of the format's keywords, for the text targets.
  dict=()
  [[ -f "$TOP/fuzz/dict/$t.dict" ]] && dict=(-dict="$TOP/fuzz/dict/$t.dict")
  rc=0
  (cd "$WORK" && nice "$exe" -max_total_time="$SECONDS_PER" -timeout=25 -print_final_stats=1 \
      "${dict[@]}" -artifact_prefix="$BUILD/artifacts/$t-" "$WORK/$t" >"$log" 2>&1) || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  corp=$(ls "$WORK/$t" | wc -l)
  if [[ $rc -eq 0 ]]; then
    result=ok
  else
    result="CRASH (exit $rc, log $log)"
    failed+=("$t")
  fi
  printf '%-24s %10s %8s %7s  %s\n' "$t" "${runs:-?}" "${rate:-?}" "$corp" "$result"
  if [[ $rc -ne 0 ]]; then
    grep -E 'ERROR|FUZZ_CHECK|runtime error|Test unit written|SUMMARY' "$log" | head -n 20 | sed 's/^/    /'
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: ${#failed[@]} target(s) crashed: ${failed[*]}"
  exit 1
fi
echo "fuzz.sh: ${#TARGETS[@]} target(s), ${SECONDS_PER} s each, no crash"
