// SPDX-License-Identifier: MIT
// Threaded elastic forces and assembled stiffness K (upper blocks) for the implicit solves.
//
// Every sum runs in a fixed order, so any worker count gives the same bits.
#include "core/core.h"
#include "fem/fem_internal.h"
#include "fem/material_internal.h"
#include "math/wide.h"

// An AVX2 product kernel, compiled for that target whatever -march and picked at run time.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define IC_TANGENT_AVX2 1
#include <immintrin.h>
#endif
#ifdef __SSE2__
#include <emmintrin.h>
#endif

// Tets per SVD batch (icMat3_SvdBatch): the batches are fixed groups of tets, never cut by a
// worker range, because a batch's lanes sweep together. A tet pass hands the SVD four groups at
// a time, whose batches it runs side by side (icMat3_SvdBatch).
enum { IC_TANGENT_GROUP = 4, IC_TANGENT_SVD_GROUPS = 4 };
// Vertices per range: of the products (small meshes stay on one thread: their products are
// too short to share on a busy machine), and of the tet passes.
enum { IC_TANGENT_MIN_VERTICES = 2048, IC_TANGENT_MIN_CHUNK = 512 };

// K is symmetric and its block (c, r) is exactly the transpose of (r, c) (both are summed
// from the same element blocks in the same order), so only the blocks with c >= r are
// stored: half the memory traffic of the products, which dominate the solves. The blocks are
// floats: the products stream K from memory ~10 times per assembly, and float halves that (the
// products' arithmetic stays double; K's rounding, ~1e-7 relative, sits far below the CG
// tolerance, and M dominates M + h^2 K at the step lengths these solves take).
struct icFemThreads {
    icPool *pool;
    int *rowStart;   ///< (vertexCount + 1) stored blocks of row r, the diagonal first
    int *col;        ///< (blockCount) column of each stored block, ascending in a row
    float *values;   ///< (blockCount x 9) column-major blocks
    int *lowerStart; ///< (vertexCount + 1) blocks (c, r), c < r, that row r uses transposed
    int *lower;      ///< stored index of each, c ascending
    int *lowerRow;   ///< its c
    int *tetBlocks;  ///< (tetCount x 16) stored index of element block (a, b), or -1 when
                     ///< tets[a] > tets[b] (then (b, a) is stored)
    uint16_t *firstTouch; ///< (tetCount) bit 4a + b: the tet's block (a, b) is the first, in
                          ///< tet order, added into its stored block (stored, not added: no
                          ///< clearing pass, and no load of a block the pass has not met yet)
    int *groupFirst; ///< (groupCount) smallest vertex of the group's tets
    int *groupLast;  ///< (groupCount) largest
    icTaskCallback *productTask; ///< the widest product kernel this CPU runs (same bits)
};

void icFemThreads_Destroy(struct icFemThreads *threads) {
    if (!threads) return;
    icFree(threads->rowStart);
    icFree(threads->col);
    icFree(threads->values);
    icFree(threads->lowerStart);
    icFree(threads->lower);
    icFree(threads->lowerRow);
    icFree(threads->tetBlocks);
    icFree(threads->firstTouch);
    icFree(threads->groupFirst);
    icFree(threads->groupLast);
    icFree(threads);
}

static int groupCount(const icFemModel *model) {
    return (model->tetCount + IC_TANGENT_GROUP - 1) / IC_TANGENT_GROUP;
}

