// SPDX-License-Identifier: MIT
// The scene runner: frame files and the .pvd, the summary figures and file, scramble,
// static mode, NaN detection and the progress bar.
#define _POSIX_C_SOURCE 200809L
#include "test.h"

#include "isochor/io.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool exists(const char *dir, const char *name) {
    char path[1300];
    IC_FORMAT(path, "%s/%s", dir, name);
    struct stat info;
    return stat(path, &info) == 0;
}

static int countOccurrences(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; ++p) ++n;
    return n;
}

// A small box resting on a plane just below it.
static const char *s_dropScene =
    "{\"dt\": 0.01, \"frames\": 5,\n"
    " \"solver\": {\"substeps\": 4, \"iterations\": 2},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2},\n"
    "              \"material\": {\"youngs_modulus\": 1e5, \"poisson_ratio\": 0.45}}],\n"
    " \"colliders\": [{\"plane\": {\"normal\": [0, 1, 0], \"offset\": -0.1}}],\n"
    " \"output\": {\"every\": 2}}\n";

IC_TEST(io, run_writes_frames_and_pvd) {
    const char *dir = icTest_TempDir();
    char outDir[1200];
    IC_FORMAT(outDir, "%s/run/nested", dir);
    icScene scene;
    icDiagnostic diag = {0};
    int64_t bytes = icGetByteCount();
    IC_REQUIRE(icScene_LoadString(s_dropScene, "drop.json", NULL, &scene, &diag) == IC_OK);
    icRunOptions options = icDefaultRunOptions();
    IC_CHECK(options.writeOutput && !options.progress && options.frames < 0 && !options.outputDir);
    options.outputDir = outDir;
    icRunSummary summary;
    icResult r = icScene_Run(&scene, &options, &summary, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", icResult_Name(r), diag.message);

    // Scenes from strings have no file name: the collection is "scene.pvd".
    // every 2 of 5 frames: 0 (initial), 2, 4 and the last, 5.
    IC_CHECK(exists(outDir, "frame_00000.vtu"));
    IC_CHECK(!exists(outDir, "frame_00001.vtu"));
    IC_CHECK(exists(outDir, "frame_00002.vtu"));
    IC_CHECK(!exists(outDir, "frame_00003.vtu"));
    IC_CHECK(exists(outDir, "frame_00004.vtu"));
    IC_CHECK(exists(outDir, "frame_00005.vtu"));
    char pvdPath[1300];
    IC_FORMAT(pvdPath, "%s/scene.pvd", outDir);
    char *pvd = icTest_ReadFile(pvdPath, NULL);
    IC_REQUIRE(pvd != NULL);
    IC_CHECK_INT(countOccurrences(pvd, "<DataSet "), 4);
    IC_CHECK(strstr(pvd, "file=\"frame_00005.vtu\"") != NULL);
    IC_CHECK(strstr(pvd, "timestep=\"0.05") != NULL);
    free(pvd);
    // The frames carry the fields by name.
    IC_FORMAT(pvdPath, "%s/frame_00005.vtu", outDir);
    char *vtu = icTest_ReadFile(pvdPath, NULL);
    IC_REQUIRE(vtu != NULL);
    IC_CHECK(strstr(vtu, "Name=\"displacement\" NumberOfComponents=\"3\"") != NULL);
    IC_CHECK(strstr(vtu, "Name=\"velocity\" NumberOfComponents=\"3\"") != NULL);
    IC_CHECK(strstr(vtu, "Name=\"J\"") != NULL);
    IC_CHECK(strstr(vtu, "Name=\"pressure\"") != NULL);
    IC_CHECK(strstr(vtu, "Name=\"stress_norm\"") != NULL);
    free(vtu);

    IC_CHECK_INT(summary.frames, 5);
    IC_CHECK_INT(summary.vertices, 27);
    IC_CHECK_INT(summary.tets, 48);
    IC_CHECK_INT(summary.sweepsTotal, 5 * 4 * 2);
    IC_CHECK(!summary.nan);
    IC_CHECK(summary.msPerFrame >= 0);
    IC_CHECK(summary.volumeRatioMin <= summary.volumeRatioFinal);
    IC_CHECK(summary.volumeRatioFinal <= summary.volumeRatioMax);
    IC_CHECK_NEAR(summary.volumeRatioFinal, 1.0, 0.05);
    IC_CHECK_NEAR(summary.volumeRatioFinal, icWorld_GetVolumeRatio(scene.world), 0);
    IC_CHECK(summary.maxAbsJMinus1 >= fabs(summary.volumeRatioFinal - 1) - 1e-12);
    IC_CHECK_INT(summary.invertedTetsFinal, 0);
    IC_CHECK_INT(summary.notConverged, 0);
    IC_CHECK_NEAR(icWorld_GetTime(scene.world), 0.05, 1e-12);
    icScene_Destroy(&scene);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(io, run_summary_file) {
    icRunSummary summary = {.frames = 12, .vertices = 100, .tets = 300, .msPerFrame = 1.25,
                            .volumeRatioFinal = 0.9999, .volumeRatioMin = 0.99,
                            .volumeRatioMax = NAN, .maxAbsJMinus1 = 0.125,
                            .invertedTetsFinal = 3, .nan = true, .sweepsTotal = 123456789012L,
                            .notConverged = 2};
    char path[1200];
    IC_FORMAT(path, "%s/summary.json", icTest_TempDir());
    icDiagnostic diag = {0};
    IC_REQUIRE(icWriteRunSummary(path, &summary, &diag) == IC_OK);
    char *text = icTest_ReadFile(path, NULL);
    IC_REQUIRE(text != NULL);
    cJSON *root = cJSON_Parse(text);
    IC_REQUIRE(root != NULL);
    // 12 run figures and 14 health_* keys (tests/reliability/test_stats_health.c checks those).
    IC_CHECK_INT(cJSON_GetArraySize(root), 26);
    IC_CHECK(cJSON_GetObjectItem(root, "frames")->valuedouble == 12);
    IC_CHECK(cJSON_GetObjectItem(root, "vertices")->valuedouble == 100);
    IC_CHECK(cJSON_GetObjectItem(root, "tets")->valuedouble == 300);
    IC_CHECK(cJSON_GetObjectItem(root, "ms_per_frame")->valuedouble == 1.25);
    IC_CHECK(cJSON_GetObjectItem(root, "volume_ratio_final")->valuedouble == 0.9999);
    IC_CHECK(cJSON_GetObjectItem(root, "volume_ratio_min")->valuedouble == 0.99);
    IC_CHECK(cJSON_IsNull(cJSON_GetObjectItem(root, "volume_ratio_max")));
    IC_CHECK(cJSON_GetObjectItem(root, "max_abs_J_minus_1")->valuedouble == 0.125);
    IC_CHECK(cJSON_GetObjectItem(root, "inverted_tets_final")->valuedouble == 3);
    IC_CHECK(cJSON_IsTrue(cJSON_GetObjectItem(root, "nan")));
    IC_CHECK(cJSON_GetObjectItem(root, "sweeps_total")->valuedouble == 123456789012.0);
    IC_CHECK(cJSON_GetObjectItem(root, "not_converged")->valuedouble == 2);
    cJSON_Delete(root);
    free(text);
}

IC_TEST(io, run_scramble_is_planar_and_seeded) {
    const char *text = "{\"dt\": 0.01, \"frames\": 0,\n"
                       " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [1, 2, 3],\n"
                       "   \"cells\": [3, 4, 5]}, \"translate\": [5, 6, 7],\n"
                       "   \"scramble\": {\"normal\": [0, 0, 1], \"seed\": %d}}]}";
    char scene1[512], scene2[512];
    IC_FORMAT(scene1, text, 7);
    IC_FORMAT(scene2, text, 8);
    icScene a, b, c;
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString(scene1, "a", NULL, &a, &diag) == IC_OK);
    IC_REQUIRE(icScene_LoadString(scene1, "b", NULL, &b, &diag) == IC_OK);
    IC_REQUIRE(icScene_LoadString(scene2, "c", NULL, &c, &diag) == IC_OK);
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    IC_CHECK_RESULT(icScene_Run(&a, &options, NULL, &diag), IC_OK);
    IC_CHECK_RESULT(icScene_Run(&b, &options, NULL, &diag), IC_OK);
    IC_CHECK_RESULT(icScene_Run(&c, &options, NULL, &diag), IC_OK);
    int n = icWorld_GetVertexCount(a.world);
    const icReal *xa = icWorld_GetPositions(a.world);
    const icReal *xb = icWorld_GetPositions(b.world);
    const icReal *xc = icWorld_GetPositions(c.world);
    // In the plane z = 7 (the centroid), spread over the box's x, y extent.
    icReal minX = 1e9, maxX = -1e9, maxDz = 0;
    for (int i = 0; i < n; ++i) {
        maxDz = fmax(maxDz, fabs(xa[3 * i + 2] - 7));
        minX = fmin(minX, xa[3 * i]);
        maxX = fmax(maxX, xa[3 * i]);
        IC_CHECK(xa[3 * i + 1] >= 5 - 1e-12 && xa[3 * i + 1] <= 7 + 1e-12);
    }
    IC_CHECK(maxDz < 1e-12);
    IC_CHECK(minX >= 4.5 - 1e-12 && maxX <= 5.5 + 1e-12);
    IC_CHECK(maxX - minX > 0.8); // 80 random points fill the range
    IC_CHECK(memcmp(xa, xb, sizeof(icReal) * 3 * (size_t)n) == 0);
    IC_CHECK(memcmp(xa, xc, sizeof(icReal) * 3 * (size_t)n) != 0);
    // The scramble is consumed: a second run does not scramble again.
    IC_CHECK(!a.bodies[0].scramble);
    icScene_Destroy(&a);
    icScene_Destroy(&b);
    icScene_Destroy(&c);
}

IC_TEST(io, run_static_mode) {
    const char *text =
        "{\"dt\": 0.1, \"frames\": 2,\n"
        " \"solver\": {\"mode\": \"static\", \"static\": {\"max_sweeps\": 30}},\n"
        " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [1, 0.2, 0.2], \"cells\": [5, 1, 1]},\n"
        "   \"pin\": [{\"box\": {\"min\": [-0.6, -1, -1], \"max\": [-0.4, 1, 1]}}]}]}";
    icScene scene;
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString(text, "static", NULL, &scene, &diag) == IC_OK);
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    icRunSummary summary;
    icResult r = icScene_Run(&scene, &options, &summary, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", icResult_Name(r), diag.message);
    IC_CHECK_INT(summary.frames, 2);
    IC_CHECK(summary.sweepsTotal > 0 && summary.sweepsTotal <= 60);
    // A cantilever under gravity does not settle in 30 sweeps: each frame hits the cap.
    IC_CHECK_INT(summary.notConverged, 2);
    IC_CHECK_NEAR(icWorld_GetTime(scene.world), 0.2, 1e-12);
    icScene_Destroy(&scene);
}

IC_TEST(io, run_stops_on_nan_with_a_summary) {
    icScene scene;
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString(s_dropScene, "nan", NULL, &scene, &diag) == IC_OK);
    icWorld_GetPositionsMutable(scene.world)[4] = NAN;
    icRunOptions options = icDefaultRunOptions();
    options.outputDir = icTest_TempDir();
    options.frames = 3;
    icRunSummary summary;
    IC_CHECK_RESULT(icScene_Run(&scene, &options, &summary, &diag), IC_ERR_NUMERICAL);
    IC_CHECK(summary.nan);
    IC_CHECK_INT(summary.frames, 1);
    IC_CHECK_INT(summary.vertices, 27);
    IC_CHECK(strstr(diag.message, "frame 1") != NULL);
    // The summary is still written, NaN figures as null.
    char path[1200];
    IC_FORMAT(path, "%s/summary.json", options.outputDir);
    IC_CHECK_RESULT(icWriteRunSummary(path, &summary, &diag), IC_OK);
    char *text = icTest_ReadFile(path, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    IC_CHECK(root && cJSON_IsTrue(cJSON_GetObjectItem(root, "nan")));
    IC_CHECK(root && cJSON_IsNull(cJSON_GetObjectItem(root, "volume_ratio_final")));
    cJSON_Delete(root);
    free(text);
    icScene_Destroy(&scene);
}

IC_TEST(io, run_progress_bar) {
    icScene scene;
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString(s_dropScene, "bar", NULL, &scene, &diag) == IC_OK);
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    options.progress = true;
    options.frames = 4;

    // Capture stderr in a file for the run.
    char path[1200];
    IC_FORMAT(path, "%s/stderr.txt", icTest_TempDir());
    fflush(stderr);
    int saved = dup(fileno(stderr));
    FILE *capture = fopen(path, "wb");
    IC_REQUIRE(capture != NULL && saved >= 0);
    dup2(fileno(capture), fileno(stderr));
    icResult r = icScene_Run(&scene, &options, NULL, &diag);
    fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    fclose(capture);
    IC_CHECK_RESULT(r, IC_OK);

    char *text = icTest_ReadFile(path, NULL);
    IC_REQUIRE(text != NULL);
    IC_CHECK_MSG(strstr(text, "\r[##############################] 4/4 frames  ") != NULL,
                 "progress output: '%s'", text);
    IC_CHECK(strstr(text, "ms/frame  V/V0 ") != NULL);
    size_t n = strlen(text);
    IC_CHECK(n > 0 && text[n - 1] == '\n');
    free(text);
    icScene_Destroy(&scene);
}
