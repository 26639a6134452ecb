// SPDX-License-Identifier: MIT
/// \file
/// The simulation world: soft bodies made of tetrahedra, boundary conditions, colliders and
/// the XPBD stable Neo-Hookean solver (Macklin & Müller 2021). A world holds one model
/// (everything a step never changes) and a current state; more states can share the model.
#pragma once

#include "isochor/mesh.h"

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/// A simulation world (opaque): its model, current state, colliders and solver caches.
/// Create with icCreateWorld, free with icDestroyWorld.
typedef struct icWorld icWorld;
/// A state of a world (opaque): positions, velocities, multipliers and time, sharing the
/// world's model. Create with icWorld_CreateState, free with icDestroyState.
typedef struct icState icState;

/// A soft body handle: index + 1 and a generation, so {0} is null and stale ids are caught.
typedef struct icBodyId {
    int32_t index1;      ///< body index + 1; 0 = null handle
    uint16_t world0;     ///< index of the world the body belongs to
    uint16_t generation; ///< generation of the body slot, to catch stale handles
} icBodyId;

/// Which energy a body's material is. The XPBD solver minimises IC_MATERIAL_MM only.
typedef enum icMaterialModel {
    IC_MATERIAL_MM = 0,  ///< Macklin-Müller stable Neo-Hookean with raw Lamé (Macklin & Müller
                         ///< 2021, sec.\ 3)
    IC_MATERIAL_LINEAR,     ///< linear (small-strain) elasticity
    IC_MATERIAL_STVK,       ///< St. Venant-Kirchhoff
    IC_MATERIAL_COROTATED,  ///< corotated linear elasticity
    IC_MATERIAL_NEOHOOKEAN, ///< log J Neo-Hookean
    IC_MATERIAL_SNH,        ///< stable Neo-Hookean, no log term, lambda' = lambda + mu
    IC_MATERIAL_SNH2018,    ///< Smith et al. 2018 with the log term
    IC_MATERIAL_COUNT_      ///< number of models (not a model)
} icMaterialModel;

/// Which solver steps the world.
typedef enum icSolverType {
    IC_SOLVER_XPBD = 0, ///< constraint-based stable Neo-Hookean (Macklin & Müller 2021); MM
                        ///< energy only
    IC_SOLVER_NEWTON,   ///< force-based backward Euler / quasistatic Newton (Sifakis & Barbič
                        ///< 2012), any material with nu < 0.5; settings via
                        ///< icWorld_SetNewtonDef (fem.h)
    IC_SOLVER_INCOMPRESSIBLE, ///< deviatoric FEM + one-ring pressure projections (Irving,
                              ///< Schroeder & Fedkiw 2007); settings via
                              ///< icWorld_SetIncompressibleDef (incompressible.h)
} icSolverType;

/// Per-tet projection order of the XPBD solver.
typedef enum icProjection {
    IC_PROJECTION_SEQUENTIAL = 0, ///< deviatoric, then hydrostatic at the moved positions, as
                                  ///< the paper (Macklin & Müller 2021, Algorithm 1); rest
                                  ///< stable only up to O(h^2), which grows with resolution
    IC_PROJECTION_COUPLED,        ///< both multipliers of a tet from one 2x2 solve (default):
                                  ///< exactly rest stable, about the cost of the sequential one
} icProjection;

/// What the world does when a step trips a health check (docs/reliability.md).
typedef enum icHealthPolicy {
    IC_HEALTH_OFF = 0, ///< no checks, no counts (the solvers' own NaN checks still fail a step)
    IC_HEALTH_REPORT,  ///< count warnings; results are exactly those of the unchecked solver
    IC_HEALTH_CLAMP,   ///< as report, and velocities faster than maxSpeed are scaled down to it
    IC_HEALTH_STOP,    ///< a step that trips any check returns IC_ERR_NUMERICAL and the world
                       ///< goes back to its state before that step (the last good state,
                       ///< with the incompressible solver's contact memory)
} icHealthPolicy;

