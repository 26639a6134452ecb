// SPDX-License-Identifier: MIT
// The packed sweep kernel's shortcuts keep the bits: a sweep that neither reads nor keeps
// the multipliers tests r^2 against a threshold instead of taking sqrt(r^2) (xpbd/
// kernel_body.h), and must move every vertex exactly as a sweep that keeps them, at every
// width, also for tets whose |F| sits right at the degenerate-gradient bound.
#include "test.h"

#include "world/world_internal.h"
#include "xpbd/constraints.h"
#include "xpbd/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct icKernelUnderTest {
    const char *name;
    icXpbdKernelFn *blocks;
    icXpbdCellKernelFn *cells;
} icKernelUnderTest;

// The lane-by-lane kernel and every vector level this CPU has, for one precision.
static int kernelsUnderTest(icPrecision precision, icKernelUnderTest out[4]) {
    bool single = precision == IC_PRECISION_FLOAT;
    int n = 0;
    static const char *const names[4] = {"auto", "portable", "avx2", "avx512"};
    out[n++] = (icKernelUnderTest){"lane", single ? icXpbdKernel_ScalarFloat : icXpbdKernel_ScalarDouble,
                                   single ? icXpbdCell_ScalarFloat : icXpbdCell_ScalarDouble};
    for (icSimd s = IC_SIMD_SCALAR; s <= icXpbd_CpuSimd(); ++s) {
        icSimd used;
        icXpbdKernelFn *fn = icXpbd_SelectKernel(s, precision, &used);
        if (used == s) out[n++] = (icKernelUnderTest){names[s], fn, icXpbd_SelectCellKernel(s, precision)};
    }
    return n;
}

// Every colour of the (single-chunk) layout once, by blocks or, where units share a cell
// pattern, by cells.
static int sweepColours(const icXpbdLayout *L, const icXpbdKernelArgs *a, const icKernelUnderTest *k) {
    icXpbdCells cells = icXpbdLayout_Cells(L);
    int skipped = 0;
    for (int c = 0; c < L->colourCount; ++c)
        for (int u = L->colourUnits[c]; u < L->colourUnits[c + 1]; ++u) {
            int end = u + 1 == L->colourUnits[c + 1] ? L->colourEnd[c] : L->unitBlocks[u + 1];
            if (L->unitFast && L->unitFast[u])
                skipped += k->cells(a, &cells, u, u + 1);
            else
                skipped += k->blocks(a, L->unitBlocks[u], end);
        }
    return skipped;
}

// Scales the working copy's positions (relative to the body's origin) by about `scale`,
// each vertex by its own factor within 1 %, so that |F| ~ scale sqrt(3) spreads around it.
static void shrink(icXpbdLayout *L, double scale) {
    for (int v = 0; v < L->vertexCount; ++v) {
        double s = scale * (1 + icTest_Uniform(-0.01, 0.01));
        for (int a = 0; a < 3; ++a) {
            size_t at = 4 * (size_t)v + a;
            if (L->precision == IC_PRECISION_FLOAT)
                ((float *)L->x)[at] = (float)(((float *)L->x)[at] * s);
            else
                ((double *)L->x)[at] *= s;
        }
    }
}

static void checkWorld(icWorld *world, const char *what) {
    icModel *m = icWorld_Model(world);
    icXpbdLayout *L = m->layout;
    IC_REQUIRE(L && L->chunkCount == 1);
    icKernelUnderTest kernels[4];
    int count = kernelsUnderTest(L->precision, kernels);
    icXpbdKernelArgs a = icXpbdLayout_KernelArgs(L); // no per-axis masses or damping here
    a.invH = 480;
    a.invH2 = 480.0 * 480.0;
    a.loadLambda = false;
    size_t xBytes = 4 * L->real * (size_t)L->vertexCount, lBytes = 2 * L->real * (size_t)L->lanes * L->blockCount;
    void *x0 = malloc(xBytes), *expected = malloc(xBytes), *lambdaKept = malloc(lBytes);
    memcpy(x0, L->x, xBytes);
    // At rest size, then around the bound r = IC_XPBD_MIN_RS on both sides.
    static const double scales[6] = {1, 0.5, 0.9, 1, 1.1, 2};
    for (int pair = 0; pair < 12; ++pair) { // both projections, each at every scale
        int si = pair % 6;
        a.coupled = pair >= 6;
        memcpy(L->x, x0, xBytes);
        if (si > 0) shrink(L, scales[si] * IC_XPBD_MIN_RS / sqrt(3.0)); // F ~ scale I
        void *start = malloc(xBytes);
        memcpy(start, L->x, xBytes);
        int skippedKept = 0;
        for (int k = 0; k < count; ++k)
            for (int store = 1; store >= 0; --store) {
                memcpy(L->x, start, xBytes);
                memset(L->lambda, 0, lBytes);
                a.x = L->x;
                a.storeLambda = store;
                int skipped = sweepColours(L, &a, &kernels[k]);
                if (k == 0 && store) {
                    memcpy(expected, L->x, xBytes);
                    memcpy(lambdaKept, L->lambda, lBytes);
                    skippedKept = skipped;
                    continue;
                }
                IC_CHECK_MSG(memcmp(expected, L->x, xBytes) == 0, "%s, %s, scale %g: %s kernel, store %d moved "
                             "vertices differently", what, a.coupled ? "coupled" : "sequential", scales[si],
                             kernels[k].name, store);
                IC_CHECK_INT(skipped, skippedKept);
                if (store)
                    IC_CHECK_MSG(memcmp(lambdaKept, L->lambda, lBytes) == 0, "%s: %s kernel's multipliers differ",
                                 what, kernels[k].name);
            }
        free(start);
    }
    memcpy(L->x, x0, xBytes);
    free(x0);
    free(expected);
    free(lambdaKept);
}

IC_TEST(perf, kernel_skips_sqrt_with_same_bits) {
    for (int p = 0; p < 2; ++p)
        for (int hex = 0; hex < 2; ++hex) {
            icWorldDef def = icDefaultWorldDef();
            def.precision = p ? IC_PRECISION_FLOAT : IC_PRECISION_DOUBLE;
            def.colouring = hex ? IC_COLOURING_CELL : IC_COLOURING_GREEDY;
            icWorld *world = icCreateWorld(&def);
            icTest_Seed(11);
            icTetMesh mesh = {0};
            int cells[3] = {6, 5, 4};
            icGenerateBox(&mesh, icVec3_Make(0.6, 0.5, 0.4), cells, 6);
            if (!hex) // not a regular grid: tets of all shapes
                for (int v = 0; v < mesh.vertexCount; ++v)
                    for (int a = 0; a < 3; ++a) mesh.positions[3 * v + a] *= 1 + icTest_Uniform(-0.02, 0.02);
            icBodyId id;
            IC_REQUIRE(icWorld_CreateSoftBody(world, &mesh, NULL, &id, NULL) == IC_OK);
            icTetMesh_Destroy(&mesh);
            icWorld_Step(world, 1.0 / 60.0, NULL); // builds the layout and fills the working copy
            char what[64];
            IC_FORMAT(what, "%s %s", p ? "float" : "double", hex ? "cells" : "greedy");
            checkWorld(world, what);
            icDestroyWorld(world);
        }
}
