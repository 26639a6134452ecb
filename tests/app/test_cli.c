// SPDX-License-Identifier: MIT
// The isochor tool as a user runs it: exit codes, files written by `run`, its summary and
// stats, its argument checks, `info` on good and bad meshes, and the runner's progress hook.
#include "test.h"

#include "isochor/io.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void writeText(const char *dir, const char *name, const char *text) {
    char path[2600];
    IC_FORMAT(path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (!fp) return;
    fputs(text, fp);
    fclose(fp);
}

static bool exists(const char *dir, const char *name) {
    char path[2600];
    IC_FORMAT(path, "%s/%s", dir, name);
    struct stat info;
    return stat(path, &info) == 0;
}

// A 2x2x2-cell box (27 vertices, 48 tets) hanging from its top face: milliseconds a frame.
static void writeTinyScene(const char *dir, const char *name, int frames) {
    char text[2000];
    IC_FORMAT(text,
              "{\"dt\": 0.01, \"frames\": %d,\n"
              " \"solver\": {\"substeps\": 4},\n"
              " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], "
              "\"cells\": 2},\n"
              "   \"pin\": [{\"box\": {\"min\": [-1, 0.09, -1], \"max\": [1, 1, 1]}}]}],\n"
              " \"output\": {\"dir\": \"%s/scene_out\"}}\n",
              frames, dir);
    writeText(dir, name, text);
}

