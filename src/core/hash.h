// SPDX-License-Identifier: MIT
// The 64-bit hash of models and states (checkpoints' model hash, determinism tests): words
// folded in as FNV-1a does bytes (xor, multiply by the FNV prime) followed by a shift-xor, so
// that a change in a word's high bits reaches the low bits too. Each module hashes its own
// part of a model with these.
#pragma once

#include "isochor/math.h"

#include <stdint.h>
#include <string.h>

#define IC_HASH_START 0xcbf29ce484222325ull
#define IC_HASH_PRIME 0x100000001b3ull

static inline uint64_t icHash_Word(uint64_t h, uint64_t w) {
    h ^= w;
    h *= IC_HASH_PRIME;
    return h ^ (h >> 29);
}

static inline uint64_t icHash_Reals(uint64_t h, const icReal *values, size_t count) {
    for (size_t i = 0; i < count; ++i) {
        uint64_t w;
        memcpy(&w, &values[i], sizeof w);
        h = icHash_Word(h, w);
    }
    return h;
}

static inline uint64_t icHash_Ints(uint64_t h, const int *values, size_t count) {
    for (size_t i = 0; i < count; ++i) h = icHash_Word(h, (uint64_t)(int64_t)values[i]);
    return h;
}

static inline uint64_t icHash_Real(uint64_t h, icReal value) { return icHash_Reals(h, &value, 1); }

static inline uint64_t icHash_Vec3(uint64_t h, icVec3 v) {
    return icHash_Real(icHash_Real(icHash_Real(h, v.x), v.y), v.z);
}
