// SPDX-License-Identifier: MIT
// The IC_SOLVER_INCOMPRESSIBLE world step: modified semi-implicit Newmark with the position
// correction and the velocity projection (Irving et al. 2007, sec. 2, steps 1-8), deviatoric
// FEM forces, and obstacle contacts and close surface pairs as constraints in the pressure
// solves, with the additions docs/results.md lists ("Where isochor's step differs from the
// paper's"): predicted contacts, Newton iterations of eq. 1 and adaptive substeps.
#define _POSIX_C_SOURCE 200809L
#include "collision/collision_internal.h"
#include "core/hash.h"
#include "fem/fem_internal.h"
#include "incompressible/incompressible_checkpoint.h"
#include "incompressible/incompressible_internal.h"
#include "incompressible/local_solve.h"
#include "incompressible/obstacles.h"
#include "incompressible/repulsion.h"
#include "isochor/collision.h"
#include "isochor/incompressible.h"
#include "world/world_internal.h"

#include <math.h>
#include <string.h>

struct icIncompressibleCache {
    icIncompressibleDef def;
    icMovingPlaneDef *planes; ///< normals unit
    int planeCount, planeCapacity;
    icIncompressibleStats stats;
    // Built for one model revision:
    int revision, n, T;
    bool built;
    int *tets;           ///< (T x 4) positively oriented at rest
    icFemModel fem;      ///< deviatoric (or weak volumetric) materials
    icReal *invMass;     ///< (n x 3)
    unsigned char *mask; ///< (n x 3) free DOFs
    icReal *target;      ///< (n) rest ring volumes
    icReal *errorScale;  ///< (n) what eq. 1's Newton loop measures ring errors against (lazily
                         ///< allocated; see ringErrorScales)
    icReal errorScaleFloor; ///< the ringErrorFloor errorScale holds (set when it is allocated:
                            ///< a rebuild frees it)
    icReal *ring;        ///< (n)
    icReal *pressure;    ///< (n) Pa, last velocity projection: the next one's start (warmStart)
    icReal *positionPressure; ///< (n) Pa, the last substep's eq. 1 solves together: the start
                              ///< of the next substep's first one (warmStart)
    icPressureSystem *pressureSystem;
    icConstraintSet positionSet, velocitySet;
    icVec3 *contactNormal; ///< (n) normal of the last step's contact, 0 if none
    icVec3 *predictNormal; ///< (n) contacts constraining eq. 1 (lazily allocated)
    icObstacleHit *hits;   ///< (n) what each contact of step 5 touches (lazily allocated)
    icReal *impulse;       ///< (n) normal velocity a contact removed over the step
    unsigned char *stick;  ///< (n) static-friction contacts of this substep (lazily allocated)
    icVec3 *stickVelocity; ///< (n) their obstacle's surface velocity
    icReal *goal;          ///< (n) ring volumes eq. 1 aims for (lazily allocated)
    icReal *newton;        ///< (n x 3) one Newton correction of eq. 1
    icReal *newtonPressure; ///< (n) its scaled pressure, Pa s (lazily allocated)
    icLocalSolve *localSolve; ///< the later Newton solves' sub-meshes (lazily created)
    icReal *f, *v0, *vstar, *vn, *xnew, *xmid, *b, *dv, *diagBlocks, *precond, *cgWork;
    icProximityPairs pairs;
    unsigned char *pairActive; ///< (pairs.count) pushed by the last repulsion
    int pairActiveCapacity;
    icReal restVolume;
    icReal meanEdge; ///< mean rest edge length, m (0 until computed)
    bool systemAtXnew; ///< pressureSystem was last set up at the positions now in xnew
};

icIncompressibleDef icDefaultIncompressibleDef(void) {
    icIncompressibleDef d;
    d.pressure = icDefaultPressureDef();
    d.projections = true;
    d.recoveryTime = 0;
    d.volumetricScale = 0;
    d.massDamping = 0;
    d.implicitVelocitySolve = true;
    d.contactInForceSolve = false;
    d.selfContact = false;
    d.proximity = 0.005;
    d.cgTolerance = 1e-4;
    d.maxCGIterations = 500;
    d.positionNewtonIterations = 5;
    d.positionTolerance = 1e-3;
    d.ringErrorFloor = 0.5;
    d.localNewtonLayers = 3;
    d.maxStepMotion = 0.25;
    d.maxSubsteps = 64;
    d.staticFriction = false;
    d.warmStart = true;
    d.velocityProjection = IC_VELOCITY_PROJECTION_AUTO;
    return d;
}

const char *icVelocityProjectionName(icVelocityProjection p) {
    switch (p) {
        case IC_VELOCITY_PROJECTION_AUTO:
            return "auto";
        case IC_VELOCITY_PROJECTION_END:
            return "end";
        case IC_VELOCITY_PROJECTION_MIDPOINT:
            return "midpoint";
        default:
            return "?";
    }
}

icMovingPlaneDef icDefaultMovingPlaneDef(void) {
    icMovingPlaneDef d = {{0, 1, 0}, 0, 0, 0, INFINITY, 0};
    return d;
}

static void freeBuilt(icIncompressibleCache *c) {
    icFree(c->tets);
    icFemModel_Destroy(&c->fem);
    icFree(c->invMass);
    icFree(c->mask);
    icFree(c->target);
    icFree(c->ring);
    icFree(c->pressure);
    icFree(c->positionPressure);
    icDestroyPressureSystem(c->pressureSystem);
    icConstraintSet_Destroy(&c->positionSet);
    icConstraintSet_Destroy(&c->velocitySet);
    icFree(c->contactNormal);
    icFree(c->predictNormal);
    icFree(c->hits);
    icFree(c->impulse);
    icFree(c->stick);
    icFree(c->stickVelocity);
    c->hits = NULL;
    c->impulse = NULL;
    c->stick = NULL;
    c->stickVelocity = NULL;
    icFree(c->goal);
    icFree(c->errorScale);
    c->errorScale = NULL;
    icFree(c->newton);
    icFree(c->newtonPressure);
    icDestroyLocalSolve(c->localSolve);
    c->localSolve = NULL;
    c->predictNormal = NULL;
    c->goal = c->newton = c->newtonPressure = NULL;
    icReal **arrays[] = {&c->f, &c->v0, &c->vstar,      &c->vn,      &c->xnew,  &c->xmid,
                         &c->b, &c->dv, &c->diagBlocks, &c->precond, &c->cgWork};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) {
        icFree(*arrays[i]);
        *arrays[i] = NULL;
    }
    icProximityPairs_Destroy(&c->pairs);
    icFree(c->pairActive);
    c->pairActive = NULL;
    c->pairActiveCapacity = 0;
    c->tets = NULL;
    c->invMass = c->target = c->ring = c->pressure = c->positionPressure = NULL;
    c->mask = NULL;
    c->pressureSystem = NULL;
    c->contactNormal = NULL;
    c->built = false;
}

void icIncompressibleCache_Destroy(icIncompressibleCache *cache) {
    if (!cache) return;
    freeBuilt(cache);
    icFree(cache->planes);
    icFree(cache);
}

static icIncompressibleCache *getCache(icWorld *world) {
    if (!world->incompressible) {
        world->incompressible = IC_ALLOC_ZERO(icIncompressibleCache, 1);
        if (world->incompressible) world->incompressible->def = icDefaultIncompressibleDef();
    }
    return world->incompressible;
}

