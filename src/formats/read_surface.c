// SPDX-License-Identifier: MIT
// Triangle surfaces: icLoadSurface (sniffs OBJ, PLY, STL, OFF), the builder the readers
// share, and the OBJ and OFF readers.
#include "formats/fmt_internal.h"

#include <stdio.h>
#include <strings.h>

bool icSurfaceBuilder_AddVertex(icSurfaceBuilder *b, double x, double y, double z) {
    if (b->vertexCount == b->vertexCapacity &&
        !icGrowArray((void **)&b->positions, &b->vertexCapacity, b->vertexCount + 1,
                     3 * sizeof(icReal)))
        return false;
    icReal *p = b->positions + 3 * (size_t)b->vertexCount++;
    p[0] = x;
    p[1] = y;
    p[2] = z;
    return true;
}

bool icSurfaceBuilder_AddPolygon(icSurfaceBuilder *b, const int *corners, int n) {
    for (int i = 1; i + 1 < n; ++i)
        if (!icIntArray_Push(&b->triangles, corners[0]) ||
            !icIntArray_Push(&b->triangles, corners[i]) ||
            !icIntArray_Push(&b->triangles, corners[i + 1]))
            return false;
    return true;
}

void icSurfaceBuilder_Finish(icSurfaceBuilder *b, icTriSurface *surface) {
    memset(surface, 0, sizeof *surface);
    surface->vertexCount = b->vertexCount;
    surface->positions = b->positions;
    surface->triangleCount = b->triangles.count / 3;
    surface->triangles = b->triangles.data;
    memset(b, 0, sizeof *b);
}

void icSurfaceBuilder_Destroy(icSurfaceBuilder *b) {
    icFree(b->positions);
    icFree(b->triangles.data);
    memset(b, 0, sizeof *b);
}

void icTriSurface_Destroy(icTriSurface *surface) {
    if (!surface) return;
    icFree(surface->positions);
    icFree(surface->triangles);
    icFree(surface->meshVertex);
    icFree(surface->meshTet);
    memset(surface, 0, sizeof *surface);
}

static icResult outOfMemory(const char *path, icDiagnostic *diag) {
    return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
}

// ---------------------------------------------------------------------------------------
// OBJ: "v x y z", "f a b c ..." with a/b/c index forms and negative (relative) indices.

#define IC_MAX_POLYGON 256

icResult icFmt_ReadObj(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                       icDiagnostic *diag) {
    icTextCursor c;
    icText_Init(&c, text, size, path, diag, '#');
    icIntArray faceLines = {0};
    icResult result = IC_OK;
    int corners[IC_MAX_POLYGON];
    while (result == IC_OK && icText_Skip(&c)) {
        char word[32];
        icText_Word(&c, word, sizeof word, "a keyword");
        if (strcmp(word, "v") == 0) {
            double x[3];
            for (int k = 0; k < 3 && result == IC_OK; ++k) {
                if (!icText_SkipInLine(&c)) {
                    result = icText_Error(&c, c.p >= c.end ? IC_ERR_TRUNCATED : IC_ERR_PARSE,
                                          "vertex needs 3 coordinates");
                    break;
                }
                result = icText_Real(&c, &x[k], "vertex coordinate");
            }
            if (result == IC_OK && !icSurfaceBuilder_AddVertex(b, x[0], x[1], x[2]))
                result = outOfMemory(path, diag);
        } else if (strcmp(word, "f") == 0) {
            int n = 0;
            while (result == IC_OK && icText_SkipInLine(&c)) {
                long long index;
                const char *e = icFmt_ParseInt(c.p, &index);
                if (!e || (*e != '/' && *e != ' ' && *e != '\t' && *e != '\r' && *e != '\n' &&
                           *e != '#' && e < c.end)) {
                    char token[32];
                    icText_Quote(c.p, c.end, token, sizeof token);
                    result = icText_Error(&c, IC_ERR_PARSE, "expected a vertex index, found '%s'",
                                          token);
                    break;
                }
                // Skip the texture and normal parts of "v/t/n".
                while (e < c.end && *e != ' ' && *e != '\t' && *e != '\r' && *e != '\n') ++e;
                c.p = e;
                if (index < 0) index += b->vertexCount + 1; // relative to the vertices so far
                if (index <= 0 || index > INT32_MAX) {
                    result = icText_Error(&c, IC_ERR_INDEX_OUT_OF_RANGE,
                                          "face refers to vertex %lld", index);
                    break;
                }
                if (n == IC_MAX_POLYGON) {
                    result = icText_Error(&c, IC_ERR_UNSUPPORTED, "face has more than %d corners",
                                          IC_MAX_POLYGON);
                    break;
                }
                corners[n++] = (int)index - 1;
            }
            if (result != IC_OK) break;
            if (n < 3) {
                result = icText_Error(&c, IC_ERR_PARSE, "face has %d corners (at least 3)", n);
                break;
            }
            if (!icSurfaceBuilder_AddPolygon(b, corners, n)) {
                result = outOfMemory(path, diag);
                break;
            }
            for (int i = 0; i < n - 2; ++i)
                if (!icIntArray_Push(&faceLines, c.line)) result = outOfMemory(path, diag);
        }
        // Everything else (vn, vt, o, g, s, usemtl, mtllib, l, p) is not geometry we need.
        icText_SkipLine(&c);
    }
    // Faces may name vertices defined later in the file, so indices are checked at the end.
    for (int t = 0; result == IC_OK && t < b->triangles.count / 3; ++t)
        for (int k = 0; k < 3; ++k)
            if (b->triangles.data[3 * t + k] >= b->vertexCount) {
                result = icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, path, faceLines.data[t],
                                    "face refers to vertex %d but there are %d vertices",
                                    b->triangles.data[3 * t + k] + 1, b->vertexCount);
                break;
            }
    icFree(faceLines.data);
    return result;
}

