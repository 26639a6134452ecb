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

// Run block (little-endian): u32 version (2), u32 reserved (0), i64 frame, f64 solver
// seconds, f64 min V/V0, f64 max V/V0, i64 sweeps, i64 frames not converged, i64 output
// count n, then n x (i64 frame, f64 time); then the rods: i64 rod output count m, m x (i64
// frame, f64 time), f64 min and max rod V/V0, i64 rod state bytes b and the bytes,
// zero-padded to whole words (b = 0 without rods). Version 1 ends after the output list (no
// rods).
#define IC_RUN_VERSION 2u
#define IC_RUN_FIXED 64u

void icRunCheckpoint_Destroy(icRunCheckpoint *run) {
    if (!run) return;
    icFree(run->outputFrames);
    icFree(run->outputTimes);
    icFree(run->rodOutputFrames);
    icFree(run->rodOutputTimes);
    icFree(run->rodState);
    memset(run, 0, sizeof *run);
}

static size_t wordsFor(size_t bytes) { return (bytes + 7) / 8 * 8; }

// Writes a list of n (frame, time) pairs at p; returns the end.
static uint8_t *putList(uint8_t *p, int n, const int *frames, const icReal *times) {
    for (int i = 0; i < n; ++i, p += 16) {
        icBytes_Put64(p, (uint64_t)frames[i]);
        icBytes_PutReal(p + 8, times[i]);
    }
    return p;
}

icResult icCheckpoint_Write(const char *path, const icWorld *world, const icRunCheckpoint *run,
                            icDiagnostic *diag) {
    if (!path || !path[0] || !world)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no checkpoint path or world");
    uint8_t *block = NULL;
    size_t blockSize = 0;
    if (run) {
        if (run->outputCount < 0 || (run->outputCount > 0 && (!run->outputFrames || !run->outputTimes)) ||
            run->rodOutputCount < 0 ||
            (run->rodOutputCount > 0 && (!run->rodOutputFrames || !run->rodOutputTimes)) ||
            (run->rodStateSize > 0 && !run->rodState))
            return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0, "bad run block");
        blockSize = IC_RUN_FIXED + 16 * (size_t)run->outputCount + 8 +
                    16 * (size_t)run->rodOutputCount + 24 + wordsFor(run->rodStateSize);
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
        uint8_t *p = putList(block + IC_RUN_FIXED, run->outputCount, run->outputFrames,
                             run->outputTimes);
        icBytes_Put64(p, (uint64_t)run->rodOutputCount);
        p = putList(p + 8, run->rodOutputCount, run->rodOutputFrames, run->rodOutputTimes);
        icBytes_PutReal(p, run->rodVolumeRatioMin);
        icBytes_PutReal(p + 8, run->rodVolumeRatioMax);
        icBytes_Put64(p + 16, (uint64_t)run->rodStateSize);
        if (run->rodStateSize) memcpy(p + 24, run->rodState, run->rodStateSize);
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

// A list of count (frame, time) pairs at p: frames increase, none lies past the checkpoint's
// frame, and their times (the clock at each frame) increase from 0.
static icResult readList(const char *name, const uint8_t *p, int count, uint64_t last,
                         const char *what, int **framesOut, icReal **timesOut, icDiagnostic *diag) {
    int *frames = IC_ALLOC(int, count + 1);
    icReal *times = IC_ALLOC(icReal, count + 1);
    if (!frames || !times) {
        icFree(frames);
        icFree(times);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, name, 0, "out of memory");
    }
    for (int i = 0; i < count; ++i) {
        uint64_t f = icBytes_Get64(p + 16 * (size_t)i);
        double t = icBytes_GetReal(p + 16 * (size_t)i + 8);
        if (f > last || (i > 0 && f <= (uint64_t)frames[i - 1]) || !isfinite(t) || t < 0 ||
            (i > 0 && t <= times[i - 1])) {
            icFree(frames);
            icFree(times);
            return icDiag_Set(diag, IC_ERR_PARSE, name, 0,
                              "checkpoint run block lists %s %llu (at %g s) out of order", what,
                              (unsigned long long)f, t);
        }
        frames[i] = (int)f;
        times[i] = t;
    }
    *framesOut = frames;
    *timesOut = times;
    return IC_OK;
}

