// SPDX-License-Identifier: MIT
// Skinning a triangle mesh to a rod's pills (Angles et al. 2019, sec. 7.4): weights by inverse
// squared distance to the pill surfaces, faired with the cotangent Laplacian, split between
// each pill's two end bones, cut and capped at 4; bones are per-pill-end similarities
// Translate(x_v) Rotate(q_e) Scale(r_v), blended linearly.
#include "rod/laplace.h"

#include "core/pool.h"

#include <math.h>
#include <stdlib.h>

icRodSkinDef icDefaultRodSkinDef(void) {
    icRodSkinDef d;
    d.mesh = NULL;
    d.rod = 0;
    d.rodCount = 1;
    d.instanceCount = 1;
    d.epsilon = 1e-6;
    d.fairing = 0.1;
    d.cutoff = 0.01;
    d.maxInfluences = 4;
    return d;
}

typedef struct icBoneWeight {
    int seg, end;
    icReal w;
} icBoneWeight;

static int cmpWeight(const void *a, const void *b) {
    const icBoneWeight *x = a, *y = b;
    if (x->w != y->w) return x->w < y->w ? 1 : -1;
    if (x->seg != y->seg) return x->seg - y->seg;
    return x->end - y->end;
}

// Position of template vertex i under the bones of instance k at state (x, r, q).
static icVec3 skinVertex(const icRodModel *m, const icRodSkin *s, int k, int i, const icReal *x,
                         const icReal *r, const icReal *q) {
    int segStart = m->rods[s->rod + k * s->rodCount].segmentStart;
    icVec3 p = icVec3_Make(0, 0, 0);
    for (int b = 0; b < 4; ++b) {
        icReal wt = s->weight[4 * i + b];
        if (wt == 0) continue;
        int e = segStart + s->boneSeg[4 * i + b];
        int v = m->seg[2 * e + s->boneEnd[4 * i + b]];
        icVec3 local = icVec3_Load(s->local, 4 * i + b);
        icVec3 pb = icVec3_Add(icVec3_Load(x, v),
                               icVec3_Scale(r[v], icQuat_Rotate(icQuat_Load(q, e), local)));
        p = icVec3_MulAdd(p, wt, pb);
    }
    return p;
}

// Linear blend skinning of instance k with each bone's similarity r_v R(q_e) | x_v formed
// once (bones: 24 reals per pill).
static void skinInstance(const icRodModel *m, icRodSkin *s, int k, const icReal *x, const icReal *r,
                         const icReal *q, icReal *bones) {
    int segFirst = m->rods[s->rod].segmentStart;
    const icRodRecord *last = &m->rods[s->rod + s->rodCount - 1];
    int np = last->segmentStart + last->segmentCount - segFirst;
    int segStart = m->rods[s->rod + k * s->rodCount].segmentStart;
    if (!bones) {
        for (int i = 0; i < s->vertexCount; ++i)
            icVec3_Store(s->positions, k * s->vertexCount + i, skinVertex(m, s, k, i, x, r, q));
        return;
    }
    for (int j = 0; j < np; ++j) {
        int e = segStart + j;
        icMat3 R = icQuat_ToMat3(icQuat_Load(q, e));
        for (int end = 0; end < 2; ++end) {
            int v = m->seg[2 * e + end];
            icReal *B = bones + 12 * (2 * j + end);
            icMat3 S = icMat3_Scale(r[v], R);
            memcpy(B, &S, sizeof(icReal) * 9);
            B[9] = x[3 * v], B[10] = x[3 * v + 1], B[11] = x[3 * v + 2];
        }
    }
    icReal *out = s->positions + 3 * (size_t)k * s->vertexCount;
    for (int i = 0; i < s->vertexCount; ++i) {
        icReal px = 0, py = 0, pz = 0;
        for (int b = 0; b < 4; ++b) {
            icReal wt = s->weight[4 * i + b];
            if (wt == 0) continue;
            const icReal *B = bones + 12 * (2 * s->boneSeg[4 * i + b] + s->boneEnd[4 * i + b]);
            const icReal *l = s->local + 3 * (4 * i + b);
            px += wt * (B[0] * l[0] + B[3] * l[1] + B[6] * l[2] + B[9]);
            py += wt * (B[1] * l[0] + B[4] * l[1] + B[7] * l[2] + B[10]);
            pz += wt * (B[2] * l[0] + B[5] * l[1] + B[8] * l[2] + B[11]);
        }
        out[3 * i] = px, out[3 * i + 1] = py, out[3 * i + 2] = pz;
    }
}

