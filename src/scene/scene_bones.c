// SPDX-License-Identifier: MIT
// A body's bones (kinematic frames with keyframed motion), the tissue mesh carved around
// them, vertex attachments and the embedded render surface (Macklin & Müller 2021, sec. 5.3).
#include "scene/scene_budget.h"
#include "scene/scene_contact.h"
#include "scene/scene_internal.h"

#include "core/core.h"

#include <string.h>

void icSceneBones_Destroy(icSceneBones *bones) {
    icFree(bones->names);
    icFree(bones->ids);
    icFree(bones->capsules);
    icFree(bones->all);
    memset(bones, 0, sizeof *bones);
}

static int findBone(const icSceneBones *bones, const char *name) {
    for (int i = 0; i < bones->count; ++i)
        if (strcmp(bones->names[i], name) == 0) return i;
    return -1;
}

static icResult readBone(const icSceneReader *r, const cJSON *item, const char *path,
                         icWorld *world, icSceneBones *bones, int index) {
    static const char *const keys[] = {"name", "parent", "a", "b", "radius", "flesh", "motion", NULL};
    icResult e;
    const cJSON *member;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    const char *name = NULL, *parent = NULL;
    if ((e = icSceneReader_Require(r, item, path, "name", &member)) != IC_OK ||
        (e = icSceneReader_String(r, item, path, "name", &name)) != IC_OK)
        return e;
    icJsonPath namePath = icJsonPath_Key(path, "name");
    if (strlen(name) >= sizeof bones->names[0])
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, member, namePath.text, "name is too long");
    if (findBone(bones, name) >= 0)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, member, namePath.text,
                                  "a bone named '%s' is already defined", name);
    icBoneDef def = icDefaultBoneDef();
    icReal flesh = 0;
    if ((e = icSceneReader_Require(r, item, path, "a", &member)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "b", &member)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "a", false, &def.a)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "b", false, &def.b)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_NON_NEGATIVE, &def.radius)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "flesh", IC_RANGE_NON_NEGATIVE, &flesh)) != IC_OK ||
        (e = icSceneReader_String(r, item, path, "parent", &parent)) != IC_OK)
        return e;
    if (flesh > 0 && !(flesh > def.radius))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, cJSON_GetObjectItemCaseSensitive(item, "flesh"),
                                  icJsonPath_Key(path, "flesh").text,
                                  "%g must be above the bone's radius %g", flesh, def.radius);
    if (parent) {
        int p = findBone(bones, parent);
        if (p < 0)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, cJSON_GetObjectItemCaseSensitive(item, "parent"),
                                      icJsonPath_Key(path, "parent").text,
                                      "no bone '%s' before this one in this body", parent);
        def.parent = bones->ids[p];
    }
    icRigidKey *keyStore = NULL;
    const cJSON *motion = cJSON_GetObjectItemCaseSensitive(item, "motion");
    // A bone turns about its joint (a) unless its motion names a pivot.
    if (motion &&
        (e = icScene_ReadTrack(r, motion, icJsonPath_Key(path, "motion").text, def.a, &def.track,
                               &keyStore)) != IC_OK) {
        icFree(keyStore);
        return e;
    }
    e = icWorld_AddBone(world, &def, &bones->ids[index]);
    icFree(keyStore);
    if (e != IC_OK)
        return icSceneReader_Fail(r, e, item, path, "the world refused the bone (%s)",
                                  icResult_Message(e));
    snprintf(bones->names[index], sizeof bones->names[index], "%s", name);
    bones->capsules[index] = (icTissueCapsule){def.a, def.b, flesh, def.radius};
    bones->count = index + 1;
    return IC_OK;
}

icResult icScene_ReadBones(const icSceneReader *r, const cJSON *item, const char *path,
                           icWorld *world, icSceneBones *bones) {
    memset(bones, 0, sizeof *bones);
    if (!cJSON_IsArray(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "expected an array, got %s",
                                  icJson_TypeName(item));
    int n = cJSON_GetArraySize(item);
    if (n == 0) return IC_OK;
    bones->names = icAllocZero(sizeof *bones->names * (size_t)n);
    bones->ids = IC_ALLOC_ZERO(icBoneId, n);
    bones->capsules = IC_ALLOC_ZERO(icTissueCapsule, n);
    if (!bones->names || !bones->ids || !bones->capsules)
        return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, item, path, "out of memory");
    int i = 0;
    for (const cJSON *b = item->child; b; b = b->next, ++i) {
        icResult e = readBone(r, b, icJsonPath_Index(path, i).text, world, bones, i);
        if (e != IC_OK) return e;
    }
    return IC_OK;
}