// The upper half of the full node-pair pattern (icFemPattern_Create), its transposed view
// and the tets' destinations in it.
static icResult buildUpper(struct icFemThreads *th, const icFemModel *model) {
    icFemPattern full;
    icResult r = icFemPattern_Create(&full, model);
    if (r != IC_OK) return r;
    int n = model->vertexCount, T = model->tetCount;
    const icBsr3 *F = &full.matrix;
    int *fullToUpper = IC_ALLOC(int, (size_t)F->blockCount);
    th->rowStart = IC_ALLOC_ZERO(int, (size_t)n + 1);
    th->lowerStart = IC_ALLOC_ZERO(int, (size_t)n + 1);
    int *fill = IC_ALLOC(int, (size_t)n + 1);
    unsigned char *seen = NULL;
    r = IC_ERR_OUT_OF_MEMORY;
    if (!fullToUpper || !th->rowStart || !th->lowerStart || !fill) goto done;
    int count = 0;
    for (int row = 0; row < n; ++row) {
        for (int k = F->rowStart[row]; k < F->rowStart[row + 1]; ++k) {
            fullToUpper[k] = F->col[k] >= row ? count++ : -1;
            if (F->col[k] > row) th->lowerStart[F->col[k] + 1]++;
        }
        th->rowStart[row + 1] = count;
    }
    for (int row = 0; row < n; ++row) th->lowerStart[row + 1] += th->lowerStart[row];
    int lowerCount = th->lowerStart[n];
    th->col = IC_ALLOC(int, (size_t)count + 1);
    th->values = IC_ALLOC_ZERO(float, 9 * (size_t)count + 4); // + 4: 4-wide loads
    th->lower = IC_ALLOC(int, (size_t)lowerCount + 1);
    th->lowerRow = IC_ALLOC(int, (size_t)lowerCount + 1);
    th->tetBlocks = IC_ALLOC(int, 16 * (size_t)T);
    th->firstTouch = IC_ALLOC_ZERO(uint16_t, (size_t)T + 1);
    seen = IC_ALLOC_ZERO(unsigned char, (size_t)count + 1);
    if (!th->col || !th->values || !th->lower || !th->lowerRow || !th->tetBlocks ||
        !th->firstTouch || !seen)
        goto done;
    memcpy(fill, th->lowerStart, sizeof(int) * (size_t)n);
    for (int row = 0; row < n; ++row)
        for (int k = F->rowStart[row]; k < F->rowStart[row + 1]; ++k) {
            int u = fullToUpper[k];
            if (u < 0) continue;
            th->col[u] = F->col[k];
            if (F->col[k] > row) {
                int at = fill[F->col[k]]++;
                th->lower[at] = u;
                th->lowerRow[at] = row;
            }
        }
    for (size_t k = 0; k < 16 * (size_t)T; ++k) th->tetBlocks[k] = fullToUpper[full.tetBlocks[k]];
    // Every stored block is met first by the tet of least index that adds into it; that tet's
    // pass is always done by the worker owning the block's row (see chunkTask).
    for (int t = 0; t < T; ++t)
        for (int e = 0; e < 16; ++e) {
            int at = th->tetBlocks[16 * (size_t)t + e];
            if (at < 0 || seen[at]) continue;
            seen[at] = 1;
            th->firstTouch[t] |= (uint16_t)(1u << e);
        }
    r = IC_OK;
    for (int k = 0; k < count; ++k)
        if (!seen[k]) r = IC_ERR_INVALID_ARGUMENT; // a stored block no tet adds into: impossible
done:
    icFree(seen);
    icFree(fullToUpper);
    icFree(fill);
    icFemPattern_Destroy(&full);
    return r;
}

static icTaskCallback productTask;
#ifdef IC_TANGENT_AVX2
static icTaskCallback productTaskAvx2;
#endif

