// SPDX-License-Identifier: MIT
// Binary encodings built byte by byte here (independently of the writers): Gmsh 2.2 and 4.1
// binary, VTK 5.1 BINARY, every VTU encoding (base64, appended raw and base64, zlib blocks,
// UInt32/UInt64 headers, big-endian), binary PLY of both byte orders, binary STL.
#include "formats_testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// Loads path and checks it is the golden unit cube (positions, tets in mesh.h handedness,
// regions when asked).
static void expectCube(const char *path, bool regions, icMeshFields *fieldsOut) {
    icTetMesh mesh;
    icMeshFields fields;
    icOrientReport report;
    icDiagnostic diag = {0};
    icResult result = icLoadMeshEx(path, NULL, &mesh, &fields, NULL, &report, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s: %s [%s] line %d", path, diag.message, icResult_Name(result),
                 diag.line);
    if (result != IC_OK) return;
    IC_CHECK(!report.flippedAll);
    IC_CHECK_INT(mesh.vertexCount, 8);
    IC_CHECK_INT(mesh.tetCount, 5);
    for (int v = 0; v < 8 && mesh.vertexCount == 8; ++v)
        for (int k = 0; k < 3; ++k)
            IC_CHECK(mesh.positions[3 * v + k] == icFmtTest_cubePositions[v][k]);
    for (int t = 0; t < 5 && mesh.tetCount == 5; ++t) {
        const int *f = icFmtTest_cubeTets[t];
        IC_CHECK(mesh.tets[4 * t] == f[0] && mesh.tets[4 * t + 1] == f[2] &&
                 mesh.tets[4 * t + 2] == f[1] && mesh.tets[4 * t + 3] == f[3]);
    }
    IC_CHECK((mesh.regions != NULL) == regions);
    for (int t = 0; mesh.regions && t < 5; ++t)
        IC_CHECK_INT(mesh.regions[t], icFmtTest_cubeRegions[t]);
    icTetMesh_Destroy(&mesh);
    if (fieldsOut)
        *fieldsOut = fields;
    else
        icMeshFields_Destroy(&fields);
}

IC_TEST(formats, gmsh22_binary_built_by_hand) {
    icBytes b = {0};
    icBytes_Text(&b, "$MeshFormat\n2.2 1 8\n");
    icBytes_I32(&b, 1, false);
    icBytes_Text(&b, "\n$EndMeshFormat\n$Nodes\n8\n");
    for (int v = 0; v < 8; ++v) {
        icBytes_I32(&b, 10 * (v + 1), false); // sparse tags 10..80
        for (int k = 0; k < 3; ++k) icBytes_F64(&b, icFmtTest_cubePositions[v][k], false);
    }
    icBytes_Text(&b, "\n$EndNodes\n$Elements\n7\n");
    // a block of two triangles, then the tets in two blocks (regions via the first tag)
    icBytes_I32(&b, 2, false), icBytes_I32(&b, 2, false), icBytes_I32(&b, 2, false);
    for (int e = 0; e < 2; ++e) {
        icBytes_I32(&b, e + 1, false), icBytes_I32(&b, 9, false), icBytes_I32(&b, 1, false);
        for (int k = 0; k < 3; ++k) icBytes_I32(&b, 10 * (k + 1), false);
    }
    for (int block = 0; block < 2; ++block) {
        int first = block == 0 ? 0 : 1, count = block == 0 ? 1 : 4;
        icBytes_I32(&b, 4, false), icBytes_I32(&b, count, false), icBytes_I32(&b, 2, false);
        for (int t = first; t < first + count; ++t) {
            icBytes_I32(&b, 10 + t, false);
            icBytes_I32(&b, icFmtTest_cubeRegions[t], false);
            icBytes_I32(&b, 1, false);
            for (int k = 0; k < 4; ++k) icBytes_I32(&b, 10 * (icFmtTest_cubeTets[t][k] + 1), false);
        }
    }
    icBytes_Text(&b, "\n$EndElements\n");
    const char *dir = icTest_TempDir();
    expectCube(icFmtTest_WriteFile(dir, "b22.msh", b.data, b.size), true, NULL);
    // Cut inside the element data: truncation, reported without a line (binary).
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadMesh(icFmtTest_WriteFile(dir, "cut.msh", b.data, b.size - 40), NULL,
                               &mesh, NULL, &diag),
                    IC_ERR_TRUNCATED);
    IC_CHECK_INT(diag.line, 0);
    icBytes_Free(&b);
}

