// SPDX-License-Identifier: MIT
// The rod world: creation, defaults, storage growth, getters, planes, bones and pins.
#include "rod/rod_internal.h"

#include "core/pool.h"

#include <math.h>

icRodWorldDef icDefaultRodWorldDef(void) {
    icRodWorldDef d;
    d.gravity = icVec3_Make(0, -9.81, 0);
    d.substeps = 1;
    d.iterations = 10;
    d.collisionOnlyOddPasses = true;
    d.velocityDamping = 0.9999;
    d.bendDamping = 0.02;
    d.minRadius = 0.001;
    d.collisionMargin = 0.002;
    d.searchIterations = 10;
    d.radiusCoupling = 0;
    d.scaledBending = false;
    d.radiusModel = IC_ROD_RADIUS_VIPER;
    d.bundleProjection = IC_ROD_BUNDLE_AVERAGED;
    d.referenceQuirks = false;
    d.workerCount = 0;
    return d;
}

icRodPlaneDef icDefaultRodPlaneDef(void) {
    icRodPlaneDef d;
    d.normal = icVec3_Make(0, 1, 0);
    d.offset = 0;
    d.staticFriction = 0.01;
    d.kineticFriction = 3.0;
    return d;
}

static bool validDef(const icRodWorldDef *d) {
    return icVec3_IsFinite(d->gravity) && d->substeps >= 1 && d->iterations >= 1 &&
           d->velocityDamping > 0 && d->velocityDamping <= 1 && d->bendDamping >= 0 &&
           d->bendDamping < 1 && d->minRadius >= 0 && isfinite(d->minRadius) &&
           d->collisionMargin >= 0 && isfinite(d->collisionMargin) && d->searchIterations >= 1 &&
           d->radiusCoupling >= 0 && d->radiusCoupling <= 1 &&
           (d->radiusModel == IC_ROD_RADIUS_VIPER || d->radiusModel == IC_ROD_RADIUS_BERGOU) &&
           (d->bundleProjection == IC_ROD_BUNDLE_AVERAGED ||
            d->bundleProjection == IC_ROD_BUNDLE_POST) &&
           d->workerCount >= 0 && d->workerCount <= IC_MAX_WORKERS;
}

// Segments from which an automatic worker count runs more than one worker: the pill searches
// of a pile of 2,000 segments gain from a second worker, those of a few hundred do not
// (docs/performance.md, "Automatic worker count").
enum { IC_ROD_AUTO_MIN_SEGMENTS = 2000 };

static int resolvedWorkers(const icRodWorld *w, int workerCount) {
    return icPool_ResolveWorkers(workerCount, w->model.segmentCount, IC_ROD_AUTO_MIN_SEGMENTS);
}

// The pool is made at the first step (a def is checked without starting threads) and made
// again when the count it stands for changed (an automatic count follows the segments).
icResult icRod_EnsurePool(icRodWorld *w) {
    int workers = resolvedWorkers(w, w->def.workerCount);
    if (w->pool && icPool_WorkerCount(w->pool) == workers) return IC_OK;
    struct icPool *pool = icCreatePool(workers, NULL, NULL, NULL);
    if (!pool) return IC_ERR_OUT_OF_MEMORY;
    icDestroyPool(w->pool);
    w->pool = pool;
    return IC_OK;
}

int icRodWorld_GetWorkerCount(const icRodWorld *w) {
    IC_ASSERT(w);
    return resolvedWorkers(w, w->def.workerCount);
}

int icRodAutoWorkerMinSegments(void) { return IC_ROD_AUTO_MIN_SEGMENTS; }

icRodWorld *icCreateRodWorld(const icRodWorldDef *def) {
    icRodWorldDef d = def ? *def : icDefaultRodWorldDef();
    if (!validDef(&d)) return NULL;
    icRodWorld *w = IC_ALLOC_ZERO(icRodWorld, 1);
    if (!w) return NULL;
    w->def = d;
    return w;
}

static void freeWork(icRodWork *k) {
    void *arrays[] = {k->x0,      k->r0,        k->q0,      k->lStretch,   k->lBend,  k->lRadius,
                      k->lSmooth, k->lBilap,    k->lVolume, k->dx,         k->dr,     k->dq,
                      k->nx,      k->nr,        k->nq,      k->omegaWorld, k->pairs,  k->sphere,
                      k->cellOf,  k->cellStart, k->order,   k->segOf,      k->sorted, k->cellXYZ,
                      k->large,   k->pairData,  k->lLink};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) icFree(arrays[i]);
    memset(k, 0, sizeof *k);
}

