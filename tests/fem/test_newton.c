// SPDX-License-Identifier: MIT
// Newton solver tests: backward Euler and quasistatics.
#include "fem/fem_test.h"

typedef struct {
    int vertexCount, tetCount;
    icReal *rest;
    int *tets;
    icFemModel model;
} icTestBody;

// A jittered grid body of size n * h with one material; false when the model fails.
static bool makeBody(icTestBody *b, const int n[3], double h, double jitter, icMaterial m) {
    memset(b, 0, sizeof *b);
    if (!icTest_GridMesh(n, h, jitter, &b->vertexCount, &b->rest, &b->tetCount, &b->tets))
        return false;
    return icFemModel_Create(&b->model, b->vertexCount, b->rest, b->tetCount, b->tets, 1, &m,
                             NULL, NULL) == IC_OK;
}

static void freeBody(icTestBody *b) {
    icFemModel_Destroy(&b->model);
    free(b->rest);
    free(b->tets);
}

static icNewtonDef tightDef(void) {
    icNewtonDef d = icDefaultNewtonDef();
    d.residualTolerance = 1e-12;
    d.absoluteTolerance = 1e-14;
    d.stepTolerance = 1e-14;
    d.cgTolerance = 1e-11;
    d.maxCGIterations = 5000;
    return d;
}

// No forces, uniform v0: x = x0 + n dt v0, v unchanged (catches the frozen start x_0 = x^n of
// Sifakis & Barbič 2012, sec. 4.4).
IC_TEST(fem, newton_free_flight) {
    int64_t bytes = icGetByteCount();
    icTestBody b;
    int n[3] = {2, 2, 2};
    IC_REQUIRE(makeBody(&b, n, 0.5, 0.1, icMaterial_FromLame(IC_MATERIAL_MM, 1e4, 4e4)));
    int nn = 3 * b.vertexCount;
    icReal *x = malloc(sizeof(icReal) * nn), *v = malloc(sizeof(icReal) * nn);
    icVec3 v0 = icVec3_Make(1.5, -0.25, 3);
    for (int i = 0; i < b.vertexCount; ++i) icVec3_Store(v, i, v0);
    memcpy(x, b.rest, sizeof(icReal) * nn);
    icNewtonSolver *s = icCreateNewtonSolver(&b.model, NULL);
    IC_REQUIRE(s);
    icNewtonInput in = {NULL, NULL, NULL, {0, 0, 0}};
    const double dt = 0.01;
    for (int step = 0; step < 20; ++step) {
        icNewtonStats st;
        IC_CHECK_RESULT(icNewtonSolver_Step(s, &in, dt, x, v, &st), IC_OK);
        IC_CHECK(st.converged);
    }
    double worst = 0;
    for (int i = 0; i < b.vertexCount; ++i) {
        icVec3 expect = icVec3_MulAdd(icVec3_Load(b.rest, i), 20 * dt, v0);
        worst = fmax(worst, icVec3_Distance(icVec3_Load(x, i), expect));
        IC_CHECK(icVec3_Distance(icVec3_Load(v, i), v0) == 0);
    }
    IC_CHECK_MSG(worst <= 1e-13, "free flight drift %.3g", worst);
    icDestroyNewtonSolver(s);
    free(x), free(v);
    freeBody(&b);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Free fall follows v += dt g, x += dt v.
IC_TEST(fem, newton_free_fall) {
    icTestBody b;
    int n[3] = {2, 1, 1};
    IC_REQUIRE(makeBody(&b, n, 0.5, 0, icMaterial_FromLame(IC_MATERIAL_SNH, 1e4, 4e4)));
    int nn = 3 * b.vertexCount;
    icReal *x = malloc(sizeof(icReal) * nn), *v = calloc((size_t)nn, sizeof(icReal));
    memcpy(x, b.rest, sizeof(icReal) * nn);
    icNewtonDef d = tightDef();
    icNewtonSolver *s = icCreateNewtonSolver(&b.model, &d);
    icVec3 g = icVec3_Make(0, -9.81, 0);
    icNewtonInput in = {NULL, NULL, NULL, g};
    const double dt = 1.0 / 60;
    icVec3 vel = icVec3_Make(0, 0, 0), shift = icVec3_Make(0, 0, 0);
    for (int step = 0; step < 30; ++step) {
        IC_CHECK_RESULT(icNewtonSolver_Step(s, &in, dt, x, v, NULL), IC_OK);
        vel = icVec3_MulAdd(vel, dt, g);
        shift = icVec3_MulAdd(shift, dt, vel);
    }
    double worst = 0;
    for (int i = 0; i < b.vertexCount; ++i) {
        worst = fmax(worst, icVec3_Distance(icVec3_Load(x, i), icVec3_Add(icVec3_Load(b.rest, i), shift)));
        worst = fmax(worst, icVec3_Distance(icVec3_Load(v, i), vel));
    }
    IC_CHECK_MSG(worst <= 1e-12, "free fall off by %.3g", worst);
    icDestroyNewtonSolver(s);
    free(x), free(v);
    freeBody(&b);
}

// An unloaded mesh stays put over 100 steps, for every material.
IC_TEST(fem, newton_rest_stability) {
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icTestBody b;
        int n[3] = {2, 2, 1};
        icMaterial m;
        IC_REQUIRE(icMaterial_FromYoungs((icMaterialModel)mi, 1e5, 0.4, &m) == IC_OK);
        IC_REQUIRE(makeBody(&b, n, 0.5, 0.1, m));
        int nn = 3 * b.vertexCount;
        icReal *x = malloc(sizeof(icReal) * nn), *v = calloc((size_t)nn, sizeof(icReal));
        memcpy(x, b.rest, sizeof(icReal) * nn);
        icNewtonSolver *s = icCreateNewtonSolver(&b.model, NULL);
        icNewtonInput in = {NULL, NULL, NULL, {0, 0, 0}};
        for (int step = 0; step < 100; ++step) icNewtonSolver_Step(s, &in, 0.01, x, v, NULL);
        IC_CHECK_MSG(icTest_MaxAbsDiff(x, b.rest, nn) <= 1e-12 * 1.0, "%s drifts %.3g",
                     icMaterialModel_Name(m.model), icTest_MaxAbsDiff(x, b.rest, nn));
        icDestroyNewtonSolver(s);
        free(x), free(v);
        freeBody(&b);
    }
}

