// SPDX-License-Identifier: MIT
// The scene's "solver" object: the settings each solver type reads, and the readers of the
// force-based types (the XPBD reader lives in scene_load.c beside the format comment).
#pragma once

#include "scene/scene_reader.h"
#include "isochor/fem.h"
#include "isochor/incompressible.h"

/// Solver settings a solver type reads from "solver".
typedef struct icSceneSolver {
    icWorldDef worldDef;
    icSolverMode mode;
    icStaticDef staticDef;
    icNewtonDef newtonDef; ///< applied to the world when worldDef.solver is IC_SOLVER_NEWTON
    icIncompressibleDef incompressibleDef; ///< ... IC_SOLVER_INCOMPRESSIBLE (scene_incompressible.c)
} icSceneSolver;

typedef icResult icSolverReadFn(const icSceneReader *r, const cJSON *solver, const char *path,
                                icSceneSolver *settings);

/// "newton": backward Euler with Newton iterations, each frame one step of dt.
icResult icScene_ReadNewton(const icSceneReader *r, const cJSON *item, const char *path,
                            icSceneSolver *s);
/// "incompressible": deviatoric FEM with one-ring pressure projections (Irving et al. 2007).
icResult icScene_ReadIncompressible(const icSceneReader *r, const cJSON *item, const char *path,
                                    icSceneSolver *s);
/// "quasistatic": each frame advances the pins by dt, then a Newton static solve.
icResult icScene_ReadQuasistatic(const icSceneReader *r, const cJSON *item, const char *path,
                                 icSceneSolver *s);
