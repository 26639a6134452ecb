// SPDX-License-Identifier: MIT
// The acceptance scenes of Irving et al. 2007 with contact, scaled down: sphere drop on the
// ground (Fig. 2), sphere squeezed between closing plates (Fig. 6), a sphere down steps
// (Fig. 3), tori piling up with self and mutual contact (Fig. 5), and Coulomb friction.
#include "../collision/collision_testing.h"
#include "incomp_testing.h"

static icWorld *incompWorld(icVec3 gravity) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver = IC_SOLVER_INCOMPRESSIBLE;
    wd.gravity = gravity;
    wd.health.policy = IC_HEALTH_OFF;
    return icCreateWorld(&wd);
}

// mu = 2e4 Pa (E = 6e4 at nu = 0.5), rho = 1000: a 0.1 m sphere squashes visibly on impact.
static icBodyId addBody(icWorld *w, icTetMesh *mesh, icVec3 translation, icVec3 velocity) {
    icSoftBodyDef bd = icDefaultSoftBodyDef();
    bd.model = IC_MATERIAL_COROTATED;
    bd.poissonRatio = 0.5;
    bd.youngsModulus = 6e4;
    bd.translation = translation;
    bd.velocity = velocity;
    icBodyId id = {0};
    IC_CHECK_RESULT(icWorld_CreateSoftBody(w, mesh, &bd, &id, NULL), IC_OK);
    icTetMesh_Destroy(mesh);
    return id;
}

// The 0.1 m sphere (8 cells across) at `at` moving at `velocity` over the ground (kinetic
// friction 0.5), under gravity, with the solver settings d; the body in *id when id is not NULL.
// NULL if it could not be built.
static icWorld *sphereOverGround(icVec3 at, icVec3 velocity, const icIncompressibleDef *d,
                                 icBodyId *id) {
    icWorld *w = incompWorld(icVec3_Make(0, -9.81, 0));
    icTetMesh mesh = {0};
    if (!w || icGenerateSphere(&mesh, 0.1, 8, 6) != IC_OK) {
        IC_CHECK_MSG(false, "no world or no sphere mesh");
        if (w) icDestroyWorld(w);
        return NULL;
    }
    icBodyId body = addBody(w, &mesh, at, velocity);
    if (id) *id = body;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(w, d), IC_OK);
    icPlaneDef pd = icDefaultPlaneDef();
    IC_CHECK_RESULT(icWorld_AddPlane(w, &pd), IC_OK);
    return w;
}

// S1: dropped from 0.35 m (2.6 m/s at impact) at dt = 1/240 s; impact near 0.27 s.
// Measured: max |V/V0 - 1| 0.006 %, flattening 30.5 %, no inverted tet, 119 substeps for the 108
// steps (the adaptive substeps around the impact; 162 before they followed the motion relative to
// the body). The target is 1 %.
IC_TEST(incomp, sphere_drop_within_one_percent) {
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 1.0 / 120;
    icWorld *w = sphereOverGround(icVec3_Make(0, 0.45, 0), icVec3_Make(0, 0, 0), &d, NULL);
    IC_REQUIRE(w);
    icReal worst = 0, lowest = 1, h0 = incompHeight(w);
    int substeps = 0;
    for (int s = 0; s < 108; ++s) {
        icStepStats st;
        IC_REQUIRE(icWorld_Step(w, 1.0 / 240, &st) == IC_OK);
        IC_CHECK_INT(st.invertedTets, 0);
        worst = fmax(worst, fabs(icWorld_GetVolumeRatio(w) - 1));
        lowest = fmin(lowest, incompHeight(w) / h0);
        substeps += st.substeps;
    }
    printf("  sphere drop: max |dV/V| %.4f %%, flattening %.1f %%, %d substeps for 108 steps\n",
           100 * worst, 100 * (1 - lowest), substeps);
    IC_CHECK_MSG(worst < 0.01, "volume error %g", worst);
    IC_CHECK_MSG(lowest < 0.85, "the sphere barely deformed (height ratio %g)", lowest);
    IC_CHECK(substeps > 108); // the impact needed the adaptive substeps
    icDestroyWorld(w);
}

