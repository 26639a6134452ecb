// SPDX-License-Identifier: MIT
// Assembled stiffness: node-pair sparsity with per-tet scatter indices, and assembly.
#include "core/core.h"
#include "fem/fem_internal.h"
#include "fem/material_internal.h"

void icFemPattern_Destroy(icFemPattern *pattern) {
    if (!pattern) return;
    icBsr3_Destroy(&pattern->matrix);
    icFree(pattern->tetBlocks);
    memset(pattern, 0, sizeof *pattern);
}

static void sortInts(int *a, int n) {
    for (int i = 1; i < n; ++i) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = v;
    }
}

// The node adjacency pattern is built once from the tets (each tet touches its 4x4 node
// pairs), and each tet keeps its 16 destination blocks.
icResult icFemPattern_Create(icFemPattern *pattern, const icFemModel *model) {
    memset(pattern, 0, sizeof *pattern);
    int nv = model->vertexCount, nt = model->tetCount;
    int *vtStart = IC_ALLOC_ZERO(int, nv + 1);
    int *vt = IC_ALLOC(int, 4 * (size_t)nt);
    int *mark = IC_ALLOC(int, nv);
    int *rowStart = IC_ALLOC_ZERO(int, nv + 1);
    int *col = NULL;
    icResult result = IC_ERR_OUT_OF_MEMORY;
    if (!vtStart || !vt || !mark || !rowStart) goto done;

    // Vertex -> tets by counting sort.
    for (int k = 0; k < 4 * nt; ++k) vtStart[model->tets[k] + 1]++;
    for (int v = 0; v < nv; ++v) vtStart[v + 1] += vtStart[v];
    for (int v = 0; v < nv; ++v) mark[v] = vtStart[v];
    for (int t = 0; t < nt; ++t)
        for (int a = 0; a < 4; ++a) vt[mark[model->tets[4 * t + a]]++] = t;

    // Two passes over the rows: count distinct neighbours, then fill and sort.
    for (int v = 0; v < nv; ++v) mark[v] = -1;
    for (int pass = 0; pass < 2; ++pass) {
        for (int v = 0; v < nv; ++v) {
            int count = 0;
            int *row = pass ? col + rowStart[v] : NULL;
            for (int k = vtStart[v]; k < vtStart[v + 1]; ++k) {
                const int *tv = model->tets + 4 * vt[k];
                for (int a = 0; a < 4; ++a) {
                    int u = tv[a];
                    if (mark[u] == v + pass * nv) continue;
                    mark[u] = v + pass * nv;
                    if (row) row[count] = u;
                    ++count;
                }
            }
            // A vertex in no tet (allowed by icFemModel_CreateEx) keeps its diagonal block.
            if (mark[v] != v + pass * nv) {
                mark[v] = v + pass * nv;
                if (row) row[count] = v;
                ++count;
            }
            if (pass == 0)
                rowStart[v + 1] = count;
            else
                sortInts(row, count);
        }
        if (pass == 0) {
            for (int v = 0; v < nv; ++v) rowStart[v + 1] += rowStart[v];
            col = IC_ALLOC(int, rowStart[nv]);
            if (!col) goto done;
        }
    }
    result = icBsr3_Create(&pattern->matrix, nv, rowStart, col);
    if (result != IC_OK) goto done;
    pattern->tetBlocks = IC_ALLOC(int, 16 * (size_t)nt);
    if (!pattern->tetBlocks) {
        result = IC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (int t = 0; t < nt; ++t)
        for (int a = 0; a < 4; ++a) {
            int r = model->tets[4 * t + a];
            for (int b = 0; b < 4; ++b) {
                int c = model->tets[4 * t + b];
                // binary search in the sorted row
                int lo = rowStart[r], hi = rowStart[r + 1] - 1;
                while (lo < hi) {
                    int mid = (lo + hi) / 2;
                    if (col[mid] < c)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                pattern->tetBlocks[16 * t + 4 * a + b] = lo;
            }
        }
    result = IC_OK;
done:
    icFree(vtStart);
    icFree(vt);
    icFree(mark);
    icFree(rowStart);
    icFree(col);
    if (result != IC_OK) icFemPattern_Destroy(pattern);
    return result;
}

// Scatter-add of the 16 blocks of K_e into the matrix.
static void scatterElement(icFemPattern *pattern, int t, const icReal blocks[16][9]) {
    icReal *values = pattern->matrix.values;
    const int *dst = pattern->tetBlocks + 16 * t;
    for (int k = 0; k < 16; ++k) {
        icReal *blk = values + 9 * (size_t)dst[k];
        for (int e = 0; e < 9; ++e) blk[e] += blocks[k][e];
    }
}

static void addMass(const icFemModel *model, icReal massScale, icFemPattern *pattern) {
    if (massScale == 0) return;
    for (int v = 0; v < model->vertexCount; ++v) {
        icReal *blk = pattern->matrix.values + 9 * (size_t)pattern->matrix.diag[v];
        icReal m = massScale * model->mass[v];
        blk[0] += m;
        blk[4] += m;
        blk[8] += m;
    }
}

void icFem_Assemble(const icFemModel *model, const icReal *hessians, icReal stiffnessScale,
                    icReal massScale, icFemPattern *pattern) {
    memset(pattern->matrix.values, 0, sizeof(icReal) * 9 * (size_t)pattern->matrix.blockCount);
    icReal ke[16][9];
    for (int t = 0; t < model->tetCount; ++t) {
        icTetRest rest = model->rest[t];
        rest.W *= stiffnessScale;
        icTet_StiffnessBlocks(hessians + 81 * (size_t)t, &rest, ke);
        scatterElement(pattern, t, ke);
    }
    addMass(model, massScale, pattern);
}

icReal icFem_EvaluateAssemble(const icFemModel *model, const icReal *x, bool project,
                              icReal *f, icReal stiffnessScale, icReal massScale,
                              icFemPattern *pattern, icReal *hessians) {
    if (pattern)
        memset(pattern->matrix.values, 0,
               sizeof(icReal) * 9 * (size_t)pattern->matrix.blockCount);
    bool needHessian = pattern || hessians;
    icKahanSum sum = {0, 0};
    icReal local[81], ke[16][9];
    // Tets go in groups of four so that their SVDs run as one batch (icMat3_SvdBatch).
    enum { GROUP = 4 };
    for (int t0 = 0; t0 < model->tetCount; t0 += GROUP) {
        int count = model->tetCount - t0 < GROUP ? model->tetCount - t0 : GROUP;
        icMat3 F[GROUP];
        icSvd3 svd[GROUP];
        bool needSvd = false;
        for (int k = 0; k < count; ++k) {
            F[k] = icFem_TetF(model, x, t0 + k);
            needSvd |= icMaterial_NeedsSvd(&model->materials[model->tetMaterial[t0 + k]],
                                           needHessian && project);
        }
        if (needSvd) icMat3_SvdBatch(count, F, svd);
        for (int k = 0; k < count; ++k) {
            int t = t0 + k;
            const icMaterial *m = &model->materials[model->tetMaterial[t]];
            icMat3 P;
            icReal *h = hessians ? hessians + 81 * (size_t)t : local;
            icReal psi = icMaterial_EvaluateSvd(m, F[k], needSvd ? &svd[k] : NULL, &P,
                                                needHessian ? h : NULL, project);
            icKahan_Add(&sum, model->rest[t].W * psi);
            if (f) icFem_ScatterStress(model, t, P, f);
            if (pattern) {
                icTetRest rest = model->rest[t];
                rest.W *= stiffnessScale;
                icTet_StiffnessBlocks(h, &rest, ke);
                scatterElement(pattern, t, ke);
            }
        }
    }
    if (pattern) addMass(model, massScale, pattern);
    return sum.sum;
}
