// SPDX-License-Identifier: MIT
// St. Venant-Kirchhoff: energy, stress, differential and singular-frame Hessian.
#include "fem/material_internal.h"

// Green strain E = (F^T F - I)/2 (Sifakis & Barbič 2012, sec. 3.3).
static icMat3 greenStrain(icMat3 F) {
    return icMat3_Scale(0.5, icMat3_Sub(icMat3_Mul(icMat3_Transpose(F), F), icMat3_Identity()));
}

icReal icStvk_Energy(const icMaterial *m, icMat3 F) {
    icMat3 e = greenStrain(F);
    icReal tr = icMat3_Trace(e);
    return m->mu * icMat3_DDot(e, e) + 0.5 * m->lambda * tr * tr;
}

// S = 2 mu E + lambda tr(E) I
static icMat3 secondPiola(const icMaterial *m, icMat3 e) {
    icMat3 s = icMat3_Scale(2 * m->mu, e);
    icReal d = m->lambda * icMat3_Trace(e);
    s.col[0].x += d;
    s.col[1].y += d;
    s.col[2].z += d;
    return s;
}

// P = F S
icMat3 icStvk_Stress(const icMaterial *m, icMat3 F) { return icMat3_Mul(F, secondPiola(m, greenStrain(F))); }

// dP = dF S + F (2 mu dE + lambda tr(dE) I), dE = (dF^T F + F^T dF)/2 (Sifakis & Barbič
// 2012, sec. 4.3)
icMat3 icStvk_Differential(const icMaterial *m, icMat3 F, icMat3 dF) {
    icMat3 s = secondPiola(m, greenStrain(F));
    icMat3 ftdf = icMat3_Mul(icMat3_Transpose(F), dF);
    icMat3 de = icMat3_Scale(0.5, icMat3_Add(icMat3_Transpose(ftdf), ftdf));
    return icMat3_Add(icMat3_Mul(dF, s), icMat3_Mul(F, secondPiola(m, de)));
}

// Closed-form eigenvalues (StVK).
void icStvk_SingularHessian(const icMaterial *m, icVec3 s, icSingularHessian *out) {
    icReal sv[3] = {s.x, s.y, s.z};
    icReal ic = sv[0] * sv[0] + sv[1] * sv[1] + sv[2] * sv[2];
    icReal vol = 0.5 * m->lambda * (ic - 3);
    for (int k = 0; k < 3; ++k) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        icReal a = sv[i] * sv[i] + sv[j] * sv[j] - 1, b = sv[i] * sv[j];
        out->twist[k] = m->mu * (a - b) + vol;
        out->flip[k] = m->mu * (a + b) + vol;
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            icReal v = i == j ? m->mu * (3 * sv[i] * sv[i] - 1) + vol + m->lambda * sv[i] * sv[i]
                              : m->lambda * sv[i] * sv[j];
            icMat3_Set(&out->A, i, j, v);
        }
}

// Hf[(i,j),(a,b)] = delta_ia S_bj + mu (F_ib F_aj + (F F^T)_ia delta_bj) + lambda F_ij F_ab,
// the coefficients of dF_ab in dP_ij above, written out.
void icStvk_Hessian(const icMaterial *m, icMat3 F, icReal h[81]) {
    icMat3 S = secondPiola(m, greenStrain(F));
    icMat3 ffT = icMat3_MulTrans(F, F);
    for (int b = 0; b < 3; ++b)
        for (int a = 0; a < 3; ++a)
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 3; ++i) {
                    icReal v = m->mu * icMat3_At(&F, i, b) * icMat3_At(&F, a, j) +
                               m->lambda * icMat3_At(&F, i, j) * icMat3_At(&F, a, b);
                    if (i == a) v += icMat3_At(&S, b, j);
                    if (b == j) v += m->mu * icMat3_At(&ffT, i, a);
                    h[IC_VEC(i, j) + 9 * IC_VEC(a, b)] = v;
                }
}
