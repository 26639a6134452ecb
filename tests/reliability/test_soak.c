// SPDX-License-Identifier: MIT
// The short soak: 40 random worlds x 80 steps must stay finite with bounded kinetic energy
// (the long one is bench/soak.c).
#include "test.h"

#include "soak.h"

IC_TEST(reliability, soak_short) {
    icSoakConfig config = {1, 40, 80, false};
    icSoakReport report;
    int64_t bytes = icGetByteCount();
    icSoak_Run(&config, &report);
    IC_CHECK_INT(report.scenes, 40);
    IC_CHECK_INT(report.steps, 40 * 80);
    IC_CHECK_MSG(report.failures == 0, "%d of %d worlds failed; first: %s", report.failures,
                 report.scenes, report.firstFailure);
    IC_CHECK_MSG(report.worstEnergyRatio <= 1, "kinetic energy reached %.3g x its bound",
                 report.worstEnergyRatio);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
