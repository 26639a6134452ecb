// SPDX-License-Identifier: MIT
// The scene key "rods": VIPER rods, bundles, octopuses, pillars and viperized muscles in a rod
// world that runs beside the tet world (docs/viper.md lists every key).
#include "scene/scene_budget.h"
#include "scene/scene_rods.h"
#include "isochor/formats.h"

#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define IC_ROD_MAX_POINTS 100000
// Segments of one procedural octopus (icRodWorld_AddOctopus: 38 spheres, 37 pills).
#define IC_OCTOPUS_SEGMENTS 37

// "solver": settings of the rod world.
static icResult readSolver(const icSceneReader *r, const cJSON *item, const char *path,
                           icRodWorldDef *d) {
    static const char *const keys[] = {
        "substeps",         "iterations",        "collision_only_odd_passes",
        "velocity_damping", "bend_damping",      "min_radius",
        "collision_margin", "search_iterations", "radius_coupling",
        "scaled_bending",   "radius_model",      "bundle_projection",
        "reference_quirks", "workers",           NULL};
    static const char *const models[] = {"viper", "bergou"};
    static const char *const projections[] = {"averaged", "post"};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    if ((e = icSceneReader_Int(r, item, path, "substeps", 1, 1000, &d->substeps)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "iterations", 1, 100000, &d->iterations)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "collision_only_odd_passes",
                                &d->collisionOnlyOddPasses)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "velocity_damping", (icRange){0, 1, true, false},
                                  &d->velocityDamping)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "bend_damping", (icRange){0, 1, false, true},
                                  &d->bendDamping)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "min_radius", IC_RANGE_NON_NEGATIVE,
                                  &d->minRadius)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "collision_margin", IC_RANGE_NON_NEGATIVE,
                                  &d->collisionMargin)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "search_iterations", 1, 1000,
                               &d->searchIterations)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius_coupling", (icRange){0, 1, false, false},
                                  &d->radiusCoupling)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "scaled_bending", &d->scaledBending)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "reference_quirks", &d->referenceQuirks)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "workers", 0, IC_MAX_WORKERS, &d->workerCount)) !=
            IC_OK)
        return e;
    int model = (int)d->radiusModel, projection = (int)d->bundleProjection;
    if ((e = icSceneReader_Enum(r, item, path, "radius_model", models, 2, &model)) != IC_OK ||
        (e = icSceneReader_Enum(r, item, path, "bundle_projection", projections, 2, &projection)) !=
            IC_OK)
        return e;
    d->radiusModel = (icRodRadiusModel)model;
    d->bundleProjection = (icRodBundleProjection)projection;
    return IC_OK;
}

// "material": a preset, then any constraint switch or compliance.
static icResult readMaterial(const icSceneReader *r, const cJSON *obj, const char *parent,
                             icRodDef *d) {
    *d = icDefaultRodDef();
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, "material");
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(parent, "material");
    const char *path = p.text;
    static const char *const keys[] = {"preset",
                                       "density",
                                       "youngs_modulus",
                                       "shear_modulus",
                                       "stretch_shear",
                                       "bend_twist",
                                       "radius_spring",
                                       "scale_smoothing",
                                       "bilaplacian",
                                       "volume",
                                       "stretch_compliance",
                                       "bend_compliance",
                                       "twist_compliance",
                                       "radius_compliance",
                                       "scale_smoothing_compliance",
                                       "bilaplacian_compliance",
                                       "volume_compliance",
                                       "collide",
                                       NULL};
    static const char *const presets[] = {"rod", "pill_object"};
    static const char *const volumes[] = {"none", "midpoint", "pill"};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    int preset = 0;
    if ((e = icSceneReader_Enum(r, item, path, "preset", presets, 2, &preset)) != IC_OK) return e;
    if (preset == 1) *d = icPillObjectRodDef();
    int volume = (int)d->volume;
    if ((e = icSceneReader_Number(r, item, path, "density", IC_RANGE_POSITIVE, &d->density)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "youngs_modulus", IC_RANGE_NON_NEGATIVE,
                                  &d->youngsModulus)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "shear_modulus", IC_RANGE_POSITIVE,
                                  &d->shearModulus)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "stretch_shear", &d->stretchShear)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "bend_twist", &d->bendTwist)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "radius_spring", &d->radiusSpring)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "scale_smoothing", &d->scaleSmoothing)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "bilaplacian", &d->scaleBilaplacian)) != IC_OK ||
        (e = icSceneReader_Enum(r, item, path, "volume", volumes, 3, &volume)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "stretch_compliance", IC_RANGE_NON_NEGATIVE,
                                  &d->stretchCompliance)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "bend_compliance", IC_RANGE_NON_NEGATIVE,
                                  &d->bendCompliance)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "twist_compliance", IC_RANGE_NON_NEGATIVE,
                                  &d->twistCompliance)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius_compliance", IC_RANGE_NON_NEGATIVE,
                                  &d->radiusCompliance)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "scale_smoothing_compliance",
                                  IC_RANGE_NON_NEGATIVE, &d->scaleSmoothingCompliance)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "bilaplacian_compliance", IC_RANGE_NON_NEGATIVE,
                                  &d->bilaplacianCompliance)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "volume_compliance", IC_RANGE_NON_NEGATIVE,
                                  &d->volumeCompliance)) != IC_OK ||
        (e = icSceneReader_Bool(r, item, path, "collide", &d->collide)) != IC_OK)
        return e;
    d->volume = (icRodVolume)volume;
    return IC_OK;
}

