#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the API reference of the public headers (include/isochor/*.h) with Doxygen and
# docs/Doxyfile, and fails when Doxygen warns: an undocumented function, struct, field, enum,
# typedef or macro, or a malformed comment. Doxygen 1.9.4 (Debian 12) does not warn about
# undocumented enum values, so those are checked here from its XML output (the icResult codes
# are documented by their IC_RESULT_TABLE row and left out of that check).
#
#   tools/check-api-docs.sh [DIR]
#
# DIR: where the reference goes (default build/api under the repository root); the pages
# are DIR/html/index.html. Runs from any directory. Needs doxygen (tools/install-deps.sh).
# Exits 1 with the warnings printed when there are any, 2 when doxygen is missing.
set -euo pipefail

out=${1:-build/api}
# A DIR given relative to the caller's directory stays relative to it.
case $out in
/*) ;;
*) [ $# -gt 0 ] && out=$PWD/$out ;;
esac
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v doxygen >/dev/null 2>&1; then
    echo "check-api-docs: doxygen is not installed (tools/install-deps.sh installs it)" >&2
    exit 2
fi

mkdir -p "$out"
rm -rf "$out/html" "$out/xml"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

status=0
(
    cat docs/Doxyfile
    echo "OUTPUT_DIRECTORY=\"$out\""
    echo "GENERATE_XML=YES"
    echo "XML_PROGRAMLISTING=NO"
) | doxygen - >/dev/null 2>"$log" || status=$?

# Enum values without a comment (brief or detailed): Doxygen's XML gives each <enumvalue>
# a <para> only when it is documented.
awk '
FNR == 1 { file = FILENAME; sub(/.*\//, "", file); sub(/_8h\.xml$/, ".h", file); inEnum = 0; inValue = 0 }
/<memberdef kind="enum"/ { inEnum = 1; enumName = ""; next }
inEnum && !inValue && enumName == "" && /<name>/ { enumName = $0; gsub(/.*<name>|<\/name>.*/, "", enumName); next }
inEnum && /<enumvalue / { inValue = 1; value = ""; documented = 0; next }
inValue && value == "" && /<name>/ { value = $0; gsub(/.*<name>|<\/name>.*/, "", value); next }
inValue && /<para>/ { documented = 1 }
inValue && /<\/enumvalue>/ {
    if (!documented && enumName != "icResult")
        printf "include/isochor/%s: warning: enum value %s of %s is not documented.\n", file, value, enumName
    inValue = 0
    next
}
inEnum && /<\/memberdef>/ { inEnum = 0 }
' "$out"/xml/*_8h.xml >>"$log" 2>&1 || status=1

if [ "$status" -ne 0 ] || [ -s "$log" ]; then
    cat "$log" >&2
    count=$(grep -c . "$log" || true)
    echo "check-api-docs: $count warning line(s); document what they name (docs/Doxyfile)" >&2
    exit 1
fi
echo "ok: API reference in ${1:-build/api}/html/index.html"
