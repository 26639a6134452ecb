// SPDX-License-Identifier: MIT
// Embedding points in a tet mesh: the containing tet from the collision module's spatial
// hash (barycentric test), else the tet owning the nearest boundary face, by a ring search
// that stops once no closer face can remain; weights are the (extrapolated) barycentric
// coordinates, so they reproduce the point exactly and follow any affine map of the tets.
#include "collision/geometry.h"
#include "collision/hash_grid.h"
#include "isochor/skin.h"

/// Barycentric slack of the containment test (points on shared faces pick the lower tet).
#define IC_EMBED_INSIDE_SLACK 1e-10

void icEmbedding_Destroy(icEmbedding *embedding) {
    if (!embedding) return;
    icFree(embedding->tet);
    icFree(embedding->weights);
    memset(embedding, 0, sizeof *embedding);
}

typedef struct icEmbedWork {
    const icReal *x;
    const int *tets;
    const icMat3 *inverse; ///< (tetCount) Dm^-1
    int *faces;            ///< (faceCount x 3) boundary faces, built on the first outside point
    int *faceTets;         ///< (faceCount) their tets
    icBox3 *faceBoxes;     ///< (faceCount)
    int faceCount;
    int *seen;             ///< (faceCount) last point that looked at the face
    int point;
    icVec3 p;
    int best;
    icReal bestDistance;
} icEmbedWork;

// Barycentric weights of p in tet t: (l0, l1, l2) = Dm^-1 (p - x3), l3 = 1 - l0 - l1 - l2.
static void barycentric(const icEmbedWork *w, int t, icVec3 p, icReal l[4]) {
    const int *tv = w->tets + 4 * t;
    icVec3 r = icMat3_MulVec(w->inverse[t], icVec3_Sub(p, icVec3_Load(w->x, tv[3])));
    l[0] = r.x;
    l[1] = r.y;
    l[2] = r.z;
    l[3] = 1 - r.x - r.y - r.z;
}

// Distance from p to a box (0 inside): a lower bound of the distance to what it holds.
static icReal boxDistance(icBox3 b, icVec3 p) {
    icVec3 d = icVec3_Max(icVec3_Sub(b.lo, p), icVec3_Sub(p, b.hi));
    d = icVec3_Max(d, icVec3_Make(0, 0, 0));
    return icVec3_Length(d);
}

static void visitNearest(int f, void *context) {
    icEmbedWork *w = context;
    if (w->seen[f] == w->point) return;
    w->seen[f] = w->point;
    if (boxDistance(w->faceBoxes[f], w->p) > w->bestDistance) return; // cannot be closer
    const int *tri = w->faces + 3 * f;
    icReal bary[3];
    icVec3 q = icClosestOnTriangle(w->p, icVec3_Load(w->x, tri[0]), icVec3_Load(w->x, tri[1]),
                                   icVec3_Load(w->x, tri[2]), bary, NULL);
    icReal d = icVec3_Distance(w->p, q);
    if (d < w->bestDistance || (d == w->bestDistance && f < w->best)) {
        w->bestDistance = d;
        w->best = f;
    }
}

// The mesh's boundary faces with their owning tets and a grid over them: a point in no tet
// is nearest to the mesh on its boundary, so the nearest tet owns the nearest face.
static icResult buildBoundary(icEmbedWork *w, int vertexCount, int tetCount, icHashGrid *grid) {
    icTetMesh view = {0};
    view.vertexCount = vertexCount;
    view.tetCount = tetCount;
    view.positions = (icReal *)w->x;
    view.tets = (int *)w->tets;
    int *faces = NULL, *faceTets = NULL, count = 0;
    icResult r = icTetMesh_ExtractSurface(&view, &faces, &count, &faceTets);
    if (r != IC_OK) return r;
    w->faces = faces;
    w->faceTets = faceTets;
    w->faceCount = count;
    w->faceBoxes = IC_ALLOC(icBox3, (size_t)count + 1);
    w->seen = IC_ALLOC(int, (size_t)count + 1);
    if (!w->faceBoxes || !w->seen) return IC_ERR_OUT_OF_MEMORY;
    for (int f = 0; f < count; ++f) {
        icVec3 a = icVec3_Load(w->x, faces[3 * f]), b = icVec3_Load(w->x, faces[3 * f + 1]),
               c = icVec3_Load(w->x, faces[3 * f + 2]);
        w->faceBoxes[f].lo = icVec3_Min(a, icVec3_Min(b, c));
        w->faceBoxes[f].hi = icVec3_Max(a, icVec3_Max(b, c));
        w->seen[f] = -1;
    }
    return icHashGrid_Build(grid, w->faceBoxes, count, icHashGrid_MeanExtent(w->faceBoxes, count));
}

