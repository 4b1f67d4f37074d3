#!/usr/bin/env bash
# Network-aware scheduling (issue 7): the same synthetic job stream — 60 jobs of 8, 16 or 32 nodes
# arriving as a Poisson process, each running a 3-D stencil, a MapReduce or an all-to-all — scheduled
# with EASY on a 64-endpoint fat tree (4-ary 3-tree) and on a thin tree with half the upward
# bandwidth, with consecutive, random, locality and geometric allocation. Run times emerge from the dynamic engine,
# so allocation and co-running jobs change them. Prints a table; per-run results go to OUT_DIR.
# Usage: examples/scheduler-network.sh [INTERFLOW_BINARY] [OUT_DIR]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
out=${2:-results/scheduler-network}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
mkdir -p "$out"
stream=(--jobs 60 --mean-gap 2e-5 --job-sizes 8,16,32 --seed 7 -p easy --estimate-factor 1.5 --bsld-tau 1e-5
        --job-app stencil3d:iters=3,bytes=1e5 --job-app mapreduce:input=1e5,shuffle=1e5,output=1e4
        --job-app collective:op=alltoall,bytes=1e4)
echo "| network | allocation | makespan us | mean wait us | mean response us | mean bounded slowdown (tau 10 us) | utilisation | mean network slowdown |"
echo "|---|---|---|---|---|---|---|---|"
for topology in fattree:k=4,n=3 thintree:k=4,kp=2,n=3; do
  for allocation in consecutive random locality geometric; do
    dir="$out/${topology%%:*}-$allocation"
    "$bin" schedule --network-aware -t "$topology" --allocation "$allocation" "${stream[@]}" --out "$dir" -q
    "$python" - "$dir/summary.json" "$topology" "$allocation" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | {sys.argv[3]} | {d['makespan_s'] * 1e6:.1f} | {d['mean_wait_s'] * 1e6:.1f} | "
      f"{d['mean_response_s'] * 1e6:.1f} | {d['mean_bounded_slowdown']:.2f} | {d['utilisation']:.3f} | "
      f"{d['mean_network_slowdown']:.3f} |")
PY
  done
done
