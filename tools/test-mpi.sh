#!/usr/bin/env bash
# A GSN fabric split over MPI ranks gives the results of one process: gsn-fat-tree (k = 4, 16
# endpoints, 20 switches, Messages on random VCs, link errors) run in one process without MPI
# is the reference; the same scenario
# on 1, 2 and 4 ranks with each of ns-3's synchronisation algorithms (granted time windows,
# null messages) must deliver every Message at the same simulated time and print the same
# statistics (rank 0 gathers them: its --csv file of every Message and its output equal the
# reference's, 0 ns difference). The same for a torus and a topology file through
# gsn-fabric-scaling, and the file with each --partition method. Then the refused
# configurations: a cable across ranks shorter than GsnRemoteChannel's MinDelay, more ranks
# than elements, and more ranks than the graph partitioner has switches for, end with the
# error within a time limit (no hang). Also: the Python twin of gsn-fabric-scaling on 2 ranks
# prints what one process of it and the C++ program print (when the bindings are built), and
# the synchronisation profile (tools/mpi-sync-profile.cc) prints its counts on every rank.
#
# Usage: tools/test-mpi.sh BUILD_DIR     (exit 77, a SKIP, when the build has no MPI)
set -euo pipefail
build=$(realpath "${1:-build}")
example="$build/examples/gsn-fat-tree"
say() { printf 'test-mpi: %s\n' "$*"; }

if ! command -v mpirun >/dev/null || [[ ! -x "$example" ]]; then
  say "SKIP: no mpirun or no gsn-fat-tree"
  exit 77
fi
probe=$("$example" --mpi=1 --k=2 --simTime=20us --warmup=0s 2>&1 || true)
if [[ "$probe" == *"which this build lacks"* ]]; then
  say "SKIP: this build has no ns-3 mpi module"
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
      diff "$work/ref.csv" "$work/run.csv" | head -6 || true
      fail=1
    else
      say "ok: $n rank(s), $sync: all $total Messages at the same times (0 ns difference)"
    fi
    if ! diff -q "$work/ref.out" "$work/run.out" >/dev/null; then
      say "FAIL: $n rank(s), $sync: the printed statistics differ from one process:"
      diff "$work/ref.out" "$work/run.out" | head -6 || true
      fail=1
    else
      say "ok: $n rank(s), $sync: identical printed statistics"
    fi
  done
done

# Other topologies through gsn-fabric-scaling: a torus (3 x 3, split into slabs) and a
# topology file (a ring of four switches, split by the automatic choice), on 1, 2 and 4 ranks
# with both algorithms; its printed statistics (Message counts, throughput, latency
# percentiles, link utilisation and credit stalls) must be the one-process run's. Not
# compared: the line of wall times and events, and the partition line. (The link utilisation
# counts every micropacket: it differs when an acknowledgement rides one slot later because an
# arrival ran after the choice of its instant's slot, which GsnChannel::AmendRseqSentNow
# settles; see src/gsn/doc/gsn-distributed.rst.)
scaling="$build/examples/gsn-fabric-scaling"
cat >"$work/ring.topo" <<'TOPO'
switch s0 4
switch s1 4
switch s2 4
switch s3 4
endpoint a0
endpoint a1
endpoint b0
endpoint b1
endpoint c0
endpoint c1
endpoint d0
endpoint d1
link a0:0 s0:0
link a1:0 s0:1
link b0:0 s1:0
link b1:0 s1:1
link c0:0 s2:0
link c1:0 s2:1
link d0:0 s3:0
link d1:0 s3:1
link s0:2 s1:3
link s1:2 s2:3
link s2:2 s3:3
link s3:2 s0:3
TOPO
common=(--simTime=${GSN_MPI_SIMTIME:-200us} --size=2000 --load=0.6 --vc=4 --errorRate=1e-4 --progress=0)
# run_like_one_process WHAT NP ARGS...: gsn-fabric-scaling ARGS on NP ranks must print what the
# one-process run printed into $work/ref.out (all but the lines of events, ranks and partition).
run_like_one_process() {
  local what=$1 n=$2
  shift 2
  if ! timeout 300 "${mpirun[@]}" -np "$n" "$scaling" "$@" --mpi=1 >"$work/run.out" \
    2>"$work/run.err"; then
    say "FAIL: $what: the run failed"
    tail -5 "$work/run.err"
    fail=1
    return 1
  fi
  if ! diff -q "$work/ref.out" <(grep -v '^events \|^rank \|^partition: ' "$work/run.out") >/dev/null; then
    say "FAIL: $what: the printed statistics differ from one process:"
    diff "$work/ref.out" <(grep -v '^events \|^rank \|^partition: ' "$work/run.out") | head -6 || true
    fail=1
  else
    say "ok: $what: identical statistics, link utilisation included"
  fi
}
for topo in "--topology=torus --x=3 --y=3" "--topology=file --file=$work/ring.topo"; do
  read -r -a t <<<"$topo"
  "$scaling" "${t[@]}" "${common[@]}" | grep -v '^events ' >"$work/ref.out"
  for sync in Distributed NullMessage; do
    for n in ${GSN_MPI_RANKS:-1 2 4}; do
      run_like_one_process "${t[0]}, $n rank(s), $sync" "$n" "${t[@]}" "${common[@]}" \
        --sync="$sync" || true
    done
  done
