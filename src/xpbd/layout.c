// SPDX-License-Identifier: MIT
// Builds the packed sweep layout: tets along a Morton curve, large bodies cut into slabs (or
// runs of the curve) as chunks that fit the cache, chunks coloured into phases, tets of a
// chunk coloured greedily into vector blocks (small colours go to the chunk's serial overflow)
// or by the paper's cell scheme (Macklin & Müller 2021, sec. 5.3), vertices renumbered by
// first use, and the AoSoA block records.
#include "xpbd/layout.h"

#include "core/hash.h"

#include <math.h>
#include <stdlib.h>

// A colour shared out between workers needs this many blocks' worth of tets (a pass costs a
// hand-over between threads, about as much as a few dozen serial projections); in a chunk run
// by one worker a vector pass pays once it has a quarter of a block.
enum { IC_LAYOUT_MIN_PARALLEL_BLOCKS = 2, IC_LAYOUT_MIN_SERIAL_FRACTION = 4 };

// Meshes above this many tets are cut into chunks (slabs, below, or runs of IC_LAYOUT_CHUNK
// tets along the curve): one chunk's vertex copies (~50-150 KB in float) stay in the core's
// cache through all its colours, where a colour pass over a large mesh streams every vertex
// through L3 once per colour. Both precisions cut alike, so they sweep in the same order.
enum { IC_LAYOUT_CHUNKED_ABOVE = 65536, IC_LAYOUT_CHUNK = 16384 };
// Smaller greedy meshes from this size up are chunked too when each of their bodies that large
// can be cut into 4 slabs (2 a phase): a colour of a 10k-tet mesh holds too few blocks to share
// between workers, but two slabs of a phase keep both busy. Otherwise their colours are shared.
enum { IC_LAYOUT_SMALL_SLABS_ABOVE = 8192 };

// 10 bits spread to every third bit.
static uint32_t spread10(uint32_t v) {
    v &= 1023u;
    v = (v | (v << 16)) & 0x030000FFu;
    v = (v | (v << 8)) & 0x0300F00Fu;
    v = (v | (v << 4)) & 0x030C30C3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

// Stable sort of values by 30-bit keys: three counting passes of 10 bits.
static bool sortByKey(uint32_t *keys, int *values, int n) {
    uint32_t *k2 = n ? IC_ALLOC(uint32_t, n) : NULL;
    int *v2 = n ? IC_ALLOC(int, n) : NULL;
    int *count = IC_ALLOC(int, 1025);
    bool ok = count && (!n || (k2 && v2));
    for (int pass = 0; ok && pass < 3; ++pass) {
        int shift = 10 * pass;
        memset(count, 0, sizeof(int) * 1025);
        for (int i = 0; i < n; ++i) ++count[((keys[i] >> shift) & 1023u) + 1];
        for (int d = 0; d < 1024; ++d) count[d + 1] += count[d];
        for (int i = 0; i < n; ++i) {
            int at = count[(keys[i] >> shift) & 1023u]++;
            k2[at] = keys[i];
            v2[at] = values[i];
        }
        memcpy(keys, k2, sizeof(uint32_t) * (size_t)n);
        memcpy(values, v2, sizeof(int) * (size_t)n);
    }
    icFree(k2);
    icFree(v2);
    icFree(count);
    return ok;
}

// Tets along a Morton curve through their rest centroids (ties in index order), body by body,
// so tets that follow each other in a colour are near in space and share cache lines.
static bool mortonOrder(const icModel *m, int *order) {
    const int n = m->tetCount;
    icVec3 lo = icVec3_Load(m->restPositions, 0), hi = lo;
    for (int v = 1; v < m->vertexCount; ++v) {
        icVec3 p = icVec3_Load(m->restPositions, v);
        lo = icVec3_Min(lo, p);
        hi = icVec3_Max(hi, p);
    }
    icReal extent = fmax(fmax(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z);
    icReal scale = extent > 0 ? 1023.999 / extent : 0;
    uint32_t *keys = n ? IC_ALLOC(uint32_t, n) : NULL;
    if (n && !keys) return false;
    for (int t = 0; t < n; ++t) {
        const int *tv = m->tets + 4 * (size_t)t;
        icVec3 c = icVec3_Make(0, 0, 0);
        for (int i = 0; i < 4; ++i) c = icVec3_Add(c, icVec3_Load(m->restPositions, tv[i]));
        c = icVec3_Scale(0.25, icVec3_Sub(c, icVec3_Scale(4.0, lo)));
        keys[t] = spread10((uint32_t)(c.x * scale)) | spread10((uint32_t)(c.y * scale)) << 1 |
                  spread10((uint32_t)(c.z * scale)) << 2;
        order[t] = t;
    }
    bool ok = sortByKey(keys, order, n);
    // Then by body (stable), so a chunk holds one body's tets.
    for (int i = 0; ok && i < n; ++i) keys[i] = (uint32_t)m->tetBody[order[i]];
    if (ok && m->bodyCount > 1) ok = sortByKey(keys, order, n);
    icFree(keys);
    return ok;
}

// Large bodies are cut across their longest axis into slabs of equal tet counts (by rest
// centroid), one chunk each, as many as leave every vertex in at most two neighbouring slabs.
// Then the chunks fall into two phases (even and odd slabs), and a sweep hands over between
// workers twice, where a colour-by-colour sweep of one chunk does so once per colour (~35
// times); and each worker keeps the same slabs sweep after sweep, in its own cache. Slabs per
// body are a multiple of 8 (2 or 4 workers share a phase evenly), about IC_LAYOUT_SLAB tets
// each but at least IC_LAYOUT_SLAB_MIN: thin slabs would load the vertices they share twice a
// sweep. A body that cannot have 8 is cut along its Morton curve into runs of IC_LAYOUT_CHUNK.
enum { IC_LAYOUT_SLAB = 40960, IC_LAYOUT_SLAB_MIN = 8192, IC_LAYOUT_SLAB_BINS = 4096 };

// Slab s of `slabs` holds the bins whose tets come before (s + 1) n / slabs (cumulative counts
// in cum[1..]); bin -> slab into slabOfBin.
static void slabBoundaries(const int *cum, int n, int slabs, int *slabOfBin) {
    int bin = 0;
    for (int s = 0; s < slabs; ++s)
        while (bin < IC_LAYOUT_SLAB_BINS && (s == slabs - 1 || (int64_t)cum[bin + 1] * slabs <= (int64_t)(s + 1) * n))
            slabOfBin[bin++] = s;
}

// Slabs of body tets order[0..n): slab[i] (0 .. S-1) and S, a multiple of `step`, or 0 when
// fewer than `step` would do. scratch: 2 x IC_LAYOUT_SLAB_BINS + 1 ints; lo, hi: (model
// vertices) ints.
static int bodySlabs(const icModel *m, const int *order, int n, int step, int *slab, int *scratch, int *lo, int *hi) {
    icVec3 cmin = {INFINITY, INFINITY, INFINITY}, cmax = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; ++i) {
        const int *tv = m->tets + 4 * (size_t)order[i];
        icVec3 c = icVec3_Make(0, 0, 0);
        for (int k = 0; k < 4; ++k) c = icVec3_Add(c, icVec3_Load(m->restPositions, tv[k]));
        cmin = icVec3_Min(cmin, c);
        cmax = icVec3_Max(cmax, c);
    }
    icReal span[3] = {cmax.x - cmin.x, cmax.y - cmin.y, cmax.z - cmin.z}, low[3] = {cmin.x, cmin.y, cmin.z};
    int axis = span[1] > span[0] ? 1 : 0;
    if (span[2] > span[axis]) axis = 2;
    if (!(span[axis] > 0)) return 0;
    int *cum = scratch, *slabOfBin = scratch + IC_LAYOUT_SLAB_BINS + 1;
    memset(cum, 0, sizeof(int) * (IC_LAYOUT_SLAB_BINS + 1));
    for (int i = 0; i < n; ++i) { // bins of the centroid sums (4 x centroid) along the axis
        const int *tv = m->tets + 4 * (size_t)order[i];
        icReal c = 0;
        for (int k = 0; k < 4; ++k) c += m->restPositions[3 * (size_t)tv[k] + axis];
        int bin = (int)((c - low[axis]) / span[axis] * IC_LAYOUT_SLAB_BINS);
        slab[i] = bin < 0 ? 0 : (bin >= IC_LAYOUT_SLAB_BINS ? IC_LAYOUT_SLAB_BINS - 1 : bin);
        cum[slab[i] + 1]++;
    }
    for (int k = 0; k < IC_LAYOUT_SLAB_BINS; ++k) cum[k + 1] += cum[k];
    int slabs = n / IC_LAYOUT_SLAB / step * step;
    for (slabs = slabs < step ? step : slabs; slabs >= step; slabs -= step) {
        slabBoundaries(cum, n, slabs, slabOfBin);
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < 4; ++k) {
                int v = m->tets[4 * (size_t)order[i] + k];
                lo[v] = INT32_MAX;
                hi[v] = -1;
            }
        bool apart = true; // no vertex in two slabs that are not neighbours
        for (int i = 0; i < n && apart; ++i)
            for (int k = 0; k < 4; ++k) {
                int v = m->tets[4 * (size_t)order[i] + k], s = slabOfBin[slab[i]];
                lo[v] = s < lo[v] ? s : lo[v];
                hi[v] = s > hi[v] ? s : hi[v];
                apart = apart && hi[v] - lo[v] <= 1;
            }
        if (apart) break;
    }
    if (slabs < step) return 0;
    for (int i = 0; i < n; ++i) slab[i] = slabOfBin[slab[i]];
    return slabs;
}

