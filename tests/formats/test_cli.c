// SPDX-License-Identifier: MIT
// `isochor convert` and `isochor tetrahedralize` end to end: files written, exit codes.
#include "formats_testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int runCli(const char *args) {
    char command[4096];
    IC_FORMAT(command, "'%s' %s > /dev/null 2>&1", IC_CLI_PATH, args);
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

IC_TEST(formats, cli_convert_between_formats) {
    const char *dir = icTest_TempDir();
    const char *in = icTest_SourcePath("tests/data/formats/cube41.msh");
    const char *outs[] = {"c.vtk", "c.vtu", "c.mesh", "c.ele", "c.msh"};
    char args[3000], path[1300];
    for (int i = 0; i < 5; ++i) {
        IC_FORMAT(args, "convert '%s' '%s/%s' %s", in, dir, outs[i], i == 4 ? "--binary" : "");
        IC_CHECK_INT(runCli(args), 0);
        IC_FORMAT(path, "%s/%s", dir, outs[i]);
        icTetMesh mesh;
        icDiagnostic diag = {0};
        IC_CHECK_RESULT(icLoadMesh(path, NULL, &mesh, NULL, &diag), IC_OK);
        IC_CHECK_INT(mesh.tetCount, 5);
        IC_CHECK_NEAR(icTetMesh_Volume(&mesh, NULL), 1.0, 1e-12);
        IC_CHECK(mesh.regions != NULL);
        icTetMesh_Destroy(&mesh);
    }
    // The boundary as a surface.
    IC_FORMAT(args, "convert '%s' '%s/c.stl'", in, dir);
    IC_CHECK_INT(runCli(args), 0);
    IC_FORMAT(path, "%s/c.stl", dir);
    icTriSurface s;
    IC_CHECK_RESULT(icLoadSurface(path, &s, NULL), IC_OK);
    IC_CHECK_INT(s.triangleCount, 12);
    icTriSurface_Destroy(&s);
    // Bad requests.
    IC_FORMAT(args, "convert '%s' '%s/c.xyz'", in, dir);
    IC_CHECK_INT(runCli(args), 2);
    IC_FORMAT(args, "convert '%s' '%s/c.vtk'",
              icTest_SourcePath("tests/data/formats/broken/gmsh_nan.msh"), dir);
    IC_CHECK_INT(runCli(args), 2);
    IC_CHECK_INT(runCli("convert only-one-argument"), 2);
}

IC_TEST(formats, cli_collection_to_point_cache) {
    const char *dir = icTest_TempDir();
    // Two frames of a 2x2x2 box, the second moved up by 1.
    icTetMesh mesh;
    int cells[3] = {2, 2, 2};
    IC_REQUIRE(icGenerateBox(&mesh, icVec3_Make(1, 1, 1), cells, 6) == IC_OK);
    char path[1300], args[3000];
    const char *names[2] = {"a.vtu", "b.vtu"};
    icReal times[2] = {0, 1};
    for (int f = 0; f < 2; ++f) {
        IC_FORMAT(path, "%s/%s", dir, names[f]);
        IC_REQUIRE(icWriteVtu(path, mesh.vertexCount, mesh.positions, mesh.tetCount, mesh.tets,
                              NULL, 0, NULL, 0, NULL) == IC_OK);
        for (int v = 0; v < mesh.vertexCount; ++v) mesh.positions[3 * v + 1] += 1;
    }
    IC_FORMAT(path, "%s/r.pvd", dir);
    IC_REQUIRE(icWritePvd(path, 2, names, times, NULL) == IC_OK);
    IC_FORMAT(args, "convert '%s' '%s/anim.pc2'", path, dir);
    IC_REQUIRE(runCli(args) == 0);
    IC_FORMAT(path, "%s/anim.obj", dir);
    icTriSurface obj;
    IC_REQUIRE(icLoadSurface(path, &obj, NULL) == IC_OK);
    IC_FORMAT(path, "%s/anim.pc2", dir);
    size_t size;
    unsigned char *pc2 = (unsigned char *)icFmtTest_ReadFile(path, &size);
    IC_REQUIRE(pc2);
    int32_t points, samples;
    memcpy(&points, pc2 + 16, 4);
    memcpy(&samples, pc2 + 28, 4);
    IC_CHECK_INT(points, obj.vertexCount);
    IC_CHECK_INT(samples, 2);
    IC_CHECK_INT(size, 32 + 2 * 12 * (size_t)obj.vertexCount);
    // Sample 0 is the OBJ's vertices; sample 1 the same vertices one metre higher.
    for (int i = 0; i < obj.vertexCount && size == 32 + 24 * (size_t)obj.vertexCount; ++i) {
        float a[3], b[3];
        memcpy(a, pc2 + 32 + 12 * i, 12);
        memcpy(b, pc2 + 32 + 12 * ((size_t)obj.vertexCount + i), 12);
        for (int k = 0; k < 3; ++k) IC_CHECK_NEAR(a[k], obj.positions[3 * i + k], 1e-6);
        IC_CHECK_NEAR(b[1] - a[1], 1.0, 1e-6);
    }
    free(pc2);
    icTriSurface_Destroy(&obj);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(formats, cli_tetrahedralize) {
    const char *dir = icTest_TempDir();
    char args[3000], path[1300];
    const char *in = icTest_SourcePath("tests/data/formats/cube.off");
    IC_FORMAT(args, "tetrahedralize '%s' '%s/t.ele' --tetgen /nonexistent/tetgen", in, dir);
    IC_CHECK_INT(runCli(args), 2); // not installed: a clear message and status 2
    IC_FORMAT(args, "tetrahedralize '%s' '%s/t.ele' --max-volume -1", in, dir);
    IC_CHECK_INT(runCli(args), 2);
    if (!icFindProgram("tetgen", NULL, 0)) return;
    IC_FORMAT(args, "tetrahedralize '%s' '%s/t.msh' --max-volume 0.05 --quality 1.5", in, dir);
    IC_CHECK_INT(runCli(args), 0);
    IC_FORMAT(path, "%s/t.msh", dir);
    icTetMesh mesh;
    IC_CHECK_RESULT(icLoadMesh(path, NULL, &mesh, NULL, NULL), IC_OK);
    IC_CHECK_NEAR(icTetMesh_Volume(&mesh, NULL), 1.0, 1e-12);
    IC_CHECK(mesh.tetCount >= 20);
    icTetMesh_Destroy(&mesh);
}
