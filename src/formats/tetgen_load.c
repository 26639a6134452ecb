// SPDX-License-Identifier: MIT
// TetGen .node/.ele reader: parses whole files in memory, keeps each record's line so that
// every problem, including the mesh check's, is reported at its line in the file.
#include "formats/files_internal.h"
#include "formats/fmt_internal.h"

#include "core/core.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// Records are lines; '#' starts a comment that runs to the end of the line. Fields after
// the ones we use (extra attributes, boundary markers, anything else) are ignored, so the
// files of other writers load.

typedef struct icCursor {
    const char *p;   ///< current position; the buffer ends with a NUL at end
    const char *end;
    int line;        ///< 1-based line of p
} icCursor;

typedef enum icToken { IC_TOKEN_OK, IC_TOKEN_MISSING, IC_TOKEN_BAD } icToken;

static inline bool isBlank(char ch) {
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

static inline bool atEnd(const icCursor *c, const char *p) { return *p == 0 && p >= c->end; }

// A token ends at a blank, a line end, a comment or the end of the text.
static inline bool isTokenEnd(char ch) { return isBlank(ch) || ch == '\n' || ch == '#' || ch == 0; }

// Moves to the first token of the next record, skipping blank and comment lines.
// False at the end of the text.
static bool nextRecord(icCursor *c) {
    const char *p = c->p;
    for (;;) {
        char ch = *p;
        if (isBlank(ch)) {
            ++p;
        } else if (ch == '\n') {
            ++p;
            ++c->line;
        } else if (ch == '#') {
            while (!atEnd(c, p) && *p != '\n') ++p;
        } else if (atEnd(c, p)) {
            c->p = p;
            return false;
        } else {
            break;
        }
    }
    c->p = p;
    return true;
}

// Skips blanks within the line; true when a token starts there.
static bool atToken(icCursor *c) {
    const char *p = c->p;
    while (isBlank(*p)) ++p;
    c->p = p;
    return !(*p == '\n' || *p == '#' || atEnd(c, p));
}

// True when only blanks or a comment remain before the end of the text: a record cut short
// there was cut by truncation, not written wrong.
static bool restIsEnd(const icCursor *c) {
    const char *p = c->p;
    while (isBlank(*p)) ++p;
    if (*p == '#')
        while (!atEnd(c, p) && *p != '\n') ++p;
    return atEnd(c, p);
}

static void skipLine(icCursor *c) {
    const char *p = c->p;
    while (!atEnd(c, p) && *p != '\n') ++p;
    if (*p == '\n') {
        ++p;
        ++c->line;
    }
    c->p = p;
}

// Records left after the count the header gives. TetGen reads that many and ignores the
// rest; so does this reader, counting them so that the user hears of it.
static int countRecords(icCursor *c) {
    int n = 0;
    while (nextRecord(c)) {
        ++n;
        skipLine(c);
    }
    return n;
}

static icToken readInt(icCursor *c, long long *out) {
    if (!atToken(c)) return IC_TOKEN_MISSING;
    const char *p = c->p;
    bool negative = *p == '-';
    if (*p == '-' || *p == '+') ++p;
    if (*p < '0' || *p > '9') return IC_TOKEN_BAD;
    long long value = 0;
    while (*p >= '0' && *p <= '9') {
        if (value > (LLONG_MAX - 9) / 10) return IC_TOKEN_BAD;
        value = 10 * value + (*p - '0');
        ++p;
    }
    if (!isTokenEnd(*p)) return IC_TOKEN_BAD;
    c->p = p;
    *out = negative ? -value : value;
    return IC_TOKEN_OK;
}

// strtod is correctly rounded, so %.17g output reads back bit for bit.
static icToken readReal(icCursor *c, double *out) {
    if (!atToken(c)) return IC_TOKEN_MISSING;
    char *stop;
    double value = strtod(c->p, &stop);
    if (stop == c->p || !isTokenEnd(*stop)) return IC_TOKEN_BAD;
    c->p = stop;
    *out = value;
    return IC_TOKEN_OK;
}

// Length of the token at the cursor, for quoting it in messages.
static int tokenLength(const icCursor *c) {
    int n = 0;
    while (n < 40 && !isTokenEnd(c->p[n])) ++n;
    return n;
}

// Everything one load owns, released together on any exit.
typedef struct icTetGenLoad {
    char nodePath[1024], elePath[1024];
    char *nodeText, *eleText;
    size_t nodeSize, eleSize;
    int vertexCount;
    long long *ids;   ///< (vertexCount) node ids as written
    int *nodeLines;   ///< (vertexCount)
    icReal *positions;
    bool sequential;  ///< ids are first, first + 1, ...: look-ups subtract
    long long *sortedIds; ///< (vertexCount x 2) id, index pairs sorted by id otherwise
    int tetCount;
    int nodesPerTet;
    int *tets;
    int *regions;
    int *eleLines;    ///< (tetCount)
    int trailingRecords; ///< records after the header's count, in either file
} icTetGenLoad;

static void releaseLoad(icTetGenLoad *load) {
    icFree(load->nodeText);
    icFree(load->eleText);
    icFree(load->ids);
    icFree(load->nodeLines);
    icFree(load->positions);
    icFree(load->sortedIds);
    icFree(load->tets);
    icFree(load->regions);
    icFree(load->eleLines);
}

static icResult badToken(icDiagnostic *diag, const char *path, const icCursor *c,
                         const char *what) {
    return icDiag_Set(diag, IC_ERR_PARSE, path, c->line, "'%.*s' is not %s", tokenLength(c),
                      c->p, what);
}

// A record with too few fields: truncation when the text ends there, else a parse error.
static icResult shortRecord(icDiagnostic *diag, const char *path, const icCursor *c,
                            long long total, const char *noun, int complete,
                            const char *problem) {
    if (restIsEnd(c))
        return icDiag_Set(diag, IC_ERR_TRUNCATED, path, c->line,
                          "expected %lld %s, file ends after %d", total, noun, complete);
    return icDiag_Set(diag, IC_ERR_PARSE, path, c->line, "%s", problem);
}

// Upper bound on the records a text of this size can hold (a record is at least 7
// characters plus a line end), so a header claiming billions cannot make us allocate them.
static int recordCap(long long claimed, size_t size) {
    long long cap = (long long)(size / 8) + 2;
    return (int)(claimed < cap ? claimed : cap);
}

// Reads an integer header field; optional fields default to 0 when absent.
static icResult headerField(icCursor *c, const char *path, const char *name, bool required,
                            long long *value, icDiagnostic *diag) {
    *value = 0;
    icToken t = readInt(c, value);
    if (t == IC_TOKEN_BAD) return badToken(diag, path, c, "an integer (bad header)");
    if (t == IC_TOKEN_MISSING && required)
        return icDiag_Set(diag, IC_ERR_PARSE, path, c->line, "bad header: missing %s", name);
    return IC_OK;
}

static icResult parseNodes(icTetGenLoad *load, icDiagnostic *diag) {
    const char *path = load->nodePath;
    icCursor c = {load->nodeText, load->nodeText + load->nodeSize, 1};
    if (!nextRecord(&c))
        return icDiag_Set(diag, IC_ERR_TRUNCATED, path, c.line,
                          "file is empty (expected 'vertexCount 3 attributeCount markerCount')");
    int headerLine = c.line;
    long long count, dimension, attributes, markers;
    icResult r;
    if ((r = headerField(&c, path, "vertex count", true, &count, diag)) != IC_OK) return r;
    if ((r = headerField(&c, path, "dimension", true, &dimension, diag)) != IC_OK) return r;
    if ((r = headerField(&c, path, "attribute count", false, &attributes, diag)) != IC_OK) return r;
    if ((r = headerField(&c, path, "boundary marker count", false, &markers, diag)) != IC_OK)
        return r;
    if (count < 0 || count > INT_MAX / 3)
        return icDiag_Set(diag, IC_ERR_PARSE, path, headerLine, "bad header: vertex count %lld",
                          count);
    if (dimension != 3)
        return icDiag_Set(diag, IC_ERR_PARSE, path, headerLine,
                          "bad header: dimension is %lld, only 3 is supported", dimension);
    if (attributes < 0 || markers < 0 || markers > 1)
        return icDiag_Set(diag, IC_ERR_PARSE, path, headerLine,
                          "bad header: %lld attributes, %lld boundary markers", attributes, markers);
    if (count == 0)
        return icDiag_Set(diag, IC_ERR_EMPTY, path, headerLine, "the file has no vertices");
    skipLine(&c);

    int cap = recordCap(count, load->nodeSize);
    load->ids = IC_ALLOC(long long, cap);
    load->nodeLines = IC_ALLOC(int, cap);
    load->positions = IC_ALLOC(icReal, 3 * (size_t)cap);
    if (!load->ids || !load->nodeLines || !load->positions)
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "cannot allocate %lld vertices",
                          count);

    for (int i = 0; i < count; ++i) {
        if (i >= cap || !nextRecord(&c))
            return icDiag_Set(diag, IC_ERR_TRUNCATED, path, c.line,
                              "expected %lld vertices, file ends after %d", count, i);
        load->nodeLines[i] = c.line;
        if (readInt(&c, &load->ids[i]) != IC_TOKEN_OK) return badToken(diag, path, &c, "a node id");
        for (int k = 0; k < 3; ++k) {
            double value = 0;
            icToken t = readReal(&c, &value);
            if (t == IC_TOKEN_MISSING)
                return shortRecord(diag, path, &c, count, "vertices", i,
                                   "vertex record has fewer than 3 coordinates");
            if (t == IC_TOKEN_BAD) return badToken(diag, path, &c, "a number");
            if (!isfinite(value))
                return icDiag_Set(diag, IC_ERR_NOT_FINITE, path, c.line,
                                  "vertex %lld has a non-finite coordinate", load->ids[i]);
            load->positions[3 * i + k] = (icReal)value;
        }
        skipLine(&c);
    }
    load->vertexCount = (int)count;
    load->trailingRecords += countRecords(&c);
    return IC_OK;
}

