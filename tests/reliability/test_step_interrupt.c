// SPDX-License-Identifier: MIT
// A signal stops a step part-way (icWorld_SetInterrupt): every solver looks at the flag inside
// its loops, the world goes back to its state before the step, and a flag that stays zero
// changes no bit. `isochor run` killed inside a frame of 10^9 substeps stops within a bounded
// time with exit status 143, the last whole frame checkpointed and no temporary left.
#include "test.h"

#include "isochor/rod.h"
#include "isochor/scene.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// One scene per solver (and the XPBD static solve), small enough for a fraction of a second.
static const struct {
    const char *name;
    bool staticSolve;
    const char *text;
} s_solvers[] = {
    {"xpbd", false,
     "{\"dt\": 0.01, \"solver\": {\"substeps\": 20},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.1, 0.1], \"cells\": [3, 1, 1]},\n"
     "   \"material\": {\"youngs_modulus\": 5e4, \"poisson_ratio\": 0.45},\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.14, 1, 1]}}]}]}\n"},
    {"xpbd contact", false,
     "{\"dt\": 0.01, \"solver\": {\"substeps\": 20},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2},\n"
     "   \"velocity\": [0, -2, 0]}],\n"
     " \"colliders\": [{\"sphere\": {\"center\": [0, -0.3, 0], \"radius\": 0.15}}]}\n"},
    {"xpbd static", true,
     "{\"dt\": 1, \"solver\": {\"mode\": \"static\", \"static\": {\"max_sweeps\": 300}},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.4, 0.1, 0.1], \"cells\": [4, 1, 1]},\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.19, 1, 1]}}]}]}\n"},
    {"newton", false,
     "{\"dt\": 0.02, \"solver\": {\"type\": \"newton\", \"max_iterations\": 20},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.1, 0.1], \"cells\": [3, 1, 1]},\n"
     "   \"material\": {\"model\": \"snh\", \"youngs_modulus\": 5e4, \"poisson_ratio\": 0.45},\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.14, 1, 1]}}]}]}\n"},
    {"quasistatic", true,
     "{\"dt\": 1, \"solver\": {\"type\": \"quasistatic\"},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.1, 0.1], \"cells\": [3, 1, 1]},\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.14, 1, 1]}},\n"
     "           {\"box\": {\"min\": [0.14, -1, -1], \"max\": [1, 1, 1]},\n"
     "            \"motion\": {\"translate\": [0.01, 0, 0]}}]}]}\n"},
    {"incompressible", false,
     "{\"dt\": 0.02, \"solver\": {\"type\": \"incompressible\"},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.1, 0.1], \"cells\": [3, 1, 1]},\n"
     "   \"material\": {\"model\": \"corotated\", \"youngs_modulus\": 3e4, \"poisson_ratio\": 0.5},\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.14, 1, 1]}}]}]}\n"},
};

static icResult stepOnce(icScene *scene, bool staticSolve) {
    if (!staticSolve) return icWorld_Step(scene->world, scene->dt, NULL);
    // As the scene runner does: the pins move on, then the body settles; an interrupted solve
    // takes the clock's advance back.
    icStaticDef def = icDefaultStaticDef();
    def.maxSweeps = 300;
    icWorld_AdvanceTime(scene->world, scene->dt);
    icResult r = icWorld_SolveStatic(scene->world, &def, NULL);
    if (r == IC_ERR_INTERRUPTED) icWorld_AdvanceTime(scene->world, -scene->dt);
    return r == IC_ERR_NOT_CONVERGED ? IC_OK : r;
}

