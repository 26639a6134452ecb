// SPDX-License-Identifier: MIT
// The fuzz targets: every reader fed through its public entry point, plus the checks of what
// a successful load promises (see fuzz_targets.h).
#include "fuzz/fuzz_targets.h"

#include "scene/checkpoint_file.h"
#include "isochor/formats.h"
#include "isochor/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static icFuzzViolationFn *s_violation;

void icFuzz_SetViolationFn(icFuzzViolationFn *fn) { s_violation = fn; }

static void violation(const char *target, const char *what) {
    if (s_violation) s_violation(target, what);
}

void icFuzz_Violation(const char *target, const char *what) { violation(target, what); }

// ---------------------------------------------------------------------------------------
// The memory budget: all library allocations of one input may hold 64 MiB plus 1032 bytes per
// input byte (zlib's largest expansion) at once. A reader that needs more believed a count
// its input cannot back; it then fails with IC_ERR_OUT_OF_MEMORY, which the targets below
// report as a broken promise (except the scene target, whose generators may ask for big
// meshes).

static size_t s_budget, s_live;
static bool s_budgetOn;

static void *budgetAlloc(size_t size, size_t alignment, void *context) {
    (void)context;
    (void)alignment; // 64, which the block below keeps
    if (s_budgetOn && size > s_budget - (s_live < s_budget ? s_live : s_budget)) return NULL;
    char *block = aligned_alloc(64, size + 64);
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    s_live += size;
    return block + 64;
}

static void budgetFree(void *memory, void *context) {
    (void)context;
    char *block = (char *)memory - 64;
    size_t size;
    memcpy(&size, block, sizeof size);
    s_live -= size;
    free(block);
}

void icFuzz_InstallBudget(bool install) {
    if (install)
        icSetAllocator(budgetAlloc, budgetFree, NULL);
    else
        icSetAllocator(NULL, NULL, NULL);
}

void icFuzz_SetBudgetBytes(size_t bytes) {
    s_budgetOn = true;
    s_budget = bytes;
}

static void setBudget(size_t inputSize) {
    s_budgetOn = true;
    s_budget = ((size_t)64 << 20) + 1032 * inputSize;
}

static void checkMemory(const char *target, const icFuzzOutcome *out) {
    if (out->result == IC_ERR_OUT_OF_MEMORY)
        violation(target, "needs more memory than its input can back (a count believed)");
}

