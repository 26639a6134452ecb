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

#define IC_WIDE_PORTABLE_OPS_(T, M, R, N, SQRT, SIGN)                                             \
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
    }                                                                                          \
    static inline void T##_Gather4(const R *base, const unsigned *off, T *x, T *y, T *z, T *w) { \
        R lanes[4][N];                                                                         \
        for (int k = 0; k < N; ++k) {                                                          \
            const R *p = IC_WIDE_AT(base, off[k]);                                             \
            for (int c = 0; c < 4; ++c) lanes[c][k] = p[c];                                    \
        }                                                                                      \
        memcpy(x, lanes[0], sizeof *x);                                                        \
        memcpy(y, lanes[1], sizeof *y);                                                        \
        memcpy(z, lanes[2], sizeof *z);                                                        \
        memcpy(w, lanes[3], sizeof *w);                                                        \
    }                                                                                          \
    static inline void T##_Scatter4(R *base, const unsigned *off, T x, T y, T z, T w) {        \
        for (int k = 0; k < N; ++k) {                                                          \
            R *p = IC_WIDE_AT(base, off[k]);                                                   \
            p[0] = x[k];                                                                       \
            p[1] = y[k];                                                                       \
            p[2] = z[k];                                                                       \
            p[3] = w[k];                                                                       \
        }                                                                                      \
    }

#define IC_WIDE_SIGN_F_ ((icWp4fm){INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN})
#define IC_WIDE_SIGN_D_ ((icWp2dm){INT64_MIN, INT64_MIN})
IC_WIDE_PORTABLE_OPS_(icWp4f, icWp4fm, float, 4, sqrtf, IC_WIDE_SIGN_F_)
IC_WIDE_PORTABLE_OPS_(icWp2d, icWp2dm, double, 2, sqrt, IC_WIDE_SIGN_D_)
#undef IC_WIDE_SIGN_F_
#undef IC_WIDE_SIGN_D_
#undef IC_WIDE_PORTABLE_OPS_
