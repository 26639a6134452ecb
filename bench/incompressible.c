// SPDX-License-Identifier: MIT
// Figures of the incompressible solver (Irving et al. 2007): the sphere drop (Fig. 2) with the
// one-ring projections vs standard FEM at nu = 0.45 / 0.499, the plate squeeze (Fig. 6), and
// seconds per frame split into elastic, pressure and contact time.
// Usage: bench_incompressible drop [cells] [seconds] [csv] [png]  |  tori [count] [cells] [s]  |
//        plates [cells] [csv]  |
//        timing [cells] [frames] [workers] [steps per frame]   (2 workers, 10 steps unless told)  |
//        product [cells] [workers]   (ms per pressure iteration, AVX2 and portable kernels)  |
//        elastic [cells] [workers]   (ms per tet pass with K and per K product, as the implicit
//                                     half steps run them)
#define _POSIX_C_SOURCE 200809L
#include "isochor/incompressible.h"
#include "core/pool.h"
#include "fem/fem_internal.h"
#include "incompressible/pressure_internal.h"
#include "isochor/mesh.h"
#include "render/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { VARIANT_ONE_RING, VARIANT_NU045, VARIANT_NU0499 };
static const char *const s_names[] = {"one-ring", "fem nu=0.45", "fem nu=0.499"};

static const double R = 0.1, FPS = 24;
static double MU = 1e4, DROP_HEIGHT = 0.85;

// IC_VELOCITY_PROJECTION=auto|end|midpoint: where eq. 2 runs, for comparisons (default auto: at
// the end of the substep without self contact, at step 6 of the paper's list with it). Any other
// value stops the bench, so that a misspelt switch cannot be timed as if it were the default.
static icVelocityProjection velocityProjectionFromEnv(void) {
    const char *where = getenv("IC_VELOCITY_PROJECTION");
    for (int i = IC_VELOCITY_PROJECTION_AUTO; i <= IC_VELOCITY_PROJECTION_MIDPOINT; ++i)
        if (strcmp(where, icVelocityProjectionName((icVelocityProjection)i)) == 0)
            return (icVelocityProjection)i;
    fprintf(stderr, "IC_VELOCITY_PROJECTION: '%s' is not one of auto, end, midpoint\n", where);
    exit(2);
}

static icWorld *makeSphere(int cells, int variant, double height, bool gravity, int workers) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver = IC_SOLVER_INCOMPRESSIBLE;
    wd.workerCount = workers;
    if (!gravity) wd.gravity = icVec3_Make(0, 0, 0);
    wd.health.policy = IC_HEALTH_OFF;
    icWorld *w = icCreateWorld(&wd);
    icTetMesh mesh = {0};
    if (icGenerateSphere(&mesh, R, cells, 6) != IC_OK) return NULL;
    icSoftBodyDef bd = icDefaultSoftBodyDef();
    // Standard FEM gets a volumetric term of J (stable Neo-Hookean): corotated's lambda term
    // sees only tr(S) - 3 and lets a flattened tet lose volume for free.
    bd.model = variant == VARIANT_ONE_RING ? IC_MATERIAL_COROTATED : IC_MATERIAL_SNH;
    bd.poissonRatio = variant == VARIANT_NU045 ? 0.45 : (variant == VARIANT_NU0499 ? 0.499 : 0.5);
    bd.youngsModulus = 2 * MU * (1 + bd.poissonRatio);
    bd.translation = icVec3_Make(0, height, 0);
    icBodyId id;
    icResult r = icWorld_CreateSoftBody(w, &mesh, &bd, &id, NULL);
    icTetMesh_Destroy(&mesh);
    if (r != IC_OK) return NULL;
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.projections = variant == VARIANT_ONE_RING;
    d.volumetricScale = variant == VARIANT_ONE_RING ? 0 : 1;
    d.recoveryTime = 1.0 / (5 * FPS);
    if (getenv("IC_SOLVER_CG")) d.pressure.solver = IC_PRESSURE_CG;
    // IC_MAX_STEP_MOTION=0 turns the adaptive (CFL) substeps off, for comparisons.
    if (getenv("IC_MAX_STEP_MOTION")) d.maxStepMotion = atof(getenv("IC_MAX_STEP_MOTION"));
    if (getenv("IC_POSITION_TOLERANCE")) d.positionTolerance = atof(getenv("IC_POSITION_TOLERANCE"));
    // IC_RING_FLOOR=0: every ring's error against its own volume, as before 2026-11-22 (eighth).
    if (getenv("IC_RING_FLOOR")) d.ringErrorFloor = atof(getenv("IC_RING_FLOOR"));
    if (getenv("IC_NEWTON")) d.positionNewtonIterations = atoi(getenv("IC_NEWTON"));
    if (getenv("IC_STATIC_FRICTION")) d.staticFriction = atoi(getenv("IC_STATIC_FRICTION")) != 0;
    // IC_WARM_START=0: every pressure solve starts from zero, as before the warm start.
    if (getenv("IC_WARM_START")) d.warmStart = atoi(getenv("IC_WARM_START")) != 0;
    // IC_IMPLICIT_VELOCITY=0: the second half step without stiffness (delta = 0 in step 7 of
    // Irving et al. 2007, sec. 2).
    if (getenv("IC_IMPLICIT_VELOCITY"))
        d.implicitVelocitySolve = atoi(getenv("IC_IMPLICIT_VELOCITY")) != 0;
    // IC_LOCAL_LAYERS=0: every Newton solve of eq. 1 on the whole mesh, as before 2026-11-22.
    if (getenv("IC_LOCAL_LAYERS")) d.localNewtonLayers = atoi(getenv("IC_LOCAL_LAYERS"));
    if (getenv("IC_VELOCITY_PROJECTION")) d.velocityProjection = velocityProjectionFromEnv();
    icWorld_SetIncompressibleDef(w, &d);
    return w;
}

