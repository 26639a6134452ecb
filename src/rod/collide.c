// SPDX-License-Identifier: MIT
// Pill collisions: the uniform-grid broad phase (Angles et al. 2019, sec. 7.1), the pill-pill
// collision constraint (eq. 31) and half-planes with friction (sec. 7.2).
#include "rod/rod_internal.h"

#include "core/pool.h"

#include <math.h>

static int clampInt(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Candidate pairs a broad phase may hold: 256 per sphere (a falling bundle of rods whose
// radius is half their segment length peaks at 45) and 2^20 more, never 2^30 (2 x count must
// fit an int). Pills far larger than their segments (a 16-rod sheet of 100k segments a metre)
// would otherwise ask for billions, 56 bytes each with their per-pass data.
static int pairCap(int spheres) {
    int64_t cap = 256 * (int64_t)spheres + (1 << 20);
    return cap < (1 << 30) - 1 ? (int)cap : (1 << 30) - 1;
}

static bool addPair(icRodWork *k, int a, int b, int cap) {
    if (k->pairCount >= cap ||
        !icGrowArray((void **)&k->pairs, &k->pairCapacity, k->pairCount + 1, 2 * sizeof(int)))
        return false;
    k->pairs[2 * (size_t)k->pairCount] = a;
    k->pairs[2 * (size_t)k->pairCount + 1] = b;
    ++k->pairCount;
    return true;
}

// Squared distance between segments p0-p1 and q0-q1 (clamped closest points).
static icReal segmentDistanceSquared(icVec3 p0, icVec3 p1, icVec3 q0, icVec3 q1) {
    icVec3 d1 = icVec3_Sub(p1, p0), d2 = icVec3_Sub(q1, q0), r = icVec3_Sub(p0, q0);
    icReal a = icVec3_Dot(d1, d1), e = icVec3_Dot(d2, d2), f = icVec3_Dot(d2, r);
    icReal s = 0, t = 0;
    if (a <= 1e-30 && e <= 1e-30) return icVec3_LengthSquared(r);
    if (a <= 1e-30) {
        t = f / e;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
    } else {
        icReal c = icVec3_Dot(d1, r);
        if (e <= 1e-30) {
            s = -c / a;
            s = s < 0 ? 0 : (s > 1 ? 1 : s);
        } else {
            icReal b = icVec3_Dot(d1, d2), den = a * e - b * b;
            s = den > 1e-30 ? (b * f - c * e) / den : 0;
            s = s < 0 ? 0 : (s > 1 ? 1 : s);
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = -c / a;
                s = s < 0 ? 0 : (s > 1 ? 1 : s);
            } else if (t > 1) {
                t = 1;
                s = (b - c) / a;
                s = s < 0 ? 0 : (s > 1 ? 1 : s);
            }
        }
    }
    icVec3 cp = icVec3_MulAdd(p0, s, d1), cq = icVec3_MulAdd(q0, t, d2);
    return icVec3_LengthSquared(icVec3_Sub(cp, cq));
}

// A cheap exact rejection: the pills lie within max(r) of their axes, so axes farther apart
// than the two largest radii cannot touch.
static bool mayTouchWithin(const icRodWorld *w, int e, int f, icReal margin) {
    const icRodModel *m = &w->model;
    const icRodState *s = &w->state;
    int a0 = m->seg[2 * e], a1 = m->seg[2 * e + 1], b0 = m->seg[2 * f], b1 = m->seg[2 * f + 1];
    icReal ra = s->r[a0] > s->r[a1] ? s->r[a0] : s->r[a1];
    icReal rb = s->r[b0] > s->r[b1] ? s->r[b0] : s->r[b1];
    icReal d2 = segmentDistanceSquared(icVec3_Load(s->x, a0), icVec3_Load(s->x, a1),
                                       icVec3_Load(s->x, b0), icVec3_Load(s->x, b1));
    return d2 < (ra + rb + margin) * (ra + rb + margin);
}

static bool mayTouch(const icRodWorld *w, int e, int f) { return mayTouchWithin(w, e, f, 0); }

// Angles et al. 2019, eq. 31: with u*, v* frozen, C = |c_A - c_B| - rho_A - rho_B >= 0
// projected with stiffness 1 when violated; radii join with weight beta_r (the paper ties
// both).
// Whether two pills may collide at all (collision groups) and their bounding spheres overlap.
// Then the axes' distance with the margin: pairs whose bounding spheres overlap but whose
// pills are farther apart than the margin are dropped here rather than in every pass.
static bool candidate(const icRodWorld *w, const icRodWork *k, int i, int j) {
    const icRodModel *m = &w->model;
    int ei = k->segOf[i], ej = k->segOf[j];
    if (m->segGroup[ei] == m->segGroup[ej]) return false;
    if (m->segPinned[ei] && m->segPinned[ej]) return false;
    const icReal *a = k->sphere + 4 * i, *b = k->sphere + 4 * j;
    icReal dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2], rr = a[3] + b[3];
    if (dx * dx + dy * dy + dz * dz > rr * rr) return false;
    return mayTouchWithin(w, ei, ej, w->def.collisionMargin);
}

