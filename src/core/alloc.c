// SPDX-License-Identifier: MIT
// Allocation through user hooks, with a byte count for statistics and leak checks.
#include "core/core.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static icAllocFn *s_allocFn;
static icFreeFn *s_freeFn;
static void *s_context;
static _Atomic int64_t s_byteCount;
static icAssertFn *s_assertFn;

// Each block is prefixed by a 64-byte header holding its size, so frees can be counted
// and user hooks need not report sizes.
#define IC_HEADER 64

void icSetAllocator(icAllocFn *allocFn, icFreeFn *freeFn, void *context) {
    s_allocFn = allocFn;
    s_freeFn = freeFn;
    s_context = context;
}

int64_t icGetByteCount(void) { return atomic_load(&s_byteCount); }

void *icAlloc(size_t size) {
    if (size == 0) return NULL;
    if (size > SIZE_MAX - 2 * IC_HEADER) return NULL;
    size_t total = (size + IC_HEADER + 63) & ~(size_t)63;
    char *block = s_allocFn ? s_allocFn(total, 64, s_context) : aligned_alloc(64, total);
    if (!block) return NULL;
    *(size_t *)block = size;
    atomic_fetch_add(&s_byteCount, (int64_t)size);
    return block + IC_HEADER;
}

void *icAllocZero(size_t size) {
    void *p = icAlloc(size);
    if (p) memset(p, 0, size);
    return p;
}

void icFree(void *memory) {
    if (!memory) return;
    char *block = (char *)memory - IC_HEADER;
    atomic_fetch_sub(&s_byteCount, (int64_t)*(size_t *)block);
    if (s_freeFn)
        s_freeFn(block, s_context);
    else
        free(block);
}

void *icMemDup(const void *src, size_t n) {
    if (!src || n == 0) return NULL;
    void *p = icAlloc(n);
    if (p) memcpy(p, src, n);
    return p;
}

bool icGrowArray(void **array, int *capacity, int needed, size_t elementSize) {
    if (needed <= *capacity) return true;
    int cap = *capacity > 0 ? *capacity : 16;
    while (cap < needed) cap = cap > (1 << 29) ? needed : 2 * cap;
    void *grown = icAlloc((size_t)cap * elementSize);
    if (!grown) return false;
    if (*array && *capacity > 0) memcpy(grown, *array, (size_t)(*capacity) * elementSize);
    icFree(*array);
    *array = grown;
    *capacity = cap;
    return true;
}

void icSetAssertFn(icAssertFn *fn) { s_assertFn = fn; }

bool icAssertFailed(const char *condition, const char *file, int line) {
    if (s_assertFn) return s_assertFn(condition, file, line);
    fprintf(stderr, "isochor assertion failed: %s (%s:%d)\n", condition, file, line);
    return true;
}
