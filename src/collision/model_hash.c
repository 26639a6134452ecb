// SPDX-License-Identifier: MIT
// The contact system's part of the model hash (src/world/checkpoint.c): what changes how a
// world steps, so that a checkpoint is refused by a world with other colliders or bones.
#include "collision/collision_internal.h"
#include "core/hash.h"

static uint64_t hashMat3(uint64_t h, icMat3 m) {
    for (int i = 0; i < 3; ++i) h = icHash_Vec3(h, m.col[i]);
    return h;
}

static uint64_t hashTrack(uint64_t h, const icTrack *track) {
    h = icHash_Vec3(h, track->pivot);
    h = icHash_Word(h, (uint64_t)track->loop);
    h = icHash_Word(h, (uint64_t)track->keyCount);
    for (int k = 0; k < track->keyCount; ++k) {
        const icRigidKey *key = &track->keys[k];
        h = icHash_Real(h, key->time);
        h = icHash_Vec3(h, key->translation);
        h = icHash_Vec3(h, key->axis);
        h = icHash_Real(h, key->degrees);
    }
    return h;
}

static uint64_t hashCollider(uint64_t h, const icColliderRecord *c) {
    h = icHash_Word(h, (uint64_t)c->shape);
    h = icHash_Vec3(h, c->centre);
    h = icHash_Real(h, c->radius);
    h = icHash_Vec3(h, c->half);
    h = hashMat3(h, c->orient);
    h = icHash_Vec3(h, c->a);
    h = icHash_Vec3(h, c->b);
    h = icHash_Real(h, c->friction);
    h = icHash_Real(h, c->staticFriction);
    h = icHash_Real(h, c->thickness);
    h = hashTrack(h, &c->track);
    h = icHash_Word(h, (uint64_t)c->vertexCount);
    h = icHash_Word(h, (uint64_t)c->triangleCount);
    if (c->vertexCount > 0) h = icHash_Reals(h, c->positions, 3 * (size_t)c->vertexCount);
    if (c->triangleCount > 0) h = icHash_Ints(h, c->triangles, 3 * (size_t)c->triangleCount);
    return h;
}

// A contact system holding nothing but its default settings steps exactly like none: the
// incompressible solver's self contact creates one on its first step to find close surface
// pairs, and a world that did must still take the checkpoints of one that had not yet.
static bool holdsNothing(const icContactSystem *c, int vertexCount) {
    icContactDef d = icDefaultContactDef();
    const icContactDef *e = &c->def;
    if (e->bodyContact != d.bodyContact || e->selfContact != d.selfContact ||
        e->thickness != d.thickness || e->friction != d.friction ||
        e->staticFriction != d.staticFriction || e->restExclusion != d.restExclusion)
        return false;
    for (int i = 0; i < c->colliderCount; ++i)
        if (c->colliders[i].generation != 0) return false;
    if (c->boneCount > 0 || c->attachmentCount > 0) return false;
    int n = vertexCount < c->vertexCapacity ? vertexCount : c->vertexCapacity;
    for (int v = 0; v < n; ++v)
        if (c->vertexBone[v] >= 0) return false;
    return true;
}

uint64_t icContact_HashModel(const icWorld *world, uint64_t h) {
    const icContactSystem *c = world->contact;
    if (!c || holdsNothing(c, world->model.vertexCount)) return h;
    const icContactDef *d = &c->def;
    h = icHash_Word(h, (uint64_t)d->bodyContact);
    h = icHash_Word(h, (uint64_t)d->selfContact);
    h = icHash_Real(h, d->thickness);
    h = icHash_Real(h, d->friction);
    h = icHash_Real(h, d->staticFriction);
    h = icHash_Real(h, d->restExclusion);
    // Removed colliders (generation 0) keep their slot but collide with nothing.
    int live = 0;
    for (int i = 0; i < c->colliderCount; ++i) live += c->colliders[i].generation != 0;
    h = icHash_Word(h, (uint64_t)live);
    for (int i = 0; i < c->colliderCount; ++i)
        if (c->colliders[i].generation != 0) h = hashCollider(h, &c->colliders[i]);
    h = icHash_Word(h, (uint64_t)c->boneCount);
    for (int i = 0; i < c->boneCount; ++i) {
        const icBoneRecord *b = &c->bones[i];
        h = icHash_Word(h, (uint64_t)(int64_t)b->parent);
        h = hashTrack(h, &b->track);
        h = icHash_Vec3(h, b->a);
        h = icHash_Vec3(h, b->b);
        h = icHash_Real(h, b->radius);
    }
    h = icHash_Word(h, (uint64_t)c->attachmentCount);
    for (int i = 0; i < c->attachmentCount; ++i) {
        const icAttachment *a = &c->attachments[i];
        h = icHash_Word(h, (uint64_t)a->vertex);
        h = icHash_Word(h, (uint64_t)a->bone);
        h = icHash_Vec3(h, a->local);
        h = icHash_Real(h, a->compliance);
    }
    // Hard attachments live per vertex (beyond vertexCapacity none).
    int n =
        world->model.vertexCount < c->vertexCapacity ? world->model.vertexCount : c->vertexCapacity;
    for (int v = 0; v < n; ++v) {
        if (c->vertexBone[v] < 0) continue;
        h = icHash_Word(h, (uint64_t)v);
        h = icHash_Word(h, (uint64_t)c->vertexBone[v]);
        h = icHash_Word(h, (uint64_t)c->vertexHard[v]);
        h = icHash_Vec3(h, c->vertexLocal[v]);
    }
    return h;
}
