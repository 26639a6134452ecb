// SPDX-License-Identifier: MIT
// The contact and tissue scenes load and run (no NaN, volume kept), the tissue scene writes
// its render surface every frame, and scene errors in colliders, bones, attachments and
// render surfaces name their JSON path.
#include "collision_testing.h"

#include "isochor/io.h"
#include "isochor/skin.h"

#include <stdio.h>
#include <string.h>

static bool runScene(const char *relative, int frames, const char *outputDir, icScene *scene,
                     icRunSummary *summary) {
    icDiagnostic diag = {0};
    icResult r = icScene_Load(icTest_SourcePath(relative), scene, &diag);
    if (r != IC_OK) {
        char text[1400];
        icDiag_Format(&diag, text, sizeof text);
        icTest_Fail(__FILE__, __LINE__, "%s", text);
        return false;
    }
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = outputDir != NULL;
    options.outputDir = outputDir;
    options.frames = frames;
    r = icScene_Run(scene, &options, summary, &diag);
    if (r != IC_OK) {
        icTest_Fail(__FILE__, __LINE__, "%s: run failed: %s", relative, diag.message);
        icScene_Destroy(scene);
        return false;
    }
    return true;
}

IC_TEST(collision, contact_scenes_run) {
    static const struct {
        const char *path;
        int frames, colliders;
        double volumeTolerance;
    } cases[] = {
        {"scenes/contact/cubes.json", 60, 0, 0.01},
        {"scenes/contact/squeeze.json", 90, 2, 0.03},
        {"scenes/contact/stairs.json", 90, 1, 0.03},
        {"scenes/contact/paddle.json", 60, 1, 0.03},
        {"scenes/contact/fold.json", 90, 0, 0.05},
    };
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        icScene scene;
        icRunSummary s;
        if (!runScene(cases[i].path, cases[i].frames, NULL, &scene, &s)) continue;
        printf("  %-28s %3d frames: V/V0 %.4f .. %.4f, %.2f ms/frame\n", cases[i].path, s.frames,
               s.volumeRatioMin, s.volumeRatioMax, s.msPerFrame);
        IC_CHECK(!s.nan);
        IC_CHECK_INT(s.frames, cases[i].frames);
        IC_CHECK_INT(icWorld_GetColliderCount(scene.world), cases[i].colliders);
        IC_CHECK_MSG(fabs(s.volumeRatioMin - 1) < cases[i].volumeTolerance &&
                         fabs(s.volumeRatioMax - 1) < cases[i].volumeTolerance,
                     "%s: V/V0 %g .. %g", cases[i].path, s.volumeRatioMin, s.volumeRatioMax);
        icScene_Destroy(&scene);
    }
}

// Counts "v " lines of an OBJ file (-1 when it cannot be read).
static int objVertices(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (line[0] == 'v' && line[1] == ' ') ++n;
    fclose(f);
    return n;
}

IC_TEST(collision, tissue_scene_walks_and_writes_its_skin) {
    icScene scene;
    icRunSummary s;
    const char *dir = icTest_TempDir();
    IC_REQUIRE(runScene("scenes/tissue/tissue.json", 6, dir, &scene, &s));
    icContactDef contact = icWorld_GetContactDef(scene.world);
    int skin = icWorld_GetSkinCount(scene.world) > 0 ? icWorld_GetSkinEmbedding(scene.world, 0)->pointCount : 0;
    printf("  tissue: %d tets, %d skin vertices, 6 frames at %.1f ms/frame, V/V0 %.4f .. %.4f\n", s.tets,
           skin, s.msPerFrame, s.volumeRatioMin, s.volumeRatioMax);
    IC_CHECK(s.tets > 15000 && s.tets < 25000);
    IC_CHECK(contact.selfContact && !contact.bodyContact);
    IC_CHECK(!s.nan);
    IC_CHECK_NEAR(s.volumeRatioMin, 1, 0.01);
    IC_CHECK_NEAR(s.volumeRatioMax, 1, 0.01);
    IC_CHECK(skin > 50000);
    // A render surface per written frame, with the skin's vertex count.
    char path[1200];
    IC_FORMAT(path, "%s/render_00000.obj", dir);
    IC_CHECK_INT(objVertices(path), skin);
    IC_FORMAT(path, "%s/render_00006.obj", dir);
    IC_CHECK_INT(objVertices(path), skin);
    icScene_Destroy(&scene);
}

