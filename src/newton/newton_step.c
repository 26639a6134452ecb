// SPDX-License-Identifier: MIT
// The force-based Newton solver driven from a world: FEM model from the bodies, DOF mask
// and targets from the pins, stepping the world's state.
#include "core/hash.h"
#include "fem/fem_internal.h"
#include "newton/contact_potential.h"
#include "world/solver.h"

#include <limits.h>
#include <math.h>

struct icNewtonCache {
    int revision; ///< model revision the FEM model was built for
    icFemModel fem;
    icNewtonSolver *solver;
    unsigned char *mask;        ///< (vertexCount x 3)
    icReal *targets;            ///< (vertexCount x 3)
    icContactPotential contact; ///< planes and colliders (src/newton/contact_potential.c)
};

void icNewtonCache_Destroy(icNewtonCache *cache) {
    if (!cache) return;
    icDestroyNewtonSolver(cache->solver);
    icFemModel_Destroy(&cache->fem);
    icFree(cache->mask);
    icFree(cache->targets);
    icContactPotential_Destroy(&cache->contact);
    icFree(cache);
}

static icResult ensureCache(icWorld *world, icNewtonCache **cachePtr, const icNewtonDef *def) {
    icModel *m = &world->model;
    if (m->vertexCount == 0 || m->tetCount == 0) return IC_ERR_EMPTY;
    // The assembly and PCG run on the caller's thread; the world's per-step passes (the
    // health checks' census, the output fields) run on its workers.
    icResult pr = icModel_EnsurePool(m);
    if (pr != IC_OK) return pr;
    icNewtonCache *c = *cachePtr;
    if (c && c->revision == m->revision && c->fem.vertexCount == m->vertexCount) {
        icNewtonSolver_SetDef(c->solver, def);
        return IC_OK;
    }
    icNewtonCache_Destroy(c);
    *cachePtr = NULL;
    c = IC_ALLOC_ZERO(icNewtonCache, 1);
    if (!c) return IC_ERR_OUT_OF_MEMORY;
    icMaterial *materials = IC_ALLOC(icMaterial, m->bodyCount);
    icResult r = materials ? IC_OK : IC_ERR_OUT_OF_MEMORY;
    for (int b = 0; b < m->bodyCount && r == IC_OK; ++b) r = icModel_FemMaterial(m, b, &materials[b]);
    if (r == IC_OK)
        r = icFemModel_CreateEx(&c->fem, m->vertexCount, m->restPositions, m->tetCount, m->tets,
                                m->bodyCount, materials, m->tetBody, true, NULL);
    icFree(materials);
    if (r == IC_OK) {
        c->solver = icCreateNewtonSolver(&c->fem, def);
        c->mask = IC_ALLOC(unsigned char, 3 * (size_t)m->vertexCount);
        c->targets = IC_ALLOC(icReal, 3 * (size_t)m->vertexCount);
        if (!c->solver || !c->mask || !c->targets) r = IC_ERR_OUT_OF_MEMORY;
    }
    if (r != IC_OK) {
        icNewtonCache_Destroy(c);
        return r;
    }
    c->revision = m->revision;
    *cachePtr = c;
    return IC_OK;
}

// Pinned axes follow their pin at time t; massless (isolated) vertices are held.
static void fillConstraints(const icModel *m, const icState *s, icNewtonCache *c, icReal t) {
    for (int v = 0; v < m->vertexCount; ++v) {
        icVec3 x = icVec3_Load(s->x, v);
        icVec3 target = m->vertexPin[v] >= 0 ? icModel_PinPosition(m, v, t) : x;
        const bool *axes = m->vertexPin[v] >= 0 ? m->pins[m->vertexPin[v]].axes : NULL;
        bool isolated = !(m->mass[v] > 0);
        for (int i = 0; i < 3; ++i) {
            bool held = isolated || (axes && axes[i]);
            c->mask[3 * v + i] = !held;
            c->targets[3 * v + i] = held ? icVec3_Get(target, i) : 0.0;
        }
    }
}

static int countInverted(const icNewtonCache *c, const icReal *x) {
    int count = 0;
    for (int t = 0; t < c->fem.tetCount; ++t)
        if (icMat3_Det(icFem_TetF(&c->fem, x, t)) <= 0) ++count;
    return count;
}

