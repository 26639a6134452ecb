// SPDX-License-Identifier: MIT
// Rod bundles (Angles et al. 2019, sec. 7.3): grouping by cross-section, scale-invariant shape
// matching (Umeyama with the iterative rotation of Mueller et al. 2016), traditional shape
// matching, activation.
#include "rod/rod_internal.h"

#include <math.h>

// Mueller et al. 2016: omega = sum_i r_i x s_i / (|sum_i r_i . s_i| + 1e-9), rotate by |omega|
// about it.
icQuat icRod_ExtractRotation(icMat3 S, icQuat q, int maxIterations, icReal tolerance) {
    q = icQuat_Normalize(q);
    for (int it = 0; it < maxIterations; ++it) {
        icMat3 R = icQuat_ToMat3(q);
        icVec3 num = icVec3_Make(0, 0, 0);
        icReal den = 0;
        for (int i = 0; i < 3; ++i) {
            num = icVec3_Add(num, icVec3_Cross(R.col[i], S.col[i]));
            den += icVec3_Dot(R.col[i], S.col[i]);
        }
        icVec3 om = icVec3_Scale(1.0 / (fabs(den) + 1e-9), num);
        icReal angle = icVec3_Length(om);
        if (!(angle >= tolerance)) break;
        q = icQuat_Normalize(icQuat_Mul(icQuat_FromRotationVector(om), q));
    }
    return q;
}

// Angles et al. 2019, eqs. 33-36: with centred blocks B_k = [r_k R_k | x_k - c] and
// A_k = [rbar_k Rbar_k | xbar_k - cbar], S = sum B_k A_k^T, R* = argmax tr(R^T S),
// sigma* = sum <R* A_k, B_k> / sum |A_k|^2, t* = c - sigma* R* cbar.
void icRod_FitSimilarity(int n, const icVec3 *x, const icReal *r, const icQuat *q,
                         const icVec3 *xbar, const icReal *rbar, const icQuat *qbar, bool rigid,
                         icQuat *rotation, icReal *sigma, icVec3 *translation) {
    icVec3 c = icVec3_Make(0, 0, 0), cb = c;
    for (int k = 0; k < n; ++k) {
        c = icVec3_Add(c, x[k]);
        cb = icVec3_Add(cb, xbar[k]);
    }
    c = icVec3_Scale(1.0 / n, c);
    cb = icVec3_Scale(1.0 / n, cb);
    bool frames = r && q && rbar && qbar;
    icMat3 S = icMat3_Zero();
    for (int k = 0; k < n; ++k) {
        S = icMat3_Add(S, icMat3_Outer(icVec3_Sub(x[k], c), icVec3_Sub(xbar[k], cb)));
        if (frames)
            S = icMat3_Add(
                S, icMat3_Scale(r[k] * rbar[k],
                                icMat3_MulTrans(icQuat_ToMat3(q[k]), icQuat_ToMat3(qbar[k]))));
    }
    icQuat qr = icRod_ExtractRotation(S, *rotation, 100, 1e-12);
    icMat3 R = icQuat_ToMat3(qr);
    icReal s = 1;
    if (!rigid) {
        icReal num = 0, den = 0;
        for (int k = 0; k < n; ++k) {
            icVec3 a = icVec3_Sub(xbar[k], cb);
            num += icVec3_Dot(icMat3_MulVec(R, a), icVec3_Sub(x[k], c));
            den += icVec3_Dot(a, a);
            if (frames) {
                icMat3 RA = icMat3_Mul(R, icQuat_ToMat3(qbar[k]));
                num += r[k] * rbar[k] * icMat3_DDot(RA, icQuat_ToMat3(q[k]));
                den += 3 * rbar[k] * rbar[k];
            }
        }
        s = den > 0 ? num / den : 1;
    }
    *rotation = qr;
    *sigma = s;
    *translation = icVec3_Sub(c, icVec3_Scale(s, icMat3_MulVec(R, cb)));
}

// Quaternion goal in q's hemisphere (the reference code does not check the sign).
static icQuat nearGoal(icQuat goal, icQuat q) {
    return icQuat_Dot(goal, q) < 0 ? icQuat_Scale(-1, goal) : goal;
}