// One motion segment (same keys as a tet body's pin motion, docs/scenes.md).
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
        if ((e = icSceneReader_CheckObject(r, rotate, p.text, rotateKeys)) != IC_OK ||
            (e = icSceneReader_Vec3(r, rotate, p.text, "axis", true, &motion->axis)) != IC_OK ||
            (e = icSceneReader_Vec3(r, rotate, p.text, "center", false, &motion->centre)) !=
                IC_OK ||
            (e = icSceneReader_Number(r, rotate, p.text, "degrees_per_second", IC_RANGE_ANY,
                                      &motion->degreesPerSecond)) != IC_OK)
            return e;
    }
    if ((e = icSceneReader_Number(r, item, path, "start", IC_RANGE_NON_NEGATIVE, &motion->start)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "end", IC_RANGE_NON_NEGATIVE, &motion->end)) !=
            IC_OK)
        return e;
    if (motion->end < motion->start) {
        icJsonPath p = icJsonPath_Key(path, "end");
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE,
                                  cJSON_GetObjectItemCaseSensitive(item, "end"), p.text,
                                  "%g is before start %g", motion->end, motion->start);
    }
    return IC_OK;
}

// "motion": one segment or an array of 1 to IC_MAX_MOTIONS; makes a bone (-1 when absent).
static icResult readBone(const icSceneReader *r, const cJSON *obj, const char *parent,
                         icRodWorld *w, int *bone) {
    *bone = -1;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, "motion");
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(parent, "motion");
    icMotion motions[IC_MAX_MOTIONS];
    int count = 0;
    icResult e;
    if (cJSON_IsArray(item)) {
        int n = cJSON_GetArraySize(item);
        if (n < 1 || n > IC_MAX_MOTIONS)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                      "%d segments; a motion has 1 to %d", n, IC_MAX_MOTIONS);
        for (const cJSON *m = item->child; m; m = m->next, ++count) {
            icJsonPath mp = icJsonPath_Index(p.text, count);
            if ((e = readMotion(r, m, mp.text, &motions[count])) != IC_OK) return e;
        }
    } else {
        if ((e = readMotion(r, item, p.text, &motions[0])) != IC_OK) return e;
        count = 1;
    }
    e = icRodWorld_AddBone(w, motions, count, bone);
    if (e != IC_OK)
        return icSceneReader_Fail(r, e, item, p.text, "the rod world refused the motion");
    return IC_OK;
}

// "pin": [{"vertices": [0, -1], "hold_radius": false, "motion": ...}] for the rods
// [firstRod, firstRod + rodCount): vertex indices per rod, negative ones from its end.
static icResult readPins(const icSceneReader *r, const cJSON *obj, const char *parent,
                         icRodWorld *w, int firstRod, int rodCount) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, "pin");
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(parent, "pin");
    if (!cJSON_IsArray(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text, "expected an array, got %s",
                                  icJson_TypeName(item));
    static const char *const keys[] = {"vertices", "hold_radius", "motion", NULL};
    int i = 0;
    icResult e;
    for (const cJSON *pin = item->child; pin; pin = pin->next, ++i) {
        icJsonPath pp = icJsonPath_Index(p.text, i);
        if ((e = icSceneReader_CheckObject(r, pin, pp.text, keys)) != IC_OK) return e;
        const cJSON *verts;
        if ((e = icSceneReader_Require(r, pin, pp.text, "vertices", &verts)) != IC_OK) return e;
        icJsonPath vp = icJsonPath_Key(pp.text, "vertices");
        if (!cJSON_IsArray(verts) || cJSON_GetArraySize(verts) < 1)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, verts, vp.text,
                                      "expected a non-empty array of vertex indices");
        bool hold = false;
        if ((e = icSceneReader_Bool(r, pin, pp.text, "hold_radius", &hold)) != IC_OK) return e;
        int bone;
        if ((e = readBone(r, pin, pp.text, w, &bone)) != IC_OK) return e;
        int k = 0;
        for (const cJSON *v = verts->child; v; v = v->next, ++k) {
            icJsonPath ip = icJsonPath_Index(vp.text, k);
            double value;
            if ((e = icSceneReader_NumberItem(r, v, ip.text, IC_RANGE_ANY, &value)) != IC_OK)
                return e;
            for (int rod = firstRod; rod < firstRod + rodCount; ++rod) {
                icRodRange range = icRodWorld_GetRod(w, rod);
                int local = (int)value;
                if (local != value || local >= range.vertexCount || local < -range.vertexCount)
                    return icSceneReader_Fail(r, IC_ERR_INDEX_OUT_OF_RANGE, v, ip.text,
                                              "%g is not a vertex of a rod of %d vertices", value,
                                              range.vertexCount);
                if (local < 0) local += range.vertexCount;
                icRodWorld_PinVertex(w, range.vertexStart + local, bone, hold);
            }
        }
    }
    return IC_OK;
}

// Refuses rods of `segments` segments that would not fit the load's memory budget, before
// they are built, and counts them against it (icSceneBudget_RodBytes).
static icResult needSegments(const icSceneReader *r, const cJSON *item, const char *path,
                             int64_t segments) {
    char what[64];
    snprintf(what, sizeof what, "%lld rod segments", (long long)segments);
    int64_t bytes = icSceneBudget_RodBytes(segments);
    icResult e = icSceneBudget_Need(r, item, path, bytes, what);
    if (e == IC_OK) icSceneBudget_Charge(r, bytes);
    return e;
}

static icResult rodFail(const icSceneReader *r, const cJSON *item, const char *path,
                        const icDiagnostic *inner, icResult e) {
    return icSceneReader_Fail(r, e, item, path, "%s",
                              inner->message[0] ? inner->message : icResult_Message(e));
}

