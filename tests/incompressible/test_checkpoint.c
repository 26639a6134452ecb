// SPDX-License-Identifier: MIT
// Checkpoints of IC_SOLVER_INCOMPRESSIBLE worlds: a restart in contact continues bit for bit
// (the INCP section carries the solver's contact memory), bad INCP sections are refused with
// their exact codes, and `isochor run --checkpoint-every / --resume` on the sphere drop scene
// gives the files of an uninterrupted run.
#include "incomp_testing.h"

#include "incompressible/incompressible_checkpoint.h"
#include "isochor/io.h"

#include <stdio.h>
#include <sys/wait.h>

#define CK_DT (1.0 / 240)

// A 0.1 m corotated sphere (mu = 2e4 Pa) above the ground plane y = 0. From 0.16 m it lands
// near step 27, so that it is in contact at step 30. With contactInForceSolve the last step's
// contact normals also filter the next step's first force solve.
static icWorld *sphereWorldEx(bool contactInForceSolve, bool warmStart) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver = IC_SOLVER_INCOMPRESSIBLE;
    wd.gravity = icVec3_Make(0, -9.81, 0);
    icWorld *w = icCreateWorld(&wd);
    if (!w) return NULL;
    icTetMesh mesh = {0};
    IC_CHECK_RESULT(icGenerateSphere(&mesh, 0.1, 6, 6), IC_OK);
    icSoftBodyDef bd = icDefaultSoftBodyDef();
    bd.model = IC_MATERIAL_COROTATED;
    bd.poissonRatio = 0.5;
    bd.youngsModulus = 6e4;
    bd.translation = icVec3_Make(0, 0.16, 0);
    IC_CHECK_RESULT(icWorld_CreateSoftBody(w, &mesh, &bd, NULL, NULL), IC_OK);
    icTetMesh_Destroy(&mesh);
    icPlaneDef pd = icDefaultPlaneDef();
    IC_CHECK_RESULT(icWorld_AddPlane(w, &pd), IC_OK);
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.contactInForceSolve = contactInForceSolve;
    d.warmStart = warmStart;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(w, &d), IC_OK);
    return w;
}

static icWorld *sphereWorld(void) { return sphereWorldEx(false, true); }

static void stepWorld(icWorld *w, int steps) {
    for (int i = 0; i < steps; ++i) IC_CHECK_RESULT(icWorld_Step(w, CK_DT, NULL), IC_OK);
}

static bool sameReals(const icReal *a, const icReal *b, int count) {
    return memcmp(a, b, sizeof(icReal) * (size_t)count) == 0;
}

static bool sameMotion(const icWorld *a, const icWorld *b) {
    int n = 3 * icWorld_GetVertexCount(a);
    return n == 3 * icWorld_GetVertexCount(b) &&
           sameReals(icWorld_GetPositions(a), icWorld_GetPositions(b), n) &&
           sameReals(icWorld_GetVelocities(a), icWorld_GetVelocities(b), n);
}

// The checksum of docs/reliability.md, to make forged files reach the section checks.
static void fixChecksum(uint8_t *data, size_t size) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 < size; i += 8) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; --k) w = w << 8 | data[i + (size_t)k];
        h ^= w;
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (int k = 0; k < 8; ++k) data[size - 8 + (size_t)k] = (uint8_t)(h >> (8 * k));
}

static void put64At(uint8_t *p, uint64_t v) {
    for (int k = 0; k < 8; ++k) p[k] = (uint8_t)(v >> (8 * k));
}

// Offset of a section's header (tag), or 0 when the file has none.
static size_t findSection(const uint8_t *data, size_t size, const char *tag) {
    size_t at = 48;
    while (at + 16 <= size - 8) {
        if (memcmp(data + at, tag, 4) == 0) return at;
        uint64_t bytes = 0;
        for (int k = 7; k >= 0; --k) bytes = bytes << 8 | data[at + 8 + (size_t)k];
        at += 16 + ((bytes + 7) & ~(uint64_t)7);
    }
    return 0;
}

