// SPDX-License-Identifier: MIT
// Checked access to a scene's JSON: every read knows the JSON path and line of what it
// reads, so a wrong key or value is reported as `bodies[0].material.density: ...` at its line.
#pragma once

#include "formats/files_internal.h"
#include "scene/json_lines.h"

/// One scene being read.
typedef struct icSceneReader {
    const char *file;    ///< scene path or name, for diagnostics
    const char *baseDir; ///< folder mesh files are relative to
    icJsonLines lines;
    icDiagnostic *diag;
    const char *outputDir; ///< the scene's output folder (filled before bodies are read): surface
                           ///< meshes are tetrahedralised once into its cache/ subfolder
    struct icSceneBudget *budget; ///< the load's memory budget (scene_budget.h)
} icSceneReader;

/// A JSON path buffer ("bodies[0].material").
typedef struct icJsonPath {
    char text[256];
} icJsonPath;

icJsonPath icJsonPath_Key(const char *parent, const char *key);
icJsonPath icJsonPath_Index(const char *parent, int index);

/// Line of an item (0 when unknown).
int icSceneReader_Line(const icSceneReader *r, const cJSON *item);
/// Fills the diagnostic with `path: message` at the item's line and returns code.
icResult icSceneReader_Fail(const icSceneReader *r, icResult code, const cJSON *item,
                            const char *path, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/// Checks that item is an object whose keys are all in allowed (NULL-terminated) and
/// appear once. IC_ERR_BAD_VALUE (not an object, repeated key), IC_ERR_UNKNOWN_KEY.
icResult icSceneReader_CheckObject(const icSceneReader *r, const cJSON *item, const char *path,
                                   const char *const *allowed);
/// IC_ERR_MISSING_KEY for `path.key` at the line of obj when obj has no such member.
icResult icSceneReader_Require(const icSceneReader *r, const cJSON *obj, const char *path,
                               const char *key, const cJSON **member);

/// A range for numbers: lo/hi may be +-INFINITY; open ends exclude the bound.
typedef struct icRange {
    double lo, hi;
    bool loOpen, hiOpen;
} icRange;
#define IC_RANGE_ANY ((icRange){-INFINITY, INFINITY, true, true})
#define IC_RANGE_POSITIVE ((icRange){0, INFINITY, true, true})
#define IC_RANGE_NON_NEGATIVE ((icRange){0, INFINITY, false, true})

// Limits of the quantities isochor can compute with: beyond them a scene is physical
// nonsense that runs to garbage (a body translated 1e308 m has every tet inverted by
// round-off), so it is refused at load (docs/scenes.md, "Ranges").
#define IC_SCENE_MAX_LENGTH 1e6    ///< m: positions, translations (1000 km)
#define IC_SCENE_MAX_MODULUS 1e13  ///< Pa: Young's modulus (diamond is 1.2e12)
#define IC_SCENE_MAX_DENSITY 1e6   ///< kg/m^3 (osmium is 2.3e4)
#define IC_SCENE_MAX_GRAVITY 1e5   ///< m/s^2 per component
#define IC_SCENE_MIN_DT 1e-9       ///< s per frame
#define IC_SCENE_MAX_DT 3600       ///< s per frame

// Optional members: when obj has no member `key`, *value is left as it is (the default).
icResult icSceneReader_Number(const icSceneReader *r, const cJSON *obj, const char *path,
                              const char *key, icRange range, icReal *value);
icResult icSceneReader_Int(const icSceneReader *r, const cJSON *obj, const char *path,
                           const char *key, int lo, int hi, int *value);
/// Integers up to 2^53 (seeds).
icResult icSceneReader_Seed(const icSceneReader *r, const cJSON *obj, const char *path,
                            const char *key, uint64_t *value);
icResult icSceneReader_Bool(const icSceneReader *r, const cJSON *obj, const char *path,
                            const char *key, bool *value);
/// Non-empty string; *value points into the cJSON tree.
icResult icSceneReader_String(const icSceneReader *r, const cJSON *obj, const char *path,
                              const char *key, const char **value);
/// Array of 3 finite numbers; nonZero refuses the zero vector (directions).
icResult icSceneReader_Vec3(const icSceneReader *r, const cJSON *obj, const char *path,
                            const char *key, bool nonZero, icVec3 *value);
/// Array of 3 numbers each within [-bound, bound].
icResult icSceneReader_Vec3Within(const icSceneReader *r, const cJSON *obj, const char *path,
                                  const char *key, double bound, icVec3 *value);
/// A string from names[0..count-1]; *value gets its index.
icResult icSceneReader_Enum(const icSceneReader *r, const cJSON *obj, const char *path,
                            const char *key, const char *const *names, int count, int *value);
/// A number checked against range, for items that are not object members (array elements).
icResult icSceneReader_NumberItem(const icSceneReader *r, const cJSON *item, const char *path,
                                  icRange range, double *value);

/// Describes the JSON type of an item ("a string", "an array", ...).
const char *icJson_TypeName(const cJSON *item);