static void putSize(icBytes *b, uint64_t v) { icBytes_U64(b, v, false); }

IC_TEST(formats, gmsh41_binary_built_by_hand) {
    icBytes b = {0};
    icBytes_Text(&b, "$MeshFormat\n4.1 1 8\n");
    icBytes_I32(&b, 1, false);
    icBytes_Text(&b, "\n$EndMeshFormat\n$Entities\n");
    putSize(&b, 0), putSize(&b, 0), putSize(&b, 0), putSize(&b, 2);
    for (int e = 1; e <= 2; ++e) {
        icBytes_I32(&b, e, false);
        for (int k = 0; k < 6; ++k) icBytes_F64(&b, k < 3 ? 0 : 1, false);
        putSize(&b, 1);
        icBytes_I32(&b, e, false); // physical group e
        putSize(&b, 0);
    }
    icBytes_Text(&b, "\n$EndEntities\n$Nodes\n");
    putSize(&b, 1), putSize(&b, 8), putSize(&b, 1), putSize(&b, 800);
    icBytes_I32(&b, 3, false), icBytes_I32(&b, 1, false), icBytes_I32(&b, 0, false);
    putSize(&b, 8);
    for (int v = 0; v < 8; ++v) putSize(&b, 100 * (uint64_t)(v + 1));
    for (int v = 0; v < 8; ++v)
        for (int k = 0; k < 3; ++k) icBytes_F64(&b, icFmtTest_cubePositions[v][k], false);
    icBytes_Text(&b, "\n$EndNodes\n$Elements\n");
    putSize(&b, 2), putSize(&b, 5), putSize(&b, 1), putSize(&b, 5);
    for (int block = 0; block < 2; ++block) {
        int first = block == 0 ? 0 : 1, count = block == 0 ? 1 : 4;
        icBytes_I32(&b, 3, false), icBytes_I32(&b, block == 0 ? 2 : 1, false),
            icBytes_I32(&b, 4, false);
        putSize(&b, (uint64_t)count);
        for (int t = first; t < first + count; ++t) {
            putSize(&b, (uint64_t)t + 1);
            for (int k = 0; k < 4; ++k) putSize(&b, 100 * (uint64_t)(icFmtTest_cubeTets[t][k] + 1));
        }
    }
    icBytes_Text(&b, "\n$EndElements\n");
    expectCube(icFmtTest_WriteFile(icTest_TempDir(), "b41.msh", b.data, b.size), true, NULL);
    icBytes_Free(&b);
}

IC_TEST(formats, vtk51_binary_built_by_hand) {
    icBytes b = {0};
    icBytes_Text(&b, "# vtk DataFile Version 5.1\nbinary cube\nBINARY\nDATASET UNSTRUCTURED_GRID\n"
                     "POINTS 8 float\n");
    for (int v = 0; v < 8; ++v)
        for (int k = 0; k < 3; ++k) icBytes_F32(&b, (float)icFmtTest_cubePositions[v][k], true);
    icBytes_Text(&b, "\nMETADATA\nINFORMATION 0\n\nCELLS 6 20\nOFFSETS vtktypeint64\n");
    for (int c = 0; c <= 5; ++c) icBytes_U64(&b, 4 * (uint64_t)c, true);
    icBytes_Text(&b, "\nCONNECTIVITY vtktypeint64\n");
    for (int t = 0; t < 5; ++t)
        for (int k = 0; k < 4; ++k) icBytes_U64(&b, (uint64_t)icFmtTest_cubeTets[t][k], true);
    icBytes_Text(&b, "\nCELL_TYPES 5\n");
    for (int t = 0; t < 5; ++t) icBytes_I32(&b, 10, true);
    icBytes_Text(&b, "\nCELL_DATA 5\nSCALARS region int 1\nLOOKUP_TABLE default\n");
    for (int t = 0; t < 5; ++t) icBytes_I32(&b, icFmtTest_cubeRegions[t], true);
    icBytes_Text(&b, "\n");
    const char *dir = icTest_TempDir();
    expectCube(icFmtTest_WriteFile(dir, "b51.vtk", b.data, b.size), true, NULL);
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(
        icLoadMesh(icFmtTest_WriteFile(dir, "cut.vtk", b.data, 150), NULL, &mesh, NULL, &diag),
        IC_ERR_TRUNCATED);
    icBytes_Free(&b);
}