// 60 steps straight, against checkpoints taken at step 20 (falling; the impact comes after
// the restart) and at step 30 (in contact), each loaded into a fresh world that runs to 60.
// Returns whether a restart from the state alone (no INCP) also continued bit for bit.
static bool restartIsBitIdentical(bool contactInForceSolve, bool warmStart) {
    icWorld *a = sphereWorldEx(contactInForceSolve, warmStart);
    if (!a) {
        IC_CHECK(a != NULL);
        return false;
    }
    int n = icWorld_GetVertexCount(a);
    const int at[2] = {20, 30};
    void *data[2] = {NULL, NULL};
    size_t size[2] = {0, 0};
    icReal *pressureAt30 = calloc((size_t)n, sizeof(icReal));
    int done = 0;
    for (int c = 0; c < 2; ++c) {
        stepWorld(a, at[c] - done);
        done = at[c];
        IC_CHECK_RESULT(icWorld_SaveCheckpoint(a, NULL, 0, &data[c], &size[c]), IC_OK);
    }
    // The second checkpoint is taken in contact: its INCP section holds contact normals.
    int contacts = icWorld_GetIncompressibleStats(a).objectContacts;
    IC_CHECK_MSG(contacts > 0, "no contact at step 30 (%d)", contacts);
    IC_CHECK(icWorld_GetVertexPressure(a, pressureAt30));
    stepWorld(a, 60 - done);

    for (int c = 0; c < 2; ++c) {
        icWorld *b = sphereWorldEx(contactInForceSolve, warmStart);
        icDiagnostic diag = {0};
        IC_CHECK_RESULT(icWorld_LoadCheckpoint(b, data[c], size[c], NULL, NULL, &diag), IC_OK);
        if (c == 1) {
            // The last pressures come back too (frame output reads them).
            icReal *p = calloc((size_t)n, sizeof(icReal));
            IC_CHECK(icWorld_GetVertexPressure(b, p));
            IC_CHECK(sameReals(p, pressureAt30, n));
            free(p);
        }
        stepWorld(b, 60 - at[c]);
        IC_CHECK_MSG(sameMotion(a, b), "restart at step %d: the motion differs", at[c]);
        IC_CHECK_MSG(icWorld_HashState(a) == icWorld_HashState(b),
                     "restart at step %d: state %016llx != %016llx", at[c],
                     (unsigned long long)icWorld_HashState(b),
                     (unsigned long long)icWorld_HashState(a));
        icDestroyWorld(b);
    }

    // The state alone at step 30 (what a checkpoint held before INCP), in a fresh world.
    icWorld *b = sphereWorldEx(contactInForceSolve, warmStart),
            *probe = sphereWorldEx(contactInForceSolve, warmStart);
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icWorld_LoadCheckpoint(probe, data[1], size[1], NULL, NULL, &diag), IC_OK);
    icState *state = icWorld_CreateState(probe);
    icWorld_LoadState(b, state);
    icDestroyState(state);
    icDestroyWorld(probe);
    stepWorld(b, 30);
    bool stateAloneSuffices = sameMotion(a, b);
    icDestroyWorld(b);

    free(pressureAt30);
    for (int c = 0; c < 2; ++c) icFree(data[c]);
    icDestroyWorld(a);
    return stateAloneSuffices;
}

