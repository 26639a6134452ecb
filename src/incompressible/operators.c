// SPDX-License-Identifier: MIT
// One-ring volumes and the divergence operator J = dV/dx with its transpose, matrix-free and
// assembled, and the assembled pressure matrix J M^-1 J^T (Irving et al. 2007, sec. 3).
#include "core/core.h"
#include "incompressible/pressure_internal.h"
#include "isochor/incompressible.h"

#include <string.h>

// Signed volume a.(b x c)/6 and its gradients (the columns of B = V D^-T of Irving et al. 2007,
// sec. 3); g_0 closes the sum to zero.
icReal icTet_VolumeGradients(icVec3 x0, icVec3 x1, icVec3 x2, icVec3 x3, icVec3 g[4]) {
    icVec3 a = icVec3_Sub(x1, x0), b = icVec3_Sub(x2, x0), c = icVec3_Sub(x3, x0);
    const icReal sixth = 1.0 / 6.0;
    g[1] = icVec3_Scale(sixth, icVec3_Cross(b, c));
    g[2] = icVec3_Scale(sixth, icVec3_Cross(c, a));
    g[3] = icVec3_Scale(sixth, icVec3_Cross(a, b));
    g[0] = icVec3_Scale(-1.0, icVec3_Add(g[1], icVec3_Add(g[2], g[3])));
    return icVec3_Dot(a, g[1]);
}

icReal icOneRing_TetVolume(const icReal *x, const int *tv) {
    icVec3 x0 = icVec3_Load(x, tv[0]);
    icVec3 a = icVec3_Sub(icVec3_Load(x, tv[1]), x0);
    icVec3 b = icVec3_Sub(icVec3_Load(x, tv[2]), x0);
    icVec3 c = icVec3_Sub(icVec3_Load(x, tv[3]), x0);
    return icVec3_Dot(a, icVec3_Cross(b, c)) / 6.0;
}

// Irving et al. 2007, sec. 3: each tet gives a quarter of its volume to each vertex (the 1/4 J
// must match).
icReal icOneRing_Volumes(const icReal *x, int vertexCount, const int *tets, int tetCount,
                         icReal *ringVolumes) {
    memset(ringVolumes, 0, sizeof(icReal) * (size_t)vertexCount);
    icReal total = 0;
    for (int t = 0; t < tetCount; ++t) {
        const int *tv = tets + 4 * t;
        icReal q = 0.25 * icOneRing_TetVolume(x, tv);
        for (int a = 0; a < 4; ++a) ringVolumes[tv[a]] += q;
        total += 4 * q;
    }
    return total;
}

void icOneRing_Gradients(const icReal *x, const int *tets, int tetCount, icReal *g) {
    for (int t = 0; t < tetCount; ++t) {
        const int *tv = tets + 4 * t;
        icVec3 gt[4];
        icTet_VolumeGradients(icVec3_Load(x, tv[0]), icVec3_Load(x, tv[1]),
                              icVec3_Load(x, tv[2]), icVec3_Load(x, tv[3]), gt);
        for (int a = 0; a < 4; ++a) icVec3_Store(g + 12 * t, a, gt[a]);
    }
}

// Irving et al. 2007, sec. 3: the local block has four identical rows (1/4)[g_0 g_1 g_2 g_3].
void icOneRing_Divergence(const icReal *g, const int *tets, int tetCount, int vertexCount,
                          const icReal *v, icReal *out) {
    memset(out, 0, sizeof(icReal) * (size_t)vertexCount);
    for (int t = 0; t < tetCount; ++t) {
        const int *tv = tets + 4 * t;
        const icReal *gt = g + 12 * t;
        icReal r = 0;
        for (int a = 0; a < 4; ++a) {
            const icReal *va = v + 3 * tv[a];
            r += gt[3 * a] * va[0] + gt[3 * a + 1] * va[1] + gt[3 * a + 2] * va[2];
        }
        r *= 0.25;
        for (int a = 0; a < 4; ++a) out[tv[a]] += r;
    }
}

