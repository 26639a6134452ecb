#!/bin/sh
# Reruns the table of docs/scenes.md, "The default demo": the demo's ball, carved or mapped,
# at several substep counts (float, one worker), and prints one Markdown row per run: the
# largest |J - 1| in any step, at the end, and the solver time per frame.
#
#   tools/demo-table.sh [ISOCHOR]
#
# ISOCHOR: the isochor binary (default build/isochor). Run from the repository root on an
# otherwise idle machine (the times are wall clock); about a minute.
set -eu
bin=${1:-build/isochor}
[ -x "$bin" ] || { echo "demo-table: $bin is not an executable (build first)" >&2; exit 2; }
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
row() { # grid cells substeps
    if [ "$1" = mapped ]; then mesh="\"cells\": $2,\n        \"grid\": \"mapped\""; else mesh="\"cells\": $2,\n        \"split\": 6"; fi
    sed -e "s/\"substeps\": 80/\"substeps\": $3/" \
        -e "/\"cells\": 10,/{N;s/.*/        $mesh/}" scenes/demo.json > "$dir/scene.json"
    "$bin" run "$dir/scene.json" --no-output --quiet --workers 1 --stats "$dir/stats.json" > "$dir/summary"
    tets=$(sed -n 's/^mesh *[0-9]* vertices, \([0-9]*\) tets/\1/p' "$dir/summary")
    worst=$(sed -n 's/.*"health_max_tet_J_minus_1": *\([-0-9.e+]*\).*/\1/p' "$dir/stats.json")
    end=$(sed -n 's/^max |J-1| *\([0-9.e+-]*\) at the end.*/\1/p' "$dir/summary")
    ms=$(sed -n 's/^time *\([0-9.]*\) ms\/frame.*/\1/p' "$dir/summary")
    printf '| %s, %s cells, %s tets | %s | %.2g | %.2g | %s ms |\n' "$1" "$2" "$tets" "$3" "$worst" "$end" "$ms"
}
echo "| ball | substeps | largest \\|J − 1\\| in any step | at the end | time per frame |"
echo "|---|---|---|---|---|"
for s in 40 80 100; do row carved 14 "$s"; done
for s in 40 60 80; do row mapped 10 "$s"; done
row mapped 12 80