void icDestroyRodWorld(icRodWorld *w) {
    if (!w) return;
    icRodModel *m = &w->model;
    void *arrays[] = {m->restPos,    m->restRadius,  m->w,          m->wr,        m->pinBone,
                      m->pinBase,    m->warmBone,    m->warmWeight, m->vertexRod, m->seg,
                      m->restLength, m->restLength0, m->restQ,      m->wq,        m->segGroup,
                      m->segCollide, m->segPinned,   m->rods,       m->stretch,   m->bend,
                      m->radius,     m->smooth,      m->bilap,      m->volume,    m->bundles,
                      m->bundleRods, m->slices,      m->planes,     m->bones,     m->links};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) icFree(arrays[i]);
    icFree(w->stepStart);
    for (int s = 0; s < m->skinCount; ++s) {
        icRodSkin *k = &m->skins[s];
        icFree(k->triangles);
        icFree(k->boneSeg);
        icFree(k->boneEnd);
        icFree(k->weight);
        icFree(k->local);
        icFree(k->positions);
    }
    icFree(m->skins);
    icRodState *s = &w->state;
    icFree(s->x);
    icFree(s->v);
    icFree(s->r);
    icFree(s->rdot);
    icFree(s->q);
    icFree(s->omega);
    icFree(s->sliceRot);
    freeWork(&w->work);
    icDestroyPool(w->pool);
    icFree(w);
}

icRodWorldDef icRodWorld_GetDef(const icRodWorld *w) { return w->def; }

icResult icRodWorld_SetDef(icRodWorld *w, const icRodWorldDef *def) {
    if (!def || !validDef(def)) return IC_ERR_BAD_VALUE;
    w->def = *def;
    return IC_OK;
}

// Grows one array from oldCount to newCap elements, keeping the contents.
static bool growTo(void **array, int oldCount, int newCap, size_t size) {
    void *p = icAlloc(size * (size_t)newCap);
    if (!p) return false;
    if (*array && oldCount > 0) memcpy(p, *array, size * (size_t)oldCount);
    icFree(*array);
    *array = p;
    return true;
}

// Makes room for `extra` more vertices and segments in the model and the state.
icResult icRod_Reserve(icRodWorld *w, int extraVertices, int extraSegments) {
    icRodModel *m = &w->model;
    icRodState *s = &w->state;
    int nv = m->vertexCount + extraVertices, ns = m->segmentCount + extraSegments;
    if (nv > m->vertexCapacity) {
        int cap = m->vertexCapacity * 2 > nv ? m->vertexCapacity * 2 : nv;
        int n = m->vertexCount;
        bool ok = growTo((void **)&m->restPos, 3 * n, 3 * cap, sizeof(icReal)) &&
                  growTo((void **)&m->restRadius, n, cap, sizeof(icReal)) &&
                  growTo((void **)&m->w, n, cap, sizeof(icReal)) &&
                  growTo((void **)&m->wr, n, cap, sizeof(icReal)) &&
                  growTo((void **)&m->pinBone, n, cap, sizeof(int)) &&
                  growTo((void **)&m->pinBase, 3 * n, 3 * cap, sizeof(icReal)) &&
                  growTo((void **)&m->warmBone, 2 * n, 2 * cap, sizeof(int)) &&
                  growTo((void **)&m->warmWeight, n, cap, sizeof(icReal)) &&
                  growTo((void **)&m->vertexRod, n, cap, sizeof(int)) &&
                  growTo((void **)&s->x, 3 * n, 3 * cap, sizeof(icReal)) &&
                  growTo((void **)&s->v, 3 * n, 3 * cap, sizeof(icReal)) &&
                  growTo((void **)&s->r, n, cap, sizeof(icReal)) &&
                  growTo((void **)&s->rdot, n, cap, sizeof(icReal));
        if (!ok) return IC_ERR_OUT_OF_MEMORY;
        m->vertexCapacity = cap;
    }
    if (ns > m->segmentCapacity) {
        int cap = m->segmentCapacity * 2 > ns ? m->segmentCapacity * 2 : ns;
        int n = m->segmentCount;
        bool ok = growTo((void **)&m->seg, 2 * n, 2 * cap, sizeof(int)) &&
                  growTo((void **)&m->restLength, n, cap, sizeof(icReal)) &&
                  growTo((void **)&m->restLength0, n, cap, sizeof(icReal)) &&
                  growTo((void **)&m->restQ, 4 * n, 4 * cap, sizeof(icReal)) &&
                  growTo((void **)&m->wq, n, cap, sizeof(icReal)) &&
                  growTo((void **)&m->segGroup, n, cap, sizeof(int)) &&
                  growTo((void **)&m->segCollide, n, cap, 1) &&
                  growTo((void **)&m->segPinned, n, cap, 1) &&
                  growTo((void **)&s->q, 4 * n, 4 * cap, sizeof(icReal)) &&
                  growTo((void **)&s->omega, 3 * n, 3 * cap, sizeof(icReal));
        if (!ok) return IC_ERR_OUT_OF_MEMORY;
        m->segmentCapacity = cap;
    }
    w->workReady = false;
    return IC_OK;
}

