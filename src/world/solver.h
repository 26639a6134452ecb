// SPDX-License-Identifier: MIT
// The solver table: what the world asks of each solver. The world steps, hashes, checks and
// frees every solver through one icSolverOps; only src/world/solvers.c names them. Adding a
// solver is a folder that defines one icSolverOps and a row in that file's table.
#pragma once

#include "world/world_internal.h"

typedef struct icSolverOps {
    const char *name;     ///< as a scene names it ("xpbd", "newton", "incompressible")
    unsigned features;    ///< icSolverFeature bits: what it can do (docs/architecture.md)
    int autoMinTets;      ///< tets from which automatic workers go past one (docs/performance.md)
    /// Whether a body's material is one this solver can simulate; the common checks
    /// (positive moduli, nu in [0, 0.5], finite values) are done before. NULL: any.
    icResult (*checkMaterial)(const icSoftBodyDef *def, icDiagnostic *diag);
    /// One step of dt from the world's state (health checks wrap it).
    icResult (*step)(icWorld *world, icReal dt, icStepStats *stats);
    /// The static equilibrium (def checked); NULL without IC_FEATURE_STATIC_SOLVE.
    icResult (*solveStatic)(icWorld *world, const icStaticDef *def, icStepStats *stats);
    /// Folds the solver's own settings into the model hash. Called for every solver, in table
    /// order, whichever steps the world, so a solver's part must return h unchanged where
    /// its settings do not act.
    uint64_t (*hashSettings)(const icWorld *world, uint64_t h);
    /// Folds what only this solver holds of the scene (the incompressible solver's moving
    /// planes) into the model hash, after the bodies; called like hashSettings. NULL: nothing.
    uint64_t (*hashScene)(const icWorld *world, uint64_t h);
    /// Pressure and deviatoric stress norm per tet (either may be NULL); NULL: the world
    /// reads them from the XPBD multipliers of the last substep.
    void (*tetStress)(const icWorld *world, icReal *pressure, icReal *stressNorm);
    /// Reals per vertex the solver carries from step to step outside the state (contacts,
    /// warm starts); 0: none. Checkpoints (section INCP) and the health checks' rollback copy
    /// them with getMemory and put them back with setMemory.
    int memoryPerVertex;
    void (*getMemory)(const icWorld *world, icReal *memory);
    icResult (*setMemory)(icWorld *world, const icReal *memory);
    /// Frees the workspace the solver keeps in the world; NULL: none.
    void (*destroy)(icWorld *world);
} icSolverOps;

/// Whether the table has a solver of that type.
bool icSolver_Exists(icSolverType type);
/// The solver of that type (asserted to exist).
const icSolverOps *icSolver_Ops(icSolverType type);
/// The one that steps this world.
static inline const icSolverOps *icWorld_Solver(const icWorld *world) {
    return icSolver_Ops(world->model.def.solver);
}
/// Every solver's hashSettings in table order.
uint64_t icSolver_HashAllSettings(const icWorld *world, uint64_t h);
/// Every solver's hashScene in table order.
uint64_t icSolver_HashAllScenes(const icWorld *world, uint64_t h);
/// Every solver's destroy.
void icSolver_DestroyAll(icWorld *world);
