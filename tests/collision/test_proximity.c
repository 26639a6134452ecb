// SPDX-License-Identifier: MIT
// Closest-point kernels against dense sampling, the spatial hash against brute force, and the
// proximity query against an all-pairs search.
#include "collision_testing.h"

#include "collision/geometry.h"
#include "collision/hash_grid.h"

#include <string.h>

static icVec3 randomPoint(double r) {
    return icVec3_Make(icTest_Uniform(-r, r), icTest_Uniform(-r, r), icTest_Uniform(-r, r));
}

IC_TEST(collision, proximity_closest_points_match_sampling) {
    icTest_Seed(7);
    double worstTri = 0, worstSeg = 0;
    for (int trial = 0; trial < 100; ++trial) {
        icVec3 a = randomPoint(1), b = randomPoint(1), c = randomPoint(1), p = randomPoint(1.5);
        icReal bary[3];
        icVec3 q = icClosestOnTriangle(p, a, b, c, bary, NULL);
        // The weights reproduce the point and sum to 1.
        icVec3 r = icVec3_Add(icVec3_Add(icVec3_Scale(bary[0], a), icVec3_Scale(bary[1], b)),
                              icVec3_Scale(bary[2], c));
        IC_CHECK_NEAR(icVec3_Distance(q, r), 0, 1e-12);
        IC_CHECK_NEAR(bary[0] + bary[1] + bary[2], 1, 1e-12);
        double best = INFINITY;
        for (int i = 0; i <= 200; ++i)
            for (int j = 0; i + j <= 200; ++j) {
                icVec3 s = icVec3_Add(icVec3_Add(icVec3_Scale(i / 200.0, a), icVec3_Scale(j / 200.0, b)),
                                      icVec3_Scale(1 - (i + j) / 200.0, c));
                best = fmin(best, icVec3_Distance(p, s));
            }
        double d = icVec3_Distance(p, q);
        IC_CHECK_MSG(d <= best + 1e-12, "closest point %g farther than a sample %g", d, best);
        worstTri = fmax(worstTri, best - d);

        icVec3 p1 = randomPoint(1), q0 = randomPoint(1), q1 = randomPoint(1);
        if (trial % 10 == 0) q1 = icVec3_Add(q0, icVec3_Sub(p1, p)); // parallel segments
        icReal s, u;
        double d2 = sqrt(icClosestSegmentSegment(p, p1, q0, q1, &s, &u));
        double bestSeg = INFINITY;
        for (int i = 0; i <= 400; ++i)
            for (int j = 0; j <= 400; ++j)
                bestSeg = fmin(bestSeg, icVec3_Distance(icVec3_MulAdd(p, i / 400.0, icVec3_Sub(p1, p)),
                                                        icVec3_MulAdd(q0, j / 400.0, icVec3_Sub(q1, q0))));
        IC_CHECK_MSG(d2 <= bestSeg + 1e-12, "segment distance %g above a sample %g", d2, bestSeg);
        worstSeg = fmax(worstSeg, bestSeg - d2);
    }
    // Sampling on a 1/200 (1/400) lattice is within a few mm of the true minimum.
    IC_CHECK_MSG(worstTri < 0.02 && worstSeg < 0.02, "samples %g / %g below the kernels", worstTri, worstSeg);
}

IC_TEST(collision, proximity_hash_grid_matches_brute_force) {
    icTest_Seed(3);
    enum { N = 2000 };
    icBox3 *boxes = malloc(sizeof(icBox3) * N);
    for (int i = 0; i < N; ++i) {
        icVec3 c = randomPoint(5), e = icVec3_Make(icTest_Uniform(0, 0.3), icTest_Uniform(0, 0.3),
                                                   icTest_Uniform(0, i % 100 == 0 ? 4 : 0.3));
        boxes[i].lo = icVec3_Sub(c, e);
        boxes[i].hi = icVec3_Add(c, e);
    }
    icHashGrid grid;
    memset(&grid, 0, sizeof grid);
    IC_CHECK_RESULT(icHashGrid_Build(&grid, boxes, N, 0.2), IC_OK);
    int out[N], mismatches = 0;
    for (int q = 0; q < 300; ++q) {
        icBox3 query = icBox3_Point(randomPoint(5.5), icTest_Uniform(0, q % 50 == 0 ? 6 : 0.5));
        int n = icHashGrid_Query(&grid, query, out, N);
        int expected = 0, previous = -1;
        for (int i = 0; i < N; ++i)
            if (icBox3_Overlap(boxes[i], query)) {
                if (expected >= n || out[expected] != i) ++mismatches;
                ++expected;
            }
        for (int k = 0; k < n; ++k) {
            if (out[k] <= previous) ++mismatches; // ascending, no duplicates
            previous = out[k];
        }
        if (n != expected) ++mismatches;
    }
    IC_CHECK_INT(mismatches, 0);
    icHashGrid_Destroy(&grid);
    free(boxes);
}

