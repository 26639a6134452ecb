// SPDX-License-Identifier: MIT
// One rod step (Angles et al. 2019, sec. 7, in the reference code's order): prediction, bone
// warm start, broad phase, bend damping, K Jacobi passes (even: everything, odd: collisions),
// planes, velocities.
#include "rod/rod_internal.h"

#include <math.h>

static icVec3 pinTarget(const icRodModel *m, int i, icReal t) {
    icVec3 base = icVec3_Load(m->pinBase, i);
    int bone = m->pinBone[i];
    if (bone < 0) return base;
    icMat3 R;
    icVec3 T;
    icRodBone_Transform(&m->bones[bone], t, &R, &T);
    return icVec3_Add(icMat3_MulVec(R, base), T);
}

// The prediction (Angles et al. 2019, eqs. 21-23) in the reference code's form with explicit
// velocities: gravity only, damping kappa.
static void predict(icRodWorld *w, icReal h) {
    const icRodModel *m = &w->model;
    icRodState *s = &w->state;
    icRodWork *k = &w->work;
    icReal kappa = w->def.velocityDamping;
    icVec3 g = w->def.gravity;
    bool viper = w->def.radiusModel == IC_ROD_RADIUS_VIPER;
    // A world without rods has no arrays at all (memcpy from NULL is undefined even for 0).
    if (m->vertexCount > 0) {
        memcpy(k->x0, s->x, sizeof(icReal) * 3 * (size_t)m->vertexCount);
        memcpy(k->r0, s->r, sizeof(icReal) * (size_t)m->vertexCount);
    }
    if (m->segmentCount > 0) memcpy(k->q0, s->q, sizeof(icReal) * 4 * (size_t)m->segmentCount);
    for (int i = 0; i < m->vertexCount; ++i) {
        if (m->pinBone[i] != -2) {
            icVec3_Store(s->x, i, pinTarget(m, i, s->time + h));
        } else if (m->w[i] > 0) {
            icVec3 v = icVec3_Scale(kappa, icVec3_MulAdd(icVec3_Load(s->v, i), h, g));
            icVec3_Store(s->v, i, v);
            icVec3_Store(s->x, i, icVec3_MulAdd(icVec3_Load(s->x, i), h, v));
        }
        if (viper && m->wr[i] > 0) {
            s->rdot[i] *= kappa;
            s->r[i] += h * s->rdot[i];
        }
    }
    for (int e = 0; e < m->segmentCount; ++e) {
        if (!(m->wq[e] > 0)) continue;
        icVec3 om = icVec3_Scale(kappa, icVec3_Load(s->omega, e));
        icVec3_Store(s->omega, e, om);
        icQuat q = icQuat_Load(s->q, e);
        q = icQuat_Normalize(icQuat_Add(q, icQuat_Scale(0.5 * h, icQuat_Mul(q, icQuat_Pure(om)))));
        icQuat_Store(s->q, e, q);
    }
}

// Angles et al. 2019, sec. 8.2: free vertices with bone weights follow the bones' motion over
// this step by linear blend skinning; the start position moves alike so no velocity is
// injected.
static void warmStart(icRodWorld *w, icReal h) {
    const icRodModel *m = &w->model;
    icRodState *s = &w->state;
    if (m->boneCount == 0) return;
    for (int i = 0; i < m->vertexCount; ++i) {
        if (m->warmBone[2 * i] < 0 || !(m->w[i] > 0)) continue;
        icVec3 x = icVec3_Load(s->x, i), moved = icVec3_Make(0, 0, 0);
        for (int j = 0; j < 2; ++j) {
            const icRodBone *b = &m->bones[m->warmBone[2 * i + j]];
            icMat3 R0, R1;
            icVec3 T0, T1;
            icRodBone_Transform(b, s->time, &R0, &T0);
            icRodBone_Transform(b, s->time + h, &R1, &T1);
            icVec3 local = icMat3_MulTransVec(R0, icVec3_Sub(x, T0));
            icVec3 p = icVec3_Add(icMat3_MulVec(R1, local), T1);
            icReal wt = j == 0 ? m->warmWeight[i] : 1 - m->warmWeight[i];
            moved = icVec3_MulAdd(moved, wt, p);
        }
        icVec3 delta = icVec3_Sub(moved, x);
        icVec3_Store(s->x, i, moved);
        icVec3_Store(w->work.x0, i, icVec3_Add(icVec3_Load(w->work.x0, i), delta));
    }
}

