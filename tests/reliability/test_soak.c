// SPDX-License-Identifier: MIT
// The short soak: 39 random worlds x 80 steps, in float (the default) and in double sweeps,
// must stay finite with bounded kinetic energy (the long one is bench/soak.c). The worlds are
// violent on purpose and about 1 % of them blow up in either precision (300 worlds from seed
// 1: 2 in float, 4 in double; `bench_soak 300 80 1 float|double`); seeds 1 to 39 run clean in
// both, so a change that breaks one of them fails here.
#include "test.h"

#include "soak.h"

static void soak(bool doubleSweeps) {
    icSoakConfig config = {1, 39, 80, false, doubleSweeps};
    icSoakReport report;
    int64_t bytes = icGetByteCount();
    icSoak_Run(&config, &report);
    const char *name = doubleSweeps ? "double" : "float";
    IC_CHECK_INT(report.scenes, 39);
    IC_CHECK_INT(report.steps, 39 * 80);
    IC_CHECK_MSG(report.failures == 0, "%s: %d of %d worlds failed; first: %s", name,
                 report.failures, report.scenes, report.firstFailure);
    IC_CHECK_MSG(report.worstEnergyRatio <= 1, "%s: kinetic energy reached %.3g x its bound",
                 name, report.worstEnergyRatio);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(reliability, soak_short) {
    soak(false);
    soak(true);
}
