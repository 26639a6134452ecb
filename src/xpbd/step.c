// SPDX-License-Identifier: MIT
// XPBD time stepping with substeps (Macklin & Müller 2021, Algorithm 1) and the static solve
// used by the twist and stretch experiments.
#include "world/world_internal.h"
#include "xpbd/layout.h"
#include "xpbd/substep.h"

#include <math.h>

// Start of a substep on the workers (xpbd/vertex_ops.h): x_prev = x, gravity on free axes,
// held axes to their pins at time t.
static void predict(icWorld *world, icState *s, icReal h, icReal t, icVec3 gravity, bool inertia) {
    icXpbdPass pass = {IC_XPBD_PASS_PREDICT, h, t, gravity, inertia};
    icXpbd_RunPass(world, s, &pass);
}

// v = (x - x_prev) / h with the world's linear damping, on the workers.
static void updateVelocities(icWorld *world, icState *s, icReal h) {
    icXpbdPass pass = {IC_XPBD_PASS_VELOCITIES, h, 0, {0, 0, 0}, false};
    icXpbd_RunPass(world, s, &pass);
}

// Also tells the packed sweep (xpbd/sweep.c) that its multipliers restart at zero.
static void clearMultipliers(const icModel *m, icState *s) { icXpbd_ClearMultipliers(m, s); }

// The substeps of one step as separate loops: prediction, sweeps each followed by plane and
// body contact (which read and write the state's positions), velocities. Contact needs it.
// predicted: the first substep's prediction is done. *cancelled: stopped by the world's
// interrupt flag (the caller goes back to the step's start).
static int substepsSeparate(icWorld *world, icState *s, icReal h, int substeps, int iterations,
                            bool predicted, bool *cancelled) {
    icModel *m = &world->model;
    int contacts = 0;
    for (int step = 0; step < substeps; ++step) {
        // One look per substep: a load and a branch beside a sweep over every tet.
        if (icWorld_Cancelled(world)) {
            *cancelled = true;
            return contacts;
        }
        icContact_BeginSubstep(world, s->time, s->time + h);
        if (step > 0 || !predicted) predict(world, s, h, s->time + h, m->def.gravity, true);
        // Multipliers restart every substep (Macklin & Müller 2021, Algorithm 1).
        clearMultipliers(m, s);
        for (int it = 0; it < iterations; ++it) {
            // And one per sweep after the first: a substep may hold 2^31 iterations.
            if (it > 0 && icWorld_Cancelled(world)) {
                *cancelled = true;
                return contacts;
            }
            icXpbd_Sweep(m, s, h);
            contacts = icXpbd_ProjectPlanes(m, s);
            contacts += icContact_Project(world, s, h);
        }
        updateVelocities(world, s, h);
        s->time += h;
        s->lastSubstep = h;
        s->substepCount++;
    }
    return contacts;
}

// The same substeps without body contact, where nothing but the sweep needs the positions
// between sweeps: the packed working copy carries them from sweep to sweep, and what happens
// to a vertex between two sweeps (copy back, planes, velocities, the next prediction, copy
// in) is one pass over the vertices on the workers. Every vertex sees the same operations in
// the same order as in substepsSeparate, so both give the same bits. In float, or with
// planes, several iterations copy back and in between sweeps (planes move the state's
// positions; float rounds x - origin afresh each time). When the working copy cannot be
// filled (out of memory) the separate loops take over.
static int substepsFused(icWorld *world, icState *s, icReal h, int substeps, int iterations,
                         bool *cancelled) {
    icModel *m = &world->model;
    bool planes = m->planeCount > 0;
    bool syncIterations = planes || m->def.precision == IC_PRECISION_FLOAT;
    unsigned endOfSubstep = IC_XPBD_PASS_COPY_OUT | (planes ? IC_XPBD_PASS_PLANES : 0) | IC_XPBD_PASS_VELOCITIES;
    icXpbdPass pass = {IC_XPBD_PASS_PREDICT | IC_XPBD_PASS_COPY_IN, h, s->time + h, m->def.gravity, true};
    if (icXpbd_RunPass(world, s, &pass) < 0)
        return substepsSeparate(world, s, h, substeps, iterations, true, cancelled);
    int contacts = 0;
    for (int step = 0; step < substeps; ++step) {
        // Positions left in the working copy do not matter: the step's start comes back.
        if (icWorld_Cancelled(world)) {
            *cancelled = true;
            return contacts;
        }
        clearMultipliers(m, s); // restart every substep (Macklin & Müller 2021, Algorithm 1)
        for (int it = 0; it < iterations; ++it) {
            if (it > 0 && icWorld_Cancelled(world)) { // a substep may hold 2^31 iterations
                *cancelled = true;
                return contacts;
            }
            icXpbd_SweepPacked(m, s, h);
            if (it + 1 < iterations && syncIterations) {
                icXpbdPass sync = {IC_XPBD_PASS_COPY_OUT | (planes ? IC_XPBD_PASS_PLANES : 0) | IC_XPBD_PASS_COPY_IN,
                                   h, 0, m->def.gravity, true};
                // Cannot fail: the first pass found any per-axis masses (they do not change in a step).
                (void)icXpbd_RunPass(world, s, &sync);
            }
        }
        bool last = step + 1 == substeps;
        icReal next = s->time + h; // the clock as the next substep starts
        pass = (icXpbdPass){endOfSubstep | (last ? 0 : IC_XPBD_PASS_PREDICT | IC_XPBD_PASS_COPY_IN), h,
                            next + h, m->def.gravity, true};
        int c = icXpbd_RunPass(world, s, &pass);
        s->time = next;
        s->lastSubstep = h;
        s->substepCount++;
        if (c < 0) // the next substep's prediction is done: the separate loops take over
            return substepsSeparate(world, s, h, substeps - step - 1, iterations, true, cancelled);
        contacts = c;
    }
    return contacts;
}

