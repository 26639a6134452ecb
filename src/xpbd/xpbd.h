// SPDX-License-Identifier: MIT
// The XPBD solver's internal interface (Macklin & Müller 2021): what its files and the
// benchmarks share; the world reaches it only through its table row (solver_ops.c).
#pragma once

#include "world/world_internal.h"

/// Makes sure model->colouring is current (rebuilds after bodies were added).
icResult icModel_UpdateColouring(icModel *model);
/// Each body's meanEdge and layers (src/xpbd/adaptive_substeps.c).
void icModel_MeasureBodies(icModel *model);

// XPBD solver (src/xpbd): one step of the dynamic solver, and the static solve.
icResult icXpbd_Step(icWorld *world, icState *state, icReal dt, icStepStats *stats);
icResult icXpbd_SolveStatic(icWorld *world, icState *state, const icStaticDef *def,
                            icStepStats *stats);
/// One Gauss-Seidel sweep over all tets in colour order with substep h (multipliers in
/// state). Returns the number of tets whose projection was skipped (degenerate).
int icXpbd_Sweep(const icModel *model, icState *state, icReal h);
/// The sweep above in its reference form: tet by tet in double in greedy colour order
/// (src/xpbd/project.c); the coupled projection uses it.
int icXpbd_SweepReference(const icModel *model, icState *state, icReal h);
/// Start of a substep's sweeps: zeroes the multipliers (the state's and the sweep's own).
void icXpbd_ClearMultipliers(const icModel *model, icState *state);
/// Before a step of `sweeps` sweeps (-1: unknown): the packed sweep then writes multipliers
/// back only in the last one when there is one sweep per substep.
void icXpbd_BeginStep(const icModel *model, int sweeps);
/// Copies the multipliers the sweep keeps in its own order to the state (end of a step).
void icXpbd_SyncMultipliers(const icModel *model, icState *state);
/// Resolves plane contacts with friction for the current substep; returns contact count.
int icXpbd_ProjectPlanes(const icModel *model, icState *state);
