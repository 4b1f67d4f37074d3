#!/usr/bin/python3
"""Per-SL latency and throughput of a packet sweep with a `switch` axis, the switch models side by
side (after Cano-Cano et al. 2024 Figs. 5 and 6): a Markdown table on stdout and, with --plot, a
figure of one column per switch (latency above, accepted throughput below, one line per SL).

Usage: scripts/switch_compare.py RESULTS_DIR [--x mix:be-load] [--plot FILE.png] [--title TEXT]
       [--network]   (network latency instead of end-to-end)
Reads RESULTS_DIR/aggregated.csv (interflow collect).
"""
import argparse
import csv
import sys


def label(switch):
    """A column label: the spec when short (ib:speedup=2), else the model's name (opa)."""
    return switch if len(switch) <= 24 else switch.split(":")[0]


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "switch" not in rows[0]:
        sys.exit(f"{path}: no `switch` column; sweep the switch model as an axis")
    return rows


def sl_names(row):
    names, i = [], 0
    while f"service_levels.{i}.offered_flits_per_cycle_per_nic.mean" in row:
        names.append(row.get(f"service_levels.{i}.name", f"SL{i}") or f"SL{i}")
        i += 1
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--x", default="mix:be-load")
    ap.add_argument("--plot")
    ap.add_argument("--title", default="")
    ap.add_argument("--names", default="NC,VO,VI,CL,EE,BE,BK", help="SL names, comma-separated")
    ap.add_argument("--network", action="store_true")
    a = ap.parse_args()
    rows = load(f"{a.dir}/aggregated.csv")
    names = a.names.split(",")
    count = len(sl_names(rows[0]))
    names = (names + [f"SL{i}" for i in range(len(names), count)])[:count]
    kind = "mean_network_latency_ns" if a.network else "mean_latency_ns"
    switches = list(dict.fromkeys(r["switch"] for r in rows))
    xs = sorted({float(r[a.x]) for r in rows})
    cell = {(r["switch"], float(r[a.x])): r for r in rows}

    def value(sw, x, sl, metric):
        r = cell.get((sw, x))
        return float(r[f"service_levels.{sl}.{metric}.mean"]) if r else float("nan")

    head = "| " + a.x + " | offered | " + " | ".join(
        f"{n} {label(s)}" for n in names for s in switches) + " |"
    print(f"{kind.replace('_', ' ')} per SL (ns), then accepted flits/cycle/NIC per SL; mean over seeds")
    def table(metric, digits):
        print(head)
        print("|" + "---|" * (2 + len(names) * len(switches)))
        for x in xs:
            offered = float(cell[(switches[0], x)]["offered_flits_per_cycle_per_nic.mean"])
            print(f"| {x:g} | {offered:.3f} | " + " | ".join(
                f"{value(s, x, i, metric):.{digits}f}" for i in range(count) for s in switches) + " |")

    table(kind, 0)
    print()
    table("accepted_flits_per_cycle_per_nic", 4)
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(2, len(switches), figsize=(5 * len(switches), 7), sharex=True, squeeze=False)
        for j, sw in enumerate(switches):
            offered = [float(cell[(sw, x)]["offered_flits_per_cycle_per_nic.mean"]) for x in xs]
            for i in range(count):
                axes[0][j].plot(offered, [value(sw, x, i, kind) for x in xs], marker="o", label=names[i])
                axes[1][j].plot(offered, [value(sw, x, i, "accepted_flits_per_cycle_per_nic") for x in xs],
                                marker="o", label=names[i])
            axes[0][j].set_title(label(sw))
            axes[0][j].set_yscale("log")
            axes[0][j].set_ylabel(kind.replace("_", " "))
            axes[1][j].set_ylabel("accepted flits/cycle/NIC")
            axes[1][j].set_xlabel("offered load, all SLs (flits/cycle/NIC)")
            for ax in (axes[0][j], axes[1][j]):
                ax.grid(alpha=0.3)
        axes[0][0].legend(fontsize=8)
        if a.title:
            fig.suptitle(a.title)
        fig.tight_layout()
        fig.savefig(a.plot, dpi=110)
        print(f"\nfigure: {a.plot}")


if __name__ == "__main__":
    main()
