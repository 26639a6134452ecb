// SPDX-License-Identifier: MIT
// Counts inverted tets (det F <= 0) after a step, on the sweep's workers: a pass over all
// tets that costs about one serial sweep's memory traffic when done on one thread.
#include "core/pool.h"
#include "world/world_internal.h"

#include <stdatomic.h>

typedef struct icInvertedTask {
    const icModel *model;
    const icState *state;
    atomic_int count;
} icInvertedTask;

static void invertedTask(int start, int end, int worker, void *context) {
    (void)worker;
    icInvertedTask *T = context;
    int count = 0;
    // A tet's vertices are anywhere in a shuffled mesh: ask for those of a later tet while
    // this one computes (else each tet waits for memory on its own, ~25 ns at 1M tets).
    enum { IC_INVERTED_PREFETCH = 16 };
    for (int t = start; t < end; ++t) {
        if (t + IC_INVERTED_PREFETCH < end) {
            const int *ahead = T->model->tets + 4 * (size_t)(t + IC_INVERTED_PREFETCH);
            for (int k = 0; k < 4; ++k) __builtin_prefetch(T->state->x + 3 * (size_t)ahead[k], 0, 3);
        }
        if (icMat3_Det(icModel_TetF(T->model, T->state->x, t)) <= 0) ++count;
    }
    atomic_fetch_add(&T->count, count);
}

int icXpbd_CountInverted(const icModel *model, const icState *state) {
    icInvertedTask T = {model, state, 0};
    atomic_init(&T.count, 0);
    icPool_ParallelFor(model->pool, invertedTask, model->tetCount, 4096, &T);
    return atomic_load(&T.count);
}