// A sphere moving down at `speed` from `height` (its centre), `steps` (at most 50) steps of dt:
// per step, the substeps and the lowest vertex at its start; how far the centroid is from the
// free-fall closed form (the semi-implicit Newmark steps integrate a constant acceleration
// exactly) after min(30, steps) steps. With `pinned`, its top vertices are held where they are
// (only the substeps are meaningful).
typedef struct fallFigures {
    int substeps[50];
    icReal lowest[50];
    icReal centroidError;
} fallFigures;

typedef struct fallRun {
    bool selfContact, pinned;
    icReal height, speed, dt;
    int steps;
} fallRun;

static void fallingSphere(fallRun run, fallFigures *out) {
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 1.0 / 120;
    d.selfContact = run.selfContact;
    icBodyId id;
    icWorld *w =
        sphereOverGround(icVec3_Make(0, run.height, 0), icVec3_Make(0, -run.speed, 0), &d, &id);
    IC_REQUIRE(w);
    if (run.pinned) {
        icPinDef pin = icDefaultPinDef();
        pin.boxMin = icVec3_Make(-1, run.height + 0.09, -1);
        pin.boxMax = icVec3_Make(1, run.height + 1, 1);
        int count = 0;
        IC_CHECK_RESULT(icBody_AddPin(w, id, &pin, &count), IC_OK);
        IC_CHECK(count > 0);
    }
    int n = icWorld_GetVertexCount(w);
    const icReal *x = icWorld_GetPositions(w);
    icReal y0 = 0;
    for (int k = 0; k < n; ++k) y0 += x[3 * k + 1] / n;
    int check = run.steps < 30 ? run.steps : 30;
    for (int s = 0; s < run.steps; ++s) {
        out->lowest[s] = INFINITY;
        for (int k = 0; k < n; ++k) out->lowest[s] = fmin(out->lowest[s], x[3 * k + 1]);
        icStepStats st;
        IC_REQUIRE(icWorld_Step(w, run.dt, &st) == IC_OK);
        if (!run.pinned) IC_CHECK_INT(st.invertedTets, 0); // held, it tears at the pins
        out->substeps[s] = st.substeps;
        if (s + 1 == check) {
            icReal t = check * run.dt, y = 0;
            for (int k = 0; k < n; ++k) y += x[3 * k + 1] / n;
            out->centroidError = fabs(y - (y0 - run.speed * t - 0.5 * 9.81 * t * t));
        }
    }
    icDestroyWorld(w);
}

// Adaptive substeps follow the motion relative to the body: a thrown sphere far from the ground
// takes one substep a step (5 m/s is two thirds of an edge per step, where the limit is a quarter),
// and more once the ground is within reach. With self contact every vertex counts with its full
// speed (bodies may approach each other). A body that deforms counts: held by its top vertices,
// the sphere stretches at up to 4 m/s against them. Measured: one substep a step for the 40 steps
// more than 0.1 m above the ground (120 substeps with self contact), more from 26 mm above it;
// pinned, 3 in its first steps.
IC_TEST(incomp, substeps_follow_motion_relative_to_the_body) {
    fallFigures alone, contact, pinned;
    fallingSphere((fallRun){false, false, 1, 4, 1.0 / 240, 50}, &alone);
    fallingSphere((fallRun){true, false, 1, 4, 1.0 / 240, 50}, &contact);
    fallingSphere((fallRun){false, true, 1, 4, 1.0 / 240, 50}, &pinned);
    printf("  pinned: substeps of steps 1-5: %d %d %d %d %d\n", pinned.substeps[0],
           pinned.substeps[1], pinned.substeps[2], pinned.substeps[3], pinned.substeps[4]);
    for (int s = 1; s < 5; ++s) // step 0 starts with the pinned vertices at the body's velocity
        IC_CHECK_MSG(pinned.substeps[s] >= 2, "pinned, step %d: %d substeps", s,
                     pinned.substeps[s]);
    int far = 0, near = 0, farContact = 0;
    icReal firstNear = 0;
    for (int s = 0; s < 50; ++s) {
        if (alone.lowest[s] > 0.1) {
            ++far;
            IC_CHECK_MSG(alone.substeps[s] == 1, "step %d, %g m up: %d substeps", s,
                         alone.lowest[s], alone.substeps[s]);
            IC_CHECK_MSG(contact.substeps[s] >= 3, "self contact, step %d: %d substeps", s,
                         contact.substeps[s]);
            farContact += contact.substeps[s];
        } else if (alone.substeps[s] > 1) {
            if (near++ == 0) firstNear = alone.lowest[s];
        }
    }
    printf("  thrown sphere: %d steps far from the ground (%d substeps with self contact), %d near "
           "it with more than one (the first %.1f mm up); centroid %.2g / %.2g m off free fall\n",
           far, farContact, near, 1e3 * firstNear, alone.centroidError, contact.centroidError);
    IC_CHECK(far >= 30);
    IC_CHECK(near > 0);
    // To the implicit solves' tolerance; dropping the dt^2 g / 2 of a step would be off by 4 mm.
    IC_CHECK_NEAR(alone.centroidError, 0, 1e-6);
    IC_CHECK_NEAR(contact.centroidError, 0, 1e-6);
}