// ---------------------------------------------------------------------------------------
// VTU encodings

typedef enum { ENC_ASCII, ENC_BINARY, ENC_RAW, ENC_APPENDED64 } icEnc;

typedef struct icVtuSpec {
    icEnc encoding;
    bool header64, compressed, bigEndian;
    size_t blockSize; ///< compression block size
} icVtuSpec;

// One array's raw bytes in the file's byte order.
typedef struct icArrayBytes {
    const char *name, *type;
    int components;
    icBytes bytes;
    char ascii[512];
} icArrayBytes;

static void header(icBytes *b, const icVtuSpec *s, uint64_t v) {
    if (s->header64)
        icBytes_U64(b, v, s->bigEndian);
    else
        icBytes_U32(b, (uint32_t)v, s->bigEndian);
}

// The block (header + data) an encoded array holds: uncompressed [size][data], compressed
// [blocks][block size][last size][sizes...][blocks...]. Header and data are separate parts so
// base64 can encode them separately, as VTK does.
static void encodeBlock(const icVtuSpec *s, const icBytes *raw, icBytes *head, icBytes *data) {
    if (!s->compressed) {
        header(head, s, raw->size);
        icBytes_Put(data, raw->data, raw->size);
        return;
    }
    size_t blocks = (raw->size + s->blockSize - 1) / s->blockSize;
    size_t last = raw->size - (blocks - 1) * s->blockSize;
    header(head, s, blocks);
    header(head, s, s->blockSize);
    header(head, s, last);
    for (size_t i = 0; i < blocks; ++i) {
        size_t n = i + 1 == blocks ? last : s->blockSize;
        uLongf packedSize = compressBound(n);
        unsigned char *packed = malloc(packedSize);
        compress2(packed, &packedSize, raw->data + i * s->blockSize, n, 6);
        header(head, s, packedSize);
        icBytes_Put(data, packed, packedSize);
        free(packed);
    }
}

