// SPDX-License-Identifier: MIT
/// \file
/// VIPER rods (Angles et al.\ 2019, docs/viper.md): chains and graphs of spheres
/// ("vertices": position + radius) joined by pills ("segments": a frame quaternion each),
/// solved by generalised XPBD with Jacobi averaging; bundles with scale-invariant shape
/// matching, pill collisions, planes, skinning of triangle meshes and viperization.
/// A rod world is separate from the tet world (world.h): scenes run both side by side.
#pragma once

#include "isochor/world.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/// A rod world (opaque): VIPER rods, bundles, planes, bones and skins. Create with
/// icCreateRodWorld, free with icDestroyRodWorld.
typedef struct icRodWorld icRodWorld;

/// Which volume a segment conserves (M: Angles et al.\ 2019, sec.\ 5; P: the reference
/// code's tapered segment).
typedef enum icRodVolume {
    IC_ROD_VOLUME_NONE = 0, ///< no volume constraint
    IC_ROD_VOLUME_MIDPOINT, ///< M: r_m^2 |x_b - x_a|, a cylinder of the mean radius (rods)
    IC_ROD_VOLUME_PILL,     ///< P: exact volume of the tapered pill segment (pill characters)
} icRodVolume;

/// How radii follow the centreline.
typedef enum icRodRadiusModel {
    IC_ROD_RADIUS_VIPER = 0, ///< radius is a degree of freedom with its own inertia (the paper)
    IC_ROD_RADIUS_BERGOU,    ///< no radius DOF: after each step r_i = rbar_i sqrt(lbar_i / l_i)
                             ///< (Bergou et al.\ 2010 style, for comparison;
                             ///< Angles et al.\ 2019, Fig.\ 15)
} icRodRadiusModel;

/// How bundle goals are applied (Angles et al.\ 2019, sec.\ 7.3, or the reference
/// code's averaging).
typedef enum icRodBundleProjection {
    IC_ROD_BUNDLE_AVERAGED = 0, ///< goal corrections averaged in every full pass (code, default)
    IC_ROD_BUNDLE_POST,         ///< goals set directly after the passes (the paper's post-process)
} icRodBundleProjection;

/// Settings of a rod world. Get them from icDefaultRodWorldDef() and change what you need.
typedef struct icRodWorldDef {
    icVec3 gravity;              ///< m/s^2; default (0, -9.81, 0)
    int substeps;                ///< steps of dt/substeps per icRodWorld_Step, >= 1; default 1
    int iterations;              ///< solver passes K per substep, >= 1; default 10
    bool collisionOnlyOddPasses; ///< odd passes project collisions only (reference code);
                                 ///< default true
    icReal velocityDamping;      ///< kappa in (0, 1]: velocities (and the gravity increment) are
                                 ///< multiplied by it every step; default 0.9999
    icReal bendDamping;          ///< fraction in [0, 1) of the relative angular velocity of two
                                 ///< bent-together segments removed per step; default 0.02
    icReal minRadius;            ///< m, radii are clamped above it after every pass; default 0.001
    icReal collisionMargin;      ///< m, added to pill bounding spheres; default 0.002
    int searchIterations;        ///< dichotomous search iterations for pill pairs, >= 1; default 10
    icReal radiusCoupling;       ///< beta_r in [0, 1]: collisions also shrink radii (1, the paper)
                                 ///< or move positions only (0, the reference code); default 0
    bool scaledBending;          ///< bend-twist weighted by the radius at the shared vertex
                                 ///< (optional); default false
    icRodRadiusModel radiusModel;           ///< default IC_ROD_RADIUS_VIPER
    icRodBundleProjection bundleProjection; ///< default IC_ROD_BUNDLE_AVERAGED
    bool referenceQuirks; ///< reproduce the reference code's counting quirks (the radius constraint
                          ///< counts as a position correction, the bilaplacian uses w instead of
                          ///< wr) for A/B tests; default false
    int workerCount;      ///< threads for the pill searches and skinning, 0 to
                          ///< IC_MAX_WORKERS; default 0 = automatic: icAvailableCores() from
                          ///< icRodAutoWorkerMinSegments() segments on, one below. Results
                          ///< are bitwise the same for any count (corrections are computed
                          ///< in parallel, accumulated in a fixed order)
} icRodWorldDef;

