// SPDX-License-Identifier: MIT
// Checkpoints of a world's state: a versioned little-endian binary layout with a model hash
// and a checksum (docs/reliability.md), checked whole before anything is restored; and the
// model and state hashes that determinism tests compare.
#include "core/bytes.h"
#include "core/hash.h"
#include "isochor/collision.h"
#include "world/solver.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

// Field by field: struct padding is never hashed, so equal settings always hash equal.
uint64_t icWorld_HashModel(const icWorld *world) {
    IC_ASSERT(world);
    const icModel *m = &world->model;
    const icWorldDef *d = &m->def;
    uint64_t h = IC_HASH_START;
    h = icHash_Word(h, (uint64_t)d->solver);
    h = icHash_Vec3(h, d->gravity);
    h = icHash_Word(h, (uint64_t)d->substeps);
    h = icHash_Word(h, (uint64_t)d->iterations);
    // Hashed only where it acts, so checkpoints of worlds with fixed substeps keep their hash.
    if (icSolver_Supports(d->solver, IC_FEATURE_ADAPTIVE_SUBSTEPS) && d->maxSubstepStrain > 0) {
        h = icHash_Real(h, d->maxSubstepStrain);
        h = icHash_Word(h, (uint64_t)d->maxSubsteps);
    }
    h = icHash_Word(h, (uint64_t)d->projection);
    h = icHash_Word(h, (uint64_t)d->restShift);
    h = icHash_Real(h, d->linearDamping);
    h = icHash_Word(h, (uint64_t)d->health.policy);
    h = icHash_Real(h, d->health.maxSpeed);
    h = icHash_Word(h, (uint64_t)d->health.maxInvertedTets);
    h = icHash_Real(h, d->health.maxVolumeDrift);
    // Arithmetic and sweep order change results; the SIMD width and workers must not.
    h = icHash_Word(h, (uint64_t)d->precision);
    h = icHash_Word(h, (uint64_t)d->colouring);
    // Each solver's own settings (src/world/solver.h), in table order.
    h = icSolver_HashAllSettings(world, h);

    size_t nv = (size_t)m->vertexCount, nt = (size_t)m->tetCount;
    h = icHash_Word(h, nv);
    h = icHash_Word(h, nt);
    h = icHash_Word(h, (uint64_t)m->bodyCount);
    if (nv) {
        h = icHash_Reals(h, m->restPositions, 3 * nv);
        h = icHash_Reals(h, m->mass, nv);
        h = icHash_Reals(h, m->invMass, 3 * nv);
        h = icHash_Ints(h, m->vertexPin, nv);
        h = icHash_Reals(h, m->pinBase, 3 * nv);
    }
    if (nt) {
        h = icHash_Ints(h, m->tets, 4 * nt);
        h = icHash_Ints(h, m->tetBody, nt);
        h = icHash_Reals(h, m->restVolume, nt);
        h = icHash_Reals(h, m->alphaD, nt);
        h = icHash_Reals(h, m->alphaH, nt);
        h = icHash_Reals(h, m->gamma, nt);
        h = icHash_Reals(h, m->damping, nt);
    }
    for (int b = 0; b < m->bodyCount; ++b) {
        const icBodyRecord *body = &m->bodies[b];
        h = icHash_Word(h, (uint64_t)body->def.model);
        h = icHash_Real(h, body->def.youngsModulus);
        h = icHash_Real(h, body->def.poissonRatio);
        h = icHash_Real(h, body->def.density);
        h = icHash_Real(h, body->def.damping);
    }
    for (int p = 0; p < m->pinCount; ++p) {
        const icPinRecord *pin = &m->pins[p];
        h = icHash_Word(h, (uint64_t)pin->motionCount);
        for (int a = 0; a < 3; ++a) h = icHash_Word(h, (uint64_t)pin->axes[a]);
        for (int i = 0; i < pin->motionCount; ++i) {
            const icMotion *mo = &pin->motions[i];
            h = icHash_Vec3(h, mo->velocity);
            h = icHash_Vec3(h, mo->axis);
            h = icHash_Vec3(h, mo->centre);
            h = icHash_Real(h, mo->degreesPerSecond);
            h = icHash_Real(h, mo->start);
            h = icHash_Real(h, mo->end);
        }
    }
    for (int p = 0; p < m->planeCount; ++p) {
        h = icHash_Vec3(h, m->planes[p].normal);
        h = icHash_Real(h, m->planes[p].offset);
        h = icHash_Real(h, m->planes[p].friction);
    }
    h = icSolver_HashAllScenes(world, h);
    h = icContact_HashModel(world, h);
    return h;
}

