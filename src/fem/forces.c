// SPDX-License-Identifier: MIT
// Mesh-level elastic energy, forces, per-tet Hessians and matrix-free stiffness products.
#include "core/core.h"
#include "fem/fem_internal.h"
#include "fem/material_internal.h"

// Per-tet energy and/or stress in groups of four, so that models needing the SVD of F
// (corotated, clamped Neo-Hookean) get it from one batch (icMat3_SvdBatch).
static icReal energyAndForces(const icFemModel *model, const icReal *x, icReal *f) {
    // Kahan summation: near convergence the line search compares energies whose difference
    // is close to rounding.
    icKahanSum sum = {0, 0};
    enum { GROUP = 4 };
    for (int t0 = 0; t0 < model->tetCount; t0 += GROUP) {
        int count = model->tetCount - t0 < GROUP ? model->tetCount - t0 : GROUP;
        icMat3 F[GROUP];
        icSvd3 svd[GROUP];
        bool needSvd = false;
        for (int k = 0; k < count; ++k) {
            F[k] = icFem_TetF(model, x, t0 + k);
            needSvd |= icMaterial_NeedsSvd(&model->materials[model->tetMaterial[t0 + k]], false);
        }
        if (needSvd) icMat3_SvdBatch(count, F, svd);
        for (int k = 0; k < count; ++k) {
            int t = t0 + k;
            const icMaterial *m = &model->materials[model->tetMaterial[t]];
            icMat3 P;
            icReal psi = icMaterial_EvaluateSvd(m, F[k], needSvd ? &svd[k] : NULL, f ? &P : NULL,
                                                NULL, false);
            icKahan_Add(&sum, model->rest[t].W * psi);
            if (f) icFem_ScatterStress(model, t, P, f);
        }
    }
    return sum.sum;
}

icReal icFem_Energy(const icFemModel *model, const icReal *x) {
    return energyAndForces(model, x, NULL);
}

void icFem_AddForces(const icFemModel *model, const icReal *x, icReal *f) {
    energyAndForces(model, x, f);
}

void icFem_ComputeHessians(const icFemModel *model, const icReal *x, bool project,
                           icReal *hessians) {
    for (int t = 0; t < model->tetCount; ++t) {
        const icMaterial *m = &model->materials[model->tetMaterial[t]];
        icMaterial_Evaluate(m, icFem_TetF(model, x, t), NULL, hessians + 81 * (size_t)t, project);
    }
}

// (K w)_a = sum_e W dP(F_e; dF_e(w)) g_a with dP = unvec(Hf vec(dF)): a force-differential
// pass with dx = -w (Sifakis & Barbič 2012, Algorithm 2) on cached Hessians.
void icFem_StiffnessProduct(const icFemModel *model, const icReal *hessians, const icReal *w,
                            icReal *out) {
    memset(out, 0, sizeof(icReal) * 3 * (size_t)model->vertexCount);
    for (int t = 0; t < model->tetCount; ++t) {
        icMat3 dF = icFem_TetF(model, w, t);
        const icReal *h = hessians + 81 * (size_t)t;
        const icReal *d = (const icReal *)&dF;
        icMat3 dP;
        icReal *p = (icReal *)&dP;
        for (int r = 0; r < 9; ++r) p[r] = 0;
        for (int c = 0; c < 9; ++c)
            for (int r = 0; r < 9; ++r) p[r] += h[r + 9 * c] * d[c];
        // K w gathers +W dP g_a: the force scatter with the sign flipped.
        icFem_ScatterStress(model, t, icMat3_Scale(-1, dP), out);
    }
}

// [K_e](3a+i, 3a+k) = W sum_{j,l} g_a[j] g_a[l] Hf(i,j),(k,l): the 3x3 diagonal blocks of K.
void icFem_StiffnessDiagonal(const icFemModel *model, const icReal *hessians,
                             icReal *diagBlocks) {
    memset(diagBlocks, 0, sizeof(icReal) * 9 * (size_t)model->vertexCount);
    for (int t = 0; t < model->tetCount; ++t) {
        const icReal *h = hessians + 81 * (size_t)t;
        icVec3 g[4];
        icTet_ShapeGradients(model->rest[t].Q, g);
        icReal W = model->rest[t].W;
        for (int a = 0; a < 4; ++a) {
            const icReal *ga = &g[a].x;
            icReal *blk = diagBlocks + 9 * (size_t)model->tets[4 * t + a];
            for (int k = 0; k < 3; ++k)
                for (int i = 0; i < 3; ++i) {
                    icReal s = 0;
                    for (int j = 0; j < 3; ++j)
                        for (int l = 0; l < 3; ++l) s += ga[j] * ga[l] * h[(3 * j + i) + 9 * (3 * l + k)];
                    blk[3 * k + i] += W * s;
                }
        }
    }
}