// The reference code's bend damping, made order-independent: each bend pair moves the two
// world angular velocities towards each other; changes are summed per segment, then the
// frames are re-integrated.
static void bendDamping(icRodWorld *w, icReal h) {
    const icRodModel *m = &w->model;
    icRodState *s = &w->state;
    icRodWork *k = &w->work;
    icReal d = w->def.bendDamping;
    if (d <= 0 || m->bendCount == 0) return;
    memset(k->omegaWorld, 0, sizeof(icReal) * 3 * (size_t)m->segmentCount);
    for (int c = 0; c < m->bendCount; ++c) {
        int e = m->bend[c].e, f = m->bend[c].f;
        if (!(m->wq[e] > 0) || !(m->wq[f] > 0)) continue;
        icVec3 oe = icQuat_Rotate(icQuat_Load(k->q0, e), icVec3_Load(s->omega, e));
        icVec3 of = icQuat_Rotate(icQuat_Load(k->q0, f), icVec3_Load(s->omega, f));
        icVec3 diff = icVec3_Scale(d, icVec3_Sub(of, oe));
        icVec3_Store(k->omegaWorld, e, icVec3_Add(icVec3_Load(k->omegaWorld, e), diff));
        icVec3_Store(k->omegaWorld, f, icVec3_Sub(icVec3_Load(k->omegaWorld, f), diff));
    }
    for (int e = 0; e < m->segmentCount; ++e) {
        icVec3 dw = icVec3_Load(k->omegaWorld, e);
        if (dw.x == 0 && dw.y == 0 && dw.z == 0) continue;
        icQuat q0 = icQuat_Load(k->q0, e);
        icVec3 om = icVec3_Add(icVec3_Load(s->omega, e), icQuat_RotateInv(q0, dw));
        icVec3_Store(s->omega, e, om);
        icQuat q = icQuat_Add(q0, icQuat_Scale(0.5 * h, icQuat_Mul(q0, icQuat_Pure(om))));
        icQuat_Store(s->q, e, icQuat_Normalize(q));
    }
}

static void clearAccumulator(icRodWorld *w) {
    const icRodModel *m = &w->model;
    icRodWork *k = &w->work;
    size_t nv = (size_t)m->vertexCount, ns = (size_t)m->segmentCount;
    memset(k->dx, 0, sizeof(icReal) * 3 * nv);
    memset(k->dr, 0, sizeof(icReal) * nv);
    memset(k->dq, 0, sizeof(icReal) * 4 * ns);
    memset(k->nx, 0, sizeof(int) * nv);
    memset(k->nr, 0, sizeof(int) * nv);
    memset(k->nq, 0, sizeof(int) * ns);
}

// Jacobi averaging (Angles et al. 2019, sec. 7): every block moves by the mean of the
// corrections it received (omega = 1/n_b).
static void applyAccumulator(icRodWorld *w) {
    const icRodModel *m = &w->model;
    icRodState *s = &w->state;
    icRodWork *k = &w->work;
    icReal rmin = w->def.minRadius;
    bool viper = w->def.radiusModel == IC_ROD_RADIUS_VIPER;
    for (int i = 0; i < m->vertexCount; ++i) {
        if (k->nx[i] > 0) {
            icReal inv = 1.0 / k->nx[i];
            for (int c = 0; c < 3; ++c) s->x[3 * i + c] += inv * k->dx[3 * i + c];
        }
        if (viper && k->nr[i] > 0) s->r[i] += k->dr[i] / k->nr[i];
        if (s->r[i] < rmin) s->r[i] = rmin;
    }
    for (int e = 0; e < m->segmentCount; ++e) {
        if (k->nq[e] == 0) continue;
        icReal inv = 1.0 / k->nq[e];
        icQuat q = icQuat_Load(s->q, e);
        q = icQuat_Add(q, icQuat_Scale(inv, icQuat_Load(k->dq, e)));
        icQuat_Store(s->q, e, icQuat_Normalize(q));
    }
}

