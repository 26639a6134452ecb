// SPDX-License-Identifier: MIT
// A rod world's state as bytes (icRodWorld_SaveState / LoadState): a world built afresh and
// given the bytes continues with the bits of the world that wrote them; bad bytes are refused
// with their exact codes and leave the world as it was.
#include "test.h"

#include <stdlib.h>
#include <string.h>

// Two octopi dropped onto the ground beside each other: pills collide with the plane and
// with each other, bundles keep their warm starts, frames turn.
static icRodWorld *octopi(int count) {
    icRodWorld *w = icCreateRodWorld(NULL);
    if (!w) return NULL;
    for (int i = 0; i < count; ++i)
        IC_CHECK_RESULT(icRodWorld_AddOctopus(w, icVec3_Make(0.25 * i, 0.4 + 0.1 * i, 0), 1, NULL,
                                              NULL),
                        IC_OK);
    icRodPlaneDef plane = icDefaultRodPlaneDef();
    IC_CHECK_RESULT(icRodWorld_AddPlane(w, &plane), IC_OK);
    return w;
}

static void stepRods(icRodWorld *w, int steps) {
    for (int i = 0; i < steps; ++i) IC_CHECK_RESULT(icRodWorld_Step(w, 1.0 / 60, NULL), IC_OK);
}

IC_TEST(rod, state_bytes_restart_is_bit_identical) {
    int64_t bytes = icGetByteCount();
    icRodWorld *a = octopi(2), *b = octopi(2);
    IC_REQUIRE(a && b);
    IC_CHECK(icRodWorld_HashModel(a) == icRodWorld_HashModel(b));
    stepRods(a, 20);
    size_t size = icRodWorld_GetStateSize(a);
    uint8_t *state = malloc(size);
    IC_REQUIRE(state);
    IC_CHECK_RESULT(icRodWorld_SaveState(a, state, size), IC_OK);
    IC_CHECK_RESULT(icRodWorld_SaveState(a, state, size - 8), IC_ERR_INVALID_ARGUMENT);
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icRodWorld_LoadState(b, state, size, &diag), IC_OK);
    IC_CHECK(icRodWorld_HashState(a) == icRodWorld_HashState(b));
    IC_CHECK(icRodWorld_GetTime(b) == icRodWorld_GetTime(a));
    stepRods(a, 20);
    stepRods(b, 20);
    IC_CHECK_MSG(icRodWorld_HashState(a) == icRodWorld_HashState(b),
                 "restarted rods drifted: %016llx != %016llx",
                 (unsigned long long)icRodWorld_HashState(b),
                 (unsigned long long)icRodWorld_HashState(a));
    free(state);
    icDestroyRodWorld(a);
    icDestroyRodWorld(b);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Loads a copy of good with one real (index counted from the payload after the 7-word header)
// or header word replaced; checks the code and that the world did not change.
static void expectRefused(icRodWorld *w, const uint8_t *good, size_t size, size_t at,
                          double value, bool word, icResult code, const char *why) {
    uint8_t *bad = malloc(size);
    IC_REQUIRE(bad);
    memcpy(bad, good, size);
    if (word) {
        uint64_t u = (uint64_t)value;
        for (int k = 0; k < 8; ++k) bad[at + (size_t)k] = (uint8_t)(u >> (8 * k));
    } else {
        memcpy(bad + at, &value, 8); // little-endian host
    }
    uint64_t before = icRodWorld_HashState(w);
    icDiagnostic diag = {0};
    icResult r = icRodWorld_LoadState(w, bad, size, &diag);
    IC_CHECK_MSG(r == code, "%s: %s (%s), expected %s", why, icResult_Name(r), diag.message,
                 icResult_Name(code));
    IC_CHECK_MSG(icRodWorld_HashState(w) == before, "%s: the world changed", why);
    free(bad);
}

IC_TEST(rod, state_bytes_bad_input_is_refused_whole) {
    icRodWorld *a = octopi(1), *two = octopi(2);
    IC_REQUIRE(a && two);
    stepRods(a, 5);
    size_t size = icRodWorld_GetStateSize(a);
    uint8_t *good = malloc(size);
    IC_REQUIRE(good);
    IC_CHECK_RESULT(icRodWorld_SaveState(a, good, size), IC_OK);
    int nv = icRodWorld_GetVertexCount(a), ns = icRodWorld_GetSegmentCount(a);
    size_t header = 56, x = header, v = x + 24 * (size_t)nv, r = v + 24 * (size_t)nv;
    size_t q = r + 16 * (size_t)nv;
    expectRefused(a, good, size, 0, 0x58, true, IC_ERR_PARSE, "magic");
    expectRefused(a, good, size, 8, 9, true, IC_ERR_UNSUPPORTED, "version");
    expectRefused(a, good, size, 16, 12345, true, IC_ERR_BAD_VALUE, "model hash");
    expectRefused(a, good, size, 24, nv + 1, true, IC_ERR_BAD_VALUE, "vertex count");
    expectRefused(a, good, size, 48, -1, false, IC_ERR_BAD_VALUE, "negative time");
    expectRefused(a, good, size, x + 8, NAN, false, IC_ERR_BAD_VALUE, "NaN position");
    expectRefused(a, good, size, x, 1e7, false, IC_ERR_BAD_VALUE, "position beyond reach");
    expectRefused(a, good, size, v, 1e7, false, IC_ERR_BAD_VALUE, "speed");
    expectRefused(a, good, size, r, 0, false, IC_ERR_BAD_VALUE, "zero radius");
    expectRefused(a, good, size, q, 0, false, IC_ERR_BAD_VALUE, "not a unit quaternion");
    // Cut short: the size is checked against the rods.
    uint64_t before = icRodWorld_HashState(a);
    IC_CHECK_RESULT(icRodWorld_LoadState(a, good, size - 8, NULL), IC_ERR_PARSE);
    IC_CHECK_RESULT(icRodWorld_LoadState(a, good, 10, NULL), IC_ERR_PARSE);
    IC_CHECK(icRodWorld_HashState(a) == before);
    // Other rods: two octopi do not take one's state.
    IC_CHECK_RESULT(icRodWorld_LoadState(two, good, size, NULL), IC_ERR_BAD_VALUE);
    (void)ns;
    free(good);
    icDestroyRodWorld(a);
    icDestroyRodWorld(two);
}