// Chunk keys for a chunked layout (tets in `order`, Morton, grouped by body): a body's slabs,
// or runs of IC_LAYOUT_CHUNK tets along its curve, or the whole body when it is smaller; then
// order sorted by key (stable: Morton order inside a chunk). keyOfTet[t] is t's chunk key.
// small: a mesh of IC_LAYOUT_CHUNKED_ABOVE tets or fewer, whose bodies from
// IC_LAYOUT_SMALL_SLABS_ABOVE up get 4 slabs; *sliced is false when one of them cannot.
static bool chunkOrder(const icModel *m, int *order, int *keyOfTet, bool small, bool *sliced) {
    const int n = m->tetCount;
    int *slab = IC_ALLOC(int, (size_t)n + 1), *scratch = IC_ALLOC(int, 2 * IC_LAYOUT_SLAB_BINS + 1);
    int *lo = IC_ALLOC(int, (size_t)m->vertexCount + 1), *hi = IC_ALLOC(int, (size_t)m->vertexCount + 1);
    uint32_t *keys = IC_ALLOC(uint32_t, (size_t)n + 1);
    bool ok = slab && scratch && lo && hi && keys;
    int key = 0;
    for (int s = 0; ok && s < n;) {
        int e = s;
        while (e < n && m->tetBody[order[e]] == m->tetBody[order[s]]) ++e;
        int slabs = 0;
        if (small && e - s >= IC_LAYOUT_SMALL_SLABS_ABOVE) {
            slabs = bodySlabs(m, order + s, e - s, 4, slab + s, scratch, lo, hi);
            *sliced = *sliced && slabs > 0;
        } else if (e - s >= 8 * IC_LAYOUT_SLAB_MIN) {
            slabs = bodySlabs(m, order + s, e - s, 8, slab + s, scratch, lo, hi);
        }
        for (int i = s; i < e; ++i)
            keys[i] = (uint32_t)(key + (slabs ? slab[i] : (i - s) / IC_LAYOUT_CHUNK));
        key += slabs ? slabs : (e - s + IC_LAYOUT_CHUNK - 1) / IC_LAYOUT_CHUNK;
        s = e;
    }
    ok = ok && key < (1 << 30) && sortByKey(keys, order, n);
    for (int i = 0; ok && i < n; ++i) keyOfTet[order[i]] = (int)keys[i];
    icFree(slab);
    icFree(scratch);
    icFree(lo);
    icFree(hi);
    icFree(keys);
    return ok;
}

typedef struct icIntList {
    int *data;
    int count, capacity;
} icIntList;

static bool push(icIntList *list, int value) {
    if (!icGrowArray((void **)&list->data, &list->capacity, list->count + 1, sizeof(int))) return false;
    list->data[list->count++] = value;
    return true;
}

// What the builder collects before the records are written.
typedef struct icBuild {
    icXpbdLayout *L;
    const icModel *m;
    icIntList slots; ///< tet per lane, -1 for padding
    icIntList phaseChunks, chunkColours, chunkOverflow, chunkBlocks, colourUnits, colourEnd, unitBlocks;
    icIntList cellCorners; ///< cell scheme: per unit 8 x lanes model vertices (-1: the dummy)
    icIntList cellPattern; ///< per unit IC_XPBD_MAX_CELL_TETS x 4 corners, or -1s: no shared pattern
    icIntList slotOrder;   ///< pair scheme: per slot the tet's vertices in lane order (4 x 2 bits)
    uint64_t *bits;  ///< (model vertices) colour bits inside a chunk, phase bits across chunks
    int *colour;     ///< (tets) scratch
    int *keyOfTet;   ///< (tets) chunk key when chunked (chunkOrder), else NULL
    bool ok;
} icBuild;

static int blocksSoFar(const icBuild *B) { return B->slots.count / B->L->lanes; }

// The identity order of a tet's vertices (slotOrder): vertex k of the lane is the tet's k.
enum { IC_LAYOUT_SAME_ORDER = 0 | 1 << 2 | 2 << 4 | 3 << 6 };

static void addSlot(icBuild *B, int t) {
    B->ok = B->ok && push(&B->slots, t);
    if (B->L->pairs) B->ok = B->ok && push(&B->slotOrder, IC_LAYOUT_SAME_ORDER);
}

// A slot whose lane takes the tet's vertices in another order (order[k]: the tet's vertex for
// lane vertex k, 2 bits each).
static void addOrderedSlot(icBuild *B, int t, int order) {
    B->ok = B->ok && push(&B->slots, t) && push(&B->slotOrder, order);
}

static void padBlock(icBuild *B) {
    while (B->ok && B->slots.count % B->L->lanes) addSlot(B, -1);
}

static void beginChunk(icBuild *B) {
    B->ok = B->ok && push(&B->chunkColours, B->colourUnits.count) && push(&B->chunkBlocks, blocksSoFar(B));
}

// Tets tets[0..n) (in Morton order) as one chunk: greedy colours in the user's tet order, as
// the reference sweep colours them (Macklin & Müller 2021, sec. 5.3: tets of a colour share no
// vertex), so the Gauss-Seidel order is the reference's colour by colour; then a vector block
// per `lanes` tets of a colour in Morton order, one unit per block. Colours too small for
// vectors go to the chunk's overflow, solved lane by lane.
static void emitGreedyChunk(icBuild *B, const int *tets, int n, bool sharedColours) {
    const icModel *m = B->m;
    const int lanes = B->L->lanes;
    int count[65] = {0};
    int *byIndex = n ? IC_ALLOC(int, n) : NULL;
    if (n && !byIndex) {
        B->ok = false;
        return;
    }
    memcpy(byIndex, tets, sizeof(int) * (size_t)n);
    icSortInts(byIndex, n);
    for (int i = 0; i < n; ++i) {
        const int *tv = m->tets + 4 * (size_t)byIndex[i];
        uint64_t taken = B->bits[tv[0]] | B->bits[tv[1]] | B->bits[tv[2]] | B->bits[tv[3]];
        int c = ~taken ? __builtin_ctzll(~taken) : 64;
        B->colour[byIndex[i]] = c; // by tet, read back along the Morton order below
        count[c]++;
        if (c < 64)
            for (int k = 0; k < 4; ++k) B->bits[tv[k]] |= (uint64_t)1 << c;
    }
    icFree(byIndex);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 4; ++k) B->bits[m->tets[4 * (size_t)tets[i] + k]] = 0;
    int least = sharedColours ? IC_LAYOUT_MIN_PARALLEL_BLOCKS * lanes : lanes / IC_LAYOUT_MIN_SERIAL_FRACTION;
    beginChunk(B);
    for (int c = 0; c < 64 && B->ok; ++c) {
        if (count[c] < least || count[c] == 0) continue;
        B->ok = push(&B->colourUnits, B->unitBlocks.count);
        int first = blocksSoFar(B);
        for (int i = 0; i < n; ++i)
            if (B->colour[tets[i]] == c) addSlot(B, tets[i]);
        padBlock(B);
        for (int b = first; b < blocksSoFar(B); ++b) B->ok = B->ok && push(&B->unitBlocks, b);
        B->ok = B->ok && push(&B->colourEnd, blocksSoFar(B));
    }
    B->ok = B->ok && push(&B->chunkOverflow, blocksSoFar(B));
    // Small colours in colour order, as the reference sweeps them; colour 64 (no colour was
    // free) in the user's order last.
    for (int c = 0; c < 64; ++c)
        if (count[c] > 0 && count[c] < least)
            for (int i = 0; i < n; ++i)
                if (B->colour[tets[i]] == c) {
                    addSlot(B, tets[i]);
                    B->L->overflowTets++;
                }
    for (int i = 0; i < n && count[64]; ++i)
        if (B->colour[tets[i]] == 64) {
            addSlot(B, tets[i]);
            B->L->overflowTets++;
        }
    padBlock(B);
}

