// SPDX-License-Identifier: MIT
// Scene validation cases the issue names that tests/io/test_scene.c does not: values past
// the integer range, nu = 0 under the mm energy, a missing mesh file named with its JSON path,
// wrong types of whole objects, and the health object (test_health.c has its keys).
#include "test.h"

#include "isochor/io.h"

#include <string.h>

static void expect(const char *text, icResult code, int line, const char *prefix) {
    icScene scene;
    icDiagnostic diag = {0};
    int64_t bytes = icGetByteCount();
    IC_CHECK_RESULT(icScene_LoadString(text, "v.json", "no/such/dir", &scene, &diag), code);
    IC_CHECK_MSG(strncmp(diag.message, prefix, strlen(prefix)) == 0, "message '%s', expected '%s...'",
                 diag.message, prefix);
    IC_CHECK_MSG(diag.line == line, "'%s': line %d, expected %d", prefix, diag.line, line);
    IC_CHECK(scene.world == NULL);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(reliability, scene_validation_audit) {
    const char *box = "\"mesh\": {\"generate\": \"box\", \"cells\": 1}";
    char doc[1000];
    // Integers past the int range say so (they used to read "1e+20 must be >= 0").
    IC_FORMAT(doc, "{\"dt\": 0.01,\n\"frames\": 1e20, \"bodies\": [{%s}]}", box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "frames: 1e+20 is too large (at most 2147483647)");
    IC_FORMAT(doc, "{\"dt\": 0.01, \"solver\": {\n\"substeps\": 3e9}, \"bodies\": [{%s}]}", box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "solver.substeps: 3e+09 is too large (at most 2147483647)");
    // Cells in range one by one whose grid is larger than a generated mesh holds (the
    // generator said "invalid argument"); the line is the "mesh" key's.
    IC_FORMAT(doc, "{\"dt\": 0.01, \"bodies\": [{\"mesh\":\n{\"generate\": \"box\", "
                   "\"cells\": 1000}}]}");
    expect(doc, IC_ERR_BAD_VALUE, 1,
           "bodies[0].mesh: cannot generate the box: its cells make more than 536870911 tets");
    IC_FORMAT(doc, "{\"dt\": 0.01, \"bodies\": [{\"mesh\":\n{\"generate\": \"sphere\", "
                   "\"cells\": 1000}}]}");
    expect(doc, IC_ERR_BAD_VALUE, 1,
           "bodies[0].mesh: cannot generate the sphere: its cells make more than 536870911 tets");
    // nu = 0 is in [0, 0.5] but the mm energy refuses it: the path is the key's.
    IC_FORMAT(doc, "{\"dt\": 0.01, \"bodies\": [{%s,\n\"material\": {\"poisson_ratio\": 0}}]}",
              box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "bodies[0].material.poisson_ratio: poisson_ratio 0");
    // Out of range, each with its path.
    IC_FORMAT(doc, "{\"dt\": 0.01, \"bodies\": [{%s},\n{%s, \"material\": {\"density\": -3}}]}",
              box, box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "bodies[1].material.density: -3 is outside (0, 1e+06]");
    IC_FORMAT(doc,
              "{\"dt\": 0.01, \"bodies\": [{%s, \"material\": {\n\"poisson_ratio\": 0.5000001}}]}",
              box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "bodies[0].material.poisson_ratio: 0.5 is outside [0, 0.5]");
    IC_FORMAT(doc, "{\"dt\": -0.0, \"bodies\": [{%s}]}", box);
    expect(doc, IC_ERR_BAD_VALUE, 1, "dt: -0 is outside [1e-09, 3600]");
    IC_FORMAT(doc, "{\"dt\": 0.01, \"solver\": {\n\"linear_damping\": -1}, \"bodies\": [{%s}]}",
              box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "solver.linear_damping: -1 is outside [0, inf)");
    // Wrong types of whole objects.
    IC_FORMAT(doc, "{\"dt\": 0.01, \"bodies\": [{%s,\n\"material\": []}]}", box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "bodies[0].material: expected an object, got an array");
    IC_FORMAT(doc, "{\"dt\": 0.01, \"bodies\": [{%s,\n\"pin\": {}}]}", box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "bodies[0].pin: expected an array, got an object");
    IC_FORMAT(doc, "{\"dt\": 0.01,\n\"solver\": \"xpbd\", \"bodies\": [{%s}]}", box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "solver: expected an object, got a string");
    IC_FORMAT(doc, "{\"dt\": 0.01,\n\"colliders\": {}, \"bodies\": [{%s}]}", box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "colliders: expected an array, got an object");
    IC_FORMAT(doc, "{\"dt\": 0.01, \"bodies\": [{%s,\n\"velocity\": [1, null, 0]}]}", box);
    expect(doc, IC_ERR_BAD_VALUE, 2, "bodies[0].velocity[1]: expected a number, got null");
    // Unknown keys at every level, here the new health object and a body.
    IC_FORMAT(doc, "{\"dt\": 0.01, \"bodies\": [{%s,\n\"colour\": \"red\"}]}", box);
    expect(doc, IC_ERR_UNKNOWN_KEY, 2, "bodies[0].colour: unknown key");
    IC_FORMAT(doc, "{\"dt\": 0.01,\n\"helth\": {}, \"bodies\": [{%s}]}", box);
    expect(doc, IC_ERR_UNKNOWN_KEY, 2, "helth: unknown key (did you mean 'health'?)");
    // A missing mesh file: IC_ERR_IO naming the file it looked for and the JSON path.
    icScene scene;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icScene_LoadString("{\"dt\": 1,\n\"bodies\": [{\"mesh\": {\"file\": \"gone.msh\"}}]}",
                                       "v.json", "no/such/dir", &scene, &diag),
                    IC_ERR_IO);
    IC_CHECK_MSG(strcmp(diag.file, "no/such/dir/gone.msh") == 0, "file '%s'", diag.file);
    IC_CHECK_MSG(strstr(diag.message, "bodies[0].mesh.file") && strstr(diag.message, "v.json line 2"),
                 "message '%s'", diag.message);
}