bool icScene_IsTissueMesh(const cJSON *meshItem) {
    const cJSON *g = cJSON_IsObject(meshItem) ? cJSON_GetObjectItemCaseSensitive(meshItem, "generate") : NULL;
    return cJSON_IsString(g) && strcmp(g->valuestring, "tissue") == 0;
}

// The union the tissue fills: flesh around every bone that has some, then extra capsules.
static icResult collectCapsules(const icSceneReader *r, const cJSON *item, const char *path,
                                icSceneBones *bones) {
    static const char *const capsuleKeys[] = {"a", "b", "radius", NULL};
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(item, "capsules");
    int n = extra ? cJSON_GetArraySize(extra) : 0;
    icJsonPath extraPath = icJsonPath_Key(path, "capsules");
    if (extra && !cJSON_IsArray(extra))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, extra, extraPath.text,
                                  "expected an array, got %s", icJson_TypeName(extra));
    icFree(bones->all);
    bones->all = IC_ALLOC(icTissueCapsule, bones->count + n + 1);
    if (!bones->all) return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, item, path, "out of memory");
    bones->capsuleCount = 0;
    for (int i = 0; i < bones->count; ++i)
        if (bones->capsules[i].radius > 0) bones->all[bones->capsuleCount++] = bones->capsules[i];
    int i = 0;
    for (const cJSON *c = extra ? extra->child : NULL; c; c = c->next, ++i) {
        icJsonPath p = icJsonPath_Index(extraPath.text, i);
        icTissueCapsule cap = {{0, 0, 0}, {0, 0, 0}, 0, 0};
        const cJSON *member;
        icResult e;
        if ((e = icSceneReader_CheckObject(r, c, p.text, capsuleKeys)) != IC_OK ||
            (e = icSceneReader_Require(r, c, p.text, "a", &member)) != IC_OK ||
            (e = icSceneReader_Require(r, c, p.text, "b", &member)) != IC_OK ||
            (e = icSceneReader_Require(r, c, p.text, "radius", &member)) != IC_OK ||
            (e = icSceneReader_Vec3(r, c, p.text, "a", false, &cap.a)) != IC_OK ||
            (e = icSceneReader_Vec3(r, c, p.text, "b", false, &cap.b)) != IC_OK ||
            (e = icSceneReader_Number(r, c, p.text, "radius", IC_RANGE_POSITIVE, &cap.radius)) != IC_OK)
            return e;
        bones->all[bones->capsuleCount++] = cap;
    }
    if (bones->capsuleCount == 0)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path,
                                  "a tissue needs bones with 'flesh' > 0 or 'capsules'");
    return IC_OK;
}

icResult icScene_ReadTissueMesh(const icSceneReader *r, const cJSON *item, const char *path,
                                icSceneBones *bones, icTetMesh *mesh) {
    static const char *const keys[] = {"generate", "cell", "split", "capsules", NULL};
    memset(mesh, 0, sizeof *mesh);
    icResult e;
    const cJSON *member;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    icTissueDef def = icDefaultTissueDef();
    if ((e = icSceneReader_Require(r, item, path, "cell", &member)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "cell", IC_RANGE_POSITIVE, &def.cellSize)) != IC_OK)
        return e;
    const cJSON *split = cJSON_GetObjectItemCaseSensitive(item, "split");
    if ((e = icSceneReader_Int(r, item, path, "split", 5, 6, &def.split)) != IC_OK) return e;
    (void)split;
    if ((e = collectCapsules(r, item, path, bones)) != IC_OK) return e;
    def.capsules = bones->all;
    def.capsuleCount = bones->capsuleCount;
    e = icGenerateTissue(mesh, &def);
    if (e == IC_ERR_EMPTY || e == IC_ERR_BAD_VALUE)
        return icSceneReader_Fail(r, e, member, icJsonPath_Key(path, "cell").text,
                                  e == IC_ERR_EMPTY ? "no cell of this size fits inside the flesh"
                                                    : "this cell size makes too large a grid");
    if (e != IC_OK) return icSceneReader_Fail(r, e, item, path, "%s", icResult_Message(e));
    return IC_OK;
}

