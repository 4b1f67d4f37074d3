#!/usr/bin/env python3
"""The standard figures of interflow, drawn with matplotlib; `interflow plot KIND ...` runs this
script with checked arguments (manual/experiments.md "Plots"). Kinds:

  metric DIR   a metric of a sweep's aggregated.csv against a swept key, one line per series, with
               its 95 % confidence band over seeds (mean +- ci95)
  cdf RUN...   completion-time CDFs of dynamic runs (their flows.csv, written with --flows-csv)
  jobs RUN...  scheduler runs: CDFs of job wait and bounded slowdown, and utilisation over time
  links RUN    a run's link utilisation as a heat map, source vertex x destination vertex
  sl DIR       a packet sweep's latency and accepted throughput per service level against the offered
               load (or --x KEY), one line per SL with its 95 % band, two panels

Every figure is written whole (a regular file to a temporary name, then renamed; a device or pipe
straight, checked) or the script exits non-zero with one message; nothing is shown on screen."""
import argparse
import csv
import math
import os
import sys


PROG = "interflow plot"  # the name errors start with (scripts that import these helpers set their own)


def fail(message, status=2):
    """One line on stderr and the interflow exit status: 2 for bad input, 4 for results not written."""
    print(PROG + ": error: " + message, file=sys.stderr)
    sys.exit(status)


def load_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        fail("matplotlib is missing; install Debian's python3-matplotlib (scripts/setup-deps.sh does)")


