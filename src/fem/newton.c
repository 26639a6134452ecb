// SPDX-License-Identifier: MIT
// Projected Newton for backward Euler and quasistatics (Sifakis & Barbič 2012, sec. 4.4) with
// filtered PCG (Baraff & Witkin 1998).
#define _POSIX_C_SOURCE 200809L
#include "core/core.h"
#include "fem/fem_internal.h"
#include "math/cg_internal.h"


struct icNewtonSolver {
    const icFemModel *model;
    icNewtonDef def;
    int n;                 ///< 3 vertexCount
    icFemPattern pattern;  ///< assembled A (unused when matrix-free)
    icReal *hessians;      ///< (tetCount x 81) matrix-free only
    icReal *xn;            ///< (n) positions at the start of the step
    icReal *xt;            ///< (n) inertial target x^n + dt v^n
    icReal *fext;          ///< (n) external forces incl. gravity
    icReal *f;             ///< (n) elastic forces / scratch
    icReal *r;             ///< (n) residual (filtered)
    icReal *dx;            ///< (n) Newton direction
    icReal *trial;         ///< (n) line-search point
    icReal *tmp;           ///< (n) scratch of applyK callers
    icReal *e;             ///< (n) scratch: x - x^n
    icReal *rTrial;        ///< (n) residual at a line-search point
    icReal *fSave;         ///< (n) forces kept while a trial point is evaluated
    icReal *work;          ///< (4n) PCG
    icReal *diag;          ///< (vertexCount x 9) diagonal blocks of A
    icReal *precond;       ///< (vertexCount x 9)
    unsigned char *mask;   ///< (n) 1 = free
    icReal *blocks;        ///< (vertexCount x 9) Hessian blocks of the vertex potential
    icVertexPotentialFn potential; ///< per-vertex potential (contact) or NULL
    void *potentialContext;
    icReal diagonal;       ///< length scale sqrt(3) (rest volume)^(1/3), m
    icReal forceScale;     ///< max(m_i |g|, mu W^(2/3)), N
    const volatile sig_atomic_t *interrupt; ///< icNewtonSolver_SetInterrupt's flag or NULL
};

icNewtonDef icDefaultNewtonDef(void) {
    icNewtonDef d;
    d.maxIterations = 50;
    d.residualTolerance = 1e-6;
    d.absoluteTolerance = 1e-10;
    d.stepTolerance = 1e-7;
    d.cgTolerance = 1e-4;
    d.maxCGIterations = 1000;
    d.preconditioner = IC_PRECONDITIONER_BLOCK_JACOBI;
    d.projectHessian = true;
    d.matrixFree = false;
    d.lineSearch = true;
    d.stiffnessDamping = 0;
    d.massDamping = 0;
    d.contactStiffness = 100;
    d.frictionVelocity = 1e-3;
    return d;
}

static bool defIsValid(const icNewtonDef *d) {
    return d->maxIterations >= 1 && d->residualTolerance >= 0 && d->absoluteTolerance >= 0 &&
           d->stepTolerance >= 0 && d->cgTolerance > 0 && d->maxCGIterations >= 1 &&
           (int)d->preconditioner >= 0 && d->preconditioner <= IC_PRECONDITIONER_BLOCK_JACOBI &&
           d->stiffnessDamping >= 0 && isfinite(d->stiffnessDamping) && d->massDamping >= 0 &&
           isfinite(d->massDamping) && d->contactStiffness > 0 && isfinite(d->contactStiffness) &&
           d->frictionVelocity > 0 && isfinite(d->frictionVelocity);
}

void icDestroyNewtonSolver(icNewtonSolver *s) {
    if (!s) return;
    icFemPattern_Destroy(&s->pattern);
    icFree(s->hessians);
    icFree(s->xn);
    icFree(s->xt);
    icFree(s->fext);
    icFree(s->f);
    icFree(s->r);
    icFree(s->dx);
    icFree(s->trial);
    icFree(s->tmp);
    icFree(s->e);
    icFree(s->rTrial);
    icFree(s->fSave);
    icFree(s->work);
    icFree(s->diag);
    icFree(s->precond);
    icFree(s->mask);
    icFree(s->blocks);
    icFree(s);
}

