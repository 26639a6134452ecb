// SPDX-License-Identifier: MIT
// Collider tessellation for pictures: closed, outward-wound surfaces (every directed edge
// once with its reverse, the divergence theorem gives the enclosed volume), vertices on the
// collider's surface, inscribed spheres and capsules converging to the closed-form volume,
// and moving colliders where their track puts them.
#include "test.h"

#include "isochor/render.h"

#include <stdlib.h>
#include <string.h>

// Volume by the divergence theorem: the sum of the signed tets (origin, triangle).
static double enclosedVolume(const icColliderSurface *s, int firstTriangle, int triangleCount) {
    double volume = 0;
    for (int t = firstTriangle; t < firstTriangle + triangleCount; ++t) {
        const int *tri = s->triangles + 3 * t;
        icVec3 a = icVec3_Load(s->positions, tri[0]), b = icVec3_Load(s->positions, tri[1]),
               c = icVec3_Load(s->positions, tri[2]);
        volume += icVec3_Dot(a, icVec3_Cross(b, c)) / 6.0;
    }
    return volume;
}

static int compareEdge(const void *a, const void *b) {
    const long long *x = a, *y = b;
    return (*x > *y) - (*x < *y);
}

// Closed and consistently wound: each directed edge appears exactly once and so does its
// reverse (a flipped triangle repeats a directed edge, a hole leaves one unpaired).
static bool closedAndConsistent(const icColliderSurface *s) {
    int n = 3 * s->triangleCount;
    long long *edges = malloc(sizeof(long long) * (size_t)n);
    for (int t = 0; t < s->triangleCount; ++t)
        for (int k = 0; k < 3; ++k) {
            long long u = s->triangles[3 * t + k], v = s->triangles[3 * t + (k + 1) % 3];
            edges[3 * t + k] = u * 1000000 + v;
        }
    qsort(edges, (size_t)n, sizeof *edges, compareEdge);
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) {
        if (i > 0 && edges[i] == edges[i - 1]) ok = false;
        long long reverse = (edges[i] % 1000000) * 1000000 + edges[i] / 1000000;
        ok = ok && bsearch(&reverse, edges, (size_t)n, sizeof *edges, compareEdge) != NULL;
    }
    free(edges);
    return ok;
}

// Largest |signed distance| of the surface's vertices from the collider at time t.
static double worstDistance(const icWorld *world, icColliderId id, const icColliderSurface *s,
                            double t) {
    double worst = 0;
    for (int v = 0; v < s->vertexCount; ++v)
        worst =
            fmax(worst,
                 fabs(icCollider_Distance(world, id, icVec3_Load(s->positions, v), t, NULL, NULL)));
    return worst;
}

static icWorld *colliderWorld(void) {
    icWorldDef wdef = icDefaultWorldDef();
    return icCreateWorld(&wdef);
}