static cJSON *readJson(const char *dir, const char *name) {
    char path[2600];
    IC_FORMAT(path, "%s/%s", dir, name);
    char *text = icTest_ReadFile(path, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    return root;
}

// Writes the scene NAME, runs it without frame files and returns its stats (NULL if none).
static cJSON *runForStats(const char *dir, const char *name, const char *text, icCliRun *run) {
    writeText(dir, name, text);
    char args[2000];
    IC_FORMAT(args, "run '%s/%s' --no-output -q --stats '%s/stats.json'", dir, name, dir);
    *run = icTest_RunCli(dir, args);
    return readJson(dir, "stats.json");
}

IC_TEST(cli, no_arguments_is_a_usage_error) {
    const char *dir = icTest_TempDir();
    icCliRun run = icTest_RunCli(dir, "");
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "usage: isochor") != NULL);
    icTest_FreeCli(&run);
    run = icTest_RunCli(dir, "--help");
    IC_CHECK_INT(run.status, 0);
    IC_CHECK(strstr(run.out, "isochor run SCENE") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(cli, unknown_command_is_a_usage_error) {
    const char *dir = icTest_TempDir();
    icCliRun run = icTest_RunCli(dir, "frobnicate x");
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "unknown command 'frobnicate'") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(cli, run_writes_frames_collection_and_stats) {
    const char *dir = icTest_TempDir();
    writeTinyScene(dir, "tiny.json", 3);
    char args[2000];
    IC_FORMAT(args, "run '%s/tiny.json' --stats '%s/stats.json'", dir, dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);

    // The scene's output.dir: frames 0 (initial) to 3 and the collection named for the scene.
    char out[1300];
    IC_FORMAT(out, "%s/scene_out", dir);
    IC_CHECK(exists(out, "frame_00000.vtu"));
    IC_CHECK(exists(out, "frame_00001.vtu"));
    IC_CHECK(exists(out, "frame_00002.vtu"));
    IC_CHECK(exists(out, "frame_00003.vtu"));
    IC_CHECK(!exists(out, "frame_00004.vtu"));
    IC_CHECK(exists(out, "tiny.pvd"));

    cJSON *root = readJson(dir, "stats.json");
    IC_REQUIRE(root != NULL);
    static const char *const keys[] = {"frames", "vertices", "tets", "ms_per_frame",
                                       "volume_ratio_final", "volume_ratio_min",
                                       "volume_ratio_max", "max_abs_J_minus_1",
                                       "inverted_tets_final", "nan"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        IC_CHECK_MSG(cJSON_GetObjectItemCaseSensitive(root, keys[i]) != NULL, "no key %s",
                     keys[i]);
    IC_CHECK_INT(cJSON_GetObjectItem(root, "frames")->valuedouble, 3);
    IC_CHECK_INT(cJSON_GetObjectItem(root, "vertices")->valuedouble, 27);
    IC_CHECK_INT(cJSON_GetObjectItem(root, "tets")->valuedouble, 48);
    IC_CHECK_INT(cJSON_GetObjectItem(root, "inverted_tets_final")->valuedouble, 0);
    IC_CHECK(cJSON_IsFalse(cJSON_GetObjectItem(root, "nan")));
    double final = cJSON_GetObjectItem(root, "volume_ratio_final")->valuedouble;
    double lo = cJSON_GetObjectItem(root, "volume_ratio_min")->valuedouble;
    double hi = cJSON_GetObjectItem(root, "volume_ratio_max")->valuedouble;
    IC_CHECK(lo <= final && final <= hi);
    IC_CHECK_NEAR(final, 1.0, 0.05);
    cJSON_Delete(root);

    // The summary on stdout names the figures and where the files went.
    IC_CHECK(strstr(run.out, "frames         3 of 3") != NULL);
    IC_CHECK(strstr(run.out, "mesh           27 vertices, 48 tets") != NULL);
    IC_CHECK(strstr(run.out, "NaN            no") != NULL);
    IC_CHECK(strstr(run.out, "inverted tets  0") != NULL);
    IC_CHECK(strstr(run.out, "ms/frame") != NULL);
    IC_CHECK(strstr(run.out, "V/V0           final ") != NULL);
    IC_CHECK(strstr(run.out, "scene_out/tiny.pvd") != NULL);
    // stderr is a file here: progress comes as plain lines, never redrawn with '\r'.
    IC_CHECK_MSG(strstr(run.err, "frame 3/3 (100%)") != NULL, "stderr: %s", run.err);
    IC_CHECK(strchr(run.err, '\r') == NULL);
    icTest_FreeCli(&run);
}

// The summary names the sweep order that ran; "cell" on a mesh read from a file (no cell data)
// runs greedy, which stderr says before the run and the summary repeats.
IC_TEST(cli, run_reports_the_sweep_order) {
    const char *dir = icTest_TempDir();
    writeText(dir, "cube.node",
              "8 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n5 0 0 1\n6 1 0 1\n7 0 1 1\n8 1 1 1\n");
    writeText(dir, "cube.ele", "5 4 0\n1 1 2 3 5\n2 4 3 2 8\n3 6 2 5 8\n4 7 5 3 8\n5 2 3 5 8\n");
    static const char *const mesh[2] = {
        "{\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2}",
        "{\"file\": \"cube.ele\"}"};
    for (int file = 0; file < 2; ++file) {
        char text[1000], args[2000];
        IC_FORMAT(
            text,
            "{\"dt\": 0.01, \"frames\": 1,\n"
            " \"solver\": {\"precision\": \"float\", \"colouring\": \"cell\", \"workers\": 2},\n"
            " \"bodies\": [{\"mesh\": %s}]}\n",
            mesh[file]);
        writeText(dir, "order.json", text);
        IC_FORMAT(args, "run '%s/order.json' --no-output -q", dir);
        icCliRun run = icTest_RunCli(dir, args);
        IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
        const char *line = strstr(run.out, "sweep          ");
        IC_REQUIRE(line != NULL);
        if (file) {
            IC_CHECK_MSG(strncmp(line + 15, "greedy order, float, ", 21) == 0, "%s", run.out);
            IC_CHECK(strstr(line, "2 workers") != NULL);
            IC_CHECK(strstr(line, "(asked: cell; not every body has hex cell data") != NULL);
            IC_CHECK_MSG(strstr(run.err, "isochor run: note: \"colouring\": \"cell\" runs as "
                                         "\"greedy\"") != NULL,
                         "stderr: %s", run.err);
        } else {
            IC_CHECK_MSG(strncmp(line + 15, "cell order, float, ", 19) == 0, "%s", run.out);
            IC_CHECK(strstr(line, "asked") == NULL);
            IC_CHECK(strstr(run.err, "note") == NULL);
        }
        icTest_FreeCli(&run);
    }
}

IC_TEST(cli, run_frames_and_out_override_the_scene) {
    const char *dir = icTest_TempDir();
    writeTinyScene(dir, "tiny.json", 3);
    char args[2000];
    IC_FORMAT(args, "run '%s/tiny.json' --frames 2 --out '%s/elsewhere' --stats=%s/s.json --quiet",
              dir, dir, dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    char out[1300];
    IC_FORMAT(out, "%s/elsewhere", dir);
    IC_CHECK(exists(out, "frame_00002.vtu"));
    IC_CHECK(!exists(out, "frame_00003.vtu"));
    IC_CHECK(exists(out, "tiny.pvd"));
    IC_CHECK(!exists(dir, "scene_out"));
    cJSON *root = readJson(dir, "s.json");
    IC_REQUIRE(root != NULL);
    IC_CHECK_INT(cJSON_GetObjectItem(root, "frames")->valuedouble, 2);
    cJSON_Delete(root);
    IC_CHECK(strstr(run.out, "frames         2 of 2") != NULL);
    // --quiet: nothing on stderr for a run that went well.
    IC_CHECK_MSG(run.err[0] == 0, "stderr: %s", run.err);
    icTest_FreeCli(&run);

    // --frames 0 only writes the initial frame; --no-output writes none.
    IC_FORMAT(args, "run '%s/tiny.json' --frames 0 --out '%s/zero' -q", dir, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 0);
    IC_FORMAT(out, "%s/zero", dir);
    IC_CHECK(exists(out, "frame_00000.vtu") && !exists(out, "frame_00001.vtu"));
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s/tiny.json' --no-output --out '%s/none' -q", dir, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 0);
    IC_CHECK(!exists(dir, "none"));
    IC_CHECK(strstr(run.out, "output         none") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(cli, run_refuses_bad_frame_counts) {
    const char *dir = icTest_TempDir();
    writeTinyScene(dir, "tiny.json", 3);
    static const char *const bad[] = {"abc", "-3", "1e3", "2.5", "+2", "''", "99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char args[2000];
        IC_FORMAT(args, "run '%s/tiny.json' --frames %s", dir, bad[i]);
        icCliRun run = icTest_RunCli(dir, args);
        IC_CHECK_MSG(run.status == 2, "--frames %s: status %d", bad[i], run.status);
        IC_CHECK_MSG(strstr(run.err, "--frames") != NULL, "--frames %s: %s", bad[i], run.err);
        icTest_FreeCli(&run);
    }
    // Nothing ran, so nothing was written.
    IC_CHECK(!exists(dir, "scene_out"));
    char args[2000];
    IC_FORMAT(args, "run '%s/tiny.json' --frames", dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "--frames needs a value") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(cli, run_usage_errors) {
    const char *dir = icTest_TempDir();
    writeTinyScene(dir, "tiny.json", 3);
    char args[2000];
    IC_FORMAT(args, "run '%s/tiny.json' --fast", dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "unknown option '--fast'") != NULL);
    IC_CHECK(strstr(run.err, "usage: isochor run") != NULL);
    icTest_FreeCli(&run);
    run = icTest_RunCli(dir, "run");
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "no scene given") != NULL);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s/tiny.json' '%s/tiny.json'", dir, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s/missing.json'", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "missing.json") != NULL && strstr(run.err, "[IC_ERR_IO]") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(cli, run_reports_malformed_json_with_its_line) {
    const char *dir = icTest_TempDir();
    writeText(dir, "broken.json", "{\"dt\": 0.01,\n \"frames\": 3,\n \"bodies\": [ oops ]\n}\n");
    char args[2000];
    IC_FORMAT(args, "run '%s/broken.json'", dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "broken.json:3: ") != NULL, "stderr: %s", run.err);
    IC_CHECK(strstr(run.err, "[IC_ERR_PARSE]") != NULL);
    IC_CHECK(run.out[0] == 0);
    icTest_FreeCli(&run);
}

IC_TEST(cli, run_reports_unknown_key_with_its_path) {
    const char *dir = icTest_TempDir();
    writeText(dir, "typo.json",
              "{\"dt\": 0.01,\n"
              " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1},\n"
              "   \"material\": {\"youngs\": 1e5}}]}\n");
    char args[2000];
    IC_FORMAT(args, "run '%s/typo.json'", dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "typo.json:3: bodies[0].material.youngs: ") != NULL,
                 "stderr: %s", run.err);
    IC_CHECK(strstr(run.err, "[IC_ERR_UNKNOWN_KEY]") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(cli, run_exits_1_on_nan_and_still_writes_stats) {
    const char *dir = icTest_TempDir();
    // Velocity 1e308 over a 3600 s step (the longest dt a scene may have) overflows the
    // positions on the first frame.
    icCliRun run;
    cJSON *root =
        runForStats(dir, "blowup.json",
                    "{\"dt\": 3600, \"frames\": 3, \"solver\": {\"substeps\": 1},\n"
                    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], "
                    "\"cells\": 1},\n"
                    "   \"velocity\": [1e308, 0, 0]}]}\n",
                    &run);
    IC_CHECK_INT(run.status, 1);
    IC_CHECK(strstr(run.err, "[IC_ERR_NUMERICAL]") != NULL);
    IC_CHECK(strstr(run.out, "NaN            yes") != NULL);
    IC_CHECK(strstr(run.out, "frames         1 of 3") != NULL);
    IC_REQUIRE(root != NULL);
    IC_CHECK(cJSON_IsTrue(cJSON_GetObjectItem(root, "nan")));
    IC_CHECK(cJSON_IsNull(cJSON_GetObjectItem(root, "volume_ratio_final")));
    cJSON_Delete(root);
    icTest_FreeCli(&run);
}

IC_TEST(cli, run_static_frames_not_converged_are_reported_not_failed) {
    const char *dir = icTest_TempDir();
    // A cantilever under gravity does not settle in 30 sweeps: both frames hit the cap.
    icCliRun run;
    cJSON *root = runForStats(
        dir, "beam.json",
        "{\"dt\": 0.1, \"frames\": 2,\n"
        " \"solver\": {\"mode\": \"static\", \"static\": {\"max_sweeps\": 30}},\n"
        " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [1, 0.2, 0.2], "
        "\"cells\": [5, 1, 1]},\n"
        "   \"pin\": [{\"box\": {\"min\": [-0.6, -1, -1], \"max\": [-0.4, 1, 1]}}]}]}\n",
        &run);
    IC_CHECK_INT(run.status, 0);
    IC_CHECK(strstr(run.out, "not converged  2 of 2 frames stopped at their iteration cap") != NULL);
    IC_CHECK(strstr(run.err, "warning: 2 frames stopped at their iteration cap") != NULL);
    IC_REQUIRE(root != NULL);
    IC_CHECK_INT(cJSON_GetObjectItem(root, "not_converged")->valuedouble, 2);
    cJSON_Delete(root);
    icTest_FreeCli(&run);
}

// A Newton scene with a floor plane and a sphere collider runs through the tool: the cube
// dropped onto the floor rests on it (contact potential, src/fem/contact_potential.c).
IC_TEST(cli, run_newton_scene_with_colliders) {
    const char *dir = icTest_TempDir();
    icCliRun run;
    cJSON *root =
        runForStats(dir, "drop.json",
                    "{\"dt\": 0.01, \"frames\": 40, \"gravity\": [0, -9.81, 0],\n"
                    " \"solver\": {\"type\": \"newton\", \"contact_stiffness\": 100},\n"
                    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.1, 0.1, 0.1], "
                    "\"cells\": 2},\n"
                    "   \"material\": {\"youngs_modulus\": 1e5, \"poisson_ratio\": 0.3},\n"
                    "   \"translate\": [0, 0.06, 0]}],\n"
                    " \"colliders\": [{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0}},\n"
                    "   {\"sphere\": {\"center\": [0.3, 0.05, 0], \"radius\": 0.05}}]}\n",
                    &run);
    IC_CHECK_MSG(run.status == 0, "exit %d: %s", run.status, run.err);
    IC_REQUIRE(root != NULL);
    IC_CHECK_INT(cJSON_GetObjectItem(root, "not_converged")->valuedouble, 0);
    cJSON *ratio = cJSON_GetObjectItem(root, "volume_ratio_final");
    IC_CHECK(ratio && fabs(ratio->valuedouble - 1) < 0.02);
    // Free fall over the 0.4 s would reach 3.9 m/s; the floor stops it after 1 cm (0.44 m/s).
    cJSON *speed = cJSON_GetObjectItem(root, "health_max_speed");
    IC_CHECK(speed && speed->valuedouble < 0.5);
    cJSON_Delete(root);
    icTest_FreeCli(&run);
}

IC_TEST(cli, info_describes_a_mesh) {
    const char *dir = icTest_TempDir();
    char args[2000];
    IC_FORMAT(args, "info '%s'", icTest_SourcePath("tests/data/io/cube1.ele"));
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    // The unit cube cut into 5 tets, with region ids 10..14.
    IC_CHECK(strstr(run.out, "vertices       8\n") != NULL);
    IC_CHECK(strstr(run.out, "tets           5\n") != NULL);
    IC_CHECK(strstr(run.out, "volume         1 m^3") != NULL);
    IC_CHECK(strstr(run.out, "bounds         [0, 0, 0] .. [1, 1, 1]") != NULL);
    IC_CHECK(strstr(run.out, "all tets positive") != NULL);
    IC_CHECK(strstr(run.out, "surface        12 triangles") != NULL);
    // The middle tet shares a vertex with each corner tet, so the greedy pass needs 5 colours.
    IC_CHECK(strstr(run.out, "colours        5 ") != NULL);
    IC_CHECK(strstr(run.out, "regions        5 distinct ids, 10 .. 14") != NULL);
    IC_CHECK(strstr(run.out, "face angle     min 45 deg") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(cli, info_reports_a_bad_mesh_with_file_and_line) {
    const char *dir = icTest_TempDir();
    char args[2000];
    IC_FORMAT(args, "info '%s'", icTest_SourcePath("tests/data/io/bad_range.ele"));
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "bad_range.ele:4: ") != NULL, "stderr: %s", run.err);
    IC_CHECK(strstr(run.err, "[IC_ERR_INDEX_OUT_OF_RANGE]") != NULL);
    icTest_FreeCli(&run);
    run = icTest_RunCli(dir, "info");
    IC_CHECK_INT(run.status, 2);
    icTest_FreeCli(&run);
    run = icTest_RunCli(dir, "info a.ele --loose");
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "unknown option '--loose'") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(cli, info_orientation_and_strict) {
    const char *dir = icTest_TempDir();
    // The unit cube in 5 tets with tet 1 given in the opposite vertex order.
    writeText(dir, "cube.node",
              "8 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n"
              "5 0 0 1\n6 1 0 1\n7 0 1 1\n8 1 1 1\n");
    writeText(dir, "cube.ele",
              "5 4 0\n1 1 2 3 5\n2 4 8 2 3\n3 6 2 5 8\n4 7 5 3 8\n5 2 3 5 8\n");
    char args[2000];
    IC_FORMAT(args, "info '%s/cube.ele'", dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK_MSG(strstr(run.out, "1 tet inverted among positive ones (kept; --strict refuses): 1\n") !=
                     NULL,
                 "stdout: %s", run.out);
    IC_CHECK(strstr(run.out, "tet volume     min -0.166667") != NULL);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "info --strict '%s/cube.ele'", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "cube.ele:3: ") != NULL, "stderr: %s", run.err);
    IC_CHECK(strstr(run.err, "[IC_ERR_INVERTED_ELEMENT]") != NULL);
    icTest_FreeCli(&run);
}

