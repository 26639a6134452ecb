// SPDX-License-Identifier: MIT
// The comparison of Macklin & Müller 2021 (Table 1, Figs. 4-5): projected Newton against XPBD
// on the same MM energy, on the stretch test at five Poisson ratios and on the 2 x 90 degree
// cube twist.
// Every scene is loaded from scenes/ and run frame by frame through icScene_Run (no output
// files); Newton's counts come from icWorld_GetNewtonStats after each frame. XPBD's end
// states are measured (energy, force imbalance) with the Newton twin scene's model, and a
// reference equilibrium path (projected, then exact-Hessian Newton) anchors the stretch rows.
// Usage: bench_newton_vs_xpbd [stretch|twist] (default: both)
#define _POSIX_C_SOURCE 200809L
#include "isochor/fem.h"
#include "isochor/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IC_BENCH_MAX_FRAMES 64

/// What one run of a scene did, in total and per frame.
typedef struct icRunLog {
    bool newton;
    int frames;
    double seconds;               ///< solver time
    double volume;                ///< V/V0 at the end
    long iterations;              ///< Newton iterations, or XPBD sweeps
    long cgIterations;            ///< Newton only
    int notConverged;
    double maxResidual;           ///< Newton: largest final |f|_inf of a frame, N
    double assemblyMs, solveMs;   ///< Newton: summed evaluation + assembly, PCG
    int frameIterations[IC_BENCH_MAX_FRAMES];
    long frameCg[IC_BENCH_MAX_FRAMES];
    bool frameConverged[IC_BENCH_MAX_FRAMES];
    double frameSeconds[IC_BENCH_MAX_FRAMES];
    double frameVolume[IC_BENCH_MAX_FRAMES];
    double frameEnergy[IC_BENCH_MAX_FRAMES];   ///< elastic energy at the end of the frame, J
    double frameResidual[IC_BENCH_MAX_FRAMES]; ///< |f|_inf over free DOFs there, N
} icRunLog;

static void fail(const char *what, const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "bench_newton_vs_xpbd: %s: %s\n", what, text);
    exit(1);
}

static void load(const char *relative, icScene *scene) {
    char path[1024];
    snprintf(path, sizeof path, "%s/scenes/%s", IC_SOURCE_DIR, relative);
    icDiagnostic diag = {0};
    if (icScene_Load(path, scene, &diag) != IC_OK) fail(relative, &diag);
    if (scene->mode != IC_MODE_STATIC || scene->frames > IC_BENCH_MAX_FRAMES) {
        fprintf(stderr, "bench_newton_vs_xpbd: %s: expected a static scene of at most %d frames\n",
                relative, IC_BENCH_MAX_FRAMES);
        exit(1);
    }
}

// Energy and force imbalance of the state x under the Newton twin's model (pins at the
// twin's current time): a Newton solve whose tolerance holds at once evaluates them without
// moving anything. The twin's solver settings are restored afterwards.
static void evaluate(icScene *twin, const icReal *x, double *energy, double *residual) {
    int n = 3 * icWorld_GetVertexCount(twin->world);
    memcpy(icWorld_GetPositionsMutable(twin->world), x, sizeof(icReal) * (size_t)n);
    icNewtonDef saved = icWorld_GetNewtonDef(twin->world), def = saved;
    def.absoluteTolerance = 1e300;
    icWorld_SetNewtonDef(twin->world, &def);
    icStepStats stats;
    icWorld_SolveStatic(twin->world, &twin->staticDef, &stats);
    icNewtonStats ns = icWorld_GetNewtonStats(twin->world);
    *energy = ns.energy;
    *residual = ns.initialResidual;
    icWorld_SetNewtonDef(twin->world, &saved);
}

// Runs the scene's frames one at a time through the scene runner. With a Newton twin (same
// mesh and pins), each frame's end state is also evaluated under the twin's model.
static void run(icScene *scene, icScene *twin, icRunLog *log) {
    memset(log, 0, sizeof *log);
    log->newton = icWorld_GetDef(scene->world).solver == IC_SOLVER_NEWTON;
    if (twin && icWorld_GetVertexCount(twin->world) != icWorld_GetVertexCount(scene->world)) {
        fprintf(stderr, "bench_newton_vs_xpbd: %s: the twin has another mesh\n", twin->path);
        exit(1);
    }
    icRunOptions options = icDefaultRunOptions();
    options.frames = 1;
    options.writeOutput = false;
    options.progress = false;
    for (int f = 0; f < scene->frames; ++f) {
        icRunSummary summary;
        icDiagnostic diag = {0};
        if (icScene_Run(scene, &options, &summary, &diag) != IC_OK) fail(scene->path, &diag);
        double seconds = 1e-3 * summary.msPerFrame * summary.frames;
        log->seconds += seconds;
        log->volume = summary.volumeRatioFinal;
        log->notConverged += summary.notConverged;
        log->frameSeconds[f] = seconds;
        log->frameVolume[f] = summary.volumeRatioFinal;
        log->frameConverged[f] = summary.notConverged == 0;
        if (log->newton) {
            icNewtonStats ns = icWorld_GetNewtonStats(scene->world);
            log->frameIterations[f] = ns.iterations;
            log->frameCg[f] = ns.cgIterations;
            log->frameEnergy[f] = ns.energy;
            log->frameResidual[f] = ns.residual;
            log->cgIterations += ns.cgIterations;
            log->maxResidual = fmax(log->maxResidual, ns.residual);
            log->assemblyMs += ns.assemblyMilliseconds;
            log->solveMs += ns.solveMilliseconds;
        } else {
            log->frameIterations[f] = (int)summary.sweepsTotal;
        }
        if (twin) {
            icWorld_AdvanceTime(twin->world, twin->dt);
            evaluate(twin, icWorld_GetPositions(scene->world), &log->frameEnergy[f],
                     &log->frameResidual[f]);
        }
        log->iterations += log->frameIterations[f];
        log->frames = f + 1;
    }
}

