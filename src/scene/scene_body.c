// SPDX-License-Identifier: MIT
// Scene bodies: material, initial conditions, pins and prescribed motions; bones, attachments
// and the render surface come from scene_bones.c.
#include "scene/scene_budget.h"
#include "scene/scene_contact.h"
#include "scene/scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static icResult readMaterial(const icSceneReader *r, const cJSON *item, const char *path,
                             icSoftBodyDef *def) {
    static const char *const keys[] = {"model", "youngs_modulus", "poisson_ratio", "density",
                                       "damping", NULL};
    // In icMaterialModel order.
    static const char *const models[IC_MATERIAL_COUNT_] = {
        "mm", "linear", "stvk", "corotated", "neohookean", "snh", "snh2018"};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    int model = (int)def->model;
    if ((e = icSceneReader_Enum(r, item, path, "model", models, IC_MATERIAL_COUNT_, &model)) !=
        IC_OK)
        return e;
    def->model = (icMaterialModel)model;
    if ((e = icSceneReader_Number(r, item, path, "youngs_modulus",
                                  (icRange){0, IC_SCENE_MAX_MODULUS, true, false},
                                  &def->youngsModulus)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "poisson_ratio", (icRange){0, 0.5, false, false},
                                  &def->poissonRatio)) != IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "density",
                                  (icRange){0, IC_SCENE_MAX_DENSITY, true, false},
                                  &def->density)) != IC_OK)
        return e;
    return icSceneReader_Number(r, item, path, "damping", IC_RANGE_NON_NEGATIVE, &def->damping);
}

static icResult readScramble(const icSceneReader *r, const cJSON *item, const char *path,
                             icSceneBody *body) {
    static const char *const keys[] = {"normal", "seed", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    body->scramble = true;
    body->scrambleNormal = icVec3_Make(0, 1, 0);
    body->scrambleSeed = 1;
    if ((e = icSceneReader_Vec3(r, item, path, "normal", true, &body->scrambleNormal)) != IC_OK)
        return e;
    return icSceneReader_Seed(r, item, path, "seed", &body->scrambleSeed);
}

static icResult readMotion(const icSceneReader *r, const cJSON *item, const char *path,
                           icMotion *motion) {
    static const char *const keys[] = {"translate", "rotate", "start", "end", NULL};
    static const char *const rotateKeys[] = {"axis", "center", "degrees_per_second", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    *motion = icDefaultMotion();
    if ((e = icSceneReader_Vec3(r, item, path, "translate", false, &motion->velocity)) != IC_OK)
        return e;
    const cJSON *rotate = cJSON_GetObjectItemCaseSensitive(item, "rotate");
    if (rotate) {
        icJsonPath p = icJsonPath_Key(path, "rotate");
        if ((e = icSceneReader_CheckObject(r, rotate, p.text, rotateKeys)) != IC_OK) return e;
        if ((e = icSceneReader_Vec3(r, rotate, p.text, "axis", true, &motion->axis)) != IC_OK)
            return e;
        if ((e = icSceneReader_Vec3(r, rotate, p.text, "center", false, &motion->centre)) != IC_OK)
            return e;
        if ((e = icSceneReader_Number(r, rotate, p.text, "degrees_per_second", IC_RANGE_ANY,
                                      &motion->degreesPerSecond)) != IC_OK)
            return e;
    }
    if ((e = icSceneReader_Number(r, item, path, "start", IC_RANGE_NON_NEGATIVE, &motion->start)) !=
        IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "end", IC_RANGE_NON_NEGATIVE, &motion->end)) !=
        IC_OK)
        return e;
    if (motion->end < motion->start) {
        icJsonPath p = icJsonPath_Key(path, "end");
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, cJSON_GetObjectItemCaseSensitive(item, "end"),
                                  p.text, "%g is before start %g", motion->end, motion->start);
    }
    return IC_OK;
}

