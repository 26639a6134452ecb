// SPDX-License-Identifier: MIT
// Corotated linear elasticity on the rotation-variant SVD: energy, stress, exact dP.
#include "fem/material_internal.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include "math/transpose4.h"
#endif

// |s_i + s_j| below this makes R non-differentiable; keep the sign.
#define IC_COROTATED_GUARD 1e-6

static icReal guardedSum(icReal a, icReal b) {
    icReal d = a + b;
    return fabs(d) >= IC_COROTATED_GUARD ? d : copysign(IC_COROTATED_GUARD, d);
}

static icReal sumS(const icSvd3 *svd) { return svd->s.x + svd->s.y + svd->s.z; }

// Psi = mu sum (s_i - 1)^2 + lambda/2 (sum s_i - 3)^2 (Sifakis & Barbič 2012, sec. 3.4)
icReal icCorotated_Energy(const icMaterial *m, const icSvd3 *svd) {
    icReal a = svd->s.x - 1, b = svd->s.y - 1, c = svd->s.z - 1, t = sumS(svd) - 3;
    return m->mu * (a * a + b * b + c * c) + 0.5 * m->lambda * t * t;
}

// dP = 2 mu dF + lambda tr(R^T dF) R + (lambda tr(S - I) - 2 mu) dR, evaluated in the SVD
// frame: dFh = U^T dF V, R^T dR ~ Om with Om_ij = (dFh_ij - dFh_ji)/(s_i + s_j).
icMat3 icCorotated_Differential(const icMaterial *m, const icSvd3 *svd, icMat3 dF) {
    icMat3 dfh = icMat3_Mul(icMat3_Transpose(svd->U), icMat3_Mul(dF, svd->V));
    icReal tr = icMat3_Trace(dfh);
    icReal sv[3] = {svd->s.x, svd->s.y, svd->s.z};
    icMat3 inner = icMat3_Scale(2 * m->mu, dfh);
    for (int i = 0; i < 3; ++i) icMat3_Set(&inner, i, i, icMat3_At(&inner, i, i) + m->lambda * tr);
    if (!m->approximateTangent) {
        icReal c = m->lambda * (sv[0] + sv[1] + sv[2] - 3) - 2 * m->mu;
        for (int i = 0; i < 3; ++i)
            for (int j = i + 1; j < 3; ++j) {
                icReal om = (icMat3_At(&dfh, i, j) - icMat3_At(&dfh, j, i)) / guardedSum(sv[i], sv[j]);
                icMat3_Set(&inner, i, j, icMat3_At(&inner, i, j) + c * om);
                icMat3_Set(&inner, j, i, icMat3_At(&inner, j, i) - c * om);
            }
    }
    return icMat3_MulTrans(icMat3_Mul(svd->U, inner), svd->V);
}

// Closed-form eigenvalues (corotated). Dropping dR sets the twists to 2 mu.
void icCorotated_SingularHessian(const icMaterial *m, icVec3 s, icSingularHessian *out) {
    icReal sv[3] = {s.x, s.y, s.z};
    icReal t = sv[0] + sv[1] + sv[2] - 3;
    for (int k = 0; k < 3; ++k) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        out->twist[k] = m->approximateTangent
                            ? 2 * m->mu
                            : 2 * m->mu + (2 * m->lambda * t - 4 * m->mu) / guardedSum(sv[i], sv[j]);
        out->flip[k] = 2 * m->mu;
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) icMat3_Set(&out->A, i, j, m->lambda + (i == j ? 2 * m->mu : 0));
}