/// Defaults as listed above (the reference code's, gravity of the tet world).
icRodWorldDef icDefaultRodWorldDef(void);

/// A rod (a chain of vertices) or a pill object (any graph of segments over its vertices).
/// Compliances are raw XPBD alphas of the normalised constraints of docs/viper.md (>= 0,
/// 0 = hard; 1/J for the dimensionless constraints, m/N for the bilaplacian, whose C is a
/// radius), unless youngsModulus > 0 derives the stretch, bend and twist ones.
typedef struct icRodDef {
    int vertexCount;         ///< >= 2
    const icReal *positions; ///< (vertexCount x 3) rest = initial positions, m
    const icReal *radii;     ///< (vertexCount) rest radii, m, > 0; NULL: all `radius`
    icReal radius;           ///< m, > 0; default 0.05
    const icReal *masses;    ///< (vertexCount) kg, > 0; NULL: from density
    icReal density;          ///< kg/m^3, > 0; default 1000
    int segmentCount;        ///< with segments: number of pills; ignored for a chain
    const int *segments;     ///< (segmentCount x 2) local vertex pairs, or NULL: a chain
                             ///< 0-1, 1-2, ..., n-2 - n-1
    icVec3 velocity;         ///< initial velocity, m/s; default 0

    bool stretchShear;        ///< stretch-shear constraint (Angles et al.\ 2019, eq.\ 11) per
                              ///< segment; default true
    icReal stretchCompliance; ///< 1/J; default 0
    bool bendTwist;           ///< bend-twist constraint (Angles et al.\ 2019, eqs.\ 14, 40) per
                              ///< pair of segments sharing a vertex; default true
    icReal bendCompliance;    ///< components 1, 2 (bending), 1/J; default 0
    icReal twistCompliance;   ///< component 3 (twist), 1/J; default 0
    const icReal *segmentBendCompliance; ///< (segmentCount, 1/J) or NULL; a pair takes the mean of
                                         ///< its two segments' values for bend and twist
    icReal youngsModulus;                ///< Pa; > 0 derives stretch 1/(E A l), bend l/(4 E I),
                          ///< twist l/(4 G J) per segment (overrides the three above);
                          ///< default 0 (use the raw compliances)
    icReal shearModulus;             ///< Pa, G for the twist when youngsModulus > 0; <= 0: E / 2.6
    bool radiusSpring;               ///< cross-section spring (Angles et al.\ 2019, eq.\ 12) per
                                     ///< vertex; default false
    icReal radiusCompliance;         ///< 1/J; default 1e-3
    bool scaleSmoothing;             ///< scale smoothing, eq.\ 13 of Angles et al.\ 2019
                                     ///< (first order), per segment; default false
    icReal scaleSmoothingCompliance; ///< 1/J; default 0
    bool scaleBilaplacian;           ///< scale bilaplacian, eq.\ 15 of Angles et al.\ 2019
                                     ///< (second order), per interior vertex of a chain of >= 4
                                     ///< vertices; default true
    icReal bilaplacianCompliance;    ///< m/N; default 0
    icRodVolume volume;              ///< default IC_ROD_VOLUME_MIDPOINT
    icReal volumeCompliance;         ///< 1/J; default 0

    int group;      ///< collision group >= 0 (pills of one group never collide), or -1: a
                    ///< new group of its own; default -1
    bool collide;   ///< its pills take part in collisions; default true
    bool kinematic; ///< every vertex and frame is fixed (obstacles, pillars); default false
} icRodDef;

/// Defaults as listed above: the reference code's rod builder (stretch-shear, bend-twist,
/// bilaplacian, volume M, all hard) with physical masses.
icRodDef icDefaultRodDef(void);
/// The octopus preset of the reference code: radius springs 1e-3, stretch-shear
/// 1e-4, volume P hard, bend-twist per pair, no bilaplacian.
icRodDef icPillObjectRodDef(void);

/// Where a rod's vertices and segments sit in the world's arrays.
typedef struct icRodRange {
    //!@{
    int vertexStart, vertexCount;   ///< first vertex and vertex count
    //!@}
    //!@{
    int segmentStart, segmentCount; ///< first segment and segment count
    //!@}
    int group;                      ///< collision group
    bool chain;                     ///< a chain (0-1, 1-2, ...), not a graph of segments
} icRodRange;

