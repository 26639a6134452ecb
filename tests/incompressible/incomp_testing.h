// SPDX-License-Identifier: MIT
// Shared helpers of the incompressible tests: oriented cube meshes, perturbation, dense rank.
#pragma once

#include "isochor/incompressible.h"
#include "isochor/mesh.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A box of cells^3 hex cells (split 6 or 5) with edge 1 per cell, tets oriented positively.
static inline void incompBox(icTetMesh *mesh, int cells, int split) {
    int c[3] = {cells, cells, cells};
    IC_REQUIRE(icGenerateBox(mesh, icVec3_Make(cells, cells, cells), c, split) == IC_OK);
    for (int t = 0; t < mesh->tetCount; ++t) {
        int *tv = mesh->tets + 4 * t;
        icVec3 g[4];
        icReal V = icTet_VolumeGradients(icVec3_Load(mesh->positions, tv[0]),
                                         icVec3_Load(mesh->positions, tv[1]),
                                         icVec3_Load(mesh->positions, tv[2]),
                                         icVec3_Load(mesh->positions, tv[3]), g);
        if (V < 0) {
            int tmp = tv[2];
            tv[2] = tv[3];
            tv[3] = tmp;
        }
    }
}

static inline void incompPerturb(icReal *x, int count, icReal amount) {
    for (int i = 0; i < count; ++i) x[i] += icTest_Uniform(-amount, amount);
}

// Rank of a dense rows x cols row-major matrix by Gaussian elimination with full row pivoting
// (destroys a); entries below tol * max|a| count as zero.
static inline int incompRank(icReal *a, int rows, int cols, icReal tol) {
    icReal big = 0;
    for (int i = 0; i < rows * cols; ++i) big = fmax(big, fabs(a[i]));
    int rank = 0;
    for (int col = 0; col < cols && rank < rows; ++col) {
        int piv = -1;
        icReal best = tol * big;
        for (int r = rank; r < rows; ++r)
            if (fabs(a[r * cols + col]) > best) {
                best = fabs(a[r * cols + col]);
                piv = r;
            }
        if (piv < 0) continue;
        for (int k = 0; k < cols; ++k) {
            icReal t = a[rank * cols + k];
            a[rank * cols + k] = a[piv * cols + k];
            a[piv * cols + k] = t;
        }
        for (int r = rank + 1; r < rows; ++r) {
            icReal f = a[r * cols + col] / a[rank * cols + col];
            if (f == 0) continue;
            for (int k = col; k < cols; ++k) a[r * cols + k] -= f * a[rank * cols + k];
        }
        ++rank;
    }
    return rank;
}

// Lumped masses rho V / 4 (rho = 1) as per-axis inverse masses (n x 3).
static inline void incompInvMass(const icTetMesh *mesh, const icReal *x, icReal *invMass) {
    icReal *m = calloc((size_t)mesh->vertexCount, sizeof(icReal));
    for (int t = 0; t < mesh->tetCount; ++t) {
        const int *tv = mesh->tets + 4 * t;
        icVec3 g[4];
        icReal V = icTet_VolumeGradients(icVec3_Load(x, tv[0]), icVec3_Load(x, tv[1]),
                                         icVec3_Load(x, tv[2]), icVec3_Load(x, tv[3]), g);
        for (int a = 0; a < 4; ++a) m[tv[a]] += V / 4;
    }
    for (int v = 0; v < mesh->vertexCount; ++v)
        for (int i = 0; i < 3; ++i) invMass[3 * v + i] = 1.0 / m[v];
    free(m);
}

// Vertical extent of all bodies (max y - min y of the current positions), m.
static inline icReal incompHeight(const icWorld *w) {
    const icReal *x = icWorld_GetPositions(w);
    icReal lo = INFINITY, hi = -INFINITY;
    for (int v = 0; v < icWorld_GetVertexCount(w); ++v) {
        lo = fmin(lo, x[3 * v + 1]);
        hi = fmax(hi, x[3 * v + 1]);
    }
    return hi - lo;
}