IC_TEST(incomp, checkpoint_restart_is_bit_identical) {
    int64_t bytes = icGetByteCount();
    // The plain sphere drop without warm starts: the remembered normals only keep resting
    // vertices that are not predicted to hit constrained, which this drop does not need
    // (measured: the state alone restarts it exactly at every 5th step up to 120); the restart
    // must be exact all the same.
    IC_CHECK_MSG(restartIsBitIdentical(false, false),
                 "the state alone no longer restarts the cold drop: the checks below are void");
    // With them (the default) the first eq. 1 solve starts from the last position pressure, so
    // without INCP the restart goes another way; with it, the same bits.
    IC_CHECK_MSG(!restartIsBitIdentical(false, true),
                 "the position pressure made no difference: the test is void");
    // Contacts in the force solve: the last step's normals filter the next step, likewise.
    IC_CHECK_MSG(!restartIsBitIdentical(true, false),
                 "the contact memory made no difference: the test is void");
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Vertices with a remembered contact normal; memory gets the whole memory (5n reals).
static int contactMemory(const icWorld *w, icReal *memory) {
    int n = icWorld_GetVertexCount(w), count = 0;
    icIncompressible_GetMemory(w, memory);
    for (int v = 0; v < n; ++v)
        count += memory[3 * v] != 0 || memory[3 * v + 1] != 0 || memory[3 * v + 2] != 0;
    return count;
}

// A health stop (IC_HEALTH_STOP) restores the state and the solver's contact memory: the steps
// after a stop are those the world would have taken without the stopped one. The stop falls on
// step 29, where the sphere's contacts grow from 5 to 19 vertices; with the contacts in the
// force solve the remembered normals change the next step, so keeping the failed step's
// contacts would diverge.
IC_TEST(incomp, health_stop_restores_the_contact_memory) {
    int64_t bytes = icGetByteCount();
    icWorld *a = sphereWorldEx(true, true), *b = sphereWorldEx(true, true);
    IC_REQUIRE(a && b);
    int n = icWorld_GetVertexCount(a);
    size_t reals = IC_INCOMPRESSIBLE_MEMORY_REALS * (size_t)n;
    icReal *memA = malloc(sizeof(icReal) * reals);
    icReal *memB = malloc(sizeof(icReal) * reals);
    IC_REQUIRE(memA && memB);
    stepWorld(a, 28);
    stepWorld(b, 28);
    int before = contactMemory(b, memB);
    icHealthDef stop = icDefaultHealthDef();
    stop.policy = IC_HEALTH_STOP;
    stop.maxSpeed = 1e-9; // every step warns, so this one stops
    IC_CHECK_RESULT(icWorld_SetHealthDef(a, &stop), IC_OK);
    IC_CHECK_RESULT(icWorld_Step(a, CK_DT, NULL), IC_ERR_NUMERICAL);
    IC_CHECK_INT(icWorld_GetHealth(a).stops, 1);
    IC_CHECK(sameMotion(a, b));
    IC_CHECK_INT(contactMemory(a, memA), before);
    IC_CHECK(sameReals(memA, memB, (int)reals));
    icHealthDef off = icDefaultHealthDef();
    off.policy = IC_HEALTH_OFF;
    IC_CHECK_RESULT(icWorld_SetHealthDef(a, &off), IC_OK);
    IC_CHECK_RESULT(icWorld_SetHealthDef(b, &off), IC_OK);
    for (int i = 0; i < 3; ++i) {
        IC_CHECK_RESULT(icWorld_Step(a, CK_DT, NULL), IC_OK);
        IC_CHECK_RESULT(icWorld_Step(b, CK_DT, NULL), IC_OK);
        IC_CHECK_MSG(sameMotion(a, b), "step %d after the stop differs", i + 1);
    }
    IC_CHECK_MSG(contactMemory(b, memB) > before, "no new contacts: the test is void");
    free(memA);
    free(memB);
    icDestroyWorld(a);
    icDestroyWorld(b);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// The INCP section sits after HLTH: the vertex count, the contact normals, the two pressures.
IC_TEST(incomp, checkpoint_layout_has_the_incp_section) {
    icWorld *a = sphereWorld();
    IC_REQUIRE(a);
    stepWorld(a, 30);
    int n = icWorld_GetVertexCount(a), nt = icWorld_GetTetCount(a);
    void *data = NULL;
    size_t size = 0;
    IC_REQUIRE(icWorld_SaveCheckpoint(a, "u", 1, &data, &size) == IC_OK);
    const uint8_t *p = data;
    size_t state = 40 + 8 * (9 * (size_t)n + 2 * (size_t)nt);
    size_t incp = 8 + 40 * (size_t)n;
    IC_CHECK_INT(size, 48 + 16 + state + 16 + 272 + 16 + incp + 16 + 8 + 8);
    IC_CHECK_INT(p[8], 1);  // the version stays 1: older readers refuse INCP as unknown
    IC_CHECK_INT(p[32], 4); // STAT, HLTH, INCP, USER
    size_t s = 48 + 16 + state + 16 + 272;
    IC_CHECK(memcmp(p + s, "INCP", 4) == 0);
    uint64_t payload = 0, count = 0;
    for (int k = 7; k >= 0; --k) payload = payload << 8 | p[s + 8 + (size_t)k];
    for (int k = 7; k >= 0; --k) count = count << 8 | p[s + 16 + (size_t)k];
    IC_CHECK_INT(payload, incp);
    IC_CHECK_INT(count, n);
    IC_CHECK(memcmp(p + s + 16 + incp, "USER", 4) == 0);
    // Contact normals: zero or the plane's (0, 1, 0); at least one contact. Then pressures.
    int contacts = 0;
    bool normalsOk = true;
    for (int v = 0; v < n; ++v) {
        icReal nrm[3];
        memcpy(nrm, p + s + 24 + 24 * (size_t)v, sizeof nrm); // little-endian host
        bool zero = nrm[0] == 0 && nrm[1] == 0 && nrm[2] == 0;
        bool up = nrm[0] == 0 && nrm[1] == 1 && nrm[2] == 0;
        normalsOk = normalsOk && (zero || up);
        contacts += up;
    }
    IC_CHECK(normalsOk);
    IC_CHECK(contacts > 0);
    icReal *pressure = calloc((size_t)n, sizeof(icReal));
    IC_CHECK(icWorld_GetVertexPressure(a, pressure));
    IC_CHECK(memcmp(p + s + 24 + 24 * (size_t)n, pressure, sizeof(icReal) * (size_t)n) == 0);
    // The position correction's pressures: the resting sphere's bottom pushes on the ground.
    int pushed = 0;
    for (int v = 0; v < n; ++v) {
        icReal pv;
        memcpy(&pv, p + s + 24 + 32 * (size_t)n + 8 * (size_t)v, sizeof pv);
        pushed += pv > 0;
    }
    IC_CHECK_MSG(pushed > 0, "no position pressure in the checkpoint");
    free(pressure);
    icFree(data);

    // A world that has not stepped yet saves zeros.
    icWorld *fresh = sphereWorld();
    IC_REQUIRE(fresh);
    IC_REQUIRE(icWorld_SaveCheckpoint(fresh, NULL, 0, &data, &size) == IC_OK);
    p = data;
    bool zeros = true;
    for (size_t i = s + 24; i < s + 16 + incp; ++i) zeros = zeros && p[i] == 0;
    IC_CHECK(zeros);
    icFree(data);
    icDestroyWorld(fresh);
    icDestroyWorld(a);
}

// Loads data into w and checks the exact code, words of the message, and that neither the
// state nor the solver's memory changed.
static void expectRefused(icWorld *w, const uint8_t *data, size_t size, icResult code,
                          const char *words, const char *what) {
    int n = icWorld_GetVertexCount(w);
    icReal *before = calloc((size_t)n, sizeof(icReal)), *after = calloc((size_t)n, sizeof(icReal));
    icWorld_GetVertexPressure(w, before);
    uint64_t hash = icWorld_HashState(w);
    icDiagnostic diag = {0};
    IC_CHECK_MSG(icWorld_LoadCheckpoint(w, data, size, NULL, NULL, &diag) == code,
                 "%s: got %s (%s), expected %s", what, icResult_Name(diag.code), diag.message,
                 icResult_Name(code));
    IC_CHECK_MSG(strstr(diag.message, words) != NULL, "%s: message '%s' lacks '%s'", what,
                 diag.message, words);
    IC_CHECK_MSG(icWorld_HashState(w) == hash, "%s: the state changed", what);
    icWorld_GetVertexPressure(w, after);
    IC_CHECK_MSG(sameReals(before, after, n), "%s: the solver's memory changed", what);
    free(before);
    free(after);
}

IC_TEST(incomp, checkpoint_bad_incp_is_refused_whole) {
    int64_t bytes = icGetByteCount();
    icWorld *a = sphereWorld(), *b = sphereWorld();
    IC_REQUIRE(a && b);
    stepWorld(a, 30);
    stepWorld(b, 10); // b has a memory of its own that a refused load must keep
    int n = icWorld_GetVertexCount(a);
    void *saved = NULL;
    size_t size = 0;
    IC_REQUIRE(icWorld_SaveCheckpoint(a, NULL, 0, &saved, &size) == IC_OK);
    const uint8_t *good = saved;
    size_t s = findSection(good, size, "INCP");
    IC_REQUIRE(s > 0 && s + 16 + 8 + 40 * (size_t)n + 8 == size);
    uint8_t *bad = malloc(size + 64);

    // Truncated anywhere (in the INCP section too): IC_ERR_TRUNCATED.
    for (size_t cut = 0; cut < size; cut += (cut < 64 ? 7 : 211))
        expectRefused(b, good, cut, IC_ERR_TRUNCATED, "truncated", "truncated");
    expectRefused(b, good, s + 100, IC_ERR_TRUNCATED, "truncated", "cut in INCP");
    // A flipped bit in the normals or the two pressures: the checksum.
    for (size_t i = s + 24; i < size - 8; i += 8 * (size_t)n + 3) {
        memcpy(bad, good, size);
        bad[i] ^= 0x04;
        expectRefused(b, bad, size, IC_ERR_PARSE, "checksum", "flipped");
    }
    // Forged with the checksum made right: a vertex count of another world.
    memcpy(bad, good, size);
    put64At(bad + s + 16, (uint64_t)n + 1);
    fixChecksum(bad, size);
    expectRefused(b, bad, size, IC_ERR_BAD_VALUE, "INCP section holds", "vertex count");
    // A payload one vertex short (the file shortened to match): IC_ERR_PARSE.
    memcpy(bad, good, size);
    put64At(bad + s + 8, 8 + 40 * ((uint64_t)n - 1));
    put64At(bad + 16, size - 40);
    memmove(bad + size - 48, bad + size - 8, 8);
    fixChecksum(bad, size - 40);
    expectRefused(b, bad, size - 40, IC_ERR_PARSE, "INCP section is", "short payload");
    // The layout before the position pressures were kept (4 reals a vertex): IC_ERR_PARSE.
    memcpy(bad, good, size);
    put64At(bad + s + 8, 8 + 32 * (uint64_t)n);
    put64At(bad + 16, size - 8 * (size_t)n);
    memmove(bad + size - 8 - 8 * (size_t)n, bad + size - 8, 8);
    fixChecksum(bad, size - 8 * (size_t)n);
    expectRefused(b, bad, size - 8 * (size_t)n, IC_ERR_PARSE, "expected", "4 reals a vertex");
    // A payload too short to hold its vertex count.
    memcpy(bad, good, s + 16);
    put64At(bad + s + 8, 0);
    put64At(bad + 16, s + 16 + 8);
    fixChecksum(bad, s + 16 + 8);
    expectRefused(b, bad, s + 16 + 8, IC_ERR_PARSE, "too short", "empty payload");
    // NaN in a normal and infinity in a (position) pressure: IC_ERR_NOT_FINITE.
    const icReal nan = NAN, inf = INFINITY;
    memcpy(bad, good, size);
    memcpy(bad + s + 24 + 8, &nan, 8);
    fixChecksum(bad, size);
    expectRefused(b, bad, size, IC_ERR_NOT_FINITE, "NaN", "NaN normal");
    memcpy(bad, good, size);
    memcpy(bad + size - 16, &inf, 8);
    fixChecksum(bad, size);
    expectRefused(b, bad, size, IC_ERR_NOT_FINITE, "NaN", "infinite pressure");
    // INCP left out (section count and size made right): required for this solver.
    memcpy(bad, good, s);
    bad[32] = 2;
    put64At(bad + 16, s + 8);
    fixChecksum(bad, s + 8);
    expectRefused(b, bad, s + 8, IC_ERR_PARSE, "lacks its INCP", "no INCP");
    // INCP twice.
    size_t section = size - 8 - s;
    uint8_t *twice = malloc(size + section);
    memcpy(twice, good, size - 8);
    memcpy(twice + size - 8, good + s, section);
    twice[32] = 4;
    put64At(twice + 16, size + section);
    fixChecksum(twice, size + section);
    expectRefused(b, twice, size + section, IC_ERR_PARSE, "twice", "INCP twice");
    free(twice);

    // An XPBD world refuses a checkpoint carrying INCP: its model hash already differs
    // (solver), and with the hash forged too the section itself is refused.
    icWorldDef wd = icDefaultWorldDef();
    icWorld *x = icCreateWorld(&wd);
    IC_REQUIRE(x);
    icTetMesh mesh = {0};
    IC_REQUIRE(icGenerateSphere(&mesh, 0.1, 6, 6) == IC_OK);
    IC_CHECK_RESULT(icWorld_CreateSoftBody(x, &mesh, NULL, NULL, NULL), IC_OK);
    icTetMesh_Destroy(&mesh);
    expectRefused(x, good, size, IC_ERR_BAD_VALUE, "another model", "XPBD world");
    memcpy(bad, good, size);
    put64At(bad + 24, icWorld_HashModel(x));
    fixChecksum(bad, size);
    expectRefused(x, bad, size, IC_ERR_PARSE, "INCP", "XPBD world, forged hash");
    icDestroyWorld(x);

    // Other incompressible settings are another model.
    icWorld *other = sphereWorld();
    IC_REQUIRE(other);
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 0.01;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(other, &d), IC_OK);
    expectRefused(other, good, size, IC_ERR_BAD_VALUE, "another model", "other settings");
    d = icDefaultIncompressibleDef();
    d.warmStart = false;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(other, &d), IC_OK);
    expectRefused(other, good, size, IC_ERR_BAD_VALUE, "another model", "cold starts");
    icDestroyWorld(other);

    // So is a world with a moving plane the writer did not have.
    icWorld *plane = sphereWorld();
    IC_REQUIRE(plane);
    uint64_t without = icWorld_HashModel(plane);
    icMovingPlaneDef mp = icDefaultMovingPlaneDef();
    mp.normal = icVec3_Make(0, -1, 0);
    mp.offset = -0.5;
    IC_CHECK_RESULT(icWorld_AddMovingPlane(plane, &mp), IC_OK);
    IC_CHECK(icWorld_HashModel(plane) != without);
    expectRefused(plane, good, size, IC_ERR_BAD_VALUE, "another model", "moving plane");
    icDestroyWorld(plane);

    // After all that the good one loads.
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icWorld_LoadCheckpoint(b, good, size, NULL, NULL, &diag), IC_OK);
    IC_CHECK(icWorld_HashState(b) == icWorld_HashState(a));
    free(bad);
    icFree(saved);
    icDestroyWorld(a);
    icDestroyWorld(b);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// ---------------------------------------------------------------------------------------