done

# A tie of one instant at a switch port on a cable between ranks: an output of the switch
# frees a place at the port (its input) at the instant a micropacket from the other rank
# arrives there; the freed place counts after that instant's choice whichever runs first
# (GsnPortDevice::ApplyTakenAhead). The 4 x 4 torus on 3 ranks, seed 1, with link errors, is a
# run where the far rank's micropacket runs second (without the rule the link utilisation
# differs in the sixth digit).
tie=(--topology=torus --x=4 --y=4 --simTime=300us --size=4000 --load=0.7 --vc=4 --errorRate=1e-4
  --seed=1 --progress=0)
"$scaling" "${tie[@]}" | grep -v '^events ' >"$work/ref.out"
run_like_one_process "torus 4 x 4, seed 1, 3 ranks (a place freed as a far micropacket arrives)" \
  3 "${tie[@]}" || true

# A tie that only the order of an instant's events settles: an idle switch output is woken at
# the instant a micropacket from the other rank arrives at that port with a credit; one
# process runs the arrival first, scheduled when it was sent, before the wake-up scheduled
# since. Received ahead of its arrival (GsnRemoteChannel's ReceiveAhead), the micropacket is
# ordered as when it was sent; received at its arrival, it ran second and the credit-stall
# total came out one slot apart (the 3 x 4 mesh, seed 5, 3 ranks). With null messages the
# order also followed the wall-clock timing of the messages: run twice.
woken=(--topology=mesh --x=3 --y=4 --simTime=300us --size=4000 --load=0.7 --vc=4 --seed=5
  --progress=0)
"$scaling" "${woken[@]}" | grep -v '^events ' >"$work/ref.out"
for sync in Distributed NullMessage NullMessage; do
  run_like_one_process "mesh 3 x 4, seed 5, 3 ranks, $sync (an output woken as a far micropacket arrives)" \
    3 "${woken[@]}" --sync="$sync" || true
done

# Held choices and micropackets held to the end of their instant are calls after the event
# under way on ranks as in one process (GsnTimingWheelScheduler makes them when the engine
# peeks): with granted time windows the ranks' events, but for the one that receives each
# micropacket from another rank ahead of its arrival, add up to one process's, give or take 1%
# (as events of their own they were a third more on a fat tree).
events_of() { sed -n 's/^events \([0-9]*\),.*/\1/p'; }
one=$("$scaling" --topology=torus --x=3 --y=3 "${common[@]}" | events_of)
if timeout 300 "${mpirun[@]}" -np 2 "$scaling" --topology=torus --x=3 --y=3 "${common[@]}" \
  --mpi=1 --sync=Distributed >"$work/run.out" 2>"$work/run.err"; then
  ranks=$(sed -n 's/^rank [0-9]* of 2: events \([0-9]*\), received ahead \([0-9]*\),.*/\1 \2/p' \
    "$work/run.out" | awk '{ s += $1 - $2 } END { print s }')
  if [[ -n "$one" && -n "$ranks" ]] && (( ranks * 100 <= one * 101 && ranks * 100 >= one * 99 )); then
    say "ok: torus 3 x 3, 2 ranks: $ranks events on the ranks, $one in one process"
  else
    say "FAIL: torus 3 x 3, 2 ranks: '$ranks' events on the ranks, '$one' in one process"
    fail=1
  fi
else
  say "FAIL: torus 3 x 3, 2 ranks, events: the run failed"
  tail -5 "$work/run.err"
  fail=1
fi

