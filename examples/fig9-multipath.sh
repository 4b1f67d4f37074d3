#!/usr/bin/env bash
# Multipath routing study after INRFlow's Fig. 9 (Navaridas et al., JPDC 2019, §4.2), static engine:
# jellyfish, fat tree and 2:1 thin tree of about 16k endpoints under uniform and hot-region traffic,
# each with its default single-path routing (bfs for jellyfish, d-mod-k for the trees) and with
# ecmp, ksp (k = 8) and allpath (d = 2). Prints, per network and pattern, each routing's aggregate
# non-restricted and restricted throughput and its ratio to the default routing's. INRFlow's Fig. 9
# reports application run times from its dynamic engine; the trend to compare is which networks
# gain from multipath. Writes OUT_DIR/<network>__<pattern>__<routing>/ per run and OUT_DIR/multipath.csv.
# Usage: examples/fig9-multipath.sh [INTERFLOW_BINARY] [OUT_DIR] [SEED]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
out=${2:-results/fig9}
seed=${3:-1}
mkdir -p "$out"

networks=("jellyfish|jellyfish:N=2048,k=16,r=8|bfs" "fat tree|fattree:k=26,n=3|dmodk"
          "thin tree 2:1|thintree:k=26,kp=13,n=3|dmodk")
routings=("ecmp" "ksp:k=8" "allpath:d=2")
patterns=("uniform" "hotregion")

echo "network,pattern,routing,default_routing,endpoints,nonrestricted_gbps,restricted_gbps,mean_path_links" > "$out/multipath.csv"
for entry in "${networks[@]}"; do
  IFS='|' read -r label spec default <<< "$entry"
  for p in "${patterns[@]}"; do
    for r in "$default" "${routings[@]}"; do
      dir="$out/$(echo "$label" | tr ' :' '__')__${p}__$(echo "$r" | tr ':=,' '___')"
      "$bin" static --topology "$spec" --routing "$r" --pattern "$p" --seed "$seed" --out "$dir" --quiet --no-progress
      /usr/bin/python3 - "$dir/summary.json" "$label" "$p" "$r" "$default" >> "$out/multipath.csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["throughput"]
print(f"{sys.argv[2]},{sys.argv[3]},{sys.argv[4]},{sys.argv[5]},{d['network']['endpoints']},"
      f"{t['aggregate_nonrestricted_gbps']:.1f},{t['aggregate_restricted_gbps']:.1f},{d['path_links']['mean']:.3f}")
PY
    done
  done
done
/usr/bin/python3 - "$out/multipath.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
base = {(r["network"], r["pattern"]): r for r in rows if r["routing"] == r["default_routing"]}
print(f"{'network':<14} {'pattern':<10} {'routing':<12} {'non-restr.':>11} {'x default':>9} {'restr.':>10} {'x default':>9}")
for r in rows:
    b = base[(r["network"], r["pattern"])]
    nr, rr = float(r["nonrestricted_gbps"]), float(r["restricted_gbps"])
    print(f"{r['network']:<14} {r['pattern']:<10} {r['routing']:<12} {nr:>11.0f} {nr / float(b['nonrestricted_gbps']):>9.2f} "
          f"{rr:>10.0f} {rr / float(b['restricted_gbps']):>9.2f}")
print(f"table: {sys.argv[1]}")
PY
