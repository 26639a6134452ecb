// SPDX-License-Identifier: MIT
// Every writer/reader pair gives back the mesh it was given: positions bit for bit (the
// ASCII writers print 17 digits and the parser rounds correctly), tets and regions exactly.
#include "formats_testing.h"

#include "formats/fmt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A jittered box with three regions in runs, so positions need all 17 digits.
static void makeMesh(icTetMesh *mesh) {
    int cells[3] = {4, 3, 5};
    IC_CHECK_RESULT(icGenerateBox(mesh, icVec3_Make(1.3, 0.7, 2.1), cells, 5), IC_OK);
    icTest_Seed(42);
    for (int i = 0; i < 3 * mesh->vertexCount; ++i)
        mesh->positions[i] += icTest_Uniform(-0.01, 0.01);
    mesh->regions = icAlloc(sizeof(int) * (size_t)mesh->tetCount);
    for (int t = 0; t < mesh->tetCount; ++t) mesh->regions[t] = 1 + (t / 7) % 3;
}

static void roundTrip(const char *name, bool binary, bool regions) {
    icTetMesh mesh, back;
    makeMesh(&mesh);
    if (!regions) {
        icFree(mesh.regions);
        mesh.regions = NULL;
    }
    char path[1200];
    IC_FORMAT(path, "%s/%s", icTest_TempDir(), name);
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icSaveMesh(path, &mesh, binary, &diag), IC_OK);
    icOrientReport report;
    icResult result = icLoadMesh(path, NULL, &back, &report, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s: %s (line %d)", name, diag.message, diag.line);
    if (result == IC_OK) {
        IC_CHECK_MSG(icFmtTest_SameMesh(&mesh, &back, 0), "%s differs", name);
        IC_CHECK_INT(report.invertedCount, 0);
        IC_CHECK((back.regions != NULL) == regions);
        if (regions) {
            for (int t = 0; back.regions && t < back.tetCount; ++t)
                if (back.regions[t] != mesh.regions[t]) {
                    IC_CHECK_INT(back.regions[t], mesh.regions[t]);
                    break;
                }
        }
        icTetMesh_Destroy(&back);
    }
    icTetMesh_Destroy(&mesh);
}

IC_TEST(formats, roundtrip_tetgen) { roundTrip("m.ele", false, true); }
IC_TEST(formats, roundtrip_gmsh_ascii) { roundTrip("m.msh", false, true); }
IC_TEST(formats, roundtrip_gmsh_binary) { roundTrip("m.msh", true, true); }
IC_TEST(formats, roundtrip_medit) { roundTrip("m.mesh", false, true); }
IC_TEST(formats, roundtrip_vtk_ascii) { roundTrip("m.vtk", false, true); }
IC_TEST(formats, roundtrip_vtk_binary) { roundTrip("m.vtk", true, true); }
IC_TEST(formats, roundtrip_vtu) { roundTrip("m.vtu", false, true); }

IC_TEST(formats, roundtrip_without_regions) {
    const char *names[] = {"m.ele", "m.msh", "m.mesh", "m.vtk", "m.vtu"};
    for (int i = 0; i < 5; ++i) {
        roundTrip(names[i], false, false);
        roundTrip(names[i], true, false);
    }
}

// The files isochor writes use the formats' own handedness, so they load without the
// orientation fix (a file in mesh.h's handedness would report flippedAll).
IC_TEST(formats, written_files_are_positive_in_their_format) {
    icTetMesh mesh, back;
    makeMesh(&mesh);
    const char *dir = icTest_TempDir();
    const char *names[] = {"a.msh", "b.mesh", "c.vtk"};
    for (int i = 0; i < 3; ++i) {
        char path[1200];
        IC_FORMAT(path, "%s/%s", dir, names[i]);
        icDiagnostic diag = {0};
        IC_CHECK_RESULT(icSaveMesh(path, &mesh, false, &diag), IC_OK);
        icOrientReport report;
        IC_CHECK_RESULT(icLoadMesh(path, NULL, &back, &report, &diag), IC_OK);
        IC_CHECK_MSG(!report.flippedAll, "%s was flipped", names[i]);
        icTetMesh_Destroy(&back);
    }
    // Reversing every tet in a Gmsh file is detected and fixed as a convention.
    for (int t = 0; t < mesh.tetCount; ++t) icFmt_SwapHandedness(mesh.tets + 4 * t);
    char path[1200];
    IC_FORMAT(path, "%s/reversed.msh", dir);
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icSaveGmsh(path, &mesh, false, &diag), IC_OK);
    icOrientReport report;
    IC_CHECK_RESULT(icLoadMesh(path, NULL, &back, &report, &diag), IC_OK);
    IC_CHECK(report.flippedAll);
    IC_CHECK(icTetMesh_Volume(&back, NULL) > 0);
    icTetMesh_Destroy(&back);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(formats, save_mesh_refuses_unknown_extension) {
    icTetMesh mesh;
    makeMesh(&mesh);
    icDiagnostic diag = {0};
    char path[1200];
    IC_FORMAT(path, "%s/m.xyz", icTest_TempDir());
    IC_CHECK_RESULT(icSaveMesh(path, &mesh, false, &diag), IC_ERR_UNSUPPORTED);
    icTetMesh_Destroy(&mesh);
}

