// SPDX-License-Identifier: MIT
// Kinematic colliders: creation, and the signed distance, closest point and outward normal of
// each shape in its rest frame (meshes signed by angle-weighted pseudo-normals, Baerentzen &
// Aanaes 2005, so a closed mesh's inside is exact).
#include "collision/collision_internal.h"

#include <stdlib.h>

icColliderDef icDefaultColliderDef(void) {
    icColliderDef d;
    memset(&d, 0, sizeof d);
    d.shape = IC_COLLIDER_SPHERE;
    d.centre = icVec3_Make(0, 0, 0);
    d.radius = 0.5;
    d.halfExtents = icVec3_Make(0.5, 0.5, 0.5);
    d.axis = icVec3_Make(0, 1, 0);
    d.degrees = 0;
    d.a = icVec3_Make(0, -0.5, 0);
    d.b = icVec3_Make(0, 0.5, 0);
    d.friction = 0.5;
    d.staticFriction = 0.5;
    d.thickness = 0.001;
    d.track = icDefaultRigidTrack();
    return d;
}

static void destroyCollider(icColliderRecord *c) {
    icTrack_Destroy(&c->track);
    icFree(c->positions);
    icFree(c->triangles);
    icFree(c->faceNormal);
    icFree(c->vertexNormal);
    icFree(c->edgeNormal);
    icHashGrid_Destroy(&c->grid);
}

// ---------------------------------------------------------------------------------------
// Mesh preparation

typedef struct icEdgeSlot {
    int lo, hi, slot; ///< sorted vertex pair; slot = 3 * triangle + corner
} icEdgeSlot;

static int compareEdgeSlot(const void *a, const void *b) {
    const icEdgeSlot *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    return (x->slot > y->slot) - (x->slot < y->slot);
}

static icReal cornerAngle(icVec3 p, icVec3 q, icVec3 r) {
    icVec3 u = icVec3_Normalize(icVec3_Sub(q, p)), v = icVec3_Normalize(icVec3_Sub(r, p));
    icReal c = icVec3_Dot(u, v);
    return acos(c < -1 ? -1 : (c > 1 ? 1 : c));
}