// The inverted tets for the step's statistics: a pass over every tet, made only for a caller
// who reads it, and left to the health checks when they run (they take the same census after
// every step and write its count into the statistics).
static int countInverted(const icModel *m, const icState *s, const icStepStats *stats) {
    if (!stats || m->def.health.policy != IC_HEALTH_OFF) return 0;
    return icModel_TetCensus(m, s->x).inverted;
}

icResult icXpbd_Step(icWorld *world, icState *s, icReal dt, icStepStats *stats) {
    icModel *m = &world->model;
    icStepStats local = {0};
    double t0 = icNowMs();
    // A world with no tets (no bodies yet, or a rods-only scene) only advances its clock.
    if (m->tetCount == 0) {
        s->time += dt;
        local.converged = true;
        if (stats) *stats = local;
        return IC_OK;
    }
    icResult r = icModel_UpdateColouring(m);
    if (r != IC_OK) return r;
    int substeps = icXpbd_SubstepsFor(m, s, dt), iterations = m->def.iterations;
    icXpbd_BeginStep(m, substeps * iterations);
    icReal h = dt / substeps;
    // Collision candidates once per frame, constraints re-evaluated every substep.
    if ((r = icContact_BeginStep(world, s, dt)) != IC_OK) return r;
    // Without body contact (colliders, bones, self contact) the positions stay in the packed
    // working copy between sweeps.
    bool cancelled = false;
    int contacts = world->contact == NULL && icXpbd_PackedUsable(m)
                       ? substepsFused(world, s, h, substeps, iterations, &cancelled)
                       : substepsSeparate(world, s, h, substeps, iterations, false, &cancelled);
    icXpbd_SyncMultipliers(m, s); // the packed sweep's multipliers back into the state
    if (cancelled) return IC_ERR_INTERRUPTED; // icHealth_AfterStep restores the start
    local.substeps = substeps;
    local.sweeps = substeps * iterations;
    local.contacts = contacts;
    local.nan = !icXpbd_PositionsFinite(m, s);
    local.invertedTets = local.nan ? m->tetCount : countInverted(m, s, stats);
    local.converged = !local.nan;
    local.milliseconds = icNowMs() - t0;
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
    double t0 = icNowMs();
    if (m->tetCount == 0) { // nothing to relax
        local.converged = true;
        if (stats) *stats = local;
        return IC_OK;
    }
    icResult r = icModel_UpdateColouring(m);
    if (r != IC_OK) return r;
    icXpbd_BeginStep(m, -1);
    icReal h = def->pseudoStep;
    icReal size = restSize(m);
    icVec3 g = def->gravity ? m->def.gravity : icVec3_Make(0, 0, 0);
    icReal residual = INFINITY, previousEnergy = 0;
    int sweeps = 0, contacts = 0, substep = 0;
    memset(s->v, 0, sizeof(icReal) * 3 * (size_t)m->vertexCount);
    // The clock stands still: colliders and bones hold their pose at s->time, and contact
    // candidates are refreshed every IC_STATIC_CONTACT_EVERY pseudo steps.
    enum { IC_STATIC_CONTACT_EVERY = 20 };
    while (sweeps < def->maxSweeps) {
        if (icWorld_Cancelled(world)) return IC_ERR_INTERRUPTED; // the start comes back
        if (substep++ % IC_STATIC_CONTACT_EVERY == 0 &&
            (r = icContact_BeginStep(world, s, h * IC_STATIC_CONTACT_EVERY)) != IC_OK)
            return r;
        icContact_BeginSubstep(world, s->time, s->time);
        predict(world, s, h, s->time, g, true);
        clearMultipliers(m, s);
        for (int it = 0; it < def->iterationsPerStep && sweeps < def->maxSweeps; ++it, ++sweeps) {
            // Also between sweeps: one pseudo step may hold all of maxSweeps.
            if (it > 0 && icWorld_Cancelled(world)) return IC_ERR_INTERRUPTED;
            icXpbd_Sweep(m, s, h);
            contacts = icXpbd_ProjectPlanes(m, s);
            contacts += icContact_Project(world, s, h);
        }
        updateVelocities(world, s, h);
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
    icXpbd_SyncMultipliers(m, s);
    local.sweeps = sweeps;
    local.residual = residual;
    local.contacts = contacts;
    local.nan = !icXpbd_PositionsFinite(m, s);
    local.converged = !local.nan && residual < def->tolerance;
    local.invertedTets = local.nan ? m->tetCount : countInverted(m, s, stats);
    local.milliseconds = icNowMs() - t0;
    if (stats) *stats = local;
    if (local.nan) return IC_ERR_NUMERICAL;
    return local.converged ? IC_OK : IC_ERR_NOT_CONVERGED;
}
