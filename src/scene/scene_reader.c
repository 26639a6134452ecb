// SPDX-License-Identifier: MIT
// Checked, path-aware reads from a scene's cJSON tree (see scene_reader.h).
#include "scene/scene_reader.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

icJsonPath icJsonPath_Key(const char *parent, const char *key) {
    icJsonPath p;
    if (parent && parent[0])
        snprintf(p.text, sizeof p.text, "%s.%s", parent, key);
    else
        snprintf(p.text, sizeof p.text, "%s", key);
    return p;
}

icJsonPath icJsonPath_Index(const char *parent, int index) {
    icJsonPath p;
    snprintf(p.text, sizeof p.text, "%.240s[%d]", parent ? parent : "", index);
    return p;
}

int icSceneReader_Line(const icSceneReader *r, const cJSON *item) {
    return item ? icJsonLines_Find(&r->lines, item) : 0;
}

icResult icSceneReader_Fail(const icSceneReader *r, icResult code, const cJSON *item,
                            const char *path, const char *format, ...) {
    char message[640];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return icDiag_Set(r->diag, code, r->file, icSceneReader_Line(r, item), "%s%s%s",
                      path && path[0] ? path : "", path && path[0] ? ": " : "", message);
}

const char *icJson_TypeName(const cJSON *item) {
    if (!item) return "nothing";
    if (cJSON_IsString(item)) return "a string";
    if (cJSON_IsNumber(item)) return "a number";
    if (cJSON_IsBool(item)) return "a boolean";
    if (cJSON_IsNull(item)) return "null";
    if (cJSON_IsArray(item)) return "an array";
    if (cJSON_IsObject(item)) return "an object";
    return "an unknown value";
}

// Edit distance of short keys, for "did you mean" hints on typos.
static int editDistance(const char *a, const char *b) {
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 40 || lb > 40) return 99;
    int row[41];
    for (int j = 0; j <= lb; ++j) row[j] = j;
    for (int i = 1; i <= la; ++i) {
        int diagonal = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; ++j) {
            int above = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = diagonal + cost;
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

icResult icSceneReader_CheckObject(const icSceneReader *r, const cJSON *item, const char *path,
                                   const char *const *allowed) {
    if (!cJSON_IsObject(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "expected an object, got %s",
                                  icJson_TypeName(item));
    for (const cJSON *member = item->child; member; member = member->next) {
        const char *key = member->string ? member->string : "";
        icJsonPath memberPath = icJsonPath_Key(path, key);
        bool known = false;
        const char *closest = NULL;
        int closestDistance = 3; // hint only for near misses
        for (const char *const *a = allowed; *a; ++a) {
            if (strcmp(*a, key) == 0) {
                known = true;
                break;
            }
            int d = editDistance(*a, key);
            if (d < closestDistance) {
                closestDistance = d;
                closest = *a;
            }
        }
        if (!known) {
            if (closest)
                return icSceneReader_Fail(r, IC_ERR_UNKNOWN_KEY, member, memberPath.text,
                                          "unknown key (did you mean '%s'?)", closest);
            return icSceneReader_Fail(r, IC_ERR_UNKNOWN_KEY, member, memberPath.text,
                                      "unknown key");
        }
        for (const cJSON *earlier = item->child; earlier != member; earlier = earlier->next)
            if (earlier->string && strcmp(earlier->string, key) == 0)
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, member, memberPath.text,
                                          "key repeated (first on line %d)",
                                          icSceneReader_Line(r, earlier));
    }
    return IC_OK;
}

icResult icSceneReader_Require(const icSceneReader *r, const cJSON *obj, const char *path,
                               const char *key, const cJSON **member) {
    *member = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (*member) return IC_OK;
    icJsonPath p = icJsonPath_Key(path, key);
    return icSceneReader_Fail(r, IC_ERR_MISSING_KEY, obj, p.text, "required key is missing");
}

// "[0, 0.5]", "(0, inf)": the range as a reader would write it.
static void formatRange(icRange range, char *out, size_t size) {
    char lo[32], hi[32];
    if (isinf(range.lo))
        snprintf(lo, sizeof lo, "-inf");
    else
        snprintf(lo, sizeof lo, "%g", range.lo);
    if (isinf(range.hi))
        snprintf(hi, sizeof hi, "inf");
    else
        snprintf(hi, sizeof hi, "%g", range.hi);
    snprintf(out, size, "%c%s, %s%c", range.loOpen ? '(' : '[', lo, hi, range.hiOpen ? ')' : ']');
}

static bool inRange(double v, icRange range) {
    bool aboveLo = range.loOpen ? v > range.lo : v >= range.lo;
    bool belowHi = range.hiOpen ? v < range.hi : v <= range.hi;
    return aboveLo && belowHi;
}

icResult icSceneReader_NumberItem(const icSceneReader *r, const cJSON *item, const char *path,
                                  icRange range, double *value) {
    if (!cJSON_IsNumber(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "expected a number, got %s",
                                  icJson_TypeName(item));
    double v = item->valuedouble;
    // JSON has no NaN, but 1e999 reads as infinity.
    if (!isfinite(v))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "%g is not a finite number", v);
    if (!inRange(v, range)) {
        char text[80];
        formatRange(range, text, sizeof text);
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "%g is outside %s", v, text);
    }
    *value = v;
    return IC_OK;
}

