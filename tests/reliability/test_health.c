// SPDX-License-Identifier: MIT
// Numerical health while stepping: each check fires on the state that should trip it and on
// no other, report changes no result, clamp caps speeds, stop restores the last good state,
// and the scene key and run summary carry it all.
#include "test.h"

#include "isochor/io.h"
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

// One 1x1x1-cell box (8 vertices, 6 tets) falling freely, with the given policy.
static icWorld *makeWorld(icHealthDef health, icVec3 velocity) {
    icWorldDef def = icDefaultWorldDef();
    def.substeps = 4;
    def.health = health;
    icWorld *world = icCreateWorld(&def);
    icTetMesh mesh = {0};
    int cells[3] = {1, 1, 1};
    if (!world || icGenerateBox(&mesh, (icVec3){1, 1, 1}, cells, 6) != IC_OK) return world;
    icSoftBodyDef body = icDefaultSoftBodyDef();
    body.velocity = velocity;
    icDiagnostic diag = {0};
    icWorld_CreateSoftBody(world, &mesh, &body, NULL, &diag);
    icTetMesh_Destroy(&mesh);
    return world;
}

IC_TEST(reliability, health_defaults_and_validation) {
    icHealthDef d = icDefaultHealthDef();
    IC_CHECK_INT(d.policy, IC_HEALTH_REPORT);
    IC_CHECK(d.maxSpeed == 1000 && d.maxInvertedTets == 0 && d.maxVolumeDrift == 0.5);
    IC_CHECK_INT(icDefaultWorldDef().health.policy, IC_HEALTH_REPORT);
    icWorldDef def = icDefaultWorldDef();
    def.health.maxSpeed = 0;
    IC_CHECK(icCreateWorld(&def) == NULL);
    def = icDefaultWorldDef();
    def.health.maxVolumeDrift = -1;
    IC_CHECK(icCreateWorld(&def) == NULL);
    def = icDefaultWorldDef();
    def.health.maxInvertedTets = -1;
    IC_CHECK(icCreateWorld(&def) == NULL);
    def = icDefaultWorldDef();
    def.health.policy = (icHealthPolicy)7;
    IC_CHECK(icCreateWorld(&def) == NULL);
    icWorld *world = makeWorld(icDefaultHealthDef(), (icVec3){0, 0, 0});
    icHealthDef bad = icDefaultHealthDef();
    bad.maxSpeed = NAN;
    IC_CHECK_RESULT(icWorld_SetHealthDef(world, &bad), IC_ERR_BAD_VALUE);
    IC_CHECK_RESULT(icWorld_SetHealthDef(world, NULL), IC_OK);
    icDestroyWorld(world);
}

// Report counts and changes nothing: the same bits as with the checks off.
IC_TEST(reliability, health_report_counts_without_changing_results) {
    icHealthDef report = icDefaultHealthDef();
    report.maxSpeed = 2; // falls past 2 m/s within the 10 steps
    icHealthDef off = report;
    off.policy = IC_HEALTH_OFF;
    icWorld *a = makeWorld(report, (icVec3){0, 0, 0}), *b = makeWorld(off, (icVec3){0, 0, 0});
    for (int i = 0; i < 30; ++i) {
        IC_CHECK_RESULT(icWorld_Step(a, 0.01, NULL), IC_OK);
        IC_CHECK_RESULT(icWorld_Step(b, 0.01, NULL), IC_OK);
    }
    IC_CHECK(icWorld_HashState(a) == icWorld_HashState(b));
    icHealthStats h = icWorld_GetHealth(a);
    IC_CHECK_INT(h.steps, 30);
    // Free fall: v = 9.81 t passes 2 m/s after 0.204 s, so steps 21..30 warn.
    IC_CHECK_INT(h.speedWarnings, 10);
    IC_CHECK_INT(h.warnings, 10);
    IC_CHECK_INT(h.inversionWarnings + h.volumeWarnings + h.nonFiniteSteps + h.stops, 0);
    IC_CHECK_NEAR(h.maxSpeedSeen, 9.81 * 0.3, 0.01); // plus the rest shift's swelling
    IC_CHECK(strstr(h.lastWarning, "max_speed 2") != NULL);
    icHealthStats none = icWorld_GetHealth(b);
    IC_CHECK_INT(none.steps, 0);
    IC_CHECK_INT(none.warnings, 0);
    icDestroyWorld(a);
    icDestroyWorld(b);
}

IC_TEST(reliability, health_clamp_caps_speed) {
    icHealthDef clamp = icDefaultHealthDef();
    clamp.policy = IC_HEALTH_CLAMP;
    clamp.maxSpeed = 1.5;
    icWorld *w = makeWorld(clamp, (icVec3){0, 0, 0});
    for (int i = 0; i < 40; ++i) IC_CHECK_RESULT(icWorld_Step(w, 0.01, NULL), IC_OK);
    const icReal *v = icWorld_GetVelocities(w);
    for (int i = 0; i < icWorld_GetVertexCount(w); ++i)
        IC_CHECK_NEAR(v[3 * i + 1], -1.5, 1e-6); // capped at 1.5 m/s
    icHealthStats h = icWorld_GetHealth(w);
    IC_CHECK(h.speedWarnings > 20);
    IC_CHECK_INT(h.clampedVertices, 8 * h.speedWarnings);
    icDestroyWorld(w);
}

