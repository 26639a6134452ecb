// SPDX-License-Identifier: MIT
// MEDIT .mesh reader (ASCII, MeshVersionFormatted 1 to 4): Vertices and Tetrahedra (their
// references become regions); other keyword sections are read past and counted.
#include "formats/fmt_internal.h"

#include <stdio.h>
#include <strings.h>

typedef struct icMeditSection {
    const char *keyword;
    int integers; ///< values per item after any reals (indices, then the reference)
    int reals;
    bool element; ///< counted as a skipped element
} icMeditSection;

// Sections skipped by arity (3D files).
static const icMeditSection s_sections[] = {
    {"Edges", 3, 0, true},
    {"Triangles", 4, 0, true},
    {"Quadrilaterals", 5, 0, true},
    {"Hexahedra", 9, 0, true},
    {"Prisms", 7, 0, true},
    {"Pyramids", 6, 0, true},
    {"EdgesP2", 4, 0, true},
    {"TrianglesP2", 7, 0, true},
    {"QuadrilateralsQ2", 10, 0, true},
    {"HexahedraQ2", 28, 0, true},
    {"Corners", 1, 0, false},
    {"RequiredVertices", 1, 0, false},
    {"Ridges", 1, 0, false},
    {"RequiredEdges", 1, 0, false},
    {"RequiredTriangles", 1, 0, false},
    {"RequiredQuadrilaterals", 1, 0, false},
    {"RequiredTetrahedra", 1, 0, false},
    {"Normals", 0, 3, false},
    {"Tangents", 0, 3, false},
    {"NormalAtVertices", 2, 0, false},
    {"TangentAtVertices", 2, 0, false},
    {"NormalAtTriangleVertices", 3, 0, false},
    {"NormalAtQuadrilateralVertices", 3, 0, false},
    {"TangentAtEdgeVertices", 3, 0, false},
};

typedef struct icMeditReader {
    icTextCursor c;
    const char *path;
    icDiagnostic *diag;
    int vertexCount;
    icReal *positions;
    int tetCount;
    int *tets, *refs, *lines;
    int skipped, quadratic;
} icMeditReader;

static icResult readCount(icMeditReader *r, long long *count, const char *keyword,
                          size_t minBytes) {
    icResult result = icText_IntIn(&r->c, 0, INT32_MAX, count, "item count");
    if (result != IC_OK) return result;
    if ((size_t)*count > (size_t)(r->c.end - r->c.p) / minBytes + 1)
        return icText_Error(&r->c, IC_ERR_TRUNCATED, "file too short for %lld %s", *count, keyword);
    return IC_OK;
}

static icResult readVertices(icMeditReader *r) {
    long long n;
    icResult result = readCount(r, &n, "vertices", 8);
    if (result != IC_OK) return result;
    if (r->positions)
        return icText_Error(&r->c, IC_ERR_UNSUPPORTED, "more than one Vertices section");
    r->vertexCount = (int)n;
    r->positions = IC_ALLOC(icReal, 3 * (size_t)n + 3);
    if (!r->positions)
        return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    for (int i = 0; i < n; ++i) {
        long long ref;
        for (int k = 0; k < 3; ++k) {
            double x;
            if ((result = icText_Real(&r->c, &x, "vertex coordinate")) != IC_OK) return result;
            r->positions[3 * (size_t)i + k] = x;
        }
        if ((result = icText_Int(&r->c, &ref, "vertex reference")) != IC_OK) return result;
    }
    return IC_OK;
}

static icResult readTetrahedra(icMeditReader *r, int nodes) {
    long long n;
    icResult result = readCount(r, &n, "tetrahedra", 10);
    if (result != IC_OK) return result;
    if (!r->positions) return icText_Error(&r->c, IC_ERR_PARSE, "Tetrahedra before Vertices");
    if (r->tets) return icText_Error(&r->c, IC_ERR_UNSUPPORTED, "more than one Tetrahedra section");
    r->tetCount = (int)n;
    r->tets = IC_ALLOC(int, 4 * (size_t)n + 4);
    r->refs = IC_ALLOC(int, (size_t)n + 1);
    r->lines = IC_ALLOC(int, (size_t)n + 1);
    if (!r->tets || !r->refs || !r->lines)
        return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    for (int t = 0; t < n; ++t) {
        long long v;
        int *tet = r->tets + 4 * (size_t)t;
        for (int k = 0; k < nodes; ++k) {
            if ((result = icText_Int(&r->c, &v, "vertex index")) != IC_OK) return result;
            if (k == 0) r->lines[t] = r->c.line;
            if (v < 1 || v > r->vertexCount)
                return icText_Error(&r->c, IC_ERR_INDEX_OUT_OF_RANGE,
                                    "tetrahedron %d refers to vertex %lld; vertices are 1 to %d",
                                    t + 1, v, r->vertexCount);
            if (k < 4) tet[k] = (int)v - 1;
        }
        icFmt_SwapHandedness(tet);
        if ((result = icText_Int(&r->c, &v, "tetrahedron reference")) != IC_OK) return result;
        r->refs[t] = (int)v;
    }
    if (nodes == 10) r->quadratic += (int)n;
    return IC_OK;
}

