// SPDX-License-Identifier: MIT
// Reading a world's colliders and planes back: ids by index, the defs they were added with
// (box orientation, mesh and track pointing at the world's copies), planes normalised.
#include "test.h"

#include <string.h>

IC_TEST(collision, colliders_and_planes_read_back) {
    icWorld *world = icCreateWorld(NULL);
    IC_REQUIRE(world);
    IC_CHECK_INT(icWorld_GetColliderCount(world), 0);
    IC_CHECK_INT(icWorld_GetPlaneCount(world), 0);
    IC_CHECK_INT(icWorld_GetCollider(world, 0).index1, 0);

    icColliderDef box = icDefaultColliderDef();
    box.shape = IC_COLLIDER_BOX;
    box.centre = icVec3_Make(1, 2, 3);
    box.halfExtents = icVec3_Make(0.1, 0.2, 0.3);
    box.axis = icVec3_Make(0, 0, 2);
    box.degrees = 30;
    box.friction = 0.7;
    box.staticFriction = 0.9;
    box.thickness = 0.004;
    icRigidKey keys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
    keys[1].time = 1;
    keys[1].translation = icVec3_Make(0, 1, 0);
    box.track.keys = keys;
    box.track.keyCount = 2;
    box.track.loop = true;
    box.track.pivot = icVec3_Make(0.5, 0, 0);
    const double tri[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const int face[] = {0, 1, 2};
    icColliderDef mesh = icDefaultColliderDef();
    mesh.shape = IC_COLLIDER_MESH;
    mesh.vertexCount = 3;
    mesh.positions = tri;
    mesh.triangleCount = 1;
    mesh.triangles = face;
    icColliderId ids[2];
    IC_REQUIRE(icWorld_AddCollider(world, &box, &ids[0], NULL) == IC_OK);
    IC_REQUIRE(icWorld_AddCollider(world, &mesh, &ids[1], NULL) == IC_OK);
    icPlaneDef plane = icDefaultPlaneDef();
    plane.normal = icVec3_Make(0, 2, 0);
    plane.offset = 1;
    plane.friction = 0.25;
    IC_REQUIRE(icWorld_AddPlane(world, &plane) == IC_OK);

    IC_CHECK_INT(icWorld_GetColliderCount(world), 2);
    for (int i = 0; i < 2; ++i) {
        icColliderId id = icWorld_GetCollider(world, i);
        IC_CHECK(icCollider_IsValid(world, id));
        IC_CHECK(memcmp(&id, &ids[i], sizeof id) == 0);
    }
    IC_CHECK_INT(icWorld_GetCollider(world, 2).index1, 0);
    IC_CHECK_INT(icWorld_GetCollider(world, -1).index1, 0);

    icColliderDef b = icCollider_GetDef(world, ids[0]);
    IC_CHECK_INT(b.shape, IC_COLLIDER_BOX);
    IC_CHECK(icVec3_Distance(b.centre, box.centre) == 0);
    IC_CHECK(icVec3_Distance(b.halfExtents, box.halfExtents) == 0);
    IC_CHECK(icVec3_Distance(b.axis, box.axis) == 0 && b.degrees == 30);
    IC_CHECK(b.friction == 0.7 && b.staticFriction == 0.9 && b.thickness == 0.004);
    IC_CHECK(b.track.keyCount == 2 && b.track.loop && b.track.keys != keys); // a copy
    IC_CHECK(b.track.keys[1].time == 1 && b.track.keys[1].translation.y == 1);
    IC_CHECK(icVec3_Distance(b.track.pivot, box.track.pivot) == 0);
    icColliderDef m = icCollider_GetDef(world, ids[1]);
    IC_CHECK_INT(m.shape, IC_COLLIDER_MESH);
    IC_CHECK(m.vertexCount == 3 && m.triangleCount == 1 && m.positions != tri);
    IC_CHECK(memcmp(m.positions, tri, sizeof tri) == 0);
    IC_CHECK(memcmp(m.triangles, face, sizeof face) == 0);
    IC_CHECK_INT(m.track.keyCount, 0);

    IC_CHECK_INT(icWorld_GetPlaneCount(world), 1);
    icPlaneDef p = icWorld_GetPlane(world, 0);
    IC_CHECK_NEAR(p.normal.y, 1, 1e-15);
    IC_CHECK_NEAR(p.offset, 0.5, 1e-15); // normal . x >= offset keeps its meaning
    IC_CHECK(p.friction == 0.25);
    icDestroyWorld(world);
}
