// SPDX-License-Identifier: MIT
// Legacy VTK reader (.vtk, versions 1.0 to 5.1): UNSTRUCTURED_GRID in ASCII or BINARY
// (big-endian), the classic CELLS layout and 5.1's OFFSETS/CONNECTIVITY, point and cell
// data (SCALARS, VECTORS, NORMALS, TENSORS, FIELD) as fields.
#include "formats/fmt_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

typedef struct icVtkReader {
    const char *path;
    icTextCursor c;
    icDiagnostic *diag;
    bool binary;
    bool swap; ///< binary data is big-endian
    int major, minor;

    int pointCount;
    icReal *points; ///< (pointCount x 3)
    int cellCount;
    long long *cellStart; ///< (cellCount + 1) offsets into cellIndex (or cellData)
    int *cellIndex;       ///< connectivity, or NULL when cellData holds it
    const char *cellData; ///< BINARY classic layout: the big-endian int32 stream itself
    int *cellLine;        ///< (cellCount) line of each cell's first index (ASCII), or NULL
    int *cellTypes;       ///< (cellCount)
    icMeshFields fields;  ///< point and cell data, cell data over all cells
    /// Classic layout: the first value of each cell that is no point index, with its line
    /// (NULL when every value is one). A polyhedron's face stream holds counts as well as
    /// points, so the verdict waits for CELL_TYPES.
    long long *badValue;     ///< (cellCount) or NULL
    int *badLine;            ///< (cellCount)
    uint8_t *bad;            ///< (cellCount)
    int *cellTypeLine;       ///< (cellCount) line of each cell type (ASCII), or NULL
    const char *cellTypesAt; ///< BINARY: the CELL_TYPES data, for byte offsets in messages
} icVtkReader;

