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

source "$(dirname "$0")/dynamic-workloads.sh"

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
