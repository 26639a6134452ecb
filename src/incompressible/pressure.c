// SPDX-License-Identifier: MIT
// The pressure systems J Pi M^-1 J^T phat = rhs and the two projections built on them:
// positions with the volume-recovery clamp (eq. 1) and divergence-free velocities (eq. 2)
// (Irving et al. 2007, secs. 2-4).
#include "core/core.h"
#include "core/pool.h"
#include "incompressible/pressure_internal.h"
#include "isochor/incompressible.h"

#include <limits.h>
#include <math.h>
#include <string.h>

// The operators' AVX2 kernels, compiled for that target whatever -march and picked at run time.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define IC_PRESSURE_AVX2 1
#include "math/transpose4.h"
#endif

// Vertices (or tets) per range of the parallel loops (small systems stay on one thread: their
// operators are too short to share on a busy machine); tets per entry of blockFirst/Last; vertices
// whose rings the divergence walks side by side (ringSumTask).
enum { IC_PRESSURE_MIN_RANGE = 2048, IC_PRESSURE_TET_BLOCK = 32, IC_PRESSURE_RING_LANES = 4 };

struct icPressureSystem {
    int n, tetCount;
    int *tets;            ///< (tetCount x 4)
    icReal *invMass;      ///< (n x 3)
    int *ringStart;       ///< (n + 1) vertex -> tets
    int *ringTets;        ///< (4 tetCount)
    icReal *g;            ///< (tetCount x 12) at the last Setup
    icReal *diag;         ///< (n) unprojected A_kk
    icReal *scale;        ///< (n) MINRES scaling: diag^-1/2 (or 1), 0 on inactive rows
    icReal *invDiag;      ///< (n) CG preconditioner, 0 on inactive rows
    icReal *u;            ///< (n x 3) scratch
    icReal *masked;       ///< (n) scratch: the gradient's input, zero on inactive rows
    icReal *wide;         ///< (n x 4) the gradient's sums, one 4-double record a vertex (AVX2)
    bool useWide;         ///< the AVX2 kernel runs (wide allocated, not turned off)
    icReal *rhs;          ///< (n) scratch
    icReal *tetValue;     ///< (tetCount + 1) the divergence's per-tet sums; the last stays 0
    int *laneStart;       ///< (groups + 1) where each group of IC_PRESSURE_RING_LANES vertices
                          ///< starts in laneTets
    int *laneTets;        ///< each group's rings side by side, entry i of every lane in turn,
                          ///< padded to the longest with tetCount (whose value is 0)
    icReal *work;         ///< (9n) Krylov scratch
    int *blockFirst;      ///< (tet blocks) smallest vertex of each block of 32 tets
    int *blockLast;       ///< (tet blocks) largest
    icVec3 *acc;          ///< (n x workers) diagonal scratch, one set per worker
    int *mark;            ///< (n x workers)
    int scratchSets;      ///< worker sets in acc and mark
    const icConstraintSet *constraints; ///< of the solve in progress
    int sweeps;
    icPool *pool;         ///< workers of the operators (NULL: serial)
    const icReal *tetX;   ///< positions of the Setup in progress
};

icPressureDef icDefaultPressureDef(void) {
    icPressureDef d;
    d.solver = IC_PRESSURE_MINRES;
    d.tolerance = 0.01;
    d.absoluteTolerance = 1e-10;
    d.maxIterations = 200;
    d.jacobi = true;
    d.sweeps = 4;
    return d;
}

void icDestroyPressureSystem(icPressureSystem *s) {
    if (!s) return;
    icFree(s->tets);
    icFree(s->invMass);
    icFree(s->ringStart);
    icFree(s->ringTets);
    icFree(s->g);
    icFree(s->diag);
    icFree(s->scale);
    icFree(s->invDiag);
    icFree(s->u);
    icFree(s->masked);
    icFree(s->wide);
    icFree(s->rhs);
    icFree(s->tetValue);
    icFree(s->laneStart);
    icFree(s->laneTets);
    icFree(s->work);
    icFree(s->blockFirst);
    icFree(s->blockLast);
    icFree(s->acc);
    icFree(s->mark);
    icFree(s);
}