static double height(const icWorld *w) {
    const icReal *x = icWorld_GetPositions(w);
    double lo = INFINITY, hi = -INFINITY;
    for (int v = 0; v < icWorld_GetVertexCount(w); ++v) {
        lo = fmin(lo, x[3 * v + 1]);
        hi = fmax(hi, x[3 * v + 1]);
    }
    return hi - lo;
}

// Fig. 2: mu = 1e4 Pa, dropped from 0.75 m (3.8 m/s at impact) at dt = 1/240 s (the solver
// splits steps where vertices would move more than a tenth of an edge). Standard FEM uses the
// stable Neo-Hookean model (a volumetric term in J) with the same mu. Volume error over time goes to
// the CSV and a PNG plot.
static int drop(int cells, double seconds, FILE *csv, const char *png) {
    const double dt = 1.0 / 240;
    int steps = (int)(seconds / dt + 0.5);
    if (csv) fprintf(csv, "t,one_ring,nu045,nu0499\n");
    double *err = calloc((size_t)steps * 4, sizeof(double));
    for (int variant = 0; variant < 3; ++variant) {
        icWorld *w = makeSphere(cells, variant, DROP_HEIGHT, true, 1);
        if (!w) return 1;
        // Standard FEM at nu = 0.499 diverges on this impact with the default quarter-edge
        // substeps; every variant gets the same finer ones (IC_MAX_STEP_MOTION overrides).
        if (!getenv("IC_MAX_STEP_MOTION")) {
            icIncompressibleDef d = icWorld_GetIncompressibleDef(w);
            d.maxStepMotion = 0.1;
            icWorld_SetIncompressibleDef(w, &d);
        }
        icPlaneDef pd = icDefaultPlaneDef();
        icWorld_AddPlane(w, &pd);
        double maxErr = 0, minHeight = 2 * R, ms = 0, pIts = 0, fIts = 0;
        int failed = 0, substeps = 0, inverted = 0;
        for (int s = 0; s < steps; ++s) {
            icStepStats st;
            err[4 * s + 1 + variant] = NAN;
            if (icWorld_Step(w, dt, &st) != IC_OK) {
                failed = s + 1;
                break;
            }
            icIncompressibleStats is = icWorld_GetIncompressibleStats(w);
            ms += is.totalMs;
            pIts += is.positionIterations + is.velocityIterations;
            fIts += is.forceIterations;
            substeps += is.substeps;
            inverted = st.invertedTets > inverted ? st.invertedTets : inverted;
            double e = icWorld_GetVolumeRatio(w) - 1;
            err[4 * s] = (s + 1) * dt;
            err[4 * s + 1 + variant] = 100 * e;
            maxErr = fmax(maxErr, fabs(e));
            minHeight = fmin(minHeight, height(w));
        }
        printf("%-13s tets %d: max |dV/V| %.3f %%, peak flattening %.1f %%, %.2f ms/step, "
               "%.2f substeps/step, pressure its/substep %.1f, force CG its/substep %.1f, "
               "worst inverted tets %d%s\n",
               s_names[variant], icWorld_GetTetCount(w), 100 * maxErr,
               100 * (1 - minHeight / (2 * R)), ms / steps, (double)substeps / steps,
               pIts / substeps, fIts / substeps, inverted,
               failed ? " (FAILED)" : (!(maxErr < 1) ? " (DIVERGED: volume off by over 100 %)" : ""));
        icDestroyWorld(w);
    }
    if (csv)
        for (int s = 0; s < steps; ++s)
            fprintf(csv, "%g,%g,%g,%g\n", err[4 * s], err[4 * s + 1], err[4 * s + 2],
                    err[4 * s + 3]);
    if (png) {
        double *t = malloc(sizeof(double) * (size_t)steps * 4), *y = t + steps;
        for (int s = 0; s < steps; ++s) t[s] = (s + 1) * dt;
        for (int v = 0; v < 3; ++v)
            for (int s = 0; s < steps; ++s) y[v * steps + s] = err[4 * s + 1 + v];
        icPlotSeries series[3] = {{"ONE-RING (OURS)", steps, t, y, {30, 110, 200}},
                                  {"FEM NU 0.45", steps, t, y + steps, {210, 60, 40}},
                                  {"FEM NU 0.499", steps, t, y + 2 * steps, {40, 150, 60}}};
        icPlotDef def = {0};
        def.title = "SPHERE DROP: VOLUME ERROR";
        def.xLabel = "TIME (S)";
        def.yLabel = "V/V0 - 1 (%)";
        def.hasYRange = true; // room above zero for the legend
        def.yMin = -15;
        def.yMax = 10;
        icDiagnostic diag;
        if (icPlot_SavePng(png, &def, series, 3, &diag) != IC_OK)
            fprintf(stderr, "cannot write %s: %s\n", png, diag.message);
        free(t);
    }
    free(err);
    return 0;
}

