// SPDX-License-Identifier: MIT
// Scene loading: a full valid scene, defaults, and for every kind of mistake the exact
// result code, JSON path and line.
#include "test.h"

#include "isochor/io.h"

#include <string.h>

static bool endsWith(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

// Loads text and checks code, line and that the message starts with prefix.
static void expectError(const char *text, icResult code, int line, const char *prefix) {
    icScene scene;
    icDiagnostic diag;
    memset(&diag, 0, sizeof diag);
    int64_t bytes = icGetByteCount();
    icResult r = icScene_LoadString(text, "test.json", NULL, &scene, &diag);
    IC_CHECK_MSG(r == code && diag.code == code, "%s: got %s (%s), expected %s", prefix,
                 icResult_Name(r), diag.message, icResult_Name(code));
    IC_CHECK_MSG(diag.line == line, "%s: line %d, expected %d (%s)", prefix, diag.line, line,
                 diag.message);
    IC_CHECK_MSG(strncmp(diag.message, prefix, strlen(prefix)) == 0,
                 "message '%s' should start with '%s'", diag.message, prefix);
    IC_CHECK_MSG(strcmp(diag.file, "test.json") == 0, "%s: diag.file '%s'", prefix, diag.file);
    IC_CHECK(scene.world == NULL && scene.bodyCount == 0);
    IC_CHECK_MSG(icGetByteCount() == bytes, "%s: %lld bytes leaked", prefix,
                 (long long)(icGetByteCount() - bytes));
    icScene_Destroy(&scene);
}

IC_TEST(io, scene_full_valid) {
    const char *text =
        "{\n"
        "  \"description\": \"everything at once\",\n"
        "  \"dt\": 0.02, \"frames\": 7, \"gravity\": [0, 0, -3],\n"
        "  \"solver\": {\"type\": \"xpbd\", \"substeps\": 5, \"iterations\": 2,\n"
        "             \"projection\": \"coupled\", \"rest_shift\": false, \"mode\": \"static\",\n"
        "             \"static\": {\"pseudo_step\": 0.001, \"iterations_per_step\": 3,\n"
        "                        \"max_sweeps\": 99, \"tolerance\": 1e-6, \"gravity\": false}},\n"
        "  \"bodies\": [\n"
        "    {\"mesh\": {\"generate\": \"box\", \"size\": [1, 0.2, 0.2], \"cells\": [5, 2, 2],\n"
        "              \"split\": 5},\n"
        "     \"material\": {\"model\": \"mm\", \"youngs_modulus\": 1e6, \"poisson_ratio\": 0.5,\n"
        "                  \"density\": 500, \"damping\": 0.01},\n"
        "     \"translate\": [0, 1, 0], \"velocity\": [1, 0, 0],\n"
        "     \"pin\": [{\"box\": {\"min\": [-0.6, 0, -1], \"max\": [-0.4, 2, 1]},\n"
        "              \"axes\": [true, false, true],\n"
        "              \"motion\": {\"translate\": [0.5, 0, 0], \"start\": 0, \"end\": 1}},\n"
        "             {\"box\": {\"min\": [0.4, 0, -1], \"max\": [0.6, 2, 1]},\n"
        "              \"motion\": [{\"rotate\": {\"axis\": [1, 0, 0], \"center\": [0, 1, 0],\n"
        "                                     \"degrees_per_second\": 90}},\n"
        "                         {\"translate\": [0, 0, 1], \"start\": 1}]}]},\n"
        "    {\"mesh\": {\"generate\": \"sphere\", \"radius\": 0.25, \"cells\": 4},\n"
        "     \"scramble\": {\"normal\": [0, 0, 2], \"seed\": 42}}\n"
        "  ],\n"
        "  \"colliders\": [{\"plane\": {\"normal\": [0, 1, 0], \"offset\": -1, \"friction\": 0}}],\n"
        "  \"output\": {\"dir\": \"out/custom\", \"every\": 3, \"format\": [\"vtu\"]}\n"
        "}\n";
    int64_t bytes = icGetByteCount();
    icScene scene;
    icDiagnostic diag = {0};
    icResult r = icScene_LoadString(text, "full.json", NULL, &scene, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s at line %d: %s", icResult_Name(r), diag.line, diag.message);
    IC_REQUIRE(r == IC_OK);
    IC_CHECK(scene.dt == 0.02);
    IC_CHECK_INT(scene.frames, 7);
    IC_CHECK_INT(scene.mode, IC_MODE_STATIC);
    IC_CHECK(scene.staticDef.pseudoStep == 0.001);
    IC_CHECK_INT(scene.staticDef.iterationsPerStep, 3);
    IC_CHECK_INT(scene.staticDef.maxSweeps, 99);
    IC_CHECK(scene.staticDef.tolerance == 1e-6);
    IC_CHECK(!scene.staticDef.gravity);
    icWorldDef def = icWorld_GetDef(scene.world);
    IC_CHECK_INT(def.substeps, 5);
    IC_CHECK_INT(def.iterations, 2);
    IC_CHECK_INT(def.projection, IC_PROJECTION_COUPLED);
    IC_CHECK(!def.restShift);
    IC_CHECK(def.gravity.x == 0 && def.gravity.y == 0 && def.gravity.z == -3);
    IC_CHECK_INT(scene.bodyCount, 2);
    IC_CHECK(strcmp(scene.outputDir, "out/custom") == 0);
    IC_CHECK_INT(scene.outputEvery, 3);
    IC_CHECK(scene.writeVtu);
    IC_CHECK(scene.path[0] == 0);

    // The box body: translated by 1 in y, 6 x 3 x 3 grid vertices.
    int vs, vc, ts, tc;
    icBody_GetRanges(scene.world, scene.bodies[0].id, &vs, &vc, &ts, &tc);
    IC_CHECK_INT(vc, 6 * 3 * 3);
    IC_CHECK_INT(tc, 5 * 5 * 2 * 2);
    const icReal *x = icWorld_GetPositions(scene.world);
    icReal minY = 1e9, maxY = -1e9;
    for (int i = vs; i < vs + vc; ++i) {
        minY = fmin(minY, x[3 * i + 1]);
        maxY = fmax(maxY, x[3 * i + 1]);
    }
    IC_CHECK_NEAR(minY, 0.9, 1e-12);
    IC_CHECK_NEAR(maxY, 1.1, 1e-12);
    // Unpinned vertices (away from the pin boxes at x = -0.5 and 0.5) move at 1 m/s in x.
    const icReal *v = icWorld_GetVelocities(scene.world);
    int moving = 0;
    for (int i = vs; i < vs + vc; ++i)
        if (fabs(x[3 * i]) < 0.35) {
            IC_CHECK(v[3 * i] == 1 && v[3 * i + 1] == 0 && v[3 * i + 2] == 0);
            ++moving;
        }
    IC_CHECK_INT(moving, 4 * 3 * 3);
    IC_CHECK(!scene.bodies[0].scramble);
    IC_CHECK(scene.bodies[1].scramble);
    IC_CHECK(scene.bodies[1].scrambleNormal.z == 2);
    IC_CHECK(scene.bodies[1].scrambleSeed == 42);
    IC_CHECK(icBody_IsValid(scene.world, scene.bodies[1].id));
    icScene_Destroy(&scene);
    IC_CHECK(scene.world == NULL);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(io, scene_defaults) {
    icScene scene;
    icDiagnostic diag = {0};
    const char *text = "{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 2}}]}";
    IC_REQUIRE(icScene_LoadString(text, "dir/my scene.json", NULL, &scene, &diag) == IC_OK);
    IC_CHECK_INT(scene.frames, 60);
    IC_CHECK_INT(scene.mode, IC_MODE_DYNAMIC);
    IC_CHECK_INT(scene.outputEvery, 1);
    IC_CHECK(scene.writeVtu);
    IC_CHECK_MSG(strcmp(scene.outputDir, "out/my scene") == 0, "outputDir '%s'", scene.outputDir);
    icWorldDef def = icWorld_GetDef(scene.world);
    icWorldDef expected = icDefaultWorldDef();
    IC_CHECK_INT(def.substeps, expected.substeps);
    IC_CHECK(def.gravity.y == expected.gravity.y);
    icStaticDef staticDef = icDefaultStaticDef();
    IC_CHECK(scene.staticDef.pseudoStep == staticDef.pseudoStep);
    IC_CHECK(scene.staticDef.iterationsPerStep == staticDef.iterationsPerStep);
    IC_CHECK(scene.staticDef.maxSweeps == staticDef.maxSweeps);
    IC_CHECK(scene.staticDef.tolerance == staticDef.tolerance);
    IC_CHECK(scene.staticDef.gravity == staticDef.gravity);
    IC_CHECK_INT(icWorld_GetVertexCount(scene.world), 27);
    icScene_Destroy(&scene);

    // No name: "out/scene"; an empty format list writes nothing.
    text = "{\"dt\": 0.01, \"output\": {\"format\": []},\n"
           " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1}}]}";
    IC_REQUIRE(icScene_LoadString(text, NULL, NULL, &scene, &diag) == IC_OK);
    IC_CHECK_MSG(strcmp(scene.outputDir, "out/scene") == 0, "outputDir '%s'", scene.outputDir);
    IC_CHECK(!scene.writeVtu);
    icScene_Destroy(&scene);
}

IC_TEST(io, scene_malformed_json) {
    // cJSON stops at the second body (a missing comma on line 4): line 5.
    icScene scene;
    icDiagnostic diag = {0};
    const char *path = icTest_SourcePath("tests/data/io/scenes/malformed.json");
    IC_CHECK_RESULT(icScene_Load(path, &scene, &diag), IC_ERR_PARSE);
    IC_CHECK_INT(diag.line, 5);
    IC_CHECK(strcmp(diag.file, path) == 0);
    IC_CHECK(strstr(diag.message, "malformed JSON") != NULL);
    IC_CHECK(scene.world == NULL);

    expectError("{\"dt\": 0.01,\n\"bodies\": [],\n}\n", IC_ERR_PARSE, 3, "malformed JSON");
    expectError("{\"dt\": 0.01,\n\"bodies\": [\n", IC_ERR_PARSE, 3, "malformed JSON");
    expectError("\n\n{\"dt\": 0.01 \"x\"}", IC_ERR_PARSE, 3, "malformed JSON");
    expectError("{\"dt\": 0.01}\n\ntrailing", IC_ERR_PARSE, 3, "malformed JSON");
    expectError("", IC_ERR_PARSE, 1, "malformed JSON");
    // Valid JSON that is not an object.
    expectError("\n[1, 2]", IC_ERR_BAD_VALUE, 2, "expected an object");
}

IC_TEST(io, scene_unknown_keys) {
    const char *body = "{\"mesh\": {\"generate\": \"box\", \"cells\": 1}";
    char text[1024];
    IC_FORMAT(text,
              "{\"dt\": 0.01,\n"
              " \"bodies\": [%s},\n"
              "  %s,\n"
              "   \"material\": {\"youngs_modulus\": 1e5,\n"
              "                \"poisson_ratioo\": 0.3}}]}\n",
              body, body);
    expectError(text, IC_ERR_UNKNOWN_KEY, 5,
                "bodies[1].material.poisson_ratioo: unknown key (did you mean 'poisson_ratio'?)");
    expectError("{\"dt\": 1, \"bodies\": [], \n \"frame\": 3}", IC_ERR_UNKNOWN_KEY, 2,
                "frame: unknown key (did you mean 'frames'?)");
    expectError("{\"dt\": 1,\n \"solver\": {\"substeps\": 2, \"zzz\": 1}, \"bodies\": []}",
                IC_ERR_UNKNOWN_KEY, 2, "solver.zzz: unknown key");
    // Keys of another generator are unknown to this one.
    expectError("{\"dt\": 1, \"bodies\": [{\"mesh\":\n {\"generate\": \"box\",\n \"radius\": 1}}]}",
                IC_ERR_UNKNOWN_KEY, 3, "bodies[0].mesh.radius: unknown key");
    expectError("{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generat\": \"box\"}}]}", IC_ERR_UNKNOWN_KEY,
                1, "bodies[0].mesh.generat: unknown key");
    expectError("{\"dt\": 1, \"colliders\": [{\"plane\": {}, \"cone\": {}}], \"bodies\": [" 
                "{\"mesh\": {\"generate\": \"box\", \"cells\": 1}}]}",
                IC_ERR_UNKNOWN_KEY, 1, "colliders[0].cone: unknown key");
    expectError("{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1},\n"
                "\"pin\": [{\"box\": {\"min\": [0,0,0], \"max\": [1,1,1]},\n"
                "\"motion\": {\"rotate\": {\"axis\": [1,0,0],\n\"degrees\": 3}}}]}]}",
                IC_ERR_UNKNOWN_KEY, 4, "bodies[0].pin[0].motion.rotate.degrees: unknown key");
}

IC_TEST(io, scene_bad_values) {
    const char *box = "{\"mesh\": {\"generate\": \"box\", \"cells\": 1}}";
    char text[1024];
    IC_FORMAT(text,
              "{\"dt\": 0.01,\n"
              " \"bodies\": [%s,\n"
              "  {\"mesh\": {\"generate\": \"box\", \"cells\": 1},\n"
              "   \"material\": {\"poisson_ratio\": 0.7}}]}\n",
              box);
    expectError(text, IC_ERR_BAD_VALUE, 4, "bodies[1].material.poisson_ratio: 0.7 is outside [0, 0.5]");

    // Each (document, line, message prefix).
    struct {
        const char *text;
        int line;
        const char *prefix;
    } cases[] = {
        {"{\"dt\": 0, \"bodies\": []}", 1, "dt: 0 is outside [1e-09, 3600]"},
        {"{\"dt\": -1, \"bodies\": []}", 1, "dt: -1 is outside [1e-09, 3600]"},
        {"{\"dt\": \"fast\", \"bodies\": []}", 1, "dt: expected a number, got a string"},
        {"{\"dt\": 1e999, \"bodies\": []}", 1, "dt: inf is not a finite number"},
        // Numbers a step cannot compute with: the scene is refused, not run to garbage.
        {"{\"dt\": 5e-324, \"bodies\": []}", 1, "dt: 4.94066e-324 is outside [1e-09, 3600]"},
        {"{\"dt\": 1, \"gravity\": [0, -1e308, 0], \"bodies\": []}", 1,
         "gravity[1]: -1e+308 is outside [-100000, 100000]"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\"}, \"translate\": [1e308, 0, 0]}]}",
         1, "bodies[0].translate[0]: 1e+308 is outside [-1e+06, 1e+06]"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\"},\n"
         "\"material\": {\"youngs_modulus\": 1e308}}]}", 2,
         "bodies[0].material.youngs_modulus: 1e+308 is outside (0, 1e+13]"},
        {"{\"dt\": 1,\n\"frames\": -1, \"bodies\": []}", 2, "frames: -1 must be >= 0"},
        {"{\"dt\": 1, \"frames\": 2.5, \"bodies\": []}", 1, "frames: 2.5 is not an integer"},
        {"{\"dt\": 1, \"gravity\": [0, -9.8], \"bodies\": []}", 1, "gravity: expected 3 numbers, got 2"},
        {"{\"dt\": 1, \"gravity\": [0, \n\"a\", 0], \"bodies\": []}", 2,
         "gravity[1]: expected a number, got a string"},
        {"{\"dt\": 1, \"solver\": {\"substeps\": 0}, \"bodies\": []}", 1, "solver.substeps: 0 must be >= 1"},
        {"{\"dt\": 1, \"solver\": {\"projection\": \"jacobi\"}, \"bodies\": []}", 1,
         "solver.projection: 'jacobi' is not one of sequential, coupled"},
        {"{\"dt\": 1, \"solver\": {\"rest_shift\": 1}, \"bodies\": []}", 1,
         "solver.rest_shift: expected true or false, got a number"},
        {"{\"dt\": 1, \"solver\": {\"static\": {\"tolerance\": 0}}, \"bodies\": []}", 1,
         "solver.static.tolerance: 0 is outside (0, inf)"},
        {"{\"dt\": 1, \"bodies\": []}", 1, "bodies: 0 bodies; a scene has 1 to 64"},
        {"{\"dt\": 1, \"bodies\": {}}", 1, "bodies: expected an array, got an object"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 0}}]}", 1,
         "bodies[0].mesh.cells: 0 is outside [1, 1000]"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": [1, 0, 1]}}]}", 1,
         "bodies[0].mesh.cells[1]: 0 is outside [1, 1000]"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"split\": 4}}]}", 1,
         "bodies[0].mesh.split: 4 is outside [5, 6]"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"sphere\", \"grid\": \"hex\"}}]}", 1,
         "bodies[0].mesh.grid: 'hex' is not one of carved, mapped"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"sphere\", \"grid\": \"mapped\", \"split\": 5}}]}", 1,
         "bodies[0].mesh.split: a mapped sphere cuts each cell into 6 tets"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"sphere\", \"grid\": \"mapped\", \"cells\": 1}}]}", 1,
         "bodies[0].mesh.cells: a mapped sphere needs at least 2 cells"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [1, 0, 1]}}]}", 1,
         "bodies[0].mesh.size: every edge length must be > 0"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"cone\"}}]}", 1,
         "bodies[0].mesh.generate: 'cone' is not one of box, sphere, torus, crazy_cube"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"torus\", \"major_radius\": 1,\n"
         "\"minor_radius\": 1}}]}", 2, "bodies[0].mesh.minor_radius: 1 must be below major_radius 1"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"file\": \"x.ele\"}}]}", 1,
         "bodies[0].mesh: give either 'generate' or 'file', not both"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\"},\n"
         "\"material\": {\"density\": 0}}]}", 2, "bodies[0].material.density: 0 is outside (0, 1e+06]"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\"},\n"
         "\"material\": {\"youngs_modulus\": -5}}]}", 2,
         "bodies[0].material.youngs_modulus: -5 is outside (0, 1e+13]"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\"},\n"
         "\"material\": {\"model\": \"rubber\"}}]}", 2,
         "bodies[0].material.model: 'rubber' is not one of mm, linear, stvk, corotated, "
         "neohookean, snh, snh2018"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\"},\n"
         "\"scramble\": {\"normal\": [0, 0, 0]}}]}", 2,
         "bodies[0].scramble.normal: a direction must not be the zero vector"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\"},\n"
         "\"scramble\": {\"seed\": -1}}]}", 2, "bodies[0].scramble.seed: -1 is outside [0, inf)"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 2},\n"
         "\"pin\": [{\"box\": {\"min\": [0, 0, 0], \"max\": [1, -1, 1]}}]}]}", 2,
         "bodies[0].pin[0].box: min is above max on axis y"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 2},\n"
         "\"pin\": [{\"box\": {\"min\": [5, 5, 5], \"max\": [6, 6, 6]}}]}]}", 2,
         "bodies[0].pin[0].box: the box holds no vertex of the body"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 2},\n"
         "\"pin\": [{\"box\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]},\n"
         "\"motion\": {\"start\": 2, \"end\": 1}}]}]}", 3, "bodies[0].pin[0].motion.end: 1 is before start 2"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 2},\n"
         "\"pin\": [{\"box\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]},\n"
         "\"motion\": [{}, {}, {}, {}, {}]}]}]}", 3, "bodies[0].pin[0].motion: 5 segments; a pin has 1 to 4"},
        {"{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 2},\n"
         "\"pin\": [{\"box\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]},\n"
         "\"axes\": [true, 1, true]}]}]}", 3, "bodies[0].pin[0].axes[1]: expected true or false"},
        {"{\"dt\": 1, \"colliders\": [{\"plane\": {\"normal\": [0, 0, 0]}}],\n"
         "\"bodies\": [{\"mesh\": {\"generate\": \"box\"}}]}", 1,
         "colliders[0].plane.normal: a direction must not be the zero vector"},
        {"{\"dt\": 1, \"colliders\": [{\"plane\": {\"friction\": -0.1}}],\n"
         "\"bodies\": [{\"mesh\": {\"generate\": \"box\"}}]}", 1,
         "colliders[0].plane.friction: -0.1 is outside [0, inf)"},
        {"{\"dt\": 1,\n\"output\": {\"every\": 0}, \"bodies\": []}", 2, "output.every: 0 must be >= 1"},
        {"{\"dt\": 1, \"output\": {\"format\": [\"vtu\",\n \"png\"]}, \"bodies\": []}", 2,
         "output.format[1]: 'png' is not a known format (known: vtu, obj, ply, pc2)"},
        {"{\"dt\": 1, \"output\": {\"dir\": \"\"}, \"bodies\": []}", 1, "output.dir: must not be empty"},
        {"{\"dt\": 1,\n\"dt\": 2, \"bodies\": []}", 2, "dt: key repeated (first on line 1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        expectError(cases[i].text, IC_ERR_BAD_VALUE, cases[i].line, cases[i].prefix);
}