// All pairs by brute force, in the documented order.
static int bruteForce(const icReal *x, const int *tris, int nt, int nv, double distance,
                      icProximityPair *out, int capacity) {
    int n = 0;
    unsigned char *onSurface = calloc((size_t)nv, 1);
    for (int i = 0; i < 3 * nt; ++i) onSurface[tris[i]] = 1;
    for (int v = 0; v < nv; ++v) {
        if (!onSurface[v]) continue;
        for (int t = 0; t < nt; ++t) {
            const int *tri = tris + 3 * t;
            if (tri[0] == v || tri[1] == v || tri[2] == v) continue;
            icReal bary[3];
            icVec3 q = icClosestOnTriangle(icVec3_Load(x, v), icVec3_Load(x, tri[0]), icVec3_Load(x, tri[1]),
                                           icVec3_Load(x, tri[2]), bary, NULL);
            double d = icVec3_Distance(q, icVec3_Load(x, v));
            if (d <= distance && n < capacity) {
                out[n].kind = IC_PROXIMITY_POINT_TRIANGLE;
                out[n].vertices[0] = v;
                out[n].vertices[1] = tri[0];
                out[n].distance = d;
                ++n;
            }
        }
    }
    // Unique sorted edges.
    int ne = 0;
    int (*edges)[2] = malloc(sizeof(int[2]) * 3 * (size_t)nt);
    for (int t = 0; t < nt; ++t)
        for (int k = 0; k < 3; ++k) {
            int a = tris[3 * t + k], b = tris[3 * t + (k + 1) % 3];
            int lo = a < b ? a : b, hi = a < b ? b : a, seen = 0;
            for (int e = 0; e < ne && !seen; ++e) seen = edges[e][0] == lo && edges[e][1] == hi;
            if (!seen) edges[ne][0] = lo, edges[ne][1] = hi, ++ne;
        }
    for (int i = 0; i < ne; ++i) // selection sort (lexicographic)
        for (int j = i + 1; j < ne; ++j)
            if (edges[j][0] < edges[i][0] || (edges[j][0] == edges[i][0] && edges[j][1] < edges[i][1])) {
                int t0 = edges[i][0], t1 = edges[i][1];
                edges[i][0] = edges[j][0], edges[i][1] = edges[j][1];
                edges[j][0] = t0, edges[j][1] = t1;
            }
    for (int e = 0; e < ne; ++e)
        for (int f = e + 1; f < ne; ++f) {
            if (edges[e][0] == edges[f][0] || edges[e][0] == edges[f][1] || edges[e][1] == edges[f][0] ||
                edges[e][1] == edges[f][1])
                continue;
            icReal s, u;
            double d = sqrt(icClosestSegmentSegment(icVec3_Load(x, edges[e][0]), icVec3_Load(x, edges[e][1]),
                                                    icVec3_Load(x, edges[f][0]), icVec3_Load(x, edges[f][1]),
                                                    &s, &u));
            if (d <= distance && n < capacity) {
                out[n].kind = IC_PROXIMITY_EDGE_EDGE;
                out[n].vertices[0] = edges[e][0];
                out[n].vertices[1] = edges[e][1];
                out[n].distance = d;
                ++n;
            }
        }
    free(edges);
    free(onSurface);
    return n;
}

