// SPDX-License-Identifier: MIT
// VTK XML unstructured grid reader (.vtu): DataArrays in ascii, inline base64 ("binary")
// or appended (raw or base64), optionally zlib-compressed, UInt32 or UInt64 headers, either
// byte order. Point and cell data become fields.
#include "formats/fmt_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <zlib.h>

#define IC_VTU_MAX_FIELDS 64

typedef enum icVtuEncoding { IC_VTU_ASCII, IC_VTU_BINARY, IC_VTU_APPENDED } icVtuEncoding;

typedef struct icVtuArray {
    bool present;
    char name[64];
    icScalarType type;
    int components;
    icVtuEncoding encoding;
    long long offset;                 ///< appended: bytes (or base64 characters) after '_'
    const char *content, *contentEnd; ///< inline: the text of the values, in the file
    const char *tagAt;                ///< the DataArray tag ('<')
    int line;                         ///< its line
} icVtuArray;

typedef struct icVtuReader {
    const char *path;
    const char *text, *textEnd;
    icDiagnostic *diag;
    bool swap;                          ///< data in the other byte order than the host's
    bool header64;                      ///< UInt64 block headers
    bool compressed;                    ///< vtkZLibDataCompressor
    const char *appended, *appendedEnd; ///< after '_'
    bool appendedBase64;
    int appendedLine; ///< of the AppendedData tag
    long long pointCount, cellCount;
    icVtuArray points, connectivity, offsets, types;
    icVtuArray fields[IC_VTU_MAX_FIELDS];
    bool fieldPerCell[IC_VTU_MAX_FIELDS];
    int fieldCount;
    // The walk over the XML: where it is.
    bool sawFile, inPoints, inCells, inPointData, inCellData;
    int pieces;
    int arrayDepth;       ///< depth of the open DataArray, -1 outside one
    icVtuArray array;     ///< the open DataArray
    const char *textFrom; ///< start of the text directly inside it since its tag or a child
} icVtuReader;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static icResult
vtuError(icVtuReader *r, icResult code, int line, const char *format, ...) {
    char message[600];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return icDiag_Set(r->diag, code, r->path, line, "%s", message);
}

