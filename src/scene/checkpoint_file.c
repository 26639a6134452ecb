// SPDX-License-Identifier: MIT
// Checkpoint files: the engine's checkpoint buffer with a run block (frame, figures so far,
// frames listed in the .pvd) as its user data, written atomically, read and checked whole.
#include "scene/checkpoint_file.h"

#include "core/bytes.h"
#include "core/core.h"
#include "formats/fmt_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

// Run block (little-endian): u32 version (1), u32 reserved (0), i64 frame, f64 solver
// seconds, f64 min V/V0, f64 max V/V0, i64 sweeps, i64 frames not converged, i64 output
// count n, then n x (i64 frame, f64 time).
#define IC_RUN_VERSION 1u
#define IC_RUN_FIXED 64u

void icRunCheckpoint_Destroy(icRunCheckpoint *run) {
    if (!run) return;
    icFree(run->outputFrames);
    icFree(run->outputTimes);
    memset(run, 0, sizeof *run);
}

icResult icCheckpoint_Write(const char *path, const icWorld *world, const icRunCheckpoint *run,
                            icDiagnostic *diag) {
    if (!path || !path[0] || !world)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no checkpoint path or world");
    uint8_t *block = NULL;
    size_t blockSize = 0;
    if (run) {
        if (run->outputCount < 0 || (run->outputCount > 0 && (!run->outputFrames || !run->outputTimes)))
            return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0, "bad run block");
        blockSize = IC_RUN_FIXED + 16 * (size_t)run->outputCount;
        block = icAllocZero(blockSize);
        if (!block) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
        icBytes_Put64(block, IC_RUN_VERSION);
        icBytes_Put64(block + 8, (uint64_t)run->frame);
        icBytes_PutReal(block + 16, run->solverSeconds);
        icBytes_PutReal(block + 24, run->volumeRatioMin);
        icBytes_PutReal(block + 32, run->volumeRatioMax);
        icBytes_Put64(block + 40, (uint64_t)(int64_t)run->sweepsTotal);
        icBytes_Put64(block + 48, (uint64_t)run->notConverged);
        icBytes_Put64(block + 56, (uint64_t)run->outputCount);
        for (int i = 0; i < run->outputCount; ++i) {
            icBytes_Put64(block + IC_RUN_FIXED + 16 * (size_t)i, (uint64_t)run->outputFrames[i]);
            icBytes_PutReal(block + IC_RUN_FIXED + 16 * (size_t)i + 8, run->outputTimes[i]);
        }
    }
    void *data = NULL;
    size_t size = 0;
    icResult r = icWorld_SaveCheckpoint(world, block, blockSize, &data, &size);
    icFree(block);
    if (r != IC_OK)
        return icDiag_Set(diag, r, path, 0, "cannot make a checkpoint: %s", icResult_Message(r));

    char dir[1024];
    icPath_Dir(path, dir, sizeof dir);
    r = icMakeDirectories(dir, diag);
    icAtomicFile file;
    if (r == IC_OK) r = icAtomicFile_Open(&file, path, diag);
    if (r == IC_OK) {
        fwrite(data, 1, size, file.fp);
        r = icAtomicFile_Commit(&file, diag);
    }
    icFree(data);
    return r;
}