// Surfaces: OBJ and ASCII PLY print 9 digits (float precision, what Blender keeps), binary
// PLY and STL store float32, OFF prints 17 digits.
static void surfaceRoundTrip(const char *name, double tolerance) {
    icTetMesh mesh;
    makeMesh(&mesh);
    icTriSurface s, back;
    IC_REQUIRE(icTriSurface_FromTetMesh(&s, &mesh, NULL) == IC_OK);
    char path[1200];
    IC_FORMAT(path, "%s/%s", icTest_TempDir(), name);
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icSaveSurface(path, &s, &diag), IC_OK);
    icResult result = icLoadSurface(path, &back, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s: %s line %d", name, diag.message, diag.line);
    if (result == IC_OK) {
        IC_CHECK_INT(back.vertexCount, s.vertexCount);
        IC_CHECK_INT(back.triangleCount, s.triangleCount);
        IC_CHECK_NEAR(icFmtTest_SurfaceVolume(&back), icTetMesh_Volume(&mesh, NULL), 1e-5);
        // STL renumbers vertices by first appearance; the writers keep the order otherwise.
        bool stl = strstr(name, ".stl") != NULL;
        for (int t = 0; t < s.triangleCount && back.triangleCount == s.triangleCount; ++t)
            for (int k = 0; k < 3; ++k) {
                icVec3 a = icVec3_Load(s.positions, s.triangles[3 * t + k]);
                icVec3 b = icVec3_Load(back.positions, back.triangles[3 * t + k]);
                if (!stl) IC_CHECK_INT(back.triangles[3 * t + k], s.triangles[3 * t + k]);
                if (icVec3_Distance(a, b) > tolerance) {
                    IC_CHECK_NEAR(icVec3_Distance(a, b), 0, tolerance);
                    t = s.triangleCount;
                    break;
                }
            }
        icTriSurface_Destroy(&back);
    }
    icTriSurface_Destroy(&s);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(formats, roundtrip_surface_obj) { surfaceRoundTrip("s.obj", 2e-8); }
IC_TEST(formats, roundtrip_surface_ply) { surfaceRoundTrip("s.ply", 2e-7); }
IC_TEST(formats, roundtrip_surface_stl) { surfaceRoundTrip("s.stl", 2e-7); }
IC_TEST(formats, roundtrip_surface_off) { surfaceRoundTrip("s.off", 0); }

IC_TEST(formats, roundtrip_surface_ply_ascii) {
    icTetMesh mesh;
    makeMesh(&mesh);
    icTriSurface s, back;
    IC_REQUIRE(icTriSurface_FromTetMesh(&s, &mesh, NULL) == IC_OK);
    char path[1200];
    IC_FORMAT(path, "%s/a.ply", icTest_TempDir());
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icSaveSurfacePly(path, &s, false, &diag), IC_OK);
    IC_REQUIRE(icLoadSurface(path, &back, &diag) == IC_OK);
    IC_CHECK_INT(back.triangleCount, s.triangleCount);
    IC_CHECK(memcmp(back.triangles, s.triangles, sizeof(int) * 3 * (size_t)s.triangleCount) == 0);
    double worst = 0;
    for (int i = 0; i < 3 * s.vertexCount; ++i) {
        double d = fabs(back.positions[i] - s.positions[i]);
        if (d > worst) worst = d;
    }
    IC_CHECK(worst < 1e-8);
    icTriSurface_Destroy(&back);
    icTriSurface_Destroy(&s);
    icTetMesh_Destroy(&mesh);
}

// The surface of a tet mesh keeps a map back to the mesh vertices and encloses its volume.
IC_TEST(formats, surface_from_tet_mesh) {
    icTetMesh mesh;
    int cells[3] = {3, 3, 3};
    IC_REQUIRE(icGenerateBox(&mesh, icVec3_Make(1, 1, 1), cells, 6) == IC_OK);
    icTriSurface s;
    IC_REQUIRE(icTriSurface_FromTetMesh(&s, &mesh, NULL) == IC_OK);
    IC_CHECK_INT(s.vertexCount, 4 * 4 * 4 - 2 * 2 * 2); // all but the inner vertices
    IC_CHECK_INT(s.triangleCount, 6 * 9 * 2);
    IC_CHECK_NEAR(icFmtTest_SurfaceVolume(&s), 1.0, 1e-12);
    for (int i = 0; i < s.vertexCount; ++i)
        for (int k = 0; k < 3; ++k)
            IC_CHECK(s.positions[3 * i + k] == mesh.positions[3 * s.meshVertex[i] + k]);
    icTriSurface_Destroy(&s);
    icTetMesh_Destroy(&mesh);
}