/// A static half-plane {p : normal .\ p >= offset} with the reference code's friction: the
/// tangential motion since the step start is removed by 99 % when it is below staticFriction times
/// the penetration, else by kineticFriction times the penetration.
typedef struct icRodPlaneDef {
    icVec3 normal;          ///< any length > 0
    icReal offset;          ///< m
    icReal staticFriction;  ///< dimensionless factor, >= 0; default 0.01
    icReal kineticFriction; ///< dimensionless factor, >= 0; default 3
} icRodPlaneDef;
/// Defaults: the ground y >= 0, the reference code's friction (0.01, 3).
icRodPlaneDef icDefaultRodPlaneDef(void);

/// What a step did and how long its stages took.
typedef struct icRodStepStats {
    int candidatePairs;    ///< pill pairs from the broad phase (last substep)
    int contacts;          ///< penetrating pill pairs in the last pass (last substep)
    icReal maxPenetration; ///< m, deepest pill-pill overlap after the step (>= 0)
    //!@{
    icReal msPredict, msBroadPhase, msCollisions, msConstraints, msTotal; ///< wall times of
                             ///< the stages (summed over substeps) and of the step, ms
    //!@}
    bool nan; ///< a non-finite value appeared (the step was stopped)
} icRodStepStats;

/// Creates an empty rod world; NULL def means defaults. NULL on a bad def or no memory.
icRodWorld *icCreateRodWorld(const icRodWorldDef *def);
/// Frees the rod world and everything it owns. NULL is fine.
void icDestroyRodWorld(icRodWorld *world);
/// The world's current settings.
icRodWorldDef icRodWorld_GetDef(const icRodWorld *world);
/// The workers the rod world's parallel loops run on: the def's workerCount, or for 0 what
/// the automatic choice gives the segments now held.
int icRodWorld_GetWorkerCount(const icRodWorld *world);
/// Segments from which an automatic worker count runs more than one worker (the measured
/// break-even of a second worker, docs/performance.md).
int icRodAutoWorkerMinSegments(void);
/// Changes the settings (IC_ERR_BAD_VALUE for an invalid def, nothing changed then).
icResult icRodWorld_SetDef(icRodWorld *world, const icRodWorldDef *def);

/// Adds a rod; *rod (optional) gets its index (0, 1, ...). IC_ERR_BAD_VALUE names the problem
/// in diag (too few vertices, radius <= 0, a segment repeating a vertex, ...).
icResult icRodWorld_AddRod(icRodWorld *world, const icRodDef *def, int *rod, icDiagnostic *diag);
/// A straight chain of `segments` pills from start to end, with def's materials (its
/// vertexCount, positions and segments are ignored).
icResult icRodWorld_AddStraightRod(icRodWorld *world, icVec3 start, icVec3 end, int segments,
                                   const icRodDef *def, int *rod, icDiagnostic *diag);
/// A helix about the axis through centre along +y: coil radius, pitch (m per turn), turns.
icResult icRodWorld_AddHelix(icRodWorld *world, icVec3 centre, icReal coilRadius, icReal pitch,
                             icReal turns, int segments, const icRodDef *def, int *rod,
                             icDiagnostic *diag);
/// A kinematic capsule (one pill, r at both ends) from a to b: a pillar or other obstacle.
icResult icRodWorld_AddCapsule(icRodWorld *world, icVec3 a, icVec3 b, icReal radius, int *rod,
                               icDiagnostic *diag);
/// The procedural octopus of Angles et al.\ 2019, Fig.\ 7 (38 spheres, 37 pills), scaled by
/// `scale`, its root at origin; the reference masses and bend compliances; its own collision group.
icResult icRodWorld_AddOctopus(icRodWorld *world, icVec3 origin, icReal scale, int *rod,
                               icDiagnostic *diag);

