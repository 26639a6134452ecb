// SPDX-License-Identifier: MIT
// The two per-tet constraints of the stable Neo-Hookean model and their gradients
// (Macklin & Müller 2021, sec. 3, and its supplement, sec. 1).
#include "xpbd/constraints.h"

// grad_{x_j} C = column j of (dC/dF) Q^T for j = 1..3; grad_{x4} = -(sum of the others).
static void positionGradients(icMat3 dCdF, icMat3 Q, icVec3 grad[4]) {
    icMat3 G = icMat3_MulTrans(dCdF, Q);
    grad[0] = G.col[0];
    grad[1] = G.col[1];
    grad[2] = G.col[2];
    grad[3] = icVec3_Neg(icVec3_Add(icVec3_Add(G.col[0], G.col[1]), G.col[2]));
}

// C_H = det F - gamma, dC_H/dF = cof F = [f2 x f3, f3 x f1, f1 x f2] (Macklin & Müller 2021,
// supplement, eq. 5).
void icTet_HydrostaticGradient(icMat3 F, icMat3 Q, icReal gamma, icReal *C, icVec3 grad[4]) {
    icMat3 cof = icMat3_Cofactor(F);
    *C = icVec3_Dot(F.col[0], cof.col[0]) - gamma;
    positionGradients(cof, Q, grad);
}

// C_D = r_S = sqrt(tr F^T F), dC_D/dF = F / r_S (Macklin & Müller 2021, supplement, eq. 7).
// Zero gradient at F = 0, where C_D is not differentiable; the hydrostatic constraint keeps F
// away from it.
void icTet_DeviatoricGradient(icMat3 F, icMat3 Q, icReal *C, icVec3 grad[4]) {
    icReal r = sqrt(icMat3_NormSquared(F));
    *C = r;
    if (r < IC_XPBD_MIN_RS) {
        grad[0] = grad[1] = grad[2] = grad[3] = icVec3_Make(0, 0, 0);
        return;
    }
    positionGradients(icMat3_Scale(1.0 / r, F), Q, grad);
}
