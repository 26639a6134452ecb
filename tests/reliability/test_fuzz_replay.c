// SPDX-License-Identifier: MIT
// Replays every saved fuzz input (tests/data/fuzz/<target>/, corpus and crashers/) through its
// reader without libFuzzer: no crash, a result code from the table with a matching diagnostic,
// the promises of a successful load kept, and no memory left allocated.
#include "test.h"

#include "fuzz/fuzz_targets.h"

#include <cjson/cJSON.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *s_current;
static int s_violations;

static void onViolation(const char *target, const char *what) {
    ++s_violations;
    icTest_Fail(__FILE__, __LINE__, "fuzz target %s, input %s: %s", target, s_current, what);
}

// Runs every file of dir (and its crashers/ folder) through target; returns how many.
static int replayDir(const icFuzzTarget *target, const char *dir, const char *workDir,
                     int counts[IC_RESULT_COUNT_]) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        IC_FORMAT(path, "%s/%s", dir, e->d_name);
        struct stat info;
        if (stat(path, &info) != 0) continue;
        if (S_ISDIR(info.st_mode)) {
            files += replayDir(target, path, workDir, counts);
            continue;
        }
        size_t size = 0;
        uint8_t *data = (uint8_t *)icTest_ReadFile(path, &size);
        if (!data) continue;
        s_current = path;
        int64_t bytes = icGetByteCount();
        icFuzzOutcome outcome;
        memset(&outcome, 0, sizeof outcome);
        target->run(data, size, workDir, &outcome);
        free(data);
        IC_CHECK_MSG(icGetByteCount() == bytes, "%s: %lld bytes left allocated", path,
                     (long long)(icGetByteCount() - bytes));
        if ((int)outcome.result >= 0 && outcome.result < IC_RESULT_COUNT_) ++counts[outcome.result];
        ++files;
    }
    closedir(d);
    return files;
}

static void replay(const char *name) {
    const icFuzzTarget *target = icFuzz_Find(name);
    IC_REQUIRE(target);
    icFuzz_SetViolationFn(onViolation);
    // The fuzzers' memory budget, so a reader believing a count its input cannot back shows.
    icFuzz_InstallBudget(true);
    if (strcmp(name, "checkpoint") == 0 && !icFuzz_PrepareCheckpointWorld()) {
        icFuzz_InstallBudget(false);
        IC_REQUIRE(false);
    }
    char dir[1100];
    IC_FORMAT(dir, "tests/data/fuzz/%s", name);
    int counts[IC_RESULT_COUNT_] = {0};
    int files = replayDir(target, icTest_SourcePath(dir), icTest_TempDir(), counts);
    icFuzz_Release();
    icFuzz_InstallBudget(false);
    icFuzz_SetViolationFn(NULL);
    // A corpus that lost its files would make this test pass vacuously.
    IC_CHECK_MSG(files >= 10, "only %d saved inputs for %s", files, name);
    // The corpus holds loads that succeed and loads that fail.
    IC_CHECK_MSG(counts[IC_OK] > 0, "no saved %s input loads", name);
    IC_CHECK_MSG(files - counts[IC_OK] > 0, "every saved %s input loads", name);
    printf("%s: %d inputs, %d load, %d refused\n", name, files, counts[IC_OK], files - counts[IC_OK]);
}

IC_TEST(reliability, fuzz_replay_tetgen) { replay("tetgen"); }
IC_TEST(reliability, fuzz_replay_gmsh) { replay("gmsh"); }
IC_TEST(reliability, fuzz_replay_vtk) { replay("vtk"); }
IC_TEST(reliability, fuzz_replay_vtu) { replay("vtu"); }
IC_TEST(reliability, fuzz_replay_medit) { replay("medit"); }
IC_TEST(reliability, fuzz_replay_obj) { replay("obj"); }
IC_TEST(reliability, fuzz_replay_ply) { replay("ply"); }
IC_TEST(reliability, fuzz_replay_stl) { replay("stl"); }
IC_TEST(reliability, fuzz_replay_off) { replay("off"); }
IC_TEST(reliability, fuzz_replay_scene) { replay("scene"); }
IC_TEST(reliability, fuzz_replay_checkpoint) { replay("checkpoint"); }
IC_TEST(reliability, fuzz_replay_scene_run) { replay("scene_run"); }

// Every target has a corpus folder and every corpus folder a target.
IC_TEST(reliability, fuzz_targets_have_corpora) {
    IC_CHECK_INT(icFuzz_TargetCount, 12);
    for (int i = 0; i < icFuzz_TargetCount; ++i) {
        char dir[256];
        IC_FORMAT(dir, "tests/data/fuzz/%s", icFuzz_Targets[i].name);
        struct stat info;
        IC_CHECK_MSG(stat(icTest_SourcePath(dir), &info) == 0 && S_ISDIR(info.st_mode),
                     "no corpus folder %s", dir);
    }
    DIR *d = opendir(icTest_SourcePath("tests/data/fuzz"));
    IC_REQUIRE(d);
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.' && strcmp(e->d_name, "README.md") != 0)
            IC_CHECK_MSG(icFuzz_Find(e->d_name) != NULL, "corpus folder %s has no target",
                         e->d_name);
    closedir(d);
}

