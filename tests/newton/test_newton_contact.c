// SPDX-License-Identifier: MIT
// Contact of the force-based solvers (src/newton/contact_potential.c): the potential's gradient
// and Hessian against finite differences, equilibrium on a plane, a drop, a pushing collider,
// friction on a slope, and the same bits for any worker count.
#include "collision/collision_testing.h"
#include "newton/contact_potential.h"
#include "fem/fem_test.h"

// A cube of side `size` with cells^3 hex cells, its bottom face at height `bottom`.
static icWorld *cubeWorld(icWorldDef wdef, icReal size, int cells, icReal bottom,
                          const icSoftBodyDef *bdef) {
    icWorld *world = icCreateWorld(&wdef);
    icTetMesh mesh;
    int counts[3] = {cells, cells, cells};
    if (!world || icGenerateBox(&mesh, icVec3_Make(size, size, size), counts, 6) != IC_OK)
        return world;
    icSoftBodyDef d = bdef ? *bdef : icDefaultSoftBodyDef();
    d.translation = icVec3_Make(0, bottom + size / 2, 0);
    icDiagnostic diag;
    if (icWorld_CreateSoftBody(world, &mesh, &d, NULL, &diag) != IC_OK)
        icTest_Fail(__FILE__, __LINE__, "body: %s", diag.message);
    icTetMesh_Destroy(&mesh);
    return world;
}

static icWorldDef newtonWorldDef(icVec3 gravity) {
    icWorldDef wdef = icDefaultWorldDef();
    wdef.solver = IC_SOLVER_NEWTON;
    wdef.gravity = gravity;
    return wdef;
}

static icSoftBodyDef rubber(void) {
    icSoftBodyDef d = icDefaultSoftBodyDef();
    d.youngsModulus = 1e5;
    d.poissonRatio = 0.3;
    d.density = 1000;
    return d;
}

// The mean of n vectors (x, y, z) in a.
static icVec3 mean(const icReal *a, int n) {
    icVec3 c = icVec3_Make(0, 0, 0);
    for (int i = 0; i < n; ++i) c = icVec3_Add(c, icVec3_Load(a, i));
    return icVec3_Scale(1.0 / n, c);
}

static icVec3 centroid(const icWorld *world) {
    return mean(icWorld_GetPositions(world), icWorld_GetVertexCount(world));
}

static icVec3 meanVelocity(const icWorld *world) {
    return mean(icWorld_GetVelocities(world), icWorld_GetVertexCount(world));
}

static icReal minY(const icWorld *world) {
    const icReal *x = icWorld_GetPositions(world);
    icReal m = INFINITY;
    for (int v = 0; v < icWorld_GetVertexCount(world); ++v) m = fmin(m, x[3 * v + 1]);
    return m;
}

// ---------------------------------------------------------------------------------------
// Finite differences of the potential.

// Positions for the 8 vertices of a one-cell cube near obstacle o: start points xn within
// 1 cm of its surface, most inside (lagged friction contacts), and x = xn + up to 3 mm.
static void nearSurface(const icContactObstacle *o, icVec3 lo, icVec3 hi, icReal *xn, icReal *x) {
    for (int v = 0; v < 8; ++v) {
        icVec3 p, n, q;
        for (int tries = 0; tries < 100000; ++tries) {
            p = icVec3_Make(icTest_Uniform(lo.x, hi.x), icTest_Uniform(lo.y, hi.y),
                            icTest_Uniform(lo.z, hi.z));
            icReal g = icContactObstacle_Gap(o, p, 0, &n, &q);
            if (g > -0.01 && g < (v < 6 ? -1e-4 : 0.002)) break;
        }
        icVec3_Store(xn, v, p);
        for (int i = 0; i < 3; ++i) x[3 * v + i] = xn[3 * v + i] + icTest_Uniform(-3e-3, 3e-3);
    }
}

// Energy, forces and blocks of the potential at x (8 vertices).
static icReal evaluate(icContactPotential *c, const icReal *x, icReal f[24], icReal b[72]) {
    if (f) memset(f, 0, sizeof(icReal) * 24);
    if (b) memset(b, 0, sizeof(icReal) * 72);
    return icContactPotential_Evaluate(c, x, f, b);
}

