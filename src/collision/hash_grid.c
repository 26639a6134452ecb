// SPDX-License-Identifier: MIT
// Spatial hash of boxes: counting sort of (bucket, item) entries into compressed rows, so a
// build is O(entries) with no per-cell allocation and a warmed-up grid allocates nothing.
#include "collision/hash_grid.h"

#include <stdlib.h>

#define IC_GRID_COORD_LIMIT (1 << 28)

static inline int cellCoord(icReal x, icReal invCell) {
    icReal c = floor(x * invCell);
    if (!(c > -IC_GRID_COORD_LIMIT)) return -IC_GRID_COORD_LIMIT; // also NaN
    if (c > IC_GRID_COORD_LIMIT) return IC_GRID_COORD_LIMIT;
    return (int)c;
}

static inline unsigned cellHash(int i, int j, int k) {
    return ((unsigned)i * 73856093u) ^ ((unsigned)j * 19349663u) ^ ((unsigned)k * 83492791u);
}

typedef struct icCellRange {
    int lo[3], hi[3];
} icCellRange;

static inline icCellRange cellRange(icBox3 b, icReal invCell) {
    icCellRange r = {{cellCoord(b.lo.x, invCell), cellCoord(b.lo.y, invCell),
                      cellCoord(b.lo.z, invCell)},
                     {cellCoord(b.hi.x, invCell), cellCoord(b.hi.y, invCell),
                      cellCoord(b.hi.z, invCell)}};
    return r;
}

// Cells a range covers, capped at IC_GRID_CELLS_CAP: each side may span 2^29 + 1 cells (the
// clamp of cellCoord), so the exact product could overflow 64 bits (a contact thickness of
// 1e6 m did, found by the scene fuzzer). Callers only compare it with far smaller limits.
#define IC_GRID_CELLS_CAP ((int64_t)1 << 60)
static inline int64_t rangeCells(const icCellRange *r) {
    double n = (double)(r->hi[0] - r->lo[0] + 1) * (double)(r->hi[1] - r->lo[1] + 1) *
               (double)(r->hi[2] - r->lo[2] + 1);
    return n < (double)IC_GRID_CELLS_CAP ? (int64_t)n : IC_GRID_CELLS_CAP;
}

void icHashGrid_Destroy(icHashGrid *grid) {
    icFree(grid->boxes);
    icFree(grid->bucketStart);
    icFree(grid->entries);
    icFree(grid->stamp);
    memset(grid, 0, sizeof *grid);
}

icReal icHashGrid_MeanExtent(const icBox3 *boxes, int count) {
    if (count <= 0) return 0;
    icReal sum = 0;
    for (int i = 0; i < count; ++i) {
        icVec3 d = icVec3_Sub(boxes[i].hi, boxes[i].lo);
        icReal e = d.x > d.y ? d.x : d.y;
        sum += e > d.z ? e : d.z;
    }
    return sum / count;
}

icResult icHashGrid_Build(icHashGrid *grid, const icBox3 *boxes, int count, icReal cellSize) {
    IC_ASSERT(count >= 0);
    if (!(cellSize > 0) || !isfinite(cellSize)) cellSize = 1;
    // Grow the cells until the entries stay within a small multiple of the items: one huge
    // box must not fill millions of cells.
    int64_t entries = 0;
    for (int attempt = 0; attempt < 60; ++attempt) {
        icReal inv = 1.0 / cellSize;
        entries = 0;
        for (int i = 0; i < count; ++i) {
            icCellRange r = cellRange(boxes[i], inv);
            int64_t cells = rangeCells(&r);
            entries = entries < IC_GRID_CELLS_CAP - cells ? entries + cells : IC_GRID_CELLS_CAP;
        }
        if (entries <= 32 * (int64_t)count + 4096) break;
        cellSize *= 1.5;
    }
    if (entries > INT32_MAX / 2) return IC_ERR_OUT_OF_MEMORY;
    grid->cellSize = cellSize;
    grid->invCell = 1.0 / cellSize;
    grid->itemCount = count;
    unsigned buckets = 16;
    while ((int64_t)buckets < entries && buckets < (1u << 30)) buckets <<= 1;
    grid->bucketMask = buckets - 1;
    if (!icGrowArray((void **)&grid->boxes, &grid->boxCapacity, count, sizeof(icBox3)) ||
        !icGrowArray((void **)&grid->stamp, &grid->stampCapacity, count, sizeof(int)) ||
        !icGrowArray((void **)&grid->bucketStart, &grid->bucketCapacity, (int)buckets + 1,
                     sizeof(int)) ||
        !icGrowArray((void **)&grid->entries, &grid->entryCapacity, (int)entries, sizeof(int)))
        return IC_ERR_OUT_OF_MEMORY;
    if (count > 0) {
        memcpy(grid->boxes, boxes, sizeof(icBox3) * (size_t)count);
        memset(grid->stamp, 0, sizeof(int) * (size_t)count);
    }
    grid->stampValue = 0;
    int *start = grid->bucketStart;
    memset(start, 0, sizeof(int) * ((size_t)buckets + 1));
    for (int i = 0; i < count; ++i) {
        icCellRange r = cellRange(boxes[i], grid->invCell);
        for (int z = r.lo[2]; z <= r.hi[2]; ++z)
            for (int y = r.lo[1]; y <= r.hi[1]; ++y)
                for (int x = r.lo[0]; x <= r.hi[0]; ++x) start[(cellHash(x, y, z) & grid->bucketMask) + 1]++;
    }
    for (unsigned b = 0; b < buckets; ++b) start[b + 1] += start[b];
    // Scatter in item order: items ascend within each bucket (a stable counting sort). The
    // fill cursor of bucket b is start[b], shifted back afterwards.
    for (int i = 0; i < count; ++i) {
        icCellRange r = cellRange(boxes[i], grid->invCell);
        for (int z = r.lo[2]; z <= r.hi[2]; ++z)
            for (int y = r.lo[1]; y <= r.hi[1]; ++y)
                for (int x = r.lo[0]; x <= r.hi[0]; ++x)
                    grid->entries[start[cellHash(x, y, z) & grid->bucketMask]++] = i;
    }
    for (unsigned b = buckets; b > 0; --b) start[b] = start[b - 1];
    start[0] = 0;
    return IC_OK;
}

