// SPDX-License-Identifier: MIT
// The world's contact system: life cycle, contact settings, the boundary surface of all
// bodies, and the hooks the XPBD step calls (candidates once per step, kinematic transforms
// and projections every substep; Macklin & Müller 2021, Algorithm 1).
#include "collision/collision_internal.h"


icContactDef icDefaultContactDef(void) {
    icContactDef d;
    d.bodyContact = false;
    d.selfContact = false;
    d.thickness = 0.01;
    d.friction = 0.3;
    d.staticFriction = 0.3;
    d.restExclusion = 0.015;
    return d;
}

icContactSystem *icContact_Get(icWorld *world) {
    if (world->contact) return world->contact;
    icContactSystem *cs = IC_ALLOC_ZERO(icContactSystem, 1);
    if (!cs) return NULL;
    cs->def = icDefaultContactDef();
    cs->surfaceRevision = -1;
    cs->excludeFor = -1;
    world->contact = cs;
    return cs;
}

void icContactSystem_Destroy(icContactSystem *cs) {
    if (!cs) return;
    icContact_DestroyColliders(cs);
    icContact_DestroyBones(cs);
    icFree(cs->attachments);
    icFree(cs->attachLambda);
    icFree(cs->vertexBone);
    icFree(cs->vertexHard);
    icFree(cs->vertexLocal);
    icFree(cs->triangles);
    icFree(cs->triangleBody);
    icFree(cs->boundary);
    icFree(cs->vertexBody);
    icFree(cs->vertexSlot);
    icFree(cs->excludeStart);
    icFree(cs->exclude);
    icFree(cs->motion);
    icFree(cs->relMotion);
    icFree(cs->boxes);
    icHashGrid_Destroy(&cs->grid);
    icHashGrid_Destroy(&cs->restGrid);
    icFree(cs->query);
    icFree(cs->selfCandidates);
    icFree(cs->colliderCandidates);
    icFree(cs->candidateTris);
    icFree(cs);
}

icResult icWorld_SetContactDef(icWorld *world, const icContactDef *def) {
    if (!world || !def) return IC_ERR_INVALID_ARGUMENT;
    if (!(def->thickness > 0) || !isfinite(def->thickness) || !(def->friction >= 0) ||
        !isfinite(def->friction) || !(def->staticFriction >= 0) || !isfinite(def->staticFriction) ||
        !(def->restExclusion >= def->thickness) || !isfinite(def->restExclusion))
        return IC_ERR_BAD_VALUE;
    if ((def->bodyContact || def->selfContact) &&
        !icSolver_Supports(world->model.def.solver, IC_FEATURE_BODY_CONTACT))
        return IC_ERR_UNSUPPORTED;
    icContactSystem *cs = icContact_Get(world);
    if (!cs) return IC_ERR_OUT_OF_MEMORY;
    cs->def = *def;
    return IC_OK;
}

icContactDef icWorld_GetContactDef(const icWorld *world) {
    return world->contact ? world->contact->def : icDefaultContactDef();
}

void icWorld_GetContactStats(const icWorld *world, icContactStats *stats) {
    if (world->contact)
        *stats = world->contact->stats;
    else
        memset(stats, 0, sizeof *stats);
}

int icContact_QueryGrid(icContactSystem *cs, icHashGrid *grid, icBox3 box) {
    int n = icHashGrid_Query(grid, box, cs->query, cs->queryCapacity);
    if (n > cs->queryCapacity) {
        if (!icGrowArray((void **)&cs->query, &cs->queryCapacity, n, sizeof(int))) return -1;
        n = icHashGrid_Query(grid, box, cs->query, cs->queryCapacity);
    }
    return n;
}

bool icContact_ReserveVertices(icContactSystem *cs, int vertexCount) {
    if (vertexCount <= cs->vertexCapacity) return true;
    int old = cs->vertexCapacity, c1 = old, c2 = old;
    if (!icGrowArray((void **)&cs->vertexBone, &c1, vertexCount, sizeof(int)) ||
        !icGrowArray((void **)&cs->vertexHard, &c2, vertexCount, sizeof(unsigned char)) ||
        !icGrowArray((void **)&cs->vertexLocal, &cs->vertexCapacity, vertexCount, sizeof(icVec3)))
        return false;
    for (int v = old; v < cs->vertexCapacity; ++v) {
        cs->vertexBone[v] = -1;
        cs->vertexHard[v] = 0;
    }
    return true;
}

