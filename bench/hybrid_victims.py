#!/usr/bin/env python3
"""Where the dragonfly incast's victims are decided (bench/RESULTS.md, "NIC order, and the victims").

Workload (e) of bench/hybrid_accuracy.py on the 72-node dragonfly, seed 1: a local incast among
uniform background traffic. The packet run's messages are replayed open loop (a flow list with the
packet run's start times), and the background messages from the NICs of the zoomed routers (the
victims that wait behind the incast in their NIC) are compared between:

  packet, every message          packet, only the messages whose route touches the zoom
  packet, those and two far messages (a subset search found them; both to endpoint 60, in group 7)
  hybrid, every message          hybrid, only the messages whose route touches the zoom
  hybrid, every message, with group 7's four routers zoomed as well

The zoom is the one `congestion-tree:links=2` chooses in the closed-loop hybrid run. A route
"touches" the zoom when it passes a zoomed router (routes are read from one-message runs).

Standard library only:

    python3 bench/hybrid_victims.py --bin build/release/bin/interflow [--work DIR]
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hybrid_accuracy  # noqa: E402  (the workloads and networks of the accuracy study)

TOPO = "dragonfly:a=4,p=2,h=2,g=9"
SW = ["--switch", "vct:vcs=4,buffer-flits=64", "--mtu-bytes", "1024", "--vc-scheme", "hops"]
ROUTERS, PER_ROUTER, FIRST_ROUTER_VERTEX = 36, 2, 72


def interflow(binary, args):
    p = subprocess.run([binary, "dynamic", "-t", TOPO, "-r", "dfmin", "--no-progress", "-q"] + args,
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"interflow failed ({p.returncode}): {' '.join(args)}\n{p.stderr}")


def flows(folder):
    with open(os.path.join(folder, "flows.csv")) as f:
        return list(csv.DictReader(f))


def router_routes(binary, work):
    """The routers on the route between every pair of routers (one message between their first endpoints)."""
    routes = {}
    msg = os.path.join(work, "one.csv")
    for a in range(ROUTERS):
        for b in range(ROUTERS):
            if a == b:
                routes[a, b] = {FIRST_ROUTER_VERTEX + a}
                continue
            with open(msg, "w") as f:
                f.write(f"{PER_ROUTER * a},{PER_ROUTER * b},1000,0\n")
            out = os.path.join(work, "one")
            interflow(binary, ["-f", msg, "--out", out])
            with open(os.path.join(out, "links.csv")) as f:
                routes[a, b] = {int(v) for r in csv.DictReader(f) if float(r["bytes"]) > 0
                                for v in (r["src_vertex"], r["dst_vertex"]) if int(v) >= FIRST_ROUTER_VERTEX}
    return routes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/release/bin/interflow")
    ap.add_argument("--work", default="", help="folder for the runs (default: a temporary one)")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="hybrid-victims-")
    os.makedirs(work, exist_ok=True)
    wl = dict((name, a) for name, a, _ in hybrid_accuracy.workloads("dragonfly72", work))["e local incast"]
    closed = ["-s", "1"] + wl + SW + ["--flows-csv"]
    interflow(args.bin, closed + ["--transport", "packet", "--out", os.path.join(work, "packet")])
    interflow(args.bin, closed + ["--transport", "hybrid", "--zoom", "congestion-tree:links=2",
                                  "--out", os.path.join(work, "hybrid")])
    with open(os.path.join(work, "hybrid", "zoom.csv")) as f:
        zoom = {int(r["vertex"]) for r in csv.DictReader(f)}
    routes = router_routes(args.bin, work)
    msgs = flows(os.path.join(work, "packet"))
    incast_bytes = "262144"

    def router(e):
        return int(e) // PER_ROUTER

    def touches(m):
        return bool(routes[router(m["src"]), router(m["dst"])] & zoom)

    def victim(m):  # a background message from a zoomed router's NIC
        return m["bytes"] != incast_bytes and FIRST_ROUTER_VERTEX + router(m["src"]) in zoom

    def replay(name, keep, transport, ids=()):
        sel = [m for m in msgs if keep(m)]
        path = os.path.join(work, name + ".csv")
        with open(path, "w") as f:
            for m in sel:
                f.write(f'{m["src"]},{m["dst"]},{m["bytes"]},{m["start_s"]},{0 if m["bytes"] == incast_bytes else 1}\n')
        extra = ["--zoom", "ids:ids=" + ";".join(str(v) for v in sorted(ids))] if ids else []
        out = os.path.join(work, name)
        interflow(args.bin, ["-f", path, "--transport", transport, "--flows-csv", "--out", out] + SW + extra)
        done = flows(out)
        return statistics.fmean(float(r["completion_s"]) * 1e6 for r, m in zip(done, sel) if victim(m))

    group7 = {FIRST_ROUTER_VERTEX + r for r in range(28, 32)}
    rows = [
        ("packet, every message", replay("p_all", lambda m: True, "packet")),
        ("packet, messages touching the zoom", replay("p_touch", touches, "packet")),
        ("packet, messages touching the zoom and the two to endpoint 60 at 262 µs",
         replay("p_two", lambda m: touches(m) or (m["dst"] == "60" and abs(float(m["start_s"]) - 262.144e-6) < 1e-9),
                "packet")),
        ("hybrid, every message", replay("h_all", lambda m: True, "hybrid", zoom)),
        ("hybrid, messages touching the zoom", replay("h_touch", touches, "hybrid", zoom)),
        ("hybrid, every message, group 7 zoomed too", replay("h_g7", lambda m: True, "hybrid", zoom | group7)),
    ]
    print(f"zoom (congestion-tree:links=2, seed 1): routers {sorted(zoom)}")
    print(f"victims: {sum(victim(m) for m in msgs)} background messages from the zoomed routers' NICs")
    print("| replay | victims' mean completion (µs) |")
    print("|---|---|")
    for name, v in rows:
        print(f"| {name} | {v:.1f} |")


if __name__ == "__main__":
    main()
