// SPDX-License-Identifier: MIT
// Scene files: JSON in, a validated world out, with every error naming its JSON path and line.
#include "scene/scene_budget.h"
#include "scene/scene_contact.h"
#include "scene/scene_health.h"
#include "scene/scene_internal.h"
#include "scene/scene_rods.h"
#include "scene/scene_solver.h"

#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

// ---------------------------------------------------------------------------------------
// Scene format (SI units throughout: metres, seconds, kilograms, pascals). Only "dt" and
// "bodies" are required ("bodies" may be left out when "rods", VIPER rods read by
// scene_rods.c and described in docs/viper.md, is given); every other key has the default
// shown. Every key is checked:
// an unknown key is IC_ERR_UNKNOWN_KEY, a wrong type or out-of-range value IC_ERR_BAD_VALUE,
// a missing required key IC_ERR_MISSING_KEY, each naming the JSON path (for example
// `bodies[0].material.poisson_ratio`) and the line of the key. A key given twice in one
// object is IC_ERR_BAD_VALUE.
//
// {
//   "description": "free text, ignored",             optional string
//   "dt": 0.0166667,                                  seconds per frame, 1e-9 to 3600 (required)
//   "frames": 60,                                     frames to run, integer >= 0
//   "gravity": [0, -9.81, 0],                         m/s^2, each within +-1e5
//   "solver": {
//     "type": "xpbd",                                 "xpbd" (the keys below), "newton" or
//                                                     "quasistatic" (see scene_newton.c and
//                                                     docs/scenes.md); others are
//                                                     IC_ERR_UNSUPPORTED
//     "substeps": 20,                                 XPBD substeps per frame, integer >= 1
//     "iterations": 1,                                sweeps per substep, integer >= 1
//     "max_substep_strain": 0.2,                      more substeps (up to max_substeps) while
//                                                     a tet deforms faster than this strain per
//                                                     substep, or a plane contact will; 0 = off
//     "max_substeps": 160,                            integer >= 1
//     "projection": "coupled",                        "coupled" | "sequential" (the paper's order)
//     "rest_shift": true,                             gamma = 1 + mu/lambda (true) or 1
//     "workers": 0,                                   threads, integer in [0, 1024]; 0 =
//                                                     automatic (the cores, one on small
//                                                     meshes); results do not depend on it
//     "precision": "float",                           sweep arithmetic: "float" | "double"
//     "simd": "auto",                                 widest vector code the sweep may use:
//                                                     "auto" | "scalar" | "avx2" | "avx512"
//                                                     (same bits; a level the CPU lacks
//                                                     falls back to a narrower one)
//     "colouring": "greedy",                          sweep order: "greedy" | "cell" (hex
//                                                     cells of generated meshes) | "pairs"
//     "linear_damping": 0,                            velocity damping, 1/s, >= 0
//     "mode": "dynamic",                              "dynamic": each frame is one step of
//                                                     dt; "static": each frame advances the
//                                                     pins by dt, then solves for rest
//     "static": {                                     used when mode is "static"
//       "pseudo_step": 0.000833,                      pseudo time step h, s, > 0
//       "iterations_per_step": 1,                     integer >= 1
//       "max_sweeps": 20000,                          integer >= 1
//       "tolerance": 1e-7,                            max move per pseudo step / size, > 0
//       "gravity": true                               include gravity
//     }
//   },
//   or "solver": {"type": "newton" | "quasistatic", "max_iterations": 50, "tolerance": 1e-6,
//     "absolute_tolerance": 1e-10, "step_tolerance": 1e-7, "cg_tolerance": 1e-4,
//     "max_cg_iterations": 1000, "preconditioner": "block_jacobi", "project_hessian": true,
//     "line_search": true, "matrix_free": false, "stiffness_damping": 0, "mass_damping": 0,
//     "gravity": true (quasistatic only), "workers": 0}: the force-based solver, see
//     scene_newton.c
//   "bodies": [{                                      1 to IC_SCENE_MAX_BODIES bodies
//     "mesh": one of                                  required
//       {"generate": "box", "size": [1, 1, 1], "cells": [8, 8, 8], "split": 6}
//           size > 0 per axis; cells an integer or 3 integers in [1, 1000]; split 5 or 6
//       {"generate": "sphere", "radius": 0.5, "cells": 16, "split": 6}
//           cells across the diameter
//       {"generate": "torus", "major_radius": 1, "minor_radius": 0.3, "cells": 20,
//        "split": 6}                                  0 < minor_radius < major_radius
//       {"generate": "crazy_cube", "size": 1, "tets": 40000, "seed": 1}
//       {"file": "meshes/bunny.ele", "strict": false}
//           any file icLoadMesh reads (TetGen .ele/.node or basename, ...), relative to the
//           scene file's folder (absolute paths allowed; for icScene_LoadString, relative
//           to its baseDir); strict refuses partly inverted meshes. Load errors keep the
//           mesh file's name and line.
//     "material": {
//       "model": "mm",                                "mm" | "linear" | "stvk" | "corotated"
//                                                     | "neohookean" | "snh" | "snh2018";
//                                                     the solver refuses models it cannot
//                                                     minimise (IC_ERR_UNSUPPORTED)
//       "youngs_modulus": 1e5,                        Pa, > 0, at most 1e13
//       "poisson_ratio": 0.45,                        [0, 0.5]
//       "density": 1000,                              kg/m^3, > 0, at most 1e6
//       "damping": 0                                  s, >= 0
//     },
//     "translate": [0, 0, 0],                         m (each within +-1e6), added to the positions
//     "velocity": [0, 0, 0],                          m/s, initial velocity
//     "scramble": {"normal": [0, 1, 0], "seed": 1},   at the start of the first run, flatten
//                                                     the body onto the plane through its
//                                                     centroid with this normal and place
//                                                     the vertices at random (seeded, integer
//                                                     in [0, 2^53]) within its extent in that
//                                                     plane. Pins are made at load time, so
//                                                     they hold the unscrambled positions.
//     "pin": [{                                       pins, in order
//       "box": {"min": [x, y, z], "max": [x, y, z]},  required; world coordinates after
//                                                     "translate"; min <= max; must catch at
//                                                     least one vertex
//       "axes": [true, true, true],                   held coordinates
//       "motion": {                                   one segment, or an array of 1 to 4
//                                                     segments applied in order
//         "translate": [0, 0, 0],                     translation velocity, m/s
//         "rotate": {"axis": [0, 1, 0], "center": [0, 0, 0], "degrees_per_second": 0},
//         "start": 0, "end": <none>                   s, active window; 0 <= start <= end;
//                                                     no "end" = forever
//       }
//     }]
//   }],
//   "colliders": [{"plane": {"normal": [0, 1, 0], "offset": 0, "friction": 0.5}}],
//                                                     keeps normal . x >= offset; friction
//                                                     >= 0; the normal must not be zero;
//                                                     also "sphere", "box", "capsule" and
//                                                     "mesh" colliders with keyframed motion
//                                                     (scene_collider.c, docs/scenes.md)
//   "contact": {"bodies": true, "self": false,        contact between / within tet bodies
//               "thickness": 0.01, "friction": 0.3},  (scene_collider.c, docs/scenes.md)
//   "health": {"policy": "report",                   per-step checks (docs/reliability.md):
//              "max_speed": 1000,                     "off" | "report" | "clamp" | "stop";
//              "max_inverted_tets": 0,                m/s > 0; integer >= 0;
//              "max_volume_drift": 0.5},              |V/V0 - 1| > 0
//   "preflight": true,                                `isochor run` prints the pre-flight
//                                                     notes (scene_preflight.c) first
//   "output": {
//     "dir": "out/<scene file stem>",                 relative to the current directory
//     "every": 1,                                     write every n-th frame, integer >= 1
//     "format": ["vtu"]                               "vtu" only; [] writes no frames
//   }
// }
// ---------------------------------------------------------------------------------------

