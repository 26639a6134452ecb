// SPDX-License-Identifier: MIT
// Material parameters and the per-model dispatch of energy, stress, differential, Hessians.
#include "fem/material_internal.h"

#include <string.h>

const char *icMaterialModel_Name(icMaterialModel model) {
    switch (model) {
    case IC_MATERIAL_MM: return "mm";
    case IC_MATERIAL_LINEAR: return "linear";
    case IC_MATERIAL_STVK: return "stvk";
    case IC_MATERIAL_COROTATED: return "corotated";
    case IC_MATERIAL_NEOHOOKEAN: return "neohookean";
    case IC_MATERIAL_SNH: return "snh";
    case IC_MATERIAL_SNH2018: return "snh2018";
    default: return "unknown";
    }
}

static bool isSnhFamily(icMaterialModel model) {
    return model == IC_MATERIAL_SNH || model == IC_MATERIAL_SNH2018 || model == IC_MATERIAL_MM;
}

icMaterial icMaterial_FromLame(icMaterialModel model, icReal mu, icReal lambda) {
    icMaterial m;
    memset(&m, 0, sizeof m);
    m.model = model;
    m.mu = mu;
    m.lambda = lambda;
    m.density = 1000;
    m.fallbackClamp = 0.1;
    // Rest-stable shifts: P(I) = 0 (Smith, de Goes & Kim 2018; Macklin & Müller 2021,
    // sec. 3.3).
    if (model == IC_MATERIAL_SNH2018)
        m.alpha = 1 + 0.75 * mu / lambda;
    else if (model == IC_MATERIAL_SNH || model == IC_MATERIAL_MM)
        m.alpha = 1 + mu / lambda;
    else
        m.alpha = 1;
    return m;
}

// The Lamé pair inside each energy (docs/materials.md), so that the rest Hessian is linear
// elasticity with (mu_L, lambda_L) — except MM, which the XPBD solver uses with raw Lamé.
icResult icMaterial_FromYoungs(icMaterialModel model, icReal youngsModulus, icReal poissonRatio,
                               icMaterial *material) {
    if ((int)model < 0 || model >= IC_MATERIAL_COUNT_) return IC_ERR_BAD_VALUE;
    if (!(youngsModulus > 0) || !isfinite(youngsModulus)) return IC_ERR_BAD_VALUE;
    // nu >= 0.5 gives lambda = inf: a force-based solver cannot run there (Macklin & Müller
    // 2021, sec. 1).
    if (!(poissonRatio > -1 && poissonRatio < 0.5)) return IC_ERR_BAD_VALUE;
    icReal nu = poissonRatio, E = youngsModulus;
    icReal muL = E / (2 * (1 + nu));
    icReal lambdaL = E * nu / ((1 + nu) * (1 - 2 * nu));
    if (!isfinite(lambdaL)) return IC_ERR_BAD_VALUE;
    icReal mu = muL, lambda = lambdaL;
    if (model == IC_MATERIAL_SNH2018) {
        mu = 4.0 / 3.0 * muL;
        lambda = lambdaL + 5.0 / 6.0 * muL;
    } else if (model == IC_MATERIAL_SNH) {
        lambda = lambdaL + muL;
    }
    // The shifted volume term needs lambda > 0 (alpha = 1 + c mu/lambda); for MM this
    // means nu > 0.
    if (isSnhFamily(model) && !(lambda > 0)) return IC_ERR_BAD_VALUE;
    *material = icMaterial_FromLame(model, mu, lambda);
    return IC_OK;
}

// ---------------------------------------------------------------------------------------
// Eigensystems (the analytic twist, flip and scaling eigenpairs; Kim & Eberle 2020)

static const icReal kInvSqrt2 = 0.70710678118654752440;

// vec(sum_l w_l u_a(l) v_b(l)^T)-style helpers: vec(u v^T)[3c + r] = u[r] v[c].
static void vecOuterPair(icVec3 ui, icVec3 vj, icVec3 uj, icVec3 vi, icReal sign, icReal *out) {
    const icReal *a = &ui.x, *b = &vj.x, *c = &uj.x, *d = &vi.x;
    for (int col = 0; col < 3; ++col)
        for (int r = 0; r < 3; ++r)
            out[3 * col + r] = kInvSqrt2 * (a[r] * b[col] + sign * c[r] * d[col]);
}

static void vecScaling(const icSvd3 *svd, icVec3 q, icReal *out) {
    const icReal *w = &q.x;
    for (int col = 0; col < 3; ++col)
        for (int r = 0; r < 3; ++r) {
            icReal s = 0;
            for (int l = 0; l < 3; ++l)
                s += w[l] * icVec3_Get(svd->U.col[l], r) * icVec3_Get(svd->V.col[l], col);
            out[3 * col + r] = s;
        }
}

