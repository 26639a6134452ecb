// SPDX-License-Identifier: MIT
// Rotation-variant 3x3 SVD (U and V rotations, s3 carries the sign of det A) and polar
// decomposition.
#include "isochor/svd.h"
#include "math/svd_internal.h"
#include "math/wide.h"

#include <float.h>
#include <stddef.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define IC_SVD_AVX2 1
#endif

// Convergence threshold of the one-sided Jacobi: columns p, q count as orthogonal when
// |b_p . b_q| <= tol |b_p| |b_q|. A few ulps, so that rounding cannot keep it sweeping.
#define IC_SVD_TOLERANCE (4.0 * DBL_EPSILON)
#define IC_SVD_MAX_SWEEPS 24

static icReal maxAbsEntry(icMat3 a) {
    const icReal *p = (const icReal *)&a;
    icReal m = 0;
    for (int i = 0; i < 9; ++i) {
        icReal v = fabs(p[i]);
        // NaN propagates: fmax would drop it
        m = (v > m || v != v) ? v : m;
    }
    return m;
}

// A unit vector perpendicular to unit u (used when a singular value is exactly zero).
static icVec3 anyPerpendicular(icVec3 u) {
    icReal ax = fabs(u.x), ay = fabs(u.y), az = fabs(u.z);
    icVec3 e = ax <= ay && ax <= az ? icVec3_Make(1, 0, 0)
               : (ay <= az ? icVec3_Make(0, 1, 0) : icVec3_Make(0, 0, 1));
    return icVec3_Normalize(icVec3_Cross(u, e));
}

// Swaps columns p and q of B and V, negating the new column q of both so that V stays a
// proper rotation (McAdams et al. 2011 sort step; the sign of a column of B is irrelevant
// because U is built from B afterwards).
static void swapColumns(icVec3 *b, icVec3 *v, int p, int q) {
    icVec3 t = b[p];
    b[p] = b[q];
    b[q] = icVec3_Neg(t);
    t = v[p];
    v[p] = v[q];
    v[q] = icVec3_Neg(t);
}

// One Jacobi rotation of columns p, q of B (and V) that makes b_p . b_q = 0. Returns the
// squared cosine of the angle between the columns before the rotation, 0 when they were
// already orthogonal to the tolerance (no rotation).
static inline icReal rotatePair(icVec3 *bp, icVec3 *bq, icVec3 *vp, icVec3 *vq) {
    icReal alpha = icVec3_Dot(*bp, *bp), beta = icVec3_Dot(*bq, *bq);
    icReal gamma = icVec3_Dot(*bp, *bq);
    icReal ab = alpha * beta;
    if (gamma * gamma <= IC_SVD_TOLERANCE * IC_SVD_TOLERANCE * ab) return 0;
    // The rotation with tan = t, t the smaller root of t^2 + 2 zeta t - 1 = 0,
    // zeta = (beta - alpha)/(2 gamma). With d = beta - alpha, g = 2 gamma and
    // h = sqrt(d^2 + g^2): t = sgn(d) g/(h + |d|), and w = sqrt(2h(h + |d|)) gives
    // c = (h + |d|)/w, s = sgn(d) g/w exactly (c^2 + s^2 = 1) with two square roots and one
    // division in the dependency chain, and no cancellation.
    icReal d = beta - alpha, g = 2 * gamma;
    icReal h = sqrt(d * d + g * g), hd = h + fabs(d);
    icReal inv = 1 / sqrt(2 * h * hd);
    icReal c = hd * inv, s = (d >= 0 ? g : -g) * inv;
    icVec3 p = *bp, q = *bq;
    *bp = icVec3_Sub(icVec3_Scale(c, p), icVec3_Scale(s, q));
    *bq = icVec3_Add(icVec3_Scale(s, p), icVec3_Scale(c, q));
    p = *vp, q = *vq;
    *vp = icVec3_Sub(icVec3_Scale(c, p), icVec3_Scale(s, q));
    *vq = icVec3_Add(icVec3_Scale(s, p), icVec3_Scale(c, q));
    return ab > 0 ? gamma * gamma / ab : 1;
}

static icSvd3 finishSvd(icVec3 b[3], icVec3 v[3], icReal scale);

// One-sided (Hestenes) Jacobi: right-multiply B = A by rotations until its columns are
// mutually orthogonal; then B = U diag(s) and V is the product of the rotations. Unlike
// Jacobi on A^T A (McAdams et al.), the column inner products are recomputed from B, so a
// tiny singular value keeps its relative accuracy (A^T A squares the condition number).
// Same operation mix (add, multiply, sqrt, divide), no trigonometry.
icSvd3 icMat3_Svd(icMat3 a) {
    icSvd3 out;
    out.U = icMat3_Identity();
    out.V = icMat3_Identity();
    out.s = icVec3_Make(0, 0, 0);
    icReal scale = maxAbsEntry(a);
    if (!isfinite(scale)) {
        out.s = icVec3_Make(NAN, NAN, NAN);
        return out;
    }
    if (scale == 0) return out;

    // Work on A / max|a_ij| so squares neither overflow nor underflow.
    icReal inv = 1.0 / scale;
    icVec3 b[3] = {icVec3_Scale(inv, a.col[0]), icVec3_Scale(inv, a.col[1]),
                   icVec3_Scale(inv, a.col[2])};
    icVec3 v[3] = {icVec3_Make(1, 0, 0), icVec3_Make(0, 1, 0), icVec3_Make(0, 0, 1)};
    // Cyclic sweeps over the pairs (0,1), (0,2), (1,2), written out so that the columns stay
    // in registers.
    // Convergence is quadratic: after a sweep whose rotations all started from cosines
    // below 1e-8 the columns are orthogonal to rounding, so no checking sweep is needed.
    for (int sweep = 0; sweep < IC_SVD_MAX_SWEEPS; ++sweep) {
        icReal c01 = rotatePair(&b[0], &b[1], &v[0], &v[1]);
        icReal c02 = rotatePair(&b[0], &b[2], &v[0], &v[2]);
        icReal c12 = rotatePair(&b[1], &b[2], &v[1], &v[2]);
        if (fmax(c01, fmax(c02, c12)) < 1e-16) break;
    }

    return finishSvd(b, v, scale);
}

