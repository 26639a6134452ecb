// SPDX-License-Identifier: MIT
/// \file
/// Volume-conserving FEM (Irving, Schroeder & Fedkiw 2007): one-ring volumes, the
/// divergence operator J = dV/dx and its transpose, the pressure matrix J M^-1 J^T, MINRES and
/// Jacobi-PCG, contact constraints as palindromic projection sweeps, the two pressure
/// projections, and the world solver IC_SOLVER_INCOMPRESSIBLE that steps with them.
#pragma once

#include "isochor/fem.h"
#include "isochor/sparse.h"
#include "isochor/world.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

// ---------------------------------------------------------------------------------------
// Operators (Irving et al. 2007, sec. 3). Tets are (tetCount x 4) global indices, positively
// oriented at rest; g holds the volume gradients g_{t,a} = dV_t/dx_{t_a} as (tetCount x 12) reals.

/// Signed volume of one tet and its four gradients g_a (g_1 = (b x c)/6, ...,
/// g_0 = -(g_1 + g_2 + g_3); the columns of B = V D^-T, Irving et al.\ 2007, sec.\ 3).
icReal icTet_VolumeGradients(icVec3 x0, icVec3 x1, icVec3 x2, icVec3 x3, icVec3 g[4]);
/// One-ring volumes V_k = 1/4 sum_{t in ring(k)} V_t (vertexCount) at x (vertexCount x 3);
/// returns the total signed volume (equal to sum_k V_k).
icReal icOneRing_Volumes(const icReal *x, int vertexCount, const int *tets, int tetCount,
                         icReal *ringVolumes);
/// Per-tet volume gradients at x into g (tetCount x 12).
void icOneRing_Gradients(const icReal *x, const int *tets, int tetCount, icReal *g);
/// out = J v (vertexCount): (J v)_k = 1/4 sum_{t in ring(k)} sum_a g_{t,a} . v_{t_a}.
void icOneRing_Divergence(const icReal *g, const int *tets, int tetCount, int vertexCount,
                          const icReal *v, icReal *out);
/// out = J^T p (vertexCount x 3): (J^T p)_j = sum_{t in ring(j)} pbar_t g_{t,j}. The
/// pressure force is +J^T p (positive pressure pushes outward); grad p = -J^T p.
void icOneRing_DivergenceTranspose(const icReal *g, const int *tets, int tetCount,
                                   int vertexCount, const icReal *p, icReal *out);

/// Scalar compressed-row matrix: row r has entries rowStart[r]..rowStart[r+1]-1 with
/// ascending columns.
typedef struct icCsr {
    //!@{
    int rowCount, colCount, nonzeroCount; ///< rows, columns and stored entries
    //!@}
    int *rowStart;  ///< (rowCount + 1)
    int *col;       ///< (nonzeroCount)
    icReal *values; ///< (nonzeroCount)
} icCsr;

/// Frees the arrays and zeroes the struct. Safe on a zeroed struct.
void icCsr_Destroy(icCsr *matrix);
/// y = A x.
void icCsr_Multiply(const icCsr *matrix, const icReal *x, icReal *y);
/// Operator adaptor for the solvers: context is a const icCsr *.
void icCsr_Operator(void *context, const icReal *x, icReal *y);

/// Assembled J (vertexCount x 3 vertexCount) from gradients g.
icResult icOneRing_AssembleDivergence(const icReal *g, const int *tets, int tetCount,
                                      int vertexCount, icCsr *J);
/// Assembled pressure matrix A = J M^-1 J^T (vertexCount^2, two-ring pattern).
/// invMass (vertexCount x 3): 1/m per axis, 0 on kinematic axes.
icResult icOneRing_AssemblePressure(const icCsr *J, const icReal *invMass, icCsr *A);

// ---------------------------------------------------------------------------------------
// Krylov solvers (MINRES as Irving et al. 2007, sec. 4; Paige & Saunders 1975). Both start at
// x = 0, or at alpha * guess when a guess (n) is given, alpha minimising ||b - alpha A guess||_2
// (one extra product; the first residual is then never larger than ||b||, whatever the guess).
// They stop when ||r||_2 <= max(tolerance ||b||_2, absoluteTolerance), after maxIterations, on
// breakdown, or (MINRES) when the residual can fall no further (leastSquares below). guess may
// be x itself.

