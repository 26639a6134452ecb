// SPDX-License-Identifier: MIT
// The memory budget of a scene load (scene_budget.h): estimates per vertex and per tet,
// measured on generated meshes, and the check that refuses a scene before it allocates.
#include "scene/scene_budget.h"

#include "isochor/scene.h"

#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

// Bytes per vertex and per tet of a body, measured with every library allocation counted
// (icSetAllocator hooks: the peak, and icGetByteCount() after the run) for a generated box
// loaded and run for two frames just inside a ground plane (contact active), one worker:
// cells 8, 16, 24 (split 6 and 5, to tell vertices from tets) and 32, i.e. 729 to 35,937
// vertices and 3,072 to 196,608 tets. Split 6 against split 5 at 24^3 cells (same vertices,
// 13,824 tets fewer) gives the per-tet cost; the rest is per vertex:
//   XPBD            140 B/tet, 1,440 B/vertex (self contact: +15 % at 24^3 cells)
//   Newton        1,012 B/tet, 2,184 B/vertex (its sparse Hessian and preconditioner)
//   incompressible  359 B/tet, 2,646 B/vertex, and 30 B/vertex more per extra worker
// The figures below lie 10-25 % above these: measured peak / estimate is 0.76 (XPBD, 32^3),
// 0.91 (XPBD with self contact, 24^3), 0.91 (Newton, 32^3), 0.87 (incompressible, 32^3, one
// and 16 workers), and 0.74 to 0.88 at 8^3 cells. Meshes from files have about the same
// vertices per tet (one per 5 to 6), so the same figures hold.
#define IC_BUDGET_XPBD_VERTEX 1800
#define IC_BUDGET_XPBD_TET 180
#define IC_BUDGET_NEWTON_VERTEX 2400
#define IC_BUDGET_NEWTON_TET 1100
#define IC_BUDGET_INCOMPRESSIBLE_VERTEX 3200
#define IC_BUDGET_INCOMPRESSIBLE_TET 450
#define IC_BUDGET_INCOMPRESSIBLE_WORKER_VERTEX 40
// A generated mesh while it is built: positions (24 B/vertex) and the grid's vertex map, tets
// (16 B), their cells (4 B); the crazy cube adds its vertex-to-tet adjacency and rest
// determinants (24 B/tet). The load's peak over its end (the mesh beside the body) was 24 B/tet
// for a box.
#define IC_BUDGET_MESH_VERTEX 64
#define IC_BUDGET_MESH_TET 64
// A rod segment, its vertex and constraints, stepped: 918, 1,013 and 872 bytes a segment at
// 9,680, 100,820 and 1,003,520 segments of a bundle of 20-segment rods falling onto each other
// (bench_scaling, every library allocation after the first step; 45 candidate pairs a segment
// at the pile's densest).
#define IC_BUDGET_ROD_SEGMENT 1300
// cJSON takes a 64-byte node (80 with malloc's header) per value and the line map 12 to 24
// bytes more: a file of bare numbers ("0,0,0,...", 2 bytes a value) needs about 52 bytes per
// byte besides the text; 100 MB of such JSON was seen to take 5.9 GB of RSS.
#define IC_BUDGET_JSON_PER_BYTE 60

typedef struct icBodyCost {
    int64_t perVertex, perTet;
} icBodyCost;

static icBodyCost bodyCost(icSolverType solver, int workers) {
    switch (solver) {
    case IC_SOLVER_NEWTON: return (icBodyCost){IC_BUDGET_NEWTON_VERTEX, IC_BUDGET_NEWTON_TET};
    case IC_SOLVER_INCOMPRESSIBLE:
        return (icBodyCost){IC_BUDGET_INCOMPRESSIBLE_VERTEX +
                                IC_BUDGET_INCOMPRESSIBLE_WORKER_VERTEX * (int64_t)(workers - 1),
                            IC_BUDGET_INCOMPRESSIBLE_TET};
    default: return (icBodyCost){IC_BUDGET_XPBD_VERTEX, IC_BUDGET_XPBD_TET};
    }
}

// The workers a world of this count runs: 0 is every core the process may use.
static int workerCount(int workers) {
    if (workers > 0) return workers;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (int)(cores < 1024 ? cores : 1024) : 1;
}

int64_t icSceneBudget_JsonBytes(int64_t bytes) {
    return bytes < INT64_MAX / IC_BUDGET_JSON_PER_BYTE ? bytes * IC_BUDGET_JSON_PER_BYTE : INT64_MAX;
}

// Saturating a v + b t: counts up to 2^31 times costs below 2^16 cannot overflow, but the
// callers' counts come from products of user numbers.
static int64_t affine(int64_t a, int64_t v, int64_t b, int64_t t) {
    if (v < 0 || t < 0 || v > INT64_MAX / 4 / a || t > INT64_MAX / 4 / b) return INT64_MAX;
    return a * v + b * t;
}

int64_t icSceneBudget_BodyBytes(icSolverType solver, int workers, int64_t vertices,
                                int64_t tets) {
    icBodyCost c = bodyCost(solver, workerCount(workers));
    return affine(c.perVertex, vertices, c.perTet, tets);
}