static icResult readStatic(const icSceneReader *r, const cJSON *item, const char *path,
                           icStaticDef *def) {
    static const char *const keys[] = {"pseudo_step", "iterations_per_step", "max_sweeps",
                                       "tolerance", "gravity", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    if ((e = icSceneReader_Number(r, item, path, "pseudo_step", IC_RANGE_POSITIVE,
                                  &def->pseudoStep)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "iterations_per_step", 1, 2147483647,
                               &def->iterationsPerStep)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "max_sweeps", 1, 2147483647, &def->maxSweeps)) !=
        IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "tolerance", IC_RANGE_POSITIVE,
                                  &def->tolerance)) != IC_OK)
        return e;
    return icSceneReader_Bool(r, item, path, "gravity", &def->gravity);
}

static icResult readXpbd(const icSceneReader *r, const cJSON *item, const char *path,
                         icSceneSolver *s) {
    static const char *const keys[] = {"type",       "substeps", "iterations", "projection",
                                       "rest_shift", "workers",  "mode",       "static",
                                       "linear_damping", "precision", "simd", "colouring",
                                       "max_substep_strain", "max_substeps", NULL};
    static const char *const projections[] = {"sequential", "coupled"};
    // In icPrecision and icSimd order.
    static const char *const precisions[] = {"double", "float"};
    static const char *const simds[] = {"auto", "scalar", "avx2", "avx512"};
    static const char *const colourings[] = {"greedy", "cell", "pairs"}; // icColouringScheme order
    static const char *const modes[] = {"dynamic", "static"};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    icWorldDef *def = &s->worldDef;
    if ((e = icSceneReader_Int(r, item, path, "substeps", 1, 2147483647, &def->substeps)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "iterations", 1, 2147483647, &def->iterations)) !=
        IC_OK)
        return e;
    if ((e = icSceneReader_Number(r, item, path, "max_substep_strain", IC_RANGE_NON_NEGATIVE,
                                  &def->maxSubstepStrain)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, item, path, "max_substeps", 1, 2147483647, &def->maxSubsteps)) !=
        IC_OK)
        return e;
    int projection = (int)def->projection;
    if ((e = icSceneReader_Enum(r, item, path, "projection", projections, 2, &projection)) !=
        IC_OK)
        return e;
    def->projection = (icProjection)projection;
    if ((e = icSceneReader_Bool(r, item, path, "rest_shift", &def->restShift)) != IC_OK) return e;
    if ((e = icSceneReader_Int(r, item, path, "workers", 0, IC_MAX_WORKERS, &def->workerCount)) !=
        IC_OK)
        return e;
    int precision = (int)def->precision, simd = (int)def->simd;
    if ((e = icSceneReader_Enum(r, item, path, "precision", precisions, 2, &precision)) != IC_OK)
        return e;
    def->precision = (icPrecision)precision;
    if ((e = icSceneReader_Enum(r, item, path, "simd", simds, 4, &simd)) != IC_OK) return e;
    def->simd = (icSimd)simd;
    int colouring = (int)def->colouring;
    if ((e = icSceneReader_Enum(r, item, path, "colouring", colourings, 3, &colouring)) != IC_OK)
        return e;
    def->colouring = (icColouringScheme)colouring;
    if ((e = icSceneReader_Number(r, item, path, "linear_damping", IC_RANGE_NON_NEGATIVE,
                                  &def->linearDamping)) != IC_OK)
        return e;
    int mode = (int)s->mode;
    if ((e = icSceneReader_Enum(r, item, path, "mode", modes, 2, &mode)) != IC_OK) return e;
    s->mode = (icSolverMode)mode;
    const cJSON *staticItem = cJSON_GetObjectItemCaseSensitive(item, "static");
    if (staticItem) {
        icJsonPath p = icJsonPath_Key(path, "static");
        if ((e = readStatic(r, staticItem, p.text, &s->staticDef)) != IC_OK) return e;
    }
    return IC_OK;
}

