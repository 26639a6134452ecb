#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzz campaign: runs each fuzz_<target> of a build made with -DISOCHOR_FUZZ=ON for a fixed
# time, one target at a time, from a copy of its saved corpus (tests/data/fuzz/<target>/, with
# its crashers/; the saved corpus is not changed), with -timeout=10 -rss_limit_mb=2048
# -print_final_stats=1, and prints one Markdown table row per target: wall-clock seconds,
# executions, executions per second, the final `cov:` figure of libFuzzer's log, the corpus
# libFuzzer holds at the end (`corp:` units and bytes) and the findings (crash, leak, timeout
# or out-of-memory reproducers; libFuzzer stops a target at its first). Exits 1 when a target
# found something, 2 on a usage error or a missing fuzzer.
#
#   tools/fuzz-campaign.sh BUILD_DIR SECONDS_PER_TARGET [TARGET...]
#
# BUILD_DIR: the fuzz build (docs/reliability.md, "Building and running"); TARGET: targets to
# run instead of all of them (the folders of tests/data/fuzz/). Reproducers are kept in
# BUILD_DIR/fuzz-artifacts/<target>/ and each run's log in BUILD_DIR/fuzz-logs/<target>.log.
# Run from anywhere; it takes SECONDS_PER_TARGET times the number of targets, plus loading.
set -uo pipefail
usage="usage: tools/fuzz-campaign.sh BUILD_DIR SECONDS_PER_TARGET [TARGET...]"
build=${1:?$usage}
seconds=${2:?$usage}
shift 2
case $seconds in
'' | *[!0-9]*) echo "fuzz-campaign: SECONDS_PER_TARGET must be a whole number" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
    for corpus in "$root"/tests/data/fuzz/*/; do set -- "$@" "$(basename "$corpus")"; done
fi
for target in "$@"; do
    if [ ! -d "$root/tests/data/fuzz/$target" ]; then
        echo "fuzz-campaign: no corpus tests/data/fuzz/$target/" >&2
        exit 2
    fi
    if [ ! -x "$build/fuzz_$target" ]; then
        echo "fuzz-campaign: $build/fuzz_$target is missing (build with -DISOCHOR_FUZZ=ON)" >&2
        exit 2
    fi
done
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/fuzz-logs"
echo "| target | seconds | executions | exec/s | cov | corpus at the end | crashes |"
echo "|--------|--------:|-----------:|-------:|----:|-------------------|---------|"
status=0
for target in "$@"; do
    mkdir -p "$work/$target" "$work/artifacts/$target"
    cp -r "$root/tests/data/fuzz/$target/." "$work/$target/"
    log="$build/fuzz-logs/$target.log"
    start=$(date +%s)
    "$build/fuzz_$target" "$work/$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/artifacts/$target/" \
        > "$log" 2>&1
    rc=$?
    took=$(($(date +%s) - start))
    runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
    cov=$(grep -o ' cov: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$')
    corp=$(grep -o ' corp: [0-9]*/[0-9]*[A-Za-z]*' "$log" | tail -n 1 | sed 's/ corp: //')
    found=""
    count=0
    for crash in "$work/artifacts/$target"/*; do
        [ -e "$crash" ] || continue
        keep="$build/fuzz-artifacts/$target"
        mkdir -p "$keep"
        cp "$crash" "$keep/"
        count=$((count + 1))
        found="$found${found:+, }$(basename "$crash")"
        echo "fuzz-campaign: $target: reproducer kept in $keep/$(basename "$crash")" >&2
    done
    if [ "$rc" -ne 0 ] && [ "$count" -eq 0 ]; then
        found="exit status $rc, no reproducer (see $log)"
        count=1
    fi
    if [ "$count" -eq 0 ]; then
        found="none"
    else
        status=1
        found="$count: $found"
    fi
    echo "| $target | $took | ${runs:-?} | ${rate:-?} | ${cov:-?} | ${corp:-?} | $found |"
    rm -rf "${work:?}/$target"
done
exit $status
