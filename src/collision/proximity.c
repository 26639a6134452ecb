// SPDX-License-Identifier: MIT
// Proximity query: point-triangle and edge-edge pairs of a triangle surface within a
// distance (the repulsion pairs of Bridson et al. 2002 that Irving et al. 2007, sec. 4 turn
// into linear contact constraints), found with the spatial hash and listed in a fixed order.
#include "collision/collision_internal.h"

#include <stdlib.h>

icProximityDef icDefaultProximityDef(void) {
    icProximityDef d;
    d.distance = 0.01;
    d.pointTriangle = true;
    d.edgeEdge = true;
    d.vertexGroup = NULL;
    d.sameGroup = true;
    d.restPositions = NULL;
    d.restDistance = 0;
    return d;
}

void icProximityPairs_Destroy(icProximityPairs *pairs) {
    if (!pairs) return;
    icFree(pairs->items);
    memset(pairs, 0, sizeof *pairs);
}

static bool pushPair(icProximityPairs *pairs, const icProximityPair *p) {
    if (!icGrowArray((void **)&pairs->items, &pairs->capacity, pairs->count + 1, sizeof *p))
        return false;
    pairs->items[pairs->count++] = *p;
    return true;
}

typedef struct icEdge {
    int lo, hi;
} icEdge;

static int compareEdge(const void *a, const void *b) {
    const icEdge *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return (x->hi > y->hi) - (x->hi < y->hi);
}

// Workspace of one query.
typedef struct icProximityWork {
    icHashGrid grid;
    icBox3 *boxes;
    int *query;
    int queryCapacity;
    icEdge *edges;
    int edgeCount;
} icProximityWork;

static int query(icProximityWork *w, icBox3 box) {
    int n = icHashGrid_Query(&w->grid, box, w->query, w->queryCapacity);
    if (n > w->queryCapacity) {
        if (!icGrowArray((void **)&w->query, &w->queryCapacity, n, sizeof(int))) return -1;
        n = icHashGrid_Query(&w->grid, box, w->query, w->queryCapacity);
    }
    return n;
}

// Rest-distance filtering applies within a group only: different bodies never share a
// surface, so their pairs are real contacts even when they started close.
static bool sameGroup(const icProximityDef *def, int a, int b) {
    return !def->vertexGroup || def->vertexGroup[a] == def->vertexGroup[b];
}

static bool groupsAllowed(const icProximityDef *def, int a, int b) {
    if (!def->vertexGroup || def->sameGroup) return true;
    return def->vertexGroup[a] != def->vertexGroup[b];
}

static icResult pointTriangle(const icReal *x, const int *triangles, int triangleCount,
                              const unsigned char *onSurface, int vertexCount,
                              const icProximityDef *def, icProximityWork *w,
                              icProximityPairs *pairs) {
    for (int t = 0; t < triangleCount; ++t) {
        const int *tri = triangles + 3 * t;
        icVec3 a = icVec3_Load(x, tri[0]), b = icVec3_Load(x, tri[1]), c = icVec3_Load(x, tri[2]);
        w->boxes[t].lo = icVec3_Min(a, icVec3_Min(b, c));
        w->boxes[t].hi = icVec3_Max(a, icVec3_Max(b, c));
    }
    icResult r = icHashGrid_Build(&w->grid, w->boxes, triangleCount,
                                  icHashGrid_MeanExtent(w->boxes, triangleCount) + def->distance);
    if (r != IC_OK) return r;
    for (int v = 0; v < vertexCount; ++v) {
        if (!onSurface[v]) continue;
        icVec3 p = icVec3_Load(x, v);
        int found = query(w, icBox3_Point(p, def->distance));
        if (found < 0) return IC_ERR_OUT_OF_MEMORY;
        for (int k = 0; k < found; ++k) {
            int t = w->query[k];
            const int *tri = triangles + 3 * t;
            if (tri[0] == v || tri[1] == v || tri[2] == v) continue;
            if (!groupsAllowed(def, v, tri[0])) continue;
            icReal bary[3];
            icVec3 a = icVec3_Load(x, tri[0]), b = icVec3_Load(x, tri[1]), c = icVec3_Load(x, tri[2]);
            icVec3 q = icClosestOnTriangle(p, a, b, c, bary, NULL);
            icReal dist = icVec3_Distance(p, q);
            if (dist > def->distance) continue;
            if (def->restPositions && sameGroup(def, v, tri[0])) {
                icReal restBary[3];
                icVec3 rp = icVec3_Load(def->restPositions, v);
                icVec3 rq = icClosestOnTriangle(rp, icVec3_Load(def->restPositions, tri[0]),
                                                icVec3_Load(def->restPositions, tri[1]),
                                                icVec3_Load(def->restPositions, tri[2]), restBary, NULL);
                if (icVec3_Distance(rp, rq) < def->restDistance) continue;
            }
            icProximityPair pair;
            pair.kind = IC_PROXIMITY_POINT_TRIANGLE;
            pair.vertices[0] = v;
            pair.weights[0] = 1;
            for (int j = 0; j < 3; ++j) {
                pair.vertices[j + 1] = tri[j];
                pair.weights[j + 1] = -bary[j];
            }
            icVec3 faceNormal = icVec3_Normalize(icVec3_Cross(icVec3_Sub(b, a), icVec3_Sub(c, a)));
            pair.normal = dist > 1e-14 ? icVec3_Scale(1.0 / dist, icVec3_Sub(p, q)) : faceNormal;
            pair.distance = dist;
            if (!pushPair(pairs, &pair)) return IC_ERR_OUT_OF_MEMORY;
        }
    }
    return IC_OK;
}

