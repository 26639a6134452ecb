// SPDX-License-Identifier: MIT
// World life cycle, defaults, soft bodies and their per-tet constants (Macklin & Müller 2021,
// secs. 3-4).
#include "world/solver.h"

#include "core/pool.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

icWorldDef icDefaultWorldDef(void) {
    icWorldDef def;
    def.solver = IC_SOLVER_XPBD;
    def.gravity = icVec3_Make(0, -9.81, 0);
    def.substeps = 20;
    def.iterations = 1;
    def.maxSubstepStrain = 0.2;
    def.maxSubsteps = 160;
    def.projection = IC_PROJECTION_COUPLED;
    def.restShift = true;
    def.workerCount = 0;
    def.linearDamping = 0;
    def.health = icDefaultHealthDef();
    def.precision = IC_PRECISION_FLOAT;
    def.colouring = IC_COLOURING_GREEDY;
    def.simd = IC_SIMD_AUTO;
    def.enqueueTask = NULL;
    def.finishTask = NULL;
    def.userTaskContext = NULL;
    return def;
}

icSoftBodyDef icDefaultSoftBodyDef(void) {
    icSoftBodyDef def;
    def.model = IC_MATERIAL_MM;
    def.youngsModulus = 1.0e5;
    def.poissonRatio = 0.45;
    def.density = 1000.0;
    def.damping = 0.0;
    def.translation = icVec3_Make(0, 0, 0);
    def.velocity = icVec3_Make(0, 0, 0);
    return def;
}

icMotion icDefaultMotion(void) {
    icMotion m;
    m.velocity = icVec3_Make(0, 0, 0);
    m.axis = icVec3_Make(0, 1, 0);
    m.centre = icVec3_Make(0, 0, 0);
    m.degreesPerSecond = 0;
    m.start = 0;
    m.end = INFINITY;
    return m;
}

icPinDef icDefaultPinDef(void) {
    icPinDef def;
    def.boxMin = icVec3_Make(0, 0, 0);
    def.boxMax = icVec3_Make(0, 0, 0);
    def.axes[0] = def.axes[1] = def.axes[2] = true;
    def.motionCount = 0;
    for (int i = 0; i < IC_MAX_MOTIONS; ++i) def.motions[i] = icDefaultMotion();
    return def;
}

icPlaneDef icDefaultPlaneDef(void) {
    icPlaneDef def;
    def.normal = icVec3_Make(0, 1, 0);
    def.offset = 0;
    def.friction = 0.5;
    return def;
}

icStaticDef icDefaultStaticDef(void) {
    icStaticDef def;
    def.pseudoStep = 1.0 / 1200.0;
    def.iterationsPerStep = 1;
    def.maxSweeps = 20000;
    def.tolerance = 1e-7;
    def.gravity = true;
    return def;
}

void icLame(icReal youngsModulus, icReal poissonRatio, icReal *mu, icReal *lambda) {
    *mu = youngsModulus / (2.0 * (1.0 + poissonRatio));
    icReal d = (1.0 + poissonRatio) * (1.0 - 2.0 * poissonRatio);
    *lambda = d > 0 ? youngsModulus * poissonRatio / d : INFINITY;
}

static bool worldDefIsValid(const icWorldDef *def) {
    return icSolver_Exists(def->solver) &&
           icVec3_IsFinite(def->gravity) && def->substeps >= 1 && def->iterations >= 1 &&
           def->maxSubstepStrain >= 0 && isfinite(def->maxSubstepStrain) && def->maxSubsteps >= 1 &&
           def->workerCount >= 0 && def->linearDamping >= 0 && isfinite(def->linearDamping) &&
           (def->projection == IC_PROJECTION_SEQUENTIAL || def->projection == IC_PROJECTION_COUPLED) &&
           icHealthDef_IsValid(&def->health) &&
           (def->precision == IC_PRECISION_DOUBLE || def->precision == IC_PRECISION_FLOAT) &&
           ((int)def->colouring >= (int)IC_COLOURING_GREEDY && def->colouring <= IC_COLOURING_PAIRS) &&
           (int)def->simd >= IC_SIMD_AUTO && def->simd <= IC_SIMD_AVX512 &&
           (def->enqueueTask == NULL) == (def->finishTask == NULL);
}

