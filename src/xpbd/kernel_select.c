// SPDX-License-Identifier: MIT
// Picks the sweep kernel for this CPU at run time (cpuid through the compiler's builtins),
// so one binary built without -march runs the widest code the machine has.
#include "xpbd/kernel.h"

static bool s_hardwareFma = true;

void icXpbd_SetHardwareFma(bool use) { s_hardwareFma = use; }

// The float kernels fuse multiply-adds, so the vector levels need FMA as well (every CPU with
// AVX2 or AVX-512F has it, but the check costs nothing).
static bool cpuFma(void) {
#if defined(IC_XPBD_X86)
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

icSimd icXpbd_CpuSimd(void) {
#if defined(IC_XPBD_X86)
    __builtin_cpu_init();
    // The builtins also check that the OS saves the wide registers (XGETBV).
    if (__builtin_cpu_supports("avx512f") && cpuFma()) return IC_SIMD_AVX512;
    if (__builtin_cpu_supports("avx2") && cpuFma()) return IC_SIMD_AVX2;
#endif
    return IC_SIMD_SCALAR;
}

// The portable float kernels with FMA instructions where the CPU has them (same bits).
static bool narrowFma(void) { return s_hardwareFma && cpuFma(); }

icXpbdKernelFn *icXpbd_SelectKernel(icSimd requested, icPrecision precision, icSimd *used) {
    icSimd cpu = icXpbd_CpuSimd();
    icSimd level = (requested == IC_SIMD_AUTO || requested > cpu) ? cpu : requested;
    if (used) *used = level;
    bool single = precision == IC_PRECISION_FLOAT;
#if defined(IC_XPBD_X86)
    if (level == IC_SIMD_AVX512) return single ? icXpbdKernel_Avx512Float : icXpbdKernel_Avx512Double;
    if (level == IC_SIMD_AVX2) return single ? icXpbdKernel_Avx2Float : icXpbdKernel_Avx2Double;
    if (single && narrowFma()) return icXpbdKernel_PortableFloatFma;
#endif
    return single ? icXpbdKernel_PortableFloat : icXpbdKernel_PortableDouble;
}

icXpbdCellKernelFn *icXpbd_SelectCellKernel(icSimd requested, icPrecision precision) {
    icSimd level;
    icXpbd_SelectKernel(requested, precision, &level);
    bool single = precision == IC_PRECISION_FLOAT;
#if defined(IC_XPBD_X86)
    if (level == IC_SIMD_AVX512) return single ? icXpbdCell_Avx512Float : icXpbdCell_Avx512Double;
    if (level == IC_SIMD_AVX2) return single ? icXpbdCell_Avx2Float : icXpbdCell_Avx2Double;
    if (single && narrowFma()) return icXpbdCell_PortableFloatFma;
#endif
    return single ? icXpbdCell_PortableFloat : icXpbdCell_PortableDouble;
}

icXpbdKernelFn *icXpbd_SelectLaneKernel(icPrecision precision) {
    if (precision != IC_PRECISION_FLOAT) return icXpbdKernel_ScalarDouble;
#if defined(IC_XPBD_X86)
    if (narrowFma()) return icXpbdKernel_ScalarFloatFma;
#endif
    return icXpbdKernel_ScalarFloat;
}

icXpbdCellKernelFn *icXpbd_SelectLaneCellKernel(icPrecision precision) {
    if (precision != IC_PRECISION_FLOAT) return icXpbdCell_ScalarDouble;
#if defined(IC_XPBD_X86)
    if (narrowFma()) return icXpbdCell_ScalarFloatFma;
#endif
    return icXpbdCell_ScalarFloat;
}