IC_TEST(reliability, interrupt_flag_stops_every_solver) {
    int64_t bytes = icGetByteCount();
    for (size_t i = 0; i < sizeof s_solvers / sizeof s_solvers[0]; ++i) {
        bool st = s_solvers[i].staticSolve;
        icScene a = {0}, b = {0};
        icDiagnostic diag = {0};
        bool loaded = icScene_LoadString(s_solvers[i].text, "s.json", ".", &a, &diag) == IC_OK &&
                      icScene_LoadString(s_solvers[i].text, "s.json", ".", &b, &diag) == IC_OK;
        IC_CHECK_MSG(loaded, "%s: %s", s_solvers[i].name, diag.message);
        if (!loaded) return;
        // Two steps each, one world with a flag that stays zero: the same bits.
        volatile sig_atomic_t flag = 0;
        icWorld_SetInterrupt(a.world, &flag);
        for (int k = 0; k < 2; ++k) {
            IC_CHECK_RESULT(stepOnce(&a, st), IC_OK);
            IC_CHECK_RESULT(stepOnce(&b, st), IC_OK);
        }
        IC_CHECK_MSG(icWorld_HashState(a.world) == icWorld_HashState(b.world),
                     "%s: a zero flag changed the result", s_solvers[i].name);
        // The flag raised: the step stops and the world is where it was, clock included.
        uint64_t before = icWorld_HashState(a.world);
        int64_t checked = icWorld_GetHealth(a.world).steps;
        flag = SIGTERM;
        IC_CHECK_MSG(stepOnce(&a, st) == IC_ERR_INTERRUPTED, "%s: not interrupted",
                     s_solvers[i].name);
        IC_CHECK_MSG(icWorld_HashState(a.world) == before, "%s: the state moved",
                     s_solvers[i].name);
        IC_CHECK_INT(icWorld_GetHealth(a.world).steps, checked);
        // Lowered again, the next step is the one the other world takes.
        flag = 0;
        IC_CHECK_RESULT(stepOnce(&a, st), IC_OK);
        IC_CHECK_RESULT(stepOnce(&b, st), IC_OK);
        IC_CHECK_MSG(icWorld_HashState(a.world) == icWorld_HashState(b.world),
                     "%s: the interrupted step left a trace", s_solvers[i].name);
        icWorld_SetInterrupt(a.world, NULL);
        icScene_Destroy(&a);
        icScene_Destroy(&b);
    }
    // Rods look at their own flag once per substep.
    icScene rods = {0};
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString("{\"dt\": 0.01, \"rods\": [{\"solver\": {\"substeps\": 4}}]}",
                                  "r.json", ".", &rods, &diag) == IC_OK);
    IC_REQUIRE(rods.rods);
    volatile sig_atomic_t flag = SIGINT;
    icRodWorld_SetInterrupt(rods.rods, &flag);
    IC_CHECK_RESULT(icRodWorld_Step(rods.rods, 0.01, NULL), IC_ERR_INTERRUPTED);
    flag = 0;
    IC_CHECK_RESULT(icRodWorld_Step(rods.rods, 0.01, NULL), IC_OK);
    icScene_Destroy(&rods);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A run whose flag is up from the start stops inside frame 1's step: the checkpoint holds