static uint16_t s_nextWorldIndex;

icWorld *icCreateWorld(const icWorldDef *def) {
    icWorldDef d = def ? *def : icDefaultWorldDef();
    if (!worldDefIsValid(&d)) return NULL;
    icWorld *world = IC_ALLOC_ZERO(icWorld, 1);
    if (!world) return NULL;
    world->model.def = d;
    world->model.colouringDirty = true;
    world->newtonDef = icDefaultNewtonDef();
    world->worldIndex = ++s_nextWorldIndex;
    world->state = icState_CreateForModel(&world->model);
    if (!world->state) {
        icFree(world);
        return NULL;
    }
    icArena_Init(&world->arena, 0);
    return world;
}

static void freeModel(icModel *m) {
    icFree(m->restPositions);
    icFree(m->mass);
    icFree(m->invMass);
    icFree(m->vertexPin);
    icFree(m->pinBase);
    icFree(m->tets);
    icFree(m->tetBody);
    icFree(m->invRest);
    icFree(m->restVolume);
    icFree(m->alphaD);
    icFree(m->alphaH);
    icFree(m->gamma);
    icFree(m->damping);
    icFree(m->bodies);
    icFree(m->pins);
    icFree(m->planes);
    icFree(m->tetCell);
    icColouring_Destroy(&m->colouring);
    icDestroyPool(m->pool);
}

void icDestroyWorld(icWorld *world) {
    if (!world) return;
    freeModel(&world->model);
    icSolver_DestroyAll(world);
    icContactSystem_Destroy(world->contact);
    icSkinSet_Destroy(world->skins);
    icHealth_Destroy(world);
    icDestroyState(world->state);
    icArena_Destroy(&world->arena);
    icFree(world);
}

icModel *icWorld_Model(icWorld *world) { return &world->model; }
icState *icWorld_State(icWorld *world) { return world->state; }

icWorldDef icWorld_GetDef(const icWorld *world) { return world->model.def; }

static int resolvedWorkers(const icModel *model) {
    return icPool_ResolveWorkers(model->def.workerCount, model->tetCount,
                                 icAutoWorkerMinTets(model->def.solver));
}

icResult icModel_EnsurePool(icModel *model) {
    int workers = resolvedWorkers(model);
    if (model->pool && icPool_WorkerCount(model->pool) == workers) return IC_OK;
    icPool *pool = icCreatePool(workers, model->def.enqueueTask, model->def.finishTask,
                                model->def.userTaskContext);
    if (!pool) return IC_ERR_OUT_OF_MEMORY;
    icDestroyPool(model->pool);
    model->pool = pool;
    return IC_OK;
}

int icWorld_GetWorkerCount(const icWorld *world) {
    IC_ASSERT(world);
    return world->model.pool ? icPool_WorkerCount(world->model.pool) : resolvedWorkers(&world->model);
}

void icWorld_SetSubsteps(icWorld *world, int substeps, int iterations) {
    IC_ASSERT(world && substeps >= 1 && iterations >= 1);
    world->model.def.substeps = substeps;
    world->model.def.iterations = iterations;
}

void icWorld_SetProjection(icWorld *world, icProjection projection) {
    IC_ASSERT(world);
    world->model.def.projection = projection;
}

void icWorld_SetGravity(icWorld *world, icVec3 gravity) {
    IC_ASSERT(world);
    world->model.def.gravity = gravity;
}

