// SPDX-License-Identifier: MIT
// Element and cell type numbers: a number no version of Gmsh or VTK assigns marks a corrupt
// file (IC_ERR_PARSE at its line, or its byte in binary data); every defined type that is
// not a tetrahedron is skipped and counted, in ASCII and in binary files.
#include "formats_testing.h"

#include <stdio.h>
#include <string.h>

// Loads path, expecting failure with code at line, the message naming the type number.
static void expectRefused(const char *path, icResult code, int line, int type) {
    icTetMesh mesh;
    icMeshFields fields;
    icDiagnostic diag = {0};
    icResult result = icLoadMeshEx(path, NULL, &mesh, &fields, NULL, NULL, &diag);
    IC_CHECK_MSG(result == code, "%s: %s, expected %s (%s)", path, icResult_Name(result),
                 icResult_Name(code), diag.message);
    IC_CHECK_MSG(diag.line == line, "%s: line %d, expected %d (%s)", path, diag.line, line,
                 diag.message);
    char number[32];
    IC_FORMAT(number, "type %d,", type);
    IC_CHECK_MSG(strstr(diag.message, number) != NULL, "%s: message '%s' lacks '%s'", path,
                 diag.message, number);
    IC_CHECK(strstr(diag.file, ".") != NULL && mesh.tets == NULL && fields.count == 0);
    if (result == IC_OK) icTetMesh_Destroy(&mesh);
}

// Loads path, expecting the one tet and skipped other elements.
static void expectLoaded(const char *path, int skipped) {
    icTetMesh mesh;
    icMeshFileInfo info;
    icDiagnostic diag = {0};
    icResult result = icLoadMeshEx(path, NULL, &mesh, NULL, &info, NULL, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s: %s (%s line %d)", path, icResult_Name(result), diag.message,
                 diag.line);
    if (result != IC_OK) return;
    IC_CHECK_INT(mesh.tetCount, 1);
    IC_CHECK_INT(info.skippedElements, skipped);
    icTetMesh_Destroy(&mesh);
}

// ---------------------------------------------------------------------------------------
// Gmsh

// A 2.2 ASCII file: one tet (line 13), then the given element lines from line 14.
static const char *gmsh22(const char *name, int count, const char *more) {
    char text[2048];
    IC_FORMAT(text,
              "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n"
              "4 0 0 1\n$EndNodes\n$Elements\n%d\n1 4 2 1 1 1 2 3 4\n%s$EndElements\n",
              count + 1, more);
    return icFmtTest_WriteText(icTest_TempDir(), name, text);
}