// Irving et al. 2007, sec. 3 (grad = -div^T): only the tet-averaged pressure acts.
void icOneRing_DivergenceTranspose(const icReal *g, const int *tets, int tetCount,
                                   int vertexCount, const icReal *p, icReal *out) {
    memset(out, 0, sizeof(icReal) * 3 * (size_t)vertexCount);
    for (int t = 0; t < tetCount; ++t) {
        const int *tv = tets + 4 * t;
        const icReal *gt = g + 12 * t;
        icReal s = 0.25 * (p[tv[0]] + p[tv[1]] + p[tv[2]] + p[tv[3]]);
        for (int a = 0; a < 4; ++a) {
            icReal *o = out + 3 * tv[a];
            o[0] += s * gt[3 * a];
            o[1] += s * gt[3 * a + 1];
            o[2] += s * gt[3 * a + 2];
        }
    }
}

void icCsr_Destroy(icCsr *matrix) {
    if (!matrix) return;
    icFree(matrix->rowStart);
    icFree(matrix->col);
    icFree(matrix->values);
    memset(matrix, 0, sizeof *matrix);
}

void icCsr_Multiply(const icCsr *matrix, const icReal *x, icReal *y) {
    for (int r = 0; r < matrix->rowCount; ++r) {
        icReal s = 0;
        for (int k = matrix->rowStart[r]; k < matrix->rowStart[r + 1]; ++k)
            s += matrix->values[k] * x[matrix->col[k]];
        y[r] = s;
    }
}

void icCsr_Operator(void *context, const icReal *x, icReal *y) {
    icCsr_Multiply((const icCsr *)context, x, y);
}

// Vertex -> incident tets, CSR.
static icResult vertexTets(const int *tets, int tetCount, int vertexCount, int **startOut,
                           int **listOut) {
    int *start = IC_ALLOC_ZERO(int, vertexCount + 1);
    int *list = IC_ALLOC(int, 4 * (size_t)tetCount + 1);
    if (!start || !list) {
        icFree(start);
        icFree(list);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < 4 * tetCount; ++i) start[tets[i] + 1]++;
    for (int v = 0; v < vertexCount; ++v) start[v + 1] += start[v];
    int *fill = IC_ALLOC(int, vertexCount + 1);
    if (!fill) {
        icFree(start);
        icFree(list);
        return IC_ERR_OUT_OF_MEMORY;
    }
    memcpy(fill, start, sizeof(int) * (size_t)vertexCount);
    for (int t = 0; t < tetCount; ++t)
        for (int a = 0; a < 4; ++a) list[fill[tets[4 * t + a]]++] = t;
    icFree(fill);
    *startOut = start;
    *listOut = list;
    return IC_OK;
}