// Gravity does not deform a free body, so it does not set the substeps of one falling far from the
// ground however long the step (a step a frame at 24 fps: g dt is 0.41 m/s, dt^2 g 17 mm, half an
// edge of this mesh). It does where it pulls a body against its pins, and with self contact (a
// falling body gains on a resting one). Measured: one substep each of the 8 free steps (the code
// before took 2), 3 each pinned from rest, 3, 5, 7 in the first three with self contact (the
// speed grows); the centroid on the closed form to 7e-9 m.
IC_TEST(incomp, long_steps_of_a_free_fall_take_one_substep) {
    fallFigures alone, contact, pinned;
    fallingSphere((fallRun){false, false, 3, 0, 1.0 / 24, 8}, &alone);
    fallingSphere((fallRun){true, false, 3, 0, 1.0 / 24, 8}, &contact);
    fallingSphere((fallRun){false, true, 3, 0, 1.0 / 24, 8}, &pinned);
    printf("  steps of 1/24 s, substeps of the first three: free %d %d %d, self contact %d %d %d, "
           "pinned %d %d %d; centroid %.2g m off free fall\n",
           alone.substeps[0], alone.substeps[1], alone.substeps[2], contact.substeps[0],
           contact.substeps[1], contact.substeps[2], pinned.substeps[0], pinned.substeps[1],
           pinned.substeps[2], alone.centroidError);
    for (int s = 0; s < 8; ++s) {
        IC_CHECK_MSG(alone.lowest[s] > 2, "step %d starts %g m up", s, alone.lowest[s]);
        IC_CHECK_MSG(alone.substeps[s] == 1, "free, step %d: %d substeps", s, alone.substeps[s]);
        IC_CHECK_MSG(contact.substeps[s] >= 2, "self contact, step %d: %d substeps", s,
                     contact.substeps[s]);
        IC_CHECK_MSG(pinned.substeps[s] >= 2, "pinned, step %d: %d substeps", s,
                     pinned.substeps[s]);
    }
    IC_CHECK_NEAR(alone.centroidError, 0, 1e-6);
    IC_CHECK_NEAR(contact.centroidError, 0, 1e-6);
}

// A sphere set down on the ground (kinetic friction 0.5) for 1.5 s, with eq. 2 at the end of each
// substep (the default) or at step 6 (the paper's list). What one run gives: how far the centroid
// moved sideways, the RMS vertex speed at the end, the substeps, and the largest volume rate the
// carried velocity makes a ring take, |(J v)_k| / V_k^0 in 1/s.
typedef struct restFigures {
    icReal drift, rmsSpeed, divergence;
    int substeps;
} restFigures;

