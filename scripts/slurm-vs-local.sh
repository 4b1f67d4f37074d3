#!/usr/bin/env bash
# Runs one experiment file twice — locally (`interflow sweep`) and as Slurm job arrays on a real
# single-node Slurm started by scripts/slurm-local.sh — collects both without run times and memory
# (`collect --no-resources`) and checks that the two tables are byte-identical. With --parallel it
# also runs the sweep's GNU parallel job file and checks that table too. Used by the CTest
# "experiments: a sweep on a real Slurm ..." and by bench/RESULTS.md's 100-run sweep.
#
# Usage: scripts/slurm-vs-local.sh INTERFLOW EXPERIMENT.toml WORKDIR [--parallel] [--throttle N]
# Exit status: 0 identical; 1 different or a step failed (one line says which); 77 Slurm cannot start
# here and INTERFLOW_SKIP_SLURM=1 asks to skip rather than fail.
set -euo pipefail
bin=$(realpath "$1")
experiment=$(realpath "$2")
work=$3
shift 3
with_parallel=0
throttle=4
while [ $# -gt 0 ]; do
  case "$1" in
    --parallel) with_parallel=1 ;;
    --throttle) throttle=$2; shift ;;
    *) echo "slurm-vs-local: unknown argument '$1'" >&2; exit 1 ;;
  esac
  shift
done
here=$(cd "$(dirname "$0")" && pwd)
slurm="$here/slurm-local.sh"
# Seconds since START (date +%s%N), with a tenth.
elapsed() { local ms=$((($(date +%s%N) - $1) / 1000000)); echo "$((ms / 1000)).$((ms % 1000 / 100))"; }
fail() { echo "slurm-vs-local: FAILED: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cd "$work"
trap '"$slurm" down > slurm-down.log 2>&1 || echo "slurm-vs-local: slurm-local.sh down failed: see $work/slurm-down.log" >&2' EXIT
if ! "$slurm" up > slurm-up.log 2>&1; then
  tail -n 20 slurm-up.log >&2
  if [ "${INTERFLOW_SKIP_SLURM:-0}" = 1 ]; then
    echo "slurm-vs-local: Slurm's daemons cannot start here; skipped because INTERFLOW_SKIP_SLURM=1" >&2
    exit 77
  fi
  fail "Slurm's daemons cannot start here (see above); set INTERFLOW_SKIP_SLURM=1 to skip this check explicitly"
fi
eval "$("$slurm" env)"

start=$(date +%s%N)
"$bin" sweep "$experiment" --out local --no-progress > local.log 2>&1 || fail "the local sweep failed: $(tail -n 3 local.log)"
local_s=$(elapsed "$start")

"$bin" sweep "$experiment" --out via-slurm --emit slurm --throttle "$throttle" > emit.log 2>&1 ||
  fail "emitting the Slurm arrays failed: $(tail -n 3 emit.log)"
start=$(date +%s%N)
ids=$(bash via-slurm/slurm/submit.sh 2> submit.log) || fail "sbatch refused the arrays: $(cat submit.log)"
# Poll the queue (sbatch --wait returns only 10, 42, 74 ... s after submission).
for id in $ids; do
  while [ -n "$(squeue -h -j "$id" 2> /dev/null)" ]; do sleep 1; done
done
slurm_s=$(elapsed "$start")
runs=$(find via-slurm/runs -name summary.json | wc -l)
"$bin" collect --no-resources local > /dev/null || fail "collect of the local sweep failed"
"$bin" collect --no-resources via-slurm > /dev/null ||
  fail "collect of the Slurm sweep failed (task logs: $work/via-slurm/slurm/logs)"
cmp -s local/collected.csv via-slurm/collected.csv || fail "collected.csv differs between the local and the Slurm sweep"
cmp -s local/aggregated.csv via-slurm/aggregated.csv || fail "aggregated.csv differs between the local and the Slurm sweep"
echo "slurm-vs-local: $runs runs; local sweep ${local_s}s, Slurm arrays ${slurm_s}s (arrays: $(echo $ids | wc -w), throttle $throttle); collected.csv and aggregated.csv identical"

if [ "$with_parallel" = 1 ]; then
  command -v parallel > /dev/null || fail "GNU parallel is missing (Debian package 'parallel')"
  "$bin" sweep "$experiment" --out gnu-parallel --emit parallel > parallel-emit.log 2>&1 || fail "emitting the job file failed"
  start=$(date +%s%N)
  parallel --will-cite --jobs "$(nproc)" --joblog gnu-parallel/parallel/joblog < gnu-parallel/parallel/jobs.txt ||
    fail "GNU parallel reported failed jobs (gnu-parallel/parallel/joblog)"
  parallel_s=$(elapsed "$start")
  "$bin" collect --no-resources gnu-parallel > /dev/null || fail "collect of the GNU parallel sweep failed"
  cmp -s local/collected.csv gnu-parallel/collected.csv || fail "collected.csv differs under GNU parallel"
  cmp -s local/aggregated.csv gnu-parallel/aggregated.csv || fail "aggregated.csv differs under GNU parallel"
  echo "slurm-vs-local: GNU parallel ${parallel_s}s; collected.csv and aggregated.csv identical"
fi
