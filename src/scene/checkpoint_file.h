// SPDX-License-Identifier: MIT
// Checkpoint files of a scene run: the engine's checkpoint (icWorld_SaveCheckpoint) with the
// run's position in its user block, written atomically and read back whole.
#pragma once

#include "isochor/io.h"

/// Where a run stands: what a resumed run needs besides the world's state to write the same
/// files and figures as an uninterrupted one.
typedef struct icRunCheckpoint {
    int frame;             ///< frames done
    double solverSeconds;  ///< solver time so far (for ms/frame)
    icReal volumeRatioMin, volumeRatioMax;
    long sweepsTotal;
    int notConverged;
    int outputCount;       ///< frames listed in the .pvd so far
    int *outputFrames;     ///< (outputCount) their numbers
    icReal *outputTimes;   ///< (outputCount) their times, s
    int rodOutputCount;    ///< rod frames listed in rods.pvd so far (the rods' own clock)
    int *rodOutputFrames;  ///< (rodOutputCount) their numbers
    icReal *rodOutputTimes; ///< (rodOutputCount) their times, s
    icReal rodVolumeRatioMin, rodVolumeRatioMax; ///< the rods' V/V0 extremes so far (1: none)
    uint8_t *rodState;     ///< the rods' icRodWorld_SaveState bytes; NULL: a scene without rods
    size_t rodStateSize;   ///< their size
} icRunCheckpoint;

/// Writes world and run (NULL: no run block) to path atomically, creating its folder.
icResult icCheckpoint_Write(const char *path, const icWorld *world, const icRunCheckpoint *run,
                            icDiagnostic *diag);
/// Restores world from path and fills run (NULL: ignored; free with icRunCheckpoint_Destroy).
/// The world is unchanged unless the whole file checks out; the rods' state is only read into
/// run (the caller restores it with icRodWorld_LoadState). Errors name the file.
icResult icCheckpoint_Read(const char *path, icWorld *world, icRunCheckpoint *run,
                           icDiagnostic *diag);
/// Parses a checkpoint held in memory (the fuzz target's entry); name is used in messages.
icResult icCheckpoint_ReadBuffer(const char *name, const void *data, size_t size, icWorld *world,
                                 icRunCheckpoint *run, icDiagnostic *diag);
void icRunCheckpoint_Destroy(icRunCheckpoint *run);
