// SPDX-License-Identifier: MIT
// Helpers shared by the format tests.
#include "formats_testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double icFmtTest_cubePositions[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                              {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
const int icFmtTest_cubeTets[5][4] = {
    {1, 3, 4, 6}, {0, 1, 3, 4}, {2, 3, 1, 6}, {5, 1, 4, 6}, {7, 3, 6, 4}};
const int icFmtTest_cubeRegions[5] = {2, 1, 1, 1, 1};

const char *icFmtTest_WriteFile(const char *dir, const char *name, const void *data, size_t size) {
    static char paths[4][1200];
    static int next;
    char *path = paths[next++ & 3];
    IC_FORMAT_N(path, 1200, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        icTest_Fail(__FILE__, __LINE__, "cannot write %s", path);
        return path;
    }
    fwrite(data, 1, size, fp);
    fclose(fp);
    return path;
}

const char *icFmtTest_WriteText(const char *dir, const char *name, const char *text) {
    return icFmtTest_WriteFile(dir, name, text, strlen(text));
}

char *icFmtTest_ReadFile(const char *path, size_t *size) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    size_t got = fread(data, 1, (size_t)n, fp);
    fclose(fp);
    data[got] = 0;
    if (size) *size = got;
    return data;
}

void icBytes_Put(icBytes *b, const void *data, size_t n) {
    if (b->size + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < b->size + n) capacity *= 2;
        b->data = realloc(b->data, capacity);
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, data, n);
    b->size += n;
}

void icBytes_Text(icBytes *b, const char *text) { icBytes_Put(b, text, strlen(text)); }

static void putOrdered(icBytes *b, const void *value, size_t n, bool bigEndian) {
    unsigned char bytes[8];
    memcpy(bytes, value, n);
    const uint16_t one = 1;
    bool hostLittle = *(const unsigned char *)&one == 1;
    if (bigEndian == hostLittle)
        for (size_t i = 0; i < n / 2; ++i) {
            unsigned char t = bytes[i];
            bytes[i] = bytes[n - 1 - i];
            bytes[n - 1 - i] = t;
        }
    icBytes_Put(b, bytes, n);
}

void icBytes_I32(icBytes *b, int32_t v, bool bigEndian) { putOrdered(b, &v, 4, bigEndian); }
void icBytes_U32(icBytes *b, uint32_t v, bool bigEndian) { putOrdered(b, &v, 4, bigEndian); }
void icBytes_U64(icBytes *b, uint64_t v, bool bigEndian) { putOrdered(b, &v, 8, bigEndian); }
void icBytes_F32(icBytes *b, float v, bool bigEndian) { putOrdered(b, &v, 4, bigEndian); }
void icBytes_F64(icBytes *b, double v, bool bigEndian) { putOrdered(b, &v, 8, bigEndian); }

void icBytes_Free(icBytes *b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}

void icBytes_Base64(icBytes *b, const void *data, size_t n) {
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t bits = (uint32_t)p[i] << 16;
        if (i + 1 < n) bits |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n) bits |= p[i + 2];
        char out[4] = {alphabet[(bits >> 18) & 63], alphabet[(bits >> 12) & 63],
                       i + 1 < n ? alphabet[(bits >> 6) & 63] : '=',
                       i + 2 < n ? alphabet[bits & 63] : '='};
        icBytes_Put(b, out, 4);
    }
}

bool icFmtTest_SameMesh(const icTetMesh *a, const icTetMesh *b, double tolerance) {
    if (a->vertexCount != b->vertexCount || a->tetCount != b->tetCount) {
        icTest_Fail(__FILE__, __LINE__, "counts differ: %d/%d vertices, %d/%d tets", a->vertexCount,
                    b->vertexCount, a->tetCount, b->tetCount);
        return false;
    }
    for (int i = 0; i < 3 * a->vertexCount; ++i) {
        double x = a->positions[i], y = b->positions[i];
        bool same = tolerance == 0 ? memcmp(&x, &y, sizeof x) == 0 : fabs(x - y) <= tolerance;
        if (!same) {
            icTest_Fail(__FILE__, __LINE__, "coordinate %d differs: %.17g vs %.17g", i, x, y);
            return false;
        }
    }
    for (int i = 0; i < 4 * a->tetCount; ++i)
        if (a->tets[i] != b->tets[i]) {
            icTest_Fail(__FILE__, __LINE__, "tet index %d differs: %d vs %d", i, a->tets[i],
                        b->tets[i]);
            return false;
        }
    return true;
}

double icFmtTest_SurfaceVolume(const icTriSurface *s) {
    double volume = 0;
    for (int t = 0; t < s->triangleCount; ++t) {
        const int *tri = s->triangles + 3 * t;
        icVec3 a = icVec3_Load(s->positions, tri[0]), b = icVec3_Load(s->positions, tri[1]);
        icVec3 c = icVec3_Load(s->positions, tri[2]);
        volume += icVec3_Dot(a, icVec3_Cross(b, c)) / 6.0;
    }
    return volume;
}
