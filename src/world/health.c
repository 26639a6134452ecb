// SPDX-License-Identifier: MIT
// Numerical health while stepping: after every step one pass over the vertices (finite
// positions and velocities, speed) and one over the tets (inversions, volume), counted per
// world and handled by the world's policy (report, clamp, stop). The state kept for a stop
// also lets an interrupted step go back to its start.
#include "world/solver.h"

#include <math.h>
#include <stdio.h>

icHealthDef icDefaultHealthDef(void) {
    icHealthDef def;
    def.policy = IC_HEALTH_REPORT;
    def.maxSpeed = 1000.0;
    def.maxInvertedTets = 0;
    def.maxVolumeDrift = 0.5;
    return def;
}

bool icHealthDef_IsValid(const icHealthDef *def) {
    return (def->policy == IC_HEALTH_OFF || def->policy == IC_HEALTH_REPORT ||
            def->policy == IC_HEALTH_CLAMP || def->policy == IC_HEALTH_STOP) &&
           def->maxSpeed > 0 && !isnan(def->maxSpeed) && def->maxInvertedTets >= 0 &&
           def->maxVolumeDrift > 0 && !isnan(def->maxVolumeDrift);
}

icHealthStats icWorld_GetHealth(const icWorld *world) {
    IC_ASSERT(world);
    return world->health;
}

icResult icWorld_SetHealthDef(icWorld *world, const icHealthDef *def) {
    IC_ASSERT(world);
    icHealthDef d = def ? *def : icDefaultHealthDef();
    if (!icHealthDef_IsValid(&d)) return IC_ERR_BAD_VALUE;
    world->model.def.health = d;
    return IC_OK;
}

void icHealth_Destroy(icWorld *world) {
    icDestroyState(world->lastGood);
    world->lastGood = NULL;
    icFree(world->lastGoodMemory);
    world->lastGoodMemory = NULL;
    world->lastGoodMemoryVertices = world->lastGoodMemoryCapacity = 0;
}

// A solver that carries memory from step to step (the incompressible one: contact normals and
// pressures) has it restored with the state, or the next step would start from the failed
// step's.
static void keepSolverMemory(icWorld *world) {
    world->lastGoodMemoryVertices = 0;
    int n = world->model.vertexCount;
    const icSolverOps *solver = icWorld_Solver(world);
    if (solver->memoryPerVertex == 0 || n == 0) return;
    // Without memory for the copy a stop restores the state only.
    if (!icGrowArray((void **)&world->lastGoodMemory, &world->lastGoodMemoryCapacity,
                     solver->memoryPerVertex * n, sizeof(icReal)))
        return;
    solver->getMemory(world, world->lastGoodMemory);
    world->lastGoodMemoryVertices = n;
}

void icWorld_SetInterrupt(icWorld *world, const volatile sig_atomic_t *flag) {
    IC_ASSERT(world);
    world->interrupt = flag;
    world->cancellable = false;
}

void icHealth_BeforeStep(icWorld *world) {
    world->cancellable = false;
    if (world->model.def.health.policy != IC_HEALTH_STOP && !world->interrupt) return;
    const icState *s = world->state;
    icState *keep = world->lastGood;
    if (keep && (keep->vertexCount != s->vertexCount || keep->tetCount != s->tetCount)) {
        icDestroyState(keep);
        keep = world->lastGood = NULL;
    }
    // Without memory for the copy the step still runs; a stop then keeps the bad state and
    // says so.
    if (!keep) keep = world->lastGood = icState_CreateForModel(&world->model);
    if (keep) icState_CopyInto(keep, s);
    keepSolverMemory(world);
    // A step may stop early only where it can go back: without the copy it runs to its end.
    world->cancellable = keep != NULL && world->interrupt != NULL;
}

// The state (and the solver's memory) kept by icHealth_BeforeStep.
static void restoreLastGood(icWorld *world) {
    icState *s = world->state;
    if (!world->lastGood || world->lastGood->vertexCount != s->vertexCount ||
        world->lastGood->tetCount != s->tetCount)
        return;
    icState_CopyInto(s, world->lastGood);
    int n = world->lastGoodMemoryVertices;
    // Out of memory here leaves the solver's newer contacts (as before this copy).
    if (n > 0 && n == world->model.vertexCount)
        (void)icWorld_Solver(world)->setMemory(world, world->lastGoodMemory);
}

static void warn(icWorld *world, int64_t *counter, const char *what) {
    icHealthStats *h = &world->health;
    ++*counter;
    ++h->warnings;
    snprintf(h->lastWarning, sizeof h->lastWarning, "t = %.6g s: %s", (double)world->state->time,
             what);
}

