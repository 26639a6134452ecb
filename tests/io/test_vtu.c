// SPDX-License-Identifier: MIT
// VTU and PVD writers: the files are read back by a small parser of our own format and
// must give back exactly what was written; the XML must be well formed. Then the PVD reader:
// its own files and ParaView's come back, broken ones give exact codes and lines.
#include "test.h"

#include "isochor/formats.h"
#include "isochor/io.h"

#include "core/core.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Minimal XML well-formedness: tags nest and close in order, attributes are name="value"
// with no raw '<' or '&' inside values except entities, one root element.
static bool wellFormed(const char *xml, size_t length, char *why, size_t whySize) {
    const char *stack[32];
    size_t stackLength[32];
    int depth = 0, roots = 0;
    const char *p = xml, *end = xml + length;
    if (strncmp(p, "<?xml version=\"1.0\"?>", 21) != 0) {
        snprintf(why, whySize, "no XML declaration");
        return false;
    }
    p += 21;
    while (p < end) {
        if (*p != '<') {
            if (*p == '&' || *p == '>') {
                snprintf(why, whySize, "raw '%c' in text", *p);
                return false;
            }
            ++p;
            continue;
        }
        ++p;
        bool closing = *p == '/';
        if (closing) ++p;
        const char *name = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_')) ++p;
        size_t nameLength = (size_t)(p - name);
        if (nameLength == 0) {
            snprintf(why, whySize, "empty tag name");
            return false;
        }
        if (closing) {
            if (depth == 0 || stackLength[depth - 1] != nameLength ||
                strncmp(stack[depth - 1], name, nameLength) != 0) {
                snprintf(why, whySize, "mismatched </%.*s>", (int)nameLength, name);
                return false;
            }
            --depth;
            if (*p != '>') {
                snprintf(why, whySize, "junk in closing tag");
                return false;
            }
            ++p;
            continue;
        }
        // attributes
        for (;;) {
            while (*p == ' ' || *p == '\n') ++p;
            if (*p == '>' || (*p == '/' && p[1] == '>')) break;
            const char *attr = p;
            while (isalnum((unsigned char)*p) || *p == '_') ++p;
            if (p == attr || *p != '=' || p[1] != '"') {
                snprintf(why, whySize, "bad attribute in <%.*s>", (int)nameLength, name);
                return false;
            }
            p += 2;
            while (p < end && *p != '"') {
                if (*p == '<') {
                    snprintf(why, whySize, "'<' in an attribute value");
                    return false;
                }
                if (*p == '&' && strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) &&
                    strncmp(p, "&gt;", 4) && strncmp(p, "&quot;", 6) && strncmp(p, "&apos;", 6)) {
                    snprintf(why, whySize, "bad entity");
                    return false;
                }
                ++p;
            }
            ++p;
        }
        if (depth == 0) ++roots;
        if (*p == '/') {
            p += 2;
        } else {
            if (depth == 32) return false;
            stack[depth] = name;
            stackLength[depth] = nameLength;
            ++depth;
            ++p;
        }
    }
    if (depth != 0 || roots != 1) {
        snprintf(why, whySize, "depth %d, %d roots at the end", depth, roots);
        return false;
    }
    return true;
}

// Value of attribute `name` in the tag that contains position tag; copies into out.
static bool attribute(const char *tag, const char *name, char *out, size_t size) {
    const char *close = strchr(tag, '>');
    char pattern[64];
    IC_FORMAT(pattern, " %s=\"", name);
    const char *at = strstr(tag, pattern);
    if (!at || (close && at > close)) return false;
    at += strlen(pattern);
    const char *q = strchr(at, '"');
    snprintf(out, size, "%.*s", (int)(q - at), at);
    return true;
}

typedef struct VtuArray {
    char type[16], name[64];
    int components;
    uint64_t bytes;
    const unsigned char *data;
} VtuArray;

