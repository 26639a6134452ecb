// SPDX-License-Identifier: MIT
// Unit quaternions for rod frames: q = (w, x, y, z), Hamilton product.
#pragma once

#include "isochor/math.h"

typedef struct icQuat {
    icReal w, x, y, z;
} icQuat;

static inline icQuat icQuat_Make(icReal w, icReal x, icReal y, icReal z) {
    icQuat q = {w, x, y, z};
    return q;
}
static inline icQuat icQuat_Identity(void) { return icQuat_Make(1, 0, 0, 0); }
/// (0, v)
static inline icQuat icQuat_Pure(icVec3 v) { return icQuat_Make(0, v.x, v.y, v.z); }
static inline icVec3 icQuat_Im(icQuat q) { return icVec3_Make(q.x, q.y, q.z); }
static inline icQuat icQuat_Conj(icQuat q) { return icQuat_Make(q.w, -q.x, -q.y, -q.z); }
static inline icQuat icQuat_Add(icQuat a, icQuat b) {
    return icQuat_Make(a.w + b.w, a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline icQuat icQuat_Sub(icQuat a, icQuat b) {
    return icQuat_Make(a.w - b.w, a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline icQuat icQuat_Scale(icReal s, icQuat a) {
    return icQuat_Make(s * a.w, s * a.x, s * a.y, s * a.z);
}
static inline icReal icQuat_Dot(icQuat a, icQuat b) {
    return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline icQuat icQuat_Mul(icQuat a, icQuat b) {
    return icQuat_Make(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                       a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                       a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                       a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}
/// q / |q|; the zero quaternion becomes the identity.
static inline icQuat icQuat_Normalize(icQuat q) {
    icReal n = sqrt(icQuat_Dot(q, q));
    return n > 0 ? icQuat_Scale(1.0 / n, q) : icQuat_Identity();
}
static inline icQuat icQuat_Load(const icReal *p, int i) {
    return icQuat_Make(p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]);
}
static inline void icQuat_Store(icReal *p, int i, icQuat q) {
    p[4 * i] = q.w;
    p[4 * i + 1] = q.x;
    p[4 * i + 2] = q.y;
    p[4 * i + 3] = q.z;
}
/// Rotation by angle |v| about v (radians).
static inline icQuat icQuat_FromRotationVector(icVec3 v) {
    icReal a = icVec3_Length(v);
    if (a < 1e-300) return icQuat_Identity();
    icReal s = sin(0.5 * a) / a;
    return icQuat_Make(cos(0.5 * a), s * v.x, s * v.y, s * v.z);
}
/// R(q) v for unit q.
static inline icVec3 icQuat_Rotate(icQuat q, icVec3 v) {
    icVec3 u = icQuat_Im(q);
    icVec3 t = icVec3_Scale(2, icVec3_Cross(u, v));
    return icVec3_Add(icVec3_MulAdd(v, q.w, t), icVec3_Cross(u, t));
}
/// R(q)^T v.
static inline icVec3 icQuat_RotateInv(icQuat q, icVec3 v) {
    return icQuat_Rotate(icQuat_Conj(q), v);
}
static inline icMat3 icQuat_ToMat3(icQuat q) {
    return icMat3_FromCols(icQuat_Rotate(q, icVec3_Make(1, 0, 0)),
                           icQuat_Rotate(q, icVec3_Make(0, 1, 0)),
                           icQuat_Rotate(q, icVec3_Make(0, 0, 1)));
}
/// Rotation matrix to quaternion (Shepperd's method), w >= 0.
static inline icQuat icQuat_FromMat3(icMat3 m) {
    icReal m00 = m.col[0].x, m11 = m.col[1].y, m22 = m.col[2].z;
    icReal tr = m00 + m11 + m22;
    icQuat q;
    if (tr > 0) {
        icReal s = 2 * sqrt(tr + 1);
        q = icQuat_Make(0.25 * s, (m.col[1].z - m.col[2].y) / s, (m.col[2].x - m.col[0].z) / s,
                        (m.col[0].y - m.col[1].x) / s);
    } else if (m00 > m11 && m00 > m22) {
        icReal s = 2 * sqrt(1 + m00 - m11 - m22);
        q = icQuat_Make((m.col[1].z - m.col[2].y) / s, 0.25 * s, (m.col[1].x + m.col[0].y) / s,
                        (m.col[2].x + m.col[0].z) / s);
    } else if (m11 > m22) {
        icReal s = 2 * sqrt(1 + m11 - m00 - m22);
        q = icQuat_Make((m.col[2].x - m.col[0].z) / s, (m.col[1].x + m.col[0].y) / s, 0.25 * s,
                        (m.col[2].y + m.col[1].z) / s);
    } else {
        icReal s = 2 * sqrt(1 + m22 - m00 - m11);
        q = icQuat_Make((m.col[0].y - m.col[1].x) / s, (m.col[2].x + m.col[0].z) / s,
                        (m.col[2].y + m.col[1].z) / s, 0.25 * s);
    }
    if (q.w < 0) q = icQuat_Scale(-1, q);
    return icQuat_Normalize(q);
}
/// Third director d3 = R(q) e_z.
static inline icVec3 icQuat_D3(icQuat q) {
    return icVec3_Make(2 * (q.x * q.z + q.w * q.y), 2 * (q.y * q.z - q.w * q.x),
                       q.w * q.w - q.x * q.x - q.y * q.y + q.z * q.z);
}
/// Shortest-arc rotation taking e_z to unit(t); t must not be zero.
static inline icQuat icQuat_FromZTo(icVec3 t) {
    icVec3 d = icVec3_Normalize(t);
    icReal c = d.z;                                     // e_z . d
    if (c < -1 + 1e-12) return icQuat_Make(0, 1, 0, 0); // half turn about x
    icVec3 axis = icVec3_Make(-d.y, d.x, 0);            // e_z x d
    return icQuat_Normalize(icQuat_Make(1 + c, axis.x, axis.y, axis.z));
}
/// Normalised linear blend on the shorter arc (exact midpoint of slerp at t = 1/2).
static inline icQuat icQuat_Midpoint(icQuat a, icQuat b) {
    if (icQuat_Dot(a, b) < 0) b = icQuat_Scale(-1, b);
    return icQuat_Normalize(icQuat_Add(a, b));
}