// An array of vec3s or numbers with `count` entries (count < 0: any count >= 2).
static icResult readArray(const icSceneReader *r, const cJSON *obj, const char *parent,
                          const char *key, int width, int *count, icReal **out, icRange range) {
    *out = NULL;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(parent, key);
    int n = cJSON_IsArray(item) ? cJSON_GetArraySize(item) : -1;
    if (n < 1 || n > IC_ROD_MAX_POINTS || (*count >= 0 && n != *count)) {
        if (*count >= 0)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                      "expected an array of %d entries", *count);
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                  "expected an array of 1 to %d entries", IC_ROD_MAX_POINTS);
    }
    icReal *a = IC_ALLOC(icReal, (size_t)n * width);
    if (!a) return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, item, p.text, "out of memory");
    int i = 0;
    icResult e = IC_OK;
    for (const cJSON *c = item->child; c && e == IC_OK; c = c->next, ++i) {
        icJsonPath cp = icJsonPath_Index(p.text, i);
        if (width == 1) {
            double v;
            e = icSceneReader_NumberItem(r, c, cp.text, range, &v);
            a[i] = v;
        } else {
            if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) != width) {
                e = icSceneReader_Fail(r, IC_ERR_BAD_VALUE, c, cp.text,
                                       "expected an array of %d numbers", width);
                break;
            }
            int k = 0;
            for (const cJSON *x = c->child; x && e == IC_OK; x = x->next, ++k) {
                icJsonPath xp = icJsonPath_Index(cp.text, k);
                double v;
                e = icSceneReader_NumberItem(r, x, xp.text, range, &v);
                a[width * i + k] = v;
            }
        }
    }
    if (e != IC_OK) {
        icFree(a);
        return e;
    }
    *count = n;
    *out = a;
    return IC_OK;
}

static icResult readRod(const icSceneReader *r, const cJSON *item, const char *path,
                        icRodWorld *w) {
    static const char *const keys[] = {"points",   "radius",   "radii", "masses", "segments",
                                       "velocity", "material", "pin",   "group",  NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    const cJSON *member;
    if ((e = icSceneReader_Require(r, item, path, "points", &member)) != IC_OK) return e;
    icRodDef d;
    if ((e = readMaterial(r, item, path, &d)) != IC_OK) return e;
    int n = -1, nr, nm, ns = -1;
    icReal *pts = NULL, *radii = NULL, *masses = NULL, *segs = NULL;
    if ((e = readArray(r, item, path, "points", 3, &n, &pts, IC_RANGE_ANY)) != IC_OK) return e;
    nr = nm = n;
    int *segInts = NULL;
    if ((e = readArray(r, item, path, "radii", 1, &nr, &radii, IC_RANGE_POSITIVE)) == IC_OK &&
        (e = readArray(r, item, path, "masses", 1, &nm, &masses, IC_RANGE_POSITIVE)) == IC_OK &&
        (e = readArray(r, item, path, "segments", 2, &ns, &segs,
                       (icRange){0, n - 1, false, false})) == IC_OK &&
        (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &d.radius)) ==
            IC_OK &&
        (e = icSceneReader_Vec3(r, item, path, "velocity", false, &d.velocity)) == IC_OK &&
        (e = icSceneReader_Int(r, item, path, "group", 0, 1000000, &d.group)) == IC_OK) {
        if (segs) {
            segInts = IC_ALLOC(int, 2 * (size_t)ns);
            if (!segInts) e = IC_ERR_OUT_OF_MEMORY;
            for (int i = 0; segInts && i < 2 * ns; ++i) segInts[i] = (int)segs[i];
        }
        if (e == IC_OK && n < 2)
            e = icSceneReader_Fail(r, IC_ERR_BAD_VALUE, member, path, "a rod needs 2 points");
        if (e == IC_OK) {
            d.vertexCount = n;
            d.positions = pts;
            d.radii = radii;
            d.masses = masses;
            d.segments = segInts;
            d.segmentCount = segInts ? ns : 0;
            icDiagnostic inner = {0};
            int rod;
            e = icRodWorld_AddRod(w, &d, &rod, &inner);
            if (e != IC_OK)
                e = rodFail(r, item, path, &inner, e);
            else
                e = readPins(r, item, path, w, rod, 1);
        }
    }
    icFree(pts);
    icFree(radii);
    icFree(masses);
    icFree(segs);
    icFree(segInts);
    return e;
}

// "radius_velocity": {"vertices": [i, ...], "value": v}: an initial radial velocity (m/s) of
// some vertices, e.g. a squeeze or the start of a volume shockwave.
static icResult readRadiusVelocity(const icSceneReader *r, const cJSON *obj, const char *parent,
                                   icRodWorld *w, int rod) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, "radius_velocity");
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(parent, "radius_velocity");
    static const char *const keys[] = {"vertices", "value", NULL};
    icResult e;
    const cJSON *m;
    icReal value = 0;
    if ((e = icSceneReader_CheckObject(r, item, p.text, keys)) != IC_OK ||
        (e = icSceneReader_Require(r, item, p.text, "vertices", &m)) != IC_OK ||
        (e = icSceneReader_Number(r, item, p.text, "value", IC_RANGE_ANY, &value)) != IC_OK)
        return e;
    icRodRange range = icRodWorld_GetRod(w, rod);
    int n = -1;
    icReal *vs = NULL;
    if ((e = readArray(r, item, p.text, "vertices", 1, &n, &vs,
                       (icRange){-range.vertexCount, range.vertexCount - 1, false, false})) !=
        IC_OK)
        return e;
    icReal *rdot = icRodWorld_GetRadiusVelocitiesMutable(w);
    for (int i = 0; i < n; ++i) {
        int local = (int)vs[i];
        if (local < 0) local += range.vertexCount;
        rdot[range.vertexStart + local] = value;
    }
    icFree(vs);
    return IC_OK;
}