static void buildVtu(icBytes *out, const icVtuSpec *s) {
    icArrayBytes arrays[6] = {
        {"Points", "Float64", 3, {0}, ""}, {"connectivity", "Int64", 1, {0}, ""},
        {"offsets", "Int32", 1, {0}, ""},  {"types", "UInt8", 1, {0}, ""},
        {"region", "Int32", 1, {0}, ""},   {"disp", "Float32", 3, {0}, ""}};
    for (int v = 0; v < 8; ++v)
        for (int k = 0; k < 3; ++k) {
            icBytes_F64(&arrays[0].bytes, icFmtTest_cubePositions[v][k], s->bigEndian);
            icBytes_F32(&arrays[5].bytes, (float)(0.25 * icFmtTest_cubePositions[v][k]),
                        s->bigEndian);
        }
    for (int t = 0; t < 5; ++t) {
        for (int k = 0; k < 4; ++k)
            icBytes_U64(&arrays[1].bytes, (uint64_t)icFmtTest_cubeTets[t][k], s->bigEndian);
        icBytes_I32(&arrays[2].bytes, 4 * (t + 1), s->bigEndian);
        unsigned char ten = 10;
        icBytes_Put(&arrays[3].bytes, &ten, 1);
        icBytes_I32(&arrays[4].bytes, icFmtTest_cubeRegions[t], s->bigEndian);
    }
    icBytes appended = {0};
    char text[2048];
    IC_FORMAT(text,
              "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
              "byte_order=\"%s\" "
              "header_type=\"%s\"%s>\n<UnstructuredGrid>\n<Piece NumberOfPoints=\"8\" "
              "NumberOfCells=\"5\">\n",
              s->bigEndian ? "BigEndian" : "LittleEndian", s->header64 ? "UInt64" : "UInt32",
              s->compressed ? " compressor=\"vtkZLibDataCompressor\"" : "");
    icBytes_Text(out, text);
    const char *sections[6] = {"Points", "Cells", "Cells", "Cells", "CellData", "PointData"};
    for (int a = 0; a < 6; ++a) {
        if (a == 0 || a == 1 || a == 4 || a == 5) {
            IC_FORMAT(text, "<%s>\n", sections[a]);
            icBytes_Text(out, text);
        }
        icArrayBytes *arr = &arrays[a];
        const char *format = s->encoding == ENC_ASCII    ? "ascii"
                             : s->encoding == ENC_BINARY ? "binary"
                                                         : "appended";
        IC_FORMAT(text,
                  "<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"%s\"",
                  arr->type, arr->name, arr->components, format);
        icBytes_Text(out, text);
        icBytes head = {0}, data = {0};
        if (s->encoding != ENC_ASCII) encodeBlock(s, &arr->bytes, &head, &data);
        if (s->encoding == ENC_RAW || s->encoding == ENC_APPENDED64) {
            IC_FORMAT(text, " offset=\"%zu\"/>\n", appended.size);
            icBytes_Text(out, text);
            if (s->encoding == ENC_RAW) {
                icBytes_Put(&appended, head.data, head.size);
                icBytes_Put(&appended, data.data, data.size);
            } else {
                icBytes_Base64(&appended, head.data, head.size);
                icBytes_Base64(&appended, data.data, data.size);
            }
        } else {
            icBytes_Text(out, ">\n");
            if (s->encoding == ENC_BINARY) {
                // Uncompressed: one base64 stream; compressed: header and data apart.
                if (s->compressed) {
                    icBytes_Base64(out, head.data, head.size);
                    icBytes_Base64(out, data.data, data.size);
                } else {
                    icBytes joined = {0};
                    icBytes_Put(&joined, head.data, head.size);
                    icBytes_Put(&joined, data.data, data.size);
                    icBytes_Base64(out, joined.data, joined.size);
                    icBytes_Free(&joined);
                }
            } else {
                int count = (int)(arr->bytes.size / (size_t)(a == 1   ? 8
                                                             : a == 3 ? 1
                                                             : a == 0 ? 8
                                                                      : 4));
                for (int i = 0; i < count; ++i) {
                    double value;
                    if (a == 0)
                        value = icFmtTest_cubePositions[i / 3][i % 3];
                    else if (a == 1)
                        value = icFmtTest_cubeTets[i / 4][i % 4];
                    else if (a == 2)
                        value = 4 * (i + 1);
                    else if (a == 3)
                        value = 10;
                    else if (a == 4)
                        value = icFmtTest_cubeRegions[i];
                    else
                        value = 0.25 * icFmtTest_cubePositions[i / 3][i % 3];
                    IC_FORMAT(text, "%.9g%s", value, i % 6 == 5 ? "\n" : " ");
                    icBytes_Text(out, text);
                }
            }
            icBytes_Text(out, "\n</DataArray>\n");
        }
        icBytes_Free(&head);
        icBytes_Free(&data);
        if (a == 0 || a == 3 || a == 4 || a == 5) {
            IC_FORMAT(text, "</%s>\n", sections[a]);
            icBytes_Text(out, text);
        }
    }
    icBytes_Text(out, "</Piece>\n</UnstructuredGrid>\n");
    if (s->encoding == ENC_RAW || s->encoding == ENC_APPENDED64) {
        icBytes_Text(out, s->encoding == ENC_RAW ? "<AppendedData encoding=\"raw\">\n  _"
                                                 : "<AppendedData encoding=\"base64\">\n  _");
        icBytes_Put(out, appended.data, appended.size);
        icBytes_Text(out, "\n</AppendedData>\n");
    }
    icBytes_Text(out, "</VTKFile>\n");
    icBytes_Free(&appended);
    for (int a = 0; a < 6; ++a) icBytes_Free(&arrays[a].bytes);
}

