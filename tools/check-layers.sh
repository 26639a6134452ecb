#!/bin/sh
# SPDX-License-Identifier: MIT
# The include rules of the source tree (docs/architecture.md, "Layers"): each folder of src/
# includes only the folders listed for it, so the lower layers know nothing of the world and
# no solver includes another. Prints every include that breaks a rule with its file and line
# and exits 1; exits 0 when all hold.
# usage: tools/check-layers.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root/src"

# The folders each folder may include (besides itself and the public isochor/ headers).
allowed() {
    case $1 in
    core) echo "" ;;
    math) echo "core" ;;
    mesh) echo "core math" ;;
    fem) echo "core math mesh" ;;
    collision) echo "core math mesh world" ;;
    skin) echo "core math mesh collision world" ;;
    rod) echo "core math" ;;
    world) echo "core math mesh" ;;
    xpbd | newton | incompressible) echo "core math mesh fem collision world" ;;
    formats) echo "core" ;;
    scene) echo "core formats" ;;
    render) echo "core" ;;
    *) echo "?" ;;
    esac
}

status=0
broken=$(for dir in */; do
    dir=${dir%/}
    ok=$(allowed "$dir")
    if [ "$ok" = "?" ]; then
        echo "src/$dir: a folder without include rules (add it to tools/check-layers.sh)"
        continue
    fi
    # file:line:#include "folder/..."
    grep -n '^#include "[a-z_]*/' "$dir"/*.c "$dir"/*.h 2>/dev/null |
        while IFS= read -r line; do
            target=$(printf '%s\n' "$line" | sed 's/.*#include "\([a-z_]*\)\/.*/\1/')
            [ "$target" = "$dir" ] && continue
            [ "$target" = "isochor" ] && continue
            case " $ok " in *" $target "*) continue ;; esac
            echo "src/$line: $dir may not include $target/"
        done
done)
if [ -n "$broken" ]; then
    printf '%s\n' "$broken"
    status=1
fi
exit $status
