// SPDX-License-Identifier: MIT
// Internal switches of the batched SVD (src/math/svd3.c), for tests and benchmarks.
#pragma once

#include <stdbool.h>

/// The widest lanes icMat3_SvdBatch may use: 2 (portable), 4 (AVX2), 8 (AVX-512, the default;
/// each only where the CPU has it). The same bits at every width. Process-wide: set it before the
/// batches run, not while another thread runs them.
void icSvd_LimitLanes(int lanes);
