// SPDX-License-Identifier: MIT
// Result frames are not rest meshes: `render`, `convert` and `info` read every frame a run
// wrote, flattened and inverted tets included, as written; the library's result-frame load
// option behind them; the getopt_long command lines of render, convert and info; and
// `info --scene`'s pre-flight notes.
#include "test.h"

#include "isochor/formats.h"
#include "isochor/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static bool exists(const char *path) {
    struct stat info;
    return stat(path, &info) == 0;
}

// Three separate unit-corner tets (12 vertices), each positive at rest. A state: 0 all
// positive, 1 tet 1 flattened (its apex in its base plane) and tet 2 inverted (its apex
// pushed through its base), as the demo's frames hold tets squashed on the ground.
enum { TET_COUNT = 3, VERTEX_COUNT = 12 };
static const int s_tets[4 * TET_COUNT] = {0, 2, 1, 3, 4, 6, 5, 7, 8, 10, 9, 11};

static void framePositions(int state, icReal *x) {
    for (int t = 0; t < TET_COUNT; ++t) {
        icReal *p = x + 12 * t;
        const icReal corners[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (int k = 0; k < 12; ++k) p[k] = corners[k] + (k % 3 == 0 ? 2.0 * t : 0);
        if (state == 1 && t == 1) p[11] = 0, p[9] += 0.25, p[10] = 0.25; // apex in z = 0
        if (state == 1 && t == 2) p[11] = -0.5;                          // apex below
    }
}

// Writes frame_0000..2.vtu (states 0, 1, 0 shifted up) with a cell field J and a point field
// displacement, and result.pvd listing them. Returns the .pvd's path in pvd.
static void writeResult(const char *dir, char *pvd, size_t size) {
    icReal x[3 * VERTEX_COUNT], rest[3 * VERTEX_COUNT], u[3 * VERTEX_COUNT], J[TET_COUNT];
    framePositions(0, rest);
    const char *names[3] = {"frame_0000.vtu", "frame_0001.vtu", "frame_0002.vtu"};
    icReal times[3] = {0, 0.5, 1};
    for (int f = 0; f < 3; ++f) {
        framePositions(f == 1 ? 1 : 0, x);
        for (int v = 0; v < VERTEX_COUNT && f == 2; ++v) x[3 * v + 1] += 0.5;
        for (int k = 0; k < 3 * VERTEX_COUNT; ++k) u[k] = x[k] - rest[k];
        icTetMesh view = {VERTEX_COUNT, TET_COUNT, x, (int *)s_tets, NULL, NULL, {0, 0, 0}};
        for (int t = 0; t < TET_COUNT; ++t)
            J[t] = icTetMesh_TetVolume(&view, NULL, t) / (1.0 / 6.0);
        icField cell = {"J", 1, J}, point = {"displacement", 3, u};
        char path[1300];
        IC_FORMAT(path, "%s/%s", dir, names[f]);
        IC_REQUIRE(icWriteVtu(path, VERTEX_COUNT, x, TET_COUNT, s_tets, &point, 1, &cell, 1,
                              NULL) == IC_OK);
    }
    IC_FORMAT_N(pvd, size, "%s/result.pvd", dir);
    IC_REQUIRE(icWritePvd(pvd, 3, names, times, NULL) == IC_OK);
}

IC_TEST(results, frame_loads_as_written_with_notes) {
    const char *dir = icTest_TempDir();
    char pvd[1300], frame[1300];
    writeResult(dir, pvd, sizeof pvd);
    IC_FORMAT(frame, "%s/frame_0001.vtu", dir);
    // As a rest mesh the frame is refused, as before.
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadMesh(frame, NULL, &mesh, NULL, &diag), IC_ERR_DEGENERATE_ELEMENT);
    // As a result frame it loads, tets in the order and orientation written, counted.
    icLoadOptions options = {.resultFrame = true};
    icMeshFields fields;
    icOrientReport report;
    IC_CHECK_RESULT(icLoadMeshEx(frame, &options, &mesh, &fields, NULL, &report, &diag), IC_OK);
    IC_CHECK_INT(mesh.tetCount, TET_COUNT);
    IC_CHECK(memcmp(mesh.tets, s_tets, sizeof s_tets) == 0);
    IC_CHECK_INT(report.degenerateCount, 1);
    IC_CHECK_INT(report.firstDegenerate[0], 1);
    IC_CHECK_INT(report.invertedCount, 1);
    IC_CHECK_INT(report.firstInverted[0], 2);
    IC_CHECK(!report.flippedAll);
    const icMeshField *J = icMeshFields_Find(&fields, "J", true);
    IC_REQUIRE(J != NULL);
    IC_CHECK(J->data[0] == 1 && J->data[1] == 0 && J->data[2] == -0.5);
    icMeshFields_Destroy(&fields);
    icTetMesh_Destroy(&mesh);
}

