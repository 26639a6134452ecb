// SPDX-License-Identifier: MIT
// Material tests: P vs Psi, dP vs P, rest stability, rotation invariance, isotropy,
// linearisation and the parameter mapping.
#include "fem/fem_test.h"
#include "fem/material_internal.h"

// Sample k of the test F set: random, inverted, and repeated singular values.
// Returns false when the sample should be skipped for this model.
static bool sampleF(icMaterialModel model, int k, icMat3 *F) {
    int kind = k % 4;
    if (kind == 3) { // Q1 diag(1.2, 1.2, 0.8) Q2
        icSvd3 d = {icTest_RandomRotation(), icVec3_Make(1.2, 1.2, 0.8), icTest_RandomRotation()};
        *F = icSvd3_Compose(&d);
    } else {
        *F = icTest_RandomF();
    }
    if (kind == 1) F->col[k % 3] = icVec3_Neg(F->col[k % 3]);
    icReal J = icMat3_Det(*F);
    if (J <= 0 && !icTest_DefinedInverted(model)) return false;
    if (model == IC_MATERIAL_NEOHOOKEAN && J < 0.05) return false;
    if (model == IC_MATERIAL_COROTATED) { // keep |s_i + s_j| > 0.1
        icSvd3 d = icMat3_Svd(*F);
        if (d.s.y + d.s.z < 0.1) return false;
    }
    return true;
}

// P against central differences of Psi over the 9 entries, h = 1e-6.
IC_TEST(fem, stress_matches_energy) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        int tested = 0, inverted = 0;
        for (int k = 0; k < 200; ++k) {
            icMat3 F;
            if (!sampleF(m.model, k, &F)) continue;
            icMat3 P = icMaterial_Stress(&m, F), fd;
            const double h = 1e-6;
            for (int c = 0; c < 9; ++c) {
                icMat3 fp = F, fm = F;
                ((icReal *)&fp)[c] += h;
                ((icReal *)&fm)[c] -= h;
                ((icReal *)&fd)[c] =
                    (icMaterial_Energy(&m, fp) - icMaterial_Energy(&m, fm)) / (2 * h);
            }
            double err = icTest_Mat3Diff(fd, P), tol = 1e-6 * fmax(1, icTest_Mat3MaxAbs(P));
            IC_CHECK_MSG(err <= tol, "%s sample %d: |P - dPsi/dF| = %.3g > %.3g",
                         icMaterialModel_Name(m.model), k, err, tol);
            ++tested;
            inverted += icMat3_Det(F) < 0;
        }
        IC_CHECK(tested > 100);
        if (icTest_DefinedInverted(m.model)) IC_CHECK(inverted > 20);
    }
}

static double differentialError(const icMaterial *m, icMat3 F, icMat3 dF, double *scale) {
    const double h = 1e-6;
    icMat3 fd = icMat3_Scale(0.5 / h, icMat3_Sub(icMaterial_Stress(m, icMat3_Add(F, icMat3_Scale(h, dF))),
                                                 icMaterial_Stress(m, icMat3_Sub(F, icMat3_Scale(h, dF)))));
    icMat3 dp = icMaterial_StressDifferential(m, F, dF);
    *scale = fmax(1, icTest_Mat3MaxAbs(dp));
    return icTest_Mat3Diff(fd, dp);
}

// dP(F; dF) against central differences of P.
IC_TEST(fem, differential_matches_stress) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        int tested = 0;
        for (int k = 0; k < 200; ++k) {
            icMat3 F;
            if (!sampleF(m.model, k, &F)) continue;
            icMat3 dF = icTest_RandomMat3(1);
            double scale, err = differentialError(&m, F, dF, &scale);
            IC_CHECK_MSG(err <= 1e-6 * scale, "%s sample %d: |dP - FD| = %.3g",
                         icMaterialModel_Name(m.model), k, err);
            ++tested;
        }
        IC_CHECK(tested > 100);
    }
}

// Expected failure: the approximate corotated tangent (no dR) is not dP.
IC_TEST(fem, approximate_corotated_tangent_is_not_the_derivative) {
    icMaterial m = icTest_Material(IC_MATERIAL_COROTATED);
    m.approximateTangent = true;
    int failing = 0;
    for (int k = 0; k < 50; ++k) {
        icMat3 F = icTest_RandomF(), dF = icTest_RandomMat3(1);
        double scale, err = differentialError(&m, F, dF, &scale);
        failing += err > 1e-6 * scale;
    }
    IC_CHECK_INT(failing, 50);
    // ... but its Hessian is 2 mu I9 + lambda vec(R) vec(R)^T, PSD everywhere.
    icMat3 F = icMat3_Diagonal(0.5, 0.4, -0.3);
    icReal h[81], values[9];
    icMaterial_Hessian(&m, F, h);
    icSymmetricEigen(9, h, values, NULL, 30);
    IC_CHECK(values[0] >= 2 * m.mu - 1e-12);
}

