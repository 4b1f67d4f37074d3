#!/usr/bin/env bash
# interflow quick start: installs missing Debian packages, builds (Release) and runs the default
# static study (4 topologies of 4096 endpoints x 3 traffic patterns), printing a comparison table
# and writing results/quickstart/{study.csv,study.json,throughput.png} plus one folder per run.
set -euo pipefail
cd "$(dirname "$0")"
./scripts/setup-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DINTERFLOW_TESTS=OFF >/dev/null
cmake --build build/release -j"$(nproc)" --target interflow
./examples/quickstart-study.sh build/release/bin/interflow results/quickstart
