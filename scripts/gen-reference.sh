#!/usr/bin/env bash
# Regenerates the manual's reference pages (manual/reference/<kind>.md, one per kind that
# `interflow list --kinds` prints) from the plugin registry of an interflow binary. Run it after adding or changing a plugin or a parameter;
# the test "reference pages: ..." (tests/cli/reference_up_to_date.cpp) fails until you do.
# Usage: scripts/gen-reference.sh [INTERFLOW_BINARY]   (default: build/release/bin/interflow)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin=${1:-$root/build/release/bin/interflow}
if [ ! -x "$bin" ]; then
  echo "gen-reference.sh: '$bin' is not an executable interflow binary; build it or pass its path" >&2
  exit 2
fi
mkdir -p "$root/manual/reference"
for kind in $("$bin" list --kinds); do
  page="$root/manual/reference/$kind.md"
  "$bin" list "$kind" --markdown > "$page.tmp"
  mv "$page.tmp" "$page"
  echo "wrote $page"
done