// Hf = 2mu I9 + lambda vec(R) vec(R)^T + sum_k (twist_k - 2mu) t_k t_k^T (the flips are 2mu
// and the scaling block 2mu I + lambda 1 1^T, whose 1-direction is vec(R)/sqrt3).
// With project, the twists are clamped at 0 (and the volume value 2mu + 3lambda too).
void icCorotated_Hessian(const icMaterial *m, const icSvd3 *svd, bool project, icReal h[81]) {
    icSingularHessian sh;
    icCorotated_SingularHessian(m, svd->s, &sh);
    icMat3 R = icMat3_MulTrans(svd->U, svd->V);
    const icReal *r = (const icReal *)&R;
    icReal lam = m->lambda;
    if (project && 2 * m->mu + 3 * lam < 0) lam = -2 * m->mu / 3; // volume eigenvalue -> 0
    for (int c = 0; c < 9; ++c)
        for (int q = 0; q < 9; ++q) h[q + 9 * c] = lam * r[q] * r[c];
    for (int i = 0; i < 9; ++i) h[10 * i] += 2 * m->mu;
    for (int k = 0; k < 3; ++k) {
        icReal value = sh.twist[k];
        if (project && value < 0) value = 0;
        icReal w = value - 2 * m->mu;
        if (w == 0) continue;
        int i = (k + 1) % 3, j = (k + 2) % 3;
        // t_k = vec(u_i v_j^T - u_j v_i^T) / sqrt2
        icReal t[9];
        for (int col = 0; col < 3; ++col)
            for (int row = 0; row < 3; ++row)
                t[3 * col + row] = 0.70710678118654752440 *
                                   (icVec3_Get(svd->U.col[i], row) * icVec3_Get(svd->V.col[j], col) -
                                    icVec3_Get(svd->U.col[j], row) * icVec3_Get(svd->V.col[i], col));
        for (int c = 0; c < 9; ++c) {
            icReal wc = w * t[c];
            for (int q = 0; q < 9; ++q) h[q + 9 * c] += wc * t[q];
        }
    }
}