// ---------------------------------------------------------------------------------------
// Boundary surface

icResult icContact_UpdateSurface(icWorld *world, icContactSystem *cs) {
    const icModel *m = &world->model;
    if (cs->surfaceRevision == m->revision) return IC_OK;
    icFree(cs->triangles);
    icFree(cs->triangleBody);
    icFree(cs->boundary);
    icFree(cs->vertexBody);
    icFree(cs->vertexSlot);
    cs->triangles = cs->triangleBody = cs->boundary = cs->vertexBody = cs->vertexSlot = NULL;
    cs->triangleCount = cs->boundaryCount = 0;
    cs->excludeFor = -1;
    icTetMesh view = {0};
    view.vertexCount = m->vertexCount;
    view.tetCount = m->tetCount;
    view.positions = m->restPositions;
    view.tets = m->tets;
    int *faceTets = NULL;
    icResult r = icTetMesh_ExtractSurface(&view, &cs->triangles, &cs->triangleCount, &faceTets);
    if (r != IC_OK) return r;
    int nt = cs->triangleCount, nv = m->vertexCount;
    cs->triangleBody = IC_ALLOC(int, (size_t)nt + 1);
    cs->vertexBody = IC_ALLOC(int, (size_t)nv + 1);
    cs->vertexSlot = IC_ALLOC(int, (size_t)nv + 1);
    cs->boundary = IC_ALLOC(int, (size_t)nv + 1);
    if (!cs->triangleBody || !cs->vertexBody || !cs->vertexSlot || !cs->boundary) {
        icFree(faceTets);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int t = 0; t < nt; ++t) cs->triangleBody[t] = m->tetBody[faceTets[t]];
    icFree(faceTets);
    for (int b = 0; b < m->bodyCount; ++b)
        for (int v = m->bodies[b].vertexStart; v < m->bodies[b].vertexStart + m->bodies[b].vertexCount; ++v)
            cs->vertexBody[v] = b;
    for (int v = 0; v < nv; ++v) cs->vertexSlot[v] = -1;
    for (int i = 0; i < 3 * nt; ++i) cs->vertexSlot[cs->triangles[i]] = 0;
    for (int v = 0; v < nv; ++v)
        if (cs->vertexSlot[v] == 0) {
            cs->vertexSlot[v] = cs->boundaryCount;
            cs->boundary[cs->boundaryCount++] = v;
        }
    cs->surfaceRevision = m->revision;
    cs->stats.boundaryVertices = cs->boundaryCount;
    cs->stats.boundaryTriangles = nt;
    return IC_OK;
}

// ---------------------------------------------------------------------------------------
// Step hooks

static bool contactActive(const icContactSystem *cs) {
    return cs->colliderCount > 0 || cs->def.bodyContact || cs->def.selfContact;
}

