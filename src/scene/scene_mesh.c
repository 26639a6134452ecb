// SPDX-License-Identifier: MIT
// A scene body's mesh: one of the generators, or a mesh file relative to the scene.
#include "scene/scene_internal.h"
#include "isochor/formats.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

// "cells": one integer for every axis, or one per axis.
static icResult readCells(const icSceneReader *r, const cJSON *obj, const char *path,
                          int cells[3]) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, "cells");
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(path, "cells");
    if (cJSON_IsNumber(item)) {
        int n = cells[0];
        icResult e = icSceneReader_Int(r, obj, path, "cells", 1, 1000, &n);
        if (e == IC_OK) cells[0] = cells[1] = cells[2] = n;
        return e;
    }
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                  "expected an integer or an array of 3 integers, got %s",
                                  icJson_TypeName(item));
    int k = 0;
    for (const cJSON *c = item->child; c; c = c->next, ++k) {
        icJsonPath cp = icJsonPath_Index(p.text, k);
        double v;
        icResult e = icSceneReader_NumberItem(r, c, cp.text, (icRange){1, 1000, false, false}, &v);
        if (e != IC_OK) return e;
        if (v != (int)v)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, c, cp.text, "%g is not an integer", v);
        cells[k] = (int)v;
    }
    return IC_OK;
}

static icResult readSplit(const icSceneReader *r, const cJSON *obj, const char *path, int *split) {
    return icSceneReader_Int(r, obj, path, "split", 5, 6, split);
}

static icResult generated(const icSceneReader *r, const cJSON *item, const char *path,
                          const char *what, icResult result) {
    if (result == IC_OK) return IC_OK;
    // The keys are in range one by one (the reader checked them); together they ask for a
    // grid larger than a generated mesh holds.
    if (result == IC_ERR_INVALID_ARGUMENT)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path,
                                  "cannot generate the %s: its cells make more than %d tets, the "
                                  "most a generated mesh holds; use fewer cells",
                                  what, IC_GENERATE_MAX_TETS);
    return icSceneReader_Fail(r, result, item, path, "cannot generate the %s: %s", what,
                              icResult_Message(result));
}

static icResult readGenerated(const icSceneReader *r, const cJSON *item, const char *path,
                              icTetMesh *mesh) {
    static const char *const kinds[] = {"box", "sphere", "torus", "crazy_cube"};
    static const char *const boxKeys[] = {"generate", "size", "cells", "split", NULL};
    static const char *const sphereKeys[] = {"generate", "radius", "cells", "split", NULL};
    static const char *const torusKeys[] = {"generate", "major_radius", "minor_radius", "cells",
                                            "split", NULL};
    static const char *const crazyKeys[] = {"generate", "size", "tets", "seed", NULL};
    int kind = 0;
    icResult e = icSceneReader_Enum(r, item, path, "generate", kinds, 4, &kind);
    if (e != IC_OK) return e;
    int split = 6;
    if (kind == 0) {
        if ((e = icSceneReader_CheckObject(r, item, path, boxKeys)) != IC_OK) return e;
        icVec3 size = icVec3_Make(1, 1, 1);
        int cells[3] = {8, 8, 8};
        if ((e = icSceneReader_Vec3(r, item, path, "size", false, &size)) != IC_OK) return e;
        for (int k = 0; k < 3; ++k)
            if (!(icVec3_Get(size, k) > 0)) {
                icJsonPath p = icJsonPath_Key(path, "size");
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE,
                                          cJSON_GetObjectItemCaseSensitive(item, "size"), p.text,
                                          "every edge length must be > 0");
            }
        if ((e = readCells(r, item, path, cells)) != IC_OK) return e;
        if ((e = readSplit(r, item, path, &split)) != IC_OK) return e;
        return generated(r, item, path, "box", icGenerateBox(mesh, size, cells, split));
    }
    if (kind == 1) {
        if ((e = icSceneReader_CheckObject(r, item, path, sphereKeys)) != IC_OK) return e;
        icReal radius = 0.5;
        int cells = 16;
        if ((e = icSceneReader_Number(r, item, path, "radius", IC_RANGE_POSITIVE, &radius)) != IC_OK)
            return e;
        if ((e = icSceneReader_Int(r, item, path, "cells", 1, 1000, &cells)) != IC_OK) return e;
        if ((e = readSplit(r, item, path, &split)) != IC_OK) return e;
        return generated(r, item, path, "sphere", icGenerateSphere(mesh, radius, cells, split));
    }
    if (kind == 2) {
        if ((e = icSceneReader_CheckObject(r, item, path, torusKeys)) != IC_OK) return e;
        icReal major = 1, minor = 0.3;
        int cells = 20;
        if ((e = icSceneReader_Number(r, item, path, "major_radius", IC_RANGE_POSITIVE, &major)) !=
            IC_OK)
            return e;
        if ((e = icSceneReader_Number(r, item, path, "minor_radius", IC_RANGE_POSITIVE, &minor)) !=
            IC_OK)
            return e;
        if (!(minor < major)) {
            icJsonPath p = icJsonPath_Key(path, "minor_radius");
            const cJSON *at = cJSON_GetObjectItemCaseSensitive(item, "minor_radius");
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, at ? at : item, p.text,
                                      "%g must be below major_radius %g", minor, major);
        }
        if ((e = icSceneReader_Int(r, item, path, "cells", 1, 1000, &cells)) != IC_OK) return e;
        if ((e = readSplit(r, item, path, &split)) != IC_OK) return e;
        return generated(r, item, path, "torus", icGenerateTorus(mesh, major, minor, cells, split));
    }
    if ((e = icSceneReader_CheckObject(r, item, path, crazyKeys)) != IC_OK) return e;
    icReal size = 1;
    int tets = 40000;
    uint64_t seed = 1;
    if ((e = icSceneReader_Number(r, item, path, "size", IC_RANGE_POSITIVE, &size)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "tets", 1, 100000000, &tets)) != IC_OK) return e;
    if ((e = icSceneReader_Seed(r, item, path, "seed", &seed)) != IC_OK) return e;
    return generated(r, item, path, "crazy cube", icGenerateCrazyCube(mesh, size, tets, seed));
}

