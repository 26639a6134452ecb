// SPDX-License-Identifier: MIT
// The wide-number layer on AVX2: 8 floats or 4 doubles per value. Include only inside an
// IC_TARGET_AVX2 region (xpbd/wide_target.h). Every lane does the IEEE operation the scalar
// layer does, in the same order, so results are bit for bit those of wide_scalar.h.
#pragma once

#ifndef IC_WIDE_AT
/// The vertex record at byte offset off from base (blocks store byte offsets, not indices,
/// so a gather is one load and one add per lane).
#define IC_WIDE_AT(base, off) ((__typeof__(base))((const char *)(base) + (off)))
#endif

#include <immintrin.h>
#include <stddef.h>

typedef __m256 icWf8;
typedef __m256 icWf8m; // all-ones lanes are true
typedef __m256d icWd4;
typedef __m256d icWd4m;

static inline icWf8 icWf8_Set(float x) { return _mm256_set1_ps(x); }
static inline icWf8 icWf8_Load(const float *p) { return _mm256_load_ps(p); }
static inline void icWf8_Store(float *p, icWf8 a) { _mm256_store_ps(p, a); }
static inline icWf8 icWf8_Add(icWf8 a, icWf8 b) { return _mm256_add_ps(a, b); }
static inline icWf8 icWf8_Sub(icWf8 a, icWf8 b) { return _mm256_sub_ps(a, b); }
static inline icWf8 icWf8_Mul(icWf8 a, icWf8 b) { return _mm256_mul_ps(a, b); }
// Fused: a b + c, a b - c and c - a b with one rounding (the float kernel's arithmetic).
static inline icWf8 icWf8_Fma(icWf8 a, icWf8 b, icWf8 c) { return _mm256_fmadd_ps(a, b, c); }
static inline icWf8 icWf8_Fms(icWf8 a, icWf8 b, icWf8 c) { return _mm256_fmsub_ps(a, b, c); }
static inline icWf8 icWf8_Fnma(icWf8 a, icWf8 b, icWf8 c) { return _mm256_fnmadd_ps(a, b, c); }
static inline icWf8 icWf8_Div(icWf8 a, icWf8 b) { return _mm256_div_ps(a, b); }
static inline icWf8 icWf8_Sqrt(icWf8 a) { return _mm256_sqrt_ps(a); }
static inline icWf8 icWf8_Neg(icWf8 a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
static inline icWf8 icWf8_Abs(icWf8 a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
static inline icWf8m icWf8_Gt(icWf8 a, icWf8 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline icWf8m icWf8_Ge(icWf8 a, icWf8 b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline icWf8m icWf8_Or(icWf8m a, icWf8m b) { return _mm256_or_ps(a, b); }
static inline icWf8 icWf8_Select(icWf8m m, icWf8 a, icWf8 b) { return _mm256_blendv_ps(b, a, m); }
static inline int icWf8_CountFalse(icWf8m m) { return 8 - __builtin_popcount((unsigned)_mm256_movemask_ps(m)); }

// Vertex records (x, y, z, w) of 8 lanes to 4 values by a 4x4 transpose in each 128-bit half.
// Load k of half L holds lane 4L + k, so the result comes out in lane order.
static inline void icWf8_Gather4(const float *base, const unsigned *off, icWf8 *x, icWf8 *y, icWf8 *z,
                                 icWf8 *w) {
    __m256 r[4];
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; ++k)
        r[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(IC_WIDE_AT(base, off[k]))),
                                    _mm_load_ps(IC_WIDE_AT(base, off[4 + k])), 1);
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    *x = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(t0), _mm256_castps_pd(t2)));
    *y = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(t0), _mm256_castps_pd(t2)));
    *z = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(t1), _mm256_castps_pd(t3)));
    *w = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(t1), _mm256_castps_pd(t3)));
}

static inline void icWf8_Scatter4(float *base, const unsigned *off, icWf8 x, icWf8 y, icWf8 z, icWf8 w) {
    __m256 t0 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(x), _mm256_castps_pd(y)));
    __m256 t2 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(x), _mm256_castps_pd(y)));
    __m256 t1 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(z), _mm256_castps_pd(w)));
    __m256 t3 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(z), _mm256_castps_pd(w)));
    __m256 r[4];
    r[0] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(2, 0, 2, 0));
    r[1] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 1, 3, 1));
    r[2] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(2, 0, 2, 0));
    r[3] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 1, 3, 1));
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; ++k) {
        _mm_store_ps(IC_WIDE_AT(base, off[k]), _mm256_castps256_ps128(r[k]));
        _mm_store_ps(IC_WIDE_AT(base, off[4 + k]), _mm256_extractf128_ps(r[k], 1));
    }
}

