#!/usr/bin/env bash
# Hybrid against full packet runs at 4,096 endpoints (bench/RESULTS.md "Hybrid runs"): a 16-ary
# 3-tree, uniform traffic of 100 kB flows at 30 % load (Poisson), FLOWS flows per endpoint, on the
# flow, hybrid (the 4 hottest switches zoomed) and packet transports (vct switches, 4 VCs of 64 flits,
# 1 KiB MTU), REPS times each, alternating; prints each run's wall time (s), peak RSS (MiB) and mean
# flow completion time (s), then the medians.
# Usage: bench/hybrid-speed.sh [INTERFLOW] [FLOWS] [REPS]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
flows=${2:-10}
reps=${3:-3}
sw="--switch vct:vcs=4,buffer-flits=64 --mtu-bytes 1024"
declare -A mode=([flow]="" [hybrid]="--transport hybrid --zoom hottest:k=4 $sw" [packet]="--transport packet $sw")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for rep in $(seq "$reps"); do
  for m in flow hybrid packet; do
    # shellcheck disable=SC2086
    /usr/bin/time -v "$bin" dynamic -t fattree:k=16,n=3 -p "uniform:flows_per_endpoint=$flows" --bytes 100000 \
      --load 0.3 ${mode[$m]} --json --no-progress > "$tmp/run.json" 2> "$tmp/time.txt"
    python3 - "$m" "$tmp/run.json" "$tmp/time.txt" >> "$tmp/all" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[2]))
t = open(sys.argv[3]).read()
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t).group(1).split(":")
secs = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
print(sys.argv[1], secs, rss, j["flow_completion_s"]["mean"])
PY
    tail -1 "$tmp/all"
  done
done
python3 - "$tmp/all" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
med = {m: (st.median(float(r[1]) for r in rows if r[0] == m), st.median(float(r[2]) for r in rows if r[0] == m),
           st.median(float(r[3]) for r in rows if r[0] == m)) for m in dict.fromkeys(r[0] for r in rows)}
print("| transport | wall s (median) | peak RSS MiB | mean completion µs |")
print("|---|---|---|---|")
for m, (w, r, c) in med.items():
    print(f"| {m} | {w:.2f} | {r:.0f} | {c * 1e6:.2f} |")
if "packet" in med and "hybrid" in med:
    print(f"\nhybrid / packet speed-up: {med['packet'][0] / med['hybrid'][0]:.1f}x")
PY
