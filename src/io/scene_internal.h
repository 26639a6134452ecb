// SPDX-License-Identifier: MIT
// Pieces of the scene loader shared between its files.
#pragma once

#include "io/scene_reader.h"

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