/// Rods added so far.
int icRodWorld_GetRodCount(const icRodWorld *world);
/// Where rod `rod` (0 <= rod < icRodWorld_GetRodCount; asserted) sits in the world's arrays.
icRodRange icRodWorld_GetRod(const icRodWorld *world, int rod);
/// Vertices over all rods.
int icRodWorld_GetVertexCount(const icRodWorld *world);
/// Segments (pills) over all rods.
int icRodWorld_GetSegmentCount(const icRodWorld *world);
/// Segment end vertices (segmentCount x 2).
const int *icRodWorld_GetSegments(const icRodWorld *world);
/// Current state arrays: positions (vertexCount x 3), radii (vertexCount), frames
/// (segmentCount x 4, w x y z), velocities (vertexCount x 3), radius velocities (vertexCount).
/// Positions in m.
const icReal *icRodWorld_GetPositions(const icRodWorld *world);
/// Current radii (vertexCount), m.
const icReal *icRodWorld_GetRadii(const icRodWorld *world);
/// Current segment frames (segmentCount x 4): unit quaternions, w x y z.
const icReal *icRodWorld_GetFrames(const icRodWorld *world);
/// Current velocities (vertexCount x 3), m/s.
const icReal *icRodWorld_GetVelocities(const icRodWorld *world);
/// Current radius rates (vertexCount), m/s.
const icReal *icRodWorld_GetRadiusVelocities(const icRodWorld *world);
/// Writable state (set initial conditions before stepping; perturbations). Positions, m.
icReal *icRodWorld_GetPositionsMutable(icRodWorld *world);
/// Writable radii (vertexCount), m.
icReal *icRodWorld_GetRadiiMutable(icRodWorld *world);
/// Writable velocities (vertexCount x 3), m/s.
icReal *icRodWorld_GetVelocitiesMutable(icRodWorld *world);
/// Writable radius rates (vertexCount), m/s.
icReal *icRodWorld_GetRadiusVelocitiesMutable(icRodWorld *world);
/// Rest data: positions (vertexCount x 3), radii (vertexCount), current rest lengths
/// (segmentCount; activation edits them), inverse masses (vertexCount). Positions in m.
const icReal *icRodWorld_GetRestPositions(const icRodWorld *world);
/// Rest radii (vertexCount), m.
const icReal *icRodWorld_GetRestRadii(const icRodWorld *world);
/// Current rest lengths (segmentCount), m; activation edits them.
const icReal *icRodWorld_GetRestLengths(const icRodWorld *world);
/// Inverse masses (vertexCount), 1/kg; 0 for kinematic vertices.
const icReal *icRodWorld_GetInverseMasses(const icRodWorld *world);
/// Simulated time, s.
icReal icRodWorld_GetTime(const icRodWorld *world);

/// Volume of the rods' pill segments (measure P, plus a half ball at every vertex that
/// ends a chain): current and rest, m^3, over rods [first, first + count).
icReal icRodWorld_GetVolume(const icRodWorld *world, int firstRod, int rodCount, bool rest);

/// Squared constraint violations at the current state, summed per kind (sum |C|^2 of the
/// normalised constraints; the energies of an XPBD constraint are |C|^2 / (2 alpha)).
typedef struct icRodResiduals {
    //!@{
    icReal stretch, bend, radius, smoothing, bilaplacian, volume, links; ///< sum |C|^2 per
                     ///< kind (dimensionless; m^2 for the bilaplacian and distance links)
    //!@}
} icRodResiduals;
/// The squared constraint violations of the current state.
icRodResiduals icRodWorld_GetResiduals(const icRodWorld *world);

/// Adds a static half-plane collider.
icResult icRodWorld_AddPlane(icRodWorld *world, const icRodPlaneDef *def);

/// A bone: a rigid motion (world.h's motion segments, composed in order) over time.
/// *bone gets its index.
icResult icRodWorld_AddBone(icRodWorld *world, const icMotion *motions, int motionCount, int *bone);
/// Makes a vertex kinematic: it follows bone (or stays where it is when bone is -1); its
/// radius stays free unless holdRadius.
icResult icRodWorld_PinVertex(icRodWorld *world, int vertex, int bone, bool holdRadius);
/// Two bone weights of a free vertex for the linear-blend warm start of Angles et al.\ 2019,
/// sec.\ 8.2: x <- sum_b w_b B_b(t) B_b(t-h)^-1 x before each step. weightA in [0, 1].
icResult icRodWorld_SetBoneWeights(icRodWorld *world, int vertex, int boneA, int boneB,
                                   icReal weightA);