// The 8 corners of a cell, each named by the octant of its rest position about the cell's
// centre, and which corners each of its tets uses (tets in index order). False when the cell
// is not a hex of 8 corners or has too many tets.
static bool cellPattern(const icModel *m, const int *tets, int n, int corner[8],
                        unsigned char pattern[IC_XPBD_MAX_CELL_TETS][4]) {
    if (n > IC_XPBD_MAX_CELL_TETS) return false;
    int vertex[32], count = 0;
    for (int e = 0; e < n; ++e)
        for (int k = 0; k < 4; ++k) {
            int v = m->tets[4 * (size_t)tets[e] + k], seen = 0;
            for (int i = 0; i < count; ++i) seen |= vertex[i] == v;
            if (!seen) vertex[count++] = v;
        }
    if (count != 8) return false;
    icVec3 centre = icVec3_Make(0, 0, 0);
    for (int i = 0; i < 8; ++i) centre = icVec3_Add(centre, icVec3_Load(m->restPositions, vertex[i]));
    centre = icVec3_Scale(0.125, centre);
    for (int i = 0; i < 8; ++i) corner[i] = -1;
    for (int i = 0; i < 8; ++i) {
        icVec3 d = icVec3_Sub(icVec3_Load(m->restPositions, vertex[i]), centre);
        int octant = (d.x > 0) + 2 * (d.y > 0) + 4 * (d.z > 0);
        if (corner[octant] >= 0) return false;
        corner[octant] = vertex[i];
    }
    for (int e = 0; e < n; ++e)
        for (int k = 0; k < 4; ++k)
            for (int c = 0; c < 8; ++c)
                if (corner[c] == m->tets[4 * (size_t)tets[e] + k]) pattern[e][k] = (unsigned char)c;
    return true;
}

// The corners of a unit's cells when they all share one pattern (then the cell kernel keeps
// them in registers), else -1s.
static void unitCorners(icBuild *B, const int *group, int inGroup, int most, const int *first,
                        const int *byCell) {
    const int lanes = B->L->lanes;
    int corners[8][IC_XPBD_LANES];
    unsigned char shared[IC_XPBD_MAX_CELL_TETS][4] = {{0}};
    bool fast = most <= IC_XPBD_MAX_CELL_TETS;
    for (int l = 0; l < lanes && fast; ++l) {
        int corner[8] = {-1, -1, -1, -1, -1, -1, -1, -1}; // set when cellPattern succeeds
        unsigned char pattern[IC_XPBD_MAX_CELL_TETS][4] = {{0}};
        if (l >= inGroup) {
            for (int c = 0; c < 8; ++c) corners[c][l] = -1;
            continue;
        }
        int n = first[group[l] + 1] - first[group[l]];
        fast = n == most && cellPattern(B->m, byCell + first[group[l]], n, corner, pattern);
        if (fast && l == 0) memcpy(shared, pattern, sizeof shared);
        fast = fast && memcmp(shared, pattern, sizeof shared) == 0;
        for (int c = 0; c < 8; ++c) corners[c][l] = corner[c];
    }
    for (int c = 0; c < 8; ++c)
        for (int l = 0; l < lanes; ++l) B->ok = B->ok && push(&B->cellCorners, fast ? corners[c][l] : -1);
    for (int s = 0; s < IC_XPBD_MAX_CELL_TETS; ++s)
        for (int k = 0; k < 4; ++k) B->ok = B->ok && push(&B->cellPattern, fast ? shared[s][k] : -1);
}

// Cells cells[0..n) as one chunk: the 8 parity colours of the paper's cell scheme; a unit is
// a group of `lanes` cells whose block s holds the s-th tet of each (a cell's tets run in
// index order in one lane).
static void emitCellChunk(icBuild *B, const int *cells, int n, const int *first, const int *byCell,
                          const unsigned char *parity) {
    const int lanes = B->L->lanes;
    beginChunk(B);
    for (int col = 0; col < 8 && B->ok; ++col) {
        int group[IC_XPBD_LANES], inGroup = 0;
        bool any = false;
        for (int s = 0; s <= n && B->ok; ++s) {
            bool flush = s == n;
            if (!flush) {
                if (parity[cells[s]] != col) continue;
                group[inGroup++] = cells[s];
                flush = inGroup == lanes;
            }
            if (!flush || inGroup == 0) continue;
            if (!any) B->ok = push(&B->colourUnits, B->unitBlocks.count), any = true;
            int most = 0;
            for (int l = 0; l < inGroup; ++l)
                if (first[group[l] + 1] - first[group[l]] > most) most = first[group[l] + 1] - first[group[l]];
            B->ok = B->ok && push(&B->unitBlocks, blocksSoFar(B));
            unitCorners(B, group, inGroup, most, first, byCell);
            for (int slot = 0; slot < most; ++slot)
                for (int l = 0; l < lanes; ++l)
                    addSlot(B, l < inGroup && slot < first[group[l] + 1] - first[group[l]]
                                   ? byCell[first[group[l]] + slot]
                                   : -1);
            inGroup = 0;
        }
        if (any) B->ok = B->ok && push(&B->colourEnd, blocksSoFar(B));
    }
    B->ok = B->ok && push(&B->chunkOverflow, blocksSoFar(B));
}

// The pair scheme. A face key: the face's three vertices sorted, and where it came from
// (4 x position + the tet's vertex opposite the face).
typedef struct icFaceKey {
    int v[3], at;
} icFaceKey;

static int compareFaceKeys(const void *a, const void *b) {
    const icFaceKey *x = a, *y = b;
    for (int k = 0; k < 3; ++k)
        if (x->v[k] != y->v[k]) return (x->v[k] > y->v[k]) - (x->v[k] < y->v[k]);
    return (x->at > y->at) - (x->at < y->at);
}

// Tets tets[0..n) paired greedily along the curve: each tet not yet paired takes the first
// later tet across one of its faces that is not paired either. partner[i]: the position of i's
// partner or -1; face[i]: for the first of a pair, its vertex opposite the shared face.
static bool pairTets(const icModel *m, const int *tets, int n, int *partner, int *face) {
    icFaceKey *keys = IC_ALLOC(icFaceKey, 4 * (size_t)n + 1);
    int *across = IC_ALLOC(int, 4 * (size_t)n + 1);
    if (!keys || !across) {
        icFree(keys);
        icFree(across);
        return false;
    }
    for (int i = 0; i < n; ++i)
        for (int f = 0; f < 4; ++f) {
            icFaceKey *key = &keys[4 * i + f];
            int c = 0;
            for (int k = 0; k < 4; ++k)
                if (k != f) key->v[c++] = m->tets[4 * (size_t)tets[i] + k];
            for (int a = 0; a < 2; ++a) // three numbers: a bubble sort is enough
                for (int b = 0; b < 2 - a; ++b)
                    if (key->v[b] > key->v[b + 1]) {
                        int t = key->v[b];
                        key->v[b] = key->v[b + 1];
                        key->v[b + 1] = t;
                    }
            key->at = 4 * i + f;
            across[4 * i + f] = -1;
        }
    qsort(keys, 4 * (size_t)n, sizeof *keys, compareFaceKeys);
    for (int k = 0; k + 1 < 4 * n; ++k) {
        bool same = memcmp(keys[k].v, keys[k + 1].v, sizeof keys[k].v) == 0;
        bool third = k + 2 < 4 * n && memcmp(keys[k].v, keys[k + 2].v, sizeof keys[k].v) == 0;
        if (!same) continue;
        if (!third) { // a face of exactly two tets (three or more: a broken mesh, left alone)
            across[keys[k].at] = keys[k + 1].at / 4;
            across[keys[k + 1].at] = keys[k].at / 4;
        }
        while (k + 1 < 4 * n && memcmp(keys[k].v, keys[k + 1].v, sizeof keys[k].v) == 0) ++k;
    }
    for (int i = 0; i < n; ++i) partner[i] = -1;
    for (int i = 0; i < n; ++i) {
        if (partner[i] >= 0) continue;
        int best = -1;
        for (int f = 0; f < 4; ++f) {
            int j = across[4 * i + f];
            if (j > i && partner[j] < 0 && (best < 0 || j < best)) best = j, face[i] = f;
        }
        if (best >= 0) partner[i] = best, partner[best] = i;
    }
    icFree(keys);
    icFree(across);
    return true;
}

// The lane orders of a pair's tets a (position apex opposite the shared face) and b: both start
// with the shared face in a's order, then their own vertex, so every pair runs on corners
// (s0, s1, s2, a's, b's) with the tets on corners 0 1 2 3 and 0 1 2 4.
static void pairOrders(const icModel *m, int a, int apex, int b, int *orderA, int *orderB,
                       int corner[5]) {
    const int *va = m->tets + 4 * (size_t)a, *vb = m->tets + 4 * (size_t)b;
    int pa[4], pb[4], c = 0, used = 0;
    for (int k = 0; k < 4; ++k)
        if (k != apex) pa[c++] = k;
    pa[3] = apex;
    for (int k = 0; k < 3; ++k)
        for (int q = 0; q < 4; ++q)
            if (vb[q] == va[pa[k]]) pb[k] = q, used |= 1 << q;
    for (int q = 0; q < 4; ++q)
        if (!(used & 1 << q)) pb[3] = q;
    *orderA = pa[0] | pa[1] << 2 | pa[2] << 4 | pa[3] << 6;
    *orderB = pb[0] | pb[1] << 2 | pb[2] << 4 | pb[3] << 6;
    for (int k = 0; k < 4; ++k) corner[k] = va[pa[k]];
    corner[4] = vb[pb[3]];
}

