// SPDX-License-Identifier: MIT
// The per-vertex passes of a substep (xpbd/substep.c): what a pass does, and its entry point.
#pragma once

#include "world/world_internal.h"

/// Stages of a pass, applied to each vertex in this order.
enum {
    IC_XPBD_PASS_COPY_OUT = 1,   ///< packed working copy -> state x (after a packed sweep)
    IC_XPBD_PASS_PLANES = 2,     ///< plane contact with friction
    IC_XPBD_PASS_VELOCITIES = 4, ///< v = (x - x_prev) / (h (1 + c h)): end of a substep
    IC_XPBD_PASS_PREDICT = 8,    ///< x_prev = x, gravity, pins at time t: start of a substep
    IC_XPBD_PASS_COPY_IN = 16,   ///< state -> packed working copy (before a packed sweep)
};

typedef struct icXpbdPass {
    unsigned what;   ///< IC_XPBD_PASS_* bits
    icReal h;        ///< substep, s (velocities and prediction)
    icReal t;        ///< prediction: the time pins are evaluated at, s
    icVec3 gravity;  ///< prediction: m/s^2
    bool inertia;    ///< prediction: keep the velocities (false: start from rest)
} icXpbdPass;

/// Runs the pass over all vertices on the model's workers (the copies need
/// icXpbd_PackedUsable). A pass that predicts and copies in starts a substep: the float
/// origins move to the new start positions. Returns the plane contacts, or -1 when the working
/// copy could not be filled (out of memory for per-axis inverse masses; the state is right).
int icXpbd_RunPass(icWorld *world, icState *state, const icXpbdPass *pass);

/// No position is NaN or infinite (checked on the workers).
bool icXpbd_PositionsFinite(const icModel *model, const icState *state);
/// The substeps of a step of dt from state s: def.substeps, raised (up to def.maxSubsteps)
/// while the deformation rate exceeds def.maxSubstepStrain per substep
/// (src/xpbd/adaptive_substeps.c).
int icXpbd_SubstepsFor(const icModel *model, const icState *state, icReal dt);
