// SPDX-License-Identifier: MIT
// Kinematic colliders: distances against closed forms, tracks, refusals, a body resting on
// each collider type and sliding or sticking on an incline on both sides of tan = mu, and a
// moving collider carrying a body by friction.
#include "collision_testing.h"

#include <string.h>

static const double s_slope = 20 * IC_PI / 180;

// Each collider type with its top surface at y = 0 around the origin (x free for sliding).
static icColliderId addSupport(icWorld *world, icColliderShape shape, double friction,
                               double thickness) {
    icColliderDef def = icDefaultColliderDef();
    def.shape = shape;
    def.friction = def.staticFriction = friction;
    def.thickness = thickness;
    icReal positions[24];
    int triangles[36];
    switch (shape) {
    case IC_COLLIDER_SPHERE:
        def.radius = 100; // nearly flat where the block slides
        def.centre = icVec3_Make(0, -100, 0);
        break;
    case IC_COLLIDER_BOX:
        def.centre = icVec3_Make(0, -0.5, 0);
        def.halfExtents = icVec3_Make(3, 0.5, 1);
        break;
    case IC_COLLIDER_CAPSULE:
        def.radius = 0.5;
        def.a = icVec3_Make(-3, -0.5, 0);
        def.b = icVec3_Make(3, -0.5, 0);
        break;
    case IC_COLLIDER_MESH:
        icCollisionTest_BoxMesh(icVec3_Make(-3, -1, -1), icVec3_Make(3, 0, 1), positions, triangles);
        def.vertexCount = 8;
        def.positions = positions;
        def.triangleCount = 12;
        def.triangles = triangles;
        break;
    }
    icColliderId id;
    icResult r = icWorld_AddCollider(world, &def, &id, NULL);
    IC_CHECK_RESULT(r, IC_OK);
    return id;
}

