// SPDX-License-Identifier: MIT
// A rod world's state as bytes, for checkpoints: saved whole, checked whole before anything
// is restored, and bound to the rods it came from by a hash of their model.
//
// Layout (little-endian 8-byte words): "ICRODST\0", version 1, model hash, vertex count nv,
// segment count ns, slice count nc, time; then x (3 nv), v (3 nv), r (nv), rdot (nv),
// q (4 ns), omega (3 ns), the current rest lengths (ns: activation shortens them) and the
// slices' warm-start rotations (4 nc).
#include "core/bytes.h"
#include "core/hash.h"
#include "rod/rod_internal.h"

#include <math.h>
#include <string.h>

static const char s_magic[8] = {'I', 'C', 'R', 'O', 'D', 'S', 'T', 0};
enum { IC_ROD_STATE_VERSION = 1, IC_ROD_STATE_HEADER = 7 * 8 };

// What a loaded state may hold, as strict as the tet world's checkpoints: positions within
// 1e6 m of the origin and speeds below 1e6 m/s (a forged or meaningless state otherwise).
#define IC_ROD_STATE_MAX_REACH 1e6
#define IC_ROD_STATE_MAX_SPEED 1e6

static size_t realCount(const icRodModel *m) {
    size_t nv = (size_t)m->vertexCount, ns = (size_t)m->segmentCount;
    return 8 * nv + 8 * ns + 4 * (size_t)m->sliceCount;
}

size_t icRodWorld_GetStateSize(const icRodWorld *w) {
    IC_ASSERT(w);
    return IC_ROD_STATE_HEADER + 8 * realCount(&w->model);
}

// Settings that change a step and the rods' rest data; counts of what they hold. Field by
// field, so padding never enters.
uint64_t icRodWorld_HashModel(const icRodWorld *w) {
    IC_ASSERT(w);
    const icRodWorldDef *d = &w->def;
    const icRodModel *m = &w->model;
    uint64_t h = IC_HASH_START;
    h = icHash_Vec3(h, d->gravity);
    h = icHash_Word(h, (uint64_t)d->substeps);
    h = icHash_Word(h, (uint64_t)d->iterations);
    h = icHash_Word(h, (uint64_t)d->collisionOnlyOddPasses);
    h = icHash_Real(h, d->velocityDamping);
    h = icHash_Real(h, d->bendDamping);
    h = icHash_Real(h, d->minRadius);
    h = icHash_Real(h, d->collisionMargin);
    h = icHash_Word(h, (uint64_t)d->searchIterations);
    h = icHash_Real(h, d->radiusCoupling);
    h = icHash_Word(h, (uint64_t)d->scaledBending);
    h = icHash_Word(h, (uint64_t)d->radiusModel);
    h = icHash_Word(h, (uint64_t)d->bundleProjection);
    h = icHash_Word(h, (uint64_t)d->referenceQuirks);
    size_t nv = (size_t)m->vertexCount, ns = (size_t)m->segmentCount;
    const int counts[] = {m->vertexCount, m->segmentCount, m->rodCount,    m->stretchCount,
                          m->bendCount,   m->radiusCount,  m->smoothCount, m->bilapCount,
                          m->volumeCount, m->linkCount,    m->bundleCount, m->sliceCount,
                          m->planeCount,  m->boneCount,    m->skinCount};
    h = icHash_Ints(h, counts, sizeof counts / sizeof counts[0]);
    if (nv) {
        h = icHash_Reals(h, m->restPos, 3 * nv);
        h = icHash_Reals(h, m->restRadius, nv);
        h = icHash_Reals(h, m->w, nv);
        h = icHash_Reals(h, m->wr, nv);
        h = icHash_Ints(h, m->pinBone, nv);
        h = icHash_Reals(h, m->pinBase, 3 * nv);
    }
    if (ns) {
        h = icHash_Ints(h, m->seg, 2 * ns);
        h = icHash_Reals(h, m->restLength0, ns);
        h = icHash_Reals(h, m->restQ, 4 * ns);
        h = icHash_Reals(h, m->wq, ns);
    }
    return h;
}

// The state's arrays in the order of the layout (count in reals).
typedef struct icRodArray {
    icReal *values;
    size_t count;
} icRodArray;

static int stateArrays(icRodWorld *w, icRodArray out[8]) {
    icRodState *s = &w->state;
    const icRodModel *m = &w->model;
    size_t nv = (size_t)m->vertexCount, ns = (size_t)m->segmentCount;
    out[0] = (icRodArray){s->x, 3 * nv};
    out[1] = (icRodArray){s->v, 3 * nv};
    out[2] = (icRodArray){s->r, nv};
    out[3] = (icRodArray){s->rdot, nv};
    out[4] = (icRodArray){s->q, 4 * ns};
    out[5] = (icRodArray){s->omega, 3 * ns};
    out[6] = (icRodArray){w->model.restLength, ns};
    out[7] = (icRodArray){s->sliceRot, 4 * (size_t)m->sliceCount};
    return 8;
}

