// SPDX-License-Identifier: MIT
// A spatial hash of axis-aligned boxes (triangles, tets): the broad phase of contact,
// proximity queries and embedding. Items are bucketed by every grid cell their box touches;
// a query returns the items whose boxes overlap the query box, deduplicated and sorted by
// index, so results never depend on the hash layout.
#pragma once

#include "collision/geometry.h"
#include "core/core.h"

typedef struct icHashGrid {
    icReal cellSize, invCell;
    int itemCount;
    icBox3 *boxes;      ///< (itemCount) item boxes
    unsigned bucketMask;
    int *bucketStart;   ///< (bucketCount + 1)
    int *entries;       ///< item ids by bucket, ascending within a bucket
    int *stamp;         ///< (itemCount) last query that saw the item
    int stampValue;
    int boxCapacity, bucketCapacity, entryCapacity, stampCapacity;
} icHashGrid;

/// Frees the grid's arrays and zeroes it.
void icHashGrid_Destroy(icHashGrid *grid);
/// Buckets `count` boxes with cells of about cellSize (> 0; grown when the boxes would need
/// too many entries). Arrays are kept and reused across builds. IC_ERR_OUT_OF_MEMORY.
icResult icHashGrid_Build(icHashGrid *grid, const icBox3 *boxes, int count, icReal cellSize);
/// Items whose boxes overlap `box`, ascending. Writes at most capacity ids to out and returns
/// how many there are (call again with a larger buffer when that is more than capacity).
int icHashGrid_Query(icHashGrid *grid, icBox3 box, int *out, int capacity);
/// Mean of the largest box extent over boxes (a good cell size), or 0 without boxes.
icReal icHashGrid_MeanExtent(const icBox3 *boxes, int count);

/// Visits the items of the cells at Chebyshev ring r around the cell of p (ring 0 = that
/// cell), calling visit(item, context) once per bucket entry (duplicates possible; the
/// caller dedupes when it matters). Used for nearest-item searches.
typedef void icHashGridVisitFn(int item, void *context);
void icHashGrid_VisitRing(const icHashGrid *grid, icVec3 p, int r, icHashGridVisitFn *visit,
                          void *context);
