#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages isochor needs to build, test and run, when any is missing.
# Runs apt-get as root (directly, or through sudo when available).
set -euo pipefail

# libclang-rt-14-dev: clang's sanitizer and libFuzzer runtimes (`make sanitize`, `make fuzz-smoke`).
# g++ and pkg-config: the install tests build the examples (one is C++) as a user would;
# doxygen: the API reference and its check (tools/check-api-docs.sh); python3: the published
# figures' rerun and check (tools/results/run.py).
packages=(cmake make gcc g++ clang libclang-rt-14-dev libc6-dev pkg-config libcjson-dev zlib1g-dev
          libexpat1-dev libpng-dev tetgen doxygen python3)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "isochor: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  run=()
elif command -v sudo >/dev/null 2>&1; then
  run=(sudo)
else
  echo "isochor: need root (or sudo) to apt-get install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -qq
"${run[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
