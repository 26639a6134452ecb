// SPDX-License-Identifier: MIT
// The sweep kernel on AVX2 (8 floats / 4 doubles), compiled for that target whatever the
// build's -march, and chosen at run time only on CPUs that have it.
#include "xpbd/constraints.h"
#include "xpbd/kernel.h"

#if defined(IC_XPBD_X86)
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

#include "xpbd/wide_avx2.h"
#include "xpbd/wide_pair.h"

// Values of two base widths: two groups of lanes side by side (xpbd/wide_pair.h).
IC_WIDE_PAIR(icWf8x2, icWf8, float)
IC_WIDE_PAIR(icWd4x2, icWd4, double)

#define KW icWf8x2
#define K_PAIR 1
#define KR float
#define KL 16
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_Avx2Float
#define K_CELL_NAME icXpbdCell_Avx2Float
#include "xpbd/kernel_body.h"
#undef KW
#undef K_PAIR
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME

#define KW icWd4x2
#define K_PAIR 1
#define K_FORM_F 1
#define KR double
#define KL 8
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_Avx2Double
#define K_CELL_NAME icXpbdCell_Avx2Double
#include "xpbd/kernel_body.h"

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
