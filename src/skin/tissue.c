// SPDX-License-Identifier: MIT
// The "tissue" of a creature (Macklin & Müller 2021, sec. 5.3): a soft layer around capsule
// bones carved from a hex grid (so the paper's 8-colour cell scheme applies), its outer
// boundary moved onto the union of capsules, and a finer render surface of the same union by
// marching tetrahedra on a grid, visiting only blocks the surface passes through.
#include "isochor/skin.h"
#include "mesh/mesh_internal.h"

icTissueDef icDefaultTissueDef(void) {
    icTissueDef d;
    d.capsules = NULL;
    d.capsuleCount = 0;
    d.cellSize = 0.05;
    d.split = 6;
    return d;
}

// Distance from p to capsule c's outer surface and the unit direction away from its axis.
static icReal capsuleDistance(const icTissueCapsule *c, icVec3 p, icVec3 *direction) {
    icVec3 ab = icVec3_Sub(c->b, c->a);
    icReal len2 = icVec3_Dot(ab, ab);
    icReal s = len2 > 0 ? icVec3_Dot(icVec3_Sub(p, c->a), ab) / len2 : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    icVec3 d = icVec3_Sub(p, icVec3_MulAdd(c->a, s, ab));
    icReal l = icVec3_Length(d);
    if (direction) *direction = l > 0 ? icVec3_Scale(1.0 / l, d) : icVec3_Make(0, 1, 0);
    return l - c->radius;
}

static icReal axisDistance(const icTissueCapsule *c, icVec3 p) {
    return capsuleDistance(c, p, NULL) + c->radius;
}

icReal icTissue_Distance(const icTissueDef *def, icVec3 p) {
    icReal best = INFINITY;
    for (int i = 0; i < def->capsuleCount; ++i) {
        icReal d = capsuleDistance(&def->capsules[i], p, NULL);
        if (d < best) best = d;
    }
    return best;
}

// The nearest capsule's distance and outward direction (the union's gradient almost
// everywhere).
static icReal unionDistance(const icTissueDef *def, icVec3 p, icVec3 *direction) {
    icReal best = INFINITY;
    *direction = icVec3_Make(0, 1, 0);
    for (int i = 0; i < def->capsuleCount; ++i) {
        icVec3 dir;
        icReal d = capsuleDistance(&def->capsules[i], p, &dir);
        if (d < best) {
            best = d;
            *direction = dir;
        }
    }
    return best;
}

static bool insideBone(const icTissueDef *def, icVec3 p) {
    for (int i = 0; i < def->capsuleCount; ++i)
        if (def->capsules[i].boneRadius > 0 && axisDistance(&def->capsules[i], p) < def->capsules[i].boneRadius)
            return true;
    return false;
}

static icResult checkDef(const icTissueDef *def) {
    if (!def || def->capsuleCount < 1 || !def->capsules) return IC_ERR_BAD_VALUE;
    if (!(def->cellSize > 0) || !isfinite(def->cellSize)) return IC_ERR_BAD_VALUE;
    if (def->split != 5 && def->split != 6) return IC_ERR_BAD_VALUE;
    for (int i = 0; i < def->capsuleCount; ++i) {
        const icTissueCapsule *c = &def->capsules[i];
        if (!icVec3_IsFinite(c->a) || !icVec3_IsFinite(c->b) || !isfinite(c->radius) ||
            !isfinite(c->boneRadius))
            return IC_ERR_NOT_FINITE;
        if (!(c->radius > 0) || !(c->boneRadius >= 0) || !(c->boneRadius < c->radius))
            return IC_ERR_BAD_VALUE;
    }
    return IC_OK;
}

static void bounds(const icTissueDef *def, icVec3 *lo, icVec3 *hi) {
    *lo = icVec3_Make(INFINITY, INFINITY, INFINITY);
    *hi = icVec3_Neg(*lo);
    for (int i = 0; i < def->capsuleCount; ++i) {
        const icTissueCapsule *c = &def->capsules[i];
        icVec3 r = icVec3_Make(c->radius, c->radius, c->radius);
        *lo = icVec3_Min(*lo, icVec3_Sub(icVec3_Min(c->a, c->b), r));
        *hi = icVec3_Max(*hi, icVec3_Add(icVec3_Max(c->a, c->b), r));
    }
}

// ---------------------------------------------------------------------------------------
// Tet mesh

// Moves outer boundary vertices onto the union's surface (bone-side vertices stay: they are
// attached to the bone), each move kept only while every tet around keeps half its carved
// volume, in three passes so neighbours can follow (as the sphere generator does).
static bool tissueTarget(icVec3 p, const void *context, icVec3 *target) {
    const icTissueDef *def = context;
    icVec3 dir;
    if (unionDistance(def, p, &dir) < -0.75 * def->cellSize) return false; // the bone's side
    // Projection onto the nearest capsule can land inside another one near a seam of the
    // union; a few repeats settle on the union's surface.
    *target = p;
    for (int it = 0; it < 4; ++it) {
        icReal d = unionDistance(def, *target, &dir);
        *target = icVec3_MulAdd(*target, -d, dir);
    }
    return true;
}

