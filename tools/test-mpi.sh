#!/usr/bin/env bash
# A GSN fabric split over MPI ranks gives the results of one process: gsn-fat-tree (k = 4, 16
# endpoints, 20 switches) run in one process without MPI is the reference; the same scenario
# on 1, 2 and 4 ranks with each of ns-3's synchronisation algorithms (granted time windows,
# null messages) must deliver every Message at the same simulated time and print the same
# statistics (rank 0 gathers them: its --csv file of every Message and its output equal the
# reference's, 0 ns difference). Then the refused configurations: a cable across ranks shorter than
# GsnRemoteChannel's MinDelay, and more ranks than elements, end with the error within a time
# limit (no hang).
#
# Usage: tools/test-mpi.sh BUILD_DIR     (exit 77, a SKIP, when the build has no MPI)
set -euo pipefail
build=$(realpath "${1:-build}")
example="$build/examples/gsn-fat-tree"
say() { printf 'test-mpi: %s\n' "$*"; }

help=$("$example" --PrintHelp 2>&1 || true)
if ! command -v mpirun >/dev/null || [[ ! -x "$example" ]] || [[ "$help" != *"--mpi:"* ]]; then
  say "SKIP: no mpirun, or gsn-fat-tree built without MPI"
  exit 77
fi
mpirun=(mpirun --oversubscribe)
[[ $(id -u) -eq 0 ]] && mpirun+=(--allow-run-as-root)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scenario=(--k=4 --load=0.6 --size=4000 --simTime=${GSN_MPI_SIMTIME:-200us} --warmup=0s --vc=4 --details=1 --errorRate=1e-4)
fail=0

"$example" "${scenario[@]}" --csv="$work/ref.csv" >"$work/ref.out"
total=$(awk -F, 'NR > 1 && $6 != ""' "$work/ref.csv" | wc -l)
if [[ $total -lt 20 ]]; then
  say "FAIL: the reference run delivered only $total Messages"
  exit 1
fi
say "reference: $total Messages delivered in one process"

# Rank 0 gathers the statistics: its CSV (every Message: source, destination, sequence, bytes,
# send and arrival times) and its printed statistics must be the reference's, byte for byte.
for sync in Distributed NullMessage; do
  for n in ${GSN_MPI_RANKS:-1 2 4}; do
    rm -f "$work/run.csv"
    if ! timeout 300 "${mpirun[@]}" -np "$n" "$example" "${scenario[@]}" --mpi=1 --sync="$sync" \
      --csv="$work/run.csv" >"$work/run.out" 2>"$work/run.err"; then
      say "FAIL: $n rank(s), $sync: the run failed"
      tail -5 "$work/run.err"
      fail=1
      continue
    fi
    differ=$( (diff "$work/ref.csv" "$work/run.csv" || true) | grep -c '^[<>]' || true)
    if [[ $differ -ne 0 ]]; then
      say "FAIL: $n rank(s), $sync: $differ Message record lines differ from one process:"
      diff "$work/ref.csv" "$work/run.csv" | head -6
      fail=1
    else
      say "ok: $n rank(s), $sync: all $total Messages at the same times (0 ns difference)"
    fi
    if ! diff -q "$work/ref.out" "$work/run.out" >/dev/null; then
      say "FAIL: $n rank(s), $sync: the printed statistics differ from one process:"
      diff "$work/ref.out" "$work/run.out" | head -6
      fail=1
    else
      say "ok: $n rank(s), $sync: identical printed statistics"
    fi
  done
done

# Refused: each case must end (no hang) with its message from every rank.
refused() {
  local what=$1 n=$2 pattern=$3
  shift 3
  local out="$work/refused.out"
  if timeout 120 "${mpirun[@]}" -np "$n" "$example" --mpi=1 "$@" >"$out" 2>&1; then
    say "FAIL: $what: the run was not refused"
    fail=1
    return
  fi
  local got
  got=$(grep -c -- "$pattern" "$out" || true)
  # (Every rank makes the same check; mpirun ends the others when the first one aborts, so
  # not every rank's line always makes it out.)
  if [[ $got -lt 1 ]]; then
    say "FAIL: $what: '$pattern' printed by no rank"
    tail -5 "$out"
    fail=1
  else
    say "ok: $what: refused ($got of $n ranks printed it before mpirun ended the job)"
  fi
}
refused "a cable across ranks below MinDelay" 2 "below ns3::GsnRemoteChannel::MinDelay" \
  --k=4 --simTime=20us --warmup=0s --ns3::GsnRemoteChannel::MinDelay=100ns
refused "a rank with no element" 4 "has no element of the fabric" --k=2 --simTime=20us --warmup=0s
exit $fail