IC_TEST(collision, proximity_pairs_match_brute_force) {
    // Two boxes' surfaces, the second jittered and pressed close to the first.
    icTetMesh a = {0}, b = {0};
    int cells[3] = {3, 3, 3};
    icGenerateBox(&a, icVec3_Make(1, 1, 1), cells, 6);
    icGenerateBox(&b, icVec3_Make(1, 1, 1), cells, 6);
    int *ta = NULL, *tb = NULL, na = 0, nb = 0;
    icTetMesh_ExtractSurface(&a, &ta, &na, NULL);
    icTetMesh_ExtractSurface(&b, &tb, &nb, NULL);
    int nv = a.vertexCount + b.vertexCount, nt = na + nb;
    icReal *x = malloc(sizeof(icReal) * 3 * (size_t)nv);
    int *tris = malloc(sizeof(int) * 3 * (size_t)nt);
    icTest_Seed(11);
    memcpy(x, a.positions, sizeof(icReal) * 3 * (size_t)a.vertexCount);
    for (int v = 0; v < b.vertexCount; ++v) {
        icVec3 p = icVec3_Load(b.positions, v);
        p = icVec3_Add(p, icVec3_Make(1.02 + icTest_Uniform(-0.03, 0.03), icTest_Uniform(-0.05, 0.05),
                                      icTest_Uniform(-0.05, 0.05)));
        icVec3_Store(x, a.vertexCount + v, p);
    }
    memcpy(tris, ta, sizeof(int) * 3 * (size_t)na);
    for (int i = 0; i < 3 * nb; ++i) tris[3 * na + i] = tb[i] + a.vertexCount;
    icProximityDef def = icDefaultProximityDef();
    def.distance = 0.06;
    icProximityPairs pairs = {0};
    IC_CHECK_RESULT(icFindProximityPairs(x, nv, tris, nt, &def, &pairs), IC_OK);
    enum { CAP = 200000 };
    icProximityPair *expected = malloc(sizeof(icProximityPair) * CAP);
    int n = bruteForce(x, tris, nt, nv, def.distance, expected, CAP);
    int pointTriangles = 0;
    for (int i = 0; i < pairs.count; ++i) pointTriangles += pairs.items[i].kind == IC_PROXIMITY_POINT_TRIANGLE;
    printf("  %d pairs within %.2f m (brute force %d), of which %d point-triangle\n", pairs.count,
           def.distance, n, pointTriangles);
    IC_CHECK_INT(pairs.count, n);
    int bad = 0;
    for (int i = 0; i < pairs.count && i < n; ++i) {
        const icProximityPair *p = &pairs.items[i];
        if (p->kind != expected[i].kind || p->vertices[0] != expected[i].vertices[0] ||
            fabs(p->distance - expected[i].distance) > 1e-12)
            ++bad;
        // sum w_i x_i = distance * normal.
        icVec3 sep = icVec3_Make(0, 0, 0);
        for (int k = 0; k < 4; ++k) sep = icVec3_MulAdd(sep, p->weights[k], icVec3_Load(x, p->vertices[k]));
        if (icVec3_Distance(sep, icVec3_Scale(p->distance, p->normal)) > 1e-12) ++bad;
        if (fabs(p->weights[0] + p->weights[1] + p->weights[2] + p->weights[3]) > 1e-12) ++bad;
    }
    IC_CHECK_INT(bad, 0);
    // Groups: with the two boxes as groups and sameGroup off, only pairs across them remain.
    int *group = malloc(sizeof(int) * (size_t)nv);
    for (int v = 0; v < nv; ++v) group[v] = v < a.vertexCount ? 0 : 1;
    def.vertexGroup = group;
    def.sameGroup = false;
    IC_CHECK_RESULT(icFindProximityPairs(x, nv, tris, nt, &def, &pairs), IC_OK);
    int across = 0;
    for (int i = 0; i < n; ++i) {
        int g0 = group[expected[i].vertices[0]];
        int g1 = expected[i].kind == IC_PROXIMITY_POINT_TRIANGLE ? group[expected[i].vertices[1]] : -1;
        if (expected[i].kind == IC_PROXIMITY_POINT_TRIANGLE && g0 != g1) ++across;
    }
    int ptAcross = 0;
    for (int i = 0; i < pairs.count; ++i) {
        IC_CHECK(group[pairs.items[i].vertices[0]] != group[pairs.items[i].vertices[2]]);
        if (pairs.items[i].kind == IC_PROXIMITY_POINT_TRIANGLE) ++ptAcross;
    }
    IC_CHECK_INT(ptAcross, across);
    IC_CHECK(ptAcross > 0);
    int *bad3 = malloc(sizeof(int) * 3);
    bad3[0] = 0, bad3[1] = 1, bad3[2] = nv;
    IC_CHECK_RESULT(icFindProximityPairs(x, nv, bad3, 1, &def, &pairs), IC_ERR_INDEX_OUT_OF_RANGE);
    free(bad3);
    free(group);
    free(expected);
    icProximityPairs_Destroy(&pairs);
    free(x);
    free(tris);
    icFree(ta);
    icFree(tb);
    icTetMesh_Destroy(&a);
    icTetMesh_Destroy(&b);
}

IC_TEST(collision, proximity_world_pairs_skip_rest_neighbours) {
    icWorld *world = icCreateWorld(NULL);
    icCollisionTest_AddBox(world, icVec3_Make(0.3, 0.3, 0.3), 3, 3, 3, icVec3_Make(0, 0, 0), NULL);
    icProximityPairs pairs = {0};
    // At rest every pair within 1 cm is a neighbour on the surface: none are reported.
    IC_CHECK_RESULT(icWorld_FindProximityPairs(world, 0.01, &pairs), IC_OK);
    IC_CHECK_INT(pairs.count, 0);
    // A second box 5 mm away: pairs across the gap appear.
    icCollisionTest_AddBox(world, icVec3_Make(0.3, 0.3, 0.3), 3, 3, 3, icVec3_Make(0.305, 0, 0), NULL);
    IC_CHECK_RESULT(icWorld_FindProximityPairs(world, 0.01, &pairs), IC_OK);
    int pt = 0;
    for (int i = 0; i < pairs.count; ++i) {
        IC_CHECK_NEAR(pairs.items[i].distance, 0.005, 1e-12);
        pt += pairs.items[i].kind == IC_PROXIMITY_POINT_TRIANGLE;
    }
    printf("  two boxes 5 mm apart: %d pairs, %d point-triangle\n", pairs.count, pt);
    IC_CHECK(pt >= 32); // each face has 16 vertices facing the other box
    icProximityPairs_Destroy(&pairs);
    icDestroyWorld(world);
}
