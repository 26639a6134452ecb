// SPDX-License-Identifier: MIT
// A checkpoint is validated as strictly as a scene: edited and re-checksummed (as an attacker
// or the checkpoint fuzzer would), positions of 1e300, a time of -1e300, an unterminated
// warning string, non-zero reserved bytes or a run block whose time is not its frame's are
// refused with their exact codes, and the world stays as it was.
#include "test.h"

#include "isochor/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *s_scene =
    "{\"dt\": 0.01, \"frames\": 6, \"solver\": {\"substeps\": 4},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2},\n"
    "   \"velocity\": [0.5, 0, 0]}],\n"
    " \"colliders\": [{\"plane\": {\"offset\": -0.12}}]}\n";

// The layout of docs/reliability.md: a 48-byte header, then STAT (16-byte section head and
// 40 bytes before the arrays), then HLTH; the checksum is the last word.
enum { STAT = 48 + 16, TIME = STAT + 16, SUBSTEP = STAT + 24, ARRAYS = STAT + 40 };

static uint64_t get64(const uint8_t *p) {
    uint64_t w = 0;
    for (int i = 7; i >= 0; --i) w = w << 8 | p[i];
    return w;
}

static void put64(uint8_t *p, uint64_t w) {
    for (int i = 0; i < 8; ++i) p[i] = (uint8_t)(w >> (8 * i));
}

static void putReal(uint8_t *p, double value) {
    uint64_t w;
    memcpy(&w, &value, 8);
    put64(p, w);
}

// The checksum of the docs, written independently of the library's.
static void rechecksum(uint8_t *data, size_t size) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 <= size - 8; i += 8) {
        h ^= get64(data + i);
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    put64(data + size - 8, h);
}

typedef struct Mutation {
    const char *name;
    size_t at;     // byte offset (ARRAYS-relative offsets are added below)
    double value;  // written as a real unless raw
    bool raw;      // write `word` instead, `repeat` times (0 = once)
    uint64_t word;
    int repeat;
    icResult code;
    const char *words;
} Mutation;

