// SPDX-License-Identifier: MIT
// The wide-number layer doubled: a pair of values of one width as one value, so the sweep
// kernel runs two independent groups of lanes side by side (the two halves of a block). The
// long dependency chain of a projection (two divisions, a square root) then overlaps with
// the other group's, which an out-of-order core cannot do across ~600 instructions by
// itself. Loads, stores, gathers and scatters take a pointer per half. Every lane does what
// the base width does: the same bits.
#pragma once

// The double kernel does not fuse; clang warns of unused inline functions a macro defines in a
// source file.
#define IC_WIDE_PAIR_MAYBE_UNUSED_ __attribute__((unused))

/// Declares the pair type P of base type T (mask type T##m, numbers R).
#define IC_WIDE_PAIR(P, T, R)                                                                        \
    typedef struct P {                                                                               \
        T v[2];                                                                                      \
    } P;                                                                                             \
    typedef struct P##m {                                                                            \
        T##m v[2];                                                                                   \
    } P##m;                                                                                          \
    static inline P P##_Set(R x) { return (P){{T##_Set(x), T##_Set(x)}}; }                           \
    static inline P P##_Load2(const R *p0, const R *p1) { return (P){{T##_Load(p0), T##_Load(p1)}}; } \
    static inline void P##_Store2(R *p0, R *p1, P a) {                                               \
        T##_Store(p0, a.v[0]);                                                                       \
        T##_Store(p1, a.v[1]);                                                                       \
    }                                                                                                \
    static inline P P##_Add(P a, P b) { return (P){{T##_Add(a.v[0], b.v[0]), T##_Add(a.v[1], b.v[1])}}; } \
    static inline P P##_Sub(P a, P b) { return (P){{T##_Sub(a.v[0], b.v[0]), T##_Sub(a.v[1], b.v[1])}}; } \
    static inline P P##_Mul(P a, P b) { return (P){{T##_Mul(a.v[0], b.v[0]), T##_Mul(a.v[1], b.v[1])}}; } \
    IC_WIDE_PAIR_MAYBE_UNUSED_ static inline P P##_Fma(P a, P b, P c) { return (P){{T##_Fma(a.v[0], b.v[0], c.v[0]), T##_Fma(a.v[1], b.v[1], c.v[1])}}; } \
    IC_WIDE_PAIR_MAYBE_UNUSED_ static inline P P##_Fms(P a, P b, P c) { return (P){{T##_Fms(a.v[0], b.v[0], c.v[0]), T##_Fms(a.v[1], b.v[1], c.v[1])}}; } \
    IC_WIDE_PAIR_MAYBE_UNUSED_ static inline P P##_Fnma(P a, P b, P c) { return (P){{T##_Fnma(a.v[0], b.v[0], c.v[0]), T##_Fnma(a.v[1], b.v[1], c.v[1])}}; } \
    static inline P P##_Div(P a, P b) { return (P){{T##_Div(a.v[0], b.v[0]), T##_Div(a.v[1], b.v[1])}}; } \
    static inline P P##_Sqrt(P a) { return (P){{T##_Sqrt(a.v[0]), T##_Sqrt(a.v[1])}}; }             \
    static inline P P##_Neg(P a) { return (P){{T##_Neg(a.v[0]), T##_Neg(a.v[1])}}; }                \
    static inline P P##_Abs(P a) { return (P){{T##_Abs(a.v[0]), T##_Abs(a.v[1])}}; }                \
    static inline P##m P##_Gt(P a, P b) { return (P##m){{T##_Gt(a.v[0], b.v[0]), T##_Gt(a.v[1], b.v[1])}}; } \
    static inline P##m P##_Ge(P a, P b) { return (P##m){{T##_Ge(a.v[0], b.v[0]), T##_Ge(a.v[1], b.v[1])}}; } \
    static inline P##m P##_Or(P##m a, P##m b) { return (P##m){{T##_Or(a.v[0], b.v[0]), T##_Or(a.v[1], b.v[1])}}; } \
    static inline P P##_Select(P##m m, P a, P b) {                                                   \
        return (P){{T##_Select(m.v[0], a.v[0], b.v[0]), T##_Select(m.v[1], a.v[1], b.v[1])}};        \
    }                                                                                                \
    static inline int P##_CountFalse2(P##m m) { return T##_CountFalse(m.v[0]) + T##_CountFalse(m.v[1]); } \
    static inline void P##_Gather4x2(const R *base, const unsigned *off0, const unsigned *off1, P *x, P *y, \
                                     P *z, P *w) {                                                   \
        T##_Gather4(base, off0, &x->v[0], &y->v[0], &z->v[0], &w->v[0]);                             \
        T##_Gather4(base, off1, &x->v[1], &y->v[1], &z->v[1], &w->v[1]);                             \
    }                                                                                                \
    static inline void P##_Scatter4x2(R *base, const unsigned *off0, const unsigned *off1, P x, P y, P z, P w) { \
        T##_Scatter4(base, off0, x.v[0], y.v[0], z.v[0], w.v[0]);                                    \
        T##_Scatter4(base, off1, x.v[1], y.v[1], z.v[1], w.v[1]);                                    \
    }
