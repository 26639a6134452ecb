// SPDX-License-Identifier: MIT
// The wide-number layer on AVX-512F: 16 floats or 8 doubles per value. Include only inside an
// IC_TARGET_AVX512 region (xpbd/wide_target.h). Every lane does the IEEE operation the scalar
// layer does, in the same order, so results are bit for bit those of wide_scalar.h.
#pragma once

#ifndef IC_WIDE_AT
/// The vertex record at byte offset off from base (blocks store byte offsets, not indices,
/// so a gather is one load and one add per lane).
#define IC_WIDE_AT(base, off) ((__typeof__(base))((const char *)(base) + (off)))
#endif

#include <immintrin.h>
#include <stddef.h>

typedef __m512 icWf16;
typedef __mmask16 icWf16m;
typedef __m512d icWd8;
typedef __mmask8 icWd8m;

static inline icWf16 icWf16_Set(float x) { return _mm512_set1_ps(x); }
static inline icWf16 icWf16_Load(const float *p) { return _mm512_load_ps(p); }
static inline void icWf16_Store(float *p, icWf16 a) { _mm512_store_ps(p, a); }
static inline icWf16 icWf16_Add(icWf16 a, icWf16 b) { return _mm512_add_ps(a, b); }
static inline icWf16 icWf16_Sub(icWf16 a, icWf16 b) { return _mm512_sub_ps(a, b); }
static inline icWf16 icWf16_Mul(icWf16 a, icWf16 b) { return _mm512_mul_ps(a, b); }
// Fused: a b + c, a b - c and c - a b with one rounding (the float kernel's arithmetic).
static inline icWf16 icWf16_Fma(icWf16 a, icWf16 b, icWf16 c) { return _mm512_fmadd_ps(a, b, c); }
static inline icWf16 icWf16_Fms(icWf16 a, icWf16 b, icWf16 c) { return _mm512_fmsub_ps(a, b, c); }
static inline icWf16 icWf16_Fnma(icWf16 a, icWf16 b, icWf16 c) { return _mm512_fnmadd_ps(a, b, c); }
static inline icWf16 icWf16_Div(icWf16 a, icWf16 b) { return _mm512_div_ps(a, b); }
static inline icWf16 icWf16_Sqrt(icWf16 a) { return _mm512_sqrt_ps(a); }
static inline icWf16 icWf16_Neg(icWf16 a) {
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_set1_epi32((int)0x80000000u)));
}
static inline icWf16 icWf16_Abs(icWf16 a) {
    return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32(0x7fffffff)));
}
static inline icWf16m icWf16_Gt(icWf16 a, icWf16 b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
static inline icWf16m icWf16_Ge(icWf16 a, icWf16 b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
static inline icWf16m icWf16_Or(icWf16m a, icWf16m b) { return (icWf16m)(a | b); }
static inline icWf16 icWf16_Select(icWf16m m, icWf16 a, icWf16 b) { return _mm512_mask_blend_ps(m, b, a); }
static inline int icWf16_CountFalse(icWf16m m) { return 16 - __builtin_popcount((unsigned)m); }

// Vertex records (x, y, z, w) of 16 lanes to 4 values: 4x4 transposes in each 128-bit lane.
// Load k of lane L holds lane 4L + k, so the result comes out in lane order.
static inline void icWf16_Gather4(const float *base, const unsigned *off, icWf16 *x, icWf16 *y,
                                  icWf16 *z, icWf16 *w) {
    // 256-bit inserts run at twice the rate of 512-bit ones where AVX-512 is split in halves
    // (Zen 4): two records per half, then the halves joined.
    __m512 r[4];
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; ++k) {
        __m256 lo = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(IC_WIDE_AT(base, off[k]))),
                                         _mm_load_ps(IC_WIDE_AT(base, off[4 + k])), 1);
        __m256 hi = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(IC_WIDE_AT(base, off[8 + k]))),
                                         _mm_load_ps(IC_WIDE_AT(base, off[12 + k])), 1);
        r[k] = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(lo)), _mm256_castps_pd(hi), 1));
    }
    __m512d t0 = _mm512_castps_pd(_mm512_unpacklo_ps(r[0], r[1]));
    __m512d t1 = _mm512_castps_pd(_mm512_unpackhi_ps(r[0], r[1]));
    __m512d t2 = _mm512_castps_pd(_mm512_unpacklo_ps(r[2], r[3]));
    __m512d t3 = _mm512_castps_pd(_mm512_unpackhi_ps(r[2], r[3]));
    *x = _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2));
    *y = _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2));
    *z = _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3));
    *w = _mm512_castpd_ps(_mm512_unpackhi_pd(t1, t3));
}

