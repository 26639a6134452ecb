// SPDX-License-Identifier: MIT
// Block compressed-row matrices with 3x3 blocks: creation, products, dense export.
#include "core/core.h"
#include "isochor/sparse.h"

icResult icBsr3_Create(icBsr3 *matrix, int rowCount, const int *rowStart, const int *col) {
    memset(matrix, 0, sizeof *matrix);
    if (rowCount < 0 || !rowStart || (rowCount > 0 && !col)) return IC_ERR_INVALID_ARGUMENT;
    int blockCount = rowStart[rowCount];
    matrix->rowCount = rowCount;
    matrix->blockCount = blockCount;
    matrix->rowStart = IC_ALLOC(int, rowCount + 1);
    matrix->col = IC_ALLOC(int, blockCount > 0 ? blockCount : 1);
    matrix->diag = IC_ALLOC(int, rowCount > 0 ? rowCount : 1);
    matrix->values = IC_ALLOC_ZERO(icReal, 9 * (size_t)(blockCount > 0 ? blockCount : 1));
    if (!matrix->rowStart || !matrix->col || !matrix->diag || !matrix->values) {
        icBsr3_Destroy(matrix);
        return IC_ERR_OUT_OF_MEMORY;
    }
    memcpy(matrix->rowStart, rowStart, sizeof(int) * (size_t)(rowCount + 1));
    if (blockCount > 0) memcpy(matrix->col, col, sizeof(int) * (size_t)blockCount);
    for (int r = 0; r < rowCount; ++r) {
        matrix->diag[r] = -1;
        for (int k = rowStart[r]; k < rowStart[r + 1]; ++k)
            if (col[k] == r) matrix->diag[r] = k;
        if (matrix->diag[r] < 0) {
            icBsr3_Destroy(matrix);
            return IC_ERR_INVALID_ARGUMENT;
        }
    }
    return IC_OK;
}

void icBsr3_Destroy(icBsr3 *matrix) {
    if (!matrix) return;
    icFree(matrix->rowStart);
    icFree(matrix->col);
    icFree(matrix->diag);
    icFree(matrix->values);
    memset(matrix, 0, sizeof *matrix);
}

void icBsr3_Multiply(const icBsr3 *matrix, const icReal *x, icReal *y) {
    const int *rowStart = matrix->rowStart, *col = matrix->col;
    const icReal *values = matrix->values;
    for (int r = 0; r < matrix->rowCount; ++r) {
        icReal y0 = 0, y1 = 0, y2 = 0;
        for (int k = rowStart[r]; k < rowStart[r + 1]; ++k) {
            const icReal *b = values + 9 * (size_t)k;
            const icReal *xc = x + 3 * col[k];
            y0 += b[0] * xc[0] + b[3] * xc[1] + b[6] * xc[2];
            y1 += b[1] * xc[0] + b[4] * xc[1] + b[7] * xc[2];
            y2 += b[2] * xc[0] + b[5] * xc[1] + b[8] * xc[2];
        }
        y[3 * r] = y0;
        y[3 * r + 1] = y1;
        y[3 * r + 2] = y2;
    }
}

void icBsr3_Operator(void *context, const icReal *x, icReal *y) {
    icBsr3_Multiply((const icBsr3 *)context, x, y);
}

void icBsr3_ToDense(const icBsr3 *matrix, icReal *dense) {
    int n = 3 * matrix->rowCount;
    memset(dense, 0, sizeof(icReal) * (size_t)n * (size_t)n);
    for (int r = 0; r < matrix->rowCount; ++r)
        for (int k = matrix->rowStart[r]; k < matrix->rowStart[r + 1]; ++k)
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 3; ++i)
                    dense[(3 * r + i) + (size_t)n * (3 * matrix->col[k] + j)] =
                        matrix->values[9 * (size_t)k + 3 * j + i];
}
