// SPDX-License-Identifier: MIT
// Pre-flight notes: each warning fires on a scene built to trigger it, with the closed-form
// figures, and none fires on a shipped scene (loaded, never stepped).
#define _POSIX_C_SOURCE 200809L
#include "test.h"

#include "isochor/io.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

// A box of size sx x sy x sz on the default material unless E, density or substeps are given.
static bool loadBox(icScene *scene, double sx, double sy, double sz, int cells, double E,
                    int substeps, const char *extra) {
    char text[2000];
    IC_FORMAT(text,
              "{\"dt\": 0.01, \"frames\": 1, \"solver\": {\"substeps\": %d},\n"
              " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [%.17g, %.17g, %.17g], "
              "\"cells\": %d},\n"
              "   \"material\": {\"youngs_modulus\": %.17g, \"density\": 1000}}]%s}\n",
              substeps, sx, sy, sz, cells, E, extra);
    icDiagnostic diag = {0};
    icResult r = icScene_LoadString(text, "box", NULL, scene, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s", diag.message);
    return r == IC_OK;
}

// The shape of the TetGen bunny that collapsed (10 m tall, E = 1e5 Pa): rho g H / E = 0.981.
IC_TEST(preflight, tall_soft_body_sags_and_suggests_other_units) {
    icScene scene;
    IC_REQUIRE(loadBox(&scene, 4, 10, 4, 2, 1e5, 20, ""));
    IC_CHECK(scene.preflight);
    icPreflightReport report;
    IC_REQUIRE(icScene_Preflight(&scene, &report) == IC_OK);
    IC_CHECK_INT(report.bodyCount, 1);
    const icPreflightBody *b = &report.bodies[0];
    IC_CHECK_NEAR(b->height, 10, 1e-12);
    IC_CHECK_NEAR(b->size.x, 4, 1e-12);
    IC_CHECK_NEAR(b->size.y, 10, 1e-12);
    IC_CHECK_NEAR(b->mass, 1000.0 * 4 * 10 * 4, 1e-6);
    IC_CHECK_NEAR(b->sagRatio, 1000 * 9.81 * 10 / 1e5, 1e-12);
    IC_CHECK_INT(b->warnings, IC_PREFLIGHT_SAG | IC_PREFLIGHT_UNITS_LARGE);
    IC_CHECK_INT(report.warnings, IC_PREFLIGHT_SAG | IC_PREFLIGHT_UNITS_LARGE);

    // The text a user reads: the body's figures, the sag in per cent of its height, the units.
    FILE *fp = tmpfile();
    IC_REQUIRE(fp != NULL);
    IC_CHECK_INT(icPreflight_Print(&report, fp, "x: ", false), 2);
    long size = ftell(fp);
    rewind(fp);
    char text[4000] = "";
    size_t n = fread(text, 1, sizeof text - 1, fp);
    text[n] = 0;
    fclose(fp);
    IC_CHECK(size > 0);
    IC_CHECK_MSG(strstr(text, "x: pre-flight: body 0: 4 x 10 x 4 m, 1.6e+05 kg") != NULL, "%s",
                 text);
    IC_CHECK_MSG(strstr(text, "will sag ~49 % of its height") != NULL, "%s", text);
    IC_CHECK_MSG(strstr(text, "centimetres or millimetres") != NULL, "%s", text);
    IC_CHECK_MSG(strstr(text, "\"preflight\": false") != NULL, "%s", text);
    icScene_Destroy(&scene);
}

// Stiff enough (E = 1e5 Pa at 2 m: rho g H / E = 0.196) stays silent: the threshold is 0.2.
IC_TEST(preflight, sag_threshold_and_gravity) {
    icScene scene;
    IC_REQUIRE(loadBox(&scene, 1, 2, 1, 2, 1e5, 20, ""));
    icPreflightReport report;
    IC_REQUIRE(icScene_Preflight(&scene, &report) == IC_OK);
    IC_CHECK_NEAR(report.bodies[0].sagRatio, 0.1962, 1e-12);
    IC_CHECK_INT(report.warnings, 0);
    icScene_Destroy(&scene);
    // No gravity, no sag, whatever the height.
    IC_REQUIRE(loadBox(&scene, 1, 3, 1, 2, 1e5, 20, ", \"gravity\": [0, 0, 0]"));
    IC_REQUIRE(icScene_Preflight(&scene, &report) == IC_OK);
    IC_CHECK_INT(report.bodies[0].sagRatio, 0);
    IC_CHECK_INT(report.warnings, 0);
    icScene_Destroy(&scene);
    // Gravity along x: the height is the extent along it.
    IC_REQUIRE(loadBox(&scene, 3, 1, 1, 2, 1e5, 20, ", \"gravity\": [-9.81, 0, 0]"));
    IC_REQUIRE(icScene_Preflight(&scene, &report) == IC_OK);
    IC_CHECK_NEAR(report.bodies[0].height, 3, 1e-12);
    IC_CHECK_INT(report.warnings, IC_PREFLIGHT_SAG);
    icScene_Destroy(&scene);
}

// E = 1e9 Pa, rho = 1000: sqrt(rho / E) = 1e-3 s/m; a 0.1 m box of 4 cells has 0.025 m edges,
// a wave time of 2.5e-5 s, against a substep of 0.01 / 20 = 5e-4 s.
IC_TEST(preflight, substep_longer_than_the_wave_time) {
    icScene scene;
    IC_REQUIRE(loadBox(&scene, 0.1, 0.1, 0.1, 4, 1e9, 20, ""));
    icPreflightReport report;
    IC_REQUIRE(icScene_Preflight(&scene, &report) == IC_OK);
    const icPreflightBody *b = &report.bodies[0];
    IC_CHECK_NEAR(report.substep, 5e-4, 1e-15);
    IC_CHECK_NEAR(b->shortestEdge, 0.025, 1e-12);
    IC_CHECK_NEAR(b->waveTime, 2.5e-5, 1e-15);
    IC_CHECK_MSG(b->substepsNeeded == 400 || b->substepsNeeded == 401, "%d", b->substepsNeeded);
    IC_CHECK_INT(report.warnings, IC_PREFLIGHT_SUBSTEP);
    FILE *fp = tmpfile();
    IC_REQUIRE(fp != NULL);
    IC_CHECK_INT(icPreflight_Print(&report, fp, "", false), 1);
    rewind(fp);
    char text[4000] = "";
    size_t n = fread(text, 1, sizeof text - 1, fp);
    text[n] = 0;
    fclose(fp);
    IC_CHECK_MSG(strstr(text, "XPBD stays stable") != NULL, "%s", text);
    IC_CHECK_MSG(strstr(text, "\"substeps\": 40") != NULL, "%s", text);
    icScene_Destroy(&scene);
    // 500 substeps resolve it.
    IC_REQUIRE(loadBox(&scene, 0.1, 0.1, 0.1, 4, 1e9, 500, ""));
    IC_REQUIRE(icScene_Preflight(&scene, &report) == IC_OK);
    IC_CHECK_INT(report.warnings, 0);
    icScene_Destroy(&scene);
}

// A 2 mm body: metres are likely the wrong unit. 100 substeps keep the substep check quiet
// (wave time 0.1 x 0.002 = 2e-4 s against 1e-4 s).
IC_TEST(preflight, tiny_body_suggests_other_units) {
    icScene scene;
    IC_REQUIRE(loadBox(&scene, 0.002, 0.002, 0.002, 1, 1e5, 100, ""));
    icPreflightReport report;
    IC_REQUIRE(icScene_Preflight(&scene, &report) == IC_OK);
    IC_CHECK_INT(report.warnings, IC_PREFLIGHT_UNITS_SMALL);
    IC_CHECK_NEAR(report.bodies[0].mass, 1000 * 8e-9, 1e-20);
    icScene_Destroy(&scene);
}

// The key: read, default true, and a wrong type refused with its path.
IC_TEST(preflight, scene_key) {
    icScene scene;
    IC_REQUIRE(loadBox(&scene, 4, 10, 4, 1, 1e5, 20, ", \"preflight\": false"));
    IC_CHECK(!scene.preflight);
    icScene_Destroy(&scene);
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icScene_LoadString("{\"dt\": 0.01, \"preflight\": 1,\n \"bodies\": [{\"mesh\": "
                                       "{\"generate\": \"box\"}}]}",
                                       "k", NULL, &scene, &diag),
                    IC_ERR_BAD_VALUE);
    IC_CHECK_MSG(strstr(diag.message, "preflight") != NULL, "%s", diag.message);
}