// Sorts the orthogonalised columns of B (and V) and builds U and the signed singular values
// (scale undoes the normalisation of A).
static icSvd3 finishSvd(icVec3 b[3], icVec3 v[3], icReal scale) {
    icSvd3 out;
    // Sort columns by decreasing norm.
    icReal n0 = icVec3_LengthSquared(b[0]), n1 = icVec3_LengthSquared(b[1]),
           n2 = icVec3_LengthSquared(b[2]);
    if (n0 < n1) {
        swapColumns(b, v, 0, 1);
        icReal t = n0;
        n0 = n1;
        n1 = t;
    }
    if (n0 < n2) {
        swapColumns(b, v, 0, 2);
        icReal t = n0;
        n0 = n2;
        n2 = t;
    }
    if (n1 < n2) {
        swapColumns(b, v, 1, 2);
        icReal t = n1;
        n1 = n2;
        n2 = t;
    }

    // U = [u1, u2, u1 x u2] is a proper rotation by construction; with V proper too, the
    // sign of s3 = u3 . b3 is the sign of det A (the rotation-variant convention).
    icReal s1 = sqrt(n0);
    icVec3 u1 = icVec3_Scale(1.0 / s1, b[0]);
    icVec3 w = icVec3_MulAdd(b[1], -icVec3_Dot(u1, b[1]), u1);
    icReal wn = icVec3_Length(w);
    icVec3 u2 = wn > 0 ? icVec3_Scale(1.0 / wn, w) : anyPerpendicular(u1);
    icVec3 u3 = icVec3_Cross(u1, u2);
    icReal s2 = icVec3_Dot(u2, b[1]);
    icReal s3 = icVec3_Dot(u3, b[2]);
    // Rounding may break the ordering by an ulp when singular values repeat.
    if (s2 > s1) s2 = s1;
    if (fabs(s3) > s2) s3 = copysign(s2, s3);

    out.U = icMat3_FromCols(u1, u2, u3);
    out.V = icMat3_FromCols(v[0], v[1], v[2]);
    out.s = icVec3_Make(s1 * scale, s2 * scale, s3 * scale);
    return out;
}

// Givens rotation acting on rows p, q of the 3x3 R (and columns p, q of Qacc) that zeroes
// R(q, col) using the pivot R(p, col); the new pivot is >= 0.
static void givensZero(icReal r[3][3], icReal qacc[3][3], int p, int q, int col) {
    icReal x = r[p][col], y = r[q][col];
    icReal h = hypot(x, y);
    if (h == 0) return;
    icReal c = x / h, s = y / h;
    for (int j = 0; j < 3; ++j) {
        icReal rp = r[p][j], rq = r[q][j];
        r[p][j] = c * rp + s * rq;
        r[q][j] = -s * rp + c * rq;
    }
    for (int i = 0; i < 3; ++i) {
        icReal ap = qacc[i][p], aq = qacc[i][q];
        qacc[i][p] = c * ap + s * aq;
        qacc[i][q] = -s * ap + c * aq;
    }
}

// Reference path: V from the symmetric eigen-problem of A^T A, B = A V sorted, Givens QR of B.
icSvd3 icMat3_SvdReference(icMat3 a) {
    icSvd3 out;
    icMat3 ata = icMat3_Mul(icMat3_Transpose(a), a);
    icVec3 ev;
    icMat3 v;
    icMat3_SymmetricEigen(ata, &ev, &v); // ascending, v a rotation
    // descending order: reverse the columns; (c2, c1, c0) is a reflection, so negate one
    v = icMat3_FromCols(v.col[2], v.col[1], icVec3_Neg(v.col[0]));
    icMat3 bm = icMat3_Mul(a, v);
    icReal r[3][3], q[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            r[i][j] = icMat3_At(&bm, i, j);
            q[i][j] = i == j;
        }
    givensZero(r, q, 0, 1, 0);
    givensZero(r, q, 0, 2, 0);
    givensZero(r, q, 1, 2, 1);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) icMat3_Set(&out.U, i, j, q[i][j]);
    out.V = v;
    out.s = icVec3_Make(r[0][0], r[1][1], r[2][2]);
    // Q is a product of rotations and V a rotation, so r22 already carries sign(det A).
    return out;
}

