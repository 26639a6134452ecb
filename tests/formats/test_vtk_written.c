// SPDX-License-Identifier: MIT
// VTU files written by VTK itself (tests/data/formats/vtk_written, made by make_golden.py with
// vtkXMLUnstructuredGridWriter): every data mode and header type loads with the grid's known
// points, tets and fields, <InformationKey> children included. Hand-made VTU text then checks
// what the reader refuses: cell types VTK never defined, values split around a child.
#include "formats_testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// make_golden.py's grid: six points, cells tet (0 1 2 3), triangle, tet (1 4 2 3), vertex (5).
static const double s_positions[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                         {0, 0, 1}, {1, 1, 1}, {2, 2, 2}};

static void checkWritten(const char *file, const char *formatName) {
    char relative[256];
    IC_FORMAT(relative, "tests/data/formats/vtk_written/%s", file);
    icTetMesh mesh;
    icMeshFields fields;
    icMeshFileInfo info;
    icDiagnostic diag = {0};
    icResult result =
        icLoadMeshEx(icTest_SourcePath(relative), NULL, &mesh, &fields, &info, NULL, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s: %s (%s line %d)", file, diag.message, icResult_Name(result),
                 diag.line);
    if (result != IC_OK) return;
    IC_CHECK_MSG(strcmp(info.formatName, formatName) == 0, "%s: format '%s'", file,
                 info.formatName);
    // The triangle and the vertex are skipped; point 5, used by the vertex only, is dropped.
    IC_CHECK_INT(info.skippedElements, 2);
    IC_CHECK_INT(info.droppedVertices, 1);
    IC_CHECK_INT(mesh.vertexCount, 5);
    IC_CHECK_INT(mesh.tetCount, 2);
    for (int v = 0; v < 5 && v < mesh.vertexCount; ++v)
        for (int k = 0; k < 3; ++k)
            IC_CHECK_MSG(mesh.positions[3 * v + k] == s_positions[v][k], "%s: vertex %d", file, v);
    // mesh.h handedness: the file's local vertices 1 and 2 swapped.
    const int tets[2][4] = {{0, 2, 1, 3}, {1, 2, 4, 3}};
    for (int t = 0; t < 2 && t < mesh.tetCount; ++t)
        for (int k = 0; k < 4; ++k) IC_CHECK_INT(mesh.tets[4 * t + k], tets[t][k]);
    IC_CHECK_NEAR(icTetMesh_Volume(&mesh, NULL), 0.5, 1e-15);

    IC_CHECK_INT(fields.count, 4);
    const icMeshField *displacement = icMeshFields_Find(&fields, "displacement", false);
    const icMeshField *pressure = icMeshFields_Find(&fields, "pressure", false);
    const icMeshField *jacobian = icMeshFields_Find(&fields, "J", true);
    const icMeshField *fiber = icMeshFields_Find(&fields, "fiber", true);
    IC_CHECK_MSG(displacement && pressure && jacobian && fiber, "%s: a field is missing", file);
    if (displacement && pressure) {
        IC_CHECK(displacement->components == 3 && pressure->components == 1);
        for (int i = 0; i < 5; ++i) {
            IC_CHECK(displacement->data[3 * i] == i);
            IC_CHECK(displacement->data[3 * i + 1] == i / 2.0);
            IC_CHECK(displacement->data[3 * i + 2] == -i / 4.0);
            IC_CHECK(pressure->data[i] == 100 + i / 8.0);
        }
    }
    if (jacobian && fiber) {
        // Cell data of the kept cells 0 and 2.
        IC_CHECK(jacobian->components == 1 && fiber->components == 3);
        for (int t = 0; t < 2; ++t) {
            int c = 2 * t;
            IC_CHECK(jacobian->data[t] == 1 + c / 16.0);
            IC_CHECK(fiber->data[3 * t] == c);
            IC_CHECK(fiber->data[3 * t + 1] == 1 - c / 2.0);
            IC_CHECK(fiber->data[3 * t + 2] == c / 4.0);
        }
    }
    icMeshFields_Destroy(&fields);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(formats, vtk_written_every_mode) {
    int64_t bytes = icGetByteCount();
    char file[128], format[64];
    for (int bits = 32; bits <= 64; bits += 32) {
        IC_FORMAT(file, "ascii_h%d.vtu", bits);
        checkWritten(file, "vtu ascii");
        IC_FORMAT(file, "binary_h%d.vtu", bits);
        checkWritten(file, "vtu binary");
        IC_FORMAT(file, "binary_zlib_h%d.vtu", bits);
        checkWritten(file, "vtu binary zlib");
        for (int encoding = 0; encoding < 2; ++encoding)
            for (int zlib = 0; zlib < 2; ++zlib)
                for (int keys = 0; keys < 2; ++keys) {
                    const char *name = encoding ? "base64" : "raw";
                    IC_FORMAT(file, "appended_%s%s_h%d_%s.vtu", name, zlib ? "_zlib" : "", bits,
                              keys ? "keys" : "plain");
                    IC_FORMAT(format, "vtu appended %s%s", name, zlib ? " zlib" : "");
                    checkWritten(file, format);
                }
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// The golden files hold what their names promise: VTK wrote <InformationKey> children into
// the ascii and inline arrays and into the "_keys" appended ones only.
IC_TEST(formats, vtk_written_files_hold_information_keys) {
    const char *with[] = {"ascii_h32.vtu", "binary_h64.vtu", "binary_zlib_h32.vtu",
                          "appended_raw_h32_keys.vtu", "appended_base64_zlib_h64_keys.vtu"};
    const char *without[] = {"appended_raw_h64_plain.vtu", "appended_base64_h32_plain.vtu"};
    for (int i = 0; i < 7; ++i) {
        const char *file = i < 5 ? with[i] : without[i - 5];
        char relative[256];
        IC_FORMAT(relative, "tests/data/formats/vtk_written/%s", file);
        size_t size;
        char *text = icFmtTest_ReadFile(icTest_SourcePath(relative), &size);
        IC_REQUIRE(text);
        // Raw appended bytes may hold NULs: search the XML before them only.
        char *appended = strstr(text, "<AppendedData");
        if (appended) *appended = 0;
        IC_CHECK_MSG((strstr(text, "<InformationKey") != NULL) == (i < 5), "%s", file);
        free(text);
    }
}

// ---------------------------------------------------------------------------------------
// Hand-made VTU text

// Four points; a tet, then the cells given (line numbers on the right).
static const char *s_head =
    "<?xml version=\"1.0\"?>\n"                                                         // 1
    "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\">\n" // 2
    "<UnstructuredGrid>\n"                                                              // 3
    "<Piece NumberOfPoints=\"4\" NumberOfCells=\"%d\">\n"                               // 4
    "<Points>\n"                                                                        // 5
    "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n"          // 6
    "0 0 0  1 0 0  0 1 0  0 0 1\n"                                                      // 7
    "</DataArray>\n"                                                                    // 8
    "</Points>\n"                                                                       // 9
    "<Cells>\n"                                                                         // 10
    "<DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n"               // 11
    "%s\n"                                                                              // 12
    "</DataArray>\n"                                                                    // 13
    "<DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n"                    // 14
    "%s\n"                                                                              // 15
    "</DataArray>\n"                                                                    // 16
    "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n"                      // 17
    "10\n"                                                                              // 18
    "%s\n"                                                                              // 19
    "</DataArray>\n"                                                                    // 20
    "</Cells>\n"
    "</Piece>\n"
    "</UnstructuredGrid>\n"
    "</VTKFile>\n";

static icResult loadCells(const char *connectivity, const char *offsets, const char *types,
                          int cells, icMeshFileInfo *info, icDiagnostic *diag) {
    char text[4096];
    IC_FORMAT(text, s_head, cells, connectivity, offsets, types);
    const char *path = icFmtTest_WriteText(icTest_TempDir(), "cells.vtu", text);
    icTetMesh mesh;
    icResult result = icLoadMeshEx(path, NULL, &mesh, NULL, info, NULL, diag);
    if (result == IC_OK) icTetMesh_Destroy(&mesh);
    return result;
}

// A cell type number VTK never assigned (99; also the gaps 20, 38, 43, 57 and 82 past the
// last, VTK_BEZIER_PYRAMID 81) is damage: refused at the line of the number.
IC_TEST(formats, vtu_undefined_cell_type_is_refused) {
    const char *types[] = {"99", "20", "38", "43", "57", "82", "255"};
    for (int i = 0; i < 7; ++i) {
        icMeshFileInfo info;
        icDiagnostic diag = {0};
        IC_CHECK_RESULT(loadCells("0 1 2 3  0 1 2", "4 7", types[i], 2, &info, &diag),
                        IC_ERR_PARSE);
        IC_CHECK_INT(diag.line, 19);
        char expected[96];
        IC_FORMAT(expected, "cell 1 has type %s, which VTK does not define", types[i]);
        IC_CHECK_MSG(strcmp(diag.message, expected) == 0, "%s", diag.message);
        IC_CHECK(strstr(diag.file, "cells.vtu") != NULL);
    }
}

// Defined types that are not tets are skipped and counted, whatever their number: the empty
// cell 0, a polygon 7, a polyhedron 42 (its faces arrays are not read), a Lagrange
// triangle 69 and a Bezier pyramid 81.
IC_TEST(formats, vtu_defined_cell_types_are_skipped) {
    icMeshFileInfo info;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(loadCells("0 1 2 3  0 1 2  0 1 2 3  0 1 2  0 1 2 3 0 1", "4 4 7 11 14 20",
                              "0 7 42 69 81", 6, &info, &diag),
                    IC_OK);
    IC_CHECK_INT(info.skippedElements, 5);
}

static icResult loadText(const char *text, icDiagnostic *diag) {
    const char *path = icFmtTest_WriteText(icTest_TempDir(), "text.vtu", text);
    icTetMesh mesh;
    icResult result = icLoadMesh(path, NULL, &mesh, NULL, diag);
    if (result == IC_OK) icTetMesh_Destroy(&mesh);
    return result;
}

// The tet of s_head with the Points array's text replaced by body.
static icResult loadPoints(const char *body, icDiagnostic *diag) {
    char text[4096];
    IC_FORMAT(text,
              "<VTKFile type=\"UnstructuredGrid\">\n<UnstructuredGrid>\n"
              "<Piece NumberOfPoints=\"4\" NumberOfCells=\"1\">\n<Points>\n"
              "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">%s"
              "</DataArray>\n</Points>\n<Cells>\n"
              "<DataArray type=\"Int32\" Name=\"connectivity\">0 1 2 3</DataArray>\n"
              "<DataArray type=\"Int32\" Name=\"offsets\">4</DataArray>\n"
              "<DataArray type=\"UInt8\" Name=\"types\">10</DataArray>\n"
              "</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n",
              body);
    return loadText(text, diag);
}

// Children and comments inside a DataArray are skipped wherever they sit; values split
// around one are refused.
IC_TEST(formats, vtu_data_array_children) {
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(loadPoints("<InformationKey name=\"a\"><Value index=\"0\">7</Value>"
                               "</InformationKey>\n0 0 0 1 0 0 0 1 0 0 0 1\n<!-- end -->",
                               &diag),
                    IC_OK);
    IC_CHECK_RESULT(loadPoints("\n<!-- x --> 0 0 0 1 0 0 0 1 0 0 0 1 <?pi here?>\n<a/>", &diag),
                    IC_OK);
    IC_CHECK_RESULT(loadPoints("0 0 0 1 0 0<InformationKey/>0 1 0 0 0 1", &diag), IC_ERR_PARSE);
    IC_CHECK_MSG(strcmp(diag.message, "DataArray '' has values on both sides of an element "
                                      "inside it") == 0,
                 "%s", diag.message);
    IC_CHECK_INT(diag.line, 5);
    // Values are taken from the text as written: a character reference is not decoded.
    IC_CHECK_RESULT(loadPoints("0 0 0 1 0 0 0 1 0 0 0 &#49;", &diag), IC_ERR_UNSUPPORTED);
    // A DataArray inside a DataArray: the outer one lacks its end tag.
    IC_CHECK_RESULT(loadPoints("0 0 0 1 0 0 0 1 0 0 0 1\n<DataArray type=\"Int8\">", &diag),
                    IC_ERR_PARSE);
    IC_CHECK(strcmp(diag.message, "DataArray is not closed") == 0);
    IC_CHECK_INT(diag.line, 5);
}

// Text that is not well-formed XML is refused at expat's line.
IC_TEST(formats, vtu_malformed_xml) {
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(
        loadText("<VTKFile type=\"UnstructuredGrid\">\n<UnstructuredGrid a=1>\n", &diag),
        IC_ERR_PARSE);
    IC_CHECK_INT(diag.line, 2);
    IC_CHECK_MSG(strstr(diag.message, "malformed XML: ") == diag.message, "%s", diag.message);
    IC_CHECK_RESULT(loadText("<VTKFile type=\"UnstructuredGrid\">\n<UnstructuredGrid>\n"
                             "</VTKFile>\n",
                             &diag),
                    IC_ERR_PARSE);
    IC_CHECK_INT(diag.line, 3);
    IC_CHECK_MSG(strcmp(diag.message, "malformed XML: mismatched tag") == 0, "%s", diag.message);
}

// Errors in appended data name the AppendedData element's line (raw bytes have no lines).
IC_TEST(formats, vtu_appended_errors_name_its_line) {
    size_t size;
    char *text = icFmtTest_ReadFile(
        icTest_SourcePath("tests/data/formats/vtk_written/appended_raw_h32_plain.vtu"), &size);
    IC_REQUIRE(text);
    // The types array: a UInt32 byte count, then 10 5 10 1; the vertex's 1 becomes 99.
    const char *types = strstr(text, "Name=\"types\"");
    IC_REQUIRE(types);
    const char *offset = strstr(types, "offset=\"");
    IC_REQUIRE(offset);
    char *appended = strstr(text, "<AppendedData");
    IC_REQUIRE(appended);
    int line = 1;
    for (const char *p = text; p < appended; ++p) line += *p == '\n';
    unsigned char *cellTypes =
        (unsigned char *)strchr(appended, '_') + 1 + atoi(offset + strlen("offset=\"")) + 4;
    IC_REQUIRE(cellTypes[0] == 10 && cellTypes[1] == 5 && cellTypes[2] == 10 && cellTypes[3] == 1);
    cellTypes[3] = 99;
    const char *path = icFmtTest_WriteFile(icTest_TempDir(), "types99.vtu", text, size);
    free(text);
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadMesh(path, NULL, &mesh, NULL, &diag), IC_ERR_PARSE);
    IC_CHECK_INT(diag.line, line);
    IC_CHECK_MSG(strcmp(diag.message, "cell 3 has type 99, which VTK does not define") == 0, "%s",
                 diag.message);
}

// Long runs of text (the walk steps over them without expat) keep every line right: the
// values read, an error in a tag after them, malformed XML after them; a long run that is not
// plain text (a NUL byte) still meets expat.
IC_TEST(formats, vtu_long_text_runs_keep_lines) {
    // 2000 points on 1000 lines, the tet on the first four.
    enum { LINES = 1000 };
    size_t capacity = 64 * LINES + 4096;
    char *text = malloc(capacity);
    IC_REQUIRE(text);
    for (int variant = 0; variant < 4; ++variant) {
        size_t n = 0;
        n += (size_t)snprintf(text + n, capacity - n,
                              "<VTKFile type=\"UnstructuredGrid\">\n<UnstructuredGrid>\n"
                              "<Piece NumberOfPoints=\"%d\" NumberOfCells=\"1\">\n<Points>\n"
                              "<DataArray type=\"Float64\" NumberOfComponents=\"3\">\n",
                              2 * LINES);
        for (int i = 0; i < LINES; ++i) {
            // Lines 6 .. 1005: points 2i and 2i + 1.
            double x = i == 1 ? 1 : 0, y = i == 2 ? 1 : 0, z = i == 3 ? 1 : 0;
            n += (size_t)snprintf(text + n, capacity - n, "%g %g %g %d %d %d\n", x, y, z, i, i,
                                  i + 1);
        }
        int nulLine = 1;
        if (variant == 3) {
            text[n - 300] = 0; // a NUL inside the run
            for (size_t k = 0; k < n - 300; ++k) nulLine += text[k] == '\n';
        }
        const char *cellsType = variant == 1 ? "Bit" : "UInt8";
        n += (size_t)snprintf(text + n, capacity - n,
                              "</DataArray>\n</Points>\n<Cells>\n" // lines 1006-1008
                              "<DataArray type=\"Int32\" Name=\"connectivity\">0 2 4 6"    // 1009
                              "</DataArray>\n<DataArray type=\"Int32\" Name=\"offsets\">4" // 1010
                              "</DataArray>\n<DataArray type=\"%s\" Name=\"types\">10"     // 1011
                              "</DataArray>\n</Cells>\n</Piece>\n%s</VTKFile>\n", // 1012-1015
                              cellsType, variant == 2 ? "" : "</UnstructuredGrid>\n");
        const char *path = icFmtTest_WriteFile(icTest_TempDir(), "long.vtu", text, n);
        icTetMesh mesh;
        icDiagnostic diag = {0};
        icResult result = icLoadMesh(path, NULL, &mesh, NULL, &diag);
        if (variant == 0) {
            IC_CHECK_MSG(result == IC_OK, "%s line %d", diag.message, diag.line);
            if (result != IC_OK) continue;
            IC_CHECK_INT(mesh.vertexCount, 4);
            IC_CHECK(mesh.positions[3] == 1 && mesh.positions[7] == 1 && mesh.positions[11] == 1);
            icTetMesh_Destroy(&mesh);
        } else if (variant == 1) {
            IC_CHECK_RESULT(result, IC_ERR_UNSUPPORTED);
            IC_CHECK_INT(diag.line, 1011);
            IC_CHECK(strcmp(diag.message, "DataArray type 'Bit' is not supported") == 0);
        } else if (variant == 2) {
            IC_CHECK_RESULT(result, IC_ERR_PARSE);
            IC_CHECK_INT(diag.line, 1014);
            IC_CHECK_MSG(strcmp(diag.message, "malformed XML: mismatched tag") == 0, "%s",
                         diag.message);
        } else {
            IC_CHECK_RESULT(result, IC_ERR_PARSE);
            IC_CHECK_MSG(strstr(diag.message, "malformed XML: ") == diag.message, "%s",
                         diag.message);
            IC_CHECK_INT(diag.line, nulLine);
        }
    }
    free(text);
}