static icResult readStraight(const icSceneReader *r, const cJSON *item, const char *path,
                             icRodWorld *w) {
    static const char *const keys[] = {"start",    "end",      "segments",
                                       "radius",   "velocity", "radius_velocity",
                                       "material", "pin",      NULL};
    icResult e;
    const cJSON *m;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "start", &m)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "end", &m)) != IC_OK)
        return e;
    icRodDef d;
    icVec3 a, b;
    int segments = 10;
    if ((e = readMaterial(r, item, path, &d)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "start", false, &a)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "end", false, &b)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "segments", 1, IC_ROD_MAX_POINTS, &segments)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &d.radius)) !=
            IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "velocity", false, &d.velocity)) != IC_OK ||
        (e = needSegments(r, item, path, segments)) != IC_OK)
        return e;
    icDiagnostic inner = {0};
    int rod;
    if ((e = icRodWorld_AddStraightRod(w, a, b, segments, &d, &rod, &inner)) != IC_OK)
        return rodFail(r, item, path, &inner, e);
    if ((e = readRadiusVelocity(r, item, path, w, rod)) != IC_OK) return e;
    return readPins(r, item, path, w, rod, 1);
}

static icResult readHelix(const icSceneReader *r, const cJSON *item, const char *path,
                          icRodWorld *w) {
    static const char *const keys[] = {"center", "coil_radius", "pitch",    "turns", "segments",
                                       "radius", "velocity",    "material", "pin",   NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    icRodDef d;
    icVec3 c = icVec3_Make(0, 0, 0);
    icReal coil = 0.5, pitch = 0.2, turns = 3;
    int segments = 60;
    if ((e = readMaterial(r, item, path, &d)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "center", false, &c)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "coil_radius", IC_RANGE_POSITIVE, &coil)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "pitch", IC_RANGE_ANY, &pitch)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "turns", IC_RANGE_POSITIVE, &turns)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "segments", 1, IC_ROD_MAX_POINTS, &segments)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &d.radius)) !=
            IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "velocity", false, &d.velocity)) != IC_OK ||
        (e = needSegments(r, item, path, segments)) != IC_OK)
        return e;
    icDiagnostic inner = {0};
    int rod;
    if ((e = icRodWorld_AddHelix(w, c, coil, pitch, turns, segments, &d, &rod, &inner)) != IC_OK)
        return rodFail(r, item, path, &inner, e);
    return readPins(r, item, path, w, rod, 1);
}

static const char *const s_matchings[] = {"none", "scale_invariant", "rigid"};

// "activation": {"segments": [begin, end], "value": a, "start": t0, "end": t1}.
static icResult readActivation(const icSceneReader *r, const cJSON *obj, const char *parent,
                               icRodWorld *w, int bundle, int segmentCount) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, "activation");
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(parent, "activation");
    static const char *const keys[] = {"segments", "value", "start", "end", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, p.text, keys)) != IC_OK) return e;
    int n = 2;
    icReal *range = NULL;
    icReal value = 0.3, start = 0, end = 0;
    if ((e = readArray(r, item, p.text, "segments", 1, &n, &range,
                       (icRange){0, segmentCount, false, false})) != IC_OK)
        return e;
    int begin = range ? (int)range[0] : 0, stop = range ? (int)range[1] : segmentCount;
    icFree(range);
    if ((e = icSceneReader_Number(r, item, p.text, "value", (icRange){0, 1, false, true},
                                  &value)) != IC_OK ||
        (e = icSceneReader_Number(r, item, p.text, "start", IC_RANGE_NON_NEGATIVE, &start)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, p.text, "end", IC_RANGE_NON_NEGATIVE, &end)) != IC_OK)
        return e;
    if (end < start) end = start;
    e = icRodWorld_SetActivationRamp(w, bundle, begin, stop, value, start, end);
    if (e != IC_OK)
        return icSceneReader_Fail(r, e, item, p.text,
                                  "segments [%d, %d) are not a range of the %d segments", begin,
                                  stop, segmentCount);
    return IC_OK;
}

static icResult readBundle(const icSceneReader *r, const cJSON *item, const char *path,
                           icRodWorld *w) {
    static const char *const keys[] = {"start",      "end",        "rods",     "segments",
                                       "max_radius", "end_radius", "matching", "material",
                                       "pin",        "activation", NULL};
    icResult e;
    const cJSON *m;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "start", &m)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "end", &m)) != IC_OK)
        return e;
    icRodDef d;
    icVec3 a, b;
    int rods = 7, segments = 8, matching = 1;
    icReal maxRadius = 0.1, endRadius = 0.05;
    if ((e = readMaterial(r, item, path, &d)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "start", false, &a)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "end", false, &b)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "rods", 1, IC_ROD_BUNDLE_MAX, &rods)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "segments", 1, IC_ROD_MAX_POINTS, &segments)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "max_radius", IC_RANGE_POSITIVE, &maxRadius)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "end_radius", IC_RANGE_POSITIVE, &endRadius)) !=
            IC_OK ||
        (e = icSceneReader_Enum(r, item, path, "matching", s_matchings, 3, &matching)) != IC_OK ||
        (e = needSegments(r, item, path, (int64_t)rods * segments)) != IC_OK)
        return e;
    icDiagnostic inner = {0};
    int first, bundle;
    if ((e = icRodWorld_AddFusiformBundle(w, a, b, maxRadius, endRadius, rods, segments, &d,
                                          (icRodMatching)matching, &first, &bundle, &inner)) !=
        IC_OK)
        return rodFail(r, item, path, &inner, e);
    if ((e = readPins(r, item, path, w, first, rods)) != IC_OK) return e;
    return readActivation(r, item, path, w, bundle, segments);
}

