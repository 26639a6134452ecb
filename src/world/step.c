// SPDX-License-Identifier: MIT
// The world's step: the solver that steps the world (src/world/solvers.c) between the health
// checks, with the time of each stage kept in the world's profile.
#include "world/solver.h"

#include <math.h>

// The stages around a solver's call: health checks before (keeping the start state) and
// after, and the profile.
static icResult runStage(icWorld *world, icResult (*stage)(icWorld *, const void *, icStepStats *),
                         const void *args, icStepStats *stats) {
    double t0 = icNowMs();
    world->profile = (icProfile){0};
    icHealth_BeforeStep(world);
    double t1 = icNowMs();
    icResult r = stage(world, args, stats);
    double t2 = icNowMs();
    r = icHealth_AfterStep(world, r, stats);
    double t3 = icNowMs();
    world->profile.solve = t2 - t1;
    world->profile.health = (t1 - t0) + (t3 - t2);
    world->profile.step = t3 - t0;
    return r;
}

static icResult stepStage(icWorld *world, const void *args, icStepStats *stats) {
    return icWorld_Solver(world)->step(world, *(const icReal *)args, stats);
}

static icResult staticStage(icWorld *world, const void *args, icStepStats *stats) {
    return icWorld_Solver(world)->solveStatic(world, args, stats);
}

icResult icWorld_Step(icWorld *world, icReal dt, icStepStats *stats) {
    IC_ASSERT(world);
    if (!(dt > 0) || !isfinite(dt)) return IC_ERR_INVALID_ARGUMENT;
    return runStage(world, stepStage, &dt, stats);
}

icResult icWorld_SolveStatic(icWorld *world, const icStaticDef *def, icStepStats *stats) {
    IC_ASSERT(world);
    icStaticDef d = def ? *def : icDefaultStaticDef();
    if (!icWorld_Solver(world)->solveStatic) return IC_ERR_UNSUPPORTED;
    if (!(d.pseudoStep > 0) || d.iterationsPerStep < 1 || d.maxSweeps < 1 || !(d.tolerance >= 0))
        return IC_ERR_INVALID_ARGUMENT;
    return runStage(world, staticStage, &d, stats);
}

icProfile icWorld_GetProfile(const icWorld *world) {
    IC_ASSERT(world);
    return world->profile;
}
