// SPDX-License-Identifier: MIT
// The tets' census after a step: how many are inverted, the worst |J - 1| and the bodies'
// current volume, on the model's workers (the XPBD step's statistics and the health checks
// read it every step; done serially with F per tet it cost about two of a 100k-tet step's ten
// sweeps).
#include "core/pool.h"
#include "world/world_internal.h"

#include <math.h>

// Tets per block: fixed by the tet count alone, so the blocks' partial sums, added in block
// order, give the same bits for any worker count.
enum { IC_CENSUS_MAX_BLOCKS = 256, IC_CENSUS_MIN_BLOCK = 4096 };

typedef struct icCensusTask {
    const icModel *model;
    const icReal *x;
    int blockSize;
    int inverted[IC_CENSUS_MAX_BLOCKS];
    icReal volume[IC_CENSUS_MAX_BLOCKS];
    icReal worstJ[IC_CENSUS_MAX_BLOCKS];
} icCensusTask;

static void censusTask(int start, int end, int worker, void *context) {
    (void)worker;
    icCensusTask *T = context;
    const int *tets = T->model->tets;
    const icReal *restVolume = T->model->restVolume;
    const icReal *x = T->x;
    // A tet's vertices are anywhere in a shuffled mesh: ask for those of a later tet while
    // this one computes (else each tet waits for memory on its own, ~25 ns at 1M tets).
    enum { IC_CENSUS_PREFETCH = 16 };
    for (int b = start; b < end; ++b) {
        int t0 = b * T->blockSize, t1 = t0 + T->blockSize;
        t1 = t1 < T->model->tetCount ? t1 : T->model->tetCount;
        int inverted = 0;
        icReal volume = 0, worstJ = 0;
        for (int t = t0; t < t1; ++t) {
            if (t + IC_CENSUS_PREFETCH < t1) {
                const int *ahead = tets + 4 * (size_t)(t + IC_CENSUS_PREFETCH);
                for (int k = 0; k < 4; ++k) __builtin_prefetch(x + 3 * (size_t)ahead[k], 0, 3);
            }
            // det F = det Ds det Dm^-1, and every rest tet is positive (the mesh check refuses
            // the others): det Ds decides, at a third of F's arithmetic, and det Ds / 6 is the
            // tet's volume (J V0 in exact arithmetic).
            const int *tv = tets + 4 * (size_t)t;
            icVec3 x3 = icVec3_Load(x, tv[3]);
            icVec3 e0 = icVec3_Sub(icVec3_Load(x, tv[0]), x3);
            icVec3 e1 = icVec3_Sub(icVec3_Load(x, tv[1]), x3);
            icVec3 e2 = icVec3_Sub(icVec3_Load(x, tv[2]), x3);
            icReal det = icVec3_Dot(e0, icVec3_Cross(e1, e2));
            inverted += det <= 0;
            volume += det;
            // |J - 1| = |det Ds - 6 V0| / (6 V0); a NaN det makes it NaN, and NaN stays.
            icReal rest6 = 6 * restVolume[t], offset = fabs(det - rest6);
            if (!(offset <= worstJ * rest6)) worstJ = offset / rest6;
        }
        T->inverted[b] = inverted;
        T->volume[b] = volume / 6;
        T->worstJ[b] = worstJ;
    }
}

icTetCensus icModel_TetCensus(const icModel *model, const icReal *x) {
    icTetCensus c = {0, 0, 0};
    int n = model->tetCount;
    if (n <= 0) return c;
    icCensusTask T;
    T.model = model;
    T.x = x;
    T.blockSize = (n + IC_CENSUS_MAX_BLOCKS - 1) / IC_CENSUS_MAX_BLOCKS;
    T.blockSize = T.blockSize > IC_CENSUS_MIN_BLOCK ? T.blockSize : IC_CENSUS_MIN_BLOCK;
    int blocks = (n + T.blockSize - 1) / T.blockSize;
    icPool_ParallelFor(model->pool, censusTask, blocks, 1, &T);
    for (int b = 0; b < blocks; ++b) {
        c.inverted += T.inverted[b];
        c.volume += T.volume[b];
        if (!(T.worstJ[b] <= c.worstJMinus1)) c.worstJMinus1 = T.worstJ[b];
    }
    return c;
}