static void restingSphere(icVelocityProjection where, restFigures *out) {
    restFigures f = {0};
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 1.0 / 120;
    d.velocityProjection = where;
    icWorld *w = sphereOverGround(icVec3_Make(0, 0.1005, 0), icVec3_Make(0, 0, 0), &d, NULL);
    IC_REQUIRE(w);
    int T = icWorld_GetTetCount(w), n = icWorld_GetVertexCount(w);
    const int *tets = icWorld_GetTets(w);
    for (int s = 0; s < 360; ++s) {
        icStepStats st;
        IC_REQUIRE(icWorld_Step(w, 1.0 / 240, &st) == IC_OK);
        IC_CHECK_INT(st.invertedTets, 0);
        f.substeps += st.substeps;
    }
    const icReal *x = icWorld_GetPositions(w), *v = icWorld_GetVelocities(w);
    icReal cx = 0, cz = 0, squares = 0;
    for (int k = 0; k < n; ++k) {
        cx += x[3 * k] / n;
        cz += x[3 * k + 2] / n;
        squares += v[3 * k] * v[3 * k] + v[3 * k + 1] * v[3 * k + 1] + v[3 * k + 2] * v[3 * k + 2];
    }
    f.drift = sqrt(cx * cx + cz * cz);
    f.rmsSpeed = sqrt(squares / n);
    // Rest rings are positive whatever the generator's vertex order: |J v| does not depend on it.
    icReal *g = malloc(sizeof(icReal) * 12 * (size_t)T), *div = malloc(sizeof(icReal) * n);
    icReal *rest = malloc(sizeof(icReal) * n);
    IC_REQUIRE(g && div && rest);
    icOneRing_Volumes(icWorld_GetRestPositions(w), n, tets, T, rest);
    icOneRing_Gradients(x, tets, T, g);
    icOneRing_Divergence(g, tets, T, n, v, div);
    for (int k = 0; k < n; ++k)
        if (rest[k] != 0) f.divergence = fmax(f.divergence, fabs(div[k] / rest[k]));
    free(g);
    free(div);
    free(rest);
    icDestroyWorld(w);
    *out = f;
}

// The velocity projection at the end of a substep carries a divergence-free velocity: a resting
// sphere then rests. At step 6 the velocity half step's elastic impulse (doubled by the
// extrapolation) rides on the contact vertices as sliding speed that the next eq. 1 takes back:
// the sphere keeps rocking and walks along the mesh's diagonal, and that speed sets the substeps.
IC_TEST(incomp, resting_sphere_rests_with_the_end_projection) {
    restFigures end, mid;
    // The default (auto): at the end of the substep, since there is no self contact.
    restingSphere(IC_VELOCITY_PROJECTION_AUTO, &end);
    restingSphere(IC_VELOCITY_PROJECTION_MIDPOINT, &mid);
    printf("  at rest 1.5 s, end / midpoint: drift %.2f / %.2f mm, rms speed %.4f / %.4f m/s, "
           "|Jv|/V %.3g / %.3g 1/s, substeps %d / %d\n",
           1e3 * end.drift, 1e3 * mid.drift, end.rmsSpeed, mid.rmsSpeed, end.divergence,
           mid.divergence, end.substeps, mid.substeps);
    // Measured (the sphere 8 cells across, docs/results.md): end 0.62 mm, 0.018 m/s, 0.87 1/s, 360
    // substeps; midpoint 67 mm, 0.21 m/s, 78 1/s, 379.
    IC_CHECK_MSG(end.drift < 0.005, "the resting sphere moved %g m sideways", end.drift);
    IC_CHECK_MSG(end.rmsSpeed < 0.05, "the resting sphere still moves at %g m/s", end.rmsSpeed);
    IC_CHECK_MSG(end.divergence < 0.1 * mid.divergence, "|Jv|/V %g against %g at step 6",
                 end.divergence, mid.divergence);
    IC_CHECK_INT(end.substeps, 360); // one substep a step once it rests
}

// Two small spheres falling onto each other with self contact, 40 steps; the final positions.
static void pairedSpheres(icVelocityProjection where, icReal *x, int capacity) {
    icWorld *w = incompWorld(icVec3_Make(0, -9.81, 0));
    IC_REQUIRE(w);
    for (int b = 0; b < 2; ++b) {
        icTetMesh mesh = {0};
        IC_REQUIRE(icGenerateSphere(&mesh, 0.05, 4, 6) == IC_OK);
        addBody(w, &mesh, icVec3_Make(0.01 * b, 0.051 + 0.103 * b, 0), icVec3_Make(0, -b, 0));
    }
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.selfContact = true;
    d.proximity = 0.003;
    d.velocityProjection = where;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(w, &d), IC_OK);
    icPlaneDef pd = icDefaultPlaneDef();
    IC_CHECK_RESULT(icWorld_AddPlane(w, &pd), IC_OK);
    int pairs = 0;
    for (int s = 0; s < 40; ++s) {
        IC_REQUIRE(icWorld_Step(w, 1.0 / 240, NULL) == IC_OK);
        pairs += icWorld_GetIncompressibleStats(w).selfPairs;
    }
    IC_CHECK_MSG(pairs > 0, "the spheres never came close");
    int n = icWorld_GetVertexCount(w);
    IC_REQUIRE(3 * n <= capacity);
    memcpy(x, icWorld_GetPositions(w), sizeof(icReal) * 3 * (size_t)n);
    icDestroyWorld(w);
}

