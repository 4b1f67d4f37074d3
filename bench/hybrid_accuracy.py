#!/usr/bin/env python3
"""Accuracy of the flow and hybrid transports against the packet transport.

Runs `interflow dynamic` for every (network, workload, transport) and prints
markdown tables of message completion time (completion_s in flows.csv):
mean, median and p99 per transport (and per application for the two-application
workload), with the signed relative error of flow and hybrid against packet.

Standard library only.  One command reproduces everything:

    python3 bench/hybrid_accuracy.py --bin build/release/bin/interflow

Options: --networks small,medium (or a subset), --workloads a,b,c,d,e, --ks 2,4,8,
--zooms SPEC/SPEC (further zooms), --vc-scheme, --hybrid-args, --fluid-args, --seed, --seeds S,S,...
(messages of every seed pooled), --switch, --mtu-bytes,
--work DIR (run folders are kept there), --per-flow (adds the mean absolute
per-message relative error where the flow lists line up row by row).
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time

# name -> (topology spec, routing spec or None, endpoints, flows per endpoint of
# the Poisson patterns)
NETWORKS = {
    "fattree64": ("fattree:k=4,n=3", None, 64, 20),
    "fattree512": ("fattree:k=8,n=3", None, 512, 10),
    "torus64": ("torus:dims=8x8", "dor", 64, 20),
    "dragonfly72": ("dragonfly:a=4,p=2,h=2,g=9", "dfmin", 72, 20),
}


def workloads(net, workdir):
    """(name, [cli args], app membership function or None) for a network."""
    topo, routing, n, fpe = NETWORKS[net]
    half = n // 2
    # two applications interleaved on the endpoints: app 0 on the even ids,
    # app 1 on the odd ids, so they share every leaf switch
    maps = []
    for app in (0, 1):
        path = os.path.join(workdir, f"{net}-map{app}.txt")
        with open(path, "w") as f:
            f.write("\n".join(str(2 * i + app) for i in range(half)) + "\n")
        maps.append(path)
    # a local incast: 11 senders in two blocks of endpoints (on a 72-node dragonfly, groups 1 and 2)
    # gather 256 KiB each to endpoint 0, three times, while every other endpoint sends 64 KiB
    # messages to random others at 10 % of its link rate (the victims)
    senders = list(range(n // 9, n // 9 + 6)) + list(range(2 * n // 9, 2 * n // 9 + 5))
    local = [0] + senders
    lpath = os.path.join(workdir, f"{net}-local-incast.txt")
    with open(lpath, "w") as f:
        f.write("\n".join(str(e) for e in local) + "\n")
    local_set = set(local)
    return [
        ("a uniform", ["-p", f"uniform:flows_per_endpoint={fpe}",
                       "--bytes", "100000", "--load", "0.5"], None),
        ("b hotspot", ["-p", f"hotspot:fraction=0.05,node=0,flows_per_endpoint={fpe}",
                       "--bytes", "100000", "--load", "0.3"], None),
        ("c incast", ["-p", "alltoone:root=0", "--bytes", "100000",
                      "--arrival", "zero"], None),
        ("d 2 apps", ["-a", f"collective:op=allreduce,bytes=8,iters=50,tasks={half},mapping={maps[0]}",
                      "-a", f"nn3d:bytes=131072,iters=5,tasks={half},mapping={maps[1]}"],
         lambda src: src % 2),
        ("e local incast", ["-a", f"collective:op=gather,alg=linear,bytes=262144,iters=3,tasks={len(local)},mapping={lpath}",
                            "-a", "uniform_bg:rate=0.1,bytes=65536,duration=0.0006"],
         lambda src: 0 if src in local_set else 1),
    ]


def transports(ks, zooms=()):
    out = [("flow", ["--transport", "flow"]),
           ("packet", ["--transport", "packet"])]
    for k in ks:
        out.append((f"hybrid hottest:k={k}",
                    ["--transport", "hybrid", "--zoom", f"hottest:k={k}"]))
    for z in zooms:
        out.append((f"hybrid {z}", ["--transport", "hybrid", "--zoom", z]))
    out.append(("hybrid all", ["--transport", "hybrid", "--zoom", "all"]))
    return out


def percentile(xs, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    s = sorted(xs)
    if not s:
        return math.nan
    pos = (len(s) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def stats(xs):
    if not xs:
        return {"n": 0, "mean": math.nan, "median": math.nan, "p99": math.nan}
    return {"n": len(xs), "mean": statistics.fmean(xs),
            "median": statistics.median(xs), "p99": percentile(xs, 0.99)}


def run_seeds(binary, net, wl_args, tr_args, args, outdir):
    """One run per seed of --seeds (or --seed alone), pooled: every seed's messages in one list,
    makespan and application runtimes averaged over the seeds."""
    seeds = [int(x) for x in args.seeds.split(",") if x] if args.seeds else [args.seed]
    if len(seeds) == 1:
        return run(binary, net, wl_args, tr_args, args, outdir, seeds[0])
    parts = [run(binary, net, wl_args, tr_args, args, f"{outdir}-s{sd}", sd) for sd in seeds]
    for p in parts:
        if "error" in p:
            return p
    summary = dict(parts[0]["summary"])
    summary["makespan_s"] = statistics.fmean(p["summary"].get("makespan_s", math.nan) for p in parts)
    if "applications" in summary:
        summary["applications"] = [
            {"runtime_s": statistics.fmean(p["summary"]["applications"][a]["runtime_s"] for p in parts)}
            for a in range(len(summary["applications"]))]
    return {"cmd": parts[0]["cmd"], "rows": [row for p in parts for row in p["rows"]], "summary": summary,
            "wall": sum(p["wall"] for p in parts)}


def run(binary, net, wl_args, tr_args, args, outdir, seed):
    topo, routing, _, _ = NETWORKS[net]
    cmd = [binary, "dynamic", "-t", topo, "-s", str(seed)]
    if routing:
        cmd += ["-r", routing]
    cmd += wl_args + tr_args
    if tr_args[1] != "flow":
        cmd += ["--switch", args.switch, "--mtu-bytes", str(args.mtu_bytes), "--vc-scheme", args.vc_scheme]
    if tr_args[1] == "hybrid":
        cmd += args.hybrid_args.split()
    if tr_args[1] != "packet":
        cmd += args.fluid_args.split()
    cmd += ["--out", outdir, "--flows-csv", "--no-progress", "-q"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        return {"cmd": cmd, "error": (p.stderr or p.stdout).strip()[-500:], "wall": wall}
    with open(os.path.join(outdir, "flows.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(outdir, "summary.json")) as f:
        summary = json.load(f)
    return {"cmd": cmd, "rows": rows, "summary": summary, "wall": wall}


def fmt_t(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "nan"
    return f"{x * 1e6:.2f}"


def rel(x, ref):
    if ref == 0 or math.isnan(ref) or math.isnan(x):
        return "n/a"
    return f"{100.0 * (x - ref) / ref:+.1f}%"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--bin", default=os.path.join(here, "..", "build", "release", "bin", "interflow"))
    ap.add_argument("--networks", default="fattree64,fattree512",
                    help="comma-separated, from: " + ",".join(NETWORKS))
    ap.add_argument("--workloads", default="a,b,c,d,e", help="subset of a,b,c,d,e")
    ap.add_argument("--ks", default="2,4,8", help="k of the hottest:k=K zooms")
    ap.add_argument("--zooms", default="", help="further --zoom specs, separated by '/'")
    ap.add_argument("--vc-scheme", default="auto", help="--vc-scheme of packet and hybrid runs")
    ap.add_argument("--hybrid-args", default="", help="further options of the hybrid runs (e.g. --zoom-held-exits)")
    ap.add_argument("--fluid-args", default="",
                    help="further options of the flow and hybrid runs, not the packet run (e.g. --nic-fifo)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", default="",
                    help="several seeds, comma-separated: every statistic over all their messages pooled")
    ap.add_argument("--switch", default="vct:vcs=4,buffer-flits=64")
    ap.add_argument("--mtu-bytes", type=int, default=1024)
    ap.add_argument("--work", default="/tmp/hybrid_accuracy_runs")
    ap.add_argument("--per-flow", action="store_true",
                    help="also the mean absolute per-message relative error vs packet")
    args = ap.parse_args()

    os.makedirs(args.work, exist_ok=True)
    ks = [int(k) for k in args.ks.split(",") if k]
    zooms = [z for z in args.zooms.split("/") if z]
    wanted = set(args.workloads.split(","))
    problems = []
    compact = []  # (net, workload, group, transport, err mean, err median, err p99)
    print(f"interflow accuracy vs packet; seed(s) {args.seeds or args.seed}, switch {args.switch}, "
          f"mtu {args.mtu_bytes} B. Times in us; errors are (X - packet) / packet.\n")
    for net in args.networks.split(","):
        for wname, wargs, member in workloads(net, args.work):
            if wname.split()[0] not in wanted:
                continue
            results = {}
            for tname, targs in transports(ks, zooms):
                outdir = os.path.join(args.work, f"{net}-{wname.split()[0]}-{tname.replace(' ', '_').replace(':', '').replace('=', '')}")
                r = run_seeds(args.bin, net, wargs, targs, args, outdir)
                results[tname] = r
                print(f"  ran {net} {wname} {tname}: {r['wall']:.2f} s", file=sys.stderr)
            topo, routing, _, _ = NETWORKS[net]
            print(f"### {net} ({topo}{', ' + routing if routing else ''}) — workload {wname}\n")
            print("`" + " ".join(os.path.basename(c) if i == 0 else c
                                 for i, c in enumerate(results["packet"]["cmd"])) + "`\n")
            groups = [("all", lambda row: True)]
            if member is not None:
                groups += [(f"app {a}", (lambda a: lambda row: member(int(row["src"])) == a)(a))
                           for a in (0, 1)]
            ref = results.get("packet")
            hdr = ("| transport | group | n | mean | median | p99 | err mean | err median | err p99 |"
                   + (" per-msg MAE |" if args.per_flow else "")
                   + " makespan/runtime | err | wall s | zoom routers/coupled msgs |")
            print(hdr)
            print("|" + "---|" * (hdr.count("|") - 1))
            for tname, r in results.items():
                if "error" in r:
                    print(f"| {tname} | — | ERROR: {r['error'].splitlines()[-1] if r['error'] else '?'} |")
                    problems.append(f"{net} {wname} {tname}: {r['error']}")
                    continue
                s = r["summary"]
                bad = [row for row in r["rows"] if row["state"] != "delivered"]
                nonfinite = [row for row in r["rows"]
                             if not math.isfinite(float(row["completion_s"]))]
                if bad or nonfinite:
                    problems.append(f"{net} {wname} {tname}: {len(bad)} not delivered, "
                                    f"{len(nonfinite)} non-finite completion_s")
                for gname, pred in groups:
                    xs = [float(row["completion_s"]) for row in r["rows"]
                          if pred(row) and row["state"] == "delivered"
                          and math.isfinite(float(row["completion_s"]))]
                    st = stats(xs)
                    cells = [tname, gname, str(st["n"]), fmt_t(st["mean"]),
                             fmt_t(st["median"]), fmt_t(st["p99"])]
                    if ref and "error" not in ref and tname != "packet":
                        rxs = [float(row["completion_s"]) for row in ref["rows"]
                               if pred(row) and row["state"] == "delivered"
                               and math.isfinite(float(row["completion_s"]))]
                        rs = stats(rxs)
                        cells += [rel(st[m], rs[m]) for m in ("mean", "median", "p99")]
                        compact.append((net, wname, gname, tname, cells[-3], cells[-2], cells[-1]))
                    else:
                        cells += ["", "", ""]
                    if args.per_flow:
                        mae = ""
                        if ref and "error" not in ref and tname != "packet":
                            a, b = r["rows"], ref["rows"]
                            if len(a) == len(b) and all(
                                    x["src"] == y["src"] and x["dst"] == y["dst"]
                                    and x["bytes"] == y["bytes"] for x, y in zip(a, b)):
                                errs = [abs(float(x["completion_s"]) - float(y["completion_s"]))
                                        / float(y["completion_s"])
                                        for x, y in zip(a, b) if pred(x)
                                        and float(y["completion_s"]) > 0]
                                mae = f"{100 * statistics.fmean(errs):.1f}%" if errs else "n/a"
                            else:
                                mae = "rows differ"
                        cells.append(mae)
                    # makespan for the whole run, runtime per application
                    if gname == "all":
                        span = s.get("makespan_s", math.nan)
                        rspan = ref["summary"].get("makespan_s", math.nan) if ref and "error" not in ref else math.nan
                    else:
                        a = int(gname.split()[1])
                        span = s["applications"][a]["runtime_s"]
                        rspan = ref["summary"]["applications"][a]["runtime_s"] if ref and "error" not in ref else math.nan
                    cells += [fmt_t(span), rel(span, rspan) if tname != "packet" else ""]
                    z = s.get("zoom")
                    cells += [f"{r['wall']:.2f}" if gname == "all" else "",
                              f"{z['routers']}/{z['coupled_messages']}" if z and gname == "all" else ""]
                    print("| " + " | ".join(cells) + " |")
            print()
    if compact:
        print("### Summary: relative error of completion time vs packet (mean / median / p99)\n")
        tnames = [t for t, _ in transports(ks, zooms) if t != "packet"]
        print("| network | workload | group | " + " | ".join(tnames) + " |")
        print("|" + "---|" * (3 + len(tnames)))
        keys = []
        for c in compact:
            if c[:3] not in keys:
                keys.append(c[:3])
        for key in keys:
            cells = []
            for t in tnames:
                hit = [c for c in compact if c[:3] == key and c[3] == t]
                cells.append(" / ".join(hit[0][4:]) if hit else "")
            print("| " + " | ".join(key) + " | " + " | ".join(cells) + " |")
        print()
    if problems:  # a failed run or an undelivered message: listed, and the exit status says so
        print("### Problems\n")
        for p in problems:
            print(f"- {p}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