static int compareIdPairs(const void *a, const void *b) {
    const long long *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : (x[1] > y[1]);
}

// Ids are usually first, first + 1, ... (first = 0 or 1); any other unique labels are
// mapped through a sorted table.
static icResult buildIdMap(icTetGenLoad *load, icDiagnostic *diag) {
    int n = load->vertexCount;
    load->sequential = true;
    for (int i = 1; i < n && load->sequential; ++i)
        load->sequential = load->ids[i] == load->ids[0] + i;
    if (load->sequential) return IC_OK;

    load->sortedIds = IC_ALLOC(long long, 2 * (size_t)n);
    if (!load->sortedIds)
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, load->nodePath, 0, "cannot map node ids");
    for (int i = 0; i < n; ++i) {
        load->sortedIds[2 * i] = load->ids[i];
        load->sortedIds[2 * i + 1] = i;
    }
    qsort(load->sortedIds, (size_t)n, 2 * sizeof(long long), compareIdPairs);
    for (int i = 1; i < n; ++i) {
        if (load->sortedIds[2 * i] != load->sortedIds[2 * i - 2]) continue;
        // Pairs with equal ids are ordered by index: the second is the repeat.
        int first = (int)load->sortedIds[2 * i - 1], again = (int)load->sortedIds[2 * i + 1];
        return icDiag_Set(diag, IC_ERR_PARSE, load->nodePath, load->nodeLines[again],
                          "node id %lld appears again (first on line %d)", load->ids[again],
                          load->nodeLines[first]);
    }
    return IC_OK;
}

