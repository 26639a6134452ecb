// SPDX-License-Identifier: MIT
// Internals of the rod world: the model (what a step never changes), the state, the
// constraint lists and the Jacobi accumulator shared by the kernels (docs/viper.md).
#pragma once

#include "isochor/rod.h"

#include "core/core.h"
#include "rod/quat.h"

// ---------------------------------------------------------------------------------------
// Constraints. Each kind is a flat list; multipliers live in the state, indexed alike.

typedef struct icRodStretch { // stretch-shear, Angles et al. 2019, eq. 11
    int seg;
    icReal alpha;
} icRodStretch;

typedef struct icRodBend { // bend-twist, Angles et al. 2019, eqs. 14, 40
    int e, f, v;           ///< segments and the vertex they share
    icQuat rest;           ///< Obar = qbar_e* (x) qbar_f
    icReal alphaBend, alphaTwist;
} icRodBend;

typedef struct icRodRadius { // cross-section stretch, Angles et al. 2019, eq. 12
    int v;
    icReal alpha;
} icRodRadius;

typedef struct icRodSmooth { // first-order scale smoothness, Angles et al. 2019, eq. 13
    int seg;
    icReal alpha;
} icRodSmooth;

typedef struct icRodBilap { // second-order scale smoothness, Angles et al. 2019, eq. 15
    int v;
    int count; ///< stencil vertices (3..5), the vertex itself included
    int idx[5];
    icReal coef[5];
    icReal alpha;
} icRodBilap;

typedef struct icRodVolumeC { // volume, Angles et al. 2019, sec. 5 (measure M or P)
    int seg;
    icRodVolume kind;
    icReal rest; ///< rbar_m^2 lbar0 (M) or Vbar (P)
    icReal alpha;
} icRodVolumeC;

typedef struct icRodLink { // utility constraints of the VIPER reference code
    icRodLinkKind kind;
    int a, b;
    icReal rest, alpha;
} icRodLink;

typedef struct icRodSlice { // one cross-section of a bundle (Angles et al. 2019, sec. 7.3)
    int bundle;
    int count;
    int vertex[IC_ROD_BUNDLE_MAX];
    int segA[IC_ROD_BUNDLE_MAX], segB[IC_ROD_BUNDLE_MAX]; ///< before / after the vertex
} icRodSlice;

typedef struct icRodBundle {
    icRodMatching matching;
    bool ramp; ///< activation ramp (icRodWorld_SetActivationRamp)
    int rampBegin, rampEnd;
    icReal rampValue, rampStart, rampEnd_t;
    int rodStart; ///< into model.bundleRods
    int rodCount;
    int sliceStart, sliceCount;
} icRodBundle;

typedef struct icRodPlane {
    icVec3 normal;
    icReal offset, staticFriction, kineticFriction;
} icRodPlane;

typedef struct icRodBone {
    int motionCount;
    icMotion motions[IC_MAX_MOTIONS];
} icRodBone;

typedef struct icRodRecord {
    int vertexStart, vertexCount, segmentStart, segmentCount, group;
    bool chain;
} icRodRecord;

// One skin: weights per template vertex (up to 4 bones), local coordinates of the vertex in
// each bone's rest frame (the inverse bind pose applied once), and the deformed mesh.
typedef struct icRodSkin {
    int rod, rodCount, instanceCount;
    int vertexCount, triangleCount; ///< of one instance
    int *triangles;                 ///< (instanceCount x triangleCount x 3)
    int *boneSeg;                   ///< (vertexCount x 4) segment, local to the rod
    unsigned char *boneEnd;         ///< (vertexCount x 4) 0 = first vertex, 1 = second
    icReal *weight;                 ///< (vertexCount x 4), 0 for unused slots
    icReal *local;                  ///< (vertexCount x 4 x 3)
    icReal *positions;              ///< (instanceCount x vertexCount x 3)
} icRodSkin;

// ---------------------------------------------------------------------------------------

