// SPDX-License-Identifier: MIT
// Closest-point kernels shared by colliders, contact, proximity and embedding: point to
// segment, point to triangle (with barycentric weights and the feature reached), segment to
// segment, and axis-aligned boxes.
#pragma once

#include "isochor/math.h"

/// An axis-aligned box.
typedef struct icBox3 {
    icVec3 lo, hi;
} icBox3;

static inline icBox3 icBox3_Point(icVec3 p, icReal r) {
    icBox3 b = {icVec3_Make(p.x - r, p.y - r, p.z - r), icVec3_Make(p.x + r, p.y + r, p.z + r)};
    return b;
}
static inline icBox3 icBox3_Union(icBox3 a, icBox3 b) {
    icBox3 u = {icVec3_Min(a.lo, b.lo), icVec3_Max(a.hi, b.hi)};
    return u;
}
static inline icBox3 icBox3_Inflate(icBox3 a, icReal r) {
    icBox3 u = {icVec3_Make(a.lo.x - r, a.lo.y - r, a.lo.z - r),
                icVec3_Make(a.hi.x + r, a.hi.y + r, a.hi.z + r)};
    return u;
}
static inline bool icBox3_Overlap(icBox3 a, icBox3 b) {
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y &&
           a.lo.z <= b.hi.z && b.lo.z <= a.hi.z;
}

/// Closest point to p on segment a-b; *t gets its parameter in [0, 1].
static inline icVec3 icClosestOnSegment(icVec3 p, icVec3 a, icVec3 b, icReal *t) {
    icVec3 ab = icVec3_Sub(b, a);
    icReal len2 = icVec3_Dot(ab, ab);
    icReal s = len2 > 0 ? icVec3_Dot(icVec3_Sub(p, a), ab) / len2 : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    if (t) *t = s;
    return icVec3_MulAdd(a, s, ab);
}

/// Which feature of a triangle a closest point lies on.
typedef enum icTriFeature {
    IC_FEATURE_FACE = 0,
    IC_FEATURE_EDGE01, ///< edge from vertex 0 to 1
    IC_FEATURE_EDGE12,
    IC_FEATURE_EDGE20,
    IC_FEATURE_VERTEX0,
    IC_FEATURE_VERTEX1,
    IC_FEATURE_VERTEX2,
} icTriFeature;

/// Closest point to p on triangle (a, b, c) by Voronoi regions (Ericson, Real-Time Collision
/// Detection, 5.1.5); bary gets its barycentric weights and *feature the region.
icVec3 icClosestOnTriangle(icVec3 p, icVec3 a, icVec3 b, icVec3 c, icReal bary[3],
                           icTriFeature *feature);

/// Closest points of segments p0-p1 and q0-q1 (Ericson 5.1.9, parallel segments included):
/// *s, *u in [0, 1] are their parameters; returns the squared distance.
icReal icClosestSegmentSegment(icVec3 p0, icVec3 p1, icVec3 q0, icVec3 q1, icReal *s, icReal *u);

/// Barycentric weights of p in the plane of triangle (a, b, c) (unclamped; may be negative).
/// Returns false for a degenerate triangle.
bool icTriangleBarycentric(icVec3 p, icVec3 a, icVec3 b, icVec3 c, icReal bary[3]);
