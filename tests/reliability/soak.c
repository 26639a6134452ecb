// SPDX-License-Identifier: MIT
// The soak harness (soak.h): random worlds built through the public API and stepped with the
// health checks on, so that every step is checked for NaN and its kinetic energy compared to
// a bound from the world's own speeds.
#include "soak.h"

#include "isochor/isochor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

// xorshift64*: the same worlds on every machine.
typedef struct icSoakRng {
    uint64_t s;
} icSoakRng;

static double uniform(icSoakRng *r, double lo, double hi) {
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t x = r->s * 2685821657736338717ull;
    return lo + (hi - lo) * ((double)(x >> 11) * (1.0 / 9007199254740992.0));
}

static int uniformInt(icSoakRng *r, int lo, int hi) {
    int v = lo + (int)uniform(r, 0, hi - lo + 1);
    return v > hi ? hi : v;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// The speeds a world is driven with; the kinetic energy bound is built from them.
typedef struct icSoakWorld {
    icWorld *world;
    double speedScale;  ///< m/s: initial speeds, pin speeds, free fall over the run
    double dt;
    char description[200];
} icSoakWorld;

// Poisson ratios from soft to incompressible; the mm energy needs nu > 0.
static double poisson(icSoakRng *r) {
    static const double choices[] = {0.05, 0.2, 0.3, 0.45, 0.49, 0.499, 0.4999, 0.5, 0.5};
    return choices[uniformInt(r, 0, (int)(sizeof choices / sizeof choices[0]) - 1)];
}

static bool buildWorld(uint64_t seed, int steps, bool doubleSweeps, icSoakWorld *out) {
    icSoakRng rng = {seed * 0x9E3779B97F4A7C15ull + 1};
    icSoakRng *r = &rng;
    memset(out, 0, sizeof *out);
    icWorldDef def = icDefaultWorldDef();
    def.substeps = uniformInt(r, 1, 10);
    def.iterations = uniformInt(r, 1, 2);
    def.projection = uniform(r, 0, 1) < 0.5 ? IC_PROJECTION_SEQUENTIAL : IC_PROJECTION_COUPLED;
    def.linearDamping = uniform(r, 0, 1) < 0.5 ? 0 : uniform(r, 0, 2);
    def.gravity = (icVec3){0, -9.81, 0};
    def.health.policy = IC_HEALTH_REPORT;
    if (doubleSweeps) def.precision = IC_PRECISION_DOUBLE;
    // Large steps: 1/10 s to 1/60 s per step.
    out->dt = 1.0 / uniform(r, 10, 60);
    out->world = icCreateWorld(&def);
    if (!out->world) return false;

    int bodies = uniformInt(r, 1, 2);
    double fastest = 0;
    for (int b = 0; b < bodies; ++b) {
        // A random box, jittered so that no two tets are alike (a few may start inverted).
        icTetMesh mesh = {0};
        icVec3 size = {uniform(r, 0.1, 1.0), uniform(r, 0.1, 1.0), uniform(r, 0.1, 1.0)};
        int cells[3] = {uniformInt(r, 1, 4), uniformInt(r, 1, 4), uniformInt(r, 1, 4)};
        if (icGenerateBox(&mesh, size, cells, uniform(r, 0, 1) < 0.5 ? 5 : 6) != IC_OK) return false;
        double h = fmin(size.x / cells[0], fmin(size.y / cells[1], size.z / cells[2]));
        double jitter = uniform(r, 0, 0.3) * h;
        for (int i = 0; i < 3 * mesh.vertexCount; ++i) mesh.positions[i] += uniform(r, -jitter, jitter);

        icSoftBodyDef bdef = icDefaultSoftBodyDef();
        bdef.youngsModulus = pow(10, uniform(r, 3, 7));
        bdef.poissonRatio = poisson(r);
        bdef.density = uniform(r, 100, 3000);
        bdef.damping = uniform(r, 0, 1) < 0.5 ? 0 : uniform(r, 0, 0.01);
        bdef.translation = (icVec3){uniform(r, -1, 1), uniform(r, 0, 2), uniform(r, -1, 1)};
        bdef.velocity = (icVec3){uniform(r, -10, 10), uniform(r, -10, 10), uniform(r, -10, 10)};
        fastest = fmax(fastest, sqrt(bdef.velocity.x * bdef.velocity.x +
                                     bdef.velocity.y * bdef.velocity.y +
                                     bdef.velocity.z * bdef.velocity.z));
        icBodyId id;
        icDiagnostic diag = {0};
        icResult result = icWorld_CreateSoftBody(out->world, &mesh, &bdef, &id, &diag);
        icTetMesh_Destroy(&mesh);
        if (result != IC_OK) return false;

        // Violent pins: a slab of the box held and spun or dragged fast.
        if (uniform(r, 0, 1) < 0.6) {
            icPinDef pin = icDefaultPinDef();
            icVec3 lo = bdef.translation, hi = bdef.translation;
            lo.x -= size.x;
            lo.y -= size.y;
            lo.z -= size.z;
            hi.x += size.x;
            hi.y = lo.y + size.y * 0.5 + 0.01 * size.y;
            hi.z += size.z;
            pin.boxMin = lo;
            pin.boxMax = hi;
            pin.axes[0] = pin.axes[1] = pin.axes[2] = true;
            if (uniform(r, 0, 1) < 0.3) pin.axes[uniformInt(r, 0, 2)] = false;
            pin.motionCount = 1;
            icMotion *m = &pin.motions[0];
            *m = icDefaultMotion();
            m->velocity = (icVec3){uniform(r, -5, 5), uniform(r, -5, 5), uniform(r, -5, 5)};
            m->axis = (icVec3){uniform(r, -1, 1), 1, uniform(r, -1, 1)};
            m->centre = bdef.translation;
            m->degreesPerSecond = uniform(r, -720, 720);
            m->start = uniform(r, 0, 0.2);
            m->end = m->start + uniform(r, 0.1, 1.0);
            int caught = 0;
            if (icBody_AddPin(out->world, id, &pin, &caught) != IC_OK) return false;
            double radius = sqrt(size.x * size.x + size.y * size.y + size.z * size.z);
            double pinSpeed = sqrt(m->velocity.x * m->velocity.x + m->velocity.y * m->velocity.y +
                                   m->velocity.z * m->velocity.z) +
                              fabs(m->degreesPerSecond) * IC_PI / 180.0 * 2 * radius;
            fastest = fmax(fastest, pinSpeed);
        }
    }
    // A floor and, sometimes, a tilted wall to hit.
    icPlaneDef floorDef = icDefaultPlaneDef();
    floorDef.offset = -1;
    floorDef.friction = uniform(r, 0, 1);
    if (icWorld_AddPlane(out->world, &floorDef) != IC_OK) return false;
    if (uniform(r, 0, 1) < 0.5) {
        icPlaneDef wall = icDefaultPlaneDef();
        wall.normal = (icVec3){1, uniform(r, 0, 1), 0};
        wall.offset = -2;
        wall.friction = uniform(r, 0, 1);
        if (icWorld_AddPlane(out->world, &wall) != IC_OK) return false;
    }
    out->speedScale = fastest + 9.81 * out->dt * steps + 1.0;
    snprintf(out->description, sizeof out->description,
             "seed %llu: %d bodies, %d vertices, %d tets, dt %.4f s, %d substeps x %d",
             (unsigned long long)seed, bodies, icWorld_GetVertexCount(out->world),
             icWorld_GetTetCount(out->world), out->dt, def.substeps, def.iterations);
    return true;
}

// Kinetic energy per unit mass, averaged over the vertices (v^2 / 2), and the fastest vertex.
// Its bound is every vertex at ten times the world's speed scale: constraint projections of
// inverted tets can kick single vertices well past the scale for a step, but a blow-up grows
// without limit and crosses any such bound within a few steps.
static double kineticEnergy(const icWorld *world, double *maxSpeed) {
    const icReal *v = icWorld_GetVelocities(world);
    int n = icWorld_GetVertexCount(world);
    double sum = 0, fastest = 0;
    for (int i = 0; i < n; ++i) {
        double s2 = v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2];
        sum += s2;
        fastest = fmax(fastest, sqrt(s2));
    }
    *maxSpeed = fastest;
    return 0.5 * sum / (n > 0 ? n : 1); // per unit mass of an average vertex
}