// Grows every per-vertex and per-tet array of the model (and the current state) so that
// `vertices` and `tets` more fit. All-or-nothing is not needed: capacities only grow.
static bool growModel(icWorld *world, int vertices, int tets) {
    icModel *m = &world->model;
    int nv = m->vertexCount + vertices, nt = m->tetCount + tets;
    if (nv > m->vertexCapacity) {
        int cap = m->vertexCapacity;
        int c2 = cap, c3 = cap, c4 = cap, c5 = cap;
        if (!icGrowArray((void **)&m->restPositions, &cap, nv, 3 * sizeof(icReal)) ||
            !icGrowArray((void **)&m->mass, &c2, nv, sizeof(icReal)) ||
            !icGrowArray((void **)&m->invMass, &c3, nv, 3 * sizeof(icReal)) ||
            !icGrowArray((void **)&m->vertexPin, &c4, nv, sizeof(int)) ||
            !icGrowArray((void **)&m->pinBase, &c5, nv, 3 * sizeof(icReal)))
            return false;
        m->vertexCapacity = cap;
    }
    if (nt > m->tetCapacity) {
        int caps[9];
        for (int i = 0; i < 9; ++i) caps[i] = m->tetCapacity;
        if (!icGrowArray((void **)&m->tets, &caps[0], nt, 4 * sizeof(int)) ||
            !icGrowArray((void **)&m->tetBody, &caps[1], nt, sizeof(int)) ||
            !icGrowArray((void **)&m->invRest, &caps[2], nt, sizeof(icMat3)) ||
            !icGrowArray((void **)&m->restVolume, &caps[3], nt, sizeof(icReal)) ||
            !icGrowArray((void **)&m->alphaD, &caps[4], nt, sizeof(icReal)) ||
            !icGrowArray((void **)&m->alphaH, &caps[5], nt, sizeof(icReal)) ||
            !icGrowArray((void **)&m->gamma, &caps[6], nt, sizeof(icReal)) ||
            !icGrowArray((void **)&m->damping, &caps[7], nt, sizeof(icReal)) ||
            !icGrowArray((void **)&m->tetCell, &caps[8], nt, sizeof(int)))
            return false;
        m->tetCapacity = caps[0];
    }
    return true;
}

static icResult checkBodyDef(const icSoftBodyDef *def, const icWorld *world, icDiagnostic *diag) {
    if (!(def->youngsModulus > 0) || !isfinite(def->youngsModulus))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "youngs_modulus %g must be > 0",
                          def->youngsModulus);
    if (!(def->poissonRatio >= 0 && def->poissonRatio <= 0.5))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "poisson_ratio %g is outside [0, 0.5]",
                          def->poissonRatio);
    if (!(def->density > 0) || !isfinite(def->density))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "density %g must be > 0", def->density);
    if (!(def->damping >= 0) || !isfinite(def->damping))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "damping %g must be >= 0", def->damping);
    if (!icVec3_IsFinite(def->translation) || !icVec3_IsFinite(def->velocity))
        return icDiag_Set(diag, IC_ERR_NOT_FINITE, "", 0, "translation or velocity not finite");
    if ((int)def->model < 0 || def->model >= IC_MATERIAL_COUNT_)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "unknown material model %d", (int)def->model);
    // The MM energy's rest shift gamma = 1 + mu/lambda needs lambda > 0.
    if (def->model == IC_MATERIAL_MM && !(def->poissonRatio > 0))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                          "poisson_ratio 0 gives lambda = 0, and the mm energy's rest shift "
                          "1 + mu/lambda is infinite; use nu > 0");
    const icSolverOps *solver = icWorld_Solver(world);
    return solver->checkMaterial ? solver->checkMaterial(def, diag) : IC_OK;
}

// Per-tet constants of Macklin & Müller 2021: Q = Dm^-1, V, compliances alpha_D = 1/(mu V)
// (eq. 12), alpha_H = 1/(lambda V) (eq. 13; 0 when incompressible), gamma = 1 + mu/lambda
// (sec. 3.3).
static void initTet(icModel *m, int t, const icBodyRecord *body) {
    const int *tv = m->tets + 4 * t;
    icVec3 x3 = icVec3_Load(m->restPositions, tv[3]);
    icMat3 Dm = icMat3_FromCols(icVec3_Sub(icVec3_Load(m->restPositions, tv[0]), x3),
                                icVec3_Sub(icVec3_Load(m->restPositions, tv[1]), x3),
                                icVec3_Sub(icVec3_Load(m->restPositions, tv[2]), x3));
    icReal det = icMat3_Det(Dm);
    bool ok;
    m->invRest[t] = icMat3_Inverse(Dm, &ok);
    // A tet inverted in the input keeps |V| as its rest volume: the solver pulls it back.
    icReal V = fabs(det) / 6.0;
    m->restVolume[t] = V;
    m->alphaD[t] = 1.0 / (body->mu * V);
    m->alphaH[t] = isfinite(body->lambda) ? 1.0 / (body->lambda * V) : 0.0;
    m->gamma[t] = (m->def.restShift && isfinite(body->lambda)) ? 1.0 + body->mu / body->lambda : 1.0;
    m->damping[t] = body->def.damping;
}