IC_TEST(reliability, checkpoint_values_are_validated_like_a_scene) {
    int64_t bytes = icGetByteCount();
    icScene a;
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString(s_scene, "ranges.json", ".", &a, &diag) == IC_OK);
    for (int i = 0; i < 5; ++i) IC_CHECK_RESULT(icWorld_Step(a.world, a.dt, NULL), IC_OK);
    void *data = NULL;
    size_t size = 0;
    IC_REQUIRE(icWorld_SaveCheckpoint(a.world, NULL, 0, &data, &size) == IC_OK);
    size_t nv = 3 * (size_t)icWorld_GetVertexCount(a.world);
    size_t nt = (size_t)icWorld_GetTetCount(a.world);
    size_t health = STAT + 40 + 8 * (3 * nv + 2 * nt) + 16;
    IC_REQUIRE(health + 272 + 8 == size);
    const Mutation cases[] = {
        {"position 1e300", ARRAYS + 8 * 4, 1e300, false, 0, 0, IC_ERR_BAD_VALUE,
         "checkpoint position of vertex 1 is 1e+300 m"},
        {"position -2e6", ARRAYS, -2e6, false, 0, 0, IC_ERR_BAD_VALUE, "beyond the +-"},
        {"velocity 1e300", ARRAYS + 8 * nv, 1e300, false, 0, 0, IC_ERR_BAD_VALUE,
         "checkpoint velocity of vertex 0 is 1e+300 m/s"},
        {"substep start 1e300", ARRAYS + 16 * nv + 8, 1e300, false, 0, 0, IC_ERR_BAD_VALUE,
         "start-of-substep position of vertex 0"},
        {"time -1e300", TIME, -1e300, false, 0, 0, IC_ERR_BAD_VALUE,
         "checkpoint time -1e+300 s is outside [0, "},
        {"time 1e300", TIME, 1e300, false, 0, 0, IC_ERR_BAD_VALUE, "checkpoint time 1e+300 s"},
        {"substep -1", SUBSTEP, -1, false, 0, 0, IC_ERR_BAD_VALUE, "checkpoint substep -1 s"},
        {"largest speed -1", health + 64, -1, false, 0, 0, IC_ERR_BAD_VALUE,
         "health figures are negative or not finite"},
        {"volume drift inf", health + 80, INFINITY, false, 0, 0, IC_ERR_BAD_VALUE,
         "health figures are negative or not finite"},
        {"unterminated warning", health + 112, 0, true, 0x4141414141414141ull, 20,
         IC_ERR_PARSE, "warning is not terminated within its 160 bytes"},
        {"control character", health + 112, 0, true, 0x0a41ull, 0, IC_ERR_PARSE,
         "warning holds a control character (byte 10 at 1)"},
        {"worst tet |J - 1| NaN", health + 96, NAN, false, 0, 0, IC_ERR_BAD_VALUE,
         "health figures are negative or not finite"},
        {"worst tet |J - 1| -1", health + 96, -1, false, 0, 0, IC_ERR_BAD_VALUE,
         "tet |J - 1| -1"},
        {"health reserved", health + 104, 0, true, 1, 0, IC_ERR_PARSE, "reserved word is not zero"},
        {"solver warnings 2^63", health + 88, 0, true, (uint64_t)1 << 63, 0, IC_ERR_PARSE,
         "negative or impossibly large count"},
        {"header flags", 36, 0, true, 1, 0, IC_ERR_PARSE, "flags or reserved bytes are not zero"},
        {"section reserved", 48, 0, true, (uint64_t)1 << 32 | get64((uint8_t *)data + 48), 0,
         IC_ERR_PARSE, "section 'STAT' has non-zero reserved or padding bytes"},
    };
    uint8_t *bad = malloc(size);
    IC_REQUIRE(bad);
    // The untouched file, re-checksummed by the test's own code, loads: the mutations below
    // are refused for their values, not for a checksum the test got wrong.
    memcpy(bad, data, size);
    rechecksum(bad, size);
    IC_CHECK(memcmp(bad, data, size) == 0);
    uint64_t before = icWorld_HashState(a.world);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        memcpy(bad, data, size);
        for (int k = 0; cases[i].raw && k < (cases[i].repeat ? cases[i].repeat : 1); ++k)
            put64(bad + cases[i].at + 8 * (size_t)k, cases[i].word);
        if (!cases[i].raw)
            putReal(bad + cases[i].at, cases[i].value);
        rechecksum(bad, size);
        memset(&diag, 0, sizeof diag);
        IC_CHECK_RESULT(icWorld_LoadCheckpoint(a.world, bad, size, NULL, NULL, &diag),
                        cases[i].code);
        IC_CHECK_MSG(strstr(diag.message, cases[i].words), "%s: message '%s' lacks '%s'",
                     cases[i].name, diag.message, cases[i].words);
        IC_CHECK_MSG(icWorld_HashState(a.world) == before, "%s: the world changed",
                     cases[i].name);
    }
    // A checkpoint from before the solver warnings and the worst tet were kept: a 12-word
    // HLTH (word 12 zero, the warning at 96) still loads, with both figures 0.
    uint8_t *old = malloc(size - 16);
    IC_REQUIRE(old);
    memcpy(old, data, health + 88);
    put64(old + health - 8, 256);
    put64(old + health + 88, 0);
    memcpy(old + health + 96, (const uint8_t *)data + health + 112, 160);
    put64(old + 16, size - 16);
    rechecksum(old, size - 16);
    memset(&diag, 0, sizeof diag);
    IC_CHECK_RESULT(icWorld_LoadCheckpoint(a.world, old, size - 16, NULL, NULL, &diag), IC_OK);
    IC_CHECK_MSG(diag.message[0] == 0, "%s", diag.message);
    IC_CHECK(icWorld_HashState(a.world) == before);
    IC_CHECK(icWorld_GetHealth(a.world).maxTetJMinus1Seen == 0);
    IC_CHECK_INT((int)icWorld_GetHealth(a.world).steps, 5);
    free(old);
    // Values inside the ranges still load: a far but reachable position, a long time.
    memcpy(bad, data, size);
    putReal(bad + ARRAYS, 0.9e6);
    putReal(bad + TIME, 3600.0 * 1e6);
    rechecksum(bad, size);
    IC_CHECK_RESULT(icWorld_LoadCheckpoint(a.world, bad, size, NULL, NULL, &diag), IC_OK);
    free(bad);
    icFree(data);
    icScene_Destroy(&a);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Runs the scene's frames (from a checkpoint when resume is set), writing one at the end.