// The crazy-cube generator key, otherwise reached only by the long paper tests (which the
// sanitizer run skips): its keys, its range checks and a short run of what it makes.
IC_TEST(reliability, scene_crazy_cube_generator) {
    const char *text = "{\"dt\": 0.01, \"frames\": 3, \"solver\": {\"substeps\": 4},\n"
                       " \"bodies\": [{\"mesh\": {\"generate\": \"crazy_cube\", \"size\": 0.5,\n"
                       "   \"tets\": 400, \"seed\": 3}, \"material\": {\"poisson_ratio\": 0.5}}]}";
    icScene scene;
    icDiagnostic diag = {0};
    int64_t bytes = icGetByteCount();
    IC_REQUIRE(icScene_LoadString(text, "c.json", ".", &scene, &diag) == IC_OK);
    int tets = icWorld_GetTetCount(scene.world);
    IC_CHECK_MSG(tets >= 200 && tets <= 800, "%d tets for a target of 400", tets);
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    icRunSummary summary;
    IC_CHECK_RESULT(icScene_Run(&scene, &options, &summary, &diag), IC_OK);
    IC_CHECK_INT(summary.frames, 3);
    IC_CHECK_NEAR(summary.volumeRatioFinal, 1, 0.05);
    icScene_Destroy(&scene);
    IC_CHECK_INT(icGetByteCount(), bytes);
    expect("{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"crazy_cube\",\n\"tets\": 0}}]}",
           IC_ERR_BAD_VALUE, 2, "bodies[0].mesh.tets: 0 is outside [162, 100000000]");
    expect("{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"crazy_cube\",\n\"size\": -1}}]}",
           IC_ERR_BAD_VALUE, 2, "bodies[0].mesh.size: -1 is outside (0, inf)");
    expect("{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"crazy_cube\",\n\"cells\": 3}}]}",
           IC_ERR_UNKNOWN_KEY, 2, "bodies[0].mesh.cells: unknown key");
}