// A unit vector perpendicular to u (for touching parallel edges).
static icVec3 perpendicular(icVec3 u) {
    icVec3 axis = fabs(u.x) < 0.6 ? icVec3_Make(1, 0, 0) : icVec3_Make(0, 1, 0);
    return icVec3_Normalize(icVec3_Cross(u, axis));
}

static icResult edgeEdge(const icReal *x, const icProximityDef *def, icProximityWork *w,
                         icProximityPairs *pairs) {
    int ne = w->edgeCount;
    for (int e = 0; e < ne; ++e) {
        icVec3 a = icVec3_Load(x, w->edges[e].lo), b = icVec3_Load(x, w->edges[e].hi);
        w->boxes[e].lo = icVec3_Min(a, b);
        w->boxes[e].hi = icVec3_Max(a, b);
    }
    icResult r = icHashGrid_Build(&w->grid, w->boxes, ne, icHashGrid_MeanExtent(w->boxes, ne) + def->distance);
    if (r != IC_OK) return r;
    for (int e = 0; e < ne; ++e) {
        icEdge E = w->edges[e];
        icVec3 p0 = icVec3_Load(x, E.lo), p1 = icVec3_Load(x, E.hi);
        int found = query(w, icBox3_Inflate(w->boxes[e], def->distance));
        if (found < 0) return IC_ERR_OUT_OF_MEMORY;
        for (int k = 0; k < found; ++k) {
            int f = w->query[k];
            if (f <= e) continue; // each unordered pair once
            icEdge F = w->edges[f];
            if (F.lo == E.lo || F.lo == E.hi || F.hi == E.lo || F.hi == E.hi) continue;
            if (!groupsAllowed(def, E.lo, F.lo)) continue;
            icVec3 q0 = icVec3_Load(x, F.lo), q1 = icVec3_Load(x, F.hi);
            icReal s, u;
            icReal dist = sqrt(icClosestSegmentSegment(p0, p1, q0, q1, &s, &u));
            if (dist > def->distance) continue;
            if (def->restPositions && sameGroup(def, E.lo, F.lo)) {
                icReal rs, ru;
                icReal restDist = sqrt(icClosestSegmentSegment(
                    icVec3_Load(def->restPositions, E.lo), icVec3_Load(def->restPositions, E.hi),
                    icVec3_Load(def->restPositions, F.lo), icVec3_Load(def->restPositions, F.hi),
                    &rs, &ru));
                if (restDist < def->restDistance) continue;
            }
            icProximityPair pair;
            pair.kind = IC_PROXIMITY_EDGE_EDGE;
            pair.vertices[0] = E.lo;
            pair.vertices[1] = E.hi;
            pair.vertices[2] = F.lo;
            pair.vertices[3] = F.hi;
            pair.weights[0] = 1 - s;
            pair.weights[1] = s;
            pair.weights[2] = -(1 - u);
            pair.weights[3] = -u;
            icVec3 c1 = icVec3_MulAdd(p0, s, icVec3_Sub(p1, p0));
            icVec3 c2 = icVec3_MulAdd(q0, u, icVec3_Sub(q1, q0));
            if (dist > 1e-14) {
                pair.normal = icVec3_Scale(1.0 / dist, icVec3_Sub(c1, c2));
            } else { // touching: the edges' common normal (the usual collision-code choice)
                icVec3 n = icVec3_Cross(icVec3_Sub(p1, p0), icVec3_Sub(q1, q0));
                pair.normal = icVec3_Length(n) > 0 ? icVec3_Normalize(n)
                                                   : perpendicular(icVec3_Normalize(icVec3_Sub(p1, p0)));
            }
            pair.distance = dist;
            if (!pushPair(pairs, &pair)) return IC_ERR_OUT_OF_MEMORY;
        }
    }
    return IC_OK;
}

