// SPDX-License-Identifier: MIT
// Triangles of a world's colliders at a time, for drawing them: boxes, inscribed spheres and
// capsules (surfaces of revolution), meshes as given, each moved by its track. Uses only the
// public collision API (icCollider_GetDef, icCollider_GetTransform).
#include "render/render_internal.h"

#include <math.h>

static bool reserve(icColliderSurface *s, int vertices, int triangles) {
    return icGrowArray((void **)&s->positions, &s->vertexCapacity, 3 * (s->vertexCount + vertices),
                       sizeof(icReal)) &&
           icGrowArray((void **)&s->triangles, &s->triangleCapacity,
                       3 * (s->triangleCount + triangles), sizeof(int));
}

// Appends a rest-frame point moved by x = R x0 + T; returns its index.
static int addVertex(icColliderSurface *s, icMat3 R, icVec3 T, icVec3 rest) {
    icVec3 p = icVec3_Add(icMat3_MulVec(R, rest), T);
    icReal *q = s->positions + 3 * (size_t)s->vertexCount;
    q[0] = p.x, q[1] = p.y, q[2] = p.z;
    return s->vertexCount++;
}

static void addTriangle(icColliderSurface *s, int a, int b, int c) {
    int *t = s->triangles + 3 * (size_t)s->triangleCount++;
    t[0] = a, t[1] = b, t[2] = c;
}

static icResult addBox(icColliderSurface *s, const icColliderDef *d, icMat3 R, icVec3 T) {
    if (!reserve(s, 8, 12)) return IC_ERR_OUT_OF_MEMORY;
    icMat3 orient = d->degrees != 0 ? icMat3_Rotation(d->axis, d->degrees * (IC_PI / 180.0))
                                    : icMat3_Identity();
    int base = s->vertexCount;
    // Corner c has bit 0 for +x, bit 1 for +y, bit 2 for +z (box axes).
    for (int c = 0; c < 8; ++c) {
        icVec3 local = icVec3_Make(c & 1 ? d->halfExtents.x : -d->halfExtents.x,
                                   c & 2 ? d->halfExtents.y : -d->halfExtents.y,
                                   c & 4 ? d->halfExtents.z : -d->halfExtents.z);
        addVertex(s, R, T, icVec3_Add(d->centre, icMat3_MulVec(orient, local)));
    }
    // Each face as a quad counter-clockwise seen from outside.
    static const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                    {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int f = 0; f < 6; ++f) {
        const int *q = faces[f];
        addTriangle(s, base + q[0], base + q[1], base + q[2]);
        addTriangle(s, base + q[0], base + q[2], base + q[3]);
    }
    return IC_OK;
}

// A closed surface of revolution about the unit axis u through origin: profile point k is
// height[k] along u and radius[k] from it, from a pole (k = 0, on +u) to a pole
// (k = count - 1); `segments` vertices around each ring in between.
static icResult addLathe(icColliderSurface *s, icVec3 origin, icVec3 u, const icReal *height,
                         const icReal *radius, int count, int segments, icMat3 R, icVec3 T) {
    int rings = count - 2;
    if (!reserve(s, 2 + rings * segments, 2 * segments * rings)) return IC_ERR_OUT_OF_MEMORY;
    // v, w complete u to a right-handed basis (v x w = u), which makes the winding outward.
    icVec3 helper = fabs(u.x) < 0.6 ? icVec3_Make(1, 0, 0) : icVec3_Make(0, 0, 1);
    icVec3 v = icVec3_Normalize(icVec3_Cross(helper, u));
    icVec3 w = icVec3_Cross(u, v);
    int top = addVertex(s, R, T, icVec3_MulAdd(origin, height[0], u));
    int first = s->vertexCount;
    for (int k = 1; k <= rings; ++k)
        for (int j = 0; j < segments; ++j) {
            icReal phi = 2 * IC_PI * j / segments;
            icVec3 around = icVec3_Add(icVec3_Scale(cos(phi), v), icVec3_Scale(sin(phi), w));
            icVec3 p = icVec3_MulAdd(icVec3_MulAdd(origin, height[k], u), radius[k], around);
            addVertex(s, R, T, p);
        }
    int bottom = addVertex(s, R, T, icVec3_MulAdd(origin, height[count - 1], u));
    for (int j = 0; j < segments; ++j) {
        int jn = (j + 1) % segments;
        addTriangle(s, top, first + j, first + jn);
        for (int k = 0; k + 1 < rings; ++k) {
            int a = first + k * segments, b = a + segments;
            addTriangle(s, a + j, b + j, b + jn);
            addTriangle(s, a + j, b + jn, a + jn);
        }
        int last = first + (rings - 1) * segments;
        addTriangle(s, last + j, bottom, last + jn);
    }
    return IC_OK;
}

