// SPDX-License-Identifier: MIT
// Figures of the incompressible solver (seed 003): the sphere drop (Fig. 2) with the one-ring
// projections vs standard FEM at nu = 0.45 / 0.499, the plate squeeze (Fig. 6), and seconds
// per frame split into elastic, pressure and contact time.
// Usage: bench_incompressible drop [cells] [seconds] [csv]  |  plates [cells] [csv]  |
//        timing [cells] [frames] [workers] [steps per frame]   (2 workers, 10 steps unless told)
#define _POSIX_C_SOURCE 200809L
#include "isochor/incompressible.h"
#include "isochor/mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { VARIANT_ONE_RING, VARIANT_NU045, VARIANT_NU0499 };
static const char *const s_names[] = {"one-ring", "fem nu=0.45", "fem nu=0.499"};

static const double R = 0.1, MU = 2e4, FPS = 24;

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
    bd.model = IC_MATERIAL_COROTATED;
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

static int drop(int cells, double seconds, FILE *csv) {
    const double dt = 1.0 / 960; // impact at 1/240 s moves nodes ~30 % of an element a step
    int steps = (int)(seconds / dt + 0.5);
    if (csv) fprintf(csv, "t,one_ring,nu045,nu0499\n");
    double *err = calloc((size_t)steps * 3, sizeof(double));
    for (int variant = 0; variant < 3; ++variant) {
        icWorld *w = makeSphere(cells, variant, 2.5 * R, true, 1);
        if (!w) return 1;
        icPlaneDef pd = icDefaultPlaneDef();
        icWorld_AddPlane(w, &pd);
        double maxErr = 0, minHeight = 2 * R, ms = 0, pIts = 0, fIts = 0;
        int failed = 0;
        for (int s = 0; s < steps; ++s) {
            icStepStats st;
            if (icWorld_Step(w, dt, &st) != IC_OK) {
                failed = s + 1;
                break;
            }
            icIncompressibleStats is = icWorld_GetIncompressibleStats(w);
            ms += is.totalMs;
            pIts += is.positionIterations + is.velocityIterations;
            fIts += is.forceIterations;
            double e = icWorld_GetVolumeRatio(w) - 1;
            err[3 * s + variant] = e;
            maxErr = fmax(maxErr, fabs(e));
            minHeight = fmin(minHeight, height(w));
        }
        printf("%-13s tets %d: max |dV/V| %.3f %%, peak flattening %.1f %%, %.2f ms/step, "
               "pressure its/step %.1f, force CG its/step %.1f%s\n",
               s_names[variant], icWorld_GetTetCount(w), 100 * maxErr,
               100 * (1 - minHeight / (2 * R)), ms / steps, pIts / steps, fIts / steps,
               failed ? " (FAILED)" : "");
        icDestroyWorld(w);
    }
    if (csv)
        for (int s = 0; s < steps; ++s)
            fprintf(csv, "%g,%g,%g,%g\n", (s + 1) * dt, 100 * err[3 * s], 100 * err[3 * s + 1],
                    100 * err[3 * s + 2]);
    free(err);
    return 0;
}

// Fig. 6: plates touching the sphere at t = 0 close at constant speed, Dtau = 0, contact in
// both force solves.
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
        if (icWorld_Step(w, dt, &st) != IC_OK) break;
        double ratio = 1 - 2 * speed * (s + 1) * dt / h0;
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

static int timing(int cells, int frames, int workers, int stepsPerFrame) {
    icWorld *w = makeSphere(cells, VARIANT_ONE_RING, 2.5 * R, true, workers);
    if (!w) return 1;
    icPlaneDef pd = icDefaultPlaneDef();
    icWorld_AddPlane(w, &pd);
    const double dt = 1.0 / (FPS * stepsPerFrame);
    double el = 0, pr = 0, co = 0, tot = 0;
    int its = 0, forceIts = 0, substeps = 0, inverted = 0;
    double maxVolumeError = 0;
    // CPU time of all threads: on a busy machine, with one worker, close to what the frame
    // would take on an idle core (the wall-clock split below is what the solver measured).
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    for (int f = 0; f < frames; ++f)
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
            maxVolumeError = fmax(maxVolumeError, fabs(icWorld_GetVolumeRatio(w) - 1));
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

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "drop";
    int cells = argc > 2 ? atoi(argv[2]) : 12;
    if (strcmp(mode, "drop") == 0) {
        FILE *csv = argc > 4 ? fopen(argv[4], "w") : NULL;
        int r = drop(cells, argc > 3 ? atof(argv[3]) : 1.0, csv);
        if (csv) fclose(csv);
        return r;
    }
    if (strcmp(mode, "plates") == 0) {
        FILE *csv = argc > 3 ? fopen(argv[3], "w") : NULL;
        int r = plates(cells, csv);
        if (csv) fclose(csv);
        return r;
    }
    if (strcmp(mode, "timing") == 0)
        return timing(cells, argc > 3 ? atoi(argv[3]) : 2, argc > 4 ? atoi(argv[4]) : 2,
                      argc > 5 ? atoi(argv[5]) : 10);
    fprintf(stderr, "usage: bench_incompressible drop|plates|timing [cells] ...\n");
    return 2;
}
