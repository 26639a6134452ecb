// SPDX-License-Identifier: MIT
// Reads a scene's "health" object into the world's icHealthDef.
#include "scene/scene_health.h"

icResult icScene_ReadHealth(const icSceneReader *r, const cJSON *item, icHealthDef *def) {
    static const char *const keys[] = {"policy", "max_speed", "max_inverted_tets",
                                       "max_volume_drift", NULL};
    static const char *const policies[] = {"off", "report", "clamp", "stop"};
    const char *path = "health";
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    int policy = (int)def->policy;
    if ((e = icSceneReader_Enum(r, item, path, "policy", policies, 4, &policy)) != IC_OK) return e;
    def->policy = (icHealthPolicy)policy;
    if ((e = icSceneReader_Number(r, item, path, "max_speed", IC_RANGE_POSITIVE, &def->maxSpeed)) !=
        IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "max_inverted_tets", 0, 2147483647,
                               &def->maxInvertedTets)) != IC_OK)
        return e;
    return icSceneReader_Number(r, item, path, "max_volume_drift", IC_RANGE_POSITIVE,
                                &def->maxVolumeDrift);
}
