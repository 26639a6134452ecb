#!/bin/sh
# Runs every shipped scene under scenes/ at its own settings (no frame files) and prints the
# health warnings of each (docs/scenes.md, "health"). Exits 1 when a scene warns that is not
# built to abuse the solver (scenes/crazy_cube/, scenes/unfold/: their expected warnings are
# in docs/scenes.md), 2 when a scene fails to run.
#
#   tools/check-scenes.sh [ISOCHOR] [SCENE...]
#
# ISOCHOR: the isochor binary (default build/isochor); SCENE: scene files to check instead
# of all of them. Run from the repository root. The full set takes minutes (tissue_80k most).
set -u
bin=${1:-build/isochor}
[ $# -gt 0 ] && shift
if [ ! -x "$bin" ]; then
    echo "check-scenes: $bin is not an executable (build first, or pass the binary)" >&2
    exit 2
fi
if [ $# -eq 0 ]; then
    set -- $(find scenes -name '*.json' | LC_ALL=C sort)
fi
stats=$(mktemp) || exit 2
trap 'rm -f "$stats"' EXIT
status=0
for scene in "$@"; do
    case $scene in
    scenes/crazy_cube/* | scenes/unfold/*) abuse=" (abuses the solver: expected, see docs/scenes.md)" ;;
    *) abuse="" ;;
    esac
    rm -f "$stats"
    if ! "$bin" run "$scene" --no-output --quiet --stats "$stats" > /dev/null 2>&1 || [ ! -s "$stats" ]; then
        # A run that ends with a health stop or NaN still writes its stats.
        if [ ! -s "$stats" ]; then
            printf '%-48s FAILED (no stats)\n' "$scene"
            status=2
            continue
        fi
    fi
    warnings=$(sed -n 's/.*"health_warnings": *\([0-9]*\).*/\1/p' "$stats")
    inverted=$(sed -n 's/.*"health_max_inverted_tets": *\([0-9]*\).*/\1/p' "$stats")
    printf '%-48s %5s warnings (most inverted tets %s)%s\n' "$scene" "${warnings:-?}" "${inverted:-?}" \
        "$([ "${warnings:-0}" != 0 ] && echo "$abuse")"
    if [ "${warnings:-1}" != 0 ] && [ -z "$abuse" ] && [ $status -eq 0 ]; then status=1; fi
done
exit $status
