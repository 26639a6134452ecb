// SPDX-License-Identifier: MIT
// Ascending sort of int arrays (vertex and tet index lists).
#include "core/core.h"

#include <stdlib.h>

static int compareInts(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void icSortInts(int *values, int count) {
    if (count > 1) qsort(values, (size_t)count, sizeof(int), compareInts);
}