// Fig. 6: plates touching the sphere at t = 0 close at constant speed, Dtau = 0, contact in
// both force solves; run down to 1.1 % of the thickness (where the paper stopped) unless a
// tet inverts first.
static int plates(int cells, FILE *csv) {
    const double dt = 1.0 / 2000, speed = 0.1; // plates meet at t = 1 s
    icWorld *w = makeSphere(cells, VARIANT_ONE_RING, 0, false, 1);
    if (!w) return 1;
    icIncompressibleDef d = icWorld_GetIncompressibleDef(w);
    d.recoveryTime = 0;
    d.contactInForceSolve = true;
    icWorld_SetIncompressibleDef(w, &d);
    double h0 = height(w);
    icMovingPlaneDef bottom = icDefaultMovingPlaneDef(), top = icDefaultMovingPlaneDef();
    bottom.normal = icVec3_Make(0, 1, 0);
    bottom.offset = -0.5 * h0;
    bottom.speed = speed;
    top.normal = icVec3_Make(0, -1, 0);
    top.offset = -0.5 * h0;
    top.speed = speed;
    icWorld_AddMovingPlane(w, &bottom);
    icWorld_AddMovingPlane(w, &top);
    double marks[3] = {0.001, 0.005, 0.01}, at[3] = {-1, -1, -1}, maxErr = 0;
    if (csv) fprintf(csv, "thickness_ratio,volume_error_percent\n");
    int steps = (int)(1.0 / dt);
    double reached = 1;
    for (int s = 0; s < steps; ++s) {
        icStepStats st;
        double ratio = 1 - 2 * speed * (s + 1) * dt / h0;
        if (ratio < 0.011) break; // the paper stopped at 1.1 %; at 0 the plates meet
        if (icWorld_Step(w, dt, &st) != IC_OK) break;
        double e = fabs(icWorld_GetVolumeRatio(w) - 1);
        if (!isfinite(e) || st.invertedTets > 0) break;
        reached = ratio;
        maxErr = fmax(maxErr, e);
        for (int k = 0; k < 3; ++k)
            if (at[k] < 0 && e > marks[k]) at[k] = ratio;
        if (csv && s % 20 == 0) fprintf(csv, "%g,%g\n", ratio, 100 * e);
    }
    printf("plates tets %d: error first > 0.1 %% at H/H0 = %.3f, > 0.5 %% at %.3f, > 1 %% at %.3f "
           "(-1 = never); reached H/H0 = %.3f without inversion, max error %.3f %%\n",
           icWorld_GetTetCount(w), at[0], at[1], at[2], reached, 100 * maxErr);
    icDestroyWorld(w);
    return 0;
}

