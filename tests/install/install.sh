#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs isochor into a scratch prefix and builds every example against the installed tree
# with pkg-config and with find_package, and in a project that add_subdirectory()s isochor,
# then runs each (exit 0 and an "ok:" line).
#   install.sh static SOURCE_DIR BUILD_DIR   the build under test, installed as it is; a
#                                            static add_subdirectory build
#   install.sh shared SOURCE_DIR             a project that add_subdirectory()s isochor with
#                                            BUILD_SHARED_LIBS=ON: builds, runs the examples,
#                                            installs, checks the exported symbols against
#                                            the headers and loads the libraries with dlopen
# The add_subdirectory builds are not optimised: they check what is built and linked.
set -euo pipefail
mode=$1
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
jobs=${JOBS:-2}

examples_c="drop_on_ground pinned_bar_grip each_solver rod_bundle write_frames"

# run_examples DIR: every example binary in DIR runs in a scratch folder and prints "ok:".
run_examples() {
  local dir=$1 name output
  mkdir -p "$work/run"
  for name in $examples_c all_headers; do
    [ -x "$dir/$name" ] || { echo "missing example $dir/$name" >&2; exit 1; }
    output=$(cd "$work/run" && "$dir/$name") || { echo "$dir/$name failed:" >&2; echo "$output" >&2; exit 1; }
    grep -q '^ok:' <<<"$output" || { echo "$dir/$name printed no ok: line" >&2; echo "$output" >&2; exit 1; }
    echo "  $name: $(grep '^ok:' <<<"$output")"
  done
}

# against_prefix: the examples built with pkg-config (by hand, one cc line each) and with
# find_package (examples/CMakeLists.txt as a project of its own), then run.
against_prefix() {
  local libdir pc
  pc=$(dirname "$(find "$prefix" -name 'isochor.pc' | head -n 1)")
  libdir=$(dirname "$pc")
  export PKG_CONFIG_PATH="$pc"
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "pkg-config ($pc):"
  mkdir -p "$work/pkgconfig"
  for name in pinned_bar_grip each_solver rod_bundle; do
    cc -std=c17 -Wall -Wextra -Werror -O2 "$src/examples/$name.c" \
      $(pkg-config --cflags --libs isochor) -o "$work/pkgconfig/$name"
  done
  for name in drop_on_ground write_frames; do
    cc -std=c17 -Wall -Wextra -Werror -O2 "$src/examples/$name.c" \
      $(pkg-config --cflags --libs isochor_formats) -o "$work/pkgconfig/$name"
  done
  c++ -std=c++17 -Wall -Wextra -Werror -pedantic -O2 "$src/examples/cpp/all_headers.cpp" \
    $(pkg-config --cflags --libs isochor_scene isochor_render) -o "$work/pkgconfig/all_headers"
  run_examples "$work/pkgconfig"

  echo "find_package:"
  cmake -S "$src/examples" -B "$work/find_package" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >/dev/null
  cmake --build "$work/find_package" -j "$jobs" >/dev/null
  run_examples "$work/find_package"
}

# superproject SHARED: isochor embedded with add_subdirectory (only its libraries get built),
# the examples built against its targets and run.
superproject() {
  echo "add_subdirectory, BUILD_SHARED_LIBS=$1:"
  cmake -S "$src/tests/install/superproject" -B "$work/super" -DISOCHOR_SOURCE_DIR="$src" \
    -DBUILD_SHARED_LIBS="$1" -DISOCHOR_INSTALL=ON >/dev/null
  cmake --build "$work/super" -j "$jobs" >/dev/null
  for target in isochor_tests isochor bench_xpbd; do
    [ ! -e "$work/super/isochor/$target" ] || { echo "the embedded build built $target" >&2; exit 1; }
  done
  run_examples "$work/super/examples"
}

case "$mode" in
static)
  cmake --install "$(cd "$3" && pwd)" --prefix "$prefix" >/dev/null
  against_prefix
  superproject OFF
  ;;
shared)
  superproject ON
  cmake --install "$work/super" --prefix "$prefix" >/dev/null

  # What the shared libraries export is what the public headers declare: no internal name,
  # no missing one. Declarations are the lines of include/isochor/*.h that begin with a type
  # and name an ic function (typedefs and static inline helpers are not symbols).
  grep -h -E '^[A-Za-z].*\bic[A-Z][A-Za-z0-9_]*\(' "$src"/include/isochor/*.h | grep -v -E '^(typedef|static)' |
    grep -o -E '\bic[A-Z][A-Za-z0-9_]*\(' | tr -d '(' | sort -u >"$work/declared"
  libs=$(find "$prefix" -name 'libisochor*.so' | sort)
  [ "$(wc -w <<<"$libs")" -eq 4 ] || { echo "expected 4 shared libraries, found: $libs" >&2; exit 1; }
  nm -D --defined-only $libs | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u >"$work/exported"
  extra=$(comm -13 "$work/declared" "$work/exported")
  missing=$(comm -23 "$work/declared" "$work/exported")
  if [ -n "$extra" ] || [ -n "$missing" ]; then
    echo "exported but not declared in include/isochor: ${extra:-none}" >&2
    echo "declared but not exported: ${missing:-none}" >&2
    exit 1
  fi
  echo "symbols: $(wc -l <"$work/exported") exported, each declared in a public header"
  for lib in $libs; do
    soname=$(objdump -p "$lib" | awk '$1 == "SONAME" {print $2}')
    [[ "$soname" == *.so.*.* ]] || { echo "$lib: soname '$soname' carries no version" >&2; exit 1; }
  done
  cc -std=c17 -Wall -Wextra -Werror "$src/tests/install/dlopen_check.c" -ldl -o "$work/dlopen_check"
  for lib in $libs; do "$work/dlopen_check" "$lib"; done
  against_prefix
  ;;
*)
  echo "usage: install.sh static SOURCE_DIR BUILD_DIR | shared SOURCE_DIR" >&2
  exit 2
  ;;
esac
echo "ok: $mode install"
