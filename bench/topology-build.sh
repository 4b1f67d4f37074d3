#!/usr/bin/env bash
# Builds every topology family at about a million endpoints and reports build time and peak memory
# (issue 3: every family that reaches 1M must build in <= 10 s and <= 2 GiB). Distances are skipped.
# Usage: bench/topology-build.sh [INTERFLOW_BINARY] [REPEAT]   (run by hand, not in CI)
set -euo pipefail
bin=${1:-build/release/bin/interflow}
repeat=${2:-3}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

specs=(
  "torus:dims=128x128x64"
  "torus:dims=16x16x8x8x8x8"
  "fattree:k=32,n=4"
  "thintree:k=32,kp=16,n=4"
  "xgft:h=4,m=32x32x32x32,w=1x32x32x32"
  "dragonfly:a=44,p=22,h=22"
  "megafly:leaves=32,spines=32,p=32,h=32"
  "slimfly:q=89"
  "jellyfish:N=65536,k=32,r=16"
  "hyperx:S=32x32x32,p=32"
  "bcube:n=32,k=3"
  "dcell:n=32,k=2"
  "ficonn:n=64,k=2"
  "gdcficonn:n=32,k=2,rule=beta"
  "bcn:alpha=16,beta=10,h=2,gamma=1"
  "hcn:n=32,h=3"
  "dpillar:n=24,k=5"
)

echo "| topology | endpoints | switches | cables | build s (median of $repeat) | wall s | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|"
for spec in "${specs[@]}"; do
  ok=1
  for i in $(seq 1 "$repeat"); do
    if ! /usr/bin/time -v -o "$tmp/time.$i" "$bin" topo "$spec" --no-distances --json > "$tmp/topo.$i.json" 2> "$tmp/err"; then
      echo "| \`$spec\` | failed: $(head -c 200 "$tmp/err") | | | | | |"
      ok=0
      break
    fi
  done
  [ "$ok" = 1 ] || continue
  "$python" - "$tmp" "$repeat" "$spec" "$(dirname "$0")" <<'PY'
import json, statistics, sys
tmp, repeat, spec = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, sys.argv[4])
from time_v import read
runs = [(json.load(open(f"{tmp}/topo.{i}.json")),) + read(f"{tmp}/time.{i}") for i in range(1, repeat + 1)]
d = runs[0][0]
build = statistics.median(r[0]["build_seconds"] for r in runs)
wall = statistics.median(r[1] for r in runs)
rss = statistics.median(r[2] for r in runs)
print(f"| `{spec}` | {d['endpoints']} | {d['switches']} | {d['cables']} | {build:.2f} | {wall:.2f} | {rss:.0f} |")
PY
done
