// SPDX-License-Identifier: MIT
// Linear (small-strain) elasticity: energy, stress, differential, constant Hessian.
#include "fem/material_internal.h"

#include <string.h>

// Sifakis & Barbič 2012, sec. 3.2: eps = (F + F^T)/2 - I.
icReal icLinear_Energy(const icMaterial *m, icMat3 F) {
    icMat3 eps = icMat3_Sub(icMat3_Scale(0.5, icMat3_Add(F, icMat3_Transpose(F))),
                            icMat3_Identity());
    icReal tr = icMat3_Trace(eps);
    return m->mu * icMat3_DDot(eps, eps) + 0.5 * m->lambda * tr * tr;
}

// P = mu (F + F^T - 2I) + lambda tr(F - I) I
icMat3 icLinear_Stress(const icMaterial *m, icMat3 F) {
    icMat3 p = icMat3_Scale(m->mu, icMat3_Add(F, icMat3_Transpose(F)));
    icReal d = m->lambda * (icMat3_Trace(F) - 3) - 2 * m->mu;
    p.col[0].x += d;
    p.col[1].y += d;
    p.col[2].z += d;
    return p;
}

// dP = mu (dF + dF^T) + lambda tr(dF) I
icMat3 icLinear_Differential(const icMaterial *m, icMat3 dF) {
    icMat3 p = icMat3_Scale(m->mu, icMat3_Add(dF, icMat3_Transpose(dF)));
    icReal d = m->lambda * icMat3_Trace(dF);
    p.col[0].x += d;
    p.col[1].y += d;
    p.col[2].z += d;
    return p;
}

// mu (I9 + T) + lambda vec(I) vec(I)^T, T the transpose permutation.
void icLinear_Hessian(const icMaterial *m, icReal h[81]) {
    memset(h, 0, sizeof(icReal) * 81);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            h[IC_VEC(i, j) + 9 * IC_VEC(i, j)] += m->mu;
            h[IC_VEC(i, j) + 9 * IC_VEC(j, i)] += m->mu;
            h[IC_VEC(i, i) + 9 * IC_VEC(j, j)] += m->lambda;
        }
}
