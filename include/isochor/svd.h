// SPDX-License-Identifier: MIT
/// \file
/// Small dense decompositions: the rotation-variant 3x3 SVD, polar decomposition, and
/// symmetric eigen-decompositions (3x3 and small n x n) by Jacobi rotations.
#pragma once

#include "isochor/math.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/// Rotation-variant SVD A = U diag(s) V^T: det U = det V = +1, s[0] >= s[1] >= |s[2]|, and
/// s[2] < 0 exactly when det A < 0 (the rotation-variant SVD of Irving, Teran & Fedkiw 2004).
typedef struct icSvd3 {
    icMat3 U; ///< left rotation, det U = +1
    icVec3 s; ///< signed singular values (x >= y >= |z|)
    icMat3 V; ///< right rotation, det V = +1
} icSvd3;

/// Production 3x3 SVD: one-sided (Hestenes) Jacobi on the columns of A in double, so small
/// singular values keep their relative accuracy; rank-deficient and zero A are handled.
icSvd3 icMat3_Svd(icMat3 a);
/// icMat3_Svd of count matrices, four at a time so that their dependency chains overlap
/// (about twice the throughput); same contract, results equal to rounding.
void icMat3_SvdBatch(int count, const icMat3 *a, icSvd3 *out);
/// Reference path: cyclic Jacobi on A^T A, sort, Givens QR, sign rule.
/// Slower and less accurate for nearly rank-deficient A; meant for tests.
icSvd3 icMat3_SvdReference(icMat3 a);
/// U diag(s) V^T.
icMat3 icSvd3_Compose(const icSvd3 *svd);

/// Polar decomposition A = R S from the rotation-variant SVD: R = U V^T (always a proper
/// rotation), S = V diag(s) V^T (symmetric, indefinite when det A < 0). Either may be NULL.
void icMat3_Polar(icMat3 a, icMat3 *r, icMat3 *s);

/// Eigen-decomposition of a symmetric 3x3 matrix (both triangles are averaged):
/// a = Q diag(values) Q^T, values ascending, Q a proper rotation. Cyclic Jacobi, double.
void icMat3_SymmetricEigen(icMat3 a, icVec3 *values, icMat3 *vectors);

/// Largest n accepted by icSymmetricEigen.
#define IC_SYM_EIGEN_MAX 32

/// Cyclic Jacobi eigen-decomposition of a symmetric n x n matrix (column-major, both
/// triangles averaged), n <= IC_SYM_EIGEN_MAX. values (n) ascending; vectors (n x n,
/// column-major, may be NULL): column m is the unit eigenvector of values[m]. Stops when
/// the off-diagonal Frobenius norm falls below 1e-15 of the matrix norm or after maxSweeps.
/// Returns the sweeps taken, or -1 when n is out of range.
int icSymmetricEigen(int n, const icReal *a, icReal *values, icReal *vectors, int maxSweeps);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
