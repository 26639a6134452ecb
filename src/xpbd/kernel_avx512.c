// SPDX-License-Identifier: MIT
// The sweep kernel on AVX-512F (16 floats / 8 doubles), compiled for that target whatever the
// build's -march, and chosen at run time only on CPUs that have it.
#include "xpbd/constraints.h"
#include "xpbd/kernel.h"

#if defined(IC_XPBD_X86)
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif

#include "xpbd/wide_avx512.h"

#define KW icWf16
#define KR float
#define KL 16
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_Avx512Float
#define K_CELL_NAME icXpbdCell_Avx512Float
#include "xpbd/kernel_body.h"
#undef KW
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME

#define KW icWd8
#define K_FORM_F 1
#define KR double
#define KL 8
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