// Per-step work arrays sized to the model (allocated when the model changed).
icResult icRod_PrepareWork(icRodWorld *w) {
    if (w->workReady) return IC_OK;
    const icRodModel *m = &w->model;
    icRodWork *k = &w->work;
    int pairCapacity = k->pairCapacity;
    int *pairs = k->pairs;
    k->pairs = NULL;
    freeWork(k);
    k->pairs = pairs;
    k->pairCapacity = pairCapacity;
    size_t nv = (size_t)m->vertexCount + 1, ns = (size_t)m->segmentCount + 1;
    k->x0 = IC_ALLOC(icReal, 3 * nv);
    k->r0 = IC_ALLOC(icReal, nv);
    k->q0 = IC_ALLOC(icReal, 4 * ns);
    k->lStretch = IC_ALLOC(icReal, 3 * (size_t)m->stretchCount + 1);
    k->lBend = IC_ALLOC(icReal, 3 * (size_t)m->bendCount + 1);
    k->lRadius = IC_ALLOC(icReal, (size_t)m->radiusCount + 1);
    k->lSmooth = IC_ALLOC(icReal, (size_t)m->smoothCount + 1);
    k->lBilap = IC_ALLOC(icReal, (size_t)m->bilapCount + 1);
    k->lVolume = IC_ALLOC(icReal, (size_t)m->volumeCount + 1);
    k->lLink = IC_ALLOC(icReal, (size_t)m->linkCount + 1);
    k->dx = IC_ALLOC(icReal, 3 * nv);
    k->dr = IC_ALLOC(icReal, nv);
    k->dq = IC_ALLOC(icReal, 4 * ns);
    k->nx = IC_ALLOC(int, nv);
    k->nr = IC_ALLOC(int, nv);
    k->nq = IC_ALLOC(int, ns);
    k->omegaWorld = IC_ALLOC(icReal, 3 * ns);
    k->sphere = IC_ALLOC(icReal, 4 * ns);
    k->cellOf = IC_ALLOC(int, ns);
    k->order = IC_ALLOC(int, ns);
    k->segOf = IC_ALLOC(int, ns);
    k->sorted = IC_ALLOC(int, ns);
    k->cellXYZ = IC_ALLOC(int, 3 * ns);
    k->large = IC_ALLOC(int, ns);
    if (!k->segOf || !k->sorted || !k->cellXYZ || !k->large) return IC_ERR_OUT_OF_MEMORY;
    if (!k->x0 || !k->r0 || !k->q0 || !k->lStretch || !k->lBend || !k->lRadius || !k->lSmooth ||
        !k->lBilap || !k->lVolume || !k->lLink || !k->dx || !k->dr || !k->dq || !k->nx || !k->nr || !k->nq ||
        !k->omegaWorld || !k->sphere || !k->cellOf || !k->order)
        return IC_ERR_OUT_OF_MEMORY;
    w->workReady = true;
    return IC_OK;
}

// ---------------------------------------------------------------------------------------
// Getters

int icRodWorld_GetRodCount(const icRodWorld *w) { return w->model.rodCount; }

icRodRange icRodWorld_GetRod(const icRodWorld *w, int rod) {
    IC_ASSERT(rod >= 0 && rod < w->model.rodCount);
    const icRodRecord *r = &w->model.rods[rod];
    icRodRange range = {r->vertexStart,  r->vertexCount, r->segmentStart,
                        r->segmentCount, r->group,       r->chain};
    return range;
}