// The run block, checked before anything is kept.
static icResult readRun(const char *name, const uint8_t *p, size_t size, icRunCheckpoint *run,
                        icDiagnostic *diag) {
    if (!p || size < IC_RUN_FIXED)
        return icDiag_Set(diag, IC_ERR_PARSE, name, 0,
                          "checkpoint has no run block (it was not written by a scene run)");
    if (icBytes_Get64(p) != IC_RUN_VERSION)
        return icDiag_Set(diag, IC_ERR_UNSUPPORTED, name, 0,
                          "checkpoint run block version %llu is not supported",
                          (unsigned long long)icBytes_Get64(p));
    uint64_t frame = icBytes_Get64(p + 8), count = icBytes_Get64(p + 56);
    uint64_t sweeps = icBytes_Get64(p + 40), notConverged = icBytes_Get64(p + 48);
    double seconds = icBytes_GetReal(p + 16), lo = icBytes_GetReal(p + 24), hi = icBytes_GetReal(p + 32);
    if (frame > INT_MAX || notConverged > frame || sweeps > (uint64_t)LONG_MAX ||
        count > frame + 1 || count != (size - IC_RUN_FIXED) / 16 ||
        (size - IC_RUN_FIXED) % 16 != 0)
        return icDiag_Set(diag, IC_ERR_PARSE, name, 0,
                          "checkpoint run block is inconsistent (frame %llu, %llu frames listed, "
                          "%llu bytes)",
                          (unsigned long long)frame, (unsigned long long)count,
                          (unsigned long long)size);
    if (!isfinite(seconds) || !isfinite(lo) || !isfinite(hi))
        return icDiag_Set(diag, IC_ERR_NOT_FINITE, name, 0,
                          "checkpoint run block holds NaN or infinite figures");
    // A run's clock and its V/V0 extremes are figures it measured: solver time is never
    // negative, and the smallest ratio is never above the largest.
    if (seconds < 0 || lo > hi)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, name, 0,
                          "checkpoint run block figures are impossible (solver time %g s, V/V0 "
                          "from %g to %g)",
                          seconds, lo, hi);
    int n = (int)count;
    int *frames = IC_ALLOC(int, n + 1);
    icReal *times = IC_ALLOC(icReal, n + 1);
    if (!frames || !times) {
        icFree(frames);
        icFree(times);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, name, 0, "out of memory");
    }
    for (int i = 0; i < n; ++i) {
        uint64_t f = icBytes_Get64(p + IC_RUN_FIXED + 16 * (size_t)i);
        double t = icBytes_GetReal(p + IC_RUN_FIXED + 16 * (size_t)i + 8);
        // Listed frames increase, none lies past the checkpoint's frame, and their times
        // (frame x dt) increase from 0.
        if (f > frame || (i > 0 && f <= (uint64_t)frames[i - 1]) || !isfinite(t) || t < 0 ||
            (i > 0 && t <= times[i - 1])) {
            icFree(frames);
            icFree(times);
            return icDiag_Set(diag, IC_ERR_PARSE, name, 0,
                              "checkpoint run block lists frame %llu (at %g s) out of order",
                              (unsigned long long)f, t);
        }
        frames[i] = (int)f;
        times[i] = t;
    }
    run->frame = (int)frame;
    run->solverSeconds = seconds;
    run->volumeRatioMin = lo;
    run->volumeRatioMax = hi;
    run->sweepsTotal = (long)sweeps;
    run->notConverged = (int)notConverged;
    run->outputCount = n;
    run->outputFrames = frames;
    run->outputTimes = times;
    return IC_OK;
}

icResult icCheckpoint_ReadBuffer(const char *name, const void *data, size_t size, icWorld *world,
                                 icRunCheckpoint *run, icDiagnostic *diag) {
    if (run) memset(run, 0, sizeof *run);
    // Checked whole (engine part and run block) before the world changes.
    const void *user = NULL;
    size_t userSize = 0;
    icResult r = icWorld_CheckCheckpoint(world, data, size, &user, &userSize, diag);
    if (r == IC_OK && run) r = readRun(name, user, userSize, run, diag);
    if (r == IC_OK) r = icWorld_LoadCheckpoint(world, data, size, NULL, NULL, diag);
    if (r != IC_OK) {
        // The engine's diagnostic has no file: name it.
        if (diag && !diag->file[0]) snprintf(diag->file, sizeof diag->file, "%s", name);
        icRunCheckpoint_Destroy(run);
    }
    return r;
}

icResult icCheckpoint_Read(const char *path, icWorld *world, icRunCheckpoint *run,
                           icDiagnostic *diag) {
    if (run) memset(run, 0, sizeof *run);
    if (!path || !path[0] || !world)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no checkpoint path or world");
    char *data = NULL;
    size_t size = 0;
    icResult r = icReadFile(path, &data, &size, diag);
    if (r != IC_OK) return r;
    r = icCheckpoint_ReadBuffer(path, data, size, world, run, diag);
    icFree(data);
    return r;
}

icResult icSaveCheckpoint(const char *path, const icWorld *world, icDiagnostic *diag) {
    return icCheckpoint_Write(path, world, NULL, diag);
}

icResult icLoadCheckpoint(const char *path, icWorld *world, icDiagnostic *diag) {
    return icCheckpoint_Read(path, world, NULL, diag);
}