icResult icWorld_CreateSoftBody(icWorld *world, const icTetMesh *mesh, const icSoftBodyDef *def,
                                icBodyId *id, icDiagnostic *diag) {
    IC_ASSERT(world && mesh);
    if (id) *id = (icBodyId){0};
    icSoftBodyDef d = def ? *def : icDefaultSoftBodyDef();
    icResult r = checkBodyDef(&d, world, diag);
    if (r != IC_OK) return r;

    // Validate and orient a private copy; the caller's mesh is left as it was.
    icTetMesh copy = {0};
    r = icTetMesh_Copy(&copy, mesh);
    if (r != IC_OK) return icDiag_Set(diag, r, "", 0, "cannot copy the mesh");
    icOrientReport report;
    r = icTetMesh_Check(&copy, false, &report, diag);
    if (r != IC_OK) {
        icTetMesh_Destroy(&copy);
        return r;
    }

    icModel *m = &world->model;
    if (!growModel(world, copy.vertexCount, copy.tetCount) ||
        !icGrowArray((void **)&m->bodies, &m->bodyCapacity, m->bodyCount + 1, sizeof(icBodyRecord))) {
        icTetMesh_Destroy(&copy);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "", 0, "out of memory adding a body");
    }

    icBodyRecord *body = &m->bodies[m->bodyCount];
    memset(body, 0, sizeof *body);
    body->vertexStart = m->vertexCount;
    body->vertexCount = copy.vertexCount;
    body->tetStart = m->tetCount;
    body->tetCount = copy.tetCount;
    body->generation = 1;
    body->def = d;
    icLame(d.youngsModulus, d.poissonRatio, &body->mu, &body->lambda);
    if (copy.tetCell)
        for (int a = 0; a < 3; ++a) body->cellCounts[a] = copy.cellCounts[a];

    for (int i = 0; i < copy.vertexCount; ++i) {
        int v = body->vertexStart + i;
        icVec3_Store(m->restPositions, v, icVec3_Add(icVec3_Load(copy.positions, i), d.translation));
        m->mass[v] = 0;
        m->vertexPin[v] = -1;
        icVec3_Store(m->pinBase, v, icVec3_Make(0, 0, 0));
    }
    for (int t = 0; t < copy.tetCount; ++t) {
        int g = body->tetStart + t;
        for (int k = 0; k < 4; ++k) m->tets[4 * g + k] = copy.tets[4 * t + k] + body->vertexStart;
        m->tetBody[g] = m->bodyCount;
        m->tetCell[g] = copy.tetCell ? copy.tetCell[t] : -1;
    }
    m->vertexCount += copy.vertexCount;
    m->tetCount += copy.tetCount;
    for (int t = body->tetStart; t < m->tetCount; ++t) {
        initTet(m, t, body);
        // Lumped mass: each tet gives rho V / 4 to each of its vertices (Macklin & Müller
        // 2021, sec. 4).
        for (int k = 0; k < 4; ++k) m->mass[m->tets[4 * t + k]] += d.density * m->restVolume[t] / 4.0;
        m->totalRestVolume += m->restVolume[t];
    }
    for (int v = body->vertexStart; v < m->vertexCount; ++v) {
        // A vertex no tet uses has no mass; it is held still rather than divided by zero.
        icReal w = m->mass[v] > 0 ? 1.0 / m->mass[v] : 0.0;
        icVec3_Store(m->invMass, v, icVec3_Make(w, w, w));
    }
    m->bodyCount++;
    m->colouringDirty = true;
    m->revision++;
    icTetMesh_Destroy(&copy);

    // Grow the current state, keeping what the existing bodies had.
    icState *old = world->state;
    icState *state = icState_CreateForModel(m);
    if (!state) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "", 0, "out of memory");
    if (old->vertexCount > 0) {
        memcpy(state->x, old->x, sizeof(icReal) * 3 * (size_t)old->vertexCount);
        memcpy(state->v, old->v, sizeof(icReal) * 3 * (size_t)old->vertexCount);
        memcpy(state->xPrev, old->xPrev, sizeof(icReal) * 3 * (size_t)old->vertexCount);
    }
    if (old->tetCount > 0) {
        memcpy(state->lambdaD, old->lambdaD, sizeof(icReal) * (size_t)old->tetCount);
        memcpy(state->lambdaH, old->lambdaH, sizeof(icReal) * (size_t)old->tetCount);
    }
    state->time = old->time;
    state->lastSubstep = old->lastSubstep;
    state->substepCount = old->substepCount;
    for (int v = body->vertexStart; v < m->vertexCount; ++v) {
        icVec3 p = icVec3_Load(m->restPositions, v);
        icVec3_Store(state->x, v, p);
        icVec3_Store(state->xPrev, v, p);
        icVec3_Store(state->v, v, d.velocity);
    }
    icDestroyState(old);
    world->state = state;

    if (id) {
        id->index1 = m->bodyCount;
        id->world0 = world->worldIndex;
        id->generation = body->generation;
    }
    (void)report;
    return IC_OK;
}