// Checks forces = -dE/dx by central differences; with hessian, blocks = -df/dx too. Returns
// the number of vertices in contact (so that a test cannot pass on an empty potential).
static int checkDerivatives(icContactPotential *c, icReal *x, bool hessian, const char *what,
                            double worst[2]) {
    icReal f[24], b[72], fp[24], fm[24];
    evaluate(c, x, f, b);
    double fmaxAbs = icTest_MaxAbs(f, 24), bmaxAbs = icTest_MaxAbs(b, 72);
    double gradErr = 0, hessErr = 0;
    const double h = 1e-7;
    for (int i = 0; i < 24; ++i) {
        icReal keep = x[i];
        x[i] = keep + h;
        icReal ep = evaluate(c, x, fp, NULL);
        x[i] = keep - h;
        icReal em = evaluate(c, x, fm, NULL);
        x[i] = keep;
        gradErr = fmax(gradErr, fabs(-(ep - em) / (2 * h) - f[i]));
        // Column i of the vertex's block: -(f(x + h e_i) - f(x - h e_i)) / 2h.
        int v = i / 3, col = i % 3;
        for (int row = 0; row < 3; ++row) {
            double fd = -(fp[3 * v + row] - fm[3 * v + row]) / (2 * h);
            hessErr = fmax(hessErr, fabs(fd - b[9 * v + row + 3 * col]));
        }
    }
    worst[0] = fmax(worst[0], gradErr / fmaxAbs);
    if (hessian) worst[1] = fmax(worst[1], hessErr / bmaxAbs);
    IC_CHECK_MSG(gradErr <= 1e-6 * fmaxAbs, "%s: gradient error %.3g (forces %.3g)", what, gradErr,
                 fmaxAbs);
    if (hessian)
        IC_CHECK_MSG(hessErr <= 1e-5 * bmaxAbs, "%s: Hessian error %.3g (blocks %.3g)", what,
                     hessErr, bmaxAbs);
    return icContactPotential_Count(c, x);
}

IC_TEST(fem, contact_potential_derivatives) {
    icTest_Seed(11);
    static const char *const names[] = {"plane", "sphere", "box", "capsule", "mesh"};
    double worst[2] = {0, 0};
    for (int kind = 0; kind < 5; ++kind) {
        icWorld *world = cubeWorld(newtonWorldDef(icVec3_Make(0, -9.81, 0)), 0.1, 1, 0, NULL);
        IC_REQUIRE(world && icWorld_GetVertexCount(world) == 8);
        icVec3 lo = icVec3_Make(-0.35, -0.35, -0.35), hi = icVec3_Make(0.35, 0.35, 0.35);
        icReal positions[24];
        int triangles[36];
        if (kind == 0) {
            icPlaneDef p = icDefaultPlaneDef();
            p.normal = icVec3_Make(0.3, 1, -0.2);
            p.offset = 0.01;
            p.friction = 0.4;
            IC_REQUIRE(icWorld_AddPlane(world, &p) == IC_OK);
        } else {
            icColliderDef d = icDefaultColliderDef();
            d.shape = (icColliderShape)(kind - 1);
            d.radius = 0.2;
            d.halfExtents = icVec3_Make(0.2, 0.15, 0.25);
            d.axis = icVec3_Make(1, 1, 0);
            d.degrees = 30;
            d.thickness = 0.002;
            d.friction = 0.3;
            if (d.shape == IC_COLLIDER_MESH) { // a closed box as a triangle mesh
                icCollisionTest_BoxMesh(icVec3_Make(-0.2, -0.15, -0.25),
                                        icVec3_Make(0.2, 0.15, 0.25), positions, triangles);
                d.vertexCount = 8;
                d.positions = positions;
                d.triangleCount = 12;
                d.triangles = triangles;
            }
            // The collider moves over the step (turns and shifts): friction's shift is live.
            icRigidKey keys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
            keys[1].time = 1;
            keys[1].translation = icVec3_Make(0.3, -0.1, 0.2);
            keys[1].axis = icVec3_Make(0, 0, 1);
            keys[1].degrees = 20;
            d.track.keys = keys;
            d.track.keyCount = 2;
            icDiagnostic diag;
            IC_REQUIRE(icWorld_AddCollider(world, &d, NULL, &diag) == IC_OK);
        }
        icContactPotential c = {0};
        icReal xn[24], x[24];
        // Obstacles at t1 first, to place the points; then again with xn for friction.
        IC_REQUIRE(icContactPotential_Begin(&c, world, icWorld_GetPositions(world), 0.1, 0.11, 100,
                                            false, 0) == IC_OK);
        IC_REQUIRE(c.obstacleCount == 1);
        // Points around the surface at the step's end; friction is lagged at its start.
        nearSurface(&c.obstacles[0], lo, hi, xn, x);
        memcpy(xn, x, sizeof xn);
        for (int i = 0; i < 24; ++i) xn[i] -= icTest_Uniform(-3e-3, 3e-3);
        IC_REQUIRE(icContactPotential_Begin(&c, world, xn, 0.1, 0.11, 100, true, 1e-3) == IC_OK);
        IC_CHECK_MSG(c.frictionCount >= 2, "%s: %d friction contacts", names[kind],
                     c.frictionCount);
        int touching = checkDerivatives(&c, x, kind == 0, names[kind], worst);
        IC_CHECK_MSG(touching >= 3, "%s: %d vertices in contact", names[kind], touching);
        icContactPotential_Destroy(&c);
        icDestroyWorld(world);
    }
    printf("  worst error against differences: gradient %.1e, Hessian %.1e of the largest entry\n",
           worst[0], worst[1]);
}