IC_TEST(reliability, health_stop_keeps_the_last_good_state) {
    icHealthDef stop = icDefaultHealthDef();
    stop.policy = IC_HEALTH_STOP;
    stop.maxSpeed = 1;
    icWorld *w = makeWorld(stop, (icVec3){0, 0, 0});
    int steps = 0;
    icResult r = IC_OK;
    uint64_t good = 0;
    while (steps < 100 && (r = icWorld_Step(w, 0.01, NULL)) == IC_OK) {
        good = icWorld_HashState(w);
        ++steps;
    }
    // 1 m/s is passed in the 11th step (t = 0.11 s); the world is back after the 10th.
    IC_CHECK_RESULT(r, IC_ERR_NUMERICAL);
    IC_CHECK_INT(steps, 10);
    IC_CHECK(icWorld_HashState(w) == good);
    IC_CHECK_NEAR(icWorld_GetTime(w), 0.10, 1e-12);
    icHealthStats h = icWorld_GetHealth(w);
    IC_CHECK_INT(h.stops, 1);
    IC_CHECK_INT(h.speedWarnings, 1);
    icDestroyWorld(w);
}

// NaN fails the step under every policy but off, and is counted.
IC_TEST(reliability, health_non_finite_always_fails) {
    icHealthPolicy policies[] = {IC_HEALTH_REPORT, IC_HEALTH_CLAMP, IC_HEALTH_STOP};
    for (int p = 0; p < 3; ++p) {
        icHealthDef def = icDefaultHealthDef();
        def.policy = policies[p];
        icWorld *w = makeWorld(def, (icVec3){0, 0, 0});
        IC_CHECK_RESULT(icWorld_Step(w, 0.01, NULL), IC_OK);
        uint64_t good = icWorld_HashState(w);
        icWorld_GetPositionsMutable(w)[5] = NAN;
        icStepStats stats;
        IC_CHECK_RESULT(icWorld_Step(w, 0.01, &stats), IC_ERR_NUMERICAL);
        IC_CHECK(stats.nan);
        icHealthStats h = icWorld_GetHealth(w);
        IC_CHECK_INT(h.nonFiniteSteps, 1);
        // Only stop goes back (to the state before the step, which held the NaN we put in).
        if (policies[p] == IC_HEALTH_STOP) IC_CHECK(icWorld_HashState(w) != good && h.stops == 1);
        icDestroyWorld(w);
    }
}

IC_TEST(reliability, health_inversion_and_volume_warnings) {
    icHealthDef def = icDefaultHealthDef();
    icWorld *w = makeWorld(def, (icVec3){0, 0, 0});
    icWorld_SetGravity(w, (icVec3){0, 0, 0});
    // Squash the box to a tenth of its height: volume drift 0.9, no inversion.
    icReal *x = icWorld_GetPositionsMutable(w);
    for (int i = 0; i < icWorld_GetVertexCount(w); ++i) x[3 * i + 1] *= 0.1;
    IC_CHECK_RESULT(icWorld_Step(w, 1e-4, NULL), IC_OK);
    icHealthStats h = icWorld_GetHealth(w);
    IC_CHECK_INT(h.volumeWarnings, 1);
    IC_CHECK_INT(h.inversionWarnings, 0);
    IC_CHECK(h.maxVolumeDriftSeen > 0.8);
    // Each tet keeps a tenth of its volume (to the step's motion): the worst |J - 1| is the one
    // the tet fields give after the step.
    int tets = icWorld_GetTetCount(w);
    icReal J[6], worst = 0;
    IC_REQUIRE(tets == 6);
    icWorld_GetTetFields(w, J, NULL, NULL);
    for (int t = 0; t < tets; ++t) worst = fmax(worst, fabs(J[t] - 1));
    IC_CHECK(worst > 0.8 && worst < 0.95);
    IC_CHECK_NEAR(h.maxTetJMinus1Seen, worst, 1e-12);
    // Mirror it: every tet inverted.
    x = icWorld_GetPositionsMutable(w);
    for (int i = 0; i < icWorld_GetVertexCount(w); ++i) x[3 * i + 1] *= -10;
    IC_CHECK_RESULT(icWorld_Step(w, 1e-6, NULL), IC_OK);
    h = icWorld_GetHealth(w);
    IC_CHECK_INT(h.inversionWarnings, 1);
    IC_CHECK(h.maxInvertedSeen >= 1);
    IC_CHECK(h.maxTetJMinus1Seen > 1.5); // J near -1: |J - 1| near 2
    icDestroyWorld(w);
}