static bool defIsValid(const icIncompressibleDef *d) {
    const icPressureDef *p = &d->pressure;
    return (p->solver == IC_PRESSURE_MINRES || p->solver == IC_PRESSURE_CG) && p->tolerance > 0 &&
           isfinite(p->tolerance) && p->absoluteTolerance >= 0 && p->maxIterations >= 1 &&
           p->sweeps >= 1 && d->recoveryTime >= 0 && isfinite(d->recoveryTime) &&
           d->volumetricScale >= 0 && d->volumetricScale <= 1 && d->massDamping >= 0 &&
           isfinite(d->massDamping) && d->proximity > 0 && isfinite(d->proximity) &&
           d->cgTolerance > 0 && d->maxCGIterations >= 1 && d->positionNewtonIterations >= 1 &&
           d->positionTolerance > 0 && isfinite(d->positionTolerance) && d->ringErrorFloor >= 0 &&
           isfinite(d->ringErrorFloor) && d->maxStepMotion >= 0 && isfinite(d->maxStepMotion) &&
           d->maxSubsteps >= 1 && d->localNewtonLayers >= 0 &&
           (d->velocityProjection == IC_VELOCITY_PROJECTION_AUTO ||
            d->velocityProjection == IC_VELOCITY_PROJECTION_END ||
            d->velocityProjection == IC_VELOCITY_PROJECTION_MIDPOINT);
}

icResult icWorld_SetIncompressibleDef(icWorld *world, const icIncompressibleDef *def) {
    IC_ASSERT(world);
    icIncompressibleDef d = def ? *def : icDefaultIncompressibleDef();
    if (!defIsValid(&d)) return IC_ERR_BAD_VALUE;
    icIncompressibleCache *c = getCache(world);
    if (!c) return IC_ERR_OUT_OF_MEMORY;
    c->def = d;
    return IC_OK;
}

icIncompressibleDef icWorld_GetIncompressibleDef(const icWorld *world) {
    return world->incompressible ? world->incompressible->def : icDefaultIncompressibleDef();
}

icResult icWorld_AddMovingPlane(icWorld *world, const icMovingPlaneDef *def) {
    IC_ASSERT(world && def);
    icReal len = icVec3_Length(def->normal);
    if (!(len > 0) || !isfinite(len) || !isfinite(def->offset) || !isfinite(def->speed) ||
        !(def->end >= def->start) || !isfinite(def->start) || !(def->friction >= 0) ||
        !isfinite(def->friction))
        return IC_ERR_BAD_VALUE;
    // Only this solver moves them yet (icSolver_Supports); elsewhere they would be ignored.
    if (!icSolver_Supports(world->model.def.solver, IC_FEATURE_MOVING_PLANES))
        return IC_ERR_UNSUPPORTED;
    icIncompressibleCache *c = getCache(world);
    if (!c || !icGrowArray((void **)&c->planes, &c->planeCapacity, c->planeCount + 1,
                           sizeof(icMovingPlaneDef)))
        return IC_ERR_OUT_OF_MEMORY;
    icMovingPlaneDef *p = &c->planes[c->planeCount++];
    *p = *def;
    p->normal = icVec3_Scale(1.0 / len, def->normal);
    return IC_OK;
}

uint64_t icIncompressible_HashMovingPlanes(const icWorld *world, uint64_t h) {
    const icIncompressibleCache *c = world->incompressible;
    if (!c || c->planeCount == 0) return h;
    h = icHash_Word(h, (uint64_t)c->planeCount);
    for (int i = 0; i < c->planeCount; ++i) {
        const icMovingPlaneDef *p = &c->planes[i];
        h = icHash_Vec3(h, p->normal);
        h = icHash_Real(h, p->offset);
        h = icHash_Real(h, p->speed);
        h = icHash_Real(h, p->start);
        h = icHash_Real(h, p->end);
        h = icHash_Real(h, p->friction);
    }
    return h;
}

icIncompressibleStats icWorld_GetIncompressibleStats(const icWorld *world) {
    icIncompressibleStats s;
    memset(&s, 0, sizeof s);
    return world->incompressible ? world->incompressible->stats : s;
}

bool icWorld_GetVertexPressure(const icWorld *world, icReal *pressure) {
    const icIncompressibleCache *c = world->incompressible;
    int n = world->model.vertexCount;
    if (!c || !c->built || c->n != n) {
        memset(pressure, 0, sizeof(icReal) * (size_t)n);
        return false;
    }
    memcpy(pressure, c->pressure, sizeof(icReal) * (size_t)n);
    return true;
}

// The elastic part: the body's model with lambda scaled by volumetricScale (Irving et al. 2007,
// sec. 5, use deviatoric forces only). MM and the stable Neo-Hookeans need lambda > 0 for their
// rest shift, so they become corotated (whose lambda term is the only volumetric one).
icMaterial icIncompressible_ElasticMaterial(const icBodyRecord *body, icReal scale) {
    icMaterialModel model = body->def.model;
    icReal lambda = isfinite(body->lambda) ? scale * body->lambda : 0.0;
    // With a weakened lambda they change to corotated; with all of it (standard FEM) the body keeps
    // its model.
    bool rested =
        model == IC_MATERIAL_MM || model == IC_MATERIAL_SNH || model == IC_MATERIAL_SNH2018;
    if (rested && !(scale >= 1 && lambda > 0)) model = IC_MATERIAL_COROTATED;
    icMaterial mat = icMaterial_FromLame(model, body->mu, lambda);
    mat.density = body->def.density;
    return mat;
}

