// SPDX-License-Identifier: MIT
// Scene readers for contact and kinematics (docs/scenes.md: "colliders", "contact", bones,
// attachments, the tissue mesh, render surfaces): colliders and the contact settings are
// scene-level (scene_collider.c), bones belong to a body (scene_bones.c).
#pragma once

#include "scene/scene_reader.h"
#include "isochor/collision.h"
#include "isochor/skin.h"

/// A "motion" object: {"pivot": [..], "loop": false, "keys": [{"time", "translate",
/// "rotate": {"axis", "degrees"}}]}. *keys is allocated (free with icFree) and
/// track->keys points to it; pivot defaults to defaultPivot.
icResult icScene_ReadTrack(const icSceneReader *r, const cJSON *item, const char *path,
                           icVec3 defaultPivot, icRigidTrack *track, icRigidKey **keys);

/// An optional "rotate": {"axis": [x, y, z], "degrees": d} member of obj (axis required,
/// length > 0); axis and degrees are left unchanged when obj has no "rotate".
icResult icScene_ReadRotate(const icSceneReader *r, const cJSON *obj, const char *path,
                            icVec3 *axis, icReal *degrees);

/// The top-level "colliders" array (planes, spheres, boxes, capsules, meshes).
icResult icScene_ReadColliders(const icSceneReader *r, const cJSON *item, icWorld *world);

/// The top-level "contact" object (icContactDef).
icResult icScene_ReadContact(const icSceneReader *r, const cJSON *item, icWorld *world);

// ---------------------------------------------------------------------------------------
// Body-level: bones, the tissue mesh, attachments and render surfaces (scene_bones.c)

/// The bones one body declares, by name, with their tissue capsules.
typedef struct icSceneBones {
    int count;
    char (*names)[64];
    icBoneId *ids;
    icTissueCapsule *capsules; ///< (count) flesh radius around the bone's capsule
    int capsuleCount;          ///< capsules in use: bones with flesh, then extra ones
    icTissueCapsule *all;      ///< (capsuleCount) bones with flesh and the mesh's extra capsules
} icSceneBones;

void icSceneBones_Destroy(icSceneBones *bones);
/// A body's "bones" array: each bone is added to the world at once (parents by name, earlier
/// in the list).
icResult icScene_ReadBones(const icSceneReader *r, const cJSON *item, const char *path,
                           icWorld *world, icSceneBones *bones);
/// True for a mesh object {"generate": "tissue", ...}.
bool icScene_IsTissueMesh(const cJSON *meshItem);
/// The tissue mesh from the body's bones (flesh around each) and extra capsules.
icResult icScene_ReadTissueMesh(const icSceneReader *r, const cJSON *item, const char *path,
                                icSceneBones *bones, icTetMesh *mesh);
/// Checks the shape of a body's "attach" array (before the body exists).
icResult icScene_CheckAttach(const icSceneReader *r, const cJSON *item, const char *path,
                             const icSceneBones *bones);
/// A body's "attach" array, after the body (and its pins) exist.
icResult icScene_ReadAttach(const icSceneReader *r, const cJSON *item, const char *path,
                            icWorld *world, icBodyId body, const icSceneBones *bones);
/// A body's "render_surface": {"file": ...} or {"generate": "tissue", "cell": ...}, embedded
/// as a world skin of the body. translation is the body's "translate" (applied to files).
icResult icScene_ReadRenderSurface(const icSceneReader *r, const cJSON *item, const char *path,
                                   icWorld *world, icBodyId body, icVec3 translation,
                                   const icSceneBones *bones);

/// Writes each world skin at the current positions as <dir>/render_NNNNN.obj (skin 0) or
/// <dir>/render<k>_NNNNN.obj (skin k > 0). Nothing when the world has no skin.
icResult icScene_WriteSkins(icWorld *world, const char *dir, int frame, icDiagnostic *diag);