void icSoak_Run(const icSoakConfig *config, icSoakReport *report) {
    memset(report, 0, sizeof *report);
    double start = now();
    for (int i = 0; i < config->scenes; ++i) {
        icSoakWorld w;
        uint64_t seed = config->seed + (uint64_t)i;
        bool built = buildWorld(seed, config->steps, config->doubleSweeps, &w);
        ++report->scenes;
        if (!built) {
            ++report->failures;
            if (!report->firstFailure[0])
                snprintf(report->firstFailure, sizeof report->firstFailure,
                         "seed %llu: the random world could not be built", (unsigned long long)seed);
            icDestroyWorld(w.world);
            continue;
        }
        double bound = 0.5 * (10 * w.speedScale) * (10 * w.speedScale);
        double worst = 0, fastest = 0;
        int failedAt = -1;
        icResult failure = IC_OK;
        for (int s = 0; s < config->steps; ++s) {
            icStepStats stats;
            icResult result = icWorld_Step(w.world, w.dt, &stats);
            ++report->steps;
            double speed;
            double energy = kineticEnergy(w.world, &speed);
            fastest = fmax(fastest, speed);
            if (!(energy <= bound) || result != IC_OK) {
                failedAt = s;
                failure = result;
                worst = fmax(worst, energy / bound);
                break;
            }
            worst = fmax(worst, energy / bound);
        }
        icHealthStats health = icWorld_GetHealth(w.world);
        report->healthWarnings += health.warnings;
        report->worstEnergyRatio = fmax(report->worstEnergyRatio, worst);
        report->maxSpeed = fmax(report->maxSpeed, fastest);
        if (failedAt >= 0) {
            ++report->failures;
            if (!report->firstFailure[0])
                snprintf(report->firstFailure, sizeof report->firstFailure,
                         "%.200s: step %d: %s, kinetic energy %.3g x its bound (%.160s)", w.description,
                         failedAt, icResult_Name(failure), worst, health.lastWarning);
        }
        if (config->verbose)
            printf("%s: %s, max speed %.3g m/s (scale %.3g), energy/bound %.3g, %lld warnings\n",
                   w.description, failedAt >= 0 ? "FAILED" : "ok", fastest, w.speedScale, worst,
                   (long long)health.warnings);
        icDestroyWorld(w.world);
    }
    report->seconds = now() - start;
}
