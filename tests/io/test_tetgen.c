// SPDX-License-Identifier: MIT
// TetGen reader and writer: round trips, tolerated variants, and the exact code, file and
// line of every kind of bad file.
#include "test.h"

#include "isochor/formats.h"
#include "isochor/io.h"

#include "core/core.h"

#include <string.h>

// The unit cube of tests/data/io/cube*.{node,ele}: vertex i = (i & 1, (i >> 1) & 1, i >> 2).
static const int s_cubeTets[5][4] = {{0, 2, 1, 4}, {3, 1, 2, 7}, {5, 4, 1, 7}, {6, 2, 4, 7},
                                     {1, 4, 2, 7}};

static bool endsWith(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void checkCube(const icTetMesh *mesh, const char *what) {
    IC_CHECK_MSG(mesh->vertexCount == 8 && mesh->tetCount == 5, "%s: %d vertices, %d tets", what,
                 mesh->vertexCount, mesh->tetCount);
    if (mesh->vertexCount != 8 || mesh->tetCount != 5) return;
    for (int v = 0; v < 8; ++v) {
        IC_CHECK(mesh->positions[3 * v] == (v & 1));
        IC_CHECK(mesh->positions[3 * v + 1] == ((v >> 1) & 1));
        IC_CHECK(mesh->positions[3 * v + 2] == (v >> 2));
    }
    for (int t = 0; t < 5; ++t)
        for (int k = 0; k < 4; ++k)
            IC_CHECK_MSG(mesh->tets[4 * t + k] == s_cubeTets[t][k], "%s: tet %d corner %d is %d",
                         what, t, k, mesh->tets[4 * t + k]);
    IC_CHECK_NEAR(icTetMesh_Volume(mesh, NULL), 1.0, 1e-15);
}

IC_TEST(io, tetgen_zero_based) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadTetGen(icTest_SourcePath("tests/data/io/cube0.ele"), &mesh, &diag), IC_OK);
    checkCube(&mesh, "cube0");
    IC_CHECK(mesh.regions == NULL);
    icTetMesh_Destroy(&mesh);
    // The .node name and the basename load the same files.
    IC_CHECK_RESULT(icLoadTetGen(icTest_SourcePath("tests/data/io/cube0.node"), &mesh, &diag), IC_OK);
    checkCube(&mesh, "cube0.node");
    icTetMesh_Destroy(&mesh);
    IC_CHECK_RESULT(icLoadTetGen(icTest_SourcePath("tests/data/io/cube0"), &mesh, &diag), IC_OK);
    checkCube(&mesh, "cube0 basename");
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(io, tetgen_one_based_comments_attributes) {
    icTetMesh mesh;
    icDiagnostic diag = {0};
    icResult r = icLoadTetGen(icTest_SourcePath("tests/data/io/cube1"), &mesh, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", icResult_Name(r), diag.message);
    checkCube(&mesh, "cube1");
    IC_REQUIRE(mesh.regions != NULL);
    for (int t = 0; t < mesh.tetCount; ++t) IC_CHECK_INT(mesh.regions[t], 10 + t);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(io, tetgen_non_sequential_ids) {
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadTetGen(icTest_SourcePath("tests/data/io/cube_ids.ele"), &mesh, &diag),
                    IC_OK);
    checkCube(&mesh, "cube_ids");
    icTetMesh_Destroy(&mesh);
}

IC_TEST(io, tetgen_quadratic_keeps_corners) {
    // 10-node tets: the 19 mid-edge nodes come first in the file and must be dropped, the
    // corners renumbered in file order (so back to the cube's numbering).
    icTetMesh mesh;
    icDiagnostic diag = {0};
    icResult r = icLoadTetGen(icTest_SourcePath("tests/data/io/cube10.ele"), &mesh, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", icResult_Name(r), diag.message);
    checkCube(&mesh, "cube10");
    icTetMesh_Destroy(&mesh);
}

// A cube with moved vertices and full-precision coordinates, regions set.
static void makeJitteredCube(icTetMesh *mesh) {
    IC_CHECK_RESULT(icTetMesh_Create(mesh, 8, 5), IC_OK);
    for (int v = 0; v < 8; ++v) {
        mesh->positions[3 * v] = (v & 1) + icTest_Uniform(-0.1, 0.1);
        mesh->positions[3 * v + 1] = ((v >> 1) & 1) + icTest_Uniform(-0.1, 0.1);
        mesh->positions[3 * v + 2] = (v >> 2) * 1e-3 + icTest_Uniform(-1e-5, 1e-5);
    }
    memcpy(mesh->tets, s_cubeTets, sizeof s_cubeTets);
}

IC_TEST(io, tetgen_round_trip_exact) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh, back;
    makeJitteredCube(&mesh);
    mesh.positions[5] = -1.2345678901234567e-300; // tiny and negative still round-trip
    char base[1100];
    IC_FORMAT(base, "%s/saved", icTest_TempDir());
    icDiagnostic diag = {0};
    IC_REQUIRE(icSaveTetGen(base, &mesh, &diag) == IC_OK);
    IC_REQUIRE(icLoadTetGen(base, &back, &diag) == IC_OK);
    IC_CHECK_INT(back.vertexCount, mesh.vertexCount);
    IC_CHECK_INT(back.tetCount, mesh.tetCount);
    IC_CHECK(memcmp(back.positions, mesh.positions, sizeof(icReal) * 24) == 0);
    IC_CHECK(memcmp(back.tets, mesh.tets, sizeof(int) * 20) == 0);
    IC_CHECK(back.regions == NULL);
    icTetMesh_Destroy(&back);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(io, tetgen_round_trip_regions_and_generated) {
    // A generated box, large enough to exercise the buffers, with regions.
    icTetMesh mesh, back;
    int cells[3] = {7, 5, 6};
    IC_REQUIRE(icGenerateBox(&mesh, icVec3_Make(1.3, 0.7, 0.9), cells, 6) == IC_OK);
    icTetMesh withRegions;
    IC_REQUIRE(icTetMesh_Copy(&withRegions, &mesh) == IC_OK);
    icTetMesh_Destroy(&mesh);
    icFree(withRegions.regions);
    withRegions.regions = IC_ALLOC(int, withRegions.tetCount);
    IC_REQUIRE(withRegions.regions != NULL);
    for (int t = 0; t < withRegions.tetCount; ++t) withRegions.regions[t] = (t * 7) % 5 - 2;

    char base[1100];
    IC_FORMAT(base, "%s/box", icTest_TempDir());
    icDiagnostic diag = {0};
    IC_REQUIRE(icSaveTetGen(base, &withRegions, &diag) == IC_OK);
    icOrientReport report;
    IC_REQUIRE(icLoadMesh(base, NULL, &back, &report, &diag) == IC_OK);
    IC_CHECK(!report.flippedAll);
    IC_CHECK_INT(report.invertedCount, 0);
    IC_CHECK_INT(back.vertexCount, withRegions.vertexCount);
    IC_REQUIRE(back.tetCount == withRegions.tetCount);
    IC_CHECK(memcmp(back.positions, withRegions.positions,
                    sizeof(icReal) * 3 * (size_t)back.vertexCount) == 0);
    IC_CHECK(memcmp(back.tets, withRegions.tets, sizeof(int) * 4 * (size_t)back.tetCount) == 0);
    IC_REQUIRE(back.regions != NULL);
    IC_CHECK(memcmp(back.regions, withRegions.regions, sizeof(int) * (size_t)back.tetCount) == 0);
    icTetMesh_Destroy(&back);
    icTetMesh_Destroy(&withRegions);
}

// Loads a bad file and checks the exact code, the file named and the line.
static void expectBad(const char *relative, icResult code, const char *fileSuffix, int line,
                      const char *messagePart) {
    icTetMesh mesh;
    memset(&mesh, 0xAB, sizeof mesh);
    icDiagnostic diag;
    memset(&diag, 0, sizeof diag);
    int64_t bytes = icGetByteCount();
    icResult r = icLoadTetGen(icTest_SourcePath(relative), &mesh, &diag);
    IC_CHECK_MSG(r == code, "%s: returned %s, expected %s (%s)", relative, icResult_Name(r),
                 icResult_Name(code), diag.message);
    IC_CHECK_MSG(diag.code == code, "%s: diag.code %s", relative, icResult_Name(diag.code));
    IC_CHECK_MSG(diag.line == line, "%s: line %d, expected %d (%s)", relative, diag.line, line,
                 diag.message);
    IC_CHECK_MSG(endsWith(diag.file, fileSuffix), "%s: diag.file '%s' should end in '%s'",
                 relative, diag.file, fileSuffix);
    IC_CHECK_MSG(!messagePart || strstr(diag.message, messagePart), "%s: message '%s' lacks '%s'",
                 relative, diag.message, messagePart);
    IC_CHECK_MSG(mesh.vertexCount == 0 && mesh.tetCount == 0 && !mesh.positions && !mesh.tets &&
                     !mesh.regions,
                 "%s: the mesh is not left zeroed", relative);
    IC_CHECK_MSG(icGetByteCount() == bytes, "%s: leaked %lld bytes", relative,
                 (long long)(icGetByteCount() - bytes));
}

IC_TEST(io, tetgen_bad_files) {
    expectBad("tests/data/io/bad_trunc_node.ele", IC_ERR_TRUNCATED, "bad_trunc_node.node", 7,
              "expected 8 vertices, file ends after 5");
    expectBad("tests/data/io/bad_trunc_ele.ele", IC_ERR_TRUNCATED, "bad_trunc_ele.ele", 6,
              "expected 5 tets, file ends after 3");
    expectBad("tests/data/io/bad_trunc_mid.ele", IC_ERR_TRUNCATED, "bad_trunc_mid.ele", 5,
              "expected 5 tets, file ends after 3");
    expectBad("tests/data/io/bad_range.ele", IC_ERR_INDEX_OUT_OF_RANGE, "bad_range.ele", 4,
              "node 8");
    expectBad("tests/data/io/bad_nan.ele", IC_ERR_NOT_FINITE, "bad_nan.node", 5,
              "vertex 3 has a non-finite coordinate");
    expectBad("tests/data/io/bad_flat.ele", IC_ERR_DEGENERATE_ELEMENT, "bad_flat.ele", 8, "tet 5");
    expectBad("tests/data/io/bad_repeat.ele", IC_ERR_REPEATED_INDEX, "bad_repeat.ele", 3, "tet 1");
    expectBad("tests/data/io/bad_header.ele", IC_ERR_PARSE, "bad_header.node", 2, "dimension");
    expectBad("tests/data/io/bad_npt.ele", IC_ERR_PARSE, "bad_npt.ele", 1, "nodes per tet");
    expectBad("tests/data/io/bad_token.node", IC_ERR_PARSE, "bad_token.node", 4, "'0,5'");
    expectBad("tests/data/io/bad_dupid.ele", IC_ERR_PARSE, "bad_dupid.node", 7,
              "first on line 4");
    expectBad("tests/data/io/bad_missing.ele", IC_ERR_IO, "bad_missing.node", 0, NULL);
    expectBad("tests/data/io/no_such_mesh", IC_ERR_IO, "no_such_mesh.node", 0, NULL);
}

// Writes text to dir/name.
static void writeText(const char *dir, const char *name, const char *text) {
    char path[1200];
    IC_FORMAT(path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    IC_REQUIRE(fp != NULL);
    fputs(text, fp);
    fclose(fp);
}

IC_TEST(io, tetgen_orientation_through_load_mesh) {
    const char *dir = icTest_TempDir();
    const char *nodes = "4 3\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n";
    char path[1200];
    icTetMesh mesh;
    icOrientReport report;
    icDiagnostic diag = {0};
    icLoadOptions strict = {.strict = true};
    // TetGen's positive tet (det[x1-x0, x2-x0, x3-x0] > 0) loads as is; a file whose every
    // tet is negative used the other handedness: flipped and reported.
    writeText(dir, "pos.node", nodes);
    writeText(dir, "pos.ele", "1 4\n0 0 1 2 3\n");
    IC_FORMAT(path, "%s/pos.ele", dir);
    IC_REQUIRE(icLoadMesh(path, NULL, &mesh, &report, &diag) == IC_OK);
    IC_CHECK(!report.flippedAll);
    IC_CHECK_INT(report.invertedCount, 0);
    IC_CHECK_NEAR(icTetMesh_TetVolume(&mesh, NULL, 0), 1.0 / 6.0, 1e-15);
    icTetMesh_Destroy(&mesh);
    writeText(dir, "neg.node", nodes);
    writeText(dir, "neg.ele", "1 4\n0 0 2 1 3\n");
    IC_FORMAT(path, "%s/neg.ele", dir);
    IC_REQUIRE(icLoadMesh(path, &strict, &mesh, &report, &diag) == IC_OK);
    IC_CHECK(report.flippedAll);
    IC_CHECK(icTetMesh_TetVolume(&mesh, NULL, 0) > 0);
    icTetMesh_Destroy(&mesh);

    // One of two inverted: kept (and counted) unless strict, where the line is reported.
    writeText(dir, "mixed.node", "5 3\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n4 0 0 -1\n");
    writeText(dir, "mixed.ele", "2 4\n0 0 1 2 3\n\n1 0 1 2 4\n");
    IC_FORMAT(path, "%s/mixed", dir);
    IC_REQUIRE(icLoadMesh(path, NULL, &mesh, &report, &diag) == IC_OK);
    IC_CHECK(!report.flippedAll);
    IC_CHECK_INT(report.invertedCount, 1);
    IC_CHECK_INT(report.firstInverted[0], 1);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_RESULT(icLoadMesh(path, &strict, &mesh, &report, &diag), IC_ERR_INVERTED_ELEMENT);
    IC_CHECK_INT(diag.line, 4);
    IC_CHECK(endsWith(diag.file, "mixed.ele"));
    IC_CHECK(mesh.positions == NULL && mesh.tetCount == 0);

    // Unknown extensions are refused by name.
    IC_CHECK_RESULT(icLoadMesh("mesh.obj", NULL, &mesh, NULL, &diag), IC_ERR_UNSUPPORTED);
}

IC_TEST(io, tetgen_header_and_record_errors) {
    const char *dir = icTest_TempDir();
    char path[1200];
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_FORMAT(path, "%s/m", dir);
    struct {
        const char *node, *ele;
        icResult code;
        const char *file;
        int line;
    } cases[] = {
        // empty .node: truncated on line 1
        {"", "1 4\n0 0 1 2 3\n", IC_ERR_TRUNCATED, "m.node", 1},
        // header with a word
        {"four 3 0 0\n", "1 4\n0 0 1 2 3\n", IC_ERR_PARSE, "m.node", 1},
        // missing dimension
        {"# c\n4\n", "1 4\n0 0 1 2 3\n", IC_ERR_PARSE, "m.node", 2},
        // a vertex record with two coordinates in the middle of the file
        {"4 3\n0 0 0 0\n1 1 0\n2 0 1 0\n3 0 0 1\n", "1 4\n0 0 1 2 3\n", IC_ERR_PARSE, "m.node", 3},
        // infinity is not finite either
        {"4 3\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1e999\n", "1 4\n0 0 1 2 3\n", IC_ERR_NOT_FINITE,
         "m.node", 5},
        // no vertices / no tets
        {"0 3 0 0\n", "1 4\n0 0 1 2 3\n", IC_ERR_EMPTY, "m.node", 1},
        {"4 3\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n", "\n0 4 0\n", IC_ERR_EMPTY, "m.ele", 2},
        // a region attribute promised but absent (mid-file) and a node id that is a number
        {"4 3\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n", "2 4 1\n0 0 1 2 3\n1 0 1 2 3 5\n",
         IC_ERR_PARSE, "m.ele", 2},
        {"4 3\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n", "1 4\n0 0 1 2.5 3\n", IC_ERR_PARSE, "m.ele",
         2},
        // a header claiming far more than the file holds
        {"700000000 3 0 0\n0 0 0 0\n", "1 4\n0 0 1 2 3\n", IC_ERR_TRUNCATED, "m.node", 3},
        // 1-based file whose tet uses id 0
        {"4 3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n", "1 4\n1 0 1 2 3\n",
         IC_ERR_INDEX_OUT_OF_RANGE, "m.ele", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        writeText(dir, "m.node", cases[i].node);
        writeText(dir, "m.ele", cases[i].ele);
        icResult r = icLoadTetGen(path, &mesh, &diag);
        IC_CHECK_MSG(r == cases[i].code && diag.line == cases[i].line &&
                         endsWith(diag.file, cases[i].file),
                     "case %zu: %s at %s:%d (%s), expected %s at %s:%d", i, icResult_Name(r),
                     diag.file, diag.line, diag.message, icResult_Name(cases[i].code),
                     cases[i].file, cases[i].line);
        IC_CHECK(mesh.positions == NULL);
    }
}

// More records than a header counts: TetGen reads the count the header gives and ignores the
// rest, and so does the loader, counting them (icMeshFileInfo) so that the user hears of
// it. Before the count was kept, the same files loaded with no word of the extra records.
IC_TEST(io, tetgen_trailing_records_ignored_and_counted) {
    const char *dir = icTest_TempDir();
    char path[1200];
    IC_FORMAT(path, "%s/extra", dir);
    // Header says 4 nodes, 5 follow (the fifth far away); header says 1 tet, 3 follow (one
    // of them would be degenerate, another refers to the fifth node).
    writeText(dir, "extra.node",
              "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n# a comment is no record\n"
              "4 9 9 9\n");
    writeText(dir, "extra.ele", "1 4 0\n0 0 1 2 3\n\n1 0 1 2 2\n2 0 1 2 4\n");
    icTetMesh mesh;
    icMeshFileInfo info;
    icDiagnostic diag = {0};
    icResult r = icLoadMeshEx(path, NULL, &mesh, NULL, &info, NULL, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", icResult_Name(r), diag.message);
    if (r != IC_OK) return;
    IC_CHECK_INT(mesh.vertexCount, 4);
    IC_CHECK_INT(mesh.tetCount, 1);
    IC_CHECK_INT(info.ignoredTrailingRecords, 3);
    icTetMesh_Destroy(&mesh);
    // Exactly as many records as counted: nothing to report.
    writeText(dir, "exact.node", "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n");
    writeText(dir, "exact.ele", "1 4 0\n0 0 1 2 3\n# end\n");
    IC_FORMAT(path, "%s/exact.ele", dir);
    IC_REQUIRE(icLoadMeshEx(path, NULL, &mesh, NULL, &info, NULL, &diag) == IC_OK);
    IC_CHECK_INT(info.ignoredTrailingRecords, 0);
    icTetMesh_Destroy(&mesh);
}