typedef struct Vtu {
    int points, cells;
    int arrayCount;
    VtuArray arrays[16];
    char order[16][16]; ///< section of each array: PointData, CellData, Points, Cells
} Vtu;

// Parses the header and the appended blocks of a file from icWriteVtu.
static bool parseVtu(const char *text, size_t size, Vtu *vtu, char *why, size_t whySize) {
    memset(vtu, 0, sizeof *vtu);
    const char *piece = strstr(text, "<Piece ");
    char value[64];
    if (!piece || !attribute(piece, "NumberOfPoints", value, sizeof value)) return false;
    vtu->points = atoi(value);
    attribute(piece, "NumberOfCells", value, sizeof value);
    vtu->cells = atoi(value);
    const char *appended = strstr(text, "<AppendedData encoding=\"raw\">");
    if (!appended) {
        snprintf(why, whySize, "no raw AppendedData");
        return false;
    }
    const char *underscore = strchr(appended, '_');
    const unsigned char *base = (const unsigned char *)underscore + 1;
    uint64_t dataEnd = 0;
    const char *section = "";
    for (const char *p = text; p < appended; ++p) {
        if (*p != '<') continue;
        static const char *const sections[] = {"PointData", "CellData", "Points", "Cells"};
        for (int s = 0; s < 4; ++s)
            if (strncmp(p + 1, sections[s], strlen(sections[s])) == 0 &&
                (p[1 + strlen(sections[s])] == '>'))
                section = sections[s];
        if (strncmp(p, "<DataArray ", 11) != 0) continue;
        VtuArray *a = &vtu->arrays[vtu->arrayCount];
        snprintf(vtu->order[vtu->arrayCount], 16, "%s", section);
        ++vtu->arrayCount;
        attribute(p, "type", a->type, sizeof a->type);
        attribute(p, "Name", a->name, sizeof a->name);
        a->components = attribute(p, "NumberOfComponents", value, sizeof value) ? atoi(value) : 1;
        if (!attribute(p, "format", value, sizeof value) || strcmp(value, "appended") != 0) {
            snprintf(why, whySize, "array %s not appended", a->name);
            return false;
        }
        attribute(p, "offset", value, sizeof value);
        uint64_t offset = strtoull(value, NULL, 10);
        memcpy(&a->bytes, base + offset, 8);
        a->data = base + offset + 8;
        if (offset + 8 + a->bytes > dataEnd) dataEnd = offset + 8 + a->bytes;
    }
    // After the data: the closing tags, which must make the XML well formed.
    const char *tail = (const char *)base + dataEnd;
    if ((size_t)(tail - text) > size) {
        snprintf(why, whySize, "blocks run past the end of the file");
        return false;
    }
    size_t headLength = (size_t)(underscore - text);
    size_t tailLength = size - (size_t)(tail - text);
    char *xml = malloc(headLength + tailLength + 1);
    memcpy(xml, text, headLength);
    memcpy(xml + headLength, tail, tailLength);
    xml[headLength + tailLength] = 0;
    bool ok = wellFormed(xml, headLength + tailLength, why, whySize);
    free(xml);
    return ok;
}

static const VtuArray *findArray(const Vtu *vtu, const char *name, const char *section) {
    for (int i = 0; i < vtu->arrayCount; ++i)
        if (strcmp(vtu->arrays[i].name, name) == 0 && strcmp(vtu->order[i], section) == 0)
            return &vtu->arrays[i];
    return NULL;
}