// The hook the CLI's log progress rests on: one call per completed frame, in order.
typedef struct icProgressLog {
    int calls, lastDone, total;
    bool inOrder;
    double lastRatio;
} icProgressLog;

static void recordProgress(int done, int total, double msPerFrame, icReal volumeRatio,
                           void *context) {
    icProgressLog *log = context;
    log->inOrder = log->inOrder && done == log->lastDone + 1 && msPerFrame >= 0;
    log->calls++;
    log->lastDone = done;
    log->total = total;
    log->lastRatio = volumeRatio;
}

IC_TEST(cli, run_progress_callback_sees_every_frame) {
    const char *text = "{\"dt\": 0.01, \"frames\": 9, \"solver\": {\"substeps\": 2},\n"
                       " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1}}]}";
    icScene scene;
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString(text, "progress", NULL, &scene, &diag) == IC_OK);
    icRunOptions options = icDefaultRunOptions();
    IC_CHECK(options.progressFn == NULL && options.progressContext == NULL);
    icProgressLog log = {0, 0, 0, true, 0};
    options.writeOutput = false;
    options.frames = 4;
    options.progressFn = recordProgress;
    options.progressContext = &log;
    IC_CHECK_RESULT(icScene_Run(&scene, &options, NULL, &diag), IC_OK);
    IC_CHECK_INT(log.calls, 4);
    IC_CHECK_INT(log.lastDone, 4);
    IC_CHECK_INT(log.total, 4);
    IC_CHECK(log.inOrder);
    IC_CHECK_NEAR(log.lastRatio, icWorld_GetVolumeRatio(scene.world), 0);
    icScene_Destroy(&scene);
}