uint64_t icWorld_HashState(const icWorld *world) {
    IC_ASSERT(world);
    const icState *s = world->state;
    size_t nv = 3 * (size_t)s->vertexCount, nt = (size_t)s->tetCount;
    uint64_t h = IC_HASH_START;
    h = icHash_Word(h, nv);
    h = icHash_Word(h, nt);
    h = icHash_Real(h, s->time);
    h = icHash_Real(h, s->lastSubstep);
    h = icHash_Word(h, (uint64_t)s->substepCount);
    if (nv) {
        h = icHash_Reals(h, s->x, nv);
        h = icHash_Reals(h, s->v, nv);
        h = icHash_Reals(h, s->xPrev, nv);
    }
    if (nt) {
        h = icHash_Reals(h, s->lambdaD, nt);
        h = icHash_Reals(h, s->lambdaH, nt);
    }
    return h;
}

// ---------------------------------------------------------------------------------------
// Layout (all little-endian; docs/reliability.md has the table):
//   header   48 bytes: magic "ICCHKPT\0", u32 version, u32 header size (48), u64 total size,
//            u64 model hash, u32 section count, u32 flags (0), u64 reserved (0)
//   sections u32 tag, u32 reserved (0), u64 payload bytes, payload, zero padding to 8 bytes
//   trailer  u64 checksum: the word hash above over every byte before it

#define IC_CHECKPOINT_VERSION 1u
#define IC_CHECKPOINT_HEADER 48u
static const char s_magic[8] = {'I', 'C', 'C', 'H', 'K', 'P', 'T', 0};

#define IC_TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define IC_TAG_STATE IC_TAG('S', 'T', 'A', 'T')
#define IC_TAG_HEALTH IC_TAG('H', 'L', 'T', 'H')
#define IC_TAG_USER IC_TAG('U', 'S', 'E', 'R')
// The solver's memory (src/world/solver.h); 'INCP' since the incompressible solver is the one
// that keeps any.
#define IC_TAG_SOLVER_MEMORY IC_TAG('I', 'N', 'C', 'P')

#define IC_STATE_FIXED 40u            // 5 words before the arrays

// What a loaded state may hold, as strict as a scene (docs/reliability.md): a scene places
// rest meshes at most IC_CHECKPOINT_MAX_REACH m away (its "translate" limit), so a position
// farther than that from the origin plus the largest rest coordinate is a forged or
// meaningless state; a vertex faster than IC_CHECKPOINT_MAX_SPEED leaves that reach within a
// second. The clock starts at 0 and only advances: a scene runs at most 2^31 frames of at
// most 3600 s, and a substep is at most one frame.
#define IC_CHECKPOINT_MAX_REACH 1e6                   // m
#define IC_CHECKPOINT_MAX_SPEED 1e6                   // m/s per component
#define IC_CHECKPOINT_MAX_TIME (3600.0 * 2147483648.0) // s
#define IC_CHECKPOINT_MAX_SUBSTEP 3600.0               // s
// HLTH: 14 words (the last reserved, 0) and the last warning. Files written before the solver
// warnings and the worst tet were kept hold 12 words (the last 0) and the warning.
#define IC_HEALTH_BYTES (14u * 8u + 160u)
#define IC_HEALTH_BYTES_12_WORDS (12u * 8u + 160u)
static size_t healthTextOffset(uint64_t bytes) { return bytes == IC_HEALTH_BYTES ? 112 : 96; }