// Goal corrections of one cross-section, averaged with the other constraints of the pass as in
// the reference code (or applied directly: the post-process of Angles et al. 2019, sec. 7.3).
void icRod_ProjectSlice(icRodWorld *w, int index, icRodWork *k, bool direct) {
    const icRodModel *m = &w->model;
    icRodState *st = &w->state;
    const icRodSlice *sl = &m->slices[index];
    icRodMatching matching = m->bundles[sl->bundle].matching;
    if (matching == IC_ROD_MATCHING_NONE) return;
    int n = sl->count;
    icVec3 x[IC_ROD_BUNDLE_MAX], xb[IC_ROD_BUNDLE_MAX];
    icReal r[IC_ROD_BUNDLE_MAX], rb[IC_ROD_BUNDLE_MAX];
    icQuat q[IC_ROD_BUNDLE_MAX], qb[IC_ROD_BUNDLE_MAX];
    for (int i = 0; i < n; ++i) {
        int v = sl->vertex[i];
        x[i] = icVec3_Load(st->x, v);
        xb[i] = icVec3_Load(m->restPos, v);
        r[i] = st->r[v];
        rb[i] = m->restRadius[v];
        // R_k = R(slerp(q_a, q_b, 1/2)) (Angles et al. 2019, eq. 32)
        q[i] = icQuat_Midpoint(icQuat_Load(st->q, sl->segA[i]), icQuat_Load(st->q, sl->segB[i]));
        qb[i] =
            icQuat_Midpoint(icQuat_Load(m->restQ, sl->segA[i]), icQuat_Load(m->restQ, sl->segB[i]));
    }
    bool rigid = matching == IC_ROD_MATCHING_RIGID;
    icQuat rot = icQuat_Load(st->sliceRot, index);
    icReal sigma;
    icVec3 t;
    if (rigid)
        icRod_FitSimilarity(n, x, NULL, NULL, xb, NULL, NULL, true, &rot, &sigma, &t);
    else
        icRod_FitSimilarity(n, x, r, q, xb, rb, qb, false, &rot, &sigma, &t);
    icQuat_Store(st->sliceRot, index, rot);
    icMat3 R = icQuat_ToMat3(rot);
    for (int i = 0; i < n; ++i) {
        int v = sl->vertex[i];
        icVec3 goal = icVec3_Add(icVec3_Scale(sigma, icMat3_MulVec(R, xb[i])), t);
        if (m->w[v] > 0) {
            if (direct)
                icVec3_Store(st->x, v, goal);
            else
                icRodAcc_X(k, v, icVec3_Sub(goal, x[i]));
        }
        if (rigid) continue; // rigid matching keeps radii and frames (Angles et al. 2019, Fig. 10)
        if (m->wr[v] > 0 && w->def.radiusModel == IC_ROD_RADIUS_VIPER) {
            if (direct)
                st->r[v] = sigma * rb[i];
            else
                icRodAcc_R(k, v, sigma * rb[i] - r[i]);
        }
        int segs[2] = {sl->segA[i], sl->segB[i]};
        for (int j = 0; j < (segs[0] == segs[1] ? 1 : 2); ++j) {
            int e = segs[j];
            if (!(m->wq[e] > 0)) continue;
            icQuat qe = icQuat_Load(st->q, e);
            icQuat goalQ = nearGoal(icQuat_Mul(rot, icQuat_Load(m->restQ, e)), qe);
            if (direct)
                icQuat_Store(st->q, e, goalQ);
            else
                icRodAcc_Q(k, e, icQuat_Sub(goalQ, qe));
        }
    }
}

