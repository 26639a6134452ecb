// SPDX-License-Identifier: MIT
// The wide-number layer in portable C: 4 floats or 2 doubles as 16-byte compiler vector types
// (GCC and Clang lower them to whatever the target has: SSE2 on any x86-64, NEON, or plain
// scalar code). Four independent tets interleave their long sqrt/division chains, which one
// lane at a time cannot. Every lane does exactly the scalar layer's operations.
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef IC_WIDE_AT
/// The vertex record at byte offset off from base (blocks store byte offsets, not indices,
/// so a gather is one load and one add per lane).
#define IC_WIDE_AT(base, off) ((__typeof__(base))((const char *)(base) + (off)))
#endif

typedef float icWp4f __attribute__((vector_size(16)));
typedef int icWp4fm __attribute__((vector_size(16)));
typedef double icWp2d __attribute__((vector_size(16)));
typedef long long icWp2dm __attribute__((vector_size(16)));

// Fused multiply-add lane by lane: one instruction where the including file compiles for FMA
// on x86-64 (IC_WIDE_PORTABLE_X86_FMA), else fmaf / fma (a call on x86-64 without FMA).
#if defined(IC_WIDE_PORTABLE_X86_FMA)
#include <immintrin.h>
static inline icWp4f icWp4f_FmaLanes_(icWp4f a, icWp4f b, icWp4f c) {
    return (icWp4f)_mm_fmadd_ps((__m128)a, (__m128)b, (__m128)c);
}
static inline icWp2d icWp2d_FmaLanes_(icWp2d a, icWp2d b, icWp2d c) {
    return (icWp2d)_mm_fmadd_pd((__m128d)a, (__m128d)b, (__m128d)c);
}
#else
static inline icWp4f icWp4f_FmaLanes_(icWp4f a, icWp4f b, icWp4f c) {
    for (int k = 0; k < 4; ++k) a[k] = fmaf(a[k], b[k], c[k]);
    return a;
}
static inline icWp2d icWp2d_FmaLanes_(icWp2d a, icWp2d b, icWp2d c) {
    for (int k = 0; k < 2; ++k) a[k] = fma(a[k], b[k], c[k]);
    return a;
}
#endif

#define IC_WIDE_PORTABLE_OPS_(T, M, R, N, SQRT, SIGN)                                                 \
    static inline T T##_Set(R x) { return (T){0} + x; }                                        \
    static inline T T##_Load(const R *p) {                                                     \
        T a;                                                                                   \
        memcpy(&a, p, sizeof a);                                                               \
        return a;                                                                              \
    }                                                                                          \
    static inline void T##_Store(R *p, T a) { memcpy(p, &a, sizeof a); }                       \
    static inline T T##_Add(T a, T b) { return a + b; }                                        \
    static inline T T##_Sub(T a, T b) { return a - b; }                                        \
    static inline T T##_Mul(T a, T b) { return a * b; }                                        \
    static inline T T##_Div(T a, T b) { return a / b; }                                        \
    static inline T T##_Sqrt(T a) {                                                            \
        for (int k = 0; k < N; ++k) a[k] = SQRT(a[k]);                                         \
        return a;                                                                              \
    }                                                                                          \
    static inline T T##_Fma(T a, T b, T c) { return T##_FmaLanes_(a, b, c); }                 \
    static inline T T##_Fms(T a, T b, T c) { return T##_Fma(a, b, -c); }                       \
    static inline T T##_Fnma(T a, T b, T c) { return T##_Fma(-a, b, c); }                      \
    static inline T T##_Neg(T a) { return -a; }                                                \
    static inline T T##_Abs(T a) { return (T)((M)a & ~SIGN); }                                 \
    static inline M T##_Gt(T a, T b) { return (M)(a > b); }                                    \
    static inline M T##_Ge(T a, T b) { return (M)(a >= b); }                                   \
    static inline M T##_Or(M a, M b) { return a | b; }                                         \
    static inline T T##_Select(M m, T a, T b) { return (T)(((M)a & m) | ((M)b & ~m)); }       \
    static inline int T##_CountFalse(M m) {                                                    \
        int n = 0;                                                                             \
        for (int k = 0; k < N; ++k) n += m[k] == 0;                                            \
        return n;                                                                              \
    }

