// SPDX-License-Identifier: MIT
// What a substep does to one vertex outside the tet sweep (prediction, plane contact,
// velocities) and the copies between the state and the packed layout: one definition each,
// so the separate loops and the fused passes (xpbd/substep.c) compute the same bits.
#pragma once

#include "xpbd/layout.h"

#include <math.h>

// Start of a substep (Macklin & Müller 2021, Algorithm 1): remember x, integrate external
// forces on free axes, and move held axes to where their pin (or the bone they are attached to)
// puts them at time t.
__attribute__((always_inline)) static inline void icXpbd_PredictVertex(const icWorld *world, icState *s, int v, icReal h, icReal t,
                                        icVec3 gravity, bool inertia) {
    const icModel *m = &world->model;
    icVec3 x = icVec3_Load(s->x, v);
    icVec3_Store(s->xPrev, v, x);
    icVec3 vel = inertia ? icVec3_Load(s->v, v) : icVec3_Make(0, 0, 0);
    icVec3 w = icVec3_Load(m->invMass, v);
    icVec3 pinned = x;
    if (m->vertexPin[v] >= 0)
        pinned = icModel_PinPosition(m, v, t);
    else if (w.x == 0 || w.y == 0 || w.z == 0)
        icContact_HeldPosition(world, v, &pinned);
    // Axis by axis: free axes fall, held ones follow their pin (or stay).
    if (w.x > 0) { vel.x += h * gravity.x; x.x += h * vel.x; } else x.x = pinned.x;
    if (w.y > 0) { vel.y += h * gravity.y; x.y += h * vel.y; } else x.y = pinned.y;
    if (w.z > 0) { vel.z += h * gravity.z; x.z += h * vel.z; } else x.z = pinned.z;
    icVec3_Store(s->v, v, vel);
    icVec3_Store(s->x, v, x);
}

// v = (x - x_prev) scale, scale = 1 / (h (1 + c h)): the world's linear damping, implicit so
// any c h is stable.
static inline icReal icXpbd_VelocityScale(const icModel *m, icReal h) {
    return 1.0 / (h * (1.0 + m->def.linearDamping * h));
}

static inline void icXpbd_VelocityVertex(icState *s, int v, icReal scale) {
    for (int i = 3 * v; i < 3 * v + 3; ++i) s->v[i] = (s->x[i] - s->xPrev[i]) * scale;
}

// Half-space colliders, plane after plane: push the vertex out along the normal and apply
// position-based Coulomb friction to the tangential motion of the substep (Macklin et al.
// 2014, sec. 6.1). Returns the number of planes it touches.
static inline int icXpbd_PlanesVertex(const icModel *model, icState *state, int v) {
    int contacts = 0;
    icVec3 w = icVec3_Load(model->invMass, v);
    if (w.x == 0 && w.y == 0 && w.z == 0) return 0;
    for (int p = 0; p < model->planeCount; ++p) {
        const icPlane *plane = &model->planes[p];
        icVec3 x = icVec3_Load(state->x, v);
        icReal depth = plane->offset - icVec3_Dot(plane->normal, x);
        if (depth <= 0) continue;
        ++contacts;
        x = icVec3_MulAdd(x, depth, plane->normal);
        // Friction: cancel the tangential displacement of this substep when it is within
        // the static cone (|dt| < mu d), else shorten it by mu d.
        icVec3 dx = icVec3_Sub(x, icVec3_Load(state->xPrev, v));
        icVec3 tangential = icVec3_MulAdd(dx, -icVec3_Dot(dx, plane->normal), plane->normal);
        icReal slide = icVec3_Length(tangential);
        icReal limit = plane->friction * depth;
        if (slide > 0) x = icVec3_MulAdd(x, -(slide <= limit ? 1.0 : limit / slide), tangential);
        // Held axes stay where their pin put them.
        icVec3 old = icVec3_Load(state->x, v);
        if (w.x == 0) x.x = old.x;
        if (w.y == 0) x.y = old.y;
        if (w.z == 0) x.z = old.z;
        icVec3_Store(state->x, v, x);
    }
    return contacts;
}

// The body of vertex v (bodies are contiguous vertex ranges, in order).
static inline int icXpbd_BodyOfVertex(const icModel *m, int v) {
    int lo = 0, hi = m->bodyCount - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (m->bodies[mid].vertexStart <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// State -> working copy of model vertex v at packed record p (4 p numbers in): position
// (relative to the body's origin o in float), inverse mass, and the substep start position
// when damped. Returns false when the vertex's inverse masses differ per axis.
__attribute__((always_inline)) static inline bool icXpbd_CopyInVertex(const icXpbdLayout *L, const icModel *m, const icState *s, int v,
                                       const icReal *o, size_t p) {
    const icReal *x = s->x + 3 * (size_t)v, *w = m->invMass + 3 * (size_t)v;
    const icReal *xp = s->xPrev + 3 * (size_t)v;
    bool isotropic = w[0] == w[1] && w[1] == w[2];
    if (L->precision == IC_PRECISION_FLOAT) {
        float *r = (float *)L->x + p;
        for (int a = 0; a < 3; ++a) r[a] = (float)(x[a] - o[a]);
        r[3] = (float)w[0];
        if (L->wAxes)
            for (int a = 0; a < 3; ++a) ((float *)L->wAxes)[p + a] = (float)w[a];
        if (L->xPrev)
            for (int a = 0; a < 3; ++a) ((float *)L->xPrev)[p + a] = (float)(xp[a] - o[a]);
    } else {
        double *r = (double *)L->x + p;
        for (int a = 0; a < 3; ++a) r[a] = x[a];
        r[3] = w[0];
        if (L->wAxes)
            for (int a = 0; a < 3; ++a) ((double *)L->wAxes)[p + a] = w[a];
        if (L->xPrev)
            for (int a = 0; a < 3; ++a) ((double *)L->xPrev)[p + a] = xp[a];
    }
    return isotropic;
}

// Working copy -> state for vertex v at packed record p. In float only the correction is
// rounded: x += (new - old) with old recomputed exactly as icXpbd_CopyInVertex rounded it,
// so a vertex the sweep left alone keeps its double position bit for bit.
__attribute__((always_inline)) static inline void icXpbd_CopyOutVertex(const icXpbdLayout *L, icReal *x, const icReal *o, size_t p) {
    if (L->precision == IC_PRECISION_FLOAT) {
        const float *r = (const float *)L->x + p;
        for (int a = 0; a < 3; ++a) {
            float before = (float)(x[a] - o[a]);
            if (r[a] != before) x[a] += (double)r[a] - (double)before;
        }
    } else {
        const double *r = (const double *)L->x + p;
        x[0] = r[0];
        x[1] = r[1];
        x[2] = r[2];
    }
}
