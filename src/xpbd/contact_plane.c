// SPDX-License-Identifier: MIT
// Half-space colliders on the workers: each vertex meets the planes in order
// (xpbd/vertex_ops.h), so the result does not depend on the worker count.
#include "core/pool.h"
#include "xpbd/vertex_ops.h"

#include <stdatomic.h>

typedef struct icPlaneTask {
    const icModel *model;
    icState *state;
    atomic_int contacts;
} icPlaneTask;

static void planeTask(int start, int end, int worker, void *context) {
    (void)worker;
    icPlaneTask *T = context;
    int contacts = 0;
    for (int v = start; v < end; ++v) contacts += icXpbd_PlanesVertex(T->model, T->state, v);
    if (contacts) atomic_fetch_add(&T->contacts, contacts);
}

int icXpbd_ProjectPlanes(const icModel *model, icState *state) {
    if (model->planeCount == 0) return 0;
    icPlaneTask T = {.model = model, .state = state};
    atomic_init(&T.contacts, 0);
    icPool_ParallelFor(model->pool, planeTask, model->vertexCount, 2048, &T);
    return atomic_load(&T.contacts);
}