// Solver types by name: a new solver adds its reader here (and the keys it accepts).
static const struct {
    const char *name;
    icSolverReadFn *read;
} s_solverTypes[] = {
    {"xpbd", readXpbd},
    {"newton", icScene_ReadNewton},
    {"quasistatic", icScene_ReadQuasistatic},
    {"incompressible", icScene_ReadIncompressible},
};
#define IC_SOLVER_TYPE_COUNT ((int)(sizeof s_solverTypes / sizeof s_solverTypes[0]))

static icResult readSolver(const icSceneReader *r, const cJSON *item, icSceneSolver *s) {
    const char *path = "solver";
    if (!cJSON_IsObject(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, path, "expected an object, got %s",
                                  icJson_TypeName(item));
    const char *type = "xpbd";
    icResult e = icSceneReader_String(r, item, path, "type", &type);
    if (e != IC_OK) return e;
    for (int i = 0; i < IC_SOLVER_TYPE_COUNT; ++i)
        if (strcmp(s_solverTypes[i].name, type) == 0) return s_solverTypes[i].read(r, item, path, s);
    char known[128] = "";
    for (int i = 0; i < IC_SOLVER_TYPE_COUNT; ++i) {
        size_t used = strlen(known);
        snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", s_solverTypes[i].name);
    }
    return icSceneReader_Fail(r, IC_ERR_UNSUPPORTED, cJSON_GetObjectItemCaseSensitive(item, "type"),
                              "solver.type", "'%s' is not supported (known: %s)", type, known);
}

static icResult readOutput(const icSceneReader *r, const cJSON *item, icScene *scene) {
    static const char *const keys[] = {"dir", "every", "format", NULL};
    const char *path = "output";
    icResult e;
    if ((e = icSceneReader_CheckObject(r, item, path, keys)) != IC_OK) return e;
    const char *dir = NULL;
    if ((e = icSceneReader_String(r, item, path, "dir", &dir)) != IC_OK) return e;
    if (dir) {
        if (strlen(dir) >= sizeof scene->outputDir)
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE,
                                      cJSON_GetObjectItemCaseSensitive(item, "dir"), "output.dir",
                                      "path is too long");
        snprintf(scene->outputDir, sizeof scene->outputDir, "%s", dir);
    }
    if ((e = icSceneReader_Int(r, item, path, "every", 1, 2147483647, &scene->outputEvery)) !=
        IC_OK)
        return e;
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(item, "format");
    if (format) {
        if (!cJSON_IsArray(format))
            return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, format, "output.format",
                                      "expected an array of strings, got %s",
                                      icJson_TypeName(format));
        scene->writeVtu = false;
        int i = 0;
        for (const cJSON *f = format->child; f; f = f->next, ++i) {
            icJsonPath p = icJsonPath_Index("output.format", i);
            if (!cJSON_IsString(f))
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, f, p.text,
                                          "expected a string, got %s", icJson_TypeName(f));
            if (strcmp(f->valuestring, "vtu") == 0)
                scene->writeVtu = true;
            else if (strcmp(f->valuestring, "obj") == 0)
                scene->writeObj = true;
            else if (strcmp(f->valuestring, "ply") == 0)
                scene->writePly = true;
            else if (strcmp(f->valuestring, "pc2") == 0)
                scene->writePc2 = true;
            else
                return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, f, p.text,
                                          "'%s' is not a known format (known: vtu, obj, ply, pc2)",
                                          f->valuestring);
        }
    }
    return IC_OK;
}