// INCP: the solver's memory between steps, a vertex count then its memoryPerVertex reals per
// vertex in the solver's layout (the incompressible one: contact normals n x 3, the velocity
// projection's pressures n and the position correction's n).
#define IC_MEMORY_FIXED 8u
static size_t memoryPayload(const icSolverOps *solver, size_t vertexCount) {
    return IC_MEMORY_FIXED + 8 * (size_t)solver->memoryPerVertex * vertexCount;
}

static uint8_t *putReals(uint8_t *p, const icReal *values, size_t count) {
    for (size_t i = 0; i < count; ++i, p += 8) icBytes_PutReal(p, values[i]);
    return p;
}

static size_t padded(size_t n) { return (n + 7) & ~(size_t)7; }

// The checksum over whole words (every part of the layout is a multiple of 8 bytes).
static uint64_t checksum(const uint8_t *data, size_t size) {
    uint64_t h = IC_HASH_START;
    for (size_t i = 0; i + 8 <= size; i += 8) h = icHash_Word(h, icBytes_Get64(data + i));
    return h;
}

static bool allFinite(const icReal *values, size_t count) {
    for (size_t i = 0; i < count; ++i)
        if (!isfinite(values[i])) return false;
    return true;
}

icResult icWorld_SaveCheckpoint(const icWorld *world, const void *user, size_t userSize,
                                void **data, size_t *size) {
    IC_ASSERT(world && data && size);
    *data = NULL;
    *size = 0;
    const icState *s = world->state;
    size_t nv = 3 * (size_t)s->vertexCount, nt = (size_t)s->tetCount;
    if (!allFinite(s->x, nv) || !allFinite(s->v, nv) || !allFinite(s->xPrev, nv) ||
        !isfinite(s->time))
        return IC_ERR_NOT_FINITE;
    if (userSize && !user) return IC_ERR_INVALID_ARGUMENT;
    // What the solver keeps between steps outside the state goes in section INCP.
    const icSolverOps *solver = icWorld_Solver(world);
    bool keepsMemory = solver->memoryPerVertex > 0;
    size_t vertices = (size_t)s->vertexCount;
    // Its memory first, so that a NaN there refuses the save like one in the state.
    size_t memoryReals = (size_t)solver->memoryPerVertex * vertices;
    icReal *memory = NULL;
    if (keepsMemory) {
        memory = IC_ALLOC(icReal, memoryReals + 1);
        if (!memory) return IC_ERR_OUT_OF_MEMORY;
        solver->getMemory(world, memory);
        if (!allFinite(memory, memoryReals)) {
            icFree(memory);
            return IC_ERR_NOT_FINITE;
        }
    }
    size_t statePayload = IC_STATE_FIXED + 8 * (3 * nv + 2 * nt);
    size_t memoryBytes = keepsMemory ? memoryPayload(solver, vertices) : 0;
    int sections = 2 + (keepsMemory ? 1 : 0) + (userSize ? 1 : 0);
    size_t total = IC_CHECKPOINT_HEADER + 16 + statePayload + 16 + IC_HEALTH_BYTES +
                   (keepsMemory ? 16 + memoryBytes : 0) +
                   (userSize ? 16 + padded(userSize) : 0) + 8;
    uint8_t *out = icAllocZero(total);
    if (!out) {
        icFree(memory);
        return IC_ERR_OUT_OF_MEMORY;
    }

    memcpy(out, s_magic, 8);
    icBytes_Put32(out + 8, IC_CHECKPOINT_VERSION);
    icBytes_Put32(out + 12, IC_CHECKPOINT_HEADER);
    icBytes_Put64(out + 16, total);
    icBytes_Put64(out + 24, icWorld_HashModel(world));
    icBytes_Put32(out + 32, (uint32_t)sections);
    uint8_t *p = out + IC_CHECKPOINT_HEADER;

    icBytes_Put32(p, IC_TAG_STATE);
    icBytes_Put64(p + 8, statePayload);
    p += 16;
    icBytes_Put64(p, (uint64_t)s->vertexCount);
    icBytes_Put64(p + 8, (uint64_t)s->tetCount);
    icBytes_PutReal(p + 16, s->time);
    icBytes_PutReal(p + 24, s->lastSubstep);
    icBytes_Put64(p + 32, (uint64_t)s->substepCount);
    p += IC_STATE_FIXED;
    if (nv) {
        p = putReals(p, s->x, nv);
        p = putReals(p, s->v, nv);
        p = putReals(p, s->xPrev, nv);
    }
    if (nt) {
        p = putReals(p, s->lambdaD, nt);
        p = putReals(p, s->lambdaH, nt);
    }

    const icHealthStats *h = &world->health;
    icBytes_Put32(p, IC_TAG_HEALTH);
    icBytes_Put64(p + 8, IC_HEALTH_BYTES);
    p += 16;
    const int64_t counts[8] = {h->steps,          h->warnings,          h->nonFiniteSteps,
                               h->speedWarnings,  h->inversionWarnings, h->volumeWarnings,
                               h->clampedVertices, h->stops};
    for (int i = 0; i < 8; ++i) icBytes_Put64(p + 8 * i, (uint64_t)counts[i]);
    icBytes_PutReal(p + 64, h->maxSpeedSeen);
    icBytes_Put64(p + 72, (uint64_t)(int64_t)h->maxInvertedSeen);
    icBytes_PutReal(p + 80, h->maxVolumeDriftSeen);
    icBytes_Put64(p + 88, (uint64_t)h->solverWarnings);
    icBytes_PutReal(p + 96, h->maxTetJMinus1Seen);
    icBytes_Put64(p + 104, 0);
    memcpy(p + 112, h->lastWarning, sizeof h->lastWarning);
    p[112 + sizeof h->lastWarning - 1] = 0;
    p += IC_HEALTH_BYTES;

    if (keepsMemory) {
        icBytes_Put32(p, IC_TAG_SOLVER_MEMORY);
        icBytes_Put64(p + 8, memoryBytes);
        p += 16;
        icBytes_Put64(p, (uint64_t)vertices);
        p = putReals(p + IC_MEMORY_FIXED, memory, memoryReals);
        icFree(memory);
    }

    if (userSize) {
        icBytes_Put32(p, IC_TAG_USER);
        icBytes_Put64(p + 8, userSize);
        memcpy(p + 16, user, userSize);
        p += 16 + padded(userSize);
    }
    icBytes_Put64(p, checksum(out, total - 8));
    *data = out;
    *size = total;
    return IC_OK;
}