/// |V/V0| beyond which a checked step fails as diverged (IC_ERR_NUMERICAL, under every policy
/// but IC_HEALTH_OFF): no soft body gains two orders of magnitude of volume or turns inside
/// out that far as a whole, so every figure after such a step would be noise. (Tenfold is
/// reachable: a compressible body whose pins drag a slab away.)
#define IC_HEALTH_MEANINGLESS_VOLUME_RATIO 100.0

/// A Newton step or static solve that stops at its iteration cap far from its tolerance fails
/// as diverged (IC_ERR_NUMERICAL, under every policy but IC_HEALTH_OFF): its residual is more
/// than IC_HEALTH_NEWTON_FAR_FROM_TOLERANCE times the one its tolerances asked for
/// (icNewtonStats.targetResidual) and was not reduced IC_HEALTH_NEWTON_MIN_REDUCTION-fold from
/// the solve's start, so its state is no solution of the step. A solve that converges slowly
/// (a residual cut a hundredfold or more) stays IC_ERR_NOT_CONVERGED, as does one closer to
/// its tolerance.
#define IC_HEALTH_NEWTON_FAR_FROM_TOLERANCE 1e3
/// See IC_HEALTH_NEWTON_FAR_FROM_TOLERANCE.
#define IC_HEALTH_NEWTON_MIN_REDUCTION 1e2

/// Cheap checks after every step (one pass over vertices and one over tets). A step that
/// produces NaN or infinite positions or velocities fails (IC_ERR_NUMERICAL) under every
/// policy, and so does, under every policy but off, one that ends with |V/V0| >
/// IC_HEALTH_MEANINGLESS_VOLUME_RATIO or a Newton solve stopped at its cap more than
/// IC_HEALTH_NEWTON_FAR_FROM_TOLERANCE times its tolerance away; the other checks are
/// warnings, counted per world (icWorld_GetHealth).
typedef struct icHealthDef {
    icHealthPolicy policy; ///< default IC_HEALTH_REPORT
    icReal maxSpeed;       ///< m/s, > 0: a faster vertex is a warning (clamped under
                           ///< IC_HEALTH_CLAMP); default 1000
    int maxInvertedTets;   ///< >= 0: more tets with det F <= 0 at the end of a step is a
                           ///< warning; default 0 (any inverted tet is counted)
    icReal maxVolumeDrift; ///< > 0: |V/V0 - 1| above it at the end of a step is a warning;
                           ///< default 0.5
} icHealthDef;

/// Defaults: report, 1000 m/s, 0 inverted tets, volume drift 0.5.
icHealthDef icDefaultHealthDef(void);

/// Arithmetic of the XPBD sweep (positions, velocities and outputs stay icReal).
typedef enum icPrecision {
    IC_PRECISION_DOUBLE = 0, ///< the reference arithmetic
    IC_PRECISION_FLOAT,      ///< float32 projections (default): about twice the throughput;
                             ///< positions are solved relative to a vertex near each body's rest
                             ///< centre and only the corrections are rounded, so bodies far from
                             ///< the origin keep their precision (docs/performance.md)
} icPrecision;

/// How the XPBD sweep orders tets for parallel Gauss-Seidel (Macklin & Müller 2021, sec. 5.3).
typedef enum icColouringScheme {
    IC_COLOURING_GREEDY = 0, ///< any mesh: greedy colours of whole vector blocks (default)
    IC_COLOURING_CELL,       ///< hex-derived meshes (icTetMesh.tetCell): the paper's 8 colours of
                             ///< whole cells, a cell's tets in order; greedy when a body has no
                             ///< cell data
    IC_COLOURING_PAIRS,      ///< any mesh: tets that share a face paired (along the Morton curve)
                             ///< and the pairs coloured greedily, colours filled to whole vectors,
                             ///< a pair's two tets in one lane; fewer gathers than greedy, a
                             ///< different Gauss-Seidel order; with IC_PRECISION_FLOAT the fastest
                             ///< order for general meshes (docs/performance.md)
} icColouringScheme;