// With self contact the default (auto) projects at step 6, as the paper's list: at the end of the
// substep a pile of tori blew up (docs/results.md). The same bits as midpoint, not as end.
IC_TEST(incomp, self_contact_keeps_the_midpoint_projection) {
    enum { CAPACITY = 3 * 4096 };
    static icReal automatic[CAPACITY], midpoint[CAPACITY], end[CAPACITY];
    memset(automatic, 0, sizeof automatic);
    memset(midpoint, 0, sizeof midpoint);
    memset(end, 0, sizeof end);
    pairedSpheres(IC_VELOCITY_PROJECTION_AUTO, automatic, CAPACITY);
    pairedSpheres(IC_VELOCITY_PROJECTION_MIDPOINT, midpoint, CAPACITY);
    pairedSpheres(IC_VELOCITY_PROJECTION_END, end, CAPACITY);
    IC_CHECK(memcmp(automatic, midpoint, sizeof automatic) == 0);
    IC_CHECK(memcmp(automatic, end, sizeof automatic) != 0);
}

// S3: plates touching the sphere at t = 0 close at 0.1 m/s each; recovery clamp off and
// contact in both force solves, as the paper. Measured (516 tets): |dV/V| 0.002 % down to
// H/H0 = 0.2; a longer run first inverts a tet at 0.14 (two element layers left). Paper
// (22k tets): < 0.1 % until 13 %, < 0.5 % until 2.3 %.
IC_TEST(incomp, plates_squeeze_keeps_volume) {
    icWorld *w = incompWorld(icVec3_Make(0, 0, 0));
    IC_REQUIRE(w);
    icTetMesh mesh = {0};
    IC_REQUIRE(icGenerateSphere(&mesh, 0.1, 6, 6) == IC_OK);
    addBody(w, &mesh, icVec3_Make(0, 0, 0), icVec3_Make(0, 0, 0));
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 0;
    d.contactInForceSolve = true;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(w, &d), IC_OK);
    icReal h0 = incompHeight(w);
    icMovingPlaneDef bottom = icDefaultMovingPlaneDef(), top = icDefaultMovingPlaneDef();
    bottom.offset = top.offset = -0.5 * h0;
    bottom.speed = top.speed = 0.1;
    top.normal = icVec3_Make(0, -1, 0);
    IC_CHECK_RESULT(icWorld_AddMovingPlane(w, &bottom), IC_OK);
    IC_CHECK_RESULT(icWorld_AddMovingPlane(w, &top), IC_OK);
    const icReal dt = 1e-3;
    icReal worst = 0, ratio = 1;
    for (int s = 0; ratio > 0.2; ++s) {
        icStepStats st;
        IC_REQUIRE(icWorld_Step(w, dt, &st) == IC_OK);
        ratio = 1 - 2 * 0.1 * (s + 1) * dt / h0;
        IC_CHECK_INT(st.invertedTets, 0);
        worst = fmax(worst, fabs(icWorld_GetVolumeRatio(w) - 1));
        if (st.invertedTets) break;
    }
    // The body really is squeezed to the plates' gap.
    IC_CHECK_NEAR(incompHeight(w) / h0, ratio, 0.01);
    printf("  plates: max |dV/V| %.5f %% down to H/H0 = %.2f\n", 100 * worst, ratio);
    IC_CHECK_MSG(worst < 0.001, "volume error %g", worst);
    icDestroyWorld(w);
}