static void projectAll(icRodWorld *w, icReal h2) {
    const icRodModel *m = &w->model;
    icRodWork *k = &w->work;
    bool viper = w->def.radiusModel == IC_ROD_RADIUS_VIPER;
    for (int c = 0; c < m->stretchCount; ++c)
        icRod_ProjectStretch(w, &m->stretch[c], h2, k->lStretch + 3 * c, k);
    for (int c = 0; c < m->bendCount; ++c)
        icRod_ProjectBend(w, &m->bend[c], h2, k->lBend + 3 * c, k);
    // Bergou mode has no radius DOF: the radius-touching constraints do not exist there.
    if (viper) {
        for (int c = 0; c < m->radiusCount; ++c)
            icRod_ProjectRadius(w, &m->radius[c], h2, k->lRadius + c, k);
        for (int c = 0; c < m->smoothCount; ++c)
            icRod_ProjectSmooth(w, &m->smooth[c], h2, k->lSmooth + c, k);
        for (int c = 0; c < m->bilapCount; ++c)
            icRod_ProjectBilap(w, &m->bilap[c], h2, k->lBilap + c, k);
        for (int c = 0; c < m->volumeCount; ++c)
            icRod_ProjectVolume(w, &m->volume[c], h2, k->lVolume + c, k);
    }
    for (int c = 0; c < m->linkCount; ++c) icRod_ProjectLink(w, &m->links[c], h2, k->lLink + c, k);
    if (w->def.bundleProjection == IC_ROD_BUNDLE_AVERAGED)
        for (int c = 0; c < m->sliceCount; ++c) icRod_ProjectSlice(w, c, k, false);
}

// Velocities from the step's motion (shorter arc for omega).
static void updateVelocities(icRodWorld *w, icReal h) {
    const icRodModel *m = &w->model;
    icRodState *s = &w->state;
    const icRodWork *k = &w->work;
    for (int i = 0; i < 3 * m->vertexCount; ++i) s->v[i] = (s->x[i] - k->x0[i]) / h;
    for (int i = 0; i < m->vertexCount; ++i) s->rdot[i] = (s->r[i] - k->r0[i]) / h;
    for (int e = 0; e < m->segmentCount; ++e) {
        icQuat d = icQuat_Mul(icQuat_Conj(icQuat_Load(k->q0, e)), icQuat_Load(s->q, e));
        if (d.w < 0) d = icQuat_Scale(-1, d);
        icVec3_Store(s->omega, e, icVec3_Scale(2.0 / h, icQuat_Im(d)));
    }
}

// Bergou et al. 2010 style (Angles et al. 2019, Fig. 15): each vertex keeps the volume of its
// Voronoi length.
static void bergouRadii(icRodWorld *w) {
    const icRodModel *m = &w->model;
    icRodState *s = &w->state;
    icReal *len = w->work.dr, *rest = w->work.x0; // free scratch once velocities are set
    memset(len, 0, sizeof(icReal) * (size_t)m->vertexCount);
    memset(rest, 0, sizeof(icReal) * (size_t)m->vertexCount);
    for (int e = 0; e < m->segmentCount; ++e) {
        int a = m->seg[2 * e], b = m->seg[2 * e + 1];
        icReal l = icVec3_Distance(icVec3_Load(s->x, a), icVec3_Load(s->x, b));
        len[a] += 0.5 * l;
        len[b] += 0.5 * l;
        rest[a] += 0.5 * m->restLength[e];
        rest[b] += 0.5 * m->restLength[e];
    }
    for (int i = 0; i < m->vertexCount; ++i) {
        if (len[i] > 0 && m->wr[i] > 0) s->r[i] = m->restRadius[i] * sqrt(rest[i] / len[i]);
        s->rdot[i] = 0;
    }
}

static bool stateFinite(const icRodWorld *w) {
    const icRodState *s = &w->state;
    for (int i = 0; i < 3 * w->model.vertexCount; ++i)
        if (!isfinite(s->x[i])) return false;
    for (int i = 0; i < w->model.vertexCount; ++i)
        if (!isfinite(s->r[i])) return false;
    return true;
}