static icResult build(icWorld *world, icIncompressibleCache *c) {
    icModel *m = &world->model;
    if (m->vertexCount == 0 || m->tetCount == 0) return IC_ERR_EMPTY;
    freeBuilt(c);
    int n = m->vertexCount, T = m->tetCount;
    c->n = n;
    c->T = T;
    c->tets = IC_ALLOC(int, 4 * (size_t)T);
    icMaterial *materials = IC_ALLOC(icMaterial, m->bodyCount);
    if (!c->tets || !materials) {
        icFree(materials);
        return IC_ERR_OUT_OF_MEMORY;
    }
    // Orient every tet positively at rest.
    memcpy(c->tets, m->tets, sizeof(int) * 4 * (size_t)T);
    for (int t = 0; t < T; ++t) {
        int *tv = c->tets + 4 * t;
        icVec3 g[4];
        icReal V = icTet_VolumeGradients(
            icVec3_Load(m->restPositions, tv[0]), icVec3_Load(m->restPositions, tv[1]),
            icVec3_Load(m->restPositions, tv[2]), icVec3_Load(m->restPositions, tv[3]), g);
        if (V < 0) {
            int tmp = tv[2];
            tv[2] = tv[3];
            tv[3] = tmp;
        }
    }
    for (int b = 0; b < m->bodyCount; ++b)
        materials[b] = icIncompressible_ElasticMaterial(&m->bodies[b], c->def.volumetricScale);
    icResult r = icFemModel_CreateEx(&c->fem, n, m->restPositions, T, c->tets, m->bodyCount,
                                     materials, m->tetBody, true, NULL);
    icFree(materials);
    if (r != IC_OK) return r;
    // The FEM and pressure kernels run on the world's workers (same bits for any count).
    if ((r = icModel_EnsurePool(m)) != IC_OK || (r = icFemModel_SetPool(&c->fem, m->pool)) != IC_OK)
        return r;
    size_t N = (size_t)n;
    c->invMass = IC_ALLOC(icReal, 3 * N);
    c->mask = IC_ALLOC(unsigned char, 3 * N);
    c->target = IC_ALLOC(icReal, N);
    c->ring = IC_ALLOC(icReal, N);
    c->pressure = IC_ALLOC_ZERO(icReal, N);
    c->positionPressure = IC_ALLOC_ZERO(icReal, N);
    c->contactNormal = IC_ALLOC_ZERO(icVec3, N);
    icReal **arrays[] = {&c->f, &c->v0, &c->vstar, &c->vn, &c->xnew, &c->xmid, &c->b, &c->dv};
    bool ok = c->invMass && c->mask && c->target && c->ring && c->pressure && c->positionPressure &&
              c->contactNormal;
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i)
        ok = ok && (*arrays[i] = IC_ALLOC_ZERO(icReal, 3 * N)) != NULL;
    c->diagBlocks = IC_ALLOC(icReal, 9 * N);
    c->precond = IC_ALLOC(icReal, 9 * N);
    c->cgWork = IC_ALLOC(icReal, 12 * N);
    if (!ok || !c->diagBlocks || !c->precond || !c->cgWork) return IC_ERR_OUT_OF_MEMORY;
    // Pinned axes and isolated vertices are kinematic (1/m = 0).
    for (int v = 0; v < n; ++v)
        for (int i = 0; i < 3; ++i) {
            icReal w = m->mass[v] > 0 ? m->invMass[3 * v + i] : 0.0;
            c->invMass[3 * v + i] = w;
            c->mask[3 * v + i] = w > 0;
        }
    c->pressureSystem = icCreatePressureSystem(n, c->tets, T, c->invMass);
    if (!c->pressureSystem) return IC_ERR_OUT_OF_MEMORY;
    icPressureSystem_SetPool(c->pressureSystem, m->pool);
    c->systemAtXnew = false;
    c->restVolume = icOneRing_Volumes(m->restPositions, n, c->tets, T, c->target);
    c->revision = m->revision;
    c->built = true;
    return IC_OK;
}

// Where a vertex must be at time t: its pin, or where it is.
static icVec3 kinematicPosition(const icModel *m, const icReal *x, int v, icReal t) {
    return m->vertexPin[v] >= 0 ? icModel_PinPosition(m, v, t) : icVec3_Load(x, v);
}

typedef struct forceOp {
    const icFemModel *fem;
    const icReal *mass;
    icReal massScale, stiffnessScale;
    icReal *tmp;
} forceOp;

// (massScale M + stiffnessScale K) x.
static void forceOperator(void *context, const icReal *x, icReal *y) {
    const forceOp *op = context;
    icFem_TangentProduct(op->fem, op->stiffnessScale, op->massScale, x, y);
}

// Linearised backward Euler over h from (x, v0): (M(1 + h a) + h^2 K) dv = h f(x) + h M g - h^2 K
// v0 - h a M v0 on the free DOFs; out = v0 + dv (step 1 of Irving et al. 2007's scheme).
// Returns CG its. c->f is left holding the elastic right side (scratch from here on); with
// fullRhs, c->b holds the whole right side for constrainedHalfStep.
static int implicitHalfStep(icIncompressibleCache *c, const icReal *x, const icReal *v0, icReal h,
                            icVec3 gravity, bool stiffness, bool fullRhs, icReal *out) {
    int n = c->n;
    const icReal *mass = c->fem.mass;
    icReal a = c->def.massDamping;
    memset(c->f, 0, sizeof(icReal) * 3 * (size_t)n);
    // Forces and (with stiffness) the projected tangent K from one pass over the tets.
    icFem_Evaluate(&c->fem, x, c->f, stiffness, true);
    if (!stiffness) {
        // delta = 0 (explicit elastic force, implicit mass damping).
        for (int v = 0; v < n; ++v)
            for (int i = 0; i < 3; ++i) {
                int k = 3 * v + i;
                out[k] = c->mask[k] ? (v0[k] + h * (c->f[k] / mass[v] + icVec3_Get(gravity, i))) /
                                          (1 + h * a)
                                    : v0[k];
            }
        return 0;
    }
    forceOp op = {&c->fem, mass, 1 + h * a, h * h, NULL};
    // The mass alone answers gravity and mass damping: dv0 = h (g - a v0) / (1 + h a) per free
    // DOF. CG solves only for what the elastic forces add, A ddv = h f - h^2 K (v0 + dv0), so a
    // body in free fall or uniform motion (f = 0, K of a uniform velocity = 0) gets exactly
    // dv0 whatever the CG tolerance: the tolerance applies to the elastic response instead of
    // being spent on gravity, and translation invariance holds to rounding.
    for (int v = 0; v < n; ++v)
        for (int i = 0; i < 3; ++i) {
            int k = 3 * v + i;
            out[k] =
                v0[k] + (c->mask[k] ? h * (icVec3_Get(gravity, i) - a * v0[k]) / (1 + h * a) : 0.0);
        }
    icFem_TangentProduct(&c->fem, 1, 0, out, c->dv);
    if (fullRhs) { // the whole right side b (from dv = 0), which constrainedHalfStep reuses
        icFem_TangentProduct(&c->fem, 1, 0, v0, c->b);
        for (int v = 0; v < n; ++v)
            for (int i = 0; i < 3; ++i) {
                int k = 3 * v + i;
                c->b[k] = h * c->f[k] + h * mass[v] * icVec3_Get(gravity, i) - h * h * c->b[k] -
                          h * a * mass[v] * v0[k];
            }
    }
    for (int k = 0; k < 3 * n; ++k)
        c->f[k] = h * c->f[k] - h * h * c->dv[k]; // the elastic right side
    icFem_TangentDiagonal(&c->fem, c->diagBlocks);
    for (int v = 0; v < n; ++v) {
        icReal *d = c->diagBlocks + 9 * v;
        for (int e = 0; e < 9; ++e) d[e] *= h * h;
        for (int i = 0; i < 3; ++i) d[4 * i] += (1 + h * a) * mass[v];
    }
    icPreconditioner_Build(IC_PRECONDITIONER_BLOCK_JACOBI, n, c->diagBlocks, c->mask, c->precond);
    icCGStats cs;
    int it = icCG(3 * n, forceOperator, &op, IC_PRECONDITIONER_BLOCK_JACOBI, c->precond, c->mask,
                  c->f, c->dv, c->def.cgTolerance, c->def.maxCGIterations, c->cgWork, &cs);
    for (int k = 0; k < 3 * n; ++k) out[k] += c->mask[k] ? c->dv[k] : 0.0;
    return it < 0 ? 0 : it;
}

// The operator of a contact-filtered solve: S (massScale M + stiffnessScale K) S x, with S removing
// the normal component at contact vertices (Baraff & Witkin's filtered PCG).
typedef struct filteredOp {
    forceOp inner;
    const icVec3 *normal; ///< (n) zero where no contact
    icReal *tmp;          ///< (3n)
    int n;
} filteredOp;