/// What a MINRES or Jacobi-PCG solve did.
typedef struct icKrylovStats {
    int iterations;          ///< operator products in the iteration
    int guessProducts;       ///< products spent on the guess (0 or 1)
    icReal initialResidual;  ///< ||b||_2
    icReal residual;         ///< ||b - A x||_2 estimate at the end
    bool converged;          ///< the residual reached max(tolerance ||b||, absoluteTolerance)
    bool breakdown;          ///< CG: p.Ap <= 0; MINRES: gamma = 0 (inconsistent system)
    bool leastSquares;       ///< MINRES: stopped with ||A r|| <= 0.01 tolerance ||A|| ||r||:
                             ///< b is (numerically) outside the range of A and x minimises
                             ///< ||b - A x|| (residual above the tolerance, converged false)
} icKrylovStats;

/// MINRES (Paige-Saunders) for symmetric A. scale (n, may be NULL) applies symmetric Jacobi
/// scaling: it solves (S A S) y = S b and returns x = S y, with S = scale (diag(A)^-1/2).
/// Then tolerances refer to the scaled residual. work: 9n reals or NULL (allocated).
/// Returns iterations, -1 when out of memory.
int icMinres(int n, icLinearOperatorFn *op, void *context, const icReal *scale, const icReal *b,
             const icReal *guess, icReal *x, icReal tolerance, icReal absoluteTolerance,
             int maxIterations, icReal *work, icKrylovStats *stats);
/// Jacobi-preconditioned CG for SPD A (invDiagonal (n) or NULL for none). work: 4n or NULL.
int icJacobiCG(int n, icLinearOperatorFn *op, void *context, const icReal *invDiagonal,
               const icReal *b, const icReal *guess, icReal *x, icReal tolerance,
               icReal absoluteTolerance, int maxIterations, icReal *work, icKrylovStats *stats);

// ---------------------------------------------------------------------------------------
// Contact constraints c^T dv = 0 on the velocity change made by the pressure
// (Irving et al. 2007, sec. 4).

/// One linear constraint over up to 4 vertices: sum_i c[i] . dv_{vertices[i]} = 0.
typedef struct icVelocityConstraint {
    int count;       ///< 1..4
    int vertices[4]; ///< vertex indices; the first count are used
    icVec3 c[4];     ///< coefficient vectors c_i (dimensionless: weight times unit normal)
} icVelocityConstraint;

/// An ordered list; Project applies the palindromic sweep (Pi_1 .. Pi_m .. Pi_1)^q.
typedef struct icConstraintSet {
    //!@{
    int count, capacity;         ///< constraints held and allocated
    //!@}
    icVelocityConstraint *items; ///< (count)
} icConstraintSet;

/// Appends one constraint (IC_ERR_OUT_OF_MEMORY). Constraints whose c^T M^-1 c is 0 (all
/// vertices kinematic) are ignored by Project.
icResult icConstraintSet_Add(icConstraintSet *set, const icVelocityConstraint *constraint);
/// Empties the list and keeps its memory.
void icConstraintSet_Clear(icConstraintSet *set);
/// Frees the list's items and zeroes it (set must not be NULL).
void icConstraintSet_Destroy(icConstraintSet *set);
/// u := Pi u for u = M^-1 (something) (vertexCount x 3), the M-orthogonal palindromic
/// symmetric Gauss-Seidel product with `sweeps` repetitions (q; Irving et al.\ 2007, sec.\ 4).
void icConstraintSet_Project(const icConstraintSet *set, const icReal *invMass, int sweeps,
                             icReal *u);

// ---------------------------------------------------------------------------------------
// Pressure projections (Irving et al. 2007, sec. 2, eqs. 1-2).

/// Krylov solver of the pressure systems.
typedef enum icPressureSolver {
    IC_PRESSURE_MINRES = 0, ///< Paige-Saunders MINRES (default; safe when A is singular)
    IC_PRESSURE_CG,         ///< Jacobi-PCG, falls back to MINRES on breakdown
} icPressureSolver;

