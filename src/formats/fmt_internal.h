// SPDX-License-Identifier: MIT
// Shared pieces of the format readers: a line-counting text cursor, exact number parsing,
// byte-order helpers, base64, growable arrays and the reader interface icLoadMeshEx uses.
#pragma once

#include "isochor/formats.h"

#include "core/core.h"
#include "formats/files_internal.h"

#include <string.h>

// ---------------------------------------------------------------------------------------
// Numbers

/// Parses a decimal floating-point number at p (optional sign, digits, '.', exponent; also
/// "nan", "inf", "infinity"). Returns the end of the number, or NULL when there is none.
/// *finite is false for NaN, infinities and overflow. Correctly rounded (as strtod).
const char *icFmt_ParseReal(const char *p, double *value, bool *finite);
/// Parses an optionally signed decimal integer (|v| < 2^62). NULL when there is none or it
/// overflows.
const char *icFmt_ParseInt(const char *p, long long *value);

// ---------------------------------------------------------------------------------------
// Text cursor: whitespace-separated tokens with a 1-based line count and an optional
// comment character that runs to the end of the line.

typedef struct icTextCursor {
    const char *p;     ///< current position (the buffer is NUL-terminated at end)
    const char *begin; ///< start of the buffer
    const char *end;   ///< one past the last byte
    int line;          ///< line of p
    char comment;      ///< comment character, 0 for none
    const char *path;  ///< for messages
    icDiagnostic *diag;
} icTextCursor;

void icText_Init(icTextCursor *c, const char *text, size_t size, const char *path,
                 icDiagnostic *diag, char comment);
/// Skips blanks, newlines and comments. False at the end of the text.
bool icText_Skip(icTextCursor *c);
/// Skips blanks on this line only (not newlines). False when the line (or text) ends.
bool icText_SkipInLine(icTextCursor *c);
/// Moves past the end of the current line.
void icText_SkipLine(icTextCursor *c);
/// Reads the next token as a number. what names it in messages ("node count").
/// IC_ERR_TRUNCATED at the end, IC_ERR_PARSE for a non-number, IC_ERR_NOT_FINITE.
icResult icText_Real(icTextCursor *c, double *value, const char *what);
icResult icText_Int(icTextCursor *c, long long *value, const char *what);
/// Integer in [lo, hi], else IC_ERR_PARSE (counts) naming what.
icResult icText_IntIn(icTextCursor *c, long long lo, long long hi, long long *value,
                      const char *what);