static icVec3 momentum(const icFemModel *m, const icReal *v) {
    icVec3 p = icVec3_Make(0, 0, 0);
    for (int i = 0; i < m->vertexCount; ++i) p = icVec3_MulAdd(p, m->mass[i], icVec3_Load(v, i));
    return p;
}

static double kineticEnergy(const icFemModel *m, const icReal *v) {
    double e = 0;
    for (int i = 0; i < m->vertexCount; ++i) e += 0.5 * m->mass[i] * icVec3_LengthSquared(icVec3_Load(v, i));
    return e;
}

// Momentum conservation without external forces, and energy decay of backward
// Euler (gamma = 0) in a small-deformation oscillation.
IC_TEST(fem, newton_momentum_and_energy) {
    icTestBody b;
    int n[3] = {3, 2, 2};
    IC_REQUIRE(makeBody(&b, n, 0.1, 0.1, icMaterial_FromLame(IC_MATERIAL_MM, 1e4, 4e4)));
    int nn = 3 * b.vertexCount;
    icReal *x = malloc(sizeof(icReal) * nn), *v = malloc(sizeof(icReal) * nn);
    for (int i = 0; i < b.vertexCount; ++i) {
        icVec3 p = icVec3_Load(b.rest, i);
        icVec3_Store(x, i, icVec3_Make(1.02 * p.x, 0.99 * p.y, p.z));
        icVec3_Store(v, i, icVec3_Make(icTest_Uniform(-0.1, 0.1), icTest_Uniform(-0.1, 0.1), 0.3));
    }
    icNewtonDef d = tightDef();
    icNewtonSolver *s = icCreateNewtonSolver(&b.model, &d);
    icNewtonInput in = {NULL, NULL, NULL, {0, 0, 0}};
    icVec3 p0 = momentum(&b.model, v);
    double e0 = kineticEnergy(&b.model, v) + icFem_Energy(&b.model, x), prev = e0;
    int increases = 0;
    for (int step = 0; step < 40; ++step) {
        IC_CHECK_RESULT(icNewtonSolver_Step(s, &in, 2e-3, x, v, NULL), IC_OK);
        double e = kineticEnergy(&b.model, v) + icFem_Energy(&b.model, x);
        increases += e > prev + 1e-8 * e0;
        prev = e;
    }
    IC_CHECK_INT(increases, 0);
    IC_CHECK(prev < e0); // dissipative
    IC_CHECK(icVec3_Distance(momentum(&b.model, v), p0) <= 1e-9 * fmax(1, icVec3_Length(p0)));
    icDestroyNewtonSolver(s);
    free(x), free(v);
    freeBody(&b);
}