static void updateSkin(const icRodModel *m, icRodSkin *s, const icReal *x, const icReal *r,
                       const icReal *q, icReal *bones) {
    for (int k = 0; k < s->instanceCount; ++k) skinInstance(m, s, k, x, r, q, bones);
}

typedef struct icSkinTask {
    const icRodWorld *w;
    icRodSkin *skin;
    icReal *bones; ///< (workers x bonesPerWorker)
    size_t bonesPerWorker;
} icSkinTask;

static void skinTask(int start, int end, int worker, void *context) {
    const icSkinTask *t = context;
    for (int k = start; k < end; ++k)
        skinInstance(&t->w->model, t->skin, k, t->w->state.x, t->w->state.r, t->w->state.q,
                     t->bones ? t->bones + t->bonesPerWorker * worker : NULL);
}

// Instances in parallel: each writes only its own vertices.
void icRodWorld_UpdateSkins(icRodWorld *w) {
    for (int s = 0; s < w->model.skinCount; ++s) {
        icRodSkin *k = &w->model.skins[s];
        const icRodRecord *last = &w->model.rods[k->rod + k->rodCount - 1];
        int np = last->segmentStart + last->segmentCount - w->model.rods[k->rod].segmentStart;
        int workers = icPool_WorkerCount(w->pool);
        icSkinTask task = {w, k, NULL, 24 * (size_t)np};
        task.bones = IC_ALLOC(icReal, task.bonesPerWorker * workers); // NULL: per-vertex path
        icPool_ParallelFor(w->pool, skinTask, k->instanceCount, 1, &task);
        icFree(task.bones);
    }
}

int icRodWorld_GetSkinCount(const icRodWorld *w) { return w->model.skinCount; }

void icRodWorld_GetSkin(const icRodWorld *w, int skin, int *vertexCount, const icReal **positions,
                        int *triangleCount, const int **triangles) {
    IC_ASSERT(skin >= 0 && skin < w->model.skinCount);
    const icRodSkin *s = &w->model.skins[skin];
    if (vertexCount) *vertexCount = s->vertexCount * s->instanceCount;
    if (positions) *positions = s->positions;
    if (triangleCount) *triangleCount = s->triangleCount * s->instanceCount;
    if (triangles) *triangles = s->triangles;
}

int icRodWorld_GetSkinWeights(const icRodWorld *w, int skin, int v, int segment[4], int end[4],
                              icReal weight[4]) {
    IC_ASSERT(skin >= 0 && skin < w->model.skinCount);
    const icRodSkin *s = &w->model.skins[skin];
    int n = 0;
    for (int b = 0; b < 4; ++b) {
        if (s->weight[4 * v + b] == 0) continue;
        segment[n] = s->boneSeg[4 * v + b];
        end[n] = s->boneEnd[4 * v + b];
        weight[n] = s->weight[4 * v + b];
        ++n;
    }
    return n;
}

