// SPDX-License-Identifier: MIT
// Pieces every reader shares: scalar types, base64, node tag maps, fields and the clean-up
// after reading (unused vertices, regions).
#include "formats/fmt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

int icScalar_Size(icScalarType type) {
    static const int sizes[] = {0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
    return sizes[type];
}

double icScalar_Get(icScalarType type, const void *p, size_t i, bool swap) {
    const uint8_t *b = (const uint8_t *)p + i * (size_t)icScalar_Size(type);
    switch (type) {
    case IC_SCALAR_I8:
        return (double)(int8_t)b[0];
    case IC_SCALAR_U8:
        return (double)b[0];
    case IC_SCALAR_I16:
    case IC_SCALAR_U16: {
        uint16_t v;
        memcpy(&v, b, 2);
        if (swap) v = (uint16_t)((v >> 8) | (v << 8));
        return type == IC_SCALAR_I16 ? (double)(int16_t)v : (double)v;
    }
    case IC_SCALAR_I32:
        return (double)icFmt_I32(b, swap);
    case IC_SCALAR_U32:
        return (double)icFmt_U32(b, swap);
    case IC_SCALAR_I64:
        return (double)(int64_t)icFmt_U64(b, swap);
    case IC_SCALAR_U64:
        return (double)icFmt_U64(b, swap);
    case IC_SCALAR_F32:
        return (double)icFmt_F32(b, swap);
    case IC_SCALAR_F64:
        return icFmt_F64(b, swap);
    default:
        return 0.0;
    }
}

long long icScalar_GetInt(icScalarType type, const void *p, size_t i, bool swap, bool *ok) {
    const uint8_t *b = (const uint8_t *)p + i * (size_t)icScalar_Size(type);
    const long long limit = 1ll << 62;
    switch (type) {
    case IC_SCALAR_I64: {
        int64_t v = (int64_t)icFmt_U64(b, swap);
        if (v >= limit || v <= -limit) *ok = false;
        return v;
    }
    case IC_SCALAR_U64: {
        uint64_t v = icFmt_U64(b, swap);
        if (v >= (uint64_t)limit) *ok = false;
        return (long long)v;
    }
    case IC_SCALAR_F32:
    case IC_SCALAR_F64: {
        double d = icScalar_Get(type, p, i, swap);
        if (!(d > -(double)limit && d < (double)limit)) {
            *ok = false;
            return 0;
        }
        return (long long)d;
    }
    default:
        return (long long)icScalar_Get(type, p, i, swap);
    }
}

// ---------------------------------------------------------------------------------------

static int base64Value(char ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

void icBase64_Init(icBase64 *b, const char *p, const char *end) {
    memset(b, 0, sizeof *b);
    b->p = p;
    b->end = end;
}

// Decodes the next 4-character group into pending; false at the end or on a bad group.
static bool nextGroup(icBase64 *b) {
    int values[4], n = 0;
    const char *p = b->p;
    while (n < 4 && p < b->end) {
        char ch = *p;
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
            ++p;
            continue;
        }
        if (ch == '=') {
            values[n++] = -2;
            ++p;
            continue;
        }
        int v = base64Value(ch);
        if (v < 0) {
            b->bad = true;
            b->badAt = p;
            b->p = p;
            return false;
        }
        values[n++] = v;
        ++p;
    }
    b->p = p;
    if (n < 4 || values[0] < 0 || values[1] < 0 || (values[2] == -2 && values[3] != -2)) {
        if (n > 0) {
            b->bad = true;
            b->badAt = p;
        }
        return false;
    }
    uint32_t bits = (uint32_t)values[0] << 18 | (uint32_t)values[1] << 12;
    int bytes = 1;
    if (values[2] >= 0) {
        bits |= (uint32_t)values[2] << 6;
        bytes = 2;
        if (values[3] >= 0) {
            bits |= (uint32_t)values[3];
            bytes = 3;
        }
    }
    b->pending[0] = (uint8_t)(bits >> 16);
    b->pending[1] = (uint8_t)(bits >> 8);
    b->pending[2] = (uint8_t)bits;
    b->pendingCount = bytes;
    b->pendingPos = 0;
    return true;
}

bool icBase64_Read(icBase64 *b, void *out, size_t n) {
    uint8_t *dst = out;
    // Fast path over whole groups without whitespace or padding.
    while (n > 0) {
        if (b->pendingPos < b->pendingCount) {
            *dst++ = b->pending[b->pendingPos++];
            --n;
            continue;
        }
        while (n >= 3 && b->end - b->p >= 4) {
            int v0 = base64Value(b->p[0]), v1 = base64Value(b->p[1]);
            int v2 = base64Value(b->p[2]), v3 = base64Value(b->p[3]);
            if ((v0 | v1 | v2 | v3) < 0) break;
            uint32_t bits =
                (uint32_t)v0 << 18 | (uint32_t)v1 << 12 | (uint32_t)v2 << 6 | (uint32_t)v3;
            dst[0] = (uint8_t)(bits >> 16);
            dst[1] = (uint8_t)(bits >> 8);
            dst[2] = (uint8_t)bits;
            dst += 3;
            n -= 3;
            b->p += 4;
        }
        if (n == 0) break;
        if (!nextGroup(b)) return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------

static int compareTagIndex(const void *a, const void *b) {
    const long long *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

icResult icTagMap_Build(icTagMap *map, const long long *tags, int count, int *duplicate) {
    memset(map, 0, sizeof *map);
    map->count = count;
    long long maxTag = -1;
    for (int i = 0; i < count; ++i) {
        if (tags[i] < 0) {
            if (duplicate) *duplicate = i;
            return IC_ERR_BAD_VALUE; // readers refuse negative tags before building
        }
        if (tags[i] > maxTag) maxTag = tags[i];
    }
    map->maxTag = maxTag;
    // Dense when the table is at most a few times the node count (the usual case).
    if (maxTag < 4ll * count + 1024 && maxTag < INT32_MAX) {
        map->dense = IC_ALLOC(int, maxTag + 1);
        if (!map->dense && maxTag >= 0) return IC_ERR_OUT_OF_MEMORY;
        for (long long t = 0; t <= maxTag; ++t) map->dense[t] = -1;
        for (int i = 0; i < count; ++i) {
            if (map->dense[tags[i]] >= 0) {
                if (duplicate) *duplicate = i;
                icTagMap_Destroy(map);
                return IC_ERR_PARSE;
            }
            map->dense[tags[i]] = i;
        }
        return IC_OK;
    }
    long long *pairs = IC_ALLOC(long long, 2 * (size_t)count);
    map->sortedTags = IC_ALLOC(long long, count);
    map->sortedIndex = IC_ALLOC(int, count);
    if (!pairs || !map->sortedTags || !map->sortedIndex) {
        icFree(pairs);
        icTagMap_Destroy(map);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < count; ++i) {
        pairs[2 * i] = tags[i];
        pairs[2 * i + 1] = i;
    }
    qsort(pairs, (size_t)count, 2 * sizeof(long long), compareTagIndex);
    for (int i = 0; i < count; ++i) {
        if (i > 0 && pairs[2 * i] == pairs[2 * i - 2]) {
            long long later =
                pairs[2 * i + 1] > pairs[2 * i - 1] ? pairs[2 * i + 1] : pairs[2 * i - 1];
            if (duplicate) *duplicate = (int)later;
            icFree(pairs);
            icTagMap_Destroy(map);
            return IC_ERR_PARSE;
        }
        map->sortedTags[i] = pairs[2 * i];
        map->sortedIndex[i] = (int)pairs[2 * i + 1];
    }
    icFree(pairs);
    return IC_OK;
}

int icTagMap_Find(const icTagMap *map, long long tag) {
    if (tag < 0 || tag > map->maxTag) return -1;
    if (map->dense) return map->dense[tag];
    int lo = 0, hi = map->count - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        long long t = map->sortedTags[mid];
        if (t == tag) return map->sortedIndex[mid];
        if (t < tag)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

void icTagMap_Destroy(icTagMap *map) {
    icFree(map->dense);
    icFree(map->sortedTags);
    icFree(map->sortedIndex);
    memset(map, 0, sizeof *map);
}

// ---------------------------------------------------------------------------------------

void icMeshFields_Destroy(icMeshFields *fields) {
    if (!fields) return;
    for (int i = 0; i < fields->count; ++i) icFree(fields->items[i].data);
    icFree(fields->items);
    memset(fields, 0, sizeof *fields);
}

const icMeshField *icMeshFields_Find(const icMeshFields *fields, const char *name, bool perCell) {
    if (!fields || !name) return NULL;
    for (int i = 0; i < fields->count; ++i)
        if (fields->items[i].perCell == perCell && strcasecmp(fields->items[i].name, name) == 0)
            return &fields->items[i];
    return NULL;
}

bool icFmt_AddField(icMeshFields *fields, const char *name, int components, bool perCell,
                    icReal *data) {
    icMeshField *items = IC_ALLOC(icMeshField, fields->count + 1);
    if (!items) {
        icFree(data);
        return false;
    }
    if (fields->count) memcpy(items, fields->items, sizeof *items * (size_t)fields->count);
    icFree(fields->items);
    fields->items = items;
    icMeshField *f = &items[fields->count++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name ? name : "");
    f->components = components;
    f->perCell = perCell;
    f->data = data;
    return true;
}

bool icFmt_IsRegionName(const char *name) {
    return strcasecmp(name, "region") == 0 || strcasecmp(name, "regions") == 0 ||
           strcasecmp(name, "gmsh:physical") == 0 || strcasecmp(name, "CellEntityIds") == 0 ||
           strcasecmp(name, "medit:ref") == 0;
}

icResult icFmt_DropUnusedVertices(icTetMesh *mesh, icMeshFields *fields, icMeshFileInfo *info) {
    int n = mesh->vertexCount;
    // A byte per vertex answers the common question (is every vertex used?) cheaply.
    uint8_t *used = IC_ALLOC_ZERO(uint8_t, (size_t)n + 1);
    if (!used) return IC_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < 4 * (size_t)mesh->tetCount; ++i) used[mesh->tets[i]] = 1;
    int kept = 0;
    for (int v = 0; v < n; ++v) kept += used[v];
    if (kept == n) {
        icFree(used);
        return IC_OK;
    }
    int *map = IC_ALLOC(int, n);
    if (!map) {
        icFree(used);
        return IC_ERR_OUT_OF_MEMORY;
    }
    kept = 0;
    for (int v = 0; v < n; ++v) map[v] = used[v] ? kept++ : -1;
    icFree(used);
    // Compaction keeps order, so moving entries down in place is safe.
    for (int v = 0; v < n; ++v)
        if (map[v] >= 0)
            for (int k = 0; k < 3; ++k)
                mesh->positions[3 * (size_t)map[v] + k] = mesh->positions[3 * (size_t)v + k];
    for (size_t i = 0; i < 4 * (size_t)mesh->tetCount; ++i) mesh->tets[i] = map[mesh->tets[i]];
    for (int f = 0; fields && f < fields->count; ++f) {
        icMeshField *field = &fields->items[f];
        if (field->perCell) continue;
        int c = field->components;
        for (int v = 0; v < n; ++v)
            if (map[v] >= 0)
                for (int k = 0; k < c; ++k)
                    field->data[(size_t)c * map[v] + k] = field->data[(size_t)c * v + k];
    }
    info->droppedVertices += n - kept;
    mesh->vertexCount = kept;
    icFree(map);
    return IC_OK;
}

void icFmt_FilterCellFields(icMeshFields *fields, const bool *keep, int cellCount) {
    for (int f = 0; fields && f < fields->count; ++f) {
        icMeshField *field = &fields->items[f];
        if (!field->perCell) continue;
        int c = field->components, out = 0;
        for (int i = 0; i < cellCount; ++i) {
            if (!keep[i]) continue;
            for (int k = 0; k < c; ++k)
                field->data[(size_t)c * out + k] = field->data[(size_t)c * i + k];
            ++out;
        }
    }
}

icResult icFmt_SetRegions(icTetMesh *mesh, const int *values, icMeshFileInfo *info) {
    bool any = false;
    for (int t = 0; t < mesh->tetCount && !any; ++t) any = values[t] != 0;
    icFree(mesh->regions);
    mesh->regions = NULL;
    if (!any) return IC_OK;
    mesh->regions = IC_ALLOC(int, mesh->tetCount);
    if (!mesh->regions) return IC_ERR_OUT_OF_MEMORY;
    memcpy(mesh->regions, values, sizeof(int) * (size_t)mesh->tetCount);
    info->hasRegions = true;
    return IC_OK;
}

// ---------------------------------------------------------------------------------------

static bool startsWith(const char *text, size_t size, const char *prefix) {
    size_t n = strlen(prefix);
    return size >= n && strncasecmp(text, prefix, n) == 0;
}

icMeshFormat icFmt_SniffMesh(const char *text, size_t size) {
    // Skip a UTF-8 byte order mark, blank space and (MEDIT) '#' comment lines.
    size_t i = 0;
    if (size >= 3 && (uint8_t)text[0] == 0xEF && (uint8_t)text[1] == 0xBB &&
        (uint8_t)text[2] == 0xBF)
        i = 3;
    for (;;) {
        while (i < size &&
               (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
            ++i;
        if (i < size && text[i] == '#' && !startsWith(text + i, size - i, "# vtk")) {
            while (i < size && text[i] != '\n') ++i;
            continue;
        }
        break;
    }
    const char *p = text + i;
    size_t n = size - i;
    if (startsWith(p, n, "$MeshFormat")) return IC_FORMAT_GMSH;
    if (startsWith(p, n, "# vtk DataFile")) return IC_FORMAT_VTK;
    if (startsWith(p, n, "<?xml") || startsWith(p, n, "<VTKFile")) return IC_FORMAT_VTU;
    if (startsWith(p, n, "MeshVersionFormatted")) return IC_FORMAT_MEDIT;
    return IC_FORMAT_UNKNOWN;
}