static icResult snapOuter(icTetMesh *mesh, const icTissueDef *def) {
    return icMesh_SnapBoundary(mesh, tissueTarget, def, 0.5, 3);
}

icResult icGenerateTissue(icTetMesh *mesh, const icTissueDef *def) {
    memset(mesh, 0, sizeof *mesh);
    icResult r = checkDef(def);
    if (r != IC_OK) return r;
    icReal h = def->cellSize;
    icVec3 lo, hi;
    bounds(def, &lo, &hi);
    icVec3 centre = icVec3_Scale(0.5, icVec3_Add(lo, hi)), extent = icVec3_Sub(hi, lo);
    int cells[3];
    for (int a = 0; a < 3; ++a) {
        double n = ceil(icVec3_Get(extent, a) / h);
        if (!(n < 4000)) return IC_ERR_BAD_VALUE; // a cell size far too small for the body
        cells[a] = n < 1 ? 1 : (int)n;
    }
    icReal *coords[3] = {NULL, NULL, NULL};
    size_t cellCount = (size_t)cells[0] * cells[1] * cells[2];
    unsigned char *keep = IC_ALLOC(unsigned char, cellCount);
    r = keep ? IC_OK : IC_ERR_OUT_OF_MEMORY;
    for (int a = 0; a < 3 && r == IC_OK; ++a) {
        coords[a] = IC_ALLOC(icReal, cells[a] + 1);
        if (!coords[a]) {
            r = IC_ERR_OUT_OF_MEMORY;
            break;
        }
        icReal start = icVec3_Get(centre, a) - 0.5 * cells[a] * h;
        for (int i = 0; i <= cells[a]; ++i) coords[a][i] = start + i * h;
    }
    if (r == IC_OK) {
        // A cell is flesh when its centre is inside the union and outside every bone.
        size_t c = 0;
        for (int k = 0; k < cells[2]; ++k)
            for (int j = 0; j < cells[1]; ++j)
                for (int i = 0; i < cells[0]; ++i, ++c) {
                    icVec3 p = icVec3_Make(coords[0][i] + 0.5 * h, coords[1][j] + 0.5 * h,
                                           coords[2][k] + 0.5 * h);
                    keep[c] = icTissue_Distance(def, p) < 0 && !insideBone(def, p);
                }
        r = icMesh_BuildGrid(mesh, (const icReal *const *)coords, cells, def->split, keep);
    }
    if (r == IC_OK) r = snapOuter(mesh, def);
    if (r != IC_OK) icTetMesh_Destroy(mesh);
    icFree(keep);
    for (int a = 0; a < 3; ++a) icFree(coords[a]);
    return r;
}

// ---------------------------------------------------------------------------------------
// Render surface: marching tetrahedra

typedef struct icEdgeMap {
    int64_t *keys; ///< (capacity), -1 = empty
    int *values;
    int capacity, count;
} icEdgeMap;

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static bool edgeMapGrow(icEdgeMap *map) {
    int capacity = map->capacity ? 2 * map->capacity : 1 << 16;
    int64_t *keys = IC_ALLOC(int64_t, capacity);
    int *values = IC_ALLOC(int, capacity);
    if (!keys || !values) {
        icFree(keys);
        icFree(values);
        return false;
    }
    for (int i = 0; i < capacity; ++i) keys[i] = -1;
    for (int i = 0; i < map->capacity; ++i) {
        if (map->keys[i] < 0) continue;
        int slot = (int)(mix64((uint64_t)map->keys[i]) & (uint64_t)(capacity - 1));
        while (keys[slot] >= 0) slot = (slot + 1) & (capacity - 1);
        keys[slot] = map->keys[i];
        values[slot] = map->values[i];
    }
    icFree(map->keys);
    icFree(map->values);
    map->keys = keys;
    map->values = values;
    map->capacity = capacity;
    return true;
}

// The slot of key: found (*found true) or the empty slot where it goes.
static int edgeMapSlot(const icEdgeMap *map, int64_t key, bool *found) {
    int slot = (int)(mix64((uint64_t)key) & (uint64_t)(map->capacity - 1));
    while (map->keys[slot] >= 0) {
        if (map->keys[slot] == key) {
            *found = true;
            return slot;
        }
        slot = (slot + 1) & (map->capacity - 1);
    }
    *found = false;
    return slot;
}

