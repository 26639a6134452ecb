// SPDX-License-Identifier: MIT
// The sweep kernel on AVX-512F (16 floats / 8 doubles), compiled for that target whatever the
// build's -march, and chosen at run time only on CPUs that have it.
#include "xpbd/constraints.h"
#include "xpbd/kernel.h"

#if defined(IC_XPBD_X86)
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,fma")
#endif

#include "xpbd/wide_avx512.h"
#include "xpbd/wide_pair.h"

// Doubles run as pairs of 8-lane values, the two halves of a block side by side
// (xpbd/wide_pair.h). Floats fill a block with one value: pairing two blocks was slower
// (the state of two projections does not fit the 32 registers).
IC_WIDE_PAIR(icWd8x2, icWd8, double)

#define KW icWf16
#define KR float
#define KL 16
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_Avx512Float
#define K_CELL_NAME icXpbdCell_Avx512Float
#include "xpbd/kernel_body.h"
#undef KW
#undef K_PAIR
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME

#define KW icWd8x2
#define K_PAIR 1
#define K_FORM_F 1
#define KR double
#define KL 16
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_Avx512Double
#define K_CELL_NAME icXpbdCell_Avx512Double
#include "xpbd/kernel_body.h"

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