icPressureSystem *icCreatePressureSystem(int vertexCount, const int *tets, int tetCount,
                                         const icReal *invMass) {
    // The rings' padded layout holds at most 16 tetCount entries (four lanes, each padded to the
    // longest of four rings), indexed by int.
    if (vertexCount <= 0 || tetCount <= 0 || tetCount > INT_MAX / 16) return NULL;
    for (int i = 0; i < 4 * tetCount; ++i)
        if (tets[i] < 0 || tets[i] >= vertexCount) return NULL;
    icPressureSystem *s = IC_ALLOC_ZERO(icPressureSystem, 1);
    if (!s) return NULL;
    size_t n = (size_t)vertexCount, T = (size_t)tetCount;
    s->n = vertexCount;
    s->tetCount = tetCount;
    s->tets = IC_ALLOC(int, 4 * T);
    s->invMass = IC_ALLOC(icReal, 3 * n);
    s->ringStart = IC_ALLOC_ZERO(int, n + 1);
    s->ringTets = IC_ALLOC(int, 4 * T);
    s->g = IC_ALLOC_ZERO(icReal, 12 * T + 1); // + 1: the wide kernels' last 4-double load
    s->diag = IC_ALLOC_ZERO(icReal, n);
    s->scale = IC_ALLOC_ZERO(icReal, n);
    s->invDiag = IC_ALLOC_ZERO(icReal, n);
    s->u = IC_ALLOC(icReal, 3 * n);
    s->masked = IC_ALLOC(icReal, n);
#ifdef IC_PRESSURE_AVX2
    if (__builtin_cpu_supports("avx2")) s->wide = IC_ALLOC(icReal, 4 * n);
#endif
    s->useWide = s->wide != NULL;
    s->rhs = IC_ALLOC(icReal, n);
    s->tetValue = IC_ALLOC_ZERO(icReal, T + 1);
    size_t groups = (n + IC_PRESSURE_RING_LANES - 1) / IC_PRESSURE_RING_LANES;
    s->laneStart = IC_ALLOC(int, groups + 1);
    s->work = IC_ALLOC(icReal, 9 * n);
    size_t blocks = (T + IC_PRESSURE_TET_BLOCK - 1) / IC_PRESSURE_TET_BLOCK;
    s->blockFirst = IC_ALLOC(int, blocks);
    s->blockLast = IC_ALLOC(int, blocks);
    s->acc = IC_ALLOC(icVec3, n);
    s->mark = IC_ALLOC(int, n);
    s->scratchSets = 1;
    if (!s->tets || !s->invMass || !s->ringStart || !s->ringTets || !s->g || !s->diag ||
        !s->scale || !s->invDiag || !s->u || !s->masked || !s->rhs || !s->tetValue ||
        !s->laneStart || !s->work || !s->blockFirst || !s->blockLast || !s->acc || !s->mark) {
        icDestroyPressureSystem(s);
        return NULL;
    }
    memcpy(s->tets, tets, sizeof(int) * 4 * T);
    memcpy(s->invMass, invMass, sizeof(icReal) * 3 * n);
    for (size_t i = 0; i < 4 * T; ++i) s->ringStart[tets[i] + 1]++;
    for (size_t v = 0; v < n; ++v) s->ringStart[v + 1] += s->ringStart[v];
    memcpy(s->mark, s->ringStart, sizeof(int) * n);
    for (int t = 0; t < tetCount; ++t)
        for (int a = 0; a < 4; ++a) s->ringTets[s->mark[tets[4 * t + a]]++] = t;
    for (size_t v = 0; v < n; ++v) s->mark[v] = -1;
    s->laneStart[0] = 0;
    for (size_t gr = 0; gr < groups; ++gr) {
        int longest = 0;
        for (size_t v = gr * IC_PRESSURE_RING_LANES; v < (gr + 1) * IC_PRESSURE_RING_LANES && v < n;
             ++v)
            if (s->ringStart[v + 1] - s->ringStart[v] > longest)
                longest = s->ringStart[v + 1] - s->ringStart[v];
        s->laneStart[gr + 1] = s->laneStart[gr] + IC_PRESSURE_RING_LANES * longest;
    }
    s->laneTets = IC_ALLOC(int, (size_t)s->laneStart[groups]);
    if (!s->laneTets) {
        icDestroyPressureSystem(s);
        return NULL;
    }
    for (size_t gr = 0; gr < groups; ++gr)
        for (int l = 0; l < IC_PRESSURE_RING_LANES; ++l) {
            size_t v = gr * IC_PRESSURE_RING_LANES + (size_t)l;
            int length = v < n ? s->ringStart[v + 1] - s->ringStart[v] : 0;
            int longest = (s->laneStart[gr + 1] - s->laneStart[gr]) / IC_PRESSURE_RING_LANES;
            for (int i = 0; i < longest; ++i)
                s->laneTets[s->laneStart[gr] + IC_PRESSURE_RING_LANES * i + l] =
                    i < length ? s->ringTets[s->ringStart[v] + i] : tetCount;
        }
    for (size_t b = 0; b < blocks; ++b) {
        int lo = vertexCount, hi = -1;
        size_t k1 = 4 * IC_PRESSURE_TET_BLOCK * (b + 1) < 4 * T ? 4 * IC_PRESSURE_TET_BLOCK * (b + 1)
                                                                 : 4 * T;
        for (size_t k = 4 * IC_PRESSURE_TET_BLOCK * b; k < k1; ++k) {
            lo = tets[k] < lo ? tets[k] : lo;
            hi = tets[k] > hi ? tets[k] : hi;
        }
        s->blockFirst[b] = lo;
        s->blockLast[b] = hi;
    }
    return s;
}