// Fig. 5: `count` tori (major 0.08 m, minor 0.03 m) dropped into a 0.32 m box, tilted and
// stacked as scenes/incompressible/tori_pile.json; prints the worst per-torus volume error.
static int tori(int count, int cells, double seconds) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver = IC_SOLVER_INCOMPRESSIBLE;
    wd.health.policy = IC_HEALTH_OFF;
    icWorld *w = icCreateWorld(&wd);
    icBodyId ids[64];
    if (!w || count < 1 || count > 64) return 1;
    for (int b = 0; b < count; ++b) {
        icTetMesh mesh = {0};
        if (icGenerateTorus(&mesh, 0.08, 0.03, cells, 6) != IC_OK) return 1;
        double tilt = 0.35 * (b % 3 - 1);
        icMat3 R = icMat3_Rotation(icVec3_Make(cos(0.9 * b), 0, -sin(0.9 * b)), tilt);
        for (int v = 0; v < mesh.vertexCount; ++v)
            icVec3_Store(mesh.positions, v, icMat3_MulVec(R, icVec3_Load(mesh.positions, v)));
        icSoftBodyDef bd = icDefaultSoftBodyDef();
        bd.model = IC_MATERIAL_COROTATED;
        bd.poissonRatio = 0.5;
        bd.youngsModulus = 6e4;
        bd.translation = icVec3_Make(b % 2 ? 0.03 : -0.03, 0.12 + 0.16 * b, (b / 2) % 2 ? 0.03 : -0.03);
        icResult r = icWorld_CreateSoftBody(w, &mesh, &bd, &ids[b], NULL);
        icTetMesh_Destroy(&mesh);
        if (r != IC_OK) return 1;
    }
    icPlaneDef floor = icDefaultPlaneDef();
    floor.friction = 0.3;
    icWorld_AddPlane(w, &floor);
    static const double walls[4][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int i = 0; i < 4; ++i) {
        icPlaneDef p = floor;
        p.normal = icVec3_Make(walls[i][0], walls[i][1], walls[i][2]);
        p.offset = -0.16;
        icWorld_AddPlane(w, &p);
    }
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 1.0 / (5 * FPS);
    d.selfContact = true;
    d.proximity = 0.004;
    d.maxStepMotion = 0.15; // as scenes/incompressible/tori_pile.json (no inverted tet on the way)
    if (getenv("IC_MAX_STEP_MOTION")) d.maxStepMotion = atof(getenv("IC_MAX_STEP_MOTION"));
    if (getenv("IC_WARM_START")) d.warmStart = atoi(getenv("IC_WARM_START")) != 0;
    if (getenv("IC_LOCAL_LAYERS")) d.localNewtonLayers = atoi(getenv("IC_LOCAL_LAYERS"));
    if (getenv("IC_VELOCITY_PROJECTION")) d.velocityProjection = velocityProjectionFromEnv();
    icWorld_SetIncompressibleDef(w, &d);
    const double dt = 1.0 / 240;
    double worst = 0, pressure = 0, total = 0, contact = 0;
    int steps = (int)(seconds / dt + 0.5), maxPairs = 0;
    for (int s = 0; s < steps; ++s) {
        if (icWorld_Step(w, dt, NULL) != IC_OK) {
            printf("tori: step %d failed\n", s);
            break;
        }
        icIncompressibleStats is = icWorld_GetIncompressibleStats(w);
        pressure += is.pressureMs;
        contact += is.contactMs;
        total += is.totalMs;
        maxPairs = is.selfPairs > maxPairs ? is.selfPairs : maxPairs;
        for (int b = 0; b < count; ++b) worst = fmax(worst, fabs(icBody_GetVolumeRatio(w, ids[b]) - 1));
    }
    printf("tori %d x %d tets, %.2f s: worst per-torus |dV/V| %.3f %% (any step), %.0f ms/step "
           "(pressure solves %.0f %%, contact %.0f %%), up to %d proximity pairs\n",
           count, icWorld_GetTetCount(w) / count, seconds, 100 * worst, total / steps,
           100 * pressure / total, 100 * contact / total, maxPairs);
    icDestroyWorld(w);
    return 0;
}

