// SPDX-License-Identifier: MIT
// Internal core services: allocation through the user's hooks, assertions, a scratch arena.
#pragma once

#include "isochor/base.h"

#include <string.h>

/// Typed helpers: IC_ALLOC(double, n) allocates n doubles.
#define IC_ALLOC(type, count) ((type *)icAlloc(sizeof(type) * (size_t)(count)))
#define IC_ALLOC_ZERO(type, count) ((type *)icAllocZero(sizeof(type) * (size_t)(count)))
/// Duplicates n bytes (NULL when src is NULL or n is 0).
void *icMemDup(const void *src, size_t n);
/// Sorts values[0..count) ascending.
void icSortInts(int *values, int count);
/// Milliseconds on the monotonic clock (differences only: stage times, statistics).
double icNowMs(void);

bool icAssertFailed(const char *condition, const char *file, int line);

#if defined(NDEBUG) && !defined(IC_ENABLE_ASSERT)
#define IC_ASSERT(c) ((void)0)
#else
#define IC_ASSERT(c)                                                                            \
    do {                                                                                        \
        if (!(c) && icAssertFailed(#c, __FILE__, __LINE__)) __builtin_trap();                   \
    } while (0)
#endif

/// Per-step scratch: a bump allocator that only grows between steps, so a warmed-up step
/// does no heap allocation. Push may overflow into a heap block; the next Reset grows the
/// arena to the peak so that overflow does not repeat.
typedef struct icArena {
    char *base;
    size_t capacity, used, peak;
    void **overflow; ///< heap blocks handed out past capacity, freed on Reset
    int overflowCount, overflowCapacity;
} icArena;

void icArena_Init(icArena *arena, size_t capacity);
void icArena_Destroy(icArena *arena);
/// size bytes, 64-byte aligned, uninitialised; NULL only when out of memory.
void *icArena_Push(icArena *arena, size_t size);
/// Releases everything pushed; grows the arena to the peak seen.
void icArena_Reset(icArena *arena);