typedef struct icSurfaceBuild {
    icEdgeMap map;
    icReal *positions;
    int vertexCount, vertexCapacity;
    int *triangles;
    int triangleCount, triangleCapacity;
    int64_t vertexStride; ///< number of grid vertices (edge keys are a * stride + b)
} icSurfaceBuild;

// The surface vertex on the grid edge between grid vertices a and b (values va < 0 <= vb or
// the other way), made once and shared by every triangle that uses the edge.
static int edgeVertex(icSurfaceBuild *s, int64_t a, int64_t b, icVec3 pa, icVec3 pb, icReal va,
                      icReal vb) {
    if (a > b) {
        int64_t t = a;
        a = b;
        b = t;
        icVec3 tp = pa;
        pa = pb;
        pb = tp;
        icReal tv = va;
        va = vb;
        vb = tv;
    }
    int64_t key = a * s->vertexStride + b;
    if (2 * (s->map.count + 1) > s->map.capacity && !edgeMapGrow(&s->map)) return -1;
    bool found;
    int slot = edgeMapSlot(&s->map, key, &found);
    if (found) return s->map.values[slot];
    if (!icGrowArray((void **)&s->positions, &s->vertexCapacity, s->vertexCount + 1, 3 * sizeof(icReal)))
        return -1;
    icReal t = va / (va - vb);
    icVec3_Store(s->positions, s->vertexCount, icVec3_MulAdd(pa, t, icVec3_Sub(pb, pa)));
    s->map.keys[slot] = key;
    s->map.values[slot] = s->vertexCount;
    s->map.count++;
    return s->vertexCount++;
}

// Appends triangle (i, j, k), or (i, k, j) when flip.
static bool addTriangle(icSurfaceBuild *s, int i, int j, int k, bool flip) {
    if (i < 0 || j < 0 || k < 0) return false;
    if (!icGrowArray((void **)&s->triangles, &s->triangleCapacity, s->triangleCount + 1, 3 * sizeof(int)))
        return false;
    int *t = s->triangles + 3 * s->triangleCount++;
    t[0] = i;
    t[1] = flip ? k : j;
    t[2] = flip ? j : k;
    return true;
}

static inline icReal det3(icVec3 a, icVec3 b, icVec3 c) { return icVec3_Dot(a, icVec3_Cross(b, c)); }

// One tet of the grid: corners with global ids, positions and values (inside: value < 0).
// The winding comes from the tet's corners, not from the (possibly tiny) triangles: a
// triangle cutting off corner c faces away from it when det(p_j - p_c, p_k - p_c, p_l - p_c)
// > 0 for its corners on edges (c, j), (c, k), (c, l); a quad between inside edge i0-i1 and
// outside edge o0-o1 faces outwards when det(o1 - o0, i1 - i0, o0 - i0) > 0.
static bool marchTet(icSurfaceBuild *s, const int64_t id[4], const icVec3 p[4], const icReal v[4]) {
    int in[4], out[4], ni = 0, no = 0;
    for (int k = 0; k < 4; ++k) {
        if (v[k] < 0)
            in[ni++] = k;
        else
            out[no++] = k;
    }
    if (ni == 0 || no == 0) return true;
#define IC_EDGE(a, b) edgeVertex(s, id[a], id[b], p[a], p[b], v[a], v[b])
    if (ni == 1 || no == 1) {
        int lone = ni == 1 ? in[0] : out[0];
        const int *others = ni == 1 ? out : in;
        icReal d = det3(icVec3_Sub(p[others[0]], p[lone]), icVec3_Sub(p[others[1]], p[lone]),
                        icVec3_Sub(p[others[2]], p[lone]));
        // Facing away from an inside corner, towards an outside one.
        bool flip = ni == 1 ? d < 0 : d > 0;
        return addTriangle(s, IC_EDGE(lone, others[0]), IC_EDGE(lone, others[1]),
                           IC_EDGE(lone, others[2]), flip);
    }
    int q0 = IC_EDGE(in[0], out[0]), q1 = IC_EDGE(in[0], out[1]);
    int q2 = IC_EDGE(in[1], out[1]), q3 = IC_EDGE(in[1], out[0]);
#undef IC_EDGE
    bool flip = det3(icVec3_Sub(p[out[1]], p[out[0]]), icVec3_Sub(p[in[1]], p[in[0]]),
                     icVec3_Sub(p[out[0]], p[in[0]])) < 0;
    return addTriangle(s, q0, q1, q2, flip) && addTriangle(s, q0, q2, q3, flip);
}