// The sphere's centroid and mean velocity (vertex averages), its RMS and fastest vertex speed,
// and where that vertex is: a dropped sphere should come to rest where it landed.
static void printMotion(const icWorld *w) {
    const icReal *x = icWorld_GetPositions(w), *v = icWorld_GetVelocities(w);
    int n = icWorld_GetVertexCount(w), fastest = 0;
    double c[3] = {0, 0, 0}, vc[3] = {0, 0, 0}, squares = 0, vmax = -1;
    for (int i = 0; i < n; ++i) {
        double speed2 = 0;
        for (int a = 0; a < 3; ++a) {
            c[a] += x[3 * i + a] / n;
            vc[a] += v[3 * i + a] / n;
            speed2 += v[3 * i + a] * v[3 * i + a];
        }
        squares += speed2;
        if (speed2 > vmax) {
            vmax = speed2;
            fastest = i;
        }
    }
    fprintf(stderr,
            "  centroid (%.4f, %.4f, %.4f) m, mean v (%.3f, %.3f, %.3f) m/s, rms %.3f m/s, "
            "fastest %.3f m/s at (%.4f, %.4f, %.4f)\n",
            c[0], c[1], c[2], vc[0], vc[1], vc[2], sqrt(squares / n), sqrt(vmax), x[3 * fastest],
            x[3 * fastest + 1], x[3 * fastest + 2]);
}

