// SPDX-License-Identifier: MIT
// icWorld_GetSweepInfo: the XPBD sweep order that runs (the cell scheme's fallback included),
// the kernel width, and that asking does not change what the steps compute.
#include "test.h"

#include "perf/cantilever.h"

#include "xpbd/kernel.h"

#include <string.h>

// The perf cantilever in float with 2 workers.
static icWorld *cantilever(icColouringScheme colouring, icProjection projection, icSimd simd,
                           bool withoutCells) {
    icWorldDef def = icDefaultWorldDef();
    def.substeps = 8;
    def.colouring = colouring;
    def.projection = projection;
    def.precision = IC_PRECISION_FLOAT;
    def.simd = simd;
    def.workerCount = 2;
    return icTest_Cantilever(&def, 6, withoutCells);
}

IC_TEST(perf, sweep_info_says_which_order_runs) {
    icSweepInfo info;
    IC_CHECK_RESULT(icWorld_GetSweepInfo(NULL, &info), IC_ERR_INVALID_ARGUMENT);

    // Generated cells: the cell scheme runs as asked, 8 parity colours, no stragglers.
    icWorld *w = cantilever(IC_COLOURING_CELL, IC_PROJECTION_SEQUENTIAL, IC_SIMD_AUTO, false);
    IC_REQUIRE(w != NULL);
    IC_CHECK_RESULT(icWorld_GetSweepInfo(w, NULL), IC_ERR_INVALID_ARGUMENT);
    IC_REQUIRE(icWorld_GetSweepInfo(w, &info) == IC_OK);
    IC_CHECK(info.packed);
    IC_CHECK_INT(info.asked, IC_COLOURING_CELL);
    IC_CHECK_INT(info.scheme, IC_COLOURING_CELL);
    IC_CHECK_INT(info.precision, IC_PRECISION_FLOAT);
    IC_CHECK_INT(info.workers, 2);
    IC_CHECK_INT(info.colours, 8);
    IC_CHECK_INT(info.overflowTets, 0);
    IC_CHECK(info.layoutBytes > 0);
    icSimd widest;
    icXpbd_SelectKernel(IC_SIMD_AUTO, IC_PRECISION_FLOAT, &widest);
    IC_CHECK_INT(info.simd, widest);
    icDestroyWorld(w);

    // The same mesh without cell data: the cell scheme falls back to greedy, and says so.
    w = cantilever(IC_COLOURING_CELL, IC_PROJECTION_SEQUENTIAL, IC_SIMD_AUTO, true);
    IC_REQUIRE(w != NULL);
    IC_REQUIRE(icWorld_GetSweepInfo(w, &info) == IC_OK);
    IC_CHECK(info.packed);
    IC_CHECK_INT(info.asked, IC_COLOURING_CELL);
    IC_CHECK_INT(info.scheme, IC_COLOURING_GREEDY);
    IC_CHECK(info.colours > 0 || info.overflowTets > 0);
    icDestroyWorld(w);

    // Pairs: most tets of a box share a face with a partner.
    w = cantilever(IC_COLOURING_PAIRS, IC_PROJECTION_SEQUENTIAL, IC_SIMD_SCALAR, true);
    IC_REQUIRE(w != NULL);
    IC_REQUIRE(icWorld_GetSweepInfo(w, &info) == IC_OK);
    IC_CHECK_INT(info.scheme, IC_COLOURING_PAIRS);
    IC_CHECK_INT(info.simd, IC_SIMD_SCALAR);
    IC_CHECK(info.pairedTets >= 9 * icWorld_GetTetCount(w) / 10);
    icDestroyWorld(w);

    // The coupled projection (the default) runs on the packed path too, at the CPU's width.
    w = cantilever(IC_COLOURING_GREEDY, IC_PROJECTION_COUPLED, IC_SIMD_AUTO, false);
    IC_REQUIRE(w != NULL);
    IC_REQUIRE(icWorld_GetSweepInfo(w, &info) == IC_OK);
    IC_CHECK(info.packed);
    IC_CHECK_INT(info.scheme, IC_COLOURING_GREEDY);
    IC_CHECK_INT(info.simd, icXpbd_CpuSimd());
    IC_CHECK(info.colours > 0);
    icDestroyWorld(w);

    IC_CHECK(strcmp(icColouringName(IC_COLOURING_PAIRS), "pairs") == 0);
    IC_CHECK(strcmp(icColouringName((icColouringScheme)7), "?") == 0);
    IC_CHECK(strcmp(icSimdName(IC_SIMD_AVX2), "avx2") == 0);
    IC_CHECK(strcmp(icSimdName((icSimd)9), "?") == 0);
}

// Asking before the first step builds the layout the step would build: same bits after.
IC_TEST(perf, sweep_info_leaves_the_steps_unchanged) {
    for (int scheme = 0; scheme < 3; ++scheme) {
        uint64_t hash[2];
        for (int ask = 0; ask < 2; ++ask) {
            icWorld *w = cantilever((icColouringScheme)scheme, IC_PROJECTION_SEQUENTIAL,
                                    IC_SIMD_AUTO, false);
            IC_REQUIRE(w != NULL);
            icSweepInfo info;
            if (ask) IC_CHECK(icWorld_GetSweepInfo(w, &info) == IC_OK);
            for (int s = 0; s < 6; ++s) IC_CHECK(icWorld_Step(w, 1.0 / 60.0, NULL) == IC_OK);
            if (ask) IC_CHECK(icWorld_GetSweepInfo(w, &info) == IC_OK);
            hash[ask] = icWorld_HashState(w);
            icDestroyWorld(w);
        }
        IC_CHECK_MSG(hash[0] == hash[1], "scheme %d: asking changed the state", scheme);
    }
}
