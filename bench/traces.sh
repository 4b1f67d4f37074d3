#!/usr/bin/env bash
# Trace replay at scale (issue 6): a 16,384-rank stencil3d (6 neighbours, 102 iterations: 10,027,008
# messages) is written as a VEF and a GOAL trace by one run on a 16-ary 4-tree, then each trace is
# replayed on the same network. Reports wall time, peak memory, messages per second and the time
# spent reading the trace. Run by hand (not in CI; the traces take 2 GB of disk in a temporary
# directory); results go to bench/RESULTS.md.
# Usage: bench/traces.sh [INTERFLOW_BINARY] [REPEAT] [ITERS]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
repeat=${2:-1}
iters=${3:-102}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
topology="fattree:k=16,n=4"
app="stencil3d:tasks=16384,iters=$iters,bytes=1e4,compute=1e-6"

/usr/bin/time -v -o "$tmp/time.gen" "$bin" dynamic -t "$topology" -a "$app" --write-vef "$tmp/t.vef" \
  --write-goal "$tmp/t.goal" --json --no-progress > "$tmp/run.gen.json"
echo "| run | messages | wall s (median of $repeat) | peak RSS MiB | messages/s | read s | simulate s | app run time s |"
echo "|---|---|---|---|---|---|---|---|"
report() {  # label, number of runs, file prefix
  "$python" - "$tmp" "$2" "$1" "$3" "$(dirname "$0")" <<'PY'
import json, statistics, sys
tmp, runs, label, prefix, bench = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
sys.path.insert(0, bench)
import time_v
walls, rss = zip(*(time_v.read(f"{tmp}/time.{prefix}{i}") for i in range(1, runs + 1)))
d = json.load(open(f"{tmp}/run.{prefix}1.json"))
a, t = d["applications"][0], d["time_s"]
wall = statistics.median(walls)
print(f"| {label} | {a['messages']} | {wall:.1f} | {statistics.median(rss):.0f} | {a['messages'] / wall:.3g} | "
      f"{t['workload']:.1f} | {t['simulate']:.1f} | {a['runtime_s']:.6g} |")
PY
}
mv "$tmp/time.gen" "$tmp/time.gen1"
mv "$tmp/run.gen.json" "$tmp/run.gen1.json"
report "generate: $app, run + write VEF and GOAL" 1 gen
for format in vef goal; do
  for i in $(seq 1 "$repeat"); do
    /usr/bin/time -v -o "$tmp/time.$format$i" "$bin" dynamic -t "$topology" -a "$format:file=$tmp/t.$format" --json \
      --no-progress > "$tmp/run.$format$i.json"
  done
  report "replay the $format trace ($(du -h "$tmp/t.$format" | cut -f1))" "$repeat" "$format"
done