/// Copies the next token (up to size - 1 characters). IC_ERR_TRUNCATED at the end.
icResult icText_Word(icTextCursor *c, char *word, size_t size, const char *what);
/// If the next token equals word (case-insensitive), moves past it and returns true.
bool icText_Accept(icTextCursor *c, const char *word);
/// Sets the diagnostic at the cursor's line and returns code.
icResult icText_Error(icTextCursor *c, icResult code, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/// Moves the cursor forward to p (>= c->p), counting the newlines passed.
void icText_MoveTo(icTextCursor *c, const char *p);
/// Finds needle at or after the cursor (not moving it); NULL when absent.
const char *icText_Find(const icTextCursor *c, const char *needle);
/// 1-based line of position p in the buffer (counts newlines before it).
int icText_LineOf(const char *begin, const char *p);
/// The token at p for messages: up to 24 printable characters.
void icText_Quote(const char *p, const char *end, char *out, size_t size);

// ---------------------------------------------------------------------------------------
// Binary helpers (unaligned loads, either byte order)

static inline uint32_t icFmt_Bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t icFmt_Bswap64(uint64_t v) { return __builtin_bswap64(v); }

static inline int32_t icFmt_I32(const void *p, bool swap) {
    uint32_t v;
    memcpy(&v, p, 4);
    return (int32_t)(swap ? icFmt_Bswap32(v) : v);
}
static inline uint32_t icFmt_U32(const void *p, bool swap) {
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? icFmt_Bswap32(v) : v;
}
static inline uint64_t icFmt_U64(const void *p, bool swap) {
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? icFmt_Bswap64(v) : v;
}
static inline double icFmt_F64(const void *p, bool swap) {
    uint64_t v = icFmt_U64(p, swap);
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline float icFmt_F32(const void *p, bool swap) {
    uint32_t v = icFmt_U32(p, swap);
    float f;
    memcpy(&f, &v, 4);
    return f;
}
/// True on little-endian hosts (the only ones isochor is built for, but be explicit).
static inline bool icFmt_HostLittle(void) {
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/// Scalar element types of the binary formats.
typedef enum icScalarType {
    IC_SCALAR_NONE = 0,
    IC_SCALAR_I8,
    IC_SCALAR_U8,
    IC_SCALAR_I16,
    IC_SCALAR_U16,
    IC_SCALAR_I32,
    IC_SCALAR_U32,
    IC_SCALAR_I64,
    IC_SCALAR_U64,
    IC_SCALAR_F32,
    IC_SCALAR_F64,
} icScalarType;

/// Bytes per element.
int icScalar_Size(icScalarType type);
/// Element i of an array of type at p, as a double.
double icScalar_Get(icScalarType type, const void *p, size_t i, bool swap);
/// Element i as an integer (floats truncated). Sets *ok false for values beyond +-2^62.
long long icScalar_GetInt(icScalarType type, const void *p, size_t i, bool swap, bool *ok);

// ---------------------------------------------------------------------------------------
// Base64, decoded group by group: '=' padding may end a group mid-stream, so separately
// encoded header and data (as VTK writes them) decode as one stream.

typedef struct icBase64 {
    const char *p, *end;
    uint8_t pending[3];
    int pendingCount, pendingPos;
    bool bad; ///< a character outside the alphabet was met
    const char *badAt;
} icBase64;

void icBase64_Init(icBase64 *b, const char *p, const char *end);
/// Decodes exactly n bytes into out; false when the text ends first or is not base64
/// (b->bad tells which).
bool icBase64_Read(icBase64 *b, void *out, size_t n);

// ---------------------------------------------------------------------------------------
// Reader interface: readers parse a whole-file buffer into a mesh (unchecked) and may set
// tetLines so that icLoadMeshEx can name the line of an element the mesh check rejects.

typedef struct icReadOut {
    icTetMesh *mesh;
    icMeshFields *fields; ///< NULL when the caller does not want them
    icMeshFileInfo *info; ///< never NULL
    int *tetLines;        ///< (tetCount) 1-based line of each tet, or NULL (binary data)
} icReadOut;

icResult icFmt_ReadGmsh(const char *path, const char *text, size_t size, icReadOut *out,
                        icDiagnostic *diag);
icResult icFmt_ReadVtk(const char *path, const char *text, size_t size, icReadOut *out,
                       icDiagnostic *diag);
icResult icFmt_ReadVtu(const char *path, const char *text, size_t size, icReadOut *out,
                       icDiagnostic *diag);
icResult icFmt_ReadMedit(const char *path, const char *text, size_t size, icReadOut *out,
                         icDiagnostic *diag);

/// Sniffs the first bytes of a file.
icMeshFormat icFmt_SniffMesh(const char *text, size_t size);

/// Growable int array (through the isochor allocator).
typedef struct icIntArray {
    int *data;
    int count, capacity;
} icIntArray;
static inline bool icIntArray_Push(icIntArray *a, int v) {
    if (a->count == a->capacity &&
        !icGrowArray((void **)&a->data, &a->capacity, a->count + 1, sizeof(int)))
        return false;
    a->data[a->count++] = v;
    return true;
}

/// Maps sparse node tags (any non-negative 64-bit ints) to 0-based indices: a dense table
/// when tags are compact, else a sorted list searched by bisection.
typedef struct icTagMap {
    int count;
    long long maxTag;
    int *dense;            ///< (maxTag + 1), -1 for unused tags, or NULL
    long long *sortedTags; ///< (count) when not dense
    int *sortedIndex;      ///< (count)
} icTagMap;

/// Builds the map of tags[i] -> i. IC_ERR_PARSE for a repeated tag (*duplicate gets the index
/// of its later occurrence) or IC_ERR_OUT_OF_MEMORY.
icResult icTagMap_Build(icTagMap *map, const long long *tags, int count, int *duplicate);
/// Index of tag or -1.
int icTagMap_Find(const icTagMap *map, long long tag);
void icTagMap_Destroy(icTagMap *map);

/// Appends a field (data owned by the field set afterwards). False when out of memory (data
/// is then freed).
bool icFmt_AddField(icMeshFields *fields, const char *name, int components, bool perCell,
                    icReal *data);
/// True when a cell field of this name is conventionally a region id ("region",
/// "gmsh:physical", "CellEntityIds", "medit:ref").
bool icFmt_IsRegionName(const char *name);
/// Removes vertices no tet uses (renumbering tets and point fields). Counts them in info.
icResult icFmt_DropUnusedVertices(icTetMesh *mesh, icMeshFields *fields, icMeshFileInfo *info);
/// Keeps only cell tuples whose keep[i] is set (cellCount tuples before), for every cell
/// field.
void icFmt_FilterCellFields(icMeshFields *fields, const bool *keep, int cellCount);
/// Sets mesh->regions from values (tetCount), NULL-ing it when every value is 0.
icResult icFmt_SetRegions(icTetMesh *mesh, const int *values, icMeshFileInfo *info);

/// Gmsh, VTK, MEDIT and TetGen order a positive tet so that det[x1-x0, x2-x0, x3-x0] > 0;
/// mesh.h's convention (det[x0-x3, x1-x3, x2-x3] > 0) is the opposite handedness. Readers
/// and writers of those formats swap local vertices 1 and 2 (an involution, so round trips
/// are exact; it is the same swap icTetMesh_Check applies to a wholly negative mesh).
static inline void icFmt_SwapHandedness(int *tet) {
    int s = tet[1];
    tet[1] = tet[2];
    tet[2] = s;
}

// ---------------------------------------------------------------------------------------
// XML (expat) for the VTU and PVD readers: a walk over an in-memory document that says where
// each tag lies in the text, so readers can take element content (numbers, base64) from the
// text itself and stop before data that is not XML (raw appended bytes).

typedef struct icXmlEvent {
    const char *name;   ///< element name; NULL for a comment or processing instruction
    const char **attrs; ///< start tags: name, value, ..., NULL (entities decoded)
    const char *at;     ///< first byte of the markup in the text
    const char *end;    ///< one past its last byte; an empty element's end: at == end == its
                        ///< tag's end
    int line;           ///< 1-based line of at
    int depth;          ///< elements open around the markup (0 for the root's tags)
} icXmlEvent;

/// A handler returns IC_OK to go on, or an error it has put in the diagnostic (the walk then
/// stops and returns it); setting *stop ends the walk early with IC_OK.
typedef icResult icXmlFn(void *context, const icXmlEvent *event, bool *stop);

typedef struct icXmlHandlers {
    icXmlFn *start, *end;
    icXmlFn *other; ///< comments and processing instructions (optional)
    /// A document that is not well-formed XML (optional): fills the diagnostic, returns its
    /// code. unclosed: the text ended, or an end tag came, while an element was still open.
    /// Without it the walk reports "malformed XML: <expat's reason>" as IC_ERR_PARSE.
    icResult (*malformed)(void *context, int line, bool unclosed, const char *reason);
} icXmlHandlers;

/// Walks text[0, size) in document order. IC_ERR_PARSE at expat's line for malformed XML,
/// IC_ERR_OUT_OF_MEMORY, or a handler's error.
icResult icXml_Walk(const char *path, const char *text, size_t size,
                    const icXmlHandlers *handlers, void *context, icDiagnostic *diag);
/// A start tag's attribute value, or NULL.
const char *icXml_Attr(const icXmlEvent *event, const char *key);
/// True when [p, end) holds only XML white space.
bool icXml_IsBlank(const char *p, const char *end);

// ---------------------------------------------------------------------------------------
// Writing helpers

/// Writes v in decimal at out; returns the characters written (no NUL).
int icFmt_FormatInt(char *out, long long v);
/// Writes v with 17 significant digits (exact round trip) at out; returns the length.
int icFmt_FormatReal(char *out, double v);
/// Writes values little- or big-endian (swap) to fp through a staging buffer.
void icFmt_WriteF64(FILE *fp, const double *values, size_t count, bool swap);
void icFmt_WriteI32(FILE *fp, const int *values, size_t count, bool swap);

/// The tet writers behind icSaveMeshWithFields: every field given (NULL: none) is written,
/// already checked against the mesh and the format by write_mesh.c.
icResult icFmt_SaveGmsh(const char *path, const icTetMesh *mesh, const icMeshFields *fields,
                        bool binary, icDiagnostic *diag);
icResult icFmt_SaveVtk(const char *path, const icTetMesh *mesh, const icMeshFields *fields,
                       bool binary, icDiagnostic *diag);

// ---------------------------------------------------------------------------------------
// Surface readers: each fills a builder from a whole-file buffer.

typedef struct icSurfaceBuilder {
    icReal *positions; ///< (vertexCount x 3)
    int vertexCount, vertexCapacity;
    icIntArray triangles; ///< 3 per triangle
} icSurfaceBuilder;

bool icSurfaceBuilder_AddVertex(icSurfaceBuilder *b, double x, double y, double z);
/// Adds a polygon of n >= 3 corners as a triangle fan.
bool icSurfaceBuilder_AddPolygon(icSurfaceBuilder *b, const int *corners, int n);
/// Moves the arrays into surface (the builder is emptied).
void icSurfaceBuilder_Finish(icSurfaceBuilder *b, icTriSurface *surface);
void icSurfaceBuilder_Destroy(icSurfaceBuilder *b);

icResult icFmt_ReadObj(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                       icDiagnostic *diag);
icResult icFmt_ReadOff(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                       icDiagnostic *diag);
icResult icFmt_ReadPly(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                       icDiagnostic *diag);
icResult icFmt_ReadStl(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                       icDiagnostic *diag);

/// Points of a VTK cell type with a fixed size (VTK_TETRA 10 -> 4, ...), -1 for types of
/// variable size (poly-vertex, polygon, ...) or unknown ones.
static inline int icFmt_VtkCellSize(int type) {
    // vertex 1, line 3, triangle 5, pixel 8, quad 9, tetra 10, voxel 11, hexahedron 12,
    // wedge 13, pyramid 14, quadratic edge 21, triangle 22, quad 23, tetra 24, hexahedron 25
    static const signed char sizes[26] = {-1, 1, -1, 2,  -1, 3,  -1, -1, 4, 4, 4, 8,  8,
                                          6,  5, -1, -1, -1, -1, -1, -1, 3, 6, 8, 10, 20};
    return type >= 0 && type < 26 ? sizes[type] : -1;
}

/// True when VTK defines cell type number type (in any version up to 9.x, from VTK_EMPTY_CELL
/// 0 to VTK_BEZIER_PYRAMID 81). Readers skip defined non-tet types and refuse the others: a
/// type number VTK never assigned marks a corrupt file.
bool icVtk_IsCellType(long long type);

