// SPDX-License-Identifier: MIT
// Bones (kinematic frames on keyframed tracks, composed with their parents) and the vertices
// attached to them: hard attachments are kinematic like pins, compliant ones are zero-length
// XPBD springs x = R x0 + T with compliance alpha (Macklin et al. 2016, eq. 18).
#include "collision/collision_internal.h"

icBoneDef icDefaultBoneDef(void) {
    icBoneDef d;
    d.parent = (icBoneId){0};
    d.track = icDefaultRigidTrack();
    d.a = icVec3_Make(0, 0, 0);
    d.b = icVec3_Make(0, 0, 0);
    d.radius = 0;
    return d;
}

icAttachDef icDefaultAttachDef(void) {
    icAttachDef d;
    d.region = IC_ATTACH_NEAR_BONE;
    d.distance = 0;
    d.boxMin = icVec3_Make(0, 0, 0);
    d.boxMax = icVec3_Make(0, 0, 0);
    d.compliance = 0;
    return d;
}

bool icBone_IsValid(const icWorld *world, icBoneId id) {
    if (!world || !world->contact || id.index1 < 1 || id.index1 > world->contact->boneCount)
        return false;
    return id.world0 == world->worldIndex &&
           world->contact->bones[id.index1 - 1].generation == id.generation;
}

icResult icWorld_AddBone(icWorld *world, const icBoneDef *def, icBoneId *id) {
    if (id) *id = (icBoneId){0};
    if (!world || !def) return IC_ERR_INVALID_ARGUMENT;
    if (!icSolver_Supports(world->model.def.solver, IC_FEATURE_BONES)) return IC_ERR_UNSUPPORTED;
    if (!icVec3_IsFinite(def->a) || !icVec3_IsFinite(def->b) || !isfinite(def->radius))
        return IC_ERR_NOT_FINITE;
    if (!(def->radius >= 0)) return IC_ERR_BAD_VALUE;
    bool hasParent = def->parent.index1 != 0;
    if (hasParent && !icBone_IsValid(world, def->parent)) return IC_ERR_BAD_VALUE;
    icContactSystem *cs = icContact_Get(world);
    if (!cs || !icGrowArray((void **)&cs->bones, &cs->boneCapacity, cs->boneCount + 1,
                            sizeof(icBoneRecord)))
        return IC_ERR_OUT_OF_MEMORY;
    icBoneRecord b;
    memset(&b, 0, sizeof b);
    icResult r = icTrack_Copy(&b.track, &def->track);
    if (r != IC_OK) return r;
    b.parent = hasParent ? def->parent.index1 - 1 : -1;
    b.a = def->a;
    b.b = def->b;
    b.radius = def->radius;
    b.generation = 1;
    // Until the first substep the bone stands where the world's clock puts it.
    icXform local = icTrack_Evaluate(&b.track, world->state->time);
    b.current = b.parent >= 0 ? icXform_Compose(&cs->bones[b.parent].current, &local) : local;
    cs->bones[cs->boneCount++] = b;
    if (id) {
        id->index1 = cs->boneCount;
        id->world0 = world->worldIndex;
        id->generation = b.generation;
    }
    return IC_OK;
}

void icContact_DestroyBones(icContactSystem *cs) {
    for (int i = 0; i < cs->boneCount; ++i) icTrack_Destroy(&cs->bones[i].track);
    icFree(cs->bones);
}

static icXform boneTransform(const icContactSystem *cs, int bone, icReal t) {
    const icBoneRecord *b = &cs->bones[bone];
    icXform local = icTrack_Evaluate(&b->track, t);
    if (b->parent < 0) return local;
    icXform parent = boneTransform(cs, b->parent, t);
    return icXform_Compose(&parent, &local);
}

void icBone_GetTransform(const icWorld *world, icBoneId id, icReal t, icMat3 *R, icVec3 *T) {
    IC_ASSERT(icBone_IsValid(world, id));
    icXform x = boneTransform(world->contact, id.index1 - 1, t);
    if (R) *R = x.R;
    if (T) *T = x.T;
}

// Distance from a rest-frame point to the bone's rest capsule (0 inside).
static icReal capsuleDistance(const icBoneRecord *b, icVec3 local) {
    icReal d = icVec3_Distance(local, icClosestOnSegment(local, b->a, b->b, NULL)) - b->radius;
    return d > 0 ? d : 0;
}

icReal icBone_Distance(const icWorld *world, icBoneId id, icVec3 p, icReal t) {
    IC_ASSERT(icBone_IsValid(world, id));
    const icContactSystem *cs = world->contact;
    icXform x = boneTransform(cs, id.index1 - 1, t);
    return capsuleDistance(&cs->bones[id.index1 - 1], icXform_ApplyInverse(&x, p));
}

