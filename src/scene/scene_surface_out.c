// SPDX-License-Identifier: MIT
// A run's boundary surface for Blender and friends: OBJ or PLY per frame, and a PC2 point
// cache over the first frame's OBJ (issue 4, "surface sequences for Blender").
#include "scene/scene_internal.h"

#include <stdio.h>
#include <string.h>

static void updatePositions(icSurfaceOutput *out, const icReal *x) {
    for (int i = 0; i < out->surface.vertexCount; ++i)
        icVec3_Store(out->surface.positions, i, icVec3_Load(x, out->surface.meshVertex[i]));
}

icResult icSurfaceOutput_Open(icSurfaceOutput *out, const icScene *scene, icWorld *world,
                              const char *dir, const char *stem, int every, icDiagnostic *diag) {
    memset(out, 0, sizeof *out);
    out->obj = scene->writeObj;
    out->ply = scene->writePly;
    out->pc2 = scene->writePc2;
    // A world without tets (a rods-only scene) has no boundary surface to write.
    if (icWorld_GetTetCount(world) == 0) out->obj = out->ply = out->pc2 = false;
    if (!out->obj && !out->ply && !out->pc2) return IC_OK;
    snprintf(out->dir, sizeof out->dir, "%s", dir);
    icTetMesh view = {0};
    view.vertexCount = icWorld_GetVertexCount(world);
    view.tetCount = icWorld_GetTetCount(world);
    view.positions = (icReal *)icWorld_GetRestPositions(world);
    view.tets = (int *)icWorld_GetTets(world);
    icResult r = icTriSurface_FromTetMesh(&out->surface, &view, icWorld_GetPositions(world));
    if (r != IC_OK) return icDiag_Set(diag, r, dir, 0, "cannot extract the boundary surface");
    if (!out->pc2) return IC_OK;
    char path[1400];
    snprintf(path, sizeof path, "%s/%s_surface.obj", dir, stem);
    if ((r = icSaveSurfaceObj(path, &out->surface, diag)) != IC_OK) return r;
    snprintf(path, sizeof path, "%s/%s.pc2", dir, stem);
    r = icPointCache_Open(&out->cache, path, out->surface.vertexCount, 0.0f, (float)every, diag);
    out->cacheOpen = r == IC_OK;
    return r;
}

icResult icSurfaceOutput_Frame(icSurfaceOutput *out, icWorld *world, int frame, icDiagnostic *diag) {
    if (!out->obj && !out->ply && !out->pc2) return IC_OK;
    const icReal *x = icWorld_GetPositions(world);
    updatePositions(out, x);
    char path[1400];
    icResult r = IC_OK;
    if (out->obj) {
        snprintf(path, sizeof path, "%s/frame_%05d.obj", out->dir, frame);
        r = icSaveSurfaceObj(path, &out->surface, diag);
    }
    if (r == IC_OK && out->ply) {
        snprintf(path, sizeof path, "%s/frame_%05d.ply", out->dir, frame);
        r = icSaveSurfacePly(path, &out->surface, true, diag);
    }
    if (r == IC_OK && out->cacheOpen)
        r = icPointCache_Append(&out->cache, x, out->surface.meshVertex, diag);
    return r;
}

icResult icSurfaceOutput_Close(icSurfaceOutput *out, bool commit, icDiagnostic *diag) {
    icResult r = IC_OK;
    if (out->cacheOpen) {
        if (commit)
            r = icPointCache_Close(&out->cache, diag);
        else
            icPointCache_Abort(&out->cache);
    }
    icTriSurface_Destroy(&out->surface);
    memset(out, 0, sizeof *out);
    return r;
}
