#!/usr/bin/env bash
# Network-agnostic replay of every log in ../shared/data/swf with FCFS, EASY and SJF (plus
# conservative and EASY-SJF) (issue 7). Options: the defaults (size from allocated processors, jobs
# killed at their requested time, jobs with a missing run time, size or estimate dropped, one
# processor per node, the machine size from the log's header); the NASA log has no estimates at
# all, so it runs with --estimate exact. Reports the summary metrics, wall time and peak memory.
# Usage: bench/scheduler.sh [INTERFLOW_BINARY] [SWF_DIR]
set -euo pipefail
bin=${1:-build/release/bin/interflow}
dir=${2:-$(dirname "$0")/../../shared/data/swf}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| log | policy | options | nodes | jobs in log | dropped | scheduled | mean wait s | median wait s | mean bounded slowdown | mean slowdown | utilisation | makespan s | wall s | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for log in "$dir"/*.swf.gz; do
  name=$(basename "$log" .swf.gz)
  options=""
  case "$name" in NASA-iPSC*) options="--estimate exact" ;; esac
  for policy in fcfs easy sjf conservative easy-sjf; do
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$tmp/time" "$bin" schedule --swf "$log" -p "$policy" $options --json > "$tmp/s.json"
    "$python" - "$tmp" "$name" "$policy" "${options:-defaults}" "$(dirname "$0")" <<'PY'
import json, sys
tmp, name, policy, options, bench = sys.argv[1:6]
sys.path.insert(0, bench)
import time_v
wall, rss = time_v.read(f"{tmp}/time")
d = json.load(open(f"{tmp}/s.json"))
j = d["jobs"]
print(f"| {name} | {policy} | {options} | {d['nodes']} | {j['in_log']} | {j['dropped']} | {j['scheduled']} | "
      f"{d['mean_wait_s']:.0f} | {d['median_wait_s']:.0f} | {d['mean_bounded_slowdown']:.1f} | {d['mean_slowdown']:.1f} | "
      f"{d['utilisation']:.3f} | {d['makespan_s']:.0f} | {wall:.2f} | {rss:.0f} |")
PY
  done
done
