// SPDX-License-Identifier: MIT
// Cotangent Laplacian of a triangle mesh (Q = -L, symmetric positive semidefinite) and a
// Jacobi-preconditioned CG for (Q + shift I) y = b with Dirichlet values: skin-weight fairing
// (Angles et al. 2019, sec. 7.4) and the harmonic field of viperization (sec. 8.1).
#include "rod/laplace.h"

#include <math.h>

void icRodLaplacian_Destroy(icRodLaplacian *L) {
    if (!L) return;
    icFree(L->rowStart);
    icFree(L->col);
    icFree(L->val);
    icFree(L->diag);
    memset(L, 0, sizeof *L);
}

// Stiffness matrix of P1 elements, sum over triangles of (1/2) cot(angle) on the opposite
// edge: PSD for any mesh, Q 1 = 0. Triangles of (near) zero area are skipped.
icResult icRodLaplacian_Build(icRodLaplacian *L, int nv, const icReal *pos, int nt,
                              const int *tri) {
    memset(L, 0, sizeof *L);
    L->n = nv;
    // Pattern: each vertex's neighbours through triangles, sorted, plus itself.
    int *count = IC_ALLOC_ZERO(int, (size_t)nv + 1);
    int *adj = IC_ALLOC(int, 6 * (size_t)nt + 1);
    if (!count || !adj) {
        icFree(count);
        icFree(adj);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int t = 0; t < nt; ++t)
        for (int c = 0; c < 3; ++c) count[tri[3 * t + c] + 1] += 2;
    for (int i = 0; i < nv; ++i) count[i + 1] += count[i];
    int *fill = IC_ALLOC(int, (size_t)nv + 1);
    if (!fill) {
        icFree(count);
        icFree(adj);
        return IC_ERR_OUT_OF_MEMORY;
    }
    memcpy(fill, count, sizeof(int) * ((size_t)nv + 1));
    for (int t = 0; t < nt; ++t)
        for (int c = 0; c < 3; ++c) {
            int a = tri[3 * t + c];
            adj[fill[a]++] = tri[3 * t + (c + 1) % 3];
            adj[fill[a]++] = tri[3 * t + (c + 2) % 3];
        }
    L->rowStart = IC_ALLOC(int, (size_t)nv + 1);
    L->col = IC_ALLOC(int, 6 * (size_t)nt + (size_t)nv + 1);
    L->diag = IC_ALLOC(int, (size_t)nv + 1);
    icResult result = IC_OK;
    if (!L->rowStart || !L->col || !L->diag) result = IC_ERR_OUT_OF_MEMORY;
    int nnz = 0;
    for (int i = 0; i < nv && result == IC_OK; ++i) {
        int *row = adj + count[i];
        int n = count[i + 1] - count[i];
        icSortInts(row, n);
        L->rowStart[i] = nnz;
        // merge the sorted neighbours with i itself
        bool placed = false;
        int last = -1;
        for (int k = 0; k < n; ++k) {
            if (!placed && i < row[k]) {
                L->diag[i] = nnz;
                L->col[nnz++] = i;
                placed = true;
            }
            if (row[k] == last || row[k] == i) continue;
            L->col[nnz++] = last = row[k];
        }
        if (!placed) {
            L->diag[i] = nnz;
            L->col[nnz++] = i;
        }
    }
    if (result == IC_OK) {
        L->rowStart[nv] = nnz;
        L->val = IC_ALLOC_ZERO(icReal, (size_t)nnz + 1);
        if (!L->val) result = IC_ERR_OUT_OF_MEMORY;
    }
    icFree(count);
    icFree(adj);
    icFree(fill);
    if (result != IC_OK) {
        icRodLaplacian_Destroy(L);
        return result;
    }
    for (int t = 0; t < nt; ++t) {
        int v[3] = {tri[3 * t], tri[3 * t + 1], tri[3 * t + 2]};
        icVec3 p[3] = {icVec3_Load(pos, v[0]), icVec3_Load(pos, v[1]), icVec3_Load(pos, v[2])};
        icReal area2 = icVec3_Length(icVec3_Cross(icVec3_Sub(p[1], p[0]), icVec3_Sub(p[2], p[0])));
        icReal scale = icVec3_LengthSquared(icVec3_Sub(p[1], p[0])) +
                       icVec3_LengthSquared(icVec3_Sub(p[2], p[1])) +
                       icVec3_LengthSquared(icVec3_Sub(p[0], p[2]));
        if (!(area2 > 1e-10 * scale)) continue;
        for (int c = 0; c < 3; ++c) {
            // the angle at corner c faces the edge (c+1, c+2)
            icVec3 e1 = icVec3_Sub(p[(c + 1) % 3], p[c]), e2 = icVec3_Sub(p[(c + 2) % 3], p[c]);
            icReal cot = icVec3_Dot(e1, e2) / area2;
            int a = v[(c + 1) % 3], b = v[(c + 2) % 3];
            icReal wgt = 0.5 * cot;
            for (int k = L->rowStart[a]; k < L->rowStart[a + 1]; ++k)
                if (L->col[k] == b) L->val[k] -= wgt;
            for (int k = L->rowStart[b]; k < L->rowStart[b + 1]; ++k)
                if (L->col[k] == a) L->val[k] -= wgt;
            L->val[L->diag[a]] += wgt;
            L->val[L->diag[b]] += wgt;
        }
    }
    return IC_OK;
}

