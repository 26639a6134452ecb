// SPDX-License-Identifier: MIT
// Serial XPBD throughput (tet-constraint projections per second) on box meshes of ~10k, 100k
// and 1M tets, and the paper's stretch-test table (volume ratio and time per Poisson ratio).
// Usage: bench_xpbd_core [--quick] [--no-stretch]
#include "isochor/io.h"
#include "isochor/isochor.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double nowSeconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// One tet projection = its deviatoric and hydrostatic constraint (Algorithm 1's inner body).
static void throughput(int cells, icProjection projection) {
    icTetMesh mesh = {0};
    int c[3] = {cells, cells, cells};
    icGenerateBox(&mesh, icVec3_Make(1, 1, 1), c, 6);
    icWorldDef wdef = icDefaultWorldDef();
    wdef.substeps = 10;
    wdef.maxSubstepStrain = 0; // a fixed substep count: rates are per substep
    wdef.workerCount = 1;      // the serial figure this bench prints
    wdef.precision = IC_PRECISION_DOUBLE; // the reference arithmetic (bench_xpbd times float)
    wdef.projection = projection;
    icWorld *world = icCreateWorld(&wdef);
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.poissonRatio = 0.49;
    icBodyId body;
    icWorld_CreateSoftBody(world, &mesh, &bdef, &body, NULL);
    icPinDef pin = icDefaultPinDef();
    pin.boxMin = icVec3_Make(-1, -1, -1);
    pin.boxMax = icVec3_Make(-0.499, 1, 1);
    icBody_AddPin(world, body, &pin, NULL);
    int tets = icWorld_GetTetCount(world);
    icWorld_Step(world, 1.0 / 60.0, NULL); // warm-up: colouring, caches
    // Time enough steps for ~1 s of work, median of 5 repeats.
    int steps = (int)(2e7 / (10.0 * tets)) + 1;
    double rates[5];
    for (int r = 0; r < 5; ++r) {
        double t0 = nowSeconds();
        for (int s = 0; s < steps; ++s) icWorld_Step(world, 1.0 / 60.0, NULL);
        double seconds = nowSeconds() - t0;
        rates[r] = (double)tets * 10.0 * steps / seconds;
    }
    for (int i = 0; i < 5; ++i) // sort for the median
        for (int j = i + 1; j < 5; ++j)
            if (rates[j] < rates[i]) {
                double t = rates[i];
                rates[i] = rates[j];
                rates[j] = t;
            }
    printf("| %9d | %-10s | %7.2f | %10.1f |\n", tets,
           projection == IC_PROJECTION_COUPLED ? "coupled" : "sequential", rates[2] / 1e6,
           1e9 / rates[2]);
    icDestroyWorld(world);
    icTetMesh_Destroy(&mesh);
}

static void stretchTable(void) {
    static const char *const nus[] = {"0.41", "0.45", "0.49", "0.495", "0.4995"};
    static const char *const paper[] = {"1.25", "1.13", "1.02", "1.01", "1.001"};
    printf("\nStretch test (scenes/stretch/clamped_nu*.json: 6000 tets, 25 static load steps, each\n"
           "solved by dynamic relaxation to 1e-6; paper: XPBD with 64 fixed iterations)\n\n");
    printf("| nu     | V/V0 (ours) | V/V0 (paper XPBD) | sweeps | seconds |\n");
    printf("|--------|-------------|-------------------|--------|---------|\n");
    for (int i = 0; i < 5; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/scenes/stretch/clamped_nu%s.json", IC_SOURCE_DIR, nus[i]);
        icScene scene;
        icDiagnostic diag;
        if (icScene_Load(path, &scene, &diag) != IC_OK) {
            printf("cannot load %s: %s\n", path, diag.message);
            continue;
        }
        icRunOptions options = icDefaultRunOptions();
        options.writeOutput = false;
        icRunSummary s;
        double t0 = nowSeconds();
        icScene_Run(&scene, &options, &s, &diag);
        double seconds = nowSeconds() - t0;
        printf("| %-6s | %11.4f | %17s | %6ld | %7.2f |\n", nus[i], s.volumeRatioFinal, paper[i],
               s.sweepsTotal, seconds);
        icScene_Destroy(&scene);
    }
}

int main(int argc, char **argv) {
    bool quick = false, stretch = true;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) quick = true;
        else if (strcmp(argv[i], "--no-stretch") == 0) stretch = false;
        else {
            fprintf(stderr, "usage: %s [--quick] [--no-stretch]\n", argv[0]);
            return 2;
        }
    }
    printf("Serial XPBD (double), one thread, 10 substeps x 1 iteration, box meshes (6 tets per cell)\n\n");
    printf("| tets      | projection | M proj/s | ns per tet |\n");
    printf("|-----------|------------|----------|------------|\n");
    int sizes[3] = {12, 26, 56}; // 10,368 / 105,456 / 1,053,696 tets
    for (int i = 0; i < (quick ? 2 : 3); ++i) throughput(sizes[i], IC_PROJECTION_SEQUENTIAL);
    for (int i = 0; i < (quick ? 2 : 3); ++i) throughput(sizes[i], IC_PROJECTION_COUPLED);
    if (stretch) stretchTable();
    return 0;
}