// PC2 layout exactly as Blender's Mesh Cache modifier reads it.
IC_TEST(formats, point_cache_layout) {
    char path[1200];
    IC_FORMAT(path, "%s/anim.pc2", icTest_TempDir());
    icReal positions[3 * 3] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    int index[2] = {2, 0};
    icPointCacheWriter writer;
    icDiagnostic diag = {0};
    IC_REQUIRE(icPointCache_Open(&writer, path, 2, 1.0f, 0.5f, &diag) == IC_OK);
    IC_CHECK_RESULT(icPointCache_Append(&writer, positions, index, &diag), IC_OK);
    for (int i = 0; i < 9; ++i) positions[i] += 10;
    IC_CHECK_RESULT(icPointCache_Append(&writer, positions, index, &diag), IC_OK);
    IC_CHECK_RESULT(icPointCache_Close(&writer, &diag), IC_OK);
    size_t size;
    unsigned char *data = (unsigned char *)icFmtTest_ReadFile(path, &size);
    IC_REQUIRE(data);
    IC_CHECK_INT(size, 32 + 2 * 2 * 12);
    IC_CHECK(memcmp(data, "POINTCACHE2\0", 12) == 0);
    int32_t header[3];
    float rates[2], xyz[12];
    memcpy(&header[0], data + 12, 4);
    memcpy(&header[1], data + 16, 4);
    memcpy(rates, data + 20, 8);
    memcpy(&header[2], data + 28, 4);
    memcpy(xyz, data + 32, sizeof xyz);
    IC_CHECK_INT(header[0], 1);
    IC_CHECK_INT(header[1], 2);
    IC_CHECK_INT(header[2], 2);
    IC_CHECK(rates[0] == 1.0f && rates[1] == 0.5f);
    float expected[12] = {6, 7, 8, 0, 1, 2, 16, 17, 18, 10, 11, 12};
    for (int i = 0; i < 12; ++i) IC_CHECK(xyz[i] == expected[i]);
    free(data);
}

// The number parser matches strtod bit for bit on every notation the writers and other
// programs use.
IC_TEST(formats, number_parser_matches_strtod) {
    icTest_Seed(7);
    const char *formats[] = {"%.17g", "%.16g", "%.15g", "%.9g", "%.6e", "%.3f", "%.20e", "%.1f"};
    int mismatches = 0;
    for (int i = 0; i < 200000; ++i) {
        double magnitude = pow(10.0, icTest_Uniform(-30, 30));
        double x = icTest_Uniform(-1, 1) * magnitude;
        if (i % 10 == 0) x = (double)(long long)icTest_Uniform(-1e6, 1e6) / 1024.0;
        char text[64];
        IC_FORMAT(text, formats[i % 8], x);
        double expected = strtod(text, NULL), got;
        bool finite;
        const char *end = icFmt_ParseReal(text, &got, &finite);
        if (!end || *end || memcmp(&got, &expected, sizeof got) != 0) {
            if (++mismatches < 5)
                IC_CHECK_MSG(false, "'%s': %.17g vs strtod %.17g", text, got, expected);
        }
    }
    IC_CHECK_INT(mismatches, 0);
    // Long mantissas and awkward exponents go the slow way but still match.
    const char *hard[] = {"2.2250738585072011e-308",
                          "1.7976931348623157e308",
                          "4.9e-324",
                          "0.1000000000000000055511151231257827",
                          "123456789012345678901234567890",
                          "9007199254740993",
                          "1e-400",
                          "-0.0",
                          "+7.5E+1",
                          "00012.500"};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; ++i) {
        double expected = strtod(hard[i], NULL), got;
        bool finite;
        const char *end = icFmt_ParseReal(hard[i], &got, &finite);
        IC_CHECK_MSG(end && !*end && memcmp(&got, &expected, sizeof got) == 0, "'%s'", hard[i]);
    }
    double v;
    bool finite = true;
    IC_CHECK(icFmt_ParseReal("nan", &v, &finite) && !finite);
    IC_CHECK(icFmt_ParseReal("-Infinity", &v, &finite) && !finite && v < 0);
    IC_CHECK(icFmt_ParseReal("1e999", &v, &finite) && !finite);
    IC_CHECK(icFmt_ParseReal("abc", &v, &finite) == NULL);
    IC_CHECK(icFmt_ParseReal(".", &v, &finite) == NULL);
}
