// SPDX-License-Identifier: MIT
/// \file
/// Sparse symmetric matrices with 3x3 blocks, Jacobi / block-Jacobi preconditioners and a
/// filtered preconditioned conjugate gradient solver (Baraff-Witkin style DOF filter).
#pragma once

#include "isochor/math.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/// Block compressed-row matrix with 3x3 blocks, full (both triangles) storage. Row r has
/// blocks rowStart[r] .. rowStart[r+1]-1 with ascending columns col[k]; block k's values
/// are values[9k .. 9k+8], column-major.
typedef struct icBsr3 {
    int rowCount;   ///< block rows (nodes); the matrix is (3 rowCount)^2
    int blockCount; ///< stored blocks
    int *rowStart;  ///< (rowCount + 1)
    int *col;       ///< (blockCount)
    int *diag;      ///< (rowCount) index of each row's diagonal block
    icReal *values; ///< (blockCount x 9)
} icBsr3;

/// Allocates a matrix from a sorted pattern (rowStart, col copied); values zeroed. Every row
/// must contain its diagonal block (IC_ERR_INVALID_ARGUMENT otherwise).
icResult icBsr3_Create(icBsr3 *matrix, int rowCount, const int *rowStart, const int *col);
/// Frees the arrays and zeroes the struct; safe on a zeroed struct.
void icBsr3_Destroy(icBsr3 *matrix);
/// y = A x (x, y of length 3 rowCount, not aliased).
void icBsr3_Multiply(const icBsr3 *matrix, const icReal *x, icReal *y);
/// Dense copy (3 rowCount)^2, column-major, for tests on small matrices.
void icBsr3_ToDense(const icBsr3 *matrix, icReal *dense);

/// Preconditioner kinds for icCG.
typedef enum icPreconditionerKind {
    IC_PRECONDITIONER_NONE = 0,     ///< none: plain CG on the free DOFs
    IC_PRECONDITIONER_JACOBI,       ///< inverse diagonal: (n) reals
    IC_PRECONDITIONER_BLOCK_JACOBI, ///< inverse 3x3 diagonal blocks: (n/3 x 9) reals
} icPreconditionerKind;

/// Builds a preconditioner from the 3x3 diagonal blocks (nodeCount x 9, column-major) of an
/// SPD matrix restricted to the free DOFs: rows/columns of constrained DOFs (freeMask 0) are
/// replaced by the identity. freeMask (3 nodeCount) may be NULL (all free). out holds
/// 3 nodeCount (Jacobi) or 9 nodeCount (block) reals. A non-positive pivot falls back to 1
/// for that DOF (or that block to Jacobi); returns how many such fallbacks happened.
int icPreconditioner_Build(icPreconditionerKind kind, int nodeCount, const icReal *diagBlocks,
                           const unsigned char *freeMask, icReal *out);

/// y = A x for a linear operator given as a callback.
typedef void icLinearOperatorFn(void *context, const icReal *x, icReal *y);

/// What a CG solve did.
typedef struct icCGStats {
    int iterations;          ///< matrix products taken
    icReal relativeResidual; ///< sqrt(r.z / r0.z0) at the end
    bool converged;          ///< relativeResidual <= tolerance
    bool indefinite;         ///< stopped on a direction with c.Ac <= 0
} icCGStats;

/// Filtered preconditioned CG (Baraff & Witkin 1998) for A y = b on the free DOFs, starting at
/// y = 0 (constrained entries of y stay 0). Stops when sqrt(r.z) <= tolerance sqrt(r0.z0),
/// after maxIterations, or on non-positive curvature (then y is kept; if that happens at the
/// first iteration y is the preconditioned residual). work holds 4n reals (NULL: allocated
/// through icAlloc). Returns the iteration count, or -1 when out of memory.
int icCG(int n, icLinearOperatorFn *op, void *context, icPreconditionerKind kind,
         const icReal *preconditioner, const unsigned char *freeMask, const icReal *b, icReal *y,
         icReal tolerance, int maxIterations, icReal *work, icCGStats *stats);

/// Operator adaptor: context is a const icBsr3 *.
void icBsr3_Operator(void *context, const icReal *x, icReal *y);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
