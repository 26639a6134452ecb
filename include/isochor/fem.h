// SPDX-License-Identifier: MIT
/// \file
/// Force-based hyperelastic FEM on linear tetrahedra: materials (energy density, first
/// Piola stress, its differential, 9x9 Hessians and their PSD projections), per-tet
/// kinematics and stiffness, mesh-level forces, stiffness products and assembly.
/// Conventions follow Sifakis & Barbič 2012 (sec.\ 4.2): vertex 4 is the base vertex,
/// Q = Dm^-1, vec() is column-major (icMat3 memory order), so a 9x9 Hessian H has
/// H[r + 9 c] = d vec(P)_r / d vec(F)_c.
#pragma once

#include "isochor/sparse.h"
#include "isochor/svd.h"
#include "isochor/world.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/// Constitutive parameters of one material, as used inside the energy.
typedef struct icMaterial {
    icMaterialModel model; ///< which energy
    icReal mu;      ///< shear-like Lamé parameter inside the energy, Pa (> 0)
    icReal lambda;  ///< first Lamé parameter inside the energy, Pa (finite)
    icReal alpha;   ///< rest shift of the volume term (SNH: 1 + mu/lambda, SNH2018:
                    ///< 1 + 3mu/(4lambda), MM: gamma = 1 + mu/lambda); unused otherwise
    icReal density; ///< kg/m^3, > 0; used for lumped masses (default 1000)
    /// Neo-Hookean only (the clamp of Sifakis & Barbič 2012, sec.\ 3.6): singular values of F
    /// (dimensionless) below clamp are raised to it before Psi, P and dP are evaluated
    /// (Vega/ITF style). 0 (default) keeps the exact model: Psi = +inf for J <= 0 (a barrier
    /// for the line search), while P, dP and the Hessians of an inverted F are evaluated at
    /// the clamp of fallbackClamp.
    icReal clamp;
    icReal fallbackClamp; ///< NH: clamp used for J <= 0 when clamp is 0; default 0.1
    /// Corotated only: drop the dR term (cheap PSD tangent, NOT the derivative of P; Newton loses
    /// quadratic convergence). Default false (exact dR).
    bool approximateTangent;
} icMaterial;

/// Material from Young's modulus E (Pa, > 0) and Poisson ratio nu (in (-1, 0.5)) with the Lamé
/// mapping of docs/materials.md (SNH2018: 4/3, 5/6 reparameterisation; SNH: lambda + mu; MM and the
/// classical models: raw Lamé). nu >= 0.5 makes lambda infinite, which a force-based solver cannot
/// use: IC_ERR_BAD_VALUE, as for E <= 0, nu <= -1, NaN or an unknown model.
icResult icMaterial_FromYoungs(icMaterialModel model, icReal youngsModulus, icReal poissonRatio,
                               icMaterial *material);
/// Material with the given Lamé values inside the energy (no reparameterisation); alpha is
/// set to the model's rest-stable shift. Defaults for the other fields.
icMaterial icMaterial_FromLame(icMaterialModel model, icReal mu, icReal lambda);
/// Lowercase name ("mm", "linear", "stvk", "corotated", "neohookean", "snh", "snh2018").
const char *icMaterialModel_Name(icMaterialModel model);

/// Energy density Psi(F), J/m^3 (+inf for Neo-Hookean with J <= 0 and clamp 0). Every model
/// has Psi(I) = 0 (SNH, SNH2018 and MM drop the constant their published forms carry).
icReal icMaterial_Energy(const icMaterial *material, icMat3 F);
/// First Piola-Kirchhoff stress P = dPsi/dF, Pa.
icMat3 icMaterial_Stress(const icMaterial *material, icMat3 F);
/// Stress differential dP(F; dF) (directional derivative of P).
icMat3 icMaterial_StressDifferential(const icMaterial *material, icMat3 F, icMat3 dF);
/// Exact 9x9 Hessian d^2 Psi / d vec(F)^2 (symmetric; column c = vec(dP(F; E_c))).
void icMaterial_Hessian(const icMaterial *material, icMat3 F, icReal hessian[81]);
/// Hessian projected onto the PSD cone: analytic eigensystems (Kim & Eberle 2020) for every
/// model but linear, whose constant Hessian goes through the generic clamp.
void icMaterial_ProjectedHessian(const icMaterial *material, icMat3 F, icReal hessian[81]);
/// Generic fallback: Hessian from nine differentials, 9x9 Jacobi eigen-solve,
/// negative eigenvalues clamped to 0. Any model.
void icMaterial_ProjectedHessianGeneric(const icMaterial *material, icMat3 F,
                                        icReal hessian[81]);