static icScalarType typeOf(const char *name) {
    static const struct {
        const char *name;
        icScalarType type;
    } table[] = {{"Int8", IC_SCALAR_I8},     {"UInt8", IC_SCALAR_U8},   {"Int16", IC_SCALAR_I16},
                 {"UInt16", IC_SCALAR_U16},  {"Int32", IC_SCALAR_I32},  {"UInt32", IC_SCALAR_U32},
                 {"Int64", IC_SCALAR_I64},   {"UInt64", IC_SCALAR_U64}, {"Float32", IC_SCALAR_F32},
                 {"Float64", IC_SCALAR_F64}, {"Char", IC_SCALAR_I8},    {"Float", IC_SCALAR_F32},
                 {"Double", IC_SCALAR_F64}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
        if (strcmp(name, table[i].name) == 0) return table[i].type;
    return IC_SCALAR_NONE;
}

// ---------------------------------------------------------------------------------------
// Structure: the walk over the XML up to the AppendedData tag (raw appended bytes are not
// XML, so the walk stops there).

static icResult openDataArray(icVtuReader *r, const icXmlEvent *tag) {
    icVtuArray *a = &r->array;
    memset(a, 0, sizeof *a);
    a->present = true;
    a->tagAt = tag->at;
    a->line = tag->line;
    a->components = 1;
    const char *value = icXml_Attr(tag, "Name");
    if (value) snprintf(a->name, sizeof a->name, "%.63s", value);
    if (!(value = icXml_Attr(tag, "type")))
        return vtuError(r, IC_ERR_PARSE, tag->line, "DataArray without a type");
    a->type = typeOf(value);
    if (a->type == IC_SCALAR_NONE)
        return vtuError(r, IC_ERR_UNSUPPORTED, tag->line, "DataArray type '%.64s' is not supported",
                        value);
    if ((value = icXml_Attr(tag, "NumberOfComponents"))) {
        a->components = atoi(value);
        if (a->components < 1 || a->components > 1 << 16)
            return vtuError(r, IC_ERR_PARSE, tag->line, "bad NumberOfComponents '%.64s'", value);
    }
    if (!(value = icXml_Attr(tag, "format"))) value = "ascii";
    if (strcmp(value, "ascii") == 0) {
        a->encoding = IC_VTU_ASCII;
    } else if (strcmp(value, "binary") == 0) {
        a->encoding = IC_VTU_BINARY;
    } else if (strcmp(value, "appended") == 0) {
        a->encoding = IC_VTU_APPENDED;
        if (!(value = icXml_Attr(tag, "offset")))
            return vtuError(r, IC_ERR_PARSE, tag->line, "appended DataArray without an offset");
        char *end;
        a->offset = strtoll(value, &end, 10);
        if (end == value || *end || a->offset < 0)
            return vtuError(r, IC_ERR_PARSE, tag->line, "bad offset '%.64s'", value);
    } else {
        return vtuError(r, IC_ERR_UNSUPPORTED, tag->line,
                        "DataArray format '%.64s' is not supported", value);
    }
    // An empty array has empty content (not none), so readers meet a clean end.
    a->content = a->contentEnd = tag->end;
    r->arrayDepth = tag->depth;
    r->textFrom = tag->end;
    return IC_OK;
}

// The text directly inside the open DataArray from textFrom to end: its values when it holds
// any. Child elements (VTK's <InformationKey>) and comments split it into runs; values must
// lie in one of them.
static icResult takeText(icVtuReader *r, const char *end) {
    const char *from = r->textFrom;
    if (end <= from || icXml_IsBlank(from, end)) return IC_OK;
    icVtuArray *a = &r->array;
    if (a->contentEnd > a->content)
        return vtuError(r, IC_ERR_PARSE, a->line,
                        "DataArray '%s' has values on both sides of an element inside it", a->name);
    // Values are read from the file's text, so they may not need XML decoding.
    if (memchr(from, '&', (size_t)(end - from)) || memchr(from, '<', (size_t)(end - from)))
        return vtuError(r, IC_ERR_UNSUPPORTED, a->line,
                        "DataArray '%s': entity references and CDATA in values are not supported",
                        a->name);
    a->content = from;
    a->contentEnd = end;
    return IC_OK;
}

// The DataArray is complete: keep it where it belongs.
static void closeDataArray(icVtuReader *r) {
    r->arrayDepth = -1;
    const icVtuArray *a = &r->array;
    if (r->pieces == 0) return; // FieldData of the grid
    if (r->inPoints && !r->points.present) {
        r->points = *a;
    } else if (r->inCells) {
        if (strcmp(a->name, "connectivity") == 0)
            r->connectivity = *a;
        else if (strcmp(a->name, "offsets") == 0)
            r->offsets = *a;
        else if (strcmp(a->name, "types") == 0)
            r->types = *a;
    } else if ((r->inPointData || r->inCellData) && r->fieldCount < IC_VTU_MAX_FIELDS &&
               a->components <= 9) {
        r->fieldPerCell[r->fieldCount] = r->inCellData;
        r->fields[r->fieldCount++] = *a;
    }
}

static icResult parseHeader(icVtuReader *r, const icXmlEvent *tag) {
    const char *value = icXml_Attr(tag, "type");
    if (!value || strcmp(value, "UnstructuredGrid") != 0)
        return vtuError(r, IC_ERR_UNSUPPORTED, tag->line,
                        "VTKFile type '%.64s' is not supported (UnstructuredGrid is)",
                        value ? value : "");
    value = icXml_Attr(tag, "byte_order");
    bool big = value && strcmp(value, "BigEndian") == 0;
    r->swap = big == icFmt_HostLittle();
    if ((value = icXml_Attr(tag, "header_type"))) {
        if (strcmp(value, "UInt64") == 0)
            r->header64 = true;
        else if (strcmp(value, "UInt32") != 0)
            return vtuError(r, IC_ERR_UNSUPPORTED, tag->line,
                            "header_type %.64s is not supported (UInt32, UInt64)", value);
    }
    if ((value = icXml_Attr(tag, "compressor")) && value[0]) {
        if (strcmp(value, "vtkZLibDataCompressor") != 0)
            return vtuError(r, IC_ERR_UNSUPPORTED, tag->line,
                            "compressor %.64s is not supported (vtkZLibDataCompressor is)", value);
        r->compressed = true;
    }
    return IC_OK;
}

static icResult parsePiece(icVtuReader *r, const icXmlEvent *tag) {
    if (++r->pieces > 1) return vtuError(r, IC_ERR_UNSUPPORTED, tag->line, "more than one Piece");
    const char *value;
    char *end;
    if (!(value = icXml_Attr(tag, "NumberOfPoints")) ||
        (r->pointCount = strtoll(value, &end, 10)) < 0 || *end || end == value ||
        r->pointCount > INT32_MAX)
        return vtuError(r, IC_ERR_PARSE, tag->line, "Piece lacks a valid NumberOfPoints");
    if (!(value = icXml_Attr(tag, "NumberOfCells")) ||
        (r->cellCount = strtoll(value, &end, 10)) < 0 || *end || end == value ||
        r->cellCount > INT32_MAX)
        return vtuError(r, IC_ERR_PARSE, tag->line, "Piece lacks a valid NumberOfCells");
    // Every point and cell takes at least a byte of the file (zlib packs at most about
    // 1000:1): larger counts are corrupt, and must not size allocations.
    long long limit = (long long)(r->textEnd - r->text) * (r->compressed ? 1100 : 1) + 16;
    if (r->pointCount > limit || r->cellCount > limit)
        return vtuError(r, IC_ERR_TRUNCATED, tag->line,
                        "file too short for %lld points and %lld cells", r->pointCount,
                        r->cellCount);
    return IC_OK;
}

// <AppendedData encoding="raw|base64"> then '_' and the data: the walk ends here.
static icResult parseAppended(icVtuReader *r, const icXmlEvent *tag) {
    r->appendedLine = tag->line;
    const char *value = icXml_Attr(tag, "encoding");
    if (value && strcmp(value, "base64") != 0 && strcmp(value, "raw") != 0)
        return vtuError(r, IC_ERR_UNSUPPORTED, tag->line, "AppendedData encoding '%.64s'", value);
    r->appendedBase64 = value && strcmp(value, "base64") == 0;
    const char *u = memchr(tag->end, '_', (size_t)(r->textEnd - tag->end));
    if (!u) return vtuError(r, IC_ERR_PARSE, tag->line, "AppendedData lacks its '_' marker");
    r->appended = u + 1;
    r->appendedEnd = r->textEnd;
    if (r->appendedBase64) {
        // base64 text ends at the closing tag
        const char *close = memchr(r->appended, '<', (size_t)(r->textEnd - r->appended));
        if (close) r->appendedEnd = close;
    }
    return IC_OK;
}

static icResult onStart(void *context, const icXmlEvent *tag, bool *stop) {
    icVtuReader *r = context;
    if (r->arrayDepth >= 0) {
        // Inside a DataArray: its children are skipped; a DataArray there means the outer
        // one lacks its end tag.
        if (strcmp(tag->name, "DataArray") == 0 || strcmp(tag->name, "AppendedData") == 0)
            return vtuError(r, IC_ERR_PARSE, r->array.line, "DataArray is not closed");
        if (tag->depth == r->arrayDepth + 1) return takeText(r, tag->at);
        return IC_OK;
    }
    const char *name = tag->name;
    if (strcmp(name, "VTKFile") == 0) {
        r->sawFile = true;
        return parseHeader(r, tag);
    }
    if (strcmp(name, "Piece") == 0) return parsePiece(r, tag);
    if (strcmp(name, "Points") == 0) r->inPoints = true;
    if (strcmp(name, "Cells") == 0) r->inCells = true;
    if (strcmp(name, "PointData") == 0) r->inPointData = true;
    if (strcmp(name, "CellData") == 0) r->inCellData = true;
    if (strcmp(name, "DataArray") == 0) return openDataArray(r, tag);
    if (strcmp(name, "AppendedData") == 0) {
        *stop = true;
        return parseAppended(r, tag);
    }
    return IC_OK;
}

static icResult onEnd(void *context, const icXmlEvent *tag, bool *stop) {
    (void)stop;
    icVtuReader *r = context;
    if (r->arrayDepth >= 0) {
        if (tag->depth == r->arrayDepth + 1) r->textFrom = tag->end; // a child ended
        if (tag->depth > r->arrayDepth) return IC_OK;
        icResult result = takeText(r, tag->at);
        if (result == IC_OK) closeDataArray(r);
        return result;
    }
    const char *name = tag->name;
    if (strcmp(name, "Points") == 0) r->inPoints = false;
    if (strcmp(name, "Cells") == 0) r->inCells = false;
    if (strcmp(name, "PointData") == 0) r->inPointData = false;
    if (strcmp(name, "CellData") == 0) r->inCellData = false;
    return IC_OK;
}

// A comment or processing instruction directly inside a DataArray splits its text.
static icResult onOther(void *context, const icXmlEvent *markup, bool *stop) {
    (void)stop;
    icVtuReader *r = context;
    if (r->arrayDepth < 0 || markup->depth != r->arrayDepth + 1) return IC_OK;
    icResult result = takeText(r, markup->at);
    r->textFrom = markup->end;
    return result;
}

static icResult onMalformed(void *context, int line, bool unclosed, const char *reason) {
    icVtuReader *r = context;
    if (unclosed && r->arrayDepth >= 0)
        return vtuError(r, IC_ERR_PARSE, r->array.line, "DataArray is not closed");
    return vtuError(r, IC_ERR_PARSE, line, "malformed XML: %s", reason);
}

static icResult parseStructure(icVtuReader *r) {
    static const icXmlHandlers handlers = {onStart, onEnd, onOther, onMalformed};
    r->arrayDepth = -1;
    icResult result =
        icXml_Walk(r->path, r->text, (size_t)(r->textEnd - r->text), &handlers, r, r->diag);
    if (result != IC_OK) return result;
    if (!r->sawFile) return vtuError(r, IC_ERR_PARSE, 1, "no VTKFile element");
    if (r->pieces == 0) return vtuError(r, IC_ERR_PARSE, 0, "no Piece element");
    if (!r->points.present) return vtuError(r, IC_ERR_PARSE, 0, "no Points DataArray");
    if (!r->connectivity.present || !r->offsets.present || !r->types.present)
        return vtuError(r, IC_ERR_PARSE, 0, "Cells needs connectivity, offsets and types arrays");
    return IC_OK;
}

// ---------------------------------------------------------------------------------------
// Data

// The line to blame for an array's data: the AppendedData tag's for appended data (the bytes
// have no lines of their own), else the DataArray's.
static int dataLine(const icVtuReader *r, const icVtuArray *a) {
    return a->encoding == IC_VTU_APPENDED && r->appended ? r->appendedLine : a->line;
}

static int newlines(const char *p, const char *end) {
    int count = 0;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
        ++count;
        ++p;
    }
    return count;
}

