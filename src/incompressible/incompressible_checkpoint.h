// SPDX-License-Identifier: MIT
// The memory the IC_SOLVER_INCOMPRESSIBLE step keeps between steps, for checkpoints
// (src/world/checkpoint.c, section INCP): the last step's obstacle contact normals and
// vertex pressures.
#pragma once

#include "isochor/world.h"

#include <stdint.h>

/// Copies the solver's per-vertex memory into contactNormal (vertexCount x 3: the obstacle
/// normal of each vertex's contact in the last step, 0 where none; they seed the next step's
/// contact prediction and constraints) and pressure (vertexCount, Pa, the last velocity
/// projection's; output only). Zeros where the world has not stepped yet, or where the next
/// step rebuilds the solver (the model changed), since that step starts from zeros too.
void icIncompressible_GetMemory(const icWorld *world, icReal *contactNormal, icReal *pressure);

/// Restores what icIncompressible_GetMemory gave, building the solver's cache first when
/// needed so that the next step starts from it. A world without tets has nothing to restore
/// (IC_OK). IC_ERR_OUT_OF_MEMORY, or the code of the cache's build.
icResult icIncompressible_SetMemory(icWorld *world, const icReal *contactNormal,
                                    const icReal *pressure);

/// Folds the moving planes (icWorld_AddMovingPlane) into a model hash; h unchanged when there
/// are none, so worlds without them keep their hashes.
uint64_t icIncompressible_HashMovingPlanes(const icWorld *world, uint64_t h);
