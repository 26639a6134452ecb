// SPDX-License-Identifier: MIT
// Pre-flight notes: a loaded scene's figures that predict a surprise before any step is
// taken. A body that sags under its own weight, a substep longer than the stiffest element's
// wave time, or a mesh whose size suggests centimetres or millimetres all run "correctly" and
// still give a result the user did not mean; one pass over the tets says so up front.
#include "scene/scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// rho g H / E above this: the base of a free column is strained more than 20 %, it shortens
// by about 10 % of its height (a linear column under its own weight shortens by rho g H^2 /
// 2E). The default material (E = 1e5 Pa, rho = 1000 kg/m^3) reaches it at H = 2 m.
#define IC_PREFLIGHT_SAG_RATIO 0.2
// A soft body (E below a stiff rubber's) larger than this is rarely meant in metres.
#define IC_PREFLIGHT_LARGE_SIZE 5.0
#define IC_PREFLIGHT_SOFT_MODULUS 1e7
// A body smaller than this (largest extent) is rarely meant in metres either.
#define IC_PREFLIGHT_SMALL_SIZE 0.005

static void measureBody(const icWorld *world, icBodyId id, icVec3 gravity,
                        icPreflightBody *body) {
    int v0, nv, t0, nt;
    icBody_GetRanges(world, id, &v0, &nv, &t0, &nt);
    const icReal *x = icWorld_GetRestPositions(world);
    const int *tets = icWorld_GetTets(world);
    icReal g = icVec3_Length(gravity);
    icVec3 down = g > 0 ? icVec3_Scale(1.0 / g, gravity) : icVec3_Make(0, 0, 0);
    icVec3 lo = icVec3_Make(INFINITY, INFINITY, INFINITY);
    icVec3 hi = icVec3_Make(-INFINITY, -INFINITY, -INFINITY);
    icReal dLo = INFINITY, dHi = -INFINITY;
    for (int v = v0; v < v0 + nv; ++v) {
        icVec3 p = icVec3_Load(x, v);
        lo = icVec3_Min(lo, p);
        hi = icVec3_Max(hi, p);
        icReal d = icVec3_Dot(p, down);
        if (d < dLo) dLo = d;
        if (d > dHi) dHi = d;
    }
    body->size = nv > 0 ? icVec3_Sub(hi, lo) : icVec3_Make(0, 0, 0);
    body->height = nv > 0 && g > 0 ? dHi - dLo : 0;

    // Rest volume and shortest edge; the tets index the world's global vertex array.
    static const int edges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    icReal volume = 0, shortest = INFINITY;
    for (int t = t0; t < t0 + nt; ++t) {
        const int *tet = tets + 4 * (size_t)t;
        icVec3 p[4];
        for (int k = 0; k < 4; ++k) p[k] = icVec3_Load(x, tet[k]);
        volume += fabs(icVec3_Dot(icVec3_Sub(p[1], p[0]),
                                  icVec3_Cross(icVec3_Sub(p[2], p[0]), icVec3_Sub(p[3], p[0])))) /
                  6;
        for (int e = 0; e < 6; ++e) {
            icReal length = icVec3_Length(icVec3_Sub(p[edges[e][1]], p[edges[e][0]]));
            if (length > 0 && length < shortest) shortest = length;
        }
    }
    body->mass = body->density * volume;
    body->sagRatio = body->density * g * body->height / body->youngsModulus;
    body->shortestEdge = isfinite(shortest) ? shortest : 0;
    body->waveTime = sqrt(body->density / body->youngsModulus) * body->shortestEdge;
}