# The ring file split by each partition method on 2 ranks (AUTO picks the graph partitioner
# for a file when METIS is built, blocks otherwise): the same statistics, and rank 0 prints the
# partition with its cut (two ring cables for two arcs of two switches) and the ports each rank
# built: its own elements' only (two switches of 4 ports and their 4 endpoints, 12 of 24).
methods="blocks"
if "$scaling" --topology=file --file="$work/ring.topo" --partition=graph --simTime=10us \
  --progress=0 >/dev/null 2>&1; then
  methods="blocks graph"
else
  say "graph partition not built (METIS, libmetis-dev): only --partition=blocks"
fi
"$scaling" --topology=file --file="$work/ring.topo" "${common[@]}" | grep -v '^events ' >"$work/ref.out"
for method in $methods; do
  run_like_one_process "ring, --partition=$method, 2 ranks" 2 --topology=file \
    --file="$work/ring.topo" "${common[@]}" --partition="$method" || continue
  line=$(grep '^partition: ' "$work/run.out" || true)
  if [[ "$line" != "partition: $method ($method), 2 of 12 cables cut, elements per rank: 6 6, ports built per rank: 12 12 (of 24)" ]]; then
    say "FAIL: ring, --partition=$method, 2 ranks: partition line '$line'"
    fail=1
  else
    say "ok: ring, --partition=$method, 2 ranks: $line"
  fi
done

# The Python twin of gsn-fabric-scaling (src/gsn/examples/gsn-fabric-scaling.py, through the
# bindings' GsnMpiHelper) on 2 ranks with each algorithm: the statistics of one process of it
# and of the C++ program, and the C++ program's partition line on 2 ranks.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=$(sed -n 's/^GSN_PYTHON_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
twin="$top/src/gsn/examples/gsn-fabric-scaling.py"
if [[ -z "$python" || ! -d "$build/bindings/python/ns" ]]; then
  say "no Python bindings in this build: the Python twin under mpirun not checked"
else
  export PYTHONPATH="$build/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
  torus=(--topology=torus --x=3 --y=3 "${common[@]}")
  "$scaling" "${torus[@]}" | grep -v '^events ' >"$work/ref.out"
  "$python" "$twin" "${torus[@]}" | grep -v '^events ' >"$work/py1.out"
  if ! diff -q "$work/ref.out" "$work/py1.out" >/dev/null; then
    say "FAIL: Python twin, one process: the statistics differ from the C++ program's:"
    diff "$work/ref.out" "$work/py1.out" | head -6 || true
    fail=1
  fi
  timeout 300 "${mpirun[@]}" -np 2 "$scaling" "${torus[@]}" --mpi=1 >"$work/cpp2.out" 2>/dev/null || true
  cpp_partition=$(grep '^partition: ' "$work/cpp2.out" || true)
  for sync in Distributed NullMessage; do
    what="Python twin, torus, 2 ranks, $sync"
    if ! timeout 300 "${mpirun[@]}" -x PYTHONPATH -np 2 "$python" "$twin" "${torus[@]}" --mpi=1 \
      --sync="$sync" >"$work/py2.out" 2>"$work/py2.err"; then
      say "FAIL: $what: the run failed"
      tail -5 "$work/py2.err"
      fail=1
      continue
    fi
    filtered=$(grep -v '^events \|^rank \|^partition: ' "$work/py2.out")
    partition_line=$(grep '^partition: ' "$work/py2.out" || true)
    ranks_lines=$(grep -c '^rank [01] of 2: events ' "$work/py2.out" || true)
    if [[ "$filtered" != "$(cat "$work/py1.out")" ]]; then
      say "FAIL: $what: the statistics differ from one process of the twin:"
      diff "$work/py1.out" <(printf '%s\n' "$filtered") | head -6 || true
      fail=1
    elif [[ -z "$cpp_partition" || "$partition_line" != "$cpp_partition" ]]; then
      say "FAIL: $what: partition line '$partition_line', the C++ program's '$cpp_partition'"
      fail=1
    elif [[ $ranks_lines -ne 2 ]]; then
      say "FAIL: $what: $ranks_lines lines of per-rank figures, not 2"
      fail=1
    else
      say "ok: $what: the statistics of one process of it and of the C++ program; $partition_line"
    fi
  done
  # GsnMpiHelper.Enable refuses with ValueError, not a crash later: after the simulator was in
  # use (here a node), twice, and after Disable(); the process still ends MPI and exits 0.
  cat >"$work/enable.py" <<'PY'
import sys
from ns import ns

mpi = ns.gsn.GsnMpiHelper
nodes = ns.network.NodeContainer(1)
for call in (lambda: mpi.Enable(sys.argv, "Distributed"), lambda: mpi.Enable("Distributed"),
             mpi.Disable, lambda: mpi.Enable("NullMessage")):
    try:
        call()
    except ValueError as e:
        print("refused:", e)