/// The exact equilibrium path of a Newton scene, for reference.
typedef struct icReference {
    double volume, energy, maxResidual;
    int iterations, notConverged;
} icReference;

// Per load step: projected Newton for up to 10 iterations, then, if that has not converged,
// up to 60 iterations with the exact Hessian. Projection clamps the negative twist
// eigenvalues of stretched tets, which makes projected Newton converge only linearly near
// these equilibria; the exact Hessian, positive definite there, converges quadratically.
static icReference reference(const char *newtonPath) {
    icScene scene;
    load(newtonPath, &scene);
    icReference ref = {0};
    icNewtonDef def = icWorld_GetNewtonDef(scene.world);
    for (int f = 0; f < scene.frames; ++f) {
        icWorld_AdvanceTime(scene.world, scene.dt);
        icResult r = IC_ERR_NOT_CONVERGED;
        for (int pass = 0; pass < 2 && r != IC_OK; ++pass) {
            def.projectHessian = pass == 0;
            def.maxIterations = pass == 0 ? 10 : 60;
            icWorld_SetNewtonDef(scene.world, &def);
            icStepStats stats;
            r = icWorld_SolveStatic(scene.world, &scene.staticDef, &stats);
            icNewtonStats ns = icWorld_GetNewtonStats(scene.world);
            ref.iterations += ns.iterations;
            ref.energy = ns.energy;
            if (r == IC_OK || pass == 1) ref.maxResidual = fmax(ref.maxResidual, ns.residual);
        }
        ref.notConverged += r != IC_OK;
    }
    ref.volume = icWorld_GetVolumeRatio(scene.world);
    icScene_Destroy(&scene);
    return ref;
}

