// SPDX-License-Identifier: MIT
/// \file
/// Contact and kinematics for the XPBD solver: colliders (sphere, box, capsule, triangle mesh)
/// that move along keyframed rigid tracks, contact between tet bodies and within one (self
/// contact), bones that carry attached vertices, and a proximity query that finds
/// point-triangle and edge-edge pairs within a distance (Irving et al.\ 2007, sec.\ 4 reuses it).
#pragma once

#include "isochor/world.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

// ---------------------------------------------------------------------------------------
// Rigid tracks: keyframed motion of a collider or a bone relative to its rest pose.

/// One key: at `time` the object is turned by `degrees` about `axis` through the track's
/// pivot, then moved by `translation` (both relative to the rest pose).
typedef struct icRigidKey {
    icReal time;        ///< s; keys are in ascending time
    icVec3 translation; ///< m
    icVec3 axis;        ///< rotation axis, any length > 0 (unused when degrees is 0)
    icReal degrees;     ///< rotation angle, degrees (any size: 720 is two turns)
} icRigidKey;

/// A keyframed rigid motion. Between keys the translation and the rotation vector
/// (axis * angle) are interpolated linearly, so keys about one axis spin through any angle;
/// before the first key the first holds, after the last the last (or the track repeats).
typedef struct icRigidTrack {
    icVec3 pivot;            ///< rotation centre in rest coordinates, m
    const icRigidKey *keys;  ///< (keyCount), copied by the function the track is given to
    int keyCount;            ///< 0 = at rest forever
    bool loop;               ///< repeat with period (last key time - first key time)
} icRigidTrack;

/// Defaults: pivot 0, no keys, no loop.
icRigidTrack icDefaultRigidTrack(void);
/// Default key: time 0, no translation, axis +y, 0 degrees.
icRigidKey icDefaultRigidKey(void);
/// The rest-to-current map of a track at time t: x = R x0 + T for a rest point x0.
void icRigidTrack_Evaluate(const icRigidTrack *track, icReal t, icMat3 *R, icVec3 *T);

// ---------------------------------------------------------------------------------------
// Kinematic colliders. Boundary vertices of every body are kept `thickness` outside the
// collider's surface, with Coulomb friction, as constraints in the XPBD Gauss-Seidel loop.
// Candidates are found once per step (frame) and the constraints re-evaluated every substep
// (Macklin & Müller 2021, Algorithm 1). The force-based (Newton) solvers take colliders and
// planes as a penalty potential with smoothed friction instead (src/newton/contact_potential.c).

/// Shape of a kinematic collider (icColliderDef.shape) and the fields that describe it.
typedef enum icColliderShape {
    IC_COLLIDER_SPHERE = 0, ///< centre, radius
    IC_COLLIDER_BOX,        ///< centre, halfExtents, orientation (axis, degrees)
    IC_COLLIDER_CAPSULE,    ///< segment a-b, radius
    IC_COLLIDER_MESH,       ///< closed triangle mesh (one-sided when open), wound CCW outside
} icColliderShape;

/// A collider, described in its rest pose (world coordinates at rest) plus a track.
typedef struct icColliderDef {
    icColliderShape shape;    ///< default IC_COLLIDER_SPHERE
    icVec3 centre;            ///< sphere and box centre, m; default 0
    icReal radius;            ///< sphere and capsule radius, m, > 0; default 0.5
    icVec3 halfExtents;       ///< box half sizes along its own axes, m, > 0; default 0.5
    icVec3 axis;              ///< box orientation at rest: its axes are turned by `degrees`
                              ///< about this axis (any length > 0); default +y
    icReal degrees;           ///< box rotation about `axis` at rest, degrees; default 0
    //!@{
    icVec3 a, b;              ///< capsule segment ends, m; default (0, -0.5, 0), (0, 0.5, 0)
    //!@}
    int vertexCount;          ///< mesh: vertices (copied); default 0
    const icReal *positions;  ///< mesh: (vertexCount x 3), m
    int triangleCount;        ///< mesh: triangles (copied); default 0
    const int *triangles;     ///< mesh: (triangleCount x 3), counter-clockwise seen from outside
    icReal friction;          ///< dynamic Coulomb coefficient, >= 0; default 0.5
    icReal staticFriction;    ///< static Coulomb coefficient, >= 0; default 0.5
    icReal thickness;         ///< distance kept from the surface, m, >= 0; default 0.001
    icRigidTrack track;       ///< motion; default at rest
} icColliderDef;

