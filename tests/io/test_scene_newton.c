// SPDX-License-Identifier: MIT
// Scenes with the force-based solver types "newton" and "quasistatic": every key read back,
// runs, a quasistatic stretch against its closed form, and the exact error for each mistake.
#include "test.h"

#include "isochor/fem.h"
#include "isochor/io.h"

#include <math.h>
#include <string.h>

// Loads text and checks code, line and that the message starts with prefix (as in
// test_scene.c).
static void expectError(const char *text, icResult code, int line, const char *prefix) {
    icScene scene;
    icDiagnostic diag;
    memset(&diag, 0, sizeof diag);
    int64_t bytes = icGetByteCount();
    icResult r = icScene_LoadString(text, "test.json", NULL, &scene, &diag);
    IC_CHECK_MSG(r == code && diag.code == code, "%s: got %s (%s), expected %s", prefix,
                 icResult_Name(r), diag.message, icResult_Name(code));
    IC_CHECK_MSG(diag.line == line, "%s: line %d, expected %d (%s)", prefix, diag.line, line,
                 diag.message);
    IC_CHECK_MSG(strncmp(diag.message, prefix, strlen(prefix)) == 0,
                 "message '%s' should start with '%s'", diag.message, prefix);
    IC_CHECK(scene.world == NULL);
    IC_CHECK_MSG(icGetByteCount() == bytes, "%s: %lld bytes leaked", prefix,
                 (long long)(icGetByteCount() - bytes));
    icScene_Destroy(&scene);
}