static void filterNormals(const icVec3 *normal, int n, icReal *x) {
    for (int v = 0; v < n; ++v)
        if (icVec3_LengthSquared(normal[v]) > 0) {
            icReal d = icVec3_Dot(normal[v], icVec3_Load(x, v));
            icVec3_Store(x, v, icVec3_Sub(icVec3_Load(x, v), icVec3_Scale(d, normal[v])));
        }
}

static void filteredOperator(void *context, const icReal *x, icReal *y) {
    const filteredOp *op = context;
    memcpy(op->tmp, x, sizeof(icReal) * 3 * (size_t)op->n);
    filterNormals(op->normal, op->n, op->tmp);
    forceOperator((void *)&op->inner, op->tmp, y);
    filterNormals(op->normal, op->n, y);
}

// Standard FEM has no position correction to absorb the contacts the position velocity runs into,
// so its first half step is solved again with them: the normal velocity of every predicted contact
// is prescribed (landing on the surface, as `out` already holds) and the rest of the body answers
// elastically. Reuses the right side, tangent and preconditioner of the implicitHalfStep just done
// from (x^n, v0). Returns CG iterations.
static int constrainedHalfStep(icIncompressibleCache *c, const icReal *v0, icReal h,
                               const icVec3 *normal, icReal *out) {
    int n = c->n;
    icReal a = c->def.massDamping;
    icReal *z = c->newton, *r = c->xmid; // scratch: both are rewritten later in the step
    // z: the prescribed normal change; r = S (b - A z).
    memset(z, 0, sizeof(icReal) * 3 * (size_t)n);
    for (int v = 0; v < n; ++v)
        if (icVec3_LengthSquared(normal[v]) > 0) {
            icReal want =
                icVec3_Dot(normal[v], icVec3_Sub(icVec3_Load(out, v), icVec3_Load(v0, v)));
            icVec3_Store(z, v, icVec3_Scale(want, normal[v]));
        }
    forceOp inner = {&c->fem, c->fem.mass, 1 + h * a, h * h, NULL};
    forceOperator(&inner, z, r);
    for (int k = 0; k < 3 * n; ++k) r[k] = c->mask[k] ? c->b[k] - r[k] : 0.0;
    filterNormals(normal, n, r);
    // Preconditioner S P^-1 S on the contact vertices' blocks.
    for (int v = 0; v < n; ++v) {
        icVec3 nv = normal[v];
        if (icVec3_LengthSquared(nv) == 0) continue;
        icReal *B = c->precond + 9 * v, S[9], T[9];
        icReal nn[3] = {nv.x, nv.y, nv.z};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) S[3 * i + j] = (i == j) - nn[i] * nn[j];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                T[3 * i + j] = 0;
                for (int k = 0; k < 3; ++k) T[3 * i + j] += S[3 * i + k] * B[3 * k + j];
            }
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                B[3 * i + j] = 0;
                for (int k = 0; k < 3; ++k) B[3 * i + j] += T[3 * i + k] * S[3 * k + j];
            }
    }
    filteredOp op = {inner, normal, c->f, n};
    icCGStats cs;
    int it = icCG(3 * n, filteredOperator, &op, IC_PRECONDITIONER_BLOCK_JACOBI, c->precond, c->mask,
                  r, c->dv, c->def.cgTolerance, c->def.maxCGIterations, c->cgWork, &cs);
    for (int k = 0; k < 3 * n; ++k) out[k] = v0[k] + (c->mask[k] ? c->dv[k] + z[k] : 0.0);
    return it < 0 ? 0 : it;
}

// Two unit tangents completing the unit normal n to an orthonormal frame.
static void tangentsOf(icVec3 n, icVec3 *t1, icVec3 *t2) {
    icVec3 e = fabs(n.x) < 0.57 ? icVec3_Make(1, 0, 0)
                                : (fabs(n.y) < 0.57 ? icVec3_Make(0, 1, 0) : icVec3_Make(0, 0, 1));
    *t1 = icVec3_Normalize(icVec3_Cross(n, e));
    *t2 = icVec3_Cross(n, *t1);
}

static icResult addVertexConstraint(icConstraintSet *set, int v, icVec3 direction) {
    icVelocityConstraint k;
    memset(&k, 0, sizeof k);
    k.count = 1;
    k.vertices[0] = v;
    k.c[0] = direction;
    return icConstraintSet_Add(set, &k) == IC_OK ? IC_OK : IC_ERR_OUT_OF_MEMORY;
}

// Object contacts first (with both tangents where the contact sticks: static friction holds the
// vertex, so the pressure may not slide it), then point-triangle, then edge-edge pairs (the
// ordering of Irving et al. 2007, sec. 4). Pairs enter only where `active` (pairs.count) says so
// (NULL: none).
static icResult fillConstraints(icIncompressibleCache *c, const icVec3 *normal,
                                const unsigned char *active, icConstraintSet *set) {
    icConstraintSet_Clear(set);
    for (int v = 0; v < c->n; ++v) {
        if (icVec3_LengthSquared(normal[v]) == 0) continue;
        if (addVertexConstraint(set, v, normal[v]) != IC_OK) return IC_ERR_OUT_OF_MEMORY;
        if (!c->stick || !c->stick[v]) continue;
        icVec3 t1, t2;
        tangentsOf(normal[v], &t1, &t2);
        if (addVertexConstraint(set, v, t1) != IC_OK || addVertexConstraint(set, v, t2) != IC_OK)
            return IC_ERR_OUT_OF_MEMORY;
    }
    for (int kind = 0; kind < 2; ++kind)
        for (int i = 0; i < c->pairs.count; ++i) {
            const icProximityPair *p = &c->pairs.items[i];
            if (!active || !active[i] || (int)p->kind != kind) continue;
            icVelocityConstraint k;
            k.count = 4;
            for (int j = 0; j < 4; ++j) {
                k.vertices[j] = p->vertices[j];
                k.c[j] = icVec3_Scale(p->weights[j], p->normal);
            }
            if (icConstraintSet_Add(set, &k) != IC_OK) return IC_ERR_OUT_OF_MEMORY;
        }
    return IC_OK;
}

// Removes the normal component of dv = out - base at contact vertices (step 7 filter). With
// impulse, adds what was removed while pressing in, times `weight`, to each contact's normal
// impulse.
static void filterContacts(const icIncompressibleCache *c, const icReal *base, icReal *out,
                           icReal *impulse, icReal weight) {
    for (int v = 0; v < c->n; ++v) {
        icVec3 nrm = c->contactNormal[v];
        if (icVec3_LengthSquared(nrm) == 0) continue;
        icVec3 dv = icVec3_Sub(icVec3_Load(out, v), icVec3_Load(base, v));
        icReal d = icVec3_Dot(nrm, dv);
        icVec3_Store(out, v, icVec3_Sub(icVec3_Load(out, v), icVec3_Scale(d, nrm)));
        if (impulse && d < 0) impulse[v] -= weight * d;
    }
}