/// Utility constraints between two vertices (the reference code's utility constraints).
typedef enum icRodLinkKind {
    IC_ROD_LINK_DISTANCE = 0, ///< |x_a - x_b| = rest (XPBD with the compliance)
    IC_ROD_LINK_MAX_DISTANCE, ///< |x_a - x_b| <= rest (projected only when longer, stiffness 1)
    IC_ROD_LINK_TOUCH,        ///< |x_a - x_b| = r_a + r_b, radii included (stiffness 1)
} icRodLinkKind;

/// Adds a utility constraint between vertices a and b (world indices). rest in m (>= 0; ignored
/// by IC_ROD_LINK_TOUCH), compliance >= 0 (IC_ROD_LINK_DISTANCE only).
icResult icRodWorld_AddLink(icRodWorld *world, icRodLinkKind kind, int a, int b, icReal rest,
                            icReal compliance);

/// Bundle matching (Angles et al.\ 2019, sec.\ 7.3, eqs.\ 32-36).
typedef enum icRodMatching {
    IC_ROD_MATCHING_NONE = 0,        ///< grouping only (no shape matching)
    IC_ROD_MATCHING_SCALE_INVARIANT, ///< VIPER: rotation, scale, translation (Umeyama)
    IC_ROD_MATCHING_RIGID,           ///< traditional shape matching of the positions
} icRodMatching;

/// Most rods one bundle holds.
#define IC_ROD_BUNDLE_MAX 16
/// Groups rods with equal vertex counts (chains) into a bundle: one matching constraint per
/// cross-section (vertex j of every rod), at most IC_ROD_BUNDLE_MAX rods; all rods join the
/// first rod's collision group. *bundle gets its index.
icResult icRodWorld_AddBundle(icRodWorld *world, const int *rods, int rodCount,
                              icRodMatching matching, int *bundle, icDiagnostic *diag);
/// Activation a in [0, 1): the rest lengths of segments [segmentBegin, segmentEnd) of every
/// rod of the bundle become (1 - a) times their original values; volume rest values stay.
icResult icRodWorld_SetActivation(icRodWorld *world, int bundle, int segmentBegin, int segmentEnd,
                                  icReal activation);

/// Activation that ramps linearly from 0 at time start to `activation` at time end (then
/// holds), applied before every step; replaces the bundle's earlier ramp.
icResult icRodWorld_SetActivationRamp(icRodWorld *world, int bundle, int segmentBegin,
                                      int segmentEnd, icReal activation, icReal start, icReal end);

/// A procedural fusiform muscle from start to end: rodCount chains of `segments` pills packed
/// in the cross-section (a centre rod and a ring; 7 rods are hexagonal), the muscle radius
/// endRadius + (maxRadius - endRadius) sin(pi s) at arc fraction s, bundled with `matching`.
/// *firstRod gets the first rod (the others follow), *bundle the bundle.
icResult icRodWorld_AddFusiformBundle(icRodWorld *world, icVec3 start, icVec3 end, icReal maxRadius,
                                      icReal endRadius, int rodCount, int segments,
                                      const icRodDef *def, icRodMatching matching, int *firstRod,
                                      int *bundle, icDiagnostic *diag);

/// Advances the rod world by dt seconds. IC_ERR_INTERRUPTED when the flag of
/// icRodWorld_SetInterrupt became non-zero: the state is then back at the step's start (the
/// world keeps a copy while a flag is set; without memory for it, that of the last whole
/// substep). IC_ERR_OUT_OF_MEMORY when the collision broad phase
/// finds more candidate pill pairs than 256 per segment and 2^20 more (pills far larger than
/// their segments) or cannot hold them; the substep under way is then half done.
icResult icRodWorld_Step(icRodWorld *world, icReal dt, icRodStepStats *stats);
/// A flag (set by a signal handler) that icRodWorld_Step looks at before every substep and
/// stops on once it is non-zero (going back to the step's start); only read. NULL (default):
/// none.
void icRodWorld_SetInterrupt(icRodWorld *world, const volatile sig_atomic_t *flag);