bool icBody_IsValid(const icWorld *world, icBodyId id) {
    if (!world || id.index1 < 1 || id.index1 > world->model.bodyCount) return false;
    return id.world0 == world->worldIndex &&
           world->model.bodies[id.index1 - 1].generation == id.generation;
}

void icBody_GetRanges(const icWorld *world, icBodyId id, int *vertexStart, int *vertexCount,
                      int *tetStart, int *tetCount) {
    IC_ASSERT(icBody_IsValid(world, id));
    const icBodyRecord *b = &world->model.bodies[id.index1 - 1];
    if (vertexStart) *vertexStart = b->vertexStart;
    if (vertexCount) *vertexCount = b->vertexCount;
    if (tetStart) *tetStart = b->tetStart;
    if (tetCount) *tetCount = b->tetCount;
}

icResult icBody_AddPin(icWorld *world, icBodyId id, const icPinDef *def, int *pinnedCount) {
    if (pinnedCount) *pinnedCount = 0;
    if (!icBody_IsValid(world, id) || !def) return IC_ERR_INVALID_ARGUMENT;
    if (def->motionCount < 0 || def->motionCount > IC_MAX_MOTIONS) return IC_ERR_BAD_VALUE;
    if (!icVec3_IsFinite(def->boxMin) || !icVec3_IsFinite(def->boxMax)) return IC_ERR_NOT_FINITE;
    for (int i = 0; i < def->motionCount; ++i) {
        const icMotion *mo = &def->motions[i];
        if (!icVec3_IsFinite(mo->velocity) || !icVec3_IsFinite(mo->centre) ||
            !isfinite(mo->degreesPerSecond) || isnan(mo->start) || isnan(mo->end) ||
            mo->end < mo->start)
            return IC_ERR_BAD_VALUE;
        if (mo->degreesPerSecond != 0 && !(icVec3_Length(mo->axis) > 0)) return IC_ERR_BAD_VALUE;
    }
    icModel *m = &world->model;
    if (!icGrowArray((void **)&m->pins, &m->pinCapacity, m->pinCount + 1, sizeof(icPinRecord)))
        return IC_ERR_OUT_OF_MEMORY;
    icPinRecord *pin = &m->pins[m->pinCount];
    pin->motionCount = def->motionCount;
    for (int i = 0; i < IC_MAX_MOTIONS; ++i) pin->motions[i] = def->motions[i];
    for (int a = 0; a < 3; ++a) pin->axes[a] = def->axes[a];

    const icBodyRecord *b = &m->bodies[id.index1 - 1];
    const icState *s = world->state;
    int count = 0;
    for (int v = b->vertexStart; v < b->vertexStart + b->vertexCount; ++v) {
        icVec3 p = icVec3_Load(s->x, v);
        if (p.x < def->boxMin.x || p.y < def->boxMin.y || p.z < def->boxMin.z ||
            p.x > def->boxMax.x || p.y > def->boxMax.y || p.z > def->boxMax.z)
            continue;
        m->vertexPin[v] = m->pinCount;
        icVec3_Store(m->pinBase, v, p);
        icReal w = m->mass[v] > 0 ? 1.0 / m->mass[v] : 0.0;
        icVec3_Store(m->invMass, v,
                     icVec3_Make(def->axes[0] ? 0 : w, def->axes[1] ? 0 : w, def->axes[2] ? 0 : w));
        // A pinned vertex starts with the pin's velocity on its held axes (none at rest).
        icVec3 vel = icVec3_Load(world->state->v, v);
        if (def->axes[0]) vel.x = 0;
        if (def->axes[1]) vel.y = 0;
        if (def->axes[2]) vel.z = 0;
        icVec3_Store(world->state->v, v, vel);
        ++count;
    }
    m->pinCount++;
    if (pinnedCount) *pinnedCount = count;
    return IC_OK;
}