// The scale of each ring's error in eq. 1's Newton loop: its rest volume, or floor times the mean
// rest ring volume of its body where that is larger. Judged against their own volume alone, the
// small rings of surface vertices (two tets, against an interior ring's 24) kept the loop going
// for errors worth 1e-4 of a typical ring: in the 104k sphere's impact they were the worst rings
// of the third to fifth solves, and the default floor takes 22 % of the pressure iterations off
// with the same volume figures. Vertices of no body keep their own volume.
static void ringErrorScales(icIncompressibleCache *c, const icModel *m, icReal floor) {
    for (int k = 0; k < c->n; ++k) c->errorScale[k] = fabs(c->target[k]);
    for (int b = 0; b < m->bodyCount; ++b) {
        int first = m->bodies[b].vertexStart, last = first + m->bodies[b].vertexCount;
        icReal sum = 0;
        for (int k = first; k < last; ++k) sum += fabs(c->target[k]);
        icReal least = last > first ? floor * sum / (last - first) : 0;
        for (int k = first; k < last; ++k)
            if (c->errorScale[k] < least) c->errorScale[k] = least;
    }
    c->errorScaleFloor = floor;
}

// The later Newton solves' seeds: rings more than this fraction of positionTolerance off their
// goal (those near the tolerance join, so the next check does not find them just above it).
#define LOCAL_SEED_FRACTION 0.5

// Eq. 1 at x^n moves the rings to V(x^n) + clamp(e) to first order; with large steps (an impact
// moves nodes a good part of an element) that leaves errors of several percent. Further Newton
// iterations (eq. 1 is one Newton step, Irving et al. 2007, sec. 2) solve
// A(y) q = (goal - V(y)) / dt at the newest end positions y with the same constraints, until
// every ring is within positionTolerance of its goal. Leaves the end positions in c->xnew, the
// position velocity in c->vstar and the pressure of all the solves in c->positionPressure.
//
// Warm start (not in the paper): the pressure that holds a body up or squeezed changes little from
// one substep to the next, so the first solve starts from the last substep's total (in Pa, times
// this substep's dt). It stops on the same residual, 1 % of its right-hand side, and took 16-21 %
// fewer pressure iterations on the sphere drops. The later Newton solves start
// from zero: their right-hand sides are what the earlier ones left, unlike last substep's. So does
// the velocity projection: its pressure answers this substep's collisions, and seeding it with the
// last one's cost iterations and inverted tets at 5 steps a frame.
static icResult correctPositions(icIncompressibleCache *c, const icObstacleSet *obstacles,
                                 const icReal *x, icReal t1, icReal dt, icIncompressibleStats *st) {
    const icIncompressibleDef *d = &c->def;
    int n = c->n;
    if (!c->goal) {
        c->goal = IC_ALLOC(icReal, (size_t)n);
        c->errorScale = IC_ALLOC(icReal, (size_t)n);
        c->newton = IC_ALLOC(icReal, 3 * (size_t)n);
        c->newtonPressure = IC_ALLOC(icReal, (size_t)n);
        if (!c->goal || !c->errorScale || !c->newton || !c->newtonPressure)
            return IC_ERR_OUT_OF_MEMORY;
        c->errorScaleFloor = -1;
    }
    if (c->errorScaleFloor != d->ringErrorFloor)
        ringErrorScales(c, &obstacles->world->model, d->ringErrorFloor);
    icReal *total = c->positionPressure;
    icKrylovStats ks;
    // The end-of-substep velocity projection left the operators set up at x^{n+1} of the last
    // substep, which is this one's x^n unless the caller moved the state since.
    if (!c->systemAtXnew || memcmp(x, c->xnew, sizeof(icReal) * 3 * (size_t)n) != 0)
        icPressureSystem_Setup(c->pressureSystem, x);
    c->systemAtXnew = false;
    icPressureSystem_RingVolumes(c->pressureSystem, x, c->ring);
    for (int k = 0; k < n; ++k) {
        icReal e = c->target[k] - c->ring[k];
        if (d->recoveryTime > 0) { // Dtau clamp (Irving et al. 2007, sec. 2), as in the first solve
            icReal limit = dt / d->recoveryTime * fabs(c->target[k]);
            e = e > limit ? limit : (e < -limit ? -limit : e);
        }
        c->goal[k] = c->ring[k] + e;
    }
    for (int k = 0; k < n; ++k) total[k] *= dt; // Pa -> Pa s, the unknown of this substep's solve
    st->positionIterations = icPressureSystem_CorrectPositions(
        c->pressureSystem, &c->positionSet, &d->pressure, c->target, c->ring, dt, d->recoveryTime,
        c->vstar, total, d->warmStart, &ks);
    st->positionIterations += ks.guessProducts;
    st->positionNewtonIterations = 1;
    for (int k = 0; k < 3 * n; ++k) c->xnew[k] = x[k] + dt * c->vstar[k];
    for (int it = 1;; ++it) {
        // Pairs that crossed or came too close move back apart; the next Newton iteration then
        // restores the volume this takes, with the pairs constrained.
        bool moved = c->pairs.count > 0 && icRepulsion_ProjectPositions(
                                               &c->pairs, c->invMass, d->proximity, 4, c->xnew) > 0;
        // Vertices the pressure pushed into an obstacle join the constraints (an active set grown
        // once per iteration); otherwise the push-out of step 5 would undo the volume.
        if (icObstacles_AddPenetrations(obstacles, n, c->mask, c->xnew, t1, dt, c->predictNormal) >
            0) {
            icResult r = fillConstraints(
                c, c->predictNormal, c->pairs.count > 0 ? c->pairActive : NULL, &c->positionSet);
            if (r != IC_OK) return r;
            moved = true;
        }
        if (moved)
            for (int k = 0; k < 3 * n; ++k) c->vstar[k] = (c->xnew[k] - x[k]) / dt;
        if (it >= d->positionNewtonIterations) break;
        icPressureSystem_RingVolumes(c->pressureSystem, c->xnew, c->ring);
        icReal worst = 0;
        for (int k = 0; k < n; ++k)
            if (c->target[k] != 0) {
                icReal e = fabs(c->ring[k] - c->goal[k]) / c->errorScale[k];
                if (e > worst) worst = e;
            }
        if (worst <= d->positionTolerance) break;
        // On the rings still off their goal and a few around them (src/incompressible/
        // local_solve.c); on the whole mesh when that is most of it.
        int rings = n;
        if (d->localNewtonLayers > 0) {
            if (!c->localSolve && !(c->localSolve = icCreateLocalSolve(n, c->tets, c->T)))
                return IC_ERR_OUT_OF_MEMORY;
            int local = icLocalSolve_CorrectPositions(
                c->localSolve, obstacles->world->model.pool, c->xnew, c->invMass, c->errorScale,
                c->goal, c->ring, LOCAL_SEED_FRACTION * d->positionTolerance, d->localNewtonLayers,
                n / 2, &c->positionSet, &d->pressure, dt, c->newton, c->newtonPressure, &rings,
                &ks);
            if (local < 0) return IC_ERR_OUT_OF_MEMORY;
            st->positionIterations += local;
            st->localNewtonSolves += rings > 0 && rings <= n / 2;
        }
        if (rings > n / 2) {
            icPressureSystem_Setup(c->pressureSystem, c->xnew);
            memset(c->newton, 0, sizeof(icReal) * 3 * (size_t)n);
            st->positionIterations += icPressureSystem_CorrectPositions(
                c->pressureSystem, &c->positionSet, &d->pressure, c->goal, c->ring, dt, 0,
                c->newton, c->newtonPressure, false, &ks);
        }
        st->positionNewtonIterations++;
        for (int k = 0; k < n; ++k) total[k] += c->newtonPressure[k];
        for (int k = 0; k < 3 * n; ++k) {
            c->vstar[k] += c->newton[k];
            c->xnew[k] += dt * c->newton[k];
        }
    }
    for (int k = 0; k < n; ++k) total[k] /= dt;
    return IC_OK;
}

