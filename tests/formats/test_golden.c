// SPDX-License-Identifier: MIT
// Hand-written files of every format load with the known counts, volumes and regions.
#include "formats_testing.h"

#include <stdlib.h>
#include <string.h>

// Checks a load of the five-tet unit cube: positions and tets (in mesh.h handedness, which
// is the files' order with local vertices 1 and 2 swapped), volume 1, no orientation fixes.
static void checkCube(const char *relative, icMeshFormat format, bool regions, int skipped,
                      icMeshFields *fieldsOut) {
    const char *path = icTest_SourcePath(relative);
    icTetMesh mesh;
    icMeshFields fields;
    icMeshFileInfo info;
    icOrientReport report;
    icDiagnostic diag = {0};
    icResult result = icLoadMeshEx(path, NULL, &mesh, &fields, &info, &report, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s: %s (%s line %d)", relative, diag.message,
                 icResult_Name(result), diag.line);
    if (result != IC_OK) return;
    IC_CHECK_INT(info.format, format);
    IC_CHECK_INT(mesh.vertexCount, 8);
    IC_CHECK_INT(mesh.tetCount, 5);
    IC_CHECK_INT(info.skippedElements, skipped);
    IC_CHECK(!report.flippedAll);
    IC_CHECK_INT(report.invertedCount, 0);
    IC_CHECK_NEAR(icTetMesh_Volume(&mesh, NULL), 1.0, 1e-12);
    IC_CHECK_NEAR(icTetMesh_TetVolume(&mesh, NULL, 0), 1.0 / 3.0, 1e-12);
    for (int v = 0; v < 8 && v < mesh.vertexCount; ++v)
        for (int k = 0; k < 3; ++k)
            IC_CHECK(mesh.positions[3 * v + k] == icFmtTest_cubePositions[v][k]);
    for (int t = 0; t < 5 && t < mesh.tetCount; ++t) {
        const int *f = icFmtTest_cubeTets[t];
        int expected[4] = {f[0], f[2], f[1], f[3]};
        for (int k = 0; k < 4; ++k) IC_CHECK_INT(mesh.tets[4 * t + k], expected[k]);
    }
    IC_CHECK(info.hasRegions == regions);
    IC_CHECK((mesh.regions != NULL) == regions);
    for (int t = 0; regions && mesh.regions && t < 5; ++t)
        IC_CHECK_INT(mesh.regions[t], icFmtTest_cubeRegions[t]);
    icTetMesh_Destroy(&mesh);
    if (fieldsOut)
        *fieldsOut = fields;
    else
        icMeshFields_Destroy(&fields);
}

IC_TEST(formats, golden_gmsh22) {
    int64_t bytes = icGetByteCount();
    checkCube("tests/data/formats/cube22.msh", IC_FORMAT_GMSH, true, 3, NULL);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(formats, golden_gmsh41) {
    checkCube("tests/data/formats/cube41.msh", IC_FORMAT_GMSH, true, 2, NULL);
}

IC_TEST(formats, golden_vtk42_with_fields) {
    icMeshFields fields = {0, NULL};
    checkCube("tests/data/formats/cube42.vtk", IC_FORMAT_VTK, true, 2, &fields);
    const icMeshField *region = icMeshFields_Find(&fields, "region", true);
    const icMeshField *disp = icMeshFields_Find(&fields, "displacement", false);
    IC_REQUIRE(region && disp);
    // Cell data follows the tets that were kept (the triangle and vertex cells are gone).
    for (int t = 0; t < 5; ++t) IC_CHECK(region->data[t] == icFmtTest_cubeRegions[t]);
    IC_CHECK_INT(disp->components, 3);
    IC_CHECK(disp->data[3 * 7 + 2] == 1.0 && disp->data[3 * 3 + 2] == 0.0);
    icMeshFields_Destroy(&fields);
}

IC_TEST(formats, golden_vtk51) {
    icMeshFields fields = {0, NULL};
    checkCube("tests/data/formats/cube51.vtk", IC_FORMAT_VTK, true, 0, &fields);
    const icMeshField *quality = icMeshFields_Find(&fields, "quality", true);
    IC_REQUIRE(quality);
    IC_CHECK(quality->data[0] == 0.5 && quality->data[4] == 0.25);
    icMeshFields_Destroy(&fields);
}

IC_TEST(formats, golden_vtu_ascii) {
    icMeshFields fields = {0, NULL};
    checkCube("tests/data/formats/cube_ascii.vtu", IC_FORMAT_VTU, true, 0, &fields);
    const icMeshField *j = icMeshFields_Find(&fields, "J", true);
    const icMeshField *disp = icMeshFields_Find(&fields, "displacement", false);
    IC_REQUIRE(j && disp);
    IC_CHECK(j->data[1] == 1.1 && j->data[2] == 0.9);
    IC_CHECK(disp->data[3 * 6 + 2] == 0.5);
    icMeshFields_Destroy(&fields);
}

IC_TEST(formats, golden_medit) {
    checkCube("tests/data/formats/cube2.mesh", IC_FORMAT_MEDIT, true, 2, NULL);
    checkCube("tests/data/formats/cube1.mesh", IC_FORMAT_MEDIT, false, 0, NULL);
}

IC_TEST(formats, golden_quadratic_tet) {
    icTetMesh mesh;
    icMeshFileInfo info;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadMeshEx(icTest_SourcePath("tests/data/formats/tet10.msh"), NULL, &mesh,
                                 NULL, &info, NULL, &diag),
                    IC_OK);
    IC_CHECK_INT(mesh.tetCount, 1);
    IC_CHECK_INT(mesh.vertexCount, 4); // the six mid-edge nodes are dropped
    IC_CHECK_INT(info.quadraticTets, 1);
    IC_CHECK_INT(info.droppedVertices, 6);
    IC_CHECK_NEAR(icTetMesh_Volume(&mesh, NULL), 1.0 / 6.0, 1e-15);
    IC_REQUIRE(mesh.regions);
    IC_CHECK_INT(mesh.regions[0], 7);
    icTetMesh_Destroy(&mesh);
}