void icPressureSystem_UseWideKernels(icPressureSystem *s, bool use) {
    s->useWide = use && s->wide != NULL;
}

void icPressureSystem_SetPool(icPressureSystem *s, icPool *pool) {
    int sets = icPool_WorkerCount(pool);
    if (sets > s->scratchSets) {
        // One diagonal scratch per worker: the rows are independent but share marks.
        icVec3 *acc = IC_ALLOC(icVec3, (size_t)s->n * (size_t)sets);
        int *mark = IC_ALLOC(int, (size_t)s->n * (size_t)sets);
        if (!acc || !mark) {
            icFree(acc);
            icFree(mark);
            s->pool = NULL; // stay serial rather than fail
            return;
        }
        for (size_t i = 0; i < (size_t)s->n * (size_t)sets; ++i) mark[i] = -1;
        icFree(s->acc);
        icFree(s->mark);
        s->acc = acc;
        s->mark = mark;
        s->scratchSets = sets;
    }
    s->pool = pool;
}

// Jacobi diagonal A_kk = sum_j |J[k][j]|^2_{M^-1}, the blocks summed over tets first.
// mark and acc are the calling worker's scratch (mark all -1 on entry and exit).
static icReal diagonalEntry(const icPressureSystem *s, int k, int *mark, icVec3 *acc) {
    int touched[512];
    int count = 0;
    icReal overflow = 0;
    for (int i = s->ringStart[k]; i < s->ringStart[k + 1]; ++i) {
        int t = s->ringTets[i];
        for (int a = 0; a < 4; ++a) {
            int j = s->tets[4 * t + a];
            icVec3 ga = icVec3_Scale(0.25, icVec3_Load(s->g + 12 * t, a));
            if (mark[j] < 0) {
                if (count == (int)(sizeof touched / sizeof touched[0])) {
                    // Pathological valence: an upper bound keeps the scaling SPD.
                    const icReal *w = s->invMass + 3 * j;
                    overflow += 4 * (ga.x * ga.x * w[0] + ga.y * ga.y * w[1] + ga.z * ga.z * w[2]);
                    continue;
                }
                mark[j] = count;
                touched[count++] = j;
                acc[j] = icVec3_Make(0, 0, 0);
            }
            acc[j] = icVec3_Add(acc[j], ga);
        }
    }
    icReal sum = overflow;
    for (int i = 0; i < count; ++i) {
        int j = touched[i];
        const icReal *w = s->invMass + 3 * j;
        icVec3 b = acc[j];
        sum += b.x * b.x * w[0] + b.y * b.y * w[1] + b.z * b.z * w[2];
        mark[j] = -1;
    }
    return sum;
}

static void gradientTask(int start, int end, int worker, void *context) {
    (void)worker;
    const icPressureSystem *s = context;
    icOneRing_Gradients(s->tetX, s->tets + 4 * (size_t)start, end - start,
                        s->g + 12 * (size_t)start);
}

static void diagonalTask(int start, int end, int worker, void *context) {
    icPressureSystem *s = context;
    int set = worker < s->scratchSets ? worker : 0;
    int *mark = s->mark + (size_t)set * (size_t)s->n;
    icVec3 *acc = s->acc + (size_t)set * (size_t)s->n;
    for (int k = start; k < end; ++k) s->diag[k] = diagonalEntry(s, k, mark, acc);
}

void icPressureSystem_Setup(icPressureSystem *s, const icReal *x) {
    s->tetX = x;
    icPool_ParallelFor(s->pool, gradientTask, s->tetCount, IC_PRESSURE_MIN_RANGE, s);
    s->tetX = NULL;
    icPool_ParallelFor(s->pool, diagonalTask, s->n, IC_PRESSURE_MIN_RANGE, s);
    icReal maxDiag = 0;
    for (int k = 0; k < s->n; ++k)
        if (s->diag[k] > maxDiag) maxDiag = s->diag[k];
    // Drop rows whose ring has no free vertex (A_kk = 0, up to round-off).
    icReal floor = 1e-14 * maxDiag;
    for (int k = 0; k < s->n; ++k) {
        bool active = s->diag[k] > floor;
        s->invDiag[k] = active ? 1.0 / s->diag[k] : 0.0;
        s->scale[k] = active ? 1.0 / sqrt(s->diag[k]) : 0.0;
    }
}