IC_TEST(cli, version) {
    const char *dir = icTest_TempDir();
    char expected[64];
    IC_FORMAT(expected, "isochor %s\n", icVersionString());
    IC_CHECK_INT(icVersion(), IC_VERSION_MAJOR * 10000 + IC_VERSION_MINOR * 100 + IC_VERSION_PATCH);
    char header[32];
    IC_FORMAT(header, "%d.%d.%d", IC_VERSION_MAJOR, IC_VERSION_MINOR, IC_VERSION_PATCH);
    IC_CHECK_MSG(strcmp(icVersionString(), header) == 0, "%s", icVersionString());
    static const char *const spellings[] = {"--version", "-V"};
    for (int i = 0; i < 2; ++i) {
        icCliRun run = icTest_RunCli(dir, spellings[i]);
        IC_CHECK_INT(run.status, 0);
        IC_CHECK_MSG(strcmp(run.out, expected) == 0, "%s: '%s'", spellings[i], run.out);
        icTest_FreeCli(&run);
    }
    // Whole names only, and an unknown top-level option is a usage error.
    static const char *const bad[] = {"--vers", "--frobnicate", "-x"};
    for (int i = 0; i < 3; ++i) {
        icCliRun run = icTest_RunCli(dir, bad[i]);
        IC_CHECK_INT(run.status, 2);
        IC_CHECK_MSG(strstr(run.err, "unknown option") != NULL, "%s: %s", bad[i], run.err);
        IC_CHECK(strstr(run.err, "usage: isochor") != NULL);
        icTest_FreeCli(&run);
    }
}