icMat3 icSvd3_Compose(const icSvd3 *svd) {
    icMat3 us = icMat3_FromCols(icVec3_Scale(svd->s.x, svd->U.col[0]),
                                icVec3_Scale(svd->s.y, svd->U.col[1]),
                                icVec3_Scale(svd->s.z, svd->U.col[2]));
    return icMat3_MulTrans(us, svd->V);
}

void icMat3_Polar(icMat3 a, icMat3 *r, icMat3 *s) {
    icSvd3 svd = icMat3_Svd(a);
    if (r) *r = icMat3_MulTrans(svd.U, svd.V);
    if (s) {
        icMat3 vs = icMat3_FromCols(icVec3_Scale(svd.s.x, svd.V.col[0]),
                                    icVec3_Scale(svd.s.y, svd.V.col[1]),
                                    icVec3_Scale(svd.s.z, svd.V.col[2]));
        *s = icMat3_MulTrans(vs, svd.V);
    }
}

// ---------------------------------------------------------------------------------------
// Four SVDs at once: the same sweeps on four independent matrices, so that the long
// square-root / division chains of the rotations overlap (a single SVD is latency-bound).
// A lane whose columns are already orthogonal gets the exact identity rotation (d = 1,
// g = 0 gives c = 1, s = 0), so lanes do not disturb each other.

#define IC_SVD_LANES 4

typedef struct icSvdLanes {
    icReal b[3][3][IC_SVD_LANES]; ///< [column][component][lane]
    icReal v[3][3][IC_SVD_LANES];
} icSvdLanes;

// rotatePair on all lanes, two at a time in wide registers (same operations per lane).
static icReal rotateLanes(icSvdLanes *L, int p, int q) {
    const icWide tol2 = icWide_Set(IC_SVD_TOLERANCE * IC_SVD_TOLERANCE);
    const icWide one = icWide_Set(1), zero = icWide_Set(0), two = icWide_Set(2);
    icReal worst = 0;
    for (int w = 0; w < IC_SVD_LANES; w += 2) {
        icWide bp[3], bq[3], vp[3], vq[3];
        for (int i = 0; i < 3; ++i) {
            bp[i] = icWide_Load(&L->b[p][i][w]);
            bq[i] = icWide_Load(&L->b[q][i][w]);
            vp[i] = icWide_Load(&L->v[p][i][w]);
            vq[i] = icWide_Load(&L->v[q][i][w]);
        }
        icWide alpha = icWide_Add(icWide_Add(icWide_Mul(bp[0], bp[0]), icWide_Mul(bp[1], bp[1])),
                                  icWide_Mul(bp[2], bp[2]));
        icWide beta = icWide_Add(icWide_Add(icWide_Mul(bq[0], bq[0]), icWide_Mul(bq[1], bq[1])),
                                 icWide_Mul(bq[2], bq[2]));
        icWide gamma = icWide_Add(icWide_Add(icWide_Mul(bp[0], bq[0]), icWide_Mul(bp[1], bq[1])),
                                  icWide_Mul(bp[2], bq[2]));
        icWide ab = icWide_Mul(alpha, beta), gg = icWide_Mul(gamma, gamma);
        icWide rotate = icWide_Greater(gg, icWide_Mul(tol2, ab));
        icWide d = icWide_Select(rotate, icWide_Sub(beta, alpha), one);
        icWide g = icWide_Select(rotate, icWide_Mul(two, gamma), zero);
        icWide h = icWide_Sqrt(icWide_Add(icWide_Mul(d, d), icWide_Mul(g, g)));
        icWide hd = icWide_Add(h, icWide_Abs(d));
        icWide inv = icWide_Div(one, icWide_Sqrt(icWide_Mul(icWide_Mul(two, h), hd)));
        icWide c = icWide_Mul(hd, inv);
        icWide s = icWide_Mul(icWide_Select(icWide_GreaterEqual(d, zero), g, icWide_Neg(g)), inv);
        // cosine^2 of the lanes that rotate (ab > 0 there: gamma != 0 needs both columns)
        icWide cos2 = icWide_Select(rotate, icWide_Div(gg, ab), zero);
        for (int l = 0; l < 2; ++l) worst = fmax(worst, icWide_Lane(cos2, l));
        for (int i = 0; i < 3; ++i) {
            icWide_Store(&L->b[p][i][w], icWide_Sub(icWide_Mul(c, bp[i]), icWide_Mul(s, bq[i])));
            icWide_Store(&L->b[q][i][w], icWide_Add(icWide_Mul(s, bp[i]), icWide_Mul(c, bq[i])));
            icWide_Store(&L->v[p][i][w], icWide_Sub(icWide_Mul(c, vp[i]), icWide_Mul(s, vq[i])));
            icWide_Store(&L->v[q][i][w], icWide_Add(icWide_Mul(s, vp[i]), icWide_Mul(c, vq[i])));
        }
    }
    return worst;
}

#ifdef IC_SVD_AVX2
// The four lanes of a batch in one 4-wide register: every lane does the operations of
// rotatePair / finishSvd in their order (no fused multiply-adds, correctly rounded sqrt and
// division), so the results are those of the two-wide path bit for bit
// (math.svd_batch_wide_same_bits). The columns stay in registers across a sweep.
typedef __m256d icLanes4;

