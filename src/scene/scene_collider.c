// SPDX-License-Identifier: MIT
// Scene colliders and contact settings: planes, spheres, boxes, capsules and triangle meshes
// (OBJ and the other surface formats) with friction, thickness and keyframed motion.
#include "scene/scene_budget.h"
#include "scene/scene_contact.h"
#include "scene/scene_internal.h"

#include "core/core.h"

#include <string.h>

icResult icScene_ReadRotate(const icSceneReader *r, const cJSON *obj, const char *path,
                            icVec3 *axis, icReal *degrees) {
    const cJSON *rotate = cJSON_GetObjectItemCaseSensitive(obj, "rotate");
    if (!rotate) return IC_OK;
    static const char *const keys[] = {"axis", "degrees", NULL};
    icJsonPath p = icJsonPath_Key(path, "rotate");
    icResult e;
    if ((e = icSceneReader_CheckObject(r, rotate, p.text, keys)) != IC_OK) return e;
    if ((e = icSceneReader_Vec3(r, rotate, p.text, "axis", true, axis)) != IC_OK) return e;
    return icSceneReader_Number(r, rotate, p.text, "degrees", IC_RANGE_ANY, degrees);
}

icResult icScene_ReadTrack(const icSceneReader *r, const cJSON *item, const char *path,
                           icVec3 defaultPivot, icRigidTrack *track, icRigidKey **keys) {
    static const char *const trackKeys[] = {"pivot", "loop", "keys", NULL};
    static const char *const keyKeys[] = {"time", "translate", "rotate", NULL};
    *track = icDefaultRigidTrack();
    *keys = NULL;
    track->pivot = defaultPivot;
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, trackKeys)) != IC_OK) return e;
    if ((e = icSceneReader_Vec3(r, item, path, "pivot", false, &track->pivot)) != IC_OK) return e;
    if ((e = icSceneReader_Bool(r, item, path, "loop", &track->loop)) != IC_OK) return e;
    const cJSON *list;
    if ((e = icSceneReader_Require(r, item, path, "keys", &list)) != IC_OK) return e;
    icJsonPath listPath = icJsonPath_Key(path, "keys");
    int count = cJSON_GetArraySize(list);
    if (!cJSON_IsArray(list) || count < 1)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, list, listPath.text,
                                  "expected an array of at least one key");
    *keys = IC_ALLOC(icRigidKey, count);
    if (!*keys) return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, list, listPath.text, "out of memory");
    int i = 0;
    for (const cJSON *k = list->child; k; k = k->next, ++i) {
        icJsonPath kp = icJsonPath_Index(listPath.text, i);
        icRigidKey *key = &(*keys)[i];
        *key = icDefaultRigidKey();
        const cJSON *member;
        if ((e = icSceneReader_CheckObject(r, k, kp.text, keyKeys)) != IC_OK ||
            (e = icSceneReader_Require(r, k, kp.text, "time", &member)) != IC_OK ||
            (e = icSceneReader_Number(r, k, kp.text, "time", IC_RANGE_ANY, &key->time)) != IC_OK ||
            (e = icSceneReader_Vec3(r, k, kp.text, "translate", false, &key->translation)) != IC_OK ||
            (e = icScene_ReadRotate(r, k, kp.text, &key->axis, &key->degrees)) != IC_OK)
            return e;
        if (i > 0 && !(key->time >= (*keys)[i - 1].time))
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, member, icJsonPath_Key(kp.text, "time").text,
                                      "%g is before the previous key's %g", key->time,
                                      (*keys)[i - 1].time);
    }
    if (track->loop && !((*keys)[count - 1].time > (*keys)[0].time))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, list, listPath.text,
                                  "a looping motion needs keys at two different times");
    track->keys = *keys;
    track->keyCount = count;
    return IC_OK;
}

static icResult readPlane(const icSceneReader *r, const cJSON *item, const char *path,
                          icWorld *world) {
    static const char *const keys[] = {"normal", "offset", "friction", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    icPlaneDef def = icDefaultPlaneDef();
    if ((e = icSceneReader_Vec3(r, item, path, "normal", true, &def.normal)) != IC_OK) return e;
    if ((e = icSceneReader_Number(r, item, path, "offset", IC_RANGE_ANY, &def.offset)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "friction", IC_RANGE_NON_NEGATIVE,
                                  &def.friction)) != IC_OK)
        return e;
    e = icWorld_AddPlane(world, &def);
    if (e != IC_OK)
        return icSceneReader_Fail(r, e, item, path, "the world refused the plane (%s)",
                                  icResult_Message(e));
    return IC_OK;
}

