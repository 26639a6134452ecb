// SPDX-License-Identifier: MIT
// The octopus scene of Angles et al. 2019, Fig. 7 (scenes/viper/octopus.json): 100 octopuses x
// 37 pills on a floor with 25 pillars. Prints the time per step split into prediction, broad
// phase, collisions, constraints and skinning. Usage: bench_viper_octopus [FRAMES [WORKERS]]
// (default 300 frames, the first 60 warm-up and not timed; 1 worker). Prints a hash of the
// final state: the same for any worker count.
#include "isochor/io.h"
#include "isochor/rod.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double nowMs(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 300;
    int workers = argc > 2 ? atoi(argv[2]) : 1;
    const int warm = 60;
    if (frames <= warm) frames = warm + 1;
    icScene scene;
    icDiagnostic diag = {0};
    double t0 = nowMs();
    if (icScene_Load(IC_SOURCE_DIR "/scenes/viper/octopus.json", &scene, &diag) != IC_OK) {
        char text[1400];
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "%s\n", text);
        return 1;
    }
    double loadMs = nowMs() - t0;
    icRodWorld *w = scene.rods;
    icRodWorldDef def = icRodWorld_GetDef(w);
    def.workerCount = workers > 0 ? workers : 1;
    icRodWorld_SetDef(w, &def);
    int nv = icRodWorld_GetVertexCount(w), ns = icRodWorld_GetSegmentCount(w);
    int skinVerts = 0, skinTris = 0;
    for (int s = 0; s < icRodWorld_GetSkinCount(w); ++s) {
        int v, t;
        icRodWorld_GetSkin(w, s, &v, NULL, &t, NULL);
        skinVerts += v;
        skinTris += t;
    }
    printf("octopus scene: %d rods, %d spheres, %d pills (25 of them pillars), DOFs %d "
           "(4 per sphere + 3 per pill), skin %d vertices / %d triangles; load %.0f ms\n",
           icRodWorld_GetRodCount(w), nv, ns, 4 * nv + 3 * ns, skinVerts, skinTris, loadMs);
    double sum[6] = {0}, cpu = 0;
    int pairs = 0, contacts = 0;
    double maxPen = 0;
    for (int f = 0; f < frames; ++f) {
        icRodStepStats st;
        clock_t c0 = clock();
        if (icRodWorld_Step(w, scene.dt, &st) != IC_OK) {
            fprintf(stderr, "step %d failed\n", f);
            return 1;
        }
        double a = nowMs();
        icRodWorld_UpdateSkins(w);
        double skin = nowMs() - a;
        double stepCpu = 1e3 * (double)(clock() - c0) / CLOCKS_PER_SEC;
        if (f < warm) continue;
        cpu += stepCpu;
        sum[0] += st.msPredict;
        sum[1] += st.msBroadPhase;
        sum[2] += st.msCollisions;
        sum[3] += st.msConstraints;
        sum[4] += skin;
        sum[5] += st.msTotal;
        pairs += st.candidatePairs;
        contacts += st.contacts;
        if (st.maxPenetration > maxPen) maxPen = st.maxPenetration;
    }
    int n = frames - warm;
    printf("per step (mean of %d steps after %d warm-up, %d worker%s):\n", n, warm, def.workerCount,
           def.workerCount > 1 ? "s" : "");
    printf("  prediction + velocities %7.3f ms\n", sum[0] / n);
    printf("  broad phase             %7.3f ms  (%.0f candidate pairs)\n", sum[1] / n,
           (double)pairs / n);
    printf("  collisions (10 passes)  %7.3f ms  (%.0f in contact in the last pass)\n", sum[2] / n,
           (double)contacts / n);
    printf("  constraints (5 passes)  %7.3f ms\n", sum[3] / n);
    printf("  step total              %7.3f ms  (%.0f Hz); process CPU time %.3f ms per step\n",
           sum[5] / n, 1e3 * n / sum[5], cpu / n);
    printf("  skinning                %7.3f ms\n", sum[4] / n);
    printf("  step + skinning         %7.3f ms  (%.0f Hz)\n", (sum[5] + sum[4]) / n,
           1e3 * n / (sum[5] + sum[4]));
    printf("  deepest pill overlap after a step: %.4f m\n", maxPen);
    // FNV-1a over the bytes of positions and radii
    uint64_t hash = 1469598103934665603ull;
    const unsigned char *bytes[2] = {(const unsigned char *)icRodWorld_GetPositions(w),
                                     (const unsigned char *)icRodWorld_GetRadii(w)};
    size_t sizes[2] = {sizeof(icReal) * 3 * (size_t)nv, sizeof(icReal) * (size_t)nv};
    for (int a = 0; a < 2; ++a)
        for (size_t i = 0; i < sizes[a]; ++i) hash = (hash ^ bytes[a][i]) * 1099511628211ull;
    printf("  state hash %016llx\n", (unsigned long long)hash);
    icScene_Destroy(&scene);
    return 0;
}