/// Solve settings of both pressure systems.
typedef struct icPressureDef {
    icPressureSolver solver; ///< default IC_PRESSURE_MINRES
    icReal tolerance;        ///< relative residual, > 0; default 0.01 (the paper's 1 %)
    icReal absoluteTolerance;///< residual floor relative to the total rest volume / s, >= 0;
                             ///< default 1e-10
    int maxIterations;       ///< cap (never more than the unknown count); default 200
    bool jacobi;             ///< Jacobi scaling (MINRES: symmetric, CG: preconditioner);
                             ///< default true
    int sweeps;              ///< q of the contact projections, >= 1; default 4
} icPressureDef;

/// Defaults: MINRES, tolerance 0.01, floor 1e-10, 200 iterations, Jacobi scaling, 4 sweeps.
icPressureDef icDefaultPressureDef(void);

/// Workspace of the projections for one mesh: oriented tets, masses and the scratch the
/// solves need. Borrowed arrays must outlive it.
typedef struct icPressureSystem icPressureSystem;

/// invMass (vertexCount x 3) 1/m per axis, 0 on kinematic axes (copied). NULL when out of
/// memory or for bad sizes.
icPressureSystem *icCreatePressureSystem(int vertexCount, const int *tets, int tetCount,
                                         const icReal *invMass);
/// Frees a pressure system. NULL is fine.
void icDestroyPressureSystem(icPressureSystem *system);
struct icPool;
/// Runs the system's operators on these workers (internal, src/core/pool.h; NULL: the
/// caller's thread only). Any worker count gives the same bits.
void icPressureSystem_SetPool(icPressureSystem *system, struct icPool *pool);
/// Evaluates g, the Jacobi diagonal and the active unknowns (rows with A_kk > 0) at x.
void icPressureSystem_Setup(icPressureSystem *system, const icReal *x);
/// The one-ring volumes of icOneRing_Volumes at x, bit for bit, on the system's workers.
void icPressureSystem_RingVolumes(icPressureSystem *system, const icReal *x, icReal *ringVolumes);
/// Turns off the rows with active[k] == 0 until the next Setup (their phat stays zero),
/// e.g.\ rings of a sub-mesh whose tets are not all in it.
void icPressureSystem_DeactivateRows(icPressureSystem *system, const unsigned char *active);
/// Solves (J Pi M^-1 J^T) phat = rhs on the active unknowns (phat zero elsewhere) and
/// returns the iteration count; constraints may be NULL; guess (n, may be NULL or phat
/// itself) is the Krylov start, as above.
int icPressureSystem_Solve(icPressureSystem *system, const icConstraintSet *constraints,
                           const icPressureDef *def, icReal volumeScale, const icReal *rhs,
                           const icReal *guess, icReal *phat, icKrylovStats *stats);
/// dv = Pi M^-1 J^T phat (vertexCount x 3).
void icPressureSystem_Correction(icPressureSystem *system, const icConstraintSet *constraints,
                                 int sweeps, const icReal *phat, icReal *dv);
/// Velocity projection (eq.\ 2) at the configuration of the last Setup: v += Pi M^-1 J^T phat
/// with A phat = -J v. phat (vertexCount, may be NULL): on entry the solve's start when
/// useGuess, on return the scaled pressure (Pa s).
int icPressureSystem_ProjectVelocity(icPressureSystem *system, const icConstraintSet *constraints,
                                     const icPressureDef *def, icReal *v, icReal *phat,
                                     bool useGuess, icKrylovStats *stats);
/// Position correction (eq.\ 1) at the configuration of the last Setup (x^n, whose ring
/// volumes are ringVolumes): w := vstar + Pi M^-1 J^T phat with
/// A phat = -J vstar + e/dt, e_k = target_k - V_k clamped by recoveryTime (Dtau, 0 = none;
/// Irving et al.\ 2007, sec.\ 2). phat (vertexCount, may be NULL): on entry the solve's start when
/// useGuess, on return the scaled pressure (Pa s). Returns iterations.
int icPressureSystem_CorrectPositions(icPressureSystem *system, const icConstraintSet *constraints,
                                      const icPressureDef *def, const icReal *targetVolumes,
                                      const icReal *ringVolumes, icReal dt, icReal recoveryTime,
                                      icReal *w, icReal *phat, bool useGuess, icKrylovStats *stats);

// ---------------------------------------------------------------------------------------
// The world solver IC_SOLVER_INCOMPRESSIBLE (Irving et al. 2007, sec. 2: modified
// semi-implicit Newmark).