// Room for the per-pass data of every candidate pair (pairTask writes 6 numbers a pair).
static bool reservePairData(icRodWork *k) {
    if (k->pairCount <= k->pairDataCapacity) return true;
    icFree(k->pairData);
    k->pairData = IC_ALLOC(icReal, 6 * (size_t)k->pairCapacity + 6);
    k->pairDataCapacity = k->pairData ? k->pairCapacity : 0;
    return k->pairData != NULL;
}

// Candidate pairs on the current (predicted) state (Angles et al. 2019, sec. 7.1): bounding
// spheres in a grid whose cells are no smaller than the largest diameter on each axis (the
// reference code used the x extent for all three), counting-sorted by cell, then the 27
// neighbour cells of each sphere.
// Spheres more than four times the mean radius (pillars, obstacles) would make the cells huge:
// they are tested against every sphere instead, which is exact and cheap for a few of them.
// IC_ERR_OUT_OF_MEMORY past the pair cap or when memory runs out.
icResult icRod_BroadPhase(icRodWorld *w) {
    const icRodModel *m = &w->model;
    const icRodState *s = &w->state;
    icRodWork *k = &w->work;
    k->pairCount = 0;
    int ns = m->segmentCount, count = 0;
    icReal mean = 0;
    for (int e = 0; e < ns; ++e) {
        if (!m->segCollide[e]) continue;
        int a = m->seg[2 * e], b = m->seg[2 * e + 1];
        icVec3 c;
        icReal r;
        icPill_BoundingSphere(icVec3_Load(s->x, a), s->r[a], icVec3_Load(s->x, b), s->r[b],
                              w->def.collisionMargin, &c, &r);
        if (!icVec3_IsFinite(c) || !isfinite(r)) continue;
        k->sphere[4 * count] = c.x;
        k->sphere[4 * count + 1] = c.y;
        k->sphere[4 * count + 2] = c.z;
        k->sphere[4 * count + 3] = r;
        k->segOf[count] = e;
        mean += r;
        ++count;
    }
    if (count < 2) return IC_OK;
    mean /= count;
    const int cap = pairCap(count);
    icVec3 lo = icVec3_Make(INFINITY, INFINITY, INFINITY), hi = icVec3_Neg(lo);
    icReal rmax = 0;
    int largeCount = 0;
    for (int i = 0; i < count; ++i) {
        icReal r = k->sphere[4 * i + 3];
        k->cellOf[i] = -1;
        if (r > 4 * mean) {
            k->large[largeCount++] = i;
            continue;
        }
        icVec3 c = icVec3_Make(k->sphere[4 * i], k->sphere[4 * i + 1], k->sphere[4 * i + 2]);
        lo = icVec3_Min(lo, c);
        hi = icVec3_Max(hi, c);
        if (r > rmax) rmax = r;
    }
    int res[3] = {1, 1, 1};
    icReal cell[3] = {1, 1, 1};
    for (int i = 0; i < 3 && rmax > 0; ++i) {
        icReal width = icVec3_Get(hi, i) - icVec3_Get(lo, i);
        res[i] = clampInt((int)floor(width / (2 * rmax)), 1, 32);
        cell[i] = width > 0 ? width / res[i] : 1;
    }
    int cells = res[0] * res[1] * res[2];
    if (cells + 1 > k->cellCapacity) {
        icFree(k->cellStart);
        k->cellStart = IC_ALLOC(int, cells + 1);
        k->cellCapacity = k->cellStart ? cells + 1 : 0;
        if (!k->cellStart) return IC_ERR_OUT_OF_MEMORY;
    }
    memset(k->cellStart, 0, sizeof(int) * (size_t)(cells + 1));
    for (int i = 0; i < count; ++i) {
        if (k->sphere[4 * i + 3] > 4 * mean) continue;
        int c3[3];
        for (int d = 0; d < 3; ++d)
            c3[d] = clampInt((int)floor((k->sphere[4 * i + d] - icVec3_Get(lo, d)) / cell[d]), 0,
                             res[d] - 1);
        k->cellXYZ[3 * i] = c3[0];
        k->cellXYZ[3 * i + 1] = c3[1];
        k->cellXYZ[3 * i + 2] = c3[2];
        k->cellOf[i] = (c3[2] * res[1] + c3[1]) * res[0] + c3[0];
        ++k->cellStart[k->cellOf[i] + 1];
    }
    for (int c = 0; c < cells; ++c) k->cellStart[c + 1] += k->cellStart[c];
    for (int i = 0; i < count; ++i)
        if (k->cellOf[i] >= 0) k->sorted[k->order[i] = k->cellStart[k->cellOf[i]]++] = i;
    for (int c = cells; c > 0; --c) k->cellStart[c] = k->cellStart[c - 1];
    k->cellStart[0] = 0;

    for (int i = 0; i < count; ++i) {
        if (k->cellOf[i] < 0) continue;
        int cx = k->cellXYZ[3 * i], cy = k->cellXYZ[3 * i + 1], cz = k->cellXYZ[3 * i + 2];
        for (int z = cz - 1; z <= cz + 1; ++z) {
            if (z < 0 || z >= res[2]) continue;
            for (int y = cy - 1; y <= cy + 1; ++y) {
                if (y < 0 || y >= res[1]) continue;
                for (int x = cx - 1; x <= cx + 1; ++x) {
                    if (x < 0 || x >= res[0]) continue;
                    int c = (z * res[1] + y) * res[0] + x;
                    for (int p = k->cellStart[c]; p < k->cellStart[c + 1]; ++p) {
                        int j = k->sorted[p];
                        if (j <= i || !candidate(w, k, i, j)) continue;
                        int ei = k->segOf[i], ej = k->segOf[j];
                        if (!addPair(k, ei < ej ? ei : ej, ei < ej ? ej : ei, cap))
                            return IC_ERR_OUT_OF_MEMORY;
                    }
                }
            }
        }
    }
    for (int q = 0; q < largeCount; ++q) {
        int i = k->large[q];
        for (int j = 0; j < count; ++j) {
            // a pair of two large spheres once, from the smaller index
            if (j == i || (k->cellOf[j] < 0 && j < i) || !candidate(w, k, i, j)) continue;
            int ei = k->segOf[i], ej = k->segOf[j];
            if (!addPair(k, ei < ej ? ei : ej, ei < ej ? ej : ei, cap)) return IC_ERR_OUT_OF_MEMORY;
        }
    }
    return reservePairData(k) ? IC_OK : IC_ERR_OUT_OF_MEMORY;
}