/// Widest vector code the XPBD sweep may use. All levels give the same bits.
typedef enum icSimd {
    IC_SIMD_AUTO = 0, ///< the widest this CPU has (default)
    IC_SIMD_SCALAR,   ///< portable C
    IC_SIMD_AVX2,     ///< x86-64 AVX2 (falls back to scalar without it)
    IC_SIMD_AVX512,   ///< x86-64 AVX-512F (falls back to AVX2 or scalar)
} icSimd;

/// A parallel task: runs items [start, end) as worker `worker` (0 <= worker < workerCount).
typedef void icTaskCallback(int start, int end, int worker, void *taskContext);
/// The user's task system (as in Box2D): run task over all of [0, itemCount) in ranges of
/// at least minRange items (the last may be shorter), each item once, ranges that run at the
/// same time with different worker indices below the def's workerCount. Returns a handle for
/// finishTask, or NULL when task has already run completely.
typedef void *icEnqueueTaskCallback(icTaskCallback *task, int itemCount, int minRange,
                                    void *taskContext, void *userContext);
/// Returns when the task behind userTask has run completely.
typedef void icFinishTaskCallback(void *userTask, void *userContext);

/// Settings of a world. Get them from icDefaultWorldDef() and change what you need.
typedef struct icWorldDef {
    icSolverType solver;     ///< default IC_SOLVER_XPBD
    icVec3 gravity;          ///< m/s^2; default (0, -9.81, 0)
    int substeps;            ///< XPBD substeps per step, >= 1; default 20
    int iterations;          ///< constraint sweeps per substep, >= 1; default 1
    /// Adaptive substeps: a step takes more than `substeps` while the motion deforms some tet
    /// faster than this strain per substep (|sym(F' F^-1)| h, dimensionless), counting
    /// contacts with planes the step will make; the rigid part of the motion costs nothing.
    /// >= 0; 0 = always `substeps`. Default 0.2 (docs/scenes.md, "Adaptive substeps").
    icReal maxSubstepStrain;
    int maxSubsteps;         ///< at most this many substeps a step, >= 1; default 160
    icProjection projection; ///< default IC_PROJECTION_COUPLED
    bool restShift;          ///< gamma = 1 + mu/lambda (true, default) or gamma = 1 (false)
    int workerCount;         ///< threads of the parallel loops, >= 0; default 0 = automatic:
                             ///< icAvailableCores() from icAutoWorkerMinTets(solver) tets
                             ///< on, one below (icWorld_GetWorkerCount says which)
    icReal linearDamping;    ///< velocity damping in 1/s, >= 0: v *= 1/(1 + c h) each substep.
                             ///< Settles a body without changing its equilibrium; default 0
    icHealthDef health;      ///< per-step checks; default icDefaultHealthDef()
    icPrecision precision;   ///< XPBD sweep arithmetic; default IC_PRECISION_FLOAT
    icColouringScheme colouring; ///< XPBD sweep order; default IC_COLOURING_GREEDY
    icSimd simd;             ///< default IC_SIMD_AUTO
    /// Both set: the user's task system runs the parallel loops with icWorld_GetWorkerCount()
    /// workers and no thread is started; NULL (default): a built-in pool of that count - 1
    /// threads. Any worker count gives the same bits.
    icEnqueueTaskCallback *enqueueTask;
    /// Waits for a task enqueueTask returned; set together with enqueueTask (default NULL).
    icFinishTaskCallback *finishTask;
    void *userTaskContext; ///< passed to both callbacks
} icWorldDef;

/// Defaults: XPBD, gravity -9.81 m/s^2 along y, 20 substeps (adaptive up to 160 at strain
/// 0.2), 1 iteration, coupled projection, rest shift on, automatic workers, no linear
/// damping, health report, float sweeps, greedy colouring, widest SIMD, built-in threads.
icWorldDef icDefaultWorldDef(void);

