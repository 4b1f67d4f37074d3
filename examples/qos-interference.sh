#!/usr/bin/env bash
# Interference and QoS study after Mubarak et al. 2019 (Fig. 4 and Fig. 7), dynamic engine.
#   Fig. 4: the run time of a foreground application (lammps, nekbone, nn3d skeletons) next to a
#   uniform-random background job injecting at a growing fraction of the link rate, on a megafly and a
#   1-D dragonfly of Mubarak et al.'s Table I (8448 and 8320 nodes, 25 GiB/s links, adaptive routing);
#   slowdown = run time / run time without background.
#   Fig. 7: the same for lammps on the megafly with QoS (lammps in class 0: priority, 70 % cap; the
#   background in class 1) against no QoS; the background's metric is its longest message time.
# Foreground and background are placed at random on the nodes (Mubarak et al. use geometric clusters,
# §IV-D, which the scheduler's `geometric` allocation implements). The background injects for
# BG_FACTOR (default 6) times the foreground's run time alone, so that it covers the foreground's
# whole run.
# Writes one directory per run (a run whose summary.json exists is not repeated, so an interrupted
# study resumes), then OUT_DIR/fig4.csv and OUT_DIR/fig7.csv from all of them. Order: Fig. 4 on the
# megafly, Fig. 7, Fig. 4 on the dragonfly.
# Usage: examples/qos-interference.sh [INTERFLOW_BINARY] [OUT_DIR] [SEED]
#        (env SCALE=full|small; RATES="0.02 0.05 ..."; APPS="lammps nekbone nn3d";
#         NETWORKS="megafly dragonfly")
set -euo pipefail
bin=${1:-build/release/bin/interflow}
out=${2:-results/qos-interference}
seed=${3:-1}
scale=${SCALE:-full}
factor=${BG_FACTOR:-6}
rates=${RATES:-0.02 0.05 0.1 0.2 0.365}
apps=${APPS:-lammps nekbone nn3d}
networks_wanted=${NETWORKS:-megafly dragonfly}
mkdir -p "$out"
gbps=214.75  # 25 GiB/s

case "$scale" in
  full)
    declare -A networks=([megafly]="megafly:leaves=16,spines=16,p=16,h=16,g=33|mfugal"
                         [dragonfly]="dragonfly:a=16,p=8,h=8,g=65|dfugal")
    declare -A fg=([lammps]="lammps:tasks=2048,iters=10" [nekbone]="nekbone:tasks=2197,iters=3"
                   [nn3d]="nn3d:tasks=4096,iters=4")
    declare -A bg_tasks=([lammps]=2048 [nekbone]=2197 [nn3d]=4096) ;;
  small)
    declare -A networks=([megafly]="megafly:leaves=4,spines=4,p=8,h=4,g=17|mfugal"
                         [dragonfly]="dragonfly:a=4,p=4,h=4,g=17|dfugal")
    declare -A fg=([lammps]="lammps:tasks=64,iters=10" [nekbone]="nekbone:tasks=64,iters=10"
                   [nn3d]="nn3d:tasks=64,iters=5")
    declare -A bg_tasks=([lammps]=64 [nekbone]=64 [nn3d]=64) ;;
  *) echo "SCALE must be full or small" >&2; exit 2 ;;
esac

# run DIR NETWORK [extra arguments...]: one dynamic run, unless DIR already holds its summary.
run() {
  local dir=$1 topology routing
  IFS='|' read -r topology routing <<< "${networks[$2]}"
  shift 2
  [ -f "$dir/summary.json" ] && return 0
  "$bin" dynamic --topology "$topology" --routing "$routing" --endpoint-gbps $gbps --switch-gbps $gbps \
    --seed "$seed" --out "$dir" --quiet --no-progress "$@"
}
# runtime DIR: the foreground's run time in the run's summary.json.
runtime() {
  /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['applications'][0]['runtime_s'])" \
    "$1/summary.json"
}
# background NET APP RATE: the background job's spec, injecting for BG_FACTOR x the app's time alone.
background() {
  local duration
  duration=$(/usr/bin/python3 -c "print($(runtime "$out/${1}__${2}__0") * $factor)")
  echo "uniform_bg:tasks=${bg_tasks[$2]},placement=random,class=1,bytes=1048576,rate=$3,duration=$duration"
}