// Items of a pair chunk (positions into its tets): a pair (first, second) or a tet alone.
typedef struct icPairItem {
    int first, second, apex;
} icPairItem;

static int itemVertices(const icModel *m, const int *tets, icPairItem item, int v[8]) {
    int n = 0;
    for (int k = 0; k < 4; ++k) v[n++] = m->tets[4 * (size_t)tets[item.first] + k];
    if (item.second >= 0) v[n++] = m->tets[4 * (size_t)tets[item.second] + item.apex];
    return n;
}

// Colours sized for full vectors: a colour whose item count is not a multiple of the lanes
// leaves lanes of its last unit as padding. Greedy colours are first fit (an item of colour d
// meets every colour below d on its vertices), so no item can move down; instead each colour,
// in order, hands its remainder on: items (the last ones first) move to the first later colour,
// up to the last colour used, that none of their vertices is in. The padding gathers in the
// last colours. bits: the colours' vertex bits (updated).
static void fillColours(icBuild *B, const int *tets, const icPairItem *items, int n, int *colour,
                        int count[65]) {
    const int lanes = B->L->lanes;
    int last = -1;
    for (int c = 0; c < 64; ++c)
        if (count[c]) last = c;
    for (int c = 0; c < last; ++c) {
        int extra = count[c] % lanes;
        for (int i = n - 1; i >= 0 && extra > 0; --i) {
            if (colour[i] != c) continue;
            int v[8], nv = itemVertices(B->m, tets, items[i], v);
            uint64_t taken = 0;
            for (int k = 0; k < nv; ++k) taken |= B->bits[v[k]];
            uint64_t later = ~taken & ~(((uint64_t)2 << c) - 1) & (((uint64_t)2 << last) - 1);
            if (!later) continue;
            int d = __builtin_ctzll(later);
            // c's items share no vertex, so only this item set bit c on its vertices.
            for (int k = 0; k < nv; ++k)
                B->bits[v[k]] = (B->bits[v[k]] & ~((uint64_t)1 << c)) | (uint64_t)1 << d;
            colour[i] = d;
            count[c]--, count[d]++, extra--;
        }
    }
}

// Greedy colours of items[0..n) in order (colour 64: none was free), then filled to full
// vectors (fillColours); counts per colour.
static void colourItems(icBuild *B, const int *tets, const icPairItem *items, int n, int *colour,
                        int count[65]) {
    const icModel *m = B->m;
    for (int i = 0; i < n; ++i) {
        int v[8], nv = itemVertices(m, tets, items[i], v);
        uint64_t taken = 0;
        for (int k = 0; k < nv; ++k) taken |= B->bits[v[k]];
        int c = ~taken ? __builtin_ctzll(~taken) : 64;
        colour[i] = c;
        count[c]++;
        if (c < 64)
            for (int k = 0; k < nv; ++k) B->bits[v[k]] |= (uint64_t)1 << c;
    }
    fillColours(B, tets, items, n, colour, count);
    for (int i = 0; i < n; ++i) {
        int v[8], nv = itemVertices(m, tets, items[i], v);
        for (int k = 0; k < nv; ++k) B->bits[v[k]] = 0;
    }
}

static void pushUnitCorners(icBuild *B, const int corners[8][IC_XPBD_LANES], bool fast) {
    const int lanes = B->L->lanes;
    static const int pattern[2][4] = {{0, 1, 2, 3}, {0, 1, 2, 4}};
    for (int c = 0; c < 8; ++c)
        for (int l = 0; l < lanes; ++l)
            B->ok = B->ok && push(&B->cellCorners, fast ? corners[c][l] : -1);
    for (int s = 0; s < IC_XPBD_MAX_CELL_TETS; ++s)
        for (int k = 0; k < 4; ++k)
            B->ok = B->ok && push(&B->cellPattern, !fast ? -1 : s < 2 ? pattern[s][k] : 0);
}

// Tets tets[0..n) (Morton order) as one chunk of the pair scheme: pairs coloured greedily
// along the curve, a unit of `lanes` pairs of one colour being two blocks (the first tets,
// then the second ones) that the pair kernel runs on 5 corners per lane; then the tets left
// alone, coloured the same way into blocks; small colours to the chunk's overflow, lane by lane.
static void emitPairChunk(icBuild *B, const int *tets, int n, bool sharedColours) {
    const icModel *m = B->m;
    const int lanes = B->L->lanes;
    int *partner = IC_ALLOC(int, (size_t)n + 1), *face = IC_ALLOC(int, (size_t)n + 1);
    icPairItem *items = IC_ALLOC(icPairItem, (size_t)n + 1);
    int *colour = IC_ALLOC(int, (size_t)n + 1);
    if (!partner || !face || !items || !colour || !pairTets(m, tets, n, partner, face)) {
        B->ok = false;
        icFree(partner), icFree(face), icFree(items), icFree(colour);
        return;
    }
    int pairCount = 0, singleCount = 0;
    for (int i = 0; i < n; ++i)
        if (partner[i] > i) items[pairCount++] = (icPairItem){i, partner[i], -1};
    for (int i = 0; i < n; ++i)
        if (partner[i] < 0) items[pairCount + singleCount++] = (icPairItem){i, -1, -1};
    for (int i = 0; i < pairCount; ++i) { // the second tet's own vertex, for the colouring
        const int *va = m->tets + 4 * (size_t)tets[items[i].first],
                  *vb = m->tets + 4 * (size_t)tets[items[i].second];
        for (int q = 0; q < 4; ++q)
            if (vb[q] != va[0] && vb[q] != va[1] && vb[q] != va[2] && vb[q] != va[3])
                items[i].apex = q;
    }
    B->L->pairedTets += 2 * pairCount;
    int least = sharedColours ? IC_LAYOUT_MIN_PARALLEL_BLOCKS * lanes
                              : lanes / IC_LAYOUT_MIN_SERIAL_FRACTION;
    int pairColours[65] = {0}, singleColours[65] = {0};
    colourItems(B, tets, items, pairCount, colour, pairColours);
    colourItems(B, tets, items + pairCount, singleCount, colour + pairCount, singleColours);
    beginChunk(B);
    int corners[8][IC_XPBD_LANES];
    for (int kind = 0; kind < 2 && B->ok; ++kind) {
        const icPairItem *list = kind ? items + pairCount : items;
        const int *listColour = kind ? colour + pairCount : colour;
        int count = kind ? singleCount : pairCount, *perColour = kind ? singleColours : pairColours;
        for (int c = 0; c < 64 && B->ok; ++c) {
            if (perColour[c] < least || perColour[c] == 0) continue;
            B->ok = push(&B->colourUnits, B->unitBlocks.count);
            int group[IC_XPBD_LANES], inGroup = 0;
            for (int i = 0; i <= count && B->ok; ++i) {
                if (i < count && listColour[i] == c) group[inGroup++] = i;
                if (inGroup == 0 || (inGroup < lanes && i < count)) continue;
                B->ok = B->ok && push(&B->unitBlocks, blocksSoFar(B));
                if (kind == 1) { // tets alone: one block, the block kernel
                    for (int l = 0; l < lanes; ++l)
                        addSlot(B, l < inGroup ? tets[list[group[l]].first] : -1);
                    pushUnitCorners(B, corners, false);
                    inGroup = 0;
                    continue;
                }
                int orderA[IC_XPBD_LANES], orderB[IC_XPBD_LANES];
                for (int l = 0; l < lanes; ++l) {
                    int corner[5] = {-1, -1, -1, -1, -1};
                    if (l < inGroup) {
                        icPairItem it = list[group[l]];
                        pairOrders(m, tets[it.first], face[it.first], tets[it.second], &orderA[l],
                                   &orderB[l], corner);
                    }
                    for (int k = 0; k < 8; ++k) corners[k][l] = k < 5 ? corner[k] : -1;
                }
                for (int l = 0; l < lanes; ++l)
                    if (l < inGroup)
                        addOrderedSlot(B, tets[list[group[l]].first], orderA[l]);
                    else
                        addSlot(B, -1);
                for (int l = 0; l < lanes; ++l)
                    if (l < inGroup)
                        addOrderedSlot(B, tets[list[group[l]].second], orderB[l]);
                    else
                        addSlot(B, -1);
                pushUnitCorners(B, corners, true);
                inGroup = 0;
            }
            B->ok = B->ok && push(&B->colourEnd, blocksSoFar(B));
        }
    }
    B->ok = B->ok && push(&B->chunkOverflow, blocksSoFar(B));
    // Small colours in colour order, then colour 64, pairs before tets alone, lane by lane.
    for (int kind = 0; kind < 2 && B->ok; ++kind) {
        const icPairItem *list = kind ? items + pairCount : items;
        const int *listColour = kind ? colour + pairCount : colour;
        int count = kind ? singleCount : pairCount, *perColour = kind ? singleColours : pairColours;
        for (int c = 0; c <= 64; ++c) {
            if (perColour[c] == 0 || (c < 64 && perColour[c] >= least)) continue;
            for (int i = 0; i < count; ++i) {
                if (listColour[i] != c) continue;
                icPairItem it = list[i];
                if (it.second < 0) {
                    addSlot(B, tets[it.first]);
                    B->L->overflowTets++;
                    continue;
                }
                int orderA, orderB, corner[5];
                pairOrders(m, tets[it.first], face[it.first], tets[it.second], &orderA, &orderB,
                           corner);
                addOrderedSlot(B, tets[it.first], orderA);
                addOrderedSlot(B, tets[it.second], orderB);
                B->L->overflowTets += 2;
            }
        }
    }
    padBlock(B);
    icFree(partner), icFree(face), icFree(items), icFree(colour);
}