static void checkVtu(const icVtuSpec *spec, const char *name) {
    icBytes b = {0};
    buildVtu(&b, spec);
    icMeshFields fields = {0, NULL};
    expectCube(icFmtTest_WriteFile(icTest_TempDir(), name, b.data, b.size), true, &fields);
    const icMeshField *disp = icMeshFields_Find(&fields, "disp", false);
    IC_CHECK_MSG(disp != NULL, "%s: no point field", name);
    if (disp) IC_CHECK(disp->components == 3 && disp->data[3 * 6 + 1] == 0.25);
    icMeshFields_Destroy(&fields);
    icBytes_Free(&b);
}

IC_TEST(formats, vtu_every_encoding) {
    int64_t bytes = icGetByteCount();
    const icEnc encodings[] = {ENC_ASCII, ENC_BINARY, ENC_RAW, ENC_APPENDED64};
    const char *names[] = {"ascii", "binary", "raw", "b64"};
    for (int e = 0; e < 4; ++e)
        for (int h = 0; h < 2; ++h)
            for (int z = 0; z < 2; ++z)
                for (int big = 0; big < 2; ++big) {
                    if (e == 0 && (h || z || big)) continue; // ascii has no binary options
                    icVtuSpec spec = {encodings[e], h == 1, z == 1, big == 1, 40};
                    char name[64];
                    IC_FORMAT(name, "%s_h%d_z%d_be%d.vtu", names[e], h ? 64 : 32, z, big);
                    checkVtu(&spec, name);
                }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Damaged VTU data: each defect gives its own code.
IC_TEST(formats, vtu_damaged_data) {
    const char *dir = icTest_TempDir();
    icTetMesh mesh;
    icDiagnostic diag = {0};
    // zlib block with a flipped byte
    icVtuSpec raw = {ENC_RAW, false, true, false, 1 << 20};
    icBytes b = {0};
    buildVtu(&b, &raw);
    char *u = strchr(strstr((char *)b.data, "<AppendedData"), '_');
    IC_REQUIRE(u);
    u[1 + 4 * 4 + 3] ^= 0x5A; // inside the first compressed block of Points
    IC_CHECK_RESULT(
        icLoadMesh(icFmtTest_WriteFile(dir, "z.vtu", b.data, b.size), NULL, &mesh, NULL, &diag),
        IC_ERR_PARSE);
    IC_CHECK_MSG(strstr(diag.message, "corrupt") != NULL, "%s", diag.message);
    icBytes_Free(&b);
    // appended data cut short
    icVtuSpec plain = {ENC_RAW, true, false, false, 0};
    buildVtu(&b, &plain);
    char *end = strchr(strstr((char *)b.data, "<AppendedData"), '_');
    size_t keep = (size_t)(end - (char *)b.data) + 100;
    IC_CHECK_RESULT(
        icLoadMesh(icFmtTest_WriteFile(dir, "cut.vtu", b.data, keep), NULL, &mesh, NULL, &diag),
        IC_ERR_TRUNCATED);
    IC_CHECK_MSG(diag.code == IC_ERR_TRUNCATED, "%s", diag.message);
    icBytes_Free(&b);
    // a character outside the base64 alphabet
    icVtuSpec inline64 = {ENC_BINARY, false, false, false, 0};
    buildVtu(&b, &inline64);
    char *at = strstr((char *)b.data, "format=\"binary\">\n");
    IC_REQUIRE(at);
    at[strlen("format=\"binary\">\n") + 5] = '*';
    IC_CHECK_RESULT(
        icLoadMesh(icFmtTest_WriteFile(dir, "b64.vtu", b.data, b.size), NULL, &mesh, NULL, &diag),
        IC_ERR_PARSE);
    IC_CHECK(strstr(diag.message, "base64") != NULL);
    IC_CHECK(diag.line > 0);
    icBytes_Free(&b);
}

// ---------------------------------------------------------------------------------------
// Binary surfaces

static void buildPly(icBytes *b, bool bigEndian) {
    icBytes_Text(b, bigEndian ? "ply\nformat binary_big_endian 1.0\n"
                              : "ply\nformat binary_little_endian 1.0\n");
    icBytes_Text(b, "element vertex 8\nproperty double x\nproperty double y\nproperty double z\n"
                    "property float nx\nelement face 6\nproperty list uchar uint vertex_indices\n"
                    "element edge 1\nproperty int vertex1\nproperty int vertex2\nend_header\n");
    for (int v = 0; v < 8; ++v) {
        for (int k = 0; k < 3; ++k) icBytes_F64(b, icFmtTest_cubePositions[v][k], bigEndian);
        icBytes_F32(b, 0.0f, bigEndian);
    }
    const int quads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                             {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5}};
    for (int f = 0; f < 6; ++f) {
        unsigned char four = 4;
        icBytes_Put(b, &four, 1);
        for (int k = 0; k < 4; ++k) icBytes_U32(b, (uint32_t)quads[f][k], bigEndian);
    }
    icBytes_I32(b, 0, bigEndian), icBytes_I32(b, 1, bigEndian);
}