// Every scene in scenes/<folder> (folder "" for scenes/ itself) is loaded and its notes
// computed; none may warn. A scene that says "preflight": false is one its docs explain (built
// to abuse the solver) and is only loaded. One test per folder keeps each under a second.
static void checkShippedScenes(const char *folder, const char *only, int expected) {
    char dir[1200];
    IC_FORMAT(dir, "%s", icTest_SourcePath(folder[0] ? folder : "scenes"));
    DIR *d = opendir(dir);
    IC_REQUIRE(d != NULL);
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        size_t n = strlen(entry->d_name);
        if (n < 5 || strcmp(entry->d_name + n - 5, ".json") != 0) continue;
        if (only && strcmp(entry->d_name, only) != 0) continue;
        char path[2048];
        IC_FORMAT(path, "%s/%s", dir, entry->d_name);
        icScene scene;
        icDiagnostic diag = {0};
        icResult r = icScene_Load(path, &scene, &diag);
        IC_CHECK_MSG(r == IC_OK, "%s: %s", path, diag.message);
        if (r != IC_OK) continue;
        ++count;
        icPreflightReport report;
        IC_CHECK(icScene_Preflight(&scene, &report) == IC_OK);
        if (report.warnings && scene.preflight) {
            char text[8000] = "";
            FILE *fp = tmpfile();
            if (fp) {
                icPreflight_Print(&report, fp, "", false);
                rewind(fp);
                text[fread(text, 1, sizeof text - 1, fp)] = 0;
                fclose(fp);
            }
            icTest_Fail(__FILE__, __LINE__, "%s warns:\n%s", path, text);
        }
        icScene_Destroy(&scene);
    }
    closedir(d);
    IC_CHECK_MSG(count == expected, "%s: %d scenes, expected %d", dir, count, expected);
}