// Eigenmatrix m (0..8: twist 1..3, flip 1..3, scaling 1..3) as a vec.
static void eigenvector(const icSvd3 *svd, const icMat3 *aVectors, int m, icReal *out) {
    if (m < 6) {
        int k = m % 3, i = (k + 1) % 3, j = (k + 2) % 3;
        // twist: U (e_i e_j^T - e_j e_i^T) V^T / sqrt2; flip: the symmetric version
        vecOuterPair(svd->U.col[i], svd->V.col[j], svd->U.col[j], svd->V.col[i],
                     m < 3 ? -1.0 : 1.0, out);
    } else {
        vecScaling(svd, aVectors->col[m - 6], out);
    }
}

static void singularValues(const icSingularHessian *sh, icVec3 *aValues, icMat3 *aVectors,
                           icReal values[9]) {
    icMat3_SymmetricEigen(sh->A, aValues, aVectors);
    for (int k = 0; k < 3; ++k) {
        values[k] = sh->twist[k];
        values[3 + k] = sh->flip[k];
    }
    values[6] = aValues->x;
    values[7] = aValues->y;
    values[8] = aValues->z;
}

void icEigensystem_Build(const icSvd3 *svd, const icSingularHessian *sh, icReal values[9],
                         icReal vectors[81]) {
    icVec3 av;
    icMat3 aq;
    singularValues(sh, &av, &aq, values);
    for (int m = 0; m < 9; ++m) eigenvector(svd, &aq, m, vectors + 9 * m);
}

static void addOuter(icReal h[81], icReal s, const icReal q[9]) {
    for (int c = 0; c < 9; ++c) {
        icReal sc = s * q[c];
        for (int r = 0; r < 9; ++r) h[r + 9 * c] += sc * q[r];
    }
}

void icEigensystem_RemoveNegative(const icReal values[9], const icReal vectors[81],
                                  icReal h[81]) {
    for (int m = 0; m < 9; ++m)
        if (values[m] < 0) addOuter(h, -values[m], vectors + 9 * m);
}

void icEigensystem_Compose(const icReal values[9], const icReal vectors[81], bool clampNegative,
                           icReal h[81]) {
    memset(h, 0, sizeof(icReal) * 81);
    for (int m = 0; m < 9; ++m) {
        icReal v = clampNegative && values[m] < 0 ? 0 : values[m];
        if (v != 0) addOuter(h, v, vectors + 9 * m);
    }
}

// True when the symmetric 3x3 a is positive definite (Sylvester's leading minors).
static bool isPositiveDefinite3(const icMat3 *a) {
    icReal a00 = a->col[0].x, a01 = a->col[1].x, a11 = a->col[1].y;
    return a00 > 0 && a00 * a11 - a01 * a01 > 0 && icMat3_Det(*a) > 0;
}