// Chunks share vertices only with neighbours: greedy phases (the same algorithm as the tet
// colours, one level up) make the chunks of a phase independent. Chunk c's tets are
// tetsOf(c); returns its phase, 64 when all 64 are taken (such chunks run one at a time).
static int chunkPhase(icBuild *B, const int *tets, int n) {
    const int *tv = B->m->tets;
    uint64_t taken = 0;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 4; ++k) taken |= B->bits[tv[4 * (size_t)tets[i] + k]];
    int phase = ~taken ? __builtin_ctzll(~taken) : 64;
    if (phase < 64)
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < 4; ++k) B->bits[tv[4 * (size_t)tets[i] + k]] |= (uint64_t)1 << phase;
    return phase;
}

// Chunks of seq[0..n): one for everything, or (chunked) a new one wherever the chunk key of
// the items (key[i], chunkOrder) changes; *starts gets the boundaries (count + 1).
static int cutChunks(const int *key, int n, int **starts) {
    icIntList list = {0};
    bool ok = push(&list, 0);
    for (int i = 1; i < n && ok; ++i)
        if (key && key[i] != key[i - 1]) ok = push(&list, i);
    ok = ok && (n == 0 || push(&list, n));
    *starts = list.data;
    return ok ? list.count - 1 : -1;
}

// Phases for chunks [starts[c], starts[c+1]) of seq, and the chunk order by phase (stable).
// expand(c) lists the chunk's tets into scratch.
static bool orderChunks(icBuild *B, int chunks, int *phaseOf, int *chunkOrder,
                        int (*expand)(const void *, int, int *), const void *context) {
    memset(B->bits, 0, sizeof(uint64_t) * (size_t)B->m->vertexCount);
    int phaseCount = 0;
    for (int c = 0; c < chunks; ++c) {
        int n = expand(context, c, B->colour);
        phaseOf[c] = chunks > 1 ? chunkPhase(B, B->colour, n) : 0;
        if (phaseOf[c] + 1 > phaseCount) phaseCount = phaseOf[c] + 1;
    }
    memset(B->bits, 0, sizeof(uint64_t) * (size_t)B->m->vertexCount);
    int k = 0;
    for (int p = 0; p < phaseCount && B->ok; ++p) {
        B->ok = push(&B->phaseChunks, k);
        for (int c = 0; c < chunks; ++c)
            if (phaseOf[c] == p) chunkOrder[k++] = c;
    }
    B->ok = B->ok && push(&B->phaseChunks, k);
    B->L->phaseCount = phaseCount;
    return B->ok;
}

typedef struct icTetChunks {
    const int *order, *starts;
} icTetChunks;

static int expandTetChunk(const void *context, int c, int *out) {
    const icTetChunks *tc = context;
    int n = tc->starts[c + 1] - tc->starts[c];
    memcpy(out, tc->order + tc->starts[c], sizeof(int) * (size_t)n);
    return n;
}

static icResult buildGreedy(icBuild *B, const int *order) {
    const icModel *m = B->m;
    icXpbdLayout *L = B->L;
    int *starts = NULL, *key = L->chunked ? IC_ALLOC(int, (size_t)m->tetCount + 1) : NULL;
    for (int i = 0; key && i < m->tetCount; ++i) key[i] = B->keyOfTet[order[i]];
    int chunks = L->chunked && !key ? -1 : cutChunks(key, m->tetCount, &starts);
    icFree(key);
    int *phaseOf = chunks > 0 ? IC_ALLOC(int, chunks) : NULL;
    int *chunkOrder = chunks > 0 ? IC_ALLOC(int, chunks) : NULL;
    B->ok = chunks >= 0 && (chunks == 0 || (phaseOf && chunkOrder));
    icTetChunks tc = {order, starts};
    if (B->ok && orderChunks(B, chunks, phaseOf, chunkOrder, expandTetChunk, &tc))
        for (int k = 0; k < chunks && B->ok; ++k) {
            int c = chunkOrder[k];
            if (L->pairs)
                emitPairChunk(B, order + starts[c], starts[c + 1] - starts[c], !L->chunked);
            else
                emitGreedyChunk(B, order + starts[c], starts[c + 1] - starts[c], !L->chunked);
        }
    icFree(starts);
    icFree(phaseOf);
    icFree(chunkOrder);
    return B->ok ? IC_OK : IC_ERR_OUT_OF_MEMORY;
}

typedef struct icCellChunks {
    const int *cellSeq, *starts, *first, *byCell;
} icCellChunks;

static int expandCellChunk(const void *context, int c, int *out) {
    const icCellChunks *cc = context;
    int n = 0;
    for (int s = cc->starts[c]; s < cc->starts[c + 1]; ++s) {
        int cell = cc->cellSeq[s];
        for (int e = cc->first[cell]; e < cc->first[cell + 1]; ++e) out[n++] = cc->byCell[e];
    }
    return n;
}

// The cell scheme needs every tet in a cell of its body's grid, and no vertex shared by two
// cells of one parity colour; IC_ERR_UNSUPPORTED otherwise (the caller goes greedy).
static icResult buildCells(icBuild *B, const int *order) {
    const icModel *m = B->m;
    icXpbdLayout *L = B->L;
    const int n = m->tetCount;
    int64_t cells = 0;
    int *cellOffset = IC_ALLOC(int, (size_t)m->bodyCount + 1);
    if (!cellOffset) return IC_ERR_OUT_OF_MEMORY;
    for (int b = 0; b < m->bodyCount; ++b) {
        const int *cc = m->bodies[b].cellCounts;
        cellOffset[b] = (int)cells;
        cells += (int64_t)cc[0] * cc[1] * cc[2];
        if (cc[0] <= 0 || cc[1] <= 0 || cc[2] <= 0 || cells > INT32_MAX / 2) {
            icFree(cellOffset);
            return IC_ERR_UNSUPPORTED;
        }
    }
    for (int t = 0; t < n; ++t) {
        const int *cc = m->bodies[m->tetBody[t]].cellCounts;
        if (m->tetCell[t] < 0 || m->tetCell[t] >= cc[0] * cc[1] * cc[2]) {
            icFree(cellOffset);
            return IC_ERR_UNSUPPORTED;
        }
    }
    const int nc = (int)cells;
    icResult result = IC_ERR_OUT_OF_MEMORY;
    int *first = IC_ALLOC_ZERO(int, (size_t)nc + 1); // tets of cell c: byCell[first[c] .. first[c+1])
    int *fill = IC_ALLOC(int, (size_t)nc + 1);
    int *byCell = IC_ALLOC(int, (size_t)n + 1);
    int *cellSeq = IC_ALLOC(int, (size_t)nc + 1); // occupied cells in order of first use
    int *cellKey = IC_ALLOC(int, (size_t)nc + 1);  // their chunk keys (of the first tet used)
    unsigned char *parity = IC_ALLOC_ZERO(unsigned char, (size_t)nc + 1);
    int *starts = NULL, *phaseOf = NULL, *chunkOrder = NULL;
    if (!first || !fill || !byCell || !cellSeq || !cellKey || !parity) goto done;
#define IC_CELL_OF(t) (cellOffset[m->tetBody[t]] + m->tetCell[t])
    for (int t = 0; t < n; ++t) ++first[IC_CELL_OF(t) + 1];
    for (int c = 0; c < nc; ++c) first[c + 1] += first[c];
    memcpy(fill, first, sizeof(int) * ((size_t)nc + 1));
    for (int t = 0; t < n; ++t) byCell[fill[IC_CELL_OF(t)]++] = t;
    int occupied = 0;
    for (int c = 0; c < nc; ++c) fill[c] = 0;
    for (int i = 0; i < n; ++i) {
        int c = IC_CELL_OF(order[i]);
        if (fill[c]) continue;
        fill[c] = 1;
        cellKey[occupied] = B->keyOfTet ? B->keyOfTet[order[i]] : 0;
        cellSeq[occupied++] = c;
    }
#undef IC_CELL_OF
    for (int b = 0; b < m->bodyCount; ++b) {
        const int *cc = m->bodies[b].cellCounts;
        int total = cc[0] * cc[1] * cc[2];
        for (int c = 0; c < total; ++c) {
            int i = c % cc[0], j = (c / cc[0]) % cc[1], k = c / (cc[0] * cc[1]);
            parity[cellOffset[b] + c] = (unsigned char)((i & 1) + 2 * (j & 1) + 4 * (k & 1));
        }
    }
    // Within a colour no vertex may belong to two cells: colour bits per vertex, and the
    // last cell that touched it (B->colour) within the current colour's pass.
    memset(B->bits, 0, sizeof(uint64_t) * (size_t)m->vertexCount);
    bool shared = false;
    for (int col = 0; col < 8 && !shared; ++col)
        for (int s = 0; s < occupied && !shared; ++s) {
            int c = cellSeq[s];
            if (parity[c] != col) continue;
            for (int e = first[c]; e < first[c + 1] && !shared; ++e)
                for (int k = 0; k < 4; ++k) {
                    int v = m->tets[4 * (size_t)byCell[e] + k];
                    uint64_t bit = (uint64_t)1 << col;
                    if ((B->bits[v] & bit) && B->colour[v] != c) shared = true;
                    B->bits[v] |= bit;
                    B->colour[v] = c;
                }
        }
    memset(B->bits, 0, sizeof(uint64_t) * (size_t)m->vertexCount);
    if (shared) {
        result = IC_ERR_UNSUPPORTED;
        goto done;
    }
    int chunks = cutChunks(L->chunked ? cellKey : NULL, occupied, &starts);
    phaseOf = chunks > 0 ? IC_ALLOC(int, chunks) : NULL;
    chunkOrder = chunks > 0 ? IC_ALLOC(int, chunks) : NULL;
    B->ok = chunks >= 0 && (chunks == 0 || (phaseOf && chunkOrder));
    icCellChunks cc = {cellSeq, starts, first, byCell};
    if (B->ok && orderChunks(B, chunks, phaseOf, chunkOrder, expandCellChunk, &cc))
        for (int k = 0; k < chunks && B->ok; ++k) {
            int c = chunkOrder[k];
            emitCellChunk(B, cellSeq + starts[c], starts[c + 1] - starts[c], first, byCell, parity);
        }
    result = B->ok ? IC_OK : IC_ERR_OUT_OF_MEMORY;
done:
    icFree(cellOffset);
    icFree(first);
    icFree(fill);
    icFree(byCell);
    icFree(cellSeq);
    icFree(cellKey);
    icFree(parity);
    icFree(starts);
    icFree(phaseOf);
    icFree(chunkOrder);
    return result;
}