/// What a solver can do: the one list of what each solver supports (icSolver_Supports), so
/// that a caller can ask before building a scene, and an unsupported call returns
/// IC_ERR_UNSUPPORTED. docs/architecture.md tabulates it.
typedef enum icSolverFeature {
    IC_FEATURE_STATIC_SOLVE = 1 << 0,      ///< icWorld_SolveStatic
    IC_FEATURE_ADAPTIVE_SUBSTEPS = 1 << 1, ///< icWorldDef.maxSubstepStrain
    IC_FEATURE_BONES = 1 << 2,             ///< icWorld_AddBone and attachments (collision.h)
    IC_FEATURE_BODY_CONTACT = 1 << 3,      ///< icContactDef body and self contact (the
                                           ///< incompressible solver has its own,
                                           ///< icIncompressibleDef.selfContact)
    IC_FEATURE_MOVING_PLANES = 1 << 4,     ///< icWorld_AddMovingPlane (incompressible.h)
    IC_FEATURE_ANY_MATERIAL = 1 << 5,      ///< every icMaterialModel (else 'mm' only)
} icSolverFeature;
/// Whether the solver supports the feature (false for an unknown solver).
bool icSolver_Supports(icSolverType solver, icSolverFeature feature);
/// The solver's name as scenes spell it ("xpbd", "newton", "incompressible"); "" if unknown.
const char *icSolver_Name(icSolverType solver);

/// Most workers an automatic count resolves to.
#define IC_MAX_WORKERS 1024
/// Processors this process may run on: its affinity mask (taskset, a container's cpuset), or
/// the online count where the mask cannot be read; 1 to IC_MAX_WORKERS.
int icAvailableCores(void);
/// Tets from which an automatic worker count (workerCount 0) runs more than one worker: the
/// break-even of a second worker for the solver (docs/performance.md); INT_MAX for the Newton
/// solver, whose iterations run on one thread.
int icAutoWorkerMinTets(icSolverType solver);

/// Material and initial conditions of a soft body.
typedef struct icSoftBodyDef {
    icMaterialModel model; ///< default IC_MATERIAL_MM
    icReal youngsModulus;  ///< E in Pa, > 0; default 1e5
    icReal poissonRatio;   ///< nu in [0, 0.5] (> 0 for IC_MATERIAL_MM, < 0.5 for the Newton
                           ///< solver); 0.5 = incompressible (alpha_H = 0); default 0.45
    icReal density;        ///< kg/m^3, > 0; default 1000
    icReal damping;        ///< XPBD constraint damping beta in seconds, >= 0; default 0
    icVec3 translation;    ///< added to the mesh positions, metres; default 0
    icVec3 velocity;       ///< initial velocity of every vertex, m/s; default 0
} icSoftBodyDef;

/// Defaults: MM, E = 1e5 Pa, nu = 0.45, rho = 1000 kg/m^3, no damping, no offset, at rest.
icSoftBodyDef icDefaultSoftBodyDef(void);

/// Lamé parameters from E (Pa) and nu: mu = E / (2 (1 + nu)) and
/// lambda = E nu / ((1 + nu)(1 - 2 nu)), both Pa (lambda = +inf at nu = 0.5).
void icLame(icReal youngsModulus, icReal poissonRatio, icReal *mu, icReal *lambda);

/// Prescribed motion of pinned vertices: p(t) = c + R(w tau)(p0 - c) + v tau with
/// tau = clamp(t, start, end) - start, where p0 is the vertex position when pinned.
typedef struct icMotion {
    icVec3 velocity;         ///< translation velocity, m/s
    icVec3 axis;             ///< rotation axis (any length > 0); default +y
    icVec3 centre;           ///< rotation centre, metres
    icReal degreesPerSecond; ///< rotation rate, degrees/s; 0 = no rotation
    //!@{
    icReal start, end;       ///< time window in seconds; motion holds still outside it
    //!@}
} icMotion;

/// Most motion segments one pin (icPinDef.motions) composes.
#define IC_MAX_MOTIONS 4

/// Pins the vertices of a body inside an axis-aligned box.
typedef struct icPinDef {
    //!@{
    icVec3 boxMin, boxMax; ///< metres, in world coordinates at the time of pinning
    //!@}
    bool axes[3];          ///< which coordinates are held (all true = fully pinned); a vertex
                           ///< held on some axes slides freely along the others
    int motionCount;       ///< 0..IC_MAX_MOTIONS segments, applied in order (composed)
    icMotion motions[IC_MAX_MOTIONS]; ///< the segments; the first motionCount are used
} icPinDef;

