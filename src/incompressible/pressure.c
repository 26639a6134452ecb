// SPDX-License-Identifier: MIT
// The pressure systems J Pi M^-1 J^T phat = rhs and the two projections built on them:
// positions with the volume-recovery clamp (eq. 1) and divergence-free velocities (eq. 2)
// (seed 003, sec. 3; spec 1.6, 2, 4.2).
#include "core/core.h"
#include "core/pool.h"
#include "isochor/incompressible.h"

#include <math.h>
#include <string.h>

struct icPressureSystem {
    int n, tetCount;
    int *tets;            ///< (tetCount x 4)
    icReal *invMass;      ///< (n x 3)
    int *ringStart;       ///< (n + 1) vertex -> tets
    int *ringTets;        ///< (4 tetCount)
    icReal *g;            ///< (tetCount x 12) at the last Setup
    icReal *diag;         ///< (n) unprojected A_kk
    icReal *scale;        ///< (n) MINRES scaling: diag^-1/2 (or 1), 0 on inactive rows
    icReal *invDiag;      ///< (n) CG preconditioner, 0 on inactive rows
    icReal *u;            ///< (n x 3) scratch
    icReal *p;            ///< (n) scratch
    icReal *rhs;          ///< (n) scratch
    icReal *work;         ///< (8n) Krylov scratch
    icVec3 *acc;          ///< (n) diagonal scratch
    int *mark;            ///< (n)
    const icConstraintSet *constraints; ///< of the solve in progress
    int sweeps;
    icPool *pool;         ///< workers of the operators (NULL: serial)
};

icPressureDef icDefaultPressureDef(void) {
    icPressureDef d;
    d.solver = IC_PRESSURE_MINRES;
    d.tolerance = 0.01;
    d.absoluteTolerance = 1e-10;
    d.maxIterations = 200;
    d.jacobi = true;
    d.sweeps = 4;
    return d;
}

void icDestroyPressureSystem(icPressureSystem *s) {
    if (!s) return;
    icFree(s->tets);
    icFree(s->invMass);
    icFree(s->ringStart);
    icFree(s->ringTets);
    icFree(s->g);
    icFree(s->diag);
    icFree(s->scale);
    icFree(s->invDiag);
    icFree(s->u);
    icFree(s->p);
    icFree(s->rhs);
    icFree(s->work);
    icFree(s->acc);
    icFree(s->mark);
    icFree(s);
}

icPressureSystem *icCreatePressureSystem(int vertexCount, const int *tets, int tetCount,
                                         const icReal *invMass) {
    if (vertexCount <= 0 || tetCount <= 0) return NULL;
    for (int i = 0; i < 4 * tetCount; ++i)
        if (tets[i] < 0 || tets[i] >= vertexCount) return NULL;
    icPressureSystem *s = IC_ALLOC_ZERO(icPressureSystem, 1);
    if (!s) return NULL;
    size_t n = (size_t)vertexCount, T = (size_t)tetCount;
    s->n = vertexCount;
    s->tetCount = tetCount;
    s->tets = IC_ALLOC(int, 4 * T);
    s->invMass = IC_ALLOC(icReal, 3 * n);
    s->ringStart = IC_ALLOC_ZERO(int, n + 1);
    s->ringTets = IC_ALLOC(int, 4 * T);
    s->g = IC_ALLOC_ZERO(icReal, 12 * T);
    s->diag = IC_ALLOC_ZERO(icReal, n);
    s->scale = IC_ALLOC_ZERO(icReal, n);
    s->invDiag = IC_ALLOC_ZERO(icReal, n);
    s->u = IC_ALLOC(icReal, 3 * n);
    s->p = IC_ALLOC(icReal, n);
    s->rhs = IC_ALLOC(icReal, n);
    s->work = IC_ALLOC(icReal, 8 * n);
    s->acc = IC_ALLOC(icVec3, n);
    s->mark = IC_ALLOC(int, n);
    if (!s->tets || !s->invMass || !s->ringStart || !s->ringTets || !s->g || !s->diag ||
        !s->scale || !s->invDiag || !s->u || !s->p || !s->rhs || !s->work || !s->acc ||
        !s->mark) {
        icDestroyPressureSystem(s);
        return NULL;
    }
    memcpy(s->tets, tets, sizeof(int) * 4 * T);
    memcpy(s->invMass, invMass, sizeof(icReal) * 3 * n);
    for (size_t i = 0; i < 4 * T; ++i) s->ringStart[tets[i] + 1]++;
    for (size_t v = 0; v < n; ++v) s->ringStart[v + 1] += s->ringStart[v];
    memcpy(s->mark, s->ringStart, sizeof(int) * n);
    for (int t = 0; t < tetCount; ++t)
        for (int a = 0; a < 4; ++a) s->ringTets[s->mark[tets[4 * t + a]]++] = t;
    for (size_t v = 0; v < n; ++v) s->mark[v] = -1;
    return s;
}

