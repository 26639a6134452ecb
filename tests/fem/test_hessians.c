// SPDX-License-Identifier: MIT
// Hessian eigensystem and projection tests.
#include "fem/fem_test.h"

static int compareDouble(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// F samples including compression (indefinite Hessians) and inversion.
static bool hessianSample(icMaterialModel model, int k, icMat3 *F) {
    icMat3 q1 = icTest_RandomRotation(), q2 = icTest_RandomRotation();
    icReal s[3];
    switch (k % 5) {
    case 0: *F = icTest_RandomF(); return model != IC_MATERIAL_NEOHOOKEAN || icMat3_Det(*F) > 0.05;
    case 1: s[0] = icTest_Uniform(0.3, 0.9), s[1] = icTest_Uniform(0.3, 0.9), s[2] = icTest_Uniform(0.2, 0.9); break;
    case 2: s[0] = 1.4, s[1] = 0.7, s[2] = 0.7; break;
    case 3: s[0] = icTest_Uniform(1.0, 1.5), s[1] = icTest_Uniform(0.6, 1.0), s[2] = -icTest_Uniform(0.1, 0.5); break;
    default: s[0] = icTest_Uniform(1.0, 2.0), s[1] = icTest_Uniform(1.0, 2.0), s[2] = icTest_Uniform(1.0, 2.0); break;
    }
    // sort descending by magnitude
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (fabs(s[j]) > fabs(s[i])) {
                icReal t = s[i];
                s[i] = s[j];
                s[j] = t;
            }
    if (s[0] < 0) s[0] = -s[0];
    if (s[1] < 0) s[1] = -s[1], s[2] = -s[2];
    icSvd3 d = {q1, icVec3_Make(s[0], s[1], s[2]), q2};
    *F = icSvd3_Compose(&d);
    if (s[2] <= 0 && model == IC_MATERIAL_NEOHOOKEAN) return false;
    if (model == IC_MATERIAL_COROTATED && s[1] + s[2] < 0.1) return false;
    return true;
}

// Analytic eigenvalues (closed forms) equal the numeric 9x9 eigenvalues to 1e-10 relative, and
// the eigenmatrices are orthonormal and diagonalise the Hessian.
IC_TEST(fem, analytic_eigensystem_matches_numeric) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        icReal values[9], vectors[81];
        if (m.model == IC_MATERIAL_LINEAR) {
            IC_CHECK(!icMaterial_Eigensystem(&m, icMat3_Identity(), values, vectors));
            continue;
        }
        int tested = 0;
        for (int k = 0; k < 60; ++k) {
            icMat3 F;
            if (!hessianSample(m.model, k, &F)) continue;
            icReal h[81], numeric[9];
            icMaterial_Hessian(&m, F, h);
            IC_REQUIRE(icMaterial_Eigensystem(&m, F, values, vectors));
            icSymmetricEigen(9, h, numeric, NULL, 30);
            double scale = fmax(fabs(numeric[0]), fabs(numeric[8]));
            icReal sorted[9];
            memcpy(sorted, values, sizeof sorted);
            qsort(sorted, 9, sizeof(double), compareDouble);
            IC_CHECK_MSG(icTest_MaxAbsDiff(sorted, numeric, 9) <= 1e-10 * scale,
                         "%s sample %d: eigenvalues off by %.3g", icMaterialModel_Name(m.model), k,
                         icTest_MaxAbsDiff(sorted, numeric, 9));
            double orth = 0, diag = 0;
            for (int a = 0; a < 9; ++a)
                for (int b = 0; b < 9; ++b) {
                    double d = 0, q = 0;
                    for (int r = 0; r < 9; ++r) {
                        d += vectors[r + 9 * a] * vectors[r + 9 * b];
                        double hv = 0;
                        for (int c = 0; c < 9; ++c) hv += h[r + 9 * c] * vectors[c + 9 * b];
                        q += vectors[r + 9 * a] * hv;
                    }
                    orth = fmax(orth, fabs(d - (a == b)));
                    diag = fmax(diag, fabs(q - (a == b ? values[a] : 0)));
                }
            IC_CHECK(orth <= 1e-13);
            IC_CHECK_MSG(diag <= 1e-10 * scale, "%s: Q^T H Q not diagonal (%.3g)",
                         icMaterialModel_Name(m.model), diag);
            ++tested;
        }
        IC_CHECK(tested >= 40);
    }
}

// Hf+ is PSD, equals the generic projection (the PSD projection is unique), and equals Hf
// when Hf is already PSD.
IC_TEST(fem, projected_hessian_is_psd) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        int indefinite = 0;
        for (int k = 0; k < 60; ++k) {
            icMat3 F;
            if (!hessianSample(m.model, k, &F)) continue;
            icReal h[81], hp[81], hg[81], ev[9], evp[9];
            icMaterial_Hessian(&m, F, h);
            icMaterial_ProjectedHessian(&m, F, hp);
            icMaterial_ProjectedHessianGeneric(&m, F, hg);
            icSymmetricEigen(9, h, ev, NULL, 30);
            icSymmetricEigen(9, hp, evp, NULL, 30);
            double norm = fmax(fabs(ev[0]), fabs(ev[8]));
            IC_CHECK_MSG(evp[0] >= -1e-12 * norm, "%s: projected min eig %.3g",
                         icMaterialModel_Name(m.model), evp[0]);
            IC_CHECK_MSG(icTest_MaxAbsDiff(hp, hg, 81) <= 1e-10 * norm,
                         "%s: analytic vs generic projection %.3g", icMaterialModel_Name(m.model),
                         icTest_MaxAbsDiff(hp, hg, 81));
            if (ev[0] >= 0) IC_CHECK(icTest_MaxAbsDiff(hp, h, 81) <= 1e-12 * norm);
            indefinite += ev[0] < -1e-8 * norm;
        }
        // The compressed samples make every nonlinear model indefinite somewhere.
        if (m.model != IC_MATERIAL_LINEAR) IC_CHECK_MSG(indefinite > 5, "%s: %d indefinite",
                                                        icMaterialModel_Name(m.model), indefinite);
        // At rest the Hessian is PSD (linear elasticity) and projection leaves it alone.
        icReal h[81], hp[81];
        icMaterial_Hessian(&m, icMat3_Identity(), h);
        icMaterial_ProjectedHessian(&m, icMat3_Identity(), hp);
        IC_CHECK(icTest_MaxAbsDiff(h, hp, 81) <= 1e-12 * icTest_MaxAbs(h, 81));
    }
}