typedef struct icByteSource {
    bool base64;
    icBase64 b64;
    const char *p, *end;
} icByteSource;

static bool sourceRead(icByteSource *s, void *out, size_t n) {
    if (s->base64) return icBase64_Read(&s->b64, out, n);
    if ((size_t)(s->end - s->p) < n) return false;
    memcpy(out, s->p, n);
    s->p += n;
    return true;
}

static icResult sourceError(icVtuReader *r, const icVtuArray *a, icByteSource *s,
                            const char *what) {
    if (s->base64 && s->b64.bad)
        return vtuError(r, IC_ERR_PARSE,
                        a->encoding == IC_VTU_BINARY ? icText_LineOf(r->text, s->b64.badAt)
                                                     : dataLine(r, a),
                        "DataArray '%s': invalid base64 in %s", a->name, what);
    return vtuError(r, IC_ERR_TRUNCATED, dataLine(r, a), "DataArray '%s': data ends inside %s",
                    a->name, what);
}

static bool readHeaderWord(icVtuReader *r, icByteSource *s, uint64_t *value) {
    uint8_t b[8];
    if (!sourceRead(s, b, r->header64 ? 8 : 4)) return false;
    *value = r->header64 ? icFmt_U64(b, r->swap) : icFmt_U32(b, r->swap);
    return true;
}