/// Analytic eigensystem of the Hessian (twists, flips, scalings; Kim & Eberle 2020): values[9] in
/// the order twist 1..3, flip 1..3, scaling 1..3, and vectors (9 x 9, column m = vec of the unit
/// eigenmatrix m). Returns false for linear (no closed form here).
bool icMaterial_Eigensystem(const icMaterial *material, icMat3 F, icReal values[9],
                            icReal vectors[81]);
/// Everything the Newton solver needs per tet from one SVD: returns Psi, and fills P and
/// (when hessian is non-NULL) the projected (project = true) or exact Hessian.
icReal icMaterial_Evaluate(const icMaterial *material, icMat3 F, icMat3 *P, icReal hessian[81],
                           bool project);

/// Rest-shape data of one tet: Q = Dm^-1 and rest volume W = det(Dm)/6 > 0.
typedef struct icTetRest {
    icMat3 Q; ///< inverse of the rest edge matrix Dm = [X1-X4, X2-X4, X3-X4], 1/m
    icReal W; ///< rest volume, m^3, > 0
} icTetRest;

/// Q and W from rest positions. IC_ERR_DEGENERATE_ELEMENT when |det Dm| < 1e-12 (longest
/// edge)^3; IC_ERR_INVERTED_ELEMENT when det Dm < 0 (swap local vertices 2 and 3 first).
icResult icTet_Rest(const icVec3 X[4], icTetRest *rest);
/// Deformation gradient F = Ds Q (dimensionless) of positions x (m).
icMat3 icTet_DeformationGradient(const icVec3 x[4], icMat3 Q);
/// Shape-function gradients g_a (a = 0..3, 1/m): rows of Q, g_4 = -(g_1 + g_2 + g_3).
void icTet_ShapeGradients(icMat3 Q, icVec3 g[4]);
/// Nodal elastic forces f_a = -W P g_a (notes' H = -W P Q^T), N, for a given P (Pa).
void icTet_ForcesFromStress(icMat3 P, const icTetRest *rest, icVec3 f[4]);
/// Elastic forces of a tet at positions x (m), N (Sifakis & Barbič 2012, algorithm 1).
void icTet_Forces(const icMaterial *material, const icTetRest *rest, const icVec3 x[4],
                  icVec3 f[4]);
/// Force differentials df (N) for displacement dx (m) (Sifakis & Barbič 2012, algorithm 2):
/// df = -K dx.
void icTet_ForceDifferential(const icMaterial *material, const icTetRest *rest,
                             const icVec3 x[4], const icVec3 dx[4], icVec3 df[4]);
/// Element stiffness K_e = W B^T Hf B (12 x 12, column-major, DOF 3a + i, N/m), vec(F) = B x_e.
void icTet_Stiffness(const icReal hessian[81], const icTetRest *rest, icReal stiffness[144]);
/// The same as 16 column-major 3x3 blocks: blocks[4a + b] couples vertex a (rows) to b.
void icTet_StiffnessBlocks(const icReal hessian[81], const icTetRest *rest, icReal blocks[16][9]);

/// The FEM model of a set of tets: everything Newton reads and never writes.
typedef struct icFemModel {
    //!@{
    int vertexCount, tetCount; ///< vertices and tets of the model
    //!@}
    int *tets;           ///< (tetCount x 4), positively oriented at rest
    icTetRest *rest;     ///< (tetCount)
    int materialCount;     ///< materials, >= 1
    icMaterial *materials; ///< (materialCount)
    int *tetMaterial;      ///< (tetCount) index into materials
    icReal *mass;          ///< (vertexCount) lumped: rho W / 4 from each tet, kg
    /// Internal (src/fem/tangent.c): the workers and the assembled stiffness of the
    /// threaded kernels; NULL until attached (icFemModel_SetPool). Freed with the model.
    struct icFemThreads *threads;
} icFemModel;