// Cell i's points: in the BINARY classic stream cellStart[i] is the position of its count,
// elsewhere the position of its first point in cellIndex.
static inline long long cellSize(const icVtkReader *r, int i) {
    return r->cellStart[i + 1] - r->cellStart[i] - (r->cellData ? 1 : 0);
}
static inline int cellVertex(const icVtkReader *r, int i, int k) {
    if (r->cellData) return icFmt_I32(r->cellData + 4 * (size_t)(r->cellStart[i] + 1 + k), r->swap);
    return r->cellIndex[r->cellStart[i] + k];
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static icResult
vtkError(icVtkReader *r, icResult code, const char *format, ...) {
    char message[600];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return icDiag_Set(r->diag, code, r->path, r->binary ? 0 : r->c.line, "%s", message);
}

static icScalarType typeOf(const char *name) {
    static const struct {
        const char *name;
        icScalarType type;
    } table[] = {{"unsigned_char", IC_SCALAR_U8},   {"char", IC_SCALAR_I8},
                 {"unsigned_short", IC_SCALAR_U16}, {"short", IC_SCALAR_I16},
                 {"unsigned_int", IC_SCALAR_U32},   {"int", IC_SCALAR_I32},
                 {"unsigned_long", IC_SCALAR_U64},  {"long", IC_SCALAR_I64},
                 {"float", IC_SCALAR_F32},          {"double", IC_SCALAR_F64},
                 {"vtktypeint8", IC_SCALAR_I8},     {"vtktypeuint8", IC_SCALAR_U8},
                 {"vtktypeint16", IC_SCALAR_I16},   {"vtktypeuint16", IC_SCALAR_U16},
                 {"vtktypeint32", IC_SCALAR_I32},   {"vtktypeuint32", IC_SCALAR_U32},
                 {"vtktypeint64", IC_SCALAR_I64},   {"vtktypeuint64", IC_SCALAR_U64},
                 {"vtkIdType", IC_SCALAR_I64}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
        if (strcasecmp(name, table[i].name) == 0) return table[i].type;
    return IC_SCALAR_NONE;
}

static icResult readType(icVtkReader *r, icScalarType *type) {
    char word[64];
    icResult result = icText_Word(&r->c, word, sizeof word, "a data type");
    if (result != IC_OK) return result;
    *type = typeOf(word);
    if (*type == IC_SCALAR_NONE)
        return vtkError(r, IC_ERR_UNSUPPORTED, "data type '%s' is not supported", word);
    return IC_OK;
}

// In BINARY files the values start on the line after their keyword line.
static void startData(icVtkReader *r) {
    if (r->binary) icText_SkipLine(&r->c);
}

static icResult needBytes(icVtkReader *r, size_t bytes, const char *what) {
    if ((size_t)(r->c.end - r->c.p) < bytes)
        return icDiag_Set(r->diag, IC_ERR_TRUNCATED, r->path, 0, "file ends inside %s (byte %td)",
                          what, r->c.p - r->c.begin);
    return IC_OK;
}

// count values as doubles (out may be NULL to skip them).
static icResult readReals(icVtkReader *r, icScalarType type, size_t count, icReal *out,
                          const char *what) {
    if (r->binary) {
        size_t bytes = count * (size_t)icScalar_Size(type);
        icResult result = needBytes(r, bytes, what);
        if (result != IC_OK) return result;
        const char *p = r->c.p;
        r->c.p += bytes;
        if (!out) return IC_OK;
        // The common types get their own loops: a type switch per value would dominate.
        if (type == IC_SCALAR_F64) {
            for (size_t i = 0; i < count; ++i) out[i] = icFmt_F64(p + 8 * i, r->swap);
        } else if (type == IC_SCALAR_F32) {
            for (size_t i = 0; i < count; ++i) out[i] = icFmt_F32(p + 4 * i, r->swap);
        } else {
            for (size_t i = 0; i < count; ++i) out[i] = icScalar_Get(type, p, i, r->swap);
        }
        for (size_t i = 0; i < count; ++i)
            if (!isfinite(out[i]))
                return icDiag_Set(r->diag, IC_ERR_NOT_FINITE, r->path, 0,
                                  "%s: value %zu is not finite", what, i);
        return IC_OK;
    }
    for (size_t i = 0; i < count; ++i) {
        double v;
        icResult result = icText_Real(&r->c, &v, what);
        if (result != IC_OK) return result;
        if (out) out[i] = v;
    }
    return IC_OK;
}

// count integers; lines (optional) gets the line of each (ASCII).
static icResult readInts(icVtkReader *r, icScalarType type, size_t count, long long *out,
                         int *lines, const char *what) {
    if (r->binary) {
        size_t bytes = count * (size_t)icScalar_Size(type);
        icResult result = needBytes(r, bytes, what);
        if (result != IC_OK) return result;
        const char *p = r->c.p;
        bool ok = true;
        if (type == IC_SCALAR_I32) {
            for (size_t i = 0; i < count; ++i) out[i] = icFmt_I32(p + 4 * i, r->swap);
        } else if (type == IC_SCALAR_I64) {
            for (size_t i = 0; i < count; ++i) {
                int64_t v = (int64_t)icFmt_U64(p + 8 * i, r->swap);
                ok &= v < (1ll << 62) && v > -(1ll << 62);
                out[i] = v;
            }
        } else {
            for (size_t i = 0; i < count; ++i) out[i] = icScalar_GetInt(type, p, i, r->swap, &ok);
        }
        if (!ok)
            return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, 0, "%s: value out of range", what);
        if (lines) memset(lines, 0, sizeof(int) * count);
        r->c.p += bytes;
        return IC_OK;
    }
    for (size_t i = 0; i < count; ++i) {
        icResult result = icText_Int(&r->c, &out[i], what);
        if (result != IC_OK) return result;
        if (lines) lines[i] = r->c.line;
    }
    return IC_OK;
}

static icResult readCount(icVtkReader *r, long long *value, const char *what, size_t minBytes) {
    icResult result = icText_IntIn(&r->c, 0, INT32_MAX, value, what);
    if (result != IC_OK) return result;
    if ((size_t)*value > (size_t)(r->c.end - r->c.p) / minBytes + 1)
        return vtkError(r, IC_ERR_TRUNCATED, "file too short for its %s", what);
    return IC_OK;
}

static icResult readPoints(icVtkReader *r) {
    long long n;
    icScalarType type;
    icResult result = readCount(r, &n, "point count", r->binary ? 12 : 6);
    if (result == IC_OK) result = readType(r, &type);
    if (result != IC_OK) return result;
    if (r->points) return vtkError(r, IC_ERR_UNSUPPORTED, "%s", "more than one POINTS section");
    r->pointCount = (int)n;
    r->points = IC_ALLOC(icReal, 3 * (size_t)n + 3);
    if (!r->points) return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    startData(r);
    return readReals(r, type, 3 * (size_t)n, r->points, "point coordinates");
}

static icResult checkIndex(icVtkReader *r, long long index, int line) {
    if (index < 0 || index >= r->pointCount) {
        char message[160];
        snprintf(message, sizeof message, "cell refers to point %lld but there are %d points",
                 index, r->pointCount);
        return icDiag_Set(r->diag, IC_ERR_INDEX_OUT_OF_RANGE, r->path, line, "%s", message);
    }
    return IC_OK;
}

// Remembers the first value of cell i that is no point index (classic layout).
static icResult noteBadIndex(icVtkReader *r, int i, long long value, int line) {
    if (!r->bad) {
        r->bad = IC_ALLOC_ZERO(uint8_t, r->cellCount + 1);
        r->badValue = IC_ALLOC(long long, r->cellCount + 1);
        r->badLine = IC_ALLOC(int, r->cellCount + 1);
        if (!r->bad || !r->badValue || !r->badLine)
            return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    }
    if (!r->bad[i]) {
        r->bad[i] = 1;
        r->badValue[i] = value;
        r->badLine[i] = line;
    }
    return IC_OK;
}

// Classic layout: CELLS n size, then per cell "npts i0 i1 ...". BINARY data is walked in
// place (big-endian int32); ASCII values are parsed first, with their lines.
static icResult readCellsClassic(icVtkReader *r, long long n, long long size) {
    startData(r);
    r->cellCount = (int)n;
    r->cellStart = IC_ALLOC(long long, n + 1);
    // BINARY connectivity stays in the file buffer: validated here, read again when the tets
    // are built, never copied.
    r->cellIndex = r->binary ? NULL : IC_ALLOC(int, size + 1);
    r->cellLine = r->binary ? NULL : IC_ALLOC(int, n + 1);
    long long *values = r->binary ? NULL : IC_ALLOC(long long, size + 1);
    int *lines = r->binary ? NULL : IC_ALLOC(int, size + 1);
    const char *base = r->c.p;
    icResult result = IC_OK;
    if (!r->cellStart || (!r->binary && (!r->cellIndex || !r->cellLine || !values || !lines))) {
        result = icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
        goto done;
    }
    if (r->binary) {
        if ((result = needBytes(r, 4 * (size_t)size, "cell connectivity")) != IC_OK) goto done;
        r->c.p += 4 * (size_t)size;
    } else if ((result = readInts(r, IC_SCALAR_I32, (size_t)size, values, lines,
                                  "cell connectivity")) != IC_OK) {
        goto done;
    }
#define IC_CELL_VALUE(i)                                                                           \
    (values ? values[i] : (long long)icFmt_I32(base + 4 * (size_t)(i), r->swap))
    long long at = 0, conn = 0;
    for (int i = 0; i < n; ++i) {
        int line = lines ? lines[at < size ? at : size - 1] : 0;
        if (at >= size) {
            result = icDiag_Set(r->diag, IC_ERR_PARSE, r->path, line,
                                "CELLS size %lld is too small for %lld cells", size, n);
            goto done;
        }
        long long count = IC_CELL_VALUE(at);
        if (count < 0 || count > size - at - 1) {
            result = icDiag_Set(r->diag, IC_ERR_PARSE, r->path, line,
                                "cell %d has %lld points, more than CELLS size allows", i, count);
            goto done;
        }
        if (r->binary) {
            r->cellStart[i] = at;
            for (long long k = 0; k < count; ++k) {
                int32_t index = icFmt_I32(base + 4 * (size_t)(at + 1 + k), r->swap);
                if ((index < 0 || index >= r->pointCount) &&
                    (result = noteBadIndex(r, i, index, 0)) != IC_OK)
                    goto done;
            }
        } else {
            r->cellStart[i] = conn;
            r->cellLine[i] = line;
            for (long long k = 0; k < count; ++k) {
                long long index = values[at + 1 + k];
                if ((index < 0 || index >= r->pointCount) &&
                    (result = noteBadIndex(r, i, index, lines[at + 1 + k])) != IC_OK)
                    goto done;
                r->cellIndex[conn++] = (int)index;
            }
        }
        at += 1 + count;
    }
#undef IC_CELL_VALUE
    r->cellStart[n] = r->binary ? at : conn;
    if (r->binary) r->cellData = base;
    if (at != size)
        result = icDiag_Set(r->diag, IC_ERR_PARSE, r->path, r->binary ? 0 : r->c.line,
                            "CELLS size is %lld but the cells use %lld values", size, at);
done:
    icFree(values);
    icFree(lines);
    return result;
}

// 5.x layout: CELLS nOffsets nConnectivity, OFFSETS type ..., CONNECTIVITY type ...
static icResult readCellsModern(icVtkReader *r, long long offsetCount, long long connCount) {
    if (offsetCount < 1) return vtkError(r, IC_ERR_PARSE, "%s", "CELLS needs at least one offset");
    long long n = offsetCount - 1;
    r->cellCount = (int)n;
    r->cellStart = IC_ALLOC(long long, n + 1);
    r->cellIndex = IC_ALLOC(int, connCount + 1);
    r->cellLine = r->binary ? NULL : IC_ALLOC(int, n + 1);
    long long *values = IC_ALLOC(long long, connCount + 1);
    int *lines = r->binary ? NULL : IC_ALLOC(int, connCount + 1);
    icResult result = IC_OK;
    icScalarType type;
    if (!r->cellStart || !r->cellIndex || !values || (!r->binary && (!lines || !r->cellLine))) {
        result = icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
        goto done;
    }
    if (!icText_Accept(&r->c, "OFFSETS")) {
        result = vtkError(r, IC_ERR_PARSE, "%s", "expected OFFSETS after CELLS (version 5 layout)");
        goto done;
    }
    if ((result = readType(r, &type)) != IC_OK) goto done;
    startData(r);
    if ((result = readInts(r, type, (size_t)offsetCount, r->cellStart, NULL, "cell offsets")) !=
        IC_OK)
        goto done;
    if (r->cellStart[0] != 0 || r->cellStart[n] != connCount) {
        result = vtkError(r, IC_ERR_PARSE, "%s",
                          "OFFSETS must start at 0 and end at the CONNECTIVITY size");
        goto done;
    }
    for (int i = 0; i < n; ++i)
        if (r->cellStart[i + 1] < r->cellStart[i]) {
            result = vtkError(r, IC_ERR_PARSE, "%s", "OFFSETS decrease");
            goto done;
        }
    if (!icText_Accept(&r->c, "CONNECTIVITY")) {
        result = vtkError(r, IC_ERR_PARSE, "%s", "expected CONNECTIVITY after OFFSETS");
        goto done;
    }
    if ((result = readType(r, &type)) != IC_OK) goto done;
    startData(r);
    if ((result = readInts(r, type, (size_t)connCount, values, lines, "cell connectivity")) !=
        IC_OK)
        goto done;
    for (long long k = 0; k < connCount; ++k) {
        if ((result = checkIndex(r, values[k], lines ? lines[k] : 0)) != IC_OK) goto done;
        r->cellIndex[k] = (int)values[k];
    }
    for (int i = 0; lines && i < n; ++i)
        r->cellLine[i] = r->cellStart[i] < connCount ? lines[r->cellStart[i]] : 0;
done:
    icFree(values);
    icFree(lines);
    return result;
}

static icResult readCells(icVtkReader *r) {
    long long a, b;
    icResult result = readCount(r, &a, "cell count", 1);
    if (result == IC_OK) result = readCount(r, &b, "cell size", 1);
    if (result != IC_OK) return result;
    if (!r->points) return vtkError(r, IC_ERR_PARSE, "%s", "CELLS before POINTS");
    if (r->cellStart) return vtkError(r, IC_ERR_UNSUPPORTED, "%s", "more than one CELLS section");
    return r->major >= 5 ? readCellsModern(r, a, b) : readCellsClassic(r, a, b);
}

static icResult readCellTypes(icVtkReader *r) {
    long long n;
    icResult result = readCount(r, &n, "cell type count", 1);
    if (result != IC_OK) return result;
    if (!r->cellStart) return vtkError(r, IC_ERR_PARSE, "%s", "CELL_TYPES before CELLS");
    if (r->cellTypes)
        return vtkError(r, IC_ERR_UNSUPPORTED, "%s", "more than one CELL_TYPES section");
    if (n != r->cellCount)
        return vtkError(r, IC_ERR_PARSE, "%s", "CELL_TYPES count differs from the CELLS count");
    long long *values = r->binary ? NULL : IC_ALLOC(long long, n + 1);
    r->cellTypeLine = r->binary ? NULL : IC_ALLOC(int, n + 1);
    r->cellTypes = IC_ALLOC(int, n + 1);
    if ((!r->binary && (!values || !r->cellTypeLine)) || !r->cellTypes) {
        icFree(values);
        return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    }
    startData(r);
    if (r->binary) {
        if ((result = needBytes(r, 4 * (size_t)n, "cell types")) == IC_OK) {
            r->cellTypesAt = r->c.p;
            for (int i = 0; i < n; ++i)
                r->cellTypes[i] = icFmt_I32(r->c.p + 4 * (size_t)i, r->swap);
            r->c.p += 4 * (size_t)n;
        }
    } else {
        result = readInts(r, IC_SCALAR_I32, (size_t)n, values, r->cellTypeLine, "cell types");
        for (int i = 0; result == IC_OK && i < n; ++i) {
            if (values[i] < INT32_MIN || values[i] > INT32_MAX)
                result = icDiag_Set(r->diag, IC_ERR_PARSE, r->path, r->cellTypeLine[i],
                                    "cell %d has type %lld, which no version of VTK defines", i,
                                    values[i]);
            r->cellTypes[i] = (int)values[i];
        }
    }
    icFree(values);
    return result;
}

// What only the cell types can settle, once the file is read: a type number VTK never
// assigned is damage, not a cell to skip; a value in CELLS that is no point index is damage
// except in a polyhedron (VTK_POLYHEDRON 42: "faces, then per face its point count and
// points").
static icResult checkCells(icVtkReader *r) {
    for (int i = 0; i < r->cellCount; ++i) {
        int type = r->cellTypes[i];
        if (!icVtk_IsCellType(type)) {
            if (r->cellTypesAt)
                return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, 0,
                                  "cell %d has type %d, which no version of VTK defines "
                                  "(byte %td)",
                                  i, type, r->cellTypesAt + 4 * (size_t)i - r->c.begin);
            return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, r->cellTypeLine[i],
                              "cell %d has type %d, which no version of VTK defines", i, type);
        }
        if (r->bad && r->bad[i] && type != 42) return checkIndex(r, r->badValue[i], r->badLine[i]);
    }
    return IC_OK;
}