// Writes bytes to dir/name; false when the file cannot be written (a harness problem, not a
// finding: the input is then skipped).
static bool writeBytes(const char *dir, const char *name, const uint8_t *data, size_t size,
                       char *path, size_t pathSize) {
    snprintf(path, pathSize, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (!fp) return false;
    bool ok = fwrite(data, 1, size, fp) == size;
    return fclose(fp) == 0 && ok;
}

// A failure must say what went wrong: the returned code is in the table, the diagnostic
// carries the same code and a sentence.
static void checkFailure(const char *target, const icFuzzOutcome *out) {
    if ((int)out->result < 0 || out->result >= IC_RESULT_COUNT_)
        violation(target, "result code outside the result table");
    else if (out->result != IC_OK && out->diag.code != out->result)
        violation(target, "the diagnostic's code differs from the returned code");
    else if (out->result != IC_OK && !out->diag.message[0])
        violation(target, "a failure without a message");
}

// What a loaded mesh promises: tets, finite positions, indices in range, and a mesh the
// check accepts again unchanged.
static void checkMesh(const char *target, icTetMesh *mesh, const icMeshFields *fields) {
    if (mesh->vertexCount < 1 || mesh->tetCount < 1 || !mesh->positions || !mesh->tets) {
        violation(target, "a successful load without vertices or tets");
        return;
    }
    for (int i = 0; i < 3 * mesh->vertexCount; ++i)
        if (!isfinite(mesh->positions[i])) {
            violation(target, "a loaded position is not finite");
            return;
        }
    for (int i = 0; i < 4 * mesh->tetCount; ++i)
        if (mesh->tets[i] < 0 || mesh->tets[i] >= mesh->vertexCount) {
            violation(target, "a loaded tet index is out of range");
            return;
        }
    // Touch every region and field value, so the sanitizers see a short array.
    long long sum = 0;
    if (mesh->regions)
        for (int t = 0; t < mesh->tetCount; ++t) sum += mesh->regions[t];
    double fieldSum = 0;
    for (int f = 0; fields && f < fields->count; ++f) {
        const icMeshField *field = &fields->items[f];
        if (field->components < 1 || field->components > 9 || !field->data) {
            violation(target, "a field without data or with a bad component count");
            return;
        }
        size_t n = (size_t)(field->perCell ? mesh->tetCount : mesh->vertexCount) *
                   (size_t)field->components;
        for (size_t i = 0; i < n; ++i) fieldSum += field->data[i];
    }
    icOrientReport report;
    icDiagnostic diag = {0};
    if (icTetMesh_Check(mesh, false, &report, &diag) != IC_OK)
        violation(target, "a loaded mesh fails the mesh check");
    else if (report.flippedAll)
        violation(target, "a loaded mesh was not oriented");
    (void)sum;
    (void)fieldSum;
}

static void loadMeshFile(const char *target, const char *path, bool strict, icFuzzOutcome *out) {
    icTetMesh mesh;
    icMeshFields fields;
    icMeshFileInfo info;
    icLoadOptions options = {.strict = strict};
    out->result = icLoadMeshEx(path, &options, &mesh, &fields, &info, NULL, &out->diag);
    checkFailure(target, out);
    if (out->result == IC_OK) checkMesh(target, &mesh, &fields);
    icMeshFields_Destroy(&fields);
    icTetMesh_Destroy(&mesh);
}

// One mesh file with the format's extension; odd-sized inputs load strictly, so both modes
// are covered without a flag byte in the file.
static void runMesh(const char *target, const char *name, const uint8_t *data, size_t size,
                    const char *workDir, icFuzzOutcome *out) {
    char path[1200];
    if (!writeBytes(workDir, name, data, size, path, sizeof path)) return;
    setBudget(size);
    loadMeshFile(target, path, (size & 1) != 0, out);
    checkMemory(target, out);
}

static void runGmsh(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    runMesh("gmsh", "m.msh", data, size, dir, out);
}
static void runVtk(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    runMesh("vtk", "m.vtk", data, size, dir, out);
}
static void runVtu(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    runMesh("vtu", "m.vtu", data, size, dir, out);
}
static void runMedit(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    runMesh("medit", "m.mesh", data, size, dir, out);
}

// TetGen needs two files: the input is the .node text, a form feed (0x0c), then the .ele
// text (no form feed: all .node, empty .ele).
static void runTetGen(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    const uint8_t *split = memchr(data, '\f', size);
    size_t nodeSize = split ? (size_t)(split - data) : size;
    const uint8_t *ele = split ? split + 1 : data + size;
    size_t eleSize = split ? size - nodeSize - 1 : 0;
    char path[1200];
    if (!writeBytes(dir, "t.node", data, nodeSize, path, sizeof path)) return;
    if (!writeBytes(dir, "t.ele", ele, eleSize, path, sizeof path)) return;
    setBudget(size);
    loadMeshFile("tetgen", path, (size & 1) != 0, out);
    checkMemory("tetgen", out);
}

static void checkSurface(const char *target, const icTriSurface *s) {
    if (s->vertexCount < 1 || s->triangleCount < 1 || !s->positions || !s->triangles) {
        violation(target, "a successful load without vertices or triangles");
        return;
    }
    for (int i = 0; i < 3 * s->vertexCount; ++i)
        if (!isfinite(s->positions[i])) {
            violation(target, "a loaded surface position is not finite");
            return;
        }
    for (int i = 0; i < 3 * s->triangleCount; ++i)
        if (s->triangles[i] < 0 || s->triangles[i] >= s->vertexCount) {
            violation(target, "a loaded triangle index is out of range");
            return;
        }
}

static void runSurface(const char *target, const char *name, const uint8_t *data, size_t size,
                       const char *dir, icFuzzOutcome *out) {
    char path[1200];
    if (!writeBytes(dir, name, data, size, path, sizeof path)) return;
    icTriSurface surface;
    setBudget(size);
    out->result = icLoadSurface(path, &surface, &out->diag);
    checkFailure(target, out);
    checkMemory(target, out);
    if (out->result == IC_OK) checkSurface(target, &surface);
    icTriSurface_Destroy(&surface);
}

static void runObj(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    runSurface("obj", "s.obj", data, size, dir, out);
}
static void runPly(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    runSurface("ply", "s.ply", data, size, dir, out);
}
static void runStl(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    runSurface("stl", "s.stl", data, size, dir, out);
}
static void runOff(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    runSurface("off", "s.off", data, size, dir, out);
}

// A tiny TetGen cube beside the scene, so scenes can name "m.ele" (or "m", "m.node").
static const char s_cubeNode[] = "8 3 0 0\n0 0 0 0\n1 1 0 0\n2 1 1 0\n3 0 1 0\n"
                                 "4 0 0 1\n5 1 0 1\n6 1 1 1\n7 0 1 1\n";
static const char s_cubeEle[] = "5 4 0\n0 0 1 3 4\n1 1 2 3 6\n2 1 4 5 6\n3 3 4 6 7\n4 1 3 4 6\n";

// The small TetGen cube scene inputs may name, written beside them.
static bool writeCube(const char *dir, char *path, size_t pathSize) {
    return writeBytes(dir, "m.node", (const uint8_t *)s_cubeNode, sizeof s_cubeNode - 1, path,
                      pathSize) &&
           writeBytes(dir, "m.ele", (const uint8_t *)s_cubeEle, sizeof s_cubeEle - 1, path,
                      pathSize);
}

static bool namesSpecialFile(const char *text) {
    return strstr(text, "/dev") || strstr(text, "/proc") || strstr(text, "/sys");
}

bool icFuzz_WriteSceneFiles(const uint8_t *data, size_t size, const char *workDir, char *path,
                            size_t pathSize) {
    if (!writeCube(workDir, path, pathSize)) return false;
    char *text = malloc(size + 1);
    if (!text) return false;
    memcpy(text, data, size);
    text[size] = 0;
    bool special = namesSpecialFile(text);
    free(text);
    return !special && writeBytes(workDir, "run.json", data, size, path, pathSize);
}

// Scene JSON through icScene_LoadString. Paths in the scene are relative to workDir, which
// holds the cube; names of devices and kernel files are refused by the harness, since
// reading /dev/stdin or /dev/zero would hang or fill memory without being a bug.
static void runScene(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    char path[1200];
    if (!writeCube(dir, path, sizeof path)) return;
    char *text = malloc(size + 1);
    if (!text) return;
    memcpy(text, data, size);
    text[size] = 0;
    if (namesSpecialFile(text)) {
        free(text);
        return;
    }
    icScene scene;
    s_budgetOn = true;
    s_budget = (size_t)256 << 20; // generators may ask for big meshes: only a cap here
    out->result = icScene_LoadString(text, "fuzz.json", dir, &scene, &out->diag);
    free(text);
    checkFailure("scene", out);
    if (out->result == IC_OK) {
        if (!scene.world || !(scene.dt > 0) || scene.frames < 0 || scene.bodyCount < 1)
            violation("scene", "a loaded scene without a world, dt, frames or bodies");
        else if (icWorld_GetTetCount(scene.world) < 1)
            violation("scene", "a loaded scene's world has no tets");
    }
    icScene_Destroy(&scene);
}

// ---------------------------------------------------------------------------------------
// Checkpoints: loaded into a fixed world (a pinned box over a floor, three frames in). Each
// input is read as it is, then (when it starts like a checkpoint) once more with its size
// field and checksum made right, so that mutations reach the section parser behind the
// checksum. The solver settings are pinned: a checkpoint names its model's settings, and the
// saved corpus (tests/fuzz/corpus) was written with the sequential projection in double and
// fixed substeps.

static icScene s_checkpointScene;
static icState *s_checkpointStart;

static const char s_checkpointSceneText[] =
    "{\"dt\": 0.01, \"frames\": 3, \"solver\": {\"substeps\": 2, \"projection\": \"sequential\",\n"
    "   \"precision\": \"double\", \"max_substep_strain\": 0},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 1},\n"
    "   \"pin\": [{\"box\": {\"min\": [-1, 0.09, -1], \"max\": [1, 1, 1]}}]}],\n"
    " \"colliders\": [{\"plane\": {\"offset\": -0.2}}]}\n";

bool icFuzz_PrepareCheckpointWorld(void) {
    if (s_checkpointScene.world) return true;
    icDiagnostic diag = {0};
    if (icScene_LoadString(s_checkpointSceneText, "checkpoint.json", ".", &s_checkpointScene,
                           &diag) != IC_OK)
        return false;
    for (int i = 0; i < 3; ++i)
        if (icWorld_Step(s_checkpointScene.world, s_checkpointScene.dt, NULL) != IC_OK) return false;
    s_checkpointStart = icWorld_CreateState(s_checkpointScene.world);
    return s_checkpointStart != NULL;
}

void icFuzz_Release(void) {
    icDestroyState(s_checkpointStart);
    s_checkpointStart = NULL;
    icScene_Destroy(&s_checkpointScene);
}

bool icFuzz_MakeCheckpointSeed(const char *workDir, uint8_t **data, size_t *size) {
    *data = NULL;
    *size = 0;
    if (!icFuzz_PrepareCheckpointWorld()) return false;
    int frames[4] = {0, 1, 2, 3};
    icReal times[4] = {0, 0.01, 0.02, 0.03};
    icRunCheckpoint run = {.frame = 3,
                           .solverSeconds = 0.001,
                           .volumeRatioMin = 0.99,
                           .volumeRatioMax = 1.01,
                           .sweepsTotal = 6,
                           .outputCount = 4,
                           .outputFrames = frames,
                           .outputTimes = times,
                           .rodVolumeRatioMin = 1,
                           .rodVolumeRatioMax = 1};
    char path[1200];
    snprintf(path, sizeof path, "%s/seed.ckpt", workDir);
    icDiagnostic diag = {0};
    if (icCheckpoint_Write(path, s_checkpointScene.world, &run, &diag) != IC_OK) return false;
    FILE *fp = fopen(path, "rb");
    if (!fp) return false;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    *data = malloc((size_t)n);
    *size = *data ? fread(*data, 1, (size_t)n, fp) : 0;
    fclose(fp);
    return *size == (size_t)n;
}

// The checksum of docs/reliability.md, written again here from the documented rule (so the
// harness also checks the docs): FNV-1a's xor and multiply per little-endian 64-bit word,
// then h ^= h >> 29.
static uint64_t documentedChecksum(const uint8_t *p, size_t size) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; --k) w = w << 8 | p[i + (size_t)k];
        h ^= w;
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