// Vertex index of a node id, or -1 when the .node file has no such id.
static int lookupId(const icTetGenLoad *load, long long id) {
    if (load->sequential) {
        long long index = id - load->ids[0];
        return index >= 0 && index < load->vertexCount ? (int)index : -1;
    }
    int lo = 0, hi = load->vertexCount - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        long long value = load->sortedIds[2 * mid];
        if (value == id) return (int)load->sortedIds[2 * mid + 1];
        if (value < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static icResult parseElements(icTetGenLoad *load, icDiagnostic *diag) {
    const char *path = load->elePath;
    icCursor c = {load->eleText, load->eleText + load->eleSize, 1};
    if (!nextRecord(&c))
        return icDiag_Set(diag, IC_ERR_TRUNCATED, path, c.line,
                          "file is empty (expected 'tetCount nodesPerTet attributeCount')");
    int headerLine = c.line;
    long long count, nodesPerTet, attributes;
    icResult r;
    if ((r = headerField(&c, path, "tet count", true, &count, diag)) != IC_OK) return r;
    if ((r = headerField(&c, path, "nodes per tet", true, &nodesPerTet, diag)) != IC_OK) return r;
    if ((r = headerField(&c, path, "attribute count", false, &attributes, diag)) != IC_OK) return r;
    if (count < 0 || count > INT_MAX / 4)
        return icDiag_Set(diag, IC_ERR_PARSE, path, headerLine, "bad header: tet count %lld",
                          count);
    if (nodesPerTet != 4 && nodesPerTet != 10)
        return icDiag_Set(diag, IC_ERR_PARSE, path, headerLine,
                          "bad header: %lld nodes per tet, expected 4 or 10", nodesPerTet);
    if (attributes < 0)
        return icDiag_Set(diag, IC_ERR_PARSE, path, headerLine, "bad header: %lld attributes",
                          attributes);
    if (count == 0) return icDiag_Set(diag, IC_ERR_EMPTY, path, headerLine, "the file has no tets");
    skipLine(&c);

    int cap = recordCap(count, load->eleSize);
    load->tets = IC_ALLOC(int, 4 * (size_t)cap);
    load->eleLines = IC_ALLOC(int, cap);
    if (attributes > 0) load->regions = IC_ALLOC(int, cap);
    if (!load->tets || !load->eleLines || (attributes > 0 && !load->regions))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "cannot allocate %lld tets", count);
    load->nodesPerTet = (int)nodesPerTet;

    for (int t = 0; t < count; ++t) {
        if (t >= cap || !nextRecord(&c))
            return icDiag_Set(diag, IC_ERR_TRUNCATED, path, c.line,
                              "expected %lld tets, file ends after %d", count, t);
        load->eleLines[t] = c.line;
        long long id;
        if (readInt(&c, &id) != IC_TOKEN_OK) return badToken(diag, path, &c, "a tet id");
        long long nodes[10];
        for (int k = 0; k < nodesPerTet; ++k) {
            icToken tk = readInt(&c, &nodes[k]);
            if (tk == IC_TOKEN_MISSING)
                return shortRecord(diag, path, &c, count, "tets", t,
                                   "tet record has fewer node ids than the header says");
            if (tk == IC_TOKEN_BAD) return badToken(diag, path, &c, "a node id");
        }
        // Quadratic tets keep their corners (the first four); mid-edge nodes are dropped.
        for (int k = 0; k < 4; ++k) {
            int v = lookupId(load, nodes[k]);
            if (v < 0)
                return icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, path, c.line,
                                  "tet %d refers to node %lld, which %s does not have", t,
                                  nodes[k], load->nodePath);
            load->tets[4 * t + k] = v;
        }
        // TetGen's positive tets are the mirror of mesh.h's: swap local 1 and 2 (exact both ways).
        icFmt_SwapHandedness(load->tets + 4 * t);
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b)
                if (load->tets[4 * t + a] == load->tets[4 * t + b])
                    return icDiag_Set(diag, IC_ERR_REPEATED_INDEX, path, c.line,
                                      "tet %d repeats node %lld", t, nodes[a]);
        if (attributes > 0) {
            double region = 0;
            icToken tk = readReal(&c, &region);
            if (tk == IC_TOKEN_MISSING)
                return shortRecord(diag, path, &c, count, "tets", t,
                                   "tet record has no region attribute, which the header "
                                   "promises");
            if (tk == IC_TOKEN_BAD) return badToken(diag, path, &c, "a number");
            if (!(fabs(region) < 2147483647.0))
                return icDiag_Set(diag, IC_ERR_PARSE, path, c.line,
                                  "region attribute %g is not a usable integer", region);
            load->regions[t] = (int)lround(region);
        }
        skipLine(&c);
    }
    load->tetCount = (int)count;
    load->trailingRecords += countRecords(&c);
    return IC_OK;
}

