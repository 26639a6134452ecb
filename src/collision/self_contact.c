// SPDX-License-Identifier: MIT
// Contact between tet bodies and within one: every boundary vertex against the boundary
// triangles near it (spatial hash over the swept triangles, once per step), then per substep
// the XPBD constraint C = n . (p - sum_i b_i x_i) - thickness >= 0 with friction. A pair is
// enforced only from the side the vertex was on at the start of the step, so bodies cannot
// be pushed through each other (no tangling); interior vertices never take part.
#include "collision/collision_internal.h"

/// Barycentric slack of the prism test: a vertex counts as over a triangle when its
/// projection is inside it up to this much (covers the seams between neighbours).
#define IC_PRISM_SLACK 1e-3
/// A contact is projected only when sum_i c_i^2 w_i is at least this fraction of the largest
/// w_i: the parts that can move must be able to carry the correction.
#define IC_MIN_MOBILITY 0.05
/// Fraction of the thickness a gap inside the contact layer may open per substep.
#define IC_SELF_RECOVERY 0.1

static inline bool incident(const int *tri, int v) { return tri[0] == v || tri[1] == v || tri[2] == v; }

// Same-body triangles near each boundary vertex at rest: neighbours on the surface that self
// contact must ignore (they touch at rest, or are one bend away from touching). Near means
// within restExclusion or within the mean boundary edge, whichever is larger: a vertex and a
// triangle one edge apart are neighbours at any resolution. Built once per model revision.
static icResult buildExclusions(const icModel *m, icContactSystem *cs) {
    int nt = cs->triangleCount, nb = cs->boundaryCount;
    icReal edgeSum = 0;
    for (int i = 0; i < 3 * nt; ++i)
        edgeSum += icVec3_Distance(icVec3_Load(m->restPositions, cs->triangles[i]),
                                   icVec3_Load(m->restPositions, cs->triangles[i - i % 3 + (i + 1) % 3]));
    icReal reach = cs->def.restExclusion;
    if (nt > 0 && edgeSum / (3 * nt) > reach) reach = edgeSum / (3 * nt);
    if (!icGrowArray((void **)&cs->boxes, &cs->boxCapacity, nt + 1, sizeof(icBox3)))
        return IC_ERR_OUT_OF_MEMORY;
    for (int t = 0; t < nt; ++t) {
        const int *tri = cs->triangles + 3 * t;
        icVec3 a = icVec3_Load(m->restPositions, tri[0]), b = icVec3_Load(m->restPositions, tri[1]),
               c = icVec3_Load(m->restPositions, tri[2]);
        cs->boxes[t].lo = icVec3_Min(a, icVec3_Min(b, c));
        cs->boxes[t].hi = icVec3_Max(a, icVec3_Max(b, c));
    }
    icResult r = icHashGrid_Build(&cs->restGrid, cs->boxes, nt, icHashGrid_MeanExtent(cs->boxes, nt));
    if (r != IC_OK) return r;
    icFree(cs->excludeStart);
    cs->excludeStart = IC_ALLOC(int, (size_t)nb + 1);
    if (!cs->excludeStart) return IC_ERR_OUT_OF_MEMORY;
    int count = 0;
    for (int i = 0; i < nb; ++i) {
        cs->excludeStart[i] = count;
        int v = cs->boundary[i];
        icVec3 p = icVec3_Load(m->restPositions, v);
        int found = icContact_QueryGrid(cs, &cs->restGrid, icBox3_Point(p, reach));
        if (found < 0) return IC_ERR_OUT_OF_MEMORY;
        for (int k = 0; k < found; ++k) {
            int t = cs->query[k];
            const int *tri = cs->triangles + 3 * t;
            if (cs->triangleBody[t] != cs->vertexBody[v] || incident(tri, v)) continue;
            icReal bary[3];
            icVec3 q = icClosestOnTriangle(p, icVec3_Load(m->restPositions, tri[0]),
                                           icVec3_Load(m->restPositions, tri[1]),
                                           icVec3_Load(m->restPositions, tri[2]), bary, NULL);
            if (icVec3_Distance(p, q) >= reach) continue;
            if (!icGrowArray((void **)&cs->exclude, &cs->exclusionCapacity, count + 1, sizeof(int)))
                return IC_ERR_OUT_OF_MEMORY;
            cs->exclude[count++] = t; // ascending: the query is sorted
        }
    }
    cs->excludeStart[nb] = count;
    cs->excludeFor = cs->def.restExclusion;
    return IC_OK;
}

static bool pushCandidate(icContactSystem *cs, int v, int t, icReal depth0) {
    if (!icGrowArray((void **)&cs->selfCandidates, &cs->selfCapacity, cs->selfCount + 1,
                     sizeof(icSelfCandidate)))
        return false;
    cs->selfCandidates[cs->selfCount++] = (icSelfCandidate){v, t, depth0};
    return true;
}

