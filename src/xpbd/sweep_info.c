// SPDX-License-Identifier: MIT
// What the XPBD sweep runs (icWorld_GetSweepInfo): the order the layout resolved, the kernel
// width chosen at run time and the layout's shape, for `isochor run` and benchmarks.
#include "core/pool.h"
#include "xpbd/layout.h"

#include <string.h>

const char *icColouringName(icColouringScheme scheme) {
    switch (scheme) {
        case IC_COLOURING_GREEDY:
            return "greedy";
        case IC_COLOURING_CELL:
            return "cell";
        case IC_COLOURING_PAIRS:
            return "pairs";
        default:
            return "?";
    }
}

const char *icSimdName(icSimd simd) {
    switch (simd) {
        case IC_SIMD_AUTO:
            return "auto";
        case IC_SIMD_SCALAR:
            return "scalar";
        case IC_SIMD_AVX2:
            return "avx2";
        case IC_SIMD_AVX512:
            return "avx512";
        default:
            return "?";
    }
}

icResult icWorld_GetSweepInfo(icWorld *world, icSweepInfo *info) {
    if (!world || !info) return IC_ERR_INVALID_ARGUMENT;
    memset(info, 0, sizeof *info);
    icModel *m = &world->model;
    // The build the next step would do; it depends on the model alone, so the step that
    // follows finds it current and the results do not change.
    icResult r = icModel_UpdateColouring(m);
    if (r != IC_OK) return r;
    const icXpbdLayout *L = m->layout;
    info->asked = m->def.colouring;
    info->precision = m->def.precision;
    info->workers = icPool_WorkerCount(m->pool);
    icXpbd_SelectKernel(m->def.simd, m->def.precision, &info->simd);
    info->packed = icXpbd_PackedUsable(m);
    if (!info->packed) { // the reference sweep: greedy colours in tet order, one tet at a time
        info->scheme = IC_COLOURING_GREEDY;
        info->simd = IC_SIMD_SCALAR;
        info->colours = m->colouring.colourCount;
        return IC_OK;
    }
    info->scheme = icXpbdLayout_RunningScheme(L);
    info->colours = L->colourCount;
    info->chunks = L->chunkCount;
    info->phases = L->phaseCount;
    info->overflowTets = L->overflowTets;
    info->paddingLanes = L->paddingLanes;
    info->pairedTets = L->pairedTets;
    info->layoutBytes = (int64_t)L->bytes;
    return IC_OK;
}
