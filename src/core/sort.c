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

// Below this many values insertion sort (and the radix sort's histograms would cost more).
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
    uint32_t *tmp = IC_ALLOC(uint32_t, (size_t)count);
    if (!tmp) return false;
    static const uint32_t flip = 0x80000000u;
    uint32_t *src = (uint32_t *)values, *dst = tmp;
    size_t histogram[4][256];
    memset(histogram, 0, sizeof histogram);
    for (int i = 0; i < count; ++i) {
        uint32_t key = src[i] ^ flip;
        for (int d = 0; d < 4; ++d) histogram[d][key >> (8 * d) & 255u]++;
    }
    for (int d = 0; d < 4; ++d) {
        size_t *h = histogram[d];
        uint32_t first = (src[0] ^ flip) >> (8 * d) & 255u;
        if (h[first] == (size_t)count) continue; // one byte value: this pass moves nothing
        size_t offset = 0;
        for (int b = 0; b < 256; ++b) {
            size_t c = h[b];
            h[b] = offset;
            offset += c;
        }
        for (int i = 0; i < count; ++i) dst[h[(src[i] ^ flip) >> (8 * d) & 255u]++] = src[i];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != (uint32_t *)values) memcpy(values, src, sizeof(int) * (size_t)count);
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
