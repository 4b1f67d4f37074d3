#!/usr/bin/env bash
# Compares two interflow binaries on building topologies: build time (the topology's own figure) and
# wall time and peak memory of `/usr/bin/time -v`, median of REPEAT runs. Runs alternate between the
# binaries (old, new, old, new, ...) so that a busy machine slows both alike.
# Usage: bench/compare-build.sh OLD_BINARY NEW_BINARY REPEAT SPEC...   (run by hand, not in CI)
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 OLD_BINARY NEW_BINARY REPEAT SPEC..." >&2
  exit 2
fi
old=$1 new=$2 repeat=$3
shift 3
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "| topology | binary | links | build s (median of $repeat) | wall s | peak RSS MiB |"
echo "|---|---|---|---|---|---|"
for spec in "$@"; do
  for i in $(seq 1 "$repeat"); do
    for which in old new; do
      bin=$old
      [ "$which" = new ] && bin=$new
      /usr/bin/time -v -o "$tmp/$which.time.$i" "$bin" topo "$spec" --no-distances --json > "$tmp/$which.topo.$i.json"
    done
  done
  "$python" - "$tmp" "$repeat" "$spec" "$(dirname "$0")" <<'PY'
import json, statistics, sys
tmp, repeat, spec = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, sys.argv[4])
from time_v import read
for which in ("old", "new"):
    runs = [(json.load(open(f"{tmp}/{which}.topo.{i}.json")),) + read(f"{tmp}/{which}.time.{i}")
            for i in range(1, repeat + 1)]
    build = statistics.median(r[0]["build_seconds"] for r in runs)
    wall = statistics.median(r[1] for r in runs)
    rss = statistics.median(r[2] for r in runs)
    print(f"| `{spec}` | {which} | {runs[0][0]['links']} | {build:.3f} | {wall:.3f} | {rss:.0f} |")
PY
done