icResult icFemModel_SetPool(icFemModel *model, icPool *pool) {
    if (model->threads) {
        model->threads->pool = pool;
        return IC_OK;
    }
    int groups = groupCount(model);
    struct icFemThreads *th = IC_ALLOC_ZERO(struct icFemThreads, 1);
    if (!th) return IC_ERR_OUT_OF_MEMORY;
    th->pool = pool;
    th->productTask = productTask;
#ifdef IC_TANGENT_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) th->productTask = productTaskAvx2;
#endif
    th->groupFirst = IC_ALLOC(int, (size_t)groups);
    th->groupLast = IC_ALLOC(int, (size_t)groups);
    icResult r = IC_ERR_OUT_OF_MEMORY;
    if (th->groupFirst && th->groupLast) r = buildUpper(th, model);
    if (r != IC_OK) {
        icFemThreads_Destroy(th);
        return r;
    }
    for (int g = 0; g < groups; ++g) {
        int lo = model->vertexCount, hi = -1;
        int k1 = 4 * IC_TANGENT_GROUP * (g + 1);
        if (k1 > 4 * model->tetCount) k1 = 4 * model->tetCount;
        for (int k = 4 * IC_TANGENT_GROUP * g; k < k1; ++k) {
            int v = model->tets[k];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        th->groupFirst[g] = lo;
        th->groupLast[g] = hi;
    }
    model->threads = th;
    return IC_OK;
}

// ---------------------------------------------------------------------------------------
// One pass over the tets: stress and nodal forces (Sifakis & Barbič 2012, eq. 4.7) and the
// blocks of K_e, added into the rows of one vertex range. Each range is owned by one worker, which
// walks every tet touching it in tet order, so each entry of f and K is summed in tet order
// whatever the ranges are (the order of the serial scatters icFem_ScatterStress and
// icFem_Assemble). Tets touching two ranges are evaluated by both, identically (SVD batches
// are fixed groups of tets); with vertices numbered in space order that is one thin layer.

typedef struct tetPass {
    const icFemModel *model;
    const icReal *x;
    icReal *f;
    bool tangent, project;
    int chunks;
} tetPass;

// Index of element block (a, b), a <= b, among the ten computed row by row.
static const int kUpper[4][4] = {{0, 1, 2, 3}, {1, 4, 5, 6}, {2, 5, 7, 8}, {3, 6, 8, 9}};

static void tetBlocksGeneric(const icMaterial *m, icMat3 F, const icSvd3 *svd, bool project,
                             const icTetRest *rest, icMat3 *P, icReal out[10][9]) {
    icReal h[81], blocks[16][9];
    icMaterial_EvaluateSvd(m, F, svd, P, h, project);
    icTet_StiffnessBlocks(h, rest, blocks);
    for (int a = 0; a < 4; ++a)
        for (int b = a; b < 4; ++b) memcpy(out[kUpper[a][b]], blocks[4 * a + b], sizeof(icReal) * 9);
}

// Element block b into stored block dst (added in double, rounded to float), or stored there
// when it is the block's first. Pairs of entries in SSE2 registers (x86-64's baseline).
static inline void addBlock(float *restrict dst, const icReal *restrict b, bool first) {
#ifdef __SSE2__
    // Two floats move as one 8-byte integer load and store (unaligned, may alias).
    for (int e = 0; e < 8; e += 2) {
        __m128d sum = _mm_loadu_pd(b + e);
        if (!first)
            sum = _mm_add_pd(
                sum, _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(dst + e)))));
        _mm_storel_epi64((__m128i *)(dst + e), _mm_castps_si128(_mm_cvtpd_ps(sum)));
    }
    dst[8] = (float)((first ? 0.0 : (double)dst[8]) + b[8]);
#else
    for (int e = 0; e < 9; ++e) dst[e] = (float)((first ? 0.0 : (double)dst[e]) + b[e]);
#endif
}

static inline void addBlockTransposed(float *restrict dst, const icReal *restrict b, bool first) {
    icReal t[9];
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) t[3 * k + i] = b[3 * i + k];
    addBlock(dst, t, first);
}

static inline void addForce(icReal *f, int v, icVec3 force) {
    icReal *p = f + 3 * (size_t)v;
    p[0] += force.x;
    p[1] += force.y;
    p[2] += force.z;
}

