// SPDX-License-Identifier: MIT
// The contact system of a world: colliders, bones, attachments, the boundary surface of all
// bodies, and the per-step candidate lists. Created on first use; the XPBD step calls the
// icContact_* hooks declared in world/world_internal.h.
#pragma once

#include "collision/hash_grid.h"
#include "isochor/collision.h"
#include "world/world_internal.h"

/// A rigid map x = R x0 + T (rest to current).
typedef struct icXform {
    icMat3 R;
    icVec3 T;
} icXform;

static inline icVec3 icXform_Apply(const icXform *f, icVec3 p) {
    return icVec3_Add(icMat3_MulVec(f->R, p), f->T);
}
static inline icVec3 icXform_ApplyInverse(const icXform *f, icVec3 p) {
    return icMat3_MulTransVec(f->R, icVec3_Sub(p, f->T));
}
/// a after b.
static inline icXform icXform_Compose(const icXform *a, const icXform *b) {
    icXform c = {icMat3_Mul(a->R, b->R), icXform_Apply(a, b->T)};
    return c;
}
static inline icXform icXform_Identity(void) {
    icXform f = {icMat3_Identity(), icVec3_Make(0, 0, 0)};
    return f;
}

/// An owned copy of a rigid track.
typedef struct icTrack {
    icVec3 pivot;
    icRigidKey *keys;
    int keyCount;
    bool loop;
} icTrack;

/// Validates (finite, ascending times, axes > 0 where turning) and copies a track.
/// IC_ERR_BAD_VALUE / IC_ERR_NOT_FINITE / IC_ERR_OUT_OF_MEMORY.
icResult icTrack_Copy(icTrack *dst, const icRigidTrack *src);
void icTrack_Destroy(icTrack *track);
icXform icTrack_Evaluate(const icTrack *track, icReal t);

typedef struct icColliderRecord {
    icColliderShape shape;
    icVec3 centre;
    icReal radius;
    icVec3 half;
    icMat3 orient; ///< box axes at rest (columns)
    icVec3 axis;   ///< box orientation as given (axis, degrees), for icCollider_GetDef
    icReal degrees;
    icVec3 a, b;
    icReal friction, staticFriction, thickness;
    icTrack track;
    uint16_t generation;
    // Mesh colliders, in rest coordinates.
    int vertexCount, triangleCount;
    icReal *positions;    ///< (vertexCount x 3)
    int *triangles;       ///< (triangleCount x 3)
    icVec3 *faceNormal;   ///< (triangleCount) unit
    icVec3 *vertexNormal; ///< (vertexCount) angle-weighted pseudo-normals
    icVec3 *edgeNormal;   ///< (triangleCount x 3) edge k runs from corner k to k+1
    icHashGrid grid;      ///< over the rest triangles
    icVec3 boundCentre;   ///< rest bounding sphere
    icReal boundRadius;
    icXform x0, x1;       ///< transforms at the start and end of the current substep
} icColliderRecord;

/// Signed distance in the collider's rest frame: closest point q and unit outward normal n.
/// Meshes search only tris[0..triCount-1] (all triangles when tris is NULL).
icReal icCollider_LocalDistance(const icColliderRecord *c, icVec3 p, const int *tris,
                                int triCount, icVec3 *q, icVec3 *n);

typedef struct icBoneRecord {
    int parent; ///< bone index or -1; always below this bone's index
    icTrack track;
    icVec3 a, b;
    icReal radius;
    uint16_t generation;
    icXform current; ///< at the end of the current substep (icContact_BeginSubstep)
} icBoneRecord;

/// A compliant attachment: vertex follows bone through a zero-length XPBD spring.
typedef struct icAttachment {
    int vertex, bone;
    icVec3 local; ///< rest-frame position (bone transform inverse at attach time)
    icReal compliance;
} icAttachment;

/// A vertex against a boundary triangle (body or self contact).
typedef struct icSelfCandidate {
    int vertex, triangle;
    icReal depth0; ///< how far the vertex was behind the triangle's plane at the step start
} icSelfCandidate;

