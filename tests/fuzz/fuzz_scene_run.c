// SPDX-License-Identifier: MIT
// The structure-aware scene target: mutations at the level of the JSON tree (a value swapped
// for an extreme or another known word, an array element or object member dropped, doubled
// or renamed), so that most inputs stay scenes the reader accepts and reach the solvers; each
// loaded scene then runs its first two frames, stopped by the interrupt flag after a fifth of
// a second. What a run promises: a failure says why, a success leaves finite positions, and
// nothing leaks.
#define _POSIX_C_SOURCE 200809L
#include "fuzz/fuzz_targets.h"

#include "isochor/scene.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---------------------------------------------------------------------------------------
// JSON mutations

// Words the scene reader knows (keys and enumerated values): a renamed key or a swapped
// string is far more often meaningful than random bytes.
static const char *const s_keys[] = {
    "dt", "frames", "gravity", "solver", "type", "substeps", "iterations", "precision",
    "projection", "workers", "colouring", "max_substep_strain", "max_substeps", "linear_damping",
    "bodies", "mesh", "generate", "file", "cells", "split", "grid", "radius", "size", "tets",
    "seed", "material", "model", "youngs_modulus", "poisson_ratio", "density", "damping",
    "translate", "rotate", "velocity", "pin", "box", "min", "max", "motion", "keys", "time",
    "colliders", "plane", "sphere", "capsule", "normal", "offset", "friction", "thickness",
    "contact", "self", "health", "policy", "output", "every", "format", "mode", "static",
    "scramble", "rods", "segments", "count", "tolerance", "max_iterations", "preflight"};
static const char *const s_words[] = {
    "xpbd", "newton", "quasistatic", "incompressible", "static", "dynamic", "float", "double",
    "coupled", "sequential", "box", "sphere", "torus", "crazy_cube", "tissue", "mapped",
    "carved", "mm", "snh", "neohookean", "corotated", "linear", "stvk", "greedy", "cell",
    "pairs", "off", "report", "clamp", "stop", "vtu", "obj", "", "m.ele", "m.node"};
static const double s_numbers[] = {0,    -1,   1,     2,      0.5,    3,       1e-9, 1e9,
                                   1e308, -1e308, 5e-324, 2147483648.0, 1e6, 1000, 0.499, 0.5};

static unsigned nextRandom(unsigned *state) {
    unsigned x = *state ? *state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

// Every node of the tree, depth first (at most capacity).
static int collect(cJSON *node, cJSON **nodes, int count, int capacity) {
    if (count < capacity) nodes[count++] = node;
    for (cJSON *c = node->child; c; c = c->next) count = collect(c, nodes, count, capacity);
    return count;
}

static void mutateNode(cJSON *root, cJSON *node, unsigned *rng) {
    unsigned r = nextRandom(rng);
    if (cJSON_IsNumber(node)) {
        double v = node->valuedouble, choices[] = {v * 10, v / 10, -v, v + 1, floor(v / 2)};
        double pick = r % 3 ? s_numbers[r / 3 % (sizeof s_numbers / sizeof s_numbers[0])]
                            : choices[r / 3 % 5];
        cJSON_SetNumberValue(node, isfinite(pick) ? pick : 0);
    } else if (cJSON_IsString(node)) {
        cJSON_SetValuestring(node, s_words[r % (sizeof s_words / sizeof s_words[0])]);
    } else if (cJSON_IsBool(node)) {
        node->type = (node->type & ~0xFF) | (cJSON_IsTrue(node) ? cJSON_False : cJSON_True);
    } else if ((cJSON_IsArray(node) || cJSON_IsObject(node)) && node->child) {
        int n = cJSON_GetArraySize(node), k = (int)(r / 4 % (unsigned)n);
        cJSON *child = cJSON_GetArrayItem(node, k);
        switch (r % 4) {
        case 0: // drop it
            cJSON_Delete(cJSON_DetachItemViaPointer(node, child));
            break;
        case 1: // double it (in an object, under another known key)
            if (cJSON_IsArray(node)) cJSON_AddItemToArray(node, cJSON_Duplicate(child, true));
            else
                cJSON_AddItemToObject(node, s_keys[r / 8 % (sizeof s_keys / sizeof s_keys[0])],
                                      cJSON_Duplicate(child, true));
            break;
        case 2: // rename it
            if (cJSON_IsObject(node) && child->string) {
                cJSON *moved = cJSON_DetachItemViaPointer(node, child);
                cJSON_AddItemToObject(node, s_keys[r / 8 % (sizeof s_keys / sizeof s_keys[0])], moved);
            }
            break;
        default: { // replace it with a copy of any subtree of the document (itself included)
            cJSON *nodes[512];
            int count = collect(root, nodes, 0, 512);
            cJSON *copy = cJSON_Duplicate(nodes[nextRandom(rng) % (unsigned)count], true);
            if (copy) cJSON_ReplaceItemViaPointer(node, child, copy);
            break;
        }
        }
    }
}

size_t icFuzz_MutateJson(uint8_t *data, size_t size, size_t maxSize, unsigned seed) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) return 0;
    unsigned rng = seed;
    int rounds = 1 + (int)(nextRandom(&rng) % 3);
    for (int i = 0; i < rounds; ++i) {
        cJSON *nodes[4096];
        int count = collect(root, nodes, 0, 4096);
        mutateNode(root, nodes[nextRandom(&rng) % (unsigned)count], &rng);
    }
    char *out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    size_t n = out ? strlen(out) : 0;
    if (n == 0 || n > maxSize) n = 0;
    else memcpy(data, out, n);
    free(out);
    return n;
}