static icResult skipSection(icMeditReader *r, const icMeditSection *s) {
    long long n;
    icResult result = readCount(r, &n, s->keyword, 2);
    if (result != IC_OK) return result;
    for (long long i = 0; i < n; ++i) {
        double x;
        long long v;
        for (int k = 0; k < s->reals; ++k)
            if ((result = icText_Real(&r->c, &x, s->keyword)) != IC_OK) return result;
        for (int k = 0; k < s->integers; ++k)
            if ((result = icText_Int(&r->c, &v, s->keyword)) != IC_OK) return result;
    }
    if (s->element) r->skipped += (int)n;
    return IC_OK;
}

static icResult readSections(icMeditReader *r) {
    icTextCursor *c = &r->c;
    if (!icText_Accept(c, "MeshVersionFormatted"))
        return icText_Error(c, IC_ERR_PARSE, "expected MeshVersionFormatted");
    long long version;
    icResult result = icText_Int(c, &version, "version");
    if (result != IC_OK) return result;
    if (version < 1 || version > 4)
        return icText_Error(c, IC_ERR_UNSUPPORTED,
                            "MEDIT version %lld is not supported (1 to 4 are)", version);
    bool sawDimension = false;
    while (icText_Skip(c)) {
        char word[64];
        icText_Word(c, word, sizeof word, "a keyword");
        if (strcasecmp(word, "End") == 0) break;
        if (strcasecmp(word, "Dimension") == 0) {
            long long d;
            if ((result = icText_Int(c, &d, "dimension")) != IC_OK) return result;
            if (d != 3)
                return icText_Error(c, IC_ERR_UNSUPPORTED,
                                    "dimension %lld (only 3D meshes have tetrahedra)", d);
            sawDimension = true;
        } else if (strcasecmp(word, "Vertices") == 0) {
            if (!sawDimension) return icText_Error(c, IC_ERR_PARSE, "Vertices before Dimension");
            result = readVertices(r);
        } else if (strcasecmp(word, "Tetrahedra") == 0) {
            result = readTetrahedra(r, 4);
        } else if (strcasecmp(word, "TetrahedraP2") == 0) {
            result = readTetrahedra(r, 10);
        } else if (strcasecmp(word, "Identifier") == 0 || strcasecmp(word, "Geometry") == 0) {
            icText_SkipLine(c);
            icText_SkipLine(c);
        } else {
            const icMeditSection *s = NULL;
            for (size_t i = 0; i < sizeof s_sections / sizeof s_sections[0]; ++i)
                if (strcasecmp(word, s_sections[i].keyword) == 0) s = &s_sections[i];
            if (!s) return icText_Error(c, IC_ERR_UNSUPPORTED, "unknown MEDIT keyword '%s'", word);
            result = skipSection(r, s);
        }
        if (result != IC_OK) return result;
    }
    if (!r->positions) return icDiag_Set(r->diag, IC_ERR_EMPTY, r->path, 0, "no Vertices");
    if (r->tetCount == 0)
        return icDiag_Set(r->diag, IC_ERR_EMPTY, r->path, 0,
                          "no Tetrahedra (%d other elements skipped)", r->skipped);
    return IC_OK;
}

icResult icFmt_ReadMedit(const char *path, const char *text, size_t size, icReadOut *out,
                         icDiagnostic *diag) {
    icMeditReader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.diag = diag;
    icText_Init(&r.c, text, size, path, diag, '#');
    icResult result = readSections(&r);
    if (result == IC_OK) result = icTetMesh_Create(out->mesh, r.vertexCount, r.tetCount);
    if (result == IC_OK) {
        memcpy(out->mesh->positions, r.positions, sizeof(icReal) * 3 * (size_t)r.vertexCount);
        memcpy(out->mesh->tets, r.tets, sizeof(int) * 4 * (size_t)r.tetCount);
        result = icFmt_SetRegions(out->mesh, r.refs, out->info);
    }
    if (result == IC_OK) result = icFmt_DropUnusedVertices(out->mesh, out->fields, out->info);
    if (result == IC_OK) {
        out->tetLines = r.lines;
        r.lines = NULL;
    }
    out->info->skippedElements = r.skipped;
    out->info->quadraticTets = r.quadratic;
    snprintf(out->info->formatName, sizeof out->info->formatName, "medit ascii");
    icFree(r.positions);
    icFree(r.tets);
    icFree(r.refs);
    icFree(r.lines);
    return result;
}