/// Defaults as listed in icColliderDef.
icColliderDef icDefaultColliderDef(void);

/// A collider handle: index + 1 and a generation, so {0} is null.
typedef struct icColliderId {
    int32_t index1;      ///< collider index + 1; 0 = null handle
    uint16_t world0;     ///< index of the world the collider belongs to
    uint16_t generation; ///< generation of the collider slot, to catch stale handles
} icColliderId;

/// Adds a collider. IC_ERR_BAD_VALUE for a bad def (sizes <= 0, negative friction, a mesh
/// index out of range, a degenerate box axis), IC_ERR_NOT_FINITE, IC_ERR_EMPTY for a mesh
/// without triangles; diag (may be NULL) says why.
icResult icWorld_AddCollider(icWorld *world, const icColliderDef *def, icColliderId *id,
                             icDiagnostic *diag);
/// True when id names a live collider of this world (false for {0} or stale ids).
bool icCollider_IsValid(const icWorld *world, icColliderId id);
/// Colliders added to the world (planes not counted).
int icWorld_GetColliderCount(const icWorld *world);
/// The id of the world's index-th collider (0 <= index < icWorld_GetColliderCount, in the
/// order they were added); {0} for an index out of range. Planes are not counted here.
icColliderId icWorld_GetCollider(const icWorld *world, int index);
/// The def a collider was added with, track included (box orientation as its axis and
/// degrees). Mesh positions and triangles and the track's keys point at the world's copies:
/// valid while the world lives, not to be freed or changed.
icColliderDef icCollider_GetDef(const icWorld *world, icColliderId id);
/// Static planes added with icWorld_AddPlane (world.h): how many, and the index-th one with
/// its normal made unit length and the offset scaled to match (0 <= index < count).
int icWorld_GetPlaneCount(const icWorld *world);
/// The index-th static plane (unit normal, offset in m); an index out of range is a
/// programmer error (asserted) and gives icDefaultPlaneDef().
icPlaneDef icWorld_GetPlane(const icWorld *world, int index);
/// Signed distance (m, negative inside) from p to the collider's surface at time t, with
/// the closest surface point and the unit outward normal there (either may be NULL).
/// Meshes use angle-weighted pseudo-normals for the sign, so closed meshes are exact.
icReal icCollider_Distance(const icWorld *world, icColliderId id, icVec3 p, icReal t,
                           icVec3 *closest, icVec3 *normal);
/// The collider's rest-to-current map at time t (x = R x0 + T).
void icCollider_GetTransform(const icWorld *world, icColliderId id, icReal t, icMat3 *R,
                             icVec3 *T);

// ---------------------------------------------------------------------------------------
// Contact between tet bodies and within one. Only boundary vertices and boundary triangles
// take part (interior vertices never collide): each boundary vertex is kept `thickness` in
// front of the boundary triangles of other bodies (and of its own body with selfContact).
// Pairs are collected once per step with a spatial hash over the boundary triangles, sorted,
// and projected every substep as XPBD position constraints with friction.

/// Settings of contact between tet bodies and within one (icWorld_SetContactDef).
typedef struct icContactDef {
    bool bodyContact;      ///< contact between different bodies; default false
    bool selfContact;      ///< contact within one body; default false
    icReal thickness;      ///< distance kept between a vertex and a triangle, m, > 0; default 0.01
    icReal friction;       ///< dynamic Coulomb coefficient between bodies, >= 0; default 0.3
    icReal staticFriction; ///< static coefficient, >= 0; default 0.3
    icReal restExclusion;  ///< self contact ignores vertex-triangle pairs of one body closer
                           ///< at rest than this or than the mean boundary edge, whichever is
                           ///< larger (neighbours on the surface), m; must be >= thickness;
                           ///< default 0.015 (1.5 x the default thickness)
} icContactDef;