void icPressureSystem_DeactivateRows(icPressureSystem *s, const unsigned char *active) {
    for (int k = 0; k < s->n; ++k)
        if (!active[k]) s->invDiag[k] = s->scale[k] = 0.0;
}

// ---------------------------------------------------------------------------------------
// M^-1 J^T by vertex ranges: each range is owned by one worker, which walks the tets touching it
// in tet order and adds into its own vertices only. Every sum is then the one of the serial
// scatter (icOneRing_DivergenceTranspose), in its order, whatever the ranges: any worker count
// gives its bits. Tets touching two ranges are read by both; with vertices numbered in space order
// that is a thin layer. J is a gather (see divergence) with the same property.

typedef struct operatorPass {
    icPressureSystem *s;
    const icReal *in;
    icReal *out;
    bool maskIn;           ///< read in[k] as 0 on inactive rows (and zero those rows of out)
    int chunks;            ///< vertex ranges of the gradient
    const icReal *records; ///< the divergence's input as 4-double records (NULL: read in)
} operatorPass;

static void chunkRange(const operatorPass *op, int chunk, int *v0, int *v1) {
    *v0 = (int)((int64_t)op->s->n * chunk / op->chunks);
    *v1 = (int)((int64_t)op->s->n * (chunk + 1) / op->chunks);
}

// The vertices of tet t inside [v0, v1) as bits 0..3 (all four when the block is inside).
static inline unsigned ownedCorners(const int *tv, int v0, int v1, bool inside) {
    if (inside) return 15u;
    return (unsigned)(tv[0] >= v0 && tv[0] < v1) | (unsigned)(tv[1] >= v0 && tv[1] < v1) << 1 |
           (unsigned)(tv[2] >= v0 && tv[2] < v1) << 2 | (unsigned)(tv[3] >= v0 && tv[3] < v1) << 3;
}

// The tets [*t0, *t1) of block b when it touches [v0, v1) (all their corners inside it when
// *inside), else false.
static inline bool blockSpan(const icPressureSystem *s, int b, int v0, int v1, int *t0, int *t1,
                             bool *inside) {
    if (s->blockLast[b] < v0 || s->blockFirst[b] >= v1) return false;
    *t0 = b * IC_PRESSURE_TET_BLOCK;
    *t1 = *t0 + IC_PRESSURE_TET_BLOCK < s->tetCount ? *t0 + IC_PRESSURE_TET_BLOCK : s->tetCount;
    *inside = s->blockFirst[b] >= v0 && s->blockLast[b] < v1;
    return true;
}

#ifdef IC_PRESSURE_AVX2
// gradientChunkTask's loop with each vertex's three sums in one 4-double record: one load,
// multiply, add and store a corner instead of three of each (the scattered adds are most of the
// gradient). Lane by lane the same multiply and add, so the same bits. The records are left holding
// u, for the divergence's kernel.
__attribute__((target("avx2"))) static void gradientChunkAvx2(const icPressureSystem *s,
                                                               const icReal *p, int v0, int v1,
                                                               icReal *out) {
    int blocks = (s->tetCount + IC_PRESSURE_TET_BLOCK - 1) / IC_PRESSURE_TET_BLOCK;
    icReal *wide = s->wide;
    memset(wide + 4 * (size_t)v0, 0, sizeof(icReal) * 4 * (size_t)(v1 - v0));
    for (int b = 0; b < blocks; ++b) {
        int t0, t1;
        bool inside;
        if (!blockSpan(s, b, v0, v1, &t0, &t1, &inside)) continue;
        for (int t = t0; t < t1; ++t) {
            const int *tv = s->tets + 4 * (size_t)t;
            unsigned owned = ownedCorners(tv, v0, v1, inside);
            if (!owned) continue;
            __m256d st = _mm256_set1_pd(0.25 * (p[tv[0]] + p[tv[1]] + p[tv[2]] + p[tv[3]]));
            const icReal *gt = s->g + 12 * (size_t)t;
            for (int a = 0; a < 4; ++a) {
                if (!(owned >> a & 1u)) continue;
                // The fourth lane reads the next corner's x: it lands in the record's spare lane.
                icReal *o = wide + 4 * (size_t)tv[a];
                _mm256_storeu_pd(o, _mm256_add_pd(_mm256_loadu_pd(o),
                                                  _mm256_mul_pd(st, _mm256_loadu_pd(gt + 3 * a))));
            }
        }
    }
    // The records become u itself, the spare lane zero.
    for (int k = v0; k < v1; ++k) {
        icReal *o = wide + 4 * (size_t)k;
        for (int c = 0; c < 3; ++c) {
            o[c] *= s->invMass[3 * (size_t)k + c];
            out[3 * (size_t)k + c] = o[c];
        }
        o[3] = 0;
    }
}