IC_TEST(io, scene_missing_and_unsupported) {
    expectError("{\"frames\": 3,\n \"bodies\": []}", IC_ERR_MISSING_KEY, 1,
                "dt: required key is missing");
    expectError("{\"dt\": 0.1}", IC_ERR_MISSING_KEY, 1, "bodies: required key is missing");
    expectError("{\"dt\": 1, \"bodies\": [\n{\"material\": {}}]}", IC_ERR_MISSING_KEY, 2,
                "bodies[0].mesh: required key is missing");
    expectError("{\"dt\": 1, \"bodies\": [{\"mesh\": {}}]}", IC_ERR_MISSING_KEY, 1,
                "bodies[0].mesh.generate: required key is missing (or give 'file')");
    expectError("{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\"},\n"
                "\"pin\": [{\"axes\": [true, true, true]}]}]}",
                IC_ERR_MISSING_KEY, 2, "bodies[0].pin[0].box: required key is missing");
    expectError("{\"dt\": 1,\n\"solver\": {\n\"type\": \"cholmod\"}, \"bodies\": []}",
                IC_ERR_UNSUPPORTED, 3,
                "solver.type: 'cholmod' is not supported (known: xpbd, newton, quasistatic, incompressible)");
    // The XPBD world refuses material models it cannot minimise, at the model's line.
    expectError("{\"dt\": 1, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1},\n"
                "\"material\": {\n\"model\": \"stvk\"}}]}",
                IC_ERR_UNSUPPORTED, 3, "bodies[0].material.model: ");
}