static bool isSurfaceFile(const char *path) {
    static const char *const extensions[] = {".obj", ".ply", ".stl", ".off"};
    size_t n = strlen(path);
    for (int i = 0; i < 4; ++i)
        if (n > 4 && strcasecmp(path + n - 4, extensions[i]) == 0) return true;
    return false;
}

// FNV-1a over the surface file and the meshing settings: the cache key.
static uint64_t surfaceKey(const char *text, size_t size, const icTetrahedralizeDef *def) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < size; ++i) h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
    const unsigned char *p = (const unsigned char *)&def->maxVolume;
    for (size_t i = 0; i < sizeof def->maxVolume; ++i) h = (h ^ p[i]) * 1099511628211ull;
    p = (const unsigned char *)&def->quality;
    for (size_t i = 0; i < sizeof def->quality; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

// A closed surface (.obj/.ply/.stl/.off) as a body's mesh: tetrahedralised by the external
// TetGen program once, into <output>/cache/<stem>-<key>.node/.ele; later loads of the same
// surface with the same settings read the cache (issue 4: "tetrahedralised once").
static icResult tetrahedralizeCached(const icSceneReader *r, const cJSON *item, const char *path,
                                     const char *resolved, const icTetrahedralizeDef *def,
                                     icTetMesh *mesh) {
    char *text = NULL;
    size_t size = 0;
    icResult e = icReadFile(resolved, &text, &size, r->diag);
    if (e != IC_OK) return e;
    uint64_t key = surfaceKey(text, size, def);
    icFree(text);
    char stem[256], cacheDir[1100], base[1400], ele[1500];
    icPath_Stem(resolved, stem, sizeof stem);
    snprintf(cacheDir, sizeof cacheDir, "%s/cache", r->outputDir && r->outputDir[0] ? r->outputDir : ".");
    snprintf(base, sizeof base, "%s/%s-%016llx", cacheDir, stem, (unsigned long long)key);
    snprintf(ele, sizeof ele, "%s.ele", base);
    FILE *cached = fopen(ele, "rb");
    if (cached) {
        fclose(cached);
        return icLoadMesh(ele, NULL, mesh, NULL, r->diag);
    }
    icTriSurface surface = {0};
    if ((e = icLoadSurface(resolved, &surface, r->diag)) != IC_OK) return e;
    e = icTetrahedralize(&surface, def, mesh, r->diag);
    icTriSurface_Destroy(&surface);
    if (e != IC_OK) {
        if (r->diag) {
            size_t used = strlen(r->diag->message);
            snprintf(r->diag->message + used, sizeof r->diag->message - used,
                     " (tetrahedralising %s for %s, %s line %d)", resolved, path, r->file,
                     icSceneReader_Line(r, item));
        }
        return e;
    }
    icOrientReport report;
    if ((e = icTetMesh_Check(mesh, false, &report, r->diag)) != IC_OK) return e;
    if ((e = icMakeDirectories(cacheDir, r->diag)) != IC_OK) return e;
    return icSaveTetGen(base, mesh, r->diag);
}

static icResult readFile(const icSceneReader *r, const cJSON *item, const char *path,
                         icTetMesh *mesh) {
    static const char *const keys[] = {"file", "strict", "max_volume", "quality", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    const char *file = NULL;
    icLoadOptions options = {false};
    if ((e = icSceneReader_String(r, item, path, "file", &file)) != IC_OK) return e;
    if ((e = icSceneReader_Bool(r, item, path, "strict", &options.strict)) != IC_OK) return e;
    const cJSON *fileItem = cJSON_GetObjectItemCaseSensitive(item, "file");
    icJsonPath filePath = icJsonPath_Key(path, "file");
    char resolved[1024];
    if (!icPath_Join(r->baseDir, file, resolved, sizeof resolved))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, fileItem, filePath.text, "path is too long");
    bool surface = isSurfaceFile(resolved);
    icTetrahedralizeDef def = icDefaultTetrahedralizeDef();
    if ((e = icSceneReader_Number(r, item, path, "max_volume", IC_RANGE_POSITIVE, &def.maxVolume)) !=
            IC_OK ||
        (e = icSceneReader_Number(r, item, path, "quality", IC_RANGE_POSITIVE, &def.quality)) != IC_OK)
        return e;
    if (!surface) {
        const char *const meshingKeys[] = {"max_volume", "quality"};
        for (int i = 0; i < 2; ++i) {
            const cJSON *k = cJSON_GetObjectItemCaseSensitive(item, meshingKeys[i]);
            if (k)
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, k, icJsonPath_Key(path, meshingKeys[i]).text,
                                          "only applies to surface files (.obj, .ply, .stl, .off)");
        }
    }
    e = surface ? tetrahedralizeCached(r, fileItem, filePath.text, resolved, &def, mesh)
                : icLoadMesh(resolved, &options, mesh, NULL, r->diag);
    if (e != IC_OK && r->diag && !surface) {
        // Keep the mesh file's name and line; say which scene entry asked for it.
        size_t used = strlen(r->diag->message);
        snprintf(r->diag->message + used, sizeof r->diag->message - used,
                 " (mesh of %s, %s line %d)", filePath.text, r->file,
                 icSceneReader_Line(r, fileItem));
    }
    return e;
}