IC_TEST(render, collider_box_is_closed_outward_with_its_volume) {
    int64_t bytes = icGetByteCount();
    icWorld *world = colliderWorld();
    icColliderDef def = icDefaultColliderDef();
    def.shape = IC_COLLIDER_BOX;
    def.centre = icVec3_Make(0.3, -0.2, 0.5);
    def.halfExtents = icVec3_Make(0.4, 0.25, 0.6);
    def.axis = icVec3_Make(1, 2, 3);
    def.degrees = 37;
    icColliderId id;
    IC_REQUIRE(icWorld_AddCollider(world, &def, &id, NULL) == IC_OK);
    icColliderSurface s;
    memset(&s, 0, sizeof s);
    IC_REQUIRE(icCollider_Tessellate(world, id, 0, IC_COLLIDER_SEGMENTS, &s) == IC_OK);
    IC_CHECK_INT(s.vertexCount, 8);
    IC_CHECK_INT(s.triangleCount, 12);
    IC_CHECK(closedAndConsistent(&s));
    // Outward: the signed volume is +8 hx hy hz (inward winding would give minus that).
    IC_CHECK_NEAR(enclosedVolume(&s, 0, s.triangleCount), 8 * 0.4 * 0.25 * 0.6, 1e-12);
    // Every face normal points away from the centre; every corner is on the surface.
    for (int t = 0; t < s.triangleCount; ++t) {
        const int *tri = s.triangles + 3 * t;
        icVec3 a = icVec3_Load(s.positions, tri[0]), b = icVec3_Load(s.positions, tri[1]),
               c = icVec3_Load(s.positions, tri[2]);
        icVec3 n = icVec3_Cross(icVec3_Sub(b, a), icVec3_Sub(c, a));
        icVec3 mid = icVec3_Scale(1.0 / 3, icVec3_Add(a, icVec3_Add(b, c)));
        IC_CHECK(icVec3_Dot(n, icVec3_Sub(mid, def.centre)) > 0);
    }
    IC_CHECK(worstDistance(world, id, &s, 0) < 1e-12);
    // Appending a second copy keeps the first intact and offsets the indices.
    IC_REQUIRE(icCollider_Tessellate(world, id, 0, IC_COLLIDER_SEGMENTS, &s) == IC_OK);
    IC_CHECK_INT(s.triangleCount, 24);
    IC_CHECK_NEAR(enclosedVolume(&s, 12, 12), 8 * 0.4 * 0.25 * 0.6, 1e-12);
    IC_CHECK(closedAndConsistent(&s));
    icColliderSurface_Destroy(&s);
    IC_CHECK(s.positions == NULL && s.triangleCount == 0);
    // Bad requests.
    IC_CHECK_RESULT(icCollider_Tessellate(world, id, 0, 2, &s), IC_ERR_INVALID_ARGUMENT);
    icColliderId stale = id;
    stale.index1 = 5;
    IC_CHECK_RESULT(icCollider_Tessellate(world, stale, 0, 8, &s), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icWorld_TessellateColliders(world, 0, 2, &s), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK(s.positions == NULL);
    icDestroyWorld(world);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Inscribed polyhedra approach the closed form from below with error O(1/segments^2): each
// doubling divides the error by about 4.
IC_TEST(render, collider_sphere_and_capsule_volumes_converge) {
    int64_t bytes = icGetByteCount();
    icWorld *world = colliderWorld();
    const double r = 0.35;
    icColliderDef sphere = icDefaultColliderDef();
    sphere.shape = IC_COLLIDER_SPHERE;
    sphere.centre = icVec3_Make(0.1, 0.2, -0.3);
    sphere.radius = r;
    icColliderDef capsule = icDefaultColliderDef();
    capsule.shape = IC_COLLIDER_CAPSULE;
    capsule.a = icVec3_Make(-0.2, 0.1, 0.4);
    capsule.b = icVec3_Make(0.3, 0.5, -0.1);
    capsule.radius = r;
    icColliderId ids[2];
    IC_REQUIRE(icWorld_AddCollider(world, &sphere, &ids[0], NULL) == IC_OK);
    IC_REQUIRE(icWorld_AddCollider(world, &capsule, &ids[1], NULL) == IC_OK);
    double length = icVec3_Distance(capsule.a, capsule.b);
    double exact[2] = {4.0 / 3.0 * IC_PI * r * r * r,
                       IC_PI * r * r * length + 4.0 / 3.0 * IC_PI * r * r * r};
    const char *names[2] = {"sphere", "capsule"};
    for (int c = 0; c < 2; ++c) {
        double previous = 0;
        for (int segments = 16; segments <= 128; segments *= 2) {
            icColliderSurface s;
            memset(&s, 0, sizeof s);
            IC_REQUIRE(icCollider_Tessellate(world, ids[c], 0, segments, &s) == IC_OK);
            IC_CHECK_MSG(closedAndConsistent(&s), "%s %d not closed", names[c], segments);
            double error = (exact[c] - enclosedVolume(&s, 0, s.triangleCount)) / exact[c];
            // Inscribed: the volume is below the closed form, never above (nor inverted).
            IC_CHECK_MSG(error > 0, "%s %d: relative error %g", names[c], segments, error);
            // Measured 16.0 / segments^2 for the sphere (6.3e-2 at 16 ... 1.0e-3 at 128) and
            // 10.0 / segments^2 for this capsule (3.9e-2 ... 6.2e-4).
            IC_CHECK_MSG(error < 17.0 / (segments * segments), "%s %d: relative error %g", names[c],
                         segments, error);
            if (previous > 0)
                IC_CHECK_MSG(error < 0.3 * previous && error > 0.2 * previous,
                             "%s %d: error %g after %g", names[c], segments, error, previous);
            previous = error;
            IC_CHECK_MSG(worstDistance(world, ids[c], &s, 0) < 1e-12, "%s off its surface",
                         names[c]);
            icColliderSurface_Destroy(&s);
        }
    }
    // The default resolution (32) is within 1.7 % for both together.
    icColliderSurface all;
    memset(&all, 0, sizeof all);
    IC_REQUIRE(icWorld_TessellateColliders(world, 0, IC_COLLIDER_SEGMENTS, &all) == IC_OK);
    IC_CHECK_NEAR(enclosedVolume(&all, 0, all.triangleCount), exact[0] + exact[1],
                  0.017 * (exact[0] + exact[1]));
    icColliderSurface_Destroy(&all);
    icDestroyWorld(world);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A box, a capsule and a mesh (an octahedron) on one track: at time t every tessellated
// vertex is R x0 + T of its rest position with (R, T) from icCollider_GetTransform.
IC_TEST(render, collider_keyframed_tessellation_follows_its_track) {
    int64_t bytes = icGetByteCount();
    static const double octahedron[] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
    static const int faces[] = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4,
                                2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};
    icRigidKey keys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
    keys[1].time = 2;
    keys[1].translation = icVec3_Make(1, 0.5, -0.25);
    keys[1].axis = icVec3_Make(0, 0, 1);
    keys[1].degrees = 90;
    icColliderDef defs[3] = {icDefaultColliderDef(), icDefaultColliderDef(),
                             icDefaultColliderDef()};
    defs[0].shape = IC_COLLIDER_BOX;
    defs[0].centre = icVec3_Make(0.2, 0.1, 0);
    defs[0].halfExtents = icVec3_Make(0.3, 0.2, 0.1);
    defs[1].shape = IC_COLLIDER_CAPSULE;
    defs[1].radius = 0.2;
    defs[2].shape = IC_COLLIDER_MESH;
    defs[2].vertexCount = 6;
    defs[2].positions = octahedron;
    defs[2].triangleCount = 8;
    defs[2].triangles = faces;
    icWorld *moving = colliderWorld(), *still = colliderWorld();
    icColliderId ids[3], restIds[3];
    for (int c = 0; c < 3; ++c) {
        IC_REQUIRE(icWorld_AddCollider(still, &defs[c], &restIds[c], NULL) == IC_OK);
        defs[c].track.pivot = icVec3_Make(0.1, -0.2, 0.3);
        defs[c].track.keys = keys;
        defs[c].track.keyCount = 2;
        IC_REQUIRE(icWorld_AddCollider(moving, &defs[c], &ids[c], NULL) == IC_OK);
    }
    const double t = 0.7;
    for (int c = 0; c < 3; ++c) {
        icColliderSurface s, rest;
        memset(&s, 0, sizeof s);
        memset(&rest, 0, sizeof rest);
        IC_REQUIRE(icCollider_Tessellate(moving, ids[c], t, 12, &s) == IC_OK);
        IC_REQUIRE(icCollider_Tessellate(still, restIds[c], t, 12, &rest) == IC_OK);
        IC_REQUIRE(s.vertexCount == rest.vertexCount && s.triangleCount == rest.triangleCount);
        IC_CHECK(memcmp(s.triangles, rest.triangles, sizeof(int) * 3 * s.triangleCount) == 0);
        icMat3 R;
        icVec3 T;
        icCollider_GetTransform(moving, ids[c], t, &R, &T);
        double worst = 0, moved = 0;
        for (int v = 0; v < s.vertexCount; ++v) {
            icVec3 x0 = icVec3_Load(rest.positions, v), x = icVec3_Load(s.positions, v);
            icVec3 expected = icVec3_Add(icMat3_MulVec(R, x0), T);
            worst = fmax(worst, icVec3_Distance(x, expected));
            moved = fmax(moved, icVec3_Distance(x, x0));
        }
        IC_CHECK_MSG(worst < 1e-12, "collider %d: %g from R x0 + T", c, worst);
        IC_CHECK_MSG(moved > 0.2, "collider %d moved only %g", c, moved); // the test can fail
        IC_CHECK_MSG(worstDistance(moving, ids[c], &s, t) < 1e-12, "collider %d off surface", c);
        icColliderSurface_Destroy(&s);
        icColliderSurface_Destroy(&rest);
    }
    icDestroyWorld(moving);
    icDestroyWorld(still);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
