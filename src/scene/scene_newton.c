// SPDX-License-Identifier: MIT
// Scene readers of the force-based solver types "newton" (backward Euler) and "quasistatic"
// (a Newton static solve per frame); keys and defaults are icNewtonDef's (fem.h).
#include "scene/scene_solver.h"

#include <string.h>

// "solver": {
//   "type": "newton",             backward Euler: each frame one step of dt (dynamic mode);
//                                 "quasistatic": each frame advances the pins by dt, then
//                                 solves for equilibrium without inertia (static mode)
//   "max_iterations": 50,         Newton iterations per step / solve, integer >= 1
//   "tolerance": 1e-6,            stop when |r|_inf <= tolerance |r_0|_inf, >= 0
//   "absolute_tolerance": 1e-10,  ... or |r|_inf <= this x force scale (max mu W^(2/3),
//                                 m|g|), >= 0
//   "step_tolerance": 1e-7,       ... or |Newton step|_inf <= this x rest size, >= 0
//   "cg_tolerance": 1e-4,         relative PCG tolerance (preconditioned norm), > 0
//   "max_cg_iterations": 1000,    PCG iterations per Newton iteration, integer >= 1
//   "preconditioner": "block_jacobi",  "none" | "jacobi" | "block_jacobi"
//   "project_hessian": true,      per-tet PSD projection (projected Newton)
//   "line_search": true,          backtracking on the incremental potential
//   "matrix_free": false,         cached per-tet Hessians instead of an assembled matrix
//   "stiffness_damping": 0,       Rayleigh gamma, s, >= 0 (no effect in quasistatic)
//   "mass_damping": 0,            Rayleigh alpha_M, 1/s, >= 0 (no effect in quasistatic)
//   "contact_stiffness": 100,     plane / collider penalty per vertex in units of E h, > 0
//   "friction_velocity": 1e-3,    eps_v of the smoothed friction, m/s, > 0 (newton only)
//   "gravity": true,              quasistatic only: include the scene's gravity
//   "workers": 0                  threads of the world's per-step passes (health census,
//                                 output fields; the Newton iterations run on one), integer
//                                 in [0, 1024], 0 = automatic (one worker: those passes are
//                                 a fraction of a percent of a step); results do not depend
//                                 on it
// }

// In icPreconditionerKind order.
static const char *const s_preconditioners[] = {"none", "jacobi", "block_jacobi"};
#define IC_PRECONDITIONER_NAME_COUNT 3

// The keys both types share; quasistatic adds "gravity".
#define IC_NEWTON_KEYS                                                                             \
    "type", "max_iterations", "tolerance", "absolute_tolerance", "step_tolerance", "cg_tolerance", \
        "max_cg_iterations", "preconditioner", "project_hessian", "line_search", "matrix_free",    \
        "stiffness_damping", "mass_damping", "contact_stiffness", "friction_velocity", "workers"

static icResult readNewtonDef(const icSceneReader *r, const cJSON *item, const char *path,
                              icNewtonDef *d) {
    icResult e;
    if ((e = icSceneReader_Int(r, item, path, "max_iterations", 1, 2147483647,
                               &d->maxIterations)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "tolerance", IC_RANGE_NON_NEGATIVE,
                                  &d->residualTolerance)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "absolute_tolerance", IC_RANGE_NON_NEGATIVE,
                                  &d->absoluteTolerance)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "step_tolerance", IC_RANGE_NON_NEGATIVE,
                                  &d->stepTolerance)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "cg_tolerance", IC_RANGE_POSITIVE,
                                  &d->cgTolerance)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "max_cg_iterations", 1, 2147483647,
                               &d->maxCGIterations)) != IC_OK)
        return e;
    int kind = (int)d->preconditioner;
    if ((e = icSceneReader_Enum(r, item, path, "preconditioner", s_preconditioners,
                                IC_PRECONDITIONER_NAME_COUNT, &kind)) != IC_OK)
        return e;
    d->preconditioner = (icPreconditionerKind)kind;
    if ((e = icSceneReader_Bool(r, item, path, "project_hessian", &d->projectHessian)) != IC_OK)
        return e;
    if ((e = icSceneReader_Bool(r, item, path, "line_search", &d->lineSearch)) != IC_OK) return e;
    if ((e = icSceneReader_Bool(r, item, path, "matrix_free", &d->matrixFree)) != IC_OK) return e;
    if ((e = icSceneReader_Number(r, item, path, "stiffness_damping", IC_RANGE_NON_NEGATIVE,
                                  &d->stiffnessDamping)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "mass_damping", IC_RANGE_NON_NEGATIVE,
                                  &d->massDamping)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "contact_stiffness", IC_RANGE_POSITIVE,
                                  &d->contactStiffness)) != IC_OK)
        return e;
    return icSceneReader_Number(r, item, path, "friction_velocity", IC_RANGE_POSITIVE,
                                &d->frictionVelocity);
}

// The world's workers, shared with the other solver types.
static icResult readWorkers(const icSceneReader *r, const cJSON *item, const char *path,
                            icSceneSolver *s) {
    return icSceneReader_Int(r, item, path, "workers", 0, IC_MAX_WORKERS, &s->worldDef.workerCount);
}

icResult icScene_ReadNewton(const icSceneReader *r, const cJSON *item, const char *path,
                            icSceneSolver *s) {
    static const char *const keys[] = {IC_NEWTON_KEYS, NULL};
    icResult e = icSceneReader_CheckObject(r, item, path, keys);
    if (e != IC_OK) return e;
    s->worldDef.solver = IC_SOLVER_NEWTON;
    s->mode = IC_MODE_DYNAMIC;
    if ((e = readWorkers(r, item, path, s)) != IC_OK) return e;
    return readNewtonDef(r, item, path, &s->newtonDef);
}

icResult icScene_ReadQuasistatic(const icSceneReader *r, const cJSON *item, const char *path,
                                 icSceneSolver *s) {
    static const char *const keys[] = {IC_NEWTON_KEYS, "gravity", NULL};
    icResult e = icSceneReader_CheckObject(r, item, path, keys);
    if (e != IC_OK) return e;
    s->worldDef.solver = IC_SOLVER_NEWTON;
    s->mode = IC_MODE_STATIC;
    if ((e = readWorkers(r, item, path, s)) != IC_OK ||
        (e = readNewtonDef(r, item, path, &s->newtonDef)) != IC_OK)
        return e;
    // The runner's static path reads only the gravity switch for the Newton solver.
    return icSceneReader_Bool(r, item, path, "gravity", &s->staticDef.gravity);
}