// tetDivergenceTask's loop four tets at a time: each corner's three products in one multiply (g's
// fourth lane reads the next corner's x, the record's spare lane is zero), two transposes to put a
// tet in each lane, then the portable loop's sums in its order (r = 0 + d_0 + d_1 + d_2 + d_3,
// d_a = (g_x u_x + g_y u_y) + g_z u_z), so the same bits.
__attribute__((target("avx2"))) static inline __m256d cornerSums(const icReal *gt, const int *tv,
                                                                 const icReal *rec) {
    __m256d m0 = _mm256_mul_pd(_mm256_loadu_pd(gt), _mm256_loadu_pd(rec + 4 * (size_t)tv[0]));
    __m256d m1 = _mm256_mul_pd(_mm256_loadu_pd(gt + 3), _mm256_loadu_pd(rec + 4 * (size_t)tv[1]));
    __m256d m2 = _mm256_mul_pd(_mm256_loadu_pd(gt + 6), _mm256_loadu_pd(rec + 4 * (size_t)tv[2]));
    __m256d m3 = _mm256_mul_pd(_mm256_loadu_pd(gt + 9), _mm256_loadu_pd(rec + 4 * (size_t)tv[3]));
    __m256d x, y, z, spare; // the spare lanes' products
    icTranspose4d(m0, m1, m2, m3, &x, &y, &z, &spare);
    return _mm256_add_pd(_mm256_add_pd(x, y), z); // lane a: d_a of this tet
}

__attribute__((target("avx2"))) static void tetDivergenceFour(const icPressureSystem *s, int t,
                                                              const icReal *rec, icReal *out) {
    const int *tv = s->tets + 4 * (size_t)t;
    const icReal *gt = s->g + 12 * (size_t)t;
    __m256d d0 = cornerSums(gt, tv, rec), d1 = cornerSums(gt + 12, tv + 4, rec);
    __m256d d2 = cornerSums(gt + 24, tv + 8, rec), d3 = cornerSums(gt + 36, tv + 12, rec);
    __m256d e0, e1, e2, e3; // e_a: corner a's d_a, a tet in each lane
    icTranspose4d(d0, d1, d2, d3, &e0, &e1, &e2, &e3);
    __m256d r = _mm256_add_pd(_mm256_setzero_pd(), e0);
    r = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(r, e1), e2), e3);
    _mm256_storeu_pd(out, _mm256_mul_pd(r, _mm256_set1_pd(0.25)));
}
#endif

// out = M^-1 J^T p (Irving et al. 2007, sec. 3): u_a += s_t g_{t,a}, s_t the tet-averaged
// pressure.
static void gradientChunkTask(int start, int end, int worker, void *context) {
    (void)worker;
    const operatorPass *op = context;
    const icPressureSystem *s = op->s;
    // The masked copy (see correction) when inactive rows read as zero.
    const icReal *p = op->maskIn ? s->masked : op->in;
    int blocks = (s->tetCount + IC_PRESSURE_TET_BLOCK - 1) / IC_PRESSURE_TET_BLOCK;
    for (int chunk = start; chunk < end; ++chunk) {
        int v0, v1;
        chunkRange(op, chunk, &v0, &v1);
        icReal *out = op->out;
#ifdef IC_PRESSURE_AVX2
        if (s->useWide) {
            gradientChunkAvx2(s, p, v0, v1, out);
            continue;
        }
#endif
        memset(out + 3 * (size_t)v0, 0, sizeof(icReal) * 3 * (size_t)(v1 - v0));
        for (int b = 0; b < blocks; ++b) {
            int t0, t1;
            bool inside;
            if (!blockSpan(s, b, v0, v1, &t0, &t1, &inside)) continue;
            for (int t = t0; t < t1; ++t) {
                const int *tv = s->tets + 4 * (size_t)t;
                unsigned owned = ownedCorners(tv, v0, v1, inside);
                if (!owned) continue;
                icReal st = 0.25 * (p[tv[0]] + p[tv[1]] + p[tv[2]] + p[tv[3]]);
                const icReal *gt = s->g + 12 * (size_t)t;
                if (owned == 15u) {
                    for (int a = 0; a < 4; ++a) {
                        icReal *o = out + 3 * (size_t)tv[a];
                        o[0] += st * gt[3 * a];
                        o[1] += st * gt[3 * a + 1];
                        o[2] += st * gt[3 * a + 2];
                    }
                    continue;
                }
                for (int a = 0; a < 4; ++a) {
                    if (!(owned >> a & 1u)) continue;
                    icReal *o = out + 3 * (size_t)tv[a];
                    o[0] += st * gt[3 * a];
                    o[1] += st * gt[3 * a + 1];
                    o[2] += st * gt[3 * a + 2];
                }
            }
        }
        for (int i = 3 * v0; i < 3 * v1; ++i) out[i] *= s->invMass[i];
    }
}