/// Defaults as listed in icContactDef (contact off).
icContactDef icDefaultContactDef(void);
/// Sets the contact settings. IC_ERR_BAD_VALUE for thickness <= 0, negative friction or
/// restExclusion < thickness; IC_ERR_UNSUPPORTED in a Newton world when contact is on.
icResult icWorld_SetContactDef(icWorld *world, const icContactDef *def);
/// The world's contact settings (the defaults until icWorld_SetContactDef).
icContactDef icWorld_GetContactDef(const icWorld *world);

/// What the contact stages did in the last step (or static solve).
typedef struct icContactStats {
    int boundaryVertices;   ///< vertices on the boundary of all bodies
    int boundaryTriangles;  ///< triangles on it
    int colliderCandidates; ///< (vertex, collider) pairs from the broad phase
    int colliderContacts;   ///< of those, in contact in the last substep
    int selfCandidates;     ///< vertex-triangle pairs between / within bodies
    int selfContacts;       ///< of those, in contact in the last substep
    int attachments;        ///< compliant attachments projected
    icReal broadPhaseMs;    ///< candidate collection, once per step, ms
    icReal colliderMs;      ///< collider projections over all substeps, ms
    icReal selfMs;          ///< body and self contact projections over all substeps, ms
    icReal attachmentMs;    ///< attachment projections over all substeps, ms
} icContactStats;

/// Fills stats with the contact figures of the last step (all zero without contact).
void icWorld_GetContactStats(const icWorld *world, icContactStats *stats);

// ---------------------------------------------------------------------------------------
// Bones and attachments: vertices follow a kinematic frame, hard (like a pin) or through a
// compliant zero-length spring (XPBD compliance).

/// A bone handle: index + 1 and a generation, so {0} is null.
typedef struct icBoneId {
    int32_t index1;      ///< bone index + 1; 0 = null handle
    uint16_t world0;     ///< index of the world the bone belongs to
    uint16_t generation; ///< generation of the bone slot, to catch stale handles
} icBoneId;

/// A kinematic bone: a rigid frame moved by a track (after its parent's), with a capsule
/// used to pick the vertices attached to it.
typedef struct icBoneDef {
    icBoneId parent;     ///< {0} = none; the track then moves the bone relative to its parent
    icRigidTrack track;  ///< motion relative to the rest pose (after the parent's)
    //!@{
    icVec3 a, b;         ///< the bone's capsule at rest, m (for attaching by distance)
    //!@}
    icReal radius;       ///< capsule radius, m, >= 0; default 0
} icBoneDef;

/// Defaults: no parent, at rest, a zero-length capsule at the origin.
icBoneDef icDefaultBoneDef(void);
/// Adds a bone. IC_ERR_BAD_VALUE (bad parent, radius < 0), IC_ERR_NOT_FINITE,
/// IC_ERR_UNSUPPORTED in a world whose solver has no bones (icSolver_Supports,
/// IC_FEATURE_BONES: XPBD only).
icResult icWorld_AddBone(icWorld *world, const icBoneDef *def, icBoneId *id);
/// True when id names a live bone of this world (false for {0} or stale ids).
bool icBone_IsValid(const icWorld *world, icBoneId id);
/// Rest-to-current map of a bone at time t with its parents composed (x = R x0 + T).
void icBone_GetTransform(const icWorld *world, icBoneId id, icReal t, icMat3 *R, icVec3 *T);
/// Distance (m, 0 inside) from a point to the bone's capsule at time t.
icReal icBone_Distance(const icWorld *world, icBoneId id, icVec3 p, icReal t);

/// Which vertices icBody_Attach takes.
typedef enum icAttachRegion {
    IC_ATTACH_NEAR_BONE = 0, ///< vertices within `distance` of a bone capsule (inside counts)
    IC_ATTACH_BOX,           ///< vertices inside a box
} icAttachRegion;

/// How icBody_Attach picks vertices and how firmly they follow their bone.
typedef struct icAttachDef {
    icAttachRegion region; ///< default IC_ATTACH_NEAR_BONE
    icReal distance;       ///< NEAR_BONE: m beyond the capsule surface, >= 0; default 0
    //!@{
    icVec3 boxMin, boxMax; ///< BOX: corners in world coordinates now, m; default empty
    //!@}
    icReal compliance;     ///< XPBD compliance of the zero-length spring, m/N, >= 0; 0 = hard:
                           ///< the vertex follows the bone exactly; default 0
} icAttachDef;

