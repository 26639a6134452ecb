// SPDX-License-Identifier: MIT
// The table of solvers, indexed by icSolverType: the one file of the world that names them.
#include "world/solver.h"

extern const icSolverOps icXpbdSolverOps;           // src/xpbd/solver_ops.c
extern const icSolverOps icNewtonSolverOps;         // src/newton/newton_step.c
extern const icSolverOps icIncompressibleSolverOps; // src/incompressible/solver_ops.c

static const icSolverOps *const s_solvers[] = {
    [IC_SOLVER_XPBD] = &icXpbdSolverOps,
    [IC_SOLVER_NEWTON] = &icNewtonSolverOps,
    [IC_SOLVER_INCOMPRESSIBLE] = &icIncompressibleSolverOps,
};
enum { IC_SOLVER_TABLE_SIZE = (int)(sizeof s_solvers / sizeof s_solvers[0]) };

bool icSolver_Exists(icSolverType type) { return (int)type >= 0 && (int)type < IC_SOLVER_TABLE_SIZE; }

const icSolverOps *icSolver_Ops(icSolverType type) {
    IC_ASSERT(icSolver_Exists(type));
    return s_solvers[type];
}

bool icSolver_Supports(icSolverType solver, icSolverFeature feature) {
    return icSolver_Exists(solver) && (s_solvers[solver]->features & (unsigned)feature) == (unsigned)feature;
}

const char *icSolver_Name(icSolverType solver) { return icSolver_Exists(solver) ? s_solvers[solver]->name : ""; }

// Each solver's table holds its break-even (docs/performance.md, "Automatic worker count");
// an unknown solver counts as XPBD, the default.
int icAutoWorkerMinTets(icSolverType solver) {
    return s_solvers[icSolver_Exists(solver) ? solver : IC_SOLVER_XPBD]->autoMinTets;
}

uint64_t icSolver_HashAllSettings(const icWorld *world, uint64_t h) {
    for (int i = 0; i < IC_SOLVER_TABLE_SIZE; ++i)
        if (s_solvers[i]->hashSettings) h = s_solvers[i]->hashSettings(world, h);
    return h;
}

uint64_t icSolver_HashAllScenes(const icWorld *world, uint64_t h) {
    for (int i = 0; i < IC_SOLVER_TABLE_SIZE; ++i)
        if (s_solvers[i]->hashScene) h = s_solvers[i]->hashScene(world, h);
    return h;
}

void icSolver_DestroyAll(icWorld *world) {
    for (int i = 0; i < IC_SOLVER_TABLE_SIZE; ++i)
        if (s_solvers[i]->destroy) s_solvers[i]->destroy(world);
}