// S2: a sphere rolls off a step onto a lower one (static box colliders with friction).
// Measured: |dV/V| 0.09 %, no vertex inside a step, lands on the lower step and bounces on.
IC_TEST(incomp, sphere_down_steps) {
    icWorld *w = incompWorld(icVec3_Make(0, -9.81, 0));
    IC_REQUIRE(w);
    icColliderId steps[2];
    for (int i = 0; i < 2; ++i) {
        icColliderDef cd = icDefaultColliderDef();
        cd.shape = IC_COLLIDER_BOX;
        icReal top = 0.3 - 0.15 * i;
        cd.centre = icVec3_Make(0.3 * i + 0.15, 0.5 * (top - 0.5), 0);
        cd.halfExtents = icVec3_Make(0.15, 0.5 * (top + 0.5), 0.5);
        cd.thickness = 0;
        cd.friction = cd.staticFriction = 0.4;
        IC_CHECK_RESULT(icWorld_AddCollider(w, &cd, &steps[i], NULL), IC_OK);
    }
    icTetMesh mesh = {0};
    IC_REQUIRE(icGenerateSphere(&mesh, 0.08, 6, 6) == IC_OK);
    addBody(w, &mesh, icVec3_Make(0.1, 0.4, 0), icVec3_Make(0.8, 0, 0));
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 1.0 / 120;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(w, &d), IC_OK);
    icReal worst = 0, deepest = 0;
    bool touchedLower = false;
    int n = icWorld_GetVertexCount(w);
    for (int s = 0; s < 144; ++s) {
        IC_REQUIRE(icWorld_Step(w, 1.0 / 240, NULL) == IC_OK);
        worst = fmax(worst, fabs(icWorld_GetVolumeRatio(w) - 1));
        const icReal *x = icWorld_GetPositions(w);
        for (int i = 0; i < 2; ++i)
            for (int v = 0; v < n; ++v)
                deepest = fmin(deepest, icCollider_Distance(w, steps[i], icVec3_Load(x, v),
                                                            icWorld_GetTime(w), NULL, NULL));
        for (int v = 0; v < n; ++v) // a vertex on the lower step's top (x > 0.3, y = 0.15)
            touchedLower |= x[3 * v] > 0.31 && x[3 * v + 1] < 0.151;
    }
    icVec3 c = {0, 0, 0};
    for (int v = 0; v < n; ++v) c = icVec3_Add(c, icVec3_Load(icWorld_GetPositions(w), v));
    c = icVec3_Scale(1.0 / n, c);
    printf("  steps: max |dV/V| %.4f %%, deepest vertex %.2e m, centre (%.3f, %.3f)\n", 100 * worst,
           deepest, c.x, c.y);
    IC_CHECK_MSG(worst < 0.01, "volume error %g", worst);
    IC_CHECK_MSG(deepest > -1e-6, "a vertex is %g m inside a step", deepest);
    IC_CHECK_MSG(c.x > 0.3, "the sphere did not leave the upper step (x = %g)", c.x);
    IC_CHECK_MSG(touchedLower, "the sphere never reached the lower step");
    icDestroyWorld(w);
}

