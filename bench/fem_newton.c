// SPDX-License-Identifier: MIT
// Benchmark of the force-based solver: per-tet kernels (SVD, projected Hessian, K_e) and
// Newton iterations (evaluation + assembly, PCG) on a clamped box under gravity.
// Usage: bench_fem_newton [cells] [model] [assembled|matrix-free] (default: 16 cells per
// axis, model mm, both linear-solver paths).
#define _POSIX_C_SOURCE 200809L
#include "isochor/fem.h"
#include "isochor/svd.h"
#include "math/svd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double nowMs(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static unsigned long long s_rng = 88172645463325252ull;
static double uniform(void) {
    s_rng ^= s_rng << 13;
    s_rng ^= s_rng >> 7;
    s_rng ^= s_rng << 17;
    return (double)(s_rng >> 11) * (1.0 / 9007199254740992.0);
}

// Nanoseconds per call of the per-tet kernels on random compressed/stretched F.
static void benchKernels(const icMaterial *m) {
    enum { N = 1 << 16 };
    icMat3 *fs = malloc(sizeof(icMat3) * N);
    for (int i = 0; i < N; ++i) {
        icReal *p = (icReal *)&fs[i];
        for (int k = 0; k < 9; ++k) p[k] = (k % 4 == 0 ? 1.0 : 0.0) + 0.3 * (uniform() - 0.5);
    }
    volatile double sink = 0;
    icReal h[81], ke[144];
    icTetRest rest = {icMat3_Identity(), 1.0 / 6};
    for (int pass = 0; pass < 2; ++pass) { // pass 0 warms up
        double t0 = nowMs();
        for (int i = 0; i < N; ++i) sink += icMat3_Svd(fs[i]).s.x;
        double t1 = nowMs();
        icMat3 P;
        for (int i = 0; i < N; ++i) sink += icMaterial_Evaluate(m, fs[i], &P, NULL, false);
        double t2 = nowMs();
        for (int i = 0; i < N; ++i) {
            sink += icMaterial_Evaluate(m, fs[i], &P, h, true);
            sink += h[40];
        }
        double t3 = nowMs();
        for (int i = 0; i < N; ++i) {
            icTet_Stiffness(h, &rest, ke);
            sink += ke[77];
        }
        double t4 = nowMs();
        if (pass == 1)
            printf("kernels (%s): svd %.0f ns, psi+P %.0f ns, psi+P+projected Hf %.0f ns, K_e %.0f ns\n",
                   icMaterialModel_Name(m->model), (t1 - t0) * 1e6 / N, (t2 - t1) * 1e6 / N,
                   (t3 - t2) * 1e6 / N, (t4 - t3) * 1e6 / N);
    }
    // The batched SVD the tangent passes call (16 tets a call), on its two-wide lanes, its AVX2
    // lanes one batch a call and two side by side, and its AVX-512 lanes (two batches a
    // register, two registers side by side; all the same bits), alternated five times: the
    // fastest of each.
    icSvd3 *out = malloc(sizeof(icSvd3) * N);
    static const int lanes[4] = {2, 4, 4, 8}, per[4] = {4, 4, 8, 16};
    double best[4] = {1e300, 1e300, 1e300, 1e300};
    for (int rep = 0; rep < 20; ++rep) {
        int mode = rep % 4;
        icSvd_LimitLanes(lanes[mode]);
        double t0 = nowMs();
        for (int i = 0; i < N; i += per[mode]) icMat3_SvdBatch(per[mode], fs + i, out + i);
        double t = (nowMs() - t0) * 1e6 / N;
        best[mode] = t < best[mode] ? t : best[mode];
        sink += out[N - 1].s.x;
    }
    icSvd_LimitLanes(8);
    printf("svd per matrix: %.0f ns two-wide, %.0f ns AVX2 one batch of 4 a call, %.0f ns AVX2 two "
           "batches side by side, %.0f ns AVX-512 (a narrower path where the CPU lacks one)\n",
           best[0], best[1], best[2], best[3]);
    free(out);
    free(fs);
    (void)sink;
}

int main(int argc, char **argv) {
    int cells = argc > 1 ? atoi(argv[1]) : 16;
    icMaterialModel model = IC_MATERIAL_MM;
    for (int k = 0; k < IC_MATERIAL_COUNT_; ++k)
        if (argc > 2 && strcmp(argv[2], icMaterialModel_Name((icMaterialModel)k)) == 0)
            model = (icMaterialModel)k;
    icMaterial m;
    if (icMaterial_FromYoungs(model, 1e5, 0.45, &m) != IC_OK) return 1;
    benchKernels(&m);

    icTetMesh mesh;
    int c[3] = {2 * cells, cells, cells};
    if (icGenerateBox(&mesh, icVec3_Make(2, 1, 1), c, 6) != IC_OK) return 1;
    icFemModel fem;
    icDiagnostic diag;
    if (icFemModel_CreateFromMesh(&fem, &mesh, &m, &diag) != IC_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    int n = 3 * fem.vertexCount;
    icReal *x = malloc(sizeof(icReal) * n), *v = calloc((size_t)n, sizeof(icReal));
    unsigned char *mask = malloc((size_t)n);
    memcpy(x, mesh.positions, sizeof(icReal) * n);
    for (int i = 0; i < fem.vertexCount; ++i)
        for (int k = 0; k < 3; ++k) mask[3 * i + k] = mesh.positions[3 * i] > -0.999;
    icNewtonInput in = {mask, mesh.positions, NULL, {0, -9.81, 0}};
    printf("box %dx%dx%d cells, %d vertices, %d tets, model %s\n", c[0], c[1], c[2],
           fem.vertexCount, fem.tetCount, icMaterialModel_Name(model));

    static const char *names[2] = {"assembled", "matrix-free"};
    for (int mf = 0; mf < 2; ++mf) {
        if (argc > 3 && strcmp(argv[3], names[mf]) != 0) continue;
        icNewtonDef d = icDefaultNewtonDef();
        d.matrixFree = mf == 1;
        icNewtonSolver *s = icCreateNewtonSolver(&fem, &d);
        memcpy(x, mesh.positions, sizeof(icReal) * n);
        memset(v, 0, sizeof(icReal) * n);
        int its = 0, cgIts = 0;
        double asmMs = 0, cgMs = 0, total = 0;
        for (int step = 0; step < 12; ++step) {
            icNewtonStats st;
            double t0 = nowMs();
            icResult r = icNewtonSolver_Step(s, &in, 1.0 / 60, x, v, &st);
            double t1 = nowMs();
            if (r != IC_OK) printf("  step %d: %s\n", step, icResult_Name(r));
            if (step < 2) continue; // warm-up
            its += st.iterations;
            cgIts += st.cgIterations;
            asmMs += st.assemblyMilliseconds;
            cgMs += st.solveMilliseconds;
            total += t1 - t0;
        }
        printf("%s: %.2f Newton it/step, %.1f CG it/Newton it; per Newton it: eval+assembly %.2f ms, "
               "PCG %.2f ms (%.3f ms per CG it); %.1f ms per step\n",
               names[mf], its / 10.0, (double)cgIts / its, asmMs / its, cgMs / its, cgMs / cgIts,
               total / 10);
        icDestroyNewtonSolver(s);
    }
    free(x), free(v), free(mask);
    icFemModel_Destroy(&fem);
    icTetMesh_Destroy(&mesh);
    return 0;
}
