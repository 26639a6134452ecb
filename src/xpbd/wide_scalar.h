// SPDX-License-Identifier: MIT
// The wide-number layer at one lane: plain float and double with the operations of the
// vector widths, so the sweep kernel compiles unchanged for every width (STYLE.md).
#pragma once

#ifndef IC_WIDE_AT
/// The vertex record at byte offset off from base (blocks store byte offsets, not indices,
/// so a gather is one load and one add per lane).
#define IC_WIDE_AT(base, off) ((__typeof__(base))((const char *)(base) + (off)))
#endif

#include <math.h>
#include <stdbool.h>

typedef float icWf1;
typedef double icWd1;
typedef bool icWf1m;
typedef bool icWd1m;

#define IC_WIDE_SCALAR_OPS_(T, R, SQRT, FABS, FMA)                                                      \
    static inline T T##_Set(R x) { return x; }                                                 \
    static inline T T##_Load(const R *p) { return *p; }                                        \
    static inline void T##_Store(R *p, T a) { *p = a; }                                        \
    static inline T T##_Add(T a, T b) { return a + b; }                                        \
    static inline T T##_Sub(T a, T b) { return a - b; }                                        \
    static inline T T##_Mul(T a, T b) { return a * b; }                                        \
    static inline T T##_Div(T a, T b) { return a / b; }                                        \
    static inline T T##_Fma(T a, T b, T c) { return FMA(a, b, c); }                            \
    static inline T T##_Fms(T a, T b, T c) { return FMA(a, b, -c); }                           \
    static inline T T##_Fnma(T a, T b, T c) { return FMA(-a, b, c); }                          \
    static inline T T##_Sqrt(T a) { return SQRT(a); }                                          \
    static inline T T##_Neg(T a) { return -a; }                                                \
    static inline T T##_Abs(T a) { return FABS(a); }                                           \
    static inline bool T##_Gt(T a, T b) { return a > b; }                                      \
    static inline bool T##_Ge(T a, T b) { return a >= b; }                                     \
    static inline bool T##_Or(bool a, bool b) { return a || b; }                               \
    static inline T T##_Select(bool m, T a, T b) { return m ? a : b; }                         \
    static inline int T##_CountFalse(bool m) { return m ? 0 : 1; }                             \
    /* One vertex record (x, y, z, w) of lane 0.            */                                     \
    static inline void T##_Gather4(const R *base, const unsigned *off, T *x, T *y, T *z, T *w) {    \
        const R *p = IC_WIDE_AT(base, off[0]);                                                \
        *x = p[0];                                                                             \
        *y = p[1];                                                                             \
        *z = p[2];                                                                             \
        *w = p[3];                                                                             \
    }                                                                                          \
    static inline void T##_Scatter4(R *base, const unsigned *off, T x, T y, T z, T w) {             \
        R *p = IC_WIDE_AT(base, off[0]);                                                      \
        p[0] = x;                                                                              \
        p[1] = y;                                                                              \
        p[2] = z;                                                                              \
        p[3] = w;                                                                              \
    }

IC_WIDE_SCALAR_OPS_(icWf1, float, sqrtf, fabsf, fmaf)
IC_WIDE_SCALAR_OPS_(icWd1, double, sqrt, fabs, fma)
#undef IC_WIDE_SCALAR_OPS_