// The raw bytes of a binary or appended array (bytes = count * element size, file order):
// *data points into the file for uncompressed raw appended data, else into *owned, which
// this allocates (free it with icFree).
static icResult loadBytes(icVtuReader *r, const icVtuArray *a, size_t bytes, uint8_t **owned,
                          const uint8_t **data) {
    *owned = NULL;
    *data = NULL;
    icByteSource s;
    memset(&s, 0, sizeof s);
    if (a->encoding == IC_VTU_BINARY) {
        s.base64 = true;
        icBase64_Init(&s.b64, a->content, a->contentEnd);
    } else {
        if (!r->appended)
            return vtuError(r, IC_ERR_PARSE, dataLine(r, a),
                            "DataArray '%s' is appended but there is no AppendedData", a->name);
        if (a->offset > r->appendedEnd - r->appended)
            return vtuError(r, IC_ERR_TRUNCATED, dataLine(r, a),
                            "DataArray '%s': offset %lld is past the end of the file", a->name,
                            a->offset);
        s.base64 = r->appendedBase64;
        if (s.base64) icBase64_Init(&s.b64, r->appended + a->offset, r->appendedEnd);
        s.p = r->appended + a->offset;
        s.end = r->appendedEnd;
    }
    if (!r->compressed) {
        uint64_t size;
        if (!readHeaderWord(r, &s, &size)) return sourceError(r, a, &s, "its header");
        if (size != bytes)
            return vtuError(r, IC_ERR_PARSE, dataLine(r, a),
                            "DataArray '%s' holds %llu bytes, expected %zu", a->name,
                            (unsigned long long)size, bytes);
        if (!s.base64) {
            // Raw data is used where it lies in the file.
            if ((size_t)(s.end - s.p) < bytes) return sourceError(r, a, &s, "its values");
            *data = (const uint8_t *)s.p;
            return IC_OK;
        }
    }
    uint8_t *out = IC_ALLOC(uint8_t, bytes + 1);
    if (!out) return vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
    *owned = out;
    *data = out;
    if (!r->compressed) {
        if (!sourceRead(&s, out, bytes)) return sourceError(r, a, &s, "its values");
        return IC_OK;
    }
    // Compressed: [blocks][block size][last block size][compressed size of each block]
    uint64_t blocks, blockSize, lastSize;
    if (!readHeaderWord(r, &s, &blocks) || !readHeaderWord(r, &s, &blockSize) ||
        !readHeaderWord(r, &s, &lastSize))
        return sourceError(r, a, &s, "its compression header");
    uint64_t total = blocks == 0 ? 0 : (blocks - 1) * blockSize + (lastSize ? lastSize : blockSize);
    if (blocks > (1u << 30) || blockSize > (1ull << 40) || total != bytes || (blocks && !blockSize))
        return vtuError(r, IC_ERR_PARSE, dataLine(r, a),
                        "DataArray '%s': compression header gives %llu bytes, expected %zu",
                        a->name, (unsigned long long)total, bytes);
    uint64_t *sizes = IC_ALLOC(uint64_t, blocks + 1);
    if (!sizes) return vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
    uint64_t largest = 0;
    icResult result = IC_OK;
    for (uint64_t b = 0; b < blocks; ++b) {
        if (!readHeaderWord(r, &s, &sizes[b])) {
            result = sourceError(r, a, &s, "its compression header");
            break;
        }
        if (sizes[b] > largest) largest = sizes[b];
    }
    if (result == IC_OK && largest > (uint64_t)(r->textEnd - r->text))
        result = vtuError(r, IC_ERR_TRUNCATED, dataLine(r, a),
                          "DataArray '%s': a compressed block is larger than the file", a->name);
    uint8_t *packed = result == IC_OK ? IC_ALLOC(uint8_t, largest + 1) : NULL;
    if (result == IC_OK && !packed) result = vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
    for (uint64_t b = 0; result == IC_OK && b < blocks; ++b) {
        uLongf expected = (uLongf)((b + 1 == blocks && lastSize) ? lastSize : blockSize);
        if (!sourceRead(&s, packed, sizes[b])) {
            result = sourceError(r, a, &s, "a compressed block");
            break;
        }
        uLongf got = expected;
        int z = uncompress(out + b * blockSize, &got, packed, (uLong)sizes[b]);
        if (z != Z_OK || got != expected)
            result = vtuError(r, IC_ERR_PARSE, dataLine(r, a),
                              "DataArray '%s': compressed block %llu is corrupt (zlib: %s)",
                              a->name, (unsigned long long)b, z == Z_OK ? "wrong size" : zError(z));
    }
    icFree(packed);
    icFree(sizes);
    return result;
}