// The rest of a group's pass once its SVDs are done: stresses and forces, element blocks,
// and their scatter into the rows [v0, v1).
static void groupTail(const tetPass *pass, int t0, int count, const icMat3 *F, const icSvd3 *svd,
                      bool needSvd, int v0, int v1) {
    const icFemModel *model = pass->model;
    const struct icFemThreads *th = model->threads;
    // A full group of one corotated material: its element blocks four at a time.
    icReal blocks4[IC_TANGENT_GROUP][10][9];
    const int *gm = model->tetMaterial + t0;
    bool batched = pass->tangent && count == IC_TANGENT_GROUP && gm[1] == gm[0] && gm[2] == gm[0] &&
                   gm[3] == gm[0] && model->materials[gm[0]].model == IC_MATERIAL_COROTATED;
    if (batched) {
        const icTetRest *rests[IC_TANGENT_GROUP] = {&model->rest[t0], &model->rest[t0 + 1],
                                                    &model->rest[t0 + 2], &model->rest[t0 + 3]};
        icCorotated_TetBlocks4(&model->materials[gm[0]], svd, pass->project, rests, blocks4);
    }
    for (int k = 0; k < count; ++k) {
        int t = t0 + k;
        const int *tv = model->tets + 4 * t;
        bool mine[4], any = false;
        for (int a = 0; a < 4; ++a) any |= mine[a] = tv[a] >= v0 && tv[a] < v1;
        if (!any) continue;
        const icMaterial *m = &model->materials[model->tetMaterial[t]];
        const icTetRest *rest = &model->rest[t];
        icReal local[10][9];
        icReal(*blocks)[9] = batched ? blocks4[k] : local;
        icMat3 P;
        if (!pass->tangent) {
            icMaterial_EvaluateSvd(m, F[k], needSvd ? &svd[k] : NULL, &P, NULL, false);
        } else if (m->model == IC_MATERIAL_COROTATED) {
            P = icCorotated_Stress(m, &svd[k]);
            if (!batched) icCorotated_TetBlocks(m, &svd[k], pass->project, rest, blocks);
        } else {
            tetBlocksGeneric(m, F[k], needSvd ? &svd[k] : NULL, pass->project, rest, &P, blocks);
        }
        if (pass->f) {
            // H = -W P Q^T, f4 = -(f1 + f2 + f3), as icFem_ScatterStress.
            icMat3 h = icMat3_Scale(-rest->W, icMat3_MulTrans(P, rest->Q));
            // Added corner by corner, not through an array of the four (whose 8-byte stores,
            // read back 16 bytes at a time, stalled the loads).
            icVec3 f3 = icVec3_Neg(icVec3_Add(icVec3_Add(h.col[0], h.col[1]), h.col[2]));
            if (mine[0]) addForce(pass->f, tv[0], h.col[0]);
            if (mine[1]) addForce(pass->f, tv[1], h.col[1]);
            if (mine[2]) addForce(pass->f, tv[2], h.col[2]);
            if (mine[3]) addForce(pass->f, tv[3], f3);
        }
        if (!pass->tangent) continue;
        // Row a of K_e into the stored blocks of row tets[a]: element block (a, b) as computed,
        // or (b, a) transposed.
        const int *dst = th->tetBlocks + 16 * (size_t)t;
        unsigned first = th->firstTouch[t];
        for (int a = 0; a < 4; ++a) {
            if (!mine[a]) continue;
            for (int b = 0; b < 4; ++b) {
                int at = dst[4 * a + b];
                if (at < 0) continue;
                float *out = th->values + 9 * (size_t)at;
                bool isFirst = (first >> (4 * a + b)) & 1u;
                if (a <= b)
                    addBlock(out, blocks[kUpper[a][b]], isFirst);
                else
                    addBlockTransposed(out, blocks[kUpper[b][a]], isFirst);
            }
        }
    }
}

static void chunkTask(int start, int end, int worker, void *context) {
    (void)worker;
    const tetPass *pass = context;
    const icFemModel *model = pass->model;
    const struct icFemThreads *th = model->threads;
    int groups = groupCount(model);
    for (int chunk = start; chunk < end; ++chunk) {
        int v0 = (int)((int64_t)model->vertexCount * chunk / pass->chunks);
        int v1 = (int)((int64_t)model->vertexCount * (chunk + 1) / pass->chunks);
        // Groups four at a time: icMat3_SvdBatch runs their batches side by side (the batches
        // stay the fixed groups, so the same bits).
        for (int set = 0; set < groups; set += IC_TANGENT_SVD_GROUPS) {
            bool touches[IC_TANGENT_SVD_GROUPS], needSvd[IC_TANGENT_SVD_GROUPS];
            int first = -1, last = -1;
            for (int g = 0; g < IC_TANGENT_SVD_GROUPS; ++g) {
                int group = set + g;
                touches[g] =
                    group < groups && th->groupLast[group] >= v0 && th->groupFirst[group] < v1;
                if (!touches[g]) continue;
                if (first < 0) first = group;
                last = group;
            }
            if (first < 0) continue;
            int t0 = first * IC_TANGENT_GROUP, t1 = (last + 1) * IC_TANGENT_GROUP;
            if (t1 > model->tetCount) t1 = model->tetCount;
            icMat3 F[IC_TANGENT_SVD_GROUPS * IC_TANGENT_GROUP];
            icSvd3 svd[IC_TANGENT_SVD_GROUPS * IC_TANGENT_GROUP];
            bool anySvd = false;
            for (int g = 0; g < IC_TANGENT_SVD_GROUPS; ++g) needSvd[g] = false;
            for (int t = t0; t < t1; ++t) {
                F[t - t0] = icFem_TetF(model, pass->x, t);
                int g = t / IC_TANGENT_GROUP - set;
                needSvd[g] |= icMaterial_NeedsSvd(&model->materials[model->tetMaterial[t]],
                                                  pass->tangent && pass->project);
                anySvd |= needSvd[g];
            }
            if (anySvd) icMat3_SvdBatch(t1 - t0, F, svd);
            for (int group = first; group <= last; ++group) {
                int g = group - set;
                if (!touches[g]) continue;
                int g0 = group * IC_TANGENT_GROUP, count = model->tetCount - g0;
                if (count > IC_TANGENT_GROUP) count = IC_TANGENT_GROUP;
                groupTail(pass, g0, count, F + (g0 - t0), svd + (g0 - t0), needSvd[g], v0, v1);
            }
        }
    }
}