// The blocks are PSD (projected Newton needs it): every 3x3 block's smallest eigenvalue is
// >= 0 up to rounding, for colliders whose curvature term was dropped too.
IC_TEST(fem, contact_potential_blocks_psd) {
    icTest_Seed(12);
    icWorld *world = cubeWorld(newtonWorldDef(icVec3_Make(0, -9.81, 0)), 0.1, 1, 0, NULL);
    IC_REQUIRE(world);
    icColliderDef d = icDefaultColliderDef();
    d.radius = 0.2;
    d.friction = 0.5;
    IC_REQUIRE(icWorld_AddCollider(world, &d, NULL, NULL) == IC_OK);
    icContactPotential c = {0};
    IC_REQUIRE(icContactPotential_Begin(&c, world, icWorld_GetPositions(world), 0, 0, 100, false,
                                        0) == IC_OK);
    icReal xn[24], x[24], b[72];
    int checked = 0;
    for (int round = 0; round < 20; ++round) {
        nearSurface(&c.obstacles[0], icVec3_Make(-0.3, -0.3, -0.3), icVec3_Make(0.3, 0.3, 0.3), xn,
                    x);
        IC_REQUIRE(icContactPotential_Begin(&c, world, xn, 0, 0, 100, true, 2e-3) == IC_OK);
        evaluate(&c, x, NULL, b);
        for (int v = 0; v < 8; ++v) {
            // Smallest eigenvalue of a symmetric 3x3 through random unit vectors is not enough:
            // use the quadratic form on the three axes and on random directions.
            double scale = icTest_MaxAbs(b + 9 * v, 9);
            for (int k = 0; k < 50; ++k) {
                icVec3 w = icVec3_Normalize(
                    icVec3_Make(icTest_Normal(), icTest_Normal(), icTest_Normal()));
                const icReal *m = b + 9 * v;
                icVec3 bw = icVec3_Make(m[0] * w.x + m[3] * w.y + m[6] * w.z,
                                        m[1] * w.x + m[4] * w.y + m[7] * w.z,
                                        m[2] * w.x + m[5] * w.y + m[8] * w.z);
                IC_CHECK(icVec3_Dot(w, bw) >= -1e-12 * scale);
                ++checked;
            }
        }
    }
    IC_CHECK(checked > 0);
    icContactPotential_Destroy(&c);
    icDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------
// Quasistatic equilibrium on a plane.

// A 10 cm rubber cube (1 kg) pressed onto the floor by gravity: at the converged equilibrium
// the contact forces carry its weight, it sinks by about the documented (p / E) h / 100, and
// its volume hardly changes.
IC_TEST(fem, newton_contact_static_weight) {
    icSoftBodyDef bdef = rubber();
    // Touching the floor at the start, so that the first Newton system has its vertical
    // translation held by contact.
    icWorld *world = cubeWorld(newtonWorldDef(icVec3_Make(0, -9.81, 0)), 0.1, 3, -1e-5, &bdef);
    IC_REQUIRE(world);
    icPlaneDef plane = icDefaultPlaneDef();
    plane.friction = 0;
    IC_REQUIRE(icWorld_AddPlane(world, &plane) == IC_OK);
    icNewtonDef nd = icDefaultNewtonDef();
    nd.residualTolerance = 1e-12;
    nd.absoluteTolerance = 1e-12;
    nd.cgTolerance = 1e-10;
    icWorld_SetNewtonDef(world, &nd);
    icStepStats st;
    IC_CHECK_RESULT(icWorld_SolveStatic(world, NULL, &st), IC_OK);
    icNewtonStats ns = icWorld_GetNewtonStats(world);
    IC_CHECK(ns.converged);
    // Contact forces at the equilibrium from the potential itself.
    int nv = icWorld_GetVertexCount(world);
    icContactPotential c = {0};
    IC_REQUIRE(icContactPotential_Begin(&c, world, icWorld_GetPositions(world), 0, 0,
                                        nd.contactStiffness, false, 0) == IC_OK);
    icReal *f = calloc(3 * (size_t)nv, sizeof(icReal));
    IC_REQUIRE(f);
    icContactPotential_Evaluate(&c, icWorld_GetPositions(world), f, NULL);
    double fy = 0, fxz = 0, weight = 0;
    for (int v = 0; v < nv; ++v) {
        fy += f[3 * v + 1];
        fxz = fmax(fxz, fmax(fabs(f[3 * v]), fabs(f[3 * v + 2])));
    }
    // Mass from the lumped masses the solver uses: rho V = 1 kg.
    weight = 1000 * 0.001 * 9.81;
    double balance = fabs(fy - weight) / weight;
    IC_CHECK_MSG(balance <= 1e-8, "contact force %.12g N vs weight %.12g N (rel. %.3g)", fy, weight,
                 balance);
    IC_CHECK(fxz == 0); // a plane pushes along its normal only
    // Penetration: p = W / A = 981 Pa, h = 1/30 m: (p / E) h / 100 = 3.3 um (3.4 measured).
    double h = 0.1 / 3, promised = (weight / 0.01) / bdef.youngsModulus * h / nd.contactStiffness;
    double deepest = -minY(world);
    IC_CHECK_MSG(deepest > 0.7 * promised && deepest < 1.4 * promised,
                 "penetration %.3g m vs promised %.3g m", deepest, promised);
    IC_CHECK(st.contacts >= 16);
    icReal ratio = icWorld_GetVolumeRatio(world);
    IC_CHECK_MSG(fabs(ratio - 1) < 0.01, "V/V0 %.6f", ratio);
    printf("  contact force %.6f N, weight %.6f N (rel. %.1e); penetration %.3g um, promised "
           "(p/E) h/100 %.3g um; V/V0 %.5f\n",
           fy, weight, balance, 1e6 * deepest, 1e6 * promised, ratio);
    // The matrix-free path (contact blocks added to the products and the preconditioner)
    // reaches the same equilibrium from the same start.
    memcpy(f, icWorld_GetPositions(world), sizeof(icReal) * 3 * (size_t)nv);
    icReal *start = icWorld_GetPositionsMutable(world);
    const icReal *rest = icWorld_GetRestPositions(world);
    memcpy(start, rest, sizeof(icReal) * 3 * (size_t)nv); // the first solve's start
    nd.matrixFree = true;
    icWorld_SetNewtonDef(world, &nd);
    IC_CHECK_RESULT(icWorld_SolveStatic(world, NULL, &st), IC_OK);
    double gap = icTest_MaxAbsDiff(f, icWorld_GetPositions(world), 3 * nv);
    IC_CHECK_MSG(gap < 1e-10, "matrix-free vs assembled: %.3g m", gap);
    free(f);
    icContactPotential_Destroy(&c);
    icDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------
// Backward Euler with contact.

// Adds collider d moving 0.5 m along x per second (keys at t = 0 and 1).
static icResult addSlidingCollider(icWorld *world, icColliderDef d) {
    icRigidKey keys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
    keys[1].time = 1;
    keys[1].translation = icVec3_Make(0.5, 0, 0);
    d.track.keys = keys;
    d.track.keyCount = 2;
    return icWorld_AddCollider(world, &d, NULL, NULL);
}

// The rubber cube (10 cm, 3^3 cells) under gravity, its bottom at `bottom`, over a floor at y = 0.
static icWorld *rubberCubeOnFloor(icReal bottom) {
    icSoftBodyDef bdef = rubber();
    icWorld *world = cubeWorld(newtonWorldDef(icVec3_Make(0, -9.81, 0)), 0.1, 3, bottom, &bdef);
    icPlaneDef plane = icDefaultPlaneDef();
    if (world && icWorld_AddPlane(world, &plane) != IC_OK) {
        icDestroyWorld(world);
        return NULL;
    }
    return world;
}

// Dropped from 5 cm, the cube lands and comes to rest on the floor: no tunnelling, no
// explosion, and at rest it sinks no deeper than the static solve's figure allows.
IC_TEST(fem, newton_contact_drop_comes_to_rest) {
    icWorld *world = rubberCubeOnFloor(0.05);
    IC_REQUIRE(world);
    icStepStats st;
    double lowest = INFINITY;
    int failures = 0;
    for (int i = 0; i < 100; ++i) {
        if (icWorld_Step(world, 0.01, &st) != IC_OK) ++failures;
        lowest = fmin(lowest, minY(world));
    }
    IC_CHECK_INT(failures, 0);
    IC_CHECK_MSG(lowest > -1e-3, "deepest point %.3g m", lowest);
    icVec3 c = centroid(world), v = meanVelocity(world);
    IC_CHECK_MSG(fabs(c.y - 0.05) < 1e-3, "centroid at %.6f m", c.y);
    IC_CHECK_MSG(icVec3_Length(v) < 1e-2, "mean speed %.3g m/s", icVec3_Length(v));
    IC_CHECK_MSG(minY(world) > -2e-5 && minY(world) < 0, "rest penetration %.3g m", -minY(world));
    printf("  deepest point %.3g um below the floor; at 1 s mean speed %.2g m/s, %.3g um deep\n",
           -1e6 * lowest, icVec3_Length(v), -1e6 * minY(world));
    IC_CHECK(st.contacts >= 16 && st.invertedTets == 0);
    icDestroyWorld(world);
}

// A box collider moving at 0.5 m/s along x meets the cube on the floor (friction 0.5) at
// t = 0.1 s and pushes it: the cube ends just ahead of the collider's face, moving with it.
IC_TEST(fem, newton_contact_collider_pushes) {
    icWorld *world = rubberCubeOnFloor(0);
    IC_REQUIRE(world);
    icColliderDef d = icDefaultColliderDef();
    d.shape = IC_COLLIDER_BOX;
    d.centre = icVec3_Make(-0.15, 0.05, 0);
    d.halfExtents = icVec3_Make(0.05, 0.04, 0.1);
    d.friction = 0;
    IC_REQUIRE(addSlidingCollider(world, d) == IC_OK);
    icStepStats st;
    int failures = 0;
    for (int i = 0; i < 60; ++i)
        if (icWorld_Step(world, 0.01, &st) != IC_OK) ++failures;
    IC_CHECK_INT(failures, 0);
    // Collider face at -0.1 + 0.5 t = 0.2 at t = 0.6 s; thickness 1 mm.
    const icReal *x = icWorld_GetPositions(world);
    double back = INFINITY;
    for (int v = 0; v < icWorld_GetVertexCount(world); ++v)
        if (x[3 * v + 1] > 0.011 && x[3 * v + 1] < 0.089) back = fmin(back, x[3 * v]);
    icVec3 v = meanVelocity(world);
    IC_CHECK_MSG(back > 0.2 - 1e-3 && back < 0.2 + 1e-3, "cube's back face at %.5f m", back);
    IC_CHECK_MSG(fabs(v.x - 0.5) < 0.02, "cube moves at %.4f m/s", v.x);
    printf("  cube moves at %.4f m/s, its back face %.2f mm off the collider's face\n", v.x,
           1e3 * (back - 0.2));
    IC_CHECK(st.contacts > 0 && st.invertedTets == 0);
    icDestroyWorld(world);
}

// A cube on a 20 degree slope (gravity tilted instead of the floor): after settling under
// gravity along the normal, it stays put with mu = 0.6 > tan 20 and slides with
// a = g (sin 20 - mu cos 20) with mu = 0.2.
static void slope(double mu, double *drift, double *acceleration) {
    icSoftBodyDef bdef = rubber();
    icWorld *world = cubeWorld(newtonWorldDef(icVec3_Make(0, -9.81, 0)), 0.1, 2, -1e-5, &bdef);
    *drift = *acceleration = NAN;
    if (!world) return;
    icPlaneDef plane = icDefaultPlaneDef();
    plane.friction = mu;
    icWorld_AddPlane(world, &plane);
    const double dt = 0.01, angle = 20 * 3.141592653589793 / 180;
    for (int i = 0; i < 20; ++i) icWorld_Step(world, dt, NULL);
    icWorld_SetGravity(world, icVec3_Make(9.81 * sin(angle), -9.81 * cos(angle), 0));
    icVec3 c0 = centroid(world);
    icReal v1 = 0;
    for (int i = 1; i <= 100; ++i) {
        icWorld_Step(world, dt, NULL);
        if (i == 50) v1 = meanVelocity(world).x;
    }
    *drift = centroid(world).x - c0.x;
    *acceleration = (meanVelocity(world).x - v1) / 0.5;
    icDestroyWorld(world);
}

IC_TEST(fem, newton_contact_slope_sticks) {
    double drift, a;
    slope(0.6, &drift, &a);
    IC_CHECK_MSG(fabs(drift) < 1e-3, "drift %.3g m over 1 s", drift);
    printf("  mu 0.6: drift %.3g mm over 1 s\n", 1e3 * drift);
}

IC_TEST(fem, newton_contact_slope_slides) {
    double drift, a, angle = 20 * 3.141592653589793 / 180;
    slope(0.2, &drift, &a);
    double expected = 9.81 * (sin(angle) - 0.2 * cos(angle));
    IC_CHECK_MSG(fabs(a - expected) < 0.02 * expected, "a = %.4f m/s^2, closed form %.4f", a,
                 expected);
    printf("  mu 0.2: a = %.4f m/s^2, closed form %.4f m/s^2\n", a, expected);
}

// The drop and the pushing collider give the same bits with 1 and 2 workers.
IC_TEST(fem, newton_contact_same_bits_any_workers) {
    icReal *result[2] = {NULL, NULL};
    int nv = 0;
    for (int run = 0; run < 2; ++run) {
        icWorldDef wdef = newtonWorldDef(icVec3_Make(0, -9.81, 0));
        wdef.workerCount = run + 1;
        icSoftBodyDef bdef = rubber();
        icWorld *world = cubeWorld(wdef, 0.1, 2, 0.01, &bdef);
        IC_REQUIRE(world);
        icPlaneDef plane = icDefaultPlaneDef();
        IC_REQUIRE(icWorld_AddPlane(world, &plane) == IC_OK);
        icColliderDef d = icDefaultColliderDef();
        d.centre = icVec3_Make(-0.12, 0.05, 0);
        d.radius = 0.05;
        IC_REQUIRE(addSlidingCollider(world, d) == IC_OK);
        for (int i = 0; i < 20; ++i) IC_CHECK_RESULT(icWorld_Step(world, 0.01, NULL), IC_OK);
        nv = icWorld_GetVertexCount(world);
        result[run] = malloc(sizeof(icReal) * 6 * (size_t)nv);
        IC_REQUIRE(result[run]);
        memcpy(result[run], icWorld_GetPositions(world), sizeof(icReal) * 3 * (size_t)nv);
        memcpy(result[run] + 3 * nv, icWorld_GetVelocities(world), sizeof(icReal) * 3 * (size_t)nv);
        icDestroyWorld(world);
    }
    IC_CHECK(memcmp(result[0], result[1], sizeof(icReal) * 6 * (size_t)nv) == 0);
    free(result[0]);
    free(result[1]);
}
