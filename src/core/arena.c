// SPDX-License-Identifier: MIT
// Per-step scratch arena (STYLE.md "Memory").
#include "core/core.h"

void icArena_Init(icArena *arena, size_t capacity) {
    memset(arena, 0, sizeof *arena);
    if (capacity) {
        arena->base = icAlloc(capacity);
        arena->capacity = arena->base ? capacity : 0;
    }
}

static void freeOverflow(icArena *arena) {
    for (int i = 0; i < arena->overflowCount; ++i) icFree(arena->overflow[i]);
    arena->overflowCount = 0;
}

void icArena_Destroy(icArena *arena) {
    freeOverflow(arena);
    icFree(arena->overflow);
    icFree(arena->base);
    memset(arena, 0, sizeof *arena);
}

void *icArena_Push(icArena *arena, size_t size) {
    size_t aligned = (size + 63) & ~(size_t)63;
    if (arena->used + aligned <= arena->capacity) {
        void *p = arena->base + arena->used;
        arena->used += aligned;
        if (arena->used > arena->peak) arena->peak = arena->used;
        return p;
    }
    // Overflow: serve from the heap now, remember the need, grow at the next reset.
    arena->used += aligned;
    if (arena->used > arena->peak) arena->peak = arena->used;
    if (!icGrowArray((void **)&arena->overflow, &arena->overflowCapacity,
                     arena->overflowCount + 1, sizeof(void *)))
        return NULL;
    void *p = icAlloc(aligned);
    if (p) arena->overflow[arena->overflowCount++] = p;
    return p;
}

void icArena_Reset(icArena *arena) {
    freeOverflow(arena);
    if (arena->peak > arena->capacity) {
        icFree(arena->base);
        size_t capacity = arena->peak + arena->peak / 4;
        arena->base = icAlloc(capacity);
        arena->capacity = arena->base ? capacity : 0;
    }
    arena->used = 0;
}
