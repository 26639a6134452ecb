// SPDX-License-Identifier: MIT
// Scene reader of the solver type "incompressible" (Irving et al. 2007): deviatoric FEM with
// one-ring pressure projections; keys and defaults are icIncompressibleDef's (incompressible.h).
#include "scene/scene_solver.h"

// "solver": {
//   "type": "incompressible",
//   "projections": true,           the two pressure projections; false = standard FEM with
//                                  the same integrator (for comparisons, volumetric_scale 1)
//   "pressure_solver": "minres",   "minres" | "cg" (Jacobi-PCG, MINRES on breakdown)
//   "pressure_tolerance": 0.01,    relative residual of both pressure solves, > 0
//   "pressure_absolute_tolerance": 1e-10,  floor, relative to volume / dt, >= 0
//   "pressure_max_iterations": 200,  integer >= 1 (never more than the unknowns)
//   "jacobi": true,                Jacobi scaling of the pressure solves
//   "sweeps": 4,                   q, contact projection sweeps, integer >= 1
//   "recovery_time": 0,            Dtau, s, >= 0 (0 = no clamp)
//   "volumetric_scale": 0,         fraction of lambda kept in the elastic forces, [0, 1]
//   "mass_damping": 0,             1/s, >= 0
//   "implicit_velocity_solve": true,  stiffness in the second half step too
//   "contact_in_force_solve": false,   contact normals also filter the first half step
//   "self_contact": false,         proximity pairs as pressure constraints
//   "proximity": 0.005,            their distance, m, > 0
//   "cg_tolerance": 1e-4,          force solves, > 0
//   "max_cg_iterations": 500,      integer >= 1
//   "position_newton_iterations": 5,  eq. 1 re-linearised at the end positions, integer >= 1
//   "position_tolerance": 1e-3,    those stop once every ring is this close to its goal, > 0
//   "ring_error_floor": 0.5,       ... relative to the larger of its rest volume and this
//                                  fraction of its body's mean ring, >= 0 (0 = its own alone)
//   "local_newton_layers": 3,      the later ones on the rings off their goal and this many
//                                  rings around them, integer >= 0 (0 = the whole mesh)
//   "max_step_motion": 0.25,       adaptive substeps: mean edges a vertex may move per
//                                  substep, >= 0 (0 = no substeps)
//   "max_substeps": 64,            integer >= 1
//   "static_friction": false,      contacts with planes that friction stopped stick
//   "warm_start": true,            the first eq. 1 solve starts from the last pressure
//   "velocity_projection": "auto"  where eq. 2 runs: "end" (on v^{n+1} at x^{n+1}) |
//                                  "midpoint" (step 6 of the paper's list) | "auto" (end
//                                  without self_contact, midpoint with it)
//   "workers": 0                   threads of the FEM and pressure operators, integer in
//                                  [0, 1024], 0 = automatic; results do not depend on it
// }

static const char *const s_pressureSolvers[] = {"minres", "cg"};

icResult icScene_ReadIncompressible(const icSceneReader *r, const cJSON *item, const char *path,
                                    icSceneSolver *s) {
    static const char *const keys[] = {"type",
                                       "projections",
                                       "pressure_solver",
                                       "pressure_tolerance",
                                       "pressure_absolute_tolerance",
                                       "pressure_max_iterations",
                                       "jacobi",
                                       "sweeps",
                                       "recovery_time",
                                       "volumetric_scale",
                                       "mass_damping",
                                       "implicit_velocity_solve",
                                       "contact_in_force_solve",
                                       "self_contact",
                                       "proximity",
                                       "cg_tolerance",
                                       "max_cg_iterations",
                                       "position_newton_iterations",
                                       "position_tolerance",
                                       "ring_error_floor",
                                       "local_newton_layers",
                                       "max_step_motion",
                                       "max_substeps",
                                       "static_friction",
                                       "warm_start",
                                       "velocity_projection",
                                       "workers",
                                       NULL};
    icResult e = icSceneReader_CheckObject(r, item, path, keys);
    if (e != IC_OK) return e;
    s->worldDef.solver = IC_SOLVER_INCOMPRESSIBLE;
    s->mode = IC_MODE_DYNAMIC;
    icIncompressibleDef *d = &s->incompressibleDef;
    *d = icDefaultIncompressibleDef();
    int kind = (int)d->pressure.solver;
    if ((e = icSceneReader_Enum(r, item, path, "pressure_solver", s_pressureSolvers, 2, &kind)) !=
        IC_OK)
        return e;
    d->pressure.solver = (icPressureSolver)kind;
    if ((e = icSceneReader_Bool(r, item, path, "projections", &d->projections)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "pressure_tolerance", IC_RANGE_POSITIVE,
                                  &d->pressure.tolerance)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "pressure_absolute_tolerance",
                                  IC_RANGE_NON_NEGATIVE, &d->pressure.absoluteTolerance)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "pressure_max_iterations", 1, 1000000,
                               &d->pressure.maxIterations)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "jacobi", &d->pressure.jacobi)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "sweeps", 1, 1000, &d->pressure.sweeps)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "recovery_time", IC_RANGE_NON_NEGATIVE,
                                  &d->recoveryTime)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "volumetric_scale",
                                  (icRange){0, 1, false, false}, &d->volumetricScale)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "mass_damping", IC_RANGE_NON_NEGATIVE,
                                  &d->massDamping)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "implicit_velocity_solve",
                                &d->implicitVelocitySolve)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "contact_in_force_solve",
                                &d->contactInForceSolve)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "self_contact", &d->selfContact)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "proximity", IC_RANGE_POSITIVE,
                                  &d->proximity)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "cg_tolerance", IC_RANGE_POSITIVE,
                                  &d->cgTolerance)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "max_cg_iterations", 1, 1000000,
                               &d->maxCGIterations)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "position_newton_iterations", 1, 1000,
                               &d->positionNewtonIterations)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "position_tolerance", IC_RANGE_POSITIVE,
                                  &d->positionTolerance)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "ring_error_floor", IC_RANGE_NON_NEGATIVE,
                                  &d->ringErrorFloor)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "local_newton_layers", 0, 1000000,
                               &d->localNewtonLayers)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "max_step_motion", IC_RANGE_NON_NEGATIVE,
                                  &d->maxStepMotion)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "max_substeps", 1, 100000, &d->maxSubsteps)) !=
        IC_OK)
        return e;
    if ((e = icSceneReader_Bool(r, item, path, "static_friction", &d->staticFriction)) != IC_OK)
        return e;
    if ((e = icSceneReader_Bool(r, item, path, "warm_start", &d->warmStart)) != IC_OK) return e;
    if ((e = icSceneReader_Int(r, item, path, "workers", 0, IC_MAX_WORKERS,
                               &s->worldDef.workerCount)) != IC_OK)
        return e;
    // The names in icVelocityProjection's order, from the library's own table.
    const char *projections[] = {icVelocityProjectionName(IC_VELOCITY_PROJECTION_AUTO),
                                 icVelocityProjectionName(IC_VELOCITY_PROJECTION_END),
                                 icVelocityProjectionName(IC_VELOCITY_PROJECTION_MIDPOINT)};
    int where = (int)d->velocityProjection;
    if ((e = icSceneReader_Enum(r, item, path, "velocity_projection", projections, 3, &where)) !=
        IC_OK)
        return e;
    d->velocityProjection = (icVelocityProjection)where;
    return IC_OK;
}
