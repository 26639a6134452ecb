// SPDX-License-Identifier: MIT
// Adding rods: validation, masses and frames, and the constraint sets (the presets of the VIPER
// reference code).
#include "rod/rod_internal.h"

#include <math.h>
#include <stdio.h>

icRodDef icDefaultRodDef(void) {
    icRodDef d;
    memset(&d, 0, sizeof d);
    d.radius = 0.05;
    d.density = 1000;
    d.stretchShear = true;
    d.bendTwist = true;
    d.radiusCompliance = 1e-3;
    d.scaleBilaplacian = true;
    d.volume = IC_ROD_VOLUME_MIDPOINT;
    d.group = -1;
    d.collide = true;
    return d;
}

icRodDef icPillObjectRodDef(void) {
    icRodDef d = icDefaultRodDef();
    d.radiusSpring = true;
    d.radiusCompliance = 1e-3;
    d.stretchCompliance = 1e-4;
    d.scaleBilaplacian = false;
    d.volume = IC_ROD_VOLUME_PILL;
    return d;
}

static bool finiteNonNegative(icReal a) { return a >= 0 && isfinite(a); }

static icResult checkDef(const icRodDef *d, int segmentCount, icDiagnostic *diag) {
    const char *f = "rod";
    if (d->vertexCount < 2 || !d->positions)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "a rod needs at least 2 vertices");
    if (d->segments && d->segmentCount < 1)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "segmentCount must be >= 1");
    for (int i = 0; i < 3 * d->vertexCount; ++i)
        if (!isfinite(d->positions[i]))
            return icDiag_Set(diag, IC_ERR_NOT_FINITE, f, 0, "vertex %d is not finite", i / 3);
    if (!d->radii && !(d->radius > 0 && isfinite(d->radius)))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "radius %g must be > 0", d->radius);
    for (int i = 0; d->radii && i < d->vertexCount; ++i)
        if (!(d->radii[i] > 0 && isfinite(d->radii[i])))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "radius of vertex %d is %g, not > 0", i,
                              d->radii[i]);
    for (int i = 0; d->masses && i < d->vertexCount; ++i)
        if (!(d->masses[i] > 0 && isfinite(d->masses[i])))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "mass of vertex %d is %g, not > 0", i,
                              d->masses[i]);
    if (!d->masses && !(d->density > 0 && isfinite(d->density)))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "density %g must be > 0", d->density);
    icReal alphas[] = {d->stretchCompliance, d->bendCompliance,           d->twistCompliance,
                       d->radiusCompliance,  d->scaleSmoothingCompliance, d->bilaplacianCompliance,
                       d->volumeCompliance};
    for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; ++i)
        if (!finiteNonNegative(alphas[i]))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "compliance %g must be >= 0",
                              alphas[i]);
    for (int e = 0; d->segmentBendCompliance && e < segmentCount; ++e)
        if (!finiteNonNegative(d->segmentBendCompliance[e]))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0,
                              "bend compliance of segment %d must be >= 0", e);
    if (!(d->youngsModulus >= 0 && isfinite(d->youngsModulus)) || !isfinite(d->shearModulus))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "youngsModulus must be >= 0");
    if (d->volume != IC_ROD_VOLUME_NONE && d->volume != IC_ROD_VOLUME_MIDPOINT &&
        d->volume != IC_ROD_VOLUME_PILL)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "unknown volume measure");
    if (d->group < -1) return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "group must be >= -1");
    for (int e = 0; e < segmentCount; ++e) {
        int a = d->segments ? d->segments[2 * e] : e,
            b = d->segments ? d->segments[2 * e + 1] : e + 1;
        if (a < 0 || b < 0 || a >= d->vertexCount || b >= d->vertexCount)
            return icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, f, 0,
                              "segment %d names vertex %d of %d", e,
                              a < 0 || a >= d->vertexCount ? a : b, d->vertexCount);
        if (a == b)
            return icDiag_Set(diag, IC_ERR_REPEATED_INDEX, f, 0, "segment %d repeats vertex %d", e,
                              a);
        icReal l = icVec3_Distance(icVec3_Load(d->positions, a), icVec3_Load(d->positions, b));
        if (!(l > 0))
            return icDiag_Set(diag, IC_ERR_DEGENERATE_ELEMENT, f, 0, "segment %d has zero length",
                              e);
    }
    return IC_OK;
}

#define IC_PUSH(array, count, capacity, value)                                                     \
    do {                                                                                           \
        if (!icGrowArray((void **)&(array), &(capacity), (count) + 1, sizeof *(array)))            \
            return IC_ERR_OUT_OF_MEMORY;                                                           \
        (array)[(count)++] = (value);                                                              \
    } while (0)

