#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Follows docs/guide.md as a reader would, so the guide cannot drift from the tool.
#
# In a scratch folder whose include/, build/, scenes/ and tests/ point at the source tree and
# the build being tested, the guide's fenced blocks are taken in document order:
#   - a ```json or ```c block is a file: the line right before it must be
#     `<!-- file: PATH -->` (a relative path), and the block is saved there;
#   - a ```sh block is run as typed from the repository root (`bash -e`); a block that fails
#     fails the test with its text and output;
#   - a ```text block is only shown. With `<!-- output -->` on the line before it, it is a
#     sample of the previous ```sh block's output: every `label   value` line in it must
#     start a line of the real output (the values may differ); with `<!-- output: exact -->`
#     every line of it must be a line of the real output;
#   - any other fence (```bash, ```console, a bare ```) is refused, so nothing runnable-looking
#     escapes the test.
# After every ```sh block the pictures each `isochor render` line promises must exist (PNG,
# one per frame with --all), and no `isochor run` may report a health warning, NaN or inverted
# tets. At the end the guide's claims about its results are checked (section by section).
#
# Without Debian's tetgen program the guide's `isochor tetrahedralize` line is replaced by a
# generated mesh of the same bounds, so the rest of the guide still runs.
# usage: guide.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
bld=$(cd "$2" && pwd)
guide="$src/docs/guide.md"
started=$SECONDS

fail() {
  printf 'docs/guide.md: %s\n' "$*" >&2
  exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$src/include" "$work/include"
ln -s "$bld" "$work/build"
ln -s "$src/scenes" "$work/scenes"
ln -s "$src/tests" "$work/tests"
meta="$work/.guide"
mkdir "$meta"

# Split the guide: $meta/index gets one line per fenced block (number, language, file marker,
# output marker, line; separated by '|'), $meta/N its text.
awk -v dir="$meta" '
  function flush_marks() { file = ""; sample = 0 }
  inside && $0 == "```" { inside = 0; close(body); next }
  inside { print > body; next }
  /^```/ {
    lang = substr($0, 4)
    n++
    body = dir "/" n
    printf "" > body
    printf "%d|%s|%s|%d|%d\n", n, lang, file, sample, NR > (dir "/index")
    inside = 1
    flush_marks()
    next
  }
  /^<!-- file: [^ ]+ -->$/ { file = $3; next }
  /^<!-- output -->$/ { sample = 1; next }
  /^<!-- output: exact -->$/ { sample = 2; next }
  { flush_marks() }
  END { if (inside) { printf "unclosed fence of block %d\n", n > "/dev/stderr"; exit 1 } }
' "$guide" || fail "cannot split into blocks"
[ -s "$meta/index" ] || fail "no fenced blocks"

# Without tetgen, `build/isochor tetrahedralize IN OUT ...` becomes this function: a
# generated unit box with IN's bounds (the guide's cube spans 0..1 m), converted to OUT.
fallback='tetrahedralize_without_tetgen() {
  local tmp; tmp=$(mktemp -d)
  printf "{\"dt\": 1, \"frames\": 0, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 8}, \"translate\": [0.5, 0.5, 0.5]}]}\n" > "$tmp/box.json"
  build/isochor run "$tmp/box.json" --quiet --out "$tmp/out" > /dev/null 2>&1
  build/isochor convert "$tmp/out/frame_00000.vtu" "$2" 2> /dev/null
  rm -rf "$tmp"
}
'
have_tetgen=1
command -v tetgen > /dev/null 2>&1 || {
  have_tetgen=0
  echo "note: tetgen is not installed (tools/install-deps.sh installs it): the guide's" \
       "tetrahedralize line runs on a generated box instead"
}

# The PNGs an `isochor render` command line promises.
check_render_line() {
  local line=$1 input="" out="" frame=0 all=0 i w
  read -ra w <<< "$line"
  for ((i = 0; i < ${#w[@]}; ++i)); do
    case ${w[i]} in
      render) input=${w[i + 1]} ;;
      --out) out=${w[i + 1]} ;;
      --out=*) out=${w[i]#--out=} ;;
      --frame) frame=${w[i + 1]} ;;
      --frame=*) frame=${w[i]#--frame=} ;;
      --all) all=1 ;;
    esac
  done
  [ -n "$out" ] || fail "render without --out: $line"
  local pngs=("$work/$out"/frame_*.png)
  [ -e "${pngs[0]}" ] || fail "'$line' wrote no pictures into $out"
  local png
  if [ "$all" = 1 ]; then
    case $input in
      *.pvd)
        local want
        want=$(grep -c '<DataSet' "$work/$input")
        [ "${#pngs[@]}" -ge "$want" ] ||
          fail "'$line' drew ${#pngs[@]} pictures for the $want frames of $input" ;;
    esac
  else
    pngs=("$(printf '%s/%s/frame_%04d.png' "$work" "$out" "$frame")")
  fi
  for png in "${pngs[@]}"; do
    [ -s "$png" ] || fail "'$line' did not write ${png#"$work"/}"
    [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
      fail "${png#"$work"/} is not a PNG"
  done
}

# A ```text sample of output: each `label   value` line must start a line of the real output
# (kind 1), or each line must be a line of it (kind 2).
check_sample() {
  local sample=$1 output=$2 kind=$4 line label
  while IFS= read -r line; do
    if [ "$kind" = 2 ]; then
      [ -z "$line" ] || grep -qxF -- "$line" <<< "$output" ||
        fail "the sample output at line $3 shows '$line', which the command does not print"
      continue
    fi
    case $line in "" | " "*) continue ;; esac
    [[ $line == *"  "* ]] || continue
    label=${line%%  *}
    grep -qxF -- "$label" <<< "$(grep -E '^[^ ].*  ' <<< "$output" | sed 's/  .*//')" ||
      fail "the sample output at line $3 shows '$label', which the command does not print"
  done < "$sample"
}