static bool finite(const icReal *a, int count) {
    for (int i = 0; i < count; ++i)
        if (!isfinite(a[i])) return false;
    return true;
}

// The mean rest edge length, m, computed on first use after each build.
static icReal meanEdge(icIncompressibleCache *c, const icModel *m) {
    if (c->meanEdge > 0) return c->meanEdge;
    static const int edges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    icReal sum = 0;
    for (int t = 0; t < c->T; ++t)
        for (int e = 0; e < 6; ++e)
            sum += icVec3_Length(
                icVec3_Sub(icVec3_Load(m->restPositions, c->tets[4 * t + edges[e][0]]),
                           icVec3_Load(m->restPositions, c->tets[4 * t + edges[e][1]])));
    c->meanEdge = c->T > 0 ? sum / (6.0 * c->T) : 0.0;
    return c->meanEdge;
}

// How many substeps keep every vertex within maxStepMotion mean edges per substep: the linearised
// position correction and the contact prediction both assume small motions (an impact at a third of
// an element per step crushed boundary tets). Neither needs them for a body's translation (eq. 1
// and the elastic forces do not see it), so without self contact a vertex counts with its speed
// relative to its body's mean velocity (how fast the body deforms there: a pinned vertex the body
// falls past counts in full), and with its full speed as well where an obstacle is within its
// reach over dt. Gravity's g dt over the substep counts where it changes the motion that matters:
// toward an obstacle, against the pins of a body with kinematic vertices, and between bodies with
// self contact; a free body's translation it does not deform. A falling body takes one substep a
// step, however long the step, until it comes near the ground.
static int substepCount(const icWorld *world, icIncompressibleCache *c, icReal dt) {
    const icIncompressibleDef *d = &c->def;
    if (!(d->maxStepMotion > 0)) return 1;
    const icModel *m = &world->model;
    icReal limit = d->maxStepMotion * meanEdge(c, m);
    icReal fall = icVec3_Length(m->def.gravity) * dt;
    const icReal *v = world->state->v, *x = world->state->x;
    icObstacleSet obstacles = {world, c->planes, c->planeCount};
    icReal t1 = world->state->time + dt, vmax = 0;
    for (int b = 0; b < m->bodyCount; ++b) {
        const icBodyRecord *body = &m->bodies[b];
        int first = body->vertexStart, last = first + body->vertexCount;
        icVec3 mean = icVec3_Make(0, 0, 0);
        icReal mass = 0;
        bool held = d->selfContact; // whether gravity changes this body's relative motion
        if (!d->selfContact) {
            for (int k = first; k < last; ++k) {
                mean = icVec3_Add(mean, icVec3_Scale(m->mass[k], icVec3_Load(v, k)));
                mass += m->mass[k];
                held |= !c->mask[3 * k] || !c->mask[3 * k + 1] || !c->mask[3 * k + 2];
            }
            if (mass > 0) mean = icVec3_Scale(1 / mass, mean);
        }
        for (int k = first; k < last; ++k) {
            icVec3 vk = icVec3_Load(v, k);
            icReal relative = icVec3_Length(icVec3_Sub(vk, mean)) + (held ? fall : 0);
            if (relative > vmax) vmax = relative;
            icReal speed = icVec3_Length(vk) + fall;
            icObstacleHit hit;
            if (speed > vmax &&
                icObstacles_Query(&obstacles, icVec3_Load(x, k), t1, dt, speed * dt + limit, &hit))
                vmax = speed;
        }
    }
    if (!(limit > 0) || !isfinite(vmax)) return 1;
    icReal count = ceil(vmax * dt / limit);
    return count < 1 ? 1 : (count > d->maxSubsteps ? d->maxSubsteps : (int)count);
}

static icResult stepOnce(icWorld *world, icIncompressibleCache *c, icReal dt,
                         icIncompressibleStats *stOut);

icResult icIncompressible_Step(icWorld *world, icIncompressibleCache **cachePtr, icReal dt,
                               icStepStats *stats) {
    IC_ASSERT(world && cachePtr);
    double t0 = icNowMs();
    if (stats) memset(stats, 0, sizeof *stats);
    if (!(dt > 0) || !isfinite(dt)) return IC_ERR_INVALID_ARGUMENT;
    icIncompressibleCache *c = getCache(world);
    if (!c) return IC_ERR_OUT_OF_MEMORY;
    *cachePtr = c;
    icModel *m = &world->model;
    icResult r = IC_OK;
    if (!c->built || c->revision != m->revision || c->n != m->vertexCount) {
        if ((r = build(world, c)) != IC_OK) return r;
        c->meanEdge = 0;
    }
    icIncompressibleStats total;
    memset(&total, 0, sizeof total);
    icReal t1 = world->state->time + dt;
    int count = 0;
    for (bool last = false; !last;) {
        // One look per substep at the caller's flag; icHealth_AfterStep restores the start
        // (state, contact normals and pressures).
        if (icWorld_Cancelled(world)) return IC_ERR_INTERRUPTED;
        icIncompressibleStats st;
        memset(&st, 0, sizeof st);
        // The substeps left are counted again from the velocities each one leaves, so a spike
        // that one substep damps (a contact vertex flung sideways) does not set the whole step.
        icReal remaining = t1 - world->state->time;
        int left = substepCount(world, c, remaining);
        if (left > c->def.maxSubsteps - count) left = c->def.maxSubsteps - count;
        last = left <= 1;
        // The last substep lands exactly on t1 whatever the rounding of the others.
        icReal h = last ? remaining : remaining / left;
        ++count;
        r = stepOnce(world, c, h, &st);
        total.positionIterations += st.positionIterations;
        total.positionNewtonIterations += st.positionNewtonIterations;
        total.localNewtonSolves += st.localNewtonSolves;
        total.velocityIterations += st.velocityIterations;
        total.forceIterations += st.forceIterations;
        total.objectContacts = st.objectContacts;
        total.selfPairs = st.selfPairs;
        total.elasticMs += st.elasticMs;
        total.pressureMs += st.pressureMs;
        total.contactMs += st.contactMs;
        if (st.maxRingError > total.maxRingError) total.maxRingError = st.maxRingError;
        if (r != IC_OK) {
            if (stats) stats->nan = r == IC_ERR_NUMERICAL;
            return r;
        }
    }
    total.substeps = count;
    total.totalMs = icNowMs() - t0;
    c->stats = total;
    if (stats) {
        stats->substeps = count;
        stats->sweeps = total.positionIterations + total.velocityIterations;
        stats->milliseconds = total.totalMs;
        stats->contacts = total.objectContacts;
        stats->converged = true;
        int inverted = 0;
        for (int t = 0; t < c->T; ++t)
            if (icMat3_Det(icFem_TetF(&c->fem, world->state->x, t)) <= 0) ++inverted;
        stats->invertedTets = inverted;
    }
    return IC_OK;
}