void icFem_Evaluate(const icFemModel *model, const icReal *x, icReal *f, bool tangent,
                    bool project) {
    struct icFemThreads *th = model->threads;
    IC_ASSERT(th);
    if (!f && !tangent) return;
    // One vertex range per worker; small meshes stay on one.
    int chunks = icPool_WorkerCount(th->pool);
    if (model->vertexCount < chunks * IC_TANGENT_MIN_CHUNK) chunks = 1;
    tetPass pass = {model, x, f, tangent, project, chunks};
    icPool_ParallelFor(th->pool, chunkTask, chunks, 1, &pass);
}

// ---------------------------------------------------------------------------------------
// Products, one row at a time (so any split of the rows gives the same bits): row r of K is
// the stored blocks (c, r), c < r, transposed, then the stored (r, c), c >= r.

typedef struct productPass {
    const icFemModel *model;
    icReal stiffnessScale, massScale;
    const icReal *w;
    icReal *out;
} productPass;

// The elastic tangent's block rows sum to zero (every tet's energy is translation invariant), so
// (K w)_r = sum over c != r of B_rc (w_c - w_r): the product skips the stored diagonal block and
// takes every w relative to w_r. A uniform w then gives exactly zero, where the float-rounded
// blocks of the plain product (rows no longer summing to zero) let a body in uniform motion lose
// speed and pick up a spin. The diagonal block stays stored for the preconditioner. Returns the
// first upper block of row r that is not its diagonal.
static inline int firstOffDiagonal(const int *rowStart, const int *col, int r) {
    int k = rowStart[r];
    return k < rowStart[r + 1] && col[k] == r ? k + 1 : k;
}

static void productTask(int start, int end, int worker, void *context) {
    (void)worker;
    const productPass *pass = context;
    const struct icFemThreads *th = pass->model->threads;
    const int *rowStart = th->rowStart, *col = th->col;
    const int *lowerStart = th->lowerStart, *lower = th->lower, *lowerRow = th->lowerRow;
    const float *values = th->values;
    const icReal *w = pass->w, *mass = pass->model->mass;
    const icReal sk = pass->stiffnessScale, sm = pass->massScale;
    for (int r = start; r < end; ++r) {
        const icReal *wr = w + 3 * (size_t)r;
        // Transposed blocks: (B^T x)_i = column i of B . x, each product summed on its own
        // over the blocks (a[i][j] collects b[3 i + j] x_j), then y_i = (a_i0 + a_i1) + a_i2.
        // Every x is taken relative to this row's w_r (see firstOffDiagonal).
        icReal a[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        for (int k = lowerStart[r]; k < lowerStart[r + 1]; ++k) {
            const float *b = values + 9 * (size_t)lower[k];
            const icReal *xc = w + 3 * (size_t)lowerRow[k];
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) a[i][j] += (double)b[3 * i + j] * (xc[j] - wr[j]);
        }
        icReal y0 = (a[0][0] + a[0][1]) + a[0][2];
        icReal y1 = (a[1][0] + a[1][1]) + a[1][2];
        icReal y2 = (a[2][0] + a[2][1]) + a[2][2];
        for (int k = firstOffDiagonal(rowStart, col, r); k < rowStart[r + 1]; ++k) {
            const float *b = values + 9 * (size_t)k;
            const icReal *xc = w + 3 * (size_t)col[k];
            icReal d0 = xc[0] - wr[0], d1 = xc[1] - wr[1], d2 = xc[2] - wr[2];
            y0 += (double)b[0] * d0 + (double)b[3] * d1 + (double)b[6] * d2;
            y1 += (double)b[1] * d0 + (double)b[4] * d1 + (double)b[7] * d2;
            y2 += (double)b[2] * d0 + (double)b[5] * d1 + (double)b[8] * d2;
        }
        icReal m = sm * mass[r];
        icReal *o = pass->out + 3 * (size_t)r;
        o[0] = sk * y0 + m * wr[0];
        o[1] = sk * y1 + m * wr[1];
        o[2] = sk * y2 + m * wr[2];
    }
}