// Box [0, 2] x [0, 1] x [0, 1] with symmetry BCs and the x = 2 face prescribed.
typedef struct {
    icTestBody body;
    unsigned char *mask;
    icReal *targets;
} icTestBar;

static bool makeBar(icTestBar *bar, icMaterial m) {
    int n[3] = {4, 2, 2};
    if (!makeBody(&bar->body, n, 0.5, 0.15, m)) return false;
    int nn = 3 * bar->body.vertexCount;
    bar->mask = malloc((size_t)nn);
    bar->targets = calloc((size_t)nn, sizeof(icReal));
    return true;
}

static void setBarStretch(icTestBar *bar, double s) {
    for (int v = 0; v < bar->body.vertexCount; ++v) {
        icVec3 p = icVec3_Load(bar->body.rest, v);
        bar->mask[3 * v] = !(p.x == 0 || p.x == 2);
        bar->mask[3 * v + 1] = p.y != 0;
        bar->mask[3 * v + 2] = p.z != 0;
        bar->targets[3 * v] = p.x == 2 ? 2 * s : 0;
    }
}

static void freeBar(icTestBar *bar) {
    freeBody(&bar->body);
    free(bar->mask);
    free(bar->targets);
}

// Closed-form uniaxial values (internal mu = 1.3, lambda = 4.1) for s = 0.8 and 1.3.
static const struct {
    icMaterialModel model;
    double t[2], p11[2];
} kBarTable[] = {
    {IC_MATERIAL_LINEAR, {1.0759259259, 0.8861111111}, {-0.71740741, 1.07611111}},
    {IC_MATERIAL_COROTATED, {1.0759259259, 0.8861111111}, {-0.71740741, 1.07611111}},
    {IC_MATERIAL_STVK, {1.0661457061, 0.8591015979}, {-0.51653333, 1.60878611}},
    {IC_MATERIAL_NEOHOOKEAN, {1.0864977985, 0.9030825287}, {-0.87827588, 0.87444195}},
    {IC_MATERIAL_MM, {1.0728068951, 0.9085790816}, {-0.83023628, 0.86448405}},
    {IC_MATERIAL_SNH, {1.0728068951, 0.9085790816}, {-0.83023628, 0.86448405}},
    {IC_MATERIAL_SNH2018, {1.0844067678, 0.8989489702}, {-0.65273139, 0.67709604}},
};