// The CLI on scenes/incompressible/sphere_drop.json, started 0.15 m up instead of 0.85 m (to
// keep the test short): the sphere lands near frame 24, so the checkpoint at frame 30 is taken
// in contact.

static int runCli(const char *dir, const char *args) {
    char command[4000];
    IC_FORMAT(command, "cd '%s' && '%s' %s > /dev/null 2> /dev/null", dir, IC_CLI_PATH, args);
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

IC_TEST(incomp, cli_resume_sphere_drop) {
    const char *dir = icTest_TempDir();
    char *scene =
        icTest_ReadFile(icTest_SourcePath("scenes/incompressible/sphere_drop.json"), NULL);
    IC_REQUIRE(scene);
    char *height = strstr(scene, "0.85,");
    IC_REQUIRE(height && !strstr(height + 1, "0.85,"));
    memcpy(height, "0.15,", 5);
    char a[1300];
    IC_FORMAT(a, "%s/sphere_drop.json", dir);
    FILE *fp = fopen(a, "wb");
    IC_REQUIRE(fp);
    fputs(scene, fp);
    fclose(fp);
    free(scene);

    IC_REQUIRE(
        runCli(dir, "run sphere_drop.json --quiet --frames 40 --out full --stats full.json") == 0);
    IC_REQUIRE(
        runCli(dir, "run sphere_drop.json --quiet --frames 30 --out part --checkpoint-every 30") ==
        0);
    // The checkpoint holds contacts: some normal in its INCP section is not zero.
    IC_FORMAT(a, "%s/part/sphere_drop.ckpt", dir);
    size_t size = 0;
    char *ckpt = icTest_ReadFile(a, &size);
    IC_REQUIRE(ckpt);
    size_t s = findSection((const uint8_t *)ckpt, size, "INCP");
    IC_CHECK(s > 0);
    uint64_t n = 0;
    for (int k = 7; k >= 0 && s > 0; --k) n = n << 8 | (uint8_t)ckpt[s + 16 + (size_t)k];
    int contacts = 0;
    for (uint64_t v = 0; s > 0 && n > 0 && s + 24 + 24 * n <= size && v < n; ++v) {
        icReal up;
        memcpy(&up, ckpt + s + 24 + 24 * v + 8, sizeof up); // little-endian host
        contacts += up != 0;
    }
    IC_CHECK_MSG(contacts > 0, "no contact in the checkpoint at frame 30");
    free(ckpt);
    IC_REQUIRE(runCli(dir, "run sphere_drop.json --quiet --frames 40 --out part --resume "
                           "part/sphere_drop.ckpt --stats part.json") == 0);
    const char *files[] = {"frame_00020.vtu", "frame_00030.vtu", "frame_00040.vtu",
                           "sphere_drop.pvd"};
    icTest_CheckResumedRun(dir, files, (int)(sizeof files / sizeof files[0]));
}

// ring_error_floor changes the trajectory, so a checkpoint made under one floor is refused by a
// world with another; the default folds nothing into the model hash, so checkpoints written
// before the key existed (all at the default) still load.
IC_TEST(incomp, ring_error_floor_in_the_model_hash) {
    icWorld *a = sphereWorld(), *b = sphereWorld();
    IC_REQUIRE(a && b);
    stepWorld(a, 3);
    void *data = NULL;
    size_t size = 0;
    IC_CHECK_RESULT(icWorld_SaveCheckpoint(a, NULL, 0, &data, &size), IC_OK);
    icIncompressibleDef d = icWorld_GetIncompressibleDef(b);
    for (int i = 0; i < 3; ++i) {
        static const icReal floors[3] = {0, 0.25, 0.5};
        d.ringErrorFloor = floors[i];
        IC_CHECK_RESULT(icWorld_SetIncompressibleDef(b, &d), IC_OK);
        bool same = floors[i] == icDefaultIncompressibleDef().ringErrorFloor;
        IC_CHECK_MSG((icWorld_HashModel(b) == icWorld_HashModel(a)) == same, "floor %g", floors[i]);
        icDiagnostic diag = {0};
        IC_CHECK_RESULT(icWorld_LoadCheckpoint(b, data, size, NULL, NULL, &diag),
                        same ? IC_OK : IC_ERR_BAD_VALUE);
    }
    d.ringErrorFloor = -1;
    IC_CHECK_RESULT(icWorld_SetIncompressibleDef(b, &d), IC_ERR_BAD_VALUE);
    icFree(data);
    icDestroyWorld(a);
    icDestroyWorld(b);
}

// Two tori, the upper one thrown onto the lower, with self contact: the proximity pairs ask
// for the contact system on the first step, which must not change the model hash, so a run
// checkpointed half way resumes (it was refused as "made from another model") and ends with
// the bits of the uninterrupted run. Without self contact the bits differ: the pairs act.
static const char *s_toriScene =
    "{\"dt\": 0.0041667, \"frames\": 24,\n"
    " \"solver\": {\"type\": \"incompressible\", \"recovery_time\": 0.008333,\n"
    "            \"self_contact\": %s, \"proximity\": 0.004, \"max_step_motion\": 0.15},\n"
    " \"colliders\": [{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0, \"friction\": 0.3}}],\n"
    " \"bodies\": [\n"
    "  {\"mesh\": {\"generate\": \"torus\", \"major_radius\": 0.08, \"minor_radius\": 0.03,\n"
    "            \"cells\": 8, \"split\": 6},\n"
    "   \"material\": {\"model\": \"corotated\", \"youngs_modulus\": 60000, \"poisson_ratio\": 0.5},\n"
    "   \"translate\": [0, 0.04, 0]},\n"
    "  {\"mesh\": {\"generate\": \"torus\", \"major_radius\": 0.08, \"minor_radius\": 0.03,\n"
    "            \"cells\": 8, \"split\": 6},\n"
    "   \"material\": {\"model\": \"corotated\", \"youngs_modulus\": 60000, \"poisson_ratio\": 0.5},\n"
    "   \"translate\": [0.05, 0.11, 0], \"velocity\": [0, -1, 0]}]}\n";

// The state hash after `frames` frames, checkpointing at the end or resuming; 0 on failure.
static uint64_t toriHash(bool selfContact, int frames, const char *checkpoint,
                         const char *resume) {
    char text[2000];
    IC_FORMAT(text, s_toriScene, selfContact ? "true" : "false");
    icRunSummary summary;
    uint64_t hash = 0;
    icDiagnostic diag = {0};
    icResult r =
        icTest_RunSceneText(text, "tori", frames, checkpoint, resume, &summary, &hash, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s", diag.message);
    if (r == IC_OK) IC_CHECK_INT(summary.health.warnings, 0);
    return hash;
}

IC_TEST(incomp, self_contact_checkpoint_resumes_bit_identically) {
    char path[1300];
    IC_FORMAT(path, "%s/tori.ckpt", icTest_TempDir());
    uint64_t straight = toriHash(true, 24, NULL, NULL);
    IC_REQUIRE(straight != 0);
    IC_REQUIRE(toriHash(true, 12, path, NULL) != 0);
    uint64_t resumed = toriHash(true, 24, NULL, path);
    IC_CHECK_MSG(resumed == straight, "resumed %016llx != straight %016llx",
                 (unsigned long long)resumed, (unsigned long long)straight);
    IC_CHECK(toriHash(false, 24, NULL, NULL) != straight);
}