// Face, angle-weighted vertex and edge pseudo-normals, bounding sphere and triangle grid.
static icResult prepareMesh(icColliderRecord *c) {
    int nt = c->triangleCount, nv = c->vertexCount;
    c->faceNormal = IC_ALLOC(icVec3, nt);
    c->vertexNormal = IC_ALLOC_ZERO(icVec3, nv);
    c->edgeNormal = IC_ALLOC(icVec3, 3 * (size_t)nt);
    icEdgeSlot *edges = IC_ALLOC(icEdgeSlot, 3 * (size_t)nt);
    icBox3 *boxes = IC_ALLOC(icBox3, nt);
    if (!c->faceNormal || !c->vertexNormal || !c->edgeNormal || !edges || !boxes) {
        icFree(edges);
        icFree(boxes);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int t = 0; t < nt; ++t) {
        const int *tri = c->triangles + 3 * t;
        icVec3 p[3];
        for (int k = 0; k < 3; ++k) p[k] = icVec3_Load(c->positions, tri[k]);
        icVec3 n = icVec3_Normalize(icVec3_Cross(icVec3_Sub(p[1], p[0]), icVec3_Sub(p[2], p[0])));
        c->faceNormal[t] = n;
        for (int k = 0; k < 3; ++k) {
            icReal angle = cornerAngle(p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
            c->vertexNormal[tri[k]] = icVec3_MulAdd(c->vertexNormal[tri[k]], angle, n);
            int u = tri[k], v = tri[(k + 1) % 3];
            edges[3 * t + k] = (icEdgeSlot){u < v ? u : v, u < v ? v : u, 3 * t + k};
        }
        boxes[t].lo = icVec3_Min(p[0], icVec3_Min(p[1], p[2]));
        boxes[t].hi = icVec3_Max(p[0], icVec3_Max(p[1], p[2]));
    }
    for (int v = 0; v < nv; ++v) c->vertexNormal[v] = icVec3_Normalize(c->vertexNormal[v]);
    // Edge pseudo-normal: the sum of the faces sharing the edge (its own face on an open border).
    qsort(edges, 3 * (size_t)nt, sizeof *edges, compareEdgeSlot);
    for (int i = 0; i < 3 * nt;) {
        int j = i;
        icVec3 sum = icVec3_Make(0, 0, 0);
        while (j < 3 * nt && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) {
            sum = icVec3_Add(sum, c->faceNormal[edges[j].slot / 3]);
            ++j;
        }
        sum = icVec3_Normalize(sum);
        for (int k = i; k < j; ++k) c->edgeNormal[edges[k].slot] = sum;
        i = j;
    }
    icFree(edges);
    icVec3 lo = icVec3_Load(c->positions, 0), hi = lo;
    for (int v = 1; v < nv; ++v) {
        lo = icVec3_Min(lo, icVec3_Load(c->positions, v));
        hi = icVec3_Max(hi, icVec3_Load(c->positions, v));
    }
    c->boundCentre = icVec3_Scale(0.5, icVec3_Add(lo, hi));
    c->boundRadius = 0;
    for (int v = 0; v < nv; ++v) {
        icReal d = icVec3_Distance(c->boundCentre, icVec3_Load(c->positions, v));
        if (d > c->boundRadius) c->boundRadius = d;
    }
    icResult r = icHashGrid_Build(&c->grid, boxes, nt, icHashGrid_MeanExtent(boxes, nt));
    icFree(boxes);
    return r;
}

static icResult checkDef(const icColliderDef *d, icDiagnostic *diag) {
    if (!icVec3_IsFinite(d->centre) || !isfinite(d->radius) || !icVec3_IsFinite(d->halfExtents) ||
        !icVec3_IsFinite(d->axis) || !isfinite(d->degrees) || !icVec3_IsFinite(d->a) ||
        !icVec3_IsFinite(d->b) || !isfinite(d->friction) || !isfinite(d->staticFriction) ||
        !isfinite(d->thickness))
        return icDiag_Set(diag, IC_ERR_NOT_FINITE, "", 0, "a collider value is not finite");
    if (!(d->friction >= 0) || !(d->staticFriction >= 0))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "friction must be >= 0");
    if (!(d->thickness >= 0))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "thickness %g must be >= 0", d->thickness);
    switch (d->shape) {
    case IC_COLLIDER_SPHERE:
    case IC_COLLIDER_CAPSULE:
        if (!(d->radius > 0))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "radius %g must be > 0", d->radius);
        return IC_OK;
    case IC_COLLIDER_BOX:
        if (!(d->halfExtents.x > 0 && d->halfExtents.y > 0 && d->halfExtents.z > 0))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "box half extents must be > 0");
        if (d->degrees != 0 && !(icVec3_Length(d->axis) > 0))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "box rotation axis is zero");
        return IC_OK;
    case IC_COLLIDER_MESH:
        if (d->triangleCount <= 0 || d->vertexCount <= 0 || !d->positions || !d->triangles)
            return icDiag_Set(diag, IC_ERR_EMPTY, "", 0, "mesh collider without triangles");
        for (int i = 0; i < 3 * d->vertexCount; ++i)
            if (!isfinite(d->positions[i]))
                return icDiag_Set(diag, IC_ERR_NOT_FINITE, "", 0, "mesh vertex %d is not finite",
                                  i / 3);
        for (int i = 0; i < 3 * d->triangleCount; ++i)
            if (d->triangles[i] < 0 || d->triangles[i] >= d->vertexCount)
                return icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, "", 0,
                                  "mesh triangle %d names vertex %d of %d", i / 3,
                                  d->triangles[i], d->vertexCount);
        return IC_OK;
    }
    return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "unknown collider shape %d", (int)d->shape);
}