static inline void icWf16_Scatter4(float *base, const unsigned *off, icWf16 x, icWf16 y, icWf16 z,
                                   icWf16 w) {
    __m512 t0 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(x), _mm512_castps_pd(y)));
    __m512 t2 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(x), _mm512_castps_pd(y)));
    __m512 t1 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(z), _mm512_castps_pd(w)));
    __m512 t3 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(z), _mm512_castps_pd(w)));
    __m512 r[4];
    r[0] = _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(2, 0, 2, 0));
    r[1] = _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 1, 3, 1));
    r[2] = _mm512_shuffle_ps(t2, t3, _MM_SHUFFLE(2, 0, 2, 0));
    r[3] = _mm512_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 1, 3, 1));
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; ++k) {
        _mm_store_ps(IC_WIDE_AT(base, off[k]), _mm512_castps512_ps128(r[k]));
        _mm_store_ps(IC_WIDE_AT(base, off[4 + k]), _mm512_extractf32x4_ps(r[k], 1));
        _mm_store_ps(IC_WIDE_AT(base, off[8 + k]), _mm512_extractf32x4_ps(r[k], 2));
        _mm_store_ps(IC_WIDE_AT(base, off[12 + k]), _mm512_extractf32x4_ps(r[k], 3));
    }
}

static inline icWd8 icWd8_Set(double x) { return _mm512_set1_pd(x); }
static inline icWd8 icWd8_Load(const double *p) { return _mm512_load_pd(p); }
static inline void icWd8_Store(double *p, icWd8 a) { _mm512_store_pd(p, a); }
static inline icWd8 icWd8_Add(icWd8 a, icWd8 b) { return _mm512_add_pd(a, b); }
static inline icWd8 icWd8_Sub(icWd8 a, icWd8 b) { return _mm512_sub_pd(a, b); }
static inline icWd8 icWd8_Mul(icWd8 a, icWd8 b) { return _mm512_mul_pd(a, b); }
static inline icWd8 icWd8_Fma(icWd8 a, icWd8 b, icWd8 c) { return _mm512_fmadd_pd(a, b, c); }
static inline icWd8 icWd8_Fms(icWd8 a, icWd8 b, icWd8 c) { return _mm512_fmsub_pd(a, b, c); }
static inline icWd8 icWd8_Fnma(icWd8 a, icWd8 b, icWd8 c) { return _mm512_fnmadd_pd(a, b, c); }
static inline icWd8 icWd8_Div(icWd8 a, icWd8 b) { return _mm512_div_pd(a, b); }
static inline icWd8 icWd8_Sqrt(icWd8 a) { return _mm512_sqrt_pd(a); }
static inline icWd8 icWd8_Neg(icWd8 a) {
    return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(a), _mm512_set1_epi64((long long)0x8000000000000000ull)));
}
static inline icWd8 icWd8_Abs(icWd8 a) {
    return _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(a), _mm512_set1_epi64(0x7fffffffffffffffll)));
}
static inline icWd8m icWd8_Gt(icWd8 a, icWd8 b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
static inline icWd8m icWd8_Ge(icWd8 a, icWd8 b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
static inline icWd8m icWd8_Or(icWd8m a, icWd8m b) { return (icWd8m)(a | b); }
static inline icWd8 icWd8_Select(icWd8m m, icWd8 a, icWd8 b) { return _mm512_mask_blend_pd(m, b, a); }
static inline int icWd8_CountFalse(icWd8m m) { return 8 - __builtin_popcount((unsigned)m); }

// Records of 4 doubles, two per register: register k holds lanes k and 4 + k in its halves
// for k = 0, 1 and lanes 2 + k, 6 + k ... arranged so that unpacking and one 128-bit-lane
// shuffle give the lanes in order (the index table below says which lane each load is).
static const int icWd8_LoadLane_[8] = {0, 2, 1, 3, 4, 6, 5, 7};

static inline void icWd8_Gather4(const double *base, const unsigned *off, icWd8 *x, icWd8 *y, icWd8 *z,
                                 icWd8 *w) {
    __m512d r[4];
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; ++k)
        r[k] = _mm512_insertf64x4(
            _mm512_castpd256_pd512(_mm256_load_pd(IC_WIDE_AT(base, off[icWd8_LoadLane_[2 * k]]))),
            _mm256_load_pd(IC_WIDE_AT(base, off[icWd8_LoadLane_[2 * k + 1]])), 1);
    __m512d lo01 = _mm512_unpacklo_pd(r[0], r[1]), hi01 = _mm512_unpackhi_pd(r[0], r[1]);
    __m512d lo23 = _mm512_unpacklo_pd(r[2], r[3]), hi23 = _mm512_unpackhi_pd(r[2], r[3]);
    *x = _mm512_shuffle_f64x2(lo01, lo23, _MM_SHUFFLE(2, 0, 2, 0));
    *z = _mm512_shuffle_f64x2(lo01, lo23, _MM_SHUFFLE(3, 1, 3, 1));
    *y = _mm512_shuffle_f64x2(hi01, hi23, _MM_SHUFFLE(2, 0, 2, 0));
    *w = _mm512_shuffle_f64x2(hi01, hi23, _MM_SHUFFLE(3, 1, 3, 1));
}

static inline void icWd8_Scatter4(double *base, const unsigned *off, icWd8 x, icWd8 y, icWd8 z, icWd8 w) {
    // Undo the 128-bit-lane shuffle: [x0 z0 x1 z1] from x = [x0 x1 x2 x3], z = [z0 z1 z2 z3].
    __m512d u = _mm512_shuffle_f64x2(x, z, _MM_SHUFFLE(1, 0, 1, 0));
    __m512d lo01 = _mm512_shuffle_f64x2(u, u, _MM_SHUFFLE(3, 1, 2, 0));
    u = _mm512_shuffle_f64x2(x, z, _MM_SHUFFLE(3, 2, 3, 2));
    __m512d lo23 = _mm512_shuffle_f64x2(u, u, _MM_SHUFFLE(3, 1, 2, 0));
    u = _mm512_shuffle_f64x2(y, w, _MM_SHUFFLE(1, 0, 1, 0));
    __m512d hi01 = _mm512_shuffle_f64x2(u, u, _MM_SHUFFLE(3, 1, 2, 0));
    u = _mm512_shuffle_f64x2(y, w, _MM_SHUFFLE(3, 2, 3, 2));
    __m512d hi23 = _mm512_shuffle_f64x2(u, u, _MM_SHUFFLE(3, 1, 2, 0));
    __m512d r[4] = {_mm512_unpacklo_pd(lo01, hi01), _mm512_unpackhi_pd(lo01, hi01),
                    _mm512_unpacklo_pd(lo23, hi23), _mm512_unpackhi_pd(lo23, hi23)};
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; ++k) {
        _mm256_store_pd(IC_WIDE_AT(base, off[icWd8_LoadLane_[2 * k]]), _mm512_castpd512_pd256(r[k]));
        _mm256_store_pd(IC_WIDE_AT(base, off[icWd8_LoadLane_[2 * k + 1]]), _mm512_extractf64x4_pd(r[k], 1));
    }
}