static const struct {
    const char *folder;
    int scenes;
} s_shippedFolders[] = {{"", 1},
                        {"scenes/contact", 5},
                        {"scenes/crazy_cube", 2},
                        {"scenes/incompressible", 6},
                        {"scenes/newton", 6},
                        {"scenes/stretch", 7},
                        {"scenes/tissue", 2},
                        {"scenes/twist", 2},
                        {"scenes/unfold", 2},
                        {"scenes/viper", 11}};

static void checkFolder(const char *folder) {
    for (size_t i = 0; i < sizeof s_shippedFolders / sizeof s_shippedFolders[0]; ++i)
        if (strcmp(s_shippedFolders[i].folder, folder) == 0)
            checkShippedScenes(folder, NULL, s_shippedFolders[i].scenes);
}

IC_TEST(preflight, silent_on_shipped_demo) { checkFolder(""); }
IC_TEST(preflight, silent_on_shipped_contact) { checkFolder("scenes/contact"); }
// The crazy cube's slivers (1.5 mm edges in a 1 m cube) are not resolved by its substeps, on
// purpose: its scenes turn the notes off.
IC_TEST(preflight, silent_on_shipped_crazy_cube_compress) {
    checkShippedScenes("scenes/crazy_cube", "compress.json", 1);
}
IC_TEST(preflight, silent_on_shipped_crazy_cube_scramble) {
    checkShippedScenes("scenes/crazy_cube", "scramble.json", 1);
}
IC_TEST(preflight, silent_on_shipped_incompressible) { checkFolder("scenes/incompressible"); }
IC_TEST(preflight, silent_on_shipped_newton) { checkFolder("scenes/newton"); }
IC_TEST(preflight, silent_on_shipped_stretch) { checkFolder("scenes/stretch"); }
// The costly ones to load (a carved tissue mesh, an octopus of rods) one at a time.
IC_TEST(preflight, silent_on_shipped_tissue) {
    checkShippedScenes("scenes/tissue", "tissue.json", 1);
}
IC_TEST(preflight, silent_on_shipped_tissue_80k) {
    checkShippedScenes("scenes/tissue", "tissue_80k.json", 1);
}
IC_TEST(preflight, silent_on_shipped_twist) { checkFolder("scenes/twist"); }
IC_TEST(preflight, silent_on_shipped_unfold) { checkFolder("scenes/unfold"); }
IC_TEST(preflight, silent_on_shipped_viper_octopus) {
    checkShippedScenes("scenes/viper", "octopus.json", 1);
}
IC_TEST(preflight, silent_on_shipped_viper_muscle) {
    checkShippedScenes("scenes/viper", "viperized_muscle.json", 1);
}
// The other nine rod scenes.
IC_TEST(preflight, silent_on_shipped_viper) {
    static const char *const names[] = {"contraction_rigid.json", "contraction_scale_invariant.json",
                                        "convergence.json", "oscillation_bergou.json",
                                        "oscillation_viper.json", "rod_stretch.json",
                                        "rod_stretch_hard.json", "sheet.json", "shockwave.json"};
    for (int i = 0; i < 9; ++i) checkShippedScenes("scenes/viper", names[i], 1);
}

// Every folder of scenes/ is one of the above, so a new one is not skipped unseen.
IC_TEST(preflight, shipped_folders_are_all_checked) {
    DIR *d = opendir(icTest_SourcePath("scenes"));
    IC_REQUIRE(d != NULL);
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (entry->d_name[0] == '.' || strchr(entry->d_name, '.')) continue;
        char folder[300];
        IC_FORMAT(folder, "scenes/%s", entry->d_name);
        bool listed = false;
        for (size_t i = 0; i < sizeof s_shippedFolders / sizeof s_shippedFolders[0]; ++i)
            listed = listed || strcmp(s_shippedFolders[i].folder, folder) == 0;
        IC_CHECK_MSG(listed, "%s is not checked", folder);
    }
    closedir(d);
}
