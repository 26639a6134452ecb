// SPDX-License-Identifier: MIT
// Inline per-tet gather/scatter helpers shared by the mesh-level FEM kernels.
#pragma once

#include "isochor/fem.h"

/// icFemModel_Create that optionally accepts vertices no tet uses (mass 0); the world
/// allows them and holds them still.
icResult icFemModel_CreateEx(icFemModel *model, int vertexCount, const icReal *restPositions,
                             int tetCount, const int *tets, int materialCount,
                             const icMaterial *materials, const int *tetMaterial,
                             bool allowIsolated, icDiagnostic *diag);

/// F of tet t at positions x (vertexCount x 3): Ds Q (spec 1.2).
static inline icMat3 icFem_TetF(const icFemModel *model, const icReal *x, int t) {
    const int *tv = model->tets + 4 * t;
    icVec3 x3 = icVec3_Load(x, tv[3]);
    icMat3 ds = icMat3_FromCols(icVec3_Sub(icVec3_Load(x, tv[0]), x3),
                                icVec3_Sub(icVec3_Load(x, tv[1]), x3),
                                icVec3_Sub(icVec3_Load(x, tv[2]), x3));
    return icMat3_Mul(ds, model->rest[t].Q);
}

/// Adds the nodal forces of stress P on tet t to f: H = -W P Q^T, f4 = -(f1+f2+f3)
/// (spec 1.3, seed 004 algorithm 1).
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
