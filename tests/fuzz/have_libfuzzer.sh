#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Exits 0 when clang can build a libFuzzer harness with ASan and UBSan here (Debian: the
# libclang-rt-14-dev package), else 1.
set -u
command -v clang >/dev/null 2>&1 || exit 1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cat > "$dir/probe.c" <<'C'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
C
clang -fsanitize=fuzzer,address,undefined "$dir/probe.c" -o "$dir/probe" >/dev/null 2>&1 &&
  "$dir/probe" -runs=1 >/dev/null 2>&1
