// SPDX-License-Identifier: MIT
// STL reader, ASCII and binary. STL stores three corners per facet, so corners with bitwise
// equal positions are welded into shared vertices; facets that weld onto a repeated corner
// are dropped.
#include "formats/fmt_internal.h"

#include <math.h>
#include <stdio.h>
#include <strings.h>

typedef struct icWeld {
    uint32_t *slots; ///< vertex index + 1, 0 empty
    uint32_t mask;
} icWeld;

static uint64_t hashPosition(const double x[3]) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 3; ++k) {
        uint64_t bits;
        double v = x[k] == 0 ? 0.0 : x[k]; // -0 and +0 weld
        memcpy(&bits, &v, 8);
        h ^= bits + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xFF51AFD7ED558CCDull;
    }
    return h ^ (h >> 33);
}

static bool weldInit(icWeld *w, size_t corners) {
    size_t capacity = 16;
    while (capacity < 2 * corners) capacity *= 2;
    w->slots = IC_ALLOC_ZERO(uint32_t, capacity);
    w->mask = (uint32_t)(capacity - 1);
    return w->slots != NULL;
}

// Index of the vertex at x, adding it when new; -1 when out of memory.
static int weld(icWeld *w, icSurfaceBuilder *b, const double x[3]) {
    uint32_t i = (uint32_t)hashPosition(x) & w->mask;
    for (;;) {
        uint32_t s = w->slots[i];
        if (s == 0) break;
        const icReal *p = b->positions + 3 * (size_t)(s - 1);
        if (p[0] == x[0] && p[1] == x[1] && p[2] == x[2]) return (int)s - 1;
        i = (i + 1) & w->mask;
    }
    if (!icSurfaceBuilder_AddVertex(b, x[0], x[1], x[2])) return -1;
    w->slots[i] = (uint32_t)b->vertexCount;
    return b->vertexCount - 1;
}

static icResult addFacet(icWeld *w, icSurfaceBuilder *b, const double corners[9], const char *path,
                         icDiagnostic *diag) {
    int tri[3];
    for (int k = 0; k < 3; ++k) {
        tri[k] = weld(w, b, corners + 3 * k);
        if (tri[k] < 0) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    }
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) return IC_OK;
    if (!icSurfaceBuilder_AddPolygon(b, tri, 3))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    return IC_OK;
}

static icResult readBinary(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                           icDiagnostic *diag) {
    bool swap = !icFmt_HostLittle();
    if (size < 84)
        return icDiag_Set(diag, IC_ERR_TRUNCATED, path, 0,
                          "binary STL shorter than its 84-byte header");
    uint32_t count = icFmt_U32(text + 80, swap);
    if (size != 84 + 50 * (size_t)count)
        return icDiag_Set(
            diag, size < 84 + 50 * (size_t)count ? IC_ERR_TRUNCATED : IC_ERR_PARSE, path, 0,
            "binary STL announces %u triangles (%zu bytes) but the file has %zu bytes", count,
            84 + 50 * (size_t)count, size);
    icWeld w;
    if (!weldInit(&w, 3 * (size_t)count))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    icResult result = IC_OK;
    for (uint32_t t = 0; t < count && result == IC_OK; ++t) {
        const char *facet = text + 84 + 50 * (size_t)t;
        double corners[9];
        for (int k = 0; k < 9; ++k) {
            corners[k] = icFmt_F32(facet + 12 + 4 * k, swap);
            if (!isfinite(corners[k]))
                result = icDiag_Set(diag, IC_ERR_NOT_FINITE, path, 0,
                                    "triangle %u has a non-finite corner (byte %zu)", t,
                                    (size_t)(84 + 50 * (size_t)t + 12 + 4 * (size_t)k));
        }
        if (result == IC_OK) result = addFacet(&w, b, corners, path, diag);
    }
    icFree(w.slots);
    return result;
}

static icResult expectWord(icTextCursor *c, const char *word) {
    if (icText_Accept(c, word)) return IC_OK;
    if (!icText_Skip(c))
        return icText_Error(c, IC_ERR_TRUNCATED, "file ends early: expected '%s'", word);
    char token[32];
    icText_Quote(c->p, c->end, token, sizeof token);
    return icText_Error(c, IC_ERR_PARSE, "expected '%s', found '%s'", word, token);
}

static icResult readAscii(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                          icDiagnostic *diag) {
    icTextCursor c;
    icText_Init(&c, text, size, path, diag, 0);
    icResult result = expectWord(&c, "solid");
    if (result != IC_OK) return result;
    icText_SkipLine(&c); // the solid's name
    icWeld w;
    if (!weldInit(&w, size / 40 + 16))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    for (;;) {
        if (icText_Accept(&c, "endsolid")) break;
        if ((result = expectWord(&c, "facet")) != IC_OK) break;
        if ((result = expectWord(&c, "normal")) != IC_OK) break;
        double corners[9], normal;
        for (int k = 0; k < 3 && result == IC_OK; ++k) result = icText_Real(&c, &normal, "normal");
        if (result == IC_OK) result = expectWord(&c, "outer");
        if (result == IC_OK) result = expectWord(&c, "loop");
        for (int v = 0; v < 3 && result == IC_OK; ++v) {
            result = expectWord(&c, "vertex");
            for (int k = 0; k < 3 && result == IC_OK; ++k)
                result = icText_Real(&c, &corners[3 * v + k], "vertex coordinate");
        }
        if (result == IC_OK) result = expectWord(&c, "endloop");
        if (result == IC_OK) result = expectWord(&c, "endfacet");
        if (result == IC_OK && (size_t)b->vertexCount * 2 > w.mask) {
            // Grow the weld table: rebuild it over the vertices so far.
            icWeld bigger;
            if (!weldInit(&bigger, (size_t)(w.mask + 1))) {
                result = icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
                break;
            }
            for (int i = 0; i < b->vertexCount; ++i) {
                uint32_t s = (uint32_t)hashPosition(b->positions + 3 * (size_t)i) & bigger.mask;
                while (bigger.slots[s]) s = (s + 1) & bigger.mask;
                bigger.slots[s] = (uint32_t)i + 1;
            }
            icFree(w.slots);
            w = bigger;
        }
        if (result == IC_OK) result = addFacet(&w, b, corners, path, diag);
        if (result != IC_OK) break;
    }
    icFree(w.slots);
    return result;
}

icResult icFmt_ReadStl(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                       icDiagnostic *diag) {
    // Binary files may also start with "solid": their exact size settles it.
    bool binary = size >= 84 && size == 84 + 50 * (size_t)icFmt_U32(text + 80, !icFmt_HostLittle());
    if (!binary && size >= 5 && strncasecmp(text, "solid", 5) == 0)
        return readAscii(path, text, size, b, diag);
    return readBinary(path, text, size, b, diag);
}