// Where each section's payload lies in a checked buffer.
typedef struct icCheckpointView {
    const uint8_t *state, *health, *user, *memory;
    uint64_t stateBytes, healthBytes, userBytes, memoryBytes;
} icCheckpointView;

#define IC_FAIL(code, ...) icDiag_Set(diag, code, "", 0, __VA_ARGS__)
typedef unsigned long long icU64;

// Header, size, checksum, model and section table: everything but the payloads' values.
static icResult checkLayout(const icWorld *world, const uint8_t *data, size_t size,
                            icCheckpointView *view, icDiagnostic *diag) {
    memset(view, 0, sizeof *view);
    // A short file that starts like a checkpoint is a truncated one; anything else is not one.
    size_t head = size < 8 ? size : 8;
    if (head && memcmp(data, s_magic, head) != 0)
        return IC_FAIL(IC_ERR_PARSE,
                       "not an isochor checkpoint (the first bytes are not \"ICCHKPT\")");
    if (size < IC_CHECKPOINT_HEADER + 8)
        return IC_FAIL(IC_ERR_TRUNCATED,
                       "checkpoint is %llu bytes, shorter than its header: truncated",
                       (icU64)size);
    uint32_t version = icBytes_Get32(data + 8);
    if (version == 0 || icBytes_Get32(data + 12) != IC_CHECKPOINT_HEADER)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint header is malformed (version %u, header size %u)",
                       (unsigned)version, (unsigned)icBytes_Get32(data + 12));
    if (version > IC_CHECKPOINT_VERSION)
        return IC_FAIL(IC_ERR_UNSUPPORTED,
                       "checkpoint format version %u is newer than this build reads (%u)",
                       (unsigned)version, IC_CHECKPOINT_VERSION);
    uint64_t total = icBytes_Get64(data + 16);
    if (total > size)
        return IC_FAIL(IC_ERR_TRUNCATED,
                       "checkpoint is %llu bytes but its header says %llu: truncated",
                       (icU64)size, (icU64)total);
    if (total < size || total % 8 != 0)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint is %llu bytes but its header says %llu",
                       (icU64)size, (icU64)total);
    if (checksum(data, size - 8) != icBytes_Get64(data + size - 8))
        return IC_FAIL(IC_ERR_PARSE, "checkpoint checksum does not match: the file is corrupted");
    if (icBytes_Get32(data + 36) != 0 || icBytes_Get64(data + 40) != 0)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint header's flags or reserved bytes are not zero");
    uint64_t model = icBytes_Get64(data + 24);
    uint64_t expected = icWorld_HashModel(world);
    if (model != expected)
        return IC_FAIL(IC_ERR_BAD_VALUE,
                       "checkpoint was made from another model (model hash %016llx, this "
                       "world's %016llx): same scene, same settings?",
                       (icU64)model, (icU64)expected);

    uint32_t sections = icBytes_Get32(data + 32);
    size_t at = IC_CHECKPOINT_HEADER, end = size - 8;
    for (uint32_t i = 0; i < sections; ++i) {
        if (end - at < 16)
            return IC_FAIL(IC_ERR_PARSE, "checkpoint section %u of %u runs past the end",
                           (unsigned)i, (unsigned)sections);
        uint32_t tag = icBytes_Get32(data + at);
        uint64_t bytes = icBytes_Get64(data + at + 8);
        if (bytes > end - at - 16 || padded(bytes) > end - at - 16)
            return IC_FAIL(IC_ERR_PARSE, "checkpoint section %u of %u runs past the end",
                           (unsigned)i, (unsigned)sections);
        const uint8_t *payload = data + at + 16;
        const uint8_t **slot = NULL;
        uint64_t *slotBytes = NULL;
        if (tag == IC_TAG_STATE) slot = &view->state, slotBytes = &view->stateBytes;
        if (tag == IC_TAG_HEALTH) slot = &view->health, slotBytes = &view->healthBytes;
        if (tag == IC_TAG_USER) slot = &view->user, slotBytes = &view->userBytes;
        if (tag == IC_TAG_SOLVER_MEMORY) slot = &view->memory, slotBytes = &view->memoryBytes;
        char name[5] = {(char)(tag & 0xff), (char)(tag >> 8 & 0xff), (char)(tag >> 16 & 0xff),
                        (char)(tag >> 24), 0};
        for (int k = 0; k < 4; ++k)
            if (name[k] < 32 || name[k] > 126) name[k] = '?';
        if (!slot)
            return IC_FAIL(IC_ERR_UNSUPPORTED,
                           "checkpoint has a section '%s' this build does not know", name);
        if (*slot)
            return IC_FAIL(IC_ERR_PARSE, "checkpoint has section '%s' twice", name);
        // Reserved words and padding are zero in every file this build writes.
        bool zeros = icBytes_Get32(data + at + 4) == 0;
        for (uint64_t k = bytes; k < padded(bytes); ++k) zeros = zeros && payload[k] == 0;
        if (!zeros)
            return IC_FAIL(IC_ERR_PARSE,
                           "checkpoint section '%s' has non-zero reserved or padding bytes", name);
        *slot = payload;
        *slotBytes = bytes;
        at += 16 + padded(bytes);
    }
    if (at != end)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint has %llu bytes after its last section",
                       (icU64)(end - at));
    if (!view->state || !view->health)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint lacks its %s section",
                       view->state ? "HLTH" : "STAT");
    // The model hash covers the solver, so these two only meet in a forged file.
    const icSolverOps *solver = icWorld_Solver(world);
    if (solver->memoryPerVertex > 0 && !view->memory)
        return IC_FAIL(IC_ERR_PARSE,
                       "checkpoint of a world of the %s solver lacks its INCP section (the "
                       "solver's memory)", solver->name);
    if (solver->memoryPerVertex == 0 && view->memory)
        return IC_FAIL(IC_ERR_PARSE,
                       "checkpoint has an INCP section (solver memory) but this world's %s "
                       "solver keeps none", solver->name);
    return IC_OK;
}