icResult icBody_Attach(icWorld *world, icBodyId body, const icBoneId *bones, int boneCount,
                       const icAttachDef *def, int *attachedCount) {
    if (attachedCount) *attachedCount = 0;
    if (!icBody_IsValid(world, body) || !bones || boneCount < 1 || !def)
        return IC_ERR_INVALID_ARGUMENT;
    for (int i = 0; i < boneCount; ++i)
        if (!icBone_IsValid(world, bones[i])) return IC_ERR_INVALID_ARGUMENT;
    if (def->region != IC_ATTACH_NEAR_BONE && def->region != IC_ATTACH_BOX) return IC_ERR_BAD_VALUE;
    if (!isfinite(def->distance) || !isfinite(def->compliance) || !icVec3_IsFinite(def->boxMin) ||
        !icVec3_IsFinite(def->boxMax))
        return IC_ERR_NOT_FINITE;
    if (!(def->distance >= 0) || !(def->compliance >= 0)) return IC_ERR_BAD_VALUE;
    icContactSystem *cs = world->contact;
    icModel *m = &world->model;
    if (!icContact_ReserveVertices(cs, m->vertexCount)) return IC_ERR_OUT_OF_MEMORY;
    icReal t = world->state->time;
    icXform *frames = IC_ALLOC(icXform, boneCount);
    if (!frames) return IC_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < boneCount; ++i) frames[i] = boneTransform(cs, bones[i].index1 - 1, t);

    const icBodyRecord *rec = &m->bodies[body.index1 - 1];
    icReal *x = world->state->x;
    int count = 0;
    icResult result = IC_OK;
    for (int v = rec->vertexStart; v < rec->vertexStart + rec->vertexCount; ++v) {
        if (m->vertexPin[v] >= 0 || cs->vertexBone[v] >= 0) continue;
        icVec3 p = icVec3_Load(x, v);
        if (def->region == IC_ATTACH_BOX &&
            (p.x < def->boxMin.x || p.y < def->boxMin.y || p.z < def->boxMin.z ||
             p.x > def->boxMax.x || p.y > def->boxMax.y || p.z > def->boxMax.z))
            continue;
        int best = -1;
        icReal bestDistance = INFINITY;
        for (int i = 0; i < boneCount; ++i) {
            const icBoneRecord *b = &cs->bones[bones[i].index1 - 1];
            icReal d = capsuleDistance(b, icXform_ApplyInverse(&frames[i], p));
            if (d < bestDistance) {
                bestDistance = d;
                best = i;
            }
        }
        if (def->region == IC_ATTACH_NEAR_BONE && !(bestDistance <= def->distance)) continue;
        int bone = bones[best].index1 - 1;
        icVec3 local = icXform_ApplyInverse(&frames[best], p);
        cs->vertexBone[v] = bone;
        cs->vertexLocal[v] = local;
        if (def->compliance == 0) {
            // Hard: kinematic like a pin; the step moves it with the bone.
            cs->vertexHard[v] = 1;
            icVec3_Store(m->invMass, v, icVec3_Make(0, 0, 0));
        } else {
            if (!icGrowArray((void **)&cs->attachments, &cs->attachmentCapacity,
                             cs->attachmentCount + 1, sizeof(icAttachment)) ||
                !icGrowArray((void **)&cs->attachLambda, &cs->attachLambdaCapacity,
                             cs->attachmentCount + 1, sizeof(icReal))) {
                result = IC_ERR_OUT_OF_MEMORY;
                break;
            }
            cs->attachments[cs->attachmentCount] = (icAttachment){v, bone, local, def->compliance};
            cs->attachLambda[cs->attachmentCount] = 0;
            cs->attachmentCount++;
        }
        ++count;
    }
    icFree(frames);
    if (attachedCount) *attachedCount = count;
    return result;
}

// Zero-length spring per attachment (Macklin & Müller 2021, eq. 19 with C = |x - target|,
// gradient the unit offset): dlambda = (-C - a~ lambda) / (w + a~), a~ = alpha / h^2.
void icContact_ProjectAttachments(const icModel *m, icContactSystem *cs, icState *s, icReal h) {
    icReal invH2 = 1.0 / (h * h);
    for (int i = 0; i < cs->attachmentCount; ++i) {
        const icAttachment *at = &cs->attachments[i];
        icVec3 x = icVec3_Load(s->x, at->vertex);
        icVec3 target = icXform_Apply(&cs->bones[at->bone].current, at->local);
        icVec3 d = icVec3_Sub(x, target);
        icReal C = icVec3_Length(d);
        if (!(C > 1e-15)) continue;
        icVec3 n = icVec3_Scale(1.0 / C, d), w = icVec3_Load(m->invMass, at->vertex);
        icReal wn = w.x * n.x * n.x + w.y * n.y * n.y + w.z * n.z * n.z;
        icReal alpha = at->compliance * invH2;
        if (!(wn + alpha > 0)) continue;
        icReal dl = (-C - alpha * cs->attachLambda[i]) / (wn + alpha);
        x = icVec3_Make(x.x + w.x * n.x * dl, x.y + w.y * n.y * dl, x.z + w.z * n.z * dl);
        cs->attachLambda[i] += dl;
        icVec3_Store(s->x, at->vertex, x);
    }
}
