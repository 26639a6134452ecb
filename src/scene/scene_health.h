// SPDX-License-Identifier: MIT
// The scene's top-level "health" object: the world's per-step checks and failure policy.
#pragma once

#include "scene/scene_reader.h"

/// Reads "health" (path "health") into def: policy, max_speed, max_inverted_tets,
/// max_volume_drift (docs/reliability.md). Exact codes and JSON paths as every scene key.
icResult icScene_ReadHealth(const icSceneReader *r, const cJSON *item, icHealthDef *def);