static bool finiteReals(const uint8_t *p, size_t count) {
    for (size_t i = 0; i < count; ++i)
        if (!isfinite(icBytes_GetReal(p + 8 * i))) return false;
    return true;
}

// The first coordinate beyond bound in magnitude (count reals at p), or -1.
static ptrdiff_t beyond(const uint8_t *p, size_t count, double bound) {
    for (size_t i = 0; i < count; ++i)
        if (!(fabs(icBytes_GetReal(p + 8 * i)) <= bound)) return (ptrdiff_t)i;
    return -1;
}

// Finite values are checked before: here the ranges a scene could have produced.
static icResult checkStateRanges(const icWorld *world, const uint8_t *arrays, size_t nv,
                                 double time, double lastSubstep, icDiagnostic *diag) {
    if (!(time >= 0 && time <= IC_CHECKPOINT_MAX_TIME))
        return IC_FAIL(IC_ERR_BAD_VALUE,
                       "checkpoint time %g s is outside [0, %g] s: a run's clock starts at 0 and "
                       "only advances",
                       time, IC_CHECKPOINT_MAX_TIME);
    if (!(lastSubstep >= 0 && lastSubstep <= IC_CHECKPOINT_MAX_SUBSTEP))
        return IC_FAIL(IC_ERR_BAD_VALUE, "checkpoint substep %g s is outside [0, %g] s",
                       lastSubstep, IC_CHECKPOINT_MAX_SUBSTEP);
    double rest = 0;
    const icReal *x0 = world->model.restPositions;
    for (size_t i = 0; i < nv; ++i) rest = fmax(rest, fabs(x0[i]));
    double reach = IC_CHECKPOINT_MAX_REACH + rest;
    static const char *const what[3] = {"position", "velocity", "start-of-substep position"};
    const uint8_t *array[3] = {arrays, arrays + 8 * nv, arrays + 16 * nv};
    for (int a = 0; a < 3; ++a) {
        double bound = a == 1 ? IC_CHECKPOINT_MAX_SPEED : reach;
        ptrdiff_t i = beyond(array[a], nv, bound);
        if (i >= 0)
            return IC_FAIL(IC_ERR_BAD_VALUE,
                           "checkpoint %s of vertex %lld is %g %s, beyond the +-%g a scene can "
                           "reach",
                           what[a], (long long)(i / 3), icBytes_GetReal(array[a] + 8 * i),
                           a == 1 ? "m/s" : "m", bound);
    }
    return IC_OK;
}