icResult icRodWorld_SaveState(const icRodWorld *w, void *bytes, size_t size) {
    IC_ASSERT(w);
    if (!bytes || size != icRodWorld_GetStateSize(w)) return IC_ERR_INVALID_ARGUMENT;
    icRodArray arrays[8];
    int n = stateArrays((icRodWorld *)w, arrays); // read only
    for (int a = 0; a < n; ++a)
        for (size_t i = 0; i < arrays[a].count; ++i)
            if (!isfinite(arrays[a].values[i])) return IC_ERR_NOT_FINITE;
    if (!isfinite(w->state.time)) return IC_ERR_NOT_FINITE;
    uint8_t *p = bytes;
    memcpy(p, s_magic, 8);
    icBytes_Put64(p + 8, IC_ROD_STATE_VERSION);
    icBytes_Put64(p + 16, icRodWorld_HashModel(w));
    icBytes_Put64(p + 24, (uint64_t)w->model.vertexCount);
    icBytes_Put64(p + 32, (uint64_t)w->model.segmentCount);
    icBytes_Put64(p + 40, (uint64_t)w->model.sliceCount);
    icBytes_PutReal(p + 48, w->state.time);
    p += IC_ROD_STATE_HEADER;
    for (int a = 0; a < n; ++a)
        for (size_t i = 0; i < arrays[a].count; ++i, p += 8) icBytes_PutReal(p, arrays[a].values[i]);
    return IC_OK;
}

// Whether the count reals at p are a plausible array `array` of the layout.
static bool arrayInRange(const uint8_t *p, size_t count, int array) {
    for (size_t i = 0; i < count; ++i) {
        icReal value = icBytes_GetReal(p + 8 * i);
        if (!isfinite(value)) return false;
        switch (array) {
        case 0: if (fabs(value) > IC_ROD_STATE_MAX_REACH) return false; break;
        case 1: if (fabs(value) > IC_ROD_STATE_MAX_SPEED) return false; break;
        case 2: if (!(value > 0) || value > IC_ROD_STATE_MAX_REACH) return false; break;
        case 6: if (!(value > 0) || value > IC_ROD_STATE_MAX_REACH) return false; break;
        default: break;
        }
    }
    // Frames and warm starts are unit quaternions up to rounding: the solver renormalises,
    // but a zero or huge one is no frame at all.
    if (array == 4 || array == 7)
        for (size_t i = 0; i + 3 < count; i += 4) {
            icReal n2 = 0;
            for (int k = 0; k < 4; ++k) {
                icReal c = icBytes_GetReal(p + 8 * (i + (size_t)k));
                n2 += c * c;
            }
            if (!(fabs(n2 - 1) <= 1e-3)) return false;
        }
    return true;
}

icResult icRodWorld_LoadState(icRodWorld *w, const void *bytes, size_t size,
                              icDiagnostic *diag) {
    IC_ASSERT(w);
    const uint8_t *p = bytes;
    if (!p || size < IC_ROD_STATE_HEADER || memcmp(p, s_magic, 8) != 0)
        return icDiag_Set(diag, IC_ERR_PARSE, "", 0, "rod state: not a rod state (%zu bytes)",
                          size);
    if (icBytes_Get64(p + 8) != IC_ROD_STATE_VERSION)
        return icDiag_Set(diag, IC_ERR_UNSUPPORTED, "", 0, "rod state: version %llu is not supported",
                          (unsigned long long)icBytes_Get64(p + 8));
    const icRodModel *m = &w->model;
    if (icBytes_Get64(p + 24) != (uint64_t)m->vertexCount ||
        icBytes_Get64(p + 32) != (uint64_t)m->segmentCount ||
        icBytes_Get64(p + 40) != (uint64_t)m->sliceCount)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                          "rod state holds %llu vertices, %llu segments and %llu slices; these "
                          "rods have %d, %d and %d",
                          (unsigned long long)icBytes_Get64(p + 24),
                          (unsigned long long)icBytes_Get64(p + 32),
                          (unsigned long long)icBytes_Get64(p + 40), m->vertexCount,
                          m->segmentCount, m->sliceCount);
    uint64_t model = icBytes_Get64(p + 16), expected = icRodWorld_HashModel(w);
    if (model != expected)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                          "rod state was made from other rods (model hash %016llx, these rods' "
                          "%016llx): same scene, same settings?",
                          (unsigned long long)model, (unsigned long long)expected);
    if (size != icRodWorld_GetStateSize(w))
        return icDiag_Set(diag, IC_ERR_PARSE, "", 0, "rod state is %zu bytes, expected %zu",
                          size, icRodWorld_GetStateSize(w));
    icReal time = icBytes_GetReal(p + 48);
    if (!isfinite(time) || time < 0)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "rod state time %g s is impossible",
                          time);
    icRodArray arrays[8];
    int n = stateArrays(w, arrays);
    static const char *const names[8] = {"positions",  "velocities", "radii",
                                         "radius rates", "frames",   "angular velocities",
                                         "rest lengths", "slice rotations"};
    const uint8_t *at = p + IC_ROD_STATE_HEADER;
    for (int a = 0; a < n; ++a) {
        if (!arrayInRange(at, arrays[a].count, a))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                              "rod state %s hold a non-finite or impossible value", names[a]);
        at += 8 * arrays[a].count;
    }
    // Everything checked: restore.
    at = p + IC_ROD_STATE_HEADER;
    for (int a = 0; a < n; ++a)
        for (size_t i = 0; i < arrays[a].count; ++i, at += 8)
            arrays[a].values[i] = icBytes_GetReal(at);
    w->state.time = time;
    return IC_OK;
}

uint64_t icRodWorld_HashState(const icRodWorld *w) {
    IC_ASSERT(w);
    icRodArray arrays[8];
    int n = stateArrays((icRodWorld *)w, arrays); // read only
    uint64_t h = icHash_Real(IC_HASH_START, w->state.time);
    for (int a = 0; a < n; ++a)
        if (arrays[a].count) h = icHash_Reals(h, arrays[a].values, arrays[a].count);
    return h;
}