// frame 0, and resuming from it ends where an uninterrupted run ends, bit for bit.
IC_TEST(reliability, run_interrupted_inside_a_step_resumes_the_same) {
    int64_t bytes = icGetByteCount();
    const char *dir = icTest_TempDir();
    for (size_t i = 0; i < sizeof s_solvers / sizeof s_solvers[0]; ++i) {
        char text[1500], checkpoint[1300];
        // Three frames of the solver's scene.
        IC_FORMAT(text, "{\"frames\": 3, %s", s_solvers[i].text + 1);
        IC_FORMAT(checkpoint, "%s/s%d.ckpt", dir, (int)i);
        icScene full = {0}, part = {0}, resumed = {0};
        icDiagnostic diag = {0};
        bool loaded = icScene_LoadString(text, "s.json", ".", &full, &diag) == IC_OK &&
                      icScene_LoadString(text, "s.json", ".", &part, &diag) == IC_OK &&
                      icScene_LoadString(text, "s.json", ".", &resumed, &diag) == IC_OK;
        IC_CHECK_MSG(loaded, "%s: %s", s_solvers[i].name, diag.message);
        if (!loaded) return;
        icRunOptions options = icDefaultRunOptions();
        options.writeOutput = false;
        icRunSummary summary;
        IC_CHECK_RESULT(icScene_Run(&full, &options, &summary, &diag), IC_OK);

        volatile sig_atomic_t flag = SIGTERM;
        options.interrupt = &flag;
        options.checkpointPath = checkpoint;
        IC_CHECK_RESULT(icScene_Run(&part, &options, &summary, &diag), IC_ERR_INTERRUPTED);
        IC_CHECK_MSG(strstr(diag.message, "interrupted during frame 1 of 3: the run stops after "
                                          "frame 0; checkpoint written to"),
                     "%s: %s", s_solvers[i].name, diag.message);
        IC_CHECK_INT(summary.frames, 0);

        options.interrupt = NULL;
        options.checkpointPath = NULL;
        options.resumePath = checkpoint;
        IC_CHECK_RESULT(icScene_Run(&resumed, &options, &summary, &diag), IC_OK);
        IC_CHECK_INT(summary.frames, 3);
        IC_CHECK_MSG(icWorld_HashState(resumed.world) == icWorld_HashState(full.world),
                     "%s: the resumed run ends elsewhere", s_solvers[i].name);
        icScene_Destroy(&full);
        icScene_Destroy(&part);
        icScene_Destroy(&resumed);
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

static void writeText(const char *path, const char *text) {
    FILE *fp = fopen(path, "wb");
    if (!fp) return;
    fputs(text, fp);
    fclose(fp);
}

static bool exists(const char *path) {
    struct stat info;
    return stat(path, &info) == 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Hours per frame: 10^9 substeps of a 48-tet box.
static const char *s_endlessFrame =
    "{\"dt\": 0.01, \"frames\": 3, \"preflight\": false, \"solver\": {\"substeps\": 1000000000},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2},\n"
    "   \"pin\": [{\"box\": {\"min\": [-1, 0.09, -1], \"max\": [1, 1, 1]}}]}]}\n";

IC_TEST(reliability, cli_sigterm_stops_inside_a_long_step) {
    const char *tmp = icTest_TempDir();
    char dir[1100], scene[1300], outDir[1300], statsPath[1300], errPath[1300];
    IC_FORMAT(dir, "%s", tmp);
    IC_FORMAT(scene, "%s/endless.json", dir);
    IC_FORMAT(outDir, "%s/out", dir);
    IC_FORMAT(statsPath, "%s/stats.json", dir);
    IC_FORMAT(errPath, "%s/stderr.txt", dir);
    writeText(scene, s_endlessFrame);

    pid_t child = fork();
    IC_REQUIRE(child >= 0);
    if (child == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen(errPath, "w", stderr)) _exit(99);
        execl(IC_CLI_PATH, IC_CLI_PATH, "run", scene, "--quiet", "--out", outDir, "--stats",
              statsPath, (char *)NULL);
        _exit(98);
    }
    // Half a second into frame 1 (frame 0's file is written before stepping).
    struct timespec half = {0, 500000000};
    nanosleep(&half, NULL);
    IC_CHECK(kill(child, SIGTERM) == 0);
    double killed = now();
    // Bounded: a substep of 48 tets takes microseconds; 10 s allows for a loaded machine.
    int status = 0;
    pid_t done = 0;
    struct timespec pause = {0, 2000000};
    while ((done = waitpid(child, &status, WNOHANG)) == 0 && now() - killed < 10)
        nanosleep(&pause, NULL);
    if (done == 0) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        IC_CHECK_MSG(false, "the run did not stop within 10 s of SIGTERM");
        return;
    }
    double seconds = now() - killed;
    printf("  stopped %.3f s after SIGTERM\n", seconds);
    IC_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 143,
                 "expected exit status 143, got %s %d", WIFEXITED(status) ? "exit" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    char *err = icTest_ReadFile(errPath, NULL);
    IC_CHECK_MSG(err && strstr(err, "interrupted during frame 1 of 3: the run stops after frame 0") &&
                     strstr(err, "checkpoint written to"),
                 "stderr: %s", err ? err : "");
    free(err);
    // The stats say no frame was completed; frame 0 and its checkpoint are whole; no
    // temporary is left.
    char *stats = icTest_ReadFile(statsPath, NULL);
    IC_CHECK_MSG(stats && strstr(stats, "\"frames\": 0,"), "stats: %s", stats ? stats : "");
    free(stats);
    char path[1500];
    IC_FORMAT(path, "%s/endless.ckpt", outDir);
    IC_CHECK(exists(path));
    IC_FORMAT(path, "%s/frame_00000.vtu", outDir);
    IC_CHECK(exists(path));
    IC_FORMAT(path, "%s/frame_00001.vtu", outDir);
    IC_CHECK(!exists(path));
    DIR *d = opendir(outDir);
    IC_REQUIRE(d);
    for (struct dirent *e; (e = readdir(d));)
        IC_CHECK_MSG(!strstr(e->d_name, ".tmp."), "temporary file left: %s", e->d_name);
    closedir(d);
}

// Raises *flag 0.1 s after it starts; ends the test process if the step has not come back
// 10 s after that (a step that never looks at the flag would otherwise hang the suite).
typedef struct icLateFlag {
    volatile sig_atomic_t *flag;
    atomic_bool done;
} icLateFlag;

static void *raiseLate(void *context) {
    icLateFlag *f = context;
    struct timespec pause = {0, 100000000L};
    nanosleep(&pause, NULL);
    *f->flag = SIGTERM;
    for (int i = 0; i < 1000 && !atomic_load(&f->done); ++i) {
        struct timespec tick = {0, 10000000L};
        nanosleep(&tick, NULL);
    }
    if (!atomic_load(&f->done)) {
        fprintf(stderr, "a step did not look at its interrupt flag within 10 s\n");
        _exit(1);
    }
    return NULL;
}

// A single substep (or static pseudo step) may hold up to 2^31 sweeps: the flag is read
// between sweeps too, so such a step stops and leaves no trace.
IC_TEST(reliability, interrupt_stops_inside_a_substep_of_many_sweeps) {
    static const struct {
        const char *name;
        bool staticSolve;
        const char *text;
    } cases[] = {
        {"dynamic, fused sweeps", false,
         "{\"dt\": 0.01, \"solver\": {\"substeps\": 1, \"iterations\": 2000000000},\n"
         " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 3}}]}\n"},
        {"dynamic, with body contact", false,
         "{\"dt\": 0.01, \"solver\": {\"substeps\": 1, \"iterations\": 2000000000},\n"
         " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 3}}],\n"
         " \"colliders\": [{\"sphere\": {\"center\": [0, -1, 0], \"radius\": 0.4}}]}\n"},
        {"static", true,
         "{\"dt\": 1, \"solver\": {\"mode\": \"static\", \"static\": {\"iterations_per_step\": 2000000000,\n"
         "   \"max_sweeps\": 2000000000, \"tolerance\": 1e-300}},\n"
         " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"cells\": 3},\n"
         "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [1, -0.4, 1]}}]}]}\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        icScene scene = {0};
        icDiagnostic diag = {0};
        IC_CHECK_MSG(icScene_LoadString(cases[i].text, "s.json", ".", &scene, &diag) == IC_OK, "%s: %s",
                     cases[i].name, diag.message);
        if (!scene.world) continue;
        volatile sig_atomic_t flag = 0;
        icWorld_SetInterrupt(scene.world, &flag);
        uint64_t before = icWorld_HashState(scene.world);
        icLateFlag late = {.flag = &flag};
        atomic_init(&late.done, false);
        pthread_t thread;
        IC_REQUIRE(pthread_create(&thread, NULL, raiseLate, &late) == 0);
        icResult r;
        if (cases[i].staticSolve) {
            icStaticDef def = icDefaultStaticDef();
            def.iterationsPerStep = 2000000000;
            def.maxSweeps = 2000000000;
            def.tolerance = 1e-300;
            r = icWorld_SolveStatic(scene.world, &def, NULL);
        } else {
            r = icWorld_Step(scene.world, scene.dt, NULL);
        }
        atomic_store(&late.done, true);
        pthread_join(thread, NULL);
        IC_CHECK_MSG(r == IC_ERR_INTERRUPTED, "%s: %s", cases[i].name, icResult_Name(r));
        IC_CHECK_MSG(icWorld_HashState(scene.world) == before, "%s: the state moved", cases[i].name);
        icWorld_SetInterrupt(scene.world, NULL);
        icScene_Destroy(&scene);
    }
}
