// SPDX-License-Identifier: MIT
// Edges found by hostile input: a refused resume names the checkpoint's real frame and prints
// nothing else; a scene with an empty rod list runs (no memcpy from NULL, which UBSan reports
// in the sanitizer build); a FIFO, a directory or a device given as a mesh or scene is refused
// by name without being opened (a FIFO blocked the reader forever, /dev/zero filled memory).
#include "test.h"

#include "isochor/scene.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *s_box =
    "{\"dt\": 0.01, \"frames\": 6, \"solver\": {\"substeps\": 4},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2}}]}\n";

static icResult runScene(const char *text, int frames, const char *checkpoint, const char *resume,
                         icDiagnostic *diag) {
    return icTest_RunSceneText(text, "edge", frames, checkpoint, resume, NULL, NULL, diag);
}

IC_TEST(reliability, resume_past_the_run_names_the_checkpoint_frame) {
    char path[1200];
    IC_FORMAT(path, "%s/edge_resume.ckpt", icTest_TempDir());
    icDiagnostic diag = {0};
    IC_CHECK(runScene(s_box, 6, path, NULL, &diag) == IC_OK);
    memset(&diag, 0, sizeof diag);
    // The checkpoint is at frame 6; a run of 4 frames cannot continue it.
    IC_CHECK(runScene(s_box, 4, NULL, path, &diag) == IC_ERR_BAD_VALUE);
    IC_CHECK_MSG(strstr(diag.message, "checkpoint is at frame 6, past the run's 4 frames"),
                 "message: %s", diag.message);
    remove(path);
}

IC_TEST(reliability, empty_rod_list_runs) {
    icDiagnostic diag = {0};
    icResult r = runScene("{\"dt\": 0.01, \"frames\": 3, \"rods\": []}\n", 3, NULL, NULL, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s", diag.message);
}

// `isochor run --resume` refused: exit status 2, the error on stderr, and nothing on stdout
// (no summary of a world that never ran).
IC_TEST(reliability, cli_refused_resume_prints_only_the_error) {
    const char *dir = icTest_TempDir();
    char path[1200];
    IC_FORMAT(path, "%s/edge.json", dir);
    FILE *fp = fopen(path, "w");
    IC_REQUIRE(fp);
    fputs(s_box, fp);
    fclose(fp);
    char args[4000];
    IC_FORMAT(args, "run '%s' --quiet --out '%s/edge' --checkpoint-every 6", path, dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 0);
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s' --quiet --out '%s/edge' --frames 4 --resume '%s/edge/edge.ckpt'", path,
              dir, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(run.err && strstr(run.err, "checkpoint is at frame 6, past the run's 4 frames"),
                 "stderr: %s", run.err ? run.err : "");
    IC_CHECK_MSG(run.out && run.out[0] == 0, "stdout: %s", run.out ? run.out : "(none)");
    icTest_FreeCli(&run);
}

IC_TEST(reliability, special_files_refused_without_blocking) {
    char fifo[1200], folder[1200];
    IC_FORMAT(fifo, "%s/mesh_fifo.msh", icTest_TempDir());
    IC_FORMAT(folder, "%s/mesh_folder.vtu", icTest_TempDir());
    remove(fifo);
    IC_REQUIRE(mkfifo(fifo, 0600) == 0);
    mkdir(folder, 0700);
    const struct {
        const char *path, *what;
    } cases[] = {{fifo, "is a FIFO (named pipe), not a regular file"},
                 {folder, "is a directory, not a regular file"},
                 {"/dev/zero", "is a device, not a regular file"}};
    for (int i = 0; i < 3; ++i) {
        icDiagnostic diag = {0};
        // A name without a mesh extension is a TetGen base name (x.node, x.ele): the device
        // is tried as a scene only.
        if (i < 2) {
            icTetMesh mesh;
            IC_CHECK_INT(icLoadMesh(cases[i].path, NULL, &mesh, NULL, &diag), IC_ERR_IO);
            IC_CHECK_MSG(strstr(diag.message, cases[i].what) && strcmp(diag.file, cases[i].path) == 0,
                         "%s: %s: %s", cases[i].path, diag.file, diag.message);
        }
        icScene scene;
        memset(&diag, 0, sizeof diag);
        IC_CHECK_INT(icScene_Load(cases[i].path, &scene, &diag), IC_ERR_IO);
        IC_CHECK_MSG(strstr(diag.message, cases[i].what), "scene %s: %s", cases[i].path,
                     diag.message);
    }
    remove(fifo);
}

// A scene of rods only: the summary names the collections written (rods.pvd, pills.pvd), not
// a tet collection that never is, and gives the rods' counts and volume instead of an empty
// tet world's. Its checkpoint holds the rods: a run stopped at frame 3 (off the output grid of
// 5) and resumed to frame 6 leaves the files and figures of an uninterrupted run.
IC_TEST(reliability, cli_rod_scene_names_its_collections_and_resumes) {
    const char *dir = icTest_TempDir();
    const char *scene = icTest_SourcePath("scenes/viper/contraction_rigid.json");
    char args[4000];
    IC_FORMAT(args, "run '%s' --quiet --frames 6 --out '%s/full' --stats '%s/full.json'", scene,
              dir, dir);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 0);
    IC_CHECK_MSG(run.out && strstr(run.out, "/full/rods.pvd") && strstr(run.out, "/full/pills.pvd") &&
                     !strstr(run.out, "contraction_rigid.pvd"),
                 "stdout: %s", run.out ? run.out : "");
    // The rods' own figures, none of an empty tet world's (0 vertices, V/V0 1, 0 checked steps).
    IC_CHECK_MSG(run.out && strstr(run.out, "rods           7 rods, 63 segments, 70 vertices") &&
                     strstr(run.out, "rod volume     V/V0 final 1.00") && !strstr(run.out, "mesh   ") &&
                     !strstr(run.out, "V/V0           final") && !strstr(run.out, "checked steps"),
                 "stdout: %s", run.out ? run.out : "");
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s' --quiet --frames 3 --out '%s/part' --checkpoint-every 3", scene, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 0);
    icTest_FreeCli(&run);
    IC_FORMAT(args,
              "run '%s' --quiet --frames 6 --out '%s/part' --resume '%s/part/contraction_rigid.ckpt' "
              "--stats '%s/part.json'",
              scene, dir, dir, dir);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "exit %d: %s", run.status, run.err ? run.err : "");
    icTest_FreeCli(&run);
    const char *files[] = {"rods_00005.vtu", "rods_00006.vtu", "pills_00006.vtu", "rods.pvd",
                           "pills.pvd"};
    icTest_CheckResumedRun(dir, files, (int)(sizeof files / sizeof files[0]));
}

// Coordinates so large that a tet's volume overflows are out of range, reported at the tet's
// line, not as "zero volume (6V = 1e+308)".
IC_TEST(reliability, overflowing_tet_is_out_of_range_not_zero_volume) {
    char path[1200];
    IC_FORMAT(path, "%s/huge.msh", icTest_TempDir());
    FILE *fp = fopen(path, "w");
    IC_REQUIRE(fp);
    fputs("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1e103 0 0\n3 0 1e103 0\n"
          "4 0 0 1e103\n$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n",
          fp);
    fclose(fp);
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_INT(icLoadMesh(path, NULL, &mesh, NULL, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK_INT(diag.line, 13);
    IC_CHECK_MSG(strstr(diag.message, "too large to measure (its volume overflows)"), "%s",
                 diag.message);
    remove(path);
}