// The 9x9 Hessian: column c is vec(dP(F; E_c)); symmetric.
IC_TEST(fem, hessian_matches_differential) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        for (int k = 0; k < 40; ++k) {
            icMat3 F;
            if (!sampleF(m.model, k, &F)) continue;
            icReal h[81];
            icMaterial_Hessian(&m, F, h);
            double scale = icTest_MaxAbs(h, 81), err = 0, asym = 0;
            for (int c = 0; c < 9; ++c) {
                icMat3 e = icMat3_Zero();
                ((icReal *)&e)[c] = 1;
                icMat3 dp = icMaterial_StressDifferential(&m, F, e);
                err = fmax(err, icTest_MaxAbsDiff((const icReal *)&dp, h + 9 * c, 9));
                for (int r = 0; r < 9; ++r) asym = fmax(asym, fabs(h[r + 9 * c] - h[c + 9 * r]));
            }
            IC_CHECK_MSG(err <= 1e-10 * scale, "%s: Hessian vs dP %.3g",
                         icMaterialModel_Name(m.model), err);
            IC_CHECK(asym <= 1e-12 * scale);
        }
    }
}

// Rest stability: P(I) = 0 for every material; negative control without the shift.
IC_TEST(fem, rest_stability) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        icMat3 P = icMaterial_Stress(&m, icMat3_Identity());
        IC_CHECK_MSG(icTest_Mat3MaxAbs(P) <= 1e-14 * (m.mu + m.lambda), "%s: |P(I)| = %.3g",
                     icMaterialModel_Name(m.model), icTest_Mat3MaxAbs(P));
        IC_CHECK(fabs(icMaterial_Energy(&m, icMat3_Identity())) <= 1e-15 * (m.mu + m.lambda));
        // Also from E and nu (reparameterised values).
        icMaterial y;
        IC_CHECK_RESULT(icMaterial_FromYoungs(m.model, 1e5, 0.3, &y), IC_OK);
        P = icMaterial_Stress(&y, icMat3_Identity());
        IC_CHECK(icTest_Mat3MaxAbs(P) <= 1e-14 * (y.mu + y.lambda));
    }
    // Un-shifted MM: lambda/2 (J - 1)^2 + mu/2 (I_C - 3) has P(I) = mu I.
    icMaterial m = icTest_Material(IC_MATERIAL_MM);
    m.alpha = 1;
    icMat3 P = icMaterial_Stress(&m, icMat3_Identity());
    IC_CHECK(icTest_Mat3Diff(P, icMat3_Scale(m.mu, icMat3_Identity())) <= 1e-14);
}

// Rotation invariance and isotropy.
IC_TEST(fem, rotation_invariance_and_isotropy) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        if (m.model == IC_MATERIAL_LINEAR) continue;
        for (int k = 0; k < 60; ++k) {
            icMat3 F;
            if (!sampleF(m.model, k, &F)) continue;
            icMat3 q = icTest_RandomRotation(), dF = icTest_RandomMat3(1);
            icMat3 qf = icMat3_Mul(q, F), fq = icMat3_Mul(F, q);
            icReal psi = icMaterial_Energy(&m, F);
            icReal tol = 1e-12 * fmax(1, fabs(psi));
            IC_CHECK_NEAR(icMaterial_Energy(&m, qf), psi, tol);
            IC_CHECK_NEAR(icMaterial_Energy(&m, fq), psi, tol);
            icMat3 P = icMaterial_Stress(&m, F);
            double sp = 1e-12 * fmax(1, icTest_Mat3MaxAbs(P));
            IC_CHECK(icTest_Mat3Diff(icMaterial_Stress(&m, qf), icMat3_Mul(q, P)) <= sp);
            IC_CHECK(icTest_Mat3Diff(icMaterial_Stress(&m, fq), icMat3_Mul(P, q)) <= sp);
            icMat3 dp = icMaterial_StressDifferential(&m, F, dF);
            icMat3 dq = icMaterial_StressDifferential(&m, qf, icMat3_Mul(q, dF));
            IC_CHECK_MSG(icTest_Mat3Diff(dq, icMat3_Mul(q, dp)) <= 1e-10 * fmax(1, icTest_Mat3MaxAbs(dp)),
                         "%s: dP not rotation invariant", icMaterialModel_Name(m.model));
        }
    }
    // Negative control: linear elasticity sees strain in a rigid rotation.
    icMaterial lin = icTest_Material(IC_MATERIAL_LINEAR);
    icMat3 q = icMat3_Rotation(icVec3_Make(0, 0, 1), 0.5);
    IC_CHECK(icMaterial_Energy(&lin, q) > 1e-3);
    IC_CHECK(icTest_Mat3MaxAbs(icMaterial_Stress(&lin, q)) > 1e-2);
}

