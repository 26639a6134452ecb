// SPDX-License-Identifier: MIT
// Parallel-for over index ranges: a small built-in thread pool, or the user's task system
// through the world def's enqueue/finish callbacks (STYLE.md, "Threads and SIMD").
#pragma once

#include "isochor/world.h"

typedef struct icPool icPool;

/// A pool of workerCount - 1 threads plus the calling thread. With enqueue and finish both
/// set, no thread is started and every parallel-for goes to them instead. NULL when out of
/// memory or a thread cannot be started.
icPool *icCreatePool(int workerCount, icEnqueueTaskCallback *enqueue, icFinishTaskCallback *finish,
                     void *userContext);
/// The worker count a def's workerCount stands for: itself when >= 1; for 0 (automatic) one
/// worker while work (tets, segments: what the solver splits) is below breakEven, where a
/// second worker was measured to gain nothing, and icAvailableCores() from there on.
int icPool_ResolveWorkers(int workerCount, int64_t work, int64_t breakEven);
void icDestroyPool(icPool *pool);
/// Workers that may run at once (worker indices are below it).
int icPool_WorkerCount(const icPool *pool);
/// Calls task(start, end, worker, context) on disjoint ranges covering [0, itemCount) and
/// returns when all have run. Ranges hold at least minRange items (but the last); with one
/// worker, or too few items to split, the caller runs everything itself as worker 0. The
/// built-in pool cuts one range per worker and the caller and the workers claim them in
/// order: with all of them ready a worker sees the same part of every job (its vertices stay
/// in its cache), and a late worker (asleep or descheduled) is only waited for once it has
/// claimed a range. A call from a second thread while one runs is done by that caller.
void icPool_ParallelFor(icPool *pool, icTaskCallback *task, int itemCount, int minRange,
                        void *context);
/// The same with one range per item, claimed by whoever is free: for few, uneven items.
void icPool_ParallelForEach(icPool *pool, icTaskCallback *task, int itemCount, void *context);