icResult icWorld_AddCollider(icWorld *world, const icColliderDef *def, icColliderId *id,
                             icDiagnostic *diag) {
    if (id) *id = (icColliderId){0};
    if (!world || !def) return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no world or def");
    icResult r = checkDef(def, diag);
    if (r != IC_OK) return r;
    icContactSystem *cs = icContact_Get(world);
    if (!cs || !icGrowArray((void **)&cs->colliders, &cs->colliderCapacity, cs->colliderCount + 1,
                            sizeof(icColliderRecord)))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "", 0, "out of memory adding a collider");
    icColliderRecord c;
    memset(&c, 0, sizeof c);
    c.shape = def->shape;
    c.centre = def->centre;
    c.radius = def->radius;
    c.half = def->halfExtents;
    c.orient = def->degrees != 0 ? icMat3_Rotation(def->axis, def->degrees * (IC_PI / 180.0))
                                 : icMat3_Identity();
    c.axis = def->axis;
    c.degrees = def->degrees;
    c.a = def->a;
    c.b = def->b;
    c.friction = def->friction;
    c.staticFriction = def->staticFriction;
    c.thickness = def->thickness;
    c.generation = 1;
    c.x0 = c.x1 = icXform_Identity();
    r = icTrack_Copy(&c.track, &def->track);
    if (r != IC_OK) {
        destroyCollider(&c);
        return icDiag_Set(diag, r, "", 0, "bad collider track (keys must be finite, in ascending "
                                          "time, turn about a non-zero axis, and a loop needs "
                                          "two key times)");
    }
    switch (c.shape) {
    case IC_COLLIDER_SPHERE:
        c.boundCentre = c.centre;
        c.boundRadius = c.radius;
        break;
    case IC_COLLIDER_BOX:
        c.boundCentre = c.centre;
        c.boundRadius = icVec3_Length(c.half);
        break;
    case IC_COLLIDER_CAPSULE:
        c.boundCentre = icVec3_Scale(0.5, icVec3_Add(c.a, c.b));
        c.boundRadius = 0.5 * icVec3_Distance(c.a, c.b) + c.radius;
        break;
    case IC_COLLIDER_MESH:
        c.vertexCount = def->vertexCount;
        c.triangleCount = def->triangleCount;
        c.positions = icMemDup(def->positions, sizeof(icReal) * 3 * (size_t)def->vertexCount);
        c.triangles = icMemDup(def->triangles, sizeof(int) * 3 * (size_t)def->triangleCount);
        r = (c.positions && c.triangles) ? prepareMesh(&c) : IC_ERR_OUT_OF_MEMORY;
        if (r != IC_OK) {
            destroyCollider(&c);
            return icDiag_Set(diag, r, "", 0, "out of memory preparing the collider mesh");
        }
        break;
    }
    cs->colliders[cs->colliderCount++] = c;
    if (id) {
        id->index1 = cs->colliderCount;
        id->world0 = world->worldIndex;
        id->generation = c.generation;
    }
    return IC_OK;
}

void icContact_DestroyColliders(icContactSystem *cs) {
    for (int i = 0; i < cs->colliderCount; ++i) destroyCollider(&cs->colliders[i]);
    icFree(cs->colliders);
}

bool icCollider_IsValid(const icWorld *world, icColliderId id) {
    if (!world || !world->contact || id.index1 < 1 || id.index1 > world->contact->colliderCount)
        return false;
    return id.world0 == world->worldIndex &&
           world->contact->colliders[id.index1 - 1].generation == id.generation;
}

int icWorld_GetColliderCount(const icWorld *world) {
    return world->contact ? world->contact->colliderCount : 0;
}

// ---------------------------------------------------------------------------------------
// Distances in the rest frame

static icReal boxDistance(const icColliderRecord *c, icVec3 p, icVec3 *q, icVec3 *n) {
    icVec3 l = icMat3_MulTransVec(c->orient, icVec3_Sub(p, c->centre));
    icReal h[3] = {c->half.x, c->half.y, c->half.z}, v[3] = {l.x, l.y, l.z}, cl[3];
    bool outside = false;
    for (int k = 0; k < 3; ++k) {
        cl[k] = v[k] < -h[k] ? -h[k] : (v[k] > h[k] ? h[k] : v[k]);
        if (cl[k] != v[k]) outside = true;
    }
    icVec3 ql, nl;
    icReal d;
    if (outside) {
        ql = icVec3_Make(cl[0], cl[1], cl[2]);
        icVec3 diff = icVec3_Sub(l, ql);
        d = icVec3_Length(diff);
        nl = icVec3_Scale(1.0 / d, diff);
    } else {
        // Inside: the nearest face (the lowest axis on ties).
        int best = 0;
        icReal bestGap = h[0] - fabs(v[0]);
        for (int k = 1; k < 3; ++k)
            if (h[k] - fabs(v[k]) < bestGap) {
                bestGap = h[k] - fabs(v[k]);
                best = k;
            }
        icReal sign = v[best] >= 0 ? 1 : -1;
        cl[best] = sign * h[best];
        ql = icVec3_Make(cl[0], cl[1], cl[2]);
        icReal e[3] = {0, 0, 0};
        e[best] = sign;
        nl = icVec3_Make(e[0], e[1], e[2]);
        d = -bestGap;
    }
    *q = icVec3_Add(c->centre, icMat3_MulVec(c->orient, ql));
    *n = icMat3_MulVec(c->orient, nl);
    return d;
}