static void loadCheckpointFile(const char *path, icFuzzOutcome *out) {
    icWorld *world = s_checkpointScene.world;
    icRunCheckpoint run;
    out->result = icCheckpoint_Read(path, world, &run, &out->diag);
    checkFailure("checkpoint", out);
    if (out->result == IC_OK) {
        const icReal *x = icWorld_GetPositions(world), *v = icWorld_GetVelocities(world);
        for (int i = 0; i < 3 * icWorld_GetVertexCount(world); ++i)
            if (!isfinite(x[i]) || !isfinite(v[i])) violation("checkpoint", "a loaded state is not finite");
        for (int i = 0; i < run.outputCount; ++i)
            if (run.outputFrames[i] < 0 || run.outputFrames[i] > run.frame)
                violation("checkpoint", "a loaded run lists a frame past its own");
        icRunCheckpoint_Destroy(&run);
        // Step once from what was loaded: a loaded state must be one the solver can take.
        if (icWorld_Step(world, s_checkpointScene.dt, NULL) == IC_ERR_INVALID_ARGUMENT)
            violation("checkpoint", "a loaded state cannot be stepped");
    }
    icWorld_LoadState(world, s_checkpointStart);
}

static void runCheckpoint(const uint8_t *data, size_t size, const char *dir, icFuzzOutcome *out) {
    if (!icFuzz_PrepareCheckpointWorld()) return;
    char path[1200];
    if (!writeBytes(dir, "c.ckpt", data, size, path, sizeof path)) return;
    setBudget(size);
    loadCheckpointFile(path, out);
    checkMemory("checkpoint", out);
    if (size < 56 || size % 8 != 0 || memcmp(data, "ICCHKPT", 7) != 0) return;
    uint8_t *fixed = malloc(size);
    if (!fixed) return;
    memcpy(fixed, data, size);
    for (int k = 0; k < 8; ++k) fixed[16 + k] = (uint8_t)((uint64_t)size >> (8 * k));
    uint64_t sum = documentedChecksum(fixed, size - 8);
    for (int k = 0; k < 8; ++k) fixed[size - 8 + (size_t)k] = (uint8_t)(sum >> (8 * k));
    icFuzzOutcome second;
    memset(&second, 0, sizeof second);
    if (writeBytes(dir, "c.ckpt", fixed, size, path, sizeof path)) loadCheckpointFile(path, &second);
    free(fixed);
    // The first outcome is the input's own; a corrected twin that loads is worth knowing.
    if (out->result != IC_OK && second.result == IC_OK) out->result = IC_OK, out->diag = second.diag;
}

const icFuzzTarget icFuzz_Targets[] = {
    {"tetgen", runTetGen}, {"gmsh", runGmsh}, {"vtk", runVtk}, {"vtu", runVtu},
    {"medit", runMedit},   {"obj", runObj},   {"ply", runPly}, {"stl", runStl},
    {"off", runOff},       {"scene", runScene}, {"checkpoint", runCheckpoint},
    {"scene_run", icFuzz_RunSceneFrames},
};
const int icFuzz_TargetCount = (int)(sizeof icFuzz_Targets / sizeof icFuzz_Targets[0]);

const icFuzzTarget *icFuzz_Find(const char *name) {
    for (int i = 0; i < icFuzz_TargetCount; ++i)
        if (strcmp(icFuzz_Targets[i].name, name) == 0) return &icFuzz_Targets[i];
    return NULL;
}

