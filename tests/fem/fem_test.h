// SPDX-License-Identifier: MIT
// Shared helpers of the fem and math tests: random matrices, rotations, small meshes.
#pragma once

#include "isochor/fem.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/// Standard normal sample (Box-Muller on the deterministic test generator).
static inline double icTest_Normal(void) {
    double u = icTest_Uniform(1e-300, 1.0), v = icTest_Uniform(0.0, 1.0);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

static inline icMat3 icTest_RandomMat3(double scale) {
    icMat3 m;
    icReal *p = (icReal *)&m;
    for (int i = 0; i < 9; ++i) p[i] = scale * icTest_Normal();
    return m;
}

/// "Random F" = I + 0.3 N(0, 1).
static inline icMat3 icTest_RandomF(void) {
    return icMat3_Add(icMat3_Identity(), icTest_RandomMat3(0.3));
}

/// Uniformly random proper rotation (normalised Gaussian quaternion).
static inline icMat3 icTest_RandomRotation(void) {
    double w = icTest_Normal(), x = icTest_Normal(), y = icTest_Normal(), z = icTest_Normal();
    double n = sqrt(w * w + x * x + y * y + z * z);
    w /= n, x /= n, y /= n, z /= n;
    icMat3 r;
    r.col[0] = icVec3_Make(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    r.col[1] = icVec3_Make(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    r.col[2] = icVec3_Make(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
    return r;
}

static inline double icTest_MaxAbs(const icReal *a, int n) {
    double m = 0;
    for (int i = 0; i < n; ++i) m = fmax(m, fabs(a[i]));
    return m;
}

static inline double icTest_MaxAbsDiff(const icReal *a, const icReal *b, int n) {
    double m = 0;
    for (int i = 0; i < n; ++i) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static inline double icTest_Mat3MaxAbs(icMat3 a) { return icTest_MaxAbs((const icReal *)&a, 9); }
static inline double icTest_Mat3Diff(icMat3 a, icMat3 b) {
    return icTest_MaxAbsDiff((const icReal *)&a, (const icReal *)&b, 9);
}

/// All models, in enum order.
#define IC_TEST_MODEL_COUNT ((int)IC_MATERIAL_COUNT_)

/// Material with the test values inside the energy (mu = 1.3, lambda = 4.1).
static inline icMaterial icTest_Material(icMaterialModel model) {
    return icMaterial_FromLame(model, 1.3, 4.1);
}

/// Models defined for J <= 0 (all but Neo-Hookean with log J).
static inline bool icTest_DefinedInverted(icMaterialModel model) {
    return model != IC_MATERIAL_NEOHOOKEAN;
}

/// A structured grid of n[0] x n[1] x n[2] cubes of edge h from the origin, each cut into
/// 6 tets around the main diagonal; interior vertices jittered by up to jitter * h.
/// Returns false when out of memory. Positions (vertexCount x 3), tets (tetCount x 4),
/// free with free().
static inline bool icTest_GridMesh(const int n[3], double h, double jitter, int *vertexCount,
                                   icReal **positions, int *tetCount, int **tets) {
    int nx = n[0] + 1, ny = n[1] + 1, nz = n[2] + 1;
    int nv = nx * ny * nz, nt = 6 * n[0] * n[1] * n[2];
    icReal *p = (icReal *)malloc(sizeof(icReal) * 3 * (size_t)nv);
    int *t = (int *)malloc(sizeof(int) * 4 * (size_t)nt);
    if (!p || !t) {
        free(p);
        free(t);
        return false;
    }
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                int v = i + nx * (j + ny * k);
                bool interior = i > 0 && j > 0 && k > 0 && i < nx - 1 && j < ny - 1 && k < nz - 1;
                double d = interior ? jitter * h : 0;
                p[3 * v] = i * h + icTest_Uniform(-d, d);
                p[3 * v + 1] = j * h + icTest_Uniform(-d, d);
                p[3 * v + 2] = k * h + icTest_Uniform(-d, d);
            }
    // Kuhn subdivision: the 6 paths from corner 0 to corner 7 of the cube.
    static const int paths[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
    int c = 0;
    for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j)
            for (int i = 0; i < n[0]; ++i)
                for (int q = 0; q < 6; ++q) {
                    int corner = 0, verts[4];
                    verts[0] = 0;
                    for (int s = 0; s < 3; ++s) {
                        corner |= paths[q][s];
                        verts[s + 1] = corner;
                    }
                    for (int a = 0; a < 4; ++a) {
                        int ci = verts[a] & 1, cj = (verts[a] >> 1) & 1, ck = (verts[a] >> 2) & 1;
                        t[4 * c + a] = (i + ci) + nx * ((j + cj) + ny * (k + ck));
                    }
                    ++c;
                }
    *vertexCount = nv;
    *tetCount = nt;
    *positions = p;
    *tets = t;
    return true;
}