static void storeRow(icXpbdLayout *L, char *record, int row, int lane, icReal value) {
    char *rows = record + 4 * sizeof(unsigned) * (size_t)L->lanes;
    size_t at = (size_t)row * L->lanes + lane;
    if (L->precision == IC_PRECISION_FLOAT)
        ((float *)rows)[at] = (float)value;
    else
        ((double *)rows)[at] = value;
}

// Lane `lane` of block b gets tet t (or padding for t < 0: the block's dummy vertex, all zero
// constants, which the kernel leaves alone: its denominators are zero), its vertices in the
// lane order `order` (IC_LAYOUT_SAME_ORDER, or the pair scheme's; the constraints do not
// depend on the order, Q = Dm^-1 is that order's).
static void fillLane(icXpbdLayout *L, const icModel *m, int b, int lane, int t, int dummy,
                     int order) {
    char *record = L->blocks + (size_t)b * L->blockBytes;
    unsigned *offset = (unsigned *)record, recordBytes = (unsigned)(4 * L->real);
    if (t < 0) {
        for (int i = 0; i < 4; ++i) offset[i * L->lanes + lane] = (unsigned)dummy * recordBytes;
        return;
    }
    int vertex[4];
    for (int i = 0; i < 4; ++i) {
        vertex[i] = m->tets[4 * (size_t)t + (order >> (2 * i) & 3)];
        offset[i * L->lanes + lane] = (unsigned)L->packedOfVertex[vertex[i]] * recordBytes;
    }
    icMat3 reordered;
    const icMat3 *Q = &m->invRest[t];
    if (order != IC_LAYOUT_SAME_ORDER) { // as the model's initTet, for this vertex order
        icVec3 x3 = icVec3_Load(m->restPositions, vertex[3]);
        icMat3 Dm = icMat3_FromCols(icVec3_Sub(icVec3_Load(m->restPositions, vertex[0]), x3),
                                    icVec3_Sub(icVec3_Load(m->restPositions, vertex[1]), x3),
                                    icVec3_Sub(icVec3_Load(m->restPositions, vertex[2]), x3));
        bool ok;
        reordered = icMat3_Inverse(Dm, &ok);
        Q = &reordered;
    }
    const icReal *col[3] = {&Q->col[0].x, &Q->col[1].x, &Q->col[2].x}; // Q_jk = col[k][j]
    if (L->precision == IC_PRECISION_DOUBLE) { // Q itself (the reference's arithmetic)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) storeRow(L, record, IC_XPBD_ROW_Q + 3 * j + k, lane, col[k][j]);
        storeRow(L, record, IC_XPBD_ROW_F_DET_Q, lane, icMat3_Det(*Q));
        if (!L->uniform) {
            storeRow(L, record, IC_XPBD_ROW_F_ALPHA_D, lane, m->alphaD[t]);
            storeRow(L, record, IC_XPBD_ROW_F_ALPHA_H, lane, m->alphaH[t]);
            storeRow(L, record, IC_XPBD_ROW_F_GAMMA, lane, m->gamma[t]);
        }
        return;
    }
    // N = Q Q^T and det Q (xpbd/kernel_body.h), in double before rounding.
    static const int rowOf[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};
    for (int j = 0; j < 3; ++j)
        for (int k = j; k < 3; ++k) {
            icReal n = col[0][j] * col[0][k] + col[1][j] * col[1][k] + col[2][j] * col[2][k];
            storeRow(L, record, IC_XPBD_ROW_N + rowOf[j][k], lane, n);
        }
    storeRow(L, record, IC_XPBD_ROW_DET_Q, lane, icMat3_Det(*Q));
    if (!L->uniform) {
        storeRow(L, record, IC_XPBD_ROW_ALPHA_D, lane, m->alphaD[t]);
        storeRow(L, record, IC_XPBD_ROW_ALPHA_H, lane, m->alphaH[t]);
        storeRow(L, record, IC_XPBD_ROW_GAMMA, lane, m->gamma[t]);
    }
}

// Vertices numbered by first use along the lanes, so a chunk's vertices are contiguous;
// unused vertices after them; then one dummy per block with padding lanes, which point at it
// (a dummy per block, so that workers never write the same dummy at the same time).
static bool renumberVertices(icXpbdLayout *L, const icModel *m, int **blockDummy) {
    const int nv = m->vertexCount;
    int padded = 0;
    *blockDummy = IC_ALLOC(int, (size_t)L->blockCount + 1);
    if (!*blockDummy) return false;
    for (int b = 0; b < L->blockCount; ++b) {
        (*blockDummy)[b] = -1;
        for (int l = 0; l < L->lanes; ++l)
            if (L->tetOfLane[(size_t)b * L->lanes + l] < 0) {
                (*blockDummy)[b] = nv + padded++;
                break;
            }
    }
    L->vertexCount = nv + padded;
    L->packedOfVertex = nv ? IC_ALLOC(int, nv) : NULL;
    L->vertexOfPacked = IC_ALLOC(int, (size_t)L->vertexCount + 1);
    if ((nv && !L->packedOfVertex) || !L->vertexOfPacked) return false;
    for (int v = 0; v < nv; ++v) L->packedOfVertex[v] = -1;
    int next = 0;
    for (size_t i = 0; i < (size_t)L->blockCount * L->lanes; ++i) {
        int t = L->tetOfLane[i];
        if (t < 0) continue;
        for (int k = 0; k < 4; ++k) {
            int v = m->tets[4 * (size_t)t + k];
            if (L->packedOfVertex[v] < 0) L->packedOfVertex[v] = next++;
        }
    }
    for (int v = 0; v < nv; ++v)
        if (L->packedOfVertex[v] < 0) L->packedOfVertex[v] = next++;
    for (int v = 0; v < nv; ++v) L->vertexOfPacked[L->packedOfVertex[v]] = v;
    for (int d = nv; d < L->vertexCount; ++d) L->vertexOfPacked[d] = -1;
    return true;
}

// One material for every tet (the common case): compliances follow from det Q.
static void findUniformMaterial(icXpbdLayout *L, const icModel *m) {
    L->uniform = m->bodyCount > 0 && m->tetCount > 0;
    for (int b = 1; b < m->bodyCount && L->uniform; ++b)
        L->uniform = m->bodies[b].mu == m->bodies[0].mu && m->bodies[b].lambda == m->bodies[0].lambda;
    for (int t = 1; t < m->tetCount && L->uniform; ++t) L->uniform = m->gamma[t] == m->gamma[0];
    if (!L->uniform) return;
    L->sixOverMu = 6.0 / m->bodies[0].mu;
    L->sixOverLambda = isfinite(m->bodies[0].lambda) ? 6.0 / m->bodies[0].lambda : 0.0;
    L->gamma = m->gamma[0];
}