IC_TEST(formats, ply_binary_both_byte_orders) {
    for (int big = 0; big < 2; ++big) {
        icBytes b = {0};
        buildPly(&b, big == 1);
        const char *path =
            icFmtTest_WriteFile(icTest_TempDir(), big ? "be.ply" : "le.ply", b.data, b.size);
        icTriSurface s;
        icDiagnostic diag = {0};
        IC_CHECK_RESULT(icLoadSurface(path, &s, &diag), IC_OK);
        if (s.triangleCount) {
            IC_CHECK_INT(s.vertexCount, 8);
            IC_CHECK_INT(s.triangleCount, 12);
            IC_CHECK_NEAR(icFmtTest_SurfaceVolume(&s), 1.0, 1e-15);
            icTriSurface_Destroy(&s);
        }
        // cut inside the faces
        IC_CHECK_RESULT(
            icLoadSurface(icFmtTest_WriteFile(icTest_TempDir(), "cut.ply", b.data, b.size - 20), &s,
                          &diag),
            IC_ERR_TRUNCATED);
        icBytes_Free(&b);
    }
}

// A binary STL whose 80-byte header starts with "solid" is still binary (its size says so).
IC_TEST(formats, stl_binary_with_solid_header) {
    icBytes b = {0};
    char head[80] = "solid but binary";
    icBytes_Put(&b, head, 80);
    const int tris[12][3] = {{0, 3, 2}, {0, 2, 1}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                             {3, 7, 6}, {3, 6, 2}, {0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5}};
    icBytes_U32(&b, 12, false);
    for (int t = 0; t < 12; ++t) {
        for (int k = 0; k < 3; ++k) icBytes_F32(&b, 0, false);
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k)
                icBytes_F32(&b, (float)icFmtTest_cubePositions[tris[t][c]][k], false);
        unsigned char attr[2] = {0, 0};
        icBytes_Put(&b, attr, 2);
    }
    icTriSurface s;
    icDiagnostic diag = {0};
    const char *dir = icTest_TempDir();
    IC_CHECK_RESULT(icLoadSurface(icFmtTest_WriteFile(dir, "b.stl", b.data, b.size), &s, &diag),
                    IC_OK);
    IC_CHECK_INT(s.vertexCount, 8);
    IC_CHECK_INT(s.triangleCount, 12);
    IC_CHECK_NEAR(icFmtTest_SurfaceVolume(&s), 1.0, 1e-15);
    icTriSurface_Destroy(&s);
    // 30 bytes short: the count no longer matches the size; read as ASCII it is no STL.
    IC_CHECK(icLoadSurface(icFmtTest_WriteFile(dir, "cut.stl", b.data, b.size - 30), &s, &diag) !=
             IC_OK);
    // a header not starting with "solid", cut: truncated
    memcpy(b.data, "binary!", 7);
    IC_CHECK_RESULT(
        icLoadSurface(icFmtTest_WriteFile(dir, "cut2.stl", b.data, b.size - 30), &s, &diag),
        IC_ERR_TRUNCATED);
    icBytes_Free(&b);
}
