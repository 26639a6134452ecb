// SPDX-License-Identifier: MIT
// Internal constants of the XPBD Neo-Hookean constraints (the functions are public in world.h).
#pragma once

#include "isochor/world.h"

/// Below this r_S = |F| the deviatoric gradient is treated as zero (F ~ 0 is degenerate).
#define IC_XPBD_MIN_RS 1e-9
/// Projections whose denominator is below this are skipped (all vertices held, or zero
/// gradient), rather than dividing by ~0.
#define IC_XPBD_MIN_DENOMINATOR 1e-30
