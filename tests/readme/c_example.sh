#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compiles and runs the README's C API example exactly as printed: the first ```c block under
# "## The C API" is saved under the file name its build command uses, and the first ```sh
# block after it runs unchanged in a scratch folder whose include/ and build/ point at the
# source tree and the build being tested.
# usage: c_example.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
bld=$(cd "$2" && pwd)
readme="$src/README.md"

section=$(awk '/^## The C API/{on=1; next} on && /^## /{exit} on' "$readme")
program=$(printf '%s\n' "$section" | awk '/^```c$/{on=1; next} on && /^```$/{exit} on')
command=$(printf '%s\n' "$section" | awk '/^```sh$/{on=1; next} on && /^```$/{exit} on')
if [ -z "$program" ] || [ -z "$command" ]; then
  echo "README.md: no \`\`\`c program or no \`\`\`sh command under '## The C API'" >&2
  exit 1
fi
file=$(printf '%s\n' "$command" | grep -o '[A-Za-z0-9_]*\.c' | head -n 1)
[ -n "$file" ] || { echo "README.md: the build command names no .c file: $command" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$src/include" "$work/include"
ln -s "$bld" "$work/build"
printf '%s\n' "$program" > "$work/$file"
cd "$work"
echo "+ $command"
output=$(bash -c "$command")
printf '%s\n' "$output"
# The program prints the volume ratio; an incompressible body keeps it near 1.
ratio=$(printf '%s\n' "$output" | grep -o 'V/V0 = [0-9.]*' | tail -n 1 | cut -d' ' -f3)
[ -n "$ratio" ] || { echo "the example printed no 'V/V0 = ...' line" >&2; exit 1; }
awk -v r="$ratio" 'BEGIN { exit !(r > 0.99 && r < 1.01) }' ||
  { echo "the example's V/V0 = $ratio is not within 1 % of 1" >&2; exit 1; }