// After dropping mid-edge nodes of quadratic tets, keep only the vertices corners use:
// unused vertices would carry no mass.
static icResult compactVertices(icTetGenLoad *load, icDiagnostic *diag) {
    int n = load->vertexCount;
    int *newIndex = IC_ALLOC(int, n);
    if (!newIndex) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, load->elePath, 0, "out of memory");
    for (int v = 0; v < n; ++v) newIndex[v] = -1;
    for (int i = 0; i < 4 * load->tetCount; ++i) newIndex[load->tets[i]] = 0;
    int kept = 0;
    for (int v = 0; v < n; ++v) {
        if (newIndex[v] < 0) continue;
        newIndex[v] = kept;
        for (int k = 0; k < 3; ++k) load->positions[3 * kept + k] = load->positions[3 * v + k];
        load->nodeLines[kept] = load->nodeLines[v];
        load->ids[kept] = load->ids[v];
        ++kept;
    }
    for (int i = 0; i < 4 * load->tetCount; ++i) load->tets[i] = newIndex[load->tets[i]];
    icFree(newIndex);
    load->vertexCount = kept;
    return IC_OK;
}

// "x.ele", "x.node" or "x" -> "x"
static bool splitBase(const char *path, icTetGenLoad *load) {
    size_t length = strlen(path);
    size_t baseLength = length;
    if (length >= 4 && strcasecmp(path + length - 4, ".ele") == 0)
        baseLength = length - 4;
    else if (length >= 5 && strcasecmp(path + length - 5, ".node") == 0)
        baseLength = length - 5;
    int a = snprintf(load->nodePath, sizeof load->nodePath, "%.*s.node", (int)baseLength, path);
    int b = snprintf(load->elePath, sizeof load->elePath, "%.*s.ele", (int)baseLength, path);
    return a > 0 && (size_t)a < sizeof load->nodePath && b > 0 && (size_t)b < sizeof load->elePath;
}

