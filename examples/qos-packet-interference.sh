#!/usr/bin/env bash
# Mubarak et al. 2019's traffic classes (§II) at packet level against flow level: a latency-bound
# foreground (nekbone-like CG: 8-byte allreduces and small halos, 36 tasks, 3 iterations) next to a
# bandwidth-hungry background (36 tasks, 64 KiB messages to random tasks at 10-50 % of the link
# rate, 0.4 ms: longer than the foreground's run), both placed at random on a 72-node dragonfly
# (a=4, p=2, h=2, minimal routing), without and with the classes: the foreground first and capped at
# 70 % of each link, the background second (flow level: --policy qos --class-cap 0.7,1
# --class-priority 0,1; packet level: ib switches, 2 SLs x 3 VCs, 64-byte credits, 2,048-byte MTU,
# --scheduler tclass:caps=0.7;1,priorities=0;1 with t_w = 5 ms as in the paper). Prints, per mode and
# rate, the foreground's slowdown (its run time over its run time alone, same transport and seed) and the
# background's mean message latency, means over SEEDS placements. (bench/RESULTS.md "Packet engine,
# fourth part"; seconds on two cores.)
# Usage: examples/qos-packet-interference.sh [INTERFLOW] [SEEDS]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
seeds=${2:-5}
net="-t dragonfly:a=4,p=2,h=2 -r dfmin"
fg="nekbone:tasks=36,iters=3,placement=random"
declare -A mode=(
  [flow]=""
  [flow-classes]="--policy qos --class-cap 0.7,1 --class-priority 0,1"
  [packet]="--transport packet --switch ib:vls=6,speedup=2 --credit-bytes 64 --mtu-bytes 2048"
  [packet-classes]="--transport packet --switch ib:vls=6,speedup=2 --credit-bytes 64 --mtu-bytes 2048 --scheduler tclass:caps=0.7;1,priorities=0;1,window-ns=5000000"
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for m in flow flow-classes packet packet-classes; do
  for rate in 0 0.1 0.2 0.3 0.5; do
    # alone, a mode with classes runs as the mode without: one class, nothing to cap or order
    case "$m:$rate" in *-classes:0) continue ;; esac
    for seed in $(seq "$seeds"); do
      apps=(-a "$fg")
      [ "$rate" = 0 ] || apps+=(-a "uniform_bg:tasks=36,placement=random,class=1,bytes=65536,rate=$rate,duration=0.0004")
      # shellcheck disable=SC2086
      "$bin" dynamic $net "${apps[@]}" ${mode[$m]} --seed "$seed" --json --no-progress > "$tmp/run.json"
      python3 -c "
import json; a = json.load(open('$tmp/run.json'))['applications']
print('$m', $rate, $seed, a[0]['runtime_s'], a[1]['mean_message_latency_s'] if len(a) > 1 else 0)" >> "$tmp/all"
    done
  done
done
python3 - "$tmp/all" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
alone = {(r[0], r[2]): float(r[3]) for r in rows if float(r[1]) == 0}
modes = list(dict.fromkeys(r[0] for r in rows))
rates = sorted({float(r[1]) for r in rows if float(r[1]) > 0})
print("| mode | foreground alone (µs) | " + " | ".join(f"slowdown at {x:g}" for x in rates) + " | " +
      " | ".join(f"bg latency at {x:g} (µs)" for x in rates) + " |")
print("|---|---|" + "---|" * (2 * len(rates)))
for m in modes:
    b = m.removesuffix("-classes")
    base = st.mean(v for (mm, _), v in alone.items() if mm == b) * 1e6
    slow, lat = [], []
    for x in rates:
        sel = [r for r in rows if r[0] == m and float(r[1]) == x]
        slow.append(st.mean(float(r[3]) / alone[(b, r[2])] for r in sel))
        lat.append(st.mean(float(r[4]) for r in sel) * 1e6)
    print(f"| {m} | {base:.1f} | " + " | ".join(f"{s:.2f}" for s in slow) + " | " +
          " | ".join(f"{v:.1f}" for v in lat) + " |")
PY
