// SPDX-License-Identifier: MIT
// The 4 x 4 transpose of four 4-double registers, shared by the AVX2 kernels that put one tet in
// each lane (src/fem/material_corotated.c, src/incompressible/pressure.c). Data movement only:
// the kernels' bits do not depend on it. Include where x86-64 intrinsics are available.
#pragma once

#include <immintrin.h>

/// Lane l of o_j is lane j of r_l. An output the caller drops costs nothing once inlined.
__attribute__((target("avx2"), always_inline)) static inline void
icTranspose4d(__m256d r0, __m256d r1, __m256d r2, __m256d r3, __m256d *o0, __m256d *o1, __m256d *o2,
              __m256d *o3) {
    __m256d lo01 = _mm256_unpacklo_pd(r0, r1), hi01 = _mm256_unpackhi_pd(r0, r1);
    __m256d lo23 = _mm256_unpacklo_pd(r2, r3), hi23 = _mm256_unpackhi_pd(r2, r3);
    *o0 = _mm256_permute2f128_pd(lo01, lo23, 0x20);
    *o1 = _mm256_permute2f128_pd(hi01, hi23, 0x20);
    *o2 = _mm256_permute2f128_pd(lo01, lo23, 0x31);
    *o3 = _mm256_permute2f128_pd(hi01, hi23, 0x31);
}
