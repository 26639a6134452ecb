// SPDX-License-Identifier: MIT
// The later Newton solves of eq. 1 (Irving et al. 2007, sec. 2, iterated) on the rings still
// off their goal and a few rings around them. After the first solve of a 104k-tet impact
// substep ~300 of ~20k rings are above the tolerance and ~40 after the second,
// but a solve over the whole mesh costs a whole-mesh product per iteration
// and these solves took two thirds of the impact's pressure iterations. Restricted, each
// iteration costs what the sub-mesh does. The pressure is zero outside the domain, so its edge
// rings move a little; the Newton loop checks every ring after each solve and takes another
// where needed.
#include "local_solve.h"

#include "core/core.h"

#include <math.h>
#include <string.h>

// Each vertex's neighbours through shared tets, once: the domain's breadth-first search walks
// these (~14 a vertex) instead of every corner of every ring tet (~96), which missed the caches
// on every other read. queue, free until the first solve, serves as the stamp array.
static bool buildNeighbours(icLocalSolve *s) {
    int n = s->n;
    s->neighbourStart = IC_ALLOC(int, (size_t)n + 1);
    if (!s->neighbourStart) return false;
    int *stamp = s->queue;
    for (int pass = 0; pass < 2; ++pass) {
        for (int v = 0; v < n; ++v) stamp[v] = -1;
        int count = 0;
        for (int v = 0; v < n; ++v) {
            if (pass == 0) s->neighbourStart[v] = count;
            stamp[v] = v;
            for (int i = s->rings.offsets[v]; i < s->rings.offsets[v + 1]; ++i) {
                const int *tv = s->tets + 4 * s->rings.indices[i];
                for (int a = 0; a < 4; ++a)
                    if (stamp[tv[a]] != v) {
                        stamp[tv[a]] = v;
                        if (pass == 1) s->neighbours[count] = tv[a];
                        ++count;
                    }
            }
        }
        if (pass == 0) {
            s->neighbourStart[n] = count;
            s->neighbours = IC_ALLOC(int, (size_t)count + 1);
            if (!s->neighbours) return false;
        }
    }
    return true;
}

icLocalSolve *icCreateLocalSolve(int n, const int *tets, int T) {
    icLocalSolve *s = IC_ALLOC_ZERO(icLocalSolve, 1);
    if (!s) return NULL;
    s->n = n;
    s->tetCount = T;
    s->tets = tets;
    size_t N = (size_t)n;
    s->localOf = IC_ALLOC(int, N);
    s->globalOf = IC_ALLOC(int, N);
    s->queue = IC_ALLOC(int, N);
    s->inDomain = IC_ALLOC_ZERO(unsigned char, N);
    s->tetIn = IC_ALLOC_ZERO(unsigned char, (size_t)T + 1);
    s->tetList = IC_ALLOC(int, (size_t)T + 1);
    s->subTets = IC_ALLOC(int, 4 * (size_t)T + 1);
    s->subInvMass = IC_ALLOC(icReal, 3 * N);
    s->subX = IC_ALLOC(icReal, 3 * N);
    s->subW = IC_ALLOC(icReal, 3 * N);
    s->subGoal = IC_ALLOC(icReal, N);
    s->subRing = IC_ALLOC(icReal, N);
    s->subPhat = IC_ALLOC(icReal, N);
    s->active = IC_ALLOC(unsigned char, N);
    // The mesh view reads only the counts and tets.
    icTetMesh view = {.vertexCount = n, .tetCount = T, .tets = (int *)tets};
    if (icTetMesh_VertexTets(&view, &s->rings) != IC_OK || !s->localOf || !s->globalOf ||
        !s->queue || !s->inDomain || !s->tetIn || !s->tetList || !s->subTets || !s->subInvMass ||
        !s->subX || !s->subW || !s->subGoal || !s->subRing || !s->subPhat || !s->active) {
        icDestroyLocalSolve(s);
        return NULL;
    }
    for (int v = 0; v < n; ++v) s->localOf[v] = -1;
    if (!buildNeighbours(s)) {
        icDestroyLocalSolve(s);
        return NULL;
    }
    return s;
}

void icDestroyLocalSolve(icLocalSolve *s) {
    if (!s) return;
    icAdjacency_Destroy(&s->rings);
    icFree(s->neighbourStart);
    icFree(s->neighbours);
    icFree(s->localOf);
    icFree(s->globalOf);
    icFree(s->queue);
    icFree(s->inDomain);
    icFree(s->tetIn);
    icFree(s->tetList);
    icFree(s->subTets);
    icFree(s->subInvMass);
    icFree(s->subX);
    icFree(s->subW);
    icFree(s->subGoal);
    icFree(s->subRing);
    icFree(s->subPhat);
    icFree(s->active);
    icConstraintSet_Destroy(&s->constraints);
    icFree(s);
}

// The domain: seed rings, then `layers` breadth-first rounds over neighbours. Returns its size;
// the rings are marked in inDomain and listed in queue.
static int growDomain(icLocalSolve *s, const icReal *scale, const icReal *goal, const icReal *ring,
                      icReal threshold, int layers) {
    int count = 0;
    for (int k = 0; k < s->n; ++k)
        if (fabs(ring[k] - goal[k]) > threshold * fabs(scale[k])) {
            s->inDomain[k] = 1;
            s->queue[count++] = k;
        }
    int begin = 0;
    for (int layer = 0; layer < layers && begin < count; ++layer) {
        int end = count;
        for (int q = begin; q < end; ++q) {
            int k = s->queue[q];
            for (int i = s->neighbourStart[k]; i < s->neighbourStart[k + 1]; ++i) {
                int j = s->neighbours[i];
                if (!s->inDomain[j]) {
                    s->inDomain[j] = 1;
                    s->queue[count++] = j;
                }
            }
        }
        begin = end;
    }
    return count;
}

