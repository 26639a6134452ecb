// SPDX-License-Identifier: MIT
// The world's model (never changed by a step) and state (what a step changes). Internal:
// solvers in src/xpbd and src/fem read these directly.
#pragma once

#include "core/core.h"
#include "isochor/fem.h"
#include "isochor/world.h"

/// One soft body's slice of the global arrays and its material.
typedef struct icBodyRecord {
    int vertexStart, vertexCount;
    int tetStart, tetCount;
    uint16_t generation;
    icSoftBodyDef def;
    icReal mu, lambda; ///< Lamé parameters (lambda = +inf at nu = 0.5)
} icBodyRecord;

/// A pinned vertex's prescribed motion (shared by all vertices of one icPinDef).
typedef struct icPinRecord {
    int motionCount;
    icMotion motions[IC_MAX_MOTIONS];
    bool axes[3];
} icPinRecord;

typedef struct icPlane {
    icVec3 normal; ///< unit
    icReal offset;
    icReal friction;
} icPlane;

/// Everything a step reads but never writes. Flat arrays over all bodies.
typedef struct icModel {
    icWorldDef def;
    int vertexCount, tetCount, bodyCount;
    int vertexCapacity, tetCapacity, bodyCapacity;
    icReal *restPositions; ///< (vertexCount x 3) metres
    icReal *mass;          ///< (vertexCount) kg, lumped rho V / 4 per tet
    icReal *invMass;       ///< (vertexCount x 3) 1/m per axis, 0 on held axes
    int *vertexPin;        ///< (vertexCount) pin record index or -1
    icReal *pinBase;       ///< (vertexCount x 3) position when pinned (p0 of icMotion)
    int *tets;             ///< (tetCount x 4) global vertex indices
    int *tetBody;          ///< (tetCount) body index
    icMat3 *invRest;       ///< (tetCount) Q = Dm^-1
    icReal *restVolume;    ///< (tetCount) V > 0, m^3
    icReal *alphaD;        ///< (tetCount) deviatoric compliance 1/(mu V)
    icReal *alphaH;        ///< (tetCount) hydrostatic compliance 1/(lambda V), 0 at nu = 0.5
    icReal *gamma;         ///< (tetCount) 1 + mu/lambda (or 1 without the rest shift)
    icReal *damping;       ///< (tetCount) XPBD damping beta, seconds
    icReal totalRestVolume;
    icBodyRecord *bodies;  ///< (bodyCount)
    icPinRecord *pins;
    int pinCount, pinCapacity;
    icPlane *planes;
    int planeCount, planeCapacity;
    icColouring colouring; ///< valid when !colouringDirty
    bool colouringDirty;
    int revision;          ///< bumped when vertices/tets are added (states must match)
} icModel;

/// What a step changes.
struct icState {
    int revision; ///< model revision this state was sized for
    int vertexCount, tetCount;
    icReal time;           ///< seconds
    icReal *x;             ///< (vertexCount x 3) positions
    icReal *v;             ///< (vertexCount x 3) velocities
    icReal *xPrev;         ///< (vertexCount x 3) positions at the start of the substep
    icReal *lambdaD;       ///< (tetCount) deviatoric multipliers of the last substep
    icReal *lambdaH;       ///< (tetCount) hydrostatic multipliers of the last substep
    icReal lastSubstep;    ///< h of the last substep (for stresses from multipliers)
    int64_t substepCount;  ///< substeps taken since creation
};

struct icWorld {
    icModel model;
    icState *state; ///< the world's current state
    icArena arena;  ///< per-step scratch
    uint16_t worldIndex;
    icNewtonCache *newton;     ///< force-based solver workspace, built on first use
    icNewtonDef newtonDef;     ///< its settings
    icNewtonStats newtonStats; ///< what its last step or solve did
};

icModel *icWorld_Model(icWorld *world);
icState *icWorld_State(icWorld *world);

/// Allocates a state sized for the model (zeroed), or NULL.
icState *icState_CreateForModel(const icModel *model);
/// Copies src into dst (same sizes).
void icState_CopyInto(icState *dst, const icState *src);

/// F = Ds Q of tet t at positions x (vertexCount x 3).
static inline icMat3 icModel_TetF(const icModel *model, const icReal *x, int t) {
    const int *tv = model->tets + 4 * t;
    icVec3 x3 = icVec3_Load(x, tv[3]);
    icMat3 Ds = icMat3_FromCols(icVec3_Sub(icVec3_Load(x, tv[0]), x3),
                                icVec3_Sub(icVec3_Load(x, tv[1]), x3),
                                icVec3_Sub(icVec3_Load(x, tv[2]), x3));
    return icMat3_Mul(Ds, model->invRest[t]);
}

/// Prescribed position of vertex v at time t (its pin's motions applied to pinBase).
icVec3 icModel_PinPosition(const icModel *model, int v, icReal t);
/// Makes sure model->colouring is current (rebuilds after bodies were added).
icResult icModel_UpdateColouring(icModel *model);

// XPBD solver (src/xpbd): one step of the dynamic solver, and the static solve.
icResult icXpbd_Step(icWorld *world, icState *state, icReal dt, icStepStats *stats);
icResult icXpbd_SolveStatic(icWorld *world, icState *state, const icStaticDef *def,
                            icStepStats *stats);
/// One Gauss-Seidel sweep over all tets in colour order with substep h (multipliers in
/// state). Returns the number of tets whose projection was skipped (degenerate).
int icXpbd_Sweep(const icModel *model, icState *state, icReal h);
/// Resolves plane contacts with friction for the current substep; returns contact count.
int icXpbd_ProjectPlanes(const icModel *model, icState *state);
