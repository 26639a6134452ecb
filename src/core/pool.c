// SPDX-License-Identifier: MIT
// The built-in thread pool: workers spin briefly on a job counter, then sleep on a condition
// variable. A parallel-for cuts the items into ranges; the caller and the workers claim
// ranges in order, so a worker that is late (asleep, or descheduled on a busy machine) never
// holds the caller up: the caller runs what nobody has claimed.
#define _GNU_SOURCE // sched_getaffinity, CPU_COUNT
#include "core/pool.h"

#include "core/core.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define IC_PAUSE() _mm_pause()
#else
#define IC_PAUSE() ((void)0)
#endif

// How long an idle worker polls before it sleeps, and the caller before it yields while a
// worker finishes a range. A sweep posts one job per colour a few microseconds apart, so
// workers must not sleep between them.
enum { IC_POOL_SPINS = 1 << 15, IC_POOL_CALLER_SPINS = 1 << 12 };

typedef struct icPoolThread {
    icPool *pool;
    int index;
    pthread_t thread;
} icPoolThread;

struct icPool {
    int workerCount;
    icEnqueueTaskCallback *enqueue;
    icFinishTaskCallback *finish;
    void *userContext;
    icPoolThread *threads; ///< (workerCount - 1)
    int threadCount;       ///< started
    // The current job. `claim` names the new generation, closed, before its fields are
    // written, and open after; a worker that copied fields of another generation finds out
    // when its claim fails.
    _Atomic(icTaskCallback *) task;
    _Atomic(void *) context;
    atomic_int itemCount, rangeCount;
    _Alignas(64) atomic_uint_fast64_t claim; ///< generation << 32 | next unclaimed range
    _Alignas(64) atomic_int done;            ///< ranges finished
    _Alignas(64) atomic_int generation;      ///< bumped per job: wakes the workers
    atomic_int sleepers;
    atomic_bool quit;
    atomic_bool busy; ///< a parallel-for is running: a second caller runs its loop alone
    pthread_mutex_t mutex;
    pthread_cond_t wake;
};

// Claims the next range of generation gen; false when none is left (or the job is gone).
static bool claimRange(icPool *pool, uint32_t gen, int ranges, int *range) {
    uint_fast64_t c = atomic_load(&pool->claim);
    for (;;) {
        if ((uint32_t)(c >> 32) != gen || (uint32_t)c >= (uint32_t)ranges) return false;
        if (atomic_compare_exchange_weak(&pool->claim, &c, c + 1)) {
            *range = (int)(uint32_t)c;
            return true;
        }
    }
}

static void runRange(icTaskCallback *task, void *context, int items, int ranges, int k, int worker) {
    int start = (int)((int64_t)items * k / ranges), end = (int)((int64_t)items * (k + 1) / ranges);
    if (end > start) task(start, end, worker, context);
}

static void *workerMain(void *arg) {
    icPoolThread *self = arg;
    icPool *pool = self->pool;
    int seen = 0;
    for (;;) {
        int gen = atomic_load(&pool->generation);
        for (int spin = 0; gen == seen && spin < IC_POOL_SPINS && !atomic_load(&pool->quit); ++spin) {
            IC_PAUSE();
            gen = atomic_load(&pool->generation);
        }
        if (gen == seen) {
            // Sleep: the caller bumps generation before it reads sleepers, and we count
            // ourselves before we read generation, so one of us sees the other.
            pthread_mutex_lock(&pool->mutex);
            atomic_fetch_add(&pool->sleepers, 1);
            while ((gen = atomic_load(&pool->generation)) == seen && !atomic_load(&pool->quit))
                pthread_cond_wait(&pool->wake, &pool->mutex);
            atomic_fetch_sub(&pool->sleepers, 1);
            pthread_mutex_unlock(&pool->mutex);
        }
        if (atomic_load(&pool->quit)) break;
        seen = gen;
        icTaskCallback *task = atomic_load(&pool->task);
        void *context = atomic_load(&pool->context);
        int items = atomic_load(&pool->itemCount), ranges = atomic_load(&pool->rangeCount);
        int k;
        while (claimRange(pool, (uint32_t)gen, ranges, &k)) {
            runRange(task, context, items, ranges, k, self->index);
            atomic_fetch_add(&pool->done, 1);
        }
    }
    return NULL;
}

