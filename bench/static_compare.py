#!/usr/bin/env python3
"""Old and new interflow binaries on the same static runs, alternated (old, new, old, new, ...) so
that a busy machine slows both alike. For each case: median wall time and peak RSS over REPEAT runs
of each (from /usr/bin/time -v), the load average when the case started, and whether every metric
of summary.json agrees (times, memory, threads and the `stream` block skipped; numbers compared
relatively, the largest difference printed).

Usage: bench/static_compare.py OLD NEW REPEAT 'ARGS' ['ARGS' ...]
  ARGS: the options after `interflow static`, e.g. '-t torus:dims=16x16x16 -p alltoall -j 2'
Run by hand (not in CI); results go in bench/RESULTS.md."""
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

SKIP = {"solver_bottleneck_steps", "solver_heap_refreshes", "solver_links", "memory_estimate", "time_s", "peak_rss_bytes", "threads", "stream", "interflow_version", "command", "config", "run"}


def run(binary, args, tmp):
    time_file = os.path.join(tmp, "time.txt")
    out = subprocess.run(["/usr/bin/time", "-v", "-o", time_file, binary, "static", *args, "--json", "--no-progress"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{binary} static {' '.join(args)} failed: {out.stderr.strip()}")
    wall = rss = None
    for line in open(time_file):
        line = line.strip()
        if line.startswith("Elapsed (wall clock) time"):
            parts = line.split(": ", 1)[1].split(":")
            wall = sum(float(p) * 60 ** i for i, p in enumerate(reversed(parts)))
        elif line.startswith("Maximum resident set size"):
            rss = int(line.split(": ")[1]) / 1024
    return wall, rss, json.loads(out.stdout)


def largest_difference(a, b, path=""):
    """(largest relative difference, where) between two JSON values; inf for a structural mismatch."""
    if isinstance(a, dict) and isinstance(b, dict):
        worst = (0.0, "")
        for key in a.keys() | b.keys():
            if key in SKIP:
                continue
            if key not in a or key not in b:
                return (float("inf"), path + "." + key + " (one side only)")
            worst = max(worst, largest_difference(a[key], b[key], path + "." + key))
        return worst
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        if a == b:
            return (0.0, path)
        return (abs(a - b) / max(abs(a), abs(b)), path)
    return (0.0, path) if a == b else (float("inf"), path)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    old, new, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print("| case | old wall s | new wall s | old MiB | new MiB | load | metrics |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for case in sys.argv[4:]:
            args = shlex.split(case)
            load = os.getloadavg()[0]
            times = {"old": [], "new": []}
            mem = {"old": [], "new": []}
            summary = {}
            for _ in range(repeat):
                for which, binary in (("old", old), ("new", new)):
                    wall, rss, s = run(binary, args, tmp)
                    times[which].append(wall)
                    mem[which].append(rss)
                    summary[which] = s
            diff, where = largest_difference(summary["old"], summary["new"])
            verdict = "identical" if diff == 0 else f"max rel. diff {diff:.2g} at {where}"
            print(f"| `{case}` | {statistics.median(times['old']):.2f} | {statistics.median(times['new']):.2f} | "
                  f"{statistics.median(mem['old']):.0f} | {statistics.median(mem['new']):.0f} | {load:.2f} | {verdict} |",
                  flush=True)


if __name__ == "__main__":
    main()