/// Builds the model from rest positions (vertexCount x 3) and tets (tetCount x 4). Tets with
/// det Dm < 0 have local vertices 2 and 3 swapped. tetMaterial may be NULL (all use
/// materials[0]). Errors: IC_ERR_EMPTY, IC_ERR_INDEX_OUT_OF_RANGE, IC_ERR_REPEATED_INDEX,
/// IC_ERR_DEGENERATE_ELEMENT (diag names the tet), IC_ERR_BAD_VALUE (a vertex with no tet,
/// i.e. zero mass, or a bad material), IC_ERR_OUT_OF_MEMORY.
icResult icFemModel_Create(icFemModel *model, int vertexCount, const icReal *restPositions,
                           int tetCount, const int *tets, int materialCount,
                           const icMaterial *materials, const int *tetMaterial,
                           icDiagnostic *diag);
/// Same from a mesh with a single material.
icResult icFemModel_CreateFromMesh(icFemModel *model, const icTetMesh *mesh,
                                   const icMaterial *material, icDiagnostic *diag);
/// Frees the model's arrays and zeroes it. Safe on a zeroed struct.
void icFemModel_Destroy(icFemModel *model);

/// Total elastic energy sum_e W Psi(F_e), J, at positions x (vertexCount x 3, m), compensated
/// sum.
icReal icFem_Energy(const icFemModel *model, const icReal *x);
/// Adds the elastic forces at x to f (vertexCount x 3), N.
void icFem_AddForces(const icFemModel *model, const icReal *x, icReal *f);
/// Per-tet 9x9 Hessians at x into hessians (tetCount x 81), projected or exact.
void icFem_ComputeHessians(const icFemModel *model, const icReal *x, bool project,
                           icReal *hessians);
/// Matrix-free product out = K w (the force-differential pass of Sifakis & Barbič 2012,
/// Algorithm 2, with dx = -w) from cached per-tet Hessians.
void icFem_StiffnessProduct(const icFemModel *model, const icReal *hessians, const icReal *w,
                            icReal *out);
/// 3x3 diagonal blocks of K (vertexCount x 9) from cached Hessians.
void icFem_StiffnessDiagonal(const icFemModel *model, const icReal *hessians,
                             icReal *diagBlocks);

/// Sparsity of K with, per tet, the 16 destination blocks of its 4x4 node pairs, so that
/// assembly is a scatter-add with no searches.
typedef struct icFemPattern {
    icBsr3 matrix;   ///< pattern and values of the assembled matrix
    int *tetBlocks;  ///< (tetCount x 16) block index of node pair (a, b) at [16 t + 4 a + b]
} icFemPattern;

/// Builds the sparsity pattern of the model's stiffness (values zero). IC_ERR_OUT_OF_MEMORY.
icResult icFemPattern_Create(icFemPattern *pattern, const icFemModel *model);
/// Frees the pattern and zeroes it. Safe on a zeroed struct.
void icFemPattern_Destroy(icFemPattern *pattern);
/// pattern->matrix = stiffnessScale K + massScale M from cached per-tet Hessians.
void icFem_Assemble(const icFemModel *model, const icReal *hessians, icReal stiffnessScale,
                    icReal massScale, icFemPattern *pattern);
/// One fused pass over the tets at x: returns the elastic energy, adds elastic forces to f
/// (may be NULL), and assembles stiffnessScale K+ + massScale M into pattern (may be NULL).
/// K+ uses projected Hessians when project is true. hessians (tetCount x 81, may be NULL)
/// receives the per-tet Hessians for later matrix-free use.
icReal icFem_EvaluateAssemble(const icFemModel *model, const icReal *x, bool project,
                              icReal *f, icReal stiffnessScale, icReal massScale,
                              icFemPattern *pattern, icReal *hessians);

