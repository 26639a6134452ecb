// SPDX-License-Identifier: MIT
// Pieces of the scene loader shared between its files.
#pragma once

#include "scene/scene_reader.h"
#include "isochor/formats.h"

/// Reads bodies[index] (object at `item`, path e.g. "bodies[0]"), creates the body in
/// scene->world with its pins and fills scene->bodies[index].
icResult icScene_ReadBody(const icSceneReader *r, const cJSON *item, const char *path,
                          icScene *scene, int index);

/// Reads a body's "mesh" object into mesh (generated or loaded from a file).
icResult icScene_ReadMesh(const icSceneReader *r, const cJSON *item, const char *path,
                          icTetMesh *mesh);

/// Flattens a body onto the plane through its centroid with the body's scramble normal and
/// places each vertex uniformly at random within the body's extent in that plane
/// (deterministic in the seed).
void icScene_Scramble(icWorld *world, const icSceneBody *body);

/// Boundary-surface output of a run: OBJ/PLY per written frame and a PC2 point cache.
typedef struct icSurfaceOutput {
    bool obj, ply, pc2;
    char dir[1024];
    icTriSurface surface;      ///< the world's boundary at rest (meshVertex maps to the world)
    icPointCacheWriter cache;
    bool cacheOpen;
} icSurfaceOutput;

/// Prepares the surface, writes <stem>_surface.obj and opens <stem>.pc2 when asked.
icResult icSurfaceOutput_Open(icSurfaceOutput *out, const icScene *scene, icWorld *world,
                              const char *dir, const char *stem, int every, icDiagnostic *diag);
/// Writes frame_NNNNN.obj/.ply and appends a PC2 sample at the world's current positions.
icResult icSurfaceOutput_Frame(icSurfaceOutput *out, icWorld *world, int frame, icDiagnostic *diag);
/// Commits the point cache (when commit) and frees everything.
icResult icSurfaceOutput_Close(icSurfaceOutput *out, bool commit, icDiagnostic *diag);
