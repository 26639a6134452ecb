// SPDX-License-Identifier: MIT
// Step time and memory against size for every solver (docs/performance.md, "Scaling"): XPBD,
// incompressible and Newton on a box of 6-tet cells hanging from one face under gravity, from
// ~10k to ~4M tets; VIPER rods on a bundle of upright rods falling onto each other and a
// floor, from ~10k to ~1M segments. Each world has the library's defaults (automatic workers,
// float XPBD sweeps) except a fixed substep count for XPBD (20; adaptive substeps would make
// the work depend on how each size swings). Prints one table row per run and, with --plot,
// a log-log PNG of the time per step.
//
// Usage: bench_scaling [--quick] [--plot FILE.png] [--max-step-seconds S] [--solver NAME]...
//   --quick: the two smallest sizes only. A size whose step would take longer than S seconds
//   (default 120), judged from the size before it at linear cost, or whose memory would pass
//   half the machine's, is not run and its row says why.
#include "isochor/isochor.h"
#include "isochor/rod.h"
#include "render/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double nowSeconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum { IC_KINDS = 4, IC_SIZES = 4 };
static const char *const s_kinds[IC_KINDS] = {"xpbd", "incompressible", "newton", "rods"};
// Box cells per side (6 n^3 tets: 10,368 / 105,456 / 998,250 / 4,088,832) and rod bundle sides
// (20 n^2 segments: 9,680 / 100,820 / 1,003,520; rods stop at 1M).
static const int s_cells[IC_SIZES] = {12, 26, 55, 88};
static const int s_rodSides[IC_SIZES] = {22, 71, 224, 0};

typedef struct icScalingRow {
    int kind;
    long long size; ///< tets or segments
    int workers;
    double buildSeconds; ///< creating the world and its bodies
    double firstStep;    ///< seconds; builds the solver's caches and layout
    double stepSeconds;  ///< mean over the timed steps after the first
    int steps;
    double bytes;        ///< library memory after the first step
    const char *skipped; ///< why it did not run (NULL: it ran)
} icScalingRow;

static bool tetWorld(int kind, int cells, icWorld **out) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver =
        kind == 0 ? IC_SOLVER_XPBD : (kind == 1 ? IC_SOLVER_INCOMPRESSIBLE : IC_SOLVER_NEWTON);
    wd.maxSubstepStrain = 0;
    wd.health.policy = IC_HEALTH_OFF;
    icWorld *w = icCreateWorld(&wd);
    *out = w;
    icTetMesh mesh = {0};
    int c[3] = {cells, cells, cells};
    if (!w || icGenerateBox(&mesh, icVec3_Make(1, 1, 1), c, 6) != IC_OK) return false;
    icSoftBodyDef bd = icDefaultSoftBodyDef();
    bd.youngsModulus = 1e6;
    bd.poissonRatio = 0.45;
    if (kind == 1) { // the incompressible solver's elastic part is corotated, nu = 0.5
        bd.model = IC_MATERIAL_COROTATED;
        bd.poissonRatio = 0.5;
    }
    icBodyId id;
    icResult r = icWorld_CreateSoftBody(w, &mesh, &bd, &id, NULL);
    icTetMesh_Destroy(&mesh);
    if (r != IC_OK) return false;
    icPinDef pin = icDefaultPinDef();
    pin.boxMin = icVec3_Make(-1, -1, -1);
    pin.boxMax = icVec3_Make(-0.499, 1, 1);
    return icBody_AddPin(w, id, &pin, NULL) == IC_OK;
}

static bool rodWorld(int side, icRodWorld **out) {
    icRodWorld *w = icCreateRodWorld(NULL);
    *out = w;
    icRodPlaneDef floor = icDefaultRodPlaneDef();
    if (!w || icRodWorld_AddPlane(w, &floor) != IC_OK) return false;
    icRodDef rd = icDefaultRodDef();
    rd.radius = 0.02;
    for (int i = 0; i < side; ++i) // upright, a diameter apart, tilted to fall onto each other
        for (int j = 0; j < side; ++j) {
            icVec3 base = icVec3_Make(0.045 * i, 0.05, 0.045 * j);
            icVec3 top = icVec3_Make(0.045 * i + 0.1, 0.85, 0.045 * j + 0.05);
            if (icRodWorld_AddStraightRod(w, base, top, 20, &rd, NULL, NULL) != IC_OK) return false;
        }
    return true;
}

