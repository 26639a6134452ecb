// SPDX-License-Identifier: MIT
// States (positions, velocities, multipliers) and the per-tet fields read from them.
#include "world/solver.h"

#include "core/pool.h"

#include <math.h>

icState *icState_CreateForModel(const icModel *model) {
    icState *s = IC_ALLOC_ZERO(icState, 1);
    if (!s) return NULL;
    s->revision = model->revision;
    s->vertexCount = model->vertexCount;
    s->tetCount = model->tetCount;
    size_t nv = 3 * (size_t)model->vertexCount, nt = (size_t)model->tetCount;
    if (nv) {
        s->x = IC_ALLOC_ZERO(icReal, nv);
        s->v = IC_ALLOC_ZERO(icReal, nv);
        s->xPrev = IC_ALLOC_ZERO(icReal, nv);
    }
    if (nt) {
        s->lambdaD = IC_ALLOC_ZERO(icReal, nt);
        s->lambdaH = IC_ALLOC_ZERO(icReal, nt);
    }
    if ((nv && (!s->x || !s->v || !s->xPrev)) || (nt && (!s->lambdaD || !s->lambdaH))) {
        icDestroyState(s);
        return NULL;
    }
    return s;
}

void icDestroyState(icState *state) {
    if (!state) return;
    icFree(state->x);
    icFree(state->v);
    icFree(state->xPrev);
    icFree(state->lambdaD);
    icFree(state->lambdaH);
    icFree(state);
}

void icState_CopyInto(icState *dst, const icState *src) {
    IC_ASSERT(dst->vertexCount == src->vertexCount && dst->tetCount == src->tetCount);
    size_t nv = 3 * (size_t)src->vertexCount, nt = (size_t)src->tetCount;
    if (nv) {
        memcpy(dst->x, src->x, nv * sizeof(icReal));
        memcpy(dst->v, src->v, nv * sizeof(icReal));
        memcpy(dst->xPrev, src->xPrev, nv * sizeof(icReal));
    }
    if (nt) {
        memcpy(dst->lambdaD, src->lambdaD, nt * sizeof(icReal));
        memcpy(dst->lambdaH, src->lambdaH, nt * sizeof(icReal));
    }
    dst->time = src->time;
    dst->lastSubstep = src->lastSubstep;
    dst->substepCount = src->substepCount;
    dst->revision = src->revision;
}

icState *icWorld_CreateState(const icWorld *world) {
    icState *s = icState_CreateForModel(&world->model);
    if (s) icState_CopyInto(s, world->state);
    return s;
}

void icWorld_SaveState(const icWorld *world, icState *state) {
    IC_ASSERT(state->revision == world->model.revision);
    icState_CopyInto(state, world->state);
}

void icWorld_LoadState(icWorld *world, const icState *state) {
    IC_ASSERT(state->revision == world->model.revision);
    icState_CopyInto(world->state, state);
}

typedef struct icStressTask {
    const icModel *model;
    const icReal *x;
    icReal *pressure, *stressNorm;
    const icMaterial *materials; ///< per body
    const bool *hasMaterial;     ///< per body
} icStressTask;

// The pressure p = -tr(sigma) / 3 with sigma = P F^T / J, and the norm of P less its pressure
// part -p cof(F) (cof F = J F^-T), the counterpart of the XPBD solver's |P_D|. NaN where the
// material's stress is not finite (an inverted tet of a Neo-Hookean body) or the body has no
// material.
static void stressTask(int start, int end, int worker, void *context) {
    (void)worker;
    const icStressTask *T = context;
    const icModel *m = T->model;
    for (int t = start; t < end; ++t) {
        icReal pressure = NAN, norm = NAN;
        int b = m->tetBody[t];
        if (T->hasMaterial[b]) {
            icMat3 F = icModel_TetF(m, T->x, t);
            icMat3 P = icMaterial_Stress(&T->materials[b], F);
            icReal p = -icMat3_DDot(P, F) / (3 * icMat3_Det(F));
            icReal n = sqrt(icMat3_NormSquared(icMat3_Add(P, icMat3_Scale(p, icMat3_Cofactor(F)))));
            pressure = isfinite(p) ? p : NAN;
            norm = isfinite(n) ? n : NAN;
        }
        if (T->pressure) T->pressure[t] = pressure;
        if (T->stressNorm) T->stressNorm[t] = norm;
    }
}