static inline icWd4 icWd4_Set(double x) { return _mm256_set1_pd(x); }
static inline icWd4 icWd4_Load(const double *p) { return _mm256_load_pd(p); }
static inline void icWd4_Store(double *p, icWd4 a) { _mm256_store_pd(p, a); }
static inline icWd4 icWd4_Add(icWd4 a, icWd4 b) { return _mm256_add_pd(a, b); }
static inline icWd4 icWd4_Sub(icWd4 a, icWd4 b) { return _mm256_sub_pd(a, b); }
static inline icWd4 icWd4_Mul(icWd4 a, icWd4 b) { return _mm256_mul_pd(a, b); }
static inline icWd4 icWd4_Fma(icWd4 a, icWd4 b, icWd4 c) { return _mm256_fmadd_pd(a, b, c); }
static inline icWd4 icWd4_Fms(icWd4 a, icWd4 b, icWd4 c) { return _mm256_fmsub_pd(a, b, c); }
static inline icWd4 icWd4_Fnma(icWd4 a, icWd4 b, icWd4 c) { return _mm256_fnmadd_pd(a, b, c); }
static inline icWd4 icWd4_Div(icWd4 a, icWd4 b) { return _mm256_div_pd(a, b); }
static inline icWd4 icWd4_Sqrt(icWd4 a) { return _mm256_sqrt_pd(a); }
static inline icWd4 icWd4_Neg(icWd4 a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }
static inline icWd4 icWd4_Abs(icWd4 a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
static inline icWd4m icWd4_Gt(icWd4 a, icWd4 b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline icWd4m icWd4_Ge(icWd4 a, icWd4 b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
static inline icWd4m icWd4_Or(icWd4m a, icWd4m b) { return _mm256_or_pd(a, b); }
static inline icWd4 icWd4_Select(icWd4m m, icWd4 a, icWd4 b) { return _mm256_blendv_pd(b, a, m); }
static inline int icWd4_CountFalse(icWd4m m) { return 4 - __builtin_popcount((unsigned)_mm256_movemask_pd(m)); }

// Four records of 4 doubles (one register each) to 4 values: the classic 4x4 transpose.
static inline void icWd4_Gather4(const double *base, const unsigned *off, icWd4 *x, icWd4 *y, icWd4 *z,
                                 icWd4 *w) {
    __m256d r0 = _mm256_load_pd(IC_WIDE_AT(base, off[0])), r1 = _mm256_load_pd(IC_WIDE_AT(base, off[1]));
    __m256d r2 = _mm256_load_pd(IC_WIDE_AT(base, off[2])), r3 = _mm256_load_pd(IC_WIDE_AT(base, off[3]));
    __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    *x = _mm256_permute2f128_pd(t0, t2, 0x20);
    *z = _mm256_permute2f128_pd(t0, t2, 0x31);
    *y = _mm256_permute2f128_pd(t1, t3, 0x20);
    *w = _mm256_permute2f128_pd(t1, t3, 0x31);
}

static inline void icWd4_Scatter4(double *base, const unsigned *off, icWd4 x, icWd4 y, icWd4 z, icWd4 w) {
    __m256d t0 = _mm256_permute2f128_pd(x, z, 0x20), t2 = _mm256_permute2f128_pd(x, z, 0x31);
    __m256d t1 = _mm256_permute2f128_pd(y, w, 0x20), t3 = _mm256_permute2f128_pd(y, w, 0x31);
    _mm256_store_pd(IC_WIDE_AT(base, off[0]), _mm256_unpacklo_pd(t0, t1));
    _mm256_store_pd(IC_WIDE_AT(base, off[1]), _mm256_unpackhi_pd(t0, t1));
    _mm256_store_pd(IC_WIDE_AT(base, off[2]), _mm256_unpacklo_pd(t2, t3));
    _mm256_store_pd(IC_WIDE_AT(base, off[3]), _mm256_unpackhi_pd(t2, t3));
}