icResult icRodWorld_AddBundle(icRodWorld *w, const int *rods, int rodCount, icRodMatching matching,
                              int *bundle, icDiagnostic *diag) {
    icRodModel *m = &w->model;
    const char *f = "bundle";
    if (!rods || rodCount < 1 || rodCount > IC_ROD_BUNDLE_MAX)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "a bundle has 1 to %d rods, not %d",
                          IC_ROD_BUNDLE_MAX, rodCount);
    if (matching != IC_ROD_MATCHING_NONE && matching != IC_ROD_MATCHING_SCALE_INVARIANT &&
        matching != IC_ROD_MATCHING_RIGID)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "unknown matching");
    int nv = -1;
    for (int i = 0; i < rodCount; ++i) {
        if (rods[i] < 0 || rods[i] >= m->rodCount)
            return icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, f, 0, "rod %d does not exist",
                              rods[i]);
        const icRodRecord *r = &m->rods[rods[i]];
        if (!r->chain)
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "rod %d is not a chain", rods[i]);
        if (nv >= 0 && r->vertexCount != nv)
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0,
                              "rod %d has %d vertices, the first rod %d", rods[i], r->vertexCount,
                              nv);
        nv = r->vertexCount;
        for (int j = 0; j < i; ++j)
            if (rods[j] == rods[i])
                return icDiag_Set(diag, IC_ERR_REPEATED_INDEX, f, 0, "rod %d is listed twice",
                                  rods[i]);
    }
    if (!icGrowArray((void **)&m->bundles, &m->bundleCapacity, m->bundleCount + 1,
                     sizeof(icRodBundle)) ||
        !icGrowArray((void **)&m->bundleRods, &m->bundleRodCapacity, m->bundleRodCount + rodCount,
                     sizeof(int)))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, f, 0, "out of memory");
    int oldCapacity = m->sliceCapacity;
    if (!icGrowArray((void **)&m->slices, &m->sliceCapacity, m->sliceCount + nv,
                     sizeof(icRodSlice)))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, f, 0, "out of memory");
    if (m->sliceCapacity != oldCapacity) {
        icReal *rot = IC_ALLOC(icReal, 4 * (size_t)m->sliceCapacity);
        if (!rot) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, f, 0, "out of memory");
        if (w->state.sliceRot)
            memcpy(rot, w->state.sliceRot, sizeof(icReal) * 4 * (size_t)m->sliceCount);
        icFree(w->state.sliceRot);
        w->state.sliceRot = rot;
    }
    icRodBundle *b = &m->bundles[m->bundleCount];
    memset(b, 0, sizeof *b);
    b->matching = matching;
    b->rodStart = m->bundleRodCount;
    b->rodCount = rodCount;
    b->sliceStart = m->sliceCount;
    b->sliceCount = nv;
    // One object: intra-muscle collisions are disabled (Angles et al. 2019, sec. 8.2).
    int group = m->rods[rods[0]].group;
    for (int i = 0; i < rodCount; ++i) {
        icRodRecord *r = &m->rods[rods[i]];
        r->group = group;
        for (int e = r->segmentStart; e < r->segmentStart + r->segmentCount; ++e)
            m->segGroup[e] = group;
        m->bundleRods[m->bundleRodCount++] = rods[i];
    }
    for (int j = 0; j < nv; ++j) {
        icRodSlice *sl = &m->slices[m->sliceCount];
        memset(sl, 0, sizeof *sl);
        sl->bundle = m->bundleCount;
        sl->count = rodCount;
        for (int i = 0; i < rodCount; ++i) {
            const icRodRecord *r = &m->rods[rods[i]];
            sl->vertex[i] = r->vertexStart + j;
            sl->segA[i] = r->segmentStart + (j > 0 ? j - 1 : 0);
            sl->segB[i] = r->segmentStart + (j < nv - 1 ? j : nv - 2);
        }
        icQuat_Store(w->state.sliceRot, m->sliceCount, icQuat_Identity());
        ++m->sliceCount;
    }
    if (bundle) *bundle = m->bundleCount;
    ++m->bundleCount;
    return IC_OK;
}

icResult icRodWorld_SetActivation(icRodWorld *w, int bundle, int segmentBegin, int segmentEnd,
                                  icReal activation) {
    icRodModel *m = &w->model;
    if (bundle < 0 || bundle >= m->bundleCount) return IC_ERR_INDEX_OUT_OF_RANGE;
    if (!(activation >= 0 && activation < 1)) return IC_ERR_BAD_VALUE;
    const icRodBundle *b = &m->bundles[bundle];
    int ns = m->rods[m->bundleRods[b->rodStart]].segmentCount;
    if (segmentBegin < 0 || segmentEnd > ns || segmentBegin > segmentEnd)
        return IC_ERR_INDEX_OUT_OF_RANGE;
    // Angles et al. 2019, sec. 8.2: shorter fibres, unchanged volume rest values, so the radii
    // grow.
    for (int i = 0; i < b->rodCount; ++i) {
        const icRodRecord *r = &m->rods[m->bundleRods[b->rodStart + i]];
        for (int e = segmentBegin; e < segmentEnd; ++e) {
            int g = r->segmentStart + e;
            m->restLength[g] = (1 - activation) * m->restLength0[g];
        }
    }
    return IC_OK;
}

icResult icRodWorld_SetActivationRamp(icRodWorld *w, int bundle, int segmentBegin, int segmentEnd,
                                      icReal activation, icReal start, icReal end) {
    icResult e = icRodWorld_SetActivation(w, bundle, segmentBegin, segmentEnd, 0);
    if (e != IC_OK) return e;
    if (!(activation >= 0 && activation < 1) || !(start >= 0) || !(end >= start) || !isfinite(end))
        return IC_ERR_BAD_VALUE;
    icRodBundle *b = &w->model.bundles[bundle];
    b->ramp = true;
    b->rampBegin = segmentBegin;
    b->rampEnd = segmentEnd;
    b->rampValue = activation;
    b->rampStart = start;
    b->rampEnd_t = end;
    return IC_OK;
}

