// SPDX-License-Identifier: MIT
// icTetMesh_VertexTets: vertex-to-tet adjacency in compressed rows.
#include "mesh/mesh_internal.h"

icResult icTetMesh_VertexTets(const icTetMesh *mesh, icAdjacency *adjacency) {
    if (!mesh || !adjacency) return IC_ERR_INVALID_ARGUMENT;
    memset(adjacency, 0, sizeof *adjacency);
    if (mesh->vertexCount < 0 || mesh->tetCount < 0) return IC_ERR_INVALID_ARGUMENT;
    if (!icMesh_IndicesValid(mesh)) return IC_ERR_INDEX_OUT_OF_RANGE;
    const int n = mesh->vertexCount;
    const size_t entries = 4 * (size_t)mesh->tetCount;
    if (entries > INT32_MAX) return IC_ERR_INVALID_ARGUMENT;
    int *offsets = IC_ALLOC_ZERO(int, (size_t)n + 1);
    int *indices = entries ? IC_ALLOC(int, entries) : NULL;
    if (!offsets || (entries && !indices)) {
        icFree(offsets);
        icFree(indices);
        return IC_ERR_OUT_OF_MEMORY;
    }
    // Counting sort by vertex; walking tets in index order leaves each row ascending. A tet
    // lists a vertex at most once in a valid mesh; a repeated vertex would appear twice.
    for (size_t i = 0; i < entries; ++i)
        ++offsets[mesh->tets[i] + 1];
    for (int v = 0; v < n; ++v)
        offsets[v + 1] += offsets[v];
    for (size_t i = 0; i < entries; ++i)
        indices[offsets[mesh->tets[i]]++] = (int)(i >> 2);
    for (int v = n; v > 0; --v)
        offsets[v] = offsets[v - 1];
    offsets[0] = 0;
    adjacency->rowCount = n;
    adjacency->offsets = offsets;
    adjacency->indices = indices;
    return IC_OK;
}

void icAdjacency_Destroy(icAdjacency *adjacency) {
    if (!adjacency) return;
    icFree(adjacency->offsets);
    icFree(adjacency->indices);
    memset(adjacency, 0, sizeof *adjacency);
}
