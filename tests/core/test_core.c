// SPDX-License-Identifier: MIT
// Core services: the result table, diagnostics, allocation hooks and the scratch arena.
#include "test.h"

#include "core/core.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

IC_TEST(core, result_table_is_complete) {
    // Every code has a distinct name and a message; unknown values are named as such.
    for (int i = 0; i < IC_RESULT_COUNT_; ++i) {
        IC_CHECK(strncmp(icResult_Name((icResult)i), "IC_", 3) == 0);
        IC_CHECK(strlen(icResult_Message((icResult)i)) > 1);
        for (int j = 0; j < i; ++j)
            IC_CHECK(strcmp(icResult_Name((icResult)i), icResult_Name((icResult)j)) != 0);
    }
    IC_CHECK(strcmp(icResult_Name(IC_ERR_PARSE), "IC_ERR_PARSE") == 0);
    IC_CHECK(strcmp(icResult_Name((icResult)999), "IC_ERR_UNKNOWN") == 0);
}

IC_TEST(core, diagnostics_format) {
    icDiagnostic diag;
    IC_CHECK_RESULT(icDiag_Set(&diag, IC_ERR_TRUNCATED, "m.ele", 7, "expected %d tets", 9),
                    IC_ERR_TRUNCATED);
    IC_CHECK_INT(diag.element, -1);
    char text[256];
    icDiag_Format(&diag, text, sizeof text);
    IC_CHECK(strcmp(text, "m.ele:7: expected 9 tets [IC_ERR_TRUNCATED]") == 0);
    icDiag_Set(&diag, IC_ERR_IO, "x.json", 0, NULL);
    icDiag_Format(&diag, text, sizeof text);
    IC_CHECK(strcmp(text, "x.json: cannot open, read or write a file [IC_ERR_IO]") == 0);
    IC_CHECK_RESULT(icDiag_Set(NULL, IC_ERR_IO, "", 0, "ignored"), IC_ERR_IO);
}

static int64_t s_hookBytes;
static void *countingAlloc(size_t size, size_t alignment, void *context) {
    (void)context;
    s_hookBytes += (int64_t)size;
    return aligned_alloc(alignment, size);
}
static void countingFree(void *memory, void *context) {
    (void)context;
    free(memory);
}

IC_TEST(core, allocator_hooks_and_byte_count) {
    int64_t before = icGetByteCount();
    icSetAllocator(countingAlloc, countingFree, NULL);
    s_hookBytes = 0;
    double *p = IC_ALLOC(double, 1000);
    IC_REQUIRE(p);
    IC_CHECK(((uintptr_t)p & 63) == 0);
    IC_CHECK(s_hookBytes >= 8000);
    IC_CHECK_INT(icGetByteCount() - before, 8000);
    icFree(p);
    icSetAllocator(NULL, NULL, NULL);
    IC_CHECK_INT(icGetByteCount(), before);
    // A whole world goes through the hooks and gives everything back.
    icTetMesh mesh = {0};
    int cells[3] = {3, 3, 3};
    icGenerateBox(&mesh, icVec3_Make(1, 1, 1), cells, 5);
    icWorld *world = icCreateWorld(NULL);
    icWorld_CreateSoftBody(world, &mesh, NULL, NULL, NULL);
    icWorld_Step(world, 0.01, NULL);
    icDestroyWorld(world);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), before);
}

IC_TEST(core, arena_grows_between_resets) {
    icArena arena;
    icArena_Init(&arena, 256);
    char *a = icArena_Push(&arena, 100), *b = icArena_Push(&arena, 100);
    IC_CHECK(a && b && b - a == 128); // 64-byte aligned blocks
    char *c = icArena_Push(&arena, 1000); // overflow: served from the heap
    IC_CHECK(c != NULL);
    memset(c, 1, 1000);
    IC_CHECK(arena.peak >= 1256);
    icArena_Reset(&arena);
    IC_CHECK(arena.capacity >= 1256 && arena.used == 0 && arena.overflowCount == 0);
    char *d = icArena_Push(&arena, 1200); // fits now: no heap allocation
    IC_CHECK(d == arena.base);
    icArena_Destroy(&arena);
}

static int compareIntsForTest(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void *failingAlloc(size_t size, size_t alignment, void *context) {
    (void)size, (void)alignment, (void)context;
    return NULL;
}

// icSortInts takes insertion sort, a radix sort or qsort by length (and qsort when the radix
// sort's scratch cannot be had); each must give qsort's order, negatives and extremes included.
IC_TEST(core, sort_ints_matches_qsort) {
    const int lengths[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1000, 40000};
    uint32_t seed = 12345u;
    for (int pass = 0; pass < 3; ++pass) {
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; ++l) {
            int n = lengths[l];
            int *a = malloc(sizeof(int) * (size_t)(n + 1)),
                *b = malloc(sizeof(int) * (size_t)(n + 1));
            IC_REQUIRE(a && b);
            for (int i = 0; i < n; ++i) {
                seed = seed * 1664525u + 1013904223u;
                // pass 0: small indices with repeats; 1: any int; 2: the extremes mixed in
                int v = pass == 0 ? (int)(seed >> 20) : (int)seed;
                if (pass == 2 && i % 7 == 0) v = i % 2 ? INT_MIN : INT_MAX;
                a[i] = b[i] = v;
            }
            if (pass == 1 && l % 2) icSetAllocator(failingAlloc, NULL, NULL); // qsort fallback
            icSortInts(a, n);
            icSetAllocator(NULL, NULL, NULL);
            qsort(b, (size_t)n, sizeof(int), compareIntsForTest);
            IC_CHECK_MSG(n == 0 || memcmp(a, b, sizeof(int) * (size_t)n) == 0, "length %d, pass %d",
                         n, pass);
            free(a);
            free(b);
        }
    }
}
