#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzz smoke run: every fuzz_<target> of a build made with -DISOCHOR_FUZZ=ON runs for a few
# seconds from its saved corpus (tests/data/fuzz/<target>/, copied: new inputs are not kept).
# usage: tests/fuzz/smoke.sh BUILD_DIR [SECONDS_PER_TARGET]
set -euo pipefail
build=${1:?usage: smoke.sh BUILD_DIR [SECONDS]}
seconds=${2:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
found=0
failed=0
for corpus in "$root"/tests/data/fuzz/*/; do
  target=$(basename "$corpus")
  exe="$build/fuzz_$target"
  if [ ! -x "$exe" ]; then
    echo "fuzz smoke: $exe is missing (build with -DISOCHOR_FUZZ=ON)" >&2
    exit 1
  fi
  found=$((found + 1))
  mkdir -p "$work/$target" "$work/artifacts/$target"
  cp -r "$corpus". "$work/$target/"
  if "$exe" "$work/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$work/artifacts/$target/" \
       > "$work/$target.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$target.log" | grep -o '[0-9]*$' || echo "?")
    echo "fuzz smoke: $target ok ($runs executions in ${seconds} s)"
  else
    failed=$((failed + 1))
    echo "fuzz smoke: $target FAILED; the log's end:" >&2
    tail -n 40 "$work/$target.log" >&2
    for crash in "$work/artifacts/$target"/*; do
      [ -e "$crash" ] || continue
      keep="$build/fuzz-artifacts/$target"
      mkdir -p "$keep"
      cp "$crash" "$keep/"
      echo "fuzz smoke: reproducer kept in $keep/$(basename "$crash")" >&2
    done
  fi
done
echo "fuzz smoke: $found targets, $failed failed"
[ "$failed" -eq 0 ]