icResult icEmbedPoints(const icReal *positions, int vertexCount, const int *tets, int tetCount,
                       const icReal *points, int pointCount, icEmbedding *embedding) {
    memset(embedding, 0, sizeof *embedding);
    if (tetCount <= 0) return IC_ERR_EMPTY;
    if (pointCount < 0 || (pointCount > 0 && !points) || !positions || !tets)
        return IC_ERR_INVALID_ARGUMENT;
    for (int i = 0; i < 4 * tetCount; ++i)
        if (tets[i] < 0 || tets[i] >= vertexCount) return IC_ERR_INDEX_OUT_OF_RANGE;
    for (int i = 0; i < 3 * pointCount; ++i)
        if (!isfinite(points[i])) return IC_ERR_NOT_FINITE;

    icEmbedWork w;
    memset(&w, 0, sizeof w);
    w.x = positions;
    w.tets = tets;
    icMat3 *inverse = IC_ALLOC(icMat3, tetCount);
    icBox3 *boxes = IC_ALLOC(icBox3, tetCount);
    embedding->tet = IC_ALLOC(int, (size_t)pointCount + 1);
    embedding->weights = IC_ALLOC(icReal, 4 * (size_t)pointCount + 1);
    icHashGrid grid, faceGrid;
    memset(&grid, 0, sizeof grid);
    memset(&faceGrid, 0, sizeof faceGrid);
    int *found = NULL, foundCapacity = 0;
    icResult r = (inverse && boxes && embedding->tet && embedding->weights) ? IC_OK : IC_ERR_OUT_OF_MEMORY;
    for (int t = 0; r == IC_OK && t < tetCount; ++t) {
        const int *tv = tets + 4 * t;
        icVec3 p[4];
        for (int k = 0; k < 4; ++k) p[k] = icVec3_Load(positions, tv[k]);
        if (!icVec3_IsFinite(p[0]) || !icVec3_IsFinite(p[1]) || !icVec3_IsFinite(p[2]) ||
            !icVec3_IsFinite(p[3])) {
            r = IC_ERR_NOT_FINITE;
            break;
        }
        icMat3 Dm = icMat3_FromCols(icVec3_Sub(p[0], p[3]), icVec3_Sub(p[1], p[3]), icVec3_Sub(p[2], p[3]));
        bool ok;
        inverse[t] = icMat3_Inverse(Dm, &ok);
        icReal scale = icVec3_LengthSquared(Dm.col[0]) + icVec3_LengthSquared(Dm.col[1]) +
                       icVec3_LengthSquared(Dm.col[2]);
        if (!ok || !(fabs(icMat3_Det(Dm)) > 1e-14 * scale * sqrt(scale))) {
            r = IC_ERR_DEGENERATE_ELEMENT;
            break;
        }
        boxes[t].lo = icVec3_Min(icVec3_Min(p[0], p[1]), icVec3_Min(p[2], p[3]));
        boxes[t].hi = icVec3_Max(icVec3_Max(p[0], p[1]), icVec3_Max(p[2], p[3]));
    }
    w.inverse = inverse;
    // Cells of half a tet: a point then meets only the few tets whose boxes reach its cell.
    if (r == IC_OK) r = icHashGrid_Build(&grid, boxes, tetCount, 0.5 * icHashGrid_MeanExtent(boxes, tetCount));
    int outside = 0;
    icReal worstOutside = 0;
    icVec3 lo = icVec3_Make(0, 0, 0), hi = lo;
    for (int i = 0; r == IC_OK && i < pointCount; ++i) {
        icVec3 p = icVec3_Load(points, i);
        int n = icHashGrid_Query(&grid, (icBox3){p, p}, found, foundCapacity);
        if (n > foundCapacity) {
            if (!icGrowArray((void **)&found, &foundCapacity, n, sizeof(int))) {
                r = IC_ERR_OUT_OF_MEMORY;
                break;
            }
            n = icHashGrid_Query(&grid, (icBox3){p, p}, found, foundCapacity);
        }
        int chosen = -1;
        icReal l[4];
        for (int k = 0; k < n && chosen < 0; ++k) { // ascending: the lowest containing tet
            barycentric(&w, found[k], p, l);
            if (l[0] >= -IC_EMBED_INSIDE_SLACK && l[1] >= -IC_EMBED_INSIDE_SLACK &&
                l[2] >= -IC_EMBED_INSIDE_SLACK && l[3] >= -IC_EMBED_INSIDE_SLACK)
                chosen = found[k];
        }
        if (chosen < 0) {
            if (!w.faces) {
                if ((r = buildBoundary(&w, vertexCount, tetCount, &faceGrid)) != IC_OK) break;
                lo = icVec3_Make(INFINITY, INFINITY, INFINITY);
                hi = icVec3_Neg(lo);
                for (int f = 0; f < w.faceCount; ++f) {
                    lo = icVec3_Min(lo, w.faceBoxes[f].lo);
                    hi = icVec3_Max(hi, w.faceBoxes[f].hi);
                }
            }
            // Nearest boundary face: rings of cells outwards. A face first met in ring r + 1
            // is farther than r cells plus p's distance to its own cell's walls, so the search
            // ends once the best is within that, or once the rings cover every face.
            w.point = i;
            w.p = p;
            w.best = -1;
            w.bestDistance = INFINITY;
            icVec3 far = icVec3_Max(icVec3_Sub(hi, p), icVec3_Sub(p, lo));
            icReal reach = far.x > far.y ? far.x : far.y;
            if (far.z > reach) reach = far.z;
            int lastRing = (int)(reach * faceGrid.invCell) + 2;
            icReal margin = INFINITY;
            for (int a = 0; a < 3; ++a) {
                icReal c = icVec3_Get(p, a) * faceGrid.invCell, f = c - floor(c);
                icReal m = (f < 1 - f ? f : 1 - f) * faceGrid.cellSize;
                if (m < margin) margin = m;
            }
            for (int ring = 0; ring <= lastRing; ++ring) {
                icHashGrid_VisitRing(&faceGrid, p, ring, visitNearest, &w);
                if (w.best >= 0 && w.bestDistance <= ring * faceGrid.cellSize + margin) break;
            }
            chosen = w.faceTets[w.best];
            barycentric(&w, chosen, p, l);
            ++outside;
            if (w.bestDistance > worstOutside) worstOutside = w.bestDistance;
        }
        embedding->tet[i] = chosen;
        for (int k = 0; k < 4; ++k) embedding->weights[4 * i + k] = l[k];
    }
    icHashGrid_Destroy(&grid);
    icHashGrid_Destroy(&faceGrid);
    icFree(found);
    icFree(inverse);
    icFree(boxes);
    icFree(w.faces);
    icFree(w.faceTets);
    icFree(w.faceBoxes);
    icFree(w.seen);
    if (r != IC_OK) {
        icEmbedding_Destroy(embedding);
        return r;
    }
    embedding->pointCount = pointCount;
    embedding->outsideCount = outside;
    embedding->maxOutsideDistance = worstOutside;
    return IC_OK;
}

void icEmbedding_Apply(const icEmbedding *embedding, const int *tets, const icReal *positions,
                       icReal *out) {
    for (int i = 0; i < embedding->pointCount; ++i) {
        const int *tv = tets + 4 * embedding->tet[i];
        const icReal *l = embedding->weights + 4 * i;
        icVec3 p = icVec3_Scale(l[0], icVec3_Load(positions, tv[0]));
        for (int k = 1; k < 4; ++k) p = icVec3_MulAdd(p, l[k], icVec3_Load(positions, tv[k]));
        icVec3_Store(out, i, p);
    }
}
