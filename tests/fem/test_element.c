// SPDX-License-Identifier: MIT
// Element-level tests: forces vs energy, K_e vs forces, symmetry, products.
#include "fem/fem_test.h"

// A random positively oriented tet and deformed positions x = F X + b + noise.
static void randomTet(icVec3 X[4], icTetRest *rest, icVec3 x[4], icMaterialModel model) {
    for (;;) {
        for (int a = 0; a < 4; ++a)
            X[a] = icVec3_Make(icTest_Uniform(-1, 1), icTest_Uniform(-1, 1), icTest_Uniform(-1, 1));
        icResult r = icTet_Rest(X, rest);
        if (r == IC_ERR_INVERTED_ELEMENT) {
            icVec3 t = X[1];
            X[1] = X[2];
            X[2] = t;
            r = icTet_Rest(X, rest);
        }
        if (r == IC_OK && rest->W > 0.02) break;
    }
    for (;;) {
        icMat3 F = icTest_RandomF();
        for (int a = 0; a < 4; ++a)
            x[a] = icVec3_Add(icMat3_MulVec(F, X[a]),
                              icVec3_Make(0.3 + 0.02 * icTest_Normal(), 0.02 * icTest_Normal(), -0.1));
        icMat3 Fx = icTet_DeformationGradient(x, rest->Q);
        if (model != IC_MATERIAL_NEOHOOKEAN || icMat3_Det(Fx) > 0.1) {
            if (model != IC_MATERIAL_COROTATED) return;
            icSvd3 d = icMat3_Svd(Fx);
            if (d.s.y + d.s.z > 0.1) return;
        }
    }
}

static double tetEnergy(const icMaterial *m, const icTetRest *rest, const icVec3 x[4]) {
    return rest->W * icMaterial_Energy(m, icTet_DeformationGradient(x, rest->Q));
}

IC_TEST(fem, element_forces_match_energy) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        for (int k = 0; k < 20; ++k) {
            icVec3 X[4], x[4], f[4];
            icTetRest rest;
            randomTet(X, &rest, x, m.model);
            icTet_Forces(&m, &rest, x, f);
            double worst = 0, scale = 1;
            icVec3 sum = icVec3_Make(0, 0, 0), torque = icVec3_Make(0, 0, 0);
            for (int a = 0; a < 4; ++a) {
                sum = icVec3_Add(sum, f[a]);
                torque = icVec3_Add(torque, icVec3_Cross(x[a], f[a]));
                for (int i = 0; i < 3; ++i) {
                    const double h = 1e-6;
                    icVec3 xp[4], xm[4];
                    memcpy(xp, x, sizeof xp);
                    memcpy(xm, x, sizeof xm);
                    ((icReal *)&xp[a])[i] += h;
                    ((icReal *)&xm[a])[i] -= h;
                    double fd = -(tetEnergy(&m, &rest, xp) - tetEnergy(&m, &rest, xm)) / (2 * h);
                    double fa = icVec3_Get(f[a], i);
                    worst = fmax(worst, fabs(fd - fa));
                    scale = fmax(scale, fabs(fa));
                }
            }
            IC_CHECK_MSG(worst <= 1e-6 * scale, "%s: forces vs -dE/dx %.3g",
                         icMaterialModel_Name(m.model), worst);
            // Linear momentum always; angular momentum for rotation-invariant models.
            IC_CHECK(icVec3_Length(sum) <= 1e-13 * scale);
            if (m.model != IC_MATERIAL_LINEAR) IC_CHECK(icVec3_Length(torque) <= 1e-12 * scale);
        }
    }
}

