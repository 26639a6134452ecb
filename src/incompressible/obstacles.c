// SPDX-License-Identifier: MIT
// Point queries against the kinematic obstacles of the incompressible solver (Irving et al.
// 2007, sec. 2, step 5: nodes inside obstacles are moved to the surface and their normal
// velocity made non-approaching; the normal then constrains the pressure solves).
#include "incompressible/obstacles.h"

#include "collision/collision_internal.h"

#include <math.h>

static void consider(icObstacleHit *best, bool *found, icReal d, icVec3 n, icVec3 velocity,
                     icReal friction, bool plane) {
    if (d >= best->distance) return;
    best->distance = d;
    best->normal = n;
    best->velocity = velocity;
    best->friction = friction;
    best->plane = plane;
    *found = true;
}

bool icObstacles_Any(const icObstacleSet *set) {
    const icWorld *w = set->world;
    return w->model.planeCount > 0 || set->movingPlaneCount > 0 ||
           (w->contact && w->contact->colliderCount > 0);
}

bool icObstacles_Query(const icObstacleSet *set, icVec3 p, icReal t, icReal dt, icReal margin,
                       icObstacleHit *hit) {
    const icModel *m = &set->world->model;
    bool found = false;
    hit->distance = margin;
    hit->normal = icVec3_Make(0, 1, 0);
    hit->velocity = icVec3_Make(0, 0, 0);
    hit->friction = 0;
    hit->plane = false;
    icVec3 still = icVec3_Make(0, 0, 0);
    for (int i = 0; i < m->planeCount; ++i) {
        const icPlane *pl = &m->planes[i];
        consider(hit, &found, icVec3_Dot(pl->normal, p) - pl->offset, pl->normal, still,
                 pl->friction, true);
    }
    for (int i = 0; i < set->movingPlaneCount; ++i) {
        const icMovingPlaneDef *d = &set->movingPlanes[i];
        icReal tc = t < d->start ? d->start : (t > d->end ? d->end : t);
        icReal offset = d->offset + d->speed * (tc - d->start);
        icReal speed = (t > d->start && t <= d->end) ? d->speed : 0.0;
        consider(hit, &found, icVec3_Dot(d->normal, p) - offset, d->normal,
                 icVec3_Scale(speed, d->normal), d->friction, true);
    }
    const icContactSystem *cs = set->world->contact;
    for (int i = 0; cs && i < cs->colliderCount; ++i) {
        const icColliderRecord *c = &cs->colliders[i];
        if (c->generation == 0) continue;
        icXform x1 = icTrack_Evaluate(&c->track, t);
        icVec3 local = icXform_ApplyInverse(&x1, p), q, nl;
        // Cheap reject before the exact distance (meshes search every triangle).
        if (c->shape == IC_COLLIDER_MESH && icVec3_Length(icVec3_Sub(local, c->boundCentre)) >
                                                c->boundRadius + margin + c->thickness)
            continue;
        icReal d = icCollider_LocalDistance(c, local, NULL, 0, &q, &nl) - c->thickness;
        if (d >= hit->distance) continue;
        icVec3 n = icMat3_MulVec(x1.R, nl);
        // Velocity of the closest surface point over the step.
        icXform x0 = icTrack_Evaluate(&c->track, t - dt);
        icVec3 moved = icVec3_Sub(icXform_Apply(&x1, q), icXform_Apply(&x0, q));
        consider(hit, &found, d, n, icVec3_Scale(1.0 / dt, moved), c->friction, false);
    }
    return found;
}

static bool isFree(const unsigned char *mask, int v) {
    return mask[3 * v] || mask[3 * v + 1] || mask[3 * v + 2];
}

