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