fig4() {
  local net=$1 app rate
  for app in $apps; do
    run "$out/${net}__${app}__0" "$net" --app "${fg[$app]},placement=random"
    for rate in $rates; do
      run "$out/${net}__${app}__$rate" "$net" --app "${fg[$app]},placement=random" --app "$(background "$net" "$app" "$rate")"
    done
  done
}

fig7() {
  local rate qos policy
  run "$out/megafly__lammps__0" megafly --app "${fg[lammps]},placement=random"
  for rate in $rates; do
    for qos in off on; do
      policy=(--policy np)
      [ $qos = on ] && policy=(--policy qos --class-cap 0.7,1 --class-priority 0,1)
      run "$out/qos-${qos}__lammps__$rate" megafly "${policy[@]}" --app "${fg[lammps]},placement=random" \
        --app "$(background megafly lammps "$rate")"
    done
  done
}

for net in $networks_wanted; do
  [ -n "${networks[$net]:-}" ] || { echo "unknown network '$net' (megafly or dragonfly)" >&2; exit 2; }
  fig4 "$net"
  [ "$net" = megafly ] && fig7
done

/usr/bin/python3 - "$out" <<'PY'
import csv, glob, json, os, sys
out = sys.argv[1]
def load(d):
    return json.load(open(os.path.join(d, "summary.json")))["applications"]
runs = {}
for d in glob.glob(os.path.join(out, "*__*__*")):
    if os.path.exists(os.path.join(d, "summary.json")):
        runs[tuple(os.path.basename(d).split("__"))] = load(d)
fig4 = []
for (net, app, rate), a in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1], float(kv[0][2]))):
    if net.startswith("qos-") or (net, app, "0") not in runs:
        continue
    t0 = runs[(net, app, "0")][0]["runtime_s"]
    bg = a[1] if len(a) > 1 else None
    fig4.append({"network": net, "app": app, "rate": rate, "runtime_s": a[0]["runtime_s"],
                 "slowdown": a[0]["runtime_s"] / t0,
                 "background_max_message_s": bg["max_message_latency_s"] if bg else "",
                 "background_end_s": bg["end_s"] if bg else ""})
with open(f"{out}/fig4.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(fig4[0]) if fig4 else ["network"])
    w.writeheader()
    w.writerows(fig4)
print("Fig. 4: foreground slowdown (run time / alone) against background injection rate")
rates = sorted({r["rate"] for r in fig4 if r["rate"] != "0"}, key=float)
print(f"{'network':<10} {'app':<8} {'alone ms':>9}" + "".join(f"{float(r) * 100:>8.1f}%" for r in rates))
for key in dict.fromkeys((r["network"], r["app"]) for r in fig4):
    sel = {r["rate"]: r for r in fig4 if (r["network"], r["app"]) == key}
    print(f"{key[0]:<10} {key[1]:<8} {sel['0']['runtime_s'] * 1e3:>9.3f}" +
          "".join(f"{sel[r]['slowdown']:>9.2f}" if r in sel else f"{'-':>9}" for r in rates))
fig7 = []
base = runs.get(("megafly", "lammps", "0"))
for rate in rates:
    off, on = runs.get(("qos-off", "lammps", rate)), runs.get(("qos-on", "lammps", rate))
    if base and off and on:
        t0 = base[0]["runtime_s"]
        fig7.append({"rate": rate, "slowdown_no_qos": off[0]["runtime_s"] / t0, "slowdown_qos": on[0]["runtime_s"] / t0,
                     "bg_max_message_no_qos_s": off[1]["max_message_latency_s"],
                     "bg_max_message_qos_s": on[1]["max_message_latency_s"]})
if fig7:
    with open(f"{out}/fig7.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fig7[0]))
        w.writeheader()
        w.writerows(fig7)
    print("Fig. 7: lammps on the megafly, QoS (priority, 70 % cap) against none")
    print(f"{'rate':>6} {'slowdown no QoS':>16} {'slowdown QoS':>13} {'bg max msg no QoS ms':>21} {'bg max msg QoS ms':>18}")
    for r in fig7:
        print(f"{float(r['rate']) * 100:>5.1f}% {r['slowdown_no_qos']:>16.2f} {r['slowdown_qos']:>13.2f} "
              f"{r['bg_max_message_no_qos_s'] * 1e3:>21.3f} {r['bg_max_message_qos_s'] * 1e3:>18.3f}")
print(f"tables: {out}/fig4.csv {out}/fig7.csv")
PY