icNewtonSolver *icCreateNewtonSolver(const icFemModel *model, const icNewtonDef *def) {
    icNewtonDef d = def ? *def : icDefaultNewtonDef();
    if (!model || model->vertexCount <= 0 || !defIsValid(&d)) return NULL;
    icNewtonSolver *s = IC_ALLOC_ZERO(icNewtonSolver, 1);
    if (!s) return NULL;
    s->model = model;
    s->def = d;
    int nv = model->vertexCount, n = 3 * nv;
    s->n = n;
    s->xn = IC_ALLOC(icReal, n);
    s->xt = IC_ALLOC(icReal, n);
    s->fext = IC_ALLOC(icReal, n);
    s->f = IC_ALLOC(icReal, n);
    s->r = IC_ALLOC(icReal, n);
    s->dx = IC_ALLOC(icReal, n);
    s->trial = IC_ALLOC(icReal, n);
    s->tmp = IC_ALLOC(icReal, n);
    s->e = IC_ALLOC(icReal, n);
    s->rTrial = IC_ALLOC(icReal, n);
    s->fSave = IC_ALLOC(icReal, n);
    s->work = IC_ALLOC(icReal, 4 * (size_t)n);
    s->diag = IC_ALLOC(icReal, 9 * (size_t)nv);
    s->precond = IC_ALLOC(icReal, 9 * (size_t)nv);
    s->mask = IC_ALLOC(unsigned char, n);
    s->blocks = IC_ALLOC(icReal, 9 * (size_t)nv);
    s->hessians = IC_ALLOC(icReal, 81 * (size_t)model->tetCount);
    bool ok = s->xn && s->xt && s->fext && s->f && s->r && s->dx && s->trial && s->tmp && s->e && s->rTrial && s->fSave &&
              s->work && s->diag && s->precond && s->mask && s->hessians && s->blocks;
    if (ok) ok = icFemPattern_Create(&s->pattern, model) == IC_OK;
    if (!ok) {
        icDestroyNewtonSolver(s);
        return NULL;
    }
    // Scales for the tolerances: the force of unit strain on one element, and a length: the
    // diagonal of a cube of the rest volume (the model keeps no rest positions).
    icReal muW = 0, volume = 0;
    for (int t = 0; t < model->tetCount; ++t) {
        icReal mu = model->materials[model->tetMaterial[t]].mu;
        muW = fmax(muW, mu * pow(model->rest[t].W, 2.0 / 3.0));
        volume += model->rest[t].W;
    }
    s->forceScale = muW;
    s->diagonal = sqrt(3.0) * cbrt(volume);
    return s;
}

void icNewtonSolver_SetDef(icNewtonSolver *s, const icNewtonDef *def) {
    if (s && def && defIsValid(def)) s->def = *def;
}

void icNewtonSolver_SetPotential(icNewtonSolver *s, icVertexPotentialFn potential,
                                 void *context) {
    if (!s) return;
    s->potential = potential;
    s->potentialContext = context;
}

void icNewtonSolver_SetInterrupt(icNewtonSolver *s, const volatile sig_atomic_t *flag) {
    if (s) s->interrupt = flag;
}

// Energy of the per-vertex potential at x (0 without one); adds its forces to f when given.
static icReal potentialEnergy(icNewtonSolver *s, const icReal *x, icReal *f) {
    return s->potential ? s->potential(s->potentialContext, x, f, NULL) : 0.0;
}

// All forces at x but the external ones: elastic and per-vertex potential, added to f.
static void addForces(icNewtonSolver *s, const icReal *x, icReal *f) {
    icFem_AddForces(s->model, x, f);
    (void)potentialEnergy(s, x, f);
}

// y += B w with B the potential's block diagonal.
static void addBlocks(const icNewtonSolver *s, const icReal *w, icReal *y, icReal sign) {
    if (!s->potential) return;
    for (int v = 0; v < s->model->vertexCount; ++v) {
        const icReal *b = s->blocks + 9 * (size_t)v;
        const icReal *wv = w + 3 * v;
        for (int i = 0; i < 3; ++i)
            y[3 * v + i] += sign * (b[i] * wv[0] + b[3 + i] * wv[1] + b[6 + i] * wv[2]);
    }
}