/// Defaults: an empty box, all axes held, no motion.
icPinDef icDefaultPinDef(void);
/// Defaults of one motion segment: at rest, axis +y, centre 0, window [0, +inf).
icMotion icDefaultMotion(void);

/// A static plane: bodies stay on the side normal . x >= offset (Coulomb friction mu).
typedef struct icPlaneDef {
    icVec3 normal;   ///< any length > 0; normalised on creation
    icReal offset;   ///< the plane is normal .\ x = offset with the normal as given, so it
                     ///< lies offset / |normal| metres from the origin; default 0
    icReal friction; ///< Coulomb coefficient >= 0 (static and dynamic alike); default 0.5
} icPlaneDef;
/// Defaults: normal +y, offset 0 (the ground y >= 0), friction 0.5.
icPlaneDef icDefaultPlaneDef(void);

/// Figures of the last step (or static solve).
typedef struct icStepStats {
    int substeps;          ///< substeps taken
    int sweeps;            ///< constraint sweeps taken (substeps x iterations, or static)
    icReal milliseconds;   ///< wall time of the step, ms
    int invertedTets;      ///< tets with det F <= 0 at the end
    int contacts;          ///< vertices in contact with a collider at the end
    bool converged;        ///< static solves: tolerance reached
    icReal residual;       ///< static solves: last max displacement / size
    bool nan;              ///< a non-finite position appeared (the step was stopped)
} icStepStats;

/// Creates an empty world; NULL def means defaults. Returns NULL on a bad def or no memory.
icWorld *icCreateWorld(const icWorldDef *def);
/// Frees the world and everything it owns (bodies, colliders, skins, solver caches); states
/// from icWorld_CreateState are freed separately with icDestroyState. NULL is fine.
void icDestroyWorld(icWorld *world);
/// The def the world was created with (solver settings may be changed with the setters).
icWorldDef icWorld_GetDef(const icWorld *world);
/// The workers the world's parallel loops run on: the def's workerCount, or for 0 what the
/// automatic choice gives its tets (fixed from its first step until bodies are added).
int icWorld_GetWorkerCount(const icWorld *world);
/// Sets the XPBD substeps per step and sweeps per substep (both >= 1; asserted).
void icWorld_SetSubsteps(icWorld *world, int substeps, int iterations);
/// Sets the XPBD per-tet projection order.
void icWorld_SetProjection(icWorld *world, icProjection projection);
/// Sets gravity, m/s^2.
void icWorld_SetGravity(icWorld *world, icVec3 gravity);

/// Adds a soft body. The mesh is validated (icTetMesh_Check, non-strict) and copied. Fails
/// with the icResult of the check (diag says why), IC_ERR_BAD_VALUE for a bad def (or
/// nu = 0.5 with the Newton solver, whose lambda would be infinite), or IC_ERR_UNSUPPORTED
/// for a model the world's solver cannot minimise (XPBD minimises the MM energy only).
icResult icWorld_CreateSoftBody(icWorld *world, const icTetMesh *mesh, const icSoftBodyDef *def,
                                icBodyId *id, icDiagnostic *diag);
/// True when id names a live body of this world (false for {0}, stale ids or a NULL world).
bool icBody_IsValid(const icWorld *world, icBodyId id);
/// The range of the body's vertices and tets in the world's global arrays.
void icBody_GetRanges(const icWorld *world, icBodyId id, int *vertexStart, int *vertexCount,
                      int *tetStart, int *tetCount);
/// Pins vertices of a body; *pinnedCount (optional) gets how many vertices the box caught.
icResult icBody_AddPin(icWorld *world, icBodyId id, const icPinDef *def, int *pinnedCount);
/// Adds a static plane collider.
icResult icWorld_AddPlane(icWorld *world, const icPlaneDef *def);

