// SPDX-License-Identifier: MIT
// The tet mesh container: create, destroy, copy, volumes and bounds.
#include "mesh/mesh_internal.h"

icResult icTetMesh_Create(icTetMesh *mesh, int vertexCount, int tetCount) {
    if (!mesh) return IC_ERR_INVALID_ARGUMENT;
    memset(mesh, 0, sizeof *mesh);
    if (vertexCount < 0 || tetCount < 0) return IC_ERR_INVALID_ARGUMENT;
    mesh->positions = IC_ALLOC(icReal, 3 * (size_t)vertexCount);
    mesh->tets = IC_ALLOC(int, 4 * (size_t)tetCount);
    // icAlloc(0) is NULL by design, so only a non-empty request that came back NULL failed.
    if ((vertexCount > 0 && !mesh->positions) || (tetCount > 0 && !mesh->tets)) {
        icTetMesh_Destroy(mesh);
        return IC_ERR_OUT_OF_MEMORY;
    }
    mesh->vertexCount = vertexCount;
    mesh->tetCount = tetCount;
    return IC_OK;
}

void icTetMesh_Destroy(icTetMesh *mesh) {
    if (!mesh) return;
    icFree(mesh->positions);
    icFree(mesh->tets);
    icFree(mesh->regions);
    icFree(mesh->tetCell);
    memset(mesh, 0, sizeof *mesh);
}

icResult icTetMesh_Copy(icTetMesh *dst, const icTetMesh *src) {
    if (!dst || !src || dst == src) return IC_ERR_INVALID_ARGUMENT;
    icResult result = icTetMesh_Create(dst, src->vertexCount, src->tetCount);
    if (result != IC_OK) return result;
    size_t vbytes = sizeof(icReal) * 3 * (size_t)src->vertexCount;
    size_t tbytes = sizeof(int) * 4 * (size_t)src->tetCount;
    if (vbytes) memcpy(dst->positions, src->positions, vbytes);
    if (tbytes) memcpy(dst->tets, src->tets, tbytes);
    size_t perTet = sizeof(int) * (size_t)src->tetCount;
    if (src->regions && perTet) {
        dst->regions = icMemDup(src->regions, perTet);
        if (!dst->regions) goto outOfMemory;
    }
    if (src->tetCell && perTet) {
        dst->tetCell = icMemDup(src->tetCell, perTet);
        if (!dst->tetCell) goto outOfMemory;
    }
    memcpy(dst->cellCounts, src->cellCounts, sizeof dst->cellCounts);
    return IC_OK;
outOfMemory:
    icTetMesh_Destroy(dst);
    return IC_ERR_OUT_OF_MEMORY;
}

icReal icTetMesh_TetVolume(const icTetMesh *mesh, const icReal *positions, int t) {
    IC_ASSERT(mesh && t >= 0 && t < mesh->tetCount);
    if (!positions) positions = mesh->positions;
    return icMesh_TetDet(positions, mesh->tets + 4 * (size_t)t) / 6.0;
}

icReal icTetMesh_Volume(const icTetMesh *mesh, const icReal *positions) {
    IC_ASSERT(mesh);
    if (!positions) positions = mesh->positions;
    // Sum of 6V then one division: the same order every call, so results are reproducible.
    icReal sum = 0;
    for (int t = 0; t < mesh->tetCount; ++t)
        sum += icMesh_TetDet(positions, mesh->tets + 4 * (size_t)t);
    return sum / 6.0;
}

void icTetMesh_Bounds(const icTetMesh *mesh, icVec3 *lower, icVec3 *upper) {
    IC_ASSERT(mesh);
    icVec3 lo = icVec3_Make(0, 0, 0), hi = lo;
    if (mesh->vertexCount > 0) lo = hi = icVec3_Load(mesh->positions, 0);
    for (int v = 1; v < mesh->vertexCount; ++v) {
        icVec3 x = icVec3_Load(mesh->positions, v);
        lo = icVec3_Min(lo, x);
        hi = icVec3_Max(hi, x);
    }
    if (lower) *lower = lo;
    if (upper) *upper = hi;
}

bool icMesh_IndicesValid(const icTetMesh *mesh) {
    if (mesh->tetCount > 0 && !mesh->tets) return false;
    size_t n = 4 * (size_t)mesh->tetCount;
    for (size_t i = 0; i < n; ++i)
        if (mesh->tets[i] < 0 || mesh->tets[i] >= mesh->vertexCount) return false;
    return true;
}
