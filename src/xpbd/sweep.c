// SPDX-License-Identifier: MIT
// The packed XPBD sweep: copy the state into the layout's working order, run the colours
// in parallel (blocks of one colour share no vertex, Macklin & Müller 2021, sec. 5.3) and the
// overflow colour serially, copy back. Any worker count and any SIMD width give the same bits.
#include "core/pool.h"
#include "xpbd/layout.h"
#include "xpbd/vertex_ops.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>

enum { IC_SWEEP_MIN_VERTICES = 2048 }; // per range of the copy loops

// Blocks per range of a colour (~3 us of work): below it the hand-over (and the vertices
// two cores then share) costs more than it saves. Tests lower it to exercise the threads.
static int s_minBlocks = 24;

void icXpbd_SetParallelGrain(int blocks) { s_minBlocks = blocks < 1 ? 1 : blocks; }

typedef struct icSweepTask {
    const icModel *model;
    icState *state;
    icXpbdLayout *layout;
    icXpbdKernelFn *kernel, *serial;
    icXpbdCellKernelFn *cellKernel;
    icXpbdKernelArgs args;
    icXpbdCells cells;
    int colour, phase; ///< being swept
    atomic_int skipped;
    atomic_bool axesSeen; ///< a vertex has per-axis inverse masses
} icSweepTask;

// A sweep's shared context, counters at zero.
static void sweepTaskInit(icSweepTask *T, const icModel *model, icState *state,
                          icXpbdLayout *layout) {
    memset(T, 0, sizeof *T);
    T->model = model;
    T->state = state;
    T->layout = layout;
    atomic_init(&T->skipped, 0);
    atomic_init(&T->axesSeen, false);
}

static double nowSeconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// State -> working copy for model vertices [start, end), relative to L->origin.
static void copyInTask(int start, int end, int worker, void *context) {
    (void)worker;
    icSweepTask *T = context;
    const icModel *m = T->model;
    const icXpbdLayout *L = T->layout;
    bool axesSeen = false;
    int body = icXpbd_BodyOfVertex(m, start);
    for (int v = start; v < end; ++v) {
        while (v >= m->bodies[body].vertexStart + m->bodies[body].vertexCount) ++body;
        axesSeen |= !icXpbd_CopyInVertex(L, m, T->state, v, L->origin + 3 * body,
                                         4 * (size_t)L->packedOfVertex[v]);
    }
    if (axesSeen) atomic_store(&T->axesSeen, true);
}

// Working copy -> state for model vertices [start, end).
static void copyOutTask(int start, int end, int worker, void *context) {
    (void)worker;
    icSweepTask *T = context;
    const icModel *m = T->model;
    const icXpbdLayout *L = T->layout;
    int body = icXpbd_BodyOfVertex(m, start);
    for (int v = start; v < end; ++v) {
        while (v >= m->bodies[body].vertexStart + m->bodies[body].vertexCount) ++body;
        icXpbd_CopyOutVertex(L, T->state->x + 3 * (size_t)v, L->origin + 3 * body,
                             4 * (size_t)L->packedOfVertex[v]);
    }
}

// Units [u0, u1) of colour k: runs of units with a shared cell pattern go to the cell
// kernel, the rest (and all greedy units) to the block kernel.
static int runUnits(icSweepTask *T, int k, int u0, int u1) {
    const icXpbdLayout *L = T->layout;
    int skipped = 0;
    for (int u = u0; u < u1;) {
        bool fast = L->unitFast && L->unitFast[u];
        int v = u + 1;
        if (L->unitFast)
            while (v < u1 && (L->unitFast[v] != 0) == fast) ++v;
        else
            v = u1;
        if (fast)
            skipped += T->cellKernel(&T->args, &T->cells, u, v);
        else
            skipped += T->kernel(&T->args, L->unitBlocks[u],
                                 v == L->colourUnits[k + 1] ? L->colourEnd[k] : L->unitBlocks[v]);
        u = v;
    }
    return skipped;
}

// Units of one colour of the single chunk, shared out between workers.
static void colourTask(int start, int end, int worker, void *context) {
    (void)worker;
    icSweepTask *T = context;
    int first = T->layout->colourUnits[T->colour];
    int skipped = runUnits(T, T->colour, first + start, first + end);
    if (skipped) atomic_fetch_add(&T->skipped, skipped);
}

// A whole chunk on one worker: its colours in order, then its overflow lane by lane.
static int runChunk(icSweepTask *T, int c) {
    const icXpbdLayout *L = T->layout;
    int skipped = 0;
    for (int k = L->chunkColours[c]; k < L->chunkColours[c + 1]; ++k)
        skipped += runUnits(T, k, L->colourUnits[k], L->colourUnits[k + 1]);
    return skipped + T->serial(&T->args, L->chunkOverflow[c], L->chunkBlocks[c + 1]);
}

static void chunkTask(int start, int end, int worker, void *context) {
    (void)worker;
    icSweepTask *T = context;
    int skipped = 0;
    for (int i = start; i < end; ++i) skipped += runChunk(T, T->layout->phaseChunks[T->phase] + i);
    if (skipped) atomic_fetch_add(&T->skipped, skipped);
}