// A 5 cm block resting on the support, gravity tilted by the slope about z: moves along x.
// Returns how far it slid between 0.25 s and 0.75 s; *minGap/*maxGap get the smallest
// distance of any vertex to the collider and the largest of the lowest layer.
static double incline(icColliderShape shape, double friction, double thickness, double *minGap,
                      double *maxGap) {
    icWorldDef wdef = icDefaultWorldDef();
    wdef.gravity = icVec3_Make(9.81 * sin(s_slope), -9.81 * cos(s_slope), 0);
    icWorld *world = icCreateWorld(&wdef);
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.youngsModulus = 1e5;
    icBodyId body = icCollisionTest_AddBox(world, icVec3_Make(0.05, 0.05, 0.05), 2, 2, 2,
                                           icVec3_Make(0, 0.025 + 1.5 * thickness, 0), &bdef);
    icColliderId c = addSupport(world, shape, friction, thickness);
    for (int i = 0; i < 15; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    int n = icWorld_GetVertexCount(world);
    double x0 = icWorld_GetPositions(world)[0];
    for (int i = 0; i < 30; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    const icReal *x = icWorld_GetPositions(world);
    double moved = x[0] - x0;
    *minGap = INFINITY;
    *maxGap = -INFINITY;
    double t = icWorld_GetTime(world);
    for (int v = 0; v < n; ++v) {
        double d = icCollider_Distance(world, c, icVec3_Load(x, v), t, NULL, NULL);
        if (d < *minGap) *minGap = d;
        // The bottom layer: vertices within half a cell of the support.
        if (d < 0.0125 && d > *maxGap) *maxGap = d;
    }
    (void)body;
    icDestroyWorld(world);
    return moved;
}

IC_TEST(collision, incline_on_every_collider) {
    static const char *const names[] = {"sphere", "box", "capsule", "mesh"};
    double mu = tan(s_slope); // 0.364
    double thickness = 0.002;
    double worstMu = 0, worstStick = 0; // for the summary line
    for (int shape = 0; shape < 4; ++shape) {
        double gapLo, gapHi, gapLo2, gapHi2;
        double slide = incline((icColliderShape)shape, 0.8 * mu, thickness, &gapLo, &gapHi);
        double stick = incline((icColliderShape)shape, 1.2 * mu, thickness, &gapLo2, &gapHi2);
        // Sliding from rest at t = 0 with a = g (sin - mu cos): over [0.25, 0.75] s the block
        // covers a (0.75^2 - 0.25^2) / 2 = a / 4.
        // The friction coefficient the slide implies must match the one given.
        double a = 9.81 * (sin(s_slope) - 0.8 * mu * cos(s_slope));
        double muSeen = (9.81 * sin(s_slope) - 4 * slide) / (9.81 * cos(s_slope));
        printf("  %-8s mu 0.8 tan: slid %.4f m (closed form %.4f, mu seen %.4f of %.4f); "
               "mu 1.2 tan: %.2e m; gap %.5f .. %.5f m (thickness %.3f)\n",
               names[shape], slide, a / 4, muSeen, 0.8 * mu, stick, gapLo, gapHi, thickness);
        worstMu = fmax(worstMu, fabs(muSeen - 0.8 * mu) / (0.8 * mu));
        worstStick = fmax(worstStick, fabs(stick));
        IC_CHECK_MSG(fabs(muSeen - 0.8 * mu) < 0.05 * 0.8 * mu, "%s: slid %g, expected %g",
                     names[shape], slide, a / 4);
        IC_CHECK_MSG(fabs(stick) < 1e-3, "%s: sticking block moved %g m", names[shape], stick);
        // Resting at the surface: nothing inside the collider, the contact layer within the
        // thickness of where it should be.
        IC_CHECK_MSG(gapLo > 0 && gapLo2 > 0, "%s: a vertex is inside (%g, %g)", names[shape],
                     gapLo, gapLo2);
        IC_CHECK_MSG(fabs(gapLo2 - thickness) < thickness && fabs(gapHi2 - thickness) < thickness,
                     "%s: resting layer at %g .. %g, thickness %g", names[shape], gapLo2, gapHi2,
                     thickness);
    }
    printf("  every collider: mu seen within %.1f %% of the given one; at mu 1.2 tan moved at most "
           "%.1e m\n", 100 * worstMu, worstStick);
}

IC_TEST(collision, distances_match_closed_forms) {
    icWorld *world = icCreateWorld(NULL);
    icColliderDef def = icDefaultColliderDef();
    // A box turned 30 degrees about z, moved by a key to (1, 2, 3) at t = 1.
    def.shape = IC_COLLIDER_BOX;
    def.halfExtents = icVec3_Make(1, 0.5, 0.25);
    def.axis = icVec3_Make(0, 0, 1);
    def.degrees = 30;
    icRigidKey keys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
    keys[1].time = 1;
    keys[1].translation = icVec3_Make(1, 2, 3);
    def.track.keys = keys;
    def.track.keyCount = 2;
    icColliderId box;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &def, &box, NULL), IC_OK);
    icMat3 R = icMat3_Rotation(icVec3_Make(0, 0, 1), 30 * IC_PI / 180);
    for (int i = 0; i < 200; ++i) {
        icVec3 l = icVec3_Make(icTest_Uniform(-2, 2), icTest_Uniform(-2, 2), icTest_Uniform(-2, 2));
        // Box distance in its own frame: outside |max(|l| - h, 0)|, inside max(|l_i| - h_i).
        icReal h[3] = {1, 0.5, 0.25}, v[3] = {l.x, l.y, l.z}, out = 0, in = -INFINITY;
        for (int k = 0; k < 3; ++k) {
            icReal e = fabs(v[k]) - h[k];
            if (e > 0) out += e * e;
            if (e > in) in = e;
        }
        icReal expected = out > 0 ? sqrt(out) : in;
        icVec3 p = icVec3_Add(icMat3_MulVec(R, l), icVec3_Make(1, 2, 3));
        icVec3 q, n;
        icReal d = icCollider_Distance(world, box, p, 2.0, &q, &n); // after the last key
        IC_CHECK_NEAR(d, expected, 1e-12);
        // p = q + d n: the closest point and normal agree with the distance.
        IC_CHECK_NEAR(icVec3_Distance(p, icVec3_MulAdd(q, d, n)), 0, 1e-12);
        IC_CHECK_NEAR(icVec3_Length(n), 1, 1e-12);
    }
    // At t = 0.5 the box is halfway: its centre is at (0.5, 1, 1.5).
    IC_CHECK_NEAR(icCollider_Distance(world, box, icVec3_Make(0.5, 1, 1.5), 0.5, NULL, NULL), -0.25, 1e-12);

    // A mesh box agrees with the analytic box everywhere (pseudo-normals sign the inside).
    icReal positions[24];
    int triangles[36];
    icCollisionTest_BoxMesh(icVec3_Make(-1, -0.5, -0.25), icVec3_Make(1, 0.5, 0.25), positions, triangles);
    icColliderDef mdef = icDefaultColliderDef();
    mdef.shape = IC_COLLIDER_MESH;
    mdef.vertexCount = 8;
    mdef.positions = positions;
    mdef.triangleCount = 12;
    mdef.triangles = triangles;
    icColliderDef bdef = icDefaultColliderDef();
    bdef.shape = IC_COLLIDER_BOX;
    bdef.halfExtents = icVec3_Make(1, 0.5, 0.25);
    icColliderId mesh, plain;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &mdef, &mesh, NULL), IC_OK);
    IC_CHECK_RESULT(icWorld_AddCollider(world, &bdef, &plain, NULL), IC_OK);
    double worst = 0;
    for (int i = 0; i < 500; ++i) {
        icVec3 p = icVec3_Make(icTest_Uniform(-2, 2), icTest_Uniform(-2, 2), icTest_Uniform(-2, 2));
        double a = icCollider_Distance(world, mesh, p, 0, NULL, NULL);
        double b = icCollider_Distance(world, plain, p, 0, NULL, NULL);
        if (fabs(a - b) > worst) worst = fabs(a - b);
    }
    IC_CHECK_MSG(worst < 1e-12, "mesh and box distances differ by %g", worst);

    // Sphere and capsule.
    icColliderDef s = icDefaultColliderDef();
    s.centre = icVec3_Make(1, 0, 0);
    s.radius = 0.5;
    icColliderId sphere, capsule;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &s, &sphere, NULL), IC_OK);
    IC_CHECK_NEAR(icCollider_Distance(world, sphere, icVec3_Make(1, 2, 0), 0, NULL, NULL), 1.5, 1e-15);
    IC_CHECK_NEAR(icCollider_Distance(world, sphere, icVec3_Make(1.25, 0, 0), 0, NULL, NULL), -0.25, 1e-15);
    icColliderDef c = icDefaultColliderDef();
    c.shape = IC_COLLIDER_CAPSULE;
    c.a = icVec3_Make(0, 0, 0);
    c.b = icVec3_Make(0, 2, 0);
    c.radius = 0.25;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &c, &capsule, NULL), IC_OK);
    IC_CHECK_NEAR(icCollider_Distance(world, capsule, icVec3_Make(1, 1, 0), 0, NULL, NULL), 0.75, 1e-15);
    IC_CHECK_NEAR(icCollider_Distance(world, capsule, icVec3_Make(0, 3, 0), 0, NULL, NULL), 0.75, 1e-15);
    IC_CHECK_INT(icWorld_GetColliderCount(world), 5);
    icDestroyWorld(world);
}