/// World totals: vertices over all bodies.
int icWorld_GetVertexCount(const icWorld *world);
/// World totals: tets over all bodies.
int icWorld_GetTetCount(const icWorld *world);
/// Global tets (tetCount x 4, indices into the global vertex array) and rest positions.
const int *icWorld_GetTets(const icWorld *world);
/// Rest positions of all vertices (vertexCount x 3), m, translation included.
const icReal *icWorld_GetRestPositions(const icWorld *world);
/// Current positions / velocities of the world's state (vertexCount x 3).
const icReal *icWorld_GetPositions(const icWorld *world);
/// Current velocities of the world's state (vertexCount x 3), m/s.
const icReal *icWorld_GetVelocities(const icWorld *world);
/// Writable positions, e.g. to scramble a mesh; call before stepping.
icReal *icWorld_GetPositionsMutable(icWorld *world);
/// Velocities to edit between steps (vertexCount x 3, m/s): initial spins, impulses.
icReal *icWorld_GetVelocitiesMutable(icWorld *world);
/// Simulated time of the current state, s (sum of the steps' dt).
icReal icWorld_GetTime(const icWorld *world);

/// Advances the world's state by dt seconds (substeps x iterations per the def).
/// IC_ERR_INTERRUPTED when the flag of icWorld_SetInterrupt became non-zero during the step:
/// the world is then back at its state before the step.
icResult icWorld_Step(icWorld *world, icReal dt, icStepStats *stats);

/// Where the last step (or static solve) spent its time, ms: the stages of icWorld_Step.
typedef struct icProfile {
    icReal step;    ///< the whole call
    icReal solve;   ///< the solver's stage: its substeps, contact response included
    icReal collide; ///< of solve, gathering what may touch: colliders, bones and body or
                    ///< self contact candidates, proximity pairs, Newton's contact set
                    ///< (0 where nothing can be touched)
    icReal health;  ///< the health checks after the step and keeping the state before it
} icProfile;
/// The profile of the last icWorld_Step or icWorld_SolveStatic (zeros before the first).
icProfile icWorld_GetProfile(const icWorld *world);

/// Lets a signal handler stop a long step (many substeps, Newton iterations) early. With flag
/// non-NULL the world keeps a copy of its state at the start of every step and static solve,
/// and every solver looks at *flag once per substep (XPBD substeps and static pseudo steps,
/// Newton iterations, incompressible substeps): once it is non-zero the step or solve stops,
/// the world goes back to the copy (the state, health counts and solver memory of before the
/// step) and IC_ERR_INTERRUPTED is returned. The flag is only read, never cleared. NULL
/// (default) turns this off. The flag must outlive its use; the scene runner sets it from
/// icRunOptions.interrupt for the run and removes it afterwards.
void icWorld_SetInterrupt(icWorld *world, const volatile sig_atomic_t *flag);

/// Static (quasistatic) solve settings.
typedef struct icStaticDef {
    icReal pseudoStep;  ///< substep h of the relaxation in seconds; default 1/1200. The result
                        ///< is the rest state of the dynamic solver with this h, which differs
                        ///< from the exact equilibrium by O(h^2) (XPBD's linearisation error)
    int iterationsPerStep; ///< sweeps per substep (multipliers kept across them); default 1
    int maxSweeps;      ///< cap on sweeps in total; default 20000
    icReal tolerance;   ///< stop when no vertex moves more than tolerance * size in a
                        ///< substep; default 1e-7
    bool gravity;       ///< include gravity; default true
} icStaticDef;
/// Defaults: pseudo step 1/1200 s, 1 sweep per substep, at most 20000 sweeps, tolerance
/// 1e-7, gravity on.
icStaticDef icDefaultStaticDef(void);
/// Relaxes to equilibrium by dynamic relaxation: XPBD substeps with kinetic damping
/// (velocities zeroed at each kinetic-energy peak) until the positions stop moving. Pins are
/// held at time t. Velocities are zero afterwards. IC_ERR_NOT_CONVERGED if the cap is hit
/// (the state is still the last iterate), IC_ERR_NUMERICAL on NaN, IC_ERR_INTERRUPTED as
/// icWorld_Step.
icResult icWorld_SolveStatic(icWorld *world, const icStaticDef *def, icStepStats *stats);
/// Advances the time of kinematic pins by dt without dynamics (use before a static solve); a
/// negative dt takes such an advance back (after an interrupted static solve).
void icWorld_AdvanceTime(icWorld *world, icReal dt);