icResult icSceneReader_Number(const icSceneReader *r, const cJSON *obj, const char *path,
                              const char *key, icRange range, icReal *value) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(path, key);
    double v;
    icResult result = icSceneReader_NumberItem(r, item, p.text, range, &v);
    if (result == IC_OK) *value = (icReal)v;
    return result;
}

icResult icSceneReader_Int(const icSceneReader *r, const cJSON *obj, const char *path,
                           const char *key, int lo, int hi, int *value) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(path, key);
    double v;
    icResult result = icSceneReader_NumberItem(r, item, p.text, IC_RANGE_ANY, &v);
    if (result != IC_OK) return result;
    if (v != floor(v))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text, "%g is not an integer", v);
    if (v < lo || v > hi) {
        if (hi == 2147483647 && v < lo)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text, "%g must be >= %d", v, lo);
        if (hi == 2147483647)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                      "%g is too large (at most %d)", v, hi);
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text, "%g is outside [%d, %d]", v,
                                  lo, hi);
    }
    *value = (int)v;
    return IC_OK;
}

icResult icSceneReader_Seed(const icSceneReader *r, const cJSON *obj, const char *path,
                            const char *key, uint64_t *value) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(path, key);
    double v;
    icResult result = icSceneReader_NumberItem(r, item, p.text, IC_RANGE_NON_NEGATIVE, &v);
    if (result != IC_OK) return result;
    // Doubles hold every integer up to 2^53 exactly; past that a seed would be silently
    // rounded.
    if (v != floor(v) || v > 9007199254740992.0)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                  "%g is not an integer in [0, 2^53]", v);
    *value = (uint64_t)v;
    return IC_OK;
}

icResult icSceneReader_Bool(const icSceneReader *r, const cJSON *obj, const char *path,
                            const char *key, bool *value) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) return IC_OK;
    if (!cJSON_IsBool(item)) {
        icJsonPath p = icJsonPath_Key(path, key);
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                  "expected true or false, got %s", icJson_TypeName(item));
    }
    *value = cJSON_IsTrue(item);
    return IC_OK;
}

icResult icSceneReader_String(const icSceneReader *r, const cJSON *obj, const char *path,
                              const char *key, const char **value) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(path, key);
    if (!cJSON_IsString(item) || !item->valuestring)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text, "expected a string, got %s",
                                  icJson_TypeName(item));
    if (!item->valuestring[0])
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text, "must not be empty");
    *value = item->valuestring;
    return IC_OK;
}

// The array checks of icSceneReader_Vec3, each number within range.
static icResult readVec3(const icSceneReader *r, const cJSON *obj, const char *path,
                         const char *key, bool nonZero, icRange range, icVec3 *value);

icResult icSceneReader_Vec3(const icSceneReader *r, const cJSON *obj, const char *path,
                            const char *key, bool nonZero, icVec3 *value) {
    return readVec3(r, obj, path, key, nonZero, IC_RANGE_ANY, value);
}

icResult icSceneReader_Vec3Within(const icSceneReader *r, const cJSON *obj, const char *path,
                                  const char *key, double bound, icVec3 *value) {
    return readVec3(r, obj, path, key, false, (icRange){-bound, bound, false, false}, value);
}

static icResult readVec3(const icSceneReader *r, const cJSON *obj, const char *path,
                         const char *key, bool nonZero, icRange range, icVec3 *value) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) return IC_OK;
    icJsonPath p = icJsonPath_Key(path, key);
    if (!cJSON_IsArray(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                  "expected an array of 3 numbers, got %s", icJson_TypeName(item));
    if (cJSON_GetArraySize(item) != 3)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                  "expected 3 numbers, got %d", cJSON_GetArraySize(item));
    double v[3];
    int i = 0;
    for (const cJSON *e = item->child; e; e = e->next, ++i) {
        icJsonPath ep = icJsonPath_Index(p.text, i);
        icResult result = icSceneReader_NumberItem(r, e, ep.text, range, &v[i]);
        if (result != IC_OK) return result;
    }
    if (nonZero && v[0] == 0 && v[1] == 0 && v[2] == 0)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, p.text,
                                  "a direction must not be the zero vector");
    *value = icVec3_Make(v[0], v[1], v[2]);
    return IC_OK;
}

icResult icSceneReader_Enum(const icSceneReader *r, const cJSON *obj, const char *path,
                            const char *key, const char *const *names, int count, int *value) {
    const char *text = NULL;
    icResult result = icSceneReader_String(r, obj, path, key, &text);
    if (result != IC_OK || !text) return result;
    for (int i = 0; i < count; ++i) {
        if (strcmp(names[i], text) == 0) {
            *value = i;
            return IC_OK;
        }
    }
    char list[256] = "";
    for (int i = 0; i < count; ++i) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
    }
    icJsonPath p = icJsonPath_Key(path, key);
    return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, cJSON_GetObjectItemCaseSensitive(obj, key),
                              p.text, "'%s' is not one of %s", text, list);
}
