// SPDX-License-Identifier: MIT
// Helpers shared by the mesh tests: surface integrals and closedness of triangle sets.
#pragma once

#include "test.h"

#include <stdlib.h>

/// Volume enclosed by triangles by the divergence theorem: sum of a . (b x c) / 6.
static inline double icMeshTest_EnclosedVolume(const icTetMesh *mesh, const int *tris, int count) {
    double sum = 0;
    for (int f = 0; f < count; ++f) {
        icVec3 a = icVec3_Load(mesh->positions, tris[3 * f]);
        icVec3 b = icVec3_Load(mesh->positions, tris[3 * f + 1]);
        icVec3 c = icVec3_Load(mesh->positions, tris[3 * f + 2]);
        sum += icVec3_Dot(a, icVec3_Cross(b, c));
    }
    return sum / 6.0;
}

static inline double icMeshTest_Area(const icTetMesh *mesh, const int *tris, int count) {
    double sum = 0;
    for (int f = 0; f < count; ++f) {
        icVec3 a = icVec3_Load(mesh->positions, tris[3 * f]);
        icVec3 b = icVec3_Load(mesh->positions, tris[3 * f + 1]);
        icVec3 c = icVec3_Load(mesh->positions, tris[3 * f + 2]);
        sum += 0.5 * icVec3_Length(icVec3_Cross(icVec3_Sub(b, a), icVec3_Sub(c, a)));
    }
    return sum;
}

/// Number of triangles whose normal does not point away from the centroid of their tet.
static inline int icMeshTest_CountInward(const icTetMesh *mesh, const int *tris,
                                         const int *faceTets, int count) {
    int inward = 0;
    for (int f = 0; f < count; ++f) {
        const int *tet = mesh->tets + 4 * faceTets[f];
        icVec3 centroid = icVec3_Make(0, 0, 0), faceCentre = centroid;
        for (int a = 0; a < 4; ++a)
            centroid = icVec3_MulAdd(centroid, 0.25, icVec3_Load(mesh->positions, tet[a]));
        icVec3 x[3];
        for (int a = 0; a < 3; ++a) {
            x[a] = icVec3_Load(mesh->positions, tris[3 * f + a]);
            faceCentre = icVec3_MulAdd(faceCentre, 1.0 / 3.0, x[a]);
        }
        icVec3 normal = icVec3_Cross(icVec3_Sub(x[1], x[0]), icVec3_Sub(x[2], x[0]));
        if (!(icVec3_Dot(normal, icVec3_Sub(faceCentre, centroid)) > 0)) ++inward;
    }
    return inward;
}

static inline int icMeshTest_CompareU64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/// True when every directed edge of the triangles occurs once and its reverse once: a
/// closed, consistently wound 2-manifold.
static inline bool icMeshTest_IsClosed(const int *tris, int count) {
    uint64_t *edges = malloc(sizeof(uint64_t) * 3 * (size_t)(count > 0 ? count : 1));
    for (int f = 0; f < count; ++f)
        for (int e = 0; e < 3; ++e)
            edges[3 * f + e] =
                (uint64_t)(uint32_t)tris[3 * f + e] << 32 | (uint32_t)tris[3 * f + (e + 1) % 3];
    qsort(edges, 3 * (size_t)count, sizeof *edges, icMeshTest_CompareU64);
    bool closed = count > 0;
    for (int i = 0; closed && i < 3 * count; ++i) {
        if (i > 0 && edges[i] == edges[i - 1]) closed = false;
        uint64_t reverse = edges[i] << 32 | edges[i] >> 32;
        if (!bsearch(&reverse, edges, 3 * (size_t)count, sizeof *edges, icMeshTest_CompareU64))
            closed = false;
    }
    free(edges);
    return closed;
}
