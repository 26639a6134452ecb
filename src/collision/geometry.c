// SPDX-License-Identifier: MIT
// Closest points between points, segments and triangles (Ericson, Real-Time Collision
// Detection, sec. 5.1): the narrow phase of every contact and proximity query.
#include "collision/geometry.h"

icVec3 icClosestOnTriangle(icVec3 p, icVec3 a, icVec3 b, icVec3 c, icReal bary[3],
                           icTriFeature *feature) {
    icVec3 ab = icVec3_Sub(b, a), ac = icVec3_Sub(c, a), ap = icVec3_Sub(p, a);
    icReal d1 = icVec3_Dot(ab, ap), d2 = icVec3_Dot(ac, ap);
    icTriFeature f;
    if (d1 <= 0 && d2 <= 0) { // vertex a
        bary[0] = 1, bary[1] = 0, bary[2] = 0;
        f = IC_FEATURE_VERTEX0;
        goto done;
    }
    icVec3 bp = icVec3_Sub(p, b);
    icReal d3 = icVec3_Dot(ab, bp), d4 = icVec3_Dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) { // vertex b
        bary[0] = 0, bary[1] = 1, bary[2] = 0;
        f = IC_FEATURE_VERTEX1;
        goto done;
    }
    icReal vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) { // edge ab
        icReal v = d1 / (d1 - d3);
        bary[0] = 1 - v, bary[1] = v, bary[2] = 0;
        f = IC_FEATURE_EDGE01;
        goto done;
    }
    icVec3 cp = icVec3_Sub(p, c);
    icReal d5 = icVec3_Dot(ab, cp), d6 = icVec3_Dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) { // vertex c
        bary[0] = 0, bary[1] = 0, bary[2] = 1;
        f = IC_FEATURE_VERTEX2;
        goto done;
    }
    icReal vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) { // edge ac
        icReal w = d2 / (d2 - d6);
        bary[0] = 1 - w, bary[1] = 0, bary[2] = w;
        f = IC_FEATURE_EDGE20;
        goto done;
    }
    icReal va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) { // edge bc
        icReal w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        bary[0] = 0, bary[1] = 1 - w, bary[2] = w;
        f = IC_FEATURE_EDGE12;
        goto done;
    }
    {
        icReal sum = va + vb + vc;
        if (!(sum != 0)) { // degenerate triangle: nearest vertex
            bary[0] = 1, bary[1] = 0, bary[2] = 0;
            f = IC_FEATURE_VERTEX0;
            goto done;
        }
        icReal denom = 1 / sum;
        icReal v = vb * denom, w = vc * denom;
        bary[0] = 1 - v - w, bary[1] = v, bary[2] = w;
        f = IC_FEATURE_FACE;
    }
done:
    if (feature) *feature = f;
    return icVec3_Add(icVec3_Add(icVec3_Scale(bary[0], a), icVec3_Scale(bary[1], b)),
                      icVec3_Scale(bary[2], c));
}

static inline icReal clamp01(icReal x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

icReal icClosestSegmentSegment(icVec3 p0, icVec3 p1, icVec3 q0, icVec3 q1, icReal *s, icReal *u) {
    icVec3 d1 = icVec3_Sub(p1, p0), d2 = icVec3_Sub(q1, q0), r = icVec3_Sub(p0, q0);
    icReal a = icVec3_Dot(d1, d1), e = icVec3_Dot(d2, d2), f = icVec3_Dot(d2, r);
    icReal sc, tc;
    const icReal tiny = 1e-300;
    if (a <= tiny && e <= tiny) {
        sc = tc = 0;
    } else if (a <= tiny) {
        sc = 0;
        tc = clamp01(f / e);
    } else {
        icReal c = icVec3_Dot(d1, r);
        if (e <= tiny) {
            tc = 0;
            sc = clamp01(-c / a);
        } else {
            icReal b = icVec3_Dot(d1, d2), denom = a * e - b * b;
            // Parallel segments (denom ~ 0) take s = 0; the clamping below finds the rest.
            sc = denom > 1e-14 * a * e ? clamp01((b * f - c * e) / denom) : 0;
            tc = (b * sc + f) / e;
            if (tc < 0) {
                tc = 0;
                sc = clamp01(-c / a);
            } else if (tc > 1) {
                tc = 1;
                sc = clamp01((b - c) / a);
            }
        }
    }
    *s = sc;
    *u = tc;
    icVec3 c1 = icVec3_MulAdd(p0, sc, d1), c2 = icVec3_MulAdd(q0, tc, d2);
    return icVec3_LengthSquared(icVec3_Sub(c1, c2));
}

bool icTriangleBarycentric(icVec3 p, icVec3 a, icVec3 b, icVec3 c, icReal bary[3]) {
    icVec3 v0 = icVec3_Sub(b, a), v1 = icVec3_Sub(c, a), v2 = icVec3_Sub(p, a);
    icReal d00 = icVec3_Dot(v0, v0), d01 = icVec3_Dot(v0, v1), d11 = icVec3_Dot(v1, v1);
    icReal d20 = icVec3_Dot(v2, v0), d21 = icVec3_Dot(v2, v1);
    icReal denom = d00 * d11 - d01 * d01;
    if (!(denom > 1e-14 * d00 * d11) || !(denom > 0)) return false;
    icReal v = (d11 * d20 - d01 * d21) / denom;
    icReal w = (d00 * d21 - d01 * d20) / denom;
    bary[0] = 1 - v - w;
    bary[1] = v;
    bary[2] = w;
    return true;
}