icResult icContact_BeginStep(icWorld *world, icState *s, icReal dt) {
    icContactSystem *cs = world->contact;
    if (!cs) return IC_OK;
    const icModel *m = &world->model;
    if (!icContact_ReserveVertices(cs, m->vertexCount)) return IC_ERR_OUT_OF_MEMORY;
    icContactStats keep = cs->stats;
    memset(&cs->stats, 0, sizeof cs->stats);
    cs->stats.boundaryVertices = keep.boundaryVertices;
    cs->stats.boundaryTriangles = keep.boundaryTriangles;
    cs->stats.attachments = cs->attachmentCount;
    cs->selfCount = 0;
    cs->colliderCandidateCount = 0;
    cs->candidateTriCount = 0;
    if (!contactActive(cs)) return IC_OK;
    double t0 = icNowMs();
    icResult r = icContact_UpdateSurface(world, cs);
    if (r != IC_OK) return r;
    // How far each boundary vertex may travel during the step: its velocity and gravity (the
    // paper collects pairs once per frame; a pair that only comes within reach through a
    // mid-frame acceleration is found at the next frame).
    int c1 = cs->motionCapacity;
    if (!icGrowArray((void **)&cs->motion, &cs->motionCapacity, cs->boundaryCount + 1, sizeof(icReal)) ||
        !icGrowArray((void **)&cs->relMotion, &c1, cs->boundaryCount + 1, sizeof(icReal)))
        return IC_ERR_OUT_OF_MEMORY;
    icReal g = icVec3_Length(m->def.gravity);
    // Between bodies (and within one) only relative motion closes a gap: measured in a frame
    // that moves with the boundary's mean velocity, a walking body's neighbours barely move
    // (|v_i - v_j| <= |v_i - mean| + |v_j - mean|, so no pair is missed). Gravity can only
    // separate a falling vertex from a supported or held one: a quarter of g dt^2 on each
    // free side covers it (two free vertices share it), half on a held one.
    icVec3 mean = icVec3_Make(0, 0, 0);
    for (int i = 0; i < cs->boundaryCount; ++i) mean = icVec3_Add(mean, icVec3_Load(s->v, cs->boundary[i]));
    if (cs->boundaryCount > 0) mean = icVec3_Scale(1.0 / cs->boundaryCount, mean);
    for (int i = 0; i < cs->boundaryCount; ++i) {
        icVec3 v = icVec3_Load(s->v, cs->boundary[i]);
        cs->motion[i] = icVec3_Length(v) * dt + 0.5 * g * dt * dt + 1e-12;
        icVec3 w = icVec3_Load(m->invMass, cs->boundary[i]);
        bool held = w.x == 0 || w.y == 0 || w.z == 0;
        cs->relMotion[i] = icVec3_Distance(v, mean) * dt + (held ? 0.5 : 0.25) * g * dt * dt + 1e-12;
    }
    if (cs->colliderCount > 0 && (r = icContact_CollectColliders(world, cs, s, s->time, dt)) != IC_OK)
        return r;
    if ((cs->def.bodyContact || cs->def.selfContact) &&
        (r = icContact_CollectSelf(world, cs, s)) != IC_OK)
        return r;
    cs->stats.colliderCandidates = cs->colliderCandidateCount;
    cs->stats.selfCandidates = cs->selfCount;
    cs->stats.broadPhaseMs = icNowMs() - t0;
    world->profile.collide += cs->stats.broadPhaseMs;
    return IC_OK;
}

void icContact_BeginSubstep(icWorld *world, icReal t0, icReal t1) {
    icContactSystem *cs = world->contact;
    if (!cs) return;
    for (int i = 0; i < cs->colliderCount; ++i) {
        icColliderRecord *c = &cs->colliders[i];
        c->x0 = icTrack_Evaluate(&c->track, t0);
        c->x1 = icTrack_Evaluate(&c->track, t1);
    }
    // Parents come first, so one pass composes the chains.
    for (int i = 0; i < cs->boneCount; ++i) {
        icBoneRecord *b = &cs->bones[i];
        icXform local = icTrack_Evaluate(&b->track, t1);
        b->current = b->parent >= 0 ? icXform_Compose(&cs->bones[b->parent].current, &local) : local;
    }
    if (cs->attachmentCount > 0) memset(cs->attachLambda, 0, sizeof(icReal) * (size_t)cs->attachmentCount);
}

bool icContact_HeldPosition(const icWorld *world, int v, icVec3 *p) {
    const icContactSystem *cs = world->contact;
    if (!cs || v >= cs->vertexCapacity || !cs->vertexHard[v]) return false;
    *p = icXform_Apply(&cs->bones[cs->vertexBone[v]].current, cs->vertexLocal[v]);
    return true;
}

int icContact_Project(icWorld *world, icState *s, icReal h) {
    icContactSystem *cs = world->contact;
    if (!cs) return 0;
    const icModel *m = &world->model;
    int contacts = 0;
    if (cs->attachmentCount > 0) {
        double t0 = icNowMs();
        icContact_ProjectAttachments(m, cs, s, h);
        cs->stats.attachmentMs += icNowMs() - t0;
    }
    if (cs->colliderCandidateCount > 0) {
        double t0 = icNowMs();
        contacts = icContact_ProjectColliders(m, cs, s);
        cs->stats.colliderContacts = contacts;
        cs->stats.colliderMs += icNowMs() - t0;
    }
    if (cs->selfCount > 0) {
        double t0 = icNowMs();
        cs->stats.selfContacts = icContact_ProjectSelf(m, cs, s);
        cs->stats.selfMs += icNowMs() - t0;
    }
    return contacts;
}