// A frame whose every tet is inverted keeps its order: a rest mesh would be reoriented.
IC_TEST(results, wholly_inverted_frame_is_not_reoriented) {
    const char *dir = icTest_TempDir();
    icReal x[3 * VERTEX_COUNT];
    framePositions(0, x);
    for (int v = 0; v < VERTEX_COUNT; ++v) x[3 * v + 2] = -x[3 * v + 2]; // mirror: all negative
    char path[1300];
    IC_FORMAT(path, "%s/mirrored.vtu", dir);
    IC_REQUIRE(icWriteVtu(path, VERTEX_COUNT, x, TET_COUNT, s_tets, NULL, 0, NULL, 0, NULL) ==
               IC_OK);
    icTetMesh mesh;
    icOrientReport report;
    IC_CHECK_RESULT(icLoadMesh(path, NULL, &mesh, &report, NULL), IC_OK);
    IC_CHECK(report.flippedAll);
    icTetMesh_Destroy(&mesh);
    icLoadOptions options = {.resultFrame = true};
    IC_CHECK_RESULT(icLoadMesh(path, &options, &mesh, &report, NULL), IC_OK);
    IC_CHECK(!report.flippedAll);
    IC_CHECK_INT(report.invertedCount, TET_COUNT);
    IC_CHECK(memcmp(mesh.tets, s_tets, sizeof s_tets) == 0);
    icTetMesh_Destroy(&mesh);
    // What no state can be is still refused: a tet naming a vertex twice.
    int repeated[4 * TET_COUNT];
    memcpy(repeated, s_tets, sizeof repeated);
    repeated[5] = repeated[4];
    IC_FORMAT(path, "%s/repeated.vtu", dir);
    IC_REQUIRE(icWriteVtu(path, VERTEX_COUNT, x, TET_COUNT, repeated, NULL, 0, NULL, 0, NULL) ==
               IC_OK);
    IC_CHECK_RESULT(icLoadMesh(path, &options, &mesh, &report, NULL), IC_ERR_REPEATED_INDEX);
}

