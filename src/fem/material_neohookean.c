// SPDX-License-Identifier: MIT
// Neo-Hookean with log J: energy, stress, differential, clamping of inverted F.
#include "fem/material_internal.h"

// F^-T = cof(F) / J (J > 0 here).
static icMat3 inverseTranspose(icMat3 F, icReal *J) {
    icMat3 cof = icMat3_Cofactor(F);
    *J = icVec3_Dot(F.col[0], cof.col[0]);
    return icMat3_Scale(1.0 / *J, cof);
}

// Psi = mu/2 (I_C - 3) - mu ln J + lambda/2 (ln J)^2 (Sifakis & Barbič 2012, sec. 3.6)
icReal icNeoHookean_Energy(const icMaterial *m, icMat3 F) {
    icReal J = icMat3_Det(F);
    if (!(J > 0)) return INFINITY;
    icReal lj = log(J);
    return 0.5 * m->mu * (icMat3_NormSquared(F) - 3) - m->mu * lj + 0.5 * m->lambda * lj * lj;
}

// P = mu (F - F^-T) + lambda ln(J) F^-T
icMat3 icNeoHookean_Stress(const icMaterial *m, icMat3 F) {
    icReal J;
    icMat3 fit = inverseTranspose(F, &J);
    return icMat3_Add(icMat3_Scale(m->mu, F), icMat3_Scale(m->lambda * log(J) - m->mu, fit));
}

// dP = mu dF + (mu - lambda ln J) F^-T dF^T F^-T + lambda tr(F^-1 dF) F^-T
// (Sifakis & Barbič 2012, sec. 4.3, the collected form)
icMat3 icNeoHookean_Differential(const icMaterial *m, icMat3 F, icMat3 dF) {
    icReal J;
    icMat3 fit = inverseTranspose(F, &J);
    icMat3 mid = icMat3_Mul(fit, icMat3_Mul(icMat3_Transpose(dF), fit));
    icReal tr = icMat3_DDot(fit, dF); // tr(F^-1 dF) = F^-T : dF
    icMat3 p = icMat3_Scale(m->mu, dF);
    p = icMat3_Add(p, icMat3_Scale(m->mu - m->lambda * log(J), mid));
    return icMat3_Add(p, icMat3_Scale(m->lambda * tr, fit));
}

// Closed-form eigenvalues (Neo-Hookean, J > 0), c = mu - lambda ln J.
void icNeoHookean_SingularHessian(const icMaterial *m, icVec3 s, icSingularHessian *out) {
    icReal sv[3] = {s.x, s.y, s.z};
    icReal lj = log(sv[0] * sv[1] * sv[2]);
    icReal c = m->mu - m->lambda * lj;
    for (int k = 0; k < 3; ++k) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        icReal q = c / (sv[i] * sv[j]);
        out->twist[k] = m->mu - q;
        out->flip[k] = m->mu + q;
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            icReal v = i == j ? m->mu + (m->mu + m->lambda - m->lambda * lj) / (sv[i] * sv[i])
                              : m->lambda / (sv[i] * sv[j]);
            icMat3_Set(&out->A, i, j, v);
        }
}

// The clamp suggested by Sifakis & Barbič 2012, sec. 3.6: clamp the rotation-variant singular
// values (which also flips a negative s3) and rebuild F. Used always when m->clamp > 0, and as
// the fallback for J <= 0.
bool icNeoHookean_EffectiveF(const icMaterial *m, icMat3 F, const icSvd3 *known, icMat3 *Fh,
                             icSvd3 *svd, bool *haveSvd) {
    *Fh = F;
    if (haveSvd) *haveSvd = false;
    icReal J = icMat3_Det(F);
    icReal clamp = m->clamp > 0 ? m->clamp : (J > 0 ? 0 : m->fallbackClamp);
    if (!(clamp > 0)) return false;
    icSvd3 d = known ? *known : icMat3_Svd(F);
    bool clamped = d.s.x < clamp || d.s.y < clamp || d.s.z < clamp;
    if (clamped) {
        d.s = icVec3_Make(fmax(d.s.x, clamp), fmax(d.s.y, clamp), fmax(d.s.z, clamp));
        *Fh = icSvd3_Compose(&d);
    }
    if (svd) *svd = d;
    if (haveSvd) *haveSvd = true;
    return clamped;
}

// Hf[(i,j),(a,b)] = mu delta_ia delta_jb + (mu - lambda ln J) G_ib G_aj + lambda G_ij G_ab
// with G = F^-T: the coefficients of dF_ab in dP_ij above, written out.
void icNeoHookean_Hessian(const icMaterial *m, icMat3 F, icReal h[81]) {
    icReal J;
    icMat3 g = inverseTranspose(F, &J);
    icReal c = m->mu - m->lambda * log(J);
    for (int b = 0; b < 3; ++b)
        for (int a = 0; a < 3; ++a)
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 3; ++i) {
                    icReal v = c * icMat3_At(&g, i, b) * icMat3_At(&g, a, j) +
                               m->lambda * icMat3_At(&g, i, j) * icMat3_At(&g, a, b);
                    if (i == a && j == b) v += m->mu;
                    h[IC_VEC(i, j) + 9 * IC_VEC(a, b)] = v;
                }
}
