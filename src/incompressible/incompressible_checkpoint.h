// SPDX-License-Identifier: MIT
// The memory the IC_SOLVER_INCOMPRESSIBLE step keeps between steps, for checkpoints
// (src/world/checkpoint.c, section INCP): the last step's obstacle contact normals and
// the vertex pressures of its two projections.
#pragma once

#include "isochor/world.h"

#include <stdint.h>

/// Reals the solver keeps per vertex between steps.
enum { IC_INCOMPRESSIBLE_MEMORY_REALS = 5 };

/// Copies the solver's per-vertex memory into memory (vertexCount x 5, in three arrays one
/// after the other): the contact normals (n x 3: the obstacle normal of each vertex's contact
/// in the last step, 0 where none; they seed the next step's contact prediction and
/// constraints), the pressures of the last velocity projection (n, Pa; output only) and of
/// the last position correction (n, Pa; the next step's first solve starts from them). Zeros
/// where the world has not stepped yet, or where the next step rebuilds the solver (the model
/// changed), since that step starts from zeros too.
void icIncompressible_GetMemory(const icWorld *world, icReal *memory);

/// Restores what icIncompressible_GetMemory gave, building the solver's cache first when
/// needed so that the next step starts from it. A world without tets has nothing to restore
/// (IC_OK). IC_ERR_OUT_OF_MEMORY, or the code of the cache's build.
icResult icIncompressible_SetMemory(icWorld *world, const icReal *memory);

/// Folds the moving planes (icWorld_AddMovingPlane) into a model hash; h unchanged when there
/// are none, so worlds without them keep their hashes.
uint64_t icIncompressible_HashMovingPlanes(const icWorld *world, uint64_t h);