icResult icScene_Preflight(const icScene *scene, icPreflightReport *report) {
    if (!report) return IC_ERR_INVALID_ARGUMENT;
    memset(report, 0, sizeof *report);
    if (!scene || !scene->world) return IC_ERR_INVALID_ARGUMENT;
    icWorldDef def = icWorld_GetDef(scene->world);
    // Gravity loads a static solve only when its "gravity" is on.
    icVec3 gravity = def.gravity;
    if (scene->mode == IC_MODE_STATIC && !scene->staticDef.gravity) gravity = icVec3_Make(0, 0, 0);
    // The substep check is for XPBD time stepping; Newton is implicit over the whole step and
    // the incompressible solver picks its own substeps.
    bool xpbdDynamic = def.solver == IC_SOLVER_XPBD && scene->mode == IC_MODE_DYNAMIC;
    report->substep = xpbdDynamic ? scene->dt / (def.substeps >= 1 ? def.substeps : 1) : 0;

    report->bodyCount = scene->bodyCount;
    for (int b = 0; b < scene->bodyCount; ++b) {
        icPreflightBody *body = &report->bodies[b];
        body->youngsModulus = scene->bodies[b].material.youngsModulus;
        body->density = scene->bodies[b].material.density;
        if (!(body->youngsModulus > 0) || !icBody_IsValid(scene->world, scene->bodies[b].id))
            continue;
        measureBody(scene->world, scene->bodies[b].id, gravity, body);
        if (body->waveTime > 0)
            body->substepsNeeded = (int)fmin(ceil(scene->dt / body->waveTime), 1e9);

        icReal largest = fmax(body->size.x, fmax(body->size.y, body->size.z));
        // A body attached to bones is held along its length, not a column standing on its
        // base or hanging from a pin: its own weight strains it far less than rho g H / E.
        if (body->sagRatio > IC_PREFLIGHT_SAG_RATIO && !scene->bodies[b].attached)
            body->warnings |= IC_PREFLIGHT_SAG;
        if (xpbdDynamic && body->waveTime > 0 && report->substep > body->waveTime)
            body->warnings |= IC_PREFLIGHT_SUBSTEP;
        if (largest > IC_PREFLIGHT_LARGE_SIZE && body->youngsModulus < IC_PREFLIGHT_SOFT_MODULUS)
            body->warnings |= IC_PREFLIGHT_UNITS_LARGE;
        if (largest > 0 && largest < IC_PREFLIGHT_SMALL_SIZE)
            body->warnings |= IC_PREFLIGHT_UNITS_SMALL;
        report->warnings |= body->warnings;
    }
    return IC_OK;
}

static void printFigures(FILE *out, const char *prefix, int b, const icPreflightBody *body) {
    fprintf(out,
            "%spre-flight: body %d: %.3g x %.3g x %.3g m, %.3g kg, E %.3g Pa, density %.4g "
            "kg/m^3, shortest edge %.3g m\n",
            prefix, b, body->size.x, body->size.y, body->size.z, body->mass, body->youngsModulus,
            body->density, body->shortestEdge);
}

int icPreflight_Print(const icPreflightReport *report, FILE *out, const char *prefix, bool all) {
    if (!report || !out) return 0;
    if (!prefix) prefix = "";
    int count = 0;
    for (int b = 0; b < report->bodyCount; ++b) {
        const icPreflightBody *body = &report->bodies[b];
        if (!all && !body->warnings) continue;
        printFigures(out, prefix, b, body);
        if (body->warnings & IC_PREFLIGHT_SAG) {
            // The E that brings rho g H / E down to the threshold.
            icReal stiffer = body->sagRatio / IC_PREFLIGHT_SAG_RATIO * body->youngsModulus;
            if (body->sagRatio < 2)
                fprintf(out,
                        "%swarning: body %d will sag ~%.0f %% of its height under its own "
                        "weight (rho g H / E = %.2g for H = %.3g m)",
                        prefix, b, 50 * body->sagRatio, body->sagRatio, body->height);
            else
                fprintf(out,
                        "%swarning: body %d will collapse under its own weight (rho g H / E = "
                        "%.2g for H = %.3g m)",
                        prefix, b, body->sagRatio, body->height);
            fprintf(out, "; E >= %.2g Pa keeps it under %.0f %%, or check the mesh's units\n",
                    stiffer, 50 * IC_PREFLIGHT_SAG_RATIO);
            ++count;
        }
        if (body->warnings & IC_PREFLIGHT_UNITS_LARGE) {
            icReal largest = fmax(body->size.x, fmax(body->size.y, body->size.z));
            fprintf(out,
                    "%swarning: body %d is %.3g m across and soft (E %.3g Pa): is the mesh in "
                    "centimetres or millimetres? Scene units are metres\n",
                    prefix, b, largest, body->youngsModulus);
            ++count;
        }
        if (body->warnings & IC_PREFLIGHT_UNITS_SMALL) {
            icReal largest = fmax(body->size.x, fmax(body->size.y, body->size.z));
            fprintf(out,
                    "%swarning: body %d is %.3g m across: is the mesh in other units (a "
                    "millimetre mesh read as metres would be 1000 times larger)? Scene units "
                    "are metres\n",
                    prefix, b, largest);
            ++count;
        }
        if (body->warnings & IC_PREFLIGHT_SUBSTEP) {
            fprintf(out,
                    "%swarning: body %d: the substep %.3g s is longer than its stiffest "
                    "element's wave time sqrt(rho / E) x edge = %.3g s; XPBD stays stable, but "
                    "the body responds softer and more damped than E says; \"substeps\": %d "
                    "resolves it\n",
                    prefix, b, report->substep, body->waveTime, body->substepsNeeded);
            ++count;
        }
    }
    if (count > 0)
        fprintf(out, "%snotes only, the run goes on; \"preflight\": false in the scene hides them\n",
                prefix);
    return count;
}
