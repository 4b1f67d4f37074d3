#!/usr/bin/env bash
# Storage placement x allocation (after Pascual Saiz et al. 2018, the study Navaridas et al. 2019
# §3.5 summarises): one stream of 40 Markov-chain jobs (16, 32 or 64 nodes; I/O-, compute- and
# communication-intensive profiles in turn; Poisson arrivals every 1 ms on average) on a 256-node
# 4-ary 4-tree and on an 8x8x4 torus (direct, dimension-order routing), 10 Gbit/s links, NVM devices of
# 16 Gbit/s read / 8 Gbit/s write behind 32 Gbit/s PCIe. Every combination of
#   data placement   local | internal (a quarter of the partition's devices) | external (devices of
#                    the nodes after the partition)
#   allocation       consecutive | random
#   App vs I/O       np | fp (application traffic first)
# runs with SEEDS seeds. Prints, per combination, means over the seeds of: makespan, mean job run time,
# mean slowdown (response / run time), the interference (mean run time / run time alone on the same
# nodes with the same data placement: the network slowdown), the same for the communication-intensive
# jobs alone (every third job) and the share of storage bytes that crossed the interconnect. (bench/RESULTS.md "Storage placement and allocation"; a few minutes on
# two cores.)
# Usage: examples/storage-allocation.sh [INTERFLOW] [SEEDS]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
seeds=${2:-3}
sizes="lambda=2000,read_bytes=1e6,write_bytes=1e6,result_bytes=1e6,comm_bytes=1e5"
apps=(--job-app "markov:profile=io,$sizes" --job-app "markov:profile=compute,$sizes"
      --job-app "markov:profile=comm,$sizes" --job-app-by position)
stream=(--jobs 40 --mean-gap 1e-3 --job-sizes 16,32,64 --endpoint-gbps 10 --switch-gbps 10)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for topo in "fattree:k=4,n=4" "torus:dims=8x8x4"; do
  for placement in local internal:share=0.25 external; do
    for allocation in consecutive random; do
      for policy in np fp; do
        for seed in $(seq "$seeds"); do
          "$bin" schedule --network-aware -t "$topo" "${stream[@]}" "${apps[@]}" --data-placement "$placement" \
            --allocation "$allocation" --class-policy "$policy" --seed "$seed" -o "$tmp/out" -q
          python3 - "$tmp/out" "$topo" "$placement" "$allocation" "$policy" >> "$tmp/all" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1] + "/summary.json"))
jobs = list(csv.DictReader(open(sys.argv[1] + "/jobs.csv")))
comm = [float(j["network_slowdown"]) for k, j in enumerate(jobs) if k % 3 == 2]
s = d["storage"]
moved = s["bytes_read_local"] + s["bytes_read_remote"] + s["bytes_written_local"] + s["bytes_written_remote"]
remote = (s["bytes_read_remote"] + s["bytes_written_remote"]) / moved if moved else 0
runtime = d["mean_runtime_s"]
print(*sys.argv[2:6], d["makespan_s"], runtime, d["mean_slowdown"], d["mean_network_slowdown"],
      sum(comm) / len(comm), remote)
PY
        done
      done
    done
  done
done
python3 - "$tmp/all" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
keys = list(dict.fromkeys(tuple(r[:4]) for r in rows))
print("| topology | placement | allocation | App vs I/O | makespan (ms) | mean run time (ms) | mean slowdown | "
      "interference | interference, comm jobs | storage bytes remote |")
print("|---|---|---|---|---|---|---|---|---|---|")
for k in keys:
    sel = [r for r in rows if tuple(r[:4]) == k]
    m = [st.mean(float(r[i]) for r in sel) for i in range(4, 10)]
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {m[0]*1e3:.1f} | {m[1]*1e3:.2f} | {m[2]:.2f} | {m[3]:.3f} | "
          f"{m[4]:.3f} | {m[5]:.0%} |")
PY