icResult icLoadTetGenChecked(const char *path, bool strict, bool resultFrame, icTetMesh *mesh,
                             icOrientReport *report, icMeshFileInfo *info, icDiagnostic *diag) {
    memset(mesh, 0, sizeof *mesh);
    if (report) memset(report, 0, sizeof *report);
    if (!path || !path[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no mesh path given");

    icTetGenLoad load;
    memset(&load, 0, sizeof load);
    icResult r = IC_OK;
    if (!splitBase(path, &load)) {
        r = icDiag_Set(diag, IC_ERR_IO, path, 0, "path is too long");
        goto done;
    }
    if ((r = icReadWholeFile(load.nodePath, &load.nodeText, &load.nodeSize, diag)) != IC_OK) goto done;
    if ((r = parseNodes(&load, diag)) != IC_OK) goto done;
    icFree(load.nodeText);
    load.nodeText = NULL;
    if ((r = buildIdMap(&load, diag)) != IC_OK) goto done;
    if ((r = icReadWholeFile(load.elePath, &load.eleText, &load.eleSize, diag)) != IC_OK) goto done;
    if ((r = parseElements(&load, diag)) != IC_OK) goto done;
    if (load.nodesPerTet == 10 && (r = compactVertices(&load, diag)) != IC_OK) goto done;

    // The mesh takes over the arrays (allocated through the isochor allocator, as
    // icTetMesh_Destroy expects).
    mesh->vertexCount = load.vertexCount;
    mesh->tetCount = load.tetCount;
    mesh->positions = load.positions;
    mesh->tets = load.tets;
    mesh->regions = load.regions;
    load.positions = NULL;
    load.tets = NULL;
    load.regions = NULL;

    // The check names the element; we know which line it came from.
    icDiagnostic check;
    memset(&check, 0, sizeof check);
    check.element = -1;
    r = resultFrame ? icTetMesh_CheckFrame(mesh, report, &check)
                    : icTetMesh_Check(mesh, strict, report, &check);
    if (r != IC_OK) {
        int e = check.element;
        if (r == IC_ERR_NOT_FINITE && e >= 0 && e < load.vertexCount)
            icDiag_Set(diag, r, load.nodePath, load.nodeLines[e], "%s", check.message);
        else if (e >= 0 && e < load.tetCount)
            icDiag_Set(diag, r, load.elePath, load.eleLines[e], "%s", check.message);
        else
            icDiag_Set(diag, r, load.elePath, 0, "%s", check.message);
        if (diag) diag->element = e;
        icTetMesh_Destroy(mesh);
        memset(mesh, 0, sizeof *mesh);
    }

done:
    if (r == IC_OK && info) info->ignoredTrailingRecords = load.trailingRecords;
    releaseLoad(&load);
    if (r != IC_OK) memset(mesh, 0, sizeof *mesh);
    return r;
}

icResult icLoadTetGen(const char *path, icTetMesh *mesh, icDiagnostic *diag) {
    return icLoadTetGenChecked(path, false, false, mesh, NULL, NULL, diag);
}