// Second-order scale stencil (Angles et al. 2019, eq. 15) for vertex i of a chain of n >= 4
// vertices (local ids).
static void bilapStencil(int i, int n, icRodBilap *c) {
    static const icReal first[] = {2, -3, 1}, second[] = {-3, 6, -4, 1},
                        inner[] = {1, -4, 6, -4, 1}, beforeLast[] = {1, -4, 6, -3},
                        last[] = {1, -3, 2};
    const icReal *s;
    int start;
    if (i == 0) {
        s = first, c->count = 3, start = 0;
    } else if (i == 1) {
        s = second, c->count = 4, start = 0;
    } else if (i == n - 2) {
        s = beforeLast, c->count = 4, start = n - 4;
    } else if (i == n - 1) {
        s = last, c->count = 3, start = n - 3;
    } else {
        s = inner, c->count = 5, start = i - 2;
    }
    for (int k = 0; k < c->count; ++k) {
        c->idx[k] = start + k;
        c->coef[k] = s[k];
    }
}

// The constraints of a new rod (as the reference code's presets), with global indices.
static icResult addConstraints(icRodWorld *w, const icRodDef *d, const icRodRecord *rod) {
    icRodModel *m = &w->model;
    int v0 = rod->vertexStart, s0 = rod->segmentStart, ns = rod->segmentCount;
    bool physical = d->youngsModulus > 0;
    icReal E = d->youngsModulus, G = d->shearModulus > 0 ? d->shearModulus : E / 2.6;
    for (int e = s0; e < s0 + ns; ++e) {
        int a = m->seg[2 * e], b = m->seg[2 * e + 1];
        icReal l = m->restLength[e], rm = 0.5 * (m->restRadius[a] + m->restRadius[b]);
        if (d->stretchShear) {
            icReal alpha = physical ? 1.0 / (E * IC_PI * rm * rm * l) : d->stretchCompliance;
            IC_PUSH(m->stretch, m->stretchCount, m->stretchCapacity, ((icRodStretch){e, alpha}));
        }
        if (d->scaleSmoothing)
            IC_PUSH(m->smooth, m->smoothCount, m->smoothCapacity,
                    ((icRodSmooth){e, d->scaleSmoothingCompliance}));
        if (d->volume != IC_ROD_VOLUME_NONE) {
            icReal ra = m->restRadius[a], rb = m->restRadius[b];
            icRodVolumeC c = {e, d->volume, 0, d->volumeCompliance};
            if (d->volume == IC_ROD_VOLUME_MIDPOINT) {
                c.rest = rm * rm * l;
            } else {
                // P needs |rb - ra| < d; such a segment gets no constraint.
                if (!(fabs(rb - ra) < l)) continue;
                c.rest = icRod_SegmentVolume(ra, rb, l, NULL, NULL, NULL);
            }
            IC_PUSH(m->volume, m->volumeCount, m->volumeCapacity, c);
        }
    }
    if (d->bendTwist) {
        // Every pair of segments sharing a vertex (consecutive ones on a chain).
        for (int e = s0; e < s0 + ns; ++e)
            for (int f = e + 1; f < s0 + ns; ++f) {
                int shared = -1;
                for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j)
                        if (m->seg[2 * e + i] == m->seg[2 * f + j]) shared = m->seg[2 * e + i];
                if (shared < 0) continue;
                icRodBend c;
                c.e = e;
                c.f = f;
                c.v = shared;
                c.rest =
                    icQuat_Mul(icQuat_Conj(icQuat_Load(m->restQ, e)), icQuat_Load(m->restQ, f));
                if (physical) {
                    icReal l = 0.5 * (m->restLength[e] + m->restLength[f]);
                    icReal r2 = m->restRadius[shared] * m->restRadius[shared];
                    icReal I = 0.25 * IC_PI * r2 * r2;
                    c.alphaBend = l / (4 * E * I);
                    c.alphaTwist = l / (4 * G * 2 * I);
                } else if (d->segmentBendCompliance) {
                    c.alphaBend = c.alphaTwist =
                        0.5 * (d->segmentBendCompliance[e - s0] + d->segmentBendCompliance[f - s0]);
                } else {
                    c.alphaBend = d->bendCompliance;
                    c.alphaTwist = d->twistCompliance;
                }
                IC_PUSH(m->bend, m->bendCount, m->bendCapacity, c);
            }
    }
    for (int i = v0; i < v0 + rod->vertexCount; ++i)
        if (d->radiusSpring)
            IC_PUSH(m->radius, m->radiusCount, m->radiusCapacity,
                    ((icRodRadius){i, d->radiusCompliance}));
    if (d->scaleBilaplacian && rod->chain && rod->vertexCount >= 4) {
        for (int i = 1; i < rod->vertexCount - 1; ++i) {
            icRodBilap c;
            memset(&c, 0, sizeof c);
            bilapStencil(i, rod->vertexCount, &c);
            c.v = v0 + i;
            for (int k = 0; k < c.count; ++k) c.idx[k] += v0;
            c.alpha = d->bilaplacianCompliance;
            IC_PUSH(m->bilap, m->bilapCount, m->bilapCapacity, c);
        }
    }
    return IC_OK;
}