static icReal roundDistance(icVec3 p, icVec3 centre, icReal radius, icVec3 *q, icVec3 *n) {
    icVec3 d = icVec3_Sub(p, centre);
    icReal l = icVec3_Length(d);
    *n = l > 0 ? icVec3_Scale(1.0 / l, d) : icVec3_Make(0, 1, 0);
    *q = icVec3_MulAdd(centre, radius, *n);
    return l - radius;
}

static icVec3 featureNormal(const icColliderRecord *c, int t, icTriFeature f) {
    switch (f) {
    case IC_FEATURE_FACE: return c->faceNormal[t];
    case IC_FEATURE_EDGE01: return c->edgeNormal[3 * t + 0];
    case IC_FEATURE_EDGE12: return c->edgeNormal[3 * t + 1];
    case IC_FEATURE_EDGE20: return c->edgeNormal[3 * t + 2];
    case IC_FEATURE_VERTEX0: return c->vertexNormal[c->triangles[3 * t + 0]];
    case IC_FEATURE_VERTEX1: return c->vertexNormal[c->triangles[3 * t + 1]];
    case IC_FEATURE_VERTEX2: return c->vertexNormal[c->triangles[3 * t + 2]];
    }
    return c->faceNormal[t];
}

static icReal meshDistance(const icColliderRecord *c, icVec3 p, const int *tris, int triCount,
                           icVec3 *q, icVec3 *n) {
    int count = tris ? triCount : c->triangleCount;
    icReal best = INFINITY;
    int bestTri = -1;
    icTriFeature bestFeature = IC_FEATURE_FACE;
    icVec3 bestPoint = p;
    for (int i = 0; i < count; ++i) {
        int t = tris ? tris[i] : i;
        const int *tri = c->triangles + 3 * t;
        icReal bary[3];
        icTriFeature f;
        icVec3 cp = icClosestOnTriangle(p, icVec3_Load(c->positions, tri[0]),
                                        icVec3_Load(c->positions, tri[1]),
                                        icVec3_Load(c->positions, tri[2]), bary, &f);
        icReal d2 = icVec3_LengthSquared(icVec3_Sub(p, cp));
        if (d2 < best) {
            best = d2;
            bestTri = t;
            bestFeature = f;
            bestPoint = cp;
        }
    }
    if (bestTri < 0) {
        *q = p;
        *n = icVec3_Make(0, 1, 0);
        return INFINITY;
    }
    icVec3 pseudo = featureNormal(c, bestTri, bestFeature);
    icVec3 diff = icVec3_Sub(p, bestPoint);
    icReal dist = sqrt(best);
    icReal sign = icVec3_Dot(diff, pseudo) >= 0 ? 1 : -1;
    *q = bestPoint;
    *n = dist > 1e-12 ? icVec3_Scale(sign / dist, diff) : pseudo;
    return sign * dist;
}

icReal icCollider_LocalDistance(const icColliderRecord *c, icVec3 p, const int *tris,
                                int triCount, icVec3 *q, icVec3 *n) {
    switch (c->shape) {
    case IC_COLLIDER_SPHERE: return roundDistance(p, c->centre, c->radius, q, n);
    case IC_COLLIDER_CAPSULE:
        return roundDistance(p, icClosestOnSegment(p, c->a, c->b, NULL), c->radius, q, n);
    case IC_COLLIDER_BOX: return boxDistance(c, p, q, n);
    case IC_COLLIDER_MESH: return meshDistance(c, p, tris, triCount, q, n);
    }
    *q = p;
    *n = icVec3_Make(0, 1, 0);
    return INFINITY;
}

void icCollider_GetTransform(const icWorld *world, icColliderId id, icReal t, icMat3 *R,
                             icVec3 *T) {
    IC_ASSERT(icCollider_IsValid(world, id));
    icXform x = icTrack_Evaluate(&world->contact->colliders[id.index1 - 1].track, t);
    if (R) *R = x.R;
    if (T) *T = x.T;
}

icReal icCollider_Distance(const icWorld *world, icColliderId id, icVec3 p, icReal t,
                           icVec3 *closest, icVec3 *normal) {
    IC_ASSERT(icCollider_IsValid(world, id));
    const icColliderRecord *c = &world->contact->colliders[id.index1 - 1];
    icXform x = icTrack_Evaluate(&c->track, t);
    icVec3 ql, nl;
    icReal d = icCollider_LocalDistance(c, icXform_ApplyInverse(&x, p), NULL, 0, &ql, &nl);
    if (closest) *closest = icXform_Apply(&x, ql);
    if (normal) *normal = icMat3_MulVec(x.R, nl);
    return d;
}