// The weights of Angles et al. 2019, sec. 7.4: P_ij = 1 / (eps + max(sd_ij, 0)^2), rows
// normalised, then faired per pill column by (Q + lambda I) W = lambda P. T gets the
// projections' t* per (i, j).
static icResult pillWeights(const icRodModel *m, int segStart, int np, const icRodSkinDef *d,
                            icReal *W, icReal *T) {
    const icRodSurface *mesh = d->mesh;
    int nv = mesh->vertexCount;
    for (int i = 0; i < nv; ++i) {
        icVec3 p = icVec3_Load(mesh->positions, i);
        icReal sum = 0;
        for (int j = 0; j < np; ++j) {
            int e = segStart + j, a = m->seg[2 * e], b = m->seg[2 * e + 1];
            icReal sd = icPill_PointDistance(p, icVec3_Load(m->restPos, a), m->restRadius[a],
                                             icVec3_Load(m->restPos, b), m->restRadius[b],
                                             &T[(size_t)i * np + j]);
            icReal dd = sd > 0 ? sd : 0;
            W[(size_t)i * np + j] = 1.0 / (d->epsilon + dd * dd);
            sum += W[(size_t)i * np + j];
        }
        for (int j = 0; j < np; ++j) W[(size_t)i * np + j] /= sum;
    }
    if (!(d->fairing > 0)) return IC_OK;
    icRodLaplacian L;
    icResult e =
        icRodLaplacian_Build(&L, nv, mesh->positions, mesh->triangleCount, mesh->triangles);
    if (e != IC_OK) return e;
    icReal *col = IC_ALLOC(icReal, 2 * (size_t)nv);
    if (!col) {
        icRodLaplacian_Destroy(&L);
        return IC_ERR_OUT_OF_MEMORY;
    }
    icReal *rhs = col + nv;
    for (int j = 0; j < np && e == IC_OK; ++j) {
        for (int i = 0; i < nv; ++i) {
            col[i] = W[(size_t)i * np + j];
            rhs[i] = d->fairing * col[i];
        }
        if (icRodLaplacian_Solve(&L, d->fairing, NULL, rhs, col, 1e-10, 10 * nv + 100) < 0)
            e = IC_ERR_OUT_OF_MEMORY;
        for (int i = 0; i < nv; ++i) W[(size_t)i * np + j] = col[i];
    }
    icFree(col);
    icRodLaplacian_Destroy(&L);
    // Fairing keeps each row's sum (Q 1 = 0) but may leave small negatives.
    for (int i = 0; i < nv; ++i) {
        icReal sum = 0;
        for (int j = 0; j < np; ++j) {
            icReal *x = &W[(size_t)i * np + j];
            if (!(*x > 0)) *x = 0;
            sum += *x;
        }
        for (int j = 0; j < np && sum > 0; ++j) W[(size_t)i * np + j] /= sum;
    }
    return e;
}