/// Settings of the Newton solvers (backward Euler and quasistatic,
/// Sifakis & Barbič 2012, sec.\ 4.4).
typedef struct icNewtonDef {
    int maxIterations;          ///< Newton iterations per step / solve, >= 1; default 50
    icReal residualTolerance;   ///< stop when |r|_inf <= this * |r_0|_inf; default 1e-6
    icReal absoluteTolerance;   ///< ... or when |r|_inf <= this * force scale; default 1e-10
    icReal stepTolerance;       ///< ... or when |alpha Dx|_inf <= this * rest diagonal; 1e-7
    icReal cgTolerance;         ///< relative PCG tolerance (preconditioned norm); default 1e-4
    int maxCGIterations;        ///< PCG iteration cap per solve; default 1000
    icPreconditionerKind preconditioner; ///< default IC_PRECONDITIONER_BLOCK_JACOBI
    bool projectHessian;        ///< projected Newton (PSD-projected element Hessians); default true
    bool matrixFree;            ///< cached per-tet Hessians instead of an assembled matrix;
                                ///< default false
    bool lineSearch;            ///< backtracking on the incremental potential; default true
    icReal stiffnessDamping;    ///< Rayleigh gamma in seconds (f_d = -gamma K v), >= 0; 0
    icReal massDamping;         ///< Rayleigh alpha_M in 1/s (f_d = -alpha_M M v), >= 0; 0
    /// World solves: penalty stiffness of plane and collider contact per vertex, in units of
    /// E h (E the body's Young's modulus, h = cbrt(6 x its mean rest tet volume)), > 0;
    /// default 100 (penetration about h / 100 per unit contact strain, docs/scenes.md)
    icReal contactStiffness;
    /// World steps: eps_v of the smoothed Coulomb friction (IPC, Li et al.\ 2020), m/s, > 0:
    /// slower slips are resisted as by a stiff spring (static friction); default 1e-3
    icReal frictionVelocity;
} icNewtonDef;

/// Defaults as listed in icNewtonDef.
icNewtonDef icDefaultNewtonDef(void);

/// What a Newton step or static solve did.
typedef struct icNewtonStats {
    int iterations;          ///< Newton iterations (linear solves) taken
    int cgIterations;        ///< PCG iterations, summed over the Newton iterations
    int maxCGIterations;     ///< largest PCG count of one Newton iteration
    int lineSearchFailures;  ///< iterations whose step hit the smallest alpha
    int indefiniteSolves;    ///< PCG solves that met non-positive curvature
    icReal initialResidual;  ///< |r_0|_inf over free DOFs, N
    icReal residual;         ///< final |r|_inf over free DOFs, N
    icReal targetResidual;   ///< the |r|_inf the tolerances asked for: max(absoluteTolerance
                             ///< x force scale, residualTolerance x initialResidual), N
    icReal energy;           ///< elastic energy at the end, J
    bool converged;          ///< a tolerance of icNewtonDef was reached
    icReal assemblyMilliseconds; ///< evaluation + assembly time, summed, ms
    icReal solveMilliseconds;    ///< PCG time, summed, ms
} icNewtonStats;

/// An extra potential over single vertices (contact): returns its energy at x (J); with f
/// non-NULL adds the forces -dE/dx (vertexCount x 3); with blocks non-NULL adds each vertex's
/// 3x3 Hessian block (vertexCount x 9, column-major, symmetric PSD).
typedef icReal (*icVertexPotentialFn)(void *context, const icReal *x, icReal *f,
                                      icReal *blocks);

/// Boundary conditions and loads of one step or solve. Arrays are (vertexCount x 3).
typedef struct icNewtonInput {
    const unsigned char *freeMask; ///< 1 = free DOF, 0 = prescribed; NULL = all free
    const icReal *targets;         ///< positions (m) of prescribed DOFs at the end of the step
                                   ///< (only masked entries are read); NULL: they follow
                                   ///< x^n + dt v^n in a step and stay put in a static solve
    const icReal *externalForce;   ///< added nodal forces, N; may be NULL
    icVec3 gravity;                ///< m/s^2, applied as m_i g
} icNewtonInput;

/// Newton solver for one FEM model (borrowed: it must outlive the solver). Allocates all
/// workspace up front, so steps do not allocate.
typedef struct icNewtonSolver icNewtonSolver;