// svdLanesAvx2 writes each result as 21 numbers: U by columns, s, V by columns.
_Static_assert(offsetof(icSvd3, s) == 9 * sizeof(double) &&
                   offsetof(icSvd3, V) == 12 * sizeof(double) &&
                   sizeof(icSvd3) == 21 * sizeof(double) && sizeof(icReal) == sizeof(double),
               "icSvd3 is 21 doubles: U, s, V");

__attribute__((target("avx2"), always_inline)) static inline icLanes4 dot4(const icLanes4 a[3],
                                                                           const icLanes4 b[3]) {
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(a[0], b[0]), _mm256_mul_pd(a[1], b[1])),
                         _mm256_mul_pd(a[2], b[2]));
}

// rotatePair on four lanes; returns the lanes' squared cosines (0 where no rotation).
__attribute__((target("avx2"), always_inline)) static inline icLanes4
rotate4(icLanes4 bp[3], icLanes4 bq[3], icLanes4 vp[3], icLanes4 vq[3]) {
    const icLanes4 tol2 = _mm256_set1_pd(IC_SVD_TOLERANCE * IC_SVD_TOLERANCE);
    const icLanes4 one = _mm256_set1_pd(1), zero = _mm256_setzero_pd(), two = _mm256_set1_pd(2);
    const icLanes4 sign = _mm256_set1_pd(-0.0);
    icLanes4 alpha = dot4(bp, bp), beta = dot4(bq, bq), gamma = dot4(bp, bq);
    icLanes4 ab = _mm256_mul_pd(alpha, beta), gg = _mm256_mul_pd(gamma, gamma);
    icLanes4 rotate = _mm256_cmp_pd(gg, _mm256_mul_pd(tol2, ab), _CMP_GT_OQ);
    icLanes4 d = _mm256_blendv_pd(one, _mm256_sub_pd(beta, alpha), rotate);
    icLanes4 g = _mm256_blendv_pd(zero, _mm256_mul_pd(two, gamma), rotate);
    icLanes4 h = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(d, d), _mm256_mul_pd(g, g)));
    icLanes4 hd = _mm256_add_pd(h, _mm256_andnot_pd(sign, d));
    icLanes4 inv = _mm256_div_pd(one, _mm256_sqrt_pd(_mm256_mul_pd(_mm256_mul_pd(two, h), hd)));
    icLanes4 c = _mm256_mul_pd(hd, inv);
    icLanes4 nonNegative = _mm256_cmp_pd(d, zero, _CMP_GE_OQ);
    icLanes4 s = _mm256_mul_pd(_mm256_blendv_pd(_mm256_xor_pd(sign, g), g, nonNegative), inv);
    for (int i = 0; i < 3; ++i) {
        icLanes4 p = bp[i], q = bq[i];
        bp[i] = _mm256_sub_pd(_mm256_mul_pd(c, p), _mm256_mul_pd(s, q));
        bq[i] = _mm256_add_pd(_mm256_mul_pd(s, p), _mm256_mul_pd(c, q));
        p = vp[i], q = vq[i];
        vp[i] = _mm256_sub_pd(_mm256_mul_pd(c, p), _mm256_mul_pd(s, q));
        vq[i] = _mm256_add_pd(_mm256_mul_pd(s, p), _mm256_mul_pd(c, q));
    }
    return _mm256_blendv_pd(zero, _mm256_div_pd(gg, ab), rotate);
}

// swapColumns(b, v, p, q) on the lanes of mask, and the squared norms with them.
__attribute__((target("avx2"), always_inline)) static inline void
swap4(icLanes4 b[3][3], icLanes4 v[3][3], icLanes4 *np, icLanes4 *nq, int p, int q, icLanes4 mask) {
    const icLanes4 sign = _mm256_set1_pd(-0.0);
    for (int i = 0; i < 3; ++i) {
        icLanes4 t = b[p][i];
        b[p][i] = _mm256_blendv_pd(t, b[q][i], mask);
        b[q][i] = _mm256_blendv_pd(b[q][i], _mm256_xor_pd(sign, t), mask);
        t = v[p][i];
        v[p][i] = _mm256_blendv_pd(t, v[q][i], mask);
        v[q][i] = _mm256_blendv_pd(v[q][i], _mm256_xor_pd(sign, t), mask);
    }
    icLanes4 t = *np;
    *np = _mm256_blendv_pd(t, *nq, mask);
    *nq = _mm256_blendv_pd(*nq, t, mask);
}

// One batch of four matrices in registers: B and V by [column][component], and each lane's scale.
typedef struct icSvdBatch4 {
    icLanes4 b[3][3], v[3][3], scale;
} icSvdBatch4;