// Assembled J: J[k][j] = 1/4 sum over tets holding both k and j of g_{t,j}; blocks are summed
// over tets before anything else uses them.
icResult icOneRing_AssembleDivergence(const icReal *g, const int *tets, int tetCount,
                                      int vertexCount, icCsr *J) {
    memset(J, 0, sizeof *J);
    int *start = NULL, *list = NULL;
    icResult r = vertexTets(tets, tetCount, vertexCount, &start, &list);
    if (r != IC_OK) return r;
    int *slot = IC_ALLOC(int, vertexCount);
    int *ring = IC_ALLOC(int, 16 * (size_t)tetCount + 1);
    icVec3 *acc = IC_ALLOC(icVec3, vertexCount);
    int capacity = 48 * tetCount + 16;
    J->rowStart = IC_ALLOC_ZERO(int, vertexCount + 1);
    J->col = IC_ALLOC(int, capacity);
    J->values = IC_ALLOC(icReal, capacity);
    if (!slot || !ring || !acc || !J->rowStart || !J->col || !J->values) {
        r = IC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (int v = 0; v < vertexCount; ++v) slot[v] = -1;
    J->rowCount = vertexCount;
    J->colCount = 3 * vertexCount;
    int nnz = 0;
    for (int k = 0; k < vertexCount; ++k) {
        int n = 0;
        for (int i = start[k]; i < start[k + 1]; ++i) {
            int t = list[i];
            for (int a = 0; a < 4; ++a) {
                int j = tets[4 * t + a];
                if (slot[j] < 0) {
                    slot[j] = n;
                    ring[n++] = j;
                    acc[j] = icVec3_Make(0, 0, 0);
                }
                acc[j] = icVec3_Add(acc[j], icVec3_Scale(0.25, icVec3_Load(g + 12 * t, a)));
            }
        }
        icSortInts(ring, n);
        for (int i = 0; i < n; ++i) {
            int j = ring[i];
            for (int c = 0; c < 3; ++c) {
                J->col[nnz] = 3 * j + c;
                J->values[nnz++] = icVec3_Get(acc[j], c);
            }
            slot[j] = -1;
        }
        J->rowStart[k + 1] = nnz;
    }
    J->nonzeroCount = nnz;
done:
    icFree(start);
    icFree(list);
    icFree(slot);
    icFree(ring);
    icFree(acc);
    if (r != IC_OK) icCsr_Destroy(J);
    return r;
}

// Assembled A, row by row: A[k][l] = sum_j J[k][j] . M_j^-1 J[l][j]. The block pattern of J is
// symmetric, so the columns j of row k are ring(k) and the rows holding column j are ring(j);
// J's transpose gives them.
icResult icOneRing_AssemblePressure(const icCsr *J, const icReal *invMass, icCsr *A) {
    memset(A, 0, sizeof *A);
    int n = J->rowCount, m = J->colCount;
    icResult r = IC_OK;
    // Transpose of J (columns -> rows).
    int *tStart = IC_ALLOC_ZERO(int, m + 1);
    int *tRow = IC_ALLOC(int, J->nonzeroCount + 1);
    icReal *tVal = IC_ALLOC(icReal, J->nonzeroCount + 1);
    int *fill = IC_ALLOC(int, m + 1);
    int *slot = IC_ALLOC(int, n);
    int *cols = IC_ALLOC(int, n);
    icReal *acc = IC_ALLOC_ZERO(icReal, n);
    int capacity = 0;
    if (!tStart || !tRow || !tVal || !fill || !slot || !cols || !acc) {
        r = IC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (int k = 0; k < J->nonzeroCount; ++k) tStart[J->col[k] + 1]++;
    for (int c = 0; c < m; ++c) tStart[c + 1] += tStart[c];
    memcpy(fill, tStart, sizeof(int) * (size_t)m);
    for (int row = 0; row < n; ++row)
        for (int k = J->rowStart[row]; k < J->rowStart[row + 1]; ++k) {
            int at = fill[J->col[k]]++;
            tRow[at] = row;
            tVal[at] = J->values[k];
        }
    for (int v = 0; v < n; ++v) slot[v] = -1;
    A->rowCount = A->colCount = n;
    A->rowStart = IC_ALLOC_ZERO(int, n + 1);
    if (!A->rowStart) {
        r = IC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    int nnz = 0;
    for (int k = 0; k < n; ++k) {
        int count = 0;
        for (int e = J->rowStart[k]; e < J->rowStart[k + 1]; ++e) {
            int c = J->col[e];
            icReal w = J->values[e] * invMass[c];
            if (w == 0) continue;
            for (int f = tStart[c]; f < tStart[c + 1]; ++f) {
                int l = tRow[f];
                if (slot[l] < 0) {
                    slot[l] = count;
                    cols[count++] = l;
                    acc[l] = 0;
                }
                acc[l] += w * tVal[f];
            }
        }
        icSortInts(cols, count);
        int colCap = capacity, valCap = capacity;
        if (!icGrowArray((void **)&A->col, &colCap, nnz + count, sizeof(int)) ||
            !icGrowArray((void **)&A->values, &valCap, nnz + count, sizeof(icReal))) {
            r = IC_ERR_OUT_OF_MEMORY;
            goto done;
        }
        capacity = colCap < valCap ? colCap : valCap;
        for (int i = 0; i < count; ++i) {
            A->col[nnz] = cols[i];
            A->values[nnz++] = acc[cols[i]];
            slot[cols[i]] = -1;
        }
        A->rowStart[k + 1] = nnz;
    }
    A->nonzeroCount = nnz;
done:
    icFree(tStart);
    icFree(tRow);
    icFree(tVal);
    icFree(fill);
    icFree(slot);
    icFree(cols);
    icFree(acc);
    if (r != IC_OK) icCsr_Destroy(A);
    return r;
}