// ---------------------------------------------------------------------------------------
// OFF: ["OFF"] nv nf ne, nv vertex lines, nf face lines "n i0 i1 ..." (0-based).

icResult icFmt_ReadOff(const char *path, const char *text, size_t size, icSurfaceBuilder *b,
                       icDiagnostic *diag) {
    icTextCursor c;
    icText_Init(&c, text, size, path, diag, '#');
    if (!icText_Accept(&c, "OFF") && !icText_Accept(&c, "COFF") && !icText_Accept(&c, "NOFF") &&
        !icText_Accept(&c, "CNOFF")) {
        icText_Skip(&c);
        if (c.p < c.end && !(*c.p >= '0' && *c.p <= '9'))
            return icText_Error(&c, IC_ERR_PARSE, "expected the OFF header");
    }
    long long nv, nf, ne;
    icResult result;
    if ((result = icText_IntIn(&c, 0, INT32_MAX, &nv, "vertex count")) != IC_OK ||
        (result = icText_IntIn(&c, 0, INT32_MAX, &nf, "face count")) != IC_OK ||
        (result = icText_IntIn(&c, 0, INT32_MAX, &ne, "edge count")) != IC_OK)
        return result;
    if ((size_t)nv > size / 6 + 1 || (size_t)nf > size / 8 + 1)
        return icText_Error(&c, IC_ERR_TRUNCATED, "file too short for %lld vertices and %lld faces",
                            nv, nf);
    icText_SkipLine(&c);
    for (long long i = 0; i < nv; ++i) {
        double x[3];
        for (int k = 0; k < 3; ++k)
            if ((result = icText_Real(&c, &x[k], "vertex coordinate")) != IC_OK) return result;
        if (!icSurfaceBuilder_AddVertex(b, x[0], x[1], x[2])) return outOfMemory(path, diag);
        icText_SkipLine(&c); // colours, normals
    }
    int corners[IC_MAX_POLYGON];
    for (long long f = 0; f < nf; ++f) {
        long long n, index;
        if ((result = icText_Int(&c, &n, "corner count")) != IC_OK) return result;
        if (n < 3 || n > IC_MAX_POLYGON)
            return icText_Error(&c, IC_ERR_PARSE, "face has %lld corners (3 to %d)", n,
                                IC_MAX_POLYGON);
        for (int k = 0; k < n; ++k) {
            if ((result = icText_Int(&c, &index, "vertex index")) != IC_OK) return result;
            if (index < 0 || index >= nv)
                return icText_Error(&c, IC_ERR_INDEX_OUT_OF_RANGE,
                                    "face %lld refers to vertex %lld; vertices are 0 to %lld", f,
                                    index, nv - 1);
            corners[k] = (int)index;
        }
        if (!icSurfaceBuilder_AddPolygon(b, corners, (int)n)) return outOfMemory(path, diag);
        icText_SkipLine(&c); // face colour
    }
    return IC_OK;
}

// ---------------------------------------------------------------------------------------

static const char *extensionOf(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return (dot && (!slash || dot > slash)) ? dot : "";
}

static bool startsWith(const char *text, size_t size, const char *prefix) {
    size_t n = strlen(prefix);
    return size >= n && strncasecmp(text, prefix, n) == 0;
}

icResult icLoadSurface(const char *path, icTriSurface *surface, icDiagnostic *diag) {
    memset(surface, 0, sizeof *surface);
    if (!path || !path[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no surface path given");
    char *text;
    size_t size;
    icResult result = icReadFile(path, &text, &size, diag);
    if (result != IC_OK) return result;
    const char *ext = extensionOf(path);
    icSurfaceBuilder b;
    memset(&b, 0, sizeof b);
    // Content first (a PLY or OFF header, a binary STL's exact size), then the extension.
    bool binaryStlSize =
        size >= 84 && size == 84 + 50 * (size_t)icFmt_U32(text + 80, !icFmt_HostLittle());
    if (startsWith(text, size, "ply\n") || startsWith(text, size, "ply\r\n")) {
        result = icFmt_ReadPly(path, text, size, &b, diag);
    } else if (startsWith(text, size, "OFF") || startsWith(text, size, "COFF") ||
               startsWith(text, size, "NOFF") || startsWith(text, size, "CNOFF")) {
        result = icFmt_ReadOff(path, text, size, &b, diag);
    } else if (startsWith(text, size, "solid") || strcasecmp(ext, ".stl") == 0) {
        result = icFmt_ReadStl(path, text, size, &b, diag);
    } else if (strcasecmp(ext, ".obj") == 0) {
        result = icFmt_ReadObj(path, text, size, &b, diag);
    } else if (strcasecmp(ext, ".ply") == 0) {
        result = icFmt_ReadPly(path, text, size, &b, diag);
    } else if (strcasecmp(ext, ".off") == 0) {
        result = icFmt_ReadOff(path, text, size, &b, diag);
    } else if (binaryStlSize) {
        result = icFmt_ReadStl(path, text, size, &b, diag);
    } else {
        result = icDiag_Set(diag, IC_ERR_UNSUPPORTED, path, 0,
                            "unknown surface format '%s' (expected .obj, .ply, .stl or .off)", ext);
    }
    icFree(text);
    if (result == IC_OK && b.triangles.count == 0)
        result = icDiag_Set(diag, IC_ERR_EMPTY, path, 0, "the surface has no faces");
    if (result == IC_OK) icSurfaceBuilder_Finish(&b, surface);
    icSurfaceBuilder_Destroy(&b);
    return result;
}