// Static friction (Coulomb's sticking branch), decided from the last substep: a vertex that ended
// it in contact with a plane with no velocity along it (its friction stopped it) sticks in this
// one. The obstacle is queried with the last substep's window, as its collisions were, so the
// decision depends on the state and the contact memory alone (restarts give the same bits).
// Colliders keep kinetic friction only: at a box's edge a stuck vertex hooked a ball that should
// have rolled off (incomp.sphere_down_steps).
static void findSticking(icIncompressibleCache *c, const icObstacleSet *obstacles, const icModel *m,
                         const icState *s) {
    memset(c->stick, 0, (size_t)c->n);
    if (!c->def.staticFriction || !(s->lastSubstep > 0)) return;
    icReal margin = 0.5 * meanEdge(c, m);
    for (int v = 0; v < c->n; ++v) {
        icVec3 nrm = c->contactNormal[v];
        if (icVec3_LengthSquared(nrm) == 0) continue;
        if (!c->mask[3 * v] || !c->mask[3 * v + 1] || !c->mask[3 * v + 2]) continue;
        icObstacleHit hit;
        if (!icObstacles_Query(obstacles, icVec3_Load(s->x, v), s->time, s->lastSubstep, margin,
                               &hit) ||
            !(hit.friction > 0) || !hit.plane)
            continue;
        icVec3 rel = icVec3_Sub(icVec3_Load(s->v, v), hit.velocity);
        icVec3 slide = icVec3_Sub(rel, icVec3_Scale(icVec3_Dot(rel, nrm), nrm));
        // The friction leaves round-off (1e-17 m/s) where it stopped the vertex.
        if (icVec3_Length(slide) > 1e-9) continue;
        c->stick[v] = 1;
        c->stickVelocity[v] = hit.velocity;
    }
}

// Eq. 2 on v at the configuration x with step 5's contacts (velocitySet); the pressure output and
// the contacts' share of its impulse (what the unconstrained correction would have pushed into the
// obstacle: the constraint's reaction, for friction).
static void projectVelocity(icIncompressibleCache *c, const icReal *x, icReal *v, icReal dt,
                            icIncompressibleStats *st) {
    double tp = icNowMs();
    icKrylovStats ks;
    int n = c->n;
    icPressureSystem_Setup(c->pressureSystem, x);
    // The last substep's pressure (Pa) as the start (Pa s): the velocity projection's pressure
    // changes slowly from substep to substep (40 % fewer iterations in a sphere drop's impact).
    if (c->def.warmStart)
        for (int k = 0; k < n; ++k) c->pressure[k] *= dt;
    st->velocityIterations +=
        icPressureSystem_ProjectVelocity(c->pressureSystem, &c->velocitySet, &c->def.pressure, v,
                                         c->pressure, c->def.warmStart, &ks);
    st->velocityIterations += ks.guessProducts;
    if (st->objectContacts > 0 && c->newton) {
        icPressureSystem_Correction(c->pressureSystem, NULL, 1, c->pressure, c->newton);
        for (int k = 0; k < n; ++k) {
            icReal into = -icVec3_Dot(c->contactNormal[k], icVec3_Load(c->newton, k));
            if (into > 0) c->impulse[k] += into;
        }
    }
    for (int k = 0; k < n; ++k) c->pressure[k] /= dt; // phat = dt p (Irving et al. 2007, sec. 2)
    st->pressureMs += icNowMs() - tp;
}