IC_TEST(io, vtu_round_trip) {
    icTetMesh mesh;
    int cells[3] = {3, 2, 2};
    IC_REQUIRE(icGenerateBox(&mesh, icVec3_Make(1, 0.5, 0.25), cells, 5) == IC_OK);
    int nv = mesh.vertexCount, nt = mesh.tetCount;
    // Exact doubles (random bits) for everything.
    for (int i = 0; i < 3 * nv; ++i) mesh.positions[i] += icTest_Uniform(-1e-3, 1e-3);
    icReal *velocity = IC_ALLOC(icReal, 3 * nv);
    icReal *J = IC_ALLOC(icReal, nt);
    icReal *pressure = IC_ALLOC(icReal, nt);
    for (int i = 0; i < 3 * nv; ++i) velocity[i] = icTest_Uniform(-5, 5);
    for (int t = 0; t < nt; ++t) {
        J[t] = icTest_Uniform(0.5, 1.5);
        pressure[t] = icTest_Uniform(-1e5, 1e5);
    }
    icField points[1] = {{"velocity", 3, velocity}};
    icField cellFields[2] = {{"J", 1, J}, {"p<&\"ressure", 1, pressure}};
    char path[1200];
    IC_FORMAT(path, "%s/mesh.vtu", icTest_TempDir());
    icDiagnostic diag = {0};
    IC_REQUIRE(icWriteVtu(path, nv, mesh.positions, nt, mesh.tets, points, 1, cellFields, 2,
                          &diag) == IC_OK);

    size_t size = 0;
    char *text = icTest_ReadFile(path, &size);
    IC_REQUIRE(text != NULL);
    IC_CHECK(strncmp(text, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" "
                           "version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">",
                     110) == 0);
    Vtu vtu;
    char why[128] = "";
    IC_CHECK_MSG(parseVtu(text, size, &vtu, why, sizeof why), "vtu: %s", why);
    IC_CHECK_INT(vtu.points, nv);
    IC_CHECK_INT(vtu.cells, nt);

    const VtuArray *a = findArray(&vtu, "Points", "Points");
    IC_REQUIRE(a && strcmp(a->type, "Float64") == 0 && a->components == 3);
    IC_CHECK(a->bytes == 24ull * nv && memcmp(a->data, mesh.positions, a->bytes) == 0);
    a = findArray(&vtu, "velocity", "PointData");
    IC_REQUIRE(a && strcmp(a->type, "Float64") == 0 && a->components == 3);
    IC_CHECK(a->bytes == 24ull * nv && memcmp(a->data, velocity, a->bytes) == 0);
    a = findArray(&vtu, "J", "CellData");
    IC_REQUIRE(a && a->components == 1);
    IC_CHECK(a->bytes == 8ull * nt && memcmp(a->data, J, a->bytes) == 0);
    a = findArray(&vtu, "p&lt;&amp;&quot;ressure", "CellData"); // escaped in the XML
    IC_REQUIRE(a != NULL);
    IC_CHECK(a->bytes == 8ull * nt && memcmp(a->data, pressure, a->bytes) == 0);

    a = findArray(&vtu, "connectivity", "Cells");
    IC_REQUIRE(a && strcmp(a->type, "Int64") == 0 && a->bytes == 32ull * nt);
    // VTK's positive tet is the mirror of mesh.h's: local vertices 1 and 2 swap, and every
    // cell of this positively oriented mesh has det[x1-x0, x2-x0, x3-x0] > 0 in the file.
    static const int perm[4] = {0, 2, 1, 3};
    bool same = true, positive = true;
    for (int t = 0; t < nt; ++t) {
        int64_t c[4];
        memcpy(c, a->data + 32 * t, 32);
        for (int k = 0; k < 4; ++k) same = same && c[k] == mesh.tets[4 * t + perm[k]];
        icVec3 p0 = icVec3_Load(mesh.positions, (int)c[0]);
        icMat3 E = icMat3_FromCols(icVec3_Sub(icVec3_Load(mesh.positions, (int)c[1]), p0),
                                   icVec3_Sub(icVec3_Load(mesh.positions, (int)c[2]), p0),
                                   icVec3_Sub(icVec3_Load(mesh.positions, (int)c[3]), p0));
        positive = positive && icMat3_Det(E) > 0;
    }
    IC_CHECK(same);
    IC_CHECK(positive);
    a = findArray(&vtu, "offsets", "Cells");
    IC_REQUIRE(a && strcmp(a->type, "Int64") == 0 && a->bytes == 8ull * nt);
    for (int t = 0; t < nt; ++t) {
        int64_t v;
        memcpy(&v, a->data + 8 * t, 8);
        same = same && v == 4 * (t + 1);
    }
    IC_CHECK(same);
    a = findArray(&vtu, "types", "Cells");
    IC_REQUIRE(a && strcmp(a->type, "UInt8") == 0 && a->bytes == (uint64_t)nt);
    for (int t = 0; t < nt; ++t) same = same && a->data[t] == 10;
    IC_CHECK(same);

    free(text);
    icFree(velocity);
    icFree(J);
    icFree(pressure);
    icTetMesh_Destroy(&mesh);

    // Bad arguments are refused before anything is written.
    icField bad = {"x", 0, NULL};
    IC_FORMAT(path, "%s/bad.vtu", icTest_TempDir());
    icReal one[3] = {0, 0, 0};
    IC_CHECK_RESULT(icWriteVtu(path, 1, one, 0, NULL, &bad, 1, NULL, 0, &diag),
                    IC_ERR_INVALID_ARGUMENT);
    FILE *fp = fopen(path, "rb");
    IC_CHECK(fp == NULL);
    if (fp) fclose(fp);
}