icResult icFindProximityPairs(const icReal *positions, int vertexCount, const int *triangles,
                              int triangleCount, const icProximityDef *def,
                              icProximityPairs *pairs) {
    IC_ASSERT(pairs);
    pairs->count = 0;
    if (!def || !(def->distance >= 0) || !isfinite(def->distance)) return IC_ERR_BAD_VALUE;
    if (triangleCount <= 0) return IC_OK;
    if (!positions || !triangles) return IC_ERR_INVALID_ARGUMENT;
    for (int i = 0; i < 3 * triangleCount; ++i)
        if (triangles[i] < 0 || triangles[i] >= vertexCount) return IC_ERR_INDEX_OUT_OF_RANGE;
    icProximityWork w;
    memset(&w, 0, sizeof w);
    unsigned char *onSurface = IC_ALLOC_ZERO(unsigned char, vertexCount);
    w.boxes = IC_ALLOC(icBox3, 3 * (size_t)triangleCount);
    w.edges = IC_ALLOC(icEdge, 3 * (size_t)triangleCount);
    icResult r = (onSurface && w.boxes && w.edges) ? IC_OK : IC_ERR_OUT_OF_MEMORY;
    if (r == IC_OK) {
        for (int i = 0; i < 3 * triangleCount; ++i) onSurface[triangles[i]] = 1;
        // Unique edges, sorted: the edge-edge pass and its output order use them.
        for (int t = 0; t < triangleCount; ++t)
            for (int k = 0; k < 3; ++k) {
                int a = triangles[3 * t + k], b = triangles[3 * t + (k + 1) % 3];
                w.edges[3 * t + k] = (icEdge){a < b ? a : b, a < b ? b : a};
            }
        qsort(w.edges, 3 * (size_t)triangleCount, sizeof(icEdge), compareEdge);
        for (int i = 0; i < 3 * triangleCount; ++i)
            if (w.edgeCount == 0 || compareEdge(&w.edges[w.edgeCount - 1], &w.edges[i]) != 0)
                w.edges[w.edgeCount++] = w.edges[i];
        if (def->pointTriangle)
            r = pointTriangle(positions, triangles, triangleCount, onSurface, vertexCount, def, &w, pairs);
        if (r == IC_OK && def->edgeEdge) r = edgeEdge(positions, def, &w, pairs);
    }
    icHashGrid_Destroy(&w.grid);
    icFree(w.boxes);
    icFree(w.query);
    icFree(w.edges);
    icFree(onSurface);
    return r;
}

// The world's pairs over a boundary surface with its body per vertex: each body a group,
// pairs of one body closer than `distance` at rest skipped.
static icResult findOnSurface(const icWorld *world, const int *triangles, int triangleCount,
                              const int *vertexBody, icReal distance, icProximityPairs *pairs) {
    const icModel *m = &world->model;
    icProximityDef def = icDefaultProximityDef();
    def.distance = distance;
    def.vertexGroup = vertexBody;
    def.sameGroup = true;
    def.restPositions = m->restPositions;
    def.restDistance = distance;
    return icFindProximityPairs(world->state->x, m->vertexCount, triangles, triangleCount, &def,
                                pairs);
}

icResult icWorld_FindProximityPairs(const icWorld *world, icReal distance,
                                    icProximityPairs *pairs) {
    IC_ASSERT(world && pairs);
    pairs->count = 0;
    const icModel *m = &world->model;
    // The contact system's boundary, when it is current, is the same surface.
    const icContactSystem *cs = world->contact;
    if (cs && cs->surfaceRevision == m->revision)
        return findOnSurface(world, cs->triangles, cs->triangleCount, cs->vertexBody, distance,
                             pairs);
    icTetMesh view = {0};
    view.vertexCount = m->vertexCount;
    view.tetCount = m->tetCount;
    view.positions = m->restPositions;
    view.tets = m->tets;
    int *triangles = NULL, triangleCount = 0;
    icResult r = icTetMesh_ExtractSurface(&view, &triangles, &triangleCount, NULL);
    if (r != IC_OK) return r;
    int *group = IC_ALLOC(int, (size_t)m->vertexCount + 1);
    if (!group) {
        icFree(triangles);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int b = 0; b < m->bodyCount; ++b)
        for (int i = 0; i < m->bodies[b].vertexCount; ++i) group[m->bodies[b].vertexStart + i] = b;
    r = findOnSurface(world, triangles, triangleCount, group, distance, pairs);
    icFree(group);
    icFree(triangles);
    return r;
}

icResult icContact_FindProximityPairs(icWorld *world, icReal distance, icProximityPairs *pairs) {
    IC_ASSERT(world && pairs);
    pairs->count = 0;
    icContactSystem *cs = icContact_Get(world);
    if (!cs) return IC_ERR_OUT_OF_MEMORY;
    double t0 = icNowMs();
    icResult r = icContact_UpdateSurface(world, cs);
    if (r == IC_OK)
        r = findOnSurface(world, cs->triangles, cs->triangleCount, cs->vertexBody, distance, pairs);
    world->profile.collide += icNowMs() - t0;
    return r;
}
