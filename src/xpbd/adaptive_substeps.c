// SPDX-License-Identifier: MIT
// How many XPBD substeps a step takes: the world's `substeps`, or more while the motion
// deforms tets faster than the sweeps can follow. One Gauss-Seidel sweep per substep carries a
// correction about one tet further, so a deformation that adds strain |D| h per substep at one
// side of a body of N tets across leaves it behind by about |D| h N: a 304k-tet box (33 tets
// across) landing at 2 m/s crushes its corner tets to J = 0 at 20 substeps where the converged
// minimum is J = 0.45. The step takes enough substeps to keep |D| h N below
// maxSubstepStrain. The rate is the deformation's (the symmetric part of F' F^-1), not the
// motion's: a body falling or spinning rigidly needs no more substeps. A contact with a plane
// that the step will make counts as the deformation it will cause.
#include "core/pool.h"
#include "xpbd/substep.h"
#include "xpbd/xpbd.h"

#include <math.h>
#include <string.h>

enum { IC_ADAPTIVE_MIN_TETS = 4096 }; // per range of the tet pass

typedef struct icRateTask {
    const icModel *model;
    const icState *state;
    double worst[IC_MAX_WORKERS]; ///< per worker: the largest lag rate seen (max is order free)
} icRateTask;

// |D| = |sym(L)|, L = Vs Ds^-1 (= F' F^-1): the rate of deformation of a tet, 1/s. Its rigid
// part (skew L) is left out, so rotation costs nothing. Inverted or flat tets have no
// meaningful L and are skipped (the health checks report them).
static double tetRate(const icReal *x, const icReal *v, const int *tv) {
    icVec3 x3 = icVec3_Load(x, tv[3]), v3 = icVec3_Load(v, tv[3]);
    icMat3 Ds = icMat3_FromCols(icVec3_Sub(icVec3_Load(x, tv[0]), x3),
                                icVec3_Sub(icVec3_Load(x, tv[1]), x3),
                                icVec3_Sub(icVec3_Load(x, tv[2]), x3));
    icMat3 Vs = icMat3_FromCols(icVec3_Sub(icVec3_Load(v, tv[0]), v3),
                                icVec3_Sub(icVec3_Load(v, tv[1]), v3),
                                icVec3_Sub(icVec3_Load(v, tv[2]), v3));
    icReal det = icMat3_Det(Ds);
    if (!(det > 0)) return 0;
    icMat3 L = icMat3_Mul(Vs, icMat3_Scale(1.0 / det, icMat3_Transpose(icMat3_Cofactor(Ds))));
    icMat3 D = icMat3_Scale(0.5, icMat3_Add(L, icMat3_Transpose(L)));
    double r = sqrt(icMat3_NormSquared(D));
    return isfinite(r) ? r : 0;
}

static void rateTask(int start, int end, int worker, void *context) {
    icRateTask *T = context;
    const icModel *m = T->model;
    double worst = T->worst[worker];
    for (int t = start; t < end; ++t) {
        double r = tetRate(T->state->x, T->state->v, m->tets + 4 * (size_t)t) *
                   m->bodies[m->tetBody[t]].layers;
        if (r > worst) worst = r;
    }
    T->worst[worker] = worst;
}

// A vertex that will reach a plane within dt at normal speed u stops there: the tets above it
// take a deformation rate of about u / (their size). The step's gravity is counted in u.
static double contactRate(const icModel *m, const icState *s, icReal dt) {
    double worst = 0;
    for (int b = 0; b < m->bodyCount && m->planeCount > 0; ++b) {
        const icBodyRecord *body = &m->bodies[b];
        if (!(body->meanEdge > 0)) continue;
        double fastest = 0;
        for (int v = body->vertexStart; v < body->vertexStart + body->vertexCount; ++v) {
            icVec3 w = icVec3_Load(m->invMass, v);
            if (w.x == 0 && w.y == 0 && w.z == 0) continue;
            icVec3 x = icVec3_Load(s->x, v), vel = icVec3_Load(s->v, v);
            for (int p = 0; p < m->planeCount; ++p) {
                const icPlane *plane = &m->planes[p];
                icReal gap = icVec3_Dot(plane->normal, x) - plane->offset;
                icReal u = icVec3_Dot(plane->normal, vel) +
                           fmin(0.0, icVec3_Dot(plane->normal, m->def.gravity)) * dt;
                if (u < 0 && gap + u * dt < 0 && -u > fastest) fastest = -u;
            }
        }
        worst = fmax(worst, fastest / body->meanEdge * body->layers);
    }
    return worst;
}

int icXpbd_SubstepsFor(const icModel *m, const icState *s, icReal dt) {
    int base = m->def.substeps;
    if (!(m->def.maxSubstepStrain > 0) || m->def.maxSubsteps <= base || !(dt > 0)) return base;
    icRateTask T;
    memset(&T, 0, sizeof T);
    T.model = m;
    T.state = s;
    icPool_ParallelFor(m->pool, rateTask, m->tetCount, IC_ADAPTIVE_MIN_TETS, &T);
    double rate = contactRate(m, s, dt);
    for (int w = 0; w < IC_MAX_WORKERS; ++w) rate = fmax(rate, T.worst[w]);
    double wanted = ceil(rate * dt / m->def.maxSubstepStrain);
    if (!(wanted > base)) return base;
    return wanted >= m->def.maxSubsteps ? m->def.maxSubsteps : (int)wanted;
}

void icModel_MeasureBodies(icModel *m) {
    for (int b = 0; b < m->bodyCount; ++b) {
        icBodyRecord *body = &m->bodies[b];
        // A regular tet of volume V has edges cbrt(6 sqrt(2) V).
        double sum = 0;
        for (int t = body->tetStart; t < body->tetStart + body->tetCount; ++t)
            sum += cbrt(6 * sqrt(2.0) * m->restVolume[t]);
        body->meanEdge = body->tetCount > 0 ? sum / body->tetCount : 0;
        icVec3 lo = icVec3_Make(INFINITY, INFINITY, INFINITY), hi = icVec3_Neg(lo);
        for (int v = body->vertexStart; v < body->vertexStart + body->vertexCount; ++v) {
            lo = icVec3_Min(lo, icVec3_Load(m->restPositions, v));
            hi = icVec3_Max(hi, icVec3_Load(m->restPositions, v));
        }
        icVec3 extent = icVec3_Sub(hi, lo);
        double largest = fmax(extent.x, fmax(extent.y, extent.z));
        body->layers = body->meanEdge > 0 && largest > 0 ? fmax(1.0, largest / body->meanEdge) : 1;
    }
}
