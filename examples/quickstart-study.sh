#!/usr/bin/env bash
# The default static study of ./quickstart.sh: four topologies of 4096 endpoints (3-D and 6-D torus
# with DOR, fat tree and 2:1 thin tree with d-mod-k) under uniform random, hot-region and
# bit-complement traffic. Usage: quickstart-study.sh [INTERFLOW_BINARY] [OUT_DIR] [SEED]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
out=${2:-results/quickstart}
seed=${3:-1}
mkdir -p "$out"

topologies=(
  "torus:dims=16x16x16"
  "torus:dims=4x4x4x4x4x4"
  "fattree:k=16,n=3"
  "thintree:k=16,kp=8,n=3"
)
patterns=("uniform" "hotregion" "complement")

echo "interflow quick-start study, seed $seed; results in $out"
for t in "${topologies[@]}"; do
  for p in "${patterns[@]}"; do
    name="$(echo "$t" | tr ':=,' '___')__$p"
    "$bin" static --topology "$t" --pattern "$p" --seed "$seed" --out "$out/$name" --quiet --no-progress
  done
done
python=/usr/bin/python3
[ -x "$python" ] || python=python3
"$python" "$(dirname "$0")/../scripts/study_report.py" "$out"
