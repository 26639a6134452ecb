// SPDX-License-Identifier: MIT
// Moves a mesh's boundary vertices towards a surface without crushing any tet: used to round
// off meshes carved from a hex grid (sphere, torus, the tissue layer).
#include "mesh/mesh_internal.h"

// Smallest ratio of current to original volume over the tets around vertex v.
static icReal worstVolumeRatio(const icTetMesh *mesh, const icAdjacency *adj, int v,
                               const icReal *original) {
    icReal worst = INFINITY;
    for (int k = adj->offsets[v]; k < adj->offsets[v + 1]; ++k) {
        int t = adj->indices[k];
        icReal ratio = icTetMesh_TetVolume(mesh, NULL, t) / original[t];
        if (ratio < worst) worst = ratio;
    }
    return worst;
}

// A move (full, half or quarter way) is kept only while every tet around the vertex keeps at
// least minRatio of its starting volume, so all tets stay positive and no sliver is made;
// several passes let neighbours follow each other.
icResult icMesh_SnapBoundary(icTetMesh *mesh, icSnapTargetFn *target, const void *context,
                             icReal minRatio, int passes) {
    int *triangles = NULL, triangleCount = 0;
    icAdjacency adj = {0};
    icReal *original = IC_ALLOC(icReal, mesh->tetCount);
    unsigned char *onSurface = IC_ALLOC_ZERO(unsigned char, mesh->vertexCount);
    icResult r = (original && onSurface) ? IC_OK : IC_ERR_OUT_OF_MEMORY;
    if (r == IC_OK) r = icTetMesh_ExtractSurface(mesh, &triangles, &triangleCount, NULL);
    if (r == IC_OK) r = icTetMesh_VertexTets(mesh, &adj);
    if (r == IC_OK) {
        for (int i = 0; i < 3 * triangleCount; ++i) onSurface[triangles[i]] = 1;
        for (int t = 0; t < mesh->tetCount; ++t) original[t] = icTetMesh_TetVolume(mesh, NULL, t);
        for (int pass = 0; pass < passes; ++pass)
            for (int v = 0; v < mesh->vertexCount; ++v) {
                if (!onSurface[v]) continue;
                icVec3 p = icVec3_Load(mesh->positions, v), goal;
                if (!target(p, context, &goal)) continue;
                icVec3 step = icVec3_Sub(goal, p);
                for (icReal f = 1.0; f >= 0.25; f *= 0.5) {
                    icVec3_Store(mesh->positions, v, icVec3_MulAdd(p, f, step));
                    if (worstVolumeRatio(mesh, &adj, v, original) >= minRatio) break;
                    icVec3_Store(mesh->positions, v, p);
                }
            }
    }
    icFree(triangles);
    icAdjacency_Destroy(&adj);
    icFree(original);
    icFree(onSurface);
    return r;
}