// getopt_long: "--opt value" and "--opt=value" alike, options around the scene, "--" ending
// them, and no abbreviations.
IC_TEST(cli, run_option_spellings) {
    const char *dir = icTest_TempDir();
    writeTinyScene(dir, "tiny.json", 3);
    char args[2000];
    IC_FORMAT(args, "run --frames=1 --no-output -q -- '%s/tiny.json'", dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
    IC_CHECK(strstr(run.out, "frames         1 of 1") != NULL);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s/tiny.json' --fr 1", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "unknown option '--fr' (did you mean --frames?)") != NULL, "%s",
                 run.err);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s/tiny.json' --out=", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "--out needs a folder") != NULL, "%s", run.err);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s/tiny.json' --quiet=yes", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "isochor run: --quiet takes no value") != NULL, "%s", run.err);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s/tiny.json' -x", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "unknown option '-x'") != NULL, "%s", run.err);
    icTest_FreeCli(&run);
}

// Every command scans its options alike: whole names only, and the same message, led by the
// command's name, for an abbreviation, a missing value and a value given to a flag (convert
// has no option that takes a value).
IC_TEST(cli, commands_share_option_messages) {
    const char *dir = icTest_TempDir();
    static const struct {
        const char *command, *shortened, *option, *valued, *flag;
    } commands[] = {
        {"run", "--fram", "frames", "--out", "--quiet"},
        {"tetrahedralize", "--max-vol", "max-volume", "--quality", "--keep-temp"},
        {"render", "--fram", "frame", "--out", "--all"},
        {"convert", "--bin", "binary", NULL, "--strict"},
        {"info", "--fra", "frame", "--scene", "--strict"},
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
        const char *name = commands[i].command;
        char args[3][200], expected[3][200];
        IC_FORMAT(args[0], "%s a b %s 1", name, commands[i].shortened);
        IC_FORMAT(expected[0], "isochor %s: unknown option '%s' (did you mean --%s?)\n", name,
                  commands[i].shortened, commands[i].option);
        IC_FORMAT(args[1], "%s a b %s=1", name, commands[i].flag);
        IC_FORMAT(expected[1], "isochor %s: %s takes no value\n", name, commands[i].flag);
        int count = 2;
        if (commands[i].valued) {
            IC_FORMAT(args[2], "%s a b %s", name, commands[i].valued);
            IC_FORMAT(expected[2], "isochor %s: %s needs a value\n", name, commands[i].valued);
            count = 3;
        }
        for (int k = 0; k < count; ++k) {
            icCliRun run = icTest_RunCli(dir, args[k]);
            IC_CHECK_MSG(run.status == 2, "%s: status %d", args[k], run.status);
            IC_CHECK_MSG(strncmp(run.err, expected[k], strlen(expected[k])) == 0,
                         "%s: '%s', not '%s'", args[k], run.err, expected[k]);
            icTest_FreeCli(&run);
        }
    }
}

