// SPDX-License-Identifier: MIT
// Cotangent Laplacian of a triangle mesh and its CG solve (skin fairing, harmonic fields).
#pragma once

#include "rod/rod_internal.h"

/// Q = -L_cot in compressed rows (symmetric positive semidefinite).
typedef struct icRodLaplacian {
    int n;
    int *rowStart; ///< (n + 1)
    int *col;      ///< sorted columns per row
    icReal *val;
    int *diag; ///< (n) index of each row's diagonal entry
} icRodLaplacian;

icResult icRodLaplacian_Build(icRodLaplacian *L, int vertexCount, const icReal *positions,
                              int triangleCount, const int *triangles);
void icRodLaplacian_Destroy(icRodLaplacian *L);
/// Solves (Q + shift I) y = b (b NULL: 0) for the entries not fixed; fixed entries of y hold
/// their Dirichlet values on input. y on input is the start. Returns CG iterations, -1 when
/// out of memory.
int icRodLaplacian_Solve(const icRodLaplacian *L, icReal shift, const unsigned char *fixed,
                         const icReal *b, icReal *y, icReal tolerance, int maxIterations);
