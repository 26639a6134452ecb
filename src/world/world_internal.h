// SPDX-License-Identifier: MIT
// The world's model (never changed by a step) and state (what a step changes). Internal:
// solvers in src/xpbd and src/fem read these directly.
#pragma once

#include "core/core.h"
#include "isochor/fem.h"
#include "isochor/incompressible.h"
#include "isochor/world.h"

/// One soft body's slice of the global arrays and its material.
typedef struct icBodyRecord {
    int vertexStart, vertexCount;
    int tetStart, tetCount;
    uint16_t generation;
    icSoftBodyDef def;
    icReal mu, lambda; ///< Lamé parameters (lambda = +inf at nu = 0.5)
    int cellCounts[3]; ///< hex grid the mesh came from (icTetMesh.cellCounts), 0 when none
    icReal meanEdge;   ///< mean edge of a regular tet of each tet's rest volume, m, and
    icReal layers;     ///< the body's largest rest extent in those edges (adaptive substeps;
                       ///< set with the colouring)
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
    int *tetCell;          ///< (tetCount) hex cell of the tet within its body's grid, -1 if none
    icColouring colouring; ///< valid when !colouringDirty (reference sweep only)
    bool colouringDirty;
    struct icXpbdLayout *layout; ///< packed sweep order and data (src/xpbd/layout.c), built
                                 ///< with the colouring
    struct icPool *pool;         ///< threads of the parallel loops (src/core/pool.c)
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
    struct icContactSystem *contact; ///< colliders, bones, contact (src/collision); NULL until used
    struct icSkinSet *skins;         ///< embedded render surfaces (src/skin); NULL until used
    icHealthStats health;            ///< what the per-step checks found (src/world/health.c)
    icProfile profile;               ///< stage times of the last step (src/world/step.c)
    icState *lastGood;               ///< state before the current step (IC_HEALTH_STOP, or
                                     ///< an interrupt flag set)
    icReal *lastGoodMemory;          ///< with it, the solver's memory (vertexCount x its
                                     ///< memoryPerVertex, src/world/solver.h)
    int lastGoodMemoryVertices;      ///< vertex count of that copy, 0 = none
    int lastGoodMemoryCapacity;      ///< reals allocated there
    struct icIncompressibleCache *incompressible; ///< Irving et al. 2007 (src/incompressible)
    const volatile sig_atomic_t *interrupt; ///< icWorld_SetInterrupt's flag; NULL: none
    bool cancellable; ///< the step under way may stop: the flag is set and lastGood holds its
                      ///< start (src/world/health.c)
};

/// Polled by the solvers once per substep or iteration: the step under way is to stop (the
/// caller's flag is non-zero and the world can go back to the step's start).
static inline bool icWorld_Cancelled(const icWorld *world) {
    return world->cancellable && *world->interrupt != 0;
}

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

/// Tets with det F <= 0 at positions x, their total volume (m^3) and the largest |J - 1| of a
/// tet (NaN when a J is), on the model's workers (src/world/census.c; the same bits for any
/// worker count).
typedef struct icTetCensus {
    int inverted;
    icReal volume;
    icReal worstJMinus1;
} icTetCensus;
icTetCensus icModel_TetCensus(const icModel *model, const icReal *x);

/// Prescribed position of vertex v at time t (its pin's motions applied to pinBase).
icVec3 icModel_PinPosition(const icModel *model, int v, icReal t);
/// Makes sure model->pool exists with the workers the def asks for; an automatic count is
/// resolved from the tets now held, and the pool made again when bodies changed it (callers
/// that keep the pointer take it again after this call). IC_ERR_OUT_OF_MEMORY.
icResult icModel_EnsurePool(icModel *model);

// Contact, bones and skins (src/collision, src/skin). Every hook is a no-op for a world that
// never used them (world->contact NULL).
typedef struct icContactSystem icContactSystem;
typedef struct icSkinSet icSkinSet;
void icContactSystem_Destroy(icContactSystem *contact);
void icSkinSet_Destroy(icSkinSet *skins);
/// Once per step (frame): boundary surface, collider and body/self contact candidates for a
/// step of dt from the state's time (Macklin & Müller 2021, Algorithm 1,
/// CollectCollidingPairs).
icResult icContact_BeginStep(icWorld *world, icState *state, icReal dt);
/// Start of a substep from t0 to t1: collider and bone transforms, attachment multipliers.
void icContact_BeginSubstep(icWorld *world, icReal t0, icReal t1);
/// Where a vertex hard-attached to a bone must be at the substep's end (false if none).
bool icContact_HeldPosition(const icWorld *world, int vertex, icVec3 *position);
/// Attachment, collider and body/self contact projections of one sweep; returns the number
/// of vertices touching a collider.
int icContact_Project(icWorld *world, icState *state, icReal h);
/// Folds the contact settings, colliders (shape, sizes, friction, track, mesh), bones and
/// attachments into a model hash; h unchanged for a world that never used them.
uint64_t icContact_HashModel(const icWorld *world, uint64_t h);

// Numerical health (src/world/health.c): wrapped around every step and static solve.
/// Before a step: keeps the state to go back to when the policy is IC_HEALTH_STOP or an
/// interrupt flag is set (then the step becomes cancellable).
void icHealth_BeforeStep(icWorld *world);
/// After a step that returned result: checks the state, counts warnings, applies the policy
/// and returns the step's result (IC_ERR_NUMERICAL for a non-finite state, a stop or a
/// Newton solve stopped far from its tolerance). An interrupted step goes back to the kept
/// state unchecked and uncounted.
icResult icHealth_AfterStep(icWorld *world, icResult result, icStepStats *stats);
/// Frees what the checks keep.
void icHealth_Destroy(icWorld *world);
/// Policy in range, maxSpeed and maxVolumeDrift > 0, maxInvertedTets >= 0.
bool icHealthDef_IsValid(const icHealthDef *def);

/// The material a solver gives body b; false when it has none (then its stresses are NaN).
typedef bool icBodyMaterialFn(const icModel *model, int b, const void *context, icMaterial *out);
/// Pressure and deviatoric stress norm of every tet (either may be NULL) from its body's
/// material (materialOf) at positions x, on the model's workers; NaN for bodies without one,
/// where the stress is not finite, and everywhere when out of memory. (state.c)
void icModel_MaterialStress(const icModel *model, const icReal *x, icBodyMaterialFn *materialOf,
                            const void *context, icReal *pressure, icReal *stressNorm);

/// The FEM material of body b for the force-based solvers: MM keeps the world's raw Lamé pair
/// and gamma, so Newton minimises exactly the energy the XPBD solver models (Macklin & Müller
/// 2021, sec. 3); other models map (E, nu) as docs/materials.md lists. IC_ERR_BAD_VALUE for
/// nu = 0.5 (lambda infinite). (src/newton/newton_settings.c)
icResult icModel_FemMaterial(const icModel *m, int b, icMaterial *out);