// The health section's figures and its NUL-terminated last warning.
static icResult checkHealth(const uint8_t *q, uint64_t bytes, icDiagnostic *diag) {
    bool current = bytes == IC_HEALTH_BYTES;
    double speed = icBytes_GetReal(q + 64), drift = icBytes_GetReal(q + 80);
    double worstJ = current ? icBytes_GetReal(q + 96) : 0;
    if (!(speed >= 0 && isfinite(speed) && drift >= 0 && isfinite(drift) && worstJ >= 0 &&
          isfinite(worstJ)))
        return IC_FAIL(IC_ERR_BAD_VALUE,
                       "checkpoint health figures are negative or not finite (largest speed "
                       "%g, volume drift %g, tet |J - 1| %g)",
                       speed, drift, worstJ);
    if (icBytes_Get64(q + (current ? 104 : 88)) != 0)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint health section's reserved word is not zero");
    const uint8_t *text = q + healthTextOffset(bytes);
    const size_t length = (size_t)bytes - healthTextOffset(bytes);
    size_t n = 0;
    while (n < length && text[n] != 0) {
        if (text[n] < 32 || text[n] == 127)
            return IC_FAIL(IC_ERR_PARSE,
                           "checkpoint health warning holds a control character (byte %u at "
                           "%zu)",
                           (unsigned)text[n], n);
        ++n;
    }
    if (n == length)
        return IC_FAIL(IC_ERR_PARSE,
                       "checkpoint health warning is not terminated within its %zu bytes", length);
    return IC_OK;
}