// Loads four matrices scaled by their largest entries. Returns false when a lane needs the
// scalar path (a zero or non-finite matrix).
__attribute__((target("avx2"), always_inline)) static inline bool loadBatch4(const icMat3 *a,
                                                                             icSvdBatch4 *L) {
    const icLanes4 zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1);
    const icLanes4 sign = _mm256_set1_pd(-0.0), inf = _mm256_set1_pd(INFINITY);
    const double *m[4] = {(const double *)&a[0], (const double *)&a[1], (const double *)&a[2],
                          (const double *)&a[3]};
    icLanes4 scale = zero;
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 3; ++i) {
            int e = 3 * c + i;
            L->b[c][i] = _mm256_setr_pd(m[0][e], m[1][e], m[2][e], m[3][e]);
            scale = _mm256_max_pd(scale, _mm256_andnot_pd(sign, L->b[c][i]));
            L->v[c][i] = c == i ? one : zero;
        }
    // max ignores NaN (the other operand wins), so test each entry for NaN as well.
    icLanes4 bad = _mm256_cmp_pd(scale, zero, _CMP_EQ_OQ);
    bad = _mm256_or_pd(bad, _mm256_cmp_pd(scale, inf, _CMP_EQ_OQ));
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 3; ++i)
            bad = _mm256_or_pd(bad, _mm256_cmp_pd(L->b[c][i], L->b[c][i], _CMP_UNORD_Q));
    if (_mm256_movemask_pd(bad)) return false;
    icLanes4 inv = _mm256_div_pd(one, scale);
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 3; ++i) L->b[c][i] = _mm256_mul_pd(inv, L->b[c][i]);
    L->scale = scale;
    return true;
}

// Whether every lane's rotations of a sweep started from squared cosines below 1e-16 (the
// batch is done: see icMat3_Svd); w holds each lane's largest.
__attribute__((target("avx2"), always_inline)) static inline bool sweepDone4(icLanes4 w) {
    __m128d h = _mm_max_pd(_mm256_castpd256_pd128(w), _mm256_extractf128_pd(w, 1));
    h = _mm_max_sd(h, _mm_unpackhi_pd(h, h));
    return _mm_cvtsd_f64(h) < 1e-16;
}

// One cyclic sweep (0,1), (0,2), (1,2); true once the batch is done.
__attribute__((target("avx2"), always_inline)) static inline bool sweepBatch4(icSvdBatch4 *L) {
    icLanes4 w = rotate4(L->b[0], L->b[1], L->v[0], L->v[1]);
    w = _mm256_max_pd(w, rotate4(L->b[0], L->b[2], L->v[0], L->v[2]));
    w = _mm256_max_pd(w, rotate4(L->b[1], L->b[2], L->v[1], L->v[2]));
    return sweepDone4(w);
}

// One sweep of two batches with their rotations interleaved, so that the out-of-order core has
// both chains in flight (in sequence, the second batch's rotations wait behind the first's).
__attribute__((target("avx2"), always_inline)) static inline void
sweepBatch4Pair(icSvdBatch4 *A, icSvdBatch4 *B, bool done[2]) {
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    icLanes4 wa = _mm256_setzero_pd(), wb = wa;
    for (int k = 0; k < 3; ++k) {
        int p = pairs[k][0], q = pairs[k][1];
        wa = _mm256_max_pd(wa, rotate4(A->b[p], A->b[q], A->v[p], A->v[q]));
        wb = _mm256_max_pd(wb, rotate4(B->b[p], B->b[q], B->v[p], B->v[q]));
    }
    done[0] = sweepDone4(wa);
    done[1] = sweepDone4(wb);
}

// finishSvd, lane by lane in registers. Returns false, having written nothing, when a lane is
// rank one (its second column of U is any perpendicular: the scalar path).
__attribute__((target("avx2"), always_inline)) static inline bool finishBatch4(icSvdBatch4 *L,
                                                                               icSvd3 *out) {
    const icLanes4 zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1);
    const icLanes4 sign = _mm256_set1_pd(-0.0);
    icLanes4(*b)[3] = L->b, (*v)[3] = L->v;
    icLanes4 n0 = dot4(b[0], b[0]), n1 = dot4(b[1], b[1]), n2 = dot4(b[2], b[2]);
    swap4(b, v, &n0, &n1, 0, 1, _mm256_cmp_pd(n0, n1, _CMP_LT_OQ));
    swap4(b, v, &n0, &n2, 0, 2, _mm256_cmp_pd(n0, n2, _CMP_LT_OQ));
    swap4(b, v, &n1, &n2, 1, 2, _mm256_cmp_pd(n1, n2, _CMP_LT_OQ));
    icLanes4 s1 = _mm256_sqrt_pd(n0), r1 = _mm256_div_pd(one, s1), u1[3], w[3], u2[3], u3[3];
    for (int i = 0; i < 3; ++i) u1[i] = _mm256_mul_pd(r1, b[0][i]);
    icLanes4 k = _mm256_xor_pd(sign, dot4(u1, b[1]));
    for (int i = 0; i < 3; ++i) w[i] = _mm256_add_pd(b[1][i], _mm256_mul_pd(k, u1[i]));
    icLanes4 wn = _mm256_sqrt_pd(dot4(w, w));
    if (_mm256_movemask_pd(_mm256_cmp_pd(wn, zero, _CMP_NGT_UQ))) return false;
    icLanes4 r2 = _mm256_div_pd(one, wn);
    for (int i = 0; i < 3; ++i) u2[i] = _mm256_mul_pd(r2, w[i]);
    u3[0] = _mm256_sub_pd(_mm256_mul_pd(u1[1], u2[2]), _mm256_mul_pd(u1[2], u2[1]));
    u3[1] = _mm256_sub_pd(_mm256_mul_pd(u1[2], u2[0]), _mm256_mul_pd(u1[0], u2[2]));
    u3[2] = _mm256_sub_pd(_mm256_mul_pd(u1[0], u2[1]), _mm256_mul_pd(u1[1], u2[0]));
    icLanes4 s2 = dot4(u2, b[1]), s3 = dot4(u3, b[2]);
    s2 = _mm256_blendv_pd(s2, s1, _mm256_cmp_pd(s2, s1, _CMP_GT_OQ));
    icLanes4 s3abs = _mm256_andnot_pd(sign, s3);
    icLanes4 clamped = _mm256_or_pd(_mm256_andnot_pd(sign, s2), _mm256_and_pd(sign, s3));
    s3 = _mm256_blendv_pd(s3, clamped, _mm256_cmp_pd(s3abs, s2, _CMP_GT_OQ));
    double lanes[21][4];
    for (int i = 0; i < 3; ++i) {
        _mm256_storeu_pd(lanes[i], u1[i]);
        _mm256_storeu_pd(lanes[3 + i], u2[i]);
        _mm256_storeu_pd(lanes[6 + i], u3[i]);
        for (int c = 0; c < 3; ++c) _mm256_storeu_pd(lanes[12 + 3 * c + i], v[c][i]);
    }
    _mm256_storeu_pd(lanes[9], _mm256_mul_pd(s1, L->scale));
    _mm256_storeu_pd(lanes[10], _mm256_mul_pd(s2, L->scale));
    _mm256_storeu_pd(lanes[11], _mm256_mul_pd(s3, L->scale));
    for (int l = 0; l < 4; ++l) {
        double *o = (double *)&out[l];
        for (int e = 0; e < 21; ++e) o[e] = lanes[e][l];
    }
    return true;
}

