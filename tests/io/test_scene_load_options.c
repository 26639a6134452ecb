// SPDX-License-Identifier: MIT
// icScene_LoadWith: a workers count given at load time reaches every solver of the scene (the
// world is built at load time, so `isochor run --workers N` cannot set it later).
#include "test.h"

#include "isochor/io.h"
#include "isochor/rod.h"

#include <stdio.h>
#include <string.h>

// A scene of one solver type (its "workers" key 1), with a box and a rod.
static bool loadWith(const char *solver, int workers, icScene *scene) {
    char text[1500];
    IC_FORMAT(text,
              "{\"dt\": 0.01, \"frames\": 1, \"gravity\": [0, 0, 0],\n"
              " \"solver\": {\"type\": \"%s\", \"workers\": 1},\n"
              " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1}}],\n"
              " \"rods\": [{\"solver\": {\"workers\": 1}},\n"
              "   {\"straight\": {\"start\": [0, 2, 0], \"end\": [1, 2, 0], \"segments\": 2,\n"
              "                   \"radius\": 0.05}}]}\n",
              solver);
    char path[1300];
    IC_FORMAT(path, "%s/scene.json", icTest_TempDir());
    FILE *out = fopen(path, "wb");
    if (!out) return false;
    fputs(text, out);
    fclose(out);
    icSceneLoadOptions options = icDefaultSceneLoadOptions();
    options.workers = workers;
    icDiagnostic diag = {0};
    icResult r = icScene_LoadWith(path, &options, scene, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", solver, diag.message);
    return r == IC_OK;
}

IC_TEST(io, scene_load_workers_override) {
    IC_CHECK_INT(icDefaultSceneLoadOptions().workers, -1);
    static const char *const solvers[] = {"xpbd", "newton", "incompressible"};
    for (int s = 0; s < 3; ++s) {
        icScene scene;
        // -1 keeps the scene's 1; 3 replaces it for the tets and the rods alike.
        IC_REQUIRE(loadWith(solvers[s], -1, &scene));
        IC_CHECK_INT(icWorld_GetDef(scene.world).workerCount, 1);
        IC_REQUIRE(scene.rods != NULL);
        IC_CHECK_INT(icRodWorld_GetDef(scene.rods).workerCount, 1);
        icScene_Destroy(&scene);
        IC_REQUIRE(loadWith(solvers[s], 3, &scene));
        IC_CHECK_MSG(icWorld_GetDef(scene.world).workerCount == 3, "%s: %d", solvers[s],
                     icWorld_GetDef(scene.world).workerCount);
        IC_CHECK_INT(icRodWorld_GetDef(scene.rods).workerCount, 3);
        icScene_Destroy(&scene);
    }
}