// out = J u (Irving et al. 2007, sec. 3) in two passes with no scattered adds: each tet's
// r_t = 1/4 sum_a g_{t,a} . u_a, then each ring's sum of its tets' r_t in tet order. That is
// the order in which the serial scatter (icOneRing_Divergence) adds them, so the same bits for
// any worker count; the scatter's read-modify-writes, chained through memory wherever
// neighbouring tets share a vertex, were most of its time.
static void tetDivergenceTask(int start, int end, int worker, void *context) {
    (void)worker;
    const operatorPass *op = context;
    const icPressureSystem *s = op->s;
    const icReal *u = op->in;
    icReal *r = s->tetValue;
    int t = start;
#ifdef IC_PRESSURE_AVX2
    if (op->records)
        for (; t + 4 <= end; t += 4) tetDivergenceFour(s, t, op->records, r + t);
#endif
    for (; t < end; ++t) {
        const int *tv = s->tets + 4 * (size_t)t;
        const icReal *gt = s->g + 12 * (size_t)t;
        icReal sum = 0;
        for (int a = 0; a < 4; ++a) {
            const icReal *va = u + 3 * tv[a];
            sum += gt[3 * a] * va[0] + gt[3 * a + 1] * va[1] + gt[3 * a + 2] * va[2];
        }
        r[t] = sum * 0.25;
    }
}

// Rings by groups of four vertices, their sums side by side: four chains of dependent adds in
// flight instead of one, and one loop exit a group. The padding (tetCount, whose r is 0) adds +0,
// which changes no sum (a sum started at +0 is never -0).
static void ringSumTask(int start, int end, int worker, void *context) {
    _Static_assert(IC_PRESSURE_RING_LANES == 4, "ringSumTask keeps four named sums");
    (void)worker;
    const operatorPass *op = context;
    const icPressureSystem *s = op->s;
    const icReal *r = s->tetValue;
    for (int gr = start; gr < end; ++gr) {
        // Named sums: kept in registers (an array stayed on the stack).
        icReal s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int i = s->laneStart[gr]; i < s->laneStart[gr + 1]; i += IC_PRESSURE_RING_LANES) {
            const int *e = s->laneTets + i;
            s0 += r[e[0]];
            s1 += r[e[1]];
            s2 += r[e[2]];
            s3 += r[e[3]];
        }
        icReal sum[IC_PRESSURE_RING_LANES] = {s0, s1, s2, s3};
        for (int l = 0; l < IC_PRESSURE_RING_LANES; ++l) {
            int k = gr * IC_PRESSURE_RING_LANES + l;
            if (k < s->n) op->out[k] = op->maskIn && !(s->invDiag[k] > 0) ? 0.0 : sum[l];
        }
    }
}

static int chunkCount(const icPressureSystem *s) {
    int chunks = icPool_WorkerCount(s->pool);
    return s->n < chunks * IC_PRESSURE_MIN_RANGE ? 1 : chunks;
}

static int ringGroups(const icPressureSystem *s) {
    return (s->n + IC_PRESSURE_RING_LANES - 1) / IC_PRESSURE_RING_LANES;
}

static void tetQuarterVolumeTask(int start, int end, int worker, void *context) {
    (void)worker;
    const operatorPass *op = context;
    const icPressureSystem *s = op->s;
    for (int t = start; t < end; ++t)
        s->tetValue[t] = 0.25 * icOneRing_TetVolume(op->in, s->tets + 4 * (size_t)t);
}

// The scatter of icOneRing_Volumes as a gather, like the divergence: the same sums in tet order.
void icPressureSystem_RingVolumes(icPressureSystem *s, const icReal *x, icReal *ringVolumes) {
    operatorPass op = {s, x, ringVolumes, false, 0, NULL};
    icPool_ParallelFor(s->pool, tetQuarterVolumeTask, s->tetCount, IC_PRESSURE_MIN_RANGE, &op);
    icPool_ParallelFor(s->pool, ringSumTask, ringGroups(s),
                       IC_PRESSURE_MIN_RANGE / IC_PRESSURE_RING_LANES, &op);
}

