// SPDX-License-Identifier: MIT
// The world API: ids, refusals, states sharing a model, pins, the ground plane and friction.
#include "test.h"

#include <stdlib.h>
#include <string.h>

static icWorld *worldWithBox(icWorldDef wdef, icSoftBodyDef bdef, icBodyId *body) {
    icTetMesh mesh = {0};
    int cells[3] = {4, 2, 2};
    icGenerateBox(&mesh, icVec3_Make(0.4, 0.2, 0.2), cells, 6);
    icWorld *world = icCreateWorld(&wdef);
    icResult r = icWorld_CreateSoftBody(world, &mesh, &bdef, body, NULL);
    icTetMesh_Destroy(&mesh);
    if (r != IC_OK) {
        icDestroyWorld(world);
        return NULL;
    }
    return world;
}

IC_TEST(world, ids_are_checked) {
    icBodyId body;
    icWorld *a = worldWithBox(icDefaultWorldDef(), icDefaultSoftBodyDef(), &body);
    icWorld *b = worldWithBox(icDefaultWorldDef(), icDefaultSoftBodyDef(), &body);
    IC_REQUIRE(a && b);
    icBodyId null = {0};
    IC_CHECK(!icBody_IsValid(a, null));
    IC_CHECK(icBody_IsValid(b, body));
    IC_CHECK(!icBody_IsValid(a, body)); // an id of another world
    icBodyId stale = body;
    stale.generation++;
    IC_CHECK(!icBody_IsValid(b, stale));
    icPinDef pin = icDefaultPinDef();
    IC_CHECK_RESULT(icBody_AddPin(a, body, &pin, NULL), IC_ERR_INVALID_ARGUMENT);
    icDestroyWorld(a);
    icDestroyWorld(b);
}