void icModel_MaterialStress(const icModel *model, const icReal *x, icBodyMaterialFn *materialOf,
                            const void *context, icReal *pressure, icReal *stressNorm) {
    if (!pressure && !stressNorm) return;
    icMaterial *materials = IC_ALLOC(icMaterial, (size_t)model->bodyCount + 1);
    bool *hasMaterial = IC_ALLOC(bool, (size_t)model->bodyCount + 1);
    if (materials && hasMaterial) {
        for (int b = 0; b < model->bodyCount; ++b)
            hasMaterial[b] = materialOf(model, b, context, &materials[b]);
        icStressTask T = {model, x, pressure, stressNorm, materials, hasMaterial};
        icPool_ParallelFor(model->pool, stressTask, model->tetCount, 8192, &T);
    } else {
        for (int t = 0; t < model->tetCount; ++t) { // no figure rather than a wrong one
            if (pressure) pressure[t] = NAN;
            if (stressNorm) stressNorm[t] = NAN;
        }
    }
    icFree(materials);
    icFree(hasMaterial);
}

typedef struct icFieldTask {
    const icModel *model;
    const icState *state;
    icReal *J, *pressure, *stressNorm;
} icFieldTask;

// Stress from multipliers (Macklin & Müller 2021, supplement, sec. 3): p = lambda_H / (h^2 V)
// is the pressure, |P_D| = |lambda_D| / (h^2 V) since dC_D/dF = F / r_S has unit norm.
static void fieldTask(int start, int end, int worker, void *context) {
    (void)worker;
    const icFieldTask *T = context;
    const icModel *m = T->model;
    const icState *s = T->state;
    icReal h2 = s->lastSubstep * s->lastSubstep;
    for (int t = start; t < end; ++t) {
        if (T->J) T->J[t] = icMat3_Det(icModel_TetF(m, s->x, t));
        icReal scale = h2 > 0 ? 1.0 / (h2 * m->restVolume[t]) : 0.0;
        if (T->pressure) T->pressure[t] = s->lambdaH[t] * scale;
        if (T->stressNorm) T->stressNorm[t] = fabs(s->lambdaD[t]) * scale;
    }
}

// Tet by tet, so the world's workers share it (a frame writer calls this every frame). A
// solver that keeps no XPBD multipliers writes its own stresses over theirs.
void icWorld_GetTetFields(const icWorld *world, icReal *J, icReal *pressure, icReal *stressNorm) {
    const icSolverOps *solver = icWorld_Solver(world);
    bool own = solver->tetStress != NULL;
    icFieldTask T = {&world->model, world->state, J, own ? NULL : pressure, own ? NULL : stressNorm};
    if (J || !own) icPool_ParallelFor(world->model.pool, fieldTask, world->model.tetCount, 8192, &T);
    if (own) solver->tetStress(world, pressure, stressNorm);
}

icReal icBody_GetVolumeRatio(const icWorld *world, icBodyId id) {
    IC_ASSERT(icBody_IsValid(world, id));
    const icModel *m = &world->model;
    const icBodyRecord *b = &m->bodies[id.index1 - 1];
    icReal volume = 0, rest = 0;
    for (int t = b->tetStart; t < b->tetStart + b->tetCount; ++t) {
        volume += icMat3_Det(icModel_TetF(m, world->state->x, t)) * m->restVolume[t];
        rest += m->restVolume[t];
    }
    return rest > 0 ? volume / rest : 1.0;
}

icReal icWorld_GetVolumeRatio(const icWorld *world) {
    const icModel *m = &world->model;
    const icReal *x = world->state->x;
    icReal volume = 0;
    for (int t = 0; t < m->tetCount; ++t)
        volume += icMat3_Det(icModel_TetF(m, x, t)) * m->restVolume[t];
    return m->totalRestVolume > 0 ? volume / m->totalRestVolume : 1.0;
}
