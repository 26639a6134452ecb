// SPDX-License-Identifier: MIT
// Worker counts: the default is automatic (0) and resolves to one worker below the solver's
// break-even and to the available cores from it on; every solver type's "workers" key takes
// 0 to 1024; a Newton and an incompressible scene give the same bits for 1 and 2 workers.
#include "test.h"

#include "isochor/io.h"
#include "isochor/rod.h"

#include <limits.h>
#include <string.h>

// A box of cells^3 hex cells (6 tets each) as body 0 of the world.
static bool addBox(icWorld *w, int cells) {
    icTetMesh mesh = {0};
    int c[3] = {cells, cells, cells};
    bool ok = icGenerateBox(&mesh, icVec3_Make(1, 1, 1), c, 6) == IC_OK;
    icBodyId id;
    icSoftBodyDef bd = icDefaultSoftBodyDef();
    if (icWorld_GetDef(w).solver == IC_SOLVER_INCOMPRESSIBLE) bd.poissonRatio = 0.5;
    ok = ok && icWorld_CreateSoftBody(w, &mesh, &bd, &id, NULL) == IC_OK;
    icTetMesh_Destroy(&mesh);
    return ok;
}

IC_TEST(workers, default_is_automatic) {
    int64_t bytes = icGetByteCount();
    int cores = icAvailableCores();
    IC_CHECK(cores >= 1 && cores <= IC_MAX_WORKERS);
    static const icSolverType solvers[] = {IC_SOLVER_XPBD, IC_SOLVER_NEWTON,
                                           IC_SOLVER_INCOMPRESSIBLE};
    for (int s = 0; s < 3; ++s) {
        icWorldDef def = icDefaultWorldDef();
        IC_CHECK_INT(def.workerCount, 0);
        def.solver = solvers[s];
        int threshold = icAutoWorkerMinTets(def.solver);
        IC_CHECK(threshold > 48);
        // Below the break-even: one worker, also once the world has stepped.
        icWorld *small = icCreateWorld(&def);
        IC_REQUIRE(small);
        IC_CHECK_INT(icWorld_GetWorkerCount(small), 1);
        IC_REQUIRE(addBox(small, 2)); // 48 tets
        IC_CHECK_INT(icWorld_GetWorkerCount(small), 1);
        IC_CHECK_RESULT(icWorld_Step(small, 0.01, NULL), IC_OK);
        IC_CHECK_INT(icWorld_GetWorkerCount(small), 1);
        // From it on: every available core (Newton: one at any size, its iterations run on
        // one thread); an explicit count is kept whatever the size.
        int cells = 1;
        while (6 * cells * cells * cells < (threshold < 20000 ? threshold : 20000)) ++cells;
        icWorld *large = icCreateWorld(&def);
        IC_REQUIRE(large && addBox(large, cells));
        int expected = def.solver == IC_SOLVER_NEWTON ? 1 : cores;
        IC_CHECK(def.solver != IC_SOLVER_NEWTON || threshold == INT_MAX);
        IC_CHECK_MSG(icWorld_GetWorkerCount(large) == expected, "solver %d: %d workers at %d tets", s,
                     icWorld_GetWorkerCount(large), icWorld_GetTetCount(large));
        // One cell fewer, just below the threshold: one worker.
        if (threshold < INT_MAX) {
            icWorld *below = icCreateWorld(&def);
            IC_REQUIRE(below && addBox(below, cells - 1));
            IC_CHECK(icWorld_GetTetCount(below) < threshold);
            IC_CHECK_INT(icWorld_GetWorkerCount(below), 1);
            icDestroyWorld(below);
        }
        def.workerCount = 2;
        icWorld *two = icCreateWorld(&def);
        IC_REQUIRE(two && addBox(two, 2));
        IC_CHECK_INT(icWorld_GetWorkerCount(two), 2);
        if (s == 0) { // the XPBD sweep runs on the resolved count
            icSweepInfo info;
            IC_REQUIRE(icWorld_GetSweepInfo(small, &info) == IC_OK);
            IC_CHECK_INT(info.workers, 1);
            IC_REQUIRE(icWorld_GetSweepInfo(two, &info) == IC_OK);
            IC_CHECK_INT(info.workers, 2);
        }
        icDestroyWorld(small);
        icDestroyWorld(large);
        icDestroyWorld(two);
    }
    // Rods: the same rule over segments.
    icRodWorldDef rd = icDefaultRodWorldDef();
    IC_CHECK_INT(rd.workerCount, 0);
    icRodWorld *rods = icCreateRodWorld(&rd);
    IC_REQUIRE(rods);
    icRodDef def = icDefaultRodDef();
    IC_REQUIRE(icRodWorld_AddStraightRod(rods, icVec3_Make(0, 1, 0), icVec3_Make(1, 1, 0), 10, &def,
                                         NULL, NULL) == IC_OK);
    IC_CHECK_INT(icRodWorld_GetWorkerCount(rods), 1);
    IC_CHECK_RESULT(icRodWorld_Step(rods, 0.01, NULL), IC_OK);
    IC_REQUIRE(icRodWorld_AddStraightRod(rods, icVec3_Make(0, 2, 0), icVec3_Make(100, 2, 0),
                                         icRodAutoWorkerMinSegments(), &def, NULL, NULL) == IC_OK);
    IC_CHECK_INT(icRodWorld_GetWorkerCount(rods), cores);
    rd.workerCount = 3;
    IC_CHECK_RESULT(icRodWorld_SetDef(rods, &rd), IC_OK);
    IC_CHECK_INT(icRodWorld_GetWorkerCount(rods), 3);
    rd.workerCount = -1;
    IC_CHECK_RESULT(icRodWorld_SetDef(rods, &rd), IC_ERR_BAD_VALUE);
    icDestroyRodWorld(rods);
    icWorldDef bad = icDefaultWorldDef();
    bad.workerCount = -1;
    IC_CHECK(icCreateWorld(&bad) == NULL);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// One solver object per solver type; %s: more keys.
static const char *const s_solverObjects[] = {
    "{\"type\": \"xpbd\"%s}",
    "{\"type\": \"newton\"%s}",
    "{\"type\": \"quasistatic\"%s}",
    "{\"type\": \"incompressible\"%s}",
};

static icResult loadSolver(const char *solverObject, const char *keys, const char *rodKeys,
                           icScene *scene, icDiagnostic *diag) {
    char solver[256], text[1024];
    IC_FORMAT(solver, solverObject, keys);
    IC_FORMAT(text,
              "{\"dt\": 0.01, \"solver\": %s, \"bodies\": [{\"mesh\": {\"generate\": \"box\", "
              "\"size\": [0.2, 0.2, 0.2], \"cells\": 1}, \"material\": {\"poisson_ratio\": 0.45}}],\n"
              " \"rods\": [{\"solver\": {%s}}]}",
              solver, rodKeys);
    return icScene_LoadString(text, "workers.json", ".", scene, diag);
}

IC_TEST(workers, scene_key_every_solver) {
    int64_t bytes = icGetByteCount();
    for (int s = 0; s < 4; ++s) {
        static const struct {
            const char *keys;
            int workers;
        } good[] = {{"", 0}, {", \"workers\": 0", 0}, {", \"workers\": 2", 2}, {", \"workers\": 1024", 1024}};
        for (int k = 0; k < 4; ++k) {
            icScene scene;
            icDiagnostic diag;
            const char *rodKeys = good[k].keys[0] ? good[k].keys + 2 : "";
            icResult r = loadSolver(s_solverObjects[s], good[k].keys, rodKeys, &scene, &diag);
            IC_CHECK_MSG(r == IC_OK, "solver %d '%s': %s", s, good[k].keys, diag.message);
            if (r != IC_OK) continue;
            IC_CHECK_INT(icWorld_GetDef(scene.world).workerCount, good[k].workers);
            IC_CHECK(scene.rods && icRodWorld_GetDef(scene.rods).workerCount == good[k].workers);
            icScene_Destroy(&scene);
        }
        static const char *const bad[] = {"-1", "1025"};
        for (int k = 0; k < 2; ++k) {
            char keys[64], expected[96];
            IC_FORMAT(keys, ", \"workers\": %s", bad[k]);
            icScene scene;
            icDiagnostic diag;
            IC_CHECK_RESULT(loadSolver(s_solverObjects[s], keys, "", &scene, &diag), IC_ERR_BAD_VALUE);
            IC_FORMAT(expected, "solver.workers: %s is outside [0, 1024]", bad[k]);
            IC_CHECK_MSG(strncmp(diag.message, expected, strlen(expected)) == 0, "solver %d: %s", s,
                         diag.message);
            icScene_Destroy(&scene);
            IC_CHECK_RESULT(loadSolver(s_solverObjects[s], "", keys + 2, &scene, &diag), IC_ERR_BAD_VALUE);
            IC_FORMAT(expected, "rods[0].solver.workers: %s is outside [0, 1024]", bad[k]);
            IC_CHECK_MSG(strncmp(diag.message, expected, strlen(expected)) == 0, "rods %d: %s", s,
                         diag.message);
            icScene_Destroy(&scene);
        }
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A state hash after the scene's frames with `workers` set; *resolved gets the world's count.
static uint64_t sceneHash(const char *format, int workers, int frames, int *resolved) {
    char text[2048];
    IC_FORMAT(text, format, workers);
    icScene scene;
    icDiagnostic diag;
    icResult r = icScene_LoadString(text, "workers.json", ".", &scene, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s", diag.message);
    if (r != IC_OK) {
        icScene_Destroy(&scene);
        return 0;
    }
    for (int f = 0; f < frames; ++f) IC_CHECK_RESULT(icWorld_Step(scene.world, scene.dt, NULL), IC_OK);
    *resolved = icWorld_GetWorkerCount(scene.world);
    uint64_t hash = icWorld_HashState(scene.world);
    icScene_Destroy(&scene);
    return hash;
}

// A bar hanging from one end, swinging under gravity; 2 workers run the health census.
IC_TEST(workers, newton_scene_same_bits) {
    static const char *const scene =
        "{\"dt\": 0.02, \"solver\": {\"type\": \"newton\", \"max_iterations\": 20, \"workers\": %d},\n"
        " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.1, 0.1], \"cells\": [3, 1, 1]},\n"
        "   \"material\": {\"model\": \"snh\", \"youngs_modulus\": 5e4, \"poisson_ratio\": 0.45},\n"
        "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.14, 1, 1]}}]}],\n"
        " \"colliders\": [{\"plane\": {\"offset\": -0.08}}]}\n";
    int one = 0, two = 0;
    uint64_t a = sceneHash(scene, 1, 5, &one), b = sceneHash(scene, 2, 5, &two);
    IC_CHECK_INT(one, 1);
    IC_CHECK_INT(two, 2);
    IC_CHECK_MSG(a == b && a != 0, "2 workers %016llx != 1 worker %016llx", (unsigned long long)b,
                 (unsigned long long)a);
}

// A sphere thrown onto a plane (contacts in both pressure solves), big enough (> 2 x 2048
// vertices) for the FEM and pressure operators to split between 2 workers.
IC_TEST(workers, incompressible_scene_same_bits) {
    static const char *const scene =
        "{\"dt\": 0.004166667, \"solver\": {\"type\": \"incompressible\", \"recovery_time\": 0.008333,\n"
        "   \"workers\": %d},\n"
        " \"bodies\": [{\"mesh\": {\"generate\": \"sphere\", \"radius\": 0.1, \"cells\": 16},\n"
        "   \"material\": {\"model\": \"corotated\", \"youngs_modulus\": 6e4, \"poisson_ratio\": 0.5},\n"
        "   \"translate\": [0, 0.102, 0], \"velocity\": [0.2, -0.5, 0]}],\n"
        " \"colliders\": [{\"plane\": {}}]}\n";
    int one = 0, two = 0;
    uint64_t a = sceneHash(scene, 1, 4, &one), b = sceneHash(scene, 2, 4, &two);
    IC_CHECK_INT(one, 1);
    IC_CHECK_INT(two, 2);
    IC_CHECK_MSG(a == b && a != 0, "2 workers %016llx != 1 worker %016llx", (unsigned long long)b,
                 (unsigned long long)a);
}
