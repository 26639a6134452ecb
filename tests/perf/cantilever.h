// SPDX-License-Identifier: MIT
// The perf tests' hex-derived cantilever: a 12 x 3 x 3-cell bar (1 x 0.25 x 0.25 m), cells
// of 5 or 6 tets by `split`, pinned at its x = -0.5 end, in a world made from def.
#pragma once

#include "isochor/isochor.h"

#include <string.h>

/// NULL when the body or the pin cannot be made. withoutCells drops the mesh's hex cell data,
/// as a mesh read from a file has none.
static inline icWorld *icTest_Cantilever(const icWorldDef *def, int split, bool withoutCells) {
    icWorld *world = icCreateWorld(def);
    icTetMesh mesh = {0};
    int cells[3] = {12, 3, 3};
    icGenerateBox(&mesh, icVec3_Make(1, 0.25, 0.25), cells, split);
    if (withoutCells) {
        icFree(mesh.tetCell);
        mesh.tetCell = NULL;
        memset(mesh.cellCounts, 0, sizeof mesh.cellCounts);
    }
    icBodyId id;
    icResult r = icWorld_CreateSoftBody(world, &mesh, NULL, &id, NULL);
    icTetMesh_Destroy(&mesh);
    icPinDef pin = icDefaultPinDef();
    pin.boxMin = icVec3_Make(-1, -1, -1);
    pin.boxMax = icVec3_Make(-0.499, 1, 1);
    if (r == IC_OK) r = icBody_AddPin(world, id, &pin, NULL);
    if (r != IC_OK) {
        icDestroyWorld(world);
        return NULL;
    }
    return world;
}