// --workers replaces every solver's "workers": the sweep line says how many ran.
IC_TEST(cli, run_workers_override) {
    const char *dir = icTest_TempDir();
    writeTinyScene(dir, "tiny.json", 1);
    // 0 = automatic: as many as the machine has, or one on a mesh this small.
    static const char *const spellings[] = {"--workers 2", "--workers=3", "--workers 0"};
    static const char *const expected[] = {" 2 workers", " 3 workers", " worker"};
    for (int i = 0; i < 3; ++i) {
        char args[2000];
        IC_FORMAT(args, "run '%s/tiny.json' --no-output -q %s", dir, spellings[i]);
        icCliRun run = icTest_RunCli(dir, args);
        IC_CHECK_MSG(run.status == 0, "%s: status %d: %s", spellings[i], run.status, run.err);
        IC_CHECK_MSG(strstr(run.out, expected[i]) != NULL, "%s: %s", spellings[i], run.out);
        icTest_FreeCli(&run);
    }
    static const char *const bad[] = {"-1", "abc", "1025", "2.5", "''"};
    for (int i = 0; i < 5; ++i) {
        char args[2000];
        IC_FORMAT(args, "run '%s/tiny.json' --no-output --workers %s", dir, bad[i]);
        icCliRun run = icTest_RunCli(dir, args);
        IC_CHECK_MSG(run.status == 2, "--workers %s: status %d", bad[i], run.status);
        IC_CHECK_MSG(strstr(run.err, "--workers") != NULL, "--workers %s: %s", bad[i], run.err);
        icTest_FreeCli(&run);
    }
}

