// SPDX-License-Identifier: MIT
// The XPBD solver keys that pick how the sweeps run (precision, simd, workers, colouring): good
// values reach the world def, bad ones give the exact result code, JSON path and line, and a scene
// run with any worker count or SIMD level gives the same bits. Also the incompressible
// solver's warm_start and velocity_projection.
#include "test.h"

#include "isochor/incompressible.h"
#include "isochor/io.h"

#include <stdio.h>
#include <string.h>

// A small pinned bar; %s is spliced into the solver object.
static const char *s_sceneFormat =
    "{\"dt\": 0.01,\n"
    " \"solver\": {\"substeps\": 4%s},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.4, 0.1, 0.1], \"cells\": [8, 2, 2]},\n"
    "   \"material\": {\"youngs_modulus\": 1e5, \"poisson_ratio\": 0.45},\n"
    "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.19, 1, 1]}}]}]}\n";

// The scene of `format` (one %s: the solver keys) loaded; false with the diagnostic on failure.
static bool loadFormat(const char *format, const char *solverKeys, icScene *scene, icDiagnostic *diag) {
    char text[2048];
    IC_FORMAT(text, format, solverKeys);
    memset(diag, 0, sizeof *diag);
    return icScene_LoadString(text, "keys.json", NULL, scene, diag) == IC_OK;
}

static bool loadWith(const char *solverKeys, icScene *scene, icDiagnostic *diag) {
    return loadFormat(s_sceneFormat, solverKeys, scene, diag);
}