/// What the health checks found since the world was created (or its checkpoint was made).
typedef struct icHealthStats {
    int64_t steps;              ///< steps and static solves checked
    int64_t warnings;           ///< all warnings: the five counts below
    int64_t nonFiniteSteps;     ///< steps that produced NaN or infinite positions or velocities
    int64_t speedWarnings;      ///< steps that ended with a vertex faster than maxSpeed
    int64_t inversionWarnings;  ///< steps that ended with more than maxInvertedTets inverted
    int64_t volumeWarnings;     ///< steps that ended with |V/V0 - 1| > maxVolumeDrift
    int64_t solverWarnings;     ///< Newton steps and solves stopped at their iteration cap
                                ///< far from the tolerance (each failed its step)
    int64_t clampedVertices;    ///< velocities scaled down to maxSpeed (IC_HEALTH_CLAMP)
    int64_t stops;              ///< steps undone (IC_HEALTH_STOP)
    icReal maxSpeedSeen;        ///< m/s, fastest vertex at the end of any checked step
    int maxInvertedSeen;        ///< most inverted tets at the end of any checked step
    icReal maxVolumeDriftSeen;  ///< largest |V/V0 - 1| at the end of any checked step
    icReal maxTetJMinus1Seen;   ///< largest |J - 1| of one tet at the end of any checked step
    char lastWarning[160];      ///< the latest warning as a sentence ("" when none)
} icHealthStats;

/// The world's health counts (all zero under IC_HEALTH_OFF).
icHealthStats icWorld_GetHealth(const icWorld *world);
/// Changes the health checks of a world (IC_ERR_BAD_VALUE for a bad def); counts are kept.
icResult icWorld_SetHealthDef(icWorld *world, const icHealthDef *def);

/// What the XPBD solver's sweep runs: the order it resolved, the kernel width and the packed
/// layout's shape (docs/performance.md). The colouring a def asks for is not always the one
/// that runs: IC_COLOURING_CELL needs cell data on every body (generated meshes), otherwise the
/// sweep goes greedy, and this says so.
typedef struct icSweepInfo {
    bool packed;              ///< the packed, vectorised sweep (false: the reference sweep,
                              ///< for a mesh too large for it)
    icColouringScheme asked;  ///< the def's colouring
    icColouringScheme scheme; ///< the order that runs
    icSimd simd;              ///< the kernel width that runs (IC_SIMD_SCALAR: portable C)
    icPrecision precision;    ///< the arithmetic that runs
    int workers;              ///< workers the sweep runs on
    int colours;         ///< over all chunks
    //!@{
    int chunks, phases;  ///< chunks run in parallel within a phase
    //!@}
    int overflowTets;    ///< tets projected one by one after the colours
    int paddingLanes;    ///< empty vector lanes
    int pairedTets;      ///< IC_COLOURING_PAIRS: tets that run in a pair
    int64_t layoutBytes; ///< the packed layout's memory, bytes
} icSweepInfo;

/// Builds the sweep's layout when it is not current (as the next XPBD step would) and
/// describes it. IC_ERR_OUT_OF_MEMORY when the build fails; IC_ERR_INVALID_ARGUMENT for NULL.
icResult icWorld_GetSweepInfo(icWorld *world, icSweepInfo *info);
/// "greedy", "cell" or "pairs" (the scene key's words); "?" for other values.
const char *icColouringName(icColouringScheme scheme);
/// "scalar", "avx2", "avx512" or "auto"; "?" for other values.
const char *icSimdName(icSimd simd);