#define IC_WIDE_SIGN_F_ ((icWp4fm){INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN})
#define IC_WIDE_SIGN_D_ ((icWp2dm){INT64_MIN, INT64_MIN})
IC_WIDE_PORTABLE_OPS_(icWp4f, icWp4fm, float, 4, sqrtf, IC_WIDE_SIGN_F_)
IC_WIDE_PORTABLE_OPS_(icWp2d, icWp2dm, double, 2, sqrt, IC_WIDE_SIGN_D_)
#undef IC_WIDE_SIGN_F_
#undef IC_WIDE_SIGN_D_
#undef IC_WIDE_PORTABLE_OPS_

// Vertex records (x, y, z, w) of 4 lanes to 4 values: whole-record loads and a 4x4
// transpose the compiler turns into shuffles (element by element it goes through memory).
__attribute__((always_inline)) static inline void icWp4f_Gather4(const float *base, const unsigned *off, icWp4f *x,
                                                                 icWp4f *y, icWp4f *z, icWp4f *w) {
    icWp4f r0 = icWp4f_Load(IC_WIDE_AT(base, off[0])), r1 = icWp4f_Load(IC_WIDE_AT(base, off[1]));
    icWp4f r2 = icWp4f_Load(IC_WIDE_AT(base, off[2])), r3 = icWp4f_Load(IC_WIDE_AT(base, off[3]));
    *x = (icWp4f){r0[0], r1[0], r2[0], r3[0]};
    *y = (icWp4f){r0[1], r1[1], r2[1], r3[1]};
    *z = (icWp4f){r0[2], r1[2], r2[2], r3[2]};
    *w = (icWp4f){r0[3], r1[3], r2[3], r3[3]};
}

__attribute__((always_inline)) static inline void icWp4f_Scatter4(float *base, const unsigned *off, icWp4f x, icWp4f y,
                                                                  icWp4f z, icWp4f w) {
    icWp4f_Store(IC_WIDE_AT(base, off[0]), (icWp4f){x[0], y[0], z[0], w[0]});
    icWp4f_Store(IC_WIDE_AT(base, off[1]), (icWp4f){x[1], y[1], z[1], w[1]});
    icWp4f_Store(IC_WIDE_AT(base, off[2]), (icWp4f){x[2], y[2], z[2], w[2]});
    icWp4f_Store(IC_WIDE_AT(base, off[3]), (icWp4f){x[3], y[3], z[3], w[3]});
}

// Two records of 4 doubles (two values each) to 4 values of 2 lanes.
__attribute__((always_inline)) static inline void icWp2d_Gather4(const double *base, const unsigned *off, icWp2d *x,
                                                                 icWp2d *y, icWp2d *z, icWp2d *w) {
    const double *p0 = IC_WIDE_AT(base, off[0]), *p1 = IC_WIDE_AT(base, off[1]);
    icWp2d a0 = icWp2d_Load(p0), b0 = icWp2d_Load(p0 + 2), a1 = icWp2d_Load(p1), b1 = icWp2d_Load(p1 + 2);
    *x = (icWp2d){a0[0], a1[0]};
    *y = (icWp2d){a0[1], a1[1]};
    *z = (icWp2d){b0[0], b1[0]};
    *w = (icWp2d){b0[1], b1[1]};
}

__attribute__((always_inline)) static inline void icWp2d_Scatter4(double *base, const unsigned *off, icWp2d x, icWp2d y,
                                                                  icWp2d z, icWp2d w) {
    double *p0 = IC_WIDE_AT(base, off[0]), *p1 = IC_WIDE_AT(base, off[1]);
    icWp2d_Store(p0, (icWp2d){x[0], y[0]});
    icWp2d_Store(p0 + 2, (icWp2d){z[0], w[0]});
    icWp2d_Store(p1, (icWp2d){x[1], y[1]});
    icWp2d_Store(p1 + 2, (icWp2d){z[1], w[1]});
}