static icReal maxAbsMasked(const icReal *a, const unsigned char *mask, int n) {
    icReal m = 0;
    for (int i = 0; i < n; ++i) {
        icReal v = mask[i] ? fabs(a[i]) : 0.0;
        m = (v > m || v != v) ? v : m;
    }
    return m;
}

static icReal dotN(const icReal *a, const icReal *b, int n) {
    icKahanSum s = {0, 0};
    for (int i = 0; i < n; ++i) icKahan_Add(&s, a[i] * b[i]);
    return s.sum;
}

// Per-solve setup shared by the dynamic and static solves: mask, external forces, scales.
static void setupInput(icNewtonSolver *s, const icNewtonInput *in, icReal *x) {
    const icFemModel *m = s->model;
    int n = s->n;
    icReal gmax = 0;
    for (int v = 0; v < m->vertexCount; ++v) {
        icVec3 g = icVec3_Scale(m->mass[v], in->gravity);
        gmax = fmax(gmax, icVec3_Length(g));
        icVec3_Store(s->fext, v, g);
    }
    if (in->externalForce)
        for (int i = 0; i < n; ++i) s->fext[i] += in->externalForce[i];
    for (int i = 0; i < n; ++i) s->mask[i] = in->freeMask ? (in->freeMask[i] != 0) : 1;
    if (in->targets)
        for (int i = 0; i < n; ++i)
            if (!s->mask[i]) x[i] = in->targets[i];
    s->forceScale = fmax(s->forceScale, gmax);
}

typedef struct {
    bool dynamic;
    icReal dt;
    icReal stiffScale; ///< 1 + gamma/dt (1 in statics)
    icReal massScale;  ///< 1/dt^2 + alpha_M/dt (0 in statics)
    icReal gamma;      ///< stiffness damping (0 in statics)
} icNewtonTerms;

// y = A w with A = stiffScale K+ + massScale M + B (B: the potential's blocks, which the
// assembled matrix holds on its diagonal).
static void applyA(icNewtonSolver *s, const icNewtonTerms *tm, const icReal *w, icReal *y) {
    if (!s->def.matrixFree) {
        icBsr3_Multiply(&s->pattern.matrix, w, y);
        return;
    }
    icFem_StiffnessProduct(s->model, s->hessians, w, y);
    for (int v = 0; v < s->model->vertexCount; ++v)
        for (int i = 0; i < 3; ++i)
            y[3 * v + i] = tm->stiffScale * y[3 * v + i] + tm->massScale * s->model->mass[v] * w[3 * v + i];
    addBlocks(s, w, y, 1);
}

typedef struct {
    icNewtonSolver *s;
    const icNewtonTerms *tm;
} icNewtonOperator;

static void operatorA(void *context, const icReal *x, icReal *y) {
    icNewtonOperator *op = context;
    applyA(op->s, op->tm, x, y);
}

// K+ w = (A w - massScale M w - B w) / stiffScale (the damping term needs K+ alone).
static void applyK(icNewtonSolver *s, const icNewtonTerms *tm, const icReal *w, icReal *y) {
    applyA(s, tm, w, y);
    addBlocks(s, w, y, -1);
    for (int v = 0; v < s->model->vertexCount; ++v)
        for (int i = 0; i < 3; ++i)
            y[3 * v + i] = (y[3 * v + i] - tm->massScale * s->model->mass[v] * w[3 * v + i]) / tm->stiffScale;
}

