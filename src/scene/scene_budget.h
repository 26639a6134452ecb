// SPDX-License-Identifier: MIT
// The memory budget of a scene load: what a body's mesh and solver state will take is
// estimated from its vertex and tet counts before anything is allocated, so that a scene
// asking for more memory than the machine has is refused at once with the figures, instead of
// running until an allocation fails (or the system kills the process).
#pragma once

#include "isochor/skin.h"
#include "isochor/world.h"
#include "scene/scene_reader.h"

/// Memory taken and allowed while one scene loads.
typedef struct icSceneBudget {
    int64_t limit;       ///< bytes the load may take (icSceneLoadOptions.maxMemory)
    int64_t used;        ///< bytes charged so far: the parsed JSON, the bodies built
    int64_t text;        ///< of which the parsed JSON
    icSolverType solver; ///< the scene's solver: its state per tet differs
    int workers;         ///< the solver's worker count (0 = every core)
} icSceneBudget;

/// Estimated peak bytes of parsing `bytes` of scene JSON (the text, the parse tree, the line
/// table).
int64_t icSceneBudget_JsonBytes(int64_t bytes);
/// Estimated bytes of a body of this size in a world of this solver and worker count (0 =
/// every core), its first steps included (model, state, solver workspaces).
int64_t icSceneBudget_BodyBytes(icSolverType solver, int workers, int64_t vertices,
                                int64_t tets);
/// Estimated peak bytes of generating a mesh of this size (the mesh, its grid bookkeeping)
/// and then building its body.
int64_t icSceneBudget_GenerateBytes(icSolverType solver, int workers, int64_t vertices,
                                    int64_t tets);

/// Estimated bytes of VIPER rods of this many segments, stepped (model, state, the collision
/// broad phase of a dense bundle).
int64_t icSceneBudget_RodBytes(int64_t segments);
/// Estimated peak bytes of loading a triangle surface file of `fileBytes` (a mesh collider, a
/// render surface, a rod surface): its triangles and vertices, their adjacency and a
/// collider's bounding-volume tree.
int64_t icSceneBudget_SurfaceFileBytes(int64_t fileBytes);
/// Estimated peak bytes of the tissue render surface of these capsules at cell size `cell`
/// (icGenerateTissueSurface): its triangles, vertices, edge map and skin embedding.
int64_t icSceneBudget_TissueSurfaceBytes(const icTissueCapsule *capsules, int count, double cell);
/// IC_OK when the surface file at `resolved` (a regular file; anything else is left to the
/// loader's own message) fits the budget as icSceneBudget_SurfaceFileBytes estimates it;
/// `use` says what the file is for ("mesh collider").
icResult icSceneBudget_NeedSurfaceFile(const icSceneReader *r, const cJSON *item,
                                       const char *path, const char *resolved, const char *use);

/// IC_OK when `bytes` more fit in the budget (nothing is charged); otherwise fails with
/// IC_ERR_OUT_OF_MEMORY at item: "<path>: <what> needs about N, over the memory budget of M"
/// (or "more than is left of" it, saying what the load holds already).
icResult icSceneBudget_Need(const icSceneReader *r, const cJSON *item, const char *path,
                            int64_t bytes, const char *what);
/// Adds bytes to what the load has taken.
void icSceneBudget_Charge(const icSceneReader *r, int64_t bytes);

/// "1.5 GiB (1610612736 bytes)": a byte count people can read, exact figure included.
void icSceneBudget_Format(int64_t bytes, char *out, size_t size);