IC_TEST(results, render_draws_every_frame) {
    const char *dir = icTest_TempDir();
    char pvd[1300], args[3000], path[1400];
    writeResult(dir, pvd, sizeof pvd);
    IC_FORMAT(args, "render '%s' --all --out '%s/png' --size 96x64", pvd, dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    for (int f = 0; f < 3; ++f) {
        IC_FORMAT(path, "%s/png/frame_%04d.png", dir, f);
        icImage image;
        IC_CHECK_RESULT(icImage_LoadPng(&image, path, NULL), IC_OK);
        icImage_Destroy(&image);
    }
    IC_CHECK_MSG(strstr(run.err, "1 frame (first: frame 1) hold 1 zero-volume and 1 inverted "
                                 "tets in all, drawn as written") != NULL,
                 "stderr: %s", run.err);
    icTest_FreeCli(&run);
    // The flattened frame alone, options written with '='.
    IC_FORMAT(args, "render '%s' --frame=1 --out='%s/one' --size=96x64 --field=displacement", pvd,
              dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_FORMAT(path, "%s/one/frame_0001.png", dir);
    IC_CHECK(exists(path));
    icTest_FreeCli(&run);
}

IC_TEST(results, convert_goes_through_every_frame) {
    const char *dir = icTest_TempDir();
    char pvd[1300], args[3000], path[1400];
    writeResult(dir, pvd, sizeof pvd);
    IC_FORMAT(args, "convert '%s' '%s/cache/anim.pc2'", pvd, dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK(strstr(run.out, "wrote ") && strstr(run.out, "anim.pc2: 3 frames"));
    IC_CHECK(strstr(run.out, "1 frame (first: frame 1) hold 1 zero-volume and 1 inverted") != NULL);
    // A point cache holds no fields: both are named as dropped.
    IC_CHECK_MSG(strstr(run.err, "dropped fields displacement (point, 3 components), J (cell, 1 "
                                 "component)") != NULL,
                 "stderr: %s", run.err);
    IC_FORMAT(path, "%s/cache/anim.pc2", dir);
    size_t size = 0;
    char *bytes = icTest_ReadFile(path, &size);
    int32_t samples = 0;
    IC_REQUIRE(bytes && size >= 32);
    memcpy(&samples, bytes + 28, 4);
    IC_CHECK_INT(samples, 3);
    free(bytes);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "convert '%s' '%s/seq/f%%02d.obj'", pvd, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    for (int f = 0; f < 3; ++f) {
        IC_FORMAT(path, "%s/seq/f%02d.obj", dir, f);
        IC_CHECK(exists(path));
    }
    icTest_FreeCli(&run);
}

IC_TEST(results, convert_a_frame_with_result) {
    const char *dir = icTest_TempDir();
    char pvd[1300], args[3000], path[1400];
    writeResult(dir, pvd, sizeof pvd);
    // As a rest mesh: refused, with the way out named.
    IC_FORMAT(args, "convert '%s/frame_0001.vtu' '%s/out/f.vtk'", dir, dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "[IC_ERR_DEGENERATE_ELEMENT]") != NULL);
    IC_CHECK_MSG(strstr(run.err, "pass --result") != NULL, "stderr: %s", run.err);
    icTest_FreeCli(&run);
    // As a result: written as read, into a folder convert makes.
    IC_FORMAT(args, "convert --result '%s/frame_0001.vtu' '%s/out/deeper/f.vtk'", dir, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK(strstr(run.out, "result frame with 1 zero-volume and 1 inverted tets") != NULL);
    IC_FORMAT(path, "%s/out/deeper/f.vtk", dir);
    icTetMesh mesh;
    icLoadOptions options = {.resultFrame = true};
    IC_CHECK_RESULT(icLoadMesh(path, &options, &mesh, NULL, NULL), IC_OK);
    IC_CHECK(mesh.tetCount == TET_COUNT && memcmp(mesh.tets, s_tets, sizeof s_tets) == 0);
    icTetMesh_Destroy(&mesh);
    icTest_FreeCli(&run);
}

IC_TEST(results, info_reads_frames_and_collections) {
    const char *dir = icTest_TempDir();
    char pvd[1300], args[3000];
    writeResult(dir, pvd, sizeof pvd);
    IC_FORMAT(args, "info '%s'", pvd);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK(strstr(run.out, "frames         3, t = 0 .. 1 s") != NULL);
    IC_CHECK_MSG(strstr(run.out, "frame 1        1 zero-volume, 1 inverted tets\n") != NULL,
                 "stdout: %s", run.out);
    IC_CHECK(strstr(run.out, "1 of 3 frames hold zero-volume or inverted tets") != NULL);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "info '%s' --frame 1", pvd);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK(strstr(run.out, "state          1 zero-volume and 1 inverted tets") != NULL);
    IC_CHECK(strstr(run.out, "zero volume    1\n") && strstr(run.out, "inverted       2\n"));
    icTest_FreeCli(&run);
    // One frame: a rest mesh by default (refused, with a hint), a result with --result.
    IC_FORMAT(args, "info '%s/frame_0001.vtu'", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "pass --result") != NULL);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "info --result '%s/frame_0001.vtu'", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK(strstr(run.out, "state          1 zero-volume and 1 inverted tets") != NULL);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "info '%s' --frame=5", pvd);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "frame 5 does not exist") != NULL);
    icTest_FreeCli(&run);
}

IC_TEST(results, render_of_a_mesh_file_asks_for_a_collection) {
    const char *dir = icTest_TempDir();
    char pvd[1300], args[3000];
    writeResult(dir, pvd, sizeof pvd);
    IC_FORMAT(args, "render '%s/frame_0000.vtu' --out '%s/x'", dir, dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "pass the .pvd collection") != NULL, "stderr: %s", run.err);
    IC_CHECK(strstr(run.err, "JSON") == NULL && strstr(run.err, "IC_ERR_PARSE") == NULL);
    icTest_FreeCli(&run);
}