// Gmsh numbers element types 1-140 with a gap at 76-78 (GmshDefines.h; 67-70 were assigned
// by older releases): 99 is MSH_HEX_32, a defined type.
IC_TEST(formats, gmsh22_undefined_element_type_refused) {
    int64_t bytes = icGetByteCount();
    const int undefined[] = {0, 76, 77, 78, 141, 1000, -4};
    for (int i = 0; i < (int)(sizeof undefined / sizeof undefined[0]); ++i) {
        char line[64];
        IC_FORMAT(line, "2 %d 2 0 1 1 2 3\n", undefined[i]);
        expectRefused(gmsh22("undefined22.msh", 1, line), IC_ERR_PARSE, 14, undefined[i]);
    }
    // A bad type after good elements is still found at its own line.
    expectRefused(gmsh22("late22.msh", 3, "2 15 2 0 1 1\n3 2 2 0 1 1 2 3\n4 77 2 0 1 1 2\n"),
                  IC_ERR_PARSE, 16, 77);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(formats, gmsh22_defined_element_types_skipped_and_counted) {
    // point, triangle, 32-node hexahedron (99), trihedron (140), older line border (67),
    // polygon (34), 20-node tet (29)
    expectLoaded(gmsh22("defined22.msh", 7,
                        "2 15 2 0 1 1\n3 2 2 0 1 1 2 3\n4 99 2 0 1 1 2 3 4\n"
                        "5 140 2 0 1 1 2 3 4\n6 67 2 0 1 1 2\n7 34 2 0 1 1 2 3 4\n"
                        "8 29 2 0 1 1 2 3 4\n"),
                 7);
}

// A binary 2.2 file: one tet block, then a block of count elements of the given type (nodes
// node tags each, all node 1).
static const char *gmsh22Binary(const char *name, int type, int nodes, int count, size_t *typeAt) {
    icBytes b = {0};
    icBytes_Text(&b, "$MeshFormat\n2.2 1 8\n");
    icBytes_I32(&b, 1, false);
    icBytes_Text(&b, "\n$EndMeshFormat\n$Nodes\n4\n");
    for (int v = 0; v < 4; ++v) {
        icBytes_I32(&b, v + 1, false);
        for (int k = 0; k < 3; ++k) icBytes_F64(&b, v == k + 1 ? 1.0 : 0.0, false);
    }
    char header[64];
    IC_FORMAT(header, "\n$EndNodes\n$Elements\n%d\n", 1 + count);
    icBytes_Text(&b, header);
    icBytes_I32(&b, 4, false), icBytes_I32(&b, 1, false), icBytes_I32(&b, 1, false);
    icBytes_I32(&b, 1, false), icBytes_I32(&b, 7, false);
    for (int k = 1; k <= 4; ++k) icBytes_I32(&b, k, false);
    *typeAt = b.size;
    icBytes_I32(&b, type, false), icBytes_I32(&b, count, false), icBytes_I32(&b, 1, false);
    for (int e = 0; e < count; ++e) {
        icBytes_I32(&b, 2 + e, false), icBytes_I32(&b, 7, false);
        for (int k = 0; k < nodes; ++k) icBytes_I32(&b, 1, false);
    }
    icBytes_Text(&b, "\n$EndElements\n");
    const char *path = icFmtTest_WriteFile(icTest_TempDir(), name, b.data, b.size);
    icBytes_Free(&b);
    return path;
}

IC_TEST(formats, gmsh22_binary_element_types) {
    size_t at;
    // Defined types are skipped whole, by their node count: 99 has 32 nodes, 137 has 16.
    expectLoaded(gmsh22Binary("hex32.msh", 99, 32, 2, &at), 2);
    expectLoaded(gmsh22Binary("tet16.msh", 137, 16, 1, &at), 1);
    expectLoaded(gmsh22Binary("pyr385.msh", 124, 385, 1, &at), 1);
    // An undefined number: corrupt, reported at the block's byte.
    const char *path = gmsh22Binary("bad77.msh", 77, 4, 1, &at);
    expectRefused(path, IC_ERR_PARSE, 0, 77);
    icDiagnostic diag = {0};
    icTetMesh mesh;
    IC_CHECK_RESULT(icLoadMesh(path, NULL, &mesh, NULL, &diag), IC_ERR_PARSE);
    char byte[32];
    IC_FORMAT(byte, "(byte %zu)", at);
    IC_CHECK_MSG(strstr(diag.message, byte) != NULL, "'%s' lacks '%s'", diag.message, byte);
    expectRefused(gmsh22Binary("bad141.msh", 141, 4, 1, &at), IC_ERR_PARSE, 0, 141);
    // A polygon has no fixed size, so a binary block of them cannot be stepped over.
    IC_CHECK_RESULT(
        icLoadMesh(gmsh22Binary("polygon.msh", 34, 4, 1, &at), NULL, &mesh, NULL, &diag),
        IC_ERR_UNSUPPORTED);
}

// A 4.1 ASCII file: one tet block, then a block (header on line 20) of one element of type.
static const char *gmsh41(const char *name, int type, const char *element) {
    char text[2048];
    IC_FORMAT(text,
              "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n"
              "0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n$Elements\n2 2 1 2\n3 1 4 1\n1 1 2 3 4\n"
              "2 1 %d 1\n%s\n$EndElements\n",
              type, element);
    return icFmtTest_WriteText(icTest_TempDir(), name, text);
}

IC_TEST(formats, gmsh41_element_types) {
    expectLoaded(gmsh41("tri41.msh", 2, "2 1 2 3"), 1);
    expectLoaded(gmsh41("hex32_41.msh", 99, "2 1 2 3 4"), 1);
    expectRefused(gmsh41("bad41.msh", 77, "2 1 2 3 4"), IC_ERR_PARSE, 20, 77);
    expectRefused(gmsh41("zero41.msh", 0, "2 1"), IC_ERR_PARSE, 20, 0);
}

static void putSize(icBytes *b, uint64_t v) { icBytes_U64(b, v, false); }

// A 4.1 binary file: a tet block and a block of one element of type with nodes node tags.
static const char *gmsh41Binary(const char *name, int type, int nodes, size_t *typeAt) {
    icBytes b = {0};
    icBytes_Text(&b, "$MeshFormat\n4.1 1 8\n");
    icBytes_I32(&b, 1, false);
    icBytes_Text(&b, "\n$EndMeshFormat\n$Nodes\n");
    putSize(&b, 1), putSize(&b, 4), putSize(&b, 1), putSize(&b, 4);
    icBytes_I32(&b, 3, false), icBytes_I32(&b, 1, false), icBytes_I32(&b, 0, false);
    putSize(&b, 4);
    for (int v = 0; v < 4; ++v) putSize(&b, (uint64_t)v + 1);
    for (int v = 0; v < 4; ++v)
        for (int k = 0; k < 3; ++k) icBytes_F64(&b, v == k + 1 ? 1.0 : 0.0, false);
    icBytes_Text(&b, "\n$EndNodes\n$Elements\n");
    putSize(&b, 2), putSize(&b, 2), putSize(&b, 1), putSize(&b, 2);
    icBytes_I32(&b, 3, false), icBytes_I32(&b, 1, false), icBytes_I32(&b, 4, false);
    putSize(&b, 1);
    putSize(&b, 1);
    for (int k = 1; k <= 4; ++k) putSize(&b, (uint64_t)k);
    icBytes_I32(&b, 2, false), icBytes_I32(&b, 1, false);
    *typeAt = b.size;
    icBytes_I32(&b, type, false);
    putSize(&b, 1);
    putSize(&b, 2);
    for (int k = 0; k < nodes; ++k) putSize(&b, 1);
    icBytes_Text(&b, "\n$EndElements\n");
    const char *path = icFmtTest_WriteFile(icTest_TempDir(), name, b.data, b.size);
    icBytes_Free(&b);
    return path;
}

IC_TEST(formats, gmsh41_binary_element_types) {
    size_t at;
    expectLoaded(gmsh41Binary("hex32b.msh", 99, 32, &at), 1);
    expectLoaded(gmsh41Binary("trih.msh", 140, 4, &at), 1);
    const char *path = gmsh41Binary("bad78b.msh", 78, 4, &at);
    expectRefused(path, IC_ERR_PARSE, 0, 78);
    icDiagnostic diag = {0};
    icTetMesh mesh;
    IC_CHECK_RESULT(icLoadMesh(path, NULL, &mesh, NULL, &diag), IC_ERR_PARSE);
    char byte[32];
    IC_FORMAT(byte, "(byte %zu)", at);
    IC_CHECK_MSG(strstr(diag.message, byte) != NULL, "'%s' lacks '%s'", diag.message, byte);
}

// ---------------------------------------------------------------------------------------
// Legacy VTK

// One tet (cell 0) and one more cell of the given size and type (on line 9); its type is on
// line 12.
static const char *vtkAscii(const char *name, int type, const char *cell, int cellSize) {
    char text[2048];
    IC_FORMAT(text,
              "# vtk DataFile Version 4.2\ntypes\nASCII\nDATASET UNSTRUCTURED_GRID\n"
              "POINTS 4 double\n0 0 0 1 0 0 0 1 0 0 0 1\nCELLS 2 %d\n4 0 1 2 3\n%s\n"
              "CELL_TYPES 2\n10\n%d\n",
              5 + cellSize, cell, type);
    return icFmtTest_WriteText(icTest_TempDir(), name, text);
}

// VTK numbers cell types 0-16, 21-37, 41, 42, 51-56 and 60-81 (vtkCellType.h). 42 is
// VTK_POLYHEDRON, a defined type; 99 and the gaps are not.
IC_TEST(formats, vtk_undefined_cell_type_refused) {
    const int undefined[] = {17, 20, 38, 40, 43, 50, 57, 59, 82, 99, 255, -1};
    for (int i = 0; i < (int)(sizeof undefined / sizeof undefined[0]); ++i)
        expectRefused(vtkAscii("undefined.vtk", undefined[i], "2 0 1", 3), IC_ERR_PARSE, 12,
                      undefined[i]);
}

IC_TEST(formats, vtk_defined_cell_types_skipped_and_counted) {
    // A polyhedron's face stream: 4 faces, each 3 points. Its counts (4) are no point indices
    // of this 4-point file, which is no reason to refuse a cell that is skipped anyway.
    const char *cell = "17 4 3 0 1 2 3 0 1 3 3 0 2 3 3 1 2 3";
    expectLoaded(vtkAscii("polyhedron.vtk", 42, cell, 18), 1);
    // Any other cell with a value that is no point index is refused at that value's line.
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadMesh(vtkAscii("badindex.vtk", 5, "3 0 1 4", 4), NULL, &mesh, NULL, &diag),
                    IC_ERR_INDEX_OUT_OF_RANGE);
    IC_CHECK_INT(diag.line, 9);
    expectLoaded(vtkAscii("vertex.vtk", 1, "1 0", 2), 1);
    expectLoaded(vtkAscii("lagrange.vtk", 71, "4 0 1 2 3", 5), 1);
    expectLoaded(vtkAscii("empty.vtk", 0, "0", 1), 1);
    expectLoaded(vtkAscii("bezier.vtk", 81, "5 0 1 2 3 0", 6), 1);
}