static void stretchTable(void) {
    static const char *const nus[] = {"0.41", "0.45", "0.49", "0.495", "0.4995"};
    enum { count = 5 };
    icRunLog newton[count], xpbd[count], fixed[count];
    icReference ref[count];
    for (int i = 0; i < count; ++i) {
        char newtonPath[256], xpbdPath[256];
        snprintf(newtonPath, sizeof newtonPath, "newton/stretch_nu%s.json", nus[i]);
        snprintf(xpbdPath, sizeof xpbdPath, "stretch/clamped_nu%s.json", nus[i]);
        icScene scene, twin;
        load(newtonPath, &scene);
        run(&scene, NULL, &newton[i]);
        icScene_Destroy(&scene);
        ref[i] = reference(newtonPath);

        load(xpbdPath, &scene);
        load(newtonPath, &twin);
        run(&scene, &twin, &xpbd[i]);
        icScene_Destroy(&scene);
        icScene_Destroy(&twin);

        // The paper's protocol: a fixed 64 sweeps per load step, no convergence test.
        load(xpbdPath, &scene);
        load(newtonPath, &twin);
        scene.staticDef.maxSweeps = 64;
        scene.staticDef.tolerance = 0;
        run(&scene, &twin, &fixed[i]);
        icScene_Destroy(&scene);
        icScene_Destroy(&twin);
        fprintf(stderr, "stretch nu %s done\n", nus[i]);
    }

    printf("\nStretch test: cube [-1,1]^3, 10^3 cells x 6 tets (1331 vertices, 6000 tets), "
           "faces pulled 0.1 m apart per step, 25 static steps, material mm, E = 1e5 Pa.\n\n");
    printf("| nu | Newton V/V0 | time (s) | Newton it | CG it | not conv. | XPBD V/V0 | "
           "time (s) | sweeps | not conv. | XPBD-64 V/V0 | time (s) | sweeps |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < count; ++i)
        printf("| %s | %.6f | %.2f | %ld | %ld | %d | %.6f | %.2f | %ld | %d | %.6f | %.2f | "
               "%ld |\n",
               nus[i], newton[i].volume, newton[i].seconds, newton[i].iterations,
               newton[i].cgIterations, newton[i].notConverged, xpbd[i].volume, xpbd[i].seconds,
               xpbd[i].iterations, xpbd[i].notConverged, fixed[i].volume, fixed[i].seconds,
               fixed[i].iterations);

    printf("\nEnd states: elastic energy E (J) and force imbalance f max = |f|_inf over the "
           "free DOFs (N), both measured with the Newton scene's model. Reference: every load "
           "step solved to the scene's tolerance by 10 projected Newton iterations, then the "
           "exact Hessian.\n\n");
    printf("| nu | reference V/V0 | reference E | ref. Newton it | ref. not conv. | Newton E | "
           "Newton f max | XPBD E | XPBD f max | XPBD-64 E | XPBD-64 f max |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < count; ++i) {
        int last = newton[i].frames - 1;
        printf("| %s | %.6f | %.8g | %d | %d | %.8g | %.3g | %.8g | %.3g | %.8g | %.3g |\n",
               nus[i], ref[i].volume, ref[i].energy, ref[i].iterations, ref[i].notConverged,
               newton[i].frameEnergy[last], newton[i].frameResidual[last],
               xpbd[i].frameEnergy[last], xpbd[i].frameResidual[last],
               fixed[i].frameEnergy[last], fixed[i].frameResidual[last]);
    }

    printf("\nNewton per Newton iteration (times summed over the 25 solves, divided by the "
           "iterations):\n\n");
    printf("| nu | ms per Newton it | eval + assembly (ms) | PCG (ms) | line search + other (ms) | "
           "CG it per Newton it | ms per CG it |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < count; ++i) {
        const icRunLog *n = &newton[i];
        double its = (double)n->iterations, total = 1e3 * n->seconds;
        printf("| %s | %.2f | %.2f | %.2f | %.2f | %.1f | %.4f |\n", nus[i], total / its,
               n->assemblyMs / its, n->solveMs / its, (total - n->assemblyMs - n->solveMs) / its,
               n->cgIterations / its, n->solveMs / (double)n->cgIterations);
    }
}

static void twistTable(void) {
    icRunLog newton, xpbd;
    icScene scene, twin;
    load("newton/twist_2x90.json", &scene);
    run(&scene, NULL, &newton);
    icScene_Destroy(&scene);
    load("twist/twist_2x90.json", &scene);
    load("newton/twist_2x90.json", &twin);
    run(&scene, &twin, &xpbd);
    icScene_Destroy(&scene);

    printf("\nCube twist: 15^3 cells x 6 tets (4096 vertices, 20250 tets), nu 0.45, bottom face "
           "held, top face turned 90 degrees per static solve, material mm; E and f max = "
           "|f|_inf over the free DOFs measured with the Newton scene's model.\n\n");
    printf("| turn | Newton it | CG it | conv. | time (s) | V/V0 | E (J) | f max (N) | "
           "XPBD sweeps | conv. | time (s) | V/V0 | E (J) | f max (N) |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int f = 0; f < newton.frames; ++f)
        printf("| %d | %d | %ld | %s | %.2f | %.6f | %.6g | %.3g | %d | %s | %.2f | %.6f | %.6g | "
               "%.3g |\n",
               f + 1, newton.frameIterations[f], newton.frameCg[f],
               newton.frameConverged[f] ? "yes" : "no", newton.frameSeconds[f],
               newton.frameVolume[f], newton.frameEnergy[f], newton.frameResidual[f],
               xpbd.frameIterations[f], xpbd.frameConverged[f] ? "yes" : "no",
               xpbd.frameSeconds[f], xpbd.frameVolume[f], xpbd.frameEnergy[f],
               xpbd.frameResidual[f]);

    // Newton started from XPBD's end state (the twin holds it): does it stay near it (another
    // equilibrium) or move to Newton's own?
    enum { polishIterations = 100 };
    icNewtonDef def = icWorld_GetNewtonDef(twin.world);
    def.maxIterations = polishIterations;
    icWorld_SetNewtonDef(twin.world, &def);
    icStepStats stats;
    icResult r = icWorld_SolveStatic(twin.world, &twin.staticDef, &stats);
    icNewtonStats ns = icWorld_GetNewtonStats(twin.world);
    printf("\nNewton from XPBD's end state (at most %d iterations): %d iterations, %s, "
           "|f|_inf %.3g -> %.3g N, E = %.6g J, V/V0 = %.6f, %d inverted tets.\n",
           polishIterations, ns.iterations, r == IC_OK ? "converged" : "not converged",
           ns.initialResidual, ns.residual, ns.energy, icWorld_GetVolumeRatio(twin.world),
           stats.invertedTets);
    icScene_Destroy(&twin);
}

int main(int argc, char **argv) {
    bool stretch = argc < 2 || strcmp(argv[1], "stretch") == 0;
    bool twist = argc < 2 || strcmp(argv[1], "twist") == 0;
    if (!stretch && !twist) {
        fprintf(stderr, "usage: bench_newton_vs_xpbd [stretch|twist]\n");
        return 2;
    }
    if (stretch) stretchTable();
    if (twist) twistTable();
    return 0;
}
