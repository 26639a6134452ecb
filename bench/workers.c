// SPDX-License-Identifier: MIT
// Where a second worker starts to pay, per solver: a box of CELLS^3 hex cells (6 tets each)
// hanging from one face under gravity, or for rods a CELLS x CELLS bundle of 20-pill rods
// dropped on a floor, stepped FRAMES frames of 1/60 s. With ROUNDS it alternates 1 and
// WORKERS workers (a fresh world each run, 1 first) and prints each run's milliseconds per
// frame and the median ratio; without, it runs WORKERS once. Every run prints a hash of the
// final state: the same for any worker count. docs/performance.md quotes the break-even.
// Usage: bench_workers xpbd|newton|incompressible|rods CELLS WORKERS [FRAMES [ROUNDS]]
#define _POSIX_C_SOURCE 200809L
#include "isochor/isochor.h"
#include "isochor/rod.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double nowMs(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static uint64_t fnv(const void *data, size_t bytes) {
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

typedef struct icRun {
    int size;      ///< tets, or rod segments
    int workers;   ///< resolved
    double msPerFrame;
    uint64_t hash;
} icRun;

static int tetRun(icSolverType solver, int cells, int workers, int frames, icRun *out) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver = solver;
    wd.workerCount = workers;
    wd.health.policy = IC_HEALTH_OFF;
    icWorld *w = icCreateWorld(&wd);
    icTetMesh mesh = {0};
    int c[3] = {cells, cells, cells};
    if (!w || icGenerateBox(&mesh, icVec3_Make(1, 1, 1), c, 6) != IC_OK) return 1;
    icSoftBodyDef bd = icDefaultSoftBodyDef();
    if (solver == IC_SOLVER_INCOMPRESSIBLE) {
        bd.model = IC_MATERIAL_COROTATED;
        bd.poissonRatio = 0.5;
    }
    icBodyId id;
    icResult r = icWorld_CreateSoftBody(w, &mesh, &bd, &id, NULL);
    icTetMesh_Destroy(&mesh);
    if (r != IC_OK) return 1;
    icPinDef pin = icDefaultPinDef();
    pin.boxMin = icVec3_Make(-1, -1, -1);
    pin.boxMax = icVec3_Make(1e-6, 2, 2);
    if (icBody_AddPin(w, id, &pin, NULL) != IC_OK) return 1;
    double t0 = 0;
    for (int f = 0; f < frames + 1; ++f) {
        if (f == 1) t0 = nowMs(); // the first frame builds the layout and caches: not timed
        if (icWorld_Step(w, 1.0 / 60, NULL) != IC_OK) return 1;
    }
    out->msPerFrame = (nowMs() - t0) / frames;
    out->size = icWorld_GetTetCount(w);
    out->workers = icWorld_GetWorkerCount(w);
    out->hash = icWorld_HashState(w);
    icDestroyWorld(w);
    return 0;
}

static int rodRun(int side, int workers, int frames, icRun *out) {
    icRodWorldDef wd = icDefaultRodWorldDef();
    wd.workerCount = workers;
    icRodWorld *w = icCreateRodWorld(&wd);
    if (!w) return 1;
    icRodPlaneDef floor = icDefaultRodPlaneDef();
    if (icRodWorld_AddPlane(w, &floor) != IC_OK) return 1;
    icRodDef rd = icDefaultRodDef();
    rd.radius = 0.02;
    // Upright rods a diameter apart, tilted a little so that they fall onto each other.
    for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j) {
            icVec3 base = icVec3_Make(0.045 * i, 0.05, 0.045 * j);
            icVec3 top = icVec3_Make(0.045 * i + 0.1, 0.85, 0.045 * j + 0.05);
            if (icRodWorld_AddStraightRod(w, base, top, 20, &rd, NULL, NULL) != IC_OK) return 1;
        }
    double t0 = 0;
    for (int f = 0; f < frames + 1; ++f) {
        if (f == 1) t0 = nowMs();
        if (icRodWorld_Step(w, 1.0 / 60, NULL) != IC_OK) return 1;
    }
    out->msPerFrame = (nowMs() - t0) / frames;
    out->size = icRodWorld_GetSegmentCount(w);
    out->workers = icRodWorld_GetWorkerCount(w);
    out->hash = fnv(icRodWorld_GetPositions(w), sizeof(icReal) * 3 * (size_t)icRodWorld_GetVertexCount(w));
    icDestroyRodWorld(w);
    return 0;
}

static int compareDoubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s xpbd|newton|incompressible|rods CELLS WORKERS [FRAMES [ROUNDS]]\n",
                argv[0]);
        return 2;
    }
    const char *names[] = {"xpbd", "newton", "incompressible", "rods"};
    const icSolverType solvers[] = {IC_SOLVER_XPBD, IC_SOLVER_NEWTON, IC_SOLVER_INCOMPRESSIBLE};
    int kind = -1;
    for (int i = 0; i < 4; ++i)
        if (strcmp(argv[1], names[i]) == 0) kind = i;
    int cells = atoi(argv[2]), workers = atoi(argv[3]);
    int frames = argc > 4 ? atoi(argv[4]) : 20, rounds = argc > 5 ? atoi(argv[5]) : 0;
    if (kind < 0 || cells < 1 || workers < 0 || frames < 1 || rounds < 0) {
        fprintf(stderr, "%s: bad arguments\n", argv[0]);
        return 2;
    }
    int runs = rounds > 0 ? 2 * rounds : 1;
    double *ratio = calloc((size_t)(rounds > 0 ? rounds : 1), sizeof(double));
    uint64_t firstHash = 0;
    double one = 0;
    for (int k = 0; k < runs; ++k) {
        int n = rounds > 0 ? (k % 2 ? workers : 1) : workers;
        icRun run = {0};
        int e = kind == 3 ? rodRun(cells, n, frames, &run)
                          : tetRun(solvers[kind], cells, n, frames, &run);
        if (e) {
            fprintf(stderr, "%s: run failed\n", argv[0]);
            return 1;
        }
        printf("%s %s %d, workers %d: %.3f ms/frame, state %016llx\n", names[kind],
               kind == 3 ? "segments" : "tets", run.size, run.workers, run.msPerFrame,
               (unsigned long long)run.hash);
        if (k == 0) firstHash = run.hash;
        if (run.hash != firstHash) {
            fprintf(stderr, "%s: the state differs between worker counts\n", argv[0]);
            return 1;
        }
        if (rounds > 0 && k % 2 == 0) one = run.msPerFrame;
        if (rounds > 0 && k % 2 == 1) ratio[k / 2] = run.msPerFrame / one;
    }
    if (rounds > 0) {
        qsort(ratio, (size_t)rounds, sizeof(double), compareDoubles);
        printf("%d workers / 1 worker, time per frame: median %.3f (min %.3f, max %.3f, %d pairs)\n",
               workers, ratio[rounds / 2], ratio[0], ratio[rounds - 1], rounds);
    }
    free(ratio);
    return 0;
}