// svdLanes on four finite, nonzero matrices. Returns false, having written nothing, when a
// lane needs the scalar path.
__attribute__((target("avx2"))) static bool svdLanesAvx2(const icMat3 *a, icSvd3 *out) {
    icSvdBatch4 L;
    if (!loadBatch4(a, &L)) return false;
    for (int sweep = 0; sweep < IC_SVD_MAX_SWEEPS; ++sweep)
        if (sweepBatch4(&L)) break;
    return finishBatch4(&L, out);
}

// Two batches of four at once: one batch's sweeps are a single chain of dependent square roots
// and divisions (~90 cycles a rotation), so two chains side by side keep the units busier.
// Each batch sweeps until its own lanes are done, exactly as svdLanesAvx2 alone: the same bits.
// Returns, per batch, whether it was written (false: that batch needs svdLanes).
__attribute__((target("avx2"))) static void svdLanesAvx2Pair(const icMat3 *a, icSvd3 *out,
                                                             bool written[2]) {
    icSvdBatch4 L[2];
    bool loaded[2], done[2];
    for (int k = 0; k < 2; ++k) done[k] = !(loaded[k] = loadBatch4(a + 4 * k, &L[k]));
    int sweep = 0;
    for (; sweep < IC_SVD_MAX_SWEEPS && !done[0] && !done[1]; ++sweep)
        sweepBatch4Pair(&L[0], &L[1], done);
    for (int k = 0; k < 2; ++k)
        for (int more = sweep; more < IC_SVD_MAX_SWEEPS && !done[k]; ++more)
            done[k] = sweepBatch4(&L[k]);
    for (int k = 0; k < 2; ++k) written[k] = loaded[k] && finishBatch4(&L[k], out + 4 * k);
}

// Eight lanes in one 8-wide register, two batches of four side by side: every lane does the
// operations of rotate4 in their order, and a batch's lanes stop rotating (masked) once that batch
// is done, so each batch gets the bits svdLanesAvx2 gives it. Zen 4 runs a 512-bit operation as
// two 256-bit halves, so this is two chains of four in lockstep with half the instructions of
// svdLanesAvx2Pair and the columns in registers (32 of them).
typedef __m512d icLanes8;

typedef struct icSvdBatch8 {
    icLanes8 b[3][3], v[3][3], scale;
} icSvdBatch8;

__attribute__((target("avx512f"), always_inline)) static inline icLanes8 dot8(const icLanes8 a[3],
                                                                              const icLanes8 b[3]) {
    return _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(a[0], b[0]), _mm512_mul_pd(a[1], b[1])),
                         _mm512_mul_pd(a[2], b[2]));
}

__attribute__((target("avx512f"), always_inline)) static inline icLanes8 negate8(icLanes8 a) {
    return _mm512_castsi512_pd(_mm512_xor_si512(
        _mm512_castpd_si512(a), _mm512_set1_epi64((long long)0x8000000000000000ull)));
}