// The pre-flight note before stepping: a 10 m box of the default material sags, and a scene
// that says "preflight": false hears nothing of it.
IC_TEST(cli, run_prints_preflight_notes) {
    const char *dir = icTest_TempDir();
    static const char *const keys[] = {"", ", \"preflight\": false"};
    for (int i = 0; i < 2; ++i) {
        char text[1000];
        IC_FORMAT(text,
                  "{\"dt\": 0.01, \"frames\": 0%s,\n"
                  " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [4, 10, 4], "
                  "\"cells\": 1}}]}\n",
                  keys[i]);
        writeText(dir, "tall.json", text);
        char args[2000];
        IC_FORMAT(args, "run '%s/tall.json' --no-output -q", dir);
        icCliRun run = icTest_RunCli(dir, args);
        IC_CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err);
        bool warned = strstr(run.err, "isochor run: warning: body 0 will sag ~49 %") != NULL;
        IC_CHECK_MSG(warned == (i == 0), "stderr: %s", run.err);
        icTest_FreeCli(&run);
    }
}

// A stand-in for tetgen that leaves a mark, so a test can tell whether it ran.
static void writeFakeTetgen(const char *dir, const char *body) {
    char text[1500];
    IC_FORMAT(text, "#!/bin/sh\necho ran > '%s/tetgen_ran'\n%s\n", dir, body);
    writeText(dir, "fake_tetgen", text);
    char path[1300];
    IC_FORMAT(path, "%s/fake_tetgen", dir);
    chmod(path, 0755);
}

