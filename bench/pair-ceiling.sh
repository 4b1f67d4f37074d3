#!/usr/bin/env bash
# What two threads can gain on this machine at most, for one workload: the same single-thread run
# alone, then two copies of it side by side (independent processes, nothing shared), alternated
# ROUNDS times. Two copies finishing in W seconds where one alone takes A did 2A seconds of
# one-core work in W, so 2A / W is the speed-up of a program that is wholly parallel and shares
# nothing; a two-thread run of the same work cannot be expected above it. Each round also runs
# it with -j 2, so the engine's own ratio (time with -j 1 / time with -j 2) is measured in the same
# alternation. Prints each round, the medians, the ceiling and the ratio, with the load average
# before and after. Run by hand (not in CI); the figures go to bench/RESULTS.md.
#
# Usage: bench/pair-ceiling.sh ROUNDS "ARGS" BINARY
#   ARGS: the options after the binary, run with -j 1 (and -j 2) appended, e.g.
#   bench/pair-ceiling.sh 5 "static -t torus:dims=128x128x64 -p uniform --json" build/release/bin/interflow
set -euo pipefail
if (($# != 3)); then
  echo "usage: pair-ceiling.sh ROUNDS \"ARGS\" BINARY" >&2
  exit 2
fi
rounds=$1
args=$2
bin=$3
if ! [[ $rounds =~ ^[1-9][0-9]{0,3}$ ]]; then
  echo "pair-ceiling.sh: ROUNDS must be a whole number from 1 to 9999, not '$rounds'" >&2
  exit 2
fi
if [[ ! -f $bin || ! -x $bin ]]; then
  echo "pair-ceiling.sh: '$bin' is not an executable file" >&2
  exit 1
fi
bin=$(realpath "$bin")  # run this file, not one of the same name on PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -r -a argv <<< "$args"

# one run of the binary with -j ${2:-1}, its wall seconds (/usr/bin/time) in $tmp/t.NAME, or exit on failure
run_one() {
  local status=0
  /usr/bin/time -f %e -o "$tmp/t.$1" "$bin" "${argv[@]}" -j "${2:-1}" > /dev/null 2> "$tmp/err.$1" || status=$?
  if ((status != 0)); then
    echo "pair-ceiling.sh: the run failed with exit status $status: $(tail -n 1 "$tmp/err.$1")" >&2
    exit 1
  fi
}

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
  run_one alone
  alone=$(< "$tmp/t.alone")
  run_one two 2
  two=$(< "$tmp/t.two")
  run_one a &
  pa=$!
  run_one b &
  pb=$!
  # both copies waited for, so that a failed one leaves no run of the other behind
  failed=0
  wait "$pa" || failed=1
  wait "$pb" || failed=1
  ((failed == 0)) || exit 1
  # the copies start together: the pair's wall time is the later one's
  pair=$(python3 -c "print(max($(< "$tmp/t.a"), $(< "$tmp/t.b")))")
  echo "round $r: alone $alone s, with -j 2 $two s, pair $pair s"
  echo "$alone $pair $two" >> "$tmp/rounds"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp/rounds" <<'EOF'
import statistics, sys
rows = [tuple(map(float, line.split())) for line in open(sys.argv[1])]
alone = statistics.median(a for a, _, _ in rows)
pair = statistics.median(p for _, p, _ in rows)
two = statistics.median(t for _, _, t in rows)
per_round = statistics.median(2 * a / p for a, p, _ in rows)
print(f"median alone {alone:.2f} s, median pair {pair:.2f} s: ceiling 2 x alone / pair = {2 * alone / pair:.2f}"
      f" (median of the rounds' own ratios {per_round:.2f})")
print(f"median with -j 2 {two:.2f} s: the engine's ratio alone / (-j 2) = {alone / two:.2f}")
EOF
