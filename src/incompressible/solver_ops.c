// SPDX-License-Identifier: MIT
// The incompressible solver's row of the solver table (src/world/solver.h): Irving, Schroeder
// & Fedkiw 2007.
#include "core/hash.h"
#include "incompressible/incompressible_checkpoint.h"
#include "incompressible/incompressible_internal.h"
#include "isochor/incompressible.h"
#include "world/solver.h"

#include <math.h>

static icResult step(icWorld *world, icReal dt, icStepStats *stats) {
    return icIncompressible_Step(world, &world->incompressible, dt, stats);
}

// The settings only where the solver steps: the hashes of XPBD and Newton worlds (and their
// checkpoints) stay what they were.
static uint64_t hashSettings(const icWorld *world, uint64_t h) {
    if (world->model.def.solver != IC_SOLVER_INCOMPRESSIBLE) return h;
    icIncompressibleDef in = icWorld_GetIncompressibleDef(world);
    const icPressureDef *p = &in.pressure;
    h = icHash_Word(h, (uint64_t)p->solver);
    h = icHash_Real(h, p->tolerance);
    h = icHash_Real(h, p->absoluteTolerance);
    h = icHash_Word(h, (uint64_t)p->maxIterations);
    h = icHash_Word(h, (uint64_t)p->jacobi);
    h = icHash_Word(h, (uint64_t)p->sweeps);
    h = icHash_Word(h, (uint64_t)in.projections);
    h = icHash_Real(h, in.recoveryTime);
    h = icHash_Real(h, in.volumetricScale);
    h = icHash_Real(h, in.massDamping);
    h = icHash_Word(h, (uint64_t)in.implicitVelocitySolve);
    h = icHash_Word(h, (uint64_t)in.contactInForceSolve);
    h = icHash_Word(h, (uint64_t)in.selfContact);
    h = icHash_Real(h, in.proximity);
    h = icHash_Real(h, in.cgTolerance);
    h = icHash_Word(h, (uint64_t)in.maxCGIterations);
    h = icHash_Word(h, (uint64_t)in.positionNewtonIterations);
    h = icHash_Real(h, in.positionTolerance);
    h = icHash_Real(h, in.maxStepMotion);
    h = icHash_Word(h, (uint64_t)in.maxSubsteps);
    // Folded in only when on: checkpoints written before the key existed still load.
    if (in.staticFriction) h = icHash_Word(h, 1);
    // Likewise only when off (the default is on).
    if (!in.warmStart) h = icHash_Word(h, 2);
    // Likewise only when not the default 3.
    if (in.localNewtonLayers != 3) h = icHash_Word(h, 3 + (uint64_t)in.localNewtonLayers);
    // Likewise only when not the default (auto); 0x7650 tags the word as this key's.
    if (in.velocityProjection != IC_VELOCITY_PROJECTION_AUTO)
        h = icHash_Word(h, 0x7650 + (uint64_t)in.velocityProjection);
    // Likewise only when not the default 0.5; 0x7266 tags the word as this key's.
    if (in.ringErrorFloor != icDefaultIncompressibleDef().ringErrorFloor) {
        h = icHash_Word(h, 0x7266);
        h = icHash_Real(h, in.ringErrorFloor);
    }
    return h;
}

// The pressure lives on the vertices and acts per tet through the average of the tet's four
// (Irving et al. 2007, sec. 3); the deviatoric stress norm is that of the elastic material
// (icIncompressible_ElasticMaterial), less its own pressure part. The pressure is 0 before
// the first step.
static bool elasticMaterial(const icModel *model, int b, const void *context, icMaterial *out) {
    *out = icIncompressible_ElasticMaterial(&model->bodies[b], *(const icReal *)context);
    return true;
}

static void tetStress(const icWorld *world, icReal *pressure, icReal *stressNorm) {
    const icModel *m = &world->model;
    icReal scale = icWorld_GetIncompressibleDef(world).volumetricScale;
    icModel_MaterialStress(m, world->state->x, elasticMaterial, &scale, NULL, stressNorm);
    if (!pressure) return;
    icReal *p = IC_ALLOC(icReal, (size_t)m->vertexCount + 1);
    if (p) icWorld_GetVertexPressure(world, p);
    for (int t = 0; t < m->tetCount; ++t) {
        const int *v = m->tets + 4 * t;
        pressure[t] = p ? 0.25 * (p[v[0]] + p[v[1]] + p[v[2]] + p[v[3]]) : NAN;
    }
    icFree(p);
}

static void destroy(icWorld *world) {
    icIncompressibleCache_Destroy(world->incompressible);
    world->incompressible = NULL;
}

const icSolverOps icIncompressibleSolverOps = {
    .name = "incompressible",
    .features = IC_FEATURE_MOVING_PLANES | IC_FEATURE_ANY_MATERIAL,
    // 2 workers lost at 6,000 tets and gained from 8,000 (the FEM tet pass).
    .autoMinTets = 7000,
    .step = step,
    .hashSettings = hashSettings,
    .hashScene = icIncompressible_HashMovingPlanes,
    .tetStress = tetStress,
    .memoryPerVertex = IC_INCOMPRESSIBLE_MEMORY_REALS,
    .getMemory = icIncompressible_GetMemory,
    .setMemory = icIncompressible_SetMemory,
    .destroy = destroy,
};
