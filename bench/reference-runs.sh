#!/usr/bin/env bash
# Reference runs: a fixed set of small runs of every engine (static, dynamic flows, applications with
# QoS, traces, the scheduler, topology analysis) whose results are kept, so that a change that should
# not alter behaviour can be checked against the binary before it: run this with both binaries into
# two folders, then compare them with bench/compare_runs.py (manual/design.md "Checking a refactoring").
# Takes about a minute. Usage: bench/reference-runs.sh INTERFLOW_BINARY OUT_DIR
set -euo pipefail
bin=${1:?usage: reference-runs.sh INTERFLOW_BINARY OUT_DIR}
out=${2:?usage: reference-runs.sh INTERFLOW_BINARY OUT_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
fx="$here/tests/fixtures"
mkdir -p "$out"

# name|subcommand and arguments (paths relative to the repository root)
runs=(
  "static-torus-uniform|static -t torus:dims=8x8x8 -p uniform --flows-csv"
  "static-fattree-hotregion|static -t fattree:k=8,n=3 -p hotregion --flows-csv"
  "static-dragonfly-ecmp-failures|static -t dragonfly:p=2,a=4,h=2 -r ecmp -p randperm --failures 5% --flows-csv"
  "static-jellyfish-ksp|static -t jellyfish:N=64,k=8,r=5 -r ksp:k=4 -p uniform --flows-csv"
  "dynamic-poisson|dynamic -t fattree:k=8,n=3 -p uniform:flows_per_endpoint=20 -b 1e6 --arrival poisson --load 0.3 --flows-csv"
  "dynamic-phases|dynamic -t torus:dims=4x4x4 -p alltoall -b 1e5 --phase-size 512 --flows-csv"
  "dynamic-flow-list|dynamic -t graph:file=$fx/parking_lot.ifg -r bfs -f $here/bench/reference/flows-after.csv --flows-csv"
  "dynamic-apps-qos|dynamic -t fattree:k=8,n=3 -a stencil3d:tasks=64,iters=3,bytes=65536 -a uniform_bg:tasks=64,placement=random,class=1,rate=0.3,duration=2e-4 --policy qos --class-cap 0.5,1 --class-priority 0,1 --flows-csv"
  "dynamic-apps-fp|dynamic -t torus:dims=4x4x4 -a collective:op=allreduce,alg=ring,tasks=32,bytes=1e5,iters=3 -a graph:tasks=32,placement=random,class=1,iters=2 --policy fp --flows-csv"
  "dynamic-apps-ba-mapreduce|dynamic -t fattree:k=8,n=3 -a mapreduce:tasks=64,input=1e6,shuffle=1e5,output=1e5,reducers=8 -a nekbone:tasks=27,class=1,iters=2 --policy ba --class-share 0.7,0.3 --cpu-scale 2 --flows-csv"
  "dynamic-apps-inflight|dynamic -t fattree:k=4,n=3 -a collective:op=alltoall,tasks=16,bytes=1e5 --max-in-flight 2 --flows-csv"
  "trace-goal|dynamic -t fattree:k=4,n=3 -a goal:file=$fx/traces/token_ring.goal"
  "trace-goal-cpu|dynamic -t fattree:k=4,n=3 -a goal:file=$fx/traces/compute_only.goal --cpu-scale 2"
  "trace-vef|dynamic -t fattree:k=4,n=3 -a vef:file=$fx/traces/allreduce8.vef --flows-csv"
  "trace-mixed|dynamic -t fattree:k=4,n=3 -a vef:file=$fx/traces/chain.vef -a stencil3d:tasks=8,iters=2,class=1 --policy fp --flows-csv"
  "schedule-easy|schedule --swf $fx/swf/tiny.swf -p easy"
  "schedule-conservative|schedule --swf $fx/swf/conventions.swf -p conservative --missing repair"
  "schedule-synthetic|schedule --jobs 200 --nodes 64 -p easy-sjf --allocation random"
  "schedule-network|schedule --network-aware -t thintree:k=4,kp=2,n=3 --jobs 20 --nodes 64 --job-app stencil3d:iters=2 --job-app collective:op=alltoall,bytes=1e5 --allocation locality -p easy"
)

for entry in "${runs[@]}"; do
  name=${entry%%|*}
  args=${entry#*|}
  rm -rf "${out:?}/$name"
  # shellcheck disable=SC2086
  echo "  $name" >&2
  if ! (cd "$here" && "$bin" $args --out "$out/$name" --quiet --no-progress); then
    echo "reference run $name failed" >&2
    exit 1
  fi
done
(cd "$here" && "$bin" topo torus:dims=6x6x6 --json > "$out/topo-torus.json")
(cd "$here" && "$bin" topo dragonfly:p=2,a=4,h=2 --json > "$out/topo-dragonfly.json")
(cd "$here" && "$bin" sweep examples/experiments/quickstart.toml --out "$out/quickstart" --quiet &&
  "$bin" collect --no-resources "$out/quickstart" > "$out/quickstart.txt")
echo "reference runs written to $out"