icPool *icCreatePool(int workerCount, icEnqueueTaskCallback *enqueue, icFinishTaskCallback *finish,
                     void *userContext) {
    icPool *pool = IC_ALLOC_ZERO(icPool, 1);
    if (!pool) return NULL;
    pool->workerCount = workerCount < 1 ? 1 : workerCount;
    pool->userContext = userContext;
    atomic_init(&pool->task, NULL);
    atomic_init(&pool->context, NULL);
    atomic_init(&pool->itemCount, 0);
    atomic_init(&pool->rangeCount, 0);
    atomic_init(&pool->claim, 0);
    atomic_init(&pool->done, 0);
    atomic_init(&pool->generation, 0);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->quit, false);
    atomic_init(&pool->busy, false);
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    if (enqueue && finish) {
        pool->enqueue = enqueue;
        pool->finish = finish;
        return pool;
    }
    if (pool->workerCount > 1) {
        pool->threads = IC_ALLOC_ZERO(icPoolThread, pool->workerCount - 1);
        if (!pool->threads) {
            icDestroyPool(pool);
            return NULL;
        }
        for (int i = 0; i < pool->workerCount - 1; ++i) {
            icPoolThread *t = &pool->threads[i];
            t->pool = pool;
            t->index = i + 1;
            if (pthread_create(&t->thread, NULL, workerMain, t) != 0) {
                icDestroyPool(pool);
                return NULL;
            }
            pool->threadCount++;
        }
    }
    return pool;
}

void icDestroyPool(icPool *pool) {
    if (!pool) return;
    if (pool->threadCount > 0) {
        pthread_mutex_lock(&pool->mutex);
        atomic_store(&pool->quit, true);
        atomic_fetch_add(&pool->generation, 1);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mutex);
        for (int i = 0; i < pool->threadCount; ++i) pthread_join(pool->threads[i].thread, NULL);
    }
    icFree(pool->threads);
    pthread_mutex_destroy(&pool->mutex);
    pthread_cond_destroy(&pool->wake);
    icFree(pool);
}

int icPool_WorkerCount(const icPool *pool) { return pool ? pool->workerCount : 1; }

// The affinity mask counts what a container's cpuset or `taskset` leaves this process; the
// online count is the fallback where the mask cannot be read.
int icAvailableCores(void) {
    int cores = 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) cores = CPU_COUNT(&set);
    if (cores < 1) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        cores = online > 0 ? (int)(online < IC_MAX_WORKERS ? online : IC_MAX_WORKERS) : 1;
    }
    return cores < IC_MAX_WORKERS ? cores : IC_MAX_WORKERS;
}

int icPool_ResolveWorkers(int workerCount, int64_t work, int64_t breakEven) {
    if (workerCount >= 1) return workerCount;
    return work < breakEven ? 1 : icAvailableCores();
}

static void parallelFor(icPool *pool, icTaskCallback *task, int itemCount, int minRange, bool each,
                        void *context) {
    if (itemCount <= 0) return;
    if (minRange < 1) minRange = 1;
    int workers = pool ? pool->workerCount : 1;
    if (workers <= 1 || itemCount / minRange <= 1 || (!pool->enqueue && pool->threadCount == 0)) {
        task(0, itemCount, 0, context);
        return;
    }
    if (pool->enqueue) {
        void *handle = pool->enqueue(task, itemCount, minRange, context, pool->userContext);
        if (handle) pool->finish(handle, pool->userContext);
        return;
    }
    // One job at a time: a caller on another thread (say, reading fields while nothing
    // steps) runs its items itself rather than overwrite the job.
    bool idle = false;
    if (!atomic_compare_exchange_strong(&pool->busy, &idle, true)) {
        task(0, itemCount, 0, context);
        return;
    }
    // One range per worker: the caller claims range 0 as it posts the job and a ready worker
    // the next, so each works on the same part of every job (its vertices stay in its cache).
    // Or one range per item: whoever is free takes the next, so uneven items balance.
    int ranges = each ? itemCount : itemCount / minRange < workers ? itemCount / minRange : workers;
    uint32_t gen = (uint32_t)atomic_load(&pool->generation) + 1;
    // Close the claims before the fields change: a worker late from the last job may read
    // some of the new fields, and with the old generation still open in `claim` it could
    // claim a range of the old job cut by the new job's counts (items run twice or never).
    atomic_store(&pool->claim, (uint_fast64_t)gen << 32 | UINT32_MAX);
    atomic_store(&pool->task, task);
    atomic_store(&pool->context, context);
    atomic_store(&pool->itemCount, itemCount);
    atomic_store(&pool->rangeCount, ranges);
    atomic_store(&pool->done, 0);
    atomic_store(&pool->claim, (uint_fast64_t)gen << 32);
    atomic_store(&pool->generation, (int)gen);
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->mutex);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mutex);
    }
    int k, mine = 0;
    while (claimRange(pool, gen, ranges, &k)) {
        runRange(task, context, itemCount, ranges, k, 0);
        ++mine;
    }
    // Only ranges a worker has claimed are left; wait for them (and then the job may go).
    for (int spin = 0; atomic_load(&pool->done) + mine < ranges; ++spin) {
        if (spin < IC_POOL_CALLER_SPINS)
            IC_PAUSE();
        else
            sched_yield();
    }
    atomic_store(&pool->busy, false);
}

void icPool_ParallelFor(icPool *pool, icTaskCallback *task, int itemCount, int minRange,
                        void *context) {
    parallelFor(pool, task, itemCount, minRange, false, context);
}

void icPool_ParallelForEach(icPool *pool, icTaskCallback *task, int itemCount, void *context) {
    parallelFor(pool, task, itemCount, 1, true, context);
}