// Skips a 5.1 METADATA block: everything up to the next empty line.
static void skipMetadata(icVtkReader *r) {
    icText_SkipLine(&r->c);
    while (r->c.p < r->c.end) {
        const char *p = r->c.p;
        while (p < r->c.end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
        bool empty = p >= r->c.end || *p == '\n';
        icText_SkipLine(&r->c);
        if (empty) break;
    }
}

// One attribute array: tuples x components values, kept as a field.
static icResult readAttribute(icVtkReader *r, const char *name, int components, int tuples,
                              icScalarType type, bool perCell) {
    icReal *data = IC_ALLOC(icReal, (size_t)components * (size_t)tuples + 1);
    if (!data) return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    icResult result = readReals(r, type, (size_t)components * (size_t)tuples, data, name);
    if (result != IC_OK) {
        icFree(data);
        return result;
    }
    if (!icFmt_AddField(&r->fields, name, components, perCell, data))
        return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    return IC_OK;
}

static icResult readFieldArrays(icVtkReader *r, int tuplesExpected, bool perCell, bool keep) {
    char name[64];
    long long arrays;
    icResult result = icText_Word(&r->c, name, sizeof name, "field name");
    if (result == IC_OK) result = icText_IntIn(&r->c, 0, 1 << 20, &arrays, "array count");
    if (result != IC_OK) return result;
    for (long long a = 0; a < arrays; ++a) {
        long long components, tuples;
        icScalarType type;
        if ((result = icText_Word(&r->c, name, sizeof name, "array name")) != IC_OK) return result;
        if (strcmp(name, "NULL_ARRAY") == 0) continue;
        if ((result = icText_IntIn(&r->c, 1, 1 << 20, &components, "component count")) != IC_OK ||
            (result = readCount(r, &tuples, "tuple count", 1)) != IC_OK ||
            (result = readType(r, &type)) != IC_OK)
            return result;
        startData(r);
        if (keep && tuples == tuplesExpected && components <= 9) {
            result = readAttribute(r, name, (int)components, (int)tuples, type, perCell);
        } else {
            result = readReals(r, type, (size_t)(components * tuples), NULL, name);
        }
        if (result != IC_OK) return result;
        if (r->major >= 5 && icText_Skip(&r->c) && icText_Accept(&r->c, "METADATA"))
            skipMetadata(r);
    }
    return IC_OK;
}

// POINT_DATA n / CELL_DATA n and the attributes after it, until another section starts.
static icResult readData(icVtkReader *r, bool perCell) {
    long long n;
    icResult result = readCount(r, &n, perCell ? "CELL_DATA count" : "POINT_DATA count", 1);
    if (result != IC_OK) return result;
    if (n != (perCell ? r->cellCount : r->pointCount))
        return vtkError(r, IC_ERR_PARSE, "%s",
                        perCell ? "CELL_DATA count differs from the cell count"
                                : "POINT_DATA count differs from the point count");
    for (;;) {
        if (!icText_Skip(&r->c)) return IC_OK;
        char word[64], name[64];
        const char *save = r->c.p;
        int saveLine = r->c.line;
        icText_Word(&r->c, word, sizeof word, "an attribute");
        icScalarType type = IC_SCALAR_NONE;
        int components = 0;
        if (strcasecmp(word, "SCALARS") == 0) {
            long long k = 1;
            if ((result = icText_Word(&r->c, name, sizeof name, "array name")) != IC_OK ||
                (result = readType(r, &type)) != IC_OK)
                return result;
            if (icText_SkipInLine(&r->c) &&
                (result = icText_IntIn(&r->c, 1, 4, &k, "component count")) != IC_OK)
                return result;
            components = (int)k;
            // LOOKUP_TABLE line (required by the format, tolerated when missing)
            if (r->binary) {
                icText_SkipLine(&r->c);
                if (r->c.end - r->c.p >= 12 && strncmp(r->c.p, "LOOKUP_TABLE", 12) == 0)
                    icText_SkipLine(&r->c);
            } else if (icText_Accept(&r->c, "LOOKUP_TABLE")) {
                char table[64];
                if ((result = icText_Word(&r->c, table, sizeof table, "table name")) != IC_OK)
                    return result;
            }
        } else if (strcasecmp(word, "VECTORS") == 0 || strcasecmp(word, "NORMALS") == 0 ||
                   strcasecmp(word, "TENSORS") == 0 || strcasecmp(word, "GLOBAL_IDS") == 0 ||
                   strcasecmp(word, "PEDIGREE_IDS") == 0) {
            if ((result = icText_Word(&r->c, name, sizeof name, "array name")) != IC_OK ||
                (result = readType(r, &type)) != IC_OK)
                return result;
            components =
                toupper((unsigned char)word[0]) == 'T' ? 9
                : (toupper((unsigned char)word[0]) == 'G' || toupper((unsigned char)word[0]) == 'P')
                    ? 1
                    : 3;
            startData(r);
        } else if (strcasecmp(word, "FIELD") == 0) {
            if ((result = readFieldArrays(r, (int)n, perCell, true)) != IC_OK) return result;
            continue;
        } else if (strcasecmp(word, "METADATA") == 0) {
            skipMetadata(r);
            continue;
        } else if (strcasecmp(word, "LOOKUP_TABLE") == 0) {
            long long size;
            if ((result = icText_Word(&r->c, name, sizeof name, "table name")) != IC_OK ||
                (result = readCount(r, &size, "table size", 1)) != IC_OK)
                return result;
            startData(r);
            if ((result = readReals(r, r->binary ? IC_SCALAR_U8 : IC_SCALAR_F32, 4 * (size_t)size,
                                    NULL, "lookup table")) != IC_OK)
                return result;
            continue;
        } else if (strcasecmp(word, "COLOR_SCALARS") == 0 ||
                   strcasecmp(word, "TEXTURE_COORDINATES") == 0) {
            long long k;
            if ((result = icText_Word(&r->c, name, sizeof name, "array name")) != IC_OK ||
                (result = icText_IntIn(&r->c, 1, 9, &k, "component count")) != IC_OK)
                return result;
            if (toupper((unsigned char)word[0]) == 'T') {
                if ((result = readType(r, &type)) != IC_OK) return result;
            } else {
                type = r->binary ? IC_SCALAR_U8 : IC_SCALAR_F32;
            }
            components = (int)k;
            startData(r);
        } else {
            // Another section (CELL_DATA after POINT_DATA, ...): hand back to the caller.
            r->c.p = save;
            r->c.line = saveLine;
            return IC_OK;
        }
        if ((result = readAttribute(r, name, components, (int)n, type, perCell)) != IC_OK)
            return result;
    }
}

static icResult readHeader(icVtkReader *r) {
    icTextCursor *c = &r->c;
    // "# vtk DataFile Version x.y"
    if (!icText_Accept(c, "#") || !icText_Accept(c, "vtk") || !icText_Accept(c, "DataFile") ||
        !icText_Accept(c, "Version"))
        return icText_Error(c, IC_ERR_PARSE, "expected '# vtk DataFile Version x.y'");
    char version[32];
    icResult result = icText_Word(c, version, sizeof version, "the version");
    if (result != IC_OK) return result;
    if (sscanf(version, "%d.%d", &r->major, &r->minor) != 2 || r->major < 1 || r->major > 5 ||
        (r->major == 5 && r->minor > 1))
        return icText_Error(c, IC_ERR_UNSUPPORTED,
                            "VTK legacy version %s is not supported (1.0 to 5.1 are)", version);
    icText_SkipLine(c);
    icText_SkipLine(c); // title
    char word[64];
    if ((result = icText_Word(c, word, sizeof word, "ASCII or BINARY")) != IC_OK) return result;
    if (strcasecmp(word, "BINARY") == 0)
        r->binary = true;
    else if (strcasecmp(word, "ASCII") != 0)
        return icText_Error(c, IC_ERR_PARSE, "expected ASCII or BINARY, found '%s'", word);
    r->swap = icFmt_HostLittle();
    if (!icText_Accept(c, "DATASET")) return icText_Error(c, IC_ERR_PARSE, "expected DATASET");
    if ((result = icText_Word(c, word, sizeof word, "the data set type")) != IC_OK) return result;
    if (strcasecmp(word, "UNSTRUCTURED_GRID") != 0)
        return icText_Error(c, IC_ERR_UNSUPPORTED,
                            "DATASET %s has no tetrahedra (UNSTRUCTURED_GRID does)", word);
    return IC_OK;
}

static icResult readSections(icVtkReader *r) {
    icResult result = readHeader(r);
    if (result != IC_OK) return result;
    while (icText_Skip(&r->c)) {
        char word[64];
        icText_Word(&r->c, word, sizeof word, "a section");
        if (strcasecmp(word, "POINTS") == 0) {
            result = readPoints(r);
        } else if (strcasecmp(word, "CELLS") == 0) {
            result = readCells(r);
        } else if (strcasecmp(word, "CELL_TYPES") == 0) {
            result = readCellTypes(r);
        } else if (strcasecmp(word, "POINT_DATA") == 0 || strcasecmp(word, "CELL_DATA") == 0) {
            if (!r->cellTypes) return vtkError(r, IC_ERR_PARSE, "%s before the cells", word);
            result = readData(r, toupper((unsigned char)word[0]) == 'C');
        } else if (strcasecmp(word, "FIELD") == 0) {
            result = readFieldArrays(r, -1, false, false);
        } else if (strcasecmp(word, "METADATA") == 0) {
            skipMetadata(r);
        } else {
            return vtkError(r, IC_ERR_PARSE, "unexpected '%s'", word);
        }
        if (result != IC_OK) return result;
    }
    if (!r->points) return vtkError(r, IC_ERR_EMPTY, "%s", "no POINTS");
    if (!r->cellTypes) return vtkError(r, IC_ERR_EMPTY, "%s", "no CELLS and CELL_TYPES");
    return IC_OK;
}

// Keeps the tetrahedra (VTK_TETRA 10, VTK_QUADRATIC_TETRA 24 by its corners).
static icResult buildMesh(icVtkReader *r, icReadOut *out) {
    icResult checked = checkCells(r);
    if (checked != IC_OK) return checked;
    int tetCount = 0;
    bool *keep = IC_ALLOC_ZERO(bool, r->cellCount + 1);
    if (!keep) return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    for (int i = 0; i < r->cellCount; ++i) {
        long long size = cellSize(r, i);
        int type = r->cellTypes[i];
        int expected = icFmt_VtkCellSize(type);
        if (expected >= 0 && size != expected) {
            icFree(keep);
            return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, r->cellLine ? r->cellLine[i] : 0,
                              "cell %d of type %d has %lld points (expected %d)", i, type, size,
                              expected);
        }
        if (type == 10 || type == 24) {
            keep[i] = true;
            ++tetCount;
            if (type == 24) ++out->info->quadraticTets;
        } else {
            ++out->info->skippedElements;
        }
    }
    if (tetCount == 0) {
        icFree(keep);
        return icDiag_Set(r->diag, IC_ERR_EMPTY, r->path, 0,
                          "no tetrahedra (%d other cells skipped)", out->info->skippedElements);
    }
    icResult result = icTetMesh_Create(out->mesh, r->pointCount, tetCount);
    int *lines = r->binary ? NULL : IC_ALLOC(int, tetCount);
    int *regions = IC_ALLOC_ZERO(int, tetCount);
    if (result == IC_OK && ((!r->binary && !lines) || !regions))
        result = icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    if (result == IC_OK) {
        memcpy(out->mesh->positions, r->points, sizeof(icReal) * 3 * (size_t)r->pointCount);
        int t = 0;
        for (int i = 0; i < r->cellCount; ++i) {
            if (!keep[i]) continue;
            int *tet = out->mesh->tets + 4 * (size_t)t;
            for (int k = 0; k < 4; ++k) tet[k] = cellVertex(r, i, k);
            icFmt_SwapHandedness(tet);
            if (lines) lines[t] = r->cellLine[i];
            ++t;
        }
        icFmt_FilterCellFields(&r->fields, keep, r->cellCount);
        for (int f = 0; f < r->fields.count; ++f) {
            const icMeshField *field = &r->fields.items[f];
            if (field->perCell && field->components == 1 && icFmt_IsRegionName(field->name)) {
                // Region ids are integers; a "region" array holding other numbers stays a plain field.
                bool usable = true;
                for (int k = 0; k < tetCount; ++k) {
                    usable = usable && fabs(field->data[k]) < 2147483647.0;
                    regions[k] = usable ? (int)field->data[k] : 0;
                }
                if (!usable) continue;
                result = icFmt_SetRegions(out->mesh, regions, out->info);
                break;
            }
        }
    }
    if (result == IC_OK && out->fields) {
        *out->fields = r->fields;
        memset(&r->fields, 0, sizeof r->fields);
    }
    if (result == IC_OK) result = icFmt_DropUnusedVertices(out->mesh, out->fields, out->info);
    if (result == IC_OK) {
        out->tetLines = lines;
        lines = NULL;
    }
    icFree(lines);
    icFree(regions);
    icFree(keep);
    return result;
}

icResult icFmt_ReadVtk(const char *path, const char *text, size_t size, icReadOut *out,
                       icDiagnostic *diag) {
    icVtkReader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.diag = diag;
    icText_Init(&r.c, text, size, path, diag, 0);
    icResult result = readSections(&r);
    if (result == IC_OK) result = buildMesh(&r, out);
    snprintf(out->info->formatName, sizeof out->info->formatName, "vtk %d.%d %s", r.major, r.minor,
             r.binary ? "binary" : "ascii");
    icFree(r.points);
    icFree(r.cellStart);
    icFree(r.cellIndex);
    icFree(r.cellLine);
    icFree(r.cellTypes);
    icFree(r.bad);
    icFree(r.badValue);
    icFree(r.badLine);
    icFree(r.cellTypeLine);
    icMeshFields_Destroy(&r.fields);
    return result;
}
