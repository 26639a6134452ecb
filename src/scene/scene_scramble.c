// SPDX-License-Identifier: MIT
// The scramble initial condition: a body collapsed into a plane with random vertex
// positions, from which the solver has to unfold it (the robustness tests of Macklin & Müller
// 2021, sec. 5.2).
#include "scene/scene_internal.h"

#include <math.h>

// splitmix64: a fixed, portable generator, so a seed gives the same scramble everywhere.
static uint64_t nextRandom(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *state) {
    return (double)(nextRandom(state) >> 11) * (1.0 / 9007199254740992.0);
}

void icScene_Scramble(icWorld *world, const icSceneBody *body) {
    int vertexStart = 0, vertexCount = 0, tetStart = 0, tetCount = 0;
    icBody_GetRanges(world, body->id, &vertexStart, &vertexCount, &tetStart, &tetCount);
    if (vertexCount <= 0) return;
    icReal *x = icWorld_GetPositionsMutable(world);

    icVec3 n = icVec3_Normalize(body->scrambleNormal);
    // Any unit vector not parallel to n spans the plane with n x it.
    icVec3 helper = fabs(n.x) < 0.6 ? icVec3_Make(1, 0, 0) : icVec3_Make(0, 1, 0);
    icVec3 u = icVec3_Normalize(icVec3_Cross(n, helper));
    icVec3 v = icVec3_Cross(n, u);

    icVec3 centroid = icVec3_Make(0, 0, 0);
    for (int i = 0; i < vertexCount; ++i)
        centroid = icVec3_Add(centroid, icVec3_Load(x, vertexStart + i));
    centroid = icVec3_Scale(1.0 / vertexCount, centroid);
    icReal uMin = INFINITY, uMax = -INFINITY, vMin = INFINITY, vMax = -INFINITY;
    for (int i = 0; i < vertexCount; ++i) {
        icVec3 d = icVec3_Sub(icVec3_Load(x, vertexStart + i), centroid);
        icReal a = icVec3_Dot(d, u), b = icVec3_Dot(d, v);
        uMin = fmin(uMin, a);
        uMax = fmax(uMax, a);
        vMin = fmin(vMin, b);
        vMax = fmax(vMax, b);
    }

    uint64_t state = body->scrambleSeed;
    for (int i = 0; i < vertexCount; ++i) {
        icReal a = uMin + (uMax - uMin) * uniform01(&state);
        icReal b = vMin + (vMax - vMin) * uniform01(&state);
        icVec3 p = icVec3_MulAdd(icVec3_MulAdd(centroid, a, u), b, v);
        icVec3_Store(x, vertexStart + i, p);
    }
}
