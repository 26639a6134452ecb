// SPDX-License-Identifier: MIT
// XPBD time stepping with substeps (seed 000, Algorithm 1) and the static solve used by the
// twist and stretch experiments.
#include "world/world_internal.h"

#include <math.h>
#include <time.h>

static double nowMs(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

// Start of a substep: remember x, integrate external forces on free axes, and move held
// axes to where their pin puts them at time t (kinematic vertices).
static void predict(const icModel *m, icState *s, icReal h, icReal t, icVec3 gravity, bool inertia) {
    for (int v = 0; v < m->vertexCount; ++v) {
        icVec3 x = icVec3_Load(s->x, v);
        icVec3_Store(s->xPrev, v, x);
        icVec3 vel = inertia ? icVec3_Load(s->v, v) : icVec3_Make(0, 0, 0);
        icVec3 w = icVec3_Load(m->invMass, v);
        icVec3 pinned = m->vertexPin[v] >= 0 ? icModel_PinPosition(m, v, t) : x;
        // Axis by axis: free axes fall, held ones follow their pin (or stay).
        if (w.x > 0) { vel.x += h * gravity.x; x.x += h * vel.x; } else x.x = pinned.x;
        if (w.y > 0) { vel.y += h * gravity.y; x.y += h * vel.y; } else x.y = pinned.y;
        if (w.z > 0) { vel.z += h * gravity.z; x.z += h * vel.z; } else x.z = pinned.z;
        icVec3_Store(s->v, v, vel);
        icVec3_Store(s->x, v, x);
    }
}

// v = (x - x_prev) / h, then the world's linear damping, implicit so any c h is stable.
static void updateVelocities(const icModel *m, icState *s, icReal h) {
    icReal scale = 1.0 / (h * (1.0 + m->def.linearDamping * h));
    for (int i = 0; i < 3 * m->vertexCount; ++i) s->v[i] = (s->x[i] - s->xPrev[i]) * scale;
}

static void clearMultipliers(const icModel *m, icState *s) {
    if (m->tetCount == 0) return;
    memset(s->lambdaD, 0, sizeof(icReal) * (size_t)m->tetCount);
    memset(s->lambdaH, 0, sizeof(icReal) * (size_t)m->tetCount);
}

static bool positionsFinite(const icModel *m, const icState *s) {
    for (int i = 0; i < 3 * m->vertexCount; ++i)
        if (!isfinite(s->x[i])) return false;
    return true;
}

static int countInverted(const icModel *m, const icState *s) {
    int count = 0;
    for (int t = 0; t < m->tetCount; ++t)
        if (icMat3_Det(icModel_TetF(m, s->x, t)) <= 0) ++count;
    return count;
}

icResult icXpbd_Step(icWorld *world, icState *s, icReal dt, icStepStats *stats) {
    icModel *m = &world->model;
    icStepStats local = {0};
    double t0 = nowMs();
    icResult r = icModel_UpdateColouring(m);
    if (r != IC_OK) return r;
    int substeps = m->def.substeps, iterations = m->def.iterations;
    icReal h = dt / substeps;
    int contacts = 0;
    for (int step = 0; step < substeps; ++step) {
        predict(m, s, h, s->time + h, m->def.gravity, true);
        // Multipliers restart every substep (seed 000, Algorithm 1).
        clearMultipliers(m, s);
        for (int it = 0; it < iterations; ++it) {
            icXpbd_Sweep(m, s, h);
            contacts = icXpbd_ProjectPlanes(m, s);
        }
        updateVelocities(m, s, h);
        s->time += h;
        s->lastSubstep = h;
        s->substepCount++;
    }
    local.substeps = substeps;
    local.sweeps = substeps * iterations;
    local.contacts = contacts;
    local.nan = !positionsFinite(m, s);
    local.invertedTets = local.nan ? m->tetCount : countInverted(m, s);
    local.converged = !local.nan;
    local.milliseconds = nowMs() - t0;
    if (stats) *stats = local;
    return local.nan ? IC_ERR_NUMERICAL : IC_OK;
}

static icReal restSize(const icModel *m) {
    if (m->vertexCount == 0) return 1;
    icVec3 lo = icVec3_Load(m->restPositions, 0), hi = lo;
    for (int v = 1; v < m->vertexCount; ++v) {
        icVec3 p = icVec3_Load(m->restPositions, v);
        lo = icVec3_Min(lo, p);
        hi = icVec3_Max(hi, p);
    }
    icReal d = icVec3_Distance(lo, hi);
    return d > 0 ? d : 1;
}

static icReal kineticEnergy(const icModel *m, const icState *s) {
    icReal e = 0;
    for (int v = 0; v < m->vertexCount; ++v) e += 0.5 * m->mass[v] * icVec3_LengthSquared(icVec3_Load(s->v, v));
    return e;
}

// Dynamic relaxation: XPBD substeps of size h that keep their inertia, with kinetic damping
// (all velocities are zeroed whenever the kinetic energy passes a peak). Momentum carries
// the slow, smooth modes that plain Gauss-Seidel sweeps barely move, so the sweep count grows
// like the square root of the stiffness ratio rather than the ratio. The fixed point is the
// rest state of the dynamic solver with this h: the equilibrium of the constraint energies
// up to XPBD's O(h^2) linearisation error. Ends when no vertex moves by more than
// tolerance * size in a substep.
icResult icXpbd_SolveStatic(icWorld *world, icState *s, const icStaticDef *def, icStepStats *stats) {
    icModel *m = &world->model;
    icStepStats local = {0};
    double t0 = nowMs();
    icResult r = icModel_UpdateColouring(m);
    if (r != IC_OK) return r;
    icReal h = def->pseudoStep;
    icReal size = restSize(m);
    icVec3 g = def->gravity ? m->def.gravity : icVec3_Make(0, 0, 0);
    icReal residual = INFINITY, previousEnergy = 0;
    int sweeps = 0, contacts = 0;
    memset(s->v, 0, sizeof(icReal) * 3 * (size_t)m->vertexCount);
    while (sweeps < def->maxSweeps) {
        predict(m, s, h, s->time, g, true);
        clearMultipliers(m, s);
        for (int it = 0; it < def->iterationsPerStep && sweeps < def->maxSweeps; ++it, ++sweeps) {
            icXpbd_Sweep(m, s, h);
            contacts = icXpbd_ProjectPlanes(m, s);
        }
        updateVelocities(m, s, h);
        s->lastSubstep = h;
        icReal energy = kineticEnergy(m, s);
        if (energy < previousEnergy) {
            memset(s->v, 0, sizeof(icReal) * 3 * (size_t)m->vertexCount);
            energy = 0;
        }
        previousEnergy = energy;
        icReal move = 0;
        for (int i = 0; i < 3 * m->vertexCount; ++i) {
            icReal d = fabs(s->x[i] - s->xPrev[i]);
            if (!(d <= move)) move = d; // also catches NaN
        }
        residual = move / size;
        if (!isfinite(residual) || residual < def->tolerance) break;
    }
    memset(s->v, 0, sizeof(icReal) * 3 * (size_t)m->vertexCount);
    local.sweeps = sweeps;
    local.residual = residual;
    local.contacts = contacts;
    local.nan = !positionsFinite(m, s);
    local.converged = !local.nan && residual < def->tolerance;
    local.invertedTets = local.nan ? m->tetCount : countInverted(m, s);
    local.milliseconds = nowMs() - t0;
    if (stats) *stats = local;
    if (local.nan) return IC_ERR_NUMERICAL;
    return local.converged ? IC_OK : IC_ERR_NOT_CONVERGED;
}

icResult icWorld_Step(icWorld *world, icReal dt, icStepStats *stats) {
    IC_ASSERT(world);
    if (!(dt > 0) || !isfinite(dt)) return IC_ERR_INVALID_ARGUMENT;
    if (world->model.def.solver == IC_SOLVER_NEWTON)
        return icNewton_Step(world, &world->newton, &world->newtonDef, dt, stats, &world->newtonStats);
    return icXpbd_Step(world, world->state, dt, stats);
}

icResult icWorld_SolveStatic(icWorld *world, const icStaticDef *def, icStepStats *stats) {
    IC_ASSERT(world);
    icStaticDef d = def ? *def : icDefaultStaticDef();
    if (!(d.pseudoStep > 0) || d.iterationsPerStep < 1 || d.maxSweeps < 1 || !(d.tolerance >= 0))
        return IC_ERR_INVALID_ARGUMENT;
    if (world->model.def.solver == IC_SOLVER_NEWTON)
        return icNewton_SolveStatic(world, &world->newton, &world->newtonDef, d.gravity, stats,
                                    &world->newtonStats);
    return icXpbd_SolveStatic(world, world->state, &d, stats);
}