icResult icWorld_AddPlane(icWorld *world, const icPlaneDef *def) {
    if (!world || !def) return IC_ERR_INVALID_ARGUMENT;
    icReal len = icVec3_Length(def->normal);
    if (!(len > 0) || !isfinite(len) || !isfinite(def->offset) || !(def->friction >= 0))
        return IC_ERR_BAD_VALUE;
    icModel *m = &world->model;
    if (!icGrowArray((void **)&m->planes, &m->planeCapacity, m->planeCount + 1, sizeof(icPlane)))
        return IC_ERR_OUT_OF_MEMORY;
    m->planes[m->planeCount++] =
        (icPlane){icVec3_Scale(1.0 / len, def->normal), def->offset / len, def->friction};
    return IC_OK;
}

// p(t): each motion segment maps the point by a rotation about its centre and a
// translation, for the part of its window that has elapsed; segments compose in order.
icVec3 icModel_PinPosition(const icModel *model, int v, icReal t) {
    icVec3 p = icVec3_Load(model->pinBase, v);
    const icPinRecord *pin = &model->pins[model->vertexPin[v]];
    for (int i = 0; i < pin->motionCount; ++i) {
        const icMotion *mo = &pin->motions[i];
        icReal tau = (t < mo->start ? mo->start : (t > mo->end ? mo->end : t)) - mo->start;
        if (tau <= 0) continue;
        if (mo->degreesPerSecond != 0) {
            icMat3 R = icMat3_Rotation(mo->axis, mo->degreesPerSecond * tau * (IC_PI / 180.0));
            p = icVec3_Add(mo->centre, icMat3_MulVec(R, icVec3_Sub(p, mo->centre)));
        }
        p = icVec3_MulAdd(p, tau, mo->velocity);
    }
    return p;
}

int icWorld_GetVertexCount(const icWorld *world) { return world->model.vertexCount; }
int icWorld_GetTetCount(const icWorld *world) { return world->model.tetCount; }
const int *icWorld_GetTets(const icWorld *world) { return world->model.tets; }
const icReal *icWorld_GetRestPositions(const icWorld *world) { return world->model.restPositions; }
const icReal *icWorld_GetPositions(const icWorld *world) { return world->state->x; }
const icReal *icWorld_GetVelocities(const icWorld *world) { return world->state->v; }
icReal *icWorld_GetPositionsMutable(icWorld *world) { return world->state->x; }
icReal *icWorld_GetVelocitiesMutable(icWorld *world) { return world->state->v; }
icReal icWorld_GetTime(const icWorld *world) { return world->state->time; }

void icWorld_AdvanceTime(icWorld *world, icReal dt) {
    IC_ASSERT(world && isfinite(dt));
    world->state->time += dt;
}
