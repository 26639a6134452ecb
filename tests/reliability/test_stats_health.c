// SPDX-License-Identifier: MIT
// The health figures in the run's stats JSON: every count under its key, the last warning as
// an escaped string.
#include "test.h"

#include "isochor/io.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

IC_TEST(reliability, stats_json_health_keys) {
    icRunSummary summary;
    memset(&summary, 0, sizeof summary);
    icHealthStats *h = &summary.health;
    h->steps = 40;
    h->warnings = 9;
    h->nonFiniteSteps = 1;
    h->speedWarnings = 2;
    h->inversionWarnings = 3;
    h->volumeWarnings = 3;
    h->solverWarnings = 2;
    h->clampedVertices = 17;
    h->stops = 1;
    h->maxSpeedSeen = 12.5;
    h->maxInvertedSeen = 6;
    h->maxVolumeDriftSeen = NAN;
    h->maxTetJMinus1Seen = 0.375;
    snprintf(h->lastWarning, sizeof h->lastWarning, "a \"quoted\" \\ warning");
    char path[1200];
    IC_FORMAT(path, "%s/stats.json", icTest_TempDir());
    icDiagnostic diag = {0};
    IC_REQUIRE(icWriteRunSummary(path, &summary, &diag) == IC_OK);
    FILE *fp = fopen(path, "rb");
    IC_REQUIRE(fp);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[n] = 0;
    cJSON *root = cJSON_Parse(text);
    IC_REQUIRE(root);
    struct {
        const char *key;
        double value;
    } counts[] = {{"health_steps", 40},           {"health_warnings", 9},
                  {"health_non_finite_steps", 1}, {"health_speed_warnings", 2},
                  {"health_inversion_warnings", 3}, {"health_volume_warnings", 3},
                  {"health_solver_warnings", 2},
                  {"health_clamped_vertices", 17}, {"health_stops", 1},
                  {"health_max_speed", 12.5},      {"health_max_inverted_tets", 6},
                  {"health_max_tet_J_minus_1", 0.375}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        const cJSON *item = cJSON_GetObjectItem(root, counts[i].key);
        IC_CHECK_MSG(item && cJSON_IsNumber(item) && item->valuedouble == counts[i].value,
                     "%s", counts[i].key);
    }
    IC_CHECK(cJSON_IsNull(cJSON_GetObjectItem(root, "health_max_volume_drift")));
    const cJSON *last = cJSON_GetObjectItem(root, "health_last_warning");
    IC_CHECK(cJSON_IsString(last) && strcmp(last->valuestring, "a \"quoted\" \\ warning") == 0);
    cJSON_Delete(root);
}