// Which side of triangle tri's plane vertex v is on at rest (signed distance).
static icReal restSide(const icModel *m, int v, const int *tri) {
    icVec3 a = icVec3_Load(m->restPositions, tri[0]);
    icVec3 n = icVec3_Normalize(icVec3_Cross(icVec3_Sub(icVec3_Load(m->restPositions, tri[1]), a),
                                             icVec3_Sub(icVec3_Load(m->restPositions, tri[2]), a)));
    return icVec3_Dot(n, icVec3_Sub(icVec3_Load(m->restPositions, v), a));
}

static inline bool fullyHeld(const icModel *m, int v) {
    icVec3 w = icVec3_Load(m->invMass, v);
    return w.x == 0 && w.y == 0 && w.z == 0;
}

icResult icContact_CollectSelf(icWorld *world, icContactSystem *cs, const icState *s) {
    const icModel *m = &world->model;
    icReal thickness = cs->def.thickness;
    icResult r;
    if (cs->def.selfContact && cs->excludeFor != cs->def.restExclusion &&
        (r = buildExclusions(m, cs)) != IC_OK)
        return r;
    int nt = cs->triangleCount;
    if (!icGrowArray((void **)&cs->boxes, &cs->boxCapacity, nt + 1, sizeof(icBox3)))
        return IC_ERR_OUT_OF_MEMORY;
    // Each triangle's box covers where its vertices may go during the step.
    for (int t = 0; t < nt; ++t) {
        const int *tri = cs->triangles + 3 * t;
        icBox3 box = icBox3_Point(icVec3_Load(s->x, tri[0]), cs->relMotion[cs->vertexSlot[tri[0]]]);
        for (int k = 1; k < 3; ++k)
            box = icBox3_Union(box, icBox3_Point(icVec3_Load(s->x, tri[k]),
                                                 cs->relMotion[cs->vertexSlot[tri[k]]]));
        cs->boxes[t] = box;
    }
    if ((r = icHashGrid_Build(&cs->grid, cs->boxes, nt, icHashGrid_MeanExtent(cs->boxes, nt))) != IC_OK)
        return r;
    for (int i = 0; i < cs->boundaryCount; ++i) {
        int v = cs->boundary[i], body = cs->vertexBody[v];
        icVec3 p = icVec3_Load(s->x, v);
        icReal reach = cs->relMotion[i] + thickness;
        int found = icContact_QueryGrid(cs, &cs->grid, icBox3_Point(p, reach));
        if (found < 0) return IC_ERR_OUT_OF_MEMORY;
        int ex = cs->def.selfContact ? cs->excludeStart[i] : 0;
        int exEnd = cs->def.selfContact ? cs->excludeStart[i + 1] : 0;
        bool vertexHeld = fullyHeld(m, v);
        for (int k = 0; k < found; ++k) {
            int t = cs->query[k];
            const int *tri = cs->triangles + 3 * t;
            bool same = cs->triangleBody[t] == body;
            if (same ? !cs->def.selfContact : !cs->def.bodyContact) continue;
            if (incident(tri, v)) continue;
            if (same) { // merge walk: both lists ascend
                while (ex < exEnd && cs->exclude[ex] < t) ++ex;
                if (ex < exEnd && cs->exclude[ex] == t) continue;
            }
            if (vertexHeld && fullyHeld(m, tri[0]) && fullyHeld(m, tri[1]) && fullyHeld(m, tri[2]))
                continue;
            icVec3 a = icVec3_Load(s->x, tri[0]), b = icVec3_Load(s->x, tri[1]),
                   c = icVec3_Load(s->x, tri[2]);
            icVec3 n = icVec3_Cross(icVec3_Sub(b, a), icVec3_Sub(c, a));
            icReal area2 = icVec3_Length(n);
            if (!(area2 > 0)) continue;
            icReal side = icVec3_Dot(n, icVec3_Sub(p, a)) / area2;
            // Behind the triangle: a vertex slightly behind another body's triangle has
            // penetrated and is pushed back out; deeper, it is on that body's far side. Within
            // one body the rest shape tells: a vertex behind the triangle's plane at rest is
            // on the far side of a thin part of it, never a penetration.
            if (side < 0 && (side < -2 * thickness || (same && restSide(m, v, tri) < 0))) continue;
            icReal triMotion = cs->relMotion[cs->vertexSlot[tri[0]]];
            for (int j = 1; j < 3; ++j)
                if (cs->relMotion[cs->vertexSlot[tri[j]]] > triMotion) triMotion = cs->relMotion[cs->vertexSlot[tri[j]]];
            if (side > thickness + cs->relMotion[i] + triMotion) continue;
            // Out of reach sideways too (the box test above is coarser).
            icReal bary[3];
            icVec3 q = icClosestOnTriangle(p, a, b, c, bary, NULL);
            if (icVec3_Distance(p, q) > thickness + cs->relMotion[i] + triMotion) continue;
            if (!pushCandidate(cs, v, t, side < 0 ? -side : 0)) return IC_ERR_OUT_OF_MEMORY;
        }
    }
    return IC_OK;
}

