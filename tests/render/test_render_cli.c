// SPDX-License-Identifier: MIT
// `isochor render` on a result collection: one PNG per frame with a steady camera, and the
// exit codes of bad requests.
#include "test.h"

#include "isochor/formats.h"
#include "isochor/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int runCli(const char *args) {
    char command[4096];
    IC_FORMAT(command, "'%s' render %s > /dev/null 2>&1", IC_CLI_PATH, args);
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Three frames of a box squashed along y (J falls below 1) written as a collection.
static void writeCollection(const char *dir, char *pvd, size_t size) {
    icTetMesh mesh;
    int cells[3] = {2, 2, 2};
    IC_REQUIRE(icGenerateBox(&mesh, icVec3_Make(1, 1, 1), cells, 5) == IC_OK);
    icReal *x = malloc(sizeof(icReal) * 3 * (size_t)mesh.vertexCount);
    icReal *J = malloc(sizeof(icReal) * (size_t)mesh.tetCount);
    const char *names[3] = {"f0.vtu", "f1.vtu", "f2.vtu"};
    icReal times[3] = {0, 0.5, 1};
    for (int f = 0; f < 3; ++f) {
        icReal s = 1 - 0.2 * f;
        for (int v = 0; v < mesh.vertexCount; ++v) {
            x[3 * v] = mesh.positions[3 * v];
            x[3 * v + 1] = s * mesh.positions[3 * v + 1];
            x[3 * v + 2] = mesh.positions[3 * v + 2];
        }
        for (int t = 0; t < mesh.tetCount; ++t) J[t] = s;
        icField cell = {"J", 1, J};
        char path[1200];
        IC_FORMAT(path, "%s/%s", dir, names[f]);
        IC_CHECK_RESULT(icWriteVtu(path, mesh.vertexCount, x, mesh.tetCount, mesh.tets, NULL, 0,
                                   &cell, 1, NULL),
                        IC_OK);
    }
    IC_FORMAT_N(pvd, size, "%s/result.pvd", dir);
    IC_CHECK_RESULT(icWritePvd(pvd, 3, names, times, NULL), IC_OK);
    free(x);
    free(J);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(render, cli_renders_every_frame_of_a_collection) {
    const char *dir = icTest_TempDir();
    char pvd[1200], args[3000], path[1300];
    writeCollection(dir, pvd, sizeof pvd);
    IC_FORMAT(args, "'%s' --all --out '%s/pictures' --size 240x160", pvd, dir);
    IC_REQUIRE(runCli(args) == 0);
    icImage frames[3];
    icDiagnostic diag = {0};
    for (int f = 0; f < 3; ++f) {
        IC_FORMAT(path, "%s/pictures/frame_%04d.png", dir, f);
        IC_REQUIRE(icImage_LoadPng(&frames[f], path, &diag) == IC_OK);
        IC_CHECK(frames[f].width == 240 && frames[f].height == 160);
    }
    // The camera holds still, so the squashed box covers fewer pixels frame by frame.
    int covered[3] = {0, 0, 0};
    for (int f = 0; f < 3; ++f)
        for (int i = 0; i < 240 * 160; ++i) {
            const uint8_t *p = frames[f].rgb + 3 * i;
            // J < 1 is drawn in the diverging map's blue half: blue above red
            covered[f] += p[2] > p[0] + 25 && p[2] > 90;
        }
    IC_CHECK_MSG(covered[1] > covered[2] && covered[2] > 0, "%d %d %d", covered[0], covered[1],
                 covered[2]);
    for (int f = 0; f < 3; ++f) icImage_Destroy(&frames[f]);
    IC_FORMAT(path, "%s/pictures/frame_0003.png", dir);
    FILE *fp = fopen(path, "rb");
    IC_CHECK(fp == NULL);
    if (fp) fclose(fp);

    // One frame by number.
    IC_FORMAT(args, "'%s' --frame 1 --out '%s/one' --size 100x80 --field none", pvd, dir);
    IC_CHECK_INT(runCli(args), 0);
    IC_FORMAT(path, "%s/one/frame_0001.png", dir);
    icImage one;
    IC_CHECK_RESULT(icImage_LoadPng(&one, path, &diag), IC_OK);
    icImage_Destroy(&one);
}

IC_TEST(render, cli_exit_codes) {
    const char *dir = icTest_TempDir();
    char pvd[1200], args[3000];
    writeCollection(dir, pvd, sizeof pvd);
    IC_FORMAT(args, "'%s' --frame 7 --out '%s/x'", pvd, dir);
    IC_CHECK_INT(runCli(args), 2); // no such frame
    IC_FORMAT(args, "'%s' --frame 0 --out '%s/x' --field pressure", pvd, dir);
    IC_CHECK_INT(runCli(args), 2); // the collection has no pressure
    IC_FORMAT(args, "'%s' --frame 0", pvd);
    IC_CHECK_INT(runCli(args), 2); // no --out
    IC_FORMAT(args, "'%s/missing.pvd' --all --out '%s/x'", dir, dir);
    IC_CHECK_INT(runCli(args), 2);
}

// Animations are optional: with ffmpeg installed --gif makes one, without it the pictures
// still come and the exit status is 0.
IC_TEST(render, cli_gif_through_ffmpeg) {
    const char *dir = icTest_TempDir();
    char pvd[1200], args[3000], path[1300];
    writeCollection(dir, pvd, sizeof pvd);
    IC_FORMAT(args, "'%s' --all --out '%s/anim' --size 96x64 --gif", pvd, dir);
    IC_CHECK_INT(runCli(args), 0);
    IC_FORMAT(path, "%s/anim/animation.gif", dir);
    FILE *fp = fopen(path, "rb");
    bool ffmpeg = icFindProgram("ffmpeg", NULL, 0);
    IC_CHECK(ffmpeg == (fp != NULL));
    if (fp) {
        char magic[6] = {0};
        IC_CHECK(fread(magic, 1, 6, fp) == 6 && memcmp(magic, "GIF89a", 6) == 0);
        fclose(fp);
    }
}

// A scene: its initial state, a frame after stepping, and every frame.
IC_TEST(render, cli_renders_a_scene) {
    const char *dir = icTest_TempDir();
    char scene[1300], args[3000], path[1300];
    IC_FORMAT(scene, "%s/drop.json", dir);
    FILE *fp = fopen(scene, "w");
    IC_REQUIRE(fp);
    fputs("{\"dt\": 0.02, \"frames\": 3, \"solver\": {\"substeps\": 4, \"iterations\": 1},\n"
          " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": "
          "2},\n"
          "             \"translate\": [0, 0.3, 0]}],\n"
          " \"colliders\": [{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0}}]}\n",
          fp);
    fclose(fp);
    IC_FORMAT(args, "'%s' --frame 2 --out '%s/one' --size 120x80 --field displacement", scene, dir);
    IC_CHECK_INT(runCli(args), 0);
    IC_FORMAT(path, "%s/one/frame_0002.png", dir);
    icImage image;
    IC_CHECK_RESULT(icImage_LoadPng(&image, path, NULL), IC_OK);
    icImage_Destroy(&image);
    IC_FORMAT(args, "'%s' --all --out '%s/all' --size 120x80", scene, dir);
    IC_CHECK_INT(runCli(args), 0);
    for (int f = 0; f <= 3; ++f) {
        IC_FORMAT(path, "%s/all/frame_%04d.png", dir, f);
        IC_CHECK_RESULT(icImage_LoadPng(&image, path, NULL), IC_OK);
        icImage_Destroy(&image);
    }
    IC_FORMAT(args, "'%s/none.json' --out '%s/x'", dir, dir);
    IC_CHECK_INT(runCli(args), 2);
}
