#!/usr/bin/env bash
# Speed of the packet engine, single thread: flit-hops per second and simulated cycles per second
# (summary.json simulation.*), median of REPEAT runs, with /usr/bin/time -v peak memory, for an 8x8
# torus at loads 0.3 and 0.6, and at 0.5, below saturation, the 512- and 2048-endpoint tori of
# Cano-Cano et al. 2024 §5.2: an 8x8 torus with 8 endpoints per router and 10x trunks, an 8x8x8 torus
# with 4 endpoints per router and 4x trunks. 1-flit packets, 4 VCs x 8 flits, 1-cycle links.
# Usage: bench/packet-speed.sh [INTERFLOW] [REPEAT]   (results: bench/RESULTS.md "Packet engine")
set -euo pipefail
bin=${1:-build/release/bin/interflow}
repeat=${2:-3}
common="-r dor --switch vct:vcs=4,buffer-flits=8 --switch-latency-ns 5.12 --endpoint-latency-ns 5.12 --warmup 2000 --measure 20000 --json --no-progress"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| network | load | flit-hops/s (median) | cycles/s (median) | simulate s | peak MiB | accepted | runs |\n|---|---|---|---|---|---|---|---|\n'
for case in "torus:dims=8x8 0.3" "torus:dims=8x8 0.6" "torus:dims=8x8,c=8,trunks=10 0.5" "torus:dims=8x8x8,c=4,trunks=4 0.5"; do
  set -- $case
  rows=()
  runs=$repeat
  case "$1" in *8x8x8*) runs=1 ;; esac  # minutes per run: one
  for _ in $(seq "$runs"); do
    /usr/bin/time -v "$bin" packet -t "$1" --load "$2" $common > /tmp/packet-speed.json 2> /tmp/packet-speed.time
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' /tmp/packet-speed.time)
    rows+=("$(python3 -c "import json; d=json.load(open('/tmp/packet-speed.json')); s=d['simulation']; print(s['flit_hops_per_second'], s['cycles_per_second'], d['time_s']['simulate'], $rss)")")
  done
  printf '%s\n' "${rows[@]}" | python3 -c "
import sys, statistics as st
r = [list(map(float, l.split())) for l in sys.stdin]
m = [st.median(c) for c in zip(*r)]
d = __import__('json').load(open('/tmp/packet-speed.json'))
print(f'| $1 | $2 | {m[0]/1e6:.2f} M | {m[1]/1e3:.1f} k | {m[2]:.2f} | {m[3]/1024:.0f} | {d[\"accepted_flits_per_cycle_per_nic\"]:.3f} | {len(r)} |')"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
