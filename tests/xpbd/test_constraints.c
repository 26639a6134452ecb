// SPDX-License-Identifier: MIT
// Constraint values and gradients (Macklin & Müller 2021, supplement, sec. 1) against finite
// differences, and the Neo-Hookean theorem of the supplement (sec. 2).
#include "test.h"

static icMat3 randomMat(double lo, double hi) {
    icMat3 m;
    icReal *p = (icReal *)&m;
    for (int i = 0; i < 9; ++i) p[i] = icTest_Uniform(lo, hi);
    return m;
}

// F of a tet from its four positions and Q.
static icMat3 deformation(const icVec3 x[4], icMat3 Q) {
    icMat3 Ds = icMat3_FromCols(icVec3_Sub(x[0], x[3]), icVec3_Sub(x[1], x[3]), icVec3_Sub(x[2], x[3]));
    return icMat3_Mul(Ds, Q);
}

typedef void constraintFn(icMat3 F, icMat3 Q, icReal *C, icVec3 grad[4]);
static void hydrostatic(icMat3 F, icMat3 Q, icReal *C, icVec3 grad[4]) {
    icTet_HydrostaticGradient(F, Q, 1.25, C, grad);
}

// Central differences of C over each of the 12 position coordinates.
static double gradientError(constraintFn *fn, const icVec3 x0[4], icMat3 Q) {
    icReal C;
    icVec3 grad[4];
    fn(deformation(x0, Q), Q, &C, grad);
    double worst = 0, eps = 1e-6;
    for (int i = 0; i < 4; ++i)
        for (int a = 0; a < 3; ++a) {
            icVec3 xp[4], xm[4];
            for (int k = 0; k < 4; ++k) xp[k] = xm[k] = x0[k];
            ((icReal *)&xp[i])[a] += eps;
            ((icReal *)&xm[i])[a] -= eps;
            icReal Cp, Cm;
            icVec3 g[4];
            fn(deformation(xp, Q), Q, &Cp, g);
            fn(deformation(xm, Q), Q, &Cm, g);
            double fd = (Cp - Cm) / (2 * eps);
            double an = ((icReal *)&grad[i])[a];
            double err = fabs(fd - an) / (1.0 + fabs(an));
            if (err > worst) worst = err;
        }
    return worst;
}

static void randomTet(icVec3 X[4], icVec3 x[4], icMat3 *Q, bool invert) {
    // A rest tet of reasonable shape, and a current one that is a random distortion of it.
    X[0] = icVec3_Make(1, 0, 0);
    X[1] = icVec3_Make(0, 1, 0);
    X[2] = icVec3_Make(0, 0, 1);
    X[3] = icVec3_Make(0, 0, 0);
    for (int i = 0; i < 4; ++i)
        X[i] = icVec3_Add(X[i], icVec3_Make(icTest_Uniform(-0.2, 0.2), icTest_Uniform(-0.2, 0.2),
                                            icTest_Uniform(-0.2, 0.2)));
    icMat3 Dm = icMat3_FromCols(icVec3_Sub(X[0], X[3]), icVec3_Sub(X[1], X[3]), icVec3_Sub(X[2], X[3]));
    *Q = icMat3_Inverse(Dm, NULL);
    for (int i = 0; i < 4; ++i)
        x[i] = icVec3_Add(X[i], icVec3_Make(icTest_Uniform(-0.5, 0.5), icTest_Uniform(-0.5, 0.5),
                                            icTest_Uniform(-0.5, 0.5)));
    if (invert) { // push vertex 0 through the opposite face
        icVec3 c = icVec3_Scale(1.0 / 3.0, icVec3_Add(icVec3_Add(x[1], x[2]), x[3]));
        x[0] = icVec3_MulAdd(c, -0.7, icVec3_Sub(x[0], c));
    }
}