// A sheet: `rods` parallel straight rods from start (+ k across / (rods - 1)) to end, bundled.
static icResult readSheet(const icSceneReader *r, const cJSON *item, const char *path,
                          icRodWorld *w) {
    static const char *const keys[] = {"start",  "end",      "across",   "rods", "segments",
                                       "radius", "matching", "material", "pin",  NULL};
    icResult e;
    const cJSON *m;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "start", &m)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "end", &m)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "across", &m)) != IC_OK)
        return e;
    icRodDef d;
    icVec3 a, b, across;
    int rods = 5, segments = 20, matching = 1;
    if ((e = readMaterial(r, item, path, &d)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "start", false, &a)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "end", false, &b)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "across", true, &across)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "rods", 1, IC_ROD_BUNDLE_MAX, &rods)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "segments", 1, IC_ROD_MAX_POINTS, &segments)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &d.radius)) !=
            IC_OK ||
        (e = icSceneReader_Enum(r, item, path, "matching", s_matchings, 3, &matching)) != IC_OK ||
        (e = needSegments(r, item, path, (int64_t)rods * segments)) != IC_OK)
        return e;
    int ids[IC_ROD_BUNDLE_MAX];
    icDiagnostic inner = {0};
    for (int k = 0; k < rods; ++k) {
        icReal s = rods > 1 ? (icReal)k / (rods - 1) : 0;
        icVec3 off = icVec3_Scale(s, across);
        if ((e = icRodWorld_AddStraightRod(w, icVec3_Add(a, off), icVec3_Add(b, off), segments, &d,
                                           &ids[k], &inner)) != IC_OK)
            return rodFail(r, item, path, &inner, e);
    }
    if ((e = icRodWorld_AddBundle(w, ids, rods, (icRodMatching)matching, NULL, &inner)) != IC_OK)
        return rodFail(r, item, path, &inner, e);
    return readPins(r, item, path, w, ids[0], rods);
}

// "skin": true or {"cell", "offset", "blend", "fairing"}: a surface around the first
// instance's pills at rest, skinned to every instance.
static icResult readSkin(const icSceneReader *r, const cJSON *obj, const char *parent,
                         icRodWorld *w, int rod, int rodCount, int instances,
                         const icRodSurface *given) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, "skin");
    if (!item || cJSON_IsFalse(item)) return IC_OK;
    icJsonPath p = icJsonPath_Key(parent, "skin");
    icReal cell = 0.05, offset = 0.02, blend = 0.15;
    icRodSkinDef sd = icDefaultRodSkinDef();
    icResult e;
    if (!cJSON_IsTrue(item)) {
        static const char *const keys[] = {"cell", "offset", "blend", "fairing", NULL};
        if ((e = icSceneReader_CheckObject(r, item, p.text, keys)) != IC_OK ||
            (e = icSceneReader_Number(r, item, p.text, "cell", IC_RANGE_POSITIVE, &cell)) !=
                IC_OK ||
            (e = icSceneReader_Number(r, item, p.text, "offset", IC_RANGE_ANY, &offset)) != IC_OK ||
            (e = icSceneReader_Number(r, item, p.text, "blend", IC_RANGE_NON_NEGATIVE, &blend)) !=
                IC_OK ||
            (e = icSceneReader_Number(r, item, p.text, "fairing", IC_RANGE_NON_NEGATIVE,
                                      &sd.fairing)) != IC_OK)
            return e;
    }
    icRodSurface surface = {0};
    if (given) {
        surface = *given;
    } else {
        e = icRodWorld_RestSurface(w, rod, cell, offset, blend, &surface);
        if (e != IC_OK) return icSceneReader_Fail(r, e, item, p.text, "cannot build the skin mesh");
    }
    sd.mesh = &surface;
    sd.rod = rod;
    sd.rodCount = rodCount;
    sd.instanceCount = instances;
    icDiagnostic inner = {0};
    e = icRodWorld_AddSkin(w, &sd, NULL, &inner);
    if (!given) icRodSurface_Destroy(&surface);
    if (e != IC_OK) return rodFail(r, item, p.text, &inner, e);
    return IC_OK;
}

static icResult readOctopus(const icSceneReader *r, const cJSON *item, const char *path,
                            icRodWorld *w) {
    static const char *const keys[] = {"count",        "origin", "spacing", "columns", "per_layer",
                                       "layer_height", "scale",  "skin",    NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    int count = 1, columns = 5, perLayer = 25;
    icVec3 origin = icVec3_Make(0, 1, 0);
    icReal spacing = 4, layerHeight = 2, scale = 1;
    if ((e = icSceneReader_Int(r, item, path, "count", 1, 100000, &count)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "origin", false, &origin)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "spacing", IC_RANGE_POSITIVE, &spacing)) !=
            IC_OK ||
        (e = icSceneReader_Int(r, item, path, "columns", 1, 100000, &columns)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "per_layer", 1, 100000, &perLayer)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "layer_height", IC_RANGE_ANY, &layerHeight)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "scale", IC_RANGE_POSITIVE, &scale)) != IC_OK ||
        (e = needSegments(r, item, path, (int64_t)count * IC_OCTOPUS_SEGMENTS)) != IC_OK)
        return e;
    int first = icRodWorld_GetRodCount(w);
    for (int i = 0; i < count; ++i) {
        int layer = i / perLayer, k = i % perLayer;
        icVec3 p = icVec3_Add(origin, icVec3_Make((k % columns) * spacing, layer * layerHeight,
                                                  (k / columns) * spacing));
        icDiagnostic inner = {0};
        if ((e = icRodWorld_AddOctopus(w, p, scale, NULL, &inner)) != IC_OK)
            return rodFail(r, item, path, &inner, e);
    }
    return readSkin(r, item, path, w, first, 1, count, NULL);
}

static icResult readPillars(const icSceneReader *r, const cJSON *item, const char *path,
                            icRodWorld *w) {
    static const char *const keys[] = {"rows",   "columns", "spacing", "height",
                                       "radius", "center",  NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    int rows = 5, columns = 5;
    icReal spacing = 4, height = 4, radius = 0.5;
    icVec3 centre = icVec3_Make(0, 0, 0);
    if ((e = icSceneReader_Int(r, item, path, "rows", 1, 1000, &rows)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "columns", 1, 1000, &columns)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "spacing", IC_RANGE_POSITIVE, &spacing)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "height", IC_RANGE_POSITIVE, &height)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &radius)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "center", false, &centre)) != IC_OK)
        return e;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j) {
            icVec3 base = icVec3_Add(centre, icVec3_Make((j - 0.5 * (columns - 1)) * spacing, 0,
                                                         (i - 0.5 * (rows - 1)) * spacing));
            icDiagnostic inner = {0};
            if ((e = icRodWorld_AddCapsule(w, base, icVec3_Add(base, icVec3_Make(0, height, 0)),
                                           radius, NULL, &inner)) != IC_OK)
                return rodFail(r, item, path, &inner, e);
        }
    return IC_OK;
}