static void getReals(const uint8_t *p, icReal *out, size_t count) {
    for (size_t i = 0; i < count; ++i) out[i] = icBytes_GetReal(p + 8 * i);
}

// Checks a checkpoint whole and, when apply is set, restores it.
static icResult readCheckpoint(icWorld *world, const void *data, size_t size, bool apply,
                               const void **user, size_t *userSize, icDiagnostic *diag) {
    IC_ASSERT(world);
    if (user) *user = NULL;
    if (userSize) *userSize = 0;
    if (!data && size) return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no data");
    const uint8_t *bytes = data;
    icCheckpointView view;
    icResult r = checkLayout(world, bytes, size, &view, diag);
    if (r != IC_OK) return r;

    icState *s = world->state;
    const uint8_t *p = view.state;
    if (view.stateBytes < IC_STATE_FIXED)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint state section is %llu bytes, too short",
                       (icU64)view.stateBytes);
    uint64_t vertices = icBytes_Get64(p), tets = icBytes_Get64(p + 8);
    if (vertices != (uint64_t)s->vertexCount || tets != (uint64_t)s->tetCount)
        return IC_FAIL(IC_ERR_BAD_VALUE,
                       "checkpoint holds %llu vertices and %llu tets; this world has %d and %d",
                       (icU64)vertices, (icU64)tets, s->vertexCount, s->tetCount);
    size_t nv = 3 * (size_t)s->vertexCount, nt = (size_t)s->tetCount;
    if (view.stateBytes != IC_STATE_FIXED + 8 * (3 * nv + 2 * nt))
        return IC_FAIL(IC_ERR_PARSE, "checkpoint state section is %llu bytes, expected %llu",
                       (icU64)view.stateBytes, (icU64)(IC_STATE_FIXED + 8 * (3 * nv + 2 * nt)));
    const uint8_t *arrays = p + IC_STATE_FIXED;
    icReal time = icBytes_GetReal(p + 16), lastSubstep = icBytes_GetReal(p + 24);
    int64_t substepCount = (int64_t)icBytes_Get64(p + 32);
    if (!isfinite(time) || !isfinite(lastSubstep) || !finiteReals(arrays, 3 * nv + 2 * nt))
        return IC_FAIL(IC_ERR_NOT_FINITE, "checkpoint state holds NaN or infinite numbers");
    if ((r = checkStateRanges(world, arrays, nv, time, lastSubstep, diag)) != IC_OK) return r;
    if (view.healthBytes != IC_HEALTH_BYTES && view.healthBytes != IC_HEALTH_BYTES_12_WORDS)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint health section is %llu bytes, expected %u",
                       (icU64)view.healthBytes, IC_HEALTH_BYTES);
    if ((r = checkHealth(view.health, view.healthBytes, diag)) != IC_OK) return r;
    // Counters keep counting after a restart: none may be negative or near overflowing.
    const uint64_t countLimit = (uint64_t)1 << 62;
    bool countsOk = (uint64_t)substepCount < countLimit;
    for (int i = 0; i < 8; ++i) countsOk = countsOk && icBytes_Get64(view.health + 8 * i) < countLimit;
    countsOk = countsOk && icBytes_Get64(view.health + 72) <= (uint64_t)INT32_MAX;
    if (view.healthBytes == IC_HEALTH_BYTES) // the solver warnings
        countsOk = countsOk && icBytes_Get64(view.health + 88) < countLimit;
    if (!countsOk)
        return IC_FAIL(IC_ERR_PARSE, "checkpoint holds a negative or impossibly large count");
    const icSolverOps *solver = icWorld_Solver(world);
    size_t memoryReals = (size_t)solver->memoryPerVertex * (size_t)s->vertexCount;
    const uint8_t *memory = NULL; // INCP arrays in the solver's layout
    size_t vertexCount = (size_t)s->vertexCount;
    if (view.memory) {
        if (view.memoryBytes < IC_MEMORY_FIXED)
            return IC_FAIL(IC_ERR_PARSE, "checkpoint INCP section is %llu bytes, too short",
                           (icU64)view.memoryBytes);
        uint64_t count = icBytes_Get64(view.memory);
        if (count != (uint64_t)s->vertexCount)
            return IC_FAIL(IC_ERR_BAD_VALUE,
                           "checkpoint INCP section holds %llu vertices; this world has %d",
                           (icU64)count, s->vertexCount);
        if (view.memoryBytes != memoryPayload(solver, vertexCount))
            return IC_FAIL(IC_ERR_PARSE, "checkpoint INCP section is %llu bytes, expected %llu",
                           (icU64)view.memoryBytes, (icU64)memoryPayload(solver, vertexCount));
        memory = view.memory + IC_MEMORY_FIXED;
        if (!finiteReals(memory, memoryReals))
            return IC_FAIL(IC_ERR_NOT_FINITE,
                           "checkpoint INCP section holds NaN or infinite numbers");
    }

    if (user) *user = view.user;
    if (userSize) *userSize = (size_t)view.userBytes;
    if (!apply) return IC_OK;

    // Everything checked: restore. The solver's memory first: it is the only part that can
    // fail (building the solver's cache), and then the state is still as it was.
    if (memory && vertexCount > 0) {
        icReal *values = IC_ALLOC(icReal, memoryReals);
        if (!values) return IC_FAIL(IC_ERR_OUT_OF_MEMORY, "cannot restore the checkpoint");
        getReals(memory, values, memoryReals);
        r = solver->setMemory(world, values);
        icFree(values);
        if (r != IC_OK)
            return IC_FAIL(r, "cannot restore the %s solver from the checkpoint", solver->name);
    }
    s->time = time;
    s->lastSubstep = lastSubstep;
    s->substepCount = substepCount;
    getReals(arrays, s->x, nv);
    getReals(arrays + 8 * nv, s->v, nv);
    getReals(arrays + 16 * nv, s->xPrev, nv);
    getReals(arrays + 24 * nv, s->lambdaD, nt);
    getReals(arrays + 24 * nv + 8 * nt, s->lambdaH, nt);

    const uint8_t *q = view.health;
    icHealthStats *h = &world->health;
    memset(h, 0, sizeof *h);
    int64_t *counts[8] = {&h->steps,          &h->warnings,          &h->nonFiniteSteps,
                          &h->speedWarnings,  &h->inversionWarnings, &h->volumeWarnings,
                          &h->clampedVertices, &h->stops};
    for (int i = 0; i < 8; ++i) *counts[i] = (int64_t)icBytes_Get64(q + 8 * i);
    h->maxSpeedSeen = icBytes_GetReal(q + 64);
    h->maxInvertedSeen = (int)(int64_t)icBytes_Get64(q + 72);
    h->maxVolumeDriftSeen = icBytes_GetReal(q + 80);
    if (view.healthBytes == IC_HEALTH_BYTES) {
        h->solverWarnings = (int64_t)icBytes_Get64(q + 88);
        h->maxTetJMinus1Seen = icBytes_GetReal(q + 96);
    }
    memcpy(h->lastWarning, q + healthTextOffset(view.healthBytes), sizeof h->lastWarning);
    h->lastWarning[sizeof h->lastWarning - 1] = 0;
    return IC_OK;
}

icResult icWorld_CheckCheckpoint(const icWorld *world, const void *data, size_t size,
                                 const void **user, size_t *userSize, icDiagnostic *diag) {
    return readCheckpoint((icWorld *)world, data, size, false, user, userSize, diag);
}

icResult icWorld_LoadCheckpoint(icWorld *world, const void *data, size_t size, const void **user,
                                size_t *userSize, icDiagnostic *diag) {
    return readCheckpoint(world, data, size, true, user, userSize, diag);
}
