// SPDX-License-Identifier: MIT
// Corotated linear elasticity on the rotation-variant SVD: energy, stress, exact dP.
#include "fem/material_internal.h"

// |s_i + s_j| below this makes R non-differentiable; keep the sign (spec 2.3).
#define IC_COROTATED_GUARD 1e-6

static icReal guardedSum(icReal a, icReal b) {
    icReal d = a + b;
    return fabs(d) >= IC_COROTATED_GUARD ? d : copysign(IC_COROTATED_GUARD, d);
}

static icReal sumS(const icSvd3 *svd) { return svd->s.x + svd->s.y + svd->s.z; }

// Psi = mu sum (s_i - 1)^2 + lambda/2 (sum s_i - 3)^2 (spec 2.3, seed 004 section 3.4)
icReal icCorotated_Energy(const icMaterial *m, const icSvd3 *svd) {
    icReal a = svd->s.x - 1, b = svd->s.y - 1, c = svd->s.z - 1, t = sumS(svd) - 3;
    return m->mu * (a * a + b * b + c * c) + 0.5 * m->lambda * t * t;
}

// U diag(sigma) V^T applied with columns scaled.
static icMat3 composeDiag(const icSvd3 *svd, icReal d0, icReal d1, icReal d2) {
    icMat3 us = icMat3_FromCols(icVec3_Scale(d0, svd->U.col[0]), icVec3_Scale(d1, svd->U.col[1]),
                                icVec3_Scale(d2, svd->U.col[2]));
    return icMat3_MulTrans(us, svd->V);
}

// P = U [2 mu (Sigma - I) + lambda tr(Sigma - I) I] V^T
icMat3 icCorotated_Stress(const icMaterial *m, const icSvd3 *svd) {
    icReal t = m->lambda * (sumS(svd) - 3);
    return composeDiag(svd, 2 * m->mu * (svd->s.x - 1) + t, 2 * m->mu * (svd->s.y - 1) + t,
                       2 * m->mu * (svd->s.z - 1) + t);
}

// dP = 2 mu dF + lambda tr(R^T dF) R + (lambda tr(S - I) - 2 mu) dR, evaluated in the SVD
// frame: dFh = U^T dF V, R^T dR ~ Om with Om_ij = (dFh_ij - dFh_ji)/(s_i + s_j) (spec 2.3).
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

// Spec 3.3 (corotated). Dropping dR sets the twists to 2 mu.
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

// Hf = 2mu I9 + lambda vec(R) vec(R)^T + sum_k (twist_k - 2mu) t_k t_k^T (spec 3.3: the flips
// are 2mu and the scaling block 2mu I + lambda 1 1^T, whose 1-direction is vec(R)/sqrt3).
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