// The inputs that crashed a reader, each with the result it gives now that it is fixed.
IC_TEST(reliability, fuzz_crashers_fail_cleanly) {
    static const struct {
        const char *target, *file;
        icResult code;
        const char *words; ///< in the diagnostic's message
    } cases[] = {
        // A self-closing ascii DataArray (no content) handed NULL to the text cursor (UBSan).
        {"vtu", "self_closing_ascii_array.vtu", IC_ERR_PARSE, "has 0 values, expected 5"},
        // A "region" cell array holding -8.6e9 was cast to int (UBSan: out of range).
        {"vtu", "region_out_of_int_range.vtu", IC_OK, ""},
        // An offset of 2^36 made the reader allocate 343 GB for a 3 kB file (ASan: out of
        // memory; found by replaying the corpus without the fuzzers' memory budget).
        {"vtu", "offsets_claim_huge_connectivity.vtu", IC_ERR_PARSE, "more than the file holds"},
        // A checkpoint (checksum made right) with the substep count at INT64_MAX: the next
        // step overflowed it (UBSan). Counts near overflow are refused now.
        {"checkpoint", "substep_count_overflows.ckpt", IC_ERR_PARSE, ""},
        // A second CELL_TYPES section leaked the first one's array.
        {"vtk", "two_cell_types_sections_leak.vtk", IC_ERR_UNSUPPORTED, "more than one CELL_TYPES"},
        // A contact thickness of 1e6 m made the spatial hash's cell count of one box overflow
        // 64 bits (UBSan: signed overflow in hash_grid.c). The count is capped now; the scene
        // loads and runs.
        {"scene_run", "contact_thickness_overflows_grid.json", IC_OK, ""},
        // A static pseudo step of 1e9 sweeps (iterations_per_step) read the interrupt flag
        // only between pseudo steps: the run's 0.2 s stop came after minutes (a libFuzzer
        // timeout). The flag is read between sweeps now.
        {"scene_run", "static_pseudo_step_of_1e9_sweeps.json", IC_OK, ""},
    };
    icFuzz_SetViolationFn(onViolation);
    icFuzz_InstallBudget(true);
    IC_REQUIRE(icFuzz_PrepareCheckpointWorld());
    const char *work = icTest_TempDir();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char path[512];
        IC_FORMAT(path, "tests/data/fuzz/%s/crashers/%s", cases[i].target, cases[i].file);
        size_t size = 0;
        uint8_t *data = (uint8_t *)icTest_ReadFile(icTest_SourcePath(path), &size);
        IC_CHECK_MSG(data != NULL, "%s is missing", path);
        if (!data) continue;
        s_current = path;
        int64_t bytes = icGetByteCount();
        icFuzzOutcome outcome;
        memset(&outcome, 0, sizeof outcome);
        icFuzz_Find(cases[i].target)->run(data, size, work, &outcome);
        free(data);
        IC_CHECK_MSG(outcome.result == cases[i].code, "%s: %s, expected %s (%s)", path,
                     icResult_Name(outcome.result), icResult_Name(cases[i].code),
                     outcome.diag.message);
        IC_CHECK_MSG(strstr(outcome.diag.message, cases[i].words) != NULL, "%s: message '%s'", path,
                     outcome.diag.message);
        IC_CHECK_INT(icGetByteCount(), bytes);
    }
    icFuzz_Release();
    icFuzz_InstallBudget(false);
    icFuzz_SetViolationFn(NULL);
}

// The scene_run target's mutator: the same seed gives the same bytes, what it returns is JSON
// within maxSize, most seeds change the scene, and what is not JSON is left to the byte
// mutations (0).
IC_TEST(reliability, json_mutator_keeps_json_and_repeats_itself) {
    size_t size = 0;
    char *scene = icTest_ReadFile(icTest_SourcePath("scenes/demo.json"), &size);
    IC_REQUIRE(scene);
    enum { ROOM = 1 << 16 };
    uint8_t *a = malloc(ROOM), *b = malloc(ROOM);
    IC_REQUIRE(a && b && size < ROOM);
    int changed = 0;
    for (unsigned seed = 1; seed <= 300; ++seed) {
        memcpy(a, scene, size);
        memcpy(b, scene, size);
        size_t na = icFuzz_MutateJson(a, size, ROOM, seed), nb = icFuzz_MutateJson(b, size, ROOM, seed);
        IC_CHECK_MSG(na == nb && memcmp(a, b, na) == 0, "seed %u: two different results", seed);
        if (na == 0) continue;
        cJSON *parsed = cJSON_ParseWithLength((const char *)a, na);
        IC_CHECK_MSG(parsed != NULL, "seed %u: not JSON", seed);
        cJSON_Delete(parsed);
        changed += na != size || memcmp(a, scene, size) != 0;
    }
    IC_CHECK_MSG(changed >= 250, "only %d of 300 seeds changed the scene", changed);
    memcpy(a, scene, size);
    IC_CHECK_INT((int)icFuzz_MutateJson(a, size, 16, 7), 0); // no room
    memcpy(a, "{\"dt\": ", 7);
    IC_CHECK_INT((int)icFuzz_MutateJson(a, 7, ROOM, 7), 0); // not JSON
    free(a);
    free(b);
    free(scene);
}