static icResult readBodies(const icSceneReader *r, const cJSON *item, icScene *scene) {
    if (!cJSON_IsArray(item))
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, "bodies", "expected an array, got %s",
                                  icJson_TypeName(item));
    int count = cJSON_GetArraySize(item);
    if (count < 1 || count > IC_SCENE_MAX_BODIES)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, item, "bodies",
                                  "%d bodies; a scene has 1 to %d", count, IC_SCENE_MAX_BODIES);
    int i = 0;
    for (const cJSON *b = item->child; b; b = b->next, ++i) {
        icJsonPath path = icJsonPath_Index("bodies", i);
        icResult e = icScene_ReadBody(r, b, path.text, scene, i);
        if (e != IC_OK) return e;
        scene->bodyCount = i + 1;
    }
    return IC_OK;
}

static icResult readScene(const icSceneReader *r, const cJSON *root,
                          const icSceneLoadOptions *options, icScene *scene) {
    static const char *const keys[] = {"description", "dt", "frames", "gravity", "solver",
                                       "bodies", "colliders", "contact", "output", "rods",
                                       "health", "preflight", NULL};
    icResult e;
    if ((e = icSceneReader_CheckObject(r, root, "", keys)) != IC_OK) return e;
    const cJSON *member;
    const char *description = NULL;
    if ((e = icSceneReader_String(r, root, "", "description", &description)) != IC_OK) return e;

    if ((e = icSceneReader_Require(r, root, "", "dt", &member)) != IC_OK) return e;
    if ((e = icSceneReader_Number(r, root, "", "dt",
                                     (icRange){IC_SCENE_MIN_DT, IC_SCENE_MAX_DT, false, false},
                                     &scene->dt)) != IC_OK)
        return e;
    if ((e = icSceneReader_Int(r, root, "", "frames", 0, 2147483647, &scene->frames)) != IC_OK)
        return e;
    if ((e = icSceneReader_Bool(r, root, "", "preflight", &scene->preflight)) != IC_OK) return e;

    icSceneSolver solver = {icDefaultWorldDef(), IC_MODE_DYNAMIC, icDefaultStaticDef(),
                            icDefaultNewtonDef(), icDefaultIncompressibleDef()};
    if ((e = icSceneReader_Vec3Within(r, root, "", "gravity", IC_SCENE_MAX_GRAVITY,
                                        &solver.worldDef.gravity)) != IC_OK)
        return e;
    const cJSON *solverItem = cJSON_GetObjectItemCaseSensitive(root, "solver");
    if (solverItem && (e = readSolver(r, solverItem, &solver)) != IC_OK) return e;
    const cJSON *healthItem = cJSON_GetObjectItemCaseSensitive(root, "health");
    if (healthItem && (e = icScene_ReadHealth(r, healthItem, &solver.worldDef.health)) != IC_OK)
        return e;
    scene->mode = solver.mode;
    scene->staticDef = solver.staticDef;

    // Check the rest of the document's shape before the costly part (meshes, bodies).
    // A scene of rods only (docs/viper.md) needs no tet bodies.
    const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(root, "bodies");
    if (!cJSON_GetObjectItemCaseSensitive(root, "rods") &&
        (e = icSceneReader_Require(r, root, "", "bodies", &bodies)) != IC_OK)
        return e;
    const cJSON *output = cJSON_GetObjectItemCaseSensitive(root, "output");
    if (output && (e = readOutput(r, output, scene)) != IC_OK) return e;

    if (options->workers >= 0) solver.worldDef.workerCount = options->workers;
    if (r->budget) {
        r->budget->solver = solver.worldDef.solver;
        r->budget->workers = solver.worldDef.workerCount;
    }
    scene->world = icCreateWorld(&solver.worldDef);
    if (!scene->world)
        return icSceneReader_Fail(r, IC_ERR_BAD_VALUE, solverItem ? solverItem : root,
                                  solverItem ? "solver" : "",
                                  "the world refused these solver settings");
    if (solver.worldDef.solver == IC_SOLVER_NEWTON)
        icWorld_SetNewtonDef(scene->world, &solver.newtonDef);
    if (solver.worldDef.solver == IC_SOLVER_INCOMPRESSIBLE)
        icWorld_SetIncompressibleDef(scene->world, &solver.incompressibleDef);
    if (bodies && (e = readBodies(r, bodies, scene)) != IC_OK) return e;
    const cJSON *colliders = cJSON_GetObjectItemCaseSensitive(root, "colliders");
    if (colliders && (e = icScene_ReadColliders(r, colliders, scene->world)) != IC_OK) return e;
    const cJSON *contact = cJSON_GetObjectItemCaseSensitive(root, "contact");
    if (contact && (e = icScene_ReadContact(r, contact, scene->world)) != IC_OK) return e;
    if ((e = icScene_ReadRods(r, root, scene)) != IC_OK) return e;
    if (scene->rods && options->workers >= 0) {
        icRodWorldDef rodDef = icRodWorld_GetDef(scene->rods);
        rodDef.workerCount = options->workers;
        if ((e = icRodWorld_SetDef(scene->rods, &rodDef)) != IC_OK)
            return icDiag_Set(r->diag, e, r->file, 0, "the rods refused %d workers",
                              options->workers);
    }
    return IC_OK;
}