/// Bytes icRodWorld_SaveState writes for the world as it is now.
size_t icRodWorld_GetStateSize(const icRodWorld *world);
/// Writes the rods' state (clock, positions, radii, frames, their velocities, the current
/// rest lengths and the bundles' warm starts) and a hash of their model to bytes[size], for a
/// checkpoint. IC_ERR_INVALID_ARGUMENT unless size is icRodWorld_GetStateSize's,
/// IC_ERR_NOT_FINITE for a state holding NaN or infinity.
icResult icRodWorld_SaveState(const icRodWorld *world, void *bytes, size_t size);
/// Restores a state saved from the same rods (same scene and settings), checked whole first so
/// that the world is unchanged on error: IC_ERR_PARSE (not a rod state, wrong size),
/// IC_ERR_UNSUPPORTED (another version), IC_ERR_BAD_VALUE (other rods, or values no run makes:
/// a negative clock, radii <= 0, positions beyond 1e6 m, speeds beyond 1e6 m/s, frames that are
/// not unit quaternions), with diag saying which.
icResult icRodWorld_LoadState(icRodWorld *world, const void *bytes, size_t size,
                              icDiagnostic *diag);
/// Hash of the settings and rest data a state belongs to (what icRodWorld_LoadState checks).
uint64_t icRodWorld_HashModel(const icRodWorld *world);
/// Hash of the state's bits (the same for any worker count and after a restore).
uint64_t icRodWorld_HashState(const icRodWorld *world);

// ---------------------------------------------------------------------------------------
// Triangle surfaces (procedural meshes, skins, pill outlines).

/// A triangle mesh owned by the caller (free the arrays with icFree, or icRodSurface_Destroy).
typedef struct icRodSurface {
    //!@{
    int vertexCount, triangleCount; ///< vertices and triangles
    //!@}
    icReal *positions; ///< (vertexCount x 3), m
    int *triangles;    ///< (triangleCount x 3), counter-clockwise seen from outside
} icRodSurface;
/// Frees the surface's arrays and zeroes it. Safe on a zeroed struct.
void icRodSurface_Destroy(icRodSurface *surface);

/// Every pill of the world as a closed capsule of `sides` (>= 3) around, positions at the
/// current state: the output that shows rods as tubes.
icResult icRodWorld_PillSurface(const icRodWorld *world, int sides, icRodSurface *surface);
/// A fusiform (spindle) muscle along +z from z = 0 to length: radius
/// endRadius + (maxRadius - endRadius) sin(pi z / length) (its two ends closed by flat caps),
/// `rings` x `sectors` quads. Closed and outward-wound.
icResult icRodFusiformSurface(icReal length, icReal maxRadius, icReal endRadius, int rings,
                              int sectors, icRodSurface *surface);
/// A closed surface around rod `rod`'s pills at rest: the level set at offset `offset` (m) of
/// the smoothly blended (blend m) distance to the pills, by marching tetrahedra on a grid of
/// cell `cell` (m). Used as a skin.
icResult icRodWorld_RestSurface(const icRodWorld *world, int rod, icReal cell, icReal offset,
                                icReal blend, icRodSurface *surface);

/// Skinning a triangle mesh to a rod's pills (Angles et al.\ 2019, sec.\ 7.4).
typedef struct icRodSkinDef {
    const icRodSurface *mesh; ///< at the rest pose of `rod` (copied)
    int rod;                  ///< first rod whose pills drive the mesh
    int rodCount;             ///< rods rod to rod + rodCount - 1 (added one after the other)
                              ///< drive one instance; default 1
    int instanceCount;        ///< copies bound to the next groups of rodCount rods, each a
                              ///< rigidly moved copy of the first at rest; default 1
    icReal epsilon;           ///< weight 1 / (epsilon + d^2); default 1e-6
    icReal fairing;           ///< lambda of (Q + lambda I) W = lambda P; <= 0: no fairing;
                              ///< default 0.1
    icReal cutoff;            ///< drop weights below this fraction of the largest; 0.01
    int maxInfluences;        ///< 1..4 bones per vertex; default 4
} icRodSkinDef;
/// Defaults as listed in icRodSkinDef (mesh NULL, rod 0).
icRodSkinDef icDefaultRodSkinDef(void);
/// Binds a skin (weights, fairing, inverse bind poses); *skin gets its index.
icResult icRodWorld_AddSkin(icRodWorld *world, const icRodSkinDef *def, int *skin,
                            icDiagnostic *diag);