static inline icReal weighted(icVec3 w, icVec3 u) { return w.x * u.x * u.x + w.y * u.y * u.y + w.z * u.z * u.z; }
static inline icVec3 scaleBy(icVec3 w, icVec3 u, icReal s) {
    return icVec3_Make(w.x * u.x * s, w.y * u.y * s, w.z * u.z * s);
}

int icContact_ProjectSelf(const icModel *m, icContactSystem *cs, icState *s) {
    icReal thickness = cs->def.thickness;
    icReal muS = cs->def.staticFriction, muK = cs->def.friction;
    int contacts = 0;
    for (int k = 0; k < cs->selfCount; ++k) {
        const icSelfCandidate *cand = &cs->selfCandidates[k];
        const int *tri = cs->triangles + 3 * cand->triangle;
        int idx[4] = {cand->vertex, tri[0], tri[1], tri[2]};
        icVec3 x[4], w[4], d[4];
        icReal travel = 0;
        for (int j = 0; j < 4; ++j) {
            x[j] = icVec3_Load(s->x, idx[j]);
            w[j] = icVec3_Load(m->invMass, idx[j]);
            d[j] = icVec3_Sub(x[j], icVec3_Load(s->xPrev, idx[j]));
            travel += icVec3_Length(d[j]);
        }
        icVec3 n = icVec3_Cross(icVec3_Sub(x[2], x[1]), icVec3_Sub(x[3], x[1]));
        icReal area2 = icVec3_Length(n);
        if (!(area2 > 0)) continue;
        n = icVec3_Scale(1.0 / area2, n);
        icReal side = icVec3_Dot(n, icVec3_Sub(x[0], x[1]));
        // The gap may not shrink below where the substep started, and grows back to the
        // thickness by at most a tenth of it per substep: a pair that enters the layer from
        // the side (or starts inside it) is eased out instead of kicked (d / h would be its
        // speed), while nothing that starts in front can cross.
        icReal before = icVec3_Dot(n, icVec3_Sub(icVec3_Sub(x[0], d[0]), icVec3_Sub(x[1], d[1])));
        icReal target = before + IC_SELF_RECOVERY * thickness;
        if (target > thickness) target = thickness;
        if (side >= target) continue;
        // Behind by more than the step's start and this substep's travel explain: the
        // vertex went round the triangle's edge, not through it.
        if (side < -(2 * thickness + cand->depth0 + travel)) continue;
        icReal bary[3];
        if (!icTriangleBarycentric(x[0], x[1], x[2], x[3], bary)) continue;
        if (bary[0] < -IC_PRISM_SLACK || bary[1] < -IC_PRISM_SLACK || bary[2] < -IC_PRISM_SLACK) continue;
        icReal sum = 0;
        for (int j = 0; j < 3; ++j) {
            if (bary[j] < 0) bary[j] = 0;
            sum += bary[j];
        }
        for (int j = 0; j < 3; ++j) bary[j] /= sum;
        // Constraint gradients: n for the vertex, -b_j n for the triangle's corners.
        icReal coef[4] = {1, -bary[0], -bary[1], -bary[2]};
        icReal denom = 0, wMax = 0;
        for (int j = 0; j < 4; ++j) {
            icReal wj = weighted(w[j], n);
            denom += coef[j] * coef[j] * wj;
            if (wj > wMax) wMax = wj;
        }
        // When only corners with tiny weights can move (the rest held), they would be thrown
        // by depth / b: such a contact is between held parts and is left alone.
        if (!(denom > IC_MIN_MOBILITY * wMax) || !(denom > 1e-30)) continue;
        ++contacts;
        icReal depth = target - side;
        icReal dl = depth / denom;
        for (int j = 0; j < 4; ++j) x[j] = icVec3_Add(x[j], scaleBy(w[j], n, coef[j] * dl));
        // Friction on the relative tangential motion of the substep (vertex against the
        // triangle's point under it), as for colliders.
        icVec3 rel = icVec3_Make(0, 0, 0);
        for (int j = 0; j < 4; ++j)
            rel = icVec3_MulAdd(rel, coef[j], icVec3_Sub(x[j], icVec3_Load(s->xPrev, idx[j])));
        icVec3 tangential = icVec3_MulAdd(rel, -icVec3_Dot(rel, n), n);
        icReal slide = icVec3_Length(tangential);
        if (slide > 0) {
            icVec3 u = icVec3_Scale(1.0 / slide, tangential);
            icReal cut = slide <= muS * depth ? slide : muK * depth;
            if (cut > slide) cut = slide;
            icReal denomT = 0, wMaxT = 0;
            for (int j = 0; j < 4; ++j) {
                icReal wj = weighted(w[j], u);
                denomT += coef[j] * coef[j] * wj;
                if (wj > wMaxT) wMaxT = wj;
            }
            if (denomT > IC_MIN_MOBILITY * wMaxT && denomT > 1e-30)
                for (int j = 0; j < 4; ++j)
                    x[j] = icVec3_Add(x[j], scaleBy(w[j], u, -coef[j] * cut / denomT));
        }
        for (int j = 0; j < 4; ++j) icVec3_Store(s->x, idx[j], x[j]);
    }
    return contacts;
}
