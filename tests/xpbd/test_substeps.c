// SPDX-License-Identifier: MIT
// Adaptive substeps (src/xpbd/adaptive_substeps.c): more substeps only while tets deform fast
// or a plane contact is about to stop them, never for rigid motion; and what they buy at the
// default settings, a box landing on the ground.
#include "test.h"

#include <math.h>

// A free box of cells^3 x 6 tets, 1 m, bottom at `height` above a ground plane (or no plane),
// moving at `velocity` and spinning at `spin` rad/s about y.
static icWorld *boxWorld(int cells, double height, bool plane, icVec3 velocity, double spin,
                         icWorldDef def) {
    icTetMesh mesh = {0};
    int c[3] = {cells, cells, cells};
    if (icGenerateBox(&mesh, icVec3_Make(1, 1, 1), c, 6) != IC_OK) return NULL;
    icWorld *world = icCreateWorld(&def);
    icSoftBodyDef body = icDefaultSoftBodyDef();
    body.translation = icVec3_Make(0, 0.5 + height, 0);
    icBodyId id;
    icResult r = icWorld_CreateSoftBody(world, &mesh, &body, &id, NULL);
    icTetMesh_Destroy(&mesh);
    if (r != IC_OK) {
        icDestroyWorld(world);
        return NULL;
    }
    if (plane) {
        icPlaneDef pd = icDefaultPlaneDef();
        icWorld_AddPlane(world, &pd);
    }
    // Rigid motion: v = velocity + spin e_y x (x - centre).
    icReal *v = icWorld_GetVelocitiesMutable(world);
    const icReal *x = icWorld_GetPositions(world);
    for (int i = 0; i < icWorld_GetVertexCount(world); ++i) {
        icVec3 r0 = icVec3_Sub(icVec3_Load(x, i), icVec3_Make(0, 0.5 + height, 0));
        icVec3_Store(v, i, icVec3_Add(velocity, icVec3_Cross(icVec3_Make(0, spin, 0), r0)));
    }
    return world;
}

IC_TEST(xpbd, adaptive_substeps_follow_deformation_not_motion) {
    icWorldDef def = icDefaultWorldDef();
    IC_CHECK(def.maxSubstepStrain > 0 && def.maxSubsteps > def.substeps);
    // Falling and spinning (3 rad/s: little centrifugal stretch), far from anything: rigid
    // motion, the base count.
    def.gravity = icVec3_Make(0, -9.81, 0);
    icWorld *w = boxWorld(20, 5, true, icVec3_Make(3, -2, 1), 3, def);
    IC_REQUIRE(w);
    icStepStats st;
    for (int f = 0; f < 5; ++f) {
        IC_REQUIRE(icWorld_Step(w, 1.0 / 60, &st) == IC_OK);
        IC_CHECK_INT(st.substeps, def.substeps);
    }
    icDestroyWorld(w);
    // About to land at 4 m/s: the contact the step will make raises the count before impact
    // (4 m/s over 5.6 cm tets, 18 tets across: |D| N dt / 0.2 ~ 107).
    w = boxWorld(20, 0.05, true, icVec3_Make(0, -4, 0), 0, def);
    IC_REQUIRE(w);
    IC_REQUIRE(icWorld_Step(w, 1.0 / 60, &st) == IC_OK);
    printf("  landing at 4 m/s: %d substeps (base %d, at most %d)\n", st.substeps, def.substeps,
           def.maxSubsteps);
    IC_CHECK(st.substeps > 2 * def.substeps && st.substeps <= def.maxSubsteps);
    icDestroyWorld(w);
    // The same landing with adaptive substeps off keeps the base count.
    def.maxSubstepStrain = 0;
    w = boxWorld(20, 0.05, true, icVec3_Make(0, -4, 0), 0, def);
    IC_REQUIRE(w);
    IC_REQUIRE(icWorld_Step(w, 1.0 / 60, &st) == IC_OK);
    IC_CHECK_INT(st.substeps, def.substeps);
    icDestroyWorld(w);
    // A body that deforms (squeezed along x at 30/s) with nothing to touch: more substeps
    // (|D| N dt / 0.2 = 30 x 18 / 60 / 0.2 ~ 45).
    def = icDefaultWorldDef();
    def.gravity = icVec3_Make(0, 0, 0);
    w = boxWorld(20, 0, false, icVec3_Make(0, 0, 0), 0, def);
    IC_REQUIRE(w);
    icReal *v = icWorld_GetVelocitiesMutable(w);
    const icReal *x = icWorld_GetPositions(w);
    for (int i = 0; i < icWorld_GetVertexCount(w); ++i) v[3 * i] = -30 * x[3 * i];
    IC_REQUIRE(icWorld_Step(w, 1.0 / 60, &st) == IC_OK);
    printf("  squeezed at 30/s: %d substeps\n", st.substeps);
    IC_CHECK(st.substeps > 2 * def.substeps);
    icDestroyWorld(w);
}

// Smallest J over the tets and frames of a 303,918-tet box dropped from 0.2 m onto the ground
// (default material and settings), 30 frames: the impact is at frame 13, the deepest squash at
// frame 18.
static double dropMinJ(icWorldDef def, int *substepsTotal) {
    icWorld *w = boxWorld(37, 0.2, true, icVec3_Make(0, 0, 0), 0, def);
    if (!w) return -INFINITY;
    double minJ = INFINITY;
    *substepsTotal = 0;
    for (int f = 0; f < 30; ++f) {
        icStepStats st;
        if (icWorld_Step(w, 1.0 / 60, &st) != IC_OK) {
            minJ = -INFINITY;
            break;
        }
        *substepsTotal += st.substeps;
        double frameMin;
        icTest_WorstJ(w, &frameMin);
        minJ = fmin(minJ, frameMin);
    }
    icDestroyWorld(w);
    return minJ;
}

IC_TEST(xpbd, landing_box_keeps_its_corners_by_default) {
    // Converged (320 fixed substeps, measured with this test's scene): min J = 0.449. The
    // default must stay within 20 % of it; 20 fixed substeps crush two corner tets to J = 0.
    const double converged = 0.449;
    icWorldDef def = icDefaultWorldDef();
    int total;
    double adaptive = dropMinJ(def, &total);
    printf("  default (adaptive from %d): min J %.3f, %d substeps in 30 frames\n", def.substeps,
           adaptive, total);
    IC_CHECK_MSG(adaptive >= 0.8 * converged, "min J %g, converged %g", adaptive, converged);
    def.maxSubstepStrain = 0;
    double fixed = dropMinJ(def, &total);
    printf("  fixed %d substeps: min J %.3f\n", def.substeps, fixed);
    IC_CHECK_MSG(fixed < 0.5 * converged,
                 "fixed substeps kept min J %g: this test no longer tells them apart", fixed);
}