static icResult substep(icRodWorld *w, icReal h, icRodStepStats *st) {
    icRodModel *m = &w->model;
    icRodWork *k = &w->work;
    icReal h2 = h * h;
    double t0 = icNowMs();
    icRod_ApplyActivation(w, w->state.time + h);
    predict(w, h);
    warmStart(w, h);
    double t1 = icNowMs();
    icResult e = icRod_BroadPhase(w);
    if (e != IC_OK) return e; // more candidate pairs than the cap or memory allows
    double t2 = icNowMs();
    memset(k->lStretch, 0, sizeof(icReal) * 3 * (size_t)m->stretchCount);
    memset(k->lBend, 0, sizeof(icReal) * 3 * (size_t)m->bendCount);
    memset(k->lRadius, 0, sizeof(icReal) * (size_t)m->radiusCount);
    memset(k->lSmooth, 0, sizeof(icReal) * (size_t)m->smoothCount);
    memset(k->lBilap, 0, sizeof(icReal) * (size_t)m->bilapCount);
    memset(k->lVolume, 0, sizeof(icReal) * (size_t)m->volumeCount);
    memset(k->lLink, 0, sizeof(icReal) * (size_t)m->linkCount);
    bendDamping(w, h);
    double tCollide = 0, tConstraints = icNowMs() - t2;
    for (int it = 0; it < w->def.iterations; ++it) {
        double a = icNowMs();
        clearAccumulator(w);
        bool full = !w->def.collisionOnlyOddPasses || it % 2 == 0;
        if (full) projectAll(w, h2);
        double b = icNowMs();
        k->contacts = icRod_ProjectCollisions(w, k);
        double c = icNowMs();
        applyAccumulator(w);
        icRod_ProjectPlanes(w);
        double d = icNowMs();
        tConstraints += (b - a) + (d - c);
        tCollide += c - b;
    }
    double t3 = icNowMs();
    if (w->def.bundleProjection == IC_ROD_BUNDLE_POST)
        for (int c = 0; c < m->sliceCount; ++c) icRod_ProjectSlice(w, c, k, true);
    updateVelocities(w, h);
    if (w->def.radiusModel == IC_ROD_RADIUS_BERGOU) bergouRadii(w);
    w->state.time += h;
    double t4 = icNowMs();
    st->msPredict += (t1 - t0) + (t4 - t3);
    st->msBroadPhase += t2 - t1;
    st->msCollisions += tCollide;
    st->msConstraints += tConstraints;
    st->candidatePairs = k->pairCount;
    st->contacts = k->contacts;
    if (!stateFinite(w)) {
        st->nan = true;
        return IC_ERR_NUMERICAL;
    }
    return IC_OK;
}

// The state at the step's start, kept while an interrupt flag is set; false when it cannot be
// (no memory, a state that is not finite): the step then stops where it is.
static bool keepStepStart(icRodWorld *w) {
    size_t size = icRodWorld_GetStateSize(w);
    if (size > w->stepStartCapacity) {
        uint8_t *bytes = icAlloc(size);
        if (!bytes) return false;
        icFree(w->stepStart);
        w->stepStart = bytes;
        w->stepStartCapacity = size;
    }
    return icRodWorld_SaveState(w, w->stepStart, size) == IC_OK;
}

icResult icRodWorld_Step(icRodWorld *w, icReal dt, icRodStepStats *stats) {
    IC_ASSERT(w);
    icRodStepStats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    if (!(dt > 0) || !isfinite(dt)) return IC_ERR_INVALID_ARGUMENT;
    icResult e = icRod_PrepareWork(w);
    if (e == IC_OK) e = icRod_EnsurePool(w);
    if (e != IC_OK) return e;
    double start = icNowMs();
    bool kept = w->interrupt && keepStepStart(w);
    icReal h = dt / w->def.substeps;
    for (int s = 0; s < w->def.substeps; ++s) {
        // One look per substep at the caller's flag (a signal).
        if (w->interrupt && *w->interrupt) {
            e = IC_ERR_INTERRUPTED;
            break;
        }
        if ((e = substep(w, h, stats)) != IC_OK) break;
    }
    // Back to the step's start, so that the rods stand at a whole step (a checkpoint's).
    if (e == IC_ERR_INTERRUPTED && kept)
        (void)icRodWorld_LoadState(w, w->stepStart, icRodWorld_GetStateSize(w), NULL);
    if (e == IC_OK) stats->maxPenetration = icRod_MaxPenetration(w);
    stats->msTotal = icNowMs() - start;
    return e;
}

void icRodWorld_SetInterrupt(icRodWorld *w, const volatile sig_atomic_t *flag) {
    IC_ASSERT(w);
    w->interrupt = flag;
}
