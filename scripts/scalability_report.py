#!/usr/bin/env python3
"""Collects the runs of examples/fig7-scalability.sh (each folder: summary.json + label.txt) into
scalability.csv, prints the table and draws scalability.png: aggregate non-restricted throughput,
aggregate restricted throughput and non-restricted throughput per switch port against the number of
endpoints, one line per topology family, one row of plots per pattern.

Usage: scalability_report.py RESULTS_DIR
"""
import csv
import json
import pathlib
import sys

FIELDS = ["label", "pattern", "topology", "routing", "endpoints", "switch_ports",
          "nonrestricted_links", "restricted_links", "per_port_links", "nonrestricted_normalised",
          "restricted_normalised", "mean_path_links", "seed"]


def load(results_dir):
    rows = []
    for path in sorted(results_dir.glob("*/summary.json")):
        s = json.load(open(path))
        label = (path.parent / "label.txt").read_text().strip()
        # Throughputs in units of one link's capacity, as INRFlow plots them.
        link = s["config"]["switch_gbps"]
        t = s["throughput"]
        rows.append({
            "label": label, "pattern": s["config"]["pattern"], "topology": s["config"]["topology"],
            "routing": s["config"]["routing"], "endpoints": s["network"]["endpoints"],
            "switch_ports": t["switch_ports"],
            "nonrestricted_links": t["aggregate_nonrestricted_gbps"] / link,
            "restricted_links": t["aggregate_restricted_gbps"] / link,
            "per_port_links": t["nonrestricted_per_port_gbps"] / link,
            "nonrestricted_normalised": t["nonrestricted_normalised"],
            "restricted_normalised": t["restricted_normalised"],
            "mean_path_links": s["path_links"]["mean"], "seed": s["seed"],
        })
    rows.sort(key=lambda r: (r["pattern"], r["label"], r["endpoints"]))
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    results_dir = pathlib.Path(sys.argv[1])
    rows = load(results_dir)
    if not rows:
        sys.exit(f"no */summary.json below {results_dir}")
    with open(results_dir / "scalability.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"{'pattern':<10} {'topology family':<14} {'endpoints':>9} {'non-restr.':>11} {'restricted':>11} "
          f"{'per port':>9}   (throughputs in link capacities)")
    for r in rows:
        print(f"{r['pattern']:<10} {r['label']:<14} {r['endpoints']:>9} {r['nonrestricted_links']:>11.1f} "
              f"{r['restricted_links']:>11.1f} {r['per_port_links']:>9.4f}")
    print(f"table: {results_dir / 'scalability.csv'}")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not available: no plot written", file=sys.stderr)
        return
    patterns = sorted({r["pattern"] for r in rows}, key=lambda p: (p != "uniform", p))
    labels = sorted({r["label"] for r in rows})
    metrics = [("nonrestricted_links", "aggregate non-restricted"), ("restricted_links", "aggregate restricted"),
               ("per_port_links", "non-restricted per switch port")]
    fig, axes = plt.subplots(len(patterns), 3, figsize=(15, 4.2 * len(patterns)), squeeze=False)
    for i, pattern in enumerate(patterns):
        for j, (key, title) in enumerate(metrics):
            ax = axes[i][j]
            for label in labels:
                pts = [(r["endpoints"], r[key]) for r in rows if r["label"] == label and r["pattern"] == pattern]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
            ax.set_xscale("log", base=2)
            if key != "per_port_links":
                ax.set_yscale("log")
            ax.set_title(f"{title} ({pattern})", fontsize=10)
            ax.set_xlabel("endpoints")
            ax.set_ylabel("link capacities")
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("interflow static engine: scalability (trends of INRFlow Fig. 7; exact max-min rates)")
    fig.tight_layout()
    fig.savefig(results_dir / "scalability.png", dpi=110)
    print(f"plot: {results_dir / 'scalability.png'}")


if __name__ == "__main__":
    main()