// ---------------------------------------------------------------------------------------
// Running the first frames under a time cap

typedef struct icWatchdog {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool done;
    volatile sig_atomic_t *flag;
    double seconds;
} icWatchdog;

// Raises the flag once `seconds` have passed, unless the run ends first.
static void *watch(void *context) {
    icWatchdog *w = context;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long nanos = until.tv_nsec + (long)(w->seconds * 1e9);
    until.tv_sec += nanos / 1000000000L;
    until.tv_nsec = nanos % 1000000000L;
    pthread_mutex_lock(&w->lock);
    while (!w->done)
        if (pthread_cond_timedwait(&w->wake, &w->lock, &until) == ETIMEDOUT) {
            *w->flag = 1;
            break;
        }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

void icFuzz_RunSceneFrames(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    char path[1200];
    if (!icFuzz_WriteSceneFiles(data, size, dir, path, sizeof path)) return;
    icSceneLoadOptions options = icDefaultSceneLoadOptions();
    options.maxMemory = (int64_t)192 << 20; // the fuzzers' allocator allows 256 MiB
    icFuzz_SetBudgetBytes((size_t)256 << 20);
    icScene scene;
    out->result = icScene_LoadWith(path, &options, &scene, &out->diag);
    if (out->result != IC_OK) {
        if (!out->diag.message[0]) icFuzz_Violation("scene_run", "a refused scene without a message");
        return;
    }
    volatile sig_atomic_t flag = 0;
    icRunOptions run = icDefaultRunOptions();
    run.frames = scene.frames < 2 ? scene.frames : 2;
    run.writeOutput = false;
    run.interrupt = &flag;
    icWatchdog w = {.done = false, .flag = &flag, .seconds = 0.2};
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.wake, NULL);
    pthread_t thread;
    bool watching = pthread_create(&thread, NULL, watch, &w) == 0;
    icRunSummary summary;
    icDiagnostic diag = {0};
    icResult r = icScene_Run(&scene, &run, &summary, &diag);
    if (watching) {
        pthread_mutex_lock(&w.lock);
        w.done = true;
        pthread_cond_signal(&w.wake);
        pthread_mutex_unlock(&w.lock);
        pthread_join(thread, NULL);
    }
    pthread_cond_destroy(&w.wake);
    pthread_mutex_destroy(&w.lock);
    if (r != IC_OK && !diag.message[0]) icFuzz_Violation("scene_run", "a failed run without a message");
    if (r == IC_OK && scene.world) {
        if (summary.nan) icFuzz_Violation("scene_run", "a run that succeeded with NaN");
        const icReal *x = icWorld_GetPositions(scene.world);
        for (int i = 0; i < 3 * icWorld_GetVertexCount(scene.world); ++i)
            if (!isfinite(x[i])) {
                icFuzz_Violation("scene_run", "a run that succeeded with non-finite positions");
                break;
            }
    }
    icScene_Destroy(&scene);
}
