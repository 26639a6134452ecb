// SPDX-License-Identifier: MIT
// A scene body's mesh: one of the generators, or a mesh file relative to the scene.
#include "scene/scene_budget.h"
#include "scene/scene_internal.h"
#include "isochor/formats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

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

// Before a generator allocates: its mesh and the body built from it must fit the budget.
// vertices and tets are what the generator will make (estimated for carved shapes).
static icResult fits(const icSceneReader *r, const cJSON *item, const char *path,
                     const char *what, double vertices, double tets) {
    if (!r->budget) return IC_OK;
    double limit = (double)INT64_MAX / 2; // products of user numbers: compare as doubles
    int64_t bytes = vertices < limit && tets < limit
                        ? icSceneBudget_GenerateBytes(r->budget->solver, r->budget->workers,
                                                      (int64_t)ceil(vertices),
                                                      (int64_t)ceil(tets))
                        : INT64_MAX;
    char text[160];
    snprintf(text, sizeof text, "the %s of about %.0f tets and %.0f vertices", what, tets, vertices);
    return icSceneBudget_Need(r, item, path, bytes, text);
}

// A carved grid keeps the cells whose centre lies inside the shape: about the shape's share
// of the grid's volume, 5 % more for the ragged boundary (never more than the whole grid).
static icResult carvedFits(const icSceneReader *r, const cJSON *item, const char *path,
                           const char *what, const int cells[3], int split, double share) {
    double grid = (double)cells[0] * cells[1] * cells[2];
    // A grid past the generators' limit is refused as such (the clearer reason).
    if (grid * split > IC_GENERATE_MAX_TETS)
        return generated(r, item, path, what, IC_ERR_INVALID_ARGUMENT);
    double gridVertices = (double)(cells[0] + 1) * (cells[1] + 1) * (cells[2] + 1);
    double kept = fmin(1.0, 1.05 * share);
    return fits(r, item, path, what, kept * gridVertices, kept * grid * split);
}

static icResult readGenerated(const icSceneReader *r, const cJSON *item, const char *path,
                              icTetMesh *mesh) {
    static const char *const kinds[] = {"box", "sphere", "torus", "crazy_cube"};
    static const char *const boxKeys[] = {"generate", "size", "cells", "split", NULL};
    static const char *const sphereKeys[] = {"generate", "radius", "cells", "split", "grid", NULL};
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
        if ((e = carvedFits(r, item, path, "box", cells, split, 1.0)) != IC_OK) return e;
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
        // "grid": "carved" (cells inside the sphere, boundary snapped) or "mapped" (the whole
        // grid mapped onto the ball, icGenerateSphereMapped; six tets a cell).
        static const char *const grids[] = {"carved", "mapped"};
        int mapped = 0;
        if ((e = icSceneReader_Enum(r, item, path, "grid", grids, 2, &mapped)) != IC_OK) return e;
        if (mapped) {
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(item, "split");
            if (s && split != 6)
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, s,
                                          icJsonPath_Key(path, "split").text,
                                          "a mapped sphere cuts each cell into 6 tets");
            if (cells < 2)
                return icSceneReader_Fail(
                    r, IC_ERR_BAD_VALUE, cJSON_GetObjectItemCaseSensitive(item, "cells"),
                    icJsonPath_Key(path, "cells").text, "a mapped sphere needs at least 2 cells");
            double grid = (double)cells * cells * cells;
            if (grid * 6 > IC_GENERATE_MAX_TETS)
                return generated(r, item, path, "sphere", IC_ERR_INVALID_ARGUMENT);
            if ((e = fits(r, item, path, "sphere", (cells + 1.0) * (cells + 1.0) * (cells + 1.0),
                          6 * grid)) != IC_OK)
                return e;
            return generated(r, item, path, "sphere", icGenerateSphereMapped(mesh, radius, cells));
        }
        const int grid[3] = {cells, cells, cells};
        if ((e = carvedFits(r, item, path, "sphere", grid, split, 3.14159265358979 / 6)) != IC_OK)
            return e;
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
        // The generator's grid: cells across 2 (R + r), as many of that size as 2 r needs.
        double h = 2 * (major + minor) / cells;
        int ny = (int)fmax(1.0, ceil(2 * minor / h - 1e-9));
        const int grid[3] = {cells, ny, cells};
        double share = 2 * 9.8696044010894 * major * minor * minor / (h * h * h) /
                       ((double)cells * cells * ny);
        if ((e = carvedFits(r, item, path, "torus", grid, split, share)) != IC_OK) return e;
        return generated(r, item, path, "torus", icGenerateTorus(mesh, major, minor, cells, split));
    }
    if ((e = icSceneReader_CheckObject(r, item, path, crazyKeys)) != IC_OK) return e;
    icReal size = 1;
    int tets = 40000;
    uint64_t seed = 1;
    if ((e = icSceneReader_Number(r, item, path, "size", IC_RANGE_POSITIVE, &size)) != IC_OK)
        return e;
    // 162 = 6 x 3^3: the generator's smallest grid has interior planes on every axis.
    if ((e = icSceneReader_Int(r, item, path, "tets", 162, 100000000, &tets)) != IC_OK) return e;
    if ((e = icSceneReader_Seed(r, item, path, "seed", &seed)) != IC_OK) return e;
    // Within 20 % of the target, on a grid of n^3 cells with 6 n^3 tets near it.
    double n = cbrt(tets / 6.0) + 1;
    if ((e = fits(r, item, path, "crazy cube", (n + 1) * (n + 1) * (n + 1), 1.2 * tets)) != IC_OK)
        return e;
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
    // The file is read whole before it is parsed: its text must fit the budget too.
    struct stat info;
    if (stat(resolved, &info) == 0 && S_ISREG(info.st_mode)) {
        char what[160];
        snprintf(what, sizeof what, "reading the mesh file %s of %lld bytes", resolved,
                 (long long)info.st_size);
        if ((e = icSceneBudget_Need(r, fileItem, filePath.text, (int64_t)info.st_size, what)) !=
            IC_OK)
            return e;
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