runs=0
files=0
prev_output=""
all_output="$meta/all-output"
: > "$all_output"
while IFS='|' read -r n lang file sample line; do
  body="$meta/$n"
  case $lang in
    json | c)
      [ -n "$file" ] || fail "line $line: a \`\`\`$lang block without '<!-- file: PATH -->' right before it"
      [ "$sample" = 0 ] || fail "line $line: an output marker before a \`\`\`$lang block"
      case $file in /* | *..*) fail "line $line: file $file must be a relative path inside the tree" ;; esac
      mkdir -p "$work/$(dirname "$file")"
      cp "$body" "$work/$file"
      files=$((files + 1))
      ;;
    sh)
      [ -z "$file" ] && [ "$sample" = 0 ] || fail "line $line: a marker before a \`\`\`sh block"
      script="$meta/$n.sh"
      if [ "$have_tetgen" = 0 ]; then
        printf '%s' "$fallback" > "$script"
        sed 's#build/isochor tetrahedralize#tetrahedralize_without_tetgen#' "$body" >> "$script"
      else
        cp "$body" "$script"
      fi
      block_start=$SECONDS
      sed 's/^/+ /' "$body"
      if ! output=$(cd "$work" && bash -e "$script" 2>&1); then
        printf '%s\n' "$output"
        fail "the \`\`\`sh block at line $line failed:$(printf '\n%s' "$(cat "$body")")"
      fi
      printf '%s\n' "$output" | sed 's/^/  | /'
      echo "  ($((SECONDS - block_start)) s)"
      printf '### block at line %d\n%s\n' "$line" "$output" >> "$all_output"
      printf '%s\n' "$output" > "$meta/$n.out"
      if grep -Eq '^health +[0-9]+ warning' <<< "$output"; then
        fail "the block at line $line reports health warnings; the guide's scenes run clean"
      fi
      if grep -Eq '^NaN +yes|^inverted tets +[1-9]' <<< "$output"; then
        fail "the block at line $line ends with NaN or inverted tets"
      fi
      while IFS= read -r cmd; do
        check_render_line "$cmd"
      done < <(grep -E '(^|[ /])isochor render ' "$body" || true)
      prev_output=$output
      runs=$((runs + 1))
      ;;
    text)
      [ -z "$file" ] || fail "line $line: a file marker before a \`\`\`text block"
      if [ "$sample" != 0 ]; then
        [ -n "$prev_output" ] || fail "line $line: an output marker before any \`\`\`sh block"
        check_sample "$body" "$prev_output" "$line" "$sample"
      fi
      ;;
    *)
      fail "line $line: fence \`\`\`$lang: use \`\`\`sh (the test runs it), \`\`\`json or \`\`\`c (with a file marker) or \`\`\`text"
      ;;
  esac
done < "$meta/index"
[ "$runs" -gt 0 ] || fail "no \`\`\`sh blocks"

# The guide's claims about what the commands produce.
cd "$work"
output_of() { # the output of the first ```sh block that contains the text $1
  local n
  while IFS='|' read -r n _; do
    if [ -e "$meta/$n.out" ] && grep -qF -- "$1" "$meta/$n"; then
      cat "$meta/$n.out"
      return
    fi
  done < "$meta/index"
  fail "no \`\`\`sh block contains '$1'"
}
stat_of() { # stat_of FILE KEY: a number from a --stats file
  sed -n "s/^ *\"$2\": *\\([-0-9.eE+]*\\),*\$/\\1/p" "$1" | head -n 1
}
check() { # check DESCRIPTION AWK-CONDITION [var=value ...]
  local what=$1 cond=$2
  shift 2
  awk "$@" "BEGIN { exit !($cond) }" || fail "claim not met: $what ($*)"
}

# 1. The demo wrote every frame and its collection.
[ -s out/demo/demo.pvd ] && [ -s out/demo/frame_00150.vtu ] ||
  fail "section 1: the demo did not write out/demo/demo.pvd and 150 frames"
grep -Eq '^frames +30 of 30$' <<< "$(output_of 'scenes/demo.json --frames 30')" ||
  fail "section 1: --frames 30 did not run 30 frames"
# 2. The Blender export wrote its surface and point cache.
[ -s out/demo/blender/demo.obj ] && [ -s out/demo/blender/demo.pc2 ] ||
  fail "section 2: no out/demo/blender/demo.obj and demo.pc2"
# 3. The mesh is the unit cube, and a misspelt key is refused with a suggestion and status 2.
[ -s guide/cube.ele ] && [ -s guide/cube.node ] || fail "section 3: no guide/cube.ele and .node"
mesh_info=$(output_of 'isochor info guide/cube.ele')
grep -q 'bounds  *\[0, 0, 0\] \.\. \[1, 1, 1\]' <<< "$mesh_info" ||
  fail "section 3: guide/cube.ele does not span 0..1 m"
if [ "$have_tetgen" = 1 ]; then
  check "section 3: the cube has about 2,900 tets" 'n >= 2500 && n <= 3300' \
    -v n="$(sed -n 's/^tets  *\([0-9]*\)$/\1/p' <<< "$mesh_info")"
fi
typo=$(output_of 'guide/typo.json ||')
grep -q "did you mean 'youngs_modulus'" <<< "$typo" && grep -q '^exit status 2$' <<< "$typo" ||
  fail "section 3: the misspelt key gives no suggestion or no exit status 2"
# 4. The twisted bar keeps its volume within 0.2 %.
vline=$(grep '^V/V0' <<< "$(output_of 'build/isochor run guide/twist.json')")
vmin=$(sed 's/.*min \([0-9.]*\).*/\1/' <<< "$vline")
vmax=$(sed 's/.*max \([0-9.]*\).*/\1/' <<< "$vline")
check "section 4: the twisted bar's V/V0 stays within 0.2 % of 1" \
  'lo > 0.998 && hi < 1.002' -v lo="$vmin" -v hi="$vmax"