static icResult readPin(const icSceneReader *r, const cJSON *item, const char *path,
                        icPinDef *def) {
    static const char *const keys[] = {"box", "axes", "motion", NULL};
    static const char *const boxKeys[] = {"min", "max", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    *def = icDefaultPinDef();

    const cJSON *box, *member;
    if ((e = icSceneReader_Require(r, item, path, "box", &box)) != IC_OK) return e;
    icJsonPath boxPath = icJsonPath_Key(path, "box");
    if ((e = icSceneReader_CheckObject(r, box, boxPath.text, boxKeys)) != IC_OK) return e;
    if ((e = icSceneReader_Require(r, box, boxPath.text, "min", &member)) != IC_OK) return e;
    if ((e = icSceneReader_Require(r, box, boxPath.text, "max", &member)) != IC_OK) return e;
    if ((e = icSceneReader_Vec3(r, box, boxPath.text, "min", false, &def->boxMin)) != IC_OK)
        return e;
    if ((e = icSceneReader_Vec3(r, box, boxPath.text, "max", false, &def->boxMax)) != IC_OK)
        return e;
    for (int k = 0; k < 3; ++k)
        if (icVec3_Get(def->boxMin, k) > icVec3_Get(def->boxMax, k))
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, box, boxPath.text,
                                      "min is above max on axis %c", "xyz"[k]);

    const cJSON *axes = cJSON_GetObjectItemCaseSensitive(item, "axes");
    if (axes) {
        icJsonPath p = icJsonPath_Key(path, "axes");
        if (!cJSON_IsArray(axes) || cJSON_GetArraySize(axes) != 3)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, axes, p.text,
                                      "expected an array of 3 booleans");
        int k = 0;
        for (const cJSON *a = axes->child; a; a = a->next, ++k) {
            if (!cJSON_IsBool(a)) {
                icJsonPath ap = icJsonPath_Index(p.text, k);
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, a, ap.text,
                                          "expected true or false, got %s", icJson_TypeName(a));
            }
            def->axes[k] = cJSON_IsTrue(a);
        }
    }

    const cJSON *motion = cJSON_GetObjectItemCaseSensitive(item, "motion");
    if (motion) {
        icJsonPath p = icJsonPath_Key(path, "motion");
        if (cJSON_IsArray(motion)) {
            int count = cJSON_GetArraySize(motion);
            if (count < 1 || count > IC_MAX_MOTIONS)
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, motion, p.text,
                                          "%d segments; a pin has 1 to %d", count, IC_MAX_MOTIONS);
            int k = 0;
            for (const cJSON *m = motion->child; m; m = m->next, ++k) {
                icJsonPath mp = icJsonPath_Index(p.text, k);
                if ((e = readMotion(r, m, mp.text, &def->motions[k])) != IC_OK) return e;
            }
            def->motionCount = count;
        } else {
            if ((e = readMotion(r, motion, p.text, &def->motions[0])) != IC_OK) return e;
            def->motionCount = 1;
        }
    }
    return IC_OK;
}

static icResult readPins(const icSceneReader *r, const cJSON *item, const char *path,
                         icWorld *world, icBodyId id, int *pinnedTotal) {
    if (!cJSON_IsArray(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "expected an array, got %s",
                                  icJson_TypeName(item));
    int i = 0;
    for (const cJSON *p = item->child; p; p = p->next, ++i) {
        icJsonPath pinPath = icJsonPath_Index(path, i);
        icPinDef def;
        icResult e = readPin(r, p, pinPath.text, &def);
        if (e != IC_OK) return e;
        int pinned = 0;
        e = icBody_AddPin(world, id, &def, &pinned);
        *pinnedTotal += pinned;
        if (e != IC_OK)
            return icSceneReader_Fail(r, e, p, pinPath.text, "the world refused the pin (%s)",
                                      icResult_Message(e));
        // A box that catches nothing is almost always a box in the wrong place.
        if (pinned == 0) {
            icJsonPath boxPath = icJsonPath_Key(pinPath.text, "box");
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE,
                                      cJSON_GetObjectItemCaseSensitive(p, "box"), boxPath.text,
                                      "the box holds no vertex of the body");
        }
    }
    return IC_OK;
}

