#!/usr/bin/env bash
# Speed of the packet engine's switch models side by side: the same network, load and buffers for
# vct, ib and opa (flit-hops per second and simulate seconds from summary.json, /usr/bin/time -v peak
# memory), median of REPEAT runs. With an OLD binary too, its vct and ib runs alternate with the new
# binary's, so that a busy machine slows both alike.
# Networks: an 8x8 torus at 0.3 flits/cycle/NIC, and the 512-endpoint 8x8 torus of Cano-Cano et
# al. 2024 §5.2 (8 endpoints per router, 10x trunks: 48-port routers, 12 MPorts for opa) at 0.5; DOR,
# 1-flit packets, 4 VCs/VLs with 8 flits each (vct: static; ib and opa: 8 reserved of a 32-flit
# shared port buffer, opa's central buffers at their default), 1-cycle links. opa runs with ib's
# one-cycle stages (RT 1, AT 1, X 1, no SB): with Table 1's 98 cycles before allocation, 32 flits of
# input buffer per port carry at most a third of a link (manual/packet.md "The opa switch").
# Usage: bench/packet-switch-speed.sh NEW_BINARY [REPEAT] [OLD_BINARY]   (results: bench/RESULTS.md)
set -euo pipefail
new=$1
repeat=${2:-3}
old=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common="-r dor --switch-latency-ns 5.12 --endpoint-latency-ns 5.12 --warmup 2000 --measure 20000 --json --no-progress"
declare -A model=(
  [vct]="vct:vcs=4,buffer-flits=8"
  [ib]="ib:vls=4,input-buffer-bytes=2048,output-buffer-bytes=2048,vl-min-bytes=512,vl-max-bytes=0"
  [opa]="opa:vls=4,input-buffer-bytes=2048,output-buffer-bytes=2048,vl-min-bytes=512,vl-max-bytes=0,sb-in-delay=0,rt-delay=1,at-delay=1,mport-xbar-delay=1,central-xbar-delay=1,sb-out-delay=0"
)
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| network | load | switch | binary | flit-hops/s (median) | runs (M flit-hops/s, in order) | simulate s | peak MiB | accepted |\n|---|---|---|---|---|---|---|---|---|\n'
run() {  # binary switch topology load -> appends "hops simulate rss accepted" to $tmp/$key
  /usr/bin/time -v "$1" packet -t "$3" --load "$4" --switch "${model[$2]}" $common > "$tmp/out.json" 2> "$tmp/time"
  local rss
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$tmp/time")
  python3 -c "import json; d=json.load(open('$tmp/out.json')); print(d['simulation']['flit_hops_per_second'], d['time_s']['simulate'], $rss, d['accepted_flits_per_cycle_per_nic'])"
}
for case in "torus:dims=8x8 0.3" "torus:dims=8x8,c=8,trunks=10 0.5"; do
  set -- $case
  for sw in vct ib opa; do
    : > "$tmp/new"; : > "$tmp/old"
    for _ in $(seq "$repeat"); do
      if [ -n "$old" ] && [ "$sw" != opa ]; then run "$old" "$sw" "$1" "$2" >> "$tmp/old"; fi
      run "$new" "$sw" "$1" "$2" >> "$tmp/new"
    done
    for which in old new; do
      [ -s "$tmp/$which" ] || continue
      python3 - "$tmp/$which" "$1" "$2" "$sw" "$which" <<'PY'
import sys, statistics as st
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
hops = [r[0] for r in rows]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {st.median(hops)/1e6:.2f} M | "
      f"{', '.join(f'{h/1e6:.2f}' for h in hops)} | {st.median(r[1] for r in rows):.2f} | "
      f"{st.median(r[2] for r in rows)/1024:.0f} | {rows[-1][3]:.3f} |")
PY
    done
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