static icResult readCapsule(const icSceneReader *r, const cJSON *item, const char *path,
                            icRodWorld *w) {
    static const char *const keys[] = {"a", "b", "radius", NULL};
    icResult e;
    const cJSON *m;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "a", &m)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "b", &m)) != IC_OK)
        return e;
    icVec3 a, b;
    icReal radius = 0.5;
    if ((e = icSceneReader_Vec3(r, item, path, "a", false, &a)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "b", false, &b)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &radius)) != IC_OK)
        return e;
    icDiagnostic inner = {0};
    if ((e = icRodWorld_AddCapsule(w, a, b, radius, NULL, &inner)) != IC_OK)
        return rodFail(r, item, path, &inner, e);
    return IC_OK;
}

// A vertex given as [rod, vertex] (a negative vertex counts from the rod's end).
static icResult readVertexRef(const icSceneReader *r, const cJSON *obj, const char *parent,
                              const char *key, icRodWorld *w, int *vertex) {
    const cJSON *m;
    icResult e;
    if ((e = icSceneReader_Require(r, obj, parent, key, &m)) != IC_OK) return e;
    icJsonPath p = icJsonPath_Key(parent, key);
    int n = 2;
    icReal *pair = NULL;
    if ((e = readArray(r, obj, parent, key, 1, &n, &pair, IC_RANGE_ANY)) != IC_OK) return e;
    int rod = (int)pair[0], v = (int)pair[1];
    bool integral = rod == pair[0] && v == pair[1];
    icFree(pair);
    if (!integral || rod < 0 || rod >= icRodWorld_GetRodCount(w))
        return icSceneReader_Fail(r, IC_ERR_INDEX_OUT_OF_RANGE, m, p.text,
                                  "expected [rod, vertex] with rod in 0..%d (rods so far)",
                                  icRodWorld_GetRodCount(w) - 1);
    icRodRange range = icRodWorld_GetRod(w, rod);
    if (v >= range.vertexCount || v < -range.vertexCount)
        return icSceneReader_Fail(r, IC_ERR_INDEX_OUT_OF_RANGE, m, p.text,
                                  "rod %d has %d vertices", rod, range.vertexCount);
    *vertex = range.vertexStart + (v < 0 ? v + range.vertexCount : v);
    return IC_OK;
}

// "link": a utility constraint of the VIPER reference code between two vertices of rods defined
// before it.
static icResult readLink(const icSceneReader *r, const cJSON *item, const char *path,
                         icRodWorld *w) {
    static const char *const keys[] = {"kind", "a", "b", "rest", "compliance", NULL};
    static const char *const kinds[] = {"distance", "max_distance", "touch"};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    int kind = 0, a, b;
    if ((e = icSceneReader_Enum(r, item, path, "kind", kinds, 3, &kind)) != IC_OK ||
        (e = readVertexRef(r, item, path, "a", w, &a)) != IC_OK ||
        (e = readVertexRef(r, item, path, "b", w, &b)) != IC_OK)
        return e;
    const icReal *x = icRodWorld_GetPositions(w);
    icReal rest = icVec3_Distance(icVec3_Load(x, a), icVec3_Load(x, b)), alpha = 0;
    if ((e = icSceneReader_Number(r, item, path, "rest", IC_RANGE_NON_NEGATIVE, &rest)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "compliance", IC_RANGE_NON_NEGATIVE, &alpha)) !=
            IC_OK)
        return e;
    if ((e = icRodWorld_AddLink(w, (icRodLinkKind)kind, a, b, rest, alpha)) != IC_OK)
        return icSceneReader_Fail(r, e, item, path, "the rod world refused the link (%s)",
                                  icResult_Message(e));
    return IC_OK;
}

