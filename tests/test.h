// SPDX-License-Identifier: MIT
// A tiny test harness: IC_TEST(suite, name) registers a test; checks record failures with
// file and line and keep going. CMake turns each IC_TEST line into one ctest test, so
// IC_TEST must start a line.
#pragma once

#include "isochor/isochor.h"
#include "isochor/scene.h"

#include <math.h>
#include <stdio.h>

typedef void icTestFn(void);
void icTest_Register(const char *suite, const char *name, icTestFn *fn);
void icTest_Fail(const char *file, int line, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/// snprintf into buffer[size] that stops the test binary (exit 1, with file and line) when
/// the text does not fit: a cut path would send a test to the wrong file.
void icTest_Format(const char *file, int line, char *buffer, size_t size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/// IC_FORMAT(array, format, ...): icTest_Format into a char array.
#define IC_FORMAT(buffer, ...)                                                                     \
    icTest_Format(__FILE__, __LINE__, (buffer), sizeof(buffer), __VA_ARGS__)
/// IC_FORMAT_N(pointer, size, format, ...).
#define IC_FORMAT_N(buffer, size, ...)                                                             \
    icTest_Format(__FILE__, __LINE__, (buffer), (size), __VA_ARGS__)
/// Number of failed checks so far in the running test.
int icTest_FailureCount(void);
/// Deterministic random numbers for tests: uniform in [lo, hi).
double icTest_Uniform(double lo, double hi);
void icTest_Seed(unsigned long long seed);
/// Path of a file in the source tree (scenes/, tests/data/): IC_SOURCE_DIR "/" relative.
const char *icTest_SourcePath(const char *relative);
/// A fresh, empty scratch directory under the build tree for this test.
const char *icTest_TempDir(void);
/// A whole file, NUL-terminated (malloc'd: free it); *size (optional) gets its length.
/// NULL when it cannot be opened or read.
char *icTest_ReadFile(const char *path, size_t *size);
/// Whether two files have the same bytes (false when either cannot be read).
bool icTest_SameFile(const char *a, const char *b);
/// J = det F over the world's tets now: returns the largest |J - 1|, *minJ (optional) the
/// smallest J.
double icTest_WorstJ(const icWorld *world, double *minJ);
/// Loads a scene from text (named `name` in messages) and runs `frames` frames without frame
/// files: with a checkpoint after the last frame when checkpoint is set, from the checkpoint
/// resume when that is set. The run's result; *summary and *stateHash (each optional) get the
/// run's figures and icWorld_HashState at its end (0 when it failed); diag says why.
icResult icTest_RunSceneText(const char *text, const char *name, int frames,
                             const char *checkpoint, const char *resume, icRunSummary *summary,
                             uint64_t *stateHash, icDiagnostic *diag);
/// A resumed `isochor run` against an uninterrupted one: dir/full/<file> and dir/part/<file>
/// are the same bytes for each of files, and dir/full.json and dir/part.json (the --stats
/// outputs) agree but for their timing line. Failures are checks of the running test.
void icTest_CheckResumedRun(const char *dir, const char *const *files, int count);
/// What one run of the isochor tool left: exit status (-1 when it did not exit normally),
/// stdout and stderr (malloc'd, never NULL; icTest_FreeCli frees them).
typedef struct icCliRun {
    int status;
    char *out, *err;
} icCliRun;
/// Runs the built tool (IC_CLI_PATH) with args, shell words as typed, its streams caught in
/// dir/cli_stdout.txt and dir/cli_stderr.txt. A missing tool fails the running test.
icCliRun icTest_RunCli(const char *dir, const char *args);
void icTest_FreeCli(icCliRun *run);

#define IC_TEST(suite, name)                                                                  \
    static void icTest_##suite##_##name(void);                                                 \
    __attribute__((constructor)) static void icTestRegister_##suite##_##name(void) {          \
        icTest_Register(#suite, #name, icTest_##suite##_##name);                               \
    }                                                                                          \
    static void icTest_##suite##_##name(void)

#define IC_CHECK(cond)                                                                         \
    do {                                                                                       \
        if (!(cond)) icTest_Fail(__FILE__, __LINE__, "check failed: %s", #cond);               \
    } while (0)

#define IC_CHECK_MSG(cond, ...)                                                                \
    do {                                                                                       \
        if (!(cond)) icTest_Fail(__FILE__, __LINE__, __VA_ARGS__);                             \
    } while (0)

#define IC_CHECK_NEAR(a, b, tol)                                                               \
    do {                                                                                       \
        double icA_ = (double)(a), icB_ = (double)(b), icT_ = (double)(tol);                   \
        if (!(fabs(icA_ - icB_) <= icT_))                                                      \
            icTest_Fail(__FILE__, __LINE__, "%s = %.12g, %s = %.12g, |diff| %.3g > %.3g", #a,  \
                        icA_, #b, icB_, fabs(icA_ - icB_), icT_);                              \
    } while (0)

#define IC_CHECK_INT(a, b)                                                                     \
    do {                                                                                       \
        long long icA_ = (long long)(a), icB_ = (long long)(b);                                \
        if (icA_ != icB_)                                                                      \
            icTest_Fail(__FILE__, __LINE__, "%s = %lld, expected %s = %lld", #a, icA_, #b,     \
                        icB_);                                                                 \
    } while (0)

#define IC_CHECK_RESULT(a, expected)                                                           \
    do {                                                                                       \
        icResult icA_ = (a), icE_ = (expected);                                                \
        if (icA_ != icE_)                                                                      \
            icTest_Fail(__FILE__, __LINE__, "%s returned %s, expected %s", #a,                 \
                        icResult_Name(icA_), icResult_Name(icE_));                             \
    } while (0)

/// Stops the test when a check has failed (for checks later code depends on).
#define IC_REQUIRE(cond)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            icTest_Fail(__FILE__, __LINE__, "requirement failed: %s", #cond);                  \
            return;                                                                            \
        }                                                                                      \
    } while (0)