// The activation of every ramped bundle at time t.
void icRod_ApplyActivation(icRodWorld *w, icReal t) {
    for (int i = 0; i < w->model.bundleCount; ++i) {
        const icRodBundle *b = &w->model.bundles[i];
        if (!b->ramp) continue;
        icReal s = b->rampEnd_t > b->rampStart ? (t - b->rampStart) / (b->rampEnd_t - b->rampStart)
                                               : (t >= b->rampStart ? 1 : 0);
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
        icRodWorld_SetActivation(w, i, b->rampBegin, b->rampEnd, s * b->rampValue);
    }
}

// Packing of n discs of radius rho in a unit-radius cross-section: a centre and a ring.
static void packDiscs(int n, icReal *x, icReal *y, icReal *rho) {
    if (n == 1) {
        x[0] = y[0] = 0;
        *rho = 1;
        return;
    }
    if (n == 2) {
        x[0] = -0.5, x[1] = 0.5, y[0] = y[1] = 0;
        *rho = 0.5;
        return;
    }
    int ring = n - 1;
    icReal s = sin(IC_PI / ring);
    icReal r = s / (1 + s);       // ring discs touch each other and the boundary
    if (r > 1.0 / 3) r = 1.0 / 3; // and do not overlap the centre disc
    *rho = r;
    x[0] = y[0] = 0;
    for (int k = 0; k < ring; ++k) {
        x[k + 1] = (1 - r) * cos(2 * IC_PI * k / ring);
        y[k + 1] = (1 - r) * sin(2 * IC_PI * k / ring);
    }
}

icResult icRodWorld_AddFusiformBundle(icRodWorld *w, icVec3 start, icVec3 end, icReal maxRadius,
                                      icReal endRadius, int rodCount, int segments,
                                      const icRodDef *def, icRodMatching matching, int *firstRod,
                                      int *bundle, icDiagnostic *diag) {
    const char *f = "bundle";
    icVec3 axis = icVec3_Sub(end, start);
    icReal L = icVec3_Length(axis);
    if (!(L > 0) || !(endRadius > 0) || !(maxRadius >= endRadius) || rodCount < 1 ||
        rodCount > IC_ROD_BUNDLE_MAX || segments < 1 || segments > 100000)
        return icDiag_Set(
            diag, IC_ERR_BAD_VALUE, f, 0,
            "needs length > 0, 0 < end radius <= max radius, 1..%d rods, segments >= 1",
            IC_ROD_BUNDLE_MAX);
    icVec3 t = icVec3_Scale(1.0 / L, axis);
    icVec3 a = fabs(t.x) < 0.7 ? icVec3_Make(1, 0, 0) : icVec3_Make(0, 1, 0);
    icVec3 u = icVec3_Normalize(icVec3_Cross(t, a)), v = icVec3_Cross(t, u);
    icReal px[IC_ROD_BUNDLE_MAX], py[IC_ROD_BUNDLE_MAX], rho;
    packDiscs(rodCount, px, py, &rho);
    int nv = segments + 1;
    icReal *p = IC_ALLOC(icReal, 3 * (size_t)nv), *r = IC_ALLOC(icReal, (size_t)nv);
    int rods[IC_ROD_BUNDLE_MAX];
    icResult e = p && r ? IC_OK : IC_ERR_OUT_OF_MEMORY;
    if (e != IC_OK) icDiag_Set(diag, e, f, 0, "out of memory");
    icRodDef d = def ? *def : icDefaultRodDef();
    d.vertexCount = nv;
    d.positions = p;
    d.radii = r;
    d.segments = NULL;
    d.masses = NULL;
    d.segmentBendCompliance = NULL;
    d.group = -1;
    for (int k = 0; k < rodCount && e == IC_OK; ++k) {
        for (int j = 0; j < nv; ++j) {
            icReal s = (icReal)j / segments;
            icReal R = endRadius + (maxRadius - endRadius) * sin(IC_PI * s);
            icVec3 c = icVec3_MulAdd(start, s * L, t);
            c = icVec3_MulAdd(c, R * px[k], u);
            c = icVec3_MulAdd(c, R * py[k], v);
            icVec3_Store(p, j, c);
            r[j] = R * rho;
        }
        e = icRodWorld_AddRod(w, &d, &rods[k], diag);
        if (e == IC_OK && k == 0) d.group = w->model.rods[rods[0]].group;
    }
    icFree(p);
    icFree(r);
    if (e != IC_OK) return e;
    if (firstRod) *firstRod = rods[0];
    return icRodWorld_AddBundle(w, rods, rodCount, matching, bundle, diag);
}