// Values of an array as doubles (reals) or integers (ints), exactly count of them.
// lines (optional, ascii) gets each value's line.
static icResult loadValues(icVtuReader *r, const icVtuArray *a, size_t count, icReal *reals,
                           long long *ints, int *lines) {
    if (a->encoding == IC_VTU_ASCII) {
        icTextCursor c;
        icText_Init(&c, a->content, (size_t)(a->contentEnd - a->content), r->path, r->diag, 0);
        c.line = a->line + newlines(a->tagAt, a->content);
        // The content is not NUL-terminated: parse a copy of any number that touches the end.
        for (size_t i = 0; i < count; ++i) {
            icResult result;
            if (reals) {
                double v;
                result = icText_Real(&c, &v, a->name[0] ? a->name : "DataArray value");
                reals[i] = v;
            } else {
                result = icText_Int(&c, &ints[i], a->name[0] ? a->name : "DataArray value");
            }
            if (result == IC_ERR_TRUNCATED)
                return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, c.line,
                                  "DataArray '%s' has %zu values, expected %zu", a->name, i, count);
            if (result != IC_OK) return result;
            if (lines) lines[i] = c.line;
        }
        if (icText_Skip(&c))
            return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, c.line,
                              "DataArray '%s' has more than the %zu values expected", a->name,
                              count);
        return IC_OK;
    }
    size_t size = (size_t)icScalar_Size(a->type);
    uint8_t *owned;
    const uint8_t *bytes;
    icResult result = loadBytes(r, a, count * size, &owned, &bytes);
    if (result == IC_OK && reals) {
        if (a->type == IC_SCALAR_F64) {
            for (size_t i = 0; i < count; ++i) reals[i] = icFmt_F64(bytes + 8 * i, r->swap);
        } else if (a->type == IC_SCALAR_F32) {
            for (size_t i = 0; i < count; ++i) reals[i] = icFmt_F32(bytes + 4 * i, r->swap);
        } else {
            for (size_t i = 0; i < count; ++i) reals[i] = icScalar_Get(a->type, bytes, i, r->swap);
        }
        for (size_t i = 0; i < count; ++i)
            if (!isfinite(reals[i])) {
                result = vtuError(r, IC_ERR_NOT_FINITE, dataLine(r, a),
                                  "DataArray '%s': value %zu is not finite", a->name, i);
                break;
            }
    } else if (result == IC_OK) {
        bool ok = true;
        if (a->type == IC_SCALAR_I64) {
            for (size_t i = 0; i < count; ++i) {
                int64_t v = (int64_t)icFmt_U64(bytes + 8 * i, r->swap);
                ok &= v < (1ll << 62) && v > -(1ll << 62);
                ints[i] = v;
            }
        } else if (a->type == IC_SCALAR_I32) {
            for (size_t i = 0; i < count; ++i) ints[i] = icFmt_I32(bytes + 4 * i, r->swap);
        } else if (a->type == IC_SCALAR_U8) {
            for (size_t i = 0; i < count; ++i) ints[i] = bytes[i];
        } else {
            for (size_t i = 0; i < count; ++i)
                ints[i] = icScalar_GetInt(a->type, bytes, i, r->swap, &ok);
        }
        if (!ok)
            result = vtuError(r, IC_ERR_PARSE, dataLine(r, a), "DataArray '%s': value out of range",
                              a->name);
    }
    icFree(owned);
    return result;
}

