#!/usr/bin/env bash
# Times interflow binaries on one command line, alternating them run by run (A, B, A, B, ...) so
# that a busy machine slows each alike, and prints per binary its wall times, the median wall and
# user time and the median peak memory (`/usr/bin/time -v`), with the load average before and after.
# A run that exits non-zero stops the comparison. Run by hand, not in CI.
# Usage: bench/alternate.sh REPEAT "SUBCOMMAND AND ARGUMENTS" BINARY...
# Example: bench/alternate.sh 3 "dynamic -t fattree:k=8,n=3 -p uniform -b 1e6 -q" /tmp/old/interflow build/release/bin/interflow
set -euo pipefail
if (($# < 3)); then
  echo "usage: alternate.sh REPEAT \"ARGS\" BINARY..." >&2
  exit 2
fi
repeat=$1
args=$2
shift 2
[[ "$repeat" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "alternate.sh: REPEAT must be a whole number from 1 to 9999, not '$repeat'" >&2; exit 2; }
python=/usr/bin/python3
[ -x "$python" ] || python=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$repeat"); do
  b=0
  for bin in "$@"; do
    b=$((b + 1))
    # shellcheck disable=SC2086
    if ! /usr/bin/time -v -o "$tmp/$b.$i" "$bin" $args > /dev/null 2> "$tmp/err"; then
      echo "alternate.sh: $bin failed on run $i:" >&2
      cat "$tmp/err" >&2
      exit 1
    fi
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
"$python" - "$tmp" "$repeat" "$(dirname "$0")" "$@" <<'PY'
import re, statistics, sys
tmp, repeat = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, sys.argv[3])
from time_v import read
for b, binary in enumerate(sys.argv[4:], start=1):
    walls, rss, user = [], [], []
    for i in range(1, repeat + 1):
        seconds, mib = read(f"{tmp}/{b}.{i}")
        walls.append(seconds)
        rss.append(mib)
        user.append(float(re.search(r"User time \(seconds\): ([\d.]+)", open(f"{tmp}/{b}.{i}").read()).group(1)))
    print(f"{binary}: wall {' / '.join(f'{w:.2f}' for w in walls)} s, median {statistics.median(walls):.2f} s, "
          f"user median {statistics.median(user):.2f} s, peak median {statistics.median(rss):.1f} MiB")
PY