IC_TEST(io, pvd_relative_paths) {
    const char *dir = icTest_TempDir();
    char pvd[1200], first[1200];
    IC_FORMAT(pvd, "%s/run.pvd", dir);
    IC_FORMAT(first, "%s/frame_00000.vtu", dir);
    const char *files[3] = {first, "frame_00002.vtu", "sub/a&b.vtu"};
    icReal times[3] = {0, 0.1 / 3, 2.5};
    icDiagnostic diag = {0};
    IC_REQUIRE(icWritePvd(pvd, 3, files, times, &diag) == IC_OK);
    size_t size = 0;
    char *text = icTest_ReadFile(pvd, &size);
    IC_REQUIRE(text != NULL);
    char why[128] = "";
    IC_CHECK_MSG(wellFormed(text, size, why, sizeof why), "pvd: %s", why);
    IC_CHECK(strstr(text, "<VTKFile type=\"Collection\"") != NULL);
    const char *expectFiles[3] = {"frame_00000.vtu", "frame_00002.vtu", "sub/a&amp;b.vtu"};
    const char *p = text;
    for (int i = 0; i < 3; ++i) {
        p = strstr(p, "<DataSet ");
        IC_REQUIRE(p != NULL);
        char value[128];
        IC_REQUIRE(attribute(p, "file", value, sizeof value));
        IC_CHECK_MSG(strcmp(value, expectFiles[i]) == 0, "file %d is '%s'", i, value);
        IC_REQUIRE(attribute(p, "timestep", value, sizeof value));
        IC_CHECK(strtod(value, NULL) == times[i]);
        ++p;
    }
    IC_CHECK(strstr(p, "<DataSet ") == NULL);
    free(text);
}

static icResult loadPvdText(const char *text, icPvdList *list, icDiagnostic *diag) {
    char path[1200];
    IC_FORMAT(path, "%s/read.pvd", icTest_TempDir());
    FILE *fp = fopen(path, "wb");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
    return icLoadPvd(path, list, diag);
}

