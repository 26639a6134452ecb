// SPDX-License-Identifier: MIT
/// \file
/// Mesh formats (isochor_formats) and scenes (isochor_scene) in one include.
#pragma once

#include "isochor/formats.h"
#include "isochor/scene.h"
