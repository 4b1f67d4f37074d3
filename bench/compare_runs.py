#!/usr/bin/env python3
"""Compares two folders of results written by bench/reference-runs.sh (before and after a change).

For every file present in both: JSON values and CSV cells are compared as numbers where they are
numbers, as text otherwise. Timings, memory and rates of the machine are skipped. Prints one line
per file: identical, or the largest relative difference and where it is; lists files and JSON keys
present on one side only. Exit status 0 when every compared value is identical, 1 otherwise.

Usage: bench/compare_runs.py BEFORE_DIR AFTER_DIR [--tolerance REL]
With --tolerance, differences up to REL count as equal (the exit status says so)."""
import csv
import json
import math
import os
import sys

SKIP_KEYS = {"time_s", "peak_rss_bytes", "available_bytes", "pass_seconds", "events_per_second", "solve_share", "interflow_version", "threads",
             "run", "timings", "config_file", "command", "build_seconds", "distance_seconds", "total_s",
             "route_s", "solve_s", "build_s", "seconds", "wall_s"}


def as_number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


class Diff:
    def __init__(self):
        self.worst = 0.0
        self.where = ""
        self.text = []
        self.only = []

    def number(self, a, b, where):
        if a == b or (math.isnan(a) and math.isnan(b)):
            return
        rel = abs(a - b) / max(abs(a), abs(b), 1e-300)
        if rel > self.worst:
            self.worst, self.where = rel, f"{where}: {a!r} vs {b!r}"

    def value(self, a, b, where):
        na, nb = (a if isinstance(a, (int, float)) and not isinstance(a, bool) else as_number(a)), \
                 (b if isinstance(b, (int, float)) and not isinstance(b, bool) else as_number(b))
        if na is not None and nb is not None:
            self.number(float(na), float(nb), where)
        elif a != b:
            self.text.append(f"{where}: {a!r} vs {b!r}")


def compare_json(a, b, d, where="$"):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in SKIP_KEYS:
                continue
            if k not in a or k not in b:
                d.only.append(f"{where}.{k} only {'after' if k in b else 'before'}")
                continue
            compare_json(a[k], b[k], d, f"{where}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            d.text.append(f"{where}: {len(a)} vs {len(b)} entries")
        for i, (x, y) in enumerate(zip(a, b)):
            compare_json(x, y, d, f"{where}[{i}]")
    else:
        d.value(a, b, where)


def compare_csv(pa, pb, d):
    with open(pa, newline="") as fa, open(pb, newline="") as fb:
        ra, rb = list(csv.reader(fa)), list(csv.reader(fb))
    if not ra or not rb:
        if ra != rb:
            d.text.append("one file is empty")
        return
    ha, hb = ra[0], rb[0]
    common = [c for c in ha if c in hb]
    for c in ha:
        if c not in hb:
            d.only.append(f"column {c} only before")
    for c in hb:
        if c not in ha:
            d.only.append(f"column {c} only after")
    if len(ra) != len(rb):
        d.text.append(f"{len(ra) - 1} vs {len(rb) - 1} rows")
    ia = {c: ha.index(c) for c in common}
    ib = {c: hb.index(c) for c in common}
    for row, (x, y) in enumerate(zip(ra[1:], rb[1:]), start=2):
        for c in common:
            if c in SKIP_KEYS:
                continue
            d.value(x[ia[c]] if ia[c] < len(x) else "", y[ib[c]] if ib[c] < len(y) else "", f"line {row} {c}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    tolerance = 0.0
    if "--tolerance" in sys.argv:
        tolerance = float(sys.argv[sys.argv.index("--tolerance") + 1])
        args = [a for a in args if a != sys.argv[sys.argv.index("--tolerance") + 1]]
    before, after = args[0], args[1]
    failed = False
    for root, _, files in sorted(os.walk(before)):
        for name in sorted(files):
            pa = os.path.join(root, name)
            rel = os.path.relpath(pa, before)
            pb = os.path.join(after, rel)
            if not os.path.exists(pb):
                print(f"{rel}: only before")
                continue
            d = Diff()
            if name.endswith(".json"):
                compare_json(json.load(open(pa)), json.load(open(pb)), d)
            elif name.endswith(".csv"):
                compare_csv(pa, pb, d)
            else:
                continue
            status = "identical" if d.worst == 0 and not d.text else \
                f"max relative difference {d.worst:.3g} ({d.where})" if not d.text else "DIFFERENT"
            if d.worst > tolerance or d.text:
                failed = True
            print(f"{rel}: {status}")
            for t in d.text[:5]:
                print(f"    {t}")
            for o in d.only[:8]:
                print(f"    {o}")
    for root, _, files in sorted(os.walk(after)):
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(root, name), after)
            if not os.path.exists(os.path.join(before, rel)):
                print(f"{rel}: only after")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
