// SPDX-License-Identifier: MIT
// Stable Neo-Hookean family: SNH (no log), SNH 2018 (log term) and Macklin-Müller (raw Lamé).
#include "fem/material_internal.h"

// Only SNH 2018 carries the -mu/2 ln(I_C + 1) term (Smith, de Goes & Kim 2018).
static bool hasLog(const icMaterial *m) { return m->model == IC_MATERIAL_SNH2018; }

// Psi = mu/2 (I_C - 3) + lambda/2 (J - alpha)^2 [- mu/2 ln(I_C + 1)] - Psi(I)
// (Smith, de Goes & Kim 2018; Macklin & Müller 2021, sec. 3 for MM, where alpha is
// gamma = 1 + mu/lambda). The constant Psi(I) is subtracted so that the rest energy is 0:
// energies then read as stored energy, and sums over many tets do not carry a large offset
// into the line search.
icReal icSnh_Energy(const icMaterial *m, icMat3 F) {
    icReal ic = icMat3_NormSquared(F), j = icMat3_Det(F);
    // lambda/2 [(J - alpha)^2 - (1 - alpha)^2] = lambda/2 (J - 1)(J + 1 - 2 alpha)
    icReal psi = 0.5 * m->mu * (ic - 3) + 0.5 * m->lambda * (j - 1) * (j + 1 - 2 * m->alpha);
    if (hasLog(m)) psi -= 0.5 * m->mu * log((ic + 1) / 4);
    return psi;
}

// Coefficient of F in P: mu (1 - 1/(I_C + 1)) with the log term, mu without.
static icReal shearCoefficient(const icMaterial *m, icReal ic) {
    return hasLog(m) ? m->mu * (1 - 1 / (ic + 1)) : m->mu;
}

// P = a F + lambda (J - alpha) cof(F)
icMat3 icSnh_Stress(const icMaterial *m, icMat3 F) {
    icMat3 cof = icMat3_Cofactor(F);
    icReal J = icVec3_Dot(F.col[0], cof.col[0]);
    return icMat3_Add(icMat3_Scale(shearCoefficient(m, icMat3_NormSquared(F)), F),
                      icMat3_Scale(m->lambda * (J - m->alpha), cof));
}

// dcof(F; dF) = [df2 x f3 + f2 x df3, df3 x f1 + f3 x df1, df1 x f2 + f1 x df2]
static icMat3 cofactorDifferential(icMat3 F, icMat3 dF) {
    const icVec3 *f = F.col, *d = dF.col;
    return icMat3_FromCols(icVec3_Add(icVec3_Cross(d[1], f[2]), icVec3_Cross(f[1], d[2])),
                           icVec3_Add(icVec3_Cross(d[2], f[0]), icVec3_Cross(f[2], d[0])),
                           icVec3_Add(icVec3_Cross(d[0], f[1]), icVec3_Cross(f[0], d[1])));
}

// dP = a dF [+ 2 mu/(I_C+1)^2 (F:dF) F] + lambda (cof:dF) cof + lambda (J - alpha) dcof
icMat3 icSnh_Differential(const icMaterial *m, icMat3 F, icMat3 dF) {
    icMat3 cof = icMat3_Cofactor(F);
    icReal J = icVec3_Dot(F.col[0], cof.col[0]);
    icReal ic = icMat3_NormSquared(F);
    icMat3 p = icMat3_Scale(shearCoefficient(m, ic), dF);
    if (hasLog(m)) {
        icReal q = 1 / (ic + 1);
        p = icMat3_Add(p, icMat3_Scale(2 * m->mu * q * q * icMat3_DDot(F, dF), F));
    }
    p = icMat3_Add(p, icMat3_Scale(m->lambda * icMat3_DDot(cof, dF), cof));
    return icMat3_Add(p, icMat3_Scale(m->lambda * (J - m->alpha), cofactorDifferential(F, dF)));
}

// Adds s hat(w) to block (a, b) and -s hat(w) to block (b, a) of the 9x9 h, where
// hat(w) = [0 -wz wy; wz 0 -wx; -wy wx 0] (its transpose is -hat(w), so h stays symmetric).
static void addHatPair(icReal h[81], int a, int b, icReal s, icVec3 w) {
    icReal x = s * w.x, y = s * w.y, z = s * w.z;
    icReal *p = h + 3 * a + 9 * (3 * b); // block (a, b): rows 3a.., columns 3b..
    p[1] += z, p[2] -= y;                // column 0: (0, z, -y)
    p[9] -= z, p[11] += x;               // column 1: (-z, 0, x)
    p[18] += y, p[19] -= x;              // column 2: (y, -x, 0)
    icReal *q = h + 3 * b + 9 * (3 * a); // block (b, a) = -hat(w) scaled: the transpose
    q[1] -= z, q[2] += y;
    q[9] += z, q[11] -= x;
    q[18] -= y, q[19] += x;
}

// Hf = a I9 [+ 2mu/(I_C+1)^2 vec F vec F^T] + lambda vec(cof) vec(cof)^T + lambda (J - alpha) H_J
void icSnh_Hessian(const icMaterial *m, icMat3 F, icReal h[81]) {
    icMat3 cof = icMat3_Cofactor(F);
    icReal J = icVec3_Dot(F.col[0], cof.col[0]);
    icReal ic = icMat3_NormSquared(F);
    const icReal *g = (const icReal *)&cof, *f = (const icReal *)&F;
    icReal a = shearCoefficient(m, ic);
    icReal q = hasLog(m) ? 2 * m->mu / ((ic + 1) * (ic + 1)) : 0;
    for (int c = 0; c < 9; ++c)
        for (int r = 0; r < 9; ++r) h[r + 9 * c] = m->lambda * g[r] * g[c] + q * f[r] * f[c];
    for (int i = 0; i < 9; ++i) h[10 * i] += a;
    // H_J blocks (Smith, de Goes & Kim 2018): (1,2) = -hat(f3), (1,3) = hat(f2),
    // (2,3) = -hat(f1), antisymmetric in the block pair.
    icReal b = m->lambda * (J - m->alpha);
    addHatPair(h, 0, 1, -b, F.col[2]);
    addHatPair(h, 0, 2, b, F.col[1]);
    addHatPair(h, 1, 2, -b, F.col[0]);
}

// Closed-form eigenvalues (SNH 2018; SNH without log and MM with a = mu).
void icSnh_SingularHessian(const icMaterial *m, icVec3 s, icSingularHessian *out) {
    icReal sv[3] = {s.x, s.y, s.z};
    icReal J = sv[0] * sv[1] * sv[2];
    icReal ic = sv[0] * sv[0] + sv[1] * sv[1] + sv[2] * sv[2];
    icReal a = shearCoefficient(m, ic);
    icReal b = m->lambda * (J - m->alpha);
    icReal q = hasLog(m) ? 2 * m->mu / ((ic + 1) * (ic + 1)) : 0;
    for (int k = 0; k < 3; ++k) {
        out->twist[k] = a + b * sv[k];
        out->flip[k] = a - b * sv[k];
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            int k = 3 - i - j;
            icReal v;
            if (i == j) {
                icReal o = sv[(i + 1) % 3] * sv[(i + 2) % 3]; // s_j s_k
                v = a + q * sv[i] * sv[i] + m->lambda * o * o;
            } else {
                v = m->lambda * sv[k] * (2 * J - m->alpha) + q * sv[i] * sv[j];
            }
            icMat3_Set(&out->A, i, j, v);
        }
}