/// Skins added so far.
int icRodWorld_GetSkinCount(const icRodWorld *world);
/// Deforms every skin to the current state (linear blend of per-pill-end similarities).
void icRodWorld_UpdateSkins(icRodWorld *world);
/// A skin's mesh (all instances, one after the other) as of the last icRodWorld_UpdateSkins
/// (the rest pose before the first). The arrays belong to the world.
void icRodWorld_GetSkin(const icRodWorld *world, int skin, int *vertexCount,
                        const icReal **positions, int *triangleCount, const int **triangles);
/// Bone weights of skin vertex v of the first instance: up to 4 (segment, end, weight)
/// with end 0 = the segment's first vertex; returns the count.
int icRodWorld_GetSkinWeights(const icRodWorld *world, int skin, int v, int segment[4], int end[4],
                              icReal weight[4]);

// ---------------------------------------------------------------------------------------
// Viperization (Angles et al. 2019, sec. 8.1, simplified): a closed muscle surface with two marked
// end regions becomes a bundle of rods.

/// What icViperize turns into rods, and how.
typedef struct icViperizeDef {
    const icRodSurface *mesh;    ///< closed, outward-wound, m
    const unsigned char *source; ///< (vertexCount) 1 for the origin region, else 0
    const unsigned char *sink;   ///< (vertexCount) 1 for the insertion region, else 0
    int rodCount;                ///< 1..IC_ROD_BUNDLE_MAX; default 7
    int sliceCount;              ///< cross-sections m + 1, 2..1000 (rods have this many
                                 ///< vertices); default 9
    icReal endLevel;             ///< first and last slices at u = endLevel, 1 - endLevel
                                 ///< (the level sets u = 0, 1 are the regions themselves),
                                 ///< in (0, 0.5); default 0.05
    int lloydIterations;         ///< per slice and alternation, >= 0; default 20
    icReal lengthPenalty;        ///< mu in [0, 1]: blend of each site towards its neighbours
                                 ///< in the adjacent slices; default 0.25
    int alternations;            ///< CVT / combing rounds, >= 1 (stops early when the
                                 ///< assignment no longer changes); default 10
    icReal radiusScale;          ///< radii = scale * sqrt(A_j / (n pi)) with A_j the slice's
                                 ///< area (m^2) and n the rod count, > 0; default 1
} icViperizeDef;
/// Defaults as listed in icViperizeDef (mesh, source and sink NULL).
icViperizeDef icDefaultViperizeDef(void);

/// The rods of a viperized muscle; free with icViperizeResult_Destroy.
typedef struct icViperizeResult {
    //!@{
    int rodCount, sliceCount; ///< rods, and vertices per rod
    //!@}
    icReal *positions;     ///< (rodCount x sliceCount x 3), m: rod k's vertex j at
                           ///< (k sliceCount + j)
    icReal *radii;         ///< (sliceCount) one radius per slice, m
    icReal *field;         ///< (mesh vertexCount) the harmonic field u in [0, 1]
    icReal lengthUncombed; ///< total rod length before the first combing, m
    icReal lengthCombed;   ///< total rod length at the end, m
    int alternationsDone;  ///< CVT / combing rounds run
} icViperizeResult;
/// Frees the result's arrays and zeroes it. Safe on a zeroed struct.
void icViperizeResult_Destroy(icViperizeResult *result);
/// Viperization (Angles et al.\ 2019, sec.\ 8.1, simplified): a harmonic field u from source
/// (0) to sink (1) over the surface, sliceCount iso-slices fitted by planes, rodCount sites
/// per slice by Lloyd's CVT with a rod-length penalty, slice-to-slice combing by the
/// Hungarian method, one radius per slice. IC_ERR_BAD_VALUE (diag says why) for a bad def or
/// marks, IC_ERR_OUT_OF_MEMORY; result is zeroed first.
icResult icViperize(const icViperizeDef *def, icViperizeResult *result, icDiagnostic *diag);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