// S4: three tori dropped into a box pile up. Every torus keeps its volume within 0.5 % at
// every step and no two surface triangles intersect at the end. Measured: worst torus
// 0.04 %, 0 intersections (without self contact the tori pass through each other).
IC_TEST(incomp, tori_pile_keeps_volumes_apart) {
    icWorld *w = incompWorld(icVec3_Make(0, -9.81, 0));
    IC_REQUIRE(w);
    enum { count = 3 };
    icBodyId ids[count];
    for (int b = 0; b < count; ++b) {
        icTetMesh mesh = {0};
        IC_REQUIRE(icGenerateTorus(&mesh, 0.08, 0.03, 6, 6) == IC_OK);
        icMat3 R = icMat3_Rotation(icVec3_Make(cos(0.9 * b), 0, -sin(0.9 * b)), 0.35 * (b - 1));
        for (int v = 0; v < mesh.vertexCount; ++v)
            icVec3_Store(mesh.positions, v, icMat3_MulVec(R, icVec3_Load(mesh.positions, v)));
        ids[b] = addBody(w, &mesh, icVec3_Make(b % 2 ? 0.03 : -0.03, 0.12 + 0.16 * b, 0),
                         icVec3_Make(0, 0, 0));
    }
    icPlaneDef floor = icDefaultPlaneDef();
    floor.friction = 0.3;
    IC_CHECK_RESULT(icWorld_AddPlane(w, &floor), IC_OK);
    static const icReal walls[4][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int i = 0; i < 4; ++i) {
        icPlaneDef p = floor;
        p.normal = icVec3_Make(walls[i][0], walls[i][1], walls[i][2]);
        p.offset = -0.14;
        IC_CHECK_RESULT(icWorld_AddPlane(w, &p), IC_OK);
    }
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 1.0 / 120;
    d.selfContact = true;
    d.proximity = 0.004;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(w, &d), IC_OK);
    icReal worst = 0;
    int pairs = 0;
    for (int s = 0; s < 168; ++s) {
        IC_REQUIRE(icWorld_Step(w, 1.0 / 240, NULL) == IC_OK);
        for (int b = 0; b < count; ++b)
            worst = fmax(worst, fabs(icBody_GetVolumeRatio(w, ids[b]) - 1));
        pairs = icWorld_GetIncompressibleStats(w).selfPairs > pairs
                    ? icWorld_GetIncompressibleStats(w).selfPairs
                    : pairs;
    }
    icTetMesh view = {0};
    view.vertexCount = icWorld_GetVertexCount(w);
    view.tetCount = icWorld_GetTetCount(w);
    view.positions = (icReal *)icWorld_GetRestPositions(w);
    view.tets = (int *)icWorld_GetTets(w);
    int *tris = NULL, triCount = 0;
    IC_REQUIRE(icTetMesh_ExtractSurface(&view, &tris, &triCount, NULL) == IC_OK);
    int crossings =
        icCollisionTest_CountSurfaceIntersections(tris, triCount, icWorld_GetPositions(w));
    icFree(tris);
    // The pile formed: the top torus came down onto the others (it started at 0.44 m).
    int vs, vc, ts, tc;
    icBody_GetRanges(w, ids[count - 1], &vs, &vc, &ts, &tc);
    icReal top = 0;
    for (int v = vs; v < vs + vc; ++v) top += icWorld_GetPositions(w)[3 * v + 1];
    top /= vc;
    printf("  tori: worst torus |dV/V| %.3f %%, %d intersecting triangle pairs, up to %d pairs, "
           "top torus at %.3f m\n",
           100 * worst, crossings, pairs, top);
    IC_CHECK_MSG(worst < 0.005, "a torus changed volume by %g", worst);
    IC_CHECK_INT(crossings, 0);
    IC_CHECK(pairs > 0);
    IC_CHECK_MSG(top < 0.2, "the top torus is still at %g m", top);
    icDestroyWorld(w);
}

