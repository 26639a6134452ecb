// SPDX-License-Identifier: MIT
// Internal switches of the batched SVD (src/math/svd3.c), for tests and benchmarks.
#pragma once

#include <stdbool.h>

/// Whether icMat3_SvdBatch may use its AVX2 lanes (on by default; the same bits either way).
/// Process-wide: set it before the batches run, not while another thread runs them.
void icSvd_UseWideKernels(bool use);
