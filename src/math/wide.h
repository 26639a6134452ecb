// SPDX-License-Identifier: MIT
// A small wide-number layer: two doubles per value, SSE2 where available, plain scalars
// otherwise. Each lane computes exactly what the scalar code would (IEEE add, mul, div,
// sqrt), so results do not depend on which implementation is compiled.
#pragma once

#include "isochor/base.h"

#include <math.h>

#if defined(__SSE2__)
#include <emmintrin.h>

typedef __m128d icWide;

static inline icWide icWide_Set(double x) { return _mm_set1_pd(x); }
static inline icWide icWide_Load(const double *p) { return _mm_loadu_pd(p); }
static inline void icWide_Store(double *p, icWide a) { _mm_storeu_pd(p, a); }
static inline icWide icWide_Add(icWide a, icWide b) { return _mm_add_pd(a, b); }
static inline icWide icWide_Sub(icWide a, icWide b) { return _mm_sub_pd(a, b); }
static inline icWide icWide_Mul(icWide a, icWide b) { return _mm_mul_pd(a, b); }
static inline icWide icWide_Div(icWide a, icWide b) { return _mm_div_pd(a, b); }
static inline icWide icWide_Sqrt(icWide a) { return _mm_sqrt_pd(a); }
static inline icWide icWide_Abs(icWide a) { return _mm_andnot_pd(_mm_set1_pd(-0.0), a); }
static inline icWide icWide_Neg(icWide a) { return _mm_xor_pd(_mm_set1_pd(-0.0), a); }
/// All-ones lanes where a > b (a mask for icWide_Select).
static inline icWide icWide_Greater(icWide a, icWide b) { return _mm_cmpgt_pd(a, b); }
static inline icWide icWide_GreaterEqual(icWide a, icWide b) { return _mm_cmpge_pd(a, b); }
/// mask ? a : b per lane.
static inline icWide icWide_Select(icWide mask, icWide a, icWide b) {
    return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b));
}
static inline double icWide_Lane(icWide a, int lane) {
    double t[2];
    _mm_storeu_pd(t, a);
    return t[lane];
}

#else

typedef struct icWide {
    double v[2];
} icWide;

static inline icWide icWide_Make_(double a, double b) {
    icWide w = {{a, b}};
    return w;
}
static inline icWide icWide_Set(double x) { return icWide_Make_(x, x); }
static inline icWide icWide_Load(const double *p) { return icWide_Make_(p[0], p[1]); }
static inline void icWide_Store(double *p, icWide a) {
    p[0] = a.v[0];
    p[1] = a.v[1];
}
static inline icWide icWide_Add(icWide a, icWide b) { return icWide_Make_(a.v[0] + b.v[0], a.v[1] + b.v[1]); }
static inline icWide icWide_Sub(icWide a, icWide b) { return icWide_Make_(a.v[0] - b.v[0], a.v[1] - b.v[1]); }
static inline icWide icWide_Mul(icWide a, icWide b) { return icWide_Make_(a.v[0] * b.v[0], a.v[1] * b.v[1]); }
static inline icWide icWide_Div(icWide a, icWide b) { return icWide_Make_(a.v[0] / b.v[0], a.v[1] / b.v[1]); }
static inline icWide icWide_Sqrt(icWide a) { return icWide_Make_(sqrt(a.v[0]), sqrt(a.v[1])); }
static inline icWide icWide_Abs(icWide a) { return icWide_Make_(fabs(a.v[0]), fabs(a.v[1])); }
static inline icWide icWide_Neg(icWide a) { return icWide_Make_(-a.v[0], -a.v[1]); }
// Masks are 1.0 (true) / 0.0 (false) here; only icWide_Select reads them.
static inline icWide icWide_Greater(icWide a, icWide b) {
    return icWide_Make_(a.v[0] > b.v[0], a.v[1] > b.v[1]);
}
static inline icWide icWide_GreaterEqual(icWide a, icWide b) {
    return icWide_Make_(a.v[0] >= b.v[0], a.v[1] >= b.v[1]);
}
static inline icWide icWide_Select(icWide mask, icWide a, icWide b) {
    return icWide_Make_(mask.v[0] != 0 ? a.v[0] : b.v[0], mask.v[1] != 0 ? a.v[1] : b.v[1]);
}
static inline double icWide_Lane(icWide a, int lane) { return a.v[lane]; }

#endif
