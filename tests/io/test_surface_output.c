// SPDX-License-Identifier: MIT
// A run's surface output for Blender: OBJ per frame and a PC2 point cache over the first OBJ.
#include "test.h"

#include "isochor/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long fileSize(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return -1;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fclose(fp);
    return n;
}

static int countLines(const char *path, const char *prefix) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, fp))
        if (strncmp(line, prefix, strlen(prefix)) == 0) ++n;
    fclose(fp);
    return n;
}

IC_TEST(io, run_writes_obj_frames_and_pc2) {
    const char *dir = icTest_TempDir();
    char text[1024];
    IC_FORMAT(text,
              "{\"dt\": 0.02, \"frames\": 4, \"bodies\": [{\"mesh\": {\"generate\": \"box\", "
              "\"size\": [1, 1, 1], \"cells\": [2, 2, 2]}}], \"output\": {\"dir\": \"%s\", "
              "\"every\": 2, \"format\": [\"obj\", \"pc2\"]}}",
              dir);
    icScene scene;
    icDiagnostic diag;
    IC_REQUIRE(icScene_LoadString(text, "drop", NULL, &scene, &diag) == IC_OK);
    icRunSummary summary;
    IC_REQUIRE(icScene_Run(&scene, NULL, &summary, &diag) == IC_OK);
    char path[1400];
    // A 2x2x2-cell box has 26 boundary vertices and 48 boundary triangles.
    for (int f = 0; f <= 4; f += 2) {
        IC_FORMAT(path, "%s/frame_%05d.obj", dir, f);
        IC_CHECK_INT(countLines(path, "v "), 26);
        IC_CHECK_INT(countLines(path, "f "), 48);
    }
    IC_FORMAT(path, "%s/frame_00001.obj", dir);
    IC_CHECK(fileSize(path) < 0); // only every second frame
    IC_FORMAT(path, "%s/frame_00000.vtu", dir);
    IC_CHECK(fileSize(path) < 0); // vtu not asked for
    IC_FORMAT(path, "%s/scene_surface.obj", dir);
    IC_CHECK_INT(countLines(path, "v "), 26);

    // PC2 (named like the .pvd: "scene" for a scene loaded from a string): a 32-byte header,
    // then 3 samples of 26 points as float32 xyz.
    IC_FORMAT(path, "%s/scene.pc2", dir);
    IC_REQUIRE(fileSize(path) == 32 + 3 * 26 * 12);
    FILE *fp = fopen(path, "rb");
    unsigned char header[32];
    IC_REQUIRE(fread(header, 1, 32, fp) == 32);
    IC_CHECK(memcmp(header, "POINTCACHE2\0", 12) == 0);
    int32_t version, points, samples;
    float start, rate;
    memcpy(&version, header + 12, 4);
    memcpy(&points, header + 16, 4);
    memcpy(&start, header + 20, 4);
    memcpy(&rate, header + 24, 4);
    memcpy(&samples, header + 28, 4);
    IC_CHECK_INT(version, 1);
    IC_CHECK_INT(points, 26);
    IC_CHECK_INT(samples, 3);
    IC_CHECK(start == 0.0f && rate == 2.0f);
    // The last sample is the body after falling for 0.08 s: y moved down by ~g t^2 / 2.
    float last[26 * 3];
    fseek(fp, 32 + 2 * 26 * 12, SEEK_SET);
    IC_REQUIRE(fread(last, sizeof(float), 26 * 3, fp) == 26 * 3);
    fclose(fp);
    double minY = 1e9;
    for (int i = 0; i < 26; ++i) minY = last[3 * i + 1] < minY ? last[3 * i + 1] : minY;
    IC_CHECK_NEAR(minY, -0.5 - 0.5 * 9.81 * 0.08 * 0.08, 2e-3);
    icScene_Destroy(&scene);
}