// out = J u (n); with maskOut, zero on inactive rows. records: u as the gradient's AVX2 kernel
// left it, or NULL.
static void divergence(icPressureSystem *s, const icReal *u, const icReal *records, bool maskOut,
                       icReal *out) {
    operatorPass op = {s, u, out, maskOut, 0, records};
    icPool_ParallelFor(s->pool, tetDivergenceTask, s->tetCount, IC_PRESSURE_MIN_RANGE, &op);
    icPool_ParallelFor(s->pool, ringSumTask, ringGroups(s),
                       IC_PRESSURE_MIN_RANGE / IC_PRESSURE_RING_LANES, &op);
}

// dv = Pi M^-1 J^T phat, phat read as 0 on inactive rows when maskIn.
static void correction(icPressureSystem *s, const icConstraintSet *constraints, int sweeps,
                       const icReal *phat, bool maskIn, icReal *dv) {
    // Inactive rows read as zero: one pass here rather than a test per tet corner.
    if (maskIn)
        for (int k = 0; k < s->n; ++k) s->masked[k] = s->invDiag[k] > 0 ? phat[k] : 0.0;
    operatorPass op = {s, phat, dv, maskIn, chunkCount(s), NULL};
    icPool_ParallelFor(s->pool, gradientChunkTask, op.chunks, 1, &op);
    icConstraintSet_Project(constraints, s->invMass, sweeps, dv);
}

// dv = Pi M^-1 J^T p (the correction gamma of Irving et al. 2007, sec. 4).
void icPressureSystem_Correction(icPressureSystem *s, const icConstraintSet *constraints,
                                 int sweeps, const icReal *phat, icReal *dv) {
    correction(s, constraints, sweeps, phat, false, dv);
}

// y = J Pi M^-1 J^T x on the active unknowns (Irving et al. 2007, sec. 4).
static void pressureOperator(void *context, const icReal *x, icReal *y) {
    icPressureSystem *s = context;
    correction(s, s->constraints, s->sweeps, x, true, s->u);
    const icReal *records = NULL;
    if (s->useWide) {
        // The gradient's kernel left u as records; the contact sweeps changed a few vertices.
        const icConstraintSet *set = s->constraints;
        for (int i = 0; set && i < set->count; ++i)
            for (int j = 0; j < set->items[i].count; ++j) {
                size_t k = (size_t)set->items[i].vertices[j];
                memcpy(s->wide + 4 * k, s->u + 3 * k, sizeof(icReal) * 3);
            }
        records = s->wide;
    }
    divergence(s, s->u, records, true, y);
}

void icPressureSystem_Apply(icPressureSystem *s, const icReal *x, icReal *y) {
    s->constraints = NULL;
    s->sweeps = 0;
    pressureOperator(s, x, y);
}

int icPressureSystem_Solve(icPressureSystem *s, const icConstraintSet *constraints,
                           const icPressureDef *def, icReal volumeScale, const icReal *rhs,
                           const icReal *guess, icReal *phat, icKrylovStats *stats) {
    s->constraints = constraints;
    s->sweeps = def->sweeps;
    int active = 0;
    bool zeroGuess = true;
    for (int k = 0; k < s->n; ++k) {
        active += s->invDiag[k] > 0;
        s->rhs[k] = s->invDiag[k] > 0 ? rhs[k] : 0.0;
        zeroGuess = zeroGuess && (!guess || guess[k] == 0);
    }
    // A zero start is no start: its weight would be 0 after a product.
    if (zeroGuess) guess = NULL;
    // Never more iterations than unknowns (Lanczos loses orthogonality).
    int cap = def->maxIterations < active ? def->maxIterations : active;
    icReal absTol = def->absoluteTolerance * volumeScale;
    icKrylovStats st = {0};
    int it = 0;
    if (def->solver == IC_PRESSURE_CG) {
        // Unit preconditioner on active rows when Jacobi is off.
        if (!def->jacobi)
            for (int k = 0; k < s->n; ++k) s->scale[k] = s->invDiag[k] > 0 ? 1.0 : 0.0;
        it = icJacobiCG(s->n, pressureOperator, s, def->jacobi ? s->invDiag : s->scale, s->rhs,
                        guess, phat, def->tolerance, absTol, cap, s->work, &st);
        if (!def->jacobi)
            for (int k = 0; k < s->n; ++k)
                s->scale[k] = s->invDiag[k] > 0 ? sqrt(s->invDiag[k]) : 0.0;
        if (st.breakdown) {
            int more = it, guessProducts = st.guessProducts;
            it = icMinres(s->n, pressureOperator, s, s->scale, s->rhs, NULL, phat, def->tolerance,
                          absTol, cap, s->work, &st);
            it += more;
            st.iterations = it;
            st.guessProducts = guessProducts;
        }
    } else {
        if (!def->jacobi)
            for (int k = 0; k < s->n; ++k) s->scale[k] = s->invDiag[k] > 0 ? 1.0 : 0.0;
        // With Jacobi scaling the tolerances apply to the scaled residual S r, whose size
        // differs from r by about 1/sqrt(A_kk): rescale the floor accordingly.
        icReal scaleAbs = absTol;
        if (def->jacobi) {
            icReal mean = 0;
            for (int k = 0; k < s->n; ++k) mean += s->scale[k];
            scaleAbs = absTol * (active > 0 ? mean / active : 1.0);
        }
        it = icMinres(s->n, pressureOperator, s, s->scale, s->rhs, guess, phat, def->tolerance,
                      scaleAbs, cap, s->work, &st);
        if (!def->jacobi)
            for (int k = 0; k < s->n; ++k)
                s->scale[k] = s->invDiag[k] > 0 ? sqrt(s->invDiag[k]) : 0.0;
    }
    for (int k = 0; k < s->n; ++k)
        if (!(s->invDiag[k] > 0)) phat[k] = 0;
    s->constraints = NULL;
    if (stats) *stats = st;
    return it;
}