// Ascending ints: insertion sort for short runs inside a plain quicksort (no comparison
// callbacks; query results are usually a few dozen ids).
static void sortInts(int *a, int n) {
    while (n > 24) {
        int pivot = a[n / 2], i = 0, j = n - 1;
        while (i <= j) {
            while (a[i] < pivot) ++i;
            while (a[j] > pivot) --j;
            if (i <= j) {
                int t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        // Recurse into the smaller part, loop on the larger.
        if (j + 1 < n - i) {
            sortInts(a, j + 1);
            a += i;
            n -= i;
        } else {
            sortInts(a + i, n - i);
            n = j + 1;
        }
    }
    for (int i = 1; i < n; ++i) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = v;
    }
}

int icHashGrid_Query(icHashGrid *grid, icBox3 box, int *out, int capacity) {
    if (grid->itemCount == 0) return 0;
    if (++grid->stampValue == INT32_MAX) { // wrap: forget every stamp
        memset(grid->stamp, 0, sizeof(int) * (size_t)grid->itemCount);
        grid->stampValue = 1;
    }
    int stamp = grid->stampValue, found = 0;
    icCellRange r = cellRange(box, grid->invCell);
    if (rangeCells(&r) > (int64_t)grid->bucketMask + 1) {
        // A query box larger than the table: scanning the items is cheaper and exact.
        for (int i = 0; i < grid->itemCount; ++i)
            if (icBox3_Overlap(grid->boxes[i], box)) {
                if (found < capacity) out[found] = i;
                ++found;
            }
        return found;
    }
    for (int z = r.lo[2]; z <= r.hi[2]; ++z)
        for (int y = r.lo[1]; y <= r.hi[1]; ++y)
            for (int x = r.lo[0]; x <= r.hi[0]; ++x) {
                unsigned b = cellHash(x, y, z) & grid->bucketMask;
                for (int e = grid->bucketStart[b]; e < grid->bucketStart[b + 1]; ++e) {
                    int item = grid->entries[e];
                    if (grid->stamp[item] == stamp) continue;
                    grid->stamp[item] = stamp;
                    if (!icBox3_Overlap(grid->boxes[item], box)) continue;
                    if (found < capacity) out[found] = item;
                    ++found;
                }
            }
    if (found <= capacity) sortInts(out, found);
    return found;
}

void icHashGrid_VisitRing(const icHashGrid *grid, icVec3 p, int r, icHashGridVisitFn *visit,
                          void *context) {
    if (grid->itemCount == 0) return;
    int c[3] = {cellCoord(p.x, grid->invCell), cellCoord(p.y, grid->invCell),
                cellCoord(p.z, grid->invCell)};
    for (int dz = -r; dz <= r; ++dz)
        for (int dy = -r; dy <= r; ++dy)
            for (int dx = -r; dx <= r; ++dx) {
                int m = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
                if (abs(dz) > m) m = abs(dz);
                if (m != r) continue; // only the shell
                unsigned b = cellHash(c[0] + dx, c[1] + dy, c[2] + dz) & grid->bucketMask;
                for (int e = grid->bucketStart[b]; e < grid->bucketStart[b + 1]; ++e)
                    visit(grid->entries[e], context);
            }
}