def read_csv(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail("cannot read '%s': %s" % (path, e.strerror))
    return rows


def number(text, where):
    try:
        v = float(text)
    except (TypeError, ValueError):
        fail("%s: '%s' is not a number" % (where, text))
    return v


def save(fig, path):
    """Writes the figure whole: a regular file (new or old) through a temporary name and a rename,
    anything else that exists (a device such as /dev/full, a pipe) straight and checked -- never
    replaced by a rename. Then its path on stdout."""
    import io
    data = io.BytesIO()
    fig.savefig(data, format="png", dpi=150, bbox_inches="tight")
    if os.path.isdir(path):
        fail("results not written: '%s' is a directory" % path, 4)
    target = path if os.path.exists(path) and not os.path.isfile(path) else path + ".part.png"
    try:
        with open(target, "wb") as f:
            f.write(data.getvalue())
        if target != path:
            os.replace(target, path)
    except OSError as e:
        if target != path and os.path.exists(target):
            os.remove(target)
        fail("results not written: '%s': %s" % (path, e.strerror), 4)
    # The figure's path on stdout, unbuffered and checked: a full disk or a closed pipe is an error.
    try:
        os.write(sys.stdout.fileno(), (path + "\n").encode())
    except OSError as e:
        fail("results not written: standard output: %s" % e.strerror, 4)


def read_aggregated(dir):
    """A sweep's aggregated.csv: its path, rows and columns (exits when it is missing or empty)."""
    path = os.path.join(dir, "aggregated.csv")
    if not os.path.exists(path):
        fail("'%s' has no aggregated.csv; run `interflow collect %s` first" % (dir, dir))
    rows = read_csv(path)
    if not rows:
        fail("'%s' holds no configuration" % path)
    return path, rows, list(rows[0].keys())


def keep_where(rows, columns, where, path):
    """The rows matching every KEY=VALUE of --where."""
    for cond in where:
        key, _, value = cond.partition("=")
        if key not in columns:
            fail("--where '%s': '%s' is not a column of %s" % (cond, key, path))
        rows = [r for r in rows if r[key] == value]
        if not rows:
            fail("--where '%s' leaves no configuration" % cond)
    return rows


def plot_metric(a, plt):
    path, rows, columns = read_aggregated(a.dir)
    keys = columns[:columns.index("runs")]
    x_column = a.x
    if a.x not in keys and a.x + ".mean" in columns:
        x_column = a.x + ".mean"  # a metric on the x axis (e.g. network.endpoints)
    for key, label in ((a.x, "--x"), (a.series, "--series")):
        if key and key not in keys and not (label == "--x" and x_column != a.x):
            fail("%s '%s' is neither a swept key (%s) nor a metric of this sweep" % (label, key, ", ".join(keys)))
    mean, ci = a.y + ".mean", a.y + ".ci95"
    if mean not in columns:
        metrics = sorted({c[:-5] for c in columns if c.endswith(".mean")})
        near = [m for m in metrics if a.y.split(".")[-1] in m]
        fail("--y '%s' is not a metric of this sweep%s; see the header of %s" %
             (a.y, " (similar: " + ", ".join(near[:5]) + ")" if near else "", path))
    rows = keep_where(rows, columns, a.where, path)
    # Each line needs one configuration per x value: keys that vary among configurations with the
    # same series and x (other than the seed, already folded) must be pinned with --where.
    groups = {}
    for r in rows:
        groups.setdefault((r[a.series] if a.series else "", r[x_column]), []).append(r)
    fixed = sorted({k for g in groups.values() if len(g) > 1 for k in keys if len({r[k] for r in g}) > 1})
    if fixed:
        fail("the configurations also differ in %s: choose one with --where KEY=VALUE or plot it as --series" %
             ", ".join(fixed))
    series = {}
    for r in rows:
        series.setdefault(_value(r[a.series]) if a.series else a.y, []).append(r)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    numeric_x = all(_is_number(r[x_column]) for r in rows)
    categories = list(dict.fromkeys(r[x_column] for r in rows))
    width = 0.8 / max(1, len(series))
    for n, (name, rs) in enumerate(series.items()):
        ys = [number(r[mean], path) for r in rs]
        half = [float(r[ci]) if r[ci] else 0.0 for r in rs]
        if numeric_x:  # a line per series, the confidence interval as a band
            order = sorted(range(len(rs)), key=lambda i: float(rs[i][x_column]))
            xs = [float(rs[i][x_column]) for i in order]
            ys, half = [ys[i] for i in order], [half[i] for i in order]
            ax.plot(xs, ys, marker="o", label=name)
            if any(h > 0 for h in half):
                ax.fill_between(xs, [y - h for y, h in zip(ys, half)], [y + h for y, h in zip(ys, half)], alpha=0.2)
        else:  # categories: grouped bars, the confidence interval as error bars
            xs = [categories.index(r[x_column]) - 0.4 + width * (n + 0.5) for r in rs]
            ax.bar(xs, ys, width=width, label=name, yerr=half if any(h > 0 for h in half) else None, capsize=3)
    if not numeric_x:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels([_value(c) for c in categories], rotation=20 if max(len(c) for c in categories) > 10 else 0,
                           ha="right" if max(len(c) for c in categories) > 10 else "center", fontsize=8)
    if a.logx:
        ax.set_xscale("log")
    if a.logy:
        ax.set_yscale("log")
    ax.set_xlabel(_label(a.x))
    ax.set_ylabel(a.y)
    if a.series:
        ax.legend(title=_label(a.series), fontsize=8)
    ax.grid(alpha=0.3)
    runs = sorted({r["runs"] for r in rows})
    where = ", ".join(_label(k) + " " + (_value(v) if v else "(default)") for k, _, v in
                      (w.partition("=") for w in a.where))
    ax.set_title((a.title or os.path.basename(os.path.normpath(a.dir))) + (": " + where if where else "") +
                 "\nmean and 95 %% CI over %s seeds" % "/".join(runs), fontsize=10)
    name = "%s-vs-%s" % (a.y, a.x) + "".join("-" + w for w in a.where)
    save(fig, a.out or os.path.join(a.dir, _file_name(name) + ".png"))


def sl_names(dir, count):
    """The SLs' names from the first run's summary.json of the sweep, else SL0, SL1, ..."""
    import glob
    import json
    for path in sorted(glob.glob(os.path.join(dir, "runs", "*", "summary.json")))[:1]:
        try:
            with open(path) as f:
                sls = json.load(f).get("service_levels", [])
            if len(sls) == count:
                return [sl.get("name", "SL%d" % i) for i, sl in enumerate(sls)]
        except (OSError, ValueError):
            pass
    return ["SL%d" % i for i in range(count)]


def plot_sl(a, plt):
    path, rows, columns = read_aggregated(a.dir)
    prefix = "service_levels.%d."
    count = 0
    while (prefix % count) + "mean_latency_cycles.mean" in columns:
        count += 1
    if count == 0:
        fail("'%s' has no per-SL columns (service_levels.I.*): is it a sweep of `interflow packet`?" % path)
    keys = columns[:columns.index("runs")]
    x = a.x or "offered_flits_per_cycle_per_nic"
    x_column = x if x in keys else x + ".mean"
    if x_column not in columns:
        fail("--x '%s' is neither a swept key (%s) nor a metric of this sweep" % (x, ", ".join(keys)))
    rows = keep_where(rows, columns, a.where, path)
    xs_seen = [r[x_column] for r in rows]
    if len(set(xs_seen)) != len(xs_seen):
        fail("several configurations share each x value: choose one with --where KEY=VALUE")
    rows.sort(key=lambda r: number(r[x_column], path))
    xs = [number(r[x_column], path) for r in rows]
    names = sl_names(a.dir, count)
    fig, (lat, thr) = plt.subplots(1, 2, figsize=(11, 4.2))
    for i in range(count):
        for ax, metric in ((lat, "mean_latency_cycles"), (thr, "accepted_flits_per_cycle_per_nic")):
            col = (prefix % i) + metric
            ys = [number(r[col + ".mean"], path) for r in rows]
            half = [float(r[col + ".ci95"]) if r.get(col + ".ci95") else 0.0 for r in rows]
            ax.plot(xs, ys, marker="o", markersize=3, label=names[i])
            if any(h > 0 for h in half):
                ax.fill_between(xs, [y - h for y, h in zip(ys, half)], [y + h for y, h in zip(ys, half)], alpha=0.2)
    lat.set_ylabel("mean latency (cycles, generation to delivery)")
    thr.set_ylabel("accepted (flits/cycle/NIC)")
    for ax in (lat, thr):
        ax.set_xlabel(_label(x))
        ax.grid(alpha=0.3)
        if a.logx:
            ax.set_xscale("log")
    if a.logy:
        lat.set_yscale("log")
    lat.legend(fontsize=8)
    runs = sorted({r["runs"] for r in rows})
    fig.suptitle((a.title or os.path.basename(os.path.normpath(a.dir))) +
                 ": per service level, mean and 95 %% CI over %s seeds" % "/".join(runs), fontsize=10)
    save(fig, a.out or os.path.join(a.dir, "service-levels.png"))


def _value(text):
    """A key's value for a legend or a tick: the empty value (e.g. routing "") is the default."""
    return text if text != "" else "(default)"


def _file_name(text):
    """A figure's name from its metric, axis and filters: only letters, digits, '-', '_' and '.'."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text).replace(".", "_")


def _label(key):
    """An axis key as a reader wants it: tag:network -> network."""
    return key[4:] if key.startswith("tag:") else key


def _is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def ecdf(values):
    values = sorted(values)
    n = len(values)
    return values, [(i + 1) / n for i in range(n)]


def run_label(run):
    return os.path.basename(os.path.normpath(run))


def plot_cdf(a, plt):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for run in a.runs:
        path = os.path.join(run, "flows.csv")
        if not os.path.exists(path):
            fail("'%s' has no flows.csv; run the dynamic run with --flows-csv" % run)
        rows = read_csv(path)
        if rows and a.column not in rows[0]:
            fail("--column '%s' is not a column of %s (%s)" % (a.column, path, ", ".join(rows[0].keys())))
        values = [number(r[a.column], path) for r in rows if r.get("state", "delivered") == "delivered" and r[a.column] != ""]
        if not values:
            fail("'%s' has no delivered flow" % path)
        xs, ys = ecdf(values)
        ax.step(xs, ys, where="post", label=run_label(run))
    ax.set_xlabel(a.column)
    ax.set_ylabel("fraction of flows")
    if a.logx:
        ax.set_xscale("log")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(a.title or "flow %s CDF" % a.column)
    save(fig, a.out or os.path.join(a.runs[0], "cdf-%s.png" % a.column))


def plot_jobs(a, plt):
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    for run in a.runs:
        jobs = read_csv(os.path.join(run, "jobs.csv"))
        util = read_csv(os.path.join(run, "utilisation.csv"))
        done = [j for j in jobs if j["refused"] == "0"]
        if not done:
            fail("'%s' has no job that ran" % run)
        for ax, column in ((axes[0], "wait_s"), (axes[1], "bounded_slowdown")):
            xs, ys = ecdf([number(j[column], run) for j in done])
            ax.step(xs, ys, where="post", label=run_label(run))
        axes[2].step([number(u["start_s"], run) for u in util], [number(u["utilisation"], run) for u in util],
                     where="post", label=run_label(run))
    axes[0].set_xlabel("wait (s)")
    axes[1].set_xlabel("bounded slowdown")
    axes[1].set_xscale("log")
    for ax in axes[:2]:
        ax.set_ylabel("fraction of jobs")
    axes[2].set_xlabel("time (s)")
    axes[2].set_ylabel("utilisation (busy nodes / nodes)")
    axes[2].set_ylim(0, 1.05)
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(a.title or "jobs")
    save(fig, a.out or os.path.join(a.runs[0], "jobs.png"))


def plot_links(a, plt):
    import numpy as np
    rows = read_csv(os.path.join(a.run, "links.csv"))
    if not rows:
        fail("'%s' has no links" % os.path.join(a.run, "links.csv"))
    if not a.endpoints:
        rows = [r for r in rows if r.get("src_kind", "switch") == "switch" and r.get("dst_kind", "switch") == "switch"]
    vertices = sorted({int(r["src_vertex"]) for r in rows} | {int(r["dst_vertex"]) for r in rows})
    index = {v: i for i, v in enumerate(vertices)}
    n = len(vertices)
    block = max(1, math.ceil(n / a.max_cells))  # more vertices than cells: each cell is a block, its maximum
    size = math.ceil(n / block)
    grid = np.full((size, size), np.nan)
    for r in rows:
        i, j = index[int(r["src_vertex"])] // block, index[int(r["dst_vertex"])] // block
        u = number(r["utilisation"], "links.csv")
        grid[i, j] = u if math.isnan(grid[i, j]) else max(grid[i, j], u)
    fig, ax = plt.subplots(figsize=(6.4, 5.4))
    image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=max(1.0, np.nanmax(grid)), interpolation="nearest")
    fig.colorbar(image, ax=ax, label="link utilisation" + (" (max over a block)" if block > 1 else ""))
    label = "vertex" if block == 1 else "vertex block of %d" % block
    ax.set_xlabel("destination " + label)
    ax.set_ylabel("source " + label)
    ax.set_title(a.title or "%s: %d links" % (run_label(a.run), len(rows)))
    save(fig, a.out or os.path.join(a.run, "links.png"))


def main():
    p = argparse.ArgumentParser(prog="interflow plot")
    sub = p.add_subparsers(dest="kind", required=True)
    m = sub.add_parser("metric")
    m.add_argument("dir")
    m.add_argument("--y", required=True)
    m.add_argument("--x", required=True)
    m.add_argument("--series", default="")
    m.add_argument("--where", action="append", default=[])
    c = sub.add_parser("cdf")
    c.add_argument("runs", nargs="+")
    c.add_argument("--column", default="completion_s")
    j = sub.add_parser("jobs")
    j.add_argument("runs", nargs="+")
    l = sub.add_parser("links")
    l.add_argument("run")
    l.add_argument("--endpoints", action="store_true")
    l.add_argument("--max-cells", type=int, default=512)
    sl = sub.add_parser("sl")
    sl.add_argument("dir")
    sl.add_argument("--x", default="")
    sl.add_argument("--where", action="append", default=[])
    for s in (m, c, j, l, sl):
        s.add_argument("--out", default="")
        s.add_argument("--title", default="")
        s.add_argument("--logx", action="store_true")
        s.add_argument("--logy", action="store_true")
    a = p.parse_args()
    plt = load_pyplot()
    {"metric": plot_metric, "cdf": plot_cdf, "jobs": plot_jobs, "links": plot_links, "sl": plot_sl}[a.kind](a, plt)


if __name__ == "__main__":
    main()
