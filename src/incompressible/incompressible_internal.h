// SPDX-License-Identifier: MIT
// What the incompressible solver's files share beyond the public header.
#pragma once

#include "world/world_internal.h"

/// The elastic part of body's material: its model with lambda scaled by scale (the def's
/// volumetricScale; Irving et al. 2007, sec. 5). (incompressible_step.c)
icMaterial icIncompressible_ElasticMaterial(const icBodyRecord *body, icReal scale);