icResult icRodWorld_AddSkin(icRodWorld *w, const icRodSkinDef *d, int *skinIndex,
                            icDiagnostic *diag) {
    icRodModel *m = &w->model;
    const char *f = "skin";
    if (!d || !d->mesh || d->mesh->vertexCount < 1 || d->mesh->triangleCount < 1 ||
        !d->mesh->positions || !d->mesh->triangles)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "a skin needs a triangle mesh");
    if (d->rod < 0 || d->instanceCount < 1 || d->rodCount < 1 ||
        d->rod + d->instanceCount * d->rodCount > m->rodCount)
        return icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, f, 0, "rods %d..%d do not exist", d->rod,
                          d->rod + d->instanceCount * d->rodCount - 1);
    if (!(d->epsilon > 0) || !(d->cutoff >= 0 && d->cutoff < 1) || d->maxInfluences < 1 ||
        d->maxInfluences > 4 || !isfinite(d->fairing))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0,
                          "epsilon > 0, cutoff in [0, 1), 1..4 influences");
    // The pills of an instance: the segments of its rods, contiguous when added in a row.
    int segStart = m->rods[d->rod].segmentStart;
    const icRodRecord *lastRod = &m->rods[d->rod + d->rodCount - 1];
    int np = lastRod->segmentStart + lastRod->segmentCount - segStart;
    for (int k = 0; k < d->instanceCount; ++k) {
        int first = d->rod + k * d->rodCount;
        int expect = m->rods[first].segmentStart;
        for (int j = 0; j < d->rodCount; ++j) {
            const icRodRecord *r = &m->rods[first + j];
            if (r->segmentStart != expect || r->segmentCount != m->rods[d->rod + j].segmentCount)
                return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0,
                                  "instance %d's rods do not match the first instance's", k);
            expect += r->segmentCount;
        }
    }
    const icRodSurface *mesh = d->mesh;
    for (int t = 0; t < 3 * mesh->triangleCount; ++t)
        if (mesh->triangles[t] < 0 || mesh->triangles[t] >= mesh->vertexCount)
            return icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, f, 0, "triangle %d names vertex %d",
                              t / 3, mesh->triangles[t]);
    if (!icGrowArray((void **)&m->skins, &m->skinCapacity, m->skinCount + 1, sizeof(icRodSkin)))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, f, 0, "out of memory");
    int nv = mesh->vertexCount, nk = d->instanceCount;
    icRodSkin s;
    memset(&s, 0, sizeof s);
    s.rod = d->rod;
    s.rodCount = d->rodCount;
    s.instanceCount = nk;
    s.vertexCount = nv;
    s.triangleCount = mesh->triangleCount;
    s.triangles = IC_ALLOC(int, 3 * (size_t)mesh->triangleCount * nk);
    s.boneSeg = IC_ALLOC_ZERO(int, 4 * (size_t)nv);
    s.boneEnd = IC_ALLOC_ZERO(unsigned char, 4 * (size_t)nv);
    s.weight = IC_ALLOC_ZERO(icReal, 4 * (size_t)nv);
    s.local = IC_ALLOC_ZERO(icReal, 12 * (size_t)nv);
    s.positions = IC_ALLOC(icReal, 3 * (size_t)nv * nk);
    icReal *W = IC_ALLOC(icReal, (size_t)nv * np), *T = IC_ALLOC(icReal, (size_t)nv * np);
    icBoneWeight *cand = IC_ALLOC(icBoneWeight, 2 * (size_t)np);
    icResult e = IC_OK;
    if (!s.triangles || !s.boneSeg || !s.boneEnd || !s.weight || !s.local || !s.positions || !W ||
        !T || !cand)
        e = IC_ERR_OUT_OF_MEMORY;
    if (e == IC_OK) e = pillWeights(m, segStart, np, d, W, T);
    for (int i = 0; i < nv && e == IC_OK; ++i) {
        // Step 3: split each pill's weight by t*; steps 4-5: sort, cut at 1 %, keep 4.
        for (int j = 0; j < np; ++j) {
            icReal wt = W[(size_t)i * np + j], t = T[(size_t)i * np + j];
            cand[2 * j] = (icBoneWeight){j, 0, (1 - t) * wt};
            cand[2 * j + 1] = (icBoneWeight){j, 1, t * wt};
        }
        qsort(cand, 2 * (size_t)np, sizeof *cand, cmpWeight);
        int keep = 1;
        while (keep < 2 * np && cand[keep - 1].w >= d->cutoff * cand[0].w) ++keep;
        if (keep > d->maxInfluences) keep = d->maxInfluences;
        icReal sum = 0;
        for (int b = 0; b < keep; ++b) sum += cand[b].w;
        icVec3 p = icVec3_Load(mesh->positions, i);
        for (int b = 0; b < keep; ++b) {
            int ge = segStart + cand[b].seg, v = m->seg[2 * ge + cand[b].end];
            s.boneSeg[4 * i + b] = cand[b].seg;
            s.boneEnd[4 * i + b] = (unsigned char)cand[b].end;
            s.weight[4 * i + b] = sum > 0 ? cand[b].w / sum : 1.0 / keep;
            // inverse bind pose: T(0)^-1 p = R(qbar_e)^T (p - xbar_v) / rbar_v
            icVec3 local =
                icVec3_Scale(1.0 / m->restRadius[v],
                             icQuat_RotateInv(icQuat_Load(m->restQ, ge),
                                              icVec3_Sub(p, icVec3_Load(m->restPos, v))));
            icVec3_Store(s.local, 4 * i + b, local);
        }
    }
    icFree(W);
    icFree(T);
    icFree(cand);
    if (e != IC_OK) {
        icFree(s.triangles);
        icFree(s.boneSeg);
        icFree(s.boneEnd);
        icFree(s.weight);
        icFree(s.local);
        icFree(s.positions);
        return icDiag_Set(diag, e, f, 0, "out of memory");
    }
    for (int k = 0; k < nk; ++k)
        for (int t = 0; t < 3 * mesh->triangleCount; ++t)
            s.triangles[(size_t)k * 3 * mesh->triangleCount + t] = mesh->triangles[t] + k * nv;
    // Rest pose of every instance (its own rest bones).
    m->skins[m->skinCount] = s;
    updateSkin(m, &m->skins[m->skinCount], m->restPos, m->restRadius, m->restQ, NULL);
    if (skinIndex) *skinIndex = m->skinCount;
    ++m->skinCount;
    return IC_OK;
}