// Connectivity straight into ints, each checked against the point count (the largest array,
// so it skips the 64-bit staging copy).
static icResult loadIndices(icVtuReader *r, const icVtuArray *a, size_t count, int *out, int *lines,
                            long long pointCount) {
    if (a->encoding == IC_VTU_ASCII) {
        long long *values = IC_ALLOC(long long, count + 1);
        if (!values) return vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
        icResult result = loadValues(r, a, count, NULL, values, lines);
        for (size_t k = 0; result == IC_OK && k < count; ++k) {
            if (values[k] < 0 || values[k] >= pointCount)
                result = icDiag_Set(r->diag, IC_ERR_INDEX_OUT_OF_RANGE, r->path, lines[k],
                                    "connectivity refers to point %lld but there are %lld points",
                                    values[k], pointCount);
            out[k] = (int)values[k];
        }
        icFree(values);
        return result;
    }
    size_t size = (size_t)icScalar_Size(a->type);
    uint8_t *owned;
    const uint8_t *bytes;
    icResult result = loadBytes(r, a, count * size, &owned, &bytes);
    if (result != IC_OK) {
        icFree(owned);
        return result;
    }
    bool ok = true;
    size_t bad = count;
    if (a->type == IC_SCALAR_I64) {
        for (size_t k = 0; k < count; ++k) {
            int64_t v = (int64_t)icFmt_U64(bytes + 8 * k, r->swap);
            if ((uint64_t)v >= (uint64_t)pointCount && bad == count) bad = k;
            out[k] = (int)v;
        }
    } else if (a->type == IC_SCALAR_I32) {
        for (size_t k = 0; k < count; ++k) {
            int32_t v = icFmt_I32(bytes + 4 * k, r->swap);
            if ((uint64_t)(int64_t)v >= (uint64_t)pointCount && bad == count) bad = k;
            out[k] = v;
        }
    } else {
        for (size_t k = 0; k < count; ++k) {
            long long v = icScalar_GetInt(a->type, bytes, k, r->swap, &ok);
            if ((v < 0 || v >= pointCount) && bad == count) bad = k;
            out[k] = (int)v;
        }
    }
    if (bad < count) {
        long long v = icScalar_GetInt(a->type, bytes, bad, r->swap, &ok);
        result =
            vtuError(r, IC_ERR_INDEX_OUT_OF_RANGE, dataLine(r, a),
                     "connectivity refers to point %lld but there are %lld points", v, pointCount);
    }
    icFree(owned);
    return result;
}