// The state's multipliers (user tet order) into the layout's lanes.
static void gatherMultipliers(icXpbdLayout *L, const icState *s) {
    const int lanes = L->lanes;
    for (int b = 0; b < L->blockCount; ++b)
        for (int l = 0; l < lanes; ++l) {
            int t = L->tetOfLane[(size_t)b * lanes + l];
            size_t at = (size_t)b * 2 * lanes + l;
            icReal d = t >= 0 ? s->lambdaD[t] : 0, h = t >= 0 ? s->lambdaH[t] : 0;
            if (L->precision == IC_PRECISION_FLOAT) {
                ((float *)L->lambda)[at] = (float)d;
                ((float *)L->lambda)[at + lanes] = (float)h;
            } else {
                ((double *)L->lambda)[at] = d;
                ((double *)L->lambda)[at + lanes] = h;
            }
        }
}

static void zeroStateMultipliers(const icModel *model, icState *state) {
    if (model->tetCount == 0) return;
    memset(state->lambdaD, 0, sizeof(icReal) * (size_t)model->tetCount);
    memset(state->lambdaH, 0, sizeof(icReal) * (size_t)model->tetCount);
}

// With the packed sweep the state's arrays are not touched here (16 bytes per tet per
// substep): the sweep knows its multipliers start at zero, and icXpbd_SyncMultipliers writes
// the state's at the end of the step.
void icXpbd_ClearMultipliers(const icModel *model, icState *state) {
    icXpbdLayout *L = model->layout;
    if (!icXpbd_PackedUsable(model)) {
        zeroStateMultipliers(model, state);
        if (L) L->lambdaWhere = IC_XPBD_LAMBDA_STATE;
        return;
    }
    L->lambdaWhere = IC_XPBD_LAMBDA_ZERO;
    L->lambdaOwner = state;
    L->stateStale = true;
}

// The layout's multipliers of blocks [start, end) into the state (user tet order).
static void scatterMultipliersTask(int start, int end, int worker, void *context) {
    (void)worker;
    icSweepTask *T = context;
    const icXpbdLayout *L = T->layout;
    icState *state = T->state;
    const int lanes = L->lanes;
    for (int b = start; b < end; ++b)
        for (int l = 0; l < lanes; ++l) {
            int t = L->tetOfLane[(size_t)b * lanes + l];
            if (t < 0) continue;
            size_t at = (size_t)b * 2 * lanes + l;
            if (L->precision == IC_PRECISION_FLOAT) {
                state->lambdaD[t] = ((const float *)L->lambda)[at];
                state->lambdaH[t] = ((const float *)L->lambda)[at + lanes];
            } else {
                state->lambdaD[t] = ((const double *)L->lambda)[at];
                state->lambdaH[t] = ((const double *)L->lambda)[at + lanes];
            }
        }
}

void icXpbd_BeginStep(const icModel *model, int sweeps) {
    if (model->layout) model->layout->sweepsLeft = sweeps;
}

void icXpbd_SyncMultipliers(const icModel *model, icState *state) {
    icXpbdLayout *L = model->layout;
    if (!L || L->lambdaOwner != state) return;
    if (L->lambdaWhere != IC_XPBD_LAMBDA_PACKED) {
        // Cleared and never swept since (or swept without keeping them): zero, as cleared.
        if (L->stateStale) zeroStateMultipliers(model, state);
        L->stateStale = false;
        L->lambdaWhere = IC_XPBD_LAMBDA_STATE;
        return;
    }
    icSweepTask T;
    sweepTaskInit(&T, model, state, L);
    // Blocks hold distinct tets: any split between workers writes the same numbers.
    icPool_ParallelFor(model->pool, scatterMultipliersTask, L->blockCount,
                       IC_SWEEP_MIN_VERTICES / 16, &T);
    L->lambdaWhere = IC_XPBD_LAMBDA_STATE;
    L->stateStale = false;
}

bool icXpbd_PackedUsable(const icModel *model) {
    const icXpbdLayout *L = model->layout;
    return L && icXpbdLayout_Matches(L, model);
}

void icXpbd_SetOrigins(const icModel *model, const icReal *xStart, icReal *origin) {
    const icXpbdLayout *L = model->layout;
    for (int b = 0; b < model->bodyCount; ++b)
        for (int a = 0; a < 3; ++a)
            origin[3 * b + a] =
                L->precision == IC_PRECISION_FLOAT ? xStart[3 * (size_t)L->originVertex[b] + a] : 0;
}