// The gap of a pill pair at the current state, with u, v and the normal from B to A.
static icReal pairGap(const icRodWorld *w, int e, int f, icReal *u, icReal *v, icVec3 *n,
                      icReal cutoff) {
    const icRodModel *m = &w->model;
    const icRodState *s = &w->state;
    int a0 = m->seg[2 * e], a1 = m->seg[2 * e + 1], b0 = m->seg[2 * f], b1 = m->seg[2 * f + 1];
    icVec3 xa0 = icVec3_Load(s->x, a0), xa1 = icVec3_Load(s->x, a1);
    icVec3 xb0 = icVec3_Load(s->x, b0), xb1 = icVec3_Load(s->x, b1);
    icReal g = icPill_PillDistanceCut(xa0, s->r[a0], xa1, s->r[a1], xb0, s->r[b0], xb1, s->r[b1],
                                      w->def.searchIterations, cutoff, u, v);
    if (n && g < cutoff) {
        icVec3 ca = icVec3_MulAdd(xa0, *u, icVec3_Sub(xa1, xa0));
        icVec3 cb = icVec3_MulAdd(xb0, *v, icVec3_Sub(xb1, xb0));
        icVec3 d = icVec3_Sub(ca, cb);
        icReal len = icVec3_Length(d);
        if (len > 1e-12) {
            *n = icVec3_Scale(1.0 / len, d);
        } else {
            // Axes intersect: separate along their common normal.
            icVec3 c = icVec3_Cross(icVec3_Sub(xa1, xa0), icVec3_Sub(xb1, xb0));
            icReal cl = icVec3_Length(c);
            *n = cl > 1e-12 ? icVec3_Scale(1.0 / cl, c) : icVec3_Make(0, 1, 0);
        }
    }
    return g;
}

typedef struct icPairTask {
    const icRodWorld *w;
    const int *pairs;
    icReal *data;
} icPairTask;