// rotate4 on eight lanes; lanes outside live keep their columns. Returns the squared cosines (0
// where no rotation).
__attribute__((target("avx512f"), always_inline)) static inline icLanes8
rotate8(icLanes8 bp[3], icLanes8 bq[3], icLanes8 vp[3], icLanes8 vq[3], __mmask8 live) {
    const icLanes8 tol2 = _mm512_set1_pd(IC_SVD_TOLERANCE * IC_SVD_TOLERANCE);
    const icLanes8 one = _mm512_set1_pd(1), zero = _mm512_setzero_pd(), two = _mm512_set1_pd(2);
    icLanes8 alpha = dot8(bp, bp), beta = dot8(bq, bq), gamma = dot8(bp, bq);
    icLanes8 ab = _mm512_mul_pd(alpha, beta), gg = _mm512_mul_pd(gamma, gamma);
    __mmask8 rotate = _mm512_cmp_pd_mask(gg, _mm512_mul_pd(tol2, ab), _CMP_GT_OQ);
    icLanes8 d = _mm512_mask_blend_pd(rotate, one, _mm512_sub_pd(beta, alpha));
    icLanes8 g = _mm512_mask_blend_pd(rotate, zero, _mm512_mul_pd(two, gamma));
    icLanes8 h = _mm512_sqrt_pd(_mm512_add_pd(_mm512_mul_pd(d, d), _mm512_mul_pd(g, g)));
    icLanes8 hd = _mm512_add_pd(h, _mm512_abs_pd(d));
    icLanes8 inv = _mm512_div_pd(one, _mm512_sqrt_pd(_mm512_mul_pd(_mm512_mul_pd(two, h), hd)));
    icLanes8 c = _mm512_mul_pd(hd, inv);
    __mmask8 nonNegative = _mm512_cmp_pd_mask(d, zero, _CMP_GE_OQ);
    icLanes8 s = _mm512_mul_pd(_mm512_mask_blend_pd(nonNegative, negate8(g), g), inv);
    for (int i = 0; i < 3; ++i) {
        icLanes8 p = bp[i], q = bq[i];
        bp[i] =
            _mm512_mask_blend_pd(live, p, _mm512_sub_pd(_mm512_mul_pd(c, p), _mm512_mul_pd(s, q)));
        bq[i] =
            _mm512_mask_blend_pd(live, q, _mm512_add_pd(_mm512_mul_pd(s, p), _mm512_mul_pd(c, q)));
        p = vp[i], q = vq[i];
        vp[i] =
            _mm512_mask_blend_pd(live, p, _mm512_sub_pd(_mm512_mul_pd(c, p), _mm512_mul_pd(s, q)));
        vq[i] =
            _mm512_mask_blend_pd(live, q, _mm512_add_pd(_mm512_mul_pd(s, p), _mm512_mul_pd(c, q)));
    }
    return _mm512_maskz_div_pd(rotate, gg, ab);
}

// loadBatch4 for eight matrices; returns the lanes that need the scalar path.
__attribute__((target("avx512f"), always_inline)) static inline __mmask8
loadBatch8(const icMat3 *a, icSvdBatch8 *L) {
    const icLanes8 zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1);
    const icLanes8 inf = _mm512_set1_pd(INFINITY);
    const double *m = (const double *)a; // 9 doubles a matrix
    icLanes8 scale = zero;
    __mmask8 bad = 0;
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 3; ++i) {
            int e = 3 * c + i;
            L->b[c][i] = _mm512_setr_pd(m[e], m[9 + e], m[18 + e], m[27 + e], m[36 + e], m[45 + e],
                                        m[54 + e], m[63 + e]);
            scale = _mm512_max_pd(scale, _mm512_abs_pd(L->b[c][i]));
            bad |= _mm512_cmp_pd_mask(L->b[c][i], L->b[c][i], _CMP_UNORD_Q);
            L->v[c][i] = c == i ? one : zero;
        }
    bad |= _mm512_cmp_pd_mask(scale, zero, _CMP_EQ_OQ) | _mm512_cmp_pd_mask(scale, inf, _CMP_EQ_OQ);
    icLanes8 inv = _mm512_div_pd(one, scale);
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 3; ++i) L->b[c][i] = _mm512_mul_pd(inv, L->b[c][i]);
    L->scale = scale;
    return bad;
}

// svdLanesAvx2Pair's result with eight lanes in 8-wide registers (see icLanes8), nb such
// registers side by side (their rotations interleaved, as sweepBatch4Pair): two of them take
// 67 ns a matrix where one takes 81 and svdLanesAvx2Pair 80 (bench_fem_newton, Zen 4).
__attribute__((target("avx512f"), always_inline)) static inline void
svdLanesAvx512Group(const icMat3 *a, icSvd3 *out, int nb, bool *written) {
    _Static_assert(sizeof(icMat3) == 9 * sizeof(double), "icMat3 is 9 doubles");
    icSvdBatch8 L[2];
    __mmask8 live[2] = {0, 0};
    bool loaded[4];
    for (int j = 0; j < nb; ++j) {
        __mmask8 bad = loadBatch8(a + 8 * j, &L[j]);
        for (int k = 0; k < 2; ++k) {
            loaded[2 * j + k] = ((bad >> (4 * k)) & 15u) == 0;
            if (loaded[2 * j + k]) live[j] |= (__mmask8)(15u << (4 * k));
        }
    }
    const icLanes8 limit = _mm512_set1_pd(1e-16);
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int sweep = 0; sweep < IC_SVD_MAX_SWEEPS && (live[0] | live[1]); ++sweep) {
        icLanes8 w[2];
        for (int j = 0; j < nb; ++j) w[j] = _mm512_setzero_pd();
        for (int r = 0; r < 3; ++r) {
            int p = pairs[r][0], q = pairs[r][1];
            for (int j = 0; j < nb; ++j)
                w[j] = _mm512_max_pd(w[j],
                                     rotate8(L[j].b[p], L[j].b[q], L[j].v[p], L[j].v[q], live[j]));
        }
        for (int j = 0; j < nb; ++j) {
            __mmask8 going = _mm512_cmp_pd_mask(w[j], limit, _CMP_NLT_UQ);
            for (int k = 0; k < 2; ++k)
                if (!((going >> (4 * k)) & 15u)) live[j] &= (__mmask8) ~(15u << (4 * k));
        }
    }
    for (int j = 0; j < nb; ++j)
        for (int k = 0; k < 2; ++k) {
            written[2 * j + k] = false;
            if (!loaded[2 * j + k]) continue;
            icSvdBatch4 half;
            for (int c = 0; c < 3; ++c)
                for (int i = 0; i < 3; ++i) {
                    half.b[c][i] = k ? _mm512_extractf64x4_pd(L[j].b[c][i], 1)
                                     : _mm512_castpd512_pd256(L[j].b[c][i]);
                    half.v[c][i] = k ? _mm512_extractf64x4_pd(L[j].v[c][i], 1)
                                     : _mm512_castpd512_pd256(L[j].v[c][i]);
                }
            half.scale =
                k ? _mm512_extractf64x4_pd(L[j].scale, 1) : _mm512_castpd512_pd256(L[j].scale);
            written[2 * j + k] = finishBatch4(&half, out + 8 * j + 4 * k);
        }
}