static icResult readAttachItem(const icSceneReader *r, const cJSON *item, const char *path,
                               const icSceneBones *bones, icBoneId *ids, int *idCount,
                               icAttachDef *def) {
    static const char *const keys[] = {"bones", "within", "box", "compliance", NULL};
    static const char *const boxKeys[] = {"min", "max", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    *def = icDefaultAttachDef();
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(item, "bones");
    icJsonPath listPath = icJsonPath_Key(path, "bones");
    *idCount = 0;
    if (list) {
        if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) < 1)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, list, listPath.text,
                                      "expected an array of bone names");
        int i = 0;
        for (const cJSON *n = list->child; n; n = n->next, ++i) {
            icJsonPath np = icJsonPath_Index(listPath.text, i);
            int b = cJSON_IsString(n) ? findBone(bones, n->valuestring) : -1;
            if (b < 0)
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, n, np.text, "no bone named %s%s%s in this body",
                                          cJSON_IsString(n) ? "'" : "",
                                          cJSON_IsString(n) ? n->valuestring : icJson_TypeName(n),
                                          cJSON_IsString(n) ? "'" : "");
            ids[(*idCount)++] = bones->ids[b];
        }
    } else {
        for (int i = 0; i < bones->count; ++i) ids[(*idCount)++] = bones->ids[i];
    }
    if (*idCount == 0)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "the body has no bones to attach to");
    const cJSON *within = cJSON_GetObjectItemCaseSensitive(item, "within");
    const cJSON *box = cJSON_GetObjectItemCaseSensitive(item, "box");
    if ((within != NULL) == (box != NULL))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path,
                                  "give either 'within' (m from the bones) or 'box', not both");
    if (within) {
        def->region = IC_ATTACH_NEAR_BONE;
        if ((e = icSceneReader_Number(r, item, path, "within", IC_RANGE_NON_NEGATIVE, &def->distance)) != IC_OK)
            return e;
    } else {
        def->region = IC_ATTACH_BOX;
        icJsonPath bp = icJsonPath_Key(path, "box");
        const cJSON *member;
        if ((e = icSceneReader_CheckObject(r, box, bp.text, boxKeys)) != IC_OK ||
            (e = icSceneReader_Require(r, box, bp.text, "min", &member)) != IC_OK ||
            (e = icSceneReader_Require(r, box, bp.text, "max", &member)) != IC_OK ||
            (e = icSceneReader_Vec3(r, box, bp.text, "min", false, &def->boxMin)) != IC_OK ||
            (e = icSceneReader_Vec3(r, box, bp.text, "max", false, &def->boxMax)) != IC_OK)
            return e;
        for (int k = 0; k < 3; ++k)
            if (icVec3_Get(def->boxMin, k) > icVec3_Get(def->boxMax, k))
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, box, bp.text, "min is above max on axis %c",
                                          "xyz"[k]);
    }
    return icSceneReader_Number(r, item, path, "compliance", IC_RANGE_NON_NEGATIVE, &def->compliance);
}

static icResult forEachAttach(const icSceneReader *r, const cJSON *item, const char *path,
                              icWorld *world, icBodyId body, const icSceneBones *bones) {
    if (!cJSON_IsArray(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "expected an array, got %s",
                                  icJson_TypeName(item));
    icBoneId *ids = IC_ALLOC(icBoneId, bones->count + 1);
    if (!ids) return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, item, path, "out of memory");
    icResult e = IC_OK;
    int i = 0;
    for (const cJSON *a = item->child; a && e == IC_OK; a = a->next, ++i) {
        icJsonPath p = icJsonPath_Index(path, i);
        int count = 0;
        icAttachDef def;
        // Bone names cannot repeat, so a list has at most bones->count entries... unless a
        // name is listed twice, which findBone accepts: cap it.
        if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a, "bones")) > bones->count) {
            e = icSceneReader_Fail(r, IC_ERR_BAD_VALUE, a, p.text, "more bones listed than the body has");
            break;
        }
        if ((e = readAttachItem(r, a, p.text, bones, ids, &count, &def)) != IC_OK) break;
        if (!world) continue; // shape check only
        int attached = 0;
        e = icBody_Attach(world, body, ids, count, &def, &attached);
        if (e != IC_OK) {
            e = icSceneReader_Fail(r, e, a, p.text, "the world refused the attachment (%s)",
                                   icResult_Message(e));
        } else if (attached == 0) {
            // As with pins: a region that holds nothing is almost always a mistake.
            e = icSceneReader_Fail(r, IC_ERR_BAD_VALUE, a, p.text,
                                   "no free vertex of the body lies in this region");
        }
    }
    icFree(ids);
    return e;
}

icResult icScene_CheckAttach(const icSceneReader *r, const cJSON *item, const char *path,
                             const icSceneBones *bones) {
    icBodyId none = {0};
    return forEachAttach(r, item, path, NULL, none, bones);
}

icResult icScene_ReadAttach(const icSceneReader *r, const cJSON *item, const char *path,
                            icWorld *world, icBodyId body, const icSceneBones *bones) {
    return forEachAttach(r, item, path, world, body, bones);
}

