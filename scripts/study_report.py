#!/usr/bin/env python3
"""Collects the summary.json of every run below a folder into study.csv / study.json, prints a
comparison table and draws throughput.png (normalised throughput per topology and pattern).

Usage: study_report.py RESULTS_DIR
"""
import csv
import json
import pathlib
import sys

COLUMNS = [
    ("topology", lambda s: s["config"]["topology"]),
    ("routing", lambda s: s["config"]["routing"]),
    ("pattern", lambda s: s["config"]["pattern"]),
    ("endpoints", lambda s: s["network"]["endpoints"]),
    ("switches", lambda s: s["network"]["switches"]),
    ("cables", lambda s: s["network"]["cables"]),
    ("flows", lambda s: s["flows"]["routed"]),
    ("nonrestricted_normalised", lambda s: s["throughput"]["nonrestricted_normalised"]),
    ("restricted_normalised", lambda s: s["throughput"]["restricted_normalised"]),
    ("nonrestricted_per_port_gbps", lambda s: s["throughput"]["nonrestricted_per_port_gbps"]),
    ("jain_fairness", lambda s: s["jain_fairness"]),
    ("mean_path_links", lambda s: s["path_links"]["mean"]),
    ("max_link_utilisation", lambda s: s["link_utilisation"]["max"]),
    ("seed", lambda s: s["seed"]),
    ("total_s", lambda s: s["time_s"]["total"]),
]


def load(results_dir):
    rows = []
    for path in sorted(results_dir.glob("*/summary.json")):
        with open(path) as f:
            summary = json.load(f)
        rows.append({name: get(summary) for name, get in COLUMNS})
    return rows


def print_table(rows):
    header = ["topology", "pattern", "endpoints", "non-restr.", "restricted", "per-port Gb/s", "Jain", "mean hops"]
    print(f"{header[0]:<26} {header[1]:<11} {header[2]:>9} {header[3]:>10} {header[4]:>10} "
          f"{header[5]:>13} {header[6]:>6} {header[7]:>9}")
    for r in rows:
        print(f"{r['topology']:<26} {r['pattern']:<11} {r['endpoints']:>9} {r['nonrestricted_normalised']:>10.4f} "
              f"{r['restricted_normalised']:>10.4f} {r['nonrestricted_per_port_gbps']:>13.3f} "
              f"{r['jain_fairness']:>6.3f} {r['mean_path_links']:>9.3f}")
    print("(throughputs normalised to the endpoints' injection capacity)")


def plot(rows, target):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not available: no plot written", file=sys.stderr)
        return
    topologies = sorted({r["topology"] for r in rows}, key=[r["topology"] for r in rows].index)
    patterns = sorted({r["pattern"] for r in rows}, key=[r["pattern"] for r in rows].index)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    width = 0.8 / max(1, len(patterns))
    for ax, key, title in ((axes[0], "nonrestricted_normalised", "Aggregate non-restricted throughput"),
                           (axes[1], "restricted_normalised", "Aggregate restricted throughput")):
        for i, pattern in enumerate(patterns):
            values = []
            for topology in topologies:
                match = [r[key] for r in rows if r["topology"] == topology and r["pattern"] == pattern]
                values.append(match[0] if match else 0.0)
            ax.bar([x + i * width for x in range(len(topologies))], values, width, label=pattern)
        ax.set_xticks([x + width * (len(patterns) - 1) / 2 for x in range(len(topologies))])
        ax.set_xticklabels(topologies, rotation=20, ha="right", fontsize=8)
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("fraction of injection capacity")
    axes[0].legend(title="pattern")
    fig.suptitle("interflow static engine: max-min fair throughput")
    fig.tight_layout()
    fig.savefig(target, dpi=120)
    print(f"plot: {target}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    results_dir = pathlib.Path(sys.argv[1])
    rows = load(results_dir)
    if not rows:
        sys.exit(f"no */summary.json below {results_dir}")
    with open(results_dir / "study.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=[name for name, _ in COLUMNS])
        writer.writeheader()
        writer.writerows(rows)
    with open(results_dir / "study.json", "w") as f:
        json.dump(rows, f, indent=2)
    print_table(rows)
    print(f"table: {results_dir / 'study.csv'} and {results_dir / 'study.json'}")
    plot(rows, results_dir / "throughput.png")


if __name__ == "__main__":
    main()