IC_TEST(io, scene_solver_precision_simd_workers) {
    int64_t bytes = icGetByteCount();
    static const struct {
        const char *keys;
        icPrecision precision;
        icSimd simd;
        int workers;
        icColouringScheme colouring;
    } cases[] = {
        {"", IC_PRECISION_FLOAT, IC_SIMD_AUTO, 0, IC_COLOURING_GREEDY}, // the defaults
        {", \"precision\": \"double\"", IC_PRECISION_DOUBLE, IC_SIMD_AUTO, 0, IC_COLOURING_GREEDY},
        {", \"precision\": \"float\"", IC_PRECISION_FLOAT, IC_SIMD_AUTO, 0, IC_COLOURING_GREEDY},
        {", \"simd\": \"auto\"", IC_PRECISION_FLOAT, IC_SIMD_AUTO, 0, IC_COLOURING_GREEDY},
        {", \"simd\": \"scalar\"", IC_PRECISION_FLOAT, IC_SIMD_SCALAR, 0, IC_COLOURING_GREEDY},
        {", \"simd\": \"avx2\", \"precision\": \"double\"", IC_PRECISION_DOUBLE, IC_SIMD_AVX2, 0, IC_COLOURING_GREEDY},
        {", \"simd\": \"avx512\", \"workers\": 3", IC_PRECISION_FLOAT, IC_SIMD_AVX512, 3, IC_COLOURING_GREEDY},
        {", \"precision\": \"float\", \"simd\": \"scalar\", \"workers\": 2", IC_PRECISION_FLOAT, IC_SIMD_SCALAR, 2, IC_COLOURING_GREEDY},
        {", \"colouring\": \"greedy\"", IC_PRECISION_FLOAT, IC_SIMD_AUTO, 0, IC_COLOURING_GREEDY},
        {", \"colouring\": \"cell\", \"precision\": \"float\"", IC_PRECISION_FLOAT, IC_SIMD_AUTO, 0, IC_COLOURING_CELL},
        {", \"colouring\": \"pairs\", \"workers\": 2, \"precision\": \"double\"", IC_PRECISION_DOUBLE, IC_SIMD_AUTO, 2, IC_COLOURING_PAIRS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        icScene scene;
        icDiagnostic diag;
        bool ok = loadWith(cases[i].keys, &scene, &diag);
        IC_CHECK_MSG(ok, "'%s': %s", cases[i].keys, diag.message);
        if (!ok) continue;
        icWorldDef def = icWorld_GetDef(scene.world);
        IC_CHECK_MSG(def.precision == cases[i].precision, "'%s': precision %d", cases[i].keys, (int)def.precision);
        IC_CHECK_MSG(def.simd == cases[i].simd, "'%s': simd %d", cases[i].keys, (int)def.simd);
        IC_CHECK_MSG(def.workerCount == cases[i].workers, "'%s': workers %d", cases[i].keys, def.workerCount);
        IC_CHECK_MSG(def.colouring == cases[i].colouring, "'%s': colouring %d", cases[i].keys, (int)def.colouring);
        icScene_Destroy(&scene);
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(io, scene_solver_precision_simd_bad_values) {
    int64_t bytes = icGetByteCount();
    static const struct {
        const char *text;
        icResult code;
        int line;
        const char *message;
    } cases[] = {
        {"{\"dt\": 1, \"solver\": {\"precision\": \"half\"}, \"bodies\": []}", IC_ERR_BAD_VALUE, 1,
         "solver.precision: 'half' is not one of double, float"},
        {"{\"dt\": 1,\n\"solver\": {\"precision\": \"Float\"}, \"bodies\": []}", IC_ERR_BAD_VALUE, 2,
         "solver.precision: 'Float' is not one of double, float"},
        {"{\"dt\": 1, \"solver\": {\n\"precision\": 32}, \"bodies\": []}", IC_ERR_BAD_VALUE, 2,
         "solver.precision: expected a string, got a number"},
        {"{\"dt\": 1, \"solver\": {\"simd\": \"sse2\"}, \"bodies\": []}", IC_ERR_BAD_VALUE, 1,
         "solver.simd: 'sse2' is not one of auto, scalar, avx2, avx512"},
        {"{\"dt\": 1, \"solver\": {\"substeps\": 2,\n\n\"simd\": true}, \"bodies\": []}", IC_ERR_BAD_VALUE, 3,
         "solver.simd: expected a string, got a boolean"},
        {"{\"dt\": 1, \"solver\": {\"colouring\": \"cells\"}, \"bodies\": []}", IC_ERR_BAD_VALUE, 1,
         "solver.colouring: 'cells' is not one of greedy, cell, pairs"},
        {"{\"dt\": 1, \"solver\": {\n\n\"colouring\": 2}, \"bodies\": []}", IC_ERR_BAD_VALUE, 3,
         "solver.colouring: expected a string, got a number"},
        {"{\"dt\": 1, \"solver\": {\"workers\": -1}, \"bodies\": []}", IC_ERR_BAD_VALUE, 1,
         "solver.workers: -1 is outside [0, 1024]"},
        {"{\"dt\": 1, \"solver\": {\"workers\": 1.5}, \"bodies\": []}", IC_ERR_BAD_VALUE, 1,
         "solver.workers: 1.5 is not an integer"},
        {"{\"dt\": 1, \"solver\": {\"workers\": \"two\"}, \"bodies\": []}", IC_ERR_BAD_VALUE, 1,
         "solver.workers: expected a number, got a string"},
        {"{\"dt\": 1, \"solver\": {\n\"precission\": \"float\"}, \"bodies\": []}", IC_ERR_UNKNOWN_KEY, 2,
         "solver.precission: unknown key"},
        {"{\"dt\": 1, \"solver\": {\"precision\": \"float\",\n\"precision\": \"double\"}, \"bodies\": []}",
         IC_ERR_BAD_VALUE, 2, "solver.precision"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        icScene scene;
        icDiagnostic diag;
        memset(&diag, 0, sizeof diag);
        icResult r = icScene_LoadString(cases[i].text, "keys.json", NULL, &scene, &diag);
        IC_CHECK_MSG(r == cases[i].code && diag.code == cases[i].code, "%s: got %s (%s), expected %s",
                     cases[i].message, icResult_Name(r), diag.message, icResult_Name(cases[i].code));
        IC_CHECK_MSG(diag.line == cases[i].line, "%s: line %d, expected %d", cases[i].message, diag.line,
                     cases[i].line);
        IC_CHECK_MSG(strncmp(diag.message, cases[i].message, strlen(cases[i].message)) == 0,
                     "message '%s' should start with '%s'", diag.message, cases[i].message);
        IC_CHECK(scene.world == NULL);
        icScene_Destroy(&scene);
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Frames of the scene with these keys; the state's hash.
static uint64_t runHash(const char *keys, int frames) {
    icScene scene;
    icDiagnostic diag;
    if (!loadWith(keys, &scene, &diag)) {
        IC_CHECK_MSG(false, "'%s': %s", keys, diag.message);
        return 0;
    }
    for (int f = 0; f < frames; ++f) IC_CHECK_RESULT(icWorld_Step(scene.world, 0.01, NULL), IC_OK);
    uint64_t hash = icWorld_HashState(scene.world);
    icScene_Destroy(&scene);
    return hash;
}

IC_TEST(io, scene_solver_keys_change_arithmetic_not_results) {
    int64_t bytes = icGetByteCount();
    // Float rounds differently from double: a different state, but workers and SIMD levels
    // change nothing within one precision.
    uint64_t d = runHash(", \"precision\": \"double\"", 10), f = runHash("", 10);
    IC_CHECK_MSG(d != f, "float and double gave the same state: the key did not reach the sweep");
    IC_CHECK(runHash(", \"precision\": \"float\"", 10) == f); // float is the default
    IC_CHECK(runHash(", \"precision\": \"double\", \"workers\": 2, \"simd\": \"scalar\"", 10) == d);
    IC_CHECK(runHash(", \"precision\": \"float\", \"workers\": 2", 10) == f);
    IC_CHECK(runHash(", \"precision\": \"float\", \"simd\": \"avx2\", \"workers\": 3", 10) == f);
    IC_CHECK(runHash(", \"precision\": \"float\", \"simd\": \"scalar\"", 10) == f);
    // Another colouring is another Gauss-Seidel order: another state, the same for any worker
    // count and SIMD level (the generated box has cells; float runs the cell kernel's Kuhn path).
    const char *orders[] = {", \"precision\": \"float\", \"colouring\": \"cell\"",
                            ", \"precision\": \"float\", \"colouring\": \"pairs\"",
                            ", \"precision\": \"double\", \"colouring\": \"cell\"",
                            ", \"precision\": \"double\", \"colouring\": \"pairs\""};
    for (int i = 0; i < 4; ++i) {
        char more[256];
        uint64_t h = runHash(orders[i], 10);
        IC_CHECK_MSG(h != (i < 2 ? f : d), "'%s' gave the greedy state", orders[i]);
        IC_FORMAT(more, "%s, \"workers\": 2, \"simd\": \"scalar\"", orders[i]);
        IC_CHECK_MSG(runHash(more, 10) == h, "'%s'", more);
        IC_FORMAT(more, "%s, \"workers\": 3, \"simd\": \"avx2\"", orders[i]);
        IC_CHECK_MSG(runHash(more, 10) == h, "'%s'", more);
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// The incompressible solver's keys on a small box; %s is spliced into the solver object.
static bool loadIncompressible(const char *solverKeys, icScene *scene, icDiagnostic *diag) {
    return loadFormat("{\"dt\": 0.01,\n"
                      " \"solver\": {\"type\": \"incompressible\"%s},\n"
                      " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.1, 0.1, 0.1], "
                      "\"cells\": [2, 2, 2]},\n"
                      "   \"material\": {\"youngs_modulus\": 1e5, \"poisson_ratio\": 0.5}}]}\n",
                      solverKeys, scene, diag);
}

// The def the world of that scene got; false (with a failed check) if it did not load.
static bool incompressibleDefOf(const char *solverKeys, icIncompressibleDef *def) {
    icScene scene;
    icDiagnostic diag;
    bool ok = loadIncompressible(solverKeys, &scene, &diag);
    IC_CHECK_MSG(ok, "'%s': %s", solverKeys, diag.message);
    if (!ok) return false;
    *def = icWorld_GetIncompressibleDef(scene.world);
    icScene_Destroy(&scene);
    return true;
}

// The keys (a new line first: line 3) are refused with IC_ERR_BAD_VALUE and a message that starts
// with `expected`.
static void checkIncompressibleRefused(const char *solverKeys, const char *expected) {
    icScene scene;
    icDiagnostic diag;
    IC_CHECK(!loadIncompressible(solverKeys, &scene, &diag));
    IC_CHECK_RESULT(diag.code, IC_ERR_BAD_VALUE);
    IC_CHECK_INT(diag.line, 3);
    IC_CHECK_MSG(strncmp(diag.message, expected, strlen(expected)) == 0,
                 "message '%s' should start with '%s'", diag.message, expected);
}

// warm_start: on by default, off when asked, and anything but a bool refused with the key's path
// and line.
IC_TEST(io, scene_incompressible_warm_start_key) {
    int64_t bytes = icGetByteCount();
    static const struct {
        const char *keys;
        bool warmStart;
    } cases[] = {{"", true}, {", \"warm_start\": true", true}, {", \"warm_start\": false", false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        icIncompressibleDef d;
        if (incompressibleDefOf(cases[i].keys, &d))
            IC_CHECK_MSG(d.warmStart == cases[i].warmStart, "'%s'", cases[i].keys);
    }
    checkIncompressibleRefused(",\n \"warm_start\": 1",
                               "solver.warm_start: expected true or false, got a number");
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// velocity_projection: "auto" by default, "end" and "midpoint" when asked, and any other name
// refused with the list of names, the key's path and its line.
IC_TEST(io, scene_incompressible_velocity_projection_key) {
    int64_t bytes = icGetByteCount();
    static const struct {
        const char *keys;
        icVelocityProjection where;
    } cases[] = {{"", IC_VELOCITY_PROJECTION_AUTO},
                 {", \"velocity_projection\": \"auto\"", IC_VELOCITY_PROJECTION_AUTO},
                 {", \"velocity_projection\": \"end\"", IC_VELOCITY_PROJECTION_END},
                 {", \"velocity_projection\": \"midpoint\"", IC_VELOCITY_PROJECTION_MIDPOINT}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        icIncompressibleDef d;
        if (incompressibleDefOf(cases[i].keys, &d))
            IC_CHECK_MSG(d.velocityProjection == cases[i].where, "'%s'", cases[i].keys);
    }
    checkIncompressibleRefused(
        ",\n \"velocity_projection\": \"start\"",
        "solver.velocity_projection: 'start' is not one of auto, end, midpoint");
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// ring_error_floor: 0.5 by default, any number >= 0 when asked (0: each ring against its own
// volume), a negative one refused with the key's path and line.
IC_TEST(io, scene_incompressible_ring_error_floor_key) {
    int64_t bytes = icGetByteCount();
    static const struct {
        const char *keys;
        icReal floor;
    } cases[] = {{"", 0.5}, {", \"ring_error_floor\": 0", 0}, {", \"ring_error_floor\": 2.5", 2.5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        icIncompressibleDef d;
        if (incompressibleDefOf(cases[i].keys, &d))
            IC_CHECK_MSG(d.ringErrorFloor == cases[i].floor, "'%s': %g", cases[i].keys,
                         d.ringErrorFloor);
    }
    checkIncompressibleRefused(",\n \"ring_error_floor\": -0.1",
                               "solver.ring_error_floor: -0.1 is outside [0");
    IC_CHECK_INT(icGetByteCount(), bytes);
}
