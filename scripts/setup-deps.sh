#!/usr/bin/env bash
# Installs the Debian packages interflow needs, if any is missing (Debian 12; run as root).
# Sourced or run by quickstart.sh and run-tests.sh.
set -euo pipefail

packages=(cmake make g++ pkg-config libigraph-dev libtbb-dev libcli11-dev doctest-dev zlib1g-dev nlohmann-json3-dev
  libtomlplusplus-dev python3 python3-matplotlib parallel)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "interflow setup: installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "interflow setup: these packages are missing and this is not root: ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
