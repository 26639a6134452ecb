// SPDX-License-Identifier: MIT
// The FEM model: oriented tets, rest data (Q, W), materials and lumped masses.
#include "core/core.h"
#include "fem/fem_internal.h"

void icFemModel_Destroy(icFemModel *model) {
    if (!model) return;
    icFree(model->tets);
    icFree(model->rest);
    icFree(model->materials);
    icFree(model->tetMaterial);
    icFree(model->mass);
    icFemThreads_Destroy(model->threads);
    memset(model, 0, sizeof *model);
}

static bool materialIsValid(const icMaterial *m) {
    return (int)m->model >= 0 && m->model < IC_MATERIAL_COUNT_ && m->mu > 0 && isfinite(m->mu) &&
           isfinite(m->lambda) && isfinite(m->alpha) && m->density > 0 && isfinite(m->density);
}

icResult icFemModel_Create(icFemModel *model, int vertexCount, const icReal *restPositions,
                           int tetCount, const int *tets, int materialCount,
                           const icMaterial *materials, const int *tetMaterial,
                           icDiagnostic *diag) {
    return icFemModel_CreateEx(model, vertexCount, restPositions, tetCount, tets, materialCount,
                               materials, tetMaterial, false, diag);
}

icResult icFemModel_CreateEx(icFemModel *model, int vertexCount, const icReal *restPositions,
                             int tetCount, const int *tets, int materialCount,
                             const icMaterial *materials, const int *tetMaterial,
                             bool allowIsolated, icDiagnostic *diag) {
    memset(model, 0, sizeof *model);
    if (vertexCount <= 0 || tetCount <= 0 || !restPositions || !tets)
        return icDiag_Set(diag, IC_ERR_EMPTY, "", 0, "FEM model needs vertices and tets");
    if (materialCount <= 0 || !materials)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "FEM model needs a material");
    for (int k = 0; k < materialCount; ++k)
        if (!materialIsValid(&materials[k]))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                              "material %d: needs mu > 0, finite lambda and alpha, density > 0", k);

    model->vertexCount = vertexCount;
    model->tetCount = tetCount;
    model->materialCount = materialCount;
    model->tets = IC_ALLOC(int, 4 * (size_t)tetCount);
    model->rest = IC_ALLOC(icTetRest, tetCount);
    model->materials = IC_ALLOC(icMaterial, materialCount);
    model->tetMaterial = IC_ALLOC(int, tetCount);
    model->mass = IC_ALLOC_ZERO(icReal, vertexCount);
    if (!model->tets || !model->rest || !model->materials || !model->tetMaterial || !model->mass) {
        icFemModel_Destroy(model);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "", 0, NULL);
    }
    memcpy(model->materials, materials, sizeof(icMaterial) * (size_t)materialCount);

    icResult result = IC_OK;
    for (int t = 0; t < tetCount && result == IC_OK; ++t) {
        int *tv = model->tets + 4 * t;
        memcpy(tv, tets + 4 * t, sizeof(int) * 4);
        int mat = tetMaterial ? tetMaterial[t] : 0;
        if (mat < 0 || mat >= materialCount) {
            result = icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, "", 0,
                                "tet %d uses material %d of %d", t, mat, materialCount);
            break;
        }
        model->tetMaterial[t] = mat;
        for (int a = 0; a < 4; ++a) {
            if (tv[a] < 0 || tv[a] >= vertexCount) {
                result = icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, "", 0,
                                    "tet %d uses vertex %d of %d", t, tv[a], vertexCount);
                break;
            }
            for (int b = 0; b < a; ++b)
                if (tv[a] == tv[b]) {
                    result = icDiag_Set(diag, IC_ERR_REPEATED_INDEX, "", 0,
                                        "tet %d repeats vertex %d", t, tv[a]);
                    break;
                }
            if (result != IC_OK) break;
        }
        if (result != IC_OK) break;
        icVec3 X[4];
        for (int a = 0; a < 4; ++a) X[a] = icVec3_Load(restPositions, tv[a]);
        icResult r = icTet_Rest(X, &model->rest[t]);
        if (r == IC_ERR_INVERTED_ELEMENT) {
            // Swap local vertices 2 and 3 so that det Dm > 0.
            int s = tv[1];
            tv[1] = tv[2];
            tv[2] = s;
            icVec3 xs = X[1];
            X[1] = X[2];
            X[2] = xs;
            r = icTet_Rest(X, &model->rest[t]);
        }
        if (r != IC_OK) {
            result = icDiag_Set(diag, r, "", 0,
                                "tet %d (vertices %d %d %d %d) has (nearly) zero rest volume", t,
                                tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]);
            if (diag) diag->element = t;
            break;
        }
        // Lumped mass: rho W / 4 per vertex (Sifakis & Barbič 2012, sec. 4.4).
        icReal m = model->materials[mat].density * model->rest[t].W / 4;
        for (int a = 0; a < 4; ++a) model->mass[tv[a]] += m;
    }
    if (result == IC_OK && !allowIsolated)
        for (int v = 0; v < vertexCount; ++v)
            if (!(model->mass[v] > 0)) {
                result = icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                                    "vertex %d belongs to no tet (zero mass)", v);
                if (diag) diag->element = v;
                break;
            }
    if (result != IC_OK) icFemModel_Destroy(model);
    return result;
}

icResult icFemModel_CreateFromMesh(icFemModel *model, const icTetMesh *mesh,
                                   const icMaterial *material, icDiagnostic *diag) {
    return icFemModel_Create(model, mesh->vertexCount, mesh->positions, mesh->tetCount,
                             mesh->tets, 1, material, NULL, diag);
}
