// SPDX-License-Identifier: MIT
// Little-endian fixed-width fields of the binary files we write ourselves (checkpoints, run
// records): the same bytes on every host, whatever its endianness.
#pragma once

#include <stdint.h>
#include <string.h>

static inline void icBytes_Put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void icBytes_Put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint64_t icBytes_Get64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static inline uint32_t icBytes_Get32(const uint8_t *p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= (uint32_t)p[i] << (8 * i);
    return v;
}
/// A double as its IEEE 754 bits.
static inline void icBytes_PutReal(uint8_t *p, double value) {
    uint64_t w;
    memcpy(&w, &value, sizeof w);
    icBytes_Put64(p, w);
}
static inline double icBytes_GetReal(const uint8_t *p) {
    uint64_t w = icBytes_Get64(p);
    double value;
    memcpy(&value, &w, sizeof value);
    return value;
}