// Quasistatic Newton reproduces the homogeneous uniaxial state (lateral stretch
// and reaction force) to 1e-6 on an irregular mesh, for every material.
IC_TEST(fem, newton_uniaxial_bar) {
    static const double stretches[2] = {0.8, 1.3};
    for (size_t r = 0; r < sizeof kBarTable / sizeof kBarTable[0]; ++r) {
        icTestBar bar;
        IC_REQUIRE(makeBar(&bar, icTest_Material(kBarTable[r].model)));
        int nn = 3 * bar.body.vertexCount;
        icReal *x = malloc(sizeof(icReal) * nn), *f = malloc(sizeof(icReal) * nn);
        icNewtonDef d = tightDef();
        icNewtonSolver *s = icCreateNewtonSolver(&bar.body.model, &d);
        for (int si = 0; si < 2; ++si) {
            double st = stretches[si];
            memcpy(x, bar.body.rest, sizeof(icReal) * nn);
            icNewtonStats ns;
            icResult res = IC_OK;
            // Load stepping in four increments (the user's choice).
            for (int k = 1; k <= 4 && res == IC_OK; ++k) {
                setBarStretch(&bar, 1 + (st - 1) * k / 4);
                icNewtonInput in = {bar.mask, bar.targets, NULL, {0, 0, 0}};
                res = icNewtonSolver_SolveStatic(s, &in, x, &ns);
            }
            IC_CHECK_MSG(res == IC_OK, "%s s = %g: %s after %d iterations, residual %.3g",
                         icMaterialModel_Name(kBarTable[r].model), st, icResult_Name(res),
                         ns.iterations, ns.residual);
            double t = kBarTable[r].t[si], worst = 0;
            for (int v = 0; v < bar.body.vertexCount; ++v) {
                icVec3 p = icVec3_Load(bar.body.rest, v);
                icVec3 expect = icVec3_Make(st * p.x, t * p.y, t * p.z);
                worst = fmax(worst, icVec3_Distance(icVec3_Load(x, v), expect));
            }
            IC_CHECK_MSG(worst <= 1e-6, "%s s = %g: |x - diag(s,t,t) X| = %.3g",
                         icMaterialModel_Name(kBarTable[r].model), st, worst);
            // Reaction on the pulled face: P11 * (1 x 1) balances the elastic forces there.
            memset(f, 0, sizeof(icReal) * nn);
            icFem_AddForces(&bar.body.model, x, f);
            double reaction = 0;
            for (int v = 0; v < bar.body.vertexCount; ++v)
                if (bar.body.rest[3 * v] == 2) reaction -= f[3 * v];
            IC_CHECK_MSG(fabs(reaction - kBarTable[r].p11[si]) <= 1e-6,
                         "%s s = %g: reaction %.9f, table %.8f", icMaterialModel_Name(kBarTable[r].model),
                         st, reaction, kBarTable[r].p11[si]);
        }
        icDestroyNewtonSolver(s);
        free(x), free(f);
        freeBar(&bar);
    }
}

// With the exact Hessian near the solution Newton converges quadratically.
IC_TEST(fem, newton_quadratic_convergence) {
    icTestBar bar;
    IC_REQUIRE(makeBar(&bar, icTest_Material(IC_MATERIAL_COROTATED)));
    int nn = 3 * bar.body.vertexCount;
    icReal *x = malloc(sizeof(icReal) * nn);
    icNewtonDef d = tightDef();
    d.residualTolerance = 0;
    d.absoluteTolerance = 0;
    d.stepTolerance = 0;
    d.cgTolerance = 1e-13;
    setBarStretch(&bar, 1.1);
    icNewtonInput in = {bar.mask, bar.targets, NULL, {0, 0, 0}};
    double res[8];
    for (int k = 0; k < 8; ++k) {
        d.maxIterations = k + 1;
        icNewtonSolver *s = icCreateNewtonSolver(&bar.body.model, &d);
        memcpy(x, bar.body.rest, sizeof(icReal) * nn);
        icNewtonStats ns;
        icNewtonSolver_SolveStatic(s, &in, x, &ns);
        res[k] = ns.residual / ns.initialResidual;
        icDestroyNewtonSolver(s);
    }
    // Find a pair in the quadratic regime: e_k small, e_{k+1} above rounding.
    bool found = false;
    for (int k = 0; k + 1 < 8; ++k)
        if (res[k] < 1e-2 && res[k + 1] > 1e-13) {
            double order = log(res[k + 1]) / log(res[k]);
            IC_CHECK_MSG(order > 1.7, "convergence order %.2f (e = %.3g -> %.3g)", order, res[k],
                         res[k + 1]);
            found = true;
        }
    IC_CHECK(found);
    IC_CHECK(res[7] < 1e-12);
    free(x);
    freeBar(&bar);
}

