// SPDX-License-Identifier: MIT
// Helpers shared by the contact tests: small box bodies, closed box meshes, point-in-tet and
// triangle-triangle intersection checks (written independently of the library's kernels).
#pragma once

#include "isochor/collision.h"
#include "test.h"

#include <stdlib.h>

/// A box body of the given size and cells, centred at `centre`; NULL on failure.
static inline icBodyId icCollisionTest_AddBox(icWorld *world, icVec3 size, int nx, int ny, int nz,
                                              icVec3 centre, const icSoftBodyDef *def) {
    icTetMesh mesh = {0};
    int cells[3] = {nx, ny, nz};
    icBodyId id = {0};
    if (icGenerateBox(&mesh, size, cells, 6) != IC_OK) return id;
    icSoftBodyDef d = def ? *def : icDefaultSoftBodyDef();
    d.translation = centre;
    icWorld_CreateSoftBody(world, &mesh, &d, &id, NULL);
    icTetMesh_Destroy(&mesh);
    return id;
}

/// A closed box as 8 vertices and 12 outward triangles.
static inline void icCollisionTest_BoxMesh(icVec3 lo, icVec3 hi, icReal positions[24],
                                           int triangles[36]) {
    for (int c = 0; c < 8; ++c) {
        positions[3 * c + 0] = (c & 1) ? hi.x : lo.x;
        positions[3 * c + 1] = (c & 2) ? hi.y : lo.y;
        positions[3 * c + 2] = (c & 4) ? hi.z : lo.z;
    }
    // Faces as quads (corner bit patterns), counter-clockwise seen from outside.
    static const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                    {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int f = 0; f < 6; ++f) {
        const int *q = quads[f];
        int *t = triangles + 6 * f;
        t[0] = q[0], t[1] = q[1], t[2] = q[2];
        t[3] = q[0], t[4] = q[2], t[5] = q[3];
    }
}

/// Smallest barycentric coordinate of p in tet (a, b, c, d): >= 0 inside.
static inline double icCollisionTest_TetInside(icVec3 p, icVec3 a, icVec3 b, icVec3 c, icVec3 d) {
    icVec3 e[3] = {icVec3_Sub(a, d), icVec3_Sub(b, d), icVec3_Sub(c, d)};
    icVec3 r = icVec3_Sub(p, d);
    double det = icVec3_Dot(e[0], icVec3_Cross(e[1], e[2]));
    double l0 = icVec3_Dot(r, icVec3_Cross(e[1], e[2])) / det;
    double l1 = icVec3_Dot(e[0], icVec3_Cross(r, e[2])) / det;
    double l2 = icVec3_Dot(e[0], icVec3_Cross(e[1], r)) / det;
    double l3 = 1 - l0 - l1 - l2;
    double m = l0 < l1 ? l0 : l1;
    m = m < l2 ? m : l2;
    return m < l3 ? m : l3;
}

/// True when segment p-q crosses triangle (a, b, c) at a point strictly inside both
/// (Moeller-Trumbore with margins, so shared edges and touching do not count).
static inline bool icCollisionTest_SegmentCrossesTriangle(icVec3 p, icVec3 q, icVec3 a, icVec3 b,
                                                          icVec3 c) {
    const double eps = 1e-9;
    icVec3 d = icVec3_Sub(q, p), e1 = icVec3_Sub(b, a), e2 = icVec3_Sub(c, a);
    icVec3 h = icVec3_Cross(d, e2);
    double det = icVec3_Dot(e1, h);
    if (fabs(det) < 1e-20) return false; // parallel
    double inv = 1.0 / det;
    icVec3 s = icVec3_Sub(p, a);
    double u = inv * icVec3_Dot(s, h);
    if (u < eps || u > 1 - eps) return false;
    icVec3 qv = icVec3_Cross(s, e1);
    double v = inv * icVec3_Dot(d, qv);
    if (v < eps || u + v > 1 - eps) return false;
    double t = inv * icVec3_Dot(e2, qv);
    return t > eps && t < 1 - eps;
}

/// True when triangles (a0, a1, a2) and (b0, b1, b2) intersect: an edge of one crosses the
/// other (enough for triangles in general position).
static inline bool icCollisionTest_TrianglesIntersect(const icVec3 a[3], const icVec3 b[3]) {
    for (int k = 0; k < 3; ++k) {
        if (icCollisionTest_SegmentCrossesTriangle(a[k], a[(k + 1) % 3], b[0], b[1], b[2])) return true;
        if (icCollisionTest_SegmentCrossesTriangle(b[k], b[(k + 1) % 3], a[0], a[1], a[2])) return true;
    }
    return false;
}

/// Pairs of boundary triangles sharing no vertex that intersect, at positions x (brute force).
static inline int icCollisionTest_CountSurfaceIntersections(const int *tris, int count,
                                                            const icReal *x) {
    int hits = 0;
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j) {
            const int *s = tris + 3 * i, *t = tris + 3 * j;
            bool shared = false;
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) shared |= s[a] == t[b];
            if (shared) continue;
            icVec3 A[3], B[3];
            for (int k = 0; k < 3; ++k) {
                A[k] = icVec3_Load(x, s[k]);
                B[k] = icVec3_Load(x, t[k]);
            }
            if (icCollisionTest_TrianglesIntersect(A, B)) ++hits;
        }
    return hits;
}