// Quotes where cJSON stopped, up to the end of that line.
static icResult malformed(const char *text, const char *stop, const char *name,
                          icDiagnostic *diag) {
    if (!stop) stop = text;
    int line = icJson_LineAt(text, stop);
    if (!*stop)
        return icDiag_Set(diag, IC_ERR_PARSE, name, line,
                          "malformed JSON: the text ends early (unclosed object, array or "
                          "string?)");
    int n = 0;
    while (n < 30 && stop[n] && stop[n] != '\n' && stop[n] != '\r') ++n;
    return icDiag_Set(diag, IC_ERR_PARSE, name, line, "malformed JSON at '%.*s'", n, stop);
}

static icResult loadScene(const char *text, size_t length, const char *name,
                          const char *stemSource, const char *baseDir,
                          const icSceneLoadOptions *options, icScene *scene, icDiagnostic *diag) {
    icSceneLoadOptions defaults = icDefaultSceneLoadOptions();
    if (!options) options = &defaults;
    icSceneBudget budget = {options->maxMemory > 0 ? options->maxMemory
                                                   : icScene_DefaultMemoryBudget(),
                            0, 0, IC_SOLVER_XPBD, 1};
    icSceneReader r = {name, baseDir ? baseDir : ".", {0, NULL, NULL}, diag, scene->outputDir,
                       &budget};
    // The parse tree takes many times the text: estimated before cJSON allocates it.
    int64_t parse = icSceneBudget_JsonBytes((int64_t)length);
    char need[64], limit[64];
    if (parse > budget.limit) {
        icSceneBudget_Format(parse, need, sizeof need);
        icSceneBudget_Format(budget.limit, limit, sizeof limit);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, name, 0,
                          "parsing this scene of %lld bytes needs about %s, over the memory "
                          "budget of %s; raise the budget (--max-memory)",
                          (long long)length, need, limit);
    }
    budget.used = budget.text = parse;

    const char *stop = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &stop, true);
    if (!root) return malformed(text, stop, name, diag);

    icResult e = icJsonLines_Build(&r.lines, text, root);
    if (e == IC_ERR_OUT_OF_MEMORY) {
        cJSON_Delete(root);
        return icDiag_Set(diag, e, name, 0, "out of memory");
    }
    // A scan that disagrees with cJSON (it should not) only costs the line numbers.

    scene->frames = 60;
    scene->outputEvery = 1;
    scene->writeVtu = true;
    scene->mode = IC_MODE_DYNAMIC;
    scene->staticDef = icDefaultStaticDef();
    scene->preflight = true;
    char stem[256];
    icPath_Stem(stemSource && stemSource[0] ? stemSource : "scene", stem, sizeof stem);
    snprintf(scene->outputDir, sizeof scene->outputDir, "out/%s", stem[0] ? stem : "scene");

    e = readScene(&r, root, options, scene);
    icJsonLines_Destroy(&r.lines);
    cJSON_Delete(root);
    if (e != IC_OK) icScene_Destroy(scene);
    return e;
}