// Patch test, solve version: affine boundary, quasistatic solve from rest, interior nodes
// reproduce the affine map.
IC_TEST(fem, newton_patch_test_solve) {
    icTestBody b;
    int n[3] = {3, 3, 3};
    IC_REQUIRE(makeBody(&b, n, 1.0 / 3, 0.1, icTest_Material(IC_MATERIAL_SNH)));
    int nn = 3 * b.vertexCount;
    unsigned char *mask = malloc((size_t)nn);
    icReal *targets = malloc(sizeof(icReal) * nn), *x = malloc(sizeof(icReal) * nn);
    icMat3 A = icMat3_Add(icMat3_Identity(), icTest_RandomMat3(0.1));
    for (int v = 0; v < b.vertexCount; ++v) {
        icVec3 p = icVec3_Load(b.rest, v);
        bool boundary = p.x == 0 || p.y == 0 || p.z == 0 || p.x == 1 || p.y == 1 || p.z == 1;
        for (int i = 0; i < 3; ++i) mask[3 * v + i] = !boundary;
        icVec3_Store(targets, v, icMat3_MulVec(A, p));
    }
    memcpy(x, b.rest, sizeof(icReal) * nn);
    icNewtonDef d = tightDef();
    icNewtonSolver *s = icCreateNewtonSolver(&b.model, &d);
    icNewtonInput in = {mask, targets, NULL, {0, 0, 0}};
    IC_CHECK_RESULT(icNewtonSolver_SolveStatic(s, &in, x, NULL), IC_OK);
    IC_CHECK(icTest_MaxAbsDiff(x, targets, nn) <= 1e-9);
    icDestroyNewtonSolver(s);
    free(mask), free(targets), free(x);
    freeBody(&b);
}

// Prescribed DOFs equal their targets exactly after each step, and the matrix-free path
// gives the assembled path's result.
IC_TEST(fem, newton_dirichlet_and_matrix_free) {
    icTestBody b;
    int n[3] = {3, 1, 1};
    IC_REQUIRE(makeBody(&b, n, 0.2, 0.1, icMaterial_FromLame(IC_MATERIAL_COROTATED, 2e4, 5e4)));
    int nn = 3 * b.vertexCount;
    unsigned char *mask = malloc((size_t)nn);
    icReal *targets = calloc((size_t)nn, sizeof(icReal));
    icReal *x[2], *v[2];
    for (int k = 0; k < 2; ++k) {
        x[k] = malloc(sizeof(icReal) * nn);
        v[k] = calloc((size_t)nn, sizeof(icReal));
        memcpy(x[k], b.rest, sizeof(icReal) * nn);
    }
    icNewtonSolver *s[2];
    for (int k = 0; k < 2; ++k) {
        icNewtonDef d = tightDef();
        d.matrixFree = k == 1;
        d.stiffnessDamping = 0.01;
        d.massDamping = 0.5;
        s[k] = icCreateNewtonSolver(&b.model, &d);
    }
    for (int step = 1; step <= 10; ++step) {
        // The x = 0 end is held; its y moves up over time.
        for (int vi = 0; vi < b.vertexCount; ++vi) {
            icVec3 p = icVec3_Load(b.rest, vi);
            for (int i = 0; i < 3; ++i) mask[3 * vi + i] = p.x != 0;
            icVec3_Store(targets, vi, icVec3_Add(p, icVec3_Make(0, 0.01 * step, 0)));
        }
        icNewtonInput in = {mask, targets, NULL, {0, -9.81, 0}};
        for (int k = 0; k < 2; ++k) {
            IC_CHECK_RESULT(icNewtonSolver_Step(s[k], &in, 1e-2, x[k], v[k], NULL), IC_OK);
            for (int i = 0; i < nn; ++i)
                if (!mask[i]) IC_CHECK(x[k][i] == targets[i]);
        }
    }
    IC_CHECK_MSG(icTest_MaxAbsDiff(x[0], x[1], nn) <= 1e-9, "matrix-free differs by %.3g",
                 icTest_MaxAbsDiff(x[0], x[1], nn));
    for (int k = 0; k < 2; ++k) {
        icDestroyNewtonSolver(s[k]);
        free(x[k]), free(v[k]);
    }
    free(mask), free(targets);
    freeBody(&b);
}