/// Defaults: near a bone, distance 0, an empty box, hard.
icAttachDef icDefaultAttachDef(void);
/// Attaches the body's vertices in the region, each to the nearest of the given bones
/// (nearest capsule; the lower index on ties), keeping its offset in the bone's frame at the
/// world's current time. Pinned or already attached vertices are skipped. *attachedCount
/// (optional) gets how many were attached. IC_ERR_INVALID_ARGUMENT for bad ids or no bones,
/// IC_ERR_BAD_VALUE for a bad def.
icResult icBody_Attach(icWorld *world, icBodyId body, const icBoneId *bones, int boneCount,
                       const icAttachDef *def, int *attachedCount);

// ---------------------------------------------------------------------------------------
// Proximity query: all point-triangle and edge-edge pairs of a triangle surface within a
// distance (Bridson et al. 2002 repulsion pairs; Irving et al. 2007, sec. 4 makes each a constraint
// c^T dv = 0 with c_i = weights[i] * normal).

/// The primitives of a proximity pair.
typedef enum icProximityKind {
    IC_PROXIMITY_POINT_TRIANGLE = 0, ///< a surface vertex and a triangle not incident to it
    IC_PROXIMITY_EDGE_EDGE,          ///< two surface edges that share no vertex
} icProximityKind;

/// Two surface primitives within the query distance.
typedef struct icProximityPair {
    icProximityKind kind; ///< point-triangle or edge-edge
    int vertices[4];   ///< point-triangle: p, t0, t1, t2; edge-edge: a0, a1, b0, b1
    icReal weights[4]; ///< sum_i weights[i] x_i = closest point of the first primitive minus
                       ///< that of the second: (1, -b0, -b1, -b2) with the triangle's
                       ///< barycentric b; (1-s, s, -(1-u), -u) with the edge parameters s, u
    icVec3 normal;     ///< unit, from the second primitive towards the first
    icReal distance;   ///< m
} icProximityPair;

/// A growable list of pairs; release with icProximityPairs_Destroy.
typedef struct icProximityPairs {
    //!@{
    int count, capacity; ///< pairs held and allocated
    //!@}
    icProximityPair *items; ///< (count)
} icProximityPairs;

/// What icFindProximityPairs looks for.
typedef struct icProximityDef {
    icReal distance;          ///< largest distance of a pair, m, >= 0; default 0.01
    bool pointTriangle;       ///< find point-triangle pairs; default true
    bool edgeEdge;            ///< find edge-edge pairs; default true
    const int *vertexGroup;   ///< (vertexCount) group per vertex or NULL (default): one group
    bool sameGroup;           ///< with vertexGroup: keep pairs within one group too (default
                              ///< true); false keeps pairs between groups only
    const icReal *restPositions; ///< (vertexCount x 3) rest positions, m, or NULL (default):
                                 ///< with them, pairs of one group (or all, without groups)
                                 ///< closer than restDistance at rest are skipped
    icReal restDistance;      ///< m, >= 0: neighbours on one surface closer at rest are not
                              ///< pairs; default 0
} icProximityDef;

/// Defaults as listed in icProximityDef.
icProximityDef icDefaultProximityDef(void);
/// Finds all pairs within def->distance: a surface point and a triangle not incident to it,
/// two surface edges sharing no vertex. Listed point-triangle pairs first (by point, then
/// triangle index), then edge-edge pairs (edges as sorted vertex pairs, ascending): the same
/// input always gives the same list. pairs is reset first and grown as needed.
/// IC_ERR_INDEX_OUT_OF_RANGE for a bad triangle index, IC_ERR_BAD_VALUE for a bad distance.
icResult icFindProximityPairs(const icReal *positions, int vertexCount, const int *triangles,
                              int triangleCount, const icProximityDef *def,
                              icProximityPairs *pairs);
/// The same over the boundary of all bodies of a world at the current positions, with each
/// body a group (sameGroup = true) and rest pairs closer than distance skipped.
icResult icWorld_FindProximityPairs(const icWorld *world, icReal distance,
                                    icProximityPairs *pairs);
/// Frees the list's items and zeroes it. Safe on a zeroed list.
void icProximityPairs_Destroy(icProximityPairs *pairs);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