// The constraints restricted to the sub-mesh: entries on vertices outside it are dropped (those
// vertices do not move), a constraint with none left is dropped, the order is kept (Irving et
// al. 2007, sec. 4).
static icResult restrictConstraints(icLocalSolve *s, const icConstraintSet *all) {
    icConstraintSet_Clear(&s->constraints);
    if (!all) return IC_OK;
    for (int i = 0; i < all->count; ++i) {
        const icVelocityConstraint *k = &all->items[i];
        icVelocityConstraint local;
        memset(&local, 0, sizeof local);
        for (int j = 0; j < k->count; ++j) {
            int v = s->localOf[k->vertices[j]];
            if (v < 0) continue;
            local.vertices[local.count] = v;
            local.c[local.count++] = k->c[j];
        }
        if (local.count > 0 && icConstraintSet_Add(&s->constraints, &local) != IC_OK)
            return IC_ERR_OUT_OF_MEMORY;
    }
    return IC_OK;
}

int icLocalSolve_CorrectPositions(icLocalSolve *s, struct icPool *pool, const icReal *x,
                                  const icReal *invMass, const icReal *scale, const icReal *goal,
                                  const icReal *ring, icReal threshold, int layers, int maxRings,
                                  const icConstraintSet *constraints, const icPressureDef *def,
                                  icReal dt, icReal *w, icReal *phat, int *domainRings,
                                  icKrylovStats *stats) {
    int n = s->n;
    memset(w, 0, sizeof(icReal) * 3 * (size_t)n);
    memset(phat, 0, sizeof(icReal) * (size_t)n);
    if (stats) memset(stats, 0, sizeof *stats);
    int rings = growDomain(s, scale, goal, ring, threshold, layers);
    *domainRings = rings;
    if (rings == 0 || rings > maxRings) {
        for (int q = 0; q < rings; ++q) s->inDomain[s->queue[q]] = 0;
        return 0;
    }
    // The sub-mesh: every tet of a domain ring in tet order, its vertices numbered in mesh order
    // (the operators' vertex ranges keep their locality). Listed as they are marked and then
    // sorted: scanning every tet and vertex of the mesh cost more than the marking.
    int tl = 0;
    for (int q = 0; q < rings; ++q) {
        int k = s->queue[q];
        for (int i = s->rings.offsets[k]; i < s->rings.offsets[k + 1]; ++i) {
            int t = s->rings.indices[i];
            if (!s->tetIn[t]) {
                s->tetIn[t] = 1;
                s->tetList[tl++] = t;
            }
        }
    }
    icSortInts(s->tetList, tl);
    int nl = 0;
    for (int j = 0; j < tl; ++j)
        for (int a = 0; a < 4; ++a) {
            int v = s->tets[4 * s->tetList[j] + a];
            if (s->localOf[v] < 0) {
                s->localOf[v] = 0;
                s->globalOf[nl++] = v;
            }
        }
    icSortInts(s->globalOf, nl);
    for (int l = 0; l < nl; ++l) s->localOf[s->globalOf[l]] = l;
    for (int j = 0; j < tl; ++j)
        for (int a = 0; a < 4; ++a)
            s->subTets[4 * j + a] = s->localOf[s->tets[4 * s->tetList[j] + a]];
    for (int l = 0; l < nl; ++l) {
        int v = s->globalOf[l];
        for (int i = 0; i < 3; ++i) {
            s->subInvMass[3 * l + i] = invMass[3 * v + i];
            s->subX[3 * l + i] = x[3 * v + i];
        }
        s->subGoal[l] = goal[v];
        s->subRing[l] = ring[v];
        s->active[l] = s->inDomain[v];
    }
    int it = -1;
    icPressureSystem *sys = icCreatePressureSystem(nl, s->subTets, tl, s->subInvMass);
    if (sys && restrictConstraints(s, constraints) == IC_OK) {
        icPressureSystem_SetPool(sys, pool);
        icPressureSystem_Setup(sys, s->subX);
        icPressureSystem_DeactivateRows(sys, s->active);
        memset(s->subW, 0, sizeof(icReal) * 3 * (size_t)nl);
        it = icPressureSystem_CorrectPositions(sys, &s->constraints, def, s->subGoal, s->subRing,
                                               dt, 0, s->subW, s->subPhat, false, stats);
        for (int l = 0; l < nl; ++l) {
            int v = s->globalOf[l];
            for (int i = 0; i < 3; ++i) w[3 * v + i] = s->subW[3 * l + i];
            phat[v] = s->subPhat[l];
        }
    }
    icDestroyPressureSystem(sys);
    // Leave the scratch marks clear for the next call.
    for (int l = 0; l < nl; ++l) s->localOf[s->globalOf[l]] = -1;
    for (int q = 0; q < rings; ++q) s->inDomain[s->queue[q]] = 0;
    for (int j = 0; j < tl; ++j) s->tetIn[s->tetList[j]] = 0;
    return it;
}