/// A kinematic plane for this solver: bodies stay on the side normal .\ x >= offset(t), with
/// offset(t) = offset + speed (clamp(t, start, end) - start) (it moves along its normal).
typedef struct icMovingPlaneDef {
    icVec3 normal; ///< any length > 0; normalised on creation, offset is not rescaled (unlike
                   ///< icPlaneDef): offset is the distance along the unit normal; default +y
    icReal offset; ///< m at t = start; default 0
    icReal speed;  ///< m/s along the normal (positive = towards the bodies); default 0
    //!@{
    icReal start, end; ///< s; the plane moves only inside the window; default [0, +inf)
    //!@}
    icReal friction;   ///< Coulomb coefficient, >= 0; default 0
} icMovingPlaneDef;

/// Defaults: the ground y >= 0 at rest, no friction.
icMovingPlaneDef icDefaultMovingPlaneDef(void);

/// Where the velocity projection (eq.\ 2) runs in a substep of the scheme of Irving et al.\ 2007,
/// sec.\ 2. The paper allows any point (it is a static projection); where it runs decides which
/// velocity is carried to the next substep.
typedef enum icVelocityProjection {
    /// END without self contact, MIDPOINT with it (default). END made a pile of tori with self
    /// contact blow up (docs/results.md); without proximity pairs it was stable in every scene
    /// tried.
    IC_VELOCITY_PROJECTION_AUTO = 0,
    /// After the extrapolation (step 8), on v^{n+1} at x^{n+1} with step 5's contacts: the
    /// carried velocity is divergence free, and the next substep's eq.\ 1 reuses the pressure
    /// operators it set up. The velocity half step's elastic impulse (doubled by the
    /// extrapolation) then no longer rides on contact vertices as sliding speed that eq. 1 takes
    /// back: a resting body rests, and the CFL substeps fall (docs/results.md).
    IC_VELOCITY_PROJECTION_END,
    /// Step 6 of the paper's list: on the post-collision time-n velocity at the midpoint
    /// x^{n+1/2} (as the public PhysBAM code), before the velocity half step.
    IC_VELOCITY_PROJECTION_MIDPOINT,
} icVelocityProjection;

/// The name scenes use for p: "auto", "end" or "midpoint" ("?" for any other value).
const char *icVelocityProjectionName(icVelocityProjection p);

/// Settings of the incompressible world solver.
typedef struct icIncompressibleDef {
    icPressureDef pressure;     ///< both pressure solves
    bool projections;           ///< the two pressure projections; false = standard FEM with
                                ///< the same integrator (for comparisons); default true
    icReal recoveryTime;        ///< Dtau, s, >= 0 (0 = no clamp); default 0
    icReal volumetricScale;     ///< fraction of each body's lambda kept in the elastic
                                ///< forces, [0, 1]; default 0 (deviatoric only)
    icReal massDamping;         ///< Rayleigh alpha_M, 1/s, >= 0 (implicit); default 0
    bool implicitVelocitySolve; ///< delta of step 7 (Irving et al.\ 2007, sec.\ 2): stiffness in
                                ///< the second half step too; default true (delta = 0 blew up on
                                ///< the sphere drop at dt = 1/240 s, even without projections)
    bool contactInForceSolve;   ///< object contacts also filter step 1 (squeeze tests;
                                ///< Irving et al.\ 2007, sec.\ 5); default false
    bool selfContact;           ///< proximity pairs (collision.h) as pressure constraints;
                                ///< default false
    icReal proximity;           ///< their distance, m, > 0; default 0.005
    icReal cgTolerance;         ///< relative tolerance of the force solves, > 0; 1e-4
    int maxCGIterations;        ///< cap of the force solves, >= 1; default 500
    int positionNewtonIterations; ///< eq.\ 1 re-linearised at the corrected end positions
                                ///< (eq.\ 1 is one Newton step, Irving et al.\ 2007,
                                ///< sec.\ 2), >= 1; default 5
    icReal positionTolerance;   ///< those iterations stop once every ring is within this
                                ///< relative error of its (clamped) target, > 0; 1e-3
    icReal ringErrorFloor;      ///< ... relative to the larger of the ring's rest volume and
                                ///< this fraction of its body's mean rest ring volume, >= 0
                                ///< (0: its own volume alone); default 0.5. A two-tet surface
                                ///< ring holds a twelfth of an interior ring's volume
    int localNewtonLayers;      ///< the later of those solves run on the rings more than half
                                ///< positionTolerance off their target grown by this many
                                ///< rings of neighbours (pressure zero outside; the whole mesh
                                ///< when that is over half of it), >= 0, 0 = whole mesh; 3
    icReal maxStepMotion;       ///< adaptive substeps: no vertex moves more than this fraction
                                ///< of the mean rest edge per substep (a CFL number), >= 0;
                                ///< 0 = one substep per step; default 0.25. Without self
                                ///< contact, motion relative to the body's mean velocity
                                ///< (and the full motion near obstacles; gravity's g dt only
                                ///< there and on bodies with pinned vertices); counted again
                                ///< after each substep
    int maxSubsteps;            ///< cap of those substeps per step, >= 1; default 64
    bool staticFriction;        ///< contacts with planes that friction stopped stick (both
                                ///< tangents join their normal in the pressure solves) until
                                ///< their tangential load exceeds friction x normal impulse;
                                ///< default false: kinetic friction only, under which a body
                                ///< on a slope within its friction angle creeps (~18 % of the
                                ///< frictionless slide at 20 deg, mu 0.6). Colliders stay kinetic.
    bool warmStart;             ///< the first eq.\ 1 solve and the eq.\ 2 solve of a substep
                                ///< start from the last substep's pressures (same tolerance);
                                ///< default true
    icVelocityProjection velocityProjection; ///< where eq.\ 2 runs; default
                                             ///< IC_VELOCITY_PROJECTION_AUTO
} icIncompressibleDef;