IC_TEST(fem, element_stiffness_matches_forces) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        for (int k = 0; k < 10; ++k) {
            icVec3 X[4], x[4];
            icTetRest rest;
            randomTet(X, &rest, x, m.model);
            icReal hf[81], ke[144];
            icMaterial_Hessian(&m, icTet_DeformationGradient(x, rest.Q), hf);
            icTet_Stiffness(hf, &rest, ke);
            double scale = icTest_MaxAbs(ke, 144), worst = 0, asym = 0;
            // K_e = -df/dx by central differences of the forces.
            for (int c = 0; c < 12; ++c) {
                const double h = 1e-6;
                icVec3 xp[4], xm[4], fp[4], fm[4];
                memcpy(xp, x, sizeof xp);
                memcpy(xm, x, sizeof xm);
                ((icReal *)xp)[c] += h;
                ((icReal *)xm)[c] -= h;
                icTet_Forces(&m, &rest, xp, fp);
                icTet_Forces(&m, &rest, xm, fm);
                for (int r = 0; r < 12; ++r) {
                    double fd = -(((icReal *)fp)[r] - ((icReal *)fm)[r]) / (2 * h);
                    worst = fmax(worst, fabs(fd - ke[r + 12 * c]));
                    asym = fmax(asym, fabs(ke[r + 12 * c] - ke[c + 12 * r]));
                }
            }
            IC_CHECK_MSG(worst <= 1e-6 * fmax(1, scale), "%s: K_e vs force differences %.3g",
                         icMaterialModel_Name(m.model), worst);
            IC_CHECK(asym <= 1e-10 * scale);
            // The force differential with dx = -w equals K_e w (Sifakis & Barbič 2012, sec. 4.4).
            icVec3 w[4], mw[4], df[4];
            for (int a = 0; a < 4; ++a) {
                w[a] = icVec3_Make(icTest_Normal(), icTest_Normal(), icTest_Normal());
                mw[a] = icVec3_Neg(w[a]);
            }
            icTet_ForceDifferential(&m, &rest, x, mw, df);
            double pe = 0;
            for (int r = 0; r < 12; ++r) {
                double kw = 0;
                for (int c = 0; c < 12; ++c) kw += ke[r + 12 * c] * ((icReal *)w)[c];
                pe = fmax(pe, fabs(kw - ((icReal *)df)[r]));
            }
            IC_CHECK(pe <= 1e-10 * fmax(1, scale));
            // Rigid translations are in the null space: each row of K_e sums to 0 per axis.
            for (int r = 0; r < 12; ++r) {
                double s = 0;
                for (int b = 0; b < 4; ++b) s += ke[r + 12 * (3 * b)];
                IC_CHECK(fabs(s) <= 1e-12 * fmax(1, scale));
            }
        }
    }
}

IC_TEST(fem, tet_rest_data) {
    icVec3 X[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
    icTetRest rest;
    IC_CHECK_RESULT(icTet_Rest(X, &rest), IC_OK);
    IC_CHECK_NEAR(rest.W, 1.0 / 6.0, 1e-16);
    IC_CHECK(icTest_Mat3Diff(rest.Q, icMat3_Identity()) == 0);
    icVec3 g[4];
    icTet_ShapeGradients(rest.Q, g);
    IC_CHECK(icVec3_Distance(g[3], icVec3_Make(-1, -1, -1)) == 0);
    // Swapped orientation and a flat tet.
    icVec3 Y[4] = {X[0], X[2], X[1], X[3]};
    IC_CHECK_RESULT(icTet_Rest(Y, &rest), IC_ERR_INVERTED_ELEMENT);
    icVec3 Z[4] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 0}};
    IC_CHECK_RESULT(icTet_Rest(Z, &rest), IC_ERR_DEGENERATE_ELEMENT);
    icVec3 N[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1e-13}, {0, 0, 0}};
    IC_CHECK_RESULT(icTet_Rest(N, &rest), IC_ERR_DEGENERATE_ELEMENT);
    // F of an affine map is its matrix.
    icMat3 A = icTest_RandomF();
    icVec3 x[4];
    for (int a = 0; a < 4; ++a) x[a] = icVec3_Add(icMat3_MulVec(A, X[a]), icVec3_Make(3, 2, 1));
    IC_CHECK(icTest_Mat3Diff(icTet_DeformationGradient(x, rest.Q), A) <= 1e-15);
}
