// SPDX-License-Identifier: MIT
// Issue 3's cross-check: Newton quasistatics and XPBD's static solve minimise the same MM
// energy, so on one clamped stretch they reach the same equilibrium volume ratio.
#include "fem/fem_test.h"

// A cube [-0.5, 0.5]^3 of 4^3 cells x 6 tets, material mm with nu 0.45, its y-faces clamped
// and pulled apart at 0.25 m/s (solveStretch makes two static load steps of 1 s).
static icWorld *clampedCube(icSolverType solver) {
    icWorldDef wdef = icDefaultWorldDef();
    wdef.solver = solver;
    wdef.gravity = icVec3_Make(0, 0, 0);
    icWorld *world = icCreateWorld(&wdef);
    if (!world) return NULL;
    icTetMesh mesh;
    int cells[3] = {4, 4, 4};
    if (icGenerateBox(&mesh, icVec3_Make(1, 1, 1), cells, 6) != IC_OK) return world;
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.youngsModulus = 1e5;
    bdef.poissonRatio = 0.45;
    icBodyId id;
    icDiagnostic diag;
    icResult r = icWorld_CreateSoftBody(world, &mesh, &bdef, &id, &diag);
    icTetMesh_Destroy(&mesh);
    if (r != IC_OK) {
        icTest_Fail(__FILE__, __LINE__, "body: %s", diag.message);
        return world;
    }
    for (int side = -1; side <= 1; side += 2) {
        icPinDef pin = icDefaultPinDef();
        pin.boxMin = icVec3_Make(-1, side < 0 ? -1 : 0.499, -1);
        pin.boxMax = icVec3_Make(1, side < 0 ? -0.499 : 1, 1);
        pin.motionCount = 1;
        pin.motions[0] = icDefaultMotion();
        pin.motions[0].velocity = icVec3_Make(0, 0.125 * side, 0); // 0.25 m apart per second
        int pinned = 0;
        if (icBody_AddPin(world, id, &pin, &pinned) != IC_OK || pinned != 25)
            icTest_Fail(__FILE__, __LINE__, "pin caught %d vertices", pinned);
    }
    return world;
}

// Two load steps of 1 s; returns V/V0 at the end (NAN on failure).
static double solveStretch(icWorld *world, const icStaticDef *sdef) {
    for (int step = 0; step < 2; ++step) {
        icWorld_AdvanceTime(world, 1.0);
        icStepStats stats;
        icResult r = icWorld_SolveStatic(world, sdef, &stats);
        IC_CHECK_MSG(r == IC_OK, "load step %d: %s (%d sweeps / iterations)", step,
                     icResult_Name(r), stats.sweeps);
        if (r != IC_OK) return NAN;
    }
    return icWorld_GetVolumeRatio(world);
}

// XPBD's static solve stops at the rest state of its dynamics with pseudo step h, which is
// off the exact equilibrium by O(h^2) (world.h, icStaticDef). Measured here: the volume
// ratios differ by 1.3e-3 at h = 1/300 s, 3.2e-4 at 1/600 s, 8e-5 at 1/1200 s (the default,
// used for the 1e-3 check) and 2e-5 at 1/2400 s. Halving h must cut the gap about 4x, which
// shows that the gap is that bias and not a difference between the two energies.
IC_TEST(fem, newton_quasistatic_matches_xpbd_volume) {
    int64_t bytes = icGetByteCount();
    icWorld *newton = clampedCube(IC_SOLVER_NEWTON);
    IC_REQUIRE(newton && icWorld_GetVertexCount(newton) == 125);
    icNewtonDef ndef = icDefaultNewtonDef();
    ndef.residualTolerance = 1e-10;
    ndef.cgTolerance = 1e-10;
    icWorld_SetNewtonDef(newton, &ndef);
    icStaticDef sdef = icDefaultStaticDef();
    double vNewton = solveStretch(newton, &sdef);
    IC_CHECK(icWorld_GetNewtonStats(newton).converged);
    // A real volume change, well above the tolerance of the comparison.
    IC_CHECK_MSG(vNewton > 1.02 && vNewton < 1.2, "Newton V/V0 = %.6f", vNewton);

    static const double steps[2] = {1.0 / 600, 1.0 / 1200};
    double gaps[2];
    for (int k = 0; k < 2; ++k) {
        icWorld *xpbd = clampedCube(IC_SOLVER_XPBD);
        IC_REQUIRE(xpbd);
        sdef.pseudoStep = steps[k];
        sdef.maxSweeps = 400000;
        sdef.tolerance = 1e-10;
        double vXpbd = solveStretch(xpbd, &sdef);
        gaps[k] = fabs(vXpbd - vNewton);
        icDestroyWorld(xpbd);
    }
    IC_CHECK_MSG(gaps[1] <= 1e-3, "|V/V0 XPBD - Newton| = %.3g at h = 1/1200 (Newton %.6f)",
                 gaps[1], vNewton);
    double ratio = gaps[0] / gaps[1];
    IC_CHECK_MSG(ratio > 3 && ratio < 5, "gap ratio %.3f for h halved (gaps %.3g, %.3g)", ratio,
                 gaps[0], gaps[1]);
    icDestroyWorld(newton);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
