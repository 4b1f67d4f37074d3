#!/usr/bin/env python3
"""Checks that every library includes only headers of its own layer or of the layers below it.

The table is the one of manual/design.md "Folders and libraries": core at the bottom; topologies,
routing and workloads on the core; the engines (engine/<name>/) on the core and on the engines they
name; the scheduler and storage on the engines and workloads; the CLI and the tests on everything.
Prints every include that points up (file:line, the header, what the folder may include) and exits 1
if there is one, 0 otherwise.

Usage: scripts/check-layers.py [ROOT]   (ROOT: the repository, default: this script's parent)
       scripts/check-layers.py --self-test  (plants upward includes in a scratch tree: each must be caught)"""
import os
import re
import sys
import tempfile

# folder -> folders whose headers it may include (its own always allowed)
ALLOWED = {
    "core": [],
    "topologies": ["core"],
    "routing": ["core", "topologies"],
    "workloads": ["core"],
    "engine/maxmin": ["core"],
    "engine/flow": ["core", "engine/maxmin"],
    "engine/drivers": ["core"],
    "engine/packet": ["core"],
    "engine/hybrid": ["core", "engine/maxmin", "engine/flow", "engine/packet", "engine/drivers"],
    "scheduler": ["core", "workloads", "engine/drivers"],
    "storage": ["core", "workloads", "engine/drivers", "scheduler"],
    "experiments": ["core"],
}
UNCHECKED = {"cli", "tests", "bench", "examples", "build"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(path):
    """The layer a repository-relative path belongs to (the longest folder of the table it is in)."""
    best = None
    for folder in ALLOWED:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    if best is None and path.startswith("engine/"):
        return "engine/?"  # a file directly in engine/ or an engine folder not in the table
    return best


def problems_in(root):
    problems = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        top = rel_dir.split(os.sep)[0]
        if rel_dir != "." and (top in UNCHECKED or top.startswith(".")):
            dirnames[:] = []
            continue
        for name in sorted(filenames):
            if not name.endswith((".hpp", ".cpp", ".h")):
                continue
            rel = os.path.normpath(os.path.join(rel_dir, name)).replace(os.sep, "/")
            layer = layer_of(rel)
            if layer is None:
                continue
            if layer == "engine/?":
                problems.append(f"{rel}: not in a known layer; engine sources live in engine/<name>/ "
                                f"(add the folder to scripts/check-layers.py and manual/design.md)")
                continue
            allowed = [layer] + ALLOWED[layer]
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, start=1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    header = m.group(1)
                    if "/" not in header:
                        continue  # a header of the same folder or a generated one
                    target = layer_of(header)
                    if header.startswith("interflow/"):
                        continue  # generated (version.hpp)
                    if target is None and header.split("/")[0] in UNCHECKED:
                        target = header.split("/")[0]
                    if target not in allowed:
                        problems.append(f"{rel}:{number}: includes \"{header}\" of layer '{target}'; "
                                        f"'{layer}' may include only {', '.join(allowed)}")
    return problems


def self_test():
    """A clean scratch tree passes; each planted upward include is reported."""
    planted = [
        ("core/a.hpp", "engine/flow/flow_transport.hpp"),
        ("workloads/b.cpp", "engine/drivers/driver.hpp"),
        ("engine/drivers/c.cpp", "engine/flow/flow_transport.hpp"),
        ("engine/maxmin/d.hpp", "topologies/torus.hpp"),
        ("topologies/e.cpp", "routing/dor.hpp"),
        ("scheduler/f.cpp", "cli/setup.hpp"),
        ("engine/g.cpp", "core/network.hpp"),
    ]
    with tempfile.TemporaryDirectory() as root:
        def write(rel, include):
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(f'#include "{include}"\n')
        write("routing/ok.cpp", "topologies/torus.hpp")
        write("engine/flow/ok.cpp", "engine/maxmin/maxmin.hpp")
        write("cli/ok.cpp", "engine/flow/flow_transport.hpp")
        if problems_in(root):
            print("self-test: a clean tree was reported:", problems_in(root))
            return 1
        for rel, include in planted:
            write(rel, include)
        found = problems_in(root)
        missed = [rel for rel, _ in planted if not any(p.startswith(rel) for p in found)]
        if missed:
            print("self-test: upward includes not caught in", ", ".join(missed))
            return 1
    print(f"check-layers self-test: all {len(planted)} planted upward includes caught")
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        return self_test()
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems = problems_in(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check-layers: {len(problems)} include(s) against the layering (manual/design.md)")
        return 1
    print("check-layers: every include follows the layering")
    return 0


if __name__ == "__main__":
    sys.exit(main())