// Objective Phi at x given its elastic energy (the incremental potential): IP_k in dynamics,
// E - f_ext.x in statics. Uses s->tmp when damping is on. *magnitude gets the size of the terms
// summed, which sets the rounding level of Phi.
static icReal objective(icNewtonSolver *s, const icNewtonTerms *tm, const icReal *x, icReal energy,
                        icReal *magnitude) {
    *magnitude = fabs(energy);
    if (!isfinite(energy)) return energy;
    const icFemModel *m = s->model;
    icKahanSum sum = {0, 0};
    icKahan_Add(&sum, energy);
    icReal work = 0;
    for (int i = 0; i < s->n; ++i) {
        icKahan_Add(&sum, -s->fext[i] * x[i]);
        work += fabs(s->fext[i] * x[i]);
    }
    *magnitude += work;
    if (tm->dynamic) {
        icReal aM = s->def.massDamping;
        for (int v = 0; v < m->vertexCount; ++v) {
            icVec3 d = icVec3_Sub(icVec3_Load(x, v), icVec3_Load(s->xt, v));
            icVec3 e = icVec3_Sub(icVec3_Load(x, v), icVec3_Load(s->xn, v));
            icKahan_Add(&sum, m->mass[v] * (icVec3_Dot(d, d) / (2 * tm->dt * tm->dt) +
                                            aM * icVec3_Dot(e, e) / (2 * tm->dt)));
        }
        if (tm->gamma > 0) {
            for (int i = 0; i < s->n; ++i) s->e[i] = x[i] - s->xn[i];
            applyK(s, tm, s->e, s->tmp);
            icKahan_Add(&sum, tm->gamma / (2 * tm->dt) * dotN(s->e, s->tmp, s->n));
        }
    }
    *magnitude += fabs(sum.sum - energy);
    return sum.sum;
}

// r = filtered residual at x from the elastic forces in s->f (the right side of Sifakis &
// Barbič 2012, eq. 4.10, with external forces; quasistatic: f_e + f_ext).
static void residual(icNewtonSolver *s, const icNewtonTerms *tm, const icReal *x, icReal *r) {
    const icFemModel *m = s->model;
    for (int i = 0; i < s->n; ++i) r[i] = s->f[i] + s->fext[i];
    if (tm->dynamic) {
        icReal c1 = 1 / (tm->dt * tm->dt), c2 = s->def.massDamping / tm->dt;
        for (int v = 0; v < m->vertexCount; ++v)
            for (int i = 0; i < 3; ++i) {
                int k = 3 * v + i;
                r[k] -= m->mass[v] * (c1 * (x[k] - s->xt[k]) + c2 * (x[k] - s->xn[k]));
            }
        if (tm->gamma > 0) {
            for (int i = 0; i < s->n; ++i) s->e[i] = x[i] - s->xn[i];
            applyK(s, tm, s->e, s->tmp);
            for (int i = 0; i < s->n; ++i) r[i] -= tm->gamma / tm->dt * s->tmp[i];
        }
    }
    for (int i = 0; i < s->n; ++i) r[i] = s->mask[i] ? r[i] : 0.0;
}

static bool allFinite(const icReal *a, int n) {
    for (int i = 0; i < n; ++i)
        if (!isfinite(a[i])) return false;
    return true;
}