// A surface file as a mesh collider: scaled about the origin, then translated.
static icResult readMeshFile(const icSceneReader *r, const cJSON *item, const char *path,
                             icTriSurface *surface) {
    const char *file = NULL;
    icResult e;
    const cJSON *member;
    if ((e = icSceneReader_Require(r, item, path, "file", &member)) != IC_OK ||
        (e = icSceneReader_String(r, item, path, "file", &file)) != IC_OK)
        return e;
    icReal scale = 1;
    icVec3 translate = icVec3_Make(0, 0, 0);
    if ((e = icSceneReader_Number(r, item, path, "scale", IC_RANGE_POSITIVE, &scale)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "translate", false, &translate)) != IC_OK)
        return e;
    char resolved[1024];
    icJsonPath filePath = icJsonPath_Key(path, "file");
    if (!icPath_Join(r->baseDir, file, resolved, sizeof resolved))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, member, filePath.text, "path is too long");
    if ((e = icSceneBudget_NeedSurfaceFile(r, member, filePath.text, resolved, "mesh collider")) !=
        IC_OK)
        return e;
    e = icLoadSurface(resolved, surface, r->diag);
    if (e != IC_OK) {
        if (r->diag) { // keep the surface file's name and line; say which entry asked for it
            size_t used = strlen(r->diag->message);
            snprintf(r->diag->message + used, sizeof r->diag->message - used,
                     " (collider mesh of %s, %s line %d)", filePath.text, r->file,
                     icSceneReader_Line(r, member));
        }
        return e;
    }
    for (int v = 0; v < surface->vertexCount; ++v)
        icVec3_Store(surface->positions, v,
                     icVec3_MulAdd(translate, scale, icVec3_Load(surface->positions, v)));
    return IC_OK;
}

static icResult readShape(const icSceneReader *r, const cJSON *item, const char *path,
                          const char *kind, icWorld *world) {
    static const char *const sphereKeys[] = {"center", "radius", "friction", "static_friction",
                                             "thickness", "motion", NULL};
    static const char *const boxKeys[] = {"center", "size", "rotate", "friction", "static_friction",
                                          "thickness", "motion", NULL};
    static const char *const capsuleKeys[] = {"a", "b", "radius", "friction", "static_friction",
                                              "thickness", "motion", NULL};
    static const char *const meshKeys[] = {"file", "scale", "translate", "friction",
                                           "static_friction", "thickness", "motion", NULL};
    icColliderDef def = icDefaultColliderDef();
    const char *const *keys = sphereKeys;
    if (strcmp(kind, "sphere") == 0) {
        def.shape = IC_COLLIDER_SPHERE;
    } else if (strcmp(kind, "box") == 0) {
        def.shape = IC_COLLIDER_BOX;
        keys = boxKeys;
    } else if (strcmp(kind, "capsule") == 0) {
        def.shape = IC_COLLIDER_CAPSULE;
        keys = capsuleKeys;
    } else {
        def.shape = IC_COLLIDER_MESH;
        keys = meshKeys;
    }
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    const cJSON *member;
    icVec3 pivot = icVec3_Make(0, 0, 0);
    icTriSurface surface;
    memset(&surface, 0, sizeof surface);
    switch (def.shape) {
    case IC_COLLIDER_SPHERE:
        if ((e = icSceneReader_Require(r, item, path, "radius", &member)) != IC_OK ||
            (e = icSceneReader_Vec3(r, item, path, "center", false, &def.centre)) != IC_OK ||
            (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &def.radius)) != IC_OK)
            return e;
        pivot = def.centre;
        break;
    case IC_COLLIDER_BOX: {
        icVec3 size = icVec3_Make(1, 1, 1);
        if ((e = icSceneReader_Require(r, item, path, "size", &member)) != IC_OK ||
            (e = icSceneReader_Vec3(r, item, path, "center", false, &def.centre)) != IC_OK ||
            (e = icSceneReader_Vec3(r, item, path, "size", false, &size)) != IC_OK ||
            (e = icScene_ReadRotate(r, item, path, &def.axis, &def.degrees)) != IC_OK)
            return e;
        if (!(size.x > 0 && size.y > 0 && size.z > 0))
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, member, icJsonPath_Key(path, "size").text,
                                      "every size must be > 0");
        def.halfExtents = icVec3_Scale(0.5, size);
        pivot = def.centre;
        break;
    }
    case IC_COLLIDER_CAPSULE:
        if ((e = icSceneReader_Require(r, item, path, "a", &member)) != IC_OK ||
            (e = icSceneReader_Require(r, item, path, "b", &member)) != IC_OK ||
            (e = icSceneReader_Require(r, item, path, "radius", &member)) != IC_OK ||
            (e = icSceneReader_Vec3(r, item, path, "a", false, &def.a)) != IC_OK ||
            (e = icSceneReader_Vec3(r, item, path, "b", false, &def.b)) != IC_OK ||
            (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &def.radius)) != IC_OK)
            return e;
        pivot = icVec3_Scale(0.5, icVec3_Add(def.a, def.b));
        break;
    case IC_COLLIDER_MESH:
        if ((e = readMeshFile(r, item, path, &surface)) != IC_OK) return e;
        def.vertexCount = surface.vertexCount;
        def.positions = surface.positions;
        def.triangleCount = surface.triangleCount;
        def.triangles = surface.triangles;
        if (surface.vertexCount > 0) {
            icVec3 lo = icVec3_Load(surface.positions, 0), hi = lo;
            for (int v = 1; v < surface.vertexCount; ++v) {
                lo = icVec3_Min(lo, icVec3_Load(surface.positions, v));
                hi = icVec3_Max(hi, icVec3_Load(surface.positions, v));
            }
            pivot = icVec3_Scale(0.5, icVec3_Add(lo, hi));
        }
        break;
    }
    // Static friction defaults to the dynamic coefficient given.
    bool hasStatic = cJSON_GetObjectItemCaseSensitive(item, "static_friction") != NULL;
    icRigidKey *keys2 = NULL;
    if ((e = icSceneReader_Number(r, item, path, "friction", IC_RANGE_NON_NEGATIVE, &def.friction)) == IC_OK) {
        if (!hasStatic) def.staticFriction = def.friction;
        e = icSceneReader_Number(r, item, path, "static_friction", IC_RANGE_NON_NEGATIVE, &def.staticFriction);
    }
    if (e == IC_OK)
        e = icSceneReader_Number(r, item, path, "thickness", IC_RANGE_NON_NEGATIVE, &def.thickness);
    const cJSON *motion = cJSON_GetObjectItemCaseSensitive(item, "motion");
    if (e == IC_OK && motion)
        e = icScene_ReadTrack(r, motion, icJsonPath_Key(path, "motion").text, pivot, &def.track, &keys2);
    if (e == IC_OK) {
        icDiagnostic why;
        memset(&why, 0, sizeof why);
        e = icWorld_AddCollider(world, &def, NULL, &why);
        if (e != IC_OK) e = icSceneReader_Fail(r, e, item, path, "%s", why.message);
    }
    icFree(keys2);
    icTriSurface_Destroy(&surface);
    return e;
}