// Hessians at F = I equal linear elasticity with the expected Lamé pair.
IC_TEST(fem, linearisation_at_rest) {
    const double E = 2.5e4, nu = 0.3;
    icMaterial lin;
    IC_CHECK_RESULT(icMaterial_FromYoungs(IC_MATERIAL_LINEAR, E, nu, &lin), IC_OK);
    icReal hl[81], h[81];
    icMaterial_Hessian(&lin, icMat3_Identity(), hl);
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m;
        IC_CHECK_RESULT(icMaterial_FromYoungs((icMaterialModel)mi, E, nu, &m), IC_OK);
        icMaterial_Hessian(&m, icMat3_Identity(), h);
        if (m.model == IC_MATERIAL_MM) {
            // raw Lamé: behaves like linear with (mu, lambda - mu)
            IC_CHECK(icTest_MaxAbsDiff(h, hl, 81) > 1e-3 * E);
            icMaterial eff = icMaterial_FromLame(IC_MATERIAL_LINEAR, m.mu, m.lambda - m.mu);
            icReal he[81];
            icMaterial_Hessian(&eff, icMat3_Identity(), he);
            IC_CHECK(icTest_MaxAbsDiff(h, he, 81) <= 1e-10 * E);
        } else {
            IC_CHECK_MSG(icTest_MaxAbsDiff(h, hl, 81) <= 1e-10 * E, "%s: rest Hessian off by %.3g",
                         icMaterialModel_Name(m.model), icTest_MaxAbsDiff(h, hl, 81));
        }
    }
}

IC_TEST(fem, material_from_youngs) {
    icMaterial m;
    const double E = 1e5, nu = 0.45;
    double muL = E / (2 * (1 + nu)), lamL = E * nu / ((1 + nu) * (1 - 2 * nu));
    IC_CHECK_RESULT(icMaterial_FromYoungs(IC_MATERIAL_MM, E, nu, &m), IC_OK);
    IC_CHECK_NEAR(m.mu, muL, 1e-9);
    IC_CHECK_NEAR(m.lambda, lamL, 1e-8);
    IC_CHECK_NEAR(m.alpha, 1 + muL / lamL, 1e-15);
    IC_CHECK_RESULT(icMaterial_FromYoungs(IC_MATERIAL_SNH, E, nu, &m), IC_OK);
    IC_CHECK_NEAR(m.lambda, lamL + muL, 1e-8);
    IC_CHECK_NEAR(m.alpha, 1 + muL / (lamL + muL), 1e-15);
    IC_CHECK_RESULT(icMaterial_FromYoungs(IC_MATERIAL_SNH2018, E, nu, &m), IC_OK);
    IC_CHECK_NEAR(m.mu, 4.0 / 3.0 * muL, 1e-9);
    IC_CHECK_NEAR(m.lambda, lamL + 5.0 / 6.0 * muL, 1e-8);
    IC_CHECK_NEAR(m.alpha, 1 + 0.75 * m.mu / m.lambda, 1e-15);
    IC_CHECK_NEAR(m.density, 1000, 0);
    // nu = 0.5 (lambda infinite) cannot be solved force-based.
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        IC_CHECK_RESULT(icMaterial_FromYoungs((icMaterialModel)mi, E, 0.5, &m), IC_ERR_BAD_VALUE);
        IC_CHECK_RESULT(icMaterial_FromYoungs((icMaterialModel)mi, -1, 0.3, &m), IC_ERR_BAD_VALUE);
        IC_CHECK_RESULT(icMaterial_FromYoungs((icMaterialModel)mi, E, NAN, &m), IC_ERR_BAD_VALUE);
        IC_CHECK_RESULT(icMaterial_FromYoungs((icMaterialModel)mi, E, -1, &m), IC_ERR_BAD_VALUE);
    }
    IC_CHECK_RESULT(icMaterial_FromYoungs(IC_MATERIAL_COUNT_, E, 0.3, &m), IC_ERR_BAD_VALUE);
    // MM's gamma = 1 + mu/lambda needs lambda > 0, i.e. nu > 0.
    IC_CHECK_RESULT(icMaterial_FromYoungs(IC_MATERIAL_MM, E, 0.0, &m), IC_ERR_BAD_VALUE);
    IC_CHECK_RESULT(icMaterial_FromYoungs(IC_MATERIAL_SNH, E, 0.0, &m), IC_OK);
    IC_CHECK_RESULT(icMaterial_FromYoungs(IC_MATERIAL_LINEAR, E, -0.2, &m), IC_OK);
}

