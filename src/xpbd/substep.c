// SPDX-License-Identifier: MIT
// The per-vertex work of a substep outside the tet sweep (copy back from the packed layout,
// plane contact, velocities, the next prediction, copy in), fused into one pass over the
// vertices and run on the workers. Every vertex does the same operations in the same order as
// the separate loops did, so the bits do not depend on the fusion or the worker count.
#include "xpbd/substep.h"

#include "core/pool.h"
#include "xpbd/vertex_ops.h"

#include <stdatomic.h>
#include <time.h>

// Vertices per range: below it a hand-over costs more than the range (~30 cycles a vertex).
// At 2,048 a 10k-tet mesh's ~2,200 vertices ran on one worker: 16 % of its 2-thread step.
enum { IC_PASS_MIN_VERTICES = 512 };


typedef struct icPassTask {
    const icWorld *world;
    icState *state;
    const icXpbdPass *pass;
    const icXpbdLayout *layout; ///< NULL unless the pass copies
    const icReal *originIn;     ///< origins the copy in uses
    icReal scale;               ///< velocity scale
    atomic_int contacts;
    atomic_bool axesSeen;
} icPassTask;

static double nowSeconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Vertex v of body `body`, every stage the pass asks for, in the order of a substep.
static inline void passVertex(icPassTask *T, int v, int body, int *contacts, bool *axesSeen) {
    const icXpbdPass *P = T->pass;
    const icModel *m = &T->world->model;
    icState *s = T->state;
    const icXpbdLayout *L = T->layout;
    size_t p = L ? 4 * (size_t)L->packedOfVertex[v] : 0;
    if (P->what & IC_XPBD_PASS_COPY_OUT) icXpbd_CopyOutVertex(L, s->x + 3 * (size_t)v, L->origin + 3 * body, p);
    if (P->what & IC_XPBD_PASS_PLANES) *contacts += icXpbd_PlanesVertex(m, s, v);
    if (P->what & IC_XPBD_PASS_VELOCITIES) icXpbd_VelocityVertex(s, v, T->scale);
    if (P->what & IC_XPBD_PASS_PREDICT) icXpbd_PredictVertex(T->world, s, v, P->h, P->t, P->gravity, P->inertia);
    if (P->what & IC_XPBD_PASS_COPY_IN) *axesSeen |= !icXpbd_CopyInVertex(L, m, s, v, T->originIn + 3 * body, p);
}

// Stage `stage` on vertices [a, b) of body `body`: one tight loop per stage (the compiler
// keeps its constants in registers, and independent vertices overlap their memory waits).
static void runStage(icPassTask *T, unsigned stage, int a, int b, int body, int *contacts, bool *axesSeen) {
    const icXpbdPass *P = T->pass;
    const icModel *m = &T->world->model;
    icState *s = T->state;
    const icXpbdLayout *L = T->layout;
    switch (stage) {
    case IC_XPBD_PASS_COPY_OUT: {
        const icReal *o = L->origin + 3 * body;
        // One loop per precision, so that the test is not made per vertex.
        if (L->precision == IC_PRECISION_FLOAT)
            for (int v = a; v < b; ++v) icXpbd_CopyOutVertex(L, s->x + 3 * (size_t)v, o, 4 * (size_t)L->packedOfVertex[v]);
        else
            for (int v = a; v < b; ++v) icXpbd_CopyOutVertex(L, s->x + 3 * (size_t)v, o, 4 * (size_t)L->packedOfVertex[v]);
        break;
    }
    case IC_XPBD_PASS_PLANES:
        for (int v = a; v < b; ++v) *contacts += icXpbd_PlanesVertex(m, s, v);
        break;
    case IC_XPBD_PASS_VELOCITIES: {
        const icReal scale = T->scale;
        icReal *restrict vel = s->v;
        const icReal *restrict x = s->x, *restrict xPrev = s->xPrev;
        for (size_t i = 3 * (size_t)a; i < 3 * (size_t)b; ++i) vel[i] = (x[i] - xPrev[i]) * scale;
        break;
    }
    case IC_XPBD_PASS_PREDICT: {
        const icReal h = P->h, t = P->t;
        const icVec3 g = P->gravity;
        const bool inertia = P->inertia;
        for (int v = a; v < b; ++v) icXpbd_PredictVertex(T->world, s, v, h, t, g, inertia);
        break;
    }
    case IC_XPBD_PASS_COPY_IN: {
        const icReal *o = T->originIn + 3 * body;
        bool seen = false;
        if (L->precision == IC_PRECISION_FLOAT && !L->wAxes && !L->xPrev) // the common case
            for (int v = a; v < b; ++v) seen |= !icXpbd_CopyInVertex(L, m, s, v, o, 4 * (size_t)L->packedOfVertex[v]);
        else
            for (int v = a; v < b; ++v) seen |= !icXpbd_CopyInVertex(L, m, s, v, o, 4 * (size_t)L->packedOfVertex[v]);
        *axesSeen |= seen;
        break;
    }
    default: break;
    }
}