IC_TEST(io, scene_newton_loads_and_runs) {
    // Every key, none at its default; a snh2018 block hanging from its top face.
    const char *text =
        "{\"dt\": 0.01, \"frames\": 2, \"gravity\": [0, -5, 0],\n"
        " \"solver\": {\"type\": \"newton\", \"max_iterations\": 30, \"tolerance\": 1e-7,\n"
        "   \"absolute_tolerance\": 1e-11, \"step_tolerance\": 1e-9, \"cg_tolerance\": 1e-5,\n"
        "   \"max_cg_iterations\": 500, \"preconditioner\": \"jacobi\",\n"
        "   \"project_hessian\": false, \"line_search\": false, \"matrix_free\": true,\n"
        "   \"stiffness_damping\": 0.001, \"mass_damping\": 0.5,\n"
        "   \"contact_stiffness\": 50, \"friction_velocity\": 0.002},\n"
        " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2],\n"
        "              \"cells\": 2},\n"
        "   \"material\": {\"model\": \"snh2018\", \"youngs_modulus\": 1e5,\n"
        "                \"poisson_ratio\": 0.49},\n"
        "   \"pin\": [{\"box\": {\"min\": [-1, 0.099, -1], \"max\": [1, 1, 1]}}]}],\n"
        " \"output\": {\"format\": []}}\n";
    int64_t bytes = icGetByteCount();
    icScene scene;
    icDiagnostic diag = {0};
    icResult r = icScene_LoadString(text, "newton.json", NULL, &scene, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s at line %d: %s", icResult_Name(r), diag.line, diag.message);
    IC_REQUIRE(r == IC_OK);
    IC_CHECK_INT(icWorld_GetDef(scene.world).solver, IC_SOLVER_NEWTON);
    IC_CHECK_INT(scene.mode, IC_MODE_DYNAMIC);
    icNewtonDef d = icWorld_GetNewtonDef(scene.world);
    IC_CHECK_INT(d.maxIterations, 30);
    IC_CHECK(d.residualTolerance == 1e-7);
    IC_CHECK(d.absoluteTolerance == 1e-11);
    IC_CHECK(d.stepTolerance == 1e-9);
    IC_CHECK(d.cgTolerance == 1e-5);
    IC_CHECK_INT(d.maxCGIterations, 500);
    IC_CHECK_INT(d.preconditioner, IC_PRECONDITIONER_JACOBI);
    IC_CHECK(!d.projectHessian && !d.lineSearch && d.matrixFree);
    IC_CHECK(d.stiffnessDamping == 0.001);
    IC_CHECK(d.massDamping == 0.5);
    IC_CHECK(d.contactStiffness == 50 && d.frictionVelocity == 0.002);

    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    icRunSummary summary;
    r = icScene_Run(&scene, &options, &summary, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", icResult_Name(r), diag.message);
    IC_CHECK_INT(summary.frames, 2);
    IC_CHECK_NEAR(icWorld_GetTime(scene.world), 0.02, 1e-15);
    icNewtonStats ns = icWorld_GetNewtonStats(scene.world);
    IC_CHECK(ns.converged && ns.iterations >= 1 && ns.cgIterations >= 1);
    // Newton iterations are what the runner counts as sweeps.
    IC_CHECK(summary.sweepsTotal >= 2 && summary.sweepsTotal <= 60);
    // The free bottom layer falls under gravity; the pinned top stays.
    const icReal *x = icWorld_GetPositions(scene.world);
    const icReal *rest = icWorld_GetRestPositions(scene.world);
    for (int v = 0; v < icWorld_GetVertexCount(scene.world); ++v) {
        double dy = x[3 * v + 1] - rest[3 * v + 1];
        if (rest[3 * v + 1] > 0.099) IC_CHECK(dy == 0);
        if (rest[3 * v + 1] < -0.099) IC_CHECK_MSG(dy < -1e-5, "vertex %d: dy %.3g", v, dy);
    }
    icScene_Destroy(&scene);
    IC_CHECK_INT(icGetByteCount(), bytes);

    // Defaults: only the type given.
    r = icScene_LoadString("{\"dt\": 0.01, \"solver\": {\"type\": \"quasistatic\"}, \"bodies\": "
                           "[{\"mesh\": {\"generate\": \"box\", \"cells\": 1}}]}",
                           "defaults.json", NULL, &scene, &diag);
    IC_REQUIRE(r == IC_OK);
    icNewtonDef def = icDefaultNewtonDef(), got = icWorld_GetNewtonDef(scene.world);
    // Field by field: memcmp would also compare the struct's padding bytes.
    IC_CHECK(def.maxIterations == got.maxIterations && def.maxCGIterations == got.maxCGIterations);
    IC_CHECK(def.residualTolerance == got.residualTolerance &&
             def.absoluteTolerance == got.absoluteTolerance &&
             def.stepTolerance == got.stepTolerance && def.cgTolerance == got.cgTolerance);
    IC_CHECK(def.preconditioner == got.preconditioner && def.projectHessian == got.projectHessian &&
             def.matrixFree == got.matrixFree && def.lineSearch == got.lineSearch);
    IC_CHECK(def.stiffnessDamping == got.stiffnessDamping && def.massDamping == got.massDamping);
    IC_CHECK_INT(scene.mode, IC_MODE_STATIC);
    IC_CHECK(scene.staticDef.gravity);
    icScene_Destroy(&scene);
}

// A cube pulled by grips that slide in x and z (two extra pins remove the rigid x/z modes
// without touching the homogeneous solution) reaches the uniaxial closed form of the MM
// energy: x = diag(t, s, t) X with volume ratio J = 1 + (mu/lambda)(1 - 1/s) (Macklin &
// Müller 2021, sec. 3; rest shift gamma = 1 + mu/lambda).
IC_TEST(io, scene_quasistatic_converges) {
    const char *text =
        "{\"dt\": 1, \"frames\": 2, \"gravity\": [0, -9.81, 0],\n"
        " \"solver\": {\"type\": \"quasistatic\", \"gravity\": false, \"tolerance\": 1e-12,\n"
        "   \"absolute_tolerance\": 0, \"step_tolerance\": 0, \"cg_tolerance\": 1e-12},\n"
        " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2],\n"
        "              \"cells\": 2},\n"
        "   \"material\": {\"youngs_modulus\": 1e5, \"poisson_ratio\": 0.3},\n"
        "   \"pin\": [\n"
        "     {\"box\": {\"min\": [-1, -1, -1], \"max\": [1, -0.099, 1]},\n"
        "      \"axes\": [false, true, false], \"motion\": {\"translate\": [0, -0.01, 0]}},\n"
        "     {\"box\": {\"min\": [-1, 0.099, -1], \"max\": [1, 1, 1]},\n"
        "      \"axes\": [false, true, false], \"motion\": {\"translate\": [0, 0.01, 0]}},\n"
        "     {\"box\": {\"min\": [-0.001, -1, -0.001], \"max\": [0.001, -0.099, 0.001]},\n"
        "      \"motion\": {\"translate\": [0, -0.01, 0]}},\n"
        "     {\"box\": {\"min\": [0.099, -1, -0.001], \"max\": [1, -0.099, 0.001]},\n"
        "      \"axes\": [false, true, true], \"motion\": {\"translate\": [0, -0.01, 0]}}]}],\n"
        " \"output\": {\"format\": []}}\n";
    int64_t bytes = icGetByteCount();
    icScene scene;
    icDiagnostic diag = {0};
    icResult r = icScene_LoadString(text, "stretch.json", NULL, &scene, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s at line %d: %s", icResult_Name(r), diag.line, diag.message);
    IC_REQUIRE(r == IC_OK);
    IC_CHECK_INT(scene.mode, IC_MODE_STATIC);
    IC_CHECK(!scene.staticDef.gravity);
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    icRunSummary summary;
    r = icScene_Run(&scene, &options, &summary, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", icResult_Name(r), diag.message);
    IC_CHECK_INT(summary.frames, 2);
    IC_CHECK_INT(summary.notConverged, 0);
    icNewtonStats ns = icWorld_GetNewtonStats(scene.world);
    IC_CHECK(ns.converged && ns.iterations >= 2 && ns.residual <= 1e-12 * ns.initialResidual);

    double s = 1.2, mu, lambda;
    icLame(1e5, 0.3, &mu, &lambda);
    double J = 1 + mu / lambda * (1 - 1 / s), t = sqrt(J / s);
    IC_CHECK_NEAR(summary.volumeRatioFinal, J, 1e-9);
    const icReal *x = icWorld_GetPositions(scene.world);
    const icReal *rest = icWorld_GetRestPositions(scene.world);
    double worst = 0;
    for (int v = 0; v < icWorld_GetVertexCount(scene.world); ++v) {
        const icReal *p = rest + 3 * v, *q = x + 3 * v;
        worst = fmax(worst, fmax(fabs(q[0] - t * p[0]),
                                 fmax(fabs(q[1] - s * p[1]), fabs(q[2] - t * p[2]))));
    }
    IC_CHECK_MSG(worst <= 1e-10, "|x - diag(t, s, t) X| = %.3g", worst);
    icScene_Destroy(&scene);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(io, scene_newton_errors) {
    // Keys of the XPBD solver, and quasistatic's gravity, are unknown to "newton".
    expectError("{\"dt\": 1, \"solver\": {\"type\": \"newton\",\n\"substeps\": 4}, \"bodies\": []}",
                IC_ERR_UNKNOWN_KEY, 2, "solver.substeps: unknown key");
    expectError("{\"dt\": 1, \"solver\": {\"type\": \"newton\",\n\"gravity\": false}, "
                "\"bodies\": []}",
                IC_ERR_UNKNOWN_KEY, 2, "solver.gravity: unknown key");
    expectError("{\"dt\": 1, \"solver\": {\"type\": \"quasistatic\",\n\n\"max_iteration\": 4}, "
                "\"bodies\": []}",
                IC_ERR_UNKNOWN_KEY, 3,
                "solver.max_iteration: unknown key (did you mean 'max_iterations'?)");
    expectError("{\"dt\": 1, \"solver\": {\"type\": \"quasistatic\", \"static\": {}}, "
                "\"bodies\": []}",
                IC_ERR_UNKNOWN_KEY, 1, "solver.static: unknown key");

    struct {
        const char *solver;
        const char *prefix;
    } cases[] = {
        {"\"max_iterations\": 0", "solver.max_iterations: 0 must be >= 1"},
        {"\"max_iterations\": 2.5", "solver.max_iterations: 2.5 is not an integer"},
        {"\"tolerance\": -1", "solver.tolerance: -1 is outside [0, inf)"},
        {"\"absolute_tolerance\": \"tiny\"",
         "solver.absolute_tolerance: expected a number, got a string"},
        {"\"step_tolerance\": -1e-9", "solver.step_tolerance: -1e-09 is outside [0, inf)"},
        {"\"cg_tolerance\": 0", "solver.cg_tolerance: 0 is outside (0, inf)"},
        {"\"max_cg_iterations\": 0", "solver.max_cg_iterations: 0 must be >= 1"},
        {"\"preconditioner\": \"ilu\"",
         "solver.preconditioner: 'ilu' is not one of none, jacobi, block_jacobi"},
        {"\"project_hessian\": 1", "solver.project_hessian: expected true or false, got a number"},
        {"\"line_search\": \"yes\"", "solver.line_search: expected true or false, got a string"},
        {"\"matrix_free\": null", "solver.matrix_free: expected true or false, got null"},
        {"\"stiffness_damping\": -0.1", "solver.stiffness_damping: -0.1 is outside [0, inf)"},
        {"\"mass_damping\": 1e999", "solver.mass_damping: inf is not a finite number"},
        {"\"contact_stiffness\": 0", "solver.contact_stiffness: 0 is outside (0, inf)"},
        {"\"friction_velocity\": -1", "solver.friction_velocity: -1 is outside (0, inf)"},
    };
    static const char *const types[2] = {"newton", "quasistatic"};
    for (int t = 0; t < 2; ++t)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
            char text[512];
            IC_FORMAT(text, "{\"dt\": 1,\n \"solver\": {\"type\": \"%s\",\n %s}, \"bodies\": []}",
                      types[t], cases[i].solver);
            expectError(text, IC_ERR_BAD_VALUE, 3, cases[i].prefix);
        }
    expectError("{\"dt\": 1, \"solver\": {\"type\": \"quasistatic\",\n\"gravity\": 0}, "
                "\"bodies\": []}",
                IC_ERR_BAD_VALUE, 2, "solver.gravity: expected true or false, got a number");

    // nu = 0.5 makes lambda infinite: the force-based world refuses the body, and the
    // error points at the Poisson ratio.
    expectError("{\"dt\": 1, \"solver\": {\"type\": \"quasistatic\"},\n"
                "\"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1},\n"
                "\"material\": {\"model\": \"neohookean\",\n\"poisson_ratio\": 0.5}}]}",
                IC_ERR_BAD_VALUE, 4, "bodies[0].material.poisson_ratio: poisson_ratio 0.5");
    // The same body under XPBD is refused for its model, not its Poisson ratio.
    expectError("{\"dt\": 1,\n"
                "\"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1},\n"
                "\"material\": {\"model\": \"neohookean\",\n\"poisson_ratio\": 0.5}}]}",
                IC_ERR_UNSUPPORTED, 3, "bodies[0].material.model: ");
}

// Every material model loads under the Newton solver (XPBD accepts mm only).
IC_TEST(io, scene_newton_accepts_every_model) {
    for (int m = 0; m < IC_MATERIAL_COUNT_; ++m) {
        char text[512];
        IC_FORMAT(text,
                  "{\"dt\": 0.01, \"frames\": 1, \"solver\": {\"type\": \"newton\"},\n"
                  " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.1, 0.1, 0.1], "
                  "\"cells\": 1},\n  \"material\": {\"model\": \"%s\"},\n"
                  "  \"pin\": [{\"box\": {\"min\": [-1, 0.049, -1], \"max\": [1, 1, 1]}}]}],\n"
                  " \"output\": {\"format\": []}}",
                  icMaterialModel_Name((icMaterialModel)m));
        icScene scene;
        icDiagnostic diag = {0};
        icResult r = icScene_LoadString(text, "model.json", NULL, &scene, &diag);
        IC_CHECK_MSG(r == IC_OK, "%s: %s", icMaterialModel_Name((icMaterialModel)m), diag.message);
        if (r != IC_OK) continue;
        icRunOptions options = icDefaultRunOptions();
        options.writeOutput = false;
        icRunSummary summary;
        r = icScene_Run(&scene, &options, &summary, &diag);
        IC_CHECK_MSG(r == IC_OK && summary.frames == 1, "%s: %s",
                     icMaterialModel_Name((icMaterialModel)m), diag.message);
        IC_CHECK(icWorld_GetNewtonStats(scene.world).converged);
        icScene_Destroy(&scene);
    }
}