void icPressureSystem_SetPool(icPressureSystem *s, icPool *pool) { s->pool = pool; }

// spec 1.7 step 3: A_kk = sum_j |J[k][j]|^2_{M^-1}, the blocks summed over tets first.
static icReal diagonalEntry(icPressureSystem *s, int k) {
    int touched[512];
    int count = 0;
    icReal overflow = 0;
    for (int i = s->ringStart[k]; i < s->ringStart[k + 1]; ++i) {
        int t = s->ringTets[i];
        for (int a = 0; a < 4; ++a) {
            int j = s->tets[4 * t + a];
            icVec3 ga = icVec3_Scale(0.25, icVec3_Load(s->g + 12 * t, a));
            if (s->mark[j] < 0) {
                if (count == (int)(sizeof touched / sizeof touched[0])) {
                    // Pathological valence: an upper bound keeps the scaling SPD.
                    const icReal *w = s->invMass + 3 * j;
                    overflow += 4 * (ga.x * ga.x * w[0] + ga.y * ga.y * w[1] + ga.z * ga.z * w[2]);
                    continue;
                }
                s->mark[j] = count;
                touched[count++] = j;
                s->acc[j] = icVec3_Make(0, 0, 0);
            }
            s->acc[j] = icVec3_Add(s->acc[j], ga);
        }
    }
    icReal sum = overflow;
    for (int i = 0; i < count; ++i) {
        int j = touched[i];
        const icReal *w = s->invMass + 3 * j;
        icVec3 b = s->acc[j];
        sum += b.x * b.x * w[0] + b.y * b.y * w[1] + b.z * b.z * w[2];
        s->mark[j] = -1;
    }
    return sum;
}

void icPressureSystem_Setup(icPressureSystem *s, const icReal *x) {
    icOneRing_Gradients(x, s->tets, s->tetCount, s->g);
    icReal maxDiag = 0;
    for (int k = 0; k < s->n; ++k) {
        s->diag[k] = diagonalEntry(s, k);
        if (s->diag[k] > maxDiag) maxDiag = s->diag[k];
    }
    // spec 4.2: drop rows whose ring has no free vertex (A_kk = 0, up to round-off).
    icReal floor = 1e-14 * maxDiag;
    for (int k = 0; k < s->n; ++k) {
        bool active = s->diag[k] > floor;
        s->invDiag[k] = active ? 1.0 / s->diag[k] : 0.0;
        s->scale[k] = active ? 1.0 / sqrt(s->diag[k]) : 0.0;
    }
}

// dv = Pi M^-1 J^T p (spec 1.6 first half).
void icPressureSystem_Correction(icPressureSystem *s, const icConstraintSet *constraints,
                                 int sweeps, const icReal *phat, icReal *dv) {
    icOneRing_DivergenceTranspose(s->g, s->tets, s->tetCount, s->n, phat, dv);
    for (int i = 0; i < 3 * s->n; ++i) dv[i] *= s->invMass[i];
    icConstraintSet_Project(constraints, s->invMass, sweeps, dv);
}

// y = J Pi M^-1 J^T x on the active unknowns (spec 1.6).
static void pressureOperator(void *context, const icReal *x, icReal *y) {
    icPressureSystem *s = context;
    for (int k = 0; k < s->n; ++k) s->p[k] = s->invDiag[k] > 0 ? x[k] : 0.0;
    icPressureSystem_Correction(s, s->constraints, s->sweeps, s->p, s->u);
    icOneRing_Divergence(s->g, s->tets, s->tetCount, s->n, s->u, y);
    for (int k = 0; k < s->n; ++k)
        if (!(s->invDiag[k] > 0)) y[k] = 0;
}