typedef struct icRodModel {
    int vertexCount, segmentCount, vertexCapacity, segmentCapacity;
    icReal *restPos;           ///< (nv x 3)
    icReal *restRadius;        ///< (nv)
    icReal *w, *wr;            ///< (nv) inverse mass, inverse scale mass
    int *pinBone;              ///< (nv) -2 free, -1 pinned in place, else bone index
    icReal *pinBase;           ///< (nv x 3) position when pinned
    int *warmBone;             ///< (nv x 2) -1 when none
    icReal *warmWeight;        ///< (nv) weight of warmBone[0]
    int *vertexRod;            ///< (nv)
    int *seg;                  ///< (ns x 2)
    icReal *restLength;        ///< (ns) current (activation edits it)
    icReal *restLength0;       ///< (ns) original
    icReal *restQ;             ///< (ns x 4)
    icReal *wq;                ///< (ns)
    int *segGroup;             ///< (ns)
    unsigned char *segCollide; ///< (ns)
    unsigned char *segPinned;  ///< (ns) an endpoint has w = 0

    int rodCount, rodCapacity, groupCount;
    icRodRecord *rods;

    int stretchCount, stretchCapacity;
    icRodStretch *stretch;
    int bendCount, bendCapacity;
    icRodBend *bend;
    int radiusCount, radiusCapacity;
    icRodRadius *radius;
    int smoothCount, smoothCapacity;
    icRodSmooth *smooth;
    int bilapCount, bilapCapacity;
    icRodBilap *bilap;
    int volumeCount, volumeCapacity;
    icRodVolumeC *volume;
    int linkCount, linkCapacity;
    icRodLink *links;

    int bundleCount, bundleCapacity;
    icRodBundle *bundles;
    int bundleRodCount, bundleRodCapacity;
    int *bundleRods;
    int sliceCount, sliceCapacity;
    icRodSlice *slices;

    int planeCount, planeCapacity;
    icRodPlane *planes;
    int boneCount, boneCapacity;
    icRodBone *bones;
    int skinCount, skinCapacity;
    icRodSkin *skins;
} icRodModel;

typedef struct icRodState {
    icReal time;
    icReal *x, *v;     ///< (nv x 3)
    icReal *r, *rdot;  ///< (nv)
    icReal *q, *omega; ///< (ns x 4), (ns x 3) body-frame angular velocity
    icReal *sliceRot;  ///< (sliceCount x 4) warm start of the matching rotations
} icRodState;

// Per-step work: start-of-step copies, multipliers, the Jacobi accumulator, collisions.
typedef struct icRodWork {
    icReal *x0, *r0, *q0; ///< state at the start of the step
    icReal *lStretch;     ///< (stretchCount x 3)
    icReal *lBend;        ///< (bendCount x 3)
    icReal *lRadius, *lSmooth, *lBilap, *lVolume, *lLink;
    icReal *dx, *dr, *dq; ///< accumulated corrections
    int *nx, *nr, *nq;    ///< how many constraints corrected each block this pass
    icReal *omegaWorld;   ///< (ns x 3) bend damping scratch
    int *pairs;           ///< (pairCount x 2) candidate pill pairs
    int pairCount, pairCapacity;
    // broad phase scratch
    icReal *sphere; ///< (ns x 4) centre, radius
    int *cellOf, *cellStart, *order;
    int *segOf, *sorted, *cellXYZ, *large; ///< (ns), (ns), (ns x 3), (ns)
    int cellCapacity;
    icReal *pairData; ///< (pairCapacity x 6) per pair and pass: C, u, v, n
    int pairDataCapacity;
    int contacts;
} icRodWork;

struct icRodWorld {
    icRodWorldDef def;
    struct icPool *pool; ///< workers of the parallel loops (src/core/pool.c)
    icRodModel model;
    icRodState state;
    icRodWork work;
    bool workReady; ///< work arrays match the model's sizes
    const volatile sig_atomic_t *interrupt; ///< icRodWorld_SetInterrupt's flag; NULL: none
    uint8_t *stepStart;       ///< with a flag set: the state at the step's start
                              ///< (icRodWorld_SaveState bytes) to go back to when it stops
    size_t stepStartCapacity; ///< bytes allocated there
};

// Jacobi accumulation (Angles et al. 2019, sec. 7).
static inline void icRodAcc_X(icRodWork *k, int v, icVec3 d) {
    k->dx[3 * v] += d.x;
    k->dx[3 * v + 1] += d.y;
    k->dx[3 * v + 2] += d.z;
    ++k->nx[v];
}
static inline void icRodAcc_R(icRodWork *k, int v, icReal d) {
    k->dr[v] += d;
    ++k->nr[v];
}
static inline void icRodAcc_Q(icRodWork *k, int e, icQuat d) {
    k->dq[4 * e] += d.w;
    k->dq[4 * e + 1] += d.x;
    k->dq[4 * e + 2] += d.y;
    k->dq[4 * e + 3] += d.z;
    ++k->nq[e];
}

// ---------------------------------------------------------------------------------------
// Kernels (constraints.c, volume.c): each projects one constraint on the state x, r, q and
// accumulates its corrections. h2 = h^2; lambda points at the constraint's multiplier(s).
void icRod_ProjectStretch(const icRodWorld *w, const icRodStretch *c, icReal h2, icReal *lambda,
                          icRodWork *k);
void icRod_ProjectBend(const icRodWorld *w, const icRodBend *c, icReal h2, icReal *lambda,
                       icRodWork *k);
void icRod_ProjectRadius(const icRodWorld *w, const icRodRadius *c, icReal h2, icReal *lambda,
                         icRodWork *k);
void icRod_ProjectSmooth(const icRodWorld *w, const icRodSmooth *c, icReal h2, icReal *lambda,
                         icRodWork *k);
void icRod_ProjectBilap(const icRodWorld *w, const icRodBilap *c, icReal h2, icReal *lambda,
                        icRodWork *k);