// The run block, checked before anything is kept.
static icResult readRun(const char *name, const uint8_t *p, size_t size, icRunCheckpoint *run,
                        icDiagnostic *diag) {
    if (!p || size < IC_RUN_FIXED)
        return icDiag_Set(diag, IC_ERR_PARSE, name, 0,
                          "checkpoint has no run block (it was not written by a scene run)");
    uint64_t version = icBytes_Get64(p);
    if (version != 1 && version != IC_RUN_VERSION)
        return icDiag_Set(diag, IC_ERR_UNSUPPORTED, name, 0,
                          "checkpoint run block version %llu is not supported",
                          (unsigned long long)version);
    uint64_t frame = icBytes_Get64(p + 8), count = icBytes_Get64(p + 56);
    uint64_t sweeps = icBytes_Get64(p + 40), notConverged = icBytes_Get64(p + 48);
    double seconds = icBytes_GetReal(p + 16), lo = icBytes_GetReal(p + 24), hi = icBytes_GetReal(p + 32);
    // The sections after the fixed part, each checked against the bytes left.
    size_t left = size - IC_RUN_FIXED, rodListAt = 0, rodStateAt = 0;
    uint64_t rodCount = 0, rodBytes = 0;
    double rodLo = 1, rodHi = 1;
    bool consistent = frame <= INT_MAX && notConverged <= frame && sweeps <= (uint64_t)LONG_MAX &&
                      count <= frame + 1 && count <= left / 16;
    if (consistent) left -= 16 * count;
    if (consistent && version >= 2) {
        consistent = left >= 8;
        if (consistent) rodCount = icBytes_Get64(p + size - left), left -= 8;
        rodListAt = size - left;
        consistent = consistent && rodCount <= frame + 1 && rodCount <= left / 16;
        if (consistent) left -= 16 * rodCount;
        consistent = consistent && left >= 24;
        if (consistent) {
            rodLo = icBytes_GetReal(p + size - left);
            rodHi = icBytes_GetReal(p + size - left + 8);
            rodBytes = icBytes_Get64(p + size - left + 16);
            left -= 24;
        }
        rodStateAt = size - left;
        consistent = consistent && rodBytes <= left && wordsFor(rodBytes) == left;
        for (size_t k = rodBytes; consistent && k < left; ++k) consistent = p[rodStateAt + k] == 0;
        if (consistent) left = 0;
    }
    if (!consistent || left != 0)
        return icDiag_Set(diag, IC_ERR_PARSE, name, 0,
                          "checkpoint run block is inconsistent (frame %llu, %llu frames listed, "
                          "%llu bytes)",
                          (unsigned long long)frame, (unsigned long long)count,
                          (unsigned long long)size);
    if (!isfinite(seconds) || !isfinite(lo) || !isfinite(hi) || !isfinite(rodLo) ||
        !isfinite(rodHi))
        return icDiag_Set(diag, IC_ERR_NOT_FINITE, name, 0,
                          "checkpoint run block holds NaN or infinite figures");
    // A run's clock and its V/V0 extremes are figures it measured: solver time is never
    // negative, and the smallest ratio is never above the largest.
    if (seconds < 0 || lo > hi || rodLo > rodHi)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, name, 0,
                          "checkpoint run block figures are impossible (solver time %g s, V/V0 "
                          "from %g to %g, rod V/V0 from %g to %g)",
                          seconds, lo, hi, rodLo, rodHi);
    icRunCheckpoint r;
    memset(&r, 0, sizeof r);
    icResult e = readList(name, p + IC_RUN_FIXED, (int)count, frame, "frame", &r.outputFrames,
                          &r.outputTimes, diag);
    if (e == IC_OK)
        e = readList(name, p + rodListAt, (int)rodCount, frame, "rod frame", &r.rodOutputFrames,
                     &r.rodOutputTimes, diag);
    if (e == IC_OK && rodBytes > 0) {
        r.rodState = icAlloc(rodBytes);
        if (r.rodState) memcpy(r.rodState, p + rodStateAt, rodBytes);
        else e = icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, name, 0, "out of memory");
    }
    if (e != IC_OK) {
        icRunCheckpoint_Destroy(&r);
        return e;
    }
    r.frame = (int)frame;
    r.solverSeconds = seconds;
    r.volumeRatioMin = lo;
    r.volumeRatioMax = hi;
    r.sweepsTotal = (long)sweeps;
    r.notConverged = (int)notConverged;
    r.outputCount = (int)count;
    r.rodOutputCount = (int)rodCount;
    r.rodStateSize = (size_t)rodBytes;
    r.rodVolumeRatioMin = rodLo;
    r.rodVolumeRatioMax = rodHi;
    *run = r;
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
