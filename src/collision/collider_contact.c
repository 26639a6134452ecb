// SPDX-License-Identifier: MIT
// Boundary vertices against kinematic colliders: candidates once per step (vertex sweep
// sphere against the collider in its rest frame), and per substep a hard XPBD contact
// constraint C = d(x) - thickness >= 0 with position-based Coulomb friction on the motion
// relative to the collider's surface (Macklin et al. 2014, sec. 6.1; Macklin & Müller 2021,
// Algorithm 1).
#include "collision/collision_internal.h"

static bool pushCandidate(icContactSystem *cs, int vertex, int collider, const int *tris,
                          int triCount) {
    if (!icGrowArray((void **)&cs->colliderCandidates, &cs->colliderCandidateCapacity,
                     cs->colliderCandidateCount + 1, sizeof(icColliderCandidate)))
        return false;
    if (triCount > 0 && !icGrowArray((void **)&cs->candidateTris, &cs->candidateTriCapacity,
                                     cs->candidateTriCount + triCount, sizeof(int)))
        return false;
    icColliderCandidate *c = &cs->colliderCandidates[cs->colliderCandidateCount++];
    c->vertex = vertex;
    c->collider = collider;
    c->triStart = cs->candidateTriCount;
    c->triCount = triCount;
    if (triCount > 0) memcpy(cs->candidateTris + cs->candidateTriCount, tris, sizeof(int) * (size_t)triCount);
    cs->candidateTriCount += triCount;
    return true;
}

icResult icContact_CollectColliders(icWorld *world, icContactSystem *cs, const icState *s,
                                    icReal t0, icReal dt) {
    const icModel *m = &world->model;
    for (int ci = 0; ci < cs->colliderCount; ++ci) {
        icColliderRecord *c = &cs->colliders[ci];
        icXform x0 = icTrack_Evaluate(&c->track, t0), x1 = icTrack_Evaluate(&c->track, t0 + dt);
        for (int i = 0; i < cs->boundaryCount; ++i) {
            int v = cs->boundary[i];
            icVec3 w = icVec3_Load(m->invMass, v);
            if (w.x == 0 && w.y == 0 && w.z == 0) continue; // kinematic: nothing to move
            icVec3 p = icVec3_Load(s->x, v);
            // The vertex's reach in the collider's rest frame over the step: the segment
            // between its rest-frame positions at both ends (the collider moves too), padded
            // by its own travel and the thickness.
            icVec3 l0 = icXform_ApplyInverse(&x0, p), l1 = icXform_ApplyInverse(&x1, p);
            icVec3 centre = icVec3_Scale(0.5, icVec3_Add(l0, l1));
            icReal radius = cs->motion[i] + c->thickness + icVec3_Distance(l0, l1);
            if (icVec3_Distance(centre, c->boundCentre) > radius + c->boundRadius) continue;
            if (c->shape != IC_COLLIDER_MESH) {
                icVec3 q, n;
                if (icCollider_LocalDistance(c, centre, NULL, 0, &q, &n) > radius) continue;
                if (!pushCandidate(cs, v, ci, NULL, 0)) return IC_ERR_OUT_OF_MEMORY;
                continue;
            }
            int found = icContact_QueryGrid(cs, &c->grid, icBox3_Point(centre, radius));
            if (found < 0) return IC_ERR_OUT_OF_MEMORY;
            if (found == 0) continue;
            if (!pushCandidate(cs, v, ci, cs->query, found)) return IC_ERR_OUT_OF_MEMORY;
        }
    }
    return IC_OK;
}

// Moves x by W u lambda with lambda chosen so that u . (displacement) = amount (W: the
// vertex's per-axis inverse mass; held axes stay).
static inline icVec3 moveAlong(icVec3 x, icVec3 w, icVec3 u, icReal amount) {
    icReal wu = w.x * u.x * u.x + w.y * u.y * u.y + w.z * u.z * u.z;
    if (!(wu > 0)) return x;
    icReal lambda = amount / wu;
    return icVec3_Make(x.x + w.x * u.x * lambda, x.y + w.y * u.y * lambda, x.z + w.z * u.z * lambda);
}

int icContact_ProjectColliders(const icModel *m, icContactSystem *cs, icState *s) {
    int contacts = 0;
    for (int k = 0; k < cs->colliderCandidateCount; ++k) {
        const icColliderCandidate *cc = &cs->colliderCandidates[k];
        const icColliderRecord *c = &cs->colliders[cc->collider];
        int v = cc->vertex;
        icVec3 p = icVec3_Load(s->x, v);
        icVec3 ql, nl;
        // No candidate triangles (primitive colliders): no pointer arithmetic on NULL (UB).
        const int *tris = cc->triCount ? cs->candidateTris + cc->triStart : NULL;
        icReal d = icCollider_LocalDistance(c, icXform_ApplyInverse(&c->x1, p), tris,
                                            cc->triCount, &ql, &nl);
        if (!(d < c->thickness)) continue;
        ++contacts;
        icVec3 w = icVec3_Load(m->invMass, v);
        icVec3 n = icMat3_MulVec(c->x1.R, nl);
        icReal depth = c->thickness - d;
        // Normal: C = n . (x - q) - thickness, gradient n, hard (alpha = 0).
        p = moveAlong(p, w, n, depth);
        // Friction: the vertex's motion over the substep relative to the collider's surface
        // point under it; cancelled inside the static cone |dx_t| < mu_s d, else shortened
        // by mu_k d (Coulomb at the position level, d the normal correction).
        icVec3 q = icXform_Apply(&c->x1, ql);
        icVec3 surfaceMotion = icVec3_Sub(q, icXform_Apply(&c->x0, ql));
        icVec3 rel = icVec3_Sub(icVec3_Sub(p, icVec3_Load(s->xPrev, v)), surfaceMotion);
        icVec3 tangential = icVec3_MulAdd(rel, -icVec3_Dot(rel, n), n);
        icReal slide = icVec3_Length(tangential);
        if (slide > 0) {
            icReal cut = slide <= c->staticFriction * depth ? slide : c->friction * depth;
            if (cut > slide) cut = slide;
            p = moveAlong(p, w, icVec3_Scale(1.0 / slide, tangential), -cut);
        }
        icVec3_Store(s->x, v, p);
    }
    return contacts;
}