/// A boundary vertex near a collider; mesh colliders list their candidate triangles.
typedef struct icColliderCandidate {
    int vertex, collider;
    int triStart, triCount; ///< into icContactSystem.candidateTris
} icColliderCandidate;

struct icContactSystem {
    icContactDef def;
    icColliderRecord *colliders;
    int colliderCount, colliderCapacity;
    icBoneRecord *bones;
    int boneCount, boneCapacity;
    icAttachment *attachments;
    int attachmentCount, attachmentCapacity;
    icReal *attachLambda; ///< (attachmentCount) multipliers of the substep
    int attachLambdaCapacity;
    int *vertexBone;      ///< (vertexCapacity) bone a vertex is attached to, or -1
    unsigned char *vertexHard; ///< (vertexCapacity) 1 for a hard attachment
    icVec3 *vertexLocal;  ///< (vertexCapacity) its rest-frame position
    int vertexCapacity;

    // Boundary of all bodies, rebuilt when the model's revision changes.
    int surfaceRevision;
    int triangleCount, boundaryCount;
    int *triangles;        ///< (triangleCount x 3) global vertex indices, outward
    int *triangleBody;     ///< (triangleCount)
    int *boundary;         ///< (boundaryCount) boundary vertices, ascending
    int *vertexBody;       ///< (model vertexCount) body of each vertex
    int *vertexSlot;       ///< (model vertexCount) index in boundary, or -1
    int *excludeStart;     ///< (boundaryCount + 1) self-contact exclusions, CSR
    int *exclude;          ///< same-body triangles closer than restExclusion at rest, sorted
    icReal excludeFor;     ///< restExclusion the lists were built for (< 0: none)
    int exclusionCapacity;
    icHashGrid restGrid;   ///< over the rest boundary triangles (exclusion lists)

    // Per-step workspace.
    icReal *motion;        ///< (boundaryCount) how far a boundary vertex may move this step
    icReal *relMotion;     ///< (boundaryCount) the same relative to the boundary's mean motion
    icBox3 *boxes;         ///< (triangleCount) swept triangle boxes
    icHashGrid grid;       ///< over the swept boundary triangles
    int *query;            ///< grid query results
    int queryCapacity;
    icSelfCandidate *selfCandidates;
    int selfCount, selfCapacity;
    icColliderCandidate *colliderCandidates;
    int colliderCandidateCount, colliderCandidateCapacity;
    int *candidateTris;
    int candidateTriCount, candidateTriCapacity;
    int motionCapacity, boxCapacity;

    icContactStats stats;
};

/// The world's contact system, created on first use (NULL when out of memory).
icContactSystem *icContact_Get(icWorld *world);
/// Makes sure the boundary surface matches the model (and the exclusion lists when needed).
icResult icContact_UpdateSurface(icWorld *world, icContactSystem *cs);
/// icWorld_FindProximityPairs over the contact system's cached boundary (built once per model
/// revision), for solvers that search every step.
icResult icContact_FindProximityPairs(icWorld *world, icReal distance, icProximityPairs *pairs);
/// Grows the hard-attachment arrays to the model's vertex count.
bool icContact_ReserveVertices(icContactSystem *cs, int vertexCount);

// Per-step stages (src/collision/*.c).
icResult icContact_CollectColliders(icWorld *world, icContactSystem *cs, const icState *s,
                                    icReal t0, icReal dt);
icResult icContact_CollectSelf(icWorld *world, icContactSystem *cs, const icState *s);
int icContact_ProjectColliders(const icModel *m, icContactSystem *cs, icState *s);
int icContact_ProjectSelf(const icModel *m, icContactSystem *cs, icState *s);
void icContact_ProjectAttachments(const icModel *m, icContactSystem *cs, icState *s, icReal h);

/// Grid query into cs->query (grown as needed): the count, or -1 when out of memory.
int icContact_QueryGrid(icContactSystem *cs, icHashGrid *grid, icBox3 box);
void icContact_DestroyColliders(icContactSystem *cs);
void icContact_DestroyBones(icContactSystem *cs);
