// SPDX-License-Identifier: MIT
/// \file
/// Small fixed-size linear algebra: 3-vectors and 3x3 matrices in icReal.
/// Everything is inline so kernels keep values in registers.
#pragma once

#include "isochor/base.h"

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/// pi (M_PI is not part of strict C17).
#define IC_PI 3.14159265358979323846

/// A 3-vector (metres, metres per second, ... as the context says).
typedef struct icVec3 {
    //!@{
    icReal x, y, z; ///< components along the world axes
    //!@}
} icVec3;

/// A 3x3 matrix stored by columns: col[j] is column j, so the memory is the column-major
/// vec(A) ordering the FEM notes use (9 consecutive icReal).
typedef struct icMat3 {
    icVec3 col[3]; ///< the columns
} icMat3;

/// The vector (x, y, z).
static inline icVec3 icVec3_Make(icReal x, icReal y, icReal z) {
    icVec3 v = {x, y, z};
    return v;
}
/// a + b
static inline icVec3 icVec3_Add(icVec3 a, icVec3 b) {
    return icVec3_Make(a.x + b.x, a.y + b.y, a.z + b.z);
}
/// a - b
static inline icVec3 icVec3_Sub(icVec3 a, icVec3 b) {
    return icVec3_Make(a.x - b.x, a.y - b.y, a.z - b.z);
}
/// s a
static inline icVec3 icVec3_Scale(icReal s, icVec3 a) {
    return icVec3_Make(s * a.x, s * a.y, s * a.z);
}
/// a + s b
static inline icVec3 icVec3_MulAdd(icVec3 a, icReal s, icVec3 b) {
    return icVec3_Make(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
/// -a
static inline icVec3 icVec3_Neg(icVec3 a) { return icVec3_Make(-a.x, -a.y, -a.z); }
/// Dot product a . b
static inline icReal icVec3_Dot(icVec3 a, icVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/// Cross product a x b
static inline icVec3 icVec3_Cross(icVec3 a, icVec3 b) {
    return icVec3_Make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/// |a|^2
static inline icReal icVec3_LengthSquared(icVec3 a) { return icVec3_Dot(a, a); }
/// Euclidean length |a|
static inline icReal icVec3_Length(icVec3 a) { return sqrt(icVec3_Dot(a, a)); }
/// Euclidean distance |a - b|
static inline icReal icVec3_Distance(icVec3 a, icVec3 b) { return icVec3_Length(icVec3_Sub(a, b)); }
/// Unit vector along a; the zero vector stays zero.
static inline icVec3 icVec3_Normalize(icVec3 a) {
    icReal l = icVec3_Length(a);
    return l > 0 ? icVec3_Scale(1.0 / l, a) : a;
}
/// Componentwise minimum.
static inline icVec3 icVec3_Min(icVec3 a, icVec3 b) {
    return icVec3_Make(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}
/// Componentwise maximum.
static inline icVec3 icVec3_Max(icVec3 a, icVec3 b) {
    return icVec3_Make(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}
/// Component i (0, 1, 2) of a.
static inline icReal icVec3_Get(icVec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
/// True when no component is NaN or infinite.
static inline bool icVec3_IsFinite(icVec3 a) {
    return isfinite(a.x) && isfinite(a.y) && isfinite(a.z);
}
/// Loads/stores a vector from a flat (n x 3) array.
static inline icVec3 icVec3_Load(const icReal *p, int i) {
    return icVec3_Make(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
}
/// Stores v as entry i of a flat (n x 3) array.
static inline void icVec3_Store(icReal *p, int i, icVec3 v) {
    p[3 * i] = v.x;
    p[3 * i + 1] = v.y;
    p[3 * i + 2] = v.z;
}

/// The matrix with columns c0, c1, c2.
static inline icMat3 icMat3_FromCols(icVec3 c0, icVec3 c1, icVec3 c2) {
    icMat3 m = {{c0, c1, c2}};
    return m;
}
/// The identity.
static inline icMat3 icMat3_Identity(void) {
    return icMat3_FromCols(icVec3_Make(1, 0, 0), icVec3_Make(0, 1, 0), icVec3_Make(0, 0, 1));
}
/// The zero matrix.
static inline icMat3 icMat3_Zero(void) {
    icMat3 m = {{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    return m;
}
/// diag(a, b, c)
static inline icMat3 icMat3_Diagonal(icReal a, icReal b, icReal c) {
    return icMat3_FromCols(icVec3_Make(a, 0, 0), icVec3_Make(0, b, 0), icVec3_Make(0, 0, c));
}
/// Element at (row, col), both 0-based.
static inline icReal icMat3_At(const icMat3 *m, int row, int col) {
    return ((const icReal *)m)[3 * col + row];
}
/// Sets the element at (row, col), both 0-based.
static inline void icMat3_Set(icMat3 *m, int row, int col, icReal value) {
    ((icReal *)m)[3 * col + row] = value;
}
/// Row `row` (0-based) as a vector.
static inline icVec3 icMat3_Row(icMat3 m, int row) {
    return icVec3_Make(icVec3_Get(m.col[0], row), icVec3_Get(m.col[1], row),
                       icVec3_Get(m.col[2], row));
}
/// A^T
static inline icMat3 icMat3_Transpose(icMat3 m) {
    return icMat3_FromCols(icMat3_Row(m, 0), icMat3_Row(m, 1), icMat3_Row(m, 2));
}
/// A + B
static inline icMat3 icMat3_Add(icMat3 a, icMat3 b) {
    return icMat3_FromCols(icVec3_Add(a.col[0], b.col[0]), icVec3_Add(a.col[1], b.col[1]),
                           icVec3_Add(a.col[2], b.col[2]));
}
/// A - B
static inline icMat3 icMat3_Sub(icMat3 a, icMat3 b) {
    return icMat3_FromCols(icVec3_Sub(a.col[0], b.col[0]), icVec3_Sub(a.col[1], b.col[1]),
                           icVec3_Sub(a.col[2], b.col[2]));
}
/// s A
static inline icMat3 icMat3_Scale(icReal s, icMat3 a) {
    return icMat3_FromCols(icVec3_Scale(s, a.col[0]), icVec3_Scale(s, a.col[1]),
                           icVec3_Scale(s, a.col[2]));
}
/// A v
static inline icVec3 icMat3_MulVec(icMat3 a, icVec3 v) {
    icVec3 r = icVec3_Scale(v.x, a.col[0]);
    r = icVec3_MulAdd(r, v.y, a.col[1]);
    return icVec3_MulAdd(r, v.z, a.col[2]);
}
/// A^T v
static inline icVec3 icMat3_MulTransVec(icMat3 a, icVec3 v) {
    return icVec3_Make(icVec3_Dot(a.col[0], v), icVec3_Dot(a.col[1], v), icVec3_Dot(a.col[2], v));
}
/// A B
static inline icMat3 icMat3_Mul(icMat3 a, icMat3 b) {
    return icMat3_FromCols(icMat3_MulVec(a, b.col[0]), icMat3_MulVec(a, b.col[1]),
                           icMat3_MulVec(a, b.col[2]));
}
/// A B^T
static inline icMat3 icMat3_MulTrans(icMat3 a, icMat3 b) {
    return icMat3_Mul(a, icMat3_Transpose(b));
}
/// tr A
static inline icReal icMat3_Trace(icMat3 a) { return a.col[0].x + a.col[1].y + a.col[2].z; }
/// A : B = tr(A^T B)
static inline icReal icMat3_DDot(icMat3 a, icMat3 b) {
    return icVec3_Dot(a.col[0], b.col[0]) + icVec3_Dot(a.col[1], b.col[1]) +
           icVec3_Dot(a.col[2], b.col[2]);
}
/// Frobenius norm squared, tr(A^T A).
static inline icReal icMat3_NormSquared(icMat3 a) { return icMat3_DDot(a, a); }
/// det A = f1 . (f2 x f3) for columns f.
static inline icReal icMat3_Det(icMat3 a) {
    return icVec3_Dot(a.col[0], icVec3_Cross(a.col[1], a.col[2]));
}
/// Cofactor matrix [f2 x f3, f3 x f1, f1 x f2] = d(det A)/dA (= det(A) A^-T when invertible).
static inline icMat3 icMat3_Cofactor(icMat3 a) {
    return icMat3_FromCols(icVec3_Cross(a.col[1], a.col[2]), icVec3_Cross(a.col[2], a.col[0]),
                           icVec3_Cross(a.col[0], a.col[1]));
}
/// Inverse; sets *ok to false (and returns zero) when |det| is not above tiny.
static inline icMat3 icMat3_Inverse(icMat3 a, bool *ok) {
    icReal det = icMat3_Det(a);
    if (!(fabs(det) > 1e-300)) {
        if (ok) *ok = false;
        return icMat3_Zero();
    }
    if (ok) *ok = true;
    return icMat3_Scale(1.0 / det, icMat3_Transpose(icMat3_Cofactor(a)));
}
/// Outer product a b^T.
static inline icMat3 icMat3_Outer(icVec3 a, icVec3 b) {
    return icMat3_FromCols(icVec3_Scale(b.x, a), icVec3_Scale(b.y, a), icVec3_Scale(b.z, a));
}
/// Rotation by angle (radians) about a unit axis (Rodrigues).
static inline icMat3 icMat3_Rotation(icVec3 axis, icReal angle) {
    icVec3 k = icVec3_Normalize(axis);
    icReal c = cos(angle), s = sin(angle), t = 1 - c;
    icMat3 r;
    r.col[0] = icVec3_Make(t * k.x * k.x + c, t * k.x * k.y + s * k.z, t * k.x * k.z - s * k.y);
    r.col[1] = icVec3_Make(t * k.x * k.y - s * k.z, t * k.y * k.y + c, t * k.y * k.z + s * k.x);
    r.col[2] = icVec3_Make(t * k.x * k.z + s * k.y, t * k.y * k.z - s * k.x, t * k.z * k.z + c);
    return r;
}

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
