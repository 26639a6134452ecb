// SPDX-License-Identifier: MIT
// Number formatting and binary output shared by the mesh and surface writers.
#include "formats/fmt_internal.h"

#include <math.h>
#include <stdio.h>

int icFmt_FormatInt(char *out, long long v) {
    char digits[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    int length = 0;
    if (v < 0) out[length++] = '-';
    while (n) out[length++] = digits[--n];
    return length;
}

int icFmt_FormatReal(char *out, double v) {
    // Integers (grid coordinates, zeros) print short and exact without printf.
    if (v == (double)(long long)v && v > -1e15 && v < 1e15 && !(v == 0 && signbit(v)))
        return icFmt_FormatInt(out, (long long)v);
    return snprintf(out, 32, "%.17g", v);
}

void icFmt_WriteF64(FILE *fp, const double *values, size_t count, bool swap) {
    if (!swap) {
        fwrite(values, sizeof(double), count, fp);
        return;
    }
    uint64_t chunk[1024];
    for (size_t i = 0; i < count;) {
        size_t n = count - i < 1024 ? count - i : 1024;
        for (size_t k = 0; k < n; ++k) {
            memcpy(&chunk[k], &values[i + k], 8);
            chunk[k] = icFmt_Bswap64(chunk[k]);
        }
        fwrite(chunk, 8, n, fp);
        i += n;
    }
}

void icFmt_WriteI32(FILE *fp, const int *values, size_t count, bool swap) {
    if (!swap) {
        fwrite(values, sizeof(int), count, fp);
        return;
    }
    uint32_t chunk[1024];
    for (size_t i = 0; i < count;) {
        size_t n = count - i < 1024 ? count - i : 1024;
        for (size_t k = 0; k < n; ++k) chunk[k] = icFmt_Bswap32((uint32_t)values[i + k]);
        fwrite(chunk, 4, n, fp);
        i += n;
    }
}