int icPressureSystem_Solve(icPressureSystem *s, const icConstraintSet *constraints,
                           const icPressureDef *def, icReal volumeScale, const icReal *rhs,
                           icReal *phat, icKrylovStats *stats) {
    s->constraints = constraints;
    s->sweeps = def->sweeps;
    int active = 0;
    for (int k = 0; k < s->n; ++k) {
        active += s->invDiag[k] > 0;
        s->rhs[k] = s->invDiag[k] > 0 ? rhs[k] : 0.0;
    }
    // spec 7.7: never more iterations than unknowns (Lanczos loses orthogonality).
    int cap = def->maxIterations < active ? def->maxIterations : active;
    icReal absTol = def->absoluteTolerance * volumeScale;
    icKrylovStats st = {0};
    int it = 0;
    if (def->solver == IC_PRESSURE_CG) {
        // Unit preconditioner on active rows when Jacobi is off.
        if (!def->jacobi)
            for (int k = 0; k < s->n; ++k) s->scale[k] = s->invDiag[k] > 0 ? 1.0 : 0.0;
        it = icJacobiCG(s->n, pressureOperator, s, def->jacobi ? s->invDiag : s->scale, s->rhs,
                        phat, def->tolerance, absTol, cap, s->work, &st);
        if (!def->jacobi)
            for (int k = 0; k < s->n; ++k)
                s->scale[k] = s->invDiag[k] > 0 ? sqrt(s->invDiag[k]) : 0.0;
        if (st.breakdown) {
            int more = it;
            it = icMinres(s->n, pressureOperator, s, s->scale, s->rhs, phat, def->tolerance,
                          absTol, cap, s->work, &st);
            it += more;
            st.iterations = it;
        }
    } else {
        if (!def->jacobi)
            for (int k = 0; k < s->n; ++k) s->scale[k] = s->invDiag[k] > 0 ? 1.0 : 0.0;
        // With Jacobi scaling the tolerances apply to the scaled residual S r, whose size
        // differs from r by about 1/sqrt(A_kk): rescale the floor accordingly.
        icReal scaleAbs = absTol;
        if (def->jacobi) {
            icReal mean = 0;
            for (int k = 0; k < s->n; ++k) mean += s->scale[k];
            scaleAbs = absTol * (active > 0 ? mean / active : 1.0);
        }
        it = icMinres(s->n, pressureOperator, s, s->scale, s->rhs, phat, def->tolerance,
                      scaleAbs, cap, s->work, &st);
        if (!def->jacobi)
            for (int k = 0; k < s->n; ++k)
                s->scale[k] = s->invDiag[k] > 0 ? sqrt(s->invDiag[k]) : 0.0;
    }
    for (int k = 0; k < s->n; ++k)
        if (!(s->invDiag[k] > 0)) phat[k] = 0;
    s->constraints = NULL;
    if (stats) *stats = st;
    return it;
}

static icReal totalVolumeScale(const icReal *volumes, int n) {
    icReal total = 0;
    for (int k = 0; k < n; ++k) total += fabs(volumes[k]);
    return total;
}

int icPressureSystem_ProjectVelocity(icPressureSystem *s, const icConstraintSet *constraints,
                                     const icPressureDef *def, icReal *v, icReal *phat,
                                     icKrylovStats *stats) {
    icReal *b = IC_ALLOC(icReal, s->n);
    icReal *ph = phat ? phat : IC_ALLOC(icReal, s->n);
    icReal *dv = IC_ALLOC(icReal, 3 * (size_t)s->n);
    int it = -1;
    if (b && ph && dv) {
        // eq. 2: A phat = -J w; consistent because range(A) = range(J).
        icOneRing_Divergence(s->g, s->tets, s->tetCount, s->n, v, b);
        icReal scale = 0;
        for (int k = 0; k < s->n; ++k) {
            b[k] = -b[k];
            scale += fabs(b[k]);
        }
        it = icPressureSystem_Solve(s, constraints, def, scale > 0 ? scale : 1.0, b, ph, stats);
        icPressureSystem_Correction(s, constraints, def->sweeps, ph, dv);
        for (int i = 0; i < 3 * s->n; ++i) v[i] += dv[i];
    }
    icFree(b);
    if (ph != phat) icFree(ph);
    icFree(dv);
    return it;
}

int icPressureSystem_CorrectPositions(icPressureSystem *s, const icConstraintSet *constraints,
                                      const icPressureDef *def, const icReal *targetVolumes,
                                      const icReal *ringVolumes, icReal dt, icReal recoveryTime,
                                      icReal *w, icKrylovStats *stats) {
    icReal *b = IC_ALLOC(icReal, s->n);
    icReal *ph = IC_ALLOC(icReal, s->n);
    icReal *dv = IC_ALLOC(icReal, 3 * (size_t)s->n);
    int it = -1;
    if (b && ph && dv) {
        icOneRing_Divergence(s->g, s->tets, s->tetCount, s->n, w, b);
        for (int k = 0; k < s->n; ++k) {
            icReal e = targetVolumes[k] - ringVolumes[k];
            // spec 2.2: no ring recovers faster than its whole volume per Dtau.
            if (recoveryTime > 0) {
                icReal limit = dt / recoveryTime * fabs(targetVolumes[k]);
                if (e > limit) e = limit;
                if (e < -limit) e = -limit;
            }
            b[k] = -b[k] + e / dt;
        }
        icReal scale = totalVolumeScale(targetVolumes, s->n) / dt;
        it = icPressureSystem_Solve(s, constraints, def, scale > 0 ? scale : 1.0, b, ph, stats);
        icPressureSystem_Correction(s, constraints, def->sweeps, ph, dv);
        for (int i = 0; i < 3 * s->n; ++i) w[i] += dv[i];
    }
    icFree(b);
    icFree(ph);
    icFree(dv);
    return it;
}
