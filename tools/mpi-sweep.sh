#!/bin/bash
# The sweep of gsn-distributed.rst ("Exact across ranks"): gsn-fabric-scaling on four
# topologies (4 x 4 torus, 3 x 4 mesh, k = 4 fat tree, 2-ary 3-tree), 4000-byte Messages on
# random VCs at load 0.7 for 300 us, seeds 1 to 5, micropacket error rates 0 and 1e-4, run on
# 2 and 3 ranks with each synchronisation algorithm; every printed line (but the event, rank
# and partition lines) is compared with the same run in one process. Prints each run that
# differs and the count of identical ones; exit status 1 if any differs.
#
#   tools/mpi-sweep.sh [BUILD_DIR]        (default: build; about 4 minutes on 2 cores)
set -u
build=${1:-build}
scaling=$build/examples/gsn-fabric-scaling
if ! command -v mpirun >/dev/null || [[ ! -x $scaling ]]; then
  echo "needs mpirun and $scaling (a build with GSN_ENABLE_MPI)" >&2
  exit 2
fi
mpirun=(mpirun --oversubscribe)
[[ $(id -u) -eq 0 ]] && mpirun+=(--allow-run-as-root)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
same=0
total=0
for topo in "--topology=torus --x=4 --y=4" "--topology=mesh --x=3 --y=4" \
  "--topology=fattree --k=4" "--topology=karyntree --k=2 --n=3"; do
  read -r -a t <<<"$topo"
  for seed in 1 2 3 4 5; do
    for err in 0 1e-4; do
      args=("${t[@]}" --simTime=300us --size=4000 --load=0.7 --vc=4 --errorRate="$err"
        --seed="$seed" --progress=0)
      "$scaling" "${args[@]}" | grep -v '^events ' >"$work/ref.out"
      for sync in Distributed NullMessage; do
        for n in 2 3; do
          total=$((total + 1))
          timeout 300 "${mpirun[@]}" -np "$n" "$scaling" "${args[@]}" --mpi=1 --sync="$sync" \
            2>/dev/null | grep -v '^events \|^rank \|^partition: ' >"$work/run.out"
          if diff -q "$work/ref.out" "$work/run.out" >/dev/null; then
            same=$((same + 1))
          else
            echo "differs: $topo, seed $seed, error rate $err, $sync, $n ranks"
            diff "$work/ref.out" "$work/run.out" | head -4
          fi
        done
      done
    done
  done
done
echo "identical to one process: $same of $total runs"
[[ $same -eq $total ]]
