// SPDX-License-Identifier: MIT
// The float kernels in portable C (one lane: the overflow colours; four lanes of compiler
// vector types, paired: IC_SIMD_SCALAR), compiled twice on x86-64: plainly, where the fused
// multiply-adds are calls to the C library's fmaf, and (IC_KERNEL_NARROW_FMA, names ending
// in Fma) for CPUs with FMA, where they are single instructions. fmaf rounds once either way,
// so both give the same bits. The including file has the wide layers and <math.h>.
// No include guard: included once per translation unit.

#if defined(IC_KERNEL_NARROW_FMA)
#define K_NARROW_(name) name##Fma
#else
#define K_NARROW_(name) name
#endif
#if defined(IC_XPBD_X86) && !defined(IC_KERNEL_NARROW_FMA)
// The fmaf-call build (x86-64 CPUs without FMA) leaves out the cell kernel's paths for known
// patterns: their unrolled projections made this file take minutes to compile.
#define K_NO_KNOWN_PATTERNS 1
#endif

#define KW icWf1
#define KR float
#define KL 1
#define KB IC_XPBD_LANES
#define K_NAME K_NARROW_(icXpbdKernel_ScalarFloat)
#define K_CELL_NAME K_NARROW_(icXpbdCell_ScalarFloat)
#include "xpbd/kernel_body.h"
#undef KW
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME

IC_WIDE_PAIR(icWp4fx2, icWp4f, float)

#define KW icWp4fx2
#define K_PAIR 1
#define KR float
#define KL 8
#define KB IC_XPBD_LANES
#define K_NAME K_NARROW_(icXpbdKernel_PortableFloat)
#define K_CELL_NAME K_NARROW_(icXpbdCell_PortableFloat)
#include "xpbd/kernel_body.h"
#undef KW
#undef K_PAIR
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME
#undef K_NARROW_
#undef K_NO_KNOWN_PATTERNS