__attribute__((target("avx512f"))) static void svdLanesAvx512(const icMat3 *a, icSvd3 *out,
                                                              bool *written) {
    svdLanesAvx512Group(a, out, 1, written);
}

__attribute__((target("avx512f"))) static void svdLanesAvx512Two(const icMat3 *a, icSvd3 *out,
                                                                 bool *written) {
    svdLanesAvx512Group(a, out, 2, written);
}
#endif

static void svdLanes(const icMat3 *a, icSvd3 *out) {
    icSvdLanes L;
    icReal scale[IC_SVD_LANES];
    bool special[IC_SVD_LANES];
    for (int l = 0; l < IC_SVD_LANES; ++l) {
        scale[l] = maxAbsEntry(a[l]);
        special[l] = !(isfinite(scale[l]) && scale[l] > 0); // zero or non-finite: scalar path
        icReal inv = special[l] ? 0 : 1.0 / scale[l];
        for (int c = 0; c < 3; ++c)
            for (int i = 0; i < 3; ++i) {
                L.b[c][i][l] = special[l] ? (icReal)(c == i) : inv * icVec3_Get(a[l].col[c], i);
                L.v[c][i][l] = c == i;
            }
    }
    for (int sweep = 0; sweep < IC_SVD_MAX_SWEEPS; ++sweep) {
        icReal w = rotateLanes(&L, 0, 1);
        w = fmax(w, rotateLanes(&L, 0, 2));
        w = fmax(w, rotateLanes(&L, 1, 2));
        if (w < 1e-16) break;
    }
    for (int l = 0; l < IC_SVD_LANES; ++l) {
        if (special[l]) {
            out[l] = icMat3_Svd(a[l]);
            continue;
        }
        icVec3 b[3], v[3];
        for (int c = 0; c < 3; ++c) {
            b[c] = icVec3_Make(L.b[c][0][l], L.b[c][1][l], L.b[c][2][l]);
            v[c] = icVec3_Make(L.v[c][0][l], L.v[c][1][l], L.v[c][2][l]);
        }
        out[l] = finishSvd(b, v, scale[l]);
    }
}

static int s_maxLanes = 8;

void icSvd_LimitLanes(int lanes) { s_maxLanes = lanes; }

void icMat3_SvdBatch(int count, const icMat3 *a, icSvd3 *out) {
    int i = 0;
#ifdef IC_SVD_AVX2
    if (s_maxLanes >= 4 && __builtin_cpu_supports("avx2")) {
        bool wide8 = s_maxLanes >= 8 && __builtin_cpu_supports("avx512f");
        if (wide8)
            for (; i + 4 * IC_SVD_LANES <= count; i += 4 * IC_SVD_LANES) {
                bool written[4];
                svdLanesAvx512Two(a + i, out + i, written);
                for (int k = 0; k < 4; ++k)
                    if (!written[k]) svdLanes(a + i + 4 * k, out + i + 4 * k);
            }
        for (; i + 2 * IC_SVD_LANES <= count; i += 2 * IC_SVD_LANES) {
            bool written[2];
            if (wide8)
                svdLanesAvx512(a + i, out + i, written);
            else
                svdLanesAvx2Pair(a + i, out + i, written);
            for (int k = 0; k < 2; ++k)
                if (!written[k]) svdLanes(a + i + 4 * k, out + i + 4 * k);
        }
        for (; i + IC_SVD_LANES <= count; i += IC_SVD_LANES)
            if (!svdLanesAvx2(a + i, out + i)) svdLanes(a + i, out + i);
        for (; i < count; ++i) out[i] = icMat3_Svd(a[i]);
        return;
    }
#endif
    for (; i + IC_SVD_LANES <= count; i += IC_SVD_LANES) svdLanes(a + i, out + i);
    for (; i < count; ++i) out[i] = icMat3_Svd(a[i]);
}