// Vertices per tile: a tile's numbers (~200 bytes a vertex) stay in L2 from one stage to the
// next, so the pass reads and writes memory once, as a fused loop would.
enum { IC_PASS_TILE = 256 };

static void passTask(int start, int end, int worker, void *context) {
    (void)worker;
    icPassTask *T = context;
    const icModel *m = &T->world->model;
    const icXpbdLayout *L = T->layout;
    // A pass that predicts and copies in has done the bodies' origin vertices already.
    bool skipOrigins = (T->pass->what & IC_XPBD_PASS_PREDICT) && (T->pass->what & IC_XPBD_PASS_COPY_IN);
    int contacts = 0, body = m->bodyCount > 0 ? icXpbd_BodyOfVertex(m, start) : 0;
    bool axesSeen = false;
    for (int t0 = start; t0 < end;) {
        while (body + 1 < m->bodyCount && t0 >= m->bodies[body].vertexStart + m->bodies[body].vertexCount) ++body;
        int t1 = t0 + IC_PASS_TILE < end ? t0 + IC_PASS_TILE : end;
        if (m->bodyCount > 0 && t1 > m->bodies[body].vertexStart + m->bodies[body].vertexCount)
            t1 = m->bodies[body].vertexStart + m->bodies[body].vertexCount; // one body per tile
        int skip = skipOrigins && L->originVertex[body] >= t0 && L->originVertex[body] < t1 ? L->originVertex[body] : -1;
        for (unsigned stage = IC_XPBD_PASS_COPY_OUT; stage <= IC_XPBD_PASS_COPY_IN; stage <<= 1) {
            if (!(T->pass->what & stage)) continue;
            if (skip < 0) {
                runStage(T, stage, t0, t1, body, &contacts, &axesSeen);
            } else {
                runStage(T, stage, t0, skip, body, &contacts, &axesSeen);
                runStage(T, stage, skip + 1, t1, body, &contacts, &axesSeen);
            }
        }
        t0 = t1;
    }
    if (contacts) atomic_fetch_add(&T->contacts, contacts);
    if (axesSeen) atomic_store(&T->axesSeen, true);
}

static void copyInTask(int start, int end, int worker, void *context) {
    (void)worker;
    icPassTask *T = context;
    const icModel *m = &T->world->model;
    int body = icXpbd_BodyOfVertex(m, start);
    for (int v = start; v < end; ++v) {
        while (v >= m->bodies[body].vertexStart + m->bodies[body].vertexCount) ++body;
        icXpbd_CopyInVertex(T->layout, m, T->state, v, T->originIn + 3 * body, 4 * (size_t)T->layout->packedOfVertex[v]);
    }
}