# 6. The solver comparison.
x45=$(stat_of out/drop/stats.json volume_ratio_min)
x50=$(stat_of out/drop_nu05/stats.json volume_ratio_min)
nw=$(stat_of out/drop_newton/stats.json volume_ratio_min)
inc=$(stat_of out/drop_incompressible/stats.json volume_ratio_min)
check "section 6: XPBD at nu = 0.45 loses about 6 % at impact" 'v > 0.92 && v < 0.96' -v v="$x45"
check "section 6: XPBD at nu = 0.5 keeps the volume within 1 %" 'v > 0.99' -v v="$x50"
check "section 6: Newton at nu = 0.45 loses about 3 %" 'v > 0.955 && v < 0.985' -v v="$nw"
check "section 6: the incompressible solver keeps the volume within 0.1 %" 'v > 0.999' -v v="$inc"
check "section 6: Newton takes several times as long per frame as XPBD" 'n > 3 * x' \
  -v n="$(stat_of out/drop_newton/stats.json ms_per_frame)" \
  -v x="$(stat_of out/drop/stats.json ms_per_frame)"
# 7. grep finds one line per run of section 6.
[ "$(grep -c volume_ratio_min <<< "$(output_of "grep -H '\"volume_ratio_min\"'")")" -eq 4 ] ||
  fail "section 7: grep does not print one line for each of the four runs"
# 8. The C program: the free end rests on the sphere 5 to 7 cm down, the volume kept.
prog=$(output_of 'guide/bar.c')
grep -q '^health warnings: 0$' <<< "$prog" || fail "section 8: the C program reports health warnings"
last=$(grep '^t = ' <<< "$prog" | tail -n 1)
tip=$(sed 's/.*tip y = \([-+0-9.]*\) m.*/\1/' <<< "$last")
ratio=$(sed 's/.*V\/V0 = \([0-9.]*\).*/\1/' <<< "$last")
check "section 8: the free end rests on the sphere, 5 to 7 cm down" 't <= -0.095 && t >= -0.125' -v t="$tip"
check "section 8: the C program keeps the volume within 1 %" 'r > 0.99 && r < 1.01' -v r="$ratio"

echo "ok: $runs command blocks and $files files of docs/guide.md in $((SECONDS - started)) s"