// One substep of the scheme of Irving et al. 2007, sec. 2 (steps 1-8).
static icResult stepOnce(icWorld *world, icIncompressibleCache *c, icReal dt,
                         icIncompressibleStats *stOut) {
    double t0 = icNowMs();
    icModel *m = &world->model;
    icState *s = world->state;
    icResult r = IC_OK;
    icIncompressibleStats st;
    memset(&st, 0, sizeof st);
    int n = c->n;
    size_t bytes = sizeof(icReal) * 3 * (size_t)n;
    icReal h = 0.5 * dt, t1 = s->time + dt;
    icVec3 gravity = m->def.gravity;
    const icIncompressibleDef *d = &c->def;

    // Kinematic vertices move with their pins: their velocity over the step.
    memcpy(c->v0, s->v, bytes);
    for (int v = 0; v < n; ++v) {
        icVec3 target = kinematicPosition(m, s->x, v, t1);
        for (int i = 0; i < 3; ++i)
            if (!c->mask[3 * v + i])
                c->v0[3 * v + i] = (icVec3_Get(target, i) - s->x[3 * v + i]) / dt;
    }
    // Self and body-body proximity pairs at x^n, searched wide enough for this substep's motion;
    // they constrain both pressure solves where a repulsion acted on them.
    double tc = icNowMs();
    c->pairs.count = 0;
    if (d->selfContact) {
        icReal vmax = 0;
        for (int v = 0; v < n; ++v) {
            icReal speed = icVec3_Length(icVec3_Load(c->v0, v));
            if (speed > vmax) vmax = speed;
        }
        icReal radius = 2 * d->proximity + 2 * dt * (vmax + icVec3_Length(gravity) * dt);
        if ((r = icContact_FindProximityPairs(world, radius, &c->pairs)) != IC_OK) return r;
        if (!icGrowArray((void **)&c->pairActive, &c->pairActiveCapacity, c->pairs.count + 1, 1))
            return IC_ERR_OUT_OF_MEMORY;
    }
    st.selfPairs = c->pairs.count;
    st.contactMs += icNowMs() - tc;

    // 1. Implicit half step for the position velocity.
    double te = icNowMs();
    // Standard FEM (no projections) may solve this half step again with its contacts.
    st.forceIterations +=
        implicitHalfStep(c, s->x, c->v0, h, gravity, true, !d->projections, c->vstar);
    if (d->contactInForceSolve) filterContacts(c, c->v0, c->vstar, NULL, 0);
    st.elasticMs += icNowMs() - te;

    // Contacts the position velocity would make by the end of the step (and last step's resting
    // ones) constrain the position correction at x^n.
    tc = icNowMs();
    icObstacleSet obstacles = {world, c->planes, c->planeCount};
    if (!c->predictNormal) {
        c->predictNormal = IC_ALLOC(icVec3, (size_t)n);
        c->hits = IC_ALLOC(icObstacleHit, (size_t)n);
        c->impulse = IC_ALLOC(icReal, (size_t)n);
        c->stick = IC_ALLOC(unsigned char, (size_t)n);
        c->stickVelocity = IC_ALLOC(icVec3, (size_t)n);
        if (!c->predictNormal || !c->hits || !c->impulse || !c->stick || !c->stickVelocity)
            return IC_ERR_OUT_OF_MEMORY;
    }
    findSticking(c, &obstacles, m, s);
    // Step 3 (moved before eq. 1, like the obstacle prediction): close pairs stop approaching.
    if (c->pairs.count > 0)
        icRepulsion_Apply(&c->pairs, s->x, c->invMass, dt, d->proximity, true, 4, c->vstar,
                          c->pairActive);
    icObstacles_PredictContacts(&obstacles, n, c->mask, s->x, c->vstar, t1, dt, c->contactNormal,
                                c->predictNormal);
    // Sticking contacts keep their obstacle's tangential velocity over the position update.
    for (int v = 0; v < n; ++v) {
        if (!c->stick[v] || icVec3_LengthSquared(c->predictNormal[v]) == 0) continue;
        icVec3 nrm = c->predictNormal[v], vi = icVec3_Load(c->vstar, v);
        icVec3 rel = icVec3_Sub(vi, c->stickVelocity[v]);
        icVec3_Store(c->vstar, v,
                     icVec3_Sub(vi, icVec3_Sub(rel, icVec3_Scale(icVec3_Dot(rel, nrm), nrm))));
    }
    if ((r = fillConstraints(c, c->predictNormal, c->pairs.count > 0 ? c->pairActive : NULL,
                             &c->positionSet)) != IC_OK)
        return r;
    if (!d->projections && icObstacles_Any(&obstacles)) {
        if (!c->newton && !(c->newton = IC_ALLOC(icReal, 3 * (size_t)n)))
            return IC_ERR_OUT_OF_MEMORY;
        st.forceIterations += constrainedHalfStep(c, c->v0, h, c->predictNormal, c->vstar);
    }
    st.contactMs += icNowMs() - tc;

    // 2. Position correction (eq. 1) at x^n, then re-linearised at the end positions.
    double tp = icNowMs();
    if (d->projections) {
        if ((r = correctPositions(c, &obstacles, s->x, t1, dt, &st)) != IC_OK) return r;
    } else {
        for (int k = 0; k < 3 * n; ++k) c->xnew[k] = s->x[k] + dt * c->vstar[k];
    }
    st.pressureMs += icNowMs() - tp;

    // 4. Positions advanced by the corrected velocity (xnew, from step 2). 5. Object collisions on
    // x^{n+1}; the time-n velocity restarts from v^n.
    tc = icNowMs();
    memcpy(c->vn, c->v0, bytes);
    st.objectContacts = icObstacles_Collide(&obstacles, n, c->mask, c->predictNormal, c->xnew,
                                            c->vn, t1, dt, c->contactNormal, c->hits, c->impulse);
    if (c->pairs.count > 0) {
        // Close pairs' time-n velocities stop approaching.
        icRepulsion_Apply(&c->pairs, c->xnew, c->invMass, dt, d->proximity, false, 4, c->vn,
                          c->pairActive);
    }
    if ((r = fillConstraints(c, c->contactNormal, c->pairs.count > 0 ? c->pairActive : NULL,
                             &c->velocitySet)) != IC_OK)
        return r;
    st.contactMs += icNowMs() - tc;

    // 6. Velocity projection (eq. 2) at the midpoint configuration, where the paper's list has it.
    for (int k = 0; k < 3 * n; ++k) c->xmid[k] = 0.5 * (s->x[k] + c->xnew[k]);
    bool atEnd = d->velocityProjection == IC_VELOCITY_PROJECTION_END ||
                 (d->velocityProjection == IC_VELOCITY_PROJECTION_AUTO && !d->selfContact);
    if (d->projections && !atEnd) projectVelocity(c, c->xmid, c->vn, dt, &st);

    // 7. Half step for the velocity at the midpoint, contact normals filtered; 8. extrapolate.
    te = icNowMs();
    st.forceIterations +=
        implicitHalfStep(c, c->xmid, c->vn, h, gravity, d->implicitVelocitySolve, false, c->vstar);
    // The extrapolation doubles what the filter removes from v^{n+1/2}.
    filterContacts(c, c->vn, c->vstar, c->impulse, 2);
    for (int k = 0; k < 3 * n; ++k) c->vstar[k] = 2 * c->vstar[k] - c->vn[k];
    st.elasticMs += icNowMs() - te;
    // 6'. Or eq. 2 on v^{n+1} at x^{n+1} (icVelocityProjection), before friction reads the
    // contacts' impulse.
    if (d->projections && atEnd) {
        projectVelocity(c, c->xnew, c->vstar, dt, &st);
        c->systemAtXnew = true;
    }
    // 9. Friction with the normal impulse of the whole step.
    icObstacles_ApplyFriction(n, c->contactNormal, c->hits, c->impulse, c->vstar);
    // 9. Close pairs leave the step without approaching.
    if (c->pairs.count > 0)
        icRepulsion_Apply(&c->pairs, c->xnew, c->invMass, dt, d->proximity, false, 4, c->vstar,
                          NULL);

    if (!finite(c->xnew, 3 * n) || !finite(c->vstar, 3 * n)) {
        *stOut = st;
        return IC_ERR_NUMERICAL;
    }
    memcpy(s->xPrev, s->x, bytes);
    memcpy(s->x, c->xnew, bytes);
    memcpy(s->v, c->vstar, bytes);
    s->time = t1;
    s->lastSubstep = dt;
    s->substepCount++;

    icPressureSystem_RingVolumes(c->pressureSystem, s->x, c->ring);
    for (int k = 0; k < n; ++k)
        if (c->target[k] != 0) {
            icReal e = fabs(c->ring[k] / c->target[k] - 1);
            if (e > st.maxRingError) st.maxRingError = e;
        }
    st.totalMs = icNowMs() - t0;
    *stOut = st;
    return IC_OK;
}

// ---------------------------------------------------------------------------------------
// Checkpoints (src/world/checkpoint.c, section INCP): the memory a step leaves for the next.
// Everything else in the cache is rebuilt from the model and the state.

// The test of icIncompressible_Step: the next step keeps this cache (no rebuild).
static bool cacheIsCurrent(const icWorld *world, const icIncompressibleCache *c) {
    return c && c->built && c->revision == world->model.revision &&
           c->n == world->model.vertexCount;
}

void icIncompressible_GetMemory(const icWorld *world, icReal *memory) {
    IC_ASSERT(world);
    const icIncompressibleCache *c = world->incompressible;
    size_t n = (size_t)world->model.vertexCount;
    if (n == 0) return;
    // A cache the next step rebuilds starts from zeros: so does the restored world.
    if (!cacheIsCurrent(world, c)) {
        memset(memory, 0, sizeof(icReal) * IC_INCOMPRESSIBLE_MEMORY_REALS * n);
        return;
    }
    for (size_t v = 0; v < n; ++v) icVec3_Store(memory, (int)v, c->contactNormal[v]);
    memcpy(memory + 3 * n, c->pressure, sizeof(icReal) * n);
    memcpy(memory + 4 * n, c->positionPressure, sizeof(icReal) * n);
}

icResult icIncompressible_SetMemory(icWorld *world, const icReal *memory) {
    IC_ASSERT(world);
    const icModel *m = &world->model;
    // Nothing steps there (IC_ERR_EMPTY), so nothing is remembered.
    if (m->vertexCount == 0 || m->tetCount == 0) return IC_OK;
    icIncompressibleCache *c = getCache(world);
    if (!c) return IC_ERR_OUT_OF_MEMORY;
    // Built now, as the next step would (the build reads the model only); that step then finds the
    // cache current and starts from the restored contacts.
    if (!cacheIsCurrent(world, c)) {
        icResult r = build(world, c);
        if (r != IC_OK) return r;
        c->meanEdge = 0;
    }
    size_t n = (size_t)c->n;
    for (size_t v = 0; v < n; ++v) c->contactNormal[v] = icVec3_Load(memory, (int)v);
    memcpy(c->pressure, memory + 3 * n, sizeof(icReal) * n);
    memcpy(c->positionPressure, memory + 4 * n, sizeof(icReal) * n);
    return IC_OK;
}
