#!/usr/bin/env bash
# Scalability study after INRFlow's Fig. 7 (Navaridas et al., JPDC 2019, §4.1): aggregate
# non-restricted and restricted throughput and throughput per switch port of 3-D and 6-D tori (DOR),
# 3-level fat trees and 2:1-per-level thin trees grown by their switch radix (d-mod-k), canonical
# dragonflies (a = 2p = 2h, minimal routing) and jellyfish of 24-port switches with 12 endpoints each
# (BFS), from about 1k to about 64k endpoints, under uniform and hot-region traffic. Trees keep n = 3
# so that, as in INRFlow's study, a family's ports per endpoint stay constant as it grows. Ours are exact max-min rates, INRFlow's come from flow counts, so absolute values differ;
# the trends are what to compare. Writes OUT_DIR/<label>__<pattern>__<endpoints>/ per run and
# OUT_DIR/{scalability.csv,scalability.png}.
# Usage: examples/fig7-scalability.sh [INTERFLOW_BINARY] [OUT_DIR] [SEED]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
out=${2:-results/fig7}
seed=${3:-1}
mkdir -p "$out"

# label|topology spec, smallest to largest (about 1k, 4k, 16k, 64k endpoints)
runs=(
  "3-D torus|torus:dims=16x8x8"       "3-D torus|torus:dims=16x16x16"      "3-D torus|torus:dims=32x32x16"
  "3-D torus|torus:dims=64x32x32"
  "6-D torus|torus:dims=4x4x4x4x2x2"  "6-D torus|torus:dims=4x4x4x4x4x4"   "6-D torus|torus:dims=8x8x4x4x4x4"
  "6-D torus|torus:dims=8x8x8x8x4x4"
  "fat tree|fattree:k=10,n=3"         "fat tree|fattree:k=16,n=3"          "fat tree|fattree:k=26,n=3"
  "fat tree|fattree:k=40,n=3"
  "thin tree 2:1|thintree:k=10,kp=5,n=3" "thin tree 2:1|thintree:k=16,kp=8,n=3" "thin tree 2:1|thintree:k=26,kp=13,n=3"
  "thin tree 2:1|thintree:k=40,kp=20,n=3"
  "dragonfly|dragonfly:a=8,p=4,h=4"   "dragonfly|dragonfly:a=12,p=6,h=6"   "dragonfly|dragonfly:a=16,p=8,h=8"
  "dragonfly|dragonfly:a=22,p=11,h=11"
  "jellyfish|jellyfish:N=86,k=24,r=12" "jellyfish|jellyfish:N=342,k=24,r=12" "jellyfish|jellyfish:N=1366,k=24,r=12"
  "jellyfish|jellyfish:N=5462,k=24,r=12"
)
patterns=("uniform" "hotregion")

echo "interflow scalability study (INRFlow Fig. 7 trends), seed $seed; results in $out"
for entry in "${runs[@]}"; do
  label=${entry%%|*}
  spec=${entry#*|}
  for p in "${patterns[@]}"; do
    dir="$out/$(echo "$label" | tr ' :' '__')__${p}__$(echo "$spec" | tr ':=,' '___')"
    "$bin" static --topology "$spec" --pattern "$p" --seed "$seed" --out "$dir" --quiet --no-progress
    echo "$label" > "$dir/label.txt"
  done
done
python=/usr/bin/python3
[ -x "$python" ] || python=python3
"$python" "$(dirname "$0")/../scripts/scalability_report.py" "$out"