icResult icScene_LoadString(const char *text, const char *name, const char *baseDir,
                            icScene *scene, icDiagnostic *diag) {
    memset(scene, 0, sizeof *scene);
    const char *stemSource = name && name[0] ? name : "scene";
    if (!name || !name[0]) name = "<scene>";
    if (!text) return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, name, 0, "no scene text");
    return loadScene(text, strlen(text), name, stemSource, baseDir, NULL, scene, diag);
}

icSceneLoadOptions icDefaultSceneLoadOptions(void) {
    icSceneLoadOptions options = {-1, 0, 0};
    return options;
}

// Refused before it is read: its size must be within the load's cap.
static icResult tooLarge(const char *path, int64_t size, int64_t maxBytes, icDiagnostic *diag) {
    return icDiag_Set(diag, IC_ERR_BAD_VALUE, path, 0,
                      "the scene file is %lld bytes, more than the %lld bytes a scene file may "
                      "have; raise the limit (--max-scene-size) if it is meant to be this large",
                      (long long)size, (long long)maxBytes);
}

// A regular file's size; anything else (missing, a FIFO, a device) is left to icReadFile,
// which refuses it by name without opening it.
static icResult checkFileSize(const char *path, int64_t maxBytes, icDiagnostic *diag) {
    struct stat info;
    if (stat(path, &info) != 0 || !S_ISREG(info.st_mode)) return IC_OK;
    return (int64_t)info.st_size <= maxBytes ? IC_OK : tooLarge(path, info.st_size, maxBytes, diag);
}

icResult icScene_Load(const char *path, icScene *scene, icDiagnostic *diag) {
    return icScene_LoadWith(path, NULL, scene, diag);
}

icResult icScene_LoadWith(const char *path, const icSceneLoadOptions *options, icScene *scene,
                          icDiagnostic *diag) {
    memset(scene, 0, sizeof *scene);
    if (!path || !path[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no scene path given");
    if (strlen(path) >= sizeof scene->path)
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "path is too long");
    if (options && (options->maxFileBytes < 0 || options->maxMemory < 0))
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0,
                          "a negative file size or memory budget");
    int64_t maxBytes = options && options->maxFileBytes > 0 ? options->maxFileBytes
                                                            : IC_SCENE_DEFAULT_MAX_FILE_BYTES;
    icResult e = checkFileSize(path, maxBytes, diag);
    if (e != IC_OK) return e;
    char *text = NULL;
    size_t length = 0;
    if ((e = icReadFile(path, &text, &length, diag)) != IC_OK) return e;
    if ((int64_t)length > maxBytes) { // it grew since the check
        icFree(text);
        return tooLarge(path, (int64_t)length, maxBytes, diag);
    }
    char dir[1024];
    icPath_Dir(path, dir, sizeof dir);
    e = loadScene(text, length, path, path, dir, options, scene, diag);
    icFree(text);
    if (e == IC_OK) snprintf(scene->path, sizeof scene->path, "%s", path);
    return e;
}

void icScene_Destroy(icScene *scene) {
    if (!scene) return;
    if (scene->world) icDestroyWorld(scene->world);
    if (scene->rods) icDestroyRodWorld(scene->rods);
    memset(scene, 0, sizeof *scene);
}