/// NULL on a bad def or out of memory.
icNewtonSolver *icCreateNewtonSolver(const icFemModel *model, const icNewtonDef *def);
/// Frees a solver from icCreateNewtonSolver (not its model). NULL is fine.
void icDestroyNewtonSolver(icNewtonSolver *solver);
/// Replaces the solver's settings; an invalid def is ignored (the settings stay).
void icNewtonSolver_SetDef(icNewtonSolver *solver, const icNewtonDef *def);
/// Adds a per-vertex potential (contact) to what later steps and solves minimise: its energy
/// joins the line search's objective, its forces the residual, its blocks the Hessian.
/// potential NULL removes it.
void icNewtonSolver_SetPotential(icNewtonSolver *solver, icVertexPotentialFn potential,
                                 void *context);
/// A flag (set by a signal handler) that later steps and solves look at before every Newton
/// iteration after the first and before every PCG product: once it is non-zero they stop with
/// IC_ERR_INTERRUPTED and x, v as they were given. Only read; NULL (default) removes it.
void icNewtonSolver_SetInterrupt(icNewtonSolver *solver, const volatile sig_atomic_t *flag);

/// One backward Euler step (Sifakis & Barbič 2012, sec.\ 4.4): x, v (vertexCount x 3) go
/// from t^n to t^n + dt. Inertial initial guess x = x^n + dt v^n (the notes' start x^n,
/// sec.\ 4.4, would freeze free bodies), prescribed DOFs moved to their targets, projected
/// Newton with filtered PCG and a backtracking line search on the incremental potential.
/// IC_ERR_NOT_CONVERGED (state still advanced to the last iterate), IC_ERR_NUMERICAL on NaN
/// (state left unchanged), IC_ERR_INVALID_ARGUMENT for dt <= 0.
icResult icNewtonSolver_Step(icNewtonSolver *solver, const icNewtonInput *input, icReal dt,
                             icReal *x, icReal *v, icNewtonStats *stats);
/// Quasistatic solve (Sifakis & Barbič 2012, sec.\ 4.4, dt -> infinity): Newton on E(x) - f_ext^T x
/// from x with prescribed DOFs at their targets. The constraints must remove the rigid modes.
icResult icNewtonSolver_SolveStatic(icNewtonSolver *solver, const icNewtonInput *input,
                                    icReal *x, icNewtonStats *stats);

/// Settings of the world's Newton solver (used when its def.solver is IC_SOLVER_NEWTON);
/// NULL restores the defaults.
void icWorld_SetNewtonDef(icWorld *world, const icNewtonDef *def);
/// The world's Newton settings (the defaults until icWorld_SetNewtonDef).
icNewtonDef icWorld_GetNewtonDef(const icWorld *world);
/// Newton and CG iteration counts of the world's last Newton step or static solve.
icNewtonStats icWorld_GetNewtonStats(const icWorld *world);

/// Newton solver state attached to a world (FEM model built from the world's bodies, DOF
/// mask and targets from its pins). The world should keep one pointer (initially NULL) and
/// release it with icNewtonCache_Destroy; it is rebuilt when bodies are added.
typedef struct icNewtonCache icNewtonCache;
/// Frees a Newton cache. NULL is fine.
void icNewtonCache_Destroy(icNewtonCache *cache);

/// Backward Euler step of the world's current state with the force-based solver. Bodies use
/// their material model with the Lamé mapping of docs/materials.md (MM: the world's raw Lamé and
/// gamma, so it minimises the XPBD energy). Pinned axes follow their pins; the world's
/// linearDamping adds to def->massDamping. Planes and colliders (at the step's end time) push
/// through a penalty potential with lagged smoothed friction (src/newton/contact_potential.c).
/// nu = 0.5 bodies give IC_ERR_BAD_VALUE. def NULL = defaults.
icResult icNewton_Step(icWorld *world, icNewtonCache **cache, const icNewtonDef *def,
                       icReal dt, icStepStats *stats, icNewtonStats *newtonStats);
/// Quasistatic solve of the world's current state (pins and colliders held at the current
/// time; contact without friction).
icResult icNewton_SolveStatic(icWorld *world, icNewtonCache **cache, const icNewtonDef *def,
                              bool gravity, icStepStats *stats, icNewtonStats *newtonStats);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