IC_TEST(io, scene_mesh_file_relative_to_scene) {
    icScene scene;
    icDiagnostic diag = {0};
    const char *path = icTest_SourcePath("tests/data/io/scenes/cube_file.json");
    icResult r = icScene_Load(path, &scene, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", icResult_Name(r), diag.message);
    IC_REQUIRE(r == IC_OK);
    IC_CHECK(strcmp(scene.path, path) == 0);
    IC_CHECK(strcmp(scene.outputDir, "out/cube_file") == 0);
    IC_CHECK_INT(icWorld_GetVertexCount(scene.world), 8);
    IC_CHECK_INT(icWorld_GetTetCount(scene.world), 5);
    IC_CHECK_INT(scene.frames, 3);
    icScene_Destroy(&scene);

    // The same text from a string, with the folder given.
    char text[1024];
    IC_FORMAT(text, "{\"dt\": 1, \"bodies\": [{\"mesh\": {\"file\": \"cube0.ele\"}}]}");
    IC_REQUIRE(icScene_LoadString(text, "s", icTest_SourcePath("tests/data/io"), &scene, &diag) ==
               IC_OK);
    IC_CHECK_INT(icWorld_GetTetCount(scene.world), 5);
    icScene_Destroy(&scene);
}

IC_TEST(io, scene_mesh_error_keeps_file_and_line) {
    icScene scene;
    icDiagnostic diag = {0};
    int64_t bytes = icGetByteCount();
    const char *path = icTest_SourcePath("tests/data/io/scenes/bad_mesh.json");
    IC_CHECK_RESULT(icScene_Load(path, &scene, &diag), IC_ERR_DEGENERATE_ELEMENT);
    IC_CHECK_MSG(endsWith(diag.file, "tests/data/io/scenes/../bad_flat.ele"), "file '%s'",
                 diag.file);
    IC_CHECK_INT(diag.line, 8);
    IC_CHECK_MSG(strstr(diag.message, "bodies[1].mesh.file") && strstr(diag.message, "line 5"),
                 "message '%s'", diag.message);
    IC_CHECK(scene.world == NULL);
    IC_CHECK_INT(icGetByteCount(), bytes);

    // A scene that does not exist.
    IC_CHECK_RESULT(icScene_Load("no/such/scene.json", &scene, &diag), IC_ERR_IO);
    IC_CHECK(strcmp(diag.file, "no/such/scene.json") == 0);
    // A mesh file that does not exist names the file it looked for.
    IC_CHECK_RESULT(icScene_LoadString("{\"dt\": 1, \"bodies\": [{\"mesh\": {\"file\": \"nothing\"}}]}",
                                       "s.json", "some/dir", &scene, &diag),
                    IC_ERR_IO);
    IC_CHECK_MSG(strcmp(diag.file, "some/dir/nothing.node") == 0, "file '%s'", diag.file);
    IC_CHECK(strstr(diag.message, "cannot open") != NULL);
}