static icResult readBody(const icSceneReader *r, const cJSON *item, const char *path,
                         icScene *scene, int index, icSceneBones *bones) {
    static const char *const keys[] = {"mesh",  "material", "rotate", "translate",
                                       "velocity", "scramble", "pin",    "bones",
                                       "attach", "render_surface", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    icSceneBody *body = &scene->bodies[index];
    memset(body, 0, sizeof *body);

    // Everything cheap is checked before the mesh is built or loaded.
    icSoftBodyDef def = icDefaultSoftBodyDef();
    const cJSON *material = cJSON_GetObjectItemCaseSensitive(item, "material");
    if (material) {
        icJsonPath p = icJsonPath_Key(path, "material");
        if ((e = readMaterial(r, material, p.text, &def)) != IC_OK) return e;
    }
    icVec3 axis = icVec3_Make(0, 1, 0);
    icReal degrees = 0;
    if ((e = icScene_ReadRotate(r, item, path, &axis, &degrees)) != IC_OK) return e;
    if (!(icVec3_Length(axis) > 0)) {
        const cJSON *rotate = cJSON_GetObjectItemCaseSensitive(item, "rotate");
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE,
                                  cJSON_GetObjectItemCaseSensitive(rotate, "axis"),
                                  icJsonPath_Key(path, "rotate.axis").text,
                                  "the rotation axis must have a length > 0");
    }
    if ((e = icSceneReader_Vec3Within(r, item, path, "translate", IC_SCENE_MAX_LENGTH,
                                        &def.translation)) != IC_OK)
        return e;
    if ((e = icSceneReader_Vec3(r, item, path, "velocity", false, &def.velocity)) != IC_OK)
        return e;
    const cJSON *scramble = cJSON_GetObjectItemCaseSensitive(item, "scramble");
    if (scramble) {
        icJsonPath p = icJsonPath_Key(path, "scramble");
        if ((e = readScramble(r, scramble, p.text, body)) != IC_OK) return e;
    }
    const cJSON *pins = cJSON_GetObjectItemCaseSensitive(item, "pin");
    if (pins) {
        // Shape check only; the pins are added once the body exists.
        icJsonPath p = icJsonPath_Key(path, "pin");
        if (!cJSON_IsArray(pins))
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, pins, p.text,
                                      "expected an array, got %s", icJson_TypeName(pins));
        int i = 0;
        for (const cJSON *pin = pins->child; pin; pin = pin->next, ++i) {
            icJsonPath pp = icJsonPath_Index(p.text, i);
            icPinDef pinDef;
            if ((e = readPin(r, pin, pp.text, &pinDef)) != IC_OK) return e;
        }
    }

    const cJSON *meshItem;
    if ((e = icSceneReader_Require(r, item, path, "mesh", &meshItem)) != IC_OK) return e;
    // Bones go into the world first: a tissue mesh is carved around them.
    const cJSON *boneList = cJSON_GetObjectItemCaseSensitive(item, "bones");
    if (boneList &&
        (e = icScene_ReadBones(r, boneList, icJsonPath_Key(path, "bones").text, scene->world, bones)) != IC_OK)
        return e;
    const cJSON *attach = cJSON_GetObjectItemCaseSensitive(item, "attach");
    if (attach && (e = icScene_CheckAttach(r, attach, icJsonPath_Key(path, "attach").text, bones)) != IC_OK)
        return e;
    icJsonPath meshPath = icJsonPath_Key(path, "mesh");
    icTetMesh mesh;
    e = icScene_IsTissueMesh(meshItem) ? icScene_ReadTissueMesh(r, meshItem, meshPath.text, bones, &mesh)
                                       : icScene_ReadMesh(r, meshItem, meshPath.text, &mesh);
    if (e != IC_OK) return e;
    // "rotate" turns the mesh about the origin of its own coordinates, before "translate".
    if (degrees != 0) {
        icMat3 R = icMat3_Rotation(icVec3_Normalize(axis), degrees * (3.14159265358979323846 / 180));
        for (int v = 0; v < mesh.vertexCount; ++v)
            icVec3_Store(mesh.positions, v, icMat3_MulVec(R, icVec3_Load(mesh.positions, v)));
    }

    // The body's model, state and solver workspaces must fit what is left of the budget.
    int64_t bodyBytes =
        icSceneBudget_BodyBytes(r->budget ? r->budget->solver : IC_SOLVER_XPBD,
                                r->budget ? r->budget->workers : 1, mesh.vertexCount, mesh.tetCount);
    char what[160];
    snprintf(what, sizeof what, "the body's mesh of %d tets and %d vertices", mesh.tetCount,
             mesh.vertexCount);
    if ((e = icSceneBudget_Need(r, meshItem, meshPath.text, bodyBytes, what)) != IC_OK) {
        icTetMesh_Destroy(&mesh);
        return e;
    }
    icDiagnostic bodyDiag;
    memset(&bodyDiag, 0, sizeof bodyDiag);
    e = icWorld_CreateSoftBody(scene->world, &mesh, &def, &body->id, &bodyDiag);
    if (e == IC_OK) icSceneBudget_Charge(r, bodyBytes);
    body->material = def;
    icTetMesh_Destroy(&mesh);
    if (e != IC_OK) {
        // A refused model is the model key's fault, nu = 0.5 under the force-based solver (or
        // nu = 0 for the mm energy) the poisson_ratio key's; anything else is the body's.
        const cJSON *at = item;
        const char *atPath = path;
        icJsonPath modelPath = icJsonPath_Key(path, "material.model");
        icJsonPath nuPath = icJsonPath_Key(path, "material.poisson_ratio");
        const cJSON *model = material ? cJSON_GetObjectItemCaseSensitive(material, "model") : NULL;
        const cJSON *nu =
            material ? cJSON_GetObjectItemCaseSensitive(material, "poisson_ratio") : NULL;
        if (e == IC_ERR_UNSUPPORTED && model) {
            at = model;
            atPath = modelPath.text;
        } else if (e == IC_ERR_BAD_VALUE && nu && (def.poissonRatio >= 0.5 || def.poissonRatio <= 0)) {
            at = nu;
            atPath = nuPath.text;
        }
        const char *why = bodyDiag.message[0] ? bodyDiag.message : icResult_Message(e);
        return icSceneReader_Fail(r, e, at, atPath, "%s", why);
    }
    if (pins) {
        icJsonPath pinPath = icJsonPath_Key(path, "pin");
        if ((e = readPins(r, pins, pinPath.text, scene->world, body->id, &body->pinnedVertices)) !=
            IC_OK)
            return e;
    }
    if (attach && (e = icScene_ReadAttach(r, attach, icJsonPath_Key(path, "attach").text,
                                          scene->world, body->id, bones)) != IC_OK)
        return e;
    body->attached = attach != NULL;
    const cJSON *render = cJSON_GetObjectItemCaseSensitive(item, "render_surface");
    if (render && (e = icScene_ReadRenderSurface(r, render, icJsonPath_Key(path, "render_surface").text,
                                                 scene->world, body->id, def.translation, bones)) != IC_OK)
        return e;
    return IC_OK;
}

icResult icScene_ReadBody(const icSceneReader *r, const cJSON *item, const char *path,
                          icScene *scene, int index) {
    icSceneBones bones;
    memset(&bones, 0, sizeof bones);
    icResult e = readBody(r, item, path, scene, index, &bones);
    icSceneBones_Destroy(&bones);
    return e;
}
