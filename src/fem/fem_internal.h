// SPDX-License-Identifier: MIT
// Internal FEM declarations: threaded tangent kernels and per-tet gather/scatter helpers.
#pragma once

#include "core/pool.h"
#include "isochor/fem.h"

/// icFemModel_Create that optionally accepts vertices no tet uses (mass 0); the world
/// allows them and holds them still.
icResult icFemModel_CreateEx(icFemModel *model, int vertexCount, const icReal *restPositions,
                             int tetCount, const int *tets, int materialCount,
                             const icMaterial *materials, const int *tetMaterial,
                             bool allowIsolated, icDiagnostic *diag);

/// Attaches workers to the model's threaded kernels (icFem_Evaluate, icFem_TangentProduct,
/// icFem_TangentDiagonal; pool NULL: the caller's thread only) and, the first time, builds
/// what they share: the upper-block pattern of K and each tet's destinations in it. Each
/// worker owns a vertex range and sums into it in a fixed order, so any worker count gives
/// the same bits. IC_ERR_OUT_OF_MEMORY.
icResult icFemModel_SetPool(icFemModel *model, icPool *pool);
void icFemThreads_Destroy(struct icFemThreads *threads);
/// One threaded pass over the tets at x: adds the elastic forces to f (may be NULL) and,
/// with tangent, assembles the stiffness K (from projected Hessians with project) that the
/// two functions below use. Needs icFemModel_SetPool.
void icFem_Evaluate(const icFemModel *model, const icReal *x, icReal *f, bool tangent,
                    bool project);
/// out = stiffnessScale K w + massScale M w with the K of the last icFem_Evaluate.
void icFem_TangentProduct(const icFemModel *model, icReal stiffnessScale, icReal massScale,
                          const icReal *w, icReal *out);
/// 3x3 diagonal blocks of that K (vertexCount x 9, column-major).
void icFem_TangentDiagonal(const icFemModel *model, icReal *diagBlocks);

/// F of tet t at positions x (vertexCount x 3): Ds Q (Sifakis & Barbič 2012, eq. 4.5).
static inline icMat3 icFem_TetF(const icFemModel *model, const icReal *x, int t) {
    const int *tv = model->tets + 4 * t;
    icVec3 x3 = icVec3_Load(x, tv[3]);
    icMat3 ds = icMat3_FromCols(icVec3_Sub(icVec3_Load(x, tv[0]), x3),
                                icVec3_Sub(icVec3_Load(x, tv[1]), x3),
                                icVec3_Sub(icVec3_Load(x, tv[2]), x3));
    return icMat3_Mul(ds, model->rest[t].Q);
}

/// Adds the nodal forces of stress P on tet t to f: H = -W P Q^T, f4 = -(f1+f2+f3)
/// (Sifakis & Barbič 2012, eq. 4.7 and Algorithm 1).
static inline void icFem_ScatterStress(const icFemModel *model, int t, icMat3 P, icReal *f) {
    const int *tv = model->tets + 4 * t;
    icMat3 h = icMat3_Scale(-model->rest[t].W, icMat3_MulTrans(P, model->rest[t].Q));
    icVec3 f3 = icVec3_Neg(icVec3_Add(icVec3_Add(h.col[0], h.col[1]), h.col[2]));
    for (int a = 0; a < 3; ++a) {
        icReal *p = f + 3 * tv[a];
        p[0] += h.col[a].x;
        p[1] += h.col[a].y;
        p[2] += h.col[a].z;
    }
    icReal *p = f + 3 * tv[3];
    p[0] += f3.x;
    p[1] += f3.y;
    p[2] += f3.z;
}

/// Compensated (Kahan) sum; once a term is non-finite (a barrier's +inf) it stays so.
typedef struct icKahanSum {
    icReal sum, comp;
} icKahanSum;

static inline void icKahan_Add(icKahanSum *k, icReal v) {
    if (!isfinite(v) || !isfinite(k->sum)) {
        k->sum += v;
        return;
    }
    icReal e = v - k->comp;
    icReal s = k->sum + e;
    k->comp = (s - k->sum) - e;
    k->sum = s;
}