/// FNV-1a hash of everything a step reads and never writes: meshes, materials, pins, planes,
/// solver settings (workerCount excepted: it must not change results). Checkpoints carry it.
uint64_t icWorld_HashModel(const icWorld *world);
/// Hash of the current state: positions, velocities, positions at the last substep's start,
/// multipliers, time, substep count. Equal hashes mean (up to 2^-64) bit-identical states.
uint64_t icWorld_HashState(const icWorld *world);

/// Serialises the world's state, its health counts and an opaque user block (userSize bytes,
/// may be 0) into a versioned, checksummed buffer (layout: docs/reliability.md). *data is
/// allocated by isochor (free with icFree). IC_ERR_OUT_OF_MEMORY, IC_ERR_NOT_FINITE (a
/// state with NaN is never saved). IC_SOLVER_INCOMPRESSIBLE worlds also save the memory that
/// solver keeps between steps (last contact normals and vertex pressures).
icResult icWorld_SaveCheckpoint(const icWorld *world, const void *user, size_t userSize,
                                void **data, size_t *size);
/// Restores a checkpoint made from a world with the same model. The buffer is checked whole
/// before anything changes, so a bad one leaves the world as it was: IC_ERR_TRUNCATED (too
/// short), IC_ERR_PARSE (not a checkpoint, or its checksum does not match: corrupted),
/// IC_ERR_UNSUPPORTED (a newer format version or an unknown section), IC_ERR_BAD_VALUE (made
/// from another model, or sizes that do not match this world), IC_ERR_NOT_FINITE. *user
/// (optional) points into data at the user block.
icResult icWorld_LoadCheckpoint(icWorld *world, const void *data, size_t size, const void **user,
                                size_t *userSize, icDiagnostic *diag);
/// The checks of icWorld_LoadCheckpoint without restoring anything (to look at the user block
/// before committing to a checkpoint).
icResult icWorld_CheckCheckpoint(const icWorld *world, const void *data, size_t size,
                                 const void **user, size_t *userSize, icDiagnostic *diag);

/// Per-tet fields of the current state, each array (tetCount), any may be NULL:
/// J = det F; pressure = lambda_H / (h^2 V) from the last substep's multiplier (Pa; Macklin &
/// Müller 2021 supplement, sec.\ 3); stressNorm = |P_D| = |lambda_D / (h^2 V) F / r_S| (Pa).
/// Newton worlds keep no multipliers: their pressure is -tr(sigma) / 3 of the body's material
/// at the current F (sigma = P F^T / J) and stressNorm the norm of P less that pressure's part
/// -p cof F; NaN where the stress is not finite (an inverted Neo-Hookean tet).
void icWorld_GetTetFields(const icWorld *world, icReal *J, icReal *pressure, icReal *stressNorm);
/// Current total volume over rest total volume, over all bodies.
icReal icWorld_GetVolumeRatio(const icWorld *world);
/// One body's current volume over its rest volume (m^3 / m^3).
icReal icBody_GetVolumeRatio(const icWorld *world, icBodyId id);

/// States sharing the world's model. A new state is a copy of the world's current one.
icState *icWorld_CreateState(const icWorld *world);
/// Frees a state from icWorld_CreateState. NULL is fine.
void icDestroyState(icState *state);
/// Copies the world's current state into state, or state into the world's current state.
void icWorld_SaveState(const icWorld *world, icState *state);
/// Copies state into the world's current state (a state of this world made after its last
/// body was added; asserted).
void icWorld_LoadState(icWorld *world, const icState *state);

/// Constraint gradients of one tet (Macklin & Müller 2021 supplement, sec.\ 1): given F and
/// Q = Dm^-1 (1/m), the value and gradients (4 vectors, 1/m, x4 = -(x1+x2+x3)) of the
/// hydrostatic constraint C_H = det F - gamma (gamma: the rest shift, dimensionless).
void icTet_HydrostaticGradient(icMat3 F, icMat3 Q, icReal gamma, icReal *C, icVec3 grad[4]);
/// The same for the deviatoric constraint C_D = |F|_F (dimensionless).
void icTet_DeviatoricGradient(icMat3 F, icMat3 Q, icReal *C, icVec3 grad[4]);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