PY
  got=$(timeout 120 "${mpirun[@]}" -x PYTHONPATH -np 1 "$python" "$work/enable.py" 2>&1) && rc=0 || rc=$?
  if [[ $rc -ne 0 || $(grep -c '^refused: ' <<<"$got") -ne 3 ||
    "$got" != *"in use before MPI was enabled"*"already enabled"*"cannot start again"* ]]; then
    say "FAIL: GsnMpiHelper.Enable misuse from Python (exit status $rc):"
    printf '%s\n' "$got" | tail -5
    fail=1
  else
    say "ok: GsnMpiHelper.Enable from Python refused after a node, twice, and after Disable()"
  fi
fi

# The synchronisation profile (tools/mpi-sync-profile.cc, LD_PRELOAD): every rank prints its
# line at MPI_Finalize; with granted time windows both ranks count the same nonzero number of
# windows (MPI_Allgather is collective) and no null message, and every message one rank sent
# the other received (the run ends with none in flight); with null messages both ranks send
# null messages and no window. The statistics stay those of one process.
profile="$build/lib/libgsn-mpi-sync-profile.so"
# field NAME LINE: the number after the first NAME of a profile line ("null": the sent ones)
field() { grep -oE "[ (]$1 [0-9]+" <<<"$2" | head -1 | grep -oE '[0-9]+$' || echo -1; }
if [[ ! -f "$profile" ]]; then
  say "FAIL: no $profile (built with MPI)"
  fail=1
else
  "$scaling" --topology=torus --x=3 --y=3 "${common[@]}" | grep -v '^events ' >"$work/ref.out"
  for sync in Distributed NullMessage; do
    what="sync profile, torus, 2 ranks, $sync"
    if ! timeout 300 "${mpirun[@]}" -x LD_PRELOAD="$profile" -np 2 "$scaling" --topology=torus \
      --x=3 --y=3 "${common[@]}" --mpi=1 --sync="$sync" >"$work/run.out" 2>"$work/run.err"; then
      say "FAIL: $what: the run failed"
      tail -5 "$work/run.err"
      fail=1
      continue
    fi
    line0=$(grep '^mpi-sync-profile rank 0 of 2: ' "$work/run.err" || true)
    line1=$(grep '^mpi-sync-profile rank 1 of 2: ' "$work/run.err" || true)
    if [[ -z "$line0" || -z "$line1" ]]; then
      say "FAIL: $what: not one profile line per rank:"
      grep mpi-sync-profile "$work/run.err" || true
      fail=1
      continue
    fi
    w0=$(field windows "$line0") w1=$(field windows "$line1")
    n0=$(field null "$line0") n1=$(field null "$line1")
    s0=$(field sent "$line0") s1=$(field sent "$line1")
    r0=$(field received "$line0") r1=$(field received "$line1")
    problem=""
    if [[ $sync == Distributed ]]; then
      f0=$(field flight "$line0")
      [[ $w0 -gt 0 && $w0 -eq $w1 && $f0 -lt $w0 ]] || problem="windows $w0 and $w1 ($f0 repeated)"
      [[ $n0 -eq 0 && $n1 -eq 0 ]] || problem="$problem; null messages $n0 and $n1"
      [[ $s0 -eq $r1 && $s1 -eq $r0 ]] || problem="$problem; sent $s0 and $s1, received $r1 and $r0"
    else
      [[ $n0 -gt 0 && $n1 -gt 0 ]] || problem="null messages $n0 and $n1"
      [[ $w0 -eq 0 && $w1 -eq 0 ]] || problem="$problem; windows $w0 and $w1"
    fi
    if [[ -n "$problem" ]]; then
      say "FAIL: $what: $problem"
      printf '%s\n%s\n' "$line0" "$line1"
      fail=1
    elif ! diff -q "$work/ref.out" <(grep -v '^events \|^rank \|^partition: ' "$work/run.out") >/dev/null; then
      say "FAIL: $what: the statistics differ from one process"
      fail=1
    else
      say "ok: $what: windows $w0, messages sent $s0 and $s1 (null $n0 and $n1)"
    fi
  done
fi

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
if [[ "$methods" == *graph* ]]; then
  # (k = 2: five switches, so six ranks are one too many for the graph partitioner.)
  refused "more ranks than switches for the graph partitioner" 6 "use at most 5 ranks" \
    --k=2 --simTime=20us --warmup=0s --partition=graph
fi
exit $fail