icResult icScene_ReadRenderSurface(const icSceneReader *r, const cJSON *item, const char *path,
                                   icWorld *world, icBodyId body, icVec3 translation,
                                   const icSceneBones *bones) {
    static const char *const fileKeys[] = {"file", NULL};
    static const char *const tissueKeys[] = {"generate", "cell", NULL};
    if (!cJSON_IsObject(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "expected an object, got %s",
                                  icJson_TypeName(item));
    icResult e;
    const cJSON *member;
    icSkinDef def = icDefaultSkinDef();
    def.body = body;
    icTriSurface surface;
    memset(&surface, 0, sizeof surface);
    icReal *generated = NULL;
    int *generatedTris = NULL;
    if (cJSON_GetObjectItemCaseSensitive(item, "generate")) {
        const char *kind = NULL;
        icReal cell = 0;
        if ((e = icSceneReader_CheckObject(r, item, path, tissueKeys)) != IC_OK ||
            (e = icSceneReader_String(r, item, path, "generate", &kind)) != IC_OK)
            return e;
        if (strcmp(kind, "tissue") != 0)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, cJSON_GetObjectItemCaseSensitive(item, "generate"),
                                      icJsonPath_Key(path, "generate").text,
                                      "'%s' is not a known surface (known: tissue)", kind);
        if ((e = icSceneReader_Require(r, item, path, "cell", &member)) != IC_OK ||
            (e = icSceneReader_Number(r, item, path, "cell", IC_RANGE_POSITIVE, &cell)) != IC_OK)
            return e;
        if (bones->capsuleCount == 0)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path,
                                      "a tissue render surface needs the body's mesh to be a tissue");
        icTissueDef tissue = icDefaultTissueDef();
        tissue.capsules = bones->all;
        tissue.capsuleCount = bones->capsuleCount;
        // Its size grows as 1 / cell^2: a tiny cell is refused before it is generated.
        if ((e = icSceneBudget_Need(r, member, icJsonPath_Key(path, "cell").text,
                                    icSceneBudget_TissueSurfaceBytes(tissue.capsules,
                                                                     tissue.capsuleCount, cell),
                                    "the render surface at this cell size")) != IC_OK)
            return e;
        e = icGenerateTissueSurface(&tissue, cell, &generated, &def.vertexCount, &generatedTris,
                                    &def.triangleCount);
        if (e != IC_OK)
            return icSceneReader_Fail(r, e, member, icJsonPath_Key(path, "cell").text, "%s",
                                      e == IC_ERR_BAD_VALUE ? "this cell size makes too large a grid"
                                                            : icResult_Message(e));
        def.positions = generated;
        def.triangles = generatedTris;
    } else {
        const char *file = NULL;
        if ((e = icSceneReader_CheckObject(r, item, path, fileKeys)) != IC_OK ||
            (e = icSceneReader_Require(r, item, path, "file", &member)) != IC_OK ||
            (e = icSceneReader_String(r, item, path, "file", &file)) != IC_OK)
            return e;
        char resolved[1024];
        icJsonPath filePath = icJsonPath_Key(path, "file");
        if (!icPath_Join(r->baseDir, file, resolved, sizeof resolved))
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, member, filePath.text, "path is too long");
        if ((e = icSceneBudget_NeedSurfaceFile(r, member, filePath.text, resolved,
                                               "render surface")) != IC_OK)
            return e;
        if ((e = icLoadSurface(resolved, &surface, r->diag)) != IC_OK) {
            if (r->diag) {
                size_t used = strlen(r->diag->message);
                snprintf(r->diag->message + used, sizeof r->diag->message - used,
                         " (render surface of %s, %s line %d)", filePath.text, r->file,
                         icSceneReader_Line(r, member));
            }
            return e;
        }
        // The surface shares the body mesh's frame: the body's translation moves it too.
        for (int v = 0; v < surface.vertexCount; ++v)
            icVec3_Store(surface.positions, v, icVec3_Add(icVec3_Load(surface.positions, v), translation));
        def.vertexCount = surface.vertexCount;
        def.positions = surface.positions;
        def.triangleCount = surface.triangleCount;
        def.triangles = surface.triangles;
    }
    e = icWorld_AddSkin(world, &def, NULL);
    if (e != IC_OK) e = icSceneReader_Fail(r, e, item, path, "cannot embed the render surface (%s)",
                                           icResult_Message(e));
    icTriSurface_Destroy(&surface);
    icFree(generated);
    icFree(generatedTris);
    return e;
}