// The expensive part of a pass, in parallel: each pair's gap, u*, v* and normal into its own
// slot (C = +inf when the pair cannot touch).
static void pairTask(int start, int end, int worker, void *context) {
    (void)worker;
    const icPairTask *t = context;
    for (int p = start; p < end; ++p) {
        icReal *d = t->data + 6 * p;
        int e = t->pairs[2 * p], f = t->pairs[2 * p + 1];
        if (!mayTouch(t->w, e, f)) {
            d[0] = INFINITY;
            continue;
        }
        icVec3 n;
        n = icVec3_Make(0, 1, 0);
        // only violated pairs are projected: a gap proved >= 0 ends the search early
        d[0] = pairGap(t->w, e, f, &d[1], &d[2], &n, 0);
        d[3] = n.x, d[4] = n.y, d[5] = n.z;
    }
}

// Angles et al. 2019, eq. 31: with u*, v* frozen, C = |c_A - c_B| - rho_A - rho_B >= 0
// projected with stiffness 1 when violated; radii join with weight beta_r (the paper ties
// both). The corrections are accumulated in pair order, so the bits do not depend on the
// worker count.
int icRod_ProjectCollisions(icRodWorld *w, icRodWork *k) {
    const icRodModel *m = &w->model;
    icReal beta = w->def.radiusCoupling;
    int contacts = 0;
    if (!reservePairData(k)) return 0; // the broad phase reserved it; kept for direct callers
    icPairTask task = {w, k->pairs, k->pairData};
    icPool_ParallelFor(w->pool, pairTask, k->pairCount, 64, &task);
    for (int p = 0; p < k->pairCount; ++p) {
        const icReal *d = k->pairData + 6 * p;
        icReal C = d[0], u = d[1], v = d[2];
        if (!(C < 0)) continue;
        icVec3 n = icVec3_Make(d[3], d[4], d[5]);
        int e = k->pairs[2 * p], f = k->pairs[2 * p + 1];
        int idx[4] = {m->seg[2 * e], m->seg[2 * e + 1], m->seg[2 * f], m->seg[2 * f + 1]};
        icReal coef[4] = {1 - u, u, -(1 - v), -v}; // grad_x C = coef n
        icReal D = 0;
        for (int i = 0; i < 4; ++i) D += coef[i] * coef[i] * (m->w[idx[i]] + beta * m->wr[idx[i]]);
        if (!(D > 0)) continue;
        ++contacts;
        icReal sc = -C / D;
        for (int i = 0; i < 4; ++i) {
            int j = idx[i];
            if (m->w[j] > 0 && coef[i] != 0)
                icRodAcc_X(k, j, icVec3_Scale(coef[i] * m->w[j] * sc, n));
            // dC/dr = -|coef|
            if (beta > 0 && m->wr[j] > 0 && coef[i] != 0)
                icRodAcc_R(k, j, -beta * fabs(coef[i]) * m->wr[j] * sc);
        }
    }
    return contacts;
}

// Half-planes (Angles et al. 2019, sec. 7.2): push vertex spheres out of each half-plane, then
// remove tangential motion since the step start (the reference code's friction rule), applied
// directly after each pass.
void icRod_ProjectPlanes(icRodWorld *w) {
    const icRodModel *m = &w->model;
    icRodState *s = &w->state;
    const icReal *x0 = w->work.x0;
    for (int p = 0; p < m->planeCount; ++p) {
        const icRodPlane *pl = &m->planes[p];
        for (int i = 0; i < m->vertexCount; ++i) {
            if (!(m->w[i] > 0)) continue;
            icVec3 x = icVec3_Load(s->x, i);
            icReal gap = icVec3_Dot(pl->normal, x) - pl->offset - s->r[i];
            if (!(gap < 1e-6)) continue;
            icReal pen = gap < 0 ? gap : 0;
            x = icVec3_MulAdd(x, -pen, pl->normal);
            icVec3 drift = icVec3_Sub(x, icVec3_Load(x0, i));
            drift = icVec3_MulAdd(drift, -icVec3_Dot(drift, pl->normal), pl->normal);
            icReal len = icVec3_Length(drift);
            icReal factor = 0.99;
            if (len > pl->staticFriction * fabs(pen)) {
                icReal kin = pl->kineticFriction * fabs(pen) / len;
                factor = kin < 0.99 ? kin : 0.99;
            }
            x = icVec3_MulAdd(x, -factor, drift);
            icVec3_Store(s->x, i, x);
        }
    }
}

icReal icRod_MaxPenetration(icRodWorld *w) {
    icRodWork *k = &w->work;
    if (!reservePairData(k)) return 0;
    icPairTask task = {w, k->pairs, k->pairData};
    icPool_ParallelFor(w->pool, pairTask, k->pairCount, 64, &task);
    icReal worst = 0;
    for (int p = 0; p < k->pairCount; ++p)
        if (-k->pairData[6 * p] > worst) worst = -k->pairData[6 * p];
    return worst;
}