// Coulomb friction of obstacles (Irving et al. 2007 leave it to the collision step; ours cuts the
// tangential end-of-step velocity by mu times the contact's normal impulse over the step): a
// cube on a 20 degree slope slides as a frictionless block (x = g sin(20) t^2 / 2) with
// mu = 0, and with mu = 0.6 > tan 20 it is held back strongly. It does not stick exactly:
// the position correction still moves contact vertices along the surface (only the normal
// is constrained), so the cube creeps at about 0.1 m/s (measured 0.048 m in 0.4 s, 18 % of
// the frictionless slide); docs/results.md says so.
IC_TEST(incomp, obstacle_friction_on_a_slope) {
    const icReal angle = 20 * 3.14159265358979 / 180, T = 0.4, g = 9.81;
    // With static friction: mu 0.6, 0.2, 0; the last case is mu 0.6 with kinetic friction only.
    const icReal mus[4] = {0.6, 0.2, 0.0, 0.6};
    // moved: mean displacement down the slope at T; later: at 2T (case 0 only, for creep).
    icReal moved[4], later = 0;
    for (int k = 0; k < 4; ++k) {
        icWorld *w = incompWorld(icVec3_Make(g * sin(angle), -g * cos(angle), 0));
        IC_REQUIRE(w);
        icTetMesh mesh = {0};
        int cells[3] = {3, 3, 3};
        IC_REQUIRE(icGenerateBox(&mesh, icVec3_Make(0.1, 0.1, 0.1), cells, 6) == IC_OK);
        addBody(w, &mesh, icVec3_Make(0, 0.05, 0), icVec3_Make(0, 0, 0));
        icPlaneDef pd = icDefaultPlaneDef();
        pd.friction = mus[k];
        IC_CHECK_RESULT(icWorld_AddPlane(w, &pd), IC_OK);
        icIncompressibleDef d = icDefaultIncompressibleDef();
        d.recoveryTime = 1.0 / 120;
        d.staticFriction = k < 3;
        IC_CHECK_RESULT(icWorld_SetIncompressibleDef(w, &d), IC_OK);
        for (int pass = 0; pass < (k == 0 ? 2 : 1); ++pass) {
            for (int s = 0; s < (int)(T * 240 + 0.5); ++s)
                IC_REQUIRE(icWorld_Step(w, 1.0 / 240, NULL) == IC_OK);
            int n = icWorld_GetVertexCount(w);
            icReal x = 0;
            for (int v = 0; v < n; ++v)
                x += icWorld_GetPositions(w)[3 * v] - icWorld_GetRestPositions(w)[3 * v];
            *(pass == 0 ? &moved[k] : &later) = x / n;
        }
        icDestroyWorld(w);
    }
    icReal free = 0.5 * g * sin(angle) * T * T;
    icReal slip = 0.5 * g * (sin(angle) - mus[1] * cos(angle)) * T * T;
    printf("  slope: mu 0.6 moved %.2e m (%.2e m at 2T; kinetic only %.2e m), mu 0.2 moved %.4f m "
           "(closed form %.4f), mu 0 moved %.4f m (closed form %.4f)\n",
           moved[0], later, moved[3], moved[1], slip, moved[2], free);
    // tan 20 deg = 0.364: mu = 0.6 holds (it settles by an elastic millimetre; kinetic-only
    // friction crept 48 mm by T and kept going), mu = 0.2 slides at g (sin - mu cos).
    IC_CHECK_MSG(fabs(moved[0]) < 0.01 * free, "the cube slid %g m with mu = 0.6", moved[0]);
    IC_CHECK_MSG(fabs(later - moved[0]) < 1e-3, "the cube crept %g m over the second %g s",
                 later - moved[0], T);
    IC_CHECK_NEAR(moved[1], slip, 0.1 * slip);
    IC_CHECK_NEAR(moved[2], free, 0.03 * free);
    IC_CHECK_MSG(moved[3] > 10 * fabs(moved[0]),
                 "kinetic friction alone held too: the test is void");
}

// icBody_GetVolumeRatio: each body's own current / rest volume (closed form: a uniform
// scale s of one body gives s^3 for it and 1 for the other).
IC_TEST(incomp, body_volume_ratio) {
    icWorld *w = incompWorld(icVec3_Make(0, 0, 0));
    IC_REQUIRE(w);
    icTetMesh a = {0}, b = {0};
    IC_REQUIRE(icGenerateSphere(&a, 0.1, 4, 6) == IC_OK);
    IC_REQUIRE(icGenerateTorus(&b, 0.08, 0.03, 6, 6) == IC_OK);
    icBodyId ia = addBody(w, &a, icVec3_Make(0, 0, 0), icVec3_Make(0, 0, 0));
    icBodyId ib = addBody(w, &b, icVec3_Make(1, 0, 0), icVec3_Make(0, 0, 0));
    IC_CHECK_NEAR(icBody_GetVolumeRatio(w, ia), 1, 1e-14);
    int vs, vc;
    icBody_GetRanges(w, ib, &vs, &vc, NULL, NULL);
    icReal *x = icWorld_GetPositionsMutable(w);
    for (int v = vs; v < vs + vc; ++v)
        for (int i = 0; i < 3; ++i) x[3 * v + i] = 1.1 * (x[3 * v + i] - (i == 0 ? 1 : 0));
    IC_CHECK_NEAR(icBody_GetVolumeRatio(w, ib), 1.331, 1e-12);
    IC_CHECK_NEAR(icBody_GetVolumeRatio(w, ia), 1, 1e-14);
    icDestroyWorld(w);
}
