#!/usr/bin/env bash
# Growth benchmark of the static engine (issue 2): 6-D torus and 3-D torus with DOR, and k-ary
# n-trees with d-mod-k, from about 1k to about 1M endpoints, uniform random traffic (one flow per
# endpoint). Each configuration runs REPEAT times; the table gives the median wall time (from
# /usr/bin/time -v), the median peak RSS, and the engine's own phase times of the median run.
# With REACH = 10m, four networks of about ten million endpoints follow (a 6-D and a 3-D torus, two
# fat trees): minutes each and up to 19 GiB (each run checks its memory estimate first).
# Usage: bench/scale.sh [INTERFLOW_BINARY] [REPEAT] [REACH: 1m or 10m]   (run by hand, not in CI)
set -euo pipefail
bin=${1:-build/release/bin/interflow}
repeat=${2:-3}
reach=${3:-1m}
case "$reach" in 1m | 10m) ;; *) echo "REACH must be 1m or 10m, not '$reach'" >&2; exit 2 ;; esac
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

configs=(
  "6-D torus|torus:dims=4x4x4x4x2x2"   "6-D torus|torus:dims=4x4x4x4x4x4"   "6-D torus|torus:dims=8x4x4x4x4x4"
  "6-D torus|torus:dims=8x8x8x8x4x4"   "6-D torus|torus:dims=8x8x8x8x8x8"   "6-D torus|torus:dims=16x16x8x8x8x8"
  "3-D torus|torus:dims=16x8x8"        "3-D torus|torus:dims=16x16x16"      "3-D torus|torus:dims=32x32x16"
  "3-D torus|torus:dims=64x32x32"      "3-D torus|torus:dims=64x64x64"      "3-D torus|torus:dims=128x128x64"
  "fat tree|fattree:k=32,n=2"          "fat tree|fattree:k=16,n=3"          "fat tree|fattree:k=32,n=3"
  "fat tree|fattree:k=16,n=4"          "fat tree|fattree:k=16,n=5"          "fat tree|fattree:k=32,n=4"
)
if [ "$reach" = 10m ]; then
  configs+=("6-D torus|torus:dims=16x16x16x16x16x10" "3-D torus|torus:dims=256x256x160"
            "fat tree|fattree:k=216,n=3" "fat tree|fattree:k=56,n=4")
fi

echo "| family | topology | endpoints | wall s (median of $repeat) | peak RSS MiB | build s | route s | solve s | non-restricted (norm.) | restricted (norm.) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for entry in "${configs[@]}"; do
  family=${entry%%|*}
  topo=${entry#*|}
  for i in $(seq 1 "$repeat"); do
    /usr/bin/time -v -o "$tmp/time.$i" "$bin" static --topology "$topo" --pattern uniform --seed 1 \
      --json --no-progress > "$tmp/summary.$i.json"
  done
  "$python" - "$tmp" "$repeat" "$family" "$topo" "$(dirname "$0")" <<'PY'
import json, statistics, sys
tmp, repeat, family, topo = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sys.path.insert(0, sys.argv[5])
from time_v import read
runs = []
for i in range(1, repeat + 1):
    seconds, rss_mib = read(f"{tmp}/time.{i}")
    runs.append((seconds, rss_mib, json.load(open(f"{tmp}/summary.{i}.json"))))
runs.sort(key=lambda r: r[0])
wall, _, s = runs[len(runs) // 2]
rss = statistics.median(r[1] for r in runs)
n = s["network"]["endpoints"]
t = s["time_s"]
th = s["throughput"]
print(f"| {family} | `{topo}` | {n} | {wall:.2f} | {rss:.0f} | {t['build']:.2f} | {t['route']:.2f} | {t['solve']:.2f} "
      f"| {th['nonrestricted_normalised']:.4f} | {th['restricted_normalised']:.4f} |")
PY
done
