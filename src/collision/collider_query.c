// SPDX-License-Identifier: MIT
// Read-only queries of a world's colliders and planes for clients that draw or export them
// (the renderer tessellates colliders from these); nothing here changes the world.
#include "collision/collision_internal.h"

icColliderId icWorld_GetCollider(const icWorld *world, int index) {
    icColliderId id = {0};
    if (!world || !world->contact || index < 0 || index >= world->contact->colliderCount) return id;
    id.index1 = index + 1;
    id.world0 = world->worldIndex;
    id.generation = world->contact->colliders[index].generation;
    return id;
}

icColliderDef icCollider_GetDef(const icWorld *world, icColliderId id) {
    IC_ASSERT(icCollider_IsValid(world, id));
    icColliderDef d = icDefaultColliderDef();
    if (!icCollider_IsValid(world, id)) return d; // with assertions off
    const icColliderRecord *c = &world->contact->colliders[id.index1 - 1];
    d.shape = c->shape;
    d.centre = c->centre;
    d.radius = c->radius;
    d.halfExtents = c->half;
    d.axis = c->axis;
    d.degrees = c->degrees;
    d.a = c->a;
    d.b = c->b;
    // Meshes and keys are the world's copies: they live as long as the world.
    d.vertexCount = c->vertexCount;
    d.positions = c->positions;
    d.triangleCount = c->triangleCount;
    d.triangles = c->triangles;
    d.friction = c->friction;
    d.staticFriction = c->staticFriction;
    d.thickness = c->thickness;
    d.track.pivot = c->track.pivot;
    d.track.keys = c->track.keys;
    d.track.keyCount = c->track.keyCount;
    d.track.loop = c->track.loop;
    return d;
}

int icWorld_GetPlaneCount(const icWorld *world) { return world ? world->model.planeCount : 0; }

icPlaneDef icWorld_GetPlane(const icWorld *world, int index) {
    IC_ASSERT(world && index >= 0 && index < world->model.planeCount);
    icPlaneDef d = icDefaultPlaneDef();
    if (!world || index < 0 || index >= world->model.planeCount) return d;
    const icPlane *p = &world->model.planes[index];
    d.normal = p->normal;
    d.offset = p->offset;
    d.friction = p->friction;
    return d;
}
