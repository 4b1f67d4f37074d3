#!/usr/bin/env bash
# Installs missing Debian packages, builds everything with AddressSanitizer + UndefinedBehaviorSanitizer
# (warnings are errors) and runs the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")"
./scripts/setup-deps.sh
jobs=$(nproc)
cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DINTERFLOW_SANITIZE=ON -DINTERFLOW_WERROR=ON >/dev/null
cmake --build build/asan -j"$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build/asan --output-on-failure -j"$jobs" --timeout 600
