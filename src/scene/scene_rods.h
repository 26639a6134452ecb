// SPDX-License-Identifier: MIT
// VIPER rods in scenes: the "rods" key (scene_rods.c) and the runner's rod outputs
// (rod_output.c). See docs/viper.md for the format.
#pragma once

#include "scene/scene_reader.h"
#include "isochor/rod.h"

/// Reads root's "rods" array (when present) into scene->rods, with the scene's gravity and
/// its plane colliders. Errors name the JSON path and line like the rest of the loader.
icResult icScene_ReadRods(const icSceneReader *r, const cJSON *root, icScene *scene);

/// Per-run rod outputs: rods_NNNNN.vtu (segments as lines with radius), pills_NNNNN.vtu /
/// .obj (capsule triangles) and skin_NNNNN.vtu / .obj (skinned meshes), with .pvd lists.
typedef struct icSceneRodOutput {
    bool active, vtu, obj;
    char dir[1024];
    int count, capacity;
    char *names;   ///< (capacity x 3 x 32): rods, pills, skin file names
    icReal *times; ///< (capacity)
    int *frames;   ///< (capacity) frame numbers (for checkpoints)
} icSceneRodOutput;

/// Prepares the outputs (nothing when the scene has no rods or write is false) and writes
/// frame 0; or, resuming (listed >= 0), lists the frames a checkpointed run wrote (those on
/// the output grid of `every`) instead.
icResult icSceneRods_Open(icSceneRodOutput *out, const icScene *scene, const char *dir, int frames,
                          int every, bool write, int listed, const int *listedFrames,
                          const icReal *listedTimes, icDiagnostic *diag);
/// Steps the rods by the scene's dt (IC_OK when there are none); IC_ERR_NUMERICAL on NaN.
icResult icSceneRods_Step(icScene *scene);
/// Writes frame `frame` of the rods.
icResult icSceneRods_Frame(icSceneRodOutput *out, icScene *scene, int frame, icDiagnostic *diag);
void icSceneRods_Close(icSceneRodOutput *out);
