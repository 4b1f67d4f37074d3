#!/usr/bin/env bash
# Dynamic engine at 64k endpoints (issue 5): a 16-ary 4-tree (65,536 endpoints) and a 64x32x32 torus
# (65,536 nodes), each running a MapReduce over every endpoint (32 reducers drawn at random; env
# REDUCERS_AT=even for evenly spaced ones, which on this torus all but one share a ring) and a phased
# all-to-all (MPI pairwise exchange: n-1 steps, in step k task i exchanges with task i XOR k, placed
# at random). Reports wall time, peak memory, events per second and the application's run time. Run
# by hand (not in CI); results go to bench/RESULTS.md.
# Usage: [REDUCERS_AT=random|even] bench/dynamic-64k.sh [INTERFLOW_BINARY] [REPEAT] [A2A_TASKS]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
repeat=${2:-1}
a2a=${3:-1024}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mapreduce="mapreduce:input=1e6,shuffle=1e5,output=1e5,reducers=32,reducers_at=${REDUCERS_AT:-random}"
alltoall="collective:op=alltoall,alg=pairwise,bytes=1e5,tasks=$a2a,placement=random"
runs=(
  "16-ary 4-tree, MapReduce (65,536 tasks, 32 reducers ${REDUCERS_AT:-random})|-t fattree:k=16,n=4 -a $mapreduce"
  "16-ary 4-tree, phased all-to-all ($a2a tasks)|-t fattree:k=16,n=4 -a $alltoall"
  "64x32x32 torus, MapReduce (65,536 tasks, 32 reducers ${REDUCERS_AT:-random})|-t torus:dims=64x32x32 -a $mapreduce"
  "64x32x32 torus, phased all-to-all ($a2a tasks)|-t torus:dims=64x32x32 -a $alltoall"
)

echo "| workload | messages | wall s (median of $repeat) | peak RSS MiB | events | events/s | solve share | app run time s |"
echo "|---|---|---|---|---|---|---|---|"
for entry in "${runs[@]}"; do
  label=${entry%%|*}
  args=${entry#*|}
  for i in $(seq 1 "$repeat"); do
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$tmp/time.$i" "$bin" dynamic $args --json --no-progress > "$tmp/run.$i.json"
  done
  "$python" - "$tmp" "$repeat" "$label" "$(dirname "$0")" <<'PY'
import json, statistics, sys
tmp, repeat, label, bench = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sys.path.insert(0, bench)
import time_v
walls, rss = zip(*(time_v.read(f"{tmp}/time.{i}") for i in range(1, repeat + 1)))
d = json.load(open(f"{tmp}/run.1.json"))
s, a = d["simulation"], d["applications"][0]
print(f"| {label} | {a['messages']} | {statistics.median(walls):.1f} | {statistics.median(rss):.0f} | "
      f"{s['events']} | {s['events_per_second']:.3g} | {s['solve_share']:.2f} | {a['runtime_s']:.6g} |")
PY
done