icResult icHealth_AfterStep(icWorld *world, icResult result, icStepStats *stats) {
    const icHealthDef *def = &world->model.def.health;
    // Stopped by the caller's flag part-way: back to the step's start, which was checked.
    bool cancellable = world->cancellable;
    world->cancellable = false;
    if (result == IC_ERR_INTERRUPTED && cancellable) {
        restoreLastGood(world);
        return result;
    }
    if (def->policy == IC_HEALTH_OFF) return result;
    // Arguments the step refused leave the state alone: nothing to check.
    if (result == IC_ERR_INVALID_ARGUMENT || result == IC_ERR_UNSUPPORTED ||
        result == IC_ERR_EMPTY || result == IC_ERR_OUT_OF_MEMORY)
        return result;
    const icModel *m = &world->model;
    icState *s = world->state;
    icHealthStats *h = &world->health;
    ++h->steps;
    int64_t warningsBefore = h->warnings;

    // Vertices: finite, fastest speed (and the clamp).
    bool finite = true;
    icReal maxSpeed2 = 0;
    char what[120];
    for (int v = 0; v < m->vertexCount && finite; ++v) {
        icVec3 x = icVec3_Load(s->x, v), vel = icVec3_Load(s->v, v);
        finite = icVec3_IsFinite(x) && icVec3_IsFinite(vel);
        icReal speed2 = icVec3_LengthSquared(vel);
        if (speed2 > maxSpeed2) maxSpeed2 = speed2;
    }
    // A Newton solve that stopped at its iteration cap far from its tolerance left an iterate
    // that solves nothing (it may still look tidy: few inversions, little volume change).
    // Far is a thousand times the tolerance and not a hundredth of the start: Newton that
    // converges slowly (linearly, as in the shipped stretch scene at nu = 0.4995, whose worst
    // step ends at 1/435 of its start, 4e7 times its strict absolute tolerance) is counted as
    // not converged, not failed. Tolerances of 0, which ask for every iteration, have no
    // distance to measure. Checked before the census, so that a volume ratio beyond meaning
    // is the last word.
    const icNewtonStats *ns = &world->newtonStats;
    bool solverFar = finite && result == IC_ERR_NOT_CONVERGED &&
                     m->def.solver == IC_SOLVER_NEWTON && ns->targetResidual > 0 &&
                     ns->residual > IC_HEALTH_NEWTON_FAR_FROM_TOLERANCE * ns->targetResidual &&
                     ns->residual * IC_HEALTH_NEWTON_MIN_REDUCTION > ns->initialResidual;
    if (solverFar) {
        snprintf(what, sizeof what, "Newton stopped at its cap of %d iterations, residual %.3g N: "
                 "%.3g x tolerance, %.3g x start", ns->iterations, (double)ns->residual,
                 (double)(ns->residual / ns->targetResidual),
                 (double)(ns->residual / ns->initialResidual));
        warn(world, &h->solverWarnings, what);
    }

    if (!finite || result == IC_ERR_NUMERICAL) {
        warn(world, &h->nonFiniteSteps, "NaN or infinite positions or velocities");
        if (stats) stats->nan = true;
        result = IC_ERR_NUMERICAL;
    } else {
        icReal speed = sqrt(maxSpeed2);
        if (speed > h->maxSpeedSeen) h->maxSpeedSeen = speed;
        if (speed > def->maxSpeed) {
            snprintf(what, sizeof what, "a vertex moves at %.3g m/s > max_speed %.3g",
                     (double)speed, (double)def->maxSpeed);
            warn(world, &h->speedWarnings, what);
            if (def->policy == IC_HEALTH_CLAMP) {
                for (int v = 0; v < m->vertexCount; ++v) {
                    icVec3 vel = icVec3_Load(s->v, v);
                    icReal length = icVec3_Length(vel);
                    if (length <= def->maxSpeed) continue;
                    icVec3_Store(s->v, v, icVec3_Scale(def->maxSpeed / length, vel));
                    ++h->clampedVertices;
                }
            }
        }

        // Tets: inverted count, worst |J - 1| and total volume.
        icTetCensus census = icModel_TetCensus(m, s->x);
        int inverted = census.inverted;
        icReal volume = census.volume;
        // The XPBD step leaves its count to this census (the same one); the other solvers
        // count on their own.
        if (stats && m->def.solver == IC_SOLVER_XPBD) stats->invertedTets = inverted;
        if (inverted > h->maxInvertedSeen) h->maxInvertedSeen = inverted;
        if (census.worstJMinus1 > h->maxTetJMinus1Seen) h->maxTetJMinus1Seen = census.worstJMinus1;
        if (inverted > def->maxInvertedTets) {
            snprintf(what, sizeof what, "%d inverted tets > max_inverted_tets %d", inverted,
                     def->maxInvertedTets);
            warn(world, &h->inversionWarnings, what);
        }
        icReal drift = m->totalRestVolume > 0 ? fabs(volume / m->totalRestVolume - 1) : 0;
        if (drift > h->maxVolumeDriftSeen) h->maxVolumeDriftSeen = drift;
        if (drift > def->maxVolumeDrift) {
            snprintf(what, sizeof what, "|V/V0 - 1| = %.3g > max_volume_drift %.3g", (double)drift,
                     (double)def->maxVolumeDrift);
            warn(world, &h->volumeWarnings, what);
        }
        // No soft body gains two orders of magnitude of volume or turns that far inside out
        // (tenfold is reachable: pins dragging a slab of a compressible body away): beyond it
        // the solve diverged and every later figure is noise, so the step fails under every
        // policy that checks (the run ends with the frame and the figure).
        icReal ratio = m->totalRestVolume > 0 ? volume / m->totalRestVolume : 1;
        if (fabs(ratio) > IC_HEALTH_MEANINGLESS_VOLUME_RATIO) {
            snprintf(what, sizeof what, "V/V0 = %.3g, beyond %g times the rest volume: the solve "
                     "diverged", (double)ratio, IC_HEALTH_MEANINGLESS_VOLUME_RATIO);
            warn(world, &h->volumeWarnings, what);
            result = IC_ERR_NUMERICAL;
        }
    }

    if (solverFar) result = IC_ERR_NUMERICAL;

    if (def->policy == IC_HEALTH_STOP && h->warnings > warningsBefore) {
        ++h->stops;
        restoreLastGood(world);
        return IC_ERR_NUMERICAL;
    }
    return result;
}
