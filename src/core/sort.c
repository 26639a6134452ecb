// SPDX-License-Identifier: MIT
// Ascending sort of int arrays (vertex and tet index lists).
//
// The local Newton solves sort ~30k tet indices each, some 300 times in a 104k-tet impact, on
// the calling thread while the other workers wait: qsort's comparator calls made that 1 % of
// the run's samples. Long arrays go through a least-significant-digit radix sort instead (a
// sort of ints has one result, so every caller gets the same array either way).
#include "core/core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Up to IC_SORT_SHORT values insertion sort; from IC_SORT_RADIX on the radix sort (below that
// its 4 x 256 counts would cost more than qsort's comparisons).
enum { IC_SORT_SHORT = 32, IC_SORT_RADIX = 256 };

static int compareInts(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void insertionSort(int *values, int count) {
    for (int i = 1; i < count; ++i) {
        int v = values[i], j = i;
        for (; j > 0 && values[j - 1] > v; --j) values[j] = values[j - 1];
        values[j] = v;
    }
}

// Keys with the sign bit flipped order as the ints do. Four byte passes, each skipped when
// every key has the same byte there (index lists: the top byte, often the third as well).
// Returns false when the scratch cannot be had.
static bool radixSort(int *values, int count) {
    int *tmp = IC_ALLOC(int, (size_t)count);
    if (!tmp) return false;
    static const uint32_t flip = 0x80000000u;
    int *src = values, *dst = tmp;
    size_t histogram[4][256];
    memset(histogram, 0, sizeof histogram);
    for (int i = 0; i < count; ++i) {
        uint32_t key = (uint32_t)src[i] ^ flip;
        for (int d = 0; d < 4; ++d) histogram[d][key >> (8 * d) & 255u]++;
    }
    for (int d = 0; d < 4; ++d) {
        size_t *h = histogram[d];
        uint32_t first = ((uint32_t)src[0] ^ flip) >> (8 * d) & 255u;
        if (h[first] == (size_t)count) continue; // one byte value: this pass moves nothing
        size_t offset = 0;
        for (int b = 0; b < 256; ++b) {
            size_t c = h[b];
            h[b] = offset;
            offset += c;
        }
        for (int i = 0; i < count; ++i)
            dst[h[((uint32_t)src[i] ^ flip) >> (8 * d) & 255u]++] = src[i];
        int *t = src;
        src = dst;
        dst = t;
    }
    if (src != values) memcpy(values, src, sizeof(int) * (size_t)count);
    icFree(tmp);
    return true;
}

void icSortInts(int *values, int count) {
    if (count < 2) return;
    if (count <= IC_SORT_SHORT) {
        insertionSort(values, count);
        return;
    }
    if (count >= IC_SORT_RADIX && radixSort(values, count)) return;
    qsort(values, (size_t)count, sizeof(int), compareInts);
}