// The muscle surface of "viperize": a generated fusiform or a surface file with two boxes.
static icResult readMuscleMesh(const icSceneReader *r, const cJSON *item, const char *path,
                               icRodSurface *mesh, unsigned char **source, unsigned char **sink) {
    static const char *const genKeys[] = {"generate", "length",  "max_radius", "end_radius",
                                          "rings",    "sectors", NULL};
    static const char *const fileKeys[] = {"file", "source_box", "sink_box", NULL};
    static const char *const kinds[] = {"fusiform"};
    icResult e;
    *source = *sink = NULL;
    memset(mesh, 0, sizeof *mesh);
    if (cJSON_GetObjectItemCaseSensitive(item, "generate")) {
        if ((e = icSceneReader_CheckObject(r, item, path, genKeys)) != IC_OK) return e;
        int kind = 0, rings = 24, sectors = 24;
        icReal length = 1, maxRadius = 0.15, endRadius = 0.04;
        if ((e = icSceneReader_Enum(r, item, path, "generate", kinds, 1, &kind)) != IC_OK ||
            (e = icSceneReader_Number(r, item, path, "length", IC_RANGE_POSITIVE, &length)) !=
                IC_OK ||
            (e = icSceneReader_Number(r, item, path, "max_radius", IC_RANGE_POSITIVE,
                                      &maxRadius)) != IC_OK ||
            (e = icSceneReader_Number(r, item, path, "end_radius", IC_RANGE_POSITIVE,
                                      &endRadius)) != IC_OK ||
            (e = icSceneReader_Int(r, item, path, "rings", 2, 10000, &rings)) != IC_OK ||
            (e = icSceneReader_Int(r, item, path, "sectors", 3, 10000, &sectors)) != IC_OK)
            return e;
        if (maxRadius < endRadius)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path,
                                      "max_radius %g is below end_radius %g", maxRadius, endRadius);
        if ((e = icRodFusiformSurface(length, maxRadius, endRadius, rings, sectors, mesh)) != IC_OK)
            return icSceneReader_Fail(r, e, item, path, "cannot generate the muscle");
        *source = IC_ALLOC_ZERO(unsigned char, (size_t)mesh->vertexCount);
        *sink = IC_ALLOC_ZERO(unsigned char, (size_t)mesh->vertexCount);
        if (!*source || !*sink)
            return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, item, path, "out of memory");
        // the end caps: the poles and the first and last rings
        for (int i = 0; i < mesh->vertexCount; ++i) {
            icReal z = mesh->positions[3 * i + 2];
            (*source)[i] = z <= 1e-9 * length;
            (*sink)[i] = z >= length * (1 - 1e-9);
        }
        return IC_OK;
    }
    if ((e = icSceneReader_CheckObject(r, item, path, fileKeys)) != IC_OK) return e;
    const cJSON *m;
    const char *file = NULL;
    if ((e = icSceneReader_Require(r, item, path, "file", &m)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "source_box", &m)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "sink_box", &m)) != IC_OK ||
        (e = icSceneReader_String(r, item, path, "file", &file)) != IC_OK)
        return e;
    char full[2048];
    if (!icPath_Join(r->baseDir, file, full, sizeof full))
        return icSceneReader_Fail(r, IC_ERR_IO, item, path, "path is too long");
    if ((e = icSceneBudget_NeedSurfaceFile(r, cJSON_GetObjectItemCaseSensitive(item, "file"),
                                           icJsonPath_Key(path, "file").text, full,
                                           "rod surface")) != IC_OK)
        return e;
    icTriSurface s;
    icDiagnostic inner = {0};
    if ((e = icLoadSurface(full, &s, &inner)) != IC_OK) {
        if (r->diag) *r->diag = inner;
        return e;
    }
    mesh->vertexCount = s.vertexCount;
    mesh->triangleCount = s.triangleCount;
    mesh->positions = s.positions;
    mesh->triangles = s.triangles;
    icFree(s.meshVertex);
    icFree(s.meshTet);
    *source = IC_ALLOC_ZERO(unsigned char, (size_t)mesh->vertexCount + 1);
    *sink = IC_ALLOC_ZERO(unsigned char, (size_t)mesh->vertexCount + 1);
    if (!*source || !*sink)
        return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, item, path, "out of memory");
    static const char *const boxKeys[] = {"min", "max", NULL};
    for (int which = 0; which < 2; ++which) {
        const char *key = which == 0 ? "source_box" : "sink_box";
        const cJSON *box = cJSON_GetObjectItemCaseSensitive(item, key);
        icJsonPath bp = icJsonPath_Key(path, key);
        icVec3 lo, hi;
        if ((e = icSceneReader_CheckObject(r, box, bp.text, boxKeys)) != IC_OK ||
            (e = icSceneReader_Require(r, box, bp.text, "min", &m)) != IC_OK ||
            (e = icSceneReader_Require(r, box, bp.text, "max", &m)) != IC_OK ||
            (e = icSceneReader_Vec3(r, box, bp.text, "min", false, &lo)) != IC_OK ||
            (e = icSceneReader_Vec3(r, box, bp.text, "max", false, &hi)) != IC_OK)
            return e;
        unsigned char *flags = which == 0 ? *source : *sink;
        int caught = 0;
        for (int i = 0; i < mesh->vertexCount; ++i) {
            icVec3 p = icVec3_Load(mesh->positions, i);
            bool in = p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y &&
                      p.z <= hi.z;
            flags[i] = in;
            caught += in;
        }
        if (!caught)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, box, bp.text, "the box holds no vertex");
    }
    return IC_OK;
}

static icResult readViperize(const icSceneReader *r, const cJSON *item, const char *path,
                             icRodWorld *w) {
    static const char *const keys[] = {
        "mesh",           "translate",    "rods",     "slices",   "end_level",
        "length_penalty", "radius_scale", "matching", "material", "pin",
        "skin",           "activation",   NULL};
    icResult e;
    const cJSON *meshItem;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK ||
        (e = icSceneReader_Require(r, item, path, "mesh", &meshItem)) != IC_OK)
        return e;
    icViperizeDef vd = icDefaultViperizeDef();
    icVec3 translate = icVec3_Make(0, 0, 0);
    int matching = 1;
    icRodDef d;
    if ((e = readMaterial(r, item, path, &d)) != IC_OK ||
        (e = icSceneReader_Vec3(r, item, path, "translate", false, &translate)) != IC_OK ||
        (e = icSceneReader_Int(r, item, path, "rods", 1, IC_ROD_BUNDLE_MAX, &vd.rodCount)) !=
            IC_OK ||
        (e = icSceneReader_Int(r, item, path, "slices", 2, 1000, &vd.sliceCount)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "end_level", (icRange){0, 0.5, true, true},
                                  &vd.endLevel)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "length_penalty", (icRange){0, 1, false, false},
                                  &vd.lengthPenalty)) != IC_OK ||
        (e = icSceneReader_Number(r, item, path, "radius_scale", IC_RANGE_POSITIVE,
                                  &vd.radiusScale)) != IC_OK ||
        (e = icSceneReader_Enum(r, item, path, "matching", s_matchings, 3, &matching)) != IC_OK)
        return e;
    icJsonPath mp = icJsonPath_Key(path, "mesh");
    icRodSurface mesh;
    unsigned char *source = NULL, *sink = NULL;
    e = readMuscleMesh(r, meshItem, mp.text, &mesh, &source, &sink);
    for (int i = 0; e == IC_OK && i < mesh.vertexCount; ++i)
        icVec3_Store(mesh.positions, i, icVec3_Add(icVec3_Load(mesh.positions, i), translate));
    icViperizeResult vr = {0};
    if (e == IC_OK) {
        vd.mesh = &mesh;
        vd.source = source;
        vd.sink = sink;
        icDiagnostic inner = {0};
        if ((e = icViperize(&vd, &vr, &inner)) != IC_OK) e = rodFail(r, item, path, &inner, e);
    }
    int ids[IC_ROD_BUNDLE_MAX], bundle = -1;
    for (int k = 0; e == IC_OK && k < vr.rodCount; ++k) {
        d.vertexCount = vr.sliceCount;
        d.positions = vr.positions + 3 * (size_t)k * vr.sliceCount;
        d.radii = vr.radii;
        d.segments = NULL;
        d.masses = NULL;
        icDiagnostic inner = {0};
        if ((e = icRodWorld_AddRod(w, &d, &ids[k], &inner)) != IC_OK)
            e = rodFail(r, item, path, &inner, e);
        if (e == IC_OK && k == 0) d.group = icRodWorld_GetRod(w, ids[0]).group;
    }
    if (e == IC_OK) {
        icDiagnostic inner = {0};
        if ((e = icRodWorld_AddBundle(w, ids, vr.rodCount, (icRodMatching)matching, &bundle,
                                      &inner)) != IC_OK)
            e = rodFail(r, item, path, &inner, e);
    }
    if (e == IC_OK) e = readPins(r, item, path, w, ids[0], vr.rodCount);
    if (e == IC_OK) e = readActivation(r, item, path, w, bundle, vr.sliceCount - 1);
    if (e == IC_OK) e = readSkin(r, item, path, w, ids[0], vr.rodCount, 1, &mesh);
    icViperizeResult_Destroy(&vr);
    icRodSurface_Destroy(&mesh);
    icFree(source);
    icFree(sink);
    return e;
}