int icRodWorld_GetVertexCount(const icRodWorld *w) { return w->model.vertexCount; }
int icRodWorld_GetSegmentCount(const icRodWorld *w) { return w->model.segmentCount; }
const int *icRodWorld_GetSegments(const icRodWorld *w) { return w->model.seg; }
const icReal *icRodWorld_GetPositions(const icRodWorld *w) { return w->state.x; }
const icReal *icRodWorld_GetRadii(const icRodWorld *w) { return w->state.r; }
const icReal *icRodWorld_GetFrames(const icRodWorld *w) { return w->state.q; }
const icReal *icRodWorld_GetVelocities(const icRodWorld *w) { return w->state.v; }
const icReal *icRodWorld_GetRadiusVelocities(const icRodWorld *w) { return w->state.rdot; }
icReal *icRodWorld_GetPositionsMutable(icRodWorld *w) { return w->state.x; }
icReal *icRodWorld_GetRadiiMutable(icRodWorld *w) { return w->state.r; }
icReal *icRodWorld_GetVelocitiesMutable(icRodWorld *w) { return w->state.v; }
icReal *icRodWorld_GetRadiusVelocitiesMutable(icRodWorld *w) { return w->state.rdot; }
const icReal *icRodWorld_GetRestPositions(const icRodWorld *w) { return w->model.restPos; }
const icReal *icRodWorld_GetRestRadii(const icRodWorld *w) { return w->model.restRadius; }
const icReal *icRodWorld_GetRestLengths(const icRodWorld *w) { return w->model.restLength; }
const icReal *icRodWorld_GetInverseMasses(const icRodWorld *w) { return w->model.w; }
icReal icRodWorld_GetTime(const icRodWorld *w) { return w->state.time; }

// Sum of the segments' pill volumes (measure P) plus a half ball at each chain end.
icReal icRodWorld_GetVolume(const icRodWorld *w, int firstRod, int rodCount, bool rest) {
    const icRodModel *m = &w->model;
    const icReal *x = rest ? m->restPos : w->state.x;
    const icReal *r = rest ? m->restRadius : w->state.r;
    icReal total = 0;
    for (int k = firstRod; k < firstRod + rodCount && k < m->rodCount; ++k) {
        const icRodRecord *rod = &m->rods[k];
        for (int e = rod->segmentStart; e < rod->segmentStart + rod->segmentCount; ++e) {
            int a = m->seg[2 * e], b = m->seg[2 * e + 1];
            icReal d = icVec3_Distance(icVec3_Load(x, a), icVec3_Load(x, b));
            total += icRod_SegmentVolume(r[a], r[b], d, NULL, NULL, NULL);
        }
        if (rod->chain) {
            int a = rod->vertexStart, b = rod->vertexStart + rod->vertexCount - 1;
            total += (2.0 * IC_PI / 3.0) * (r[a] * r[a] * r[a] + r[b] * r[b] * r[b]);
        }
    }
    return total;
}

// ---------------------------------------------------------------------------------------
// Planes, bones, pins

icResult icRodWorld_AddPlane(icRodWorld *w, const icRodPlaneDef *def) {
    if (!def) return IC_ERR_INVALID_ARGUMENT;
    icReal len = icVec3_Length(def->normal);
    if (!(len > 0) || !isfinite(len) || !isfinite(def->offset) || !(def->staticFriction >= 0) ||
        !(def->kineticFriction >= 0) || !isfinite(def->staticFriction) ||
        !isfinite(def->kineticFriction))
        return IC_ERR_BAD_VALUE;
    icRodModel *m = &w->model;
    if (!icGrowArray((void **)&m->planes, &m->planeCapacity, m->planeCount + 1, sizeof(icRodPlane)))
        return IC_ERR_OUT_OF_MEMORY;
    m->planes[m->planeCount++] =
        (icRodPlane){icVec3_Scale(1.0 / len, def->normal), def->offset / len, def->staticFriction,
                     def->kineticFriction};
    return IC_OK;
}

icResult icRodWorld_AddBone(icRodWorld *w, const icMotion *motions, int motionCount, int *bone) {
    if (motionCount < 0 || motionCount > IC_MAX_MOTIONS || (motionCount > 0 && !motions))
        return IC_ERR_BAD_VALUE;
    for (int i = 0; i < motionCount; ++i) {
        const icMotion *mo = &motions[i];
        if (!icVec3_IsFinite(mo->velocity) || !icVec3_IsFinite(mo->centre) ||
            !isfinite(mo->degreesPerSecond) || !(mo->start >= 0) || !(mo->end >= mo->start) ||
            (mo->degreesPerSecond != 0 && !(icVec3_Length(mo->axis) > 0)))
            return IC_ERR_BAD_VALUE;
    }
    icRodModel *m = &w->model;
    if (!icGrowArray((void **)&m->bones, &m->boneCapacity, m->boneCount + 1, sizeof(icRodBone)))
        return IC_ERR_OUT_OF_MEMORY;
    icRodBone *b = &m->bones[m->boneCount];
    memset(b, 0, sizeof *b);
    b->motionCount = motionCount;
    for (int i = 0; i < motionCount; ++i) b->motions[i] = motions[i];
    if (bone) *bone = m->boneCount;
    ++m->boneCount;
    return IC_OK;
}

