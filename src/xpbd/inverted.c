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
    for (int t = start; t < end; ++t)
        if (icMat3_Det(icModel_TetF(T->model, T->state->x, t)) <= 0) ++count;
    atomic_fetch_add(&T->count, count);
}

int icXpbd_CountInverted(const icModel *model, const icState *state) {
    icInvertedTask T = {model, state, 0};
    atomic_init(&T.count, 0);
    icPool_ParallelFor(model->pool, invertedTask, model->tetCount, 4096, &T);
    return atomic_load(&T.count);
}