int icXpbd_RunPass(icWorld *world, icState *s, const icXpbdPass *pass) {
    icModel *m = &world->model;
    bool copies = pass->what & (IC_XPBD_PASS_COPY_OUT | IC_XPBD_PASS_COPY_IN);
    icXpbdLayout *L = copies ? m->layout : NULL;
    IC_ASSERT(!copies || icXpbd_PackedUsable(m));
    double t0 = m->layout && m->layout->profile.enabled ? nowSeconds() : 0;
    icPassTask T = {.world = world, .state = s, .pass = pass, .layout = L};
    T.scale = icXpbd_VelocityScale(m, pass->h);
    T.originIn = L ? L->origin : NULL;
    atomic_init(&T.contacts, 0);
    atomic_init(&T.axesSeen, false);
    bool newSubstep = (pass->what & IC_XPBD_PASS_PREDICT) && (pass->what & IC_XPBD_PASS_COPY_IN);
    if (newSubstep) {
        // The next substep's float origins are its start positions of the origin vertices:
        // those run first, alone, so that every copy in of the pass knows them.
        int contacts = 0;
        bool axesSeen = false;
        icXpbdPass upToVelocities = *pass;
        upToVelocities.what &= ~(unsigned)(IC_XPBD_PASS_PREDICT | IC_XPBD_PASS_COPY_IN);
        T.pass = &upToVelocities;
        for (int b = 0; b < m->bodyCount; ++b) passVertex(&T, L->originVertex[b], b, &contacts, &axesSeen);
        // Float positions are solved relative to a point of each body (its vertex nearest the
        // rest centre, where it was at the substep start), so every body keeps float's precision
        // relative to its size wherever it is.
        icXpbd_SetOrigins(m, s->x, L->originNext);
        T.originIn = L->originNext;
        icXpbdPass rest = *pass;
        rest.what &= IC_XPBD_PASS_PREDICT | IC_XPBD_PASS_COPY_IN;
        T.pass = &rest;
        for (int b = 0; b < m->bodyCount; ++b) passVertex(&T, L->originVertex[b], b, &contacts, &axesSeen);
        T.pass = pass;
        atomic_store(&T.contacts, contacts);
        atomic_store(&T.axesSeen, axesSeen);
    }
    icPool_ParallelFor(m->pool, passTask, m->vertexCount, IC_PASS_MIN_VERTICES, &T);
    if (newSubstep) { // the new origins are the current ones now
        icReal *swap = L->origin;
        L->origin = L->originNext;
        L->originNext = swap;
    }
    int contacts = atomic_load(&T.contacts);
    if ((pass->what & IC_XPBD_PASS_COPY_IN) && atomic_load(&T.axesSeen) && !L->wAxes) {
        // A vertex is held on some axes only: from now on the kernel reads per-axis masses.
        if (!icXpbd_NeedAxes(L)) contacts = -1;
        else {
            T.originIn = L->origin;
            copyInTask(0, m->vertexCount, 0, &T);
        }
    }
    if (m->layout && m->layout->profile.enabled) m->layout->profile.passes += nowSeconds() - t0;
    return contacts;
}

typedef struct icFiniteTask {
    const icState *state;
    atomic_bool bad;
} icFiniteTask;

static void finiteTask(int start, int end, int worker, void *context) {
    (void)worker;
    icFiniteTask *T = context;
    bool bad = false;
    for (size_t i = 3 * (size_t)start; i < 3 * (size_t)end; ++i) bad |= !isfinite(T->state->x[i]);
    if (bad) atomic_store(&T->bad, true);
}

bool icXpbd_PositionsFinite(const icModel *m, const icState *s) {
    icFiniteTask T = {.state = s};
    atomic_init(&T.bad, false);
    icPool_ParallelFor(m->pool, finiteTask, m->vertexCount, 4 * IC_PASS_MIN_VERTICES, &T);
    return !atomic_load(&T.bad);
}