static void freeStructure(icXpbdLayout *L) {
    icFree(L->tetOfLane);
    icFree(L->phaseChunks);
    icFree(L->chunkColours);
    icFree(L->chunkOverflow);
    icFree(L->chunkBlocks);
    icFree(L->colourUnits);
    icFree(L->colourEnd);
    icFree(L->unitBlocks);
    icFree(L->cellCorners);
    icFree(L->cellPattern);
    icFree(L->unitFast);
    icFree(L->unitConstBlocks);
    L->unitConstBlocks = NULL;
    L->sharedUnits = 0;
    L->cellCorners = NULL;
    L->cellPattern = L->unitFast = NULL;
    L->colourEnd = NULL;
    L->tetOfLane = L->phaseChunks = L->chunkColours = L->chunkOverflow = L->chunkBlocks = NULL;
    L->colourUnits = L->unitBlocks = NULL;
    L->blockCount = L->phaseCount = L->chunkCount = L->colourCount = L->unitCount = 0;
    L->overflowTets = L->paddingLanes = L->pairedTets = 0;
}

// Moves the builder's lists into the layout (with their end sentinels).
static bool adopt(icXpbdLayout *L, icBuild *B) {
    B->ok = B->ok && push(&B->chunkColours, B->colourUnits.count) && push(&B->chunkBlocks, blocksSoFar(B)) &&
            push(&B->colourUnits, B->unitBlocks.count) && push(&B->unitBlocks, blocksSoFar(B)) &&
            push(&B->chunkOverflow, blocksSoFar(B));
    L->tetOfLane = B->slots.data;
    L->blockCount = blocksSoFar(B);
    L->phaseChunks = B->phaseChunks.data;
    L->chunkColours = B->chunkColours.data;
    L->chunkCount = B->chunkColours.count - 1;
    L->chunkOverflow = B->chunkOverflow.data;
    L->chunkBlocks = B->chunkBlocks.data;
    L->colourUnits = B->colourUnits.data;
    L->colourCount = B->colourUnits.count - 1;
    L->colourEnd = B->colourEnd.data;
    L->unitBlocks = B->unitBlocks.data;
    L->unitCount = B->unitBlocks.count - 1;
    if (B->cellCorners.count > 0) { // model vertices now; offsets once vertices are renumbered
        L->cellCorners = (unsigned *)B->cellCorners.data;
        L->unitFast = IC_ALLOC(unsigned char, (size_t)L->unitCount + 1);
        L->cellPattern = IC_ALLOC(unsigned char, (size_t)L->unitCount * IC_XPBD_MAX_CELL_TETS * 4 + 1);
        if (!L->unitFast || !L->cellPattern) B->ok = false;
        for (int u = 0; u < L->unitCount && B->ok; ++u) {
            const int *pattern = B->cellPattern.data + (size_t)u * IC_XPBD_MAX_CELL_TETS * 4;
            L->unitFast[u] = pattern[0] >= 0;
            for (int i = 0; i < IC_XPBD_MAX_CELL_TETS * 4; ++i)
                L->cellPattern[(size_t)u * IC_XPBD_MAX_CELL_TETS * 4 + i] = (unsigned char)(pattern[i] < 0 ? 0 : pattern[i]);
        }
        memset(&B->cellCorners, 0, sizeof B->cellCorners);
    }
    memset(&B->slots, 0, sizeof B->slots);
    memset(&B->phaseChunks, 0, sizeof B->phaseChunks);
    memset(&B->chunkColours, 0, sizeof B->chunkColours);
    memset(&B->chunkOverflow, 0, sizeof B->chunkOverflow);
    memset(&B->chunkBlocks, 0, sizeof B->chunkBlocks);
    memset(&B->colourUnits, 0, sizeof B->colourUnits);
    memset(&B->colourEnd, 0, sizeof B->colourEnd);
    memset(&B->unitBlocks, 0, sizeof B->unitBlocks);
    for (int i = 0; i < L->blockCount * L->lanes; ++i) L->paddingLanes += L->tetOfLane[i] < 0;
    return B->ok;
}

static void freeBuild(icBuild *B) {
    icFree(B->slots.data);
    icFree(B->phaseChunks.data);
    icFree(B->chunkColours.data);
    icFree(B->chunkOverflow.data);
    icFree(B->chunkBlocks.data);
    icFree(B->colourUnits.data);
    icFree(B->colourEnd.data);
    icFree(B->unitBlocks.data);
    icFree(B->cellCorners.data);
    icFree(B->cellPattern.data);
    icFree(B->slotOrder.data);
    icFree(B->bits);
    icFree(B->colour);
}

// Float positions are relative to the vertex nearest the centre of the body's rest box:
// the shortest distances, so the finest rounding over the body.
static void findOrigins(icXpbdLayout *L, const icModel *m) {
    for (int b = 0; b < m->bodyCount; ++b) {
        const icBodyRecord *body = &m->bodies[b];
        icVec3 lo = icVec3_Load(m->restPositions, body->vertexStart), hi = lo;
        for (int v = body->vertexStart; v < body->vertexStart + body->vertexCount; ++v) {
            lo = icVec3_Min(lo, icVec3_Load(m->restPositions, v));
            hi = icVec3_Max(hi, icVec3_Load(m->restPositions, v));
        }
        icVec3 centre = icVec3_Scale(0.5, icVec3_Add(lo, hi));
        icReal best = INFINITY;
        L->originVertex[b] = body->vertexStart;
        for (int v = body->vertexStart; v < body->vertexStart + body->vertexCount; ++v) {
            icReal d = icVec3_LengthSquared(icVec3_Sub(icVec3_Load(m->restPositions, v), centre));
            if (d < best) best = d, L->originVertex[b] = v;
        }
    }
}

static void *allocReals(const icXpbdLayout *L, size_t count) { return icAllocZero(count * L->real); }

// The cells of a regular hex grid all have one shape, so unit after unit the blocks' constant
// rows are the same bytes. Such a unit reads the rows of the first unit that had them (in cache)
// instead of streaming its own: at 1M tets the rows are most of what a sweep reads from memory.
// The numbers read are the same, so the results are the same bits.
static bool shareCellConstants(icXpbdLayout *L) {
    L->unitConstBlocks = IC_ALLOC(int, (size_t)L->unitCount + 1);
    if (!L->unitConstBlocks) return false;
    enum { IC_SHARED_CANDIDATES = 64 };
    int candidate[IC_SHARED_CANDIDATES];
    uint64_t candidateHash[IC_SHARED_CANDIDATES];
    int candidates = 0;
    const size_t offsetBytes = 4 * sizeof(unsigned) * (size_t)L->lanes;
    const size_t rowBytes = L->blockBytes - offsetBytes;
    for (int u = 0; u < L->unitCount; ++u) {
        int first = L->unitBlocks[u], slots = L->unitBlocks[u + 1] - first;
        L->unitConstBlocks[u] = first;
        if (!L->unitFast[u]) continue;
        uint64_t h = icHash_Word(0, (uint64_t)slots);
        for (int s = 0; s < slots; ++s) {
            const char *rows = L->blocks + (size_t)(first + s) * L->blockBytes + offsetBytes;
            for (size_t i = 0; i + sizeof(uint64_t) <= rowBytes; i += sizeof(uint64_t)) {
                uint64_t word;
                memcpy(&word, rows + i, sizeof word);
                h = icHash_Word(h, word);
            }
        }
        int match = -1;
        for (int c = 0; c < candidates && match < 0; ++c) {
            int other = candidate[c], otherFirst = L->unitBlocks[other];
            if (candidateHash[c] != h || L->unitBlocks[other + 1] - otherFirst != slots) continue;
            bool same = true;
            for (int s = 0; s < slots && same; ++s)
                same = memcmp(L->blocks + (size_t)(first + s) * L->blockBytes + offsetBytes,
                              L->blocks + (size_t)(otherFirst + s) * L->blockBytes + offsetBytes, rowBytes) == 0;
            if (same) match = other;
        }
        if (match >= 0) {
            L->unitConstBlocks[u] = L->unitBlocks[match];
            L->sharedUnits++;
        } else if (candidates < IC_SHARED_CANDIDATES) {
            candidate[candidates] = u;
            candidateHash[candidates++] = h;
        }
    }
    return true;
}

icXpbdCells icXpbdLayout_Cells(const icXpbdLayout *L) {
    return (icXpbdCells){L->pairs ? 5 : 8, L->cellCorners, L->cellPattern, L->unitBlocks,
                         L->unitConstBlocks};
}

icXpbdKernelArgs icXpbdLayout_KernelArgs(const icXpbdLayout *L) {
    icXpbdKernelArgs a = {0};
    a.blocks = L->blocks;
    a.blockBytes = L->blockBytes;
    a.x = L->x;
    a.wAxes = L->wAxes;
    a.xPrev = L->xPrev;
    a.beta = L->beta;
    a.lambda = L->lambda;
    a.uniform = L->uniform;
    a.sixOverMu = L->sixOverMu;
    a.sixOverLambda = L->sixOverLambda;
    a.gamma = L->gamma;
    return a;
}