static int timing(int cells, int frames, int workers, int stepsPerFrame) {
    icWorld *w = makeSphere(cells, VARIANT_ONE_RING, 2.5 * R, true, workers);
    if (!w) return 1;
    icPlaneDef pd = icDefaultPlaneDef();
    // IC_FRICTION: the ground's Coulomb coefficient (default 0.5).
    if (getenv("IC_FRICTION")) pd.friction = atof(getenv("IC_FRICTION"));
    // IC_MOTION=1: after each frame, where the sphere is and how fast its vertices move.
    bool motion = getenv("IC_MOTION") && atoi(getenv("IC_MOTION")) != 0;
    icWorld_AddPlane(w, &pd);
    const double dt = 1.0 / (FPS * stepsPerFrame);
    double el = 0, pr = 0, co = 0, tot = 0;
    int its = 0, forceIts = 0, substeps = 0, inverted = 0;
    double maxVolumeError = 0;
    // CPU time of all threads: on a busy machine, with one worker, close to what the frame
    // would take on an idle core (the wall-clock split below is what the solver measured).
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    for (int f = 0; f < frames; ++f) {
        int frameIts = 0, frameNewton = 0, frameSubsteps = 0, frameVel = 0, frameInverted = 0,
            frameForce = 0;
        double frameMs = 0;
        for (int s = 0; s < stepsPerFrame; ++s) {
            icStepStats st;
            if (icWorld_Step(w, dt, &st) != IC_OK) return 1;
            icIncompressibleStats is = icWorld_GetIncompressibleStats(w);
            el += is.elasticMs;
            pr += is.pressureMs;
            co += is.contactMs;
            tot += is.totalMs;
            its += is.positionIterations + is.velocityIterations;
            forceIts += is.forceIterations;
            substeps += st.substeps;
            inverted = st.invertedTets > inverted ? st.invertedTets : inverted;
            frameInverted = st.invertedTets > frameInverted ? st.invertedTets : frameInverted;
            maxVolumeError = fmax(maxVolumeError, fabs(icWorld_GetVolumeRatio(w) - 1));
            frameIts += is.positionIterations + is.velocityIterations;
            frameVel += is.velocityIterations;
            frameForce += is.forceIterations;
            frameNewton += is.positionNewtonIterations;
            frameSubsteps += st.substeps;
            frameMs += is.totalMs;
        }
        if (motion) printMotion(w);
        // Progress, and where the frame's pressure iterations went.
        fprintf(stderr,
                "frame %d: %.2f s, %d substeps, %d position Newton solves, pressure its %d "
                "(velocity %d), force CG its %d, height %.4f m, inverted tets %d\n",
                f + 1, frameMs / 1e3, frameSubsteps, frameNewton, frameIts, frameVel, frameForce,
                height(w), frameInverted);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
    printf("timing tets %d, %d steps/frame, %d workers: %.3f s/frame (elastic %.3f, pressure "
           "%.3f, contact %.3f; cpu %.3f s/frame), substeps/step %.2f, pressure its/step %.1f, "
           "force CG its/step %.1f, volume error %.3f %% (max %.3f %%), inverted tets %d, height "
           "%.4f m\n",
           icWorld_GetTetCount(w), stepsPerFrame, workers, tot / frames / 1e3, el / frames / 1e3,
           pr / frames / 1e3, co / frames / 1e3, cpu / frames,
           (double)substeps / (frames * stepsPerFrame), (double)its / (frames * stepsPerFrame),
           (double)forceIts / (frames * stepsPerFrame), 100 * (icWorld_GetVolumeRatio(w) - 1),
           100 * maxVolumeError, inverted, height(w));
    icDestroyWorld(w);
    return 0;
}

static double nowMs(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

// The pressure product alone: 200 MINRES iterations (no stopping test) on the sphere mesh,
// perturbed, with the AVX2 and the portable kernels alternated five times; the best time of
// each per iteration, and whether their pressures have the same bits.
static int product(int cells, int workers) {
    icTetMesh mesh = {0};
    if (icGenerateSphere(&mesh, R, cells, 6) != IC_OK) return 1;
    int n = mesh.vertexCount, T = mesh.tetCount;
    icReal *invMass = malloc(sizeof(icReal) * 3 * (size_t)n), *x = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *rhs = malloc(sizeof(icReal) * (size_t)n), *ph[2] = {malloc(sizeof(icReal) * (size_t)n),
                                                              malloc(sizeof(icReal) * (size_t)n)};
    icPool *pool = workers > 1 ? icCreatePool(workers, NULL, NULL, NULL) : NULL;
    icPressureSystem *s = NULL;
    int status = 1;
    if (!invMass || !x || !rhs || !ph[0] || !ph[1] || (workers > 1 && !pool)) goto done;
    for (int i = 0; i < 3 * n; ++i) {
        invMass[i] = 1.0 + 0.001 * (i % 7);
        x[i] = mesh.positions[i] * (1 + 0.01 * (double)((i * 2654435761u) % 100) / 100.0);
    }
    for (int k = 0; k < n; ++k) rhs[k] = (double)((k * 40503u) % 1000) / 1000.0 - 0.5;
    if (!(s = icCreatePressureSystem(n, mesh.tets, T, invMass))) goto done;
    if (pool) icPressureSystem_SetPool(s, pool);
    icPressureSystem_Setup(s, x);
    icPressureDef def = icDefaultPressureDef();
    def.tolerance = 0;
    def.absoluteTolerance = 0;
    def.maxIterations = 200;
    double best[2] = {INFINITY, INFINITY};
    int its = 0;
    for (int round = 0; round < 5; ++round)
        for (int k = 0; k < 2; ++k) {
            icPressureSystem_UseWideKernels(s, k == 0);
            double t0 = nowMs();
            its = icPressureSystem_Solve(s, NULL, &def, 1.0, rhs, NULL, ph[k], NULL);
            best[k] = fmin(best[k], (nowMs() - t0) / its);
        }
    printf("product: %d tets, %d vertices, %d workers: %.3f ms per iteration with the AVX2 kernel "
           "(the portable one if the CPU lacks it), %.3f portable; %s bits\n",
           T, n, workers, best[0], best[1],
           memcmp(ph[0], ph[1], sizeof(icReal) * (size_t)n) == 0 ? "same" : "DIFFERENT");
    status = 0;
done:
    icDestroyPressureSystem(s);
    icDestroyPool(pool);
    free(invMass);
    free(x);
    free(rhs);
    free(ph[0]);
    free(ph[1]);
    icTetMesh_Destroy(&mesh);
    return status;
}

// The elastic half step's two kernels on the sphere, its vertices moved by up to 10 % of a cell
// (so the SVDs sweep as in a collision): the tet pass (forces, SVDs, projected corotated K
// assembled) and the product (M + h^2 K) w of the CG. Fastest of 20 of each.
static int elastic(int cells, int workers) {
    icTetMesh mesh = {0};
    if (icGenerateSphere(&mesh, R, cells, 6) != IC_OK) return 1;
    int n = mesh.vertexCount, T = mesh.tetCount;
    icReal *x = malloc(sizeof(icReal) * 3 * (size_t)n), *f = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *w = malloc(sizeof(icReal) * 3 * (size_t)n), *y = malloc(sizeof(icReal) * 3 * (size_t)n);
    icPool *pool = icCreatePool(workers, NULL, NULL, NULL);
    icMaterial mat = icMaterial_FromLame(IC_MATERIAL_COROTATED, MU, 0);
    mat.density = 1000;
    icFemModel fem = {0};
    int status = 1;
    if (!x || !f || !w || !y || !pool ||
        icFemModel_CreateEx(&fem, n, mesh.positions, T, mesh.tets, 1, &mat, NULL, true, NULL) !=
            IC_OK)
        goto done;
    if (icFemModel_SetPool(&fem, pool) != IC_OK) goto done;
    double cell = 2 * R / cells;
    for (int i = 0; i < 3 * n; ++i) {
        unsigned h = (unsigned)i * 2654435761u;
        x[i] = mesh.positions[i] + 0.1 * cell * ((double)(h % 1000) / 1000.0 - 0.5);
        w[i] = (double)((h >> 10) % 1000) / 1000.0 - 0.5;
    }
    double pass = INFINITY, prod = INFINITY, sum = 0;
    for (int round = 0; round < 20; ++round) {
        memset(f, 0, sizeof(icReal) * 3 * (size_t)n);
        double t0 = nowMs();
        icFem_Evaluate(&fem, x, f, true, true);
        double t1 = nowMs();
        icFem_TangentProduct(&fem, 1e-6, 1.0, w, y);
        double t2 = nowMs();
        pass = fmin(pass, t1 - t0);
        prod = fmin(prod, t2 - t1);
        sum += y[round] + f[round];
    }
    printf(
        "elastic: %d tets, %d vertices, %d workers: %.3f ms per tet pass (forces and K), %.3f ms "
        "per K product (checksum %.17g)\n",
        T, n, workers, pass, prod, sum);
    status = 0;
done:
    icFemModel_Destroy(&fem);
    icDestroyPool(pool);
    free(x);
    free(f);
    free(w);
    free(y);
    icTetMesh_Destroy(&mesh);
    return status;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "drop";
    if (getenv("IC_MU")) MU = atof(getenv("IC_MU"));
    if (getenv("IC_DROP_HEIGHT")) DROP_HEIGHT = atof(getenv("IC_DROP_HEIGHT"));
    int cells = argc > 2 ? atoi(argv[2]) : 12;
    if (strcmp(mode, "drop") == 0) {
        FILE *csv = argc > 4 ? fopen(argv[4], "w") : NULL;
        int r = drop(cells, argc > 3 ? atof(argv[3]) : 1.0, csv, argc > 5 ? argv[5] : NULL);
        if (csv) fclose(csv);
        return r;
    }
    if (strcmp(mode, "tori") == 0)
        return tori(argc > 2 ? atoi(argv[2]) : 8, argc > 3 ? atoi(argv[3]) : 8,
                    argc > 4 ? atof(argv[4]) : 1.5);
    if (strcmp(mode, "plates") == 0) {
        FILE *csv = argc > 3 ? fopen(argv[3], "w") : NULL;
        int r = plates(cells, csv);
        if (csv) fclose(csv);
        return r;
    }
    if (strcmp(mode, "timing") == 0)
        return timing(cells, argc > 3 ? atoi(argv[3]) : 2, argc > 4 ? atoi(argv[4]) : 2,
                      argc > 5 ? atoi(argv[5]) : 10);
    if (strcmp(mode, "product") == 0) return product(cells, argc > 3 ? atoi(argv[3]) : 2);
    if (strcmp(mode, "elastic") == 0) return elastic(cells, argc > 3 ? atoi(argv[3]) : 2);
    fprintf(stderr,
            "usage: bench_incompressible drop|tori|plates|timing|product|elastic [cells] ...\n");
    return 2;
}