icResult icScene_ReadMesh(const icSceneReader *r, const cJSON *item, const char *path,
                          icTetMesh *mesh) {
    memset(mesh, 0, sizeof *mesh);
    if (!cJSON_IsObject(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "expected an object, got %s",
                                  icJson_TypeName(item));
    bool hasGenerate = cJSON_GetObjectItemCaseSensitive(item, "generate") != NULL;
    bool hasFile = cJSON_GetObjectItemCaseSensitive(item, "file") != NULL;
    if (hasGenerate && hasFile)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path,
                                  "give either 'generate' or 'file', not both");
    if (!hasGenerate && !hasFile) {
        // Unknown keys first: {"generat": "box"} is a typo, not a missing key.
        static const char *const keys[] = {"generate", "file", NULL};
        icResult e = icSceneReader_CheckObject(r, item, path, keys);
        if (e != IC_OK) return e;
        icJsonPath p = icJsonPath_Key(path, "generate");
        return icSceneReader_Fail(r, IC_ERR_MISSING_KEY, item, p.text,
                                  "required key is missing (or give 'file')");
    }
    icResult e = hasGenerate ? readGenerated(r, item, path, mesh) : readFile(r, item, path, mesh);
    if (e != IC_OK) icTetMesh_Destroy(mesh);
    return e;
}
