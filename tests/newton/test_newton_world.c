// SPDX-License-Identifier: MIT
// The Newton solver driven through a world: free flight, pins, static solve vs XPBD, errors.
#include "fem/fem_test.h"

static icWorld *boxWorld(icVec3 gravity, icSoftBodyDef bdef, icBodyId *id) {
    icWorldDef wdef = icDefaultWorldDef();
    wdef.gravity = gravity;
    wdef.precision = IC_PRECISION_DOUBLE; // XPBD's static solve below converges to 1e-11
    icWorld *world = icCreateWorld(&wdef);
    icTetMesh mesh;
    int cells[3] = {4, 1, 1};
    if (!world || icGenerateBox(&mesh, icVec3_Make(0.4, 0.1, 0.1), cells, 6) != IC_OK) return world;
    icDiagnostic diag;
    if (icWorld_CreateSoftBody(world, &mesh, &bdef, id, &diag) != IC_OK)
        icTest_Fail(__FILE__, __LINE__, "body: %s", diag.message);
    icTetMesh_Destroy(&mesh);
    return world;
}

IC_TEST(fem, newton_world_free_flight) {
    int64_t bytes = icGetByteCount();
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.velocity = icVec3_Make(0.5, 1, -2);
    icBodyId id;
    icWorld *world = boxWorld(icVec3_Make(0, 0, 0), bdef, &id);
    IC_REQUIRE(world && icWorld_GetVertexCount(world) > 0);
    icNewtonCache *cache = NULL;
    icStepStats st;
    icNewtonStats ns;
    for (int i = 0; i < 10; ++i) {
        IC_CHECK_RESULT(icNewton_Step(world, &cache, NULL, 0.01, &st, &ns), IC_OK);
        IC_CHECK(st.converged && st.invertedTets == 0 && !st.nan);
    }
    IC_CHECK_NEAR(icWorld_GetTime(world), 0.1, 1e-15);
    const icReal *x = icWorld_GetPositions(world), *x0 = icWorld_GetRestPositions(world);
    double worst = 0;
    for (int v = 0; v < icWorld_GetVertexCount(world); ++v)
        worst = fmax(worst, icVec3_Distance(icVec3_Load(x, v),
                                            icVec3_MulAdd(icVec3_Load(x0, v), 0.1, bdef.velocity)));
    IC_CHECK(worst <= 1e-13);
    icNewtonCache_Destroy(cache);
    icDestroyWorld(world);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A cantilever clamped at x = -0.2 sags under gravity: Newton's static solve minimises the
// same MM energy as XPBD's, so both equilibria agree (to XPBD's convergence).
IC_TEST(fem, newton_world_static_matches_xpbd) {
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.youngsModulus = 2e5;
    bdef.poissonRatio = 0.3;
    icBodyId id;
    icWorld *world = boxWorld(icVec3_Make(0, -9.81, 0), bdef, &id);
    IC_REQUIRE(world && icWorld_GetVertexCount(world) > 0);
    icPinDef pin = icDefaultPinDef();
    pin.boxMin = icVec3_Make(-0.21, -1, -1);
    pin.boxMax = icVec3_Make(-0.19, 1, 1);
    int pinned = 0;
    IC_REQUIRE(icBody_AddPin(world, id, &pin, &pinned) == IC_OK && pinned > 0);
    icState *start = icWorld_CreateState(world);
    icNewtonCache *cache = NULL;
    icStepStats st;
    icNewtonStats ns;
    icNewtonDef d = icDefaultNewtonDef();
    d.residualTolerance = 1e-10;
    d.cgTolerance = 1e-8;
    IC_CHECK_RESULT(icNewton_SolveStatic(world, &cache, &d, true, &st, &ns), IC_OK);
    IC_CHECK(ns.converged && ns.iterations >= 1);
    int nv = icWorld_GetVertexCount(world);
    icReal *newton = malloc(sizeof(icReal) * 3 * nv);
    memcpy(newton, icWorld_GetPositions(world), sizeof(icReal) * 3 * nv);
    // pinned vertices stayed, the free end sagged
    const icReal *rest = icWorld_GetRestPositions(world);
    double tip = 0;
    for (int v = 0; v < nv; ++v) {
        icVec3 p = icVec3_Load(rest, v), q = icVec3_Load(newton, v);
        if (p.x < -0.19) IC_CHECK(icVec3_Distance(p, q) == 0);
        if (p.x > 0.19) tip = fmin(tip, q.y - p.y);
    }
    IC_CHECK(tip < -1e-4);
    // XPBD's static solve of the same world from the same start, at two pseudo steps: its
    // fixed point carries an O(h^2) bias, so the differences must shrink 4x per halving and
    // the Richardson extrapolation must land on Newton's equilibrium.
    icStaticDef sdef = icDefaultStaticDef();
    sdef.maxSweeps = 200000;
    sdef.tolerance = 1e-11;
    icReal *xh = malloc(sizeof(icReal) * 3 * nv);
    double diffs[2];
    for (int k = 0; k < 2; ++k) {
        icWorld_LoadState(world, start);
        sdef.pseudoStep = k == 0 ? 1.0 / 1200 : 1.0 / 2400;
        IC_CHECK_RESULT(icWorld_SolveStatic(world, &sdef, &st), IC_OK);
        const icReal *xp = icWorld_GetPositions(world);
        diffs[k] = icTest_MaxAbsDiff(xp, newton, 3 * nv);
        if (k == 0)
            memcpy(xh, xp, sizeof(icReal) * 3 * nv);
        else
            for (int i = 0; i < 3 * nv; ++i) xh[i] = (4 * xp[i] - xh[i]) / 3;
    }
    double ratio = diffs[0] / diffs[1], extrapolated = icTest_MaxAbsDiff(xh, newton, 3 * nv);
    IC_CHECK_MSG(ratio > 3.5 && ratio < 4.5, "XPBD bias ratio %.3f (diffs %.3g, %.3g)", ratio,
                 diffs[0], diffs[1]);
    IC_CHECK_MSG(extrapolated <= 1e-4 * fabs(tip), "extrapolated XPBD vs Newton %.3g (tip %.3g)",
                 extrapolated, tip);
    free(xh);
    free(newton);
    icDestroyState(start);
    icNewtonCache_Destroy(cache);
    icDestroyWorld(world);
}

IC_TEST(fem, newton_world_errors) {
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.poissonRatio = 0.5;
    icBodyId id;
    icWorld *world = boxWorld(icVec3_Make(0, -9.81, 0), bdef, &id);
    IC_REQUIRE(world);
    icNewtonCache *cache = NULL;
    // lambda is infinite at nu = 0.5: no force-based solve
    IC_CHECK_RESULT(icNewton_Step(world, &cache, NULL, 0.01, NULL, NULL), IC_ERR_BAD_VALUE);
    IC_CHECK(cache == NULL);
    IC_CHECK_RESULT(icNewton_Step(world, &cache, NULL, 0, NULL, NULL), IC_ERR_INVALID_ARGUMENT);
    icDestroyWorld(world);
    icWorld *empty = icCreateWorld(NULL);
    IC_CHECK_RESULT(icNewton_Step(empty, &cache, NULL, 0.01, NULL, NULL), IC_ERR_EMPTY);
    icDestroyWorld(empty);
    icNewtonCache_Destroy(cache);
}

// A Newton world's pressure and stress norm come from the material (it has no multipliers;
// they were all zero): the linear model, P = mu (F + F^T - 2 I) + lambda tr(F - I) I, has the
// closed forms p = -(2 mu + 3 lambda)(s - 1) / s^2 and no deviatoric stress under F = s I, and
// p = -mu g^2 / 3 under the shear F = I + g e_x e_y^T.
IC_TEST(fem, newton_world_fields_come_from_the_material) {
    int64_t bytes = icGetByteCount();
    icWorldDef wdef = icDefaultWorldDef();
    wdef.solver = IC_SOLVER_NEWTON;
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.model = IC_MATERIAL_LINEAR;
    bdef.youngsModulus = 1e5;
    bdef.poissonRatio = 0.3;
    icWorld *world = icCreateWorld(&wdef);
    IC_REQUIRE(world);
    icTetMesh mesh;
    int cells[3] = {2, 2, 2};
    IC_REQUIRE(icGenerateBox(&mesh, icVec3_Make(0.2, 0.2, 0.2), cells, 6) == IC_OK);
    icBodyId id;
    icDiagnostic diag;
    IC_REQUIRE(icWorld_CreateSoftBody(world, &mesh, &bdef, &id, &diag) == IC_OK);
    icTetMesh_Destroy(&mesh);
    const double E = 1e5, nu = 0.3, mu = E / (2 * (1 + nu)), lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
    int n = icWorld_GetTetCount(world), nv = icWorld_GetVertexCount(world);
    icReal *p = malloc(sizeof(icReal) * n), *norm = malloc(sizeof(icReal) * n);
    IC_REQUIRE(p && norm);
    const icReal *X = icWorld_GetRestPositions(world);
    icReal *x = icWorld_GetPositionsMutable(world);
    const double s = 0.9, g = 0.2;
    for (int i = 0; i < 3 * nv; ++i) x[i] = s * X[i];
    icWorld_GetTetFields(world, NULL, p, norm);
    double expect = -(2 * mu + 3 * lambda) * (s - 1) / (s * s);
    for (int t = 0; t < n; ++t) {
        IC_CHECK_MSG(fabs(p[t] - expect) <= 1e-9 * fabs(expect), "tet %d: p %.12g, expected %.12g", t, p[t], expect);
        IC_CHECK_MSG(fabs(norm[t]) <= 1e-9 * fabs(expect), "tet %d: deviatoric %g under F = s I", t, norm[t]);
    }
    for (int v = 0; v < nv; ++v) {
        x[3 * v] = X[3 * v] + g * X[3 * v + 1];
        x[3 * v + 1] = X[3 * v + 1];
        x[3 * v + 2] = X[3 * v + 2];
    }
    icWorld_GetTetFields(world, NULL, p, norm);
    // P = mu g (e_x e_y^T + e_y e_x^T); less -p cof F with cof F = I - g e_y e_x^T:
    // P_D = P - (mu g^2 / 3)(I - g e_y e_x^T).
    double c = mu * g * g / 3;
    double deviatoric = sqrt(3 * c * c + (mu * g) * (mu * g) + (mu * g + c * g) * (mu * g + c * g));
    for (int t = 0; t < n; ++t) {
        IC_CHECK_MSG(fabs(p[t] + c) <= 1e-9 * c, "tet %d: p %.12g, expected %.12g", t, p[t], -c);
        IC_CHECK_MSG(fabs(norm[t] - deviatoric) <= 1e-9 * deviatoric, "tet %d: |P_D| %.12g, expected %.12g", t,
                     norm[t], deviatoric);
    }
    free(p);
    free(norm);
    icDestroyWorld(world);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
