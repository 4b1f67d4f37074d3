#!/usr/bin/python3
"""Per-SL latency and throughput of a packet sweep with a `switch` axis, the switch models side by
side (after Cano-Cano et al. 2024 Figs. 5 and 6): a Markdown table on stdout and, with --plot, a
figure of one column per switch (latency above, accepted throughput below, one line per SL).

Usage: scripts/switch_compare.py RESULTS_DIR [--x mix:be-load] [--plot FILE.png] [--title TEXT]
       [--network]   (network latency instead of end-to-end)
Reads RESULTS_DIR/aggregated.csv (interflow collect) with the helpers of interflow_plot.py: one
message and a non-zero exit for bad input (2) or results not written (4).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interflow_plot as ip  # noqa: E402  (the script's own folder)

ip.PROG = "switch_compare.py"


def label(switch):
    """A column label: the spec when short (ib:speedup=2), else the model's name (opa)."""
    return switch if len(switch) <= 24 else switch.split(":")[0]


def write(text):
    """A line on stdout, checked: a full disk or a closed pipe is an error."""
    try:
        os.write(sys.stdout.fileno(), (text + "\n").encode())
    except OSError as e:
        ip.fail("results not written: standard output: %s" % e.strerror, 4)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--x", default="mix:be-load")
    ap.add_argument("--plot")
    ap.add_argument("--title", default="")
    ap.add_argument("--network", action="store_true")
    a = ap.parse_args()
    path, rows, columns = ip.read_aggregated(a.dir)
    if "switch" not in columns:
        ip.fail("%s: no `switch` column; sweep the switch model as an axis" % path)
    if a.x not in columns:
        ip.fail("--x '%s' is not a column of %s" % (a.x, path))
    count = 0
    while "service_levels.%d.offered_flits_per_cycle_per_nic.mean" % count in columns:
        count += 1
    names = ip.sl_names(a.dir, count)
    kind = "mean_network_latency_ns" if a.network else "mean_latency_ns"
    switches = list(dict.fromkeys(r["switch"] for r in rows))
    xs = sorted({ip.number(r[a.x], "%s column %s" % (path, a.x)) for r in rows})
    cell = {(r["switch"], ip.number(r[a.x], a.x)): r for r in rows}

    def value(sw, x, sl, metric):
        r = cell.get((sw, x))
        return ip.number(r["service_levels.%d.%s.mean" % (sl, metric)] or "nan", path) if r else float("nan")

    def offered(x, sw=switches[0]):
        return ip.number(cell[(sw, x)]["offered_flits_per_cycle_per_nic.mean"], path)

    head = "| " + a.x + " | offered | " + " | ".join(f"{n} {label(s)}" for n in names for s in switches) + " |"

    def table(metric, digits):
        write(head)
        write("|" + "---|" * (2 + len(names) * len(switches)))
        for x in xs:
            write(f"| {x:g} | {offered(x):.3f} | " + " | ".join(
                f"{value(s, x, i, metric):.{digits}f}" for i in range(count) for s in switches) + " |")

    write(f"{kind.replace('_', ' ')} per SL (ns), then accepted flits/cycle/NIC per SL; mean over seeds")
    table(kind, 0)
    write("")
    table("accepted_flits_per_cycle_per_nic", 4)
    if a.plot:
        plt = ip.load_pyplot()
        fig, axes = plt.subplots(2, len(switches), figsize=(5 * len(switches), 7), sharex=True, squeeze=False)
        for j, sw in enumerate(switches):
            loads = [offered(x, sw) if (sw, x) in cell else float("nan") for x in xs]
            for i in range(count):
                axes[0][j].plot(loads, [value(sw, x, i, kind) for x in xs], marker="o", label=names[i])
                axes[1][j].plot(loads, [value(sw, x, i, "accepted_flits_per_cycle_per_nic") for x in xs],
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
        ip.save(fig, a.plot)


if __name__ == "__main__":
    main()