icResult icRodWorld_AddRod(icRodWorld *w, const icRodDef *d, int *rodIndex, icDiagnostic *diag) {
    if (!w || !d) return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "rod", 0, "no world or def");
    bool chain = d->segments == NULL;
    int ns = chain ? d->vertexCount - 1 : d->segmentCount;
    icResult e = checkDef(d, ns, diag);
    if (e != IC_OK) return e;
    int nv = d->vertexCount;
    icRodModel *m = &w->model;
    icRodState *s = &w->state;
    if ((e = icRod_Reserve(w, nv, ns)) != IC_OK)
        return icDiag_Set(diag, e, "rod", 0, "out of memory");
    if (!icGrowArray((void **)&m->rods, &m->rodCapacity, m->rodCount + 1, sizeof(icRodRecord)))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "rod", 0, "out of memory");

    icRodRecord rod = {m->vertexCount, nv, m->segmentCount, ns, d->group, chain};
    if (d->group < 0) rod.group = m->groupCount;
    if (rod.group + 1 > m->groupCount) m->groupCount = rod.group + 1;
    int v0 = rod.vertexStart, s0 = rod.segmentStart;

    for (int i = 0; i < nv; ++i) {
        int g = v0 + i;
        icVec3 p = icVec3_Load(d->positions, i);
        icVec3_Store(m->restPos, g, p);
        icVec3_Store(m->pinBase, g, p);
        m->restRadius[g] = d->radii ? d->radii[i] : d->radius;
        m->w[g] = 0; // masses below
        m->pinBone[g] = d->kinematic ? -1 : -2;
        m->warmBone[2 * g] = m->warmBone[2 * g + 1] = -1;
        m->warmWeight[g] = 0;
        m->vertexRod[g] = m->rodCount;
        icVec3_Store(s->x, g, p);
        icVec3_Store(s->v, g, d->kinematic ? icVec3_Make(0, 0, 0) : d->velocity);
        s->r[g] = m->restRadius[g];
        s->rdot[g] = 0;
    }
    // Masses: rho pi rbar^2 times half the adjacent rest lengths, unless given.
    for (int k = 0; k < ns; ++k) {
        int g = s0 + k;
        int a = v0 + (chain ? k : d->segments[2 * k]),
            b = v0 + (chain ? k + 1 : d->segments[2 * k + 1]);
        m->seg[2 * g] = a;
        m->seg[2 * g + 1] = b;
        icVec3 xa = icVec3_Load(m->restPos, a), xb = icVec3_Load(m->restPos, b);
        icReal l = icVec3_Distance(xa, xb);
        m->restLength[g] = m->restLength0[g] = l;
        icQuat q = icQuat_FromZTo(icVec3_Sub(xb, xa));
        icQuat_Store(m->restQ, g, q);
        icQuat_Store(s->q, g, q);
        s->omega[3 * g] = s->omega[3 * g + 1] = s->omega[3 * g + 2] = 0;
        m->segGroup[g] = rod.group;
        m->segCollide[g] = d->collide;
        if (!d->masses) {
            m->w[a] += 0.5 * d->density * IC_PI * m->restRadius[a] * m->restRadius[a] * l;
            m->w[b] += 0.5 * d->density * IC_PI * m->restRadius[b] * m->restRadius[b] * l;
        }
    }
    for (int i = 0; i < nv; ++i) {
        int g = v0 + i;
        icReal mass = d->masses ? d->masses[i] : m->w[g];
        if (!(mass > 0)) {
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, "rod", 0, "vertex %d belongs to no segment",
                              i);
        }
        m->w[g] = d->kinematic ? 0 : 1.0 / mass;
        m->wr[g] = 2 * m->w[g]; // a disc's radial inertia is half its translational
    }
    for (int k = 0; k < ns; ++k) {
        int g = s0 + k, a = m->seg[2 * g], b = m->seg[2 * g + 1];
        icReal rm = 0.5 * (m->restRadius[a] + m->restRadius[b]);
        icReal me = d->masses ? 0.5 * (d->masses[a - v0] + d->masses[b - v0])
                              : d->density * IC_PI * rm * rm * m->restLength[g];
        // quaternion-coefficient weight 1 / (4 I), I = m rbar^2 / 4
        m->wq[g] = d->kinematic ? 0 : 1.0 / (me * rm * rm);
        m->segPinned[g] = d->kinematic;
    }
    m->vertexCount += nv;
    m->segmentCount += ns;
    m->rods[m->rodCount] = rod;
    if ((e = addConstraints(w, d, &rod)) != IC_OK)
        return icDiag_Set(diag, e, "rod", 0, "out of memory");
    if (rodIndex) *rodIndex = m->rodCount;
    ++m->rodCount;
    w->workReady = false;
    return IC_OK;
}