// Quasistatic recovery of the 2x2x2-cell cube from positions in the plane z = 0.5, with
// three vertices of one tet pinned at rest (removing the rigid modes). scramble: random
// in-plane positions; otherwise the rest (x, y) with small noise. Returns max |F - I|.
static double recoverFromPlane(icMaterialModel model, bool scramble, icNewtonStats *ns,
                               icResult *result) {
    icTestBody b;
    int n[3] = {2, 2, 2};
    icMaterial m;
    icMaterial_FromYoungs(model, 1e4, 0.3, &m);
    if (!makeBody(&b, n, 0.5, 0.05, m)) return INFINITY;
    int nn = 3 * b.vertexCount;
    icReal *x = malloc(sizeof(icReal) * nn);
    unsigned char *mask = malloc((size_t)nn);
    for (int v = 0; v < b.vertexCount; ++v) {
        icVec3 p = icVec3_Load(b.rest, v);
        icVec3 q = scramble ? icVec3_Make(icTest_Uniform(0, 1), icTest_Uniform(0, 1), 0.5)
                            : icVec3_Make(p.x + icTest_Uniform(-0.02, 0.02),
                                          p.y + icTest_Uniform(-0.02, 0.02), 0.5);
        icVec3_Store(x, v, q);
        for (int i = 0; i < 3; ++i) mask[3 * v + i] = 1;
    }
    for (int a = 0; a < 3; ++a)
        for (int i = 0; i < 3; ++i) mask[3 * b.model.tets[a] + i] = 0;
    icNewtonDef d = icDefaultNewtonDef();
    d.maxIterations = 400;
    d.residualTolerance = 1e-10;
    d.cgTolerance = 1e-8;
    icNewtonSolver *s = icCreateNewtonSolver(&b.model, &d);
    icNewtonInput in = {mask, b.rest, NULL, {0, 0, 0}};
    *result = icNewtonSolver_SolveStatic(s, &in, x, ns);
    double worst = 0;
    for (int t = 0; t < b.model.tetCount; ++t) {
        icVec3 xs[4];
        for (int a = 0; a < 4; ++a) xs[a] = icVec3_Load(x, b.model.tets[4 * t + a]);
        worst = fmax(worst, icTest_Mat3Diff(icTet_DeformationGradient(xs, b.model.rest[t].Q),
                                            icMat3_Identity()));
    }
    icDestroyNewtonSolver(s);
    free(x), free(mask);
    freeBody(&b);
    return worst;
}

// Robustness. A flattened mesh recovers its rest shape for SNH, MM, corotated and
// SNH 2018. From fully scrambled in-plane positions SNH 2018 recovers every time; MM and
// SNH (no log term) can end in a compressed local minimum instead (elements near F = 0,
// which is a local minimum without the log term) - see the next test.
IC_TEST(fem, newton_recovers_from_plane) {
    static const icMaterialModel models[4] = {IC_MATERIAL_SNH, IC_MATERIAL_MM,
                                              IC_MATERIAL_COROTATED, IC_MATERIAL_SNH2018};
    for (int mi = 0; mi < 4; ++mi) {
        icNewtonStats ns;
        icResult r;
        double worst = recoverFromPlane(models[mi], false, &ns, &r);
        IC_CHECK_MSG(r == IC_OK && worst <= 1e-5, "%s (flattened): %s, max |F - I| = %.3g after %d iterations",
                     icMaterialModel_Name(models[mi]), icResult_Name(r), worst, ns.iterations);
    }
    for (int rep = 0; rep < 5; ++rep) {
        icNewtonStats ns;
        icResult r;
        double worst = recoverFromPlane(IC_MATERIAL_SNH2018, true, &ns, &r);
        IC_CHECK_MSG(r == IC_OK && worst <= 1e-5, "snh2018 (scrambled %d): %s, max |F - I| = %.3g after %d iterations",
                     rep, icResult_Name(r), worst, ns.iterations);
    }
}

