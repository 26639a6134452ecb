// SPDX-License-Identifier: MIT
// Fuzz targets: one function per reader that feeds it bytes through the public loading path
// and checks what a successful load promises. Shared by the libFuzzer harnesses
// (fuzz_main.c, built with -DISOCHOR_FUZZ=ON) and the replay test of the saved corpus.
#pragma once

#include "isochor/isochor.h"

#include <stddef.h>
#include <stdint.h>

/// What one input did: the loader's result and its diagnostic.
typedef struct icFuzzOutcome {
    icResult result;
    icDiagnostic diag;
} icFuzzOutcome;

/// A reader under test. run writes data to files in workDir as the reader needs them, loads
/// them and checks the result's promises; a broken promise calls icFuzz_Violation.
typedef struct icFuzzTarget {
    const char *name; ///< also the folder of its corpus: tests/data/fuzz/<name>/
    void (*run)(const uint8_t *data, size_t size, const char *workDir, icFuzzOutcome *out);
} icFuzzTarget;

extern const icFuzzTarget icFuzz_Targets[];
extern const int icFuzz_TargetCount;
const icFuzzTarget *icFuzz_Find(const char *name);

/// Called when a loader breaks a promise (a failure without a diagnostic, indices out of range
/// after a successful load, ...). The fuzzers abort; the replay test records a failure.
typedef void icFuzzViolationFn(const char *target, const char *what);
void icFuzz_SetViolationFn(icFuzzViolationFn *fn);

/// Routes the library's allocations through the targets' memory budget (install) or back to
/// malloc. Install before the first library allocation, remove after the last free.
void icFuzz_InstallBudget(bool install);

/// Makes the fixed world the checkpoint target loads into (idempotent). Returns false when
/// it cannot be built.
bool icFuzz_PrepareCheckpointWorld(void);
/// Releases what the targets keep between inputs (the checkpoint world).
void icFuzz_Release(void);
/// A valid checkpoint of the checkpoint target's world (after a few steps), for seeding the
/// corpus; free with icFree.
bool icFuzz_MakeCheckpointSeed(const char *workDir, uint8_t **data, size_t *size);

/// Reports a broken promise of target (as the readers' targets do).
void icFuzz_Violation(const char *target, const char *what);
/// Turns the fuzzers' allocation cap on at `bytes` for the input under way.
void icFuzz_SetBudgetBytes(size_t bytes);
/// Writes the scene text data to workDir/run.json (path gets its name) beside the small
/// TetGen mesh m.node/m.ele the scene inputs may name. False for a text naming a device,
/// /proc or /sys, or when a file cannot be written.
bool icFuzz_WriteSceneFiles(const uint8_t *data, size_t size, const char *workDir, char *path,
                            size_t pathSize);

/// The structure-aware scene target (fuzz_scene_run.c): loads data as a scene and runs its
/// first two frames, stopped after 0.2 s by the interrupt flag.
void icFuzz_RunSceneFrames(const uint8_t *data, size_t size, const char *workDir,
                           icFuzzOutcome *out);
/// One to three mutations of the JSON tree in data (size bytes, room for maxSize): a value
/// replaced by an extreme or a known word, an element or member dropped, doubled, renamed or
/// replaced by a copy of another subtree. Returns the new size, 0 when data is not JSON or
/// the result does not fit (the caller then mutates bytes).
size_t icFuzz_MutateJson(uint8_t *data, size_t size, size_t maxSize, unsigned seed);
