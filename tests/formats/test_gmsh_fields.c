// SPDX-License-Identifier: MIT
// Gmsh $NodeData and $ElementData become point and cell fields (2.2 and 4.1, ASCII and
// binary): mapped by tag onto the kept vertices and tets, the last time step of each view,
// incomplete views and $ElementNodeData counted as skipped, damaged sections refused.
#include "formats_testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Two tets (element tags 1 and 3) over nodes 10-50, a triangle (tag 2) that also uses node
// 60, which no tet uses and the load drops.
static const char s_mesh22[] = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                               "$Nodes\n6\n10 0 0 0\n20 1 0 0\n30 0 1 0\n40 0 0 1\n50 1 1 1\n"
                               "60 5 5 5\n$EndNodes\n"
                               "$Elements\n3\n1 4 2 1 1 10 20 30 40\n2 2 2 0 1 10 20 60\n"
                               "3 4 2 1 1 20 30 40 50\n$EndElements\n";

static const char s_mesh41[] = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
                               "$Nodes\n1 6 10 60\n3 1 0 6\n10\n20\n30\n40\n50\n60\n"
                               "0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n5 5 5\n$EndNodes\n"
                               "$Elements\n2 3 1 3\n2 1 2 1\n2 10 20 60\n3 1 4 2\n"
                               "1 10 20 30 40\n3 20 30 40 50\n$EndElements\n";

// The data sections after either mesh: "displacement" in two time steps (the second wins,
// entries in any order), "J", "pressure" (with a value for the triangle, dropped), a 9-value
// "stress", a "partial" view that misses node 50 and an $ElementNodeData view.
static const char s_data[] =
    "$NodeData\n1\n\"displacement\"\n1\n0\n3\n0\n3\n5\n"
    "10 9 9 9\n20 9 9 9\n30 9 9 9\n40 9 9 9\n50 9 9 9\n$EndNodeData\n"
    "$NodeData\n1\n\"displacement\"\n1\n0.5\n3\n1\n3\n6\n"
    "50 5 10 15\n40 4 8 12\n30 3 6 9\n20 2 4 6\n10 1 2 3\n60 6 12 18\n$EndNodeData\n"
    "$NodeData\n1\n\"J\"\n1\n0.5\n4\n1\n1\n5\n0\n"
    "10 1\n20 1.5\n30 2\n40 2.5\n50 3\n$EndNodeData\n"
    "$ElementData\n1\n\"pressure\"\n1\n0.5\n3\n1\n1\n3\n3 300\n2 7\n1 100\n$EndElementData\n"
    "$ElementData\n2\n\"stress\"\n\"interpolation\"\n0\n3\n0\n9\n2\n"
    "1 10 11 12 13 14 15 16 17 18\n3 20 21 22 23 24 25 26 27 28\n$EndElementData\n"
    "$NodeData\n1\n\"partial\"\n1\n0\n3\n0\n1\n4\n10 1\n20 1\n30 1\n40 1\n$EndNodeData\n"
    "$ElementNodeData\n1\n\"per element node\"\n1\n0\n3\n0\n1\n1\n1 4 1 2 3 4\n"
    "$EndElementNodeData\n";

static void checkFields(const char *path, int vertexCount) {
    icTetMesh mesh;
    icMeshFields fields;
    icMeshFileInfo info;
    icDiagnostic diag = {0};
    icResult result = icLoadMeshEx(path, NULL, &mesh, &fields, &info, NULL, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s: %s (%s line %d)", path, icResult_Name(result), diag.message,
                 diag.line);
    if (result != IC_OK) return;
    IC_CHECK_INT(mesh.vertexCount, vertexCount);
    IC_CHECK_INT(mesh.tetCount, 2);
    IC_CHECK_INT(info.skippedElements, 1);
    IC_CHECK_INT(fields.count, 4);
    IC_CHECK_INT(info.skippedFields, 2);
    const icMeshField *u = icMeshFields_Find(&fields, "displacement", false);
    const icMeshField *j = icMeshFields_Find(&fields, "J", false);
    const icMeshField *p = icMeshFields_Find(&fields, "pressure", true);
    const icMeshField *s = icMeshFields_Find(&fields, "stress", true);
    IC_REQUIRE(u && j && p && s);
    IC_CHECK(icMeshFields_Find(&fields, "partial", false) == NULL);
    IC_CHECK_INT(u->components, 3);
    IC_CHECK_INT(j->components, 1);
    IC_CHECK_INT(p->components, 1);
    IC_CHECK_INT(s->components, 9);
    // Vertex i holds node 10 (i + 1) (positions tell which).
    for (int v = 0; v < 5; ++v) {
        IC_CHECK(mesh.positions[3 * v] == (v == 1 || v == 4) &&
                 mesh.positions[3 * v + 1] == (v == 2 || v == 4));
        for (int k = 0; k < 3; ++k) IC_CHECK(u->data[3 * v + k] == (v + 1) * (k + 1));
        IC_CHECK(j->data[v] == 1.0 + 0.5 * v);
    }
    IC_CHECK(p->data[0] == 100 && p->data[1] == 300);
    for (int t = 0; t < 2; ++t)
        for (int k = 0; k < 9; ++k) IC_CHECK(s->data[9 * t + k] == 10 * (t + 1) + k);
    icMeshFields_Destroy(&fields);
    icTetMesh_Destroy(&mesh);
}