// Every command takes --opt value and --opt=value, answers --help on stdout with status 0,
// and names a bad option or a missing value.
IC_TEST(results, command_lines_of_render_convert_info) {
    const char *dir = icTest_TempDir();
    const char *commands[3] = {"render", "convert", "info"};
    char args[3000];
    for (int i = 0; i < 3; ++i) {
        IC_FORMAT(args, "%s --help", commands[i]);
        icCliRun run = icTest_RunCli(dir, args);
        IC_CHECK_INT(run.status, 0);
        IC_CHECK_MSG(strstr(run.out, "usage: isochor ") != NULL, "%s --help: %s", commands[i],
                     run.out);
        icTest_FreeCli(&run);
        IC_FORMAT(args, "%s --no-such-option", commands[i]);
        run = icTest_RunCli(dir, args);
        IC_CHECK_INT(run.status, 2);
        IC_CHECK_MSG(strstr(run.err, "unknown option '--no-such-option'") != NULL, "%s: %s",
                     commands[i], run.err);
        icTest_FreeCli(&run);
    }
    icCliRun run = icTest_RunCli(dir, "render x.pvd --out");
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(strstr(run.err, "isochor render: --out needs a value") != NULL, "stderr: %s",
                 run.err);
    icTest_FreeCli(&run);
    run = icTest_RunCli(dir, "info --frame");
    IC_CHECK_INT(run.status, 2);
    IC_CHECK(strstr(run.err, "isochor info: --frame needs a value") != NULL);
    icTest_FreeCli(&run);
    // Options before, between and after the inputs; values joined by '='.
    char pvd[1300];
    writeResult(dir, pvd, sizeof pvd);
    IC_FORMAT(args, "convert --result '%s/frame_0002.vtu' --binary '%s/c.msh'", dir, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "render --size=64x64 --out '%s/r' '%s' --range=0,2", dir, pvd);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    icTest_FreeCli(&run);
}

static void writeScene(const char *path, const char *text) {
    FILE *fp = fopen(path, "w");
    IC_REQUIRE(fp != NULL);
    fputs(text, fp);
    fclose(fp);
}

IC_TEST(results, info_scene_prints_the_preflight_notes) {
    const char *dir = icTest_TempDir();
    char path[1300], args[3000];
    // A 10 m soft column: rho g H / E = 1000 x 9.81 x 10 / 1e5 = 0.98.
    IC_FORMAT(path, "%s/tall.json", dir);
    writeScene(path, "{\"dt\": 0.01, \"frames\": 1,\n"
                     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [2, 10, 2], "
                     "\"cells\": [1, 2, 1]},\n"
                     "   \"material\": {\"youngs_modulus\": 1e5, \"density\": 1000}}]}\n");
    IC_FORMAT(args, "info --scene '%s'", path);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK_MSG(strstr(run.out, "pre-flight: body 0: 2 x 10 x 2 m") != NULL, "stdout: %s",
                 run.out);
    IC_CHECK(strstr(run.out, "warning: body 0 will sag") != NULL);
    icTest_FreeCli(&run);
    // A stiff 10 cm cube: figures, no warnings.
    IC_FORMAT(path, "%s/small.json", dir);
    writeScene(path, "{\"dt\": 0.01, \"frames\": 1, \"solver\": {\"substeps\": 20},\n"
                     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.1, 0.1, 0.1], "
                     "\"cells\": 2},\n"
                     "   \"material\": {\"youngs_modulus\": 1e5, \"density\": 1000}}]}\n");
    IC_FORMAT(args, "info --scene='%s'", path);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK_MSG(strstr(run.out, "pre-flight     no warnings") != NULL, "stdout: %s", run.out);
    IC_CHECK(strstr(run.out, "warning:") == NULL);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "info --scene '%s/missing.json'", dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    icTest_FreeCli(&run);
}

// What a reader noted but did not refuse reaches the user: TetGen records after the
// header's count (ignored, as TetGen ignores them).
IC_TEST(results, info_and_convert_note_ignored_trailing_records) {
    const char *dir = icTest_TempDir();
    char path[1300], args[3000];
    IC_FORMAT(path, "%s/extra.node", dir);
    writeScene(path, "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n4 9 9 9\n");
    IC_FORMAT(path, "%s/extra.ele", dir);
    writeScene(path, "1 4 0\n0 0 1 2 3\n1 0 1 2 2\n");
    IC_FORMAT(args, "info '%s'", path);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK_MSG(strstr(run.out, "note           2 records after the header's count ignored") !=
                     NULL,
                 "stdout: %s", run.out);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "convert '%s' '%s/x.vtu'", path, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d, stderr: %s", run.status, run.err);
    IC_CHECK(strstr(run.out, "note: 2 records after the header's count ignored") != NULL);
    icTest_FreeCli(&run);
}
