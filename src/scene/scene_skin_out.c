// SPDX-License-Identifier: MIT
// The deformed render surfaces of a run, one OBJ per skin per written frame (Blender and
// friends import the sequence directly).
#include "scene/scene_contact.h"
#include "scene/scene_internal.h"

#include <stdio.h>

icResult icScene_WriteSkins(icWorld *world, const char *dir, int frame, icDiagnostic *diag) {
    int count = icWorld_GetSkinCount(world);
    for (int k = 0; k < count; ++k) {
        icTriSurface surface = {0};
        const icReal *positions;
        const int *triangles;
        icWorld_GetSkinSurface(world, k, &positions, &surface.vertexCount, &triangles,
                               &surface.triangleCount);
        // A view of the world's arrays: the writer only reads them.
        surface.positions = (icReal *)positions;
        surface.triangles = (int *)triangles;
        char path[1400];
        if (k == 0)
            snprintf(path, sizeof path, "%s/render_%05d.obj", dir, frame);
        else
            snprintf(path, sizeof path, "%s/render%d_%05d.obj", dir, k, frame);
        icResult r = icSaveSurfaceObj(path, &surface, diag);
        if (r != IC_OK) return r;
    }
    return IC_OK;
}
