#!/usr/bin/env bash
# Application run times on different networks after INRFlow's Fig. 8 (Navaridas et al., JPDC 2019,
# §4.2), dynamic engine: 3-D and 6-D tori, fat tree, 1:2 and 1:4 thin trees, dragonfly (Valiant) and
# jellyfish of about 4096 endpoints (SCALE=16k: about 16k), all links 10 Gbps, running the stencil,
# n-body, unstructured (graph), MapReduce and dcntraffic pseudo-applications one at a time on
# consecutive endpoints. Prints each run time normalised to the fastest network for that workload
# (as the figure does: "how many times slower execution could be if an inadequate network is
# chosen"). MapReduce's 16 reducers are drawn at random (REDUCERS_AT=even spaces them evenly, which on
# the 16x16x16 torus puts 15 of them on one ring). Writes OUT_DIR/<network>__<workload>/ per run and
# OUT_DIR/fig8.csv.
# Usage: examples/fig8-dynamic.sh [INTERFLOW_BINARY] [OUT_DIR] [SEED]
#   env SCALE=4k|16k|small, WORKLOADS="stencil n-body unstructured mapreduce dcntraffic" (a subset to
#   run), NETWORKS="torus 6D,fat tree" (a subset of the network labels, comma-separated)
set -euo pipefail
bin=${1:-build/release/bin/interflow}
out=${2:-results/fig8}
seed=${3:-1}
scale=${SCALE:-4k}
mkdir -p "$out"

case "$scale" in
  small)  # 512 endpoints, for a quick look
    tasks=512; nbody=128
    networks=("torus 3D|torus:dims=8x8x8|" "torus 6D|torus:dims=4x4x4x2x2x2|" "fat tree|fattree:k=8,n=3|"
              "thin tree 1:2|thintree:k=8,kp=4,n=3|" "thin tree 1:4|thintree:k=8,kp=2,n=3|"
              "dragonfly|dragonfly:a=8,p=4,h=4,g=17|dfvaliant" "jellyfish|jellyfish:N=64,k=16,r=8|") ;;
  4k)
    tasks=4096; nbody=512
    networks=("torus 3D|torus:dims=16x16x16|" "torus 6D|torus:dims=4x4x4x4x4x4|" "fat tree|fattree:k=16,n=3|"
              "thin tree 1:2|thintree:k=16,kp=8,n=3|" "thin tree 1:4|thintree:k=16,kp=4,n=3|"
              "dragonfly|dragonfly:a=16,p=8,h=8,g=33|dfvaliant" "jellyfish|jellyfish:N=512,k=16,r=8|") ;;
  16k)
    tasks=16384; nbody=1024
    networks=("torus 3D|torus:dims=32x32x16|" "torus 6D|torus:dims=8x8x4x4x4x4|" "fat tree|fattree:k=128,n=2|"
              "thin tree 1:2|thintree:k=128,kp=64,n=2|" "thin tree 1:4|thintree:k=128,kp=32,n=2|"
              "dragonfly|dragonfly:a=16,p=8,h=8,g=129|dfvaliant" "jellyfish|jellyfish:N=2048,k=16,r=8|") ;;
  *) echo "SCALE must be small, 4k or 16k" >&2; exit 2 ;;
esac

workloads=("stencil|stencil3d:tasks=$tasks,bytes=1e6,iters=5"
           "n-body|nbody:tasks=$nbody,bytes=1e5"
           "unstructured|graph:tasks=$tasks,degree=4,bytes=1e6,iters=3"
           "mapreduce|mapreduce:tasks=$tasks,input=1e6,shuffle=1e5,output=1e5,reducers=16,reducers_at=${REDUCERS_AT:-random}"
           "dcntraffic|dcntraffic:tasks=$tasks,flows=5")
selected=" ${WORKLOADS:-stencil n-body unstructured mapreduce dcntraffic} "
selected_networks=",${NETWORKS:-},"

echo "network,workload,endpoints,runtime_s,messages,wall_s" > "$out/fig8.csv"
for entry in "${networks[@]}"; do
  IFS='|' read -r label spec routing <<< "$entry"
  [[ -z "${NETWORKS:-}" || "$selected_networks" == *",$label,"* ]] || continue
  for w in "${workloads[@]}"; do
    IFS='|' read -r wlabel app <<< "$w"
    [[ "$selected" == *" $wlabel "* ]] || continue
    dir="$out/$(echo "$label" | tr ' :' '__')__$wlabel"
    args=(dynamic --topology "$spec" --app "$app" --seed "$seed" --endpoint-gbps 10 --switch-gbps 10
          --out "$dir" --quiet --no-progress)
    [ -n "$routing" ] && args+=(--routing "$routing")
    start=$(date +%s.%N)
    "$bin" "${args[@]}"
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    /usr/bin/python3 - "$dir/summary.json" "$label" "$wlabel" "$wall" >> "$out/fig8.csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = d["applications"][0]
print(f"{sys.argv[2]},{sys.argv[3]},{d['network']['endpoints']},{a['runtime_s']:.9g},{a['messages']},{float(sys.argv[4]):.1f}")
PY
  done
done
/usr/bin/python3 - "$out/fig8.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
workloads = list(dict.fromkeys(r["workload"] for r in rows))
networks = list(dict.fromkeys(r["network"] for r in rows))
t = {(r["network"], r["workload"]): float(r["runtime_s"]) for r in rows}
best = {w: min(t[(n, w)] for n in networks) for w in workloads}
print("run time / fastest network's (1.00 = fastest)")
print(f"{'network':<14}" + "".join(f"{w:>14}" for w in workloads))
for n in networks:
    print(f"{n:<14}" + "".join(f"{t[(n, w)] / best[w]:>14.2f}" for w in workloads))
print("fastest run time (ms): " + ", ".join(f"{w} {best[w] * 1e3:.3f}" for w in workloads))
print(f"table: {sys.argv[1]}")
PY