// Sifakis & Barbič 2012, sec. 3.6: the exact Neo-Hookean model is a barrier; inverted F get
// the clamp fallback.
IC_TEST(fem, neohookean_inversion_handling) {
    icMaterial m = icTest_Material(IC_MATERIAL_NEOHOOKEAN);
    icMat3 inv = icMat3_Diagonal(1.1, 0.9, -0.2);
    IC_CHECK(isinf(icMaterial_Energy(&m, inv)) && icMaterial_Energy(&m, inv) > 0);
    IC_CHECK(isinf(icMaterial_Energy(&m, icMat3_Diagonal(1, 1, 0))));
    icMat3 P = icMaterial_Stress(&m, inv);
    IC_CHECK(isfinite(icTest_Mat3MaxAbs(P)));
    // Evaluated at diag(1.1, 0.9, 0.1): the third stress pushes the element back out.
    icMat3 Pc = icMaterial_Stress(&m, icMat3_Diagonal(1.1, 0.9, 0.1));
    IC_CHECK(icTest_Mat3Diff(P, Pc) <= 1e-13);
    IC_CHECK(icMat3_At(&P, 2, 2) < 0);
    icReal h[81];
    icMaterial_ProjectedHessian(&m, inv, h);
    IC_CHECK(isfinite(icTest_MaxAbs(h, 81)));
    // With a clamp the energy is finite and the stress is its derivative away from the kink.
    m.clamp = 0.2;
    IC_CHECK(isfinite(icMaterial_Energy(&m, inv)));
    icMaterial exact = icTest_Material(IC_MATERIAL_NEOHOOKEAN);
    icMat3 F = icMat3_Mul(icTest_RandomRotation(), icMat3_Diagonal(1.1, 0.9, 0.5));
    IC_CHECK(icTest_Mat3Diff(icMaterial_Stress(&m, F), icMaterial_Stress(&exact, F)) <= 1e-13);
    IC_CHECK_NEAR(icMaterial_Energy(&m, icMat3_Diagonal(1.1, 0.9, 0.05)),
                  icMaterial_Energy(&m, icMat3_Diagonal(1.1, 0.9, 0.2)), 1e-14);
}

// The corotated element blocks four tets at a time (the AVX2 lanes where the CPU has them)
// give each tet the bits of the scalar icCorotated_TetBlocks: random, inverted and
// near-rest tets, with the twists projected and not, for the deviatoric model (lambda 0), a
// volume term and a negative lambda (the projected volume value).
IC_TEST(fem, corotated_blocks4_same_bits) {
    const icReal mu = 2e4;
    icMaterial materials[] = {icMaterial_FromLame(IC_MATERIAL_COROTATED, mu, 0),
                              icMaterial_FromLame(IC_MATERIAL_COROTATED, mu, 5 * mu),
                              icMaterial_FromLame(IC_MATERIAL_COROTATED, mu, -mu)};
    int differ = 0, groups = 0;
    for (size_t mi = 0; mi < sizeof materials / sizeof materials[0]; ++mi)
        for (int project = 0; project < 2; ++project)
            for (int g = 0; g < 64; ++g, ++groups) {
                icSvd3 svd[4];
                icTetRest rest[4];
                const icTetRest *rests[4];
                for (int l = 0; l < 4; ++l) {
                    icVec3 X[4] = {icVec3_Make(1, 0, 0), icVec3_Make(0, 1, 0), icVec3_Make(0, 0, 1),
                                   icVec3_Make(0, 0, 0)};
                    for (int a = 0; a < 4; ++a)
                        X[a] = icVec3_Add(X[a], icVec3_Make(icTest_Uniform(-0.1, 0.1),
                                                            icTest_Uniform(-0.1, 0.1),
                                                            icTest_Uniform(-0.1, 0.1)));
                    IC_REQUIRE(icTet_Rest(X, &rest[l]) == IC_OK);
                    rests[l] = &rest[l];
                    icMat3 F = icTest_RandomF();
                    if ((g + l) % 3 == 1) F.col[l % 3] = icVec3_Neg(F.col[l % 3]);
                    if ((g + l) % 5 == 2) // near rest: no twist clamped
                        F = icMat3_Add(icMat3_Identity(), icMat3_Scale(1e-3, F));
                    svd[l] = icMat3_Svd(F);
                }
                icReal four[4][10][9], one[10][9];
                icCorotated_TetBlocks4(&materials[mi], svd, project, rests, four);
                for (int l = 0; l < 4; ++l) {
                    icCorotated_TetBlocks(&materials[mi], &svd[l], project, &rest[l], one);
                    differ += memcmp(one, four[l], sizeof one) != 0;
                }
            }
    IC_CHECK_MSG(differ == 0, "%d of %d tets' blocks differ", differ, 4 * groups);
}