// The colour passes and the overflow on the working copy as it stands.
int icXpbd_SweepPacked(const icModel *model, icState *state, icReal h) {
    icXpbdLayout *L = model->layout;
    icSweepTask T;
    sweepTaskInit(&T, model, state, L);
    icXpbdProfile *profile = &L->profile;
    bool known = L->lambdaOwner == state && L->lambdaWhere != IC_XPBD_LAMBDA_STATE;
    if (!known) {
        if (L->lambdaOwner == state && L->stateStale) zeroStateMultipliers(model, state);
        gatherMultipliers(L, state);
        L->stateStale = false;
    }
    T.args = icXpbdLayout_KernelArgs(L);
    T.args.invH = 1.0 / h;
    T.args.invH2 = 1.0 / (h * h);
    T.args.coupled = model->def.projection == IC_PROJECTION_COUPLED;
    T.args.loadLambda = !(known && L->lambdaWhere == IC_XPBD_LAMBDA_ZERO);
    // With one sweep per substep the multipliers only matter after the step's last sweep.
    T.args.storeLambda = T.args.loadLambda || model->def.iterations > 1 || L->sweepsLeft <= 1;
    if (L->sweepsLeft > 0) L->sweepsLeft--;
    T.kernel = icXpbd_SelectKernel(model->def.simd, L->precision, NULL);
    T.cellKernel = icXpbd_SelectCellKernel(model->def.simd, L->precision);
    T.cells = icXpbdLayout_Cells(L);
    T.serial = icXpbd_SelectLaneKernel(L->precision);
    double t1 = profile->enabled ? nowSeconds() : 0;
    int skipped = 0;
    if (L->chunked) {
        for (int p = 0; p < L->phaseCount; ++p) {
            T.phase = p;
            int chunks = L->phaseChunks[p + 1] - L->phaseChunks[p];
            if (p == 64) // chunks that found no free phase may touch each other: one by one
                chunkTask(0, chunks, 0, &T);
            else // one contiguous share per worker, the same every sweep: its slabs stay in
                 // its core's cache (claimed one by one they moved between cores: 2-12 % slower)
                icPool_ParallelFor(model->pool, chunkTask, chunks, 1, &T);
        }
    } else if (L->chunkCount == 1) {
        for (int k = L->chunkColours[0]; k < L->chunkColours[1]; ++k) {
            T.colour = k;
            int units = L->colourUnits[k + 1] - L->colourUnits[k];
            int blocks = L->colourEnd[k] - L->unitBlocks[L->colourUnits[k]];
            int minUnits = blocks > 0 ? (s_minBlocks * units + blocks - 1) / blocks : 1;
            icPool_ParallelFor(model->pool, colourTask, units, minUnits, &T);
        }
    }
    double t2 = profile->enabled ? nowSeconds() : 0;
    // The overflow's tets may share vertices: one by one, in order.
    if (!L->chunked && L->chunkCount == 1)
        skipped += T.serial(&T.args, L->chunkOverflow[0], L->chunkBlocks[1]);
    skipped += atomic_load(&T.skipped);
    L->lambdaWhere = T.args.storeLambda ? IC_XPBD_LAMBDA_PACKED : IC_XPBD_LAMBDA_STATE;
    L->lambdaOwner = state;
    if (profile->enabled) {
        double t3 = nowSeconds();
        profile->sweeps++;
        profile->colours += t2 - t1;
        profile->overflow += t3 - t2;
    }
    return skipped - L->paddingLanes;
}

bool icXpbd_NeedAxes(icXpbdLayout *L) {
    if (L->wAxes) return true;
    // A vertex is held on some axes only: from now on the kernel reads per-axis masses.
    L->wAxes = icAllocZero(4 * L->real * (size_t)L->vertexCount);
    if (!L->wAxes) return false;
    L->bytes += 4 * L->real * (size_t)L->vertexCount;
    return true;
}

int icXpbd_Sweep(const icModel *model, icState *state, icReal h) {
    icXpbdLayout *L = model->layout;
    if (!icXpbd_PackedUsable(model)) return icXpbd_SweepReference(model, state, h);
    icSweepTask T;
    sweepTaskInit(&T, model, state, L);
    // Float positions are solved relative to a point of each body (its vertex nearest the
    // rest centre, where it was at the substep start), so every body keeps float's precision
    // relative to its size wherever it is.
    icXpbd_SetOrigins(model, state->xPrev, L->origin);
    icXpbdProfile *profile = &L->profile;
    double t0 = profile->enabled ? nowSeconds() : 0;
    icPool_ParallelFor(model->pool, copyInTask, model->vertexCount, IC_SWEEP_MIN_VERTICES, &T);
    if (atomic_load(&T.axesSeen) && !L->wAxes) {
        if (!icXpbd_NeedAxes(L)) return icXpbd_SweepReference(model, state, h);
        copyInTask(0, model->vertexCount, 0, &T);
    }
    double t1 = profile->enabled ? nowSeconds() : 0;
    int skipped = icXpbd_SweepPacked(model, state, h);
    double t2 = profile->enabled ? nowSeconds() : 0;
    icPool_ParallelFor(model->pool, copyOutTask, model->vertexCount, IC_SWEEP_MIN_VERTICES, &T);
    if (profile->enabled) {
        profile->copyIn += t1 - t0;
        profile->copyOut += nowSeconds() - t2;
    }
    return skipped;
}