icResult icXpbdLayout_Create(const icModel *m, icXpbdLayout **out) {
    *out = NULL;
    icXpbdLayout *L = IC_ALLOC_ZERO(icXpbdLayout, 1);
    if (!L) return IC_ERR_OUT_OF_MEMORY;
    L->precision = m->def.precision;
    L->scheme = m->def.colouring;
    L->pairs = L->scheme == IC_COLOURING_PAIRS;
    L->lanes = IC_XPBD_LANES;
    L->real = L->precision == IC_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
    L->modelVertexCount = m->vertexCount;
    L->modelTetCount = m->tetCount;
    L->modelBodyCount = m->bodyCount;
    L->sweepsLeft = -1;
    L->chunked = m->tetCount > IC_LAYOUT_CHUNKED_ABOVE;
    // The cell scheme's 8 colours are large enough to share at these sizes.
    bool small = !L->chunked && m->tetCount > IC_LAYOUT_SMALL_SLABS_ABOVE && L->scheme != IC_COLOURING_CELL;
    findUniformMaterial(L, m);
    if (L->precision == IC_PRECISION_DOUBLE)
        L->rows = L->uniform ? IC_XPBD_ROWS_F_UNIFORM : IC_XPBD_ROWS_F;
    else
        L->rows = L->uniform ? IC_XPBD_ROWS_UNIFORM : IC_XPBD_ROWS;
    // Blocks hold 32-bit byte offsets of vertex records (and dummies: at most one per tet).
    if ((uint64_t)(m->vertexCount + m->tetCount + 1) * 4 * L->real > UINT32_MAX) {
        icXpbdLayout_Destroy(L);
        return IC_ERR_UNSUPPORTED;
    }
    icBuild B = {0};
    B.L = L;
    B.m = m;
    B.ok = true;
    B.bits = IC_ALLOC_ZERO(uint64_t, (size_t)m->vertexCount + 1);
    B.colour = IC_ALLOC(int, (size_t)(m->tetCount > m->vertexCount ? m->tetCount : m->vertexCount) + 1);
    icResult r = IC_ERR_OUT_OF_MEMORY;
    int *order = m->tetCount ? IC_ALLOC(int, m->tetCount) : NULL, *blockDummy = NULL, *keyOfTet = NULL;
    if ((m->tetCount && !order) || !B.bits || !B.colour || !mortonOrder(m, order)) goto fail;
    if (L->chunked || small) {
        bool sliced = true;
        keyOfTet = IC_ALLOC(int, (size_t)m->tetCount);
        if (!keyOfTet || !chunkOrder(m, order, keyOfTet, small, &sliced)) goto fail;
        if (small && !sliced) { // back to the Morton order, one chunk
            icFree(keyOfTet);
            keyOfTet = NULL;
            if (!mortonOrder(m, order)) goto fail;
        }
        L->chunked = keyOfTet != NULL;
        B.keyOfTet = keyOfTet;
    }
    r = IC_ERR_UNSUPPORTED;
    if (L->scheme == IC_COLOURING_CELL && m->tetCount > 0) {
        r = buildCells(&B, order);
        L->cells = r == IC_OK;
        if (r == IC_ERR_UNSUPPORTED) { // start again, greedy
            icXpbdLayout *keep = B.L;
            freeBuild(&B);
            B = (icBuild){0};
            B.L = keep;
            B.m = m;
            B.keyOfTet = keyOfTet;
            B.ok = true;
            B.bits = IC_ALLOC_ZERO(uint64_t, (size_t)m->vertexCount + 1);
            B.colour = IC_ALLOC(int, (size_t)(m->tetCount > m->vertexCount ? m->tetCount : m->vertexCount) + 1);
            if (!B.bits || !B.colour) r = IC_ERR_OUT_OF_MEMORY;
        }
    }
    if (r == IC_ERR_UNSUPPORTED) r = buildGreedy(&B, order);
    if (r != IC_OK || !adopt(L, &B) || !renumberVertices(L, m, &blockDummy)) goto fail;
    r = IC_ERR_OUT_OF_MEMORY;
    L->blockBytes = 4 * sizeof(unsigned) * (size_t)L->lanes + (size_t)L->rows * L->real * (size_t)L->lanes;
    L->blocks = L->blockCount ? icAllocZero(L->blockBytes * (size_t)L->blockCount) : NULL;
    if (L->blockCount && !L->blocks) goto fail;
    for (int b = 0; b < L->blockCount; ++b)
        for (int l = 0; l < L->lanes; ++l)
            fillLane(L, m, b, l, L->tetOfLane[(size_t)b * L->lanes + l], blockDummy[b],
                     B.slotOrder.count ? B.slotOrder.data[(size_t)b * L->lanes + l]
                                       : IC_LAYOUT_SAME_ORDER);
    if (L->cellCorners) { // padding lanes of a unit with a shared pattern: its first block's dummy
        unsigned recordBytes = (unsigned)(4 * L->real);
        int *corners = (int *)L->cellCorners;
        for (int u = 0; u < L->unitCount; ++u)
            for (int i = 0; i < 8 * L->lanes; ++i) {
                size_t at = (size_t)u * 8 * L->lanes + i;
                int v = corners[at] >= 0 ? L->packedOfVertex[corners[at]] : blockDummy[L->unitBlocks[u]];
                L->cellCorners[at] = (unsigned)(v >= 0 ? v : 0) * recordBytes;
            }
        if (!shareCellConstants(L)) goto fail;
    }

    bool damped = false;
    for (int t = 0; t < m->tetCount && !damped; ++t) damped = m->damping[t] > 0;
    size_t lanes = (size_t)L->blockCount * L->lanes;
    L->x = allocReals(L, 4 * (size_t)L->vertexCount);
    L->lambda = lanes ? allocReals(L, 2 * lanes) : NULL;
    L->origin = IC_ALLOC_ZERO(icReal, 3 * (size_t)m->bodyCount + 3);
    L->originNext = IC_ALLOC_ZERO(icReal, 3 * (size_t)m->bodyCount + 3);
    L->originVertex = IC_ALLOC_ZERO(int, (size_t)m->bodyCount + 1);
    if (!L->x || (lanes && !L->lambda) || !L->origin || !L->originNext || !L->originVertex) goto fail;
    findOrigins(L, m);
    if (damped) {
        L->xPrev = allocReals(L, 4 * (size_t)L->vertexCount);
        L->beta = lanes ? allocReals(L, lanes) : NULL;
        if (!L->xPrev || (lanes && !L->beta)) goto fail;
        for (size_t i = 0; i < lanes; ++i) {
            int t = L->tetOfLane[i];
            icReal beta = t >= 0 ? m->damping[t] : 0;
            if (L->precision == IC_PRECISION_FLOAT)
                ((float *)L->beta)[i] = (float)beta;
            else
                ((double *)L->beta)[i] = beta;
        }
    }
    L->bytes = sizeof *L + sizeof(int) * ((size_t)m->vertexCount + (size_t)L->vertexCount) +
               L->blockBytes * (size_t)L->blockCount + sizeof(int) * lanes +
               sizeof(int) * ((size_t)L->phaseCount + 3 * (size_t)L->chunkCount + L->colourCount + L->unitCount + 6) +
               L->real * (4 * (size_t)L->vertexCount * (damped ? 2 : 1) + lanes * (damped ? 3 : 2)) +
               sizeof(icReal) * 6 * (size_t)m->bodyCount +
               (L->cellCorners ? (size_t)L->unitCount * (8 * sizeof(unsigned) * L->lanes + IC_XPBD_MAX_CELL_TETS * 4 + 1 + sizeof(int)) : 0);
    freeBuild(&B);
    icFree(order);
    icFree(keyOfTet);
    icFree(blockDummy);
    *out = L;
    return IC_OK;
fail:
    freeBuild(&B);
    icFree(order);
    icFree(keyOfTet);
    icFree(blockDummy);
    icXpbdLayout_Destroy(L);
    return r == IC_OK ? IC_ERR_OUT_OF_MEMORY : r;
}

void icXpbdLayout_Destroy(icXpbdLayout *L) {
    if (!L) return;
    icFree(L->packedOfVertex);
    icFree(L->vertexOfPacked);
    freeStructure(L);
    icFree(L->blocks);
    icFree(L->x);
    icFree(L->wAxes);
    icFree(L->xPrev);
    icFree(L->lambda);
    icFree(L->beta);
    icFree(L->origin);
    icFree(L->originNext);
    icFree(L->originVertex);
    icFree(L);
}

bool icXpbdLayout_Matches(const icXpbdLayout *L, const icModel *m) {
    return L && L->precision == m->def.precision && L->scheme == m->def.colouring &&
           L->modelVertexCount == m->vertexCount && L->modelTetCount == m->tetCount &&
           L->modelBodyCount == m->bodyCount;
}
