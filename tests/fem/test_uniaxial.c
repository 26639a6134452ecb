// SPDX-License-Identifier: MIT
// Uniaxial stretch equilibria of each material against the closed forms.
#include "fem/fem_test.h"

static double lateralStress(const icMaterial *m, double s, double t) {
    icMat3 P = icMaterial_Stress(m, icMat3_Diagonal(s, t, t));
    return icMat3_At(&P, 1, 1);
}

// Lateral stretch t with P22(diag(s, t, t)) = 0 (and P33 = 0 by symmetry), by bisection on
// [0.5, 1.5]; returns NAN if the bracket has no sign change.
static double solveLateral(const icMaterial *m, double s) {
    double lo = 0.5, hi = 1.5, flo = lateralStress(m, s, lo), fhi = lateralStress(m, s, hi);
    if (!(flo * fhi < 0)) return NAN;
    for (int it = 0; it < 200 && hi - lo > 1e-16; ++it) {
        double mid = 0.5 * (lo + hi), fm = lateralStress(m, s, mid);
        if ((fm < 0) == (flo < 0))
            lo = mid, flo = fm;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

typedef struct {
    icMaterialModel model;
    double s, t, p11;
} icUniaxialRow;

// Reference values, internal mu = 1.3, lambda = 4.1. Corotated equals linear and
// SNH without log equals MM (same alpha = 1 + mu/lambda).
static const icUniaxialRow kRows[] = {
    {IC_MATERIAL_LINEAR, 0.8, 1.0759259259, -0.71740741},
    {IC_MATERIAL_LINEAR, 1.3, 0.8861111111, 1.07611111},
    {IC_MATERIAL_COROTATED, 0.8, 1.0759259259, -0.71740741},
    {IC_MATERIAL_COROTATED, 1.3, 0.8861111111, 1.07611111},
    {IC_MATERIAL_STVK, 0.8, 1.0661457061, -0.51653333},
    {IC_MATERIAL_STVK, 1.3, 0.8591015979, 1.60878611},
    {IC_MATERIAL_NEOHOOKEAN, 0.8, 1.0864977985, -0.87827588},
    {IC_MATERIAL_NEOHOOKEAN, 1.3, 0.9030825287, 0.87444195},
    {IC_MATERIAL_MM, 0.8, 1.0728068951, -0.83023628},
    {IC_MATERIAL_MM, 1.3, 0.9085790816, 0.86448405},
    {IC_MATERIAL_SNH, 0.8, 1.0728068951, -0.83023628},
    {IC_MATERIAL_SNH, 1.3, 0.9085790816, 0.86448405},
    {IC_MATERIAL_SNH2018, 0.8, 1.0844067678, -0.65273139},
    {IC_MATERIAL_SNH2018, 1.3, 0.8989489702, 0.67709604},
};

IC_TEST(fem, uniaxial_reference_table) {
    for (size_t r = 0; r < sizeof kRows / sizeof kRows[0]; ++r) {
        const icUniaxialRow *row = &kRows[r];
        icMaterial m = icTest_Material(row->model);
        double t = solveLateral(&m, row->s);
        icMat3 P = icMaterial_Stress(&m, icMat3_Diagonal(row->s, t, t));
        IC_CHECK_MSG(fabs(t - row->t) <= 1e-9, "%s s = %g: t = %.10f, table %.10f",
                     icMaterialModel_Name(row->model), row->s, t, row->t);
        IC_CHECK_MSG(fabs(icMat3_At(&P, 0, 0) - row->p11) <= 1e-8, "%s s = %g: P11 = %.8f, table %.8f",
                     icMaterialModel_Name(row->model), row->s, icMat3_At(&P, 0, 0), row->p11);
        // Off-diagonal stresses vanish for a diagonal F of an isotropic material.
        IC_CHECK(fabs(icMat3_At(&P, 0, 1)) + fabs(icMat3_At(&P, 1, 2)) <= 1e-14);
        IC_CHECK(fabs(icMat3_At(&P, 2, 2)) <= 1e-12);
    }
}

// The closed forms behind the table (not just the numbers) for a few stretches.
IC_TEST(fem, uniaxial_closed_forms) {
    const double mu = 1.3, lambda = 4.1;
    const double E = mu * (3 * lambda + 2 * mu) / (lambda + mu), nu = lambda / (2 * (lambda + mu));
    const double gamma = 1 + mu / lambda;
    for (double s = 0.7; s <= 1.45; s += 0.05) {
        icMaterial lin = icTest_Material(IC_MATERIAL_LINEAR);
        double t = solveLateral(&lin, s);
        IC_CHECK_NEAR(t, 1 - nu * (s - 1), 1e-12);
        icMat3 P = icMaterial_Stress(&lin, icMat3_Diagonal(s, t, t));
        IC_CHECK_NEAR(icMat3_At(&P, 0, 0), E * (s - 1), 1e-12);
        icMaterial stvk = icTest_Material(IC_MATERIAL_STVK);
        t = solveLateral(&stvk, s);
        IC_CHECK_NEAR(t * t, 1 - nu * (s * s - 1), 1e-12);
        P = icMaterial_Stress(&stvk, icMat3_Diagonal(s, t, t));
        IC_CHECK_NEAR(icMat3_At(&P, 0, 0), E / 2 * (s * s * s - s), 1e-12);
        icMaterial mm = icTest_Material(IC_MATERIAL_MM);
        t = solveLateral(&mm, s);
        IC_CHECK_NEAR(s * t * t, gamma - mu / (lambda * s), 1e-12);
        P = icMaterial_Stress(&mm, icMat3_Diagonal(s, t, t));
        IC_CHECK_NEAR(icMat3_At(&P, 0, 0), mu * (s - gamma / (s * s) + mu / (lambda * s * s * s)), 1e-12);
        icMaterial nh = icTest_Material(IC_MATERIAL_NEOHOOKEAN);
        t = solveLateral(&nh, s);
        IC_CHECK_NEAR(mu * (t * t - 1) + lambda * log(s * t * t), 0, 1e-12);
        P = icMaterial_Stress(&nh, icMat3_Diagonal(s, t, t));
        IC_CHECK_NEAR(icMat3_At(&P, 0, 0), mu * (s * s - t * t) / s, 1e-12);
    }
}