static void fillStepStats(icStepStats *stats, const icNewtonStats *ns, const icNewtonCache *c,
                          const icReal *x, double ms, icResult r) {
    if (!stats) return;
    memset(stats, 0, sizeof *stats);
    stats->substeps = 1;
    stats->sweeps = ns->iterations;
    stats->milliseconds = ms;
    stats->invertedTets = countInverted(c, x);
    stats->converged = ns->converged;
    stats->residual = ns->initialResidual > 0 ? ns->residual / ns->initialResidual : 0;
    stats->nan = r == IC_ERR_NUMERICAL;
}

// Gathers the planes and colliders (posed from the state's time to t1) as the solver's
// potential, with friction lagged from xn when frictionEps > 0; *active: anything to touch.
static icResult beginContact(icNewtonCache *c, icWorld *world, const icReal *xn, icReal t1,
                             icReal stiffness, icReal frictionEps, bool *active) {
    double t0 = icNowMs();
    icResult r = icContactPotential_Begin(&c->contact, world, xn, world->state->time, t1, stiffness,
                                          frictionEps > 0, frictionEps);
    world->profile.collide += icNowMs() - t0;
    *active = r == IC_OK && icContactPotential_Active(&c->contact);
    icNewtonSolver_SetPotential(c->solver, *active ? icContactPotential_Evaluate : NULL,
                                &c->contact);
    return r;
}

icResult icNewton_Step(icWorld *world, icNewtonCache **cache, const icNewtonDef *def, icReal dt,
                       icStepStats *stats, icNewtonStats *newtonStats) {
    IC_ASSERT(world && cache);
    double t0 = icNowMs();
    icNewtonStats ns;
    memset(&ns, 0, sizeof ns);
    if (!(dt > 0) || !isfinite(dt)) return IC_ERR_INVALID_ARGUMENT;
    icNewtonDef d = def ? *def : icDefaultNewtonDef();
    d.massDamping += world->model.def.linearDamping;
    icResult r = ensureCache(world, cache, &d);
    if (r != IC_OK) return r;
    icNewtonCache *c = *cache;
    icModel *m = &world->model;
    icState *s = world->state;
    fillConstraints(m, s, c, s->time + dt);
    icNewtonInput in = {c->mask, c->targets, NULL, m->def.gravity};
    memcpy(s->xPrev, s->x, sizeof(icReal) * 3 * (size_t)m->vertexCount);
    // Contact at the step's end (animated colliders push), friction lagged from x^n = xPrev.
    bool contact;
    r = beginContact(c, world, s->xPrev, s->time + dt, d.contactStiffness, d.frictionVelocity * dt,
                     &contact);
    if (r != IC_OK) return r;
    // Stoppable between iterations only where the world can go back to the step's start.
    icNewtonSolver_SetInterrupt(c->solver, world->cancellable ? world->interrupt : NULL);
    r = icNewtonSolver_Step(c->solver, &in, dt, s->x, s->v, &ns);
    if (r != IC_ERR_NUMERICAL && r != IC_ERR_INTERRUPTED) {
        s->time += dt;
        s->lastSubstep = dt;
        s->substepCount++;
    }
    fillStepStats(stats, &ns, c, s->x, icNowMs() - t0, r);
    if (stats && contact) stats->contacts = icContactPotential_Count(&c->contact, s->x);
    if (newtonStats) *newtonStats = ns;
    return r;
}

icResult icNewton_SolveStatic(icWorld *world, icNewtonCache **cache, const icNewtonDef *def,
                              bool gravity, icStepStats *stats, icNewtonStats *newtonStats) {
    IC_ASSERT(world && cache);
    double t0 = icNowMs();
    icNewtonStats ns;
    memset(&ns, 0, sizeof ns);
    icNewtonDef d = def ? *def : icDefaultNewtonDef();
    icResult r = ensureCache(world, cache, &d);
    if (r != IC_OK) return r;
    icNewtonCache *c = *cache;
    icModel *m = &world->model;
    icState *s = world->state;
    fillConstraints(m, s, c, s->time);
    icNewtonInput in = {c->mask, c->targets, NULL, gravity ? m->def.gravity : icVec3_Make(0, 0, 0)};
    // Colliders hold their pose at the current time; no friction without a time step (the
    // start positions are then never read).
    bool contact;
    r = beginContact(c, world, s->x, s->time, d.contactStiffness, 0, &contact);
    if (r != IC_OK) return r;
    icNewtonSolver_SetInterrupt(c->solver, world->cancellable ? world->interrupt : NULL);
    r = icNewtonSolver_SolveStatic(c->solver, &in, s->x, &ns);
    memset(s->v, 0, sizeof(icReal) * 3 * (size_t)m->vertexCount);
    fillStepStats(stats, &ns, c, s->x, icNowMs() - t0, r);
    if (stats && contact) stats->contacts = icContactPotential_Count(&c->contact, s->x);
    if (newtonStats) *newtonStats = ns;
    return r;
}