// The same Hessian in rank-one form, Hf = 2mu I9 + sum_m c_m vec(M_m) vec(M_m)^T with M_0 = R
// (c_0 = lambda) and M_k = t_k (c_k = twist_k - 2mu), pushed through K_e = W B^T Hf B:
// B^T vec(M) = vec(M Q^T), whose column a is M g_a, so block (a, b) is
// W [2mu (g_a . g_b) I + sum_m c_m (M_m g_a)(M_m g_b)^T] for all four vertices (g_4 = -sum
// g_a). With p_a = V^T g_a: R g_a = U p_a and t_k g_a = (u_i p_a[j] - u_j p_a[i]) / sqrt2.
// A fraction of the work of forming the 9x9 Hessian and then the blocks.
void icCorotated_TetBlocks(const icMaterial *m, const icSvd3 *svd, bool project,
                           const icTetRest *rest, icReal blocks[10][9]) {
    icSingularHessian sh;
    icCorotated_SingularHessian(m, svd->s, &sh);
    const icReal W = rest->W;
    icReal u[3][3], v[3][3], g[4][3], p[4][3];
    memcpy(u, &svd->U, sizeof u); // u[c] = column c
    memcpy(v, &svd->V, sizeof v);
    for (int j = 0; j < 3; ++j) {
        for (int a = 0; a < 3; ++a) g[a][j] = icMat3_At(&rest->Q, a, j);
        g[3][j] = -(g[0][j] + g[1][j] + g[2][j]);
    }
    for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c) p[a][c] = v[c][0] * g[a][0] + v[c][1] * g[a][1] + v[c][2] * g[a][2];
    icReal weight[4];
    icReal beta[4][4][3]; // beta[term][a] = M_term g_a
    int terms = 0;
    icReal lam = m->lambda;
    if (project && 2 * m->mu + 3 * lam < 0) lam = -2 * m->mu / 3; // volume eigenvalue -> 0
    if (lam != 0) {
        weight[terms] = W * lam;
        for (int a = 0; a < 4; ++a)
            for (int r = 0; r < 3; ++r)
                beta[terms][a][r] = u[0][r] * p[a][0] + u[1][r] * p[a][1] + u[2][r] * p[a][2];
        ++terms;
    }
    const icReal invSqrt2 = 0.70710678118654752440;
    for (int k = 0; k < 3; ++k) {
        icReal value = sh.twist[k];
        if (project && value < 0) value = 0;
        icReal w = value - 2 * m->mu;
        if (w == 0) continue;
        int i = (k + 1) % 3, j = (k + 2) % 3;
        weight[terms] = W * w;
        for (int a = 0; a < 4; ++a)
            for (int r = 0; r < 3; ++r)
                beta[terms][a][r] = invSqrt2 * (u[i][r] * p[a][j] - u[j][r] * p[a][i]);
        ++terms;
    }
    // gamma = c beta, so that each entry is one multiply-add per term, kept in registers.
    icReal gamma[4][4][3];
    for (int t = 0; t < terms; ++t)
        for (int a = 0; a < 4; ++a)
            for (int r = 0; r < 3; ++r) gamma[t][a][r] = weight[t] * beta[t][a][r];
    const icReal shear = W * 2 * m->mu;
    int out = 0;
    // Each block's nine sums stay in registers across the terms.
    for (int a = 0; a < 4; ++a)
        for (int b = a; b < 4; ++b, ++out) {
            icReal d = shear * (g[a][0] * g[b][0] + g[a][1] * g[b][1] + g[a][2] * g[b][2]);
            icReal s00 = d, s10 = 0, s20 = 0, s01 = 0, s11 = d, s21 = 0, s02 = 0, s12 = 0, s22 = d;
            for (int t = 0; t < terms; ++t) {
                const icReal *ga = gamma[t][a], *bb = beta[t][b];
                s00 += ga[0] * bb[0];
                s10 += ga[1] * bb[0];
                s20 += ga[2] * bb[0];
                s01 += ga[0] * bb[1];
                s11 += ga[1] * bb[1];
                s21 += ga[2] * bb[1];
                s02 += ga[0] * bb[2];
                s12 += ga[1] * bb[2];
                s22 += ga[2] * bb[2];
            }
            // Diagonal blocks are symmetric: mirror the upper triangle (exact symmetry).
            if (a == b) {
                s10 = s01;
                s20 = s02;
                s21 = s12;
            }
            icReal *blk = blocks[out]; // column-major: blk[3 k + i] = (i, k)
            blk[0] = s00, blk[1] = s10, blk[2] = s20;
            blk[3] = s01, blk[4] = s11, blk[5] = s21;
            blk[6] = s02, blk[7] = s12, blk[8] = s22;
        }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Writes entry j of lane l, r_j[l], to o_l[j] for four entries j and four lanes (a 4 x 4
// transpose in registers).
__attribute__((target("avx2"), always_inline)) static inline void
storeLanes4(icReal *o0, icReal *o1, icReal *o2, icReal *o3, __m256d r0, __m256d r1, __m256d r2,
            __m256d r3) {
    __m256d t0, t1, t2, t3;
    icTranspose4d(r0, r1, r2, r3, &t0, &t1, &t2, &t3);
    _mm256_storeu_pd(o0, t0);
    _mm256_storeu_pd(o1, t1);
    _mm256_storeu_pd(o2, t2);
    _mm256_storeu_pd(o3, t3);
}

// icCorotated_TetBlocks on four tets at once, one per 4-wide lane: every operation of the
// scalar function, in its order, on each lane (terms a lane skips are masked out, not added
// as zero), so each tet gets the bits the scalar function gives it.
__attribute__((target("avx2"))) static void tetBlocks4Avx2(const icMaterial *m,
                                                            const icSvd3 svd[4], bool project,
                                                            const icTetRest *const rest[4],
                                                            icReal blocks[4][10][9]) {
#define IC_LANES(expr) _mm256_setr_pd(expr(0), expr(1), expr(2), expr(3))
    const __m256d zero = _mm256_setzero_pd(), signMask = _mm256_set1_pd(-0.0);
    const __m256d twoMu = _mm256_set1_pd(2 * m->mu);
    __m256d sv[3], u[3][3], v[3][3], g[4][3], p[4][3];
#define IC_S(c, l) icVec3_Get(svd[l].s, c)
#define IC_S0(l) IC_S(0, l)
#define IC_S1(l) IC_S(1, l)
#define IC_S2(l) IC_S(2, l)
    sv[0] = IC_LANES(IC_S0);
    sv[1] = IC_LANES(IC_S1);
    sv[2] = IC_LANES(IC_S2);
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            u[c][r] = _mm256_setr_pd(icVec3_Get(svd[0].U.col[c], r), icVec3_Get(svd[1].U.col[c], r),
                                     icVec3_Get(svd[2].U.col[c], r), icVec3_Get(svd[3].U.col[c], r));
            v[c][r] = _mm256_setr_pd(icVec3_Get(svd[0].V.col[c], r), icVec3_Get(svd[1].V.col[c], r),
                                     icVec3_Get(svd[2].V.col[c], r), icVec3_Get(svd[3].V.col[c], r));
        }
    __m256d W = _mm256_setr_pd(rest[0]->W, rest[1]->W, rest[2]->W, rest[3]->W);
    for (int j = 0; j < 3; ++j) {
        for (int a = 0; a < 3; ++a)
            g[a][j] = _mm256_setr_pd(icMat3_At(&rest[0]->Q, a, j), icMat3_At(&rest[1]->Q, a, j),
                                     icMat3_At(&rest[2]->Q, a, j), icMat3_At(&rest[3]->Q, a, j));
        g[3][j] = _mm256_xor_pd(signMask, _mm256_add_pd(_mm256_add_pd(g[0][j], g[1][j]), g[2][j]));
    }
    for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c)
            p[a][c] = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(v[c][0], g[a][0]),
                                                  _mm256_mul_pd(v[c][1], g[a][1])),
                                    _mm256_mul_pd(v[c][2], g[a][2]));
    // icCorotated_SingularHessian's twists.
    __m256d twist[3];
    __m256d t = _mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(sv[0], sv[1]), sv[2]), _mm256_set1_pd(3));
    for (int k = 0; k < 3; ++k) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        if (m->approximateTangent) {
            twist[k] = twoMu;
            continue;
        }
        // guardedSum: |d| >= guard ? d : copysign(guard, d)
        __m256d d = _mm256_add_pd(sv[i], sv[j]);
        __m256d guard = _mm256_set1_pd(IC_COROTATED_GUARD);
        __m256d big = _mm256_cmp_pd(_mm256_andnot_pd(signMask, d), guard, _CMP_GE_OQ);
        __m256d small = _mm256_or_pd(_mm256_and_pd(signMask, d), guard);
        d = _mm256_blendv_pd(small, d, big);
        __m256d num = _mm256_sub_pd(_mm256_mul_pd(_mm256_set1_pd(2 * m->lambda), t),
                                    _mm256_set1_pd(4 * m->mu));
        twist[k] = _mm256_add_pd(twoMu, _mm256_div_pd(num, d));
    }
    __m256d weight[4], active[4], beta[4][4][3];
    int terms = 0;
    icReal lam = m->lambda;
    if (project && 2 * m->mu + 3 * lam < 0) lam = -2 * m->mu / 3;
    if (lam != 0) {
        weight[terms] = _mm256_mul_pd(W, _mm256_set1_pd(lam));
        active[terms] = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
        for (int a = 0; a < 4; ++a)
            for (int r = 0; r < 3; ++r)
                beta[terms][a][r] = _mm256_add_pd(
                    _mm256_add_pd(_mm256_mul_pd(u[0][r], p[a][0]), _mm256_mul_pd(u[1][r], p[a][1])),
                    _mm256_mul_pd(u[2][r], p[a][2]));
        ++terms;
    }
    const __m256d invSqrt2 = _mm256_set1_pd(0.70710678118654752440);
    for (int k = 0; k < 3; ++k) {
        __m256d value = twist[k];
        if (project) value = _mm256_blendv_pd(value, zero, _mm256_cmp_pd(value, zero, _CMP_LT_OQ));
        __m256d w = _mm256_sub_pd(value, twoMu);
        active[terms] = _mm256_cmp_pd(w, zero, _CMP_NEQ_UQ); // the scalar skips w == 0
        if (_mm256_movemask_pd(active[terms]) == 0) continue;
        int i = (k + 1) % 3, j = (k + 2) % 3;
        weight[terms] = _mm256_mul_pd(W, w);
        for (int a = 0; a < 4; ++a)
            for (int r = 0; r < 3; ++r)
                beta[terms][a][r] = _mm256_mul_pd(
                    invSqrt2, _mm256_sub_pd(_mm256_mul_pd(u[i][r], p[a][j]),
                                            _mm256_mul_pd(u[j][r], p[a][i])));
        ++terms;
    }
    __m256d gamma[4][4][3];
    for (int tt = 0; tt < terms; ++tt)
        for (int a = 0; a < 4; ++a)
            for (int r = 0; r < 3; ++r) gamma[tt][a][r] = _mm256_mul_pd(weight[tt], beta[tt][a][r]);
    const __m256d shear = _mm256_mul_pd(_mm256_mul_pd(W, _mm256_set1_pd(2)), _mm256_set1_pd(m->mu));
    int out = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = a; b < 4; ++b, ++out) {
            __m256d d = _mm256_mul_pd(
                shear, _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(g[a][0], g[b][0]),
                                                   _mm256_mul_pd(g[a][1], g[b][1])),
                                     _mm256_mul_pd(g[a][2], g[b][2])));
            // The nine sums in named registers (an array here stayed on the stack, each term a
            // load, blend and store per entry).
            __m256d e00 = d, e01 = zero, e02 = zero; // e<k><i> = entry (i, k)
            __m256d e10 = zero, e11 = d, e12 = zero;
            __m256d e20 = zero, e21 = zero, e22 = d;
