// SPDX-License-Identifier: MIT
// libFuzzer entry point of one target, chosen at compile time with -DIC_FUZZ_TARGET="name"
// (CMake option ISOCHOR_FUZZ builds fuzz_<name> for every target). Without the define (the
// test executable globs this file too) it compiles to nothing.
#ifdef IC_FUZZ_TARGET
#define _POSIX_C_SOURCE 200809L
#include "fuzz/fuzz_targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char s_workDir[256];
static const icFuzzTarget *s_target;

static void onViolation(const char *target, const char *what) {
    fprintf(stderr, "fuzz_%s: broken promise: %s\n", target, what);
    abort();
}

static void removeWorkDir(void) {
    icFuzz_Release();
    char command[400];
    snprintf(command, sizeof command, "rm -rf '%s'", s_workDir);
    if (s_workDir[0] && system(command) != 0) fprintf(stderr, "cannot remove %s\n", s_workDir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    s_target = icFuzz_Find(IC_FUZZ_TARGET);
    if (!s_target) {
        fprintf(stderr, "unknown fuzz target %s\n", IC_FUZZ_TARGET);
        abort();
    }
    // Files the readers open live in memory when /dev/shm is there.
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(s_workDir, sizeof s_workDir, "%s/isochor-fuzz-%s-XXXXXX", base, IC_FUZZ_TARGET);
    if (!mkdtemp(s_workDir)) {
        perror("mkdtemp");
        abort();
    }
    atexit(removeWorkDir);
    icFuzz_InstallBudget(true);
    icFuzz_SetViolationFn(onViolation);
    if (strcmp(IC_FUZZ_TARGET, "checkpoint") == 0 && !icFuzz_PrepareCheckpointWorld()) abort();
    // IC_FUZZ_WRITE_SEED=FILE: write a valid checkpoint of the target's world and stop (to
    // seed the checkpoint corpus).
    const char *seedPath = getenv("IC_FUZZ_WRITE_SEED");
    if (seedPath) {
        uint8_t *seed = NULL;
        size_t seedSize = 0;
        FILE *fp = icFuzz_MakeCheckpointSeed(s_workDir, &seed, &seedSize) ? fopen(seedPath, "wb") : NULL;
        bool ok = fp && fwrite(seed, 1, seedSize, fp) == seedSize;
        if (fp) ok = fclose(fp) == 0 && ok;
        free(seed);
        exit(ok ? 0 : 1);
    }
    return 0;
}

#ifdef IC_FUZZ_JSON_MUTATOR
// The scene_run target mutates the JSON tree three times in four (icFuzz_MutateJson), and
// bytes otherwise (or when the input is not JSON).
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize, unsigned int seed) {
    size_t n = seed % 4 != 0 ? icFuzz_MutateJson(data, size, maxSize, seed) : 0;
    return n ? n : LLVMFuzzerMutate(data, size, maxSize);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    icFuzzOutcome outcome;
    memset(&outcome, 0, sizeof outcome);
    int64_t before = icGetByteCount();
    s_target->run(data, size, s_workDir, &outcome);
    if (icGetByteCount() != before) onViolation(IC_FUZZ_TARGET, "memory leaked by a load");
    return 0;
}
#else
typedef int icFuzzMainIsEmptyWithoutATarget;
#endif