// ---------------------------------------------------------------------------------------
// The Newton solver's row of the solver table (src/world/solver.h): Sifakis & Barbič 2012.

// A force-based solver needs the finite Lamé pair (Macklin & Müller's nu = 0.5 is XPBD's).
static icResult checkMaterial(const icSoftBodyDef *def, icDiagnostic *diag) {
    if (def->poissonRatio >= 0.5)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                          "poisson_ratio 0.5 makes lambda infinite, which a force-based "
                          "solver cannot use; use nu < 0.5 or the XPBD solver");
    return IC_OK;
}

static icResult step(icWorld *world, icReal dt, icStepStats *stats) {
    return icNewton_Step(world, &world->newton, &world->newtonDef, dt, stats, &world->newtonStats);
}

static icResult solveStatic(icWorld *world, const icStaticDef *def, icStepStats *stats) {
    return icNewton_SolveStatic(world, &world->newton, &world->newtonDef, def->gravity, stats,
                                &world->newtonStats);
}

// The Newton settings are folded into every world's hash (they always were: checkpoints of
// XPBD worlds carry them); the contact settings only where something can be touched, so the
// hashes of worlds without planes or colliders stay what they were.
static uint64_t hashSettings(const icWorld *world, uint64_t h) {
    const icNewtonDef *n = &world->newtonDef;
    h = icHash_Word(h, (uint64_t)n->maxIterations);
    h = icHash_Real(h, n->residualTolerance);
    h = icHash_Real(h, n->absoluteTolerance);
    h = icHash_Real(h, n->stepTolerance);
    h = icHash_Real(h, n->cgTolerance);
    h = icHash_Word(h, (uint64_t)n->maxCGIterations);
    h = icHash_Word(h, (uint64_t)n->preconditioner);
    h = icHash_Word(h, (uint64_t)n->projectHessian);
    h = icHash_Word(h, (uint64_t)n->matrixFree);
    h = icHash_Word(h, (uint64_t)n->lineSearch);
    h = icHash_Real(h, n->stiffnessDamping);
    h = icHash_Real(h, n->massDamping);
    if (world->model.def.solver == IC_SOLVER_NEWTON &&
        (world->model.planeCount > 0 || icWorld_GetColliderCount(world) > 0)) {
        h = icHash_Real(h, n->contactStiffness);
        h = icHash_Real(h, n->frictionVelocity);
    }
    return h;
}

// Stress from the material at the current F: a force-based solver keeps no multipliers.
static bool femMaterial(const icModel *model, int b, const void *context, icMaterial *out) {
    (void)context;
    return icModel_FemMaterial(model, b, out) == IC_OK;
}

static void tetStress(const icWorld *world, icReal *pressure, icReal *stressNorm) {
    icModel_MaterialStress(&world->model, world->state->x, femMaterial, NULL, pressure, stressNorm);
}

static void destroy(icWorld *world) {
    icNewtonCache_Destroy(world->newton);
    world->newton = NULL;
}

const icSolverOps icNewtonSolverOps = {
    .name = "newton",
    .features = IC_FEATURE_STATIC_SOLVE | IC_FEATURE_ANY_MATERIAL,
    // The iterations run on one thread, and the passes the workers would take (the health
    // census) are a fraction of a percent of a step: one worker at any size.
    .autoMinTets = INT_MAX,
    .checkMaterial = checkMaterial,
    .step = step,
    .solveStatic = solveStatic,
    .hashSettings = hashSettings,
    .tetStress = tetStress,
    .destroy = destroy,
};