IC_TEST(collision, tracks_interpolate_and_loop) {
    icRigidKey keys[3] = {icDefaultRigidKey(), icDefaultRigidKey(), icDefaultRigidKey()};
    keys[0].time = 0;
    keys[1].time = 1;
    keys[1].axis = icVec3_Make(0, 0, 2);
    keys[1].degrees = 360;
    keys[1].translation = icVec3_Make(1, 0, 0);
    keys[2].time = 2;
    keys[2].axis = icVec3_Make(0, 0, 1);
    keys[2].degrees = 720;
    icRigidTrack track = icDefaultRigidTrack();
    track.pivot = icVec3_Make(1, 0, 0);
    track.keys = keys;
    track.keyCount = 3;
    track.loop = true;
    icMat3 R;
    icVec3 T;
    // t = 0.25: a quarter turn about z through the pivot (1, 0, 0), translated by (0.25, 0, 0).
    icRigidTrack_Evaluate(&track, 0.25, &R, &T);
    icVec3 p = icVec3_Add(icMat3_MulVec(R, icVec3_Make(2, 0, 0)), T);
    IC_CHECK_NEAR(p.x, 1.25, 1e-12);
    IC_CHECK_NEAR(p.y, 1, 1e-12);
    // t = 1.5: 540 degrees (a half turn), translation back halfway: (0.5, 0, 0).
    icRigidTrack_Evaluate(&track, 1.5, &R, &T);
    p = icVec3_Add(icMat3_MulVec(R, icVec3_Make(2, 0, 0)), T);
    IC_CHECK_NEAR(p.x, 0.5, 1e-12);
    IC_CHECK_NEAR(p.y, 0, 1e-12);
    // Looping: t = 2.25 is t = 0.25 again, and before the start too (t = -1.75).
    icMat3 R2;
    icVec3 T2;
    icRigidTrack_Evaluate(&track, 0.25, &R, &T);
    icRigidTrack_Evaluate(&track, 2.25, &R2, &T2);
    IC_CHECK_NEAR(icVec3_Distance(T, T2), 0, 1e-12);
    icRigidTrack_Evaluate(&track, -1.75, &R2, &T2);
    IC_CHECK_NEAR(icVec3_Distance(T, T2), 0, 1e-12);
    // Without the loop the last key holds.
    track.loop = false;
    icRigidTrack_Evaluate(&track, 5, &R, &T);
    IC_CHECK_NEAR(icMat3_Trace(R), 3, 1e-12);
}