// Builds the world, takes a first step, then times steps until about a second has passed
// (at least one, at most 10).
static bool measure(int kind, int sizeIndex, icScalingRow *row) {
    const double dt = 1.0 / 60;
    int64_t bytes0 = icGetByteCount();
    double t0 = nowSeconds();
    icWorld *w = NULL;
    icRodWorld *rw = NULL;
    bool ok =
        kind == 3 ? rodWorld(s_rodSides[sizeIndex], &rw) : tetWorld(kind, s_cells[sizeIndex], &w);
    row->buildSeconds = nowSeconds() - t0;
#define IC_STEP() (kind == 3 ? icRodWorld_Step(rw, dt, NULL) : icWorld_Step(w, dt, NULL))
    if (ok) {
        t0 = nowSeconds();
        ok = IC_STEP() == IC_OK;
        row->firstStep = nowSeconds() - t0;
        row->bytes = (double)(icGetByteCount() - bytes0);
        t0 = nowSeconds();
        row->steps = 0;
        while (ok && row->steps < 10 && (row->steps == 0 || nowSeconds() - t0 < 1.0)) {
            ok = IC_STEP() == IC_OK;
            ++row->steps;
        }
        row->stepSeconds = (nowSeconds() - t0) / row->steps;
    }
#undef IC_STEP
    row->size =
        kind == 3 ? (rw ? icRodWorld_GetSegmentCount(rw) : 0) : (w ? icWorld_GetTetCount(w) : 0);
    row->workers =
        kind == 3 ? (rw ? icRodWorld_GetWorkerCount(rw) : 0) : (w ? icWorld_GetWorkerCount(w) : 0);
    icDestroyWorld(w);
    icDestroyRodWorld(rw);
    return ok;
}

static long long plannedSize(int kind, int sizeIndex) {
    if (kind == 3) return 20LL * s_rodSides[sizeIndex] * s_rodSides[sizeIndex];
    return 6LL * s_cells[sizeIndex] * s_cells[sizeIndex] * s_cells[sizeIndex];
}

static void printRow(const icScalingRow *r) {
    const char *unit = r->kind == 3 ? "segments" : "tets";
    if (r->skipped) {
        printf("| %-14s | %9lld %-8s | not run: %s |\n", s_kinds[r->kind], r->size, unit,
               r->skipped);
        return;
    }
    printf("| %-14s | %9lld %-8s | %d | %8.2f | %9.3f | %10.2f | %d | %8.0f | %8.1f |\n",
           s_kinds[r->kind], r->size, unit, r->workers, r->buildSeconds, r->firstStep,
           1e3 * r->stepSeconds, r->steps, r->bytes / (double)r->size, r->bytes / 1048576.0);
    fflush(stdout);
}

static void plot(const char *path, const icScalingRow *rows, int count) {
    static const uint8_t colours[IC_KINDS][3] = {
        {31, 119, 180}, {214, 39, 40}, {44, 160, 44}, {148, 103, 189}};
    double x[IC_KINDS][IC_SIZES], y[IC_KINDS][IC_SIZES];
    int n[IC_KINDS] = {0};
    for (int i = 0; i < count; ++i) {
        const icScalingRow *r = &rows[i];
        if (r->skipped || n[r->kind] >= IC_SIZES) continue;
        x[r->kind][n[r->kind]] = (double)r->size;
        y[r->kind][n[r->kind]++] = 1e3 * r->stepSeconds;
    }
    icPlotSeries series[IC_KINDS];
    int s = 0;
    for (int k = 0; k < IC_KINDS; ++k) {
        if (!n[k]) continue;
        series[s] = (icPlotSeries){s_kinds[k], n[k], x[k], y[k], {0, 0, 0}};
        memcpy(series[s].rgb, colours[k], 3);
        ++s;
    }
    icPlotDef def = {0};
    char title[64];
    snprintf(title, sizeof title, "STEP TIME AGAINST SIZE (%d CORES)", icAvailableCores());
    def.title = title;
    def.xLabel = "TETS OR ROD SEGMENTS";
    def.yLabel = "MS PER STEP";
    def.logX = def.logY = true;
    icDiagnostic diag = {0};
    if (icPlot_SavePng(path, &def, series, s, &diag) != IC_OK)
        fprintf(stderr, "bench_scaling: %s\n", diag.message);
}