static icReal totalVolumeScale(const icReal *volumes, int n) {
    icReal total = 0;
    for (int k = 0; k < n; ++k) total += fabs(volumes[k]);
    return total;
}

int icPressureSystem_ProjectVelocity(icPressureSystem *s, const icConstraintSet *constraints,
                                     const icPressureDef *def, icReal *v, icReal *phat,
                                     bool useGuess, icKrylovStats *stats) {
    icReal *b = IC_ALLOC(icReal, s->n);
    icReal *ph = phat ? phat : IC_ALLOC(icReal, s->n);
    icReal *dv = IC_ALLOC(icReal, 3 * (size_t)s->n);
    int it = -1;
    if (b && ph && dv) {
        // eq. 2: A phat = -J w; consistent because range(A) = range(J).
        divergence(s, v, NULL, false, b);
        icReal scale = 0;
        for (int k = 0; k < s->n; ++k) {
            b[k] = -b[k];
            scale += fabs(b[k]);
        }
        it = icPressureSystem_Solve(s, constraints, def, scale > 0 ? scale : 1.0, b,
                                    phat && useGuess ? phat : NULL, ph, stats);
        icPressureSystem_Correction(s, constraints, def->sweeps, ph, dv);
        for (int i = 0; i < 3 * s->n; ++i) v[i] += dv[i];
    }
    icFree(b);
    if (ph != phat) icFree(ph);
    icFree(dv);
    return it;
}

int icPressureSystem_CorrectPositions(icPressureSystem *s, const icConstraintSet *constraints,
                                      const icPressureDef *def, const icReal *targetVolumes,
                                      const icReal *ringVolumes, icReal dt, icReal recoveryTime,
                                      icReal *w, icReal *phat, bool useGuess,
                                      icKrylovStats *stats) {
    icReal *b = IC_ALLOC(icReal, s->n);
    icReal *ph = phat ? phat : IC_ALLOC(icReal, s->n);
    icReal *dv = IC_ALLOC(icReal, 3 * (size_t)s->n);
    int it = -1;
    if (b && ph && dv) {
        divergence(s, w, NULL, false, b);
        for (int k = 0; k < s->n; ++k) {
            icReal e = targetVolumes[k] - ringVolumes[k];
            // Irving et al. 2007, sec. 2: no ring recovers faster than its whole volume per Dtau.
            if (recoveryTime > 0) {
                icReal limit = dt / recoveryTime * fabs(targetVolumes[k]);
                if (e > limit) e = limit;
                if (e < -limit) e = -limit;
            }
            b[k] = -b[k] + e / dt;
        }
        icReal scale = totalVolumeScale(targetVolumes, s->n) / dt;
        it = icPressureSystem_Solve(s, constraints, def, scale > 0 ? scale : 1.0, b,
                                    phat && useGuess ? phat : NULL, ph, stats);
        icPressureSystem_Correction(s, constraints, def->sweeps, ph, dv);
        for (int i = 0; i < 3 * s->n; ++i) w[i] += dv[i];
    }
    icFree(b);
    if (ph != phat) icFree(ph);
    icFree(dv);
    return it;
}