// Options and the output path are checked before TetGen starts.
IC_TEST(cli, tetrahedralize_checks_before_running) {
    const char *dir = icTest_TempDir();
    writeFakeTetgen(dir, "exit 1");
    writeText(dir, "plain_file", "x");
    const char *in = icTest_SourcePath("tests/data/formats/cube.off");
    static const struct {
        const char *args, *message;
    } cases[] = {
        {"'%s' '%s/t.obj'", "OUT ends in .ele, .node, .msh, .vtu, .vtk or .mesh"},
        {"'%s' '%s/noextension'", "OUT ends in"},
        {"'%s' '%s'", "is a folder"},
        {"'%s' '%s/plain_file/t.ele'", "'%s/plain_file' is a file"},
        {"'%s' '%s/t.ele' --quality 1.05", "--quality wants 0"},
        {"'%s' '%s/t.ele' --quality=abc", "--quality wants 0"},
        {"'%s' '%s/t.ele' --max-volume=0", "--max-volume wants a positive"},
        {"'%s' '%s/t.ele' --time-limit 0", "--time-limit wants a positive"},
        {"'%s' '%s/t.ele' --time-limit", "--time-limit needs a value"},
        {"'%s' '%s/t.ele' --max-vol 1", "unknown option '--max-vol'"},
        {"'%s' '%s/t.ele' --keep-temp=1", "--keep-temp takes no value"},
        {"'%s' '%s/t.ele' -k", "unknown option '-k'"},
        {"'%s' '%s/t.ele' extra", "one surface, one mesh"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char args[4000], formatted[3000], message[1500];
        IC_FORMAT(formatted, cases[i].args, in, dir);
        IC_FORMAT(args, "tetrahedralize --tetgen '%s/fake_tetgen' %s", dir, formatted);
        IC_FORMAT(message, cases[i].message, dir);
        icCliRun run = icTest_RunCli(dir, args);
        IC_CHECK_MSG(run.status == 2, "%s: status %d", formatted, run.status);
        IC_CHECK_MSG(strstr(run.err, message) != NULL, "%s: %s", formatted, run.err);
        icTest_FreeCli(&run);
    }
    IC_CHECK(!exists(dir, "tetgen_ran"));
}

// A TetGen that does not finish is stopped at --time-limit: status 1, a message that says so,
// and none of its files left behind.
IC_TEST(cli, tetrahedralize_time_limit) {
    const char *dir = icTest_TempDir();
    writeFakeTetgen(dir, "sleep 60");
    char tmp[1300];
    IC_FORMAT(tmp, "%s/tmp", dir);
    mkdir(tmp, 0755);
    const char *in = icTest_SourcePath("tests/data/formats/cube.off");
    char args[4000];
    IC_FORMAT(args, "tetrahedralize '%s' '%s/out/t.ele' --tetgen '%s/fake_tetgen' --time-limit 0.2",
              in, dir, dir);
    // TMPDIR points TetGen's working folder into the test's own.
    char command[5000];
    IC_FORMAT(command, "TMPDIR='%s' '%s' %s > /dev/null 2> '%s/err.txt'", tmp, IC_CLI_PATH,
              args, dir);
    int status = system(command);
    IC_CHECK_INT(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 1);
    IC_CHECK(exists(dir, "tetgen_ran"));
    char errPath[1300];
    IC_FORMAT(errPath, "%s/err.txt", dir);
    char *err = icTest_ReadFile(errPath, NULL);
    IC_CHECK_MSG(err && strstr(err, "ran past the time limit of 0.2 s") != NULL, "%s",
                 err ? err : "(no stderr)");
    IC_CHECK(err && strstr(err, "[IC_ERR_INTERRUPTED]") != NULL);
    free(err);
    IC_CHECK(!exists(dir, "out"));
    DIR *d = opendir(tmp);
    IC_REQUIRE(d != NULL);
    int left = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) left += entry->d_name[0] != '.';
    closedir(d);
    IC_CHECK_INT(left, 0);
}
