// SPDX-License-Identifier: MIT
// A solve that diverges ends the run with the frame and the figure, and the common set-up that
// used to diverge (a quasistatic body placed exactly on the ground) converges.
#include "test.h"

#include "isochor/scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// A 1 m box of 3,072 tets, quasistatic, one frame, its bottom face at height `bottom` over a
// frictionless ground.
static icResult runQuasistaticBox(double bottom, icRunSummary *summary, icDiagnostic *diag) {
    char text[600];
    IC_FORMAT(text,
              "{\"dt\": 0.0166667, \"frames\": 1, \"preflight\": false,\n"
              " \"solver\": {\"type\": \"quasistatic\"},\n"
              " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [1, 1, 1], "
              "\"cells\": [8, 8, 8]},\n"
              "             \"translate\": [0, %.17g, 0]}],\n"
              " \"colliders\": [{\"plane\": {\"offset\": 0, \"friction\": 0}}]}",
              0.5 + bottom);
    icScene scene = {0};
    icResult loaded = icScene_LoadString(text, "box.json", ".", &scene, diag);
    if (loaded != IC_OK) return loaded;
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    icResult result = icScene_Run(&scene, &options, summary, diag);
    icScene_Destroy(&scene);
    return result;
}

// Resting exactly on the ground (g = 0 at the bottom vertices): the contact's stiffness holds
// the body from the first Newton system, and the solve converges to what 0.1 mm of overlap
// gives. Without it the system was singular: V/V0 1.6e4 and 1,582 inverted tets, exit 0.
IC_TEST(reliability, quasistatic_body_resting_on_ground_converges) {
    int64_t bytes = icGetByteCount();
    icRunSummary exact, overlap;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(runQuasistaticBox(0, &exact, &diag), IC_OK);
    IC_CHECK_RESULT(runQuasistaticBox(-1e-4, &overlap, &diag), IC_OK);
    IC_CHECK_INT(exact.notConverged, 0);
    IC_CHECK_MSG(fabs(exact.volumeRatioFinal - overlap.volumeRatioFinal) < 1e-4,
                 "V/V0 %.6f resting exactly, %.6f with 0.1 mm overlap", exact.volumeRatioFinal,
                 overlap.volumeRatioFinal);
    IC_CHECK_NEAR(exact.volumeRatioFinal, 1, 0.01);
    printf("  resting exactly on the ground: V/V0 %.6f; with 0.1 mm overlap %.6f\n",
           exact.volumeRatioFinal, overlap.volumeRatioFinal);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// 1 mm above the ground a quasistatic body has nothing to hold it in the first Newton system,
// and the solve diverges. The run must not end in success with V/V0 in the thousands: the
// health check fails the step, and the message names the frame and the volume ratio.
IC_TEST(reliability, diverged_solve_fails_the_run_with_the_figure) {
    int64_t bytes = icGetByteCount();
    icRunSummary summary;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(runQuasistaticBox(1e-3, &summary, &diag), IC_ERR_NUMERICAL);
    IC_CHECK_MSG(strstr(diag.message, "frame 1:") && strstr(diag.message, "V/V0 = ") &&
                     strstr(diag.message, "the solve diverged"),
                 "message '%s'", diag.message);
    IC_CHECK_MSG(fabs(summary.volumeRatioFinal) > IC_HEALTH_MEANINGLESS_VOLUME_RATIO,
                 "V/V0 %.6g", summary.volumeRatioFinal);
    printf("  %s\n", diag.message);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A 0.2 m box stretched by a quarter in one quasistatic step: Newton needs several iterations.
static icResult runStretch(int maxIterations, double tolerance, icRunSummary *summary,
                           icDiagnostic *diag) {
    char text[1200];
    IC_FORMAT(text,
              "{\"dt\": 1, \"frames\": 1, \"preflight\": false, \"gravity\": [0, 0, 0],\n"
              " \"solver\": {\"type\": \"quasistatic\", \"max_iterations\": %d, \"tolerance\": %g,\n"
              "            \"step_tolerance\": 0},\n"
              " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], "
              "\"cells\": 3},\n"
              "   \"material\": {\"youngs_modulus\": 1e6, \"poisson_ratio\": 0.45},\n"
              "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [1, -0.099, 1]}},\n"
              "           {\"box\": {\"min\": [-1, 0.099, -1], \"max\": [1, 1, 1]},\n"
              "            \"motion\": {\"translate\": [0, 0.05, 0]}}]}]}",
              maxIterations, tolerance);
    icScene scene = {0};
    icResult loaded = icScene_LoadString(text, "stretch.json", ".", &scene, diag);
    if (loaded != IC_OK) return loaded;
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    icResult result = icScene_Run(&scene, &options, summary, diag);
    icScene_Destroy(&scene);
    return result;
}

// Newton stopped at its iteration cap far from its tolerance (one iteration of a stiff
// stretch) fails the run with the frame and the residual; stopped close to it, the frame is
// counted as not converged and the run succeeds.
IC_TEST(reliability, newton_far_from_tolerance_fails_the_run) {
    int64_t bytes = icGetByteCount();
    icRunSummary summary;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(runStretch(1, 1e-6, &summary, &diag), IC_ERR_NUMERICAL);
    IC_CHECK_MSG(strstr(diag.message, "frame 1:") &&
                     strstr(diag.message, "Newton stopped at its cap of 1 iterations, residual") &&
                     strstr(diag.message, "x tolerance, ") && strstr(diag.message, "x start"),
                 "message '%s'", diag.message);
    IC_CHECK_INT(summary.health.solverWarnings, 1);
    printf("  %s\n", diag.message);
    // Close: a tolerance below what double precision reaches; the cap ends the solve near it.
    memset(&diag, 0, sizeof diag);
    IC_CHECK_RESULT(runStretch(4, 1e-6, &summary, &diag), IC_OK);
    IC_CHECK_INT(summary.notConverged, 1);
    IC_CHECK_INT(summary.health.solverWarnings, 0);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