#define IC_TERM(k, i)                                                                              \
    e##k##i = _mm256_blendv_pd(                                                                    \
        e##k##i, _mm256_add_pd(e##k##i, _mm256_mul_pd(gamma[tt][a][i], beta[tt][b][k])), on)
            for (int tt = 0; tt < terms; ++tt) {
                __m256d on = active[tt];
                IC_TERM(0, 0);
                IC_TERM(0, 1);
                IC_TERM(0, 2);
                IC_TERM(1, 0);
                IC_TERM(1, 1);
                IC_TERM(1, 2);
                IC_TERM(2, 0);
                IC_TERM(2, 1);
                IC_TERM(2, 2);
            }
#undef IC_TERM
            if (a == b) {
                e01 = e10;
                e02 = e20;
                e12 = e21;
            }
            // Entries 3k + i of the four lanes' blocks: two 4 x 4 transposes and one entry.
            storeLanes4(blocks[0][out], blocks[1][out], blocks[2][out], blocks[3][out], e00, e01,
                        e02, e10);
            storeLanes4(blocks[0][out] + 4, blocks[1][out] + 4, blocks[2][out] + 4,
                        blocks[3][out] + 4, e11, e12, e20, e21);
            icReal last[4];
            _mm256_storeu_pd(last, e22);
            for (int l = 0; l < 4; ++l) blocks[l][out][8] = last[l];
        }
#undef IC_S
#undef IC_S0
#undef IC_S1
#undef IC_S2
#undef IC_LANES
}
#endif

void icCorotated_TetBlocks4(const icMaterial *m, const icSvd3 svd[4], bool project,
                            const icTetRest *const rest[4], icReal blocks[4][10][9]) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx2")) {
        tetBlocks4Avx2(m, svd, project, rest, blocks);
        return;
    }
#endif
    for (int l = 0; l < 4; ++l) icCorotated_TetBlocks(m, &svd[l], project, rest[l], blocks[l]);
}