int main(int argc, char **argv) {
    const char *plotPath = NULL;
    double maxStep = 120;
    int sizes = IC_SIZES;
    bool want[IC_KINDS] = {false}, anyWanted = false;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int k = -1;
        if (strcmp(a, "--quick") == 0) {
            sizes = 2;
            continue;
        }
        if (v && strcmp(a, "--plot") == 0) {
            plotPath = v;
        } else if (v && strcmp(a, "--max-step-seconds") == 0 && atof(v) > 0) {
            maxStep = atof(v);
        } else if (v && strcmp(a, "--solver") == 0) {
            for (int j = 0; j < IC_KINDS; ++j)
                if (strcmp(v, s_kinds[j]) == 0) k = j;
            if (k < 0)
                v = NULL;
            else
                want[k] = anyWanted = true;
        }
        if (!v) {
            fprintf(stderr,
                    "usage: %s [--quick] [--plot FILE.png] [--max-step-seconds S] "
                    "[--solver xpbd|incompressible|newton|rods]...\n",
                    argv[0]);
            return 2;
        }
        ++i;
    }
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    double memory = pages > 0 && pageSize > 0 ? (double)pages * (double)pageSize : 0;
    printf("Scaling: a box of 6-tet cells hanging from one face (E = 1e6; XPBD and Newton nu = "
           "0.45, mm; incompressible corotated nu = 0.5), XPBD 20 fixed substeps; rods: a "
           "bundle of 20-segment rods falling; default settings otherwise; %d processors.\n"
           "ms/step: mean of the steps after the first (about 1 s of them, at most 10); first "
           "step: builds layouts and caches; memory: the library's allocations after the first "
           "step.\n\n",
           icAvailableCores());
    printf("| solver | size | workers | build s | first step s | ms/step | steps timed | bytes per "
           "element | MB |\n|---|---|---|---|---|---|---|---|---|\n");
    icScalingRow rows[IC_KINDS * IC_SIZES];
    int count = 0;
    bool failed = false;
    for (int k = 0; k < IC_KINDS; ++k) {
        if (anyWanted && !want[k]) continue;
        const icScalingRow *previous = NULL;
        for (int s = 0; s < sizes; ++s) {
            if (k == 3 && !s_rodSides[s]) continue;
            icScalingRow *row = &rows[count++];
            memset(row, 0, sizeof *row);
            row->kind = k;
            row->size = plannedSize(k, s);
            if (previous) {
                double grow = (double)row->size / (double)previous->size;
                static char why[IC_KINDS * IC_SIZES][96];
                if (previous->skipped) {
                    row->skipped = "a smaller size was not run";
                } else if (previous->stepSeconds * grow > maxStep) {
                    snprintf(why[count - 1], sizeof why[0], "about %.0f s a step (over %.0f s)",
                             previous->stepSeconds * grow, maxStep);
                    row->skipped = why[count - 1];
                } else if (memory > 0 && previous->bytes * grow > memory / 2) {
                    snprintf(why[count - 1], sizeof why[0],
                             "about %.1f GB (half the machine: %.1f)", previous->bytes * grow / 1e9,
                             memory / 2e9);
                    row->skipped = why[count - 1];
                }
            }
            if (!row->skipped && !measure(k, s, row)) {
                row->skipped = "the world could not be built or a step failed";
                failed = true;
            }
            printRow(row);
            previous = row;
        }
    }
    if (plotPath) plot(plotPath, rows, count);
    return failed ? 1 : 0;
}