icResult icGenerateTissueSurface(const icTissueDef *def, icReal cellSize, icReal **positions,
                                 int *vertexCount, int **triangles, int *triangleCount) {
    *positions = NULL;
    *triangles = NULL;
    *vertexCount = *triangleCount = 0;
    icResult r = checkDef(def);
    if (r != IC_OK) return r;
    if (!(cellSize > 0) || !isfinite(cellSize)) return IC_ERR_BAD_VALUE;
    icReal h = cellSize;
    icVec3 lo, hi;
    bounds(def, &lo, &hi);
    // Two cells of margin: the grid's outer vertices are all outside.
    lo = icVec3_Sub(lo, icVec3_Make(2 * h, 2 * h, 2 * h));
    hi = icVec3_Add(hi, icVec3_Make(2 * h, 2 * h, 2 * h));
    int n[3];
    for (int a = 0; a < 3; ++a) {
        double c = ceil((icVec3_Get(hi, a) - icVec3_Get(lo, a)) / h);
        if (!(c < 20000)) return IC_ERR_BAD_VALUE;
        n[a] = (int)c;
    }
    enum { B = 8 }; // cells per block side
    icSurfaceBuild s;
    memset(&s, 0, sizeof s);
    s.vertexStride = (int64_t)(n[0] + 1) * (n[1] + 1) * (n[2] + 1);
    icReal *value = IC_ALLOC(icReal, (B + 1) * (B + 1) * (B + 1));
    if (!value || !edgeMapGrow(&s.map)) {
        icFree(value);
        icFree(s.map.keys);
        icFree(s.map.values);
        return IC_ERR_OUT_OF_MEMORY;
    }
    // The six tets of a cube around its main diagonal (corner c = dx + 2 dy + 4 dz): one per
    // axis order, so neighbouring cubes' tets meet face to face.
    static const int cubeTets[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7},
                                       {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
    icReal blockReach = sqrt(3.0) * 0.5 * B * h + h;
    bool ok = true;
    for (int bk = 0; bk < n[2] && ok; bk += B)
        for (int bj = 0; bj < n[1] && ok; bj += B)
            for (int bi = 0; bi < n[0] && ok; bi += B) {
                int m[3] = {n[0] - bi < B ? n[0] - bi : B, n[1] - bj < B ? n[1] - bj : B,
                            n[2] - bk < B ? n[2] - bk : B};
                icVec3 blockCentre = icVec3_Make(lo.x + (bi + 0.5 * B) * h, lo.y + (bj + 0.5 * B) * h,
                                                 lo.z + (bk + 0.5 * B) * h);
                // No surface within the block: its centre is farther from it than the block
                // reaches (the distance is 1-Lipschitz).
                if (fabs(icTissue_Distance(def, blockCentre)) > blockReach) continue;
                for (int k = 0; k <= m[2]; ++k)
                    for (int j = 0; j <= m[1]; ++j)
                        for (int i = 0; i <= m[0]; ++i) {
                            icVec3 p = icVec3_Make(lo.x + (bi + i) * h, lo.y + (bj + j) * h, lo.z + (bk + k) * h);
                            icReal d = icTissue_Distance(def, p);
                            // A corner exactly on the surface counts as (just) outside, so
                            // no two crossing vertices coincide.
                            value[i + (B + 1) * (j + (B + 1) * k)] = d == 0 ? 1e-9 * h : d;
                        }
                for (int k = 0; k < m[2] && ok; ++k)
                    for (int j = 0; j < m[1] && ok; ++j)
                        for (int i = 0; i < m[0] && ok; ++i) {
                            int64_t id[8];
                            icVec3 p[8];
                            icReal v[8];
                            int inside = 0;
                            for (int c = 0; c < 8; ++c) {
                                int di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1;
                                v[c] = value[(i + di) + (B + 1) * ((j + dj) + (B + 1) * (k + dk))];
                                inside += v[c] < 0;
                                int gi = bi + i + di, gj = bj + j + dj, gk = bk + k + dk;
                                id[c] = gi + (int64_t)(n[0] + 1) * (gj + (int64_t)(n[1] + 1) * gk);
                                p[c] = icVec3_Make(lo.x + gi * h, lo.y + gj * h, lo.z + gk * h);
                            }
                            if (inside == 0 || inside == 8) continue;
                            for (int t = 0; t < 6 && ok; ++t) {
                                int64_t tid[4];
                                icVec3 tp[4];
                                icReal tv[4];
                                for (int q = 0; q < 4; ++q) {
                                    tid[q] = id[cubeTets[t][q]];
                                    tp[q] = p[cubeTets[t][q]];
                                    tv[q] = v[cubeTets[t][q]];
                                }
                                ok = marchTet(&s, tid, tp, tv);
                            }
                        }
            }
    icFree(value);
    icFree(s.map.keys);
    icFree(s.map.values);
    if (!ok) {
        icFree(s.positions);
        icFree(s.triangles);
        return IC_ERR_OUT_OF_MEMORY;
    }
    *positions = s.positions;
    *triangles = s.triangles;
    *vertexCount = s.vertexCount;
    *triangleCount = s.triangleCount;
    return IC_OK;
}
