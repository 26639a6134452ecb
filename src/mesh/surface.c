// SPDX-License-Identifier: MIT
// icTetMesh_ExtractSurface: the faces owned by exactly one tet, wound outward.
#include "mesh/mesh_internal.h"

#include <stdlib.h>

// For a positive tet (det[x0-x3, x1-x3, x2-x3] > 0) these windings give normals pointing
// away from the opposite vertex; a test checks every one against the tet's centroid.
const int icMesh_tetFaces[4][3] = {{1, 3, 2}, {0, 2, 3}, {0, 3, 1}, {0, 1, 2}};

typedef struct icFaceEntry {
    uint64_t key; ///< the face's two larger vertex indices (b << 32 | c)
    int face;     ///< 4 tet + local face
    int pad;
} icFaceEntry;

static void sortedFace(const int *tet, int f, int *a, int *b, int *c) {
    int p = tet[icMesh_tetFaces[f][0]], q = tet[icMesh_tetFaces[f][1]],
        r = tet[icMesh_tetFaces[f][2]], s;
    if (p > q) s = p, p = q, q = s;
    if (q > r) s = q, q = r, r = s;
    if (p > q) s = p, p = q, q = s;
    *a = p, *b = q, *c = r;
}

static int compareEntries(const void *lhs, const void *rhs) {
    const icFaceEntry *x = lhs, *y = rhs;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->face > y->face) - (x->face < y->face);
}

icResult icTetMesh_ExtractSurface(const icTetMesh *mesh, int **triangles, int *triangleCount,
                                  int **faceTets) {
    if (!mesh || !triangles || !triangleCount) return IC_ERR_INVALID_ARGUMENT;
    *triangles = NULL;
    *triangleCount = 0;
    if (faceTets) *faceTets = NULL;
    if (mesh->tetCount <= 0) return IC_OK;
    if (!icMesh_IndicesValid(mesh)) return IC_ERR_INDEX_OUT_OF_RANGE;
    if (mesh->tetCount > INT32_MAX / 4) return IC_ERR_INVALID_ARGUMENT;

    // Bucket faces by their smallest vertex (a counting sort, O(n)), then match the few
    // faces in each bucket by their other two vertices. Buckets hold a vertex's faces only,
    // so they are small and sorting them costs next to nothing.
    const int n = mesh->vertexCount, faceCount = 4 * mesh->tetCount;
    int *start = IC_ALLOC_ZERO(int, (size_t)n + 1);
    icFaceEntry *entries = IC_ALLOC(icFaceEntry, faceCount);
    unsigned char *boundary = IC_ALLOC_ZERO(unsigned char, faceCount);
    icResult result = IC_OK;
    if (!start || !entries || !boundary) {
        result = IC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (int f = 0; f < faceCount; ++f) {
        int a, b, c;
        sortedFace(mesh->tets + 4 * (size_t)(f >> 2), f & 3, &a, &b, &c);
        ++start[a + 1];
    }
    for (int v = 0; v < n; ++v)
        start[v + 1] += start[v];
    for (int f = 0; f < faceCount; ++f) {
        int a, b, c;
        sortedFace(mesh->tets + 4 * (size_t)(f >> 2), f & 3, &a, &b, &c);
        // start[a] walks forward while filling; it is restored below.
        icFaceEntry *e = &entries[start[a]++];
        e->key = (uint64_t)(uint32_t)b << 32 | (uint32_t)c;
        e->face = f;
        e->pad = 0;
    }
    for (int v = n; v > 0; --v)
        start[v] = start[v - 1];
    start[0] = 0;

    int boundaryCount = 0;
    for (int v = 0; v < n; ++v) {
        icFaceEntry *bucket = entries + start[v];
        int count = start[v + 1] - start[v];
        if (count > 32) {
            qsort(bucket, (size_t)count, sizeof *bucket, compareEntries);
        } else {
            for (int i = 1; i < count; ++i) {
                icFaceEntry e = bucket[i];
                int j = i - 1;
                for (; j >= 0 && compareEntries(&bucket[j], &e) > 0; --j)
                    bucket[j + 1] = bucket[j];
                bucket[j + 1] = e;
            }
        }
        // A key seen once is a boundary face; twice is interior; more is non-manifold and
        // not boundary either.
        for (int i = 0; i < count;) {
            int j = i + 1;
            while (j < count && bucket[j].key == bucket[i].key)
                ++j;
            if (j - i == 1) {
                boundary[bucket[i].face] = 1;
                ++boundaryCount;
            }
            i = j;
        }
    }

    // Output in (tet, local face) order, independent of the bucket sort.
    int *tris = boundaryCount ? IC_ALLOC(int, 3 * (size_t)boundaryCount) : NULL;
    int *owners = (boundaryCount && faceTets) ? IC_ALLOC(int, boundaryCount) : NULL;
    if (boundaryCount && (!tris || (faceTets && !owners))) {
        icFree(tris);
        icFree(owners);
        result = IC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    int k = 0;
    for (int f = 0; f < faceCount; ++f) {
        if (!boundary[f]) continue;
        const int *tet = mesh->tets + 4 * (size_t)(f >> 2);
        for (int i = 0; i < 3; ++i)
            tris[3 * k + i] = tet[icMesh_tetFaces[f & 3][i]];
        if (owners) owners[k] = f >> 2;
        ++k;
    }
    *triangles = tris;
    *triangleCount = boundaryCount;
    if (faceTets) *faceTets = owners;
done:
    icFree(start);
    icFree(entries);
    icFree(boundary);
    return result;
}