int icObstacles_PredictContacts(const icObstacleSet *set, int n, const unsigned char *mask,
                                const icReal *x, icReal *v, icReal t1, icReal dt,
                                const icVec3 *prevNormal, icVec3 *normal) {
    int count = 0;
    bool any = icObstacles_Any(set);
    for (int i = 0; i < n; ++i) {
        normal[i] = icVec3_Make(0, 0, 0);
        if (!any || !isFree(mask, i)) continue;
        icVec3 vi = icVec3_Load(v, i);
        icVec3 end = icVec3_Add(icVec3_Load(x, i), icVec3_Scale(dt, vi));
        icObstacleHit hit;
        if (icObstacles_Query(set, end, t1, dt, 0, &hit)) {
            // Land exactly on the surface: the correction then keeps the volume with the contact
            // already in place instead of a push-out undoing it afterwards.
            icVec3_Store(v, i, icVec3_Add(vi, icVec3_Scale(-hit.distance / dt, hit.normal)));
            normal[i] = hit.normal;
            ++count;
        } else if (icVec3_LengthSquared(prevNormal[i]) > 0) {
            icObstacleHit near;
            icObstacles_Query(set, end, t1, dt, INFINITY, &near);
            // Still resting on it (not separating faster than the surface): keep the constraint so
            // the pressure cannot push the vertex into it.
            icReal rel = icVec3_Dot(icVec3_Sub(vi, near.velocity), prevNormal[i]);
            if (rel <= 0) {
                normal[i] = prevNormal[i];
                ++count;
            }
        }
    }
    return count;
}

int icObstacles_AddPenetrations(const icObstacleSet *set, int n, const unsigned char *mask,
                                icReal *xend, icReal t1, icReal dt, icVec3 *normal) {
    int added = 0;
    if (!icObstacles_Any(set)) return 0;
    for (int i = 0; i < n; ++i) {
        if (!isFree(mask, i) || icVec3_LengthSquared(normal[i]) > 0) continue;
        icVec3 x = icVec3_Load(xend, i);
        icObstacleHit hit;
        if (!icObstacles_Query(set, x, t1, dt, 0, &hit)) continue;
        icVec3_Store(xend, i, icVec3_Add(x, icVec3_Scale(-hit.distance, hit.normal)));
        normal[i] = hit.normal;
        ++added;
    }
    return added;
}

int icObstacles_Collide(const icObstacleSet *set, int n, const unsigned char *mask,
                        const icVec3 *predicted, icReal *xnew, icReal *vn, icReal t1, icReal dt,
                        icVec3 *normal, icObstacleHit *hits, icReal *impulse) {
    int count = 0;
    bool any = icObstacles_Any(set);
    for (int i = 0; i < n; ++i) {
        normal[i] = icVec3_Make(0, 0, 0);
        impulse[i] = 0;
        if (!any || !isFree(mask, i)) continue;
        icVec3 x = icVec3_Load(xnew, i);
        bool wasPredicted = icVec3_LengthSquared(predicted[i]) > 0;
        icObstacleHit hit;
        if (!icObstacles_Query(set, x, t1, dt, wasPredicted ? INFINITY : 0, &hit)) continue;
        if (hit.distance < 0)
            icVec3_Store(xnew, i, icVec3_Add(x, icVec3_Scale(-hit.distance, hit.normal)));
        // Inelastic: the normal velocity relative to the surface becomes zero if approaching.
        icVec3 rel = icVec3_Sub(icVec3_Load(vn, i), hit.velocity);
        icReal vnrm = icVec3_Dot(rel, hit.normal);
        if (vnrm < 0) {
            icVec3_Store(vn, i, icVec3_Add(icVec3_Load(vn, i), icVec3_Scale(-vnrm, hit.normal)));
            impulse[i] = -vnrm;
        }
        normal[i] = hit.normal;
        hits[i] = hit;
        ++count;
    }
    return count;
}

void icObstacles_ApplyFriction(int n, const icVec3 *normal, const icObstacleHit *hits,
                               const icReal *impulse, icReal *v) {
    for (int i = 0; i < n; ++i) {
        if (icVec3_LengthSquared(normal[i]) == 0 || !(hits[i].friction > 0)) continue;
        icVec3 rel = icVec3_Sub(icVec3_Load(v, i), hits[i].velocity);
        icVec3 tangent = icVec3_Sub(rel, icVec3_Scale(icVec3_Dot(rel, normal[i]), normal[i]));
        icReal vt = icVec3_Length(tangent), limit = hits[i].friction * impulse[i];
        icReal cut = vt > limit ? limit / vt : 1.0; // static friction: all of it
        icVec3_Store(v, i, icVec3_Sub(icVec3_Load(v, i), icVec3_Scale(cut, tangent)));
    }
}