// What icWritePvd writes comes back; ParaView's own layout (declaration, comments, empty
// group and part attributes, entities) reads too.
IC_TEST(io, pvd_read_back) {
    int64_t bytes = icGetByteCount();
    const char *dir = icTest_TempDir();
    char pvd[1200];
    IC_FORMAT(pvd, "%s/back.pvd", dir);
    const char *files[3] = {"f0.vtu", "f1.vtu", "sub/a&b.vtu"};
    icReal times[3] = {0, 0.1 / 3, 2.5};
    icDiagnostic diag = {0};
    IC_REQUIRE(icWritePvd(pvd, 3, files, times, &diag) == IC_OK);
    icPvdList list;
    IC_REQUIRE(icLoadPvd(pvd, &list, &diag) == IC_OK);
    IC_CHECK_INT(list.count, 3);
    for (int i = 0; i < 3 && i < list.count; ++i) {
        char expected[1200];
        IC_FORMAT(expected, "%s/%s", dir, files[i]);
        IC_CHECK_MSG(strcmp(list.files[i], expected) == 0, "%s", list.files[i]);
        IC_CHECK(list.times[i] == times[i]);
    }
    icPvdList_Destroy(&list);

    IC_CHECK_RESULT(loadPvdText("<?xml version=\"1.0\"?>\n<!-- written by ParaView -->\n"
                                "<VTKFile type=\"Collection\" version=\"0.1\">\n<Collection>\n"
                                "<DataSet timestep=\"1.5\" group=\"\" part=\"0\" "
                                "file=\"x&amp;y_0.vtu\"/>\n"
                                "<DataSet part=\"0\" file='z.vtu'></DataSet>\n"
                                "</Collection>\n</VTKFile>\n",
                                &list, &diag),
                    IC_OK);
    IC_CHECK_INT(list.count, 2);
    if (list.count == 2) {
        IC_CHECK(strstr(list.files[0], "/x&y_0.vtu") != NULL && list.times[0] == 1.5);
        IC_CHECK(strstr(list.files[1], "/z.vtu") != NULL && list.times[1] == 1);
    }
    icPvdList_Destroy(&list);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Broken collections: exact codes, lines and messages, nothing left allocated.
IC_TEST(io, pvd_broken) {
    int64_t bytes = icGetByteCount();
    static const struct {
        const char *text;
        icResult code;
        int line;
        const char *message;
    } cases[] = {
        {"<VTKFile type=\"Collection\">\n<Collection>\n<DataSet timestep=\"0\"/>\n", IC_ERR_PARSE,
         3, "DataSet without a file"},
        {"<VTKFile type=\"Collection\">\n<Collection>\n<DataSet file=\"a.vtu\" timestep=\"x\"/>\n"
         "</Collection></VTKFile>\n",
         IC_ERR_PARSE, 3, "bad timestep 'x'"},
        {"<VTKFile type=\"Collection\">\n<Collection>\n<DataSet file=\"a.vtu\">\n"
         "</Collection></VTKFile>\n",
         IC_ERR_PARSE, 4, "malformed XML: mismatched tag"},
        {"<VTKFile type=\"Collection\">\n<Collection>\n<DataSet file=\"a.vtu\"/>\n", IC_ERR_PARSE,
         4, "malformed XML: no element found"},
        {"\n<VTKFile type=\"UnstructuredGrid\">\n</VTKFile>\n", IC_ERR_UNSUPPORTED, 2,
         "not a ParaView collection (VTKFile type 'UnstructuredGrid')"},
        {"<VTKFile>\n</VTKFile>\n", IC_ERR_UNSUPPORTED, 1,
         "not a ParaView collection (VTKFile type '')"},
        {"<Collection><DataSet file=\"a.vtu\"/></Collection>\n", IC_ERR_PARSE, 0,
         "no VTKFile element"},
        {"<VTKFile type=\"Collection\">\n<Collection/>\n</VTKFile>\n", IC_ERR_EMPTY, 0,
         "the collection lists no data sets"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        icPvdList list;
        icDiagnostic diag = {0};
        IC_CHECK_RESULT(loadPvdText(cases[i].text, &list, &diag), cases[i].code);
        IC_CHECK_MSG(diag.line == cases[i].line, "case %zu: line %d", i, diag.line);
        IC_CHECK_MSG(strcmp(diag.message, cases[i].message) == 0, "case %zu: '%s'", i,
                     diag.message);
        IC_CHECK(list.count == 0 && list.files == NULL);
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}