// Sphere (length 0) or capsule: two hemispheres of `bands / 2` bands each around the ends of
// a segment of that length along u from origin, joined by a cylinder.
static icResult addRound(icColliderSurface *s, icVec3 origin, icVec3 u, icReal length,
                         icReal radius, int segments, int bands, icMat3 R, icVec3 T) {
    int count = bands + 1 + (length > 0 ? 1 : 0);
    icReal *height = IC_ALLOC(icReal, 2 * (size_t)count);
    if (!height) return IC_ERR_OUT_OF_MEMORY;
    icReal *ring = height + count;
    int n = 0;
    for (int k = 0; k <= bands; ++k) {
        icReal theta = IC_PI * k / bands; // from +u
        bool upper = 2 * k <= bands;
        height[n] = radius * cos(theta) + (upper ? length : 0);
        ring[n++] = k == 0 || k == bands ? 0 : radius * sin(theta);
        // The equator once more at the lower end: the cylinder.
        if (length > 0 && 2 * k == bands) {
            height[n] = 0;
            ring[n++] = radius;
        }
    }
    icResult r = addLathe(s, origin, u, height, ring, n, segments, R, T);
    icFree(height);
    return r;
}

icResult icCollider_Tessellate(const icWorld *world, icColliderId id, icReal t, int segments,
                               icColliderSurface *surface) {
    if (!surface || !icCollider_IsValid(world, id) || segments < 3) return IC_ERR_INVALID_ARGUMENT;
    icColliderDef d = icCollider_GetDef(world, id);
    icMat3 R;
    icVec3 T;
    icCollider_GetTransform(world, id, t, &R, &T);
    int bands = segments / 2 < 2 ? 2 : segments / 2;
    switch (d.shape) {
        case IC_COLLIDER_BOX:
            return addBox(surface, &d, R, T);
        case IC_COLLIDER_SPHERE:
            return addRound(surface, d.centre, icVec3_Make(0, 1, 0), 0, d.radius, segments, bands,
                            R, T);
        case IC_COLLIDER_CAPSULE: {
            icReal length = icVec3_Distance(d.a, d.b);
            icVec3 u = length > 0 ? icVec3_Scale(1.0 / length, icVec3_Sub(d.b, d.a))
                                  : icVec3_Make(0, 1, 0);
            return addRound(surface, d.a, u, length, d.radius, segments, bands + (bands & 1), R, T);
        }
        case IC_COLLIDER_MESH: {
            if (!reserve(surface, d.vertexCount, d.triangleCount)) return IC_ERR_OUT_OF_MEMORY;
            int base = surface->vertexCount;
            for (int v = 0; v < d.vertexCount; ++v)
                addVertex(surface, R, T, icVec3_Load(d.positions, v));
            for (int i = 0; i < d.triangleCount; ++i) {
                const int *tri = d.triangles + 3 * (size_t)i;
                addTriangle(surface, base + tri[0], base + tri[1], base + tri[2]);
            }
            return IC_OK;
        }
    }
    return IC_ERR_INVALID_ARGUMENT;
}

icResult icWorld_TessellateColliders(const icWorld *world, icReal t, int segments,
                                     icColliderSurface *surface) {
    if (!world || !surface || segments < 3) return IC_ERR_INVALID_ARGUMENT;
    int count = icWorld_GetColliderCount(world);
    for (int i = 0; i < count; ++i) {
        icResult r =
            icCollider_Tessellate(world, icWorld_GetCollider(world, i), t, segments, surface);
        if (r != IC_OK) return r;
    }
    return IC_OK;
}

void icColliderSurface_Destroy(icColliderSurface *surface) {
    if (!surface) return;
    icFree(surface->positions);
    icFree(surface->triangles);
    memset(surface, 0, sizeof *surface);
}

icRenderMesh icColliderSurface_AsRenderMesh(const icColliderSurface *surface) {
    icRenderMesh mesh = {surface->vertexCount,
                         surface->positions,
                         surface->triangleCount,
                         surface->triangles,
                         NULL,
                         NULL};
    return mesh;
}
