// SPDX-License-Identifier: MIT
// icGenerateBox: a box centred at the origin, cut into hex cells of 5 or 6 tets each.
#include "mesh/mesh_internal.h"

icResult icGenerateBox(icTetMesh *mesh, icVec3 size, const int cells[3], int split) {
    if (!mesh) return IC_ERR_INVALID_ARGUMENT;
    memset(mesh, 0, sizeof *mesh);
    if (!cells || !(size.x > 0 && size.y > 0 && size.z > 0) || !icVec3_IsFinite(size))
        return IC_ERR_INVALID_ARGUMENT;
    if (cells[0] < 1 || cells[1] < 1 || cells[2] < 1 || (split != 5 && split != 6))
        return IC_ERR_INVALID_ARGUMENT;
    if ((int64_t)cells[0] * cells[1] * cells[2] * split > IC_GENERATE_MAX_TETS)
        return IC_ERR_INVALID_ARGUMENT;
    icReal *coords[3] = {NULL, NULL, NULL};
    icResult result = IC_OK;
    for (int a = 0; a < 3 && result == IC_OK; ++a) {
        coords[a] = IC_ALLOC(icReal, (size_t)cells[a] + 1);
        if (!coords[a]) {
            result = IC_ERR_OUT_OF_MEMORY;
            break;
        }
        icReal half = 0.5 * icVec3_Get(size, a);
        // Planes at -h + 2h i/n, the last one exactly at +h so the box is exactly `size`.
        for (int i = 0; i < cells[a]; ++i)
            coords[a][i] = -half + (2 * half) * i / cells[a];
        coords[a][cells[a]] = half;
    }
    if (result == IC_OK)
        result = icMesh_BuildGrid(mesh, (const icReal *const *)coords, cells, split, NULL);
    for (int a = 0; a < 3; ++a)
        icFree(coords[a]);
    return result;
}
