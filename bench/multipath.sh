#!/usr/bin/env bash
# Generic multipath routings at about 64k endpoints (issue 4): jellyfish and fat tree, uniform random
# traffic (one flow per endpoint), routings bfs, ecmp, ksp k=8 and allpath d=2. Reports the median wall
# time of REPEAT runs, the routing and solver times of the first, and its peak RSS (/usr/bin/time -v).
# Target: each at most 60 s and 4 GiB on the 2-core machine.
# Usage: bench/multipath.sh [INTERFLOW_BINARY] [REPEAT]   (run by hand, not in CI)
set -euo pipefail
bin=${1:-build/release/bin/interflow}
repeat=${2:-3}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

topologies=("jellyfish:N=8192,k=16,r=8" "fattree:k=16,n=4")
routings=("bfs" "ecmp" "ksp:k=8" "allpath:d=2")

echo "| topology | routing | wall s (median of $repeat) | route s | solve s | peak RSS MiB | paths per flow | non-restr. / restr. Gbit/s |"
echo "|---|---|---|---|---|---|---|---|"
for t in "${topologies[@]}"; do
  for r in "${routings[@]}"; do
    for i in $(seq 1 "$repeat"); do
      /usr/bin/time -v -o "$tmp/time.$i" "$bin" static -t "$t" -r "$r" -p uniform --json --no-progress \
        > "$tmp/run.$i.json"
    done
    "$python" - "$tmp" "$repeat" "$t" "$r" "$(dirname "$0")" <<'PY'
import json, statistics, sys
tmp, repeat, t, r = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sys.path.insert(0, sys.argv[5])
from time_v import read
walls, rss = zip(*(read(f"{tmp}/time.{i}") for i in range(1, repeat + 1)))
d = json.load(open(f"{tmp}/run.1.json"))
paths = d["flows"]["path_variables"] / max(1, d["flows"]["routed"])
th = d["throughput"]
print(f"| `{t}` | `{r}` | {statistics.median(walls):.2f} | {d['time_s']['route']:.2f} | "
      f"{d['time_s']['solve']:.2f} | {statistics.median(rss):.0f} | {paths:.1f} | "
      f"{th['aggregate_nonrestricted_gbps']:.0f} / {th['aggregate_restricted_gbps']:.0f} |")
PY
  done
done