int64_t icSceneBudget_GenerateBytes(icSolverType solver, int workers, int64_t vertices,
                                    int64_t tets) {
    int64_t mesh = affine(IC_BUDGET_MESH_VERTEX, vertices, IC_BUDGET_MESH_TET, tets);
    int64_t body = icSceneBudget_BodyBytes(solver, workers, vertices, tets);
    // The mesh is freed once the body holds its copy: both exist while the body is built.
    return mesh < INT64_MAX - body ? mesh + body : INT64_MAX;
}

int64_t icSceneBudget_RodBytes(int64_t segments) {
    return segments >= 0 && segments < INT64_MAX / IC_BUDGET_ROD_SEGMENT
               ? segments * IC_BUDGET_ROD_SEGMENT
               : INT64_MAX;
}

void icSceneBudget_Format(int64_t bytes, char *out, size_t size) {
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    int unit = 0;
    while (value >= 1024 && unit < 6) {
        value /= 1024;
        ++unit;
    }
    if (unit == 0)
        snprintf(out, size, "%lld bytes", (long long)bytes);
    else
        snprintf(out, size, "%.1f %s (%lld bytes)", value, units[unit], (long long)bytes);
}

icResult icSceneBudget_Need(const icSceneReader *r, const cJSON *item, const char *path,
                            int64_t bytes, const char *what) {
    const icSceneBudget *b = r->budget;
    if (!b) return IC_OK;
    int64_t left = b->limit > b->used ? b->limit - b->used : 0;
    if (bytes <= left) return IC_OK;
    char need[64], limit[64], text[64], bodies[64];
    icSceneBudget_Format(bytes, need, sizeof need);
    icSceneBudget_Format(b->limit, limit, sizeof limit);
    if (bytes > b->limit)
        return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, item, path,
                                  "%s needs about %s, over the memory budget of %s; raise the "
                                  "budget (--max-memory) or make it smaller",
                                  what, need, limit);
    // It fits the budget alone, not beside what the load holds already.
    icSceneBudget_Format(b->text, text, sizeof text);
    icSceneBudget_Format(b->used - b->text, bodies, sizeof bodies);
    return icSceneReader_Fail(r, IC_ERR_OUT_OF_MEMORY, item, path,
                              "%s needs about %s, more than is left of the memory budget of %s: "
                              "the scene's parsed JSON takes %s and the bodies before it %s; "
                              "raise the budget (--max-memory) or make the scene smaller",
                              what, need, limit, text, bodies);
}

void icSceneBudget_Charge(const icSceneReader *r, int64_t bytes) {
    icSceneBudget *b = r->budget;
    if (!b) return;
    b->used = bytes < INT64_MAX - b->used ? b->used + bytes : INT64_MAX;
}

int64_t icScene_DefaultMemoryBudget(void) {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0) return (int64_t)4 << 30;
    // Half: the rest is the system's, the page cache's and the output writers'.
    return (int64_t)pages / 2 * pageSize;
}

// Measured by counting the library's allocations: a mesh collider from a 10.4 MB OBJ (161k
// vertices, 320k triangles) keeps 94.7 MB, 9.1 times the text and 296 bytes a triangle; the
// same surface as binary PLY is 6.1 MB, 15.5 times. 20 times covers the binary formats and
// the loader's transient arrays.
int64_t icSceneBudget_SurfaceFileBytes(int64_t fileBytes) {
    if (fileBytes > INT64_MAX / 32) return INT64_MAX;
    return 20 * fileBytes + 4096;
}

// The surface's size follows the union's area over cell^2; the sum of the capsules' areas
// bounds the union's. Measured on scenes/tissue/tissue.json (capsule areas 5.24 m^2): the kept
// bytes grow as 1400 / cell^2 (29 MB from cell 0.012 to 0.006, 116 MB more at 0.003), 267
// bytes per (area / cell^2), and the peak is 1.3 times what is kept (350). 500 bytes leave
// room for creatures whose capsules overlap less.
int64_t icSceneBudget_TissueSurfaceBytes(const icTissueCapsule *capsules, int count, double cell) {
    double area = 0;
    for (int i = 0; i < count; ++i) {
        double r = capsules[i].radius, length = icVec3_Distance(capsules[i].a, capsules[i].b);
        area += 2 * 3.14159265358979 * r * length + 4 * 3.14159265358979 * r * r;
    }
    double bytes = 500.0 * area / (cell * cell) + 65536;
    return bytes < 9e18 ? (int64_t)bytes : INT64_MAX;
}

icResult icSceneBudget_NeedSurfaceFile(const icSceneReader *r, const cJSON *item,
                                       const char *path, const char *resolved, const char *use) {
    struct stat info;
    if (!r->budget || stat(resolved, &info) != 0 || !S_ISREG(info.st_mode)) return IC_OK;
    char what[1200];
    snprintf(what, sizeof what, "the %s %s of %lld bytes", use, resolved,
             (long long)info.st_size);
    return icSceneBudget_Need(r, item, path, icSceneBudget_SurfaceFileBytes(info.st_size), what);
}
