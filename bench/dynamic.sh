#!/usr/bin/env bash
# Dynamic engine scale benchmarks (issue 5): wall time, peak memory, events per second and the share of
# the simulation spent re-solving rates. Run by hand (not in CI); results go to bench/RESULTS.md.
# Usage: bench/dynamic.sh [INTERFLOW_BINARY] [REPEAT]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
repeat=${2:-3}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# label|arguments
runs=(
  "16-ary 3-tree, 1e6 x 1 MB, Poisson 10 %|-t fattree:k=16,n=3 -p uniform:flows_per_endpoint=244 -b 1e6 --arrival poisson --load 0.1"
  "16-ary 3-tree, 1e5 x 1 MB, Poisson 20 %|-t fattree:k=16,n=3 -p uniform:flows_per_endpoint=24 -b 1e6 --arrival poisson --load 0.2"
  "all-to-all 1024 (32-ary 2-tree), 1 MB|-t fattree:k=32,n=2 -p alltoall -b 1e6"
  "all-to-all 4096 (16-ary 3-tree), 1 MB|-t fattree:k=16,n=3 -p alltoall -b 1e6"
  "contended: 16k jellyfish, 32768 x 1 MB together|-t jellyfish:N=2048,k=16,r=8 -r bfs -p uniform:flows_per_endpoint=2 -b 1e6"
  "contended: stencil3d 2048 + graph 2048 tasks, 16-ary 3-tree|-t fattree:k=16,n=3 -a stencil3d:tasks=2048,iters=10,bytes=131072 -a graph:tasks=2048,placement=random,class=1,iters=10,degree=8,bytes=1e6"
)

echo "| workload | flows | wall s (median of $repeat) | peak RSS MiB | events | events/s | solve share | solved vars/batch |"
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
tmp, repeat, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, sys.argv[4])
from time_v import read
walls, rss = zip(*(read(f"{tmp}/time.{i}") for i in range(1, repeat + 1)))
d = json.load(open(f"{tmp}/run.1.json"))
s = d["simulation"]
print(f"| {label} | {d['flows']['total']} | {statistics.median(walls):.2f} | {statistics.median(rss):.0f} | "
      f"{s['events']} | {s['events_per_second']:.3g} | {s['solve_share']:.2f} | {s['solved_variables_per_batch']:.3g} |")
PY
done