/// Defaults as listed in icIncompressibleDef.
icIncompressibleDef icDefaultIncompressibleDef(void);

/// What the last step did.
typedef struct icIncompressibleStats {
    int positionIterations;       ///< Krylov iterations of eq.\ 1 (all its Newton iterations, and
                                  ///< the product that weighs a warm start)
    int positionNewtonIterations; ///< Newton iterations of eq. 1 taken
    int localNewtonSolves;        ///< of them, those solved on a sub-mesh (localNewtonLayers)
    int substeps;            ///< substeps the step was split into (sums and maxima above
                             ///< are over all of them)
    int velocityIterations;  ///< Krylov iterations of eq. 2
    int forceIterations;     ///< CG iterations of the force solves
    int objectContacts;      ///< object contact constraints in eq. 2
    int selfPairs;           ///< proximity constraints
    //!@{
    icReal elasticMs, pressureMs, contactMs, totalMs; ///< stage wall times, ms
    //!@}
    icReal maxRingError;     ///< max |V_k / V_k^0 - 1| at the end of the step
} icIncompressibleStats;

/// The solver's cache; the world keeps one pointer and frees it with this.
typedef struct icIncompressibleCache icIncompressibleCache;
/// Frees the cache. NULL is fine.
void icIncompressibleCache_Destroy(icIncompressibleCache *cache);

/// Settings (NULL restores the defaults). IC_ERR_BAD_VALUE for a bad def.
icResult icWorld_SetIncompressibleDef(icWorld *world, const icIncompressibleDef *def);
/// The world's incompressible settings (the defaults until set).
icIncompressibleDef icWorld_GetIncompressibleDef(const icWorld *world);
/// Adds a moving kinematic plane (this solver only; static icWorld_AddPlane planes are
/// handled too). IC_ERR_BAD_VALUE for a zero normal or a bad window, IC_ERR_UNSUPPORTED in a
/// world another solver steps (icSolver_Supports, IC_FEATURE_MOVING_PLANES).
icResult icWorld_AddMovingPlane(icWorld *world, const icMovingPlaneDef *def);
/// What the world's last incompressible step did (zeros before the first).
icIncompressibleStats icWorld_GetIncompressibleStats(const icWorld *world);
/// Per-vertex pressure of the last velocity projection, Pa (vertexCount); zeros before the
/// first step. Returns false when the world has no incompressible solver state.
bool icWorld_GetVertexPressure(const icWorld *world, icReal *pressure);

/// One step of the world with the incompressible solver (called by icWorld_Step).
icResult icIncompressible_Step(icWorld *world, icIncompressibleCache **cache, icReal dt,
                               icStepStats *stats);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