IC_TEST(reliability, health_scene_key_and_summary) {
    const char *text =
        "{\"dt\": 0.01, \"frames\": 30,\n"
        " \"health\": {\"policy\": \"stop\", \"max_speed\": 1.2, \"max_inverted_tets\": 3,\n"
        "            \"max_volume_drift\": 0.25},\n"
        " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 1}}]}\n";
    icScene scene;
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString(text, "h.json", ".", &scene, &diag) == IC_OK);
    icHealthDef h = icWorld_GetDef(scene.world).health;
    IC_CHECK_INT(h.policy, IC_HEALTH_STOP);
    IC_CHECK(h.maxSpeed == 1.2 && h.maxInvertedTets == 3 && h.maxVolumeDrift == 0.25);
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    icRunSummary summary;
    IC_CHECK_RESULT(icScene_Run(&scene, &options, &summary, &diag), IC_ERR_NUMERICAL);
    IC_CHECK_MSG(strstr(diag.message, "frame 13: the health check stopped the run") &&
                     strstr(diag.message, "max_speed 1.2"),
                 "message '%s'", diag.message);
    IC_CHECK_INT(summary.frames, 12);
    IC_CHECK(!summary.nan);
    IC_CHECK_INT(summary.health.stops, 1);
    IC_CHECK_INT(summary.health.steps, 13);
    icScene_Destroy(&scene);

    // Every key is checked like the rest of the scene.
    struct {
        const char *health;
        icResult code;
        const char *message;
    } bad[] = {
        {"{\"policy\": \"panic\"}", IC_ERR_BAD_VALUE,
         "health.policy: 'panic' is not one of off, report, clamp, stop"},
        {"{\"max_speed\": 0}", IC_ERR_BAD_VALUE, "health.max_speed: 0 is outside (0, inf)"},
        {"{\"max_inverted_tets\": -1}", IC_ERR_BAD_VALUE, "health.max_inverted_tets: -1 must be >= 0"},
        {"{\"max_volume_drift\": \"big\"}", IC_ERR_BAD_VALUE,
         "health.max_volume_drift: expected a number, got a string"},
        {"{\"max_sped\": 3}", IC_ERR_UNKNOWN_KEY, "health.max_sped: unknown key (did you mean 'max_speed'?)"},
        {"[]", IC_ERR_BAD_VALUE, "health: expected an object, got an array"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char doc[600];
        IC_FORMAT(
            doc,
            "{\"dt\": 0.01,\n\"health\": %s,\n\"bodies\": [{\"mesh\": {\"generate\": \"box\"}}]}",
            bad[i].health);
        IC_CHECK_RESULT(icScene_LoadString(doc, "h.json", ".", &scene, &diag), bad[i].code);
        IC_CHECK_MSG(strstr(diag.message, bad[i].message) == diag.message, "'%s' vs '%s'",
                     diag.message, bad[i].message);
        IC_CHECK_INT(diag.line, 2);
    }
}

// The census the health checks and step statistics read (src/world/census.c): det Ds in
// place of det F, blocks summed in order. Same inverted count as det F tet by tet, the same
// volume as sum J V0 and the same worst |J - 1| to round-off, and the same bits for 1 and 2
// workers.
IC_TEST(reliability, tet_census_matches_det_f) {
    icTetCensus census[2];
    for (int workers = 1; workers <= 2; ++workers) {
        icWorldDef def = icDefaultWorldDef();
        def.workerCount = workers;
        icWorld *world = icCreateWorld(&def);
        IC_REQUIRE(world);
        icTetMesh mesh = {0};
        int cells[3] = {16, 12, 12}; // 13,824 tets: 4 blocks of 4,096 and a partial one
        IC_REQUIRE(icGenerateBox(&mesh, (icVec3){1.6, 1.2, 1.2}, cells, 6) == IC_OK);
        icSoftBodyDef body = icDefaultSoftBodyDef();
        IC_REQUIRE(icWorld_CreateSoftBody(world, &mesh, &body, NULL, NULL) == IC_OK);
        icTetMesh_Destroy(&mesh);
        const icModel *m = icWorld_Model(world);
        icReal *x = icWorld_State(world)->x;
        icTest_Seed(5);
        for (int i = 0; i < 3 * m->vertexCount; ++i) x[i] += icTest_Uniform(-0.06, 0.06);
        int inverted = 0;
        icReal volume = 0, worstJ = 0;
        for (int t = 0; t < m->tetCount; ++t) {
            icReal J = icMat3_Det(icModel_TetF(m, x, t));
            inverted += J <= 0;
            volume += J * m->restVolume[t];
            worstJ = fmax(worstJ, fabs(J - 1));
        }
        census[workers - 1] = icModel_TetCensus(m, x);
        IC_CHECK(inverted > 10 && inverted < m->tetCount / 4);
        IC_CHECK_INT(census[workers - 1].inverted, inverted);
        IC_CHECK_MSG(fabs(census[workers - 1].volume - volume) <= 1e-12 * fabs(volume), "%.17g vs %.17g",
                     census[workers - 1].volume, volume);
        IC_CHECK_NEAR(census[workers - 1].worstJMinus1, worstJ, 1e-12 * worstJ);
        icDestroyWorld(world);
    }
    IC_CHECK(memcmp(&census[0].volume, &census[1].volume, sizeof(icReal)) == 0);
    IC_CHECK(memcmp(&census[0].worstJMinus1, &census[1].worstJMinus1, sizeof(icReal)) == 0);
}
