// SPDX-License-Identifier: MIT
// PLY reader: ascii, binary_little_endian and binary_big_endian; the vertex element's x, y,
// z and the face element's vertex_indices list; other elements and properties are read past.
#include "formats/fmt_internal.h"

#include <math.h>
#include <stdio.h>
#include <strings.h>

#define IC_PLY_MAX_PROPERTIES 64
#define IC_PLY_MAX_ELEMENTS 16

typedef struct icPlyProperty {
    char name[64];
    bool list;
    icScalarType type;      ///< the value type (list items for lists)
    icScalarType countType; ///< lists: type of the count
} icPlyProperty;

typedef struct icPlyElement {
    char name[64];
    long long count;
    int propertyCount;
    icPlyProperty properties[IC_PLY_MAX_PROPERTIES];
} icPlyElement;

typedef enum icPlyFormat { IC_PLY_ASCII, IC_PLY_LITTLE, IC_PLY_BIG } icPlyFormat;

static icScalarType typeOf(const char *name) {
    static const struct {
        const char *name;
        icScalarType type;
    } table[] = {{"char", IC_SCALAR_I8},    {"int8", IC_SCALAR_I8},     {"uchar", IC_SCALAR_U8},
                 {"uint8", IC_SCALAR_U8},   {"short", IC_SCALAR_I16},   {"int16", IC_SCALAR_I16},
                 {"ushort", IC_SCALAR_U16}, {"uint16", IC_SCALAR_U16},  {"int", IC_SCALAR_I32},
                 {"int32", IC_SCALAR_I32},  {"uint", IC_SCALAR_U32},    {"uint32", IC_SCALAR_U32},
                 {"float", IC_SCALAR_F32},  {"float32", IC_SCALAR_F32}, {"double", IC_SCALAR_F64},
                 {"float64", IC_SCALAR_F64}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
        if (strcmp(name, table[i].name) == 0) return table[i].type;
    return IC_SCALAR_NONE;
}

typedef struct icPlyReader {
    const char *path;
    icDiagnostic *diag;
    icTextCursor c;
    icPlyFormat format;
    bool swap;
    int elementCount;
    icPlyElement elements[IC_PLY_MAX_ELEMENTS];
} icPlyReader;

static icResult readHeader(icPlyReader *r) {
    icTextCursor *c = &r->c;
    icText_SkipLine(c); // "ply"
    icPlyElement *current = NULL;
    char word[64];
    bool sawFormat = false;
    for (;;) {
        icResult result = icText_Word(c, word, sizeof word, "a header line");
        if (result != IC_OK)
            return icText_Error(c, IC_ERR_TRUNCATED, "file ends inside the PLY header");
        if (strcmp(word, "end_header") == 0) {
            icText_SkipLine(c);
            break;
        }
        if (strcmp(word, "comment") == 0 || strcmp(word, "obj_info") == 0) {
            icText_SkipLine(c);
            continue;
        }
        if (strcmp(word, "format") == 0) {
            if ((result = icText_Word(c, word, sizeof word, "the format")) != IC_OK) return result;
            if (strcmp(word, "ascii") == 0) {
                r->format = IC_PLY_ASCII;
            } else if (strcmp(word, "binary_little_endian") == 0) {
                r->format = IC_PLY_LITTLE;
                r->swap = !icFmt_HostLittle();
            } else if (strcmp(word, "binary_big_endian") == 0) {
                r->format = IC_PLY_BIG;
                r->swap = icFmt_HostLittle();
            } else {
                return icText_Error(c, IC_ERR_UNSUPPORTED, "PLY format '%s' is not supported",
                                    word);
            }
            if ((result = icText_Word(c, word, sizeof word, "the version")) != IC_OK) return result;
            if (strcmp(word, "1.0") != 0)
                return icText_Error(c, IC_ERR_UNSUPPORTED,
                                    "PLY version %s is not supported (1.0 is)", word);
            sawFormat = true;
        } else if (strcmp(word, "element") == 0) {
            if (r->elementCount == IC_PLY_MAX_ELEMENTS)
                return icText_Error(c, IC_ERR_UNSUPPORTED, "more than %d elements",
                                    IC_PLY_MAX_ELEMENTS);
            current = &r->elements[r->elementCount++];
            memset(current, 0, sizeof *current);
            if ((result = icText_Word(c, current->name, sizeof current->name, "element name")) !=
                    IC_OK ||
                (result = icText_IntIn(c, 0, INT32_MAX, &current->count, "element count")) != IC_OK)
                return result;
        } else if (strcmp(word, "property") == 0) {
            if (!current) return icText_Error(c, IC_ERR_PARSE, "property before any element");
            if (current->propertyCount == IC_PLY_MAX_PROPERTIES)
                return icText_Error(c, IC_ERR_UNSUPPORTED, "more than %d properties",
                                    IC_PLY_MAX_PROPERTIES);
            icPlyProperty *p = &current->properties[current->propertyCount++];
            memset(p, 0, sizeof *p);
            if ((result = icText_Word(c, word, sizeof word, "property type")) != IC_OK)
                return result;
            if (strcmp(word, "list") == 0) {
                p->list = true;
                if ((result = icText_Word(c, word, sizeof word, "list count type")) != IC_OK)
                    return result;
                p->countType = typeOf(word);
                if (p->countType == IC_SCALAR_NONE || p->countType == IC_SCALAR_F32 ||
                    p->countType == IC_SCALAR_F64)
                    return icText_Error(c, IC_ERR_PARSE, "bad list count type '%s'", word);
                if ((result = icText_Word(c, word, sizeof word, "list item type")) != IC_OK)
                    return result;
            }
            p->type = typeOf(word);
            if (p->type == IC_SCALAR_NONE)
                return icText_Error(c, IC_ERR_PARSE, "unknown property type '%s'", word);
            if ((result = icText_Word(c, p->name, sizeof p->name, "property name")) != IC_OK)
                return result;
        } else {
            return icText_Error(c, IC_ERR_PARSE, "unexpected '%s' in the PLY header", word);
        }
        if (icText_SkipInLine(c)) {
            icText_Word(c, word, sizeof word, "");
            return icText_Error(c, IC_ERR_PARSE, "unexpected '%s' at the end of a header line",
                                word);
        }
    }
    if (!sawFormat) return icText_Error(c, IC_ERR_PARSE, "PLY header without a format line");
    return IC_OK;
}

// One scalar in the current encoding.
static icResult readScalar(icPlyReader *r, icScalarType type, double *value, long long *integer) {
    if (r->format == IC_PLY_ASCII) {
        if (type == IC_SCALAR_F32 || type == IC_SCALAR_F64) {
            icResult result = icText_Real(&r->c, value, "a property value");
            *integer = 0;
            return result;
        }
        icResult result = icText_Int(&r->c, integer, "a property value");
        *value = (double)*integer;
        return result;
    }
    size_t size = (size_t)icScalar_Size(type);
    if ((size_t)(r->c.end - r->c.p) < size)
        return icDiag_Set(r->diag, IC_ERR_TRUNCATED, r->path, 0,
                          "file ends inside the PLY data (byte %td)", r->c.p - r->c.begin);
    *value = icScalar_Get(type, r->c.p, 0, r->swap);
    bool ok = true;
    *integer = icScalar_GetInt(type, r->c.p, 0, r->swap, &ok);
    r->c.p += size;
    return IC_OK;
}

static icResult readElements(icPlyReader *r, icSurfaceBuilder *b) {
    const bool text = r->format == IC_PLY_ASCII;
    int corners[256];
    long long vertexTotal = 0;
    for (int e = 0; e < r->elementCount; ++e)
        if (strcmp(r->elements[e].name, "vertex") == 0) vertexTotal = r->elements[e].count;
    for (int e = 0; e < r->elementCount; ++e) {
        const icPlyElement *el = &r->elements[e];
        bool isVertex = strcmp(el->name, "vertex") == 0, isFace = strcmp(el->name, "face") == 0;
        int xyz[3] = {-1, -1, -1}, indices = -1;
        for (int p = 0; p < el->propertyCount; ++p) {
            const icPlyProperty *prop = &el->properties[p];
            if (isVertex && !prop->list)
                for (int k = 0; k < 3; ++k)
                    if (prop->name[0] == "xyz"[k] && prop->name[1] == 0) xyz[k] = p;
            if (isFace && prop->list &&
                (strcmp(prop->name, "vertex_indices") == 0 ||
                 strcmp(prop->name, "vertex_index") == 0 || indices < 0))
                indices = p;
        }
        if (isVertex && (xyz[0] < 0 || xyz[1] < 0 || xyz[2] < 0))
            return icText_Error(&r->c, IC_ERR_PARSE, "the vertex element lacks x, y or z");
        if (isFace && indices < 0)
            return icText_Error(&r->c, IC_ERR_PARSE,
                                "the face element lacks a vertex_indices list");
        if ((size_t)el->count > (size_t)(r->c.end - r->c.p) + 1)
            return icDiag_Set(r->diag, IC_ERR_TRUNCATED, r->path, text ? r->c.line : 0,
                              "file too short for %lld %s elements", el->count, el->name);
        for (long long i = 0; i < el->count; ++i) {
            double x[3] = {0, 0, 0};
            int line = r->c.line;
            for (int p = 0; p < el->propertyCount; ++p) {
                const icPlyProperty *prop = &el->properties[p];
                double value;
                long long integer;
                icResult result;
                if (!prop->list) {
                    if ((result = readScalar(r, prop->type, &value, &integer)) != IC_OK)
                        return result;
                    if (isVertex)
                        for (int k = 0; k < 3; ++k)
                            if (p == xyz[k]) x[k] = value;
                    continue;
                }
                if ((result = readScalar(r, prop->countType, &value, &integer)) != IC_OK)
                    return result;
                if (integer < 0 || integer > 1 << 20)
                    return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, text ? r->c.line : 0,
                                      "%s %lld: a list of %lld items", el->name, i, integer);
                long long n = integer;
                if (p == indices && isFace && (n < 3 || n > 256))
                    return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, text ? r->c.line : 0,
                                      "face %lld has %lld corners (3 to 256)", i, n);
                for (long long k = 0; k < n; ++k) {
                    if ((result = readScalar(r, prop->type, &value, &integer)) != IC_OK)
                        return result;
                    if (p == indices && isFace) {
                        if (integer < 0 || integer >= vertexTotal)
                            return icDiag_Set(
                                r->diag, IC_ERR_INDEX_OUT_OF_RANGE, r->path, text ? r->c.line : 0,
                                "face %lld refers to vertex %lld; vertices are 0 to %lld", i,
                                integer, vertexTotal - 1);
                        corners[k] = (int)integer;
                    }
                }
                if (p == indices && isFace && !icSurfaceBuilder_AddPolygon(b, corners, (int)n))
                    return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
            }
            if (isVertex) {
                if (!(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2])))
                    return icDiag_Set(r->diag, IC_ERR_NOT_FINITE, r->path, text ? line : 0,
                                      "vertex %lld is not finite", i);
                if (!icSurfaceBuilder_AddVertex(b, x[0], x[1], x[2]))
                    return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
            }
            if (text && icText_SkipInLine(&r->c))
                return icText_Error(&r->c, IC_ERR_PARSE,
                                    "%s %lld has more values than its properties", el->name, i);
        }
    }
    return IC_OK;
}

icResult icFmt_ReadPly(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                       icDiagnostic *diag) {
    icPlyReader *r = IC_ALLOC_ZERO(icPlyReader, 1);
    if (!r) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    r->path = path;
    r->diag = diag;
    icText_Init(&r->c, text, size, path, diag, 0);
    icResult result = IC_OK;
    if (size < 3 || strncmp(text, "ply", 3) != 0)
        result = icText_Error(&r->c, IC_ERR_PARSE, "expected the PLY magic 'ply'");
    if (result == IC_OK) result = readHeader(r);
    if (result == IC_OK) result = readElements(r, b);
    icFree(r);
    return result;
}