// Composes the motion segments (world.c's icModel_PinPosition semantics) into p -> R p + T.
void icRodBone_Transform(const icRodBone *bone, icReal t, icMat3 *R, icVec3 *T) {
    icMat3 r = icMat3_Identity();
    icVec3 tr = icVec3_Make(0, 0, 0);
    for (int i = 0; i < bone->motionCount; ++i) {
        const icMotion *mo = &bone->motions[i];
        icReal tau = (t < mo->start ? mo->start : (t > mo->end ? mo->end : t)) - mo->start;
        if (tau <= 0) continue;
        if (mo->degreesPerSecond != 0) {
            // p -> c + Rm (p - c): R' = Rm R, T' = Rm T + c - Rm c
            icMat3 rm = icMat3_Rotation(mo->axis, mo->degreesPerSecond * tau * (IC_PI / 180.0));
            r = icMat3_Mul(rm, r);
            tr = icVec3_Add(icMat3_MulVec(rm, icVec3_Sub(tr, mo->centre)), mo->centre);
        }
        tr = icVec3_MulAdd(tr, tau, mo->velocity);
    }
    *R = r;
    *T = tr;
}

static void updateSegPinned(icRodModel *m, int e) {
    m->segPinned[e] = m->w[m->seg[2 * e]] == 0 || m->w[m->seg[2 * e + 1]] == 0;
}

icResult icRodWorld_PinVertex(icRodWorld *w, int vertex, int bone, bool holdRadius) {
    icRodModel *m = &w->model;
    if (vertex < 0 || vertex >= m->vertexCount || bone < -1 || bone >= m->boneCount)
        return IC_ERR_INDEX_OUT_OF_RANGE;
    m->w[vertex] = 0;
    if (holdRadius) m->wr[vertex] = 0;
    m->pinBone[vertex] = bone;
    // The bone's transform maps the position at time 0; store the preimage so that a vertex
    // pinned later (t > 0) starts where it is.
    icVec3 x = icVec3_Load(w->state.x, vertex);
    if (bone >= 0) {
        icMat3 R;
        icVec3 T;
        icRodBone_Transform(&m->bones[bone], w->state.time, &R, &T);
        x = icMat3_MulTransVec(R, icVec3_Sub(x, T));
    }
    icVec3_Store(m->pinBase, vertex, x);
    icVec3_Store(w->state.v, vertex, icVec3_Make(0, 0, 0));
    const icRodRecord *rod = &m->rods[m->vertexRod[vertex]];
    for (int e = rod->segmentStart; e < rod->segmentStart + rod->segmentCount; ++e)
        updateSegPinned(m, e);
    return IC_OK;
}

icResult icRodWorld_SetBoneWeights(icRodWorld *w, int vertex, int boneA, int boneB,
                                   icReal weightA) {
    icRodModel *m = &w->model;
    if (vertex < 0 || vertex >= m->vertexCount || boneA < 0 || boneA >= m->boneCount || boneB < 0 ||
        boneB >= m->boneCount)
        return IC_ERR_INDEX_OUT_OF_RANGE;
    if (!(weightA >= 0 && weightA <= 1)) return IC_ERR_BAD_VALUE;
    m->warmBone[2 * vertex] = boneA;
    m->warmBone[2 * vertex + 1] = boneB;
    m->warmWeight[vertex] = weightA;
    return IC_OK;
}

icResult icRodWorld_AddLink(icRodWorld *w, icRodLinkKind kind, int a, int b, icReal rest,
                            icReal compliance) {
    icRodModel *m = &w->model;
    if (a < 0 || b < 0 || a >= m->vertexCount || b >= m->vertexCount)
        return IC_ERR_INDEX_OUT_OF_RANGE;
    if (a == b) return IC_ERR_REPEATED_INDEX;
    if ((kind != IC_ROD_LINK_DISTANCE && kind != IC_ROD_LINK_MAX_DISTANCE &&
         kind != IC_ROD_LINK_TOUCH) ||
        !(rest >= 0) || !isfinite(rest) || !(compliance >= 0) || !isfinite(compliance))
        return IC_ERR_BAD_VALUE;
    if (!icGrowArray((void **)&m->links, &m->linkCapacity, m->linkCount + 1, sizeof(icRodLink)))
        return IC_ERR_OUT_OF_MEMORY;
    m->links[m->linkCount++] = (icRodLink){kind, a, b, rest, compliance};
    w->workReady = false;
    return IC_OK;
}