// ---------------------------------------------------------------------------------------

// Whether a count of values can be backed by this file: zlib expands at most about 1032
// times, so larger counts (claimed by a header or an offset) are refused before allocating.
static bool fitsInFile(const icVtuReader *r, double count) {
    return count <= 1032.0 * (double)(r->textEnd - r->text) + 64;
}

static icResult buildMesh(icVtuReader *r, icReadOut *out) {
    const size_t n = (size_t)r->pointCount, m = (size_t)r->cellCount;
    if (!fitsInFile(r, 3.0 * (double)n) || !fitsInFile(r, (double)m))
        return vtuError(r, IC_ERR_PARSE, 0,
                        "NumberOfPoints %zu or NumberOfCells %zu is more than the file holds", n,
                        m);
    icResult result = IC_OK;
    long long *offsets = IC_ALLOC(long long, m + 1);
    long long *types = IC_ALLOC(long long, m + 1);
    int *conn = NULL;
    int *connLines = NULL, *typeLines = NULL, *tetLines = NULL, *regions = NULL;
    bool *keep = IC_ALLOC_ZERO(bool, m + 1);
    icMeshFields fields = {0, NULL};
    if (!offsets || !types || !keep) {
        result = vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
        goto done;
    }
    if (r->points.components != 3) {
        result = vtuError(r, IC_ERR_PARSE, r->points.line, "Points must have 3 components");
        goto done;
    }
    if ((result = loadValues(r, &r->offsets, m, NULL, offsets, NULL)) != IC_OK) goto done;
    typeLines = r->types.encoding == IC_VTU_ASCII ? IC_ALLOC(int, m + 1) : NULL;
    if (r->types.encoding == IC_VTU_ASCII && !typeLines) {
        result = vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
        goto done;
    }
    if ((result = loadValues(r, &r->types, m, NULL, types, typeLines)) != IC_OK) goto done;
    long long connCount = m ? offsets[m - 1] : 0;
    for (size_t i = 0; i < m; ++i)
        if (offsets[i] < (i ? offsets[i - 1] : 0) || offsets[i] > (1ll << 40)) {
            result = vtuError(r, IC_ERR_PARSE, r->offsets.line,
                              "offsets must not decrease (cell %zu)", i);
            goto done;
        }
    if (!fitsInFile(r, (double)connCount)) {
        result =
            vtuError(r, IC_ERR_PARSE, r->offsets.line,
                     "offsets claim %lld connectivity values, more than the file holds", connCount);
        goto done;
    }
    conn = IC_ALLOC(int, connCount + 1);
    connLines = r->connectivity.encoding == IC_VTU_ASCII ? IC_ALLOC(int, connCount + 1) : NULL;
    if (!conn || (r->connectivity.encoding == IC_VTU_ASCII && !connLines)) {
        result = vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
        goto done;
    }
    if ((result = loadIndices(r, &r->connectivity, (size_t)connCount, conn, connLines,
                              (long long)n)) != IC_OK)
        goto done;
    size_t tetCount = 0;
    for (size_t i = 0; i < m; ++i) {
        long long start = i ? offsets[i - 1] : 0, size = offsets[i] - start;
        // A number VTK never gave a cell type is damage, not a cell to skip.
        if (!icVtk_IsCellType(types[i])) {
            result = vtuError(r, IC_ERR_PARSE, typeLines ? typeLines[i] : dataLine(r, &r->types),
                              "cell %zu has type %lld, which VTK does not define", i, types[i]);
            goto done;
        }
        int expected = types[i] >= 0 && types[i] < 256 ? icFmt_VtkCellSize((int)types[i]) : -1;
        if (expected >= 0 && size != expected) {
            result = vtuError(r, IC_ERR_PARSE, r->types.line,
                              "cell %zu of type %lld has %lld points (expected %d)", i, types[i],
                              size, expected);
            goto done;
        }
        if (types[i] == 10 || types[i] == 24) {
            keep[i] = true;
            ++tetCount;
            if (types[i] == 24) ++out->info->quadraticTets;
        } else {
            ++out->info->skippedElements;
        }
    }
    if (tetCount == 0) {
        result = vtuError(r, IC_ERR_EMPTY, 0, "no tetrahedra (%d other cells skipped)",
                          out->info->skippedElements);
        goto done;
    }
    // Point and cell data.
    for (int f = 0; f < r->fieldCount; ++f) {
        const icVtuArray *a = &r->fields[f];
        size_t tuples = r->fieldPerCell[f] ? m : n;
        icReal *data = IC_ALLOC(icReal, tuples * (size_t)a->components + 1);
        if (!data) {
            result = vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
            goto done;
        }
        if ((result = loadValues(r, a, tuples * (size_t)a->components, data, NULL, NULL)) !=
            IC_OK) {
            icFree(data);
            goto done;
        }
        if (!icFmt_AddField(&fields, a->name, a->components, r->fieldPerCell[f], data)) {
            result = vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
            goto done;
        }
    }
    icFmt_FilterCellFields(&fields, keep, (int)m);

    if ((result = icTetMesh_Create(out->mesh, (int)n, (int)tetCount)) != IC_OK) goto done;
    if ((result = loadValues(r, &r->points, 3 * n, out->mesh->positions, NULL, NULL)) != IC_OK)
        goto done;
    tetLines = connLines ? IC_ALLOC(int, tetCount) : NULL;
    regions = IC_ALLOC_ZERO(int, tetCount);
    if ((connLines && !tetLines) || !regions) {
        result = vtuError(r, IC_ERR_OUT_OF_MEMORY, 0, "out of memory");
        goto done;
    }
    size_t t = 0;
    for (size_t i = 0; i < m; ++i) {
        if (!keep[i]) continue;
        long long start = i ? offsets[i - 1] : 0;
        int *tet = out->mesh->tets + 4 * t;
        for (int k = 0; k < 4; ++k) tet[k] = conn[start + k];
        icFmt_SwapHandedness(tet);
        if (tetLines) tetLines[t] = connLines[start];
        ++t;
    }
    for (int f = 0; f < fields.count; ++f) {
        const icMeshField *field = &fields.items[f];
        if (field->perCell && field->components == 1 && icFmt_IsRegionName(field->name)) {
            // Region ids are integers; a "region" array holding other numbers stays a plain field.
            bool usable = true;
            for (size_t k = 0; k < tetCount; ++k) {
                usable = usable && fabs(field->data[k]) < 2147483647.0;
                regions[k] = usable ? (int)field->data[k] : 0;
            }
            if (!usable) continue;
            if ((result = icFmt_SetRegions(out->mesh, regions, out->info)) != IC_OK) goto done;
            break;
        }
    }
    if ((result = icFmt_DropUnusedVertices(out->mesh, &fields, out->info)) != IC_OK) goto done;
    out->tetLines = tetLines;
    tetLines = NULL;
    if (out->fields) {
        *out->fields = fields;
        memset(&fields, 0, sizeof fields);
    }
done:
    icMeshFields_Destroy(&fields);
    icFree(offsets);
    icFree(types);
    icFree(conn);
    icFree(connLines);
    icFree(typeLines);
    icFree(tetLines);
    icFree(regions);
    icFree(keep);
    return result;
}

icResult icFmt_ReadVtu(const char *path, const char *text, size_t size, icReadOut *out,
                       icDiagnostic *diag) {
    icVtuReader *r = IC_ALLOC_ZERO(icVtuReader, 1);
    if (!r) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    r->path = path;
    r->text = text;
    r->textEnd = text + size;
    r->diag = diag;
    icResult result = parseStructure(r);
    if (result == IC_OK) result = buildMesh(r, out);
    snprintf(out->info->formatName, sizeof out->info->formatName, "vtu %s%s",
             r->appended ? (r->appendedBase64 ? "appended base64" : "appended raw")
                         : (r->points.encoding == IC_VTU_ASCII ? "ascii" : "binary"),
             r->compressed ? " zlib" : "");
    icFree(r);
    return result;
}
