// SPDX-License-Identifier: MIT
// Symmetric eigen-decompositions by cyclic Jacobi rotations (3x3 and small n x n).
#include "isochor/svd.h"

#include <float.h>
#include <string.h>

// Relative off-diagonal size at which the sweeps stop (the generic Hessian projection asks for
// 1e-14).
#define IC_JACOBI_TOLERANCE 1e-15

// Rotation that annihilates a_pq of a symmetric matrix: returns (c, s) with t = s / c the
// smaller root of t^2 + 2 theta t - 1 = 0, theta = (a_qq - a_pp) / (2 a_pq). With
// d = a_qq - a_pp, g = 2 a_pq, h = sqrt(d^2 + g^2): t = sgn(d) g/(h + |d|), and
// w = sqrt(2h(h + |d|)) gives c = (h + |d|)/w, s = sgn(d) g/w: two square roots and one
// division in the dependency chain instead of five long operations.
static void jacobiRotation(icReal app, icReal aqq, icReal apq, icReal *c, icReal *s, icReal *t) {
    icReal d = aqq - app, g = 2 * apq;
    icReal h = sqrt(d * d + g * g), hd = h + fabs(d);
    icReal sg = d >= 0 ? g : -g;
    icReal inv = 1 / sqrt(2 * h * hd);
    *c = hd * inv;
    *s = sg * inv;
    *t = sg / hd;
}

int icSymmetricEigen(int n, const icReal *a, icReal *values, icReal *vectors, int maxSweeps) {
    if (n < 1 || n > IC_SYM_EIGEN_MAX) return -1;
    icReal m[IC_SYM_EIGEN_MAX * IC_SYM_EIGEN_MAX];
    icReal q[IC_SYM_EIGEN_MAX * IC_SYM_EIGEN_MAX];
    icReal norm2 = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            m[i + n * j] = 0.5 * (a[i + n * j] + a[j + n * i]);
            q[i + n * j] = i == j;
            norm2 += m[i + n * j] * m[i + n * j];
        }
    icReal stop2 = IC_JACOBI_TOLERANCE * IC_JACOBI_TOLERANCE * norm2;
    int sweep = 0;
    for (; sweep < maxSweeps; ++sweep) {
        icReal off2 = 0;
        for (int j = 0; j < n; ++j)
            for (int i = j + 1; i < n; ++i) off2 += 2 * m[i + n * j] * m[i + n * j];
        if (!(off2 > stop2)) break;
        for (int p = 0; p < n - 1; ++p)
            for (int qq = p + 1; qq < n; ++qq) {
                icReal apq = m[p + n * qq];
                if (apq == 0) continue;
                icReal c, s, t;
                jacobiRotation(m[p + n * p], m[qq + n * qq], apq, &c, &s, &t);
                // A <- G^T A G on rows/columns p, q
                for (int k = 0; k < n; ++k) {
                    icReal akp = m[k + n * p], akq = m[k + n * qq];
                    m[k + n * p] = c * akp - s * akq;
                    m[k + n * qq] = s * akp + c * akq;
                }
                for (int k = 0; k < n; ++k) {
                    icReal apk = m[p + n * k], aqk = m[qq + n * k];
                    m[p + n * k] = c * apk - s * aqk;
                    m[qq + n * k] = s * apk + c * aqk;
                }
                m[p + n * qq] = m[qq + n * p] = 0;
                for (int k = 0; k < n; ++k) {
                    icReal vkp = q[k + n * p], vkq = q[k + n * qq];
                    q[k + n * p] = c * vkp - s * vkq;
                    q[k + n * qq] = s * vkp + c * vkq;
                }
            }
    }
    // Selection sort ascending (n is small), moving eigenvector columns along.
    int order[IC_SYM_EIGEN_MAX];
    for (int i = 0; i < n; ++i) order[i] = i;
    for (int i = 0; i < n; ++i) {
        int best = i;
        for (int k = i + 1; k < n; ++k)
            if (m[order[k] * (n + 1)] < m[order[best] * (n + 1)]) best = k;
        int t = order[i];
        order[i] = order[best];
        order[best] = t;
    }
    for (int i = 0; i < n; ++i) {
        values[i] = m[order[i] * (n + 1)];
        if (vectors) memcpy(vectors + n * i, q + n * order[i], sizeof(icReal) * (size_t)n);
    }
    return sweep;
}

void icMat3_SymmetricEigen(icMat3 a, icVec3 *values, icMat3 *vectors) {
    // Unrolled copy of the n x n routine: the analytic projections call it once per tet.
    icReal m[3][3], q[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    icReal norm2 = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            m[i][j] = 0.5 * (icMat3_At(&a, i, j) + icMat3_At(&a, j, i));
            norm2 += m[i][j] * m[i][j];
        }
    icReal stop2 = IC_JACOBI_TOLERANCE * IC_JACOBI_TOLERANCE * norm2;
    static const int pairs[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}}; // p, q, other
    for (int sweep = 0; sweep < 32; ++sweep) {
        icReal off2 = 2 * (m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2]);
        if (!(off2 > stop2)) break;
        for (int k = 0; k < 3; ++k) {
            int p = pairs[k][0], r = pairs[k][1], o = pairs[k][2];
            icReal apq = m[p][r];
            // Rotations below rounding of the diagonal change nothing: skip them.
            if (fabs(apq) <= 1e-17 * (fabs(m[p][p]) + fabs(m[r][r])) || apq == 0) continue;
            icReal c, s, t;
            jacobiRotation(m[p][p], m[r][r], apq, &c, &s, &t);
            m[p][p] -= t * apq;
            m[r][r] += t * apq;
            m[p][r] = m[r][p] = 0;
            icReal aop = m[o][p], aoq = m[o][r];
            m[o][p] = m[p][o] = c * aop - s * aoq;
            m[o][r] = m[r][o] = s * aop + c * aoq;
            for (int i = 0; i < 3; ++i) {
                icReal vp = q[i][p], vq = q[i][r];
                q[i][p] = c * vp - s * vq;
                q[i][r] = s * vp + c * vq;
            }
        }
    }
    int o0 = 0, o1 = 1, o2 = 2, t;
    if (m[o1][o1] < m[o0][o0]) t = o0, o0 = o1, o1 = t;
    if (m[o2][o2] < m[o1][o1]) t = o1, o1 = o2, o2 = t;
    if (m[o1][o1] < m[o0][o0]) t = o0, o0 = o1, o1 = t;
    int ord[3] = {o0, o1, o2};
    icMat3 v;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) icMat3_Set(&v, i, j, q[i][ord[j]]);
    if (icMat3_Det(v) < 0) v.col[0] = icVec3_Neg(v.col[0]);
    *values = icVec3_Make(m[o0][o0], m[o1][o1], m[o2][o2]);
    *vectors = v;
}