#ifdef IC_TANGENT_AVX2
// Three floats of a stored block (and the next one, ignored) as four doubles.
__attribute__((target("avx2"), always_inline)) static inline __m256d
loadBlockColumn(const float *b) {
    return _mm256_cvtps_pd(_mm_loadu_ps(b));
}

// productTask with block columns in 4-wide registers (the fourth lane is ignored): the same
// products and sums per entry, in the same order, as the scalar loop, so the same bits.
__attribute__((target("avx2"))) static void productTaskAvx2(int start, int end, int worker,
                                                             void *context) {
    (void)worker;
    const productPass *pass = context;
    const struct icFemThreads *th = pass->model->threads;
    const int *rowStart = th->rowStart, *col = th->col;
    const int *lowerStart = th->lowerStart, *lower = th->lower, *lowerRow = th->lowerRow;
    const float *values = th->values;
    const icReal *w = pass->w, *mass = pass->model->mass;
    const icReal sk = pass->stiffnessScale, sm = pass->massScale;
    for (int r = start; r < end; ++r) {
        const icReal *wr = w + 3 * (size_t)r;
        __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0;
        for (int k = lowerStart[r]; k < lowerStart[r + 1]; ++k) {
            const float *b = values + 9 * (size_t)lower[k];
            const icReal *xc = w + 3 * (size_t)lowerRow[k];
            __m256d x = _mm256_setr_pd(xc[0] - wr[0], xc[1] - wr[1], xc[2] - wr[2], 0);
            a0 = _mm256_add_pd(a0, _mm256_mul_pd(loadBlockColumn(b), x));
            a1 = _mm256_add_pd(a1, _mm256_mul_pd(loadBlockColumn(b + 3), x));
            a2 = _mm256_add_pd(a2, _mm256_mul_pd(loadBlockColumn(b + 6), x));
        }
        double l0[4], l1[4], l2[4];
        _mm256_storeu_pd(l0, a0);
        _mm256_storeu_pd(l1, a1);
        _mm256_storeu_pd(l2, a2);
        __m256d y = _mm256_setr_pd((l0[0] + l0[1]) + l0[2], (l1[0] + l1[1]) + l1[2],
                                   (l2[0] + l2[1]) + l2[2], 0);
        for (int k = firstOffDiagonal(rowStart, col, r); k < rowStart[r + 1]; ++k) {
            const float *b = values + 9 * (size_t)k;
            const icReal *xc = w + 3 * (size_t)col[k];
            __m256d c0 = _mm256_mul_pd(loadBlockColumn(b), _mm256_set1_pd(xc[0] - wr[0]));
            __m256d c1 = _mm256_mul_pd(loadBlockColumn(b + 3), _mm256_set1_pd(xc[1] - wr[1]));
            __m256d c2 = _mm256_mul_pd(loadBlockColumn(b + 6), _mm256_set1_pd(xc[2] - wr[2]));
            __m256d t = _mm256_add_pd(_mm256_add_pd(c0, c1), c2);
            y = _mm256_add_pd(y, t);
        }
        double yv[4];
        _mm256_storeu_pd(yv, y);
        icReal m = sm * mass[r];
        icReal *o = pass->out + 3 * (size_t)r;
        o[0] = sk * yv[0] + m * wr[0];
        o[1] = sk * yv[1] + m * wr[1];
        o[2] = sk * yv[2] + m * wr[2];
    }
}
#endif

void icFem_TangentProduct(const icFemModel *model, icReal stiffnessScale, icReal massScale,
                          const icReal *w, icReal *out) {
    IC_ASSERT(model->threads);
    productPass pass = {model, stiffnessScale, massScale, w, out};
    icPool_ParallelFor(model->threads->pool, model->threads->productTask, model->vertexCount,
                       IC_TANGENT_MIN_VERTICES, &pass);
}

void icFem_TangentDiagonal(const icFemModel *model, icReal *diagBlocks) {
    const struct icFemThreads *th = model->threads;
    IC_ASSERT(th);
    for (int v = 0; v < model->vertexCount; ++v)
        for (int e = 0; e < 9; ++e)
            diagBlocks[9 * (size_t)v + e] = th->values[9 * (size_t)th->rowStart[v] + e];
}
