#!/usr/bin/env bash
# interflow quick start: installs missing Debian packages, builds (Release) and runs the default
# study (examples/experiments/quickstart.toml: 4 networks of 4096 endpoints x 3 traffic patterns x 3
# seeds) in three commands — sweep, collect, plot — printing a table of the results and writing
# results/quickstart/{collected.csv,aggregated.csv,throughput_nonrestricted_normalised-vs-pattern.png}
# plus one folder per run.
set -euo pipefail
cd "$(dirname "$0")"
./scripts/setup-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DINTERFLOW_TESTS=OFF >/dev/null
cmake --build build/release -j"$(nproc)" --target interflow
bin=build/release/bin/interflow
"$bin" sweep examples/experiments/quickstart.toml
"$bin" collect results/quickstart --show throughput.nonrestricted_normalised,throughput.restricted_normalised,jain_fairness
"$bin" plot metric results/quickstart --y throughput.nonrestricted_normalised --x pattern --series tag:network