// The Newton loop shared by both solves. x holds the initial iterate with the prescribed DOFs
// at their targets, and is updated in place.
static icResult solve(icNewtonSolver *s, const icNewtonTerms *tm, icReal *x, icNewtonStats *st) {
    const icFemModel *m = s->model;
    const icNewtonDef *d = &s->def;
    int n = s->n;
    memset(st, 0, sizeof *st);
    icReal r0 = 0;
    icNewtonOperator op = {s, tm};
    for (int k = 0;; ++k) {
        double t0 = icNowMs();
        memset(s->f, 0, sizeof(icReal) * (size_t)n);
        icReal energy = icFem_EvaluateAssemble(m, x, d->projectHessian, s->f, tm->stiffScale,
                                               tm->massScale, d->matrixFree ? NULL : &s->pattern,
                                               d->matrixFree ? s->hessians : NULL);
        st->energy = energy;
        if (s->potential) {
            // The per-vertex potential joins Phi, the forces and A's diagonal blocks.
            memset(s->blocks, 0, sizeof(icReal) * 9 * (size_t)m->vertexCount);
            energy += s->potential(s->potentialContext, x, s->f, s->blocks);
            if (!d->matrixFree)
                for (int v = 0; v < m->vertexCount; ++v) {
                    icReal *dst = s->pattern.matrix.values + 9 * (size_t)s->pattern.matrix.diag[v];
                    for (int i = 0; i < 9; ++i) dst[i] += s->blocks[9 * (size_t)v + i];
                }
        }
        st->assemblyMilliseconds += icNowMs() - t0;
        residual(s, tm, x, s->r);
        icReal rn = maxAbsMasked(s->r, s->mask, n);
        if (k == 0) {
            st->initialResidual = r0 = rn;
            st->targetResidual =
                fmax(d->absoluteTolerance * s->forceScale, d->residualTolerance * r0);
        }
        st->residual = rn;
        if (!isfinite(rn)) return IC_ERR_NUMERICAL;
        if (rn <= st->targetResidual) {
            st->converged = true;
            return IC_OK;
        }
        if (k == d->maxIterations) return IC_ERR_NOT_CONVERGED;
        // A look per iteration (and one before each PCG product, below): the caller wants to
        // stop (a signal); the solves put x back.
        if (k > 0 && s->interrupt && *s->interrupt) return IC_ERR_INTERRUPTED;

        // Filtered PCG on A Dx = r.
        t0 = icNowMs();
        if (d->matrixFree) {
            icFem_StiffnessDiagonal(m, s->hessians, s->diag);
            for (int v = 0; v < m->vertexCount; ++v) {
                icReal *b = s->diag + 9 * (size_t)v;
                for (int i = 0; i < 9; ++i) b[i] *= tm->stiffScale;
                icReal mm = tm->massScale * m->mass[v];
                b[0] += mm, b[4] += mm, b[8] += mm;
                if (s->potential)
                    for (int i = 0; i < 9; ++i) b[i] += s->blocks[9 * (size_t)v + i];
            }
        } else {
            for (int v = 0; v < m->vertexCount; ++v)
                memcpy(s->diag + 9 * (size_t)v,
                       s->pattern.matrix.values + 9 * (size_t)s->pattern.matrix.diag[v],
                       9 * sizeof(icReal));
        }
        icPreconditioner_Build(d->preconditioner, m->vertexCount, s->diag, s->mask, s->precond);
        icCGStats cg;
        icCG_Stoppable(n, operatorA, &op, d->preconditioner, s->precond, s->mask, s->r, s->dx,
                       d->cgTolerance, d->maxCGIterations, s->work, &cg, s->interrupt);
        st->solveMilliseconds += icNowMs() - t0;
        st->cgIterations += cg.iterations;
        if (cg.iterations > st->maxCGIterations) st->maxCGIterations = cg.iterations;
        if (s->interrupt && *s->interrupt) return IC_ERR_INTERRUPTED; // also between products
        st->indefiniteSolves += cg.indefinite;
        st->iterations = k + 1;
        if (!allFinite(s->dx, n)) return IC_ERR_NUMERICAL;

        // Backtracking (Armijo) line search on Phi; g = -r.
        icReal gdx = -dotN(s->r, s->dx, n);
        if (!(gdx < 0)) {
            // Not a descent direction: fall back to the preconditioned residual.
            for (int v = 0; v < m->vertexCount; ++v) {
                const icReal *b = s->precond + 9 * (size_t)v;
                const icReal *rv = s->r + 3 * v;
                for (int i = 0; i < 3; ++i) {
                    icReal z = d->preconditioner == IC_PRECONDITIONER_BLOCK_JACOBI
                                   ? b[i] * rv[0] + b[3 + i] * rv[1] + b[6 + i] * rv[2]
                                   : (d->preconditioner == IC_PRECONDITIONER_JACOBI
                                          ? s->precond[3 * v + i] * rv[i]
                                          : rv[i]);
                    s->dx[3 * v + i] = s->mask[3 * v + i] ? z : 0.0;
                }
            }
            gdx = -dotN(s->r, s->dx, n);
        }
        icReal alpha = 1;
        if (d->lineSearch) {
            icReal mag0, mag;
            icReal phi0 = objective(s, tm, x, energy, &mag0);
            const icReal alphaMin = 1.0 / (1 << 20);
            for (;;) {
                for (int i = 0; i < n; ++i) s->trial[i] = x[i] + alpha * s->dx[i];
                icReal phi = objective(s, tm, s->trial,
                                       icFem_Energy(m, s->trial) + potentialEnergy(s, s->trial, NULL),
                                       &mag);
                if (phi <= phi0 + 1e-4 * alpha * gdx) break;
                // Near convergence the predicted decrease drowns in the rounding of Phi:
                // accept a full step when both the predicted and the observed change are at
                // rounding level and the residual decreased.
                icReal noise = 1e-12 * fmax(mag0, mag);
                if (alpha == 1 && isfinite(phi) && -gdx <= noise && fabs(phi - phi0) <= noise) {
                    memcpy(s->fSave, s->f, sizeof(icReal) * (size_t)n);
                    memset(s->f, 0, sizeof(icReal) * (size_t)n);
                    addForces(s, s->trial, s->f);
                    residual(s, tm, s->trial, s->rTrial);
                    bool better = maxAbsMasked(s->rTrial, s->mask, n) < rn;
                    memcpy(s->f, s->fSave, sizeof(icReal) * (size_t)n);
                    if (better) break;
                }
                if (alpha <= alphaMin) {
                    ++st->lineSearchFailures;
                    break;
                }
                alpha *= 0.5;
            }
        }
        // The step criterion looks at the full Newton step, so that a line search stuck at
        // a tiny alpha is not mistaken for convergence.
        icReal step = 0;
        for (int i = 0; i < n; ++i) {
            x[i] += alpha * s->dx[i];
            step = fmax(step, fabs(s->dx[i]));
        }
        if (step <= d->stepTolerance * s->diagonal) {
            // The iterate no longer moves: converged on the step criterion.
            st->converged = true;
            memset(s->f, 0, sizeof(icReal) * (size_t)n);
            st->energy = icFem_Energy(m, x);
            addForces(s, x, s->f);
            residual(s, tm, x, s->r);
            st->residual = maxAbsMasked(s->r, s->mask, n);
            return IC_OK;
        }
    }
}

