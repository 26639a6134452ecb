// SPDX-License-Identifier: MIT
// Per-model material kernels (one file per model) behind the icMaterial_* dispatch.
#pragma once

#include "isochor/fem.h"

/// Eigenvalues of an isotropic Hessian in the singular-value frame (Kim & Eberle 2020): twist
/// and flip value of the pair opposite k, and the 3x3 scaling block A = d^2 psi / ds^2.
typedef struct icSingularHessian {
    icReal twist[3];
    icReal flip[3];
    icMat3 A;
} icSingularHessian;

/// vec index of F(row, col) (column-major).
#define IC_VEC(row, col) (3 * (col) + (row))

// Linear elasticity (Sifakis & Barbič 2012, sec. 3.2).
icReal icLinear_Energy(const icMaterial *m, icMat3 F);
icMat3 icLinear_Stress(const icMaterial *m, icMat3 F);
icMat3 icLinear_Differential(const icMaterial *m, icMat3 dF);
void icLinear_Hessian(const icMaterial *m, icReal h[81]);

// St. Venant-Kirchhoff (Sifakis & Barbič 2012, sec. 3.3).
icReal icStvk_Energy(const icMaterial *m, icMat3 F);
icMat3 icStvk_Stress(const icMaterial *m, icMat3 F);
icMat3 icStvk_Differential(const icMaterial *m, icMat3 F, icMat3 dF);
void icStvk_SingularHessian(const icMaterial *m, icVec3 s, icSingularHessian *out);
void icStvk_Hessian(const icMaterial *m, icMat3 F, icReal h[81]);

// Corotated linear elasticity (Sifakis & Barbič 2012, sec. 3.4); everything from the
// rotation-variant SVD of F.
icReal icCorotated_Energy(const icMaterial *m, const icSvd3 *svd);
/// P = U [2 mu (Sigma - I) + lambda tr(Sigma - I) I] V^T. Inline: the threaded tet pass calls
/// it per tet, and a call returned P through memory that the caller's wider loads stalled on.
static inline icMat3 icCorotated_Stress(const icMaterial *m, const icSvd3 *svd) {
    icReal t = m->lambda * (svd->s.x + svd->s.y + svd->s.z - 3);
    icReal d0 = 2 * m->mu * (svd->s.x - 1) + t, d1 = 2 * m->mu * (svd->s.y - 1) + t,
           d2 = 2 * m->mu * (svd->s.z - 1) + t;
    icMat3 us = icMat3_FromCols(icVec3_Scale(d0, svd->U.col[0]), icVec3_Scale(d1, svd->U.col[1]),
                                icVec3_Scale(d2, svd->U.col[2]));
    return icMat3_MulTrans(us, svd->V);
}
icMat3 icCorotated_Differential(const icMaterial *m, const icSvd3 *svd, icMat3 dF);
void icCorotated_SingularHessian(const icMaterial *m, icVec3 s, icSingularHessian *out);
/// Exact (project false) or projected Hessian from the SVD, in closed form.
void icCorotated_Hessian(const icMaterial *m, const icSvd3 *svd, bool project, icReal h[81]);
/// The element stiffness of that Hessian (icTet_StiffnessBlocks, up to rounding) in rank-one
/// form: the ten blocks (a, b), a <= b < 4, row by row: (0,0) (0,1) (0,2) (0,3) (1,1) ...
void icCorotated_TetBlocks(const icMaterial *m, const icSvd3 *svd, bool project,
                           const icTetRest *rest, icReal blocks[10][9]);
/// The same for four tets of one material at once (AVX2 where the CPU has it), each getting
/// the bits icCorotated_TetBlocks gives it.
void icCorotated_TetBlocks4(const icMaterial *m, const icSvd3 svd[4], bool project,
                            const icTetRest *const rest[4], icReal blocks[4][10][9]);

// Neo-Hookean with log J (Sifakis & Barbič 2012, sec. 3.6), evaluated at an F with J > 0
// (callers clamp first).
icReal icNeoHookean_Energy(const icMaterial *m, icMat3 F);
icMat3 icNeoHookean_Stress(const icMaterial *m, icMat3 F);
icMat3 icNeoHookean_Differential(const icMaterial *m, icMat3 F, icMat3 dF);
void icNeoHookean_SingularHessian(const icMaterial *m, icVec3 s, icSingularHessian *out);
void icNeoHookean_Hessian(const icMaterial *m, icMat3 F, icReal h[81]);
/// The F at which Neo-Hookean is evaluated: F itself, or U diag(max(s, clamp)) V^T when the
/// material's clamp (or, for J <= 0, its fallback clamp) applies. Returns true when clamped;
/// svd (may be NULL) receives the SVD of the returned F when it had to be computed. known
/// (may be NULL) is the SVD of F if the caller has it.
bool icNeoHookean_EffectiveF(const icMaterial *m, icMat3 F, const icSvd3 *known, icMat3 *Fh,
                             icSvd3 *svd, bool *haveSvd);

/// icMaterial_Evaluate with the SVD of F supplied (NULL: computed when needed).
icReal icMaterial_EvaluateSvd(const icMaterial *m, icMat3 F, const icSvd3 *known, icMat3 *P,
                              icReal hessian[81], bool project);
/// True when evaluating this material (with or without projection) needs the SVD of F.
static inline bool icMaterial_NeedsSvd(const icMaterial *m, bool project) {
    if (m->model == IC_MATERIAL_COROTATED) return true;
    if (m->model == IC_MATERIAL_NEOHOOKEAN) return project || m->clamp > 0;
    return project && m->model != IC_MATERIAL_LINEAR;
}

// Stable Neo-Hookean family (Smith, de Goes & Kim 2018; Kim & Eberle 2020; Macklin & Müller
// 2021, sec. 3): SNH (no log), SNH2018 (log), MM (raw Lamé).
// Energies are shifted by a constant so that Psi(I) = 0.
icReal icSnh_Energy(const icMaterial *m, icMat3 F);
icMat3 icSnh_Stress(const icMaterial *m, icMat3 F);
icMat3 icSnh_Differential(const icMaterial *m, icMat3 F, icMat3 dF);
void icSnh_Hessian(const icMaterial *m, icMat3 F, icReal h[81]);
void icSnh_SingularHessian(const icMaterial *m, icVec3 s, icSingularHessian *out);

/// Builds the nine unit eigenmatrices (twists, flips, scalings) and their values from the SVD
/// and the singular-frame Hessian: vectors is (9 x 9), column m = vec(Q_m).
void icEigensystem_Build(const icSvd3 *svd, const icSingularHessian *sh, icReal values[9],
                         icReal vectors[81]);
/// h -= sum over negative values of value q q^T (so h becomes its PSD projection when h is
/// the Hessian with that eigensystem).
void icEigensystem_RemoveNegative(const icReal values[9], const icReal vectors[81],
                                  icReal h[81]);
/// h = sum_m max(values_m, 0) q_m q_m^T (clampNegative) or the plain sum.
void icEigensystem_Compose(const icReal values[9], const icReal vectors[81], bool clampNegative,
                           icReal h[81]);
