// SPDX-License-Identifier: MIT
// Loading has a memory budget: a scene file larger than the cap is refused before it is read,
// and a scene whose meshes and solver state are estimated to need more than the budget is
// refused before they are allocated (IC_ERR_OUT_OF_MEMORY, naming the scene, the mesh, the
// estimate and the budget). The estimate is checked against what a load and two steps really
// allocate, so that a change to the solvers' structures that outgrows it fails here.
#include "test.h"

#include "isochor/scene.h"
#include "scene/scene_budget.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

// Writes text to dir/name; path receives the file's name (IC_PATH bytes).
enum { IC_PATH = 1200 };
static const char *writeScene(char *path, const char *dir, const char *name, const char *text) {
    IC_FORMAT_N(path, IC_PATH, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
    return path;
}

static icResult loadWith(const char *path, int64_t maxMemory, int64_t maxFileBytes,
                         icDiagnostic *diag) {
    icSceneLoadOptions options = icDefaultSceneLoadOptions();
    options.maxMemory = maxMemory;
    options.maxFileBytes = maxFileBytes;
    icScene scene;
    memset(diag, 0, sizeof *diag);
    icResult r = icScene_LoadWith(path, &options, &scene, diag);
    if (r == IC_OK) icScene_Destroy(&scene);
    return r;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// The case: inside the generator's range, far beyond any machine's memory.
IC_TEST(reliability, budget_refuses_a_huge_crazy_cube_before_allocating) {
    int64_t bytes = icGetByteCount();
    char buffer[IC_PATH];
    const char *path = writeScene(
        buffer, icTest_TempDir(), "huge_cube.json",
        "{\"dt\": 0.01,\n \"bodies\": [{\"mesh\": {\"generate\": \"crazy_cube\", \"tets\": "
        "100000000}}]}\n");
    icDiagnostic diag;
    double start = seconds();
    IC_CHECK_RESULT(loadWith(path, (int64_t)4 << 30, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    double took = seconds() - start;
    IC_CHECK_MSG(took < 1.0, "refused after %.2f s", took);
    IC_CHECK_MSG(strcmp(diag.file, path) == 0 && diag.line == 2, "at %s:%d", diag.file, diag.line);
    IC_CHECK_MSG(strstr(diag.message, "bodies[0].mesh: the crazy cube of about 120000000 tets") &&
                     strstr(diag.message, "over the memory budget of 4.0 GiB (4294967296 bytes)"),
                 "message: %s", diag.message);
    // Refused before the generator ran: nothing was allocated, nothing is left.
    IC_CHECK_INT(icGetByteCount(), bytes);
    // The default budget (half the physical memory) refuses it too, on any machine with less
    // than the estimate's double.
    memset(&diag, 0, sizeof diag);
    icScene scene;
    if (icScene_DefaultMemoryBudget() < ((int64_t)40 << 30)) {
        IC_CHECK_RESULT(icScene_Load(path, &scene, &diag), IC_ERR_OUT_OF_MEMORY);
    }
    IC_CHECK(icScene_DefaultMemoryBudget() > 0);
    remove(path);
}

IC_TEST(reliability, budget_counts_every_body_and_names_what_is_left) {
    const char *dir = icTest_TempDir();
    char paths[3][IC_PATH];
    const char *path = writeScene(
        paths[0], dir, "two_boxes.json",
        "{\"dt\": 0.01, \"bodies\": [\n"
        "  {\"mesh\": {\"generate\": \"box\", \"cells\": 24}},\n"
        "  {\"mesh\": {\"generate\": \"box\", \"cells\": 24}, \"translate\": [2, 0, 0]}]}\n");
    icDiagnostic diag;
    // One box of 82,944 tets fits in 64 MiB, two do not: the second is refused.
    IC_CHECK_RESULT(loadWith(path, (int64_t)64 << 20, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(diag.line == 3 && strstr(diag.message, "bodies[1].mesh: the box of about 82944 tets") &&
                     strstr(diag.message, "more than is left of the memory budget of 64.0 MiB (67108864 bytes): the scene's parsed JSON takes"),
                 "line %d: %s", diag.line, diag.message);
    IC_CHECK_RESULT(loadWith(path, (int64_t)256 << 20, 0, &diag), IC_OK);
    // Every generator: a sphere and a torus past 1 MiB.
    const char *sphere = writeScene(
        paths[1], dir, "big_sphere.json",
        "{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"sphere\", \"cells\": 40}}]}\n");
    IC_CHECK_RESULT(loadWith(sphere, (int64_t)1 << 20, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(strstr(diag.message, "the sphere of about"), "%s", diag.message);
    const char *torus = writeScene(
        paths[2], dir, "big_torus.json",
        "{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"torus\", \"cells\": 60}}]}\n");
    IC_CHECK_RESULT(loadWith(torus, (int64_t)1 << 20, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(strstr(diag.message, "the torus of about"), "%s", diag.message);
    remove(path);
    remove(sphere);
    remove(torus);
}

// A mesh file is read whole: its size counts before it is read, then the body built from it.
IC_TEST(reliability, budget_counts_mesh_files) {
    const char *dir = icTest_TempDir();
    char mesh[IC_PATH], scene[2000], buffer[IC_PATH];
    IC_FORMAT(mesh, "%s/budget_box.vtk", dir);
    icTetMesh box;
    const int cells[3] = {10, 10, 10};
    IC_REQUIRE(icGenerateBox(&box, icVec3_Make(1, 1, 1), cells, 6) == IC_OK);
    IC_REQUIRE(icSaveMesh(mesh, &box, false, NULL) == IC_OK);
    icTetMesh_Destroy(&box);
    FILE *fp = fopen(mesh, "rb");
    IC_REQUIRE(fp);
    fseek(fp, 0, SEEK_END);
    int64_t fileBytes = ftell(fp);
    fclose(fp);
    IC_FORMAT(scene, "{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"file\": \"%s\"}}]}\n", mesh);
    const char *path = writeScene(buffer, dir, "file_mesh.json", scene);
    int64_t parse = icSceneBudget_JsonBytes((int64_t)strlen(scene));
    icDiagnostic diag;
    // Room for the parse but not for the file's text.
    IC_CHECK_RESULT(loadWith(path, parse + fileBytes / 2, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(strstr(diag.message, "bodies[0].mesh.file: reading the mesh file") &&
                     strstr(diag.message, "budget_box.vtk"),
                 "%s", diag.message);
    // Room for the text but not for the 6,000-tet body.
    IC_CHECK_RESULT(loadWith(path, parse + fileBytes, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(strstr(diag.message, "bodies[0].mesh: the body's mesh of 6000 tets and 1331 vertices"),
                 "%s", diag.message);
    IC_CHECK_RESULT(loadWith(path, 0, 0, &diag), IC_OK);
    remove(path);
    remove(mesh);
}

IC_TEST(reliability, scene_file_size_is_capped_before_reading) {
    char text[3000];
    IC_FORMAT(text,
              "{\"description\": \"%0*d\",\n \"dt\": 0.01, \"bodies\": [{\"mesh\": "
              "{\"generate\": \"box\", \"cells\": 1}}]}\n",
              2000, 0);
    char buffer[IC_PATH], words[100];
    const char *path = writeScene(buffer, icTest_TempDir(), "padded.json", text);
    long long length = (long long)strlen(text);
    icDiagnostic diag;
    IC_CHECK_RESULT(loadWith(path, 0, 1000, &diag), IC_ERR_BAD_VALUE);
    IC_FORMAT(words, "the scene file is %lld bytes, more than the 1000 bytes", length);
    IC_CHECK_MSG(strstr(diag.message, words), "%s", diag.message);
    IC_CHECK_RESULT(loadWith(path, 0, 0, &diag), IC_OK);      // the default cap: 64 MiB
    IC_CHECK_RESULT(loadWith(path, 0, length, &diag), IC_OK); // the cap is inclusive
    IC_CHECK_RESULT(loadWith(path, 0, length - 1, &diag), IC_ERR_BAD_VALUE);
    // Parsing is estimated from the text before cJSON allocates.
    IC_CHECK_RESULT(loadWith(path, 5000, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_FORMAT(words, "parsing this scene of %lld bytes needs about", length);
    IC_CHECK_MSG(strstr(diag.message, words), "%s", diag.message);
    IC_CHECK_RESULT(loadWith(path, -1, 0, &diag), IC_ERR_INVALID_ARGUMENT);
    remove(path);
}

// The estimate against the real structures: a box loaded and run two frames just inside a
// ground plane, per solver, two workers. It must never be below what was allocated, nor so far
// above it that it refuses scenes that fit.
IC_TEST(reliability, budget_estimate_is_above_the_real_bytes) {
    static const struct {
        const char *solver, *material;
        icSolverType type;
    } cases[] = {
        {"xpbd", "{}", IC_SOLVER_XPBD},
        {"newton", "{\"model\": \"snh\"}", IC_SOLVER_NEWTON},
        {"incompressible", "{\"model\": \"corotated\", \"poisson_ratio\": 0.5}",
         IC_SOLVER_INCOMPRESSIBLE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int64_t before = icGetByteCount();
        char text[1000];
        IC_FORMAT(text,
                  "{\"dt\": 0.01, \"frames\": 2, \"solver\": {\"type\": \"%s\", \"workers\": 2},\n"
                  " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 12}, "
                  "\"material\": %s, \"translate\": [0, 0.499, 0]}],\n"
                  " \"colliders\": [{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0}}]}\n",
                  cases[i].solver, cases[i].material);
        icScene scene;
        icDiagnostic diag = {0};
        IC_REQUIRE(icScene_LoadString(text, "estimate", ".", &scene, &diag) == IC_OK);
        icRunOptions options = icDefaultRunOptions();
        options.writeOutput = false;
        icRunSummary summary;
        IC_CHECK_RESULT(icScene_Run(&scene, &options, &summary, &diag), IC_OK);
        // Workspaces stay allocated between steps: what a run holds after its frames.
        int64_t real = icGetByteCount() - before;
        int nv = icWorld_GetVertexCount(scene.world), nt = icWorld_GetTetCount(scene.world);
        int64_t estimate = icSceneBudget_BodyBytes(cases[i].type, 2, nv, nt);
        IC_CHECK_MSG(estimate >= real && estimate <= 3 * real,
                     "%s: estimate %lld bytes, allocated %lld (%d vertices, %d tets)",
                     cases[i].solver, (long long)estimate, (long long)real, nv, nt);
        icScene_Destroy(&scene);
    }
}

IC_TEST(reliability, cli_max_memory_and_scene_size) {
    const char *dir = icTest_TempDir();
    char buffer[IC_PATH];
    const char *path = writeScene(
        buffer, dir, "cli_budget.json",
        "{\"dt\": 0.01, \"frames\": 1,\n"
        " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 40}}]}\n");
    char args[3000];
    IC_FORMAT(args, "run '%s' --quiet --no-output --max-memory 64M", path);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(run.err && strstr(run.err, path) &&
                     strstr(run.err, "bodies[0].mesh: the box of about 384000 tets") &&
                     strstr(run.err, "memory budget of 64.0 MiB (67108864 bytes)") &&
                     strstr(run.err, "[IC_ERR_OUT_OF_MEMORY]"),
                 "stderr: %s", run.err ? run.err : "");
    IC_CHECK_MSG(run.out && run.out[0] == 0, "stdout: %s", run.out ? run.out : "");
    icTest_FreeCli(&run);
    IC_FORMAT(args, "info --scene '%s' --max-memory 64m", path);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(run.err && strstr(run.err, "[IC_ERR_OUT_OF_MEMORY]"), "stderr: %s",
                 run.err ? run.err : "");
    icTest_FreeCli(&run);
    IC_FORMAT(args, "run '%s' --quiet --no-output --max-scene-size 50", path);
    run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 2);
    IC_CHECK_MSG(run.err && strstr(run.err, "more than the 50 bytes a scene file may have") &&
                     strstr(run.err, "[IC_ERR_BAD_VALUE]"),
                 "stderr: %s", run.err ? run.err : "");
    icTest_FreeCli(&run);
    static const char *const bad[] = {"12X", "0", "-5", "1.5G", "", "99999999999T"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        IC_FORMAT(args, "run '%s' --quiet --no-output --max-memory '%s'", path, bad[i]);
        run = icTest_RunCli(dir, args);
        IC_CHECK_INT(run.status, 2);
        IC_CHECK_MSG(run.err && strstr(run.err, "is not a number of bytes"), "'%s': %s", bad[i],
                     run.err ? run.err : "");
        icTest_FreeCli(&run);
    }
    // Suffixes: 1G is plenty for this box, in either spelling.
    IC_FORMAT(args, "run '%s' --quiet --no-output --max-memory 1GiB --max-scene-size 4k", path);
    run = icTest_RunCli(dir, args);
    IC_CHECK_MSG(run.status == 0, "status %d: %s", run.status, run.err ? run.err : "");
    icTest_FreeCli(&run);
    remove(path);
}

// Bytes a load of the scene at path keeps (the library's allocation count), -1 when it fails.
static int64_t loadedBytes(const char *path) {
    int64_t before = icGetByteCount();
    icScene scene;
    icDiagnostic diag = {0};
    if (icScene_Load(path, &scene, &diag) != IC_OK) return -1;
    int64_t bytes = icGetByteCount() - before;
    icScene_Destroy(&scene);
    return bytes;
}

// Surfaces count too: a mesh collider's file and a tissue render surface whose size grows as
// 1 / cell^2 are estimated before they are loaded or generated, and the estimates are above
// what the loads keep.
IC_TEST(reliability, budget_counts_collider_files_and_render_surfaces) {
    const char *dir = icTest_TempDir();
    char obj[IC_PATH], scene[2000], buffer[IC_PATH];
    // A 60 x 60 grid of quads as an OBJ collider (7,200 triangles).
    IC_FORMAT(obj, "%s/budget_floor.obj", dir);
    FILE *fp = fopen(obj, "w");
    IC_REQUIRE(fp);
    const int n = 60;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) fprintf(fp, "v %.6f -0.2 %.6f\n", (double)i / n - 0.5, (double)j / n - 0.5);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int a = j * (n + 1) + i + 1, b = a + 1, c = a + n + 1, d = c + 1;
            fprintf(fp, "f %d %d %d\nf %d %d %d\n", a, d, b, a, c, d);
        }
    int64_t objBytes = ftell(fp);
    fclose(fp);
    const char *plain = writeScene(buffer, dir, "no_collider.json",
                                   "{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 2}}]}\n");
    int64_t bodyOnly = loadedBytes(plain);
    IC_REQUIRE(bodyOnly > 0);
    IC_FORMAT(scene,
              "{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 2}}],\n"
              " \"colliders\": [{\"mesh\": {\"file\": \"%s\"}}]}\n",
              obj);
    char colliderPath[IC_PATH];
    writeScene(colliderPath, dir, "collider.json", scene);
    int64_t collider = loadedBytes(colliderPath) - bodyOnly;
    int64_t estimate = icSceneBudget_SurfaceFileBytes(objBytes);
    printf("  mesh collider: %lld bytes of OBJ keep %lld bytes; estimate %lld\n", (long long)objBytes,
           (long long)collider, (long long)estimate);
    IC_CHECK(collider > 0 && collider < estimate);
    icDiagnostic diag;
    IC_CHECK_RESULT(loadWith(colliderPath, estimate / 2, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(strstr(diag.message, "colliders[0].mesh.file: the mesh collider") &&
                     strstr(diag.message, "budget_floor.obj"),
                 "%s", diag.message);
    IC_CHECK_RESULT(loadWith(colliderPath, 0, 0, &diag), IC_OK);

    // A one-bone creature with a render surface: at a cell of 0.1 mm it would take about
    // 8 GB and minutes; it is refused at once. At 5 mm it loads, within its estimate.
    static const char *const tissue =
        "{\"dt\": 0.01, \"bodies\": [{\"bones\": [{\"name\": \"leg\", \"a\": [0, 0, 0], \"b\": [0, 0.3, 0],\n"
        "   \"radius\": 0.02, \"flesh\": 0.06}],\n"
        " \"mesh\": {\"generate\": \"tissue\", \"cell\": 0.03}, \"attach\": [{\"within\": 0.02}],\n"
        " \"render_surface\": {\"generate\": \"tissue\", \"cell\": %g}}]}\n";
    IC_FORMAT(scene, tissue, 0.0001);
    char tissuePath[IC_PATH];
    writeScene(tissuePath, dir, "tissue_tiny_cell.json", scene);
    IC_CHECK_RESULT(loadWith(tissuePath, 1 << 30, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(strstr(diag.message, "render_surface.cell: the render surface at this cell size needs about"),
                 "%s", diag.message);
    IC_FORMAT(scene, tissue, 0.005);
    writeScene(tissuePath, dir, "tissue_with_surface.json", scene);
    IC_FORMAT(scene, "{\"dt\": 0.01, \"bodies\": [{\"bones\": [{\"name\": \"leg\", \"a\": [0, 0, 0], \"b\": [0, 0.3, 0],\n"
                     "   \"radius\": 0.02, \"flesh\": 0.06}],\n"
                     " \"mesh\": {\"generate\": \"tissue\", \"cell\": 0.03}, \"attach\": [{\"within\": 0.02}]}]}\n");
    char bareTissue[IC_PATH];
    writeScene(bareTissue, dir, "tissue_bare.json", scene);
    int64_t surface = loadedBytes(tissuePath) - loadedBytes(bareTissue);
    // The capsule's outer radius is 0.08 m: area 2 pi r L + 4 pi r^2.
    icTissueCapsule capsule = {icVec3_Make(0, 0, 0), icVec3_Make(0, 0.3, 0), 0.08, 0.02};
    int64_t surfaceEstimate = icSceneBudget_TissueSurfaceBytes(&capsule, 1, 0.005);
    printf("  render surface at 5 mm: keeps %lld bytes; estimate %lld\n", (long long)surface,
           (long long)surfaceEstimate);
    IC_CHECK(surface > 0 && surface < surfaceEstimate);
    remove(obj);
}

// Rods count too: a 16-rod sheet of 100,000 segments each (inside every key's range) is
// refused before a segment is built, at the sheet, naming the segments; a row of octopi the
// same; a small sheet loads under the same budget.
IC_TEST(reliability, budget_counts_rod_segments) {
    int64_t bytes = icGetByteCount();
    const char *dir = icTest_TempDir();
    char buffer[IC_PATH];
    const char *big = writeScene(
        buffer, dir, "rod_sheet.json",
        "{\"dt\": 0.01,\n \"rods\": [{\"sheet\": {\"start\": [0, 1, 0], \"end\": "
        "[1, 1, 0], \"across\": [0, 0, 0.4], \"rods\": 16, \"segments\": 100000}}]}\n");
    icDiagnostic diag;
    double start = seconds();
    IC_CHECK_RESULT(loadWith(big, (int64_t)1 << 30, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(seconds() - start < 1.0, "refused after %.2f s", seconds() - start);
    IC_CHECK_MSG(diag.line == 2 && strstr(diag.message, "rods[0].sheet: 1600000 rod segments "
                                                         "needs about") &&
                     strstr(diag.message, "over the memory budget of 1.0 GiB"),
                 "%s:%d: %s", diag.file, diag.line, diag.message);
    char octopi[IC_PATH];
    writeScene(octopi, dir, "octopi.json",
               "{\"dt\": 0.01,\n \"rods\": [{\"octopus\": {\"count\": 100000}}]}\n");
    IC_CHECK_RESULT(loadWith(octopi, (int64_t)1 << 30, 0, &diag), IC_ERR_OUT_OF_MEMORY);
    IC_CHECK_MSG(strstr(diag.message, "3700000 rod segments"), "%s", diag.message);
    char small[IC_PATH];
    writeScene(small, dir, "rod_sheet_small.json",
               "{\"dt\": 0.01,\n \"rods\": [{\"sheet\": {\"start\": [0, 1, 0], "
               "\"end\": [1, 1, 0], \"across\": [0, 0, 0.4], \"rods\": 16, \"segments\": 100}}]}\n");
    IC_CHECK_RESULT(loadWith(small, (int64_t)1 << 30, 0, &diag), IC_OK);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