static const char *withData(const char *name, const char *mesh, const char *data) {
    size_t n = strlen(mesh) + strlen(data) + 1;
    char *text = malloc(n);
    snprintf(text, n, "%s%s", mesh, data);
    const char *path = icFmtTest_WriteText(icTest_TempDir(), name, text);
    free(text);
    return path;
}

IC_TEST(formats, gmsh22_data_sections_become_fields) {
    int64_t bytes = icGetByteCount();
    checkFields(withData("fields22.msh", s_mesh22, s_data), 5);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(formats, gmsh41_data_sections_become_fields) {
    checkFields(withData("fields41.msh", s_mesh41, s_data), 5);
}

// Appends a binary data section: ASCII tags, then an int32 tag and doubles per entry.
static void binarySection(icBytes *b, bool perCell, const char *name, int step, int components,
                          int count, const int *tags, const double *values) {
    char head[256];
    IC_FORMAT(head, "$%sData\n1\n\"%s\"\n1\n0\n3\n%d\n%d\n%d\n", perCell ? "Element" : "Node", name,
              step, components, count);
    icBytes_Text(b, head);
    for (int e = 0; e < count; ++e) {
        icBytes_I32(b, tags[e], false);
        for (int k = 0; k < components; ++k) icBytes_F64(b, values[components * e + k], false);
    }
    IC_FORMAT(head, "\n$End%sData\n", perCell ? "Element" : "Node");
    icBytes_Text(b, head);
}

// The same mesh and views in binary (2.2 or 4.1 with 8-byte sizes).
static const char *binaryFile(const char *name, bool v41) {
    icBytes b = {0};
    icBytes_Text(&b, v41 ? "$MeshFormat\n4.1 1 8\n" : "$MeshFormat\n2.2 1 8\n");
    icBytes_I32(&b, 1, false);
    icBytes_Text(&b, "\n$EndMeshFormat\n$Nodes\n");
    const double xyz[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}, {5, 5, 5}};
    if (v41) {
        icBytes_U64(&b, 1, false), icBytes_U64(&b, 6, false), icBytes_U64(&b, 10, false);
        icBytes_U64(&b, 60, false);
        icBytes_I32(&b, 3, false), icBytes_I32(&b, 1, false), icBytes_I32(&b, 0, false);
        icBytes_U64(&b, 6, false);
        for (int v = 0; v < 6; ++v) icBytes_U64(&b, 10 * (uint64_t)(v + 1), false);
        for (int v = 0; v < 6; ++v)
            for (int k = 0; k < 3; ++k) icBytes_F64(&b, xyz[v][k], false);
        icBytes_Text(&b, "\n$EndNodes\n$Elements\n");
        icBytes_U64(&b, 2, false), icBytes_U64(&b, 3, false), icBytes_U64(&b, 1, false);
        icBytes_U64(&b, 3, false);
        icBytes_I32(&b, 2, false), icBytes_I32(&b, 1, false), icBytes_I32(&b, 2, false);
        icBytes_U64(&b, 1, false);
        const uint64_t tri[4] = {2, 10, 20, 60};
        for (int k = 0; k < 4; ++k) icBytes_U64(&b, tri[k], false);
        icBytes_I32(&b, 3, false), icBytes_I32(&b, 1, false), icBytes_I32(&b, 4, false);
        icBytes_U64(&b, 2, false);
        const uint64_t tets[10] = {1, 10, 20, 30, 40, 3, 20, 30, 40, 50};
        for (int k = 0; k < 10; ++k) icBytes_U64(&b, tets[k], false);
    } else {
        icBytes_Text(&b, "6\n");
        for (int v = 0; v < 6; ++v) {
            icBytes_I32(&b, 10 * (v + 1), false);
            for (int k = 0; k < 3; ++k) icBytes_F64(&b, xyz[v][k], false);
        }
        icBytes_Text(&b, "\n$EndNodes\n$Elements\n3\n");
        const int tri[9] = {2, 1, 2, 2, 2, 7, 10, 20, 60}; // header, then tag, 2 tags, nodes
        for (int k = 0; k < 9; ++k) icBytes_I32(&b, tri[k], false);
        const int tets[19] = {4, 2, 2, 1, 1, 7, 10, 20, 30, 40, 3, 1, 7, 20, 30, 40, 50};
        for (int k = 0; k < 17; ++k) icBytes_I32(&b, tets[k], false);
    }
    icBytes_Text(&b, "\n$EndElements\n");
    const int nodes[6] = {50, 40, 30, 20, 10, 60};
    double u[18], old[18], jv[5] = {1, 1.5, 2, 2.5, 3};
    for (int e = 0; e < 6; ++e)
        for (int k = 0; k < 3; ++k) u[3 * e + k] = (nodes[e] / 10) * (k + 1), old[3 * e + k] = 9;
    binarySection(&b, false, "displacement", 0, 3, 5, nodes, old);
    binarySection(&b, false, "displacement", 1, 3, 6, nodes, u);
    const int jTags[5] = {10, 20, 30, 40, 50};
    binarySection(&b, false, "J", 1, 1, 5, jTags, jv);
    const int pTags[3] = {3, 2, 1};
    const double p[3] = {300, 7, 100};
    binarySection(&b, true, "pressure", 1, 1, 3, pTags, p);
    const int sTags[2] = {1, 3};
    double s[18];
    for (int k = 0; k < 18; ++k) s[k] = 10 * (k / 9 + 1) + k % 9;
    binarySection(&b, true, "stress", 0, 9, 2, sTags, s);
    binarySection(&b, false, "partial", 0, 1, 4, jTags, jv);
    icBytes_Text(&b, "$ElementNodeData\n1\n\"per element node\"\n1\n0\n3\n0\n1\n1\n");
    icBytes_I32(&b, 1, false), icBytes_I32(&b, 4, false);
    for (int k = 0; k < 4; ++k) icBytes_F64(&b, k, false);
    icBytes_Text(&b, "\n$EndElementNodeData\n");
    const char *path = icFmtTest_WriteFile(icTest_TempDir(), name, b.data, b.size);
    icBytes_Free(&b);
    return path;
}