icResult icNewtonSolver_Step(icNewtonSolver *s, const icNewtonInput *in, icReal dt, icReal *x,
                             icReal *v, icNewtonStats *stats) {
    icNewtonStats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    if (!s || !in || !x || !v || !(dt > 0) || !isfinite(dt)) return IC_ERR_INVALID_ARGUMENT;
    int n = s->n;
    memcpy(s->xn, x, sizeof(icReal) * (size_t)n);
    // Consistent start x_0 = x^n + dt v^n (the start x_0 = x^n of Sifakis & Barbič 2012,
    // sec. 4.4, freezes free bodies); prescribed DOFs go to their targets at t^{n+1}.
    for (int i = 0; i < n; ++i) s->xt[i] = x[i] + dt * v[i];
    memcpy(x, s->xt, sizeof(icReal) * (size_t)n);
    setupInput(s, in, x);
    icNewtonTerms tm;
    tm.dynamic = true;
    tm.dt = dt;
    tm.gamma = s->def.stiffnessDamping;
    tm.stiffScale = 1 + tm.gamma / dt;
    tm.massScale = 1 / (dt * dt) + s->def.massDamping / dt;
    icResult r = solve(s, &tm, x, stats);
    if (r == IC_ERR_INTERRUPTED) {
        memcpy(x, s->xn, sizeof(icReal) * (size_t)n);
        return r;
    }
    if (r == IC_ERR_NUMERICAL || !allFinite(x, n)) {
        memcpy(x, s->xn, sizeof(icReal) * (size_t)n);
        return IC_ERR_NUMERICAL;
    }
    // v = v^n + (x - xt)/dt equals (x - x^n)/dt, and keeps v exact in free flight.
    for (int i = 0; i < n; ++i) v[i] += (x[i] - s->xt[i]) / dt;
    return r;
}

icResult icNewtonSolver_SolveStatic(icNewtonSolver *s, const icNewtonInput *in, icReal *x,
                                    icNewtonStats *stats) {
    icNewtonStats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    if (!s || !in || !x) return IC_ERR_INVALID_ARGUMENT;
    memcpy(s->xn, x, sizeof(icReal) * (size_t)s->n);
    setupInput(s, in, x);
    icNewtonTerms tm = {false, 0, 1, 0, 0};
    icResult r = solve(s, &tm, x, stats);
    if (r == IC_ERR_INTERRUPTED) {
        memcpy(x, s->xn, sizeof(icReal) * (size_t)s->n);
        return r;
    }
    if (r == IC_ERR_NUMERICAL || !allFinite(x, s->n)) {
        memcpy(x, s->xn, sizeof(icReal) * (size_t)s->n);
        return IC_ERR_NUMERICAL;
    }
    return r;
}