// Projection by removing only the negative part: Hf+ = Hf - sum_{lam < 0} lam q q^T.
// Builds only the eigenmatrices that are needed (usually one to three twists), and skips
// the 3x3 eigen-solve of the scaling block when it is positive definite (the common case:
// it carries the stiff volume response).
static void removeNegative(const icSvd3 *svd, const icSingularHessian *sh, icReal h[81]) {
    icReal q[9];
    for (int k = 0; k < 3; ++k) {
        if (sh->twist[k] < 0) {
            eigenvector(svd, NULL, k, q);
            addOuter(h, -sh->twist[k], q);
        }
        if (sh->flip[k] < 0) {
            eigenvector(svd, NULL, 3 + k, q);
            addOuter(h, -sh->flip[k], q);
        }
    }
    if (isPositiveDefinite3(&sh->A)) return;
    icVec3 av;
    icMat3 aq;
    icMat3_SymmetricEigen(sh->A, &av, &aq);
    for (int m = 0; m < 3; ++m) {
        icReal value = icVec3_Get(av, m);
        if (value < 0) {
            eigenvector(svd, &aq, 6 + m, q);
            addOuter(h, -value, q);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Dispatch

static icMat3 unitMatrix(int c) {
    icMat3 e = icMat3_Zero();
    ((icReal *)&e)[c] = 1;
    return e;
}

// Column c of Hf is vec(dP(F; E_c)); symmetrised.
static void hessianFromDifferential(const icMaterial *m, icMat3 F, icReal h[81]) {
    for (int c = 0; c < 9; ++c) {
        icMat3 dp = icMaterial_StressDifferential(m, F, unitMatrix(c));
        memcpy(h + 9 * c, &dp, sizeof dp);
    }
    for (int c = 0; c < 9; ++c)
        for (int r = c + 1; r < 9; ++r) {
            icReal s = 0.5 * (h[r + 9 * c] + h[c + 9 * r]);
            h[r + 9 * c] = h[c + 9 * r] = s;
        }
}

static void projectGeneric(icReal h[81]) {
    icReal values[9], vectors[81];
    icSymmetricEigen(9, h, values, vectors, 20);
    icEigensystem_Compose(values, vectors, true, h);
}

// Evaluation point of Neo-Hookean (clamped when asked to or when J <= 0).
static icMat3 neoHookeanPoint(const icMaterial *m, icMat3 F, const icSvd3 *known, icSvd3 *svd,
                              bool *haveSvd) {
    icMat3 fh;
    icNeoHookean_EffectiveF(m, F, known, &fh, svd, haveSvd);
    return fh;
}

icReal icMaterial_Energy(const icMaterial *m, icMat3 F) {
    switch (m->model) {
    case IC_MATERIAL_LINEAR: return icLinear_Energy(m, F);
    case IC_MATERIAL_STVK: return icStvk_Energy(m, F);
    case IC_MATERIAL_COROTATED: {
        icSvd3 svd = icMat3_Svd(F);
        return icCorotated_Energy(m, &svd);
    }
    case IC_MATERIAL_NEOHOOKEAN:
        // Without a clamp the exact model is a barrier: +inf for J <= 0.
        if (m->clamp > 0) return icNeoHookean_Energy(m, neoHookeanPoint(m, F, NULL, NULL, NULL));
        return icNeoHookean_Energy(m, F);
    case IC_MATERIAL_MM:
    case IC_MATERIAL_SNH:
    case IC_MATERIAL_SNH2018: return icSnh_Energy(m, F);
    default: return NAN;
    }
}

icMat3 icMaterial_Stress(const icMaterial *m, icMat3 F) {
    switch (m->model) {
    case IC_MATERIAL_LINEAR: return icLinear_Stress(m, F);
    case IC_MATERIAL_STVK: return icStvk_Stress(m, F);
    case IC_MATERIAL_COROTATED: {
        icSvd3 svd = icMat3_Svd(F);
        return icCorotated_Stress(m, &svd);
    }
    case IC_MATERIAL_NEOHOOKEAN: return icNeoHookean_Stress(m, neoHookeanPoint(m, F, NULL, NULL, NULL));
    case IC_MATERIAL_MM:
    case IC_MATERIAL_SNH:
    case IC_MATERIAL_SNH2018: return icSnh_Stress(m, F);
    default: return icMat3_Scale(NAN, icMat3_Identity());
    }
}

icMat3 icMaterial_StressDifferential(const icMaterial *m, icMat3 F, icMat3 dF) {
    switch (m->model) {
    case IC_MATERIAL_LINEAR: return icLinear_Differential(m, dF);
    case IC_MATERIAL_STVK: return icStvk_Differential(m, F, dF);
    case IC_MATERIAL_COROTATED: {
        icSvd3 svd = icMat3_Svd(F);
        return icCorotated_Differential(m, &svd, dF);
    }
    case IC_MATERIAL_NEOHOOKEAN:
        return icNeoHookean_Differential(m, neoHookeanPoint(m, F, NULL, NULL, NULL), dF);
    case IC_MATERIAL_MM:
    case IC_MATERIAL_SNH:
    case IC_MATERIAL_SNH2018: return icSnh_Differential(m, F, dF);
    default: return icMat3_Scale(NAN, icMat3_Identity());
    }
}

icReal icMaterial_Evaluate(const icMaterial *m, icMat3 F, icMat3 *P, icReal hessian[81],
                           bool project) {
    return icMaterial_EvaluateSvd(m, F, NULL, P, hessian, project);
}

// The SVD of F, from the caller when it has one (batched) or computed here.
static icSvd3 svdOf(icMat3 F, const icSvd3 *known) { return known ? *known : icMat3_Svd(F); }

icReal icMaterial_EvaluateSvd(const icMaterial *m, icMat3 F, const icSvd3 *known, icMat3 *P,
                              icReal hessian[81], bool project) {
    icReal psi = NAN;
    icSingularHessian sh;
    switch (m->model) {
    case IC_MATERIAL_LINEAR:
        psi = icLinear_Energy(m, F);
        if (P) *P = icLinear_Stress(m, F);
        if (hessian) {
            icLinear_Hessian(m, hessian);
            // Eigenvalues: 2mu on the 5 deviatoric symmetric directions, 0 on the 3 skew
            // ones, 2mu + 3lambda on the identity: PSD unless the parameters are odd.
            if (project && !(m->mu >= 0 && 2 * m->mu + 3 * m->lambda >= 0)) projectGeneric(hessian);
        }
        break;
    case IC_MATERIAL_STVK:
        psi = icStvk_Energy(m, F);
        if (P) *P = icStvk_Stress(m, F);
        if (hessian) {
            icStvk_Hessian(m, F, hessian);
            if (project) {
                icSvd3 svd = svdOf(F, known);
                icStvk_SingularHessian(m, svd.s, &sh);
                removeNegative(&svd, &sh, hessian);
            }
        }
        break;
    case IC_MATERIAL_COROTATED: {
        icSvd3 svd = svdOf(F, known);
        psi = icCorotated_Energy(m, &svd);
        if (P) *P = icCorotated_Stress(m, &svd);
        // From the eigensystem in closed form, which is also how the guarded twist
        // denominators enter.
        if (hessian) icCorotated_Hessian(m, &svd, project, hessian);
        break;
    }
    case IC_MATERIAL_NEOHOOKEAN: {
        icSvd3 svd;
        bool haveSvd;
        icMat3 fh = neoHookeanPoint(m, F, known, &svd, &haveSvd);
        psi = m->clamp > 0 ? icNeoHookean_Energy(m, fh) : icNeoHookean_Energy(m, F);
        if (P) *P = icNeoHookean_Stress(m, fh);
        if (hessian) {
            icNeoHookean_Hessian(m, fh, hessian);
            if (project) {
                if (!haveSvd) svd = svdOf(fh, known); // not clamped: fh is F
                icNeoHookean_SingularHessian(m, svd.s, &sh);
                removeNegative(&svd, &sh, hessian);
            }
        }
        break;
    }
    case IC_MATERIAL_MM:
    case IC_MATERIAL_SNH:
    case IC_MATERIAL_SNH2018:
        psi = icSnh_Energy(m, F);
        if (P) *P = icSnh_Stress(m, F);
        if (hessian) {
            icSnh_Hessian(m, F, hessian);
            if (project) {
                icSvd3 svd = svdOf(F, known);
                icSnh_SingularHessian(m, svd.s, &sh);
                removeNegative(&svd, &sh, hessian);
            }
        }
        break;
    default:
        if (P) *P = icMat3_Scale(NAN, icMat3_Identity());
        if (hessian)
            for (int i = 0; i < 81; ++i) hessian[i] = NAN;
        break;
    }
    return psi;
}

void icMaterial_Hessian(const icMaterial *m, icMat3 F, icReal hessian[81]) {
    icMaterial_Evaluate(m, F, NULL, hessian, false);
}

void icMaterial_ProjectedHessian(const icMaterial *m, icMat3 F, icReal hessian[81]) {
    icMaterial_Evaluate(m, F, NULL, hessian, true);
}

// Generic fallback: nine differentials, symmetrised, numeric eigen-decomposition, clamp.
// Independent of the per-model Hessian code, which the tests use it to check.
void icMaterial_ProjectedHessianGeneric(const icMaterial *m, icMat3 F, icReal hessian[81]) {
    hessianFromDifferential(m, F, hessian);
    projectGeneric(hessian);
}

bool icMaterial_Eigensystem(const icMaterial *m, icMat3 F, icReal values[9],
                            icReal vectors[81]) {
    icSingularHessian sh;
    icSvd3 svd;
    switch (m->model) {
    case IC_MATERIAL_STVK:
        svd = icMat3_Svd(F);
        icStvk_SingularHessian(m, svd.s, &sh);
        break;
    case IC_MATERIAL_COROTATED:
        svd = icMat3_Svd(F);
        icCorotated_SingularHessian(m, svd.s, &sh);
        break;
    case IC_MATERIAL_NEOHOOKEAN: {
        bool haveSvd;
        icMat3 fh = neoHookeanPoint(m, F, NULL, &svd, &haveSvd);
        if (!haveSvd) svd = icMat3_Svd(fh);
        icNeoHookean_SingularHessian(m, svd.s, &sh);
        break;
    }
    case IC_MATERIAL_MM:
    case IC_MATERIAL_SNH:
    case IC_MATERIAL_SNH2018:
        svd = icMat3_Svd(F);
        icSnh_SingularHessian(m, svd.s, &sh);
        break;
    default: return false;
    }
    icEigensystem_Build(&svd, &sh, values, vectors);
    return true;
}