static icResult runScene(int frames, const char *checkpoint, const char *resume,
                         icDiagnostic *diag) {
    return icTest_RunSceneText(s_scene, "ranges.json", frames, checkpoint, resume, NULL, NULL,
                               diag);
}

static void writeFile(const char *path, const uint8_t *data, size_t size) {
    FILE *fp = fopen(path, "wb");
    if (!fp) return;
    fwrite(data, 1, size, fp);
    fclose(fp);
}

// The run block (USER section) and the clock of a scene run's checkpoint.
IC_TEST(reliability, checkpoint_run_block_and_clock_are_validated) {
    const char *dir = icTest_TempDir();
    char path[1200], edited[1200];
    IC_FORMAT(path, "%s/ranges.ckpt", dir);
    IC_FORMAT(edited, "%s/ranges_edited.ckpt", dir);
    icDiagnostic diag = {0};
    IC_REQUIRE(runScene(6, path, NULL, &diag) == IC_OK);
    size_t size = 0;
    uint8_t *data = (uint8_t *)icTest_ReadFile(path, &size);
    IC_REQUIRE(data && size > 48);
    size_t state = get64(data + 48 + 8), user = 48 + 16 + state + 16 + 272;
    IC_REQUIRE(memcmp(data + user, "USER", 4) == 0);
    size_t block = user + 16; // u32 version, u32 0, i64 frame, f64 seconds, f64 min, f64 max ...
    IC_CHECK_INT(get64(data + block + 8), 6);
    uint8_t *bad = malloc(size);
    IC_REQUIRE(bad);
    static const struct {
        const char *name;
        int field; // 0: state time, 1: solver seconds, 2: min V/V0 above max
        double value;
        icResult code;
        const char *words;
    } cases[] = {
        {"time of another frame", 0, 0.5, IC_ERR_BAD_VALUE,
         "checkpoint time 0.5 s is not that of its frame 6 (6 x dt 0.01 s = 0.06 s)"},
        {"negative solver time", 1, -1, IC_ERR_BAD_VALUE, "run block figures are impossible"},
        {"min above max", 2, 1e6, IC_ERR_BAD_VALUE, "run block figures are impossible"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        memcpy(bad, data, size);
        size_t at = cases[i].field == 0 ? (size_t)TIME : block + 8 + 8 * (size_t)cases[i].field;
        putReal(bad + at, cases[i].value);
        rechecksum(bad, size);
        writeFile(edited, bad, size);
        memset(&diag, 0, sizeof diag);
        IC_CHECK_RESULT(runScene(6, NULL, edited, &diag), cases[i].code);
        IC_CHECK_MSG(strstr(diag.message, cases[i].words), "%s: message '%s' lacks '%s'",
                     cases[i].name, diag.message, cases[i].words);
    }
    // Unedited, it resumes (and has nothing left to run).
    memset(&diag, 0, sizeof diag);
    IC_CHECK_MSG(runScene(6, NULL, path, &diag) == IC_OK, "%s", diag.message);
    free(bad);
    free(data);
    remove(path);
    remove(edited);
}