IC_TEST(xpbd, gradients_match_finite_differences) {
    int inverted = 0;
    double worstH = 0, worstD = 0; // for the summary line
    for (int trial = 0; trial < 200; ++trial) {
        icVec3 X[4], x[4];
        icMat3 Q;
        randomTet(X, x, &Q, trial % 2 == 1);
        if (icMat3_Det(deformation(x, Q)) < 0) ++inverted;
        double eH = gradientError(hydrostatic, x, Q);
        double eD = gradientError(icTet_DeviatoricGradient, x, Q);
        IC_CHECK_MSG(eH < 1e-7, "trial %d: hydrostatic gradient error %g", trial, eH);
        IC_CHECK_MSG(eD < 1e-7, "trial %d: deviatoric gradient error %g", trial, eD);
        worstH = fmax(worstH, eH);
        worstD = fmax(worstD, eD);
    }
    printf("  200 tets, %d inverted: worst relative gradient error hydrostatic %.1e, deviatoric "
           "%.1e\n", inverted, worstH, worstD);
    IC_CHECK_MSG(inverted >= 80, "only %d of 200 trials were inverted", inverted);
}

IC_TEST(xpbd, constraint_values) {
    icMat3 F = randomMat(-2, 2), Q = icMat3_Identity();
    icReal CH, CD;
    icVec3 g[4];
    icTet_HydrostaticGradient(F, Q, 1.1, &CH, g);
    icTet_DeviatoricGradient(F, Q, &CD, g);
    IC_CHECK_NEAR(CH, icMat3_Det(F) - 1.1, 1e-13);
    IC_CHECK_NEAR(CD, sqrt(icMat3_NormSquared(F)), 1e-13);
    // The fourth vertex's gradient is minus the sum of the other three (translation invariance).
    icVec3 s = icVec3_Add(icVec3_Add(g[0], g[1]), icVec3_Add(g[2], g[3]));
    IC_CHECK_NEAR(icVec3_Length(s), 0, 1e-13);
}

// Supplemental, sec. 2: det F = 1 and tr(F^T F) = 3 together hold exactly for rotations.
IC_TEST(xpbd, neohookean_theorem) {
    for (int trial = 0; trial < 100; ++trial) {
        icVec3 axis = icVec3_Make(icTest_Uniform(-1, 1), icTest_Uniform(-1, 1), icTest_Uniform(-1, 1));
        icMat3 R = icMat3_Rotation(axis, icTest_Uniform(-IC_PI, IC_PI));
        IC_CHECK_NEAR(icMat3_Det(R), 1.0, 1e-12);
        IC_CHECK_NEAR(icMat3_NormSquared(R), 3.0, 1e-12);
    }
    int bothHeld = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        icMat3 F = randomMat(-1.5, 1.5);
        // Random matrices are almost surely not rotations; make a third of them
        // volume-preserving to exercise the theorem's "at least one fails" direction.
        if (trial % 3 == 0) {
            icReal d = icMat3_Det(F);
            if (d > 1e-3) F = icMat3_Scale(1.0 / cbrt(d), F);
        }
        bool detOne = fabs(icMat3_Det(F) - 1) < 1e-9, traceThree = fabs(icMat3_NormSquared(F) - 3) < 1e-9;
        if (detOne && traceThree) ++bothHeld;
    }
    printf("  1000 random F: %d with det F = 1 and tr F^T F = 3 both\n", bothHeld);
    IC_CHECK_INT(bothHeld, 0);
    // And a pure shear with det 1 has trace > 3 (AM-GM on the squared singular values).
    icMat3 shear = icMat3_Identity();
    icMat3_Set(&shear, 0, 1, 0.3);
    IC_CHECK_NEAR(icMat3_Det(shear), 1.0, 1e-15);
    IC_CHECK(icMat3_NormSquared(shear) > 3.0 + 1e-3);
}

IC_TEST(xpbd, lame_parameters) {
    icReal mu, lambda;
    icLame(1e5, 0.3, &mu, &lambda);
    IC_CHECK_NEAR(mu, 1e5 / 2.6, 1e-9);
    IC_CHECK_NEAR(lambda, 1e5 * 0.3 / (1.3 * 0.4), 1e-7);
    icLame(1e5, 0.5, &mu, &lambda);
    IC_CHECK(isinf(lambda));
}
