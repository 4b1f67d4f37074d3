#!/usr/bin/env bash
# Mubarak et al. 2019, Fig. 4 (interference) and Figs. 7-8 (QoS mechanism I) revisited on the hybrid
# transport: a latency-bound foreground (nekbone-like CG: 8-byte allreduces and small halos, 27 tasks,
# 3 iterations; or lammps-like MD: ghost exchanges and small allreduces, 32 tasks, 3 timesteps) in
# class 0 next to a uniform-random background (40 tasks, 64 KiB messages to random tasks at 5-36.5 %
# of the link rate for 0.4 ms, longer than the foreground's run) in class 1, both placed at random on
# an 80-node megafly (4 leaves and 4 spines per group, 5 groups, minimal routing), without and with
# the classes (the foreground first and capped at 70 % of each link, the background second).
#
# Six modes: flow (max-min fair flows), hybrid (flows, with the routers on the foreground's routes at
# packet level: --zoom class-paths:class=0), packet (every router at packet level, the reference), each
# without and with the classes (flow level: --policy qos --class-cap 0.7,1 --class-priority 0,1;
# packet level: ib switches, 2 SLs x 3 VLs, crossbar speedup 2, 64-byte credits, 2,048-byte MTU,
# --scheduler tclass with the same caps and priorities and the paper's 5 ms window).
#
# Prints, per mode, application and background rate, the foreground's slowdown (its run time over
# its run time alone, same transport and seed), the mean over SEEDS placements, and the background's
# mean message latency; then the wall time of each mode. (manual/hybrid.md; bench/RESULTS.md
# "Hybrid runs".) Two minutes on two cores with 3 seeds.
# SCALE=paper runs nekbone alone on the paper's 8,448-node megafly (214.75 Gbit/s links) with 2,197
# background tasks of 1 MiB messages, flow and hybrid only (the packet transport refuses 71 million
# endpoint pairs): about 5 minutes per seed and rate with the hybrid transport.
# Usage: [SCALE=paper] [HYBRID_ARGS="--zoom-held-exits"] [FLUID_ARGS="--nic-fifo"] examples/qos-hybrid-interference.sh [INTERFLOW] [SEEDS]
# (HYBRID_ARGS: further options of the hybrid runs; FLUID_ARGS: of the flow and hybrid runs)
set -euo pipefail
bin=${1:-build/release/bin/interflow}
seeds=${2:-3}
net="-t megafly:leaves=4,spines=4,p=4,h=4,g=5 -r mfmin"
bg="uniform_bg:tasks=40,placement=random,class=1,bytes=65536"
declare -A app=(
  [nekbone]="nekbone:tasks=27,iters=3,placement=random"
  [lammps]="lammps:tasks=32,iters=3,placement=random"
)
apps_run="nekbone lammps"
case "${SCALE:-}" in "" | paper) ;; *) echo "SCALE=${SCALE}: unknown scale (leave it unset, or paper)" >&2; exit 2 ;; esac
if [ "${SCALE:-}" = paper ]; then
  net="-t megafly:leaves=16,spines=16,p=16,h=16,g=33 -r mfmin --endpoint-gbps 214.75 --switch-gbps 214.75"
  bg="uniform_bg:tasks=2197,placement=random,class=1,bytes=1048576"
  app[nekbone]="nekbone:tasks=2197,iters=3,placement=random"
  apps_run="nekbone"
fi
sw="--switch ib:vls=6,speedup=2 --credit-bytes 64 --mtu-bytes 2048"
qos_flow="--policy qos --class-cap 0.7,1 --class-priority 0,1"
qos_packet="--scheduler tclass:caps=0.7;1,priorities=0;1,window-ns=5000000"
fl="${FLUID_ARGS:-}"
declare -A mode=(
  [flow]="$fl"
  [flow-qos]="$qos_flow $fl"
  [hybrid]="--transport hybrid --zoom class-paths:class=0 $sw $fl ${HYBRID_ARGS:-}"
  [hybrid-qos]="--transport hybrid --zoom class-paths:class=0 $sw $qos_flow $qos_packet $fl ${HYBRID_ARGS:-}"
  [packet]="--transport packet $sw"
  [packet-qos]="--transport packet $sw $qos_packet"
)
order="flow hybrid packet flow-qos hybrid-qos packet-qos"
[ "${SCALE:-}" = paper ] && order="flow hybrid flow-qos hybrid-qos"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for a in $apps_run; do
  for m in $order; do
    for rate in 0 0.05 0.1 0.2 0.365; do
      # alone, a mode with classes runs as the mode without: one class, nothing to cap or order
      case "$m:$rate" in *-qos:0) continue ;; esac
      for seed in $(seq "$seeds"); do
        apps=(-a "${app[$a]}")
        [ "$rate" = 0 ] || apps+=(-a "$bg,rate=$rate,duration=0.0004")
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        "$bin" dynamic $net "${apps[@]}" ${mode[$m]} --seed "$seed" --json --no-progress > "$tmp/run.json"
        end=$(date +%s.%N)
        python3 -c "
import json; a = json.load(open('$tmp/run.json'))['applications']
print('$a', '$m', $rate, $seed, a[0]['runtime_s'], a[1]['mean_message_latency_s'] if len(a) > 1 else 0, $end - $start)" >> "$tmp/all"
      done
    done
  done
done
python3 - "$tmp/all" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
rates = sorted({float(r[2]) for r in rows if float(r[2]) > 0})
print("| app | mode | alone (µs) | " + " | ".join(f"slowdown at {x:g}" for x in rates) + " | " +
      " | ".join(f"bg latency at {x:g} (µs)" for x in rates) + " |")
print("|---|---|---|" + "---|" * (2 * len(rates)))
for a in dict.fromkeys(r[0] for r in rows):
    alone = {(r[1], r[3]): float(r[4]) for r in rows if r[0] == a and float(r[2]) == 0}
    for m in dict.fromkeys(r[1] for r in rows if r[0] == a):
        b = m.removesuffix("-qos")
        base = st.mean(v for (mm, _), v in alone.items() if mm == b) * 1e6
        slow, lat = [], []
        for x in rates:
            sel = [r for r in rows if r[0] == a and r[1] == m and float(r[2]) == x]
            slow.append(st.mean(float(r[4]) / alone[(b, r[3])] for r in sel))
            lat.append(st.mean(float(r[5]) for r in sel) * 1e6)
        print(f"| {a} | {m} | {base:.1f} | " + " | ".join(f"{s:.2f}" for s in slow) + " | " +
              " | ".join(f"{v:.1f}" for v in lat) + " |")
print()
print("| mode | runs | mean wall s per run |")
print("|---|---|---|")
for m in dict.fromkeys(r[1] for r in rows):
    w = [float(r[6]) for r in rows if r[1] == m]
    print(f"| {m} | {len(w)} | {st.mean(w):.3f} |")
PY
