// SPDX-License-Identifier: MIT
// The sweep kernel on AVX2 (8 floats / 4 doubles), compiled for that target whatever the
// build's -march, and chosen at run time only on CPUs that have it.
#include "xpbd/constraints.h"
#include "xpbd/kernel.h"

#if defined(IC_XPBD_X86)
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#include "xpbd/wide_avx2.h"

#define KW icWf8
#define KR float
#define KL 8
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_Avx2Float
#define K_CELL_NAME icXpbdCell_Avx2Float
#include "xpbd/kernel_body.h"
#undef KW
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME

#define KW icWd4
#define K_FORM_F 1
#define KR double
#define KL 4
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
