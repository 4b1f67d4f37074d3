#!/usr/bin/env bash
# Compares two interflow binaries on the dynamic benchmarks (bench/dynamic-workloads.sh): wall time
# and peak memory from `/usr/bin/time -v`, median of REPEAT runs each. Runs alternate between the
# binaries (old, new, old, new, ...) so that a busy machine slows both alike. Run by hand, not in CI.
# Usage: bench/compare-dynamic.sh OLD_BINARY NEW_BINARY [REPEAT] [LABEL_FILTER]
set -euo pipefail
old=${1:?usage: compare-dynamic.sh OLD NEW [REPEAT] [FILTER]}
new=${2:?usage: compare-dynamic.sh OLD NEW [REPEAT] [FILTER]}
repeat=${3:-3}
filter=${4:-}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/dynamic-workloads.sh"

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| workload | old wall s | new wall s | new/old | old peak MiB | new peak MiB | same makespan |"
echo "|---|---|---|---|---|---|---|"
for entry in "${runs[@]}"; do
  label=${entry%%|*}
  args=${entry#*|}
  [ -n "$filter" ] && [[ "$label" != *"$filter"* ]] && continue
  for i in $(seq 1 "$repeat"); do
    for which in old new; do
      bin=$old
      [ "$which" = new ] && bin=$new
      # shellcheck disable=SC2086
      /usr/bin/time -v -o "$tmp/$which.time.$i" "$bin" dynamic $args --json --no-progress > "$tmp/$which.run.$i.json"
    done
  done
  "$python" - "$tmp" "$repeat" "$label" "$(dirname "$0")" <<'PY'
import json, statistics, sys
tmp, repeat, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, sys.argv[4])
from time_v import read
med = {}
for which in ("old", "new"):
    walls, rss = zip(*(read(f"{tmp}/{which}.time.{i}") for i in range(1, repeat + 1)))
    med[which] = (statistics.median(walls), statistics.median(rss))
a = json.load(open(f"{tmp}/old.run.1.json"))["makespan_s"]
b = json.load(open(f"{tmp}/new.run.1.json"))["makespan_s"]
same = "yes" if a == b else f"{abs(a - b) / max(abs(a), 1e-300):.1e} rel."
print(f"| {label} | {med['old'][0]:.2f} | {med['new'][0]:.2f} | {med['new'][0] / med['old'][0]:.3f} | "
      f"{med['old'][1]:.0f} | {med['new'][1]:.0f} | {same} |")
PY
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