IC_TEST(formats, gmsh_binary_data_sections_become_fields) {
    int64_t bytes = icGetByteCount();
    checkFields(binaryFile("fields22b.msh", false), 5);
    checkFields(binaryFile("fields41b.msh", true), 5);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Expects the 2.2 mesh followed by data to fail with code at line (0: binary or whole file).
static void expectBad(const char *data, icResult code, int line, const char *words) {
    icTetMesh mesh;
    icMeshFields fields;
    icDiagnostic diag = {0};
    icResult result =
        icLoadMeshEx(withData("bad.msh", s_mesh22, data), NULL, &mesh, &fields, NULL, NULL, &diag);
    IC_CHECK_MSG(result == code, "%s, expected %s (%s)", icResult_Name(result), icResult_Name(code),
                 diag.message);
    IC_CHECK_MSG(diag.line == line, "line %d, expected %d (%s)", diag.line, line, diag.message);
    IC_CHECK_MSG(strstr(diag.message, words) != NULL, "'%s' lacks '%s'", diag.message, words);
    IC_CHECK(mesh.tets == NULL && fields.count == 0);
}

// The 2.2 mesh text ends on line 18: data sections start on line 19.
IC_TEST(formats, gmsh_damaged_data_sections_refused) {
    int64_t bytes = icGetByteCount();
    expectBad("$NodeData\n1\n\"u\"\n0\n3\n0\n1\n2\n10 1\n70 1\n$EndNodeData\n",
              IC_ERR_INDEX_OUT_OF_RANGE, 28, "node 70");
    expectBad("$NodeData\n1\n\"u\"\n0\n3\n0\n1\n2\n10 1\n20 nan\n$EndNodeData\n", IC_ERR_NOT_FINITE,
              28, "not finite");
    expectBad("$NodeData\n1\n\"u\"\n0\n3\n0\n10\n1\n10 1 2 3 4 5 6 7 8 9 10\n$EndNodeData\n",
              IC_ERR_UNSUPPORTED, 25, "10 components");
    expectBad("$NodeData\n1\n\"u\"\n0\n2\n0\n1\n10 1\n$EndNodeData\n", IC_ERR_PARSE, 23,
              "2 integer tags");
    expectBad("$NodeData\n1\n\"u\"\n0\n3\n0\n1\n3\n10 1\n20 2\n$EndNodeData\n", IC_ERR_PARSE, 29,
              "$EndNodeData");
    expectBad("$ElementData\n1\n\"p\n0\n3\n0\n1\n1\n1 5\n$EndElementData\n", IC_ERR_PARSE, 21,
              "quote");
    expectBad("$NodeData\n1\n\"u\"\n0\n3\n0\n1\n400\n10 1\n$EndNodeData\n", IC_ERR_TRUNCATED, 26,
              "400");
    expectBad("$NodeData\n1\n\"u\"\n0\n3\n0\n1\n2\n10 1\n", IC_ERR_TRUNCATED, 26, "too short");
    expectBad("$NodeData\n1\n\"u\"\n0\n3\n0\n1\n2\n10 1.000000\n", IC_ERR_TRUNCATED, 27, "ends");
    // A step given twice with different component counts contradicts itself.
    expectBad("$NodeData\n1\n\"u\"\n0\n3\n0\n1\n1\n10 1\n$EndNodeData\n"
              "$NodeData\n1\n\"u\"\n0\n3\n0\n3\n1\n10 1 2 3\n$EndNodeData\n",
              IC_ERR_PARSE, 35, "components");
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(formats, gmsh_data_before_mesh_sections_refused) {
    icTetMesh mesh;
    icDiagnostic diag = {0};
    const char *text = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                       "$NodeData\n1\n\"u\"\n0\n3\n0\n1\n1\n10 1\n$EndNodeData\n";
    IC_CHECK_RESULT(icLoadMesh(icFmtTest_WriteText(icTest_TempDir(), "early.msh", text), NULL,
                               &mesh, NULL, &diag),
                    IC_ERR_PARSE);
    IC_CHECK_INT(diag.line, 4);
    IC_CHECK(strstr(diag.message, "$NodeData before $Nodes") != NULL);
}

// Views the loaded mesh does not need are not a reason to fail: a file without fields wanted
// (fields NULL) still reads and checks its data sections.
IC_TEST(formats, gmsh_data_sections_without_fields_out) {
    icTetMesh mesh;
    icMeshFileInfo info;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadMeshEx(withData("nofields.msh", s_mesh22, s_data), NULL, &mesh, NULL,
                                 &info, NULL, &diag),
                    IC_OK);
    IC_CHECK_INT(info.skippedFields, 2);
    icTetMesh_Destroy(&mesh);
}

// Views are found by name, so their number is bounded: 1024 distinct names load, one more is
// refused.
IC_TEST(formats, gmsh_data_view_count_bounded) {
    for (int total = 1024; total <= 1025; ++total) {
        size_t size = 64 * (size_t)total + 1;
        char *data = malloc(size), *p = data;
        IC_REQUIRE(data);
        for (int v = 0; v < total; ++v)
            p += snprintf(p, size - (size_t)(p - data),
                          "$NodeData\n1\n\"v%d\"\n0\n3\n0\n1\n0\n$EndNodeData\n", v);
        icTetMesh mesh;
        icMeshFileInfo info;
        icDiagnostic diag = {0};
        icResult result = icLoadMeshEx(withData("views.msh", s_mesh22, data), NULL, &mesh, NULL,
                                       &info, NULL, &diag);
        free(data);
        IC_CHECK_RESULT(result, total == 1024 ? IC_OK : IC_ERR_UNSUPPORTED);
        if (result == IC_OK) {
            IC_CHECK_INT(info.skippedFields, 1024); // no view gives a value
            icTetMesh_Destroy(&mesh);
        } else {
            IC_CHECK(strstr(diag.message, "more than 1024 data views") != NULL);
        }
    }
}