static void multiply(const icRodLaplacian *L, icReal shift, const unsigned char *fixed,
                     const icReal *x, icReal *y) {
    for (int i = 0; i < L->n; ++i) {
        if (fixed && fixed[i]) {
            y[i] = 0;
            continue;
        }
        icReal s = shift * x[i];
        for (int k = L->rowStart[i]; k < L->rowStart[i + 1]; ++k) {
            int j = L->col[k];
            if (fixed && fixed[j]) continue;
            s += L->val[k] * x[j];
        }
        y[i] = s;
    }
}

int icRodLaplacian_Solve(const icRodLaplacian *L, icReal shift, const unsigned char *fixed,
                         const icReal *b, icReal *y, icReal tolerance, int maxIterations) {
    int n = L->n;
    icReal *r = IC_ALLOC(icReal, 4 * (size_t)n + 4);
    if (!r) return -1;
    icReal *z = r + n, *p = z + n, *q = p + n;
    // r = b - (Q + shift I) y over the free rows, fixed values of y included in the product.
    for (int i = 0; i < n; ++i) {
        if (fixed && fixed[i]) {
            r[i] = 0;
            continue;
        }
        icReal s = shift * y[i];
        for (int k = L->rowStart[i]; k < L->rowStart[i + 1]; ++k) s += L->val[k] * y[L->col[k]];
        r[i] = (b ? b[i] : 0) - s;
    }
    icReal rz = 0, r0 = 0;
    for (int i = 0; i < n; ++i) {
        icReal d = L->val[L->diag[i]] + shift;
        z[i] = (fixed && fixed[i]) || !(d > 0) ? 0 : r[i] / d;
        p[i] = z[i];
        rz += r[i] * z[i];
    }
    r0 = rz;
    int it = 0;
    while (it < maxIterations && rz > tolerance * tolerance * r0 && rz > 0) {
        multiply(L, shift, fixed, p, q);
        icReal pq = 0;
        for (int i = 0; i < n; ++i) pq += p[i] * q[i];
        if (!(pq > 0)) break;
        icReal a = rz / pq, rzNew = 0;
        for (int i = 0; i < n; ++i) {
            y[i] += a * p[i];
            r[i] -= a * q[i];
            icReal d = L->val[L->diag[i]] + shift;
            z[i] = (fixed && fixed[i]) || !(d > 0) ? 0 : r[i] / d;
            rzNew += r[i] * z[i];
        }
        for (int i = 0; i < n; ++i) p[i] = z[i] + (rzNew / rz) * p[i];
        rz = rzNew;
        ++it;
    }
    icFree(r);
    return it;
}