// Loads a scene from text and expects `code` with `fragment` in the message.
static void expectError(const char *json, icResult code, const char *fragment) {
    icScene scene;
    icDiagnostic diag = {0};
    icResult r = icScene_LoadString(json, "bad.json", icTest_SourcePath("scenes/contact"), &scene, &diag);
    char text[1400];
    icDiag_Format(&diag, text, sizeof text);
    IC_CHECK_MSG(r == code, "expected %s, got %s: %s", icResult_Name(code), icResult_Name(r), text);
    IC_CHECK_MSG(strstr(text, fragment) != NULL, "message '%s' lacks '%s'", text, fragment);
    if (r == IC_OK) icScene_Destroy(&scene);
}

#define IC_BODY "\"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [1, 1, 1], \"cells\": 2}"

IC_TEST(collision, scene_errors_name_the_key) {
    expectError("{\"dt\": 0.01, " IC_BODY "}], \"colliders\": [{\"cone\": {}}]}", IC_ERR_UNKNOWN_KEY,
                "colliders[0]");
    expectError("{\"dt\": 0.01, " IC_BODY "}], \"colliders\": [{\"sphere\": {\"radius\": -1}}]}",
                IC_ERR_BAD_VALUE, "colliders[0].sphere.radius");
    expectError("{\"dt\": 0.01, " IC_BODY "}], \"colliders\": [{\"box\": {\"size\": [1, 1, 1], "
                "\"motion\": {\"keys\": [{\"time\": 1}, {\"time\": 0}]}}}]}",
                IC_ERR_BAD_VALUE, "colliders[0].box.motion.keys[1].time");
    expectError("{\"dt\": 0.01, " IC_BODY "}], \"colliders\": [{\"mesh\": {\"file\": \"missing.obj\"}}]}",
                IC_ERR_IO, "missing.obj");
    expectError("{\"dt\": 0.01, " IC_BODY "}], \"contact\": {\"thickness\": 0.01, \"rest_exclusion\": 0.001}}",
                IC_ERR_BAD_VALUE, "contact.rest_exclusion");
    expectError("{\"dt\": 0.01, " IC_BODY ", \"bones\": [{\"name\": \"a\", \"a\": [0, 0, 0], \"b\": [0, 1, 0], "
                "\"parent\": \"nope\"}]}]}",
                IC_ERR_BAD_VALUE, "bodies[0].bones[0].parent");
    expectError("{\"dt\": 0.01, " IC_BODY ", \"bones\": [{\"name\": \"a\", \"a\": [0, 0, 0], \"b\": [0, 1, 0]}], "
                "\"attach\": [{\"bones\": [\"b\"], \"within\": 0.1}]}]}",
                IC_ERR_BAD_VALUE, "bodies[0].attach[0].bones[0]");
    expectError("{\"dt\": 0.01, " IC_BODY ", \"bones\": [{\"name\": \"a\", \"a\": [5, 5, 5], \"b\": [5, 6, 5]}], "
                "\"attach\": [{\"within\": 0.1}]}]}",
                IC_ERR_BAD_VALUE, "no free vertex");
    expectError("{\"dt\": 0.01, " IC_BODY ", \"render_surface\": {\"generate\": \"tissue\", \"cell\": 0.1}}]}",
                IC_ERR_BAD_VALUE, "bodies[0].render_surface");
    expectError("{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"tissue\", \"cell\": 0.1}}]}",
                IC_ERR_BAD_VALUE, "needs bones");
    // A body with a bone, tissue, attachment and render surface loads.
    expectError("{\"dt\": 0.01, \"bodies\": [{\"bones\": [{\"name\": \"arm\", \"a\": [0, 0, 0], \"b\": [0.4, 0, 0], "
                "\"radius\": 0.05, \"flesh\": 0.15}], \"mesh\": {\"generate\": \"tissue\", \"cell\": 0.05}, "
                "\"attach\": [{\"within\": 0.03}], \"render_surface\": {\"generate\": \"tissue\", \"cell\": 0.03}}]}",
                IC_OK, "");
}
