// SPDX-License-Identifier: MIT
// The tissue scene (Macklin & Müller 2021, sec. 5.3: 80k tets, self collision, skinned
// surface; the paper reports 8 ms per frame on an RTX 2080 Ti): milliseconds per frame at 20k
// and 80k tets with the stages timed separately, and the embedding of 1M points into a
// 100k-tet mesh.
// Usage: bench_tissue [--frames N] [--quick]   (--quick: 20k scene and 200k points only)
#include "isochor/collision.h"
#include "isochor/io.h"
#include "isochor/skin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double nowSeconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void scene(const char *relative, int frames) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", IC_SOURCE_DIR, relative);
    icScene s;
    icDiagnostic diag = {0};
    double t0 = nowSeconds();
    if (icScene_Load(path, &s, &diag) != IC_OK) {
        char text[1400];
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "bench_tissue: %s\n", text);
        return;
    }
    double loadSeconds = nowSeconds() - t0;
    icWorld *world = s.world;
    int skinVertices = 0;
    if (icWorld_GetSkinCount(world) > 0) skinVertices = icWorld_GetSkinEmbedding(world, 0)->pointCount;
    // Warm-up: colouring, contact surface and exclusion lists, caches.
    for (int i = 0; i < 3; ++i) icWorld_Step(world, s.dt, NULL);
    double total = 0, broad = 0, collider = 0, self = 0, attach = 0, skin = 0, worst = 0;
    double candidates = 0, contacts = 0;
    icReal vMin = 1, vMax = 1;
    int inverted = 0;
    for (int f = 0; f < frames; ++f) {
        icStepStats stats;
        double a = nowSeconds();
        icWorld_Step(world, s.dt, &stats);
        double b = nowSeconds();
        // The render surface at every frame, as a run writes it.
        const icReal *x;
        int n;
        if (icWorld_GetSkinCount(world) > 0) icWorld_GetSkinSurface(world, 0, &x, &n, NULL, NULL);
        double c = nowSeconds();
        icContactStats cs;
        icWorld_GetContactStats(world, &cs);
        total += 1e3 * (b - a);
        worst = 1e3 * (b - a) > worst ? 1e3 * (b - a) : worst;
        skin += 1e3 * (c - b);
        broad += cs.broadPhaseMs;
        collider += cs.colliderMs;
        self += cs.selfMs;
        attach += cs.attachmentMs;
        candidates += cs.selfCandidates;
        contacts += cs.selfContacts;
        icReal v = icWorld_GetVolumeRatio(world);
        vMin = v < vMin ? v : vMin;
        vMax = v > vMax ? v : vMax;
        if (stats.invertedTets > inverted) inverted = stats.invertedTets;
    }
    double contactMs = broad + collider + self + attach;
    printf("| %6d | %7d | %5.1f | %7.1f | %6.1f | %9.1f | %9.1f | %5.1f | %5.1f | %6.0f / %3.0f | %.4f .. %.4f | %d |\n",
           icWorld_GetTetCount(world), skinVertices, loadSeconds, total / frames, worst,
           (total - contactMs) / frames, broad / frames, (self + collider + attach) / frames,
           skin / frames, candidates / frames, contacts / frames, vMin, vMax, inverted);
    icScene_Destroy(&s);
}

// A jittered box mesh of about `tets` tets and `count` points in and around it, in the order
// of a surface sweep (points near each other in memory are near in space, as a render mesh's).
static void embedding(int cells, int count) {
    icTetMesh mesh = {0};
    int c[3] = {cells, cells, cells};
    icGenerateBox(&mesh, icVec3_Make(1, 1, 1), c, 6);
    unsigned long long rng = 88172645463325252ull;
    double h = 1.0 / cells;
    for (int i = 0; i < 3 * mesh.vertexCount; ++i) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        mesh.positions[i] += ((rng >> 11) * (1.0 / 9007199254740992.0) - 0.5) * 0.4 * h;
    }
    icReal *points = malloc(sizeof(icReal) * 3 * (size_t)count);
    int side = (int)sqrt(count / 2.0);
    for (int i = 0; i < count; ++i) {
        // Points on a wavy sheet through the box and a shell just outside it.
        double u = (i % side + 0.5) / side - 0.5, v = ((i / side) % side + 0.5) / side - 0.5;
        double w = i < count / 2 ? 0.3 * sin(6 * u) * cos(5 * v) : 0.51;
        points[3 * i] = u, points[3 * i + 1] = w, points[3 * i + 2] = v;
    }
    icEmbedding e;
    double t0 = nowSeconds();
    icResult r = icEmbedPoints(mesh.positions, mesh.vertexCount, mesh.tets, mesh.tetCount, points,
                               count, &e);
    double seconds = nowSeconds() - t0;
    if (r == IC_OK)
        printf("| %9d | %7d | %6.2f | %6.2f | %d |\n", count, mesh.tetCount, seconds,
               count / seconds / 1e6, e.outsideCount);
    icEmbedding_Destroy(&e);
    free(points);
    icTetMesh_Destroy(&mesh);
}

int main(int argc, char **argv) {
    int frames = 60;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0) quick = true;
    }
    if (frames < 1) frames = 1;
    printf("Tissue scene, %d frames of 1/30 s after 3 warm-up frames (ms per frame):\n\n", frames);
    printf("| tets | skin vertices | load s | step | worst | tets + rest | broad phase | "
           "contact | skin | pairs / touching | V/V0 | inverted |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    scene("scenes/tissue/tissue.json", frames);
    if (!quick) scene("scenes/tissue/tissue_80k.json", frames);
    printf("\nEmbedding (icEmbedPoints):\n\n| points | tets | seconds | M points/s | outside |\n");
    printf("|---|---|---|---|---|\n");
    embedding(quick ? 16 : 26, quick ? 200000 : 1000000);
    return 0;
}