// The scene's plane colliders also bound the rods (friction as both the static and the kinetic
// coefficient of the half-plane friction).
static icResult addPlanes(const icSceneReader *r, const cJSON *root, icRodWorld *w) {
    const cJSON *colliders = cJSON_GetObjectItemCaseSensitive(root, "colliders");
    if (!cJSON_IsArray(colliders)) return IC_OK;
    for (const cJSON *c = colliders->child; c; c = c->next) {
        const cJSON *plane = cJSON_GetObjectItemCaseSensitive(c, "plane");
        if (!plane) continue;
        icRodPlaneDef pd = icDefaultRodPlaneDef();
        icReal friction = 0.5;
        icResult e;
        if ((e = icSceneReader_Vec3(r, plane, "colliders.plane", "normal", true, &pd.normal)) !=
                IC_OK ||
            (e = icSceneReader_Number(r, plane, "colliders.plane", "offset", IC_RANGE_ANY,
                                      &pd.offset)) != IC_OK ||
            (e = icSceneReader_Number(r, plane, "colliders.plane", "friction",
                                      IC_RANGE_NON_NEGATIVE, &friction)) != IC_OK)
            return e;
        pd.staticFriction = pd.kineticFriction = friction;
        if ((e = icRodWorld_AddPlane(w, &pd)) != IC_OK)
            return icSceneReader_Fail(r, e, plane, "colliders.plane",
                                      "the rod world refused the plane");
    }
    return IC_OK;
}

typedef icResult icRodReadFn(const icSceneReader *r, const cJSON *item, const char *path,
                             icRodWorld *w);

icResult icScene_ReadRods(const icSceneReader *r, const cJSON *root, icScene *scene) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "rods");
    if (!item) return IC_OK;
    if (!cJSON_IsArray(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, "rods", "expected an array, got %s",
                                  icJson_TypeName(item));
    static const char *const kinds[] = {"solver",  "rod",      "straight", "helix",
                                        "bundle",  "sheet",    "octopus",  "pillars",
                                        "capsule", "viperize", "link",     NULL};
    static icRodReadFn *const readers[] = {NULL,        readRod,     readStraight, readHelix,
                                           readBundle,  readSheet,   readOctopus,  readPillars,
                                           readCapsule, readViperize, readLink};
    icRodWorldDef def = icDefaultRodWorldDef();
    def.gravity = icWorld_GetDef(scene->world).gravity;
    // The solver entry first (anywhere in the array), so every rod sees the settings.
    int i = 0;
    icResult e;
    for (const cJSON *c = item->child; c; c = c->next, ++i) {
        icJsonPath p = icJsonPath_Index("rods", i);
        if ((e = icSceneReader_CheckObject(r, c, p.text, kinds)) != IC_OK) return e;
        if (cJSON_GetArraySize(c) != 1)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, c, p.text,
                                      "an entry is an object with exactly one key (its kind)");
        if (strcmp(c->child->string, "solver") == 0) {
            icJsonPath sp = icJsonPath_Key(p.text, "solver");
            if ((e = readSolver(r, c->child, sp.text, &def)) != IC_OK) return e;
        }
    }
    scene->rods = icCreateRodWorld(&def);
    if (!scene->rods)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, "rods",
                                  "the rod world refused its settings");
    i = 0;
    for (const cJSON *c = item->child; c; c = c->next, ++i) {
        icJsonPath p = icJsonPath_Index("rods", i);
        icJsonPath kp = icJsonPath_Key(p.text, c->child->string);
        for (int k = 1; kinds[k]; ++k)
            if (strcmp(kinds[k], c->child->string) == 0 &&
                (e = readers[k](r, c->child, kp.text, scene->rods)) != IC_OK)
                return e;
    }
    return addPlanes(r, root, scene->rods);
}

icResult icSceneRods_Step(icScene *scene) {
    if (!scene->rods) return IC_OK;
    icRodStepStats stats;
    icResult e = icRodWorld_Step(scene->rods, scene->dt, &stats);
    if (stats.nan) return IC_ERR_NUMERICAL;
    return e;
}