IC_TEST(collision, refuses_bad_colliders) {
    icWorld *world = icCreateWorld(NULL);
    icDiagnostic diag = {0};
    icColliderDef d = icDefaultColliderDef();
    d.radius = 0;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &d, NULL, &diag), IC_ERR_BAD_VALUE);
    d = icDefaultColliderDef();
    d.friction = -1;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &d, NULL, &diag), IC_ERR_BAD_VALUE);
    d = icDefaultColliderDef();
    d.centre.x = NAN;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &d, NULL, &diag), IC_ERR_NOT_FINITE);
    d = icDefaultColliderDef();
    d.shape = IC_COLLIDER_MESH;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &d, NULL, &diag), IC_ERR_EMPTY);
    icReal positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int triangles[3] = {0, 1, 3};
    d.vertexCount = 3;
    d.positions = positions;
    d.triangleCount = 1;
    d.triangles = triangles;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &d, NULL, &diag), IC_ERR_INDEX_OUT_OF_RANGE);
    IC_CHECK(strstr(diag.message, "vertex 3") != NULL);
    // Keys out of order.
    icRigidKey keys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
    keys[0].time = 1;
    d = icDefaultColliderDef();
    d.track.keys = keys;
    d.track.keyCount = 2;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &d, NULL, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK_INT(icWorld_GetColliderCount(world), 0);
    icDestroyWorld(world);
    // The Newton solvers take colliders (a contact potential) but no bones, body or self
    // contact.
    icWorldDef wdef = icDefaultWorldDef();
    wdef.solver = IC_SOLVER_NEWTON;
    world = icCreateWorld(&wdef);
    d = icDefaultColliderDef();
    IC_CHECK_RESULT(icWorld_AddCollider(world, &d, NULL, &diag), IC_OK);
    icBoneDef bone = icDefaultBoneDef();
    IC_CHECK_RESULT(icWorld_AddBone(world, &bone, NULL), IC_ERR_UNSUPPORTED);
    icContactDef contact = icDefaultContactDef();
    contact.selfContact = true;
    IC_CHECK_RESULT(icWorld_SetContactDef(world, &contact), IC_ERR_UNSUPPORTED);
    icDestroyWorld(world);
}

// A conveyor: a box collider moving at 0.5 m/s along x carries a block resting on it by
// friction; the block ends up moving with it.
IC_TEST(collision, moving_collider_carries_body) {
    icWorld *world = icCreateWorld(NULL);
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.youngsModulus = 1e5;
    icCollisionTest_AddBox(world, icVec3_Make(0.05, 0.05, 0.05), 2, 2, 2, icVec3_Make(0, 0.027, 0), &bdef);
    icColliderDef def = icDefaultColliderDef();
    def.shape = IC_COLLIDER_BOX;
    def.centre = icVec3_Make(0, -0.5, 0);
    def.halfExtents = icVec3_Make(3, 0.5, 1);
    def.friction = def.staticFriction = 0.8;
    icRigidKey keys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
    keys[1].time = 10;
    keys[1].translation = icVec3_Make(5, 0, 0);
    def.track.keys = keys;
    def.track.keyCount = 2;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &def, NULL, NULL), IC_OK);
    for (int i = 0; i < 30; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    double x0 = icWorld_GetPositions(world)[0];
    for (int i = 0; i < 30; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    double speed = (icWorld_GetPositions(world)[0] - x0) / 0.5;
    icContactStats stats;
    icWorld_GetContactStats(world, &stats);
    printf("  block on a box moving at 0.5 m/s: %.4f m/s; %d of %d candidates touching\n", speed,
           stats.colliderContacts, stats.colliderCandidates);
    IC_CHECK_NEAR(speed, 0.5, 0.01);
    IC_CHECK(stats.colliderContacts >= 4 && stats.colliderContacts <= stats.colliderCandidates);
    icDestroyWorld(world);
}
