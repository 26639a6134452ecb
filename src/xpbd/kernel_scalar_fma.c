// SPDX-License-Identifier: MIT
// The portable float kernels again, compiled for CPUs with FMA (chosen at run time): the same
// bits as kernel_scalar.c's, whose fused multiply-adds are calls to fmaf.
#include "xpbd/constraints.h"
#include "xpbd/kernel.h"

#if defined(IC_XPBD_X86)
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("fma")
#endif

#define IC_WIDE_PORTABLE_X86_FMA 1
#include "xpbd/wide_pair.h"
#include "xpbd/wide_portable.h"
#include "xpbd/wide_scalar.h"

#define IC_KERNEL_NARROW_FMA 1
#include "xpbd/kernel_narrow_float.h"

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