// Without the log term of Smith, de Goes & Kim 2018, F = 0 is a local minimum of the element
// energy (P(0) = 0, Hessian mu I9); with it (SNH 2018) F = 0 is a saddle.
IC_TEST(fem, collapsed_element_is_local_minimum_without_log_term) {
    static const icMaterialModel models[3] = {IC_MATERIAL_MM, IC_MATERIAL_SNH, IC_MATERIAL_SNH2018};
    for (int mi = 0; mi < 3; ++mi) {
        icMaterial m = icTest_Material(models[mi]);
        icMat3 P = icMaterial_Stress(&m, icMat3_Zero());
        IC_CHECK(icTest_Mat3MaxAbs(P) == 0);
        icReal h[81], ev[9];
        icMaterial_Hessian(&m, icMat3_Zero(), h);
        icSymmetricEigen(9, h, ev, NULL, 30);
        if (models[mi] == IC_MATERIAL_SNH2018)
            IC_CHECK_NEAR(ev[0], 0, 1e-14); // mu (1 - 1/(0 + 1)) = 0: the quadratic part cancels
        else
            IC_CHECK_NEAR(ev[0], m.mu, 1e-14);
    }
    // SNH 2018: along F = e I the energy falls below Psi(0) on the side where -lambda alpha J
    // decreases it, so F = 0 is not a minimum.
    icMaterial m = icTest_Material(IC_MATERIAL_SNH2018);
    double e = 0.05;
    IC_CHECK(icMaterial_Energy(&m, icMat3_Scale(e, icMat3_Identity())) < icMaterial_Energy(&m, icMat3_Zero()));
    icMaterial mm = icTest_Material(IC_MATERIAL_MM);
    IC_CHECK(icMaterial_Energy(&mm, icMat3_Scale(e, icMat3_Identity())) > icMaterial_Energy(&mm, icMat3_Zero()));
    IC_CHECK(icMaterial_Energy(&mm, icMat3_Scale(-e, icMat3_Identity())) > icMaterial_Energy(&mm, icMat3_Zero()));
}

// Raises the interrupt flag of its context the first time the solver evaluates it (during the
// first Newton iteration's assembly); adds nothing to the problem.
static icReal raiseFlagPotential(void *context, const icReal *x, icReal *f, icReal *blocks) {
    (void)x, (void)f, (void)blocks;
    *(volatile sig_atomic_t *)context = SIGTERM;
    return 0;
}

// A flag raised during the first iteration stops the step before its first PCG product (a PCG
// runs up to maxCGIterations products, seconds on a large mesh), and x and v are as given.
IC_TEST(fem, newton_interrupt_stops_inside_the_linear_solve) {
    int64_t bytes = icGetByteCount();
    icTestBody b;
    int n[3] = {3, 2, 2};
    IC_REQUIRE(makeBody(&b, n, 0.1, 0.1, icMaterial_FromLame(IC_MATERIAL_SNH, 1e4, 4e4)));
    int nn = 3 * b.vertexCount;
    icReal *x = malloc(sizeof(icReal) * nn), *v = calloc((size_t)nn, sizeof(icReal));
    IC_REQUIRE(x && v);
    memcpy(x, b.rest, sizeof(icReal) * nn);
    icNewtonDef def = tightDef();
    icNewtonSolver *s = icCreateNewtonSolver(&b.model, &def);
    IC_REQUIRE(s);
    volatile sig_atomic_t flag = 0;
    icNewtonSolver_SetInterrupt(s, &flag);
    icNewtonSolver_SetPotential(s, raiseFlagPotential, (void *)&flag);
    icNewtonInput in = {NULL, NULL, NULL, {0, -9.81, 0}};
    icNewtonStats st;
    IC_CHECK_RESULT(icNewtonSolver_Step(s, &in, 0.01, x, v, &st), IC_ERR_INTERRUPTED);
    IC_CHECK_INT(st.cgIterations, 0);
    IC_CHECK(memcmp(x, b.rest, sizeof(icReal) * nn) == 0);
    for (int i = 0; i < nn; ++i) IC_CHECK(v[i] == 0);
    // Lowered, the same step runs to convergence.
    icNewtonSolver_SetPotential(s, NULL, NULL);
    flag = 0;
    IC_CHECK_RESULT(icNewtonSolver_Step(s, &in, 0.01, x, v, &st), IC_OK);
    IC_CHECK(st.converged && st.cgIterations > 0);
    icDestroyNewtonSolver(s);
    free(x), free(v);
    freeBody(&b);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