IC_TEST(world, refuses_bad_definitions) {
    icWorldDef wdef = icDefaultWorldDef();
    wdef.substeps = 0;
    IC_CHECK(icCreateWorld(&wdef) == NULL);
    wdef = icDefaultWorldDef();
    wdef.gravity.y = NAN;
    IC_CHECK(icCreateWorld(&wdef) == NULL);

    icTetMesh mesh = {0};
    int cells[3] = {2, 2, 2};
    icGenerateBox(&mesh, icVec3_Make(1, 1, 1), cells, 6);
    icWorld *world = icCreateWorld(NULL);
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    icDiagnostic diag;
    bdef.poissonRatio = 0.7;
    IC_CHECK_RESULT(icWorld_CreateSoftBody(world, &mesh, &bdef, NULL, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK(strstr(diag.message, "0.7 is outside [0, 0.5]") != NULL);
    bdef = icDefaultSoftBodyDef();
    bdef.poissonRatio = 0; // lambda = 0: the MM rest shift 1 + mu/lambda is infinite
    IC_CHECK_RESULT(icWorld_CreateSoftBody(world, &mesh, &bdef, NULL, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK(strstr(diag.message, "lambda = 0") != NULL);
    bdef = icDefaultSoftBodyDef();
    bdef.density = 0;
    IC_CHECK_RESULT(icWorld_CreateSoftBody(world, &mesh, &bdef, NULL, &diag), IC_ERR_BAD_VALUE);
    // XPBD minimises the MM energy only: another model would silently be a different material.
    bdef = icDefaultSoftBodyDef();
    bdef.model = IC_MATERIAL_STVK;
    IC_CHECK_RESULT(icWorld_CreateSoftBody(world, &mesh, &bdef, NULL, &diag), IC_ERR_UNSUPPORTED);
    IC_CHECK(strstr(diag.message, "mm") != NULL);
    IC_CHECK_INT(icWorld_GetTetCount(world), 0);
    // A bad mesh is refused with the checker's code and names the element.
    mesh.tets[5] = mesh.tets[4];
    IC_CHECK_RESULT(icWorld_CreateSoftBody(world, &mesh, NULL, NULL, &diag), IC_ERR_REPEATED_INDEX);
    IC_CHECK_INT(diag.element, 1);
    icDestroyWorld(world);

    // The force-based solver takes any model but not an infinite lambda.
    wdef = icDefaultWorldDef();
    wdef.solver = IC_SOLVER_NEWTON;
    world = icCreateWorld(&wdef);
    bdef = icDefaultSoftBodyDef();
    icTetMesh_Destroy(&mesh);
    icGenerateBox(&mesh, icVec3_Make(1, 1, 1), cells, 6);
    bdef.model = IC_MATERIAL_STVK;
    IC_CHECK_RESULT(icWorld_CreateSoftBody(world, &mesh, &bdef, NULL, &diag), IC_OK);
    bdef.poissonRatio = 0.5;
    IC_CHECK_RESULT(icWorld_CreateSoftBody(world, &mesh, &bdef, NULL, &diag), IC_ERR_BAD_VALUE);
    icDestroyWorld(world);
    icTetMesh_Destroy(&mesh);
}

// Several states share one model: restoring a snapshot and stepping again gives the same bits.
IC_TEST(world, states_share_the_model) {
    icBodyId body;
    icWorld *world = worldWithBox(icDefaultWorldDef(), icDefaultSoftBodyDef(), &body);
    IC_REQUIRE(world);
    int n = 3 * icWorld_GetVertexCount(world);
    for (int i = 0; i < 5; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    icState *snapshot = icWorld_CreateState(world);
    IC_REQUIRE(snapshot);
    for (int i = 0; i < 10; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    icReal *first = malloc(sizeof(icReal) * (size_t)n);
    memcpy(first, icWorld_GetPositions(world), sizeof(icReal) * (size_t)n);
    icReal t1 = icWorld_GetTime(world);

    icWorld_LoadState(world, snapshot);
    IC_CHECK_NEAR(icWorld_GetTime(world), 5.0 / 60.0, 1e-15);
    for (int i = 0; i < 10; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    IC_CHECK(memcmp(first, icWorld_GetPositions(world), sizeof(icReal) * (size_t)n) == 0);
    IC_CHECK(icWorld_GetTime(world) == t1);
    // The body fell: the snapshot was not the same state as the end.
    icWorld_SaveState(world, snapshot);
    IC_CHECK(icWorld_GetPositions(world)[1] < icWorld_GetRestPositions(world)[1] - 1e-3);
    free(first);
    icDestroyState(snapshot);
    icDestroyWorld(world);
}

// Pins: held axes follow their motion exactly; free axes move.
IC_TEST(world, pins_follow_their_motion) {
    icWorldDef wdef = icDefaultWorldDef();
    icBodyId body;
    icWorld *world = worldWithBox(wdef, icDefaultSoftBodyDef(), &body);
    IC_REQUIRE(world);
    icPinDef pin = icDefaultPinDef();
    pin.boxMin = icVec3_Make(-1, -1, -1);
    pin.boxMax = icVec3_Make(-0.199, 1, 1);
    pin.motionCount = 2;
    pin.motions[0].velocity = icVec3_Make(0, 0.3, 0);
    pin.motions[0].end = 0.5;
    pin.motions[1].axis = icVec3_Make(1, 0, 0);
    pin.motions[1].centre = icVec3_Make(0, 0.15, 0);
    pin.motions[1].degreesPerSecond = 180;
    pin.motions[1].start = 0.5;
    pin.motions[1].end = 1.0;
    int count;
    IC_CHECK_RESULT(icBody_AddPin(world, body, &pin, &count), IC_OK);
    IC_CHECK_INT(count, 9);
    for (int i = 0; i < 60; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    // After 1 s: moved up 0.15, then turned 90 degrees about x through (0, 0.15, 0).
    const icReal *x = icWorld_GetPositions(world), *X = icWorld_GetRestPositions(world);
    double worst = 0;
    for (int v = 0; v < icWorld_GetVertexCount(world); ++v) {
        if (X[3 * v] > -0.199) continue;
        icVec3 p = icVec3_Make(X[3 * v], X[3 * v + 1] + 0.15, X[3 * v + 2]);
        icVec3 d = icVec3_Sub(p, icVec3_Make(0, 0.15, 0));
        icVec3 expected = icVec3_Add(icVec3_Make(0, 0.15, 0), icVec3_Make(d.x, -d.z, d.y));
        worst = fmax(worst, icVec3_Distance(expected, icVec3_Load(x, v)));
    }
    IC_CHECK_MSG(worst < 1e-12, "pinned vertices off their motion by %g", worst);
    icDestroyWorld(world);
}

// The ground plane: a dropped body rests on it; on a slope it slides without friction and
// sticks with enough friction (static when mu > tan(slope)).
static double slideOnSlope(double friction, double *penetration) {
    icWorldDef wdef = icDefaultWorldDef();
    double slope = 20 * IC_PI / 180;
    wdef.gravity = icVec3_Make(9.81 * sin(slope), -9.81 * cos(slope), 0); // slope as tilted g
    wdef.linearDamping = 0;
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.youngsModulus = 1e6;
    bdef.translation = icVec3_Make(0, 0.1005, 0);
    icBodyId body;
    icWorld *world = worldWithBox(wdef, bdef, &body);
    icPlaneDef plane = icDefaultPlaneDef();
    plane.friction = friction;
    icWorld_AddPlane(world, &plane);
    for (int i = 0; i < 30; ++i) icWorld_Step(world, 1.0 / 60.0, NULL); // settle
    double x0 = icWorld_GetPositions(world)[0];
    for (int i = 0; i < 60; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    double moved = icWorld_GetPositions(world)[0] - x0;
    double lowest = INFINITY;
    for (int v = 0; v < icWorld_GetVertexCount(world); ++v)
        lowest = fmin(lowest, icWorld_GetPositions(world)[3 * v + 1]);
    *penetration = -lowest;
    icDestroyWorld(world);
    return moved;
}

IC_TEST(world, plane_contact_and_friction) {
    double pen0, pen1, pen2;
    double slideFree = slideOnSlope(0.0, &pen0);
    double slideLow = slideOnSlope(0.25, &pen1);  // below tan 20 deg = 0.364: slides slower
    double slideHigh = slideOnSlope(0.6, &pen2);  // above: sticks
    printf("  1 s on a 20 deg slope: slides %.4f m (mu 0), %.4f m (mu 0.25), %.2e m (mu 0.6)\n",
           slideFree, slideLow, slideHigh);
    // Sliding from rest at t = 0 with a = g (sin 20 - mu cos 20): over t in [0.5, 1.5] s the
    // distance is a (0.5 + 0.5) = a, i.e. 3.355 m without friction and 1.051 m at mu = 0.25.
    double s = sin(20 * IC_PI / 180), c = cos(20 * IC_PI / 180);
    IC_CHECK_NEAR(slideFree, 9.81 * s, 0.02 * 9.81 * s);
    IC_CHECK_NEAR(slideLow, 9.81 * (s - 0.25 * c), 0.05 * 9.81 * (s - 0.25 * c));
    IC_CHECK_MSG(fabs(slideHigh) < 1e-3, "sticking body moved %g m", slideHigh);
    IC_CHECK_MSG(pen0 < 1e-9 && pen1 < 1e-9 && pen2 < 1e-9, "penetration %g %g %g", pen0, pen1, pen2);
}

// A world with no bodies steps and relaxes without touching anything (no crash).
IC_TEST(world, empty_world_steps) {
    icWorld *world = icCreateWorld(NULL);
    icStepStats stats;
    IC_CHECK_RESULT(icWorld_Step(world, 0.01, &stats), IC_OK);
    IC_CHECK_NEAR(icWorld_GetTime(world), 0.01, 1e-15);
    IC_CHECK_RESULT(icWorld_SolveStatic(world, NULL, &stats), IC_OK);
    IC_CHECK_NEAR(icWorld_GetVolumeRatio(world), 1.0, 0);
    icDestroyWorld(world);
}