IC_TEST(formats, vtk_binary_undefined_cell_type_refused) {
    for (int pass = 0; pass < 2; ++pass) {
        int type = pass == 0 ? 99 : 13; // 13 = VTK_WEDGE, defined
        icBytes b = {0};
        icBytes_Text(&b, "# vtk DataFile Version 4.2\nbinary\nBINARY\nDATASET UNSTRUCTURED_GRID\n"
                         "POINTS 4 float\n");
        for (int v = 0; v < 4; ++v)
            for (int k = 0; k < 3; ++k) icBytes_F32(&b, v == k + 1 ? 1.0f : 0.0f, true);
        icBytes_Text(&b, "\nCELLS 2 12\n");
        const int cells[12] = {4, 0, 1, 2, 3, 6, 0, 1, 2, 3, 2, 1};
        for (int i = 0; i < 12; ++i) icBytes_I32(&b, cells[i], true);
        icBytes_Text(&b, "\nCELL_TYPES 2\n");
        icBytes_I32(&b, 10, true);
        size_t at = b.size;
        icBytes_I32(&b, type, true);
        icBytes_Text(&b, "\n");
        const char *path = icFmtTest_WriteFile(icTest_TempDir(), "binary.vtk", b.data, b.size);
        icBytes_Free(&b);
        if (pass == 1) {
            expectLoaded(path, 1);
            continue;
        }
        expectRefused(path, IC_ERR_PARSE, 0, 99);
        icDiagnostic diag = {0};
        icTetMesh mesh;
        IC_CHECK_RESULT(icLoadMesh(path, NULL, &mesh, NULL, &diag), IC_ERR_PARSE);
        char byte[32];
        IC_FORMAT(byte, "(byte %zu)", at);
        IC_CHECK_MSG(strstr(diag.message, byte) != NULL, "'%s' lacks '%s'", diag.message, byte);
    }
}