// Content beats the extension: a Gmsh file named .mesh still loads as Gmsh.
IC_TEST(formats, sniff_by_content) {
    const char *dir = icTest_TempDir();
    size_t size;
    char *text = icFmtTest_ReadFile(icTest_SourcePath("tests/data/formats/cube41.msh"), &size);
    IC_REQUIRE(text);
    const char *path = icFmtTest_WriteFile(dir, "misnamed.mesh", text, size);
    free(text);
    IC_CHECK_INT(icDetectMeshFormat(path), IC_FORMAT_GMSH);
    IC_CHECK_INT(icDetectMeshFormat(icTest_SourcePath("tests/data/formats/cube42.vtk")),
                 IC_FORMAT_VTK);
    IC_CHECK_INT(icDetectMeshFormat(icTest_SourcePath("tests/data/formats/cube_ascii.vtu")),
                 IC_FORMAT_VTU);
    IC_CHECK_INT(icDetectMeshFormat(icTest_SourcePath("tests/data/formats/cube1.mesh")),
                 IC_FORMAT_MEDIT);
    IC_CHECK_INT(icDetectMeshFormat("nothing/here.ele"), IC_FORMAT_TETGEN);
    IC_CHECK_INT(icDetectMeshFormat("nothing/here.xyz"), IC_FORMAT_UNKNOWN);
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadMesh(path, NULL, &mesh, NULL, &diag), IC_OK);
    IC_CHECK_INT(mesh.tetCount, 5);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_RESULT(icLoadMesh("nothing/here.xyz", NULL, &mesh, NULL, &diag), IC_ERR_UNSUPPORTED);
}

static void checkSurfaceCube(const char *relative, int triangles) {
    icTriSurface s;
    icDiagnostic diag = {0};
    icResult result = icLoadSurface(icTest_SourcePath(relative), &s, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s: %s line %d", relative, diag.message, diag.line);
    if (result != IC_OK) return;
    IC_CHECK_INT(s.vertexCount, 8);
    IC_CHECK_INT(s.triangleCount, triangles);
    IC_CHECK_NEAR(icFmtTest_SurfaceVolume(&s), 1.0, 1e-12);
    icTriSurface_Destroy(&s);
}

IC_TEST(formats, golden_surfaces) {
    int64_t bytes = icGetByteCount();
    checkSurfaceCube("tests/data/formats/cube.obj", 12);
    checkSurfaceCube("tests/data/formats/cube.off", 12);
    checkSurfaceCube("tests/data/formats/cube_ascii.ply", 12);
    checkSurfaceCube("tests/data/formats/cube_ascii.stl", 12); // 36 corners welded to 8
    IC_CHECK_INT(icGetByteCount(), bytes);
}