void icRod_ProjectVolume(const icRodWorld *w, const icRodVolumeC *c, icReal h2, icReal *lambda,
                         icRodWork *k);
void icRod_ProjectLink(const icRodWorld *w, const icRodLink *c, icReal h2, icReal *lambda,
                       icRodWork *k);
/// Bundle goals of one slice (Angles et al. 2019, sec. 7.3); direct = apply instead of
/// accumulating.
void icRod_ProjectSlice(icRodWorld *w, int slice, icRodWork *k, bool direct);

/// Segment volume P (the tapered pill segment) and its partial derivatives (d: distance
/// between centres).
icReal icRod_SegmentVolume(icReal ra, icReal rb, icReal d, icReal *dVdd, icReal *dVdra,
                           icReal *dVdrb);
/// Midpoint measure Q_M = r_m^2 |x_b - x_a| of a segment.
icReal icRod_MidpointVolume(icReal ra, icReal rb, icReal d);

// Bundles (bundle.c).
/// Rotation maximising tr(R^T S) by the iterative method of Mueller et al. 2016 (Angles et al.
/// 2019, sec. 7.3), warm started at q; stops when the update angle is below tolerance.
icQuat icRod_ExtractRotation(icMat3 S, icQuat q, int maxIterations, icReal tolerance);
/// Best similarity (Angles et al. 2019, eqs. 33-36) taking the rest samples (xbar, rbar, qbar)
/// to the current ones (x, r, q): *rotation (in: warm start), *sigma, *translation with
/// x ~ sigma R xbar + t. Without frames (r, q, rbar, qbar NULL) it fits positions only;
/// rigid forces sigma = 1.
void icRod_FitSimilarity(int n, const icVec3 *x, const icReal *r, const icQuat *q,
                         const icVec3 *xbar, const icReal *rbar, const icQuat *qbar, bool rigid,
                         icQuat *rotation, icReal *sigma, icVec3 *translation);

/// Sets the activation of every bundle with a ramp for time t.
void icRod_ApplyActivation(icRodWorld *w, icReal t);

// Pills (pill.c; Angles et al. 2019, sec. 7.2).
/// Signed distance from p to the pill (xa, ra)-(xb, rb); *t gets the barycentric coordinate
/// of the projection, *closest (optional) the centre c(t).
icReal icPill_PointDistance(icVec3 p, icVec3 xa, icReal ra, icVec3 xb, icReal rb, icReal *t);
/// Deepest interpenetration of two pills (Angles et al. 2019, eqs. 29-30): u, v and the gap
/// g(u, v).
icReal icPill_PillDistance(icVec3 a0, icReal ra0, icVec3 a1, icReal ra1, icVec3 b0, icReal rb0,
                           icVec3 b1, icReal rb1, int iterations, icReal *u, icReal *v);
/// The same search, stopped as soon as the gap is proved >= cutoff (then a lower bound >= cutoff
/// is returned and u, v are not meaningful); otherwise identical to icPill_PillDistance.
icReal icPill_PillDistanceCut(icVec3 a0, icReal ra0, icVec3 a1, icReal ra1, icVec3 b0, icReal rb0,
                              icVec3 b1, icReal rb1, int iterations, icReal cutoff, icReal *u,
                              icReal *v);
/// Bounding sphere of a pill (Angles et al. 2019, sec. 7.1), margin added.
void icPill_BoundingSphere(icVec3 xa, icReal ra, icVec3 xb, icReal rb, icReal margin,
                           icVec3 *centre, icReal *radius);

// Collisions (collide.c).
icResult icRod_BroadPhase(icRodWorld *w);
/// Projects every candidate pair; returns the number penetrating.
int icRod_ProjectCollisions(icRodWorld *w, icRodWork *k);
void icRod_ProjectPlanes(icRodWorld *w);
/// Deepest pill-pill overlap over the candidate pairs at the current state (m, >= 0).
icReal icRod_MaxPenetration(icRodWorld *w);

// Bones (bones.c).
/// Rigid transform of a bone at time t: p -> R p + T.
void icRodBone_Transform(const icRodBone *bone, icReal t, icMat3 *R, icVec3 *T);

// Surfaces (viperize.c).
/// Generalised winding number of a closed surface at p (1 inside, 0 outside).
icReal icRodSurface_Winding(const icRodSurface *surface, icVec3 p);
/// Minimum-cost assignment (Hungarian method) of an n x n cost matrix (row-major), n <= 32:
/// assign[row] = column. Returns the total cost.
icReal icRod_Hungarian(int n, const icReal *cost, int *assign);

// Storage (world.c).
/// Makes room for more vertices and segments in the model and state.
icResult icRod_Reserve(icRodWorld *w, int extraVertices, int extraSegments);
icResult icRod_PrepareWork(icRodWorld *w);
/// Makes sure w->pool runs the workers the def asks for (src/rod/world.c).
icResult icRod_EnsurePool(icRodWorld *w);