icResult icScene_ReadColliders(const icSceneReader *r, const cJSON *item, icWorld *world) {
    if (!cJSON_IsArray(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, "colliders",
                                  "expected an array, got %s", icJson_TypeName(item));
    static const char *const kinds[] = {"plane", "sphere", "box", "capsule", "mesh", NULL};
    int i = 0;
    for (const cJSON *c = item->child; c; c = c->next, ++i) {
        icJsonPath path = icJsonPath_Index("colliders", i);
        icResult e = icSceneReader_CheckObject(r, c, path.text, kinds);
        if (e != IC_OK) return e;
        if (cJSON_GetArraySize(c) != 1)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, c, path.text,
                                      "a collider is an object with exactly one key (its kind: "
                                      "plane, sphere, box, capsule or mesh)");
        icJsonPath shapePath = icJsonPath_Key(path.text, c->child->string);
        if (!cJSON_IsObject(c->child))
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, c->child, shapePath.text,
                                      "expected an object, got %s", icJson_TypeName(c->child));
        e = strcmp(c->child->string, "plane") == 0
                ? readPlane(r, c->child, shapePath.text, world)
                : readShape(r, c->child, shapePath.text, c->child->string, world);
        if (e != IC_OK) return e;
    }
    return IC_OK;
}

icResult icScene_ReadContact(const icSceneReader *r, const cJSON *item, icWorld *world) {
    static const char *const keys[] = {"bodies", "self", "thickness", "friction",
                                       "static_friction", "rest_exclusion", NULL};
    const char *path = "contact";
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    icContactDef def = icDefaultContactDef();
    def.bodyContact = true; // a "contact" object switches contact between bodies on
    if ((e = icSceneReader_Bool(r, item, path, "bodies", &def.bodyContact)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "self", &def.selfContact)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "thickness", IC_RANGE_POSITIVE, &def.thickness)) != IC_OK)
        return e;
    bool hasStatic = cJSON_GetObjectItemCaseSensitive(item, "static_friction") != NULL;
    bool hasExclusion = cJSON_GetObjectItemCaseSensitive(item, "rest_exclusion") != NULL;
    if ((e = icSceneReader_Number(r, item, path, "friction", IC_RANGE_NON_NEGATIVE, &def.friction)) != IC_OK)
        return e;
    if (!hasStatic) def.staticFriction = def.friction;
    if (!hasExclusion) def.restExclusion = 1.5 * def.thickness;
    if ((e = icSceneReader_Number(r, item, path, "static_friction", IC_RANGE_NON_NEGATIVE,
                                  &def.staticFriction)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "rest_exclusion", IC_RANGE_POSITIVE,
                                  &def.restExclusion)) != IC_OK)
        return e;
    if (def.restExclusion < def.thickness)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, cJSON_GetObjectItemCaseSensitive(item, "rest_exclusion"),
                                  "contact.rest_exclusion", "%g is below the thickness %g",
                                  def.restExclusion, def.thickness);
    e = icWorld_SetContactDef(world, &def);
    if (e == IC_ERR_UNSUPPORTED)
        return icSceneReader_Fail(r, e, item, path,
                                  "contact between bodies needs the XPBD solver");
    if (e != IC_OK) return icSceneReader_Fail(r, e, item, path, "%s", icResult_Message(e));
    return IC_OK;
}
