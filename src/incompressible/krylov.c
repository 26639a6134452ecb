// SPDX-License-Identifier: MIT
// MINRES (Paige-Saunders) with optional symmetric Jacobi scaling, and Jacobi-preconditioned
// CG, for the pressure systems (Irving et al. 2007, sec. 4: MINRES, ~1 % accuracy). Both may
// start from a guess (the last step's pressure): scaled by the alpha that minimises the first
// residual, so that residual is never larger than ||b||, and stopping on the same tolerance times
// ||b|| as a start at zero.
#include "core/core.h"
#include "isochor/incompressible.h"

#include <math.h>
#include <string.h>

// Sums over the unknowns run in four lanes (element i into lane i % 4, the lanes added as
// (0 + 1) + (2 + 3)): four short dependency chains instead of one long one, in a fixed order.
// One chain cost ~4 cycles an element, two sums of 20k elements a MINRES iteration at 104k tets
// (`bench_incompressible product 32 1`: 1.27-1.54 against 1.39-1.74 ms an iteration; on two
// workers within the host's noise). Running the vector passes on the workers as well was slower
// (three more hand-overs an iteration).
typedef struct laneSum {
    icReal s[4];
} laneSum;

static inline icReal laneSum_Total(laneSum l) { return (l.s[0] + l.s[1]) + (l.s[2] + l.s[3]); }

static icReal dot(int n, const icReal *a, const icReal *b) {
    laneSum l = {{0, 0, 0, 0}};
    for (int i = 0; i < n; ++i) l.s[i & 3] += a[i] * b[i];
    return laneSum_Total(l);
}

// alpha minimising ||r - alpha q||: the weight of the guess whose operator image is q.
static icReal guessWeight(int n, const icReal *r, const icReal *q) {
    icReal qq = dot(n, q, q);
    return qq > 0 ? dot(n, r, q) / qq : 0.0;
}

static icReal stopLevel(icReal norm, icReal tolerance, icReal absoluteTolerance) {
    icReal rel = tolerance * norm;
    return rel > absoluteTolerance ? rel : absoluteTolerance;
}

// Scaled operator S A S for symmetric Jacobi scaling.
typedef struct scaledOp {
    icLinearOperatorFn *op;
    void *context;
    const icReal *scale;
    icReal *tmp;
    int n;
} scaledOp;

static void applyOp(const scaledOp *s, const icReal *x, icReal *y) {
    if (!s->scale) {
        s->op(s->context, x, y);
        return;
    }
    for (int i = 0; i < s->n; ++i) s->tmp[i] = s->scale[i] * x[i];
    s->op(s->context, s->tmp, y);
    for (int i = 0; i < s->n; ++i) y[i] *= s->scale[i];
}

// The least-squares stop is this fraction of the relative tolerance: 1e-4 at the default 1 %.
// Measured: no consistent solve of a 25k-tet sphere drop came within 3x of it
// before converging; of the 2,831 solves it stopped there and in the tori pile, all but 6 had
// their residual within 1 % of where 200 iterations leave it (those 6 sat on a plateau the cap
// took down to 0.73-0.87 of it).
#define LEAST_SQUARES_FRACTION 0.01

// Paige & Saunders 1975: Lanczos + Givens QR, three-term update of the directions. |phibar| tracks
// ||b - A x|| exactly in exact arithmetic.
int icMinres(int n, icLinearOperatorFn *op, void *context, const icReal *scale, const icReal *b,
             const icReal *guess, icReal *x, icReal tolerance, icReal absoluteTolerance,
             int maxIterations, icReal *work, icKrylovStats *stats) {
    icKrylovStats st = {0};
    icReal *owned = NULL;
    if (!work) {
        work = owned = IC_ALLOC(icReal, 9 * (size_t)n + 1);
        if (!owned) return -1;
    }
    icReal *vPrev = work, *v = work + n, *q = work + 2 * n, *d = work + 3 * n,
           *dPrev = work + 4 * n, *dPrev2 = work + 5 * n, *tmp = work + 6 * n, *y = work + 7 * n,
           *y0 = work + 8 * n;
    scaledOp sop = {op, context, scale, tmp, n};
    for (int i = 0; i < n; ++i) {
        y[i] = 0;
        // The guess in scaled unknowns (x = S y); rows the scaling drops stay at zero.
        y0[i] = !guess ? 0 : !scale ? guess[i] : scale[i] > 0 ? guess[i] / scale[i] : 0;
        v[i] = scale ? scale[i] * b[i] : b[i];
    }
    icReal bNorm = sqrt(dot(n, v, v));
    st.initialResidual = bNorm;
    // MINRES then solves for the correction: (S A S) dy = S b - (S A S) y0.
    if (guess) {
        applyOp(&sop, y0, q);
        st.guessProducts = 1;
        icReal alpha = guessWeight(n, v, q);
        for (int i = 0; i < n; ++i) {
            y0[i] *= alpha;
            v[i] -= alpha * q[i];
        }
    }
    icReal beta1 = sqrt(dot(n, v, v));
    st.residual = beta1;
    icReal stop = stopLevel(bNorm, tolerance, absoluteTolerance);
    if (beta1 <= stop || beta1 == 0) {
        st.converged = true;
        goto finish;
    }
    // The vector updates are fused into three passes an iteration: S A S v with
    // v's scaled copy (tmp) made where v is, q = S A S v - beta vPrev with alpha = v . q, then q -=
    // alpha v with q . q, then the directions with the next v and its scaled copy.
    for (int i = 0; i < n; ++i) {
        v[i] /= beta1;
        vPrev[i] = dPrev[i] = dPrev2[i] = 0;
        if (scale) tmp[i] = scale[i] * v[i];
    }
    icReal beta = 0, c1 = 1, s1 = 0, c2 = 1, s2 = 0, phibar = beta1, tnorm2 = 0;
    for (int k = 0; k < maxIterations; ++k) {
        op(context, scale ? tmp : v, q);
        st.iterations++;
        laneSum alphaSum = {{0, 0, 0, 0}}, qqSum = {{0, 0, 0, 0}};
        if (scale)
            for (int i = 0; i < n; ++i) {
                q[i] = q[i] * scale[i] - beta * vPrev[i];
                alphaSum.s[i & 3] += v[i] * q[i];
            }
        else
            for (int i = 0; i < n; ++i) {
                q[i] -= beta * vPrev[i];
                alphaSum.s[i & 3] += v[i] * q[i];
            }
        icReal alpha = laneSum_Total(alphaSum);
        for (int i = 0; i < n; ++i) {
            q[i] -= alpha * v[i];
            qqSum.s[i & 3] += q[i] * q[i];
        }
        icReal qq = laneSum_Total(qqSum);
        icReal betaNext = sqrt(qq);
        icReal eps = s2 * beta, dtil = c2 * beta;
        icReal delta = c1 * dtil + s1 * alpha;
        icReal gbar = -s1 * dtil + c1 * alpha;
        // Paige and Saunders' second test: ||A r|| of the last iterate is |phibar| times
        // hypot(gbar, c1 betaNext); over ||A|| ||r|| (||A|| estimated by the Frobenius norm of
        // the Lanczos tridiagonal so far) the residual's size cancels. Tiny means the residual
        // has stopped falling in every direction A reaches: b has a part outside the range of A
        // (contacts that hold every vertex of a ring; Irving et al. 2007, sec. 4) and x is the
        // least-squares answer. A 25k-tet sphere drop spent 80 % of its pressure iterations at
        // the 200 cap on such systems with their residual flat.
        tnorm2 += alpha * alpha + beta * beta + betaNext * betaNext;
        if (k > 0 &&
            hypot(gbar, c1 * betaNext) <= LEAST_SQUARES_FRACTION * tolerance * sqrt(tnorm2)) {
            st.leastSquares = true;
            break;
        }
        icReal gamma = hypot(gbar, betaNext);
        if (!(gamma > 0)) {
            st.breakdown = true;
            break;
        }
        icReal c = gbar / gamma, s = betaNext / gamma;
        icReal phi = c * phibar;
        phibar = -s * phibar;
        // q becomes the next v (unused if the loop ends below: it is scratch).
        for (int i = 0; i < n; ++i) {
            d[i] = (v[i] - delta * dPrev[i] - eps * dPrev2[i]) / gamma;
            y[i] += phi * d[i];
            q[i] /= betaNext;
            if (scale) tmp[i] = scale[i] * q[i];
        }
        icReal *t = dPrev2;
        dPrev2 = dPrev;
        dPrev = d;
        d = t;
        c2 = c1;
        s2 = s1;
        c1 = c;
        s1 = s;
        st.residual = fabs(phibar);
        if (st.residual <= stop) {
            st.converged = true;
            break;
        }
        // A tiny Lanczos vector means the Krylov space is exhausted.
        if (!(betaNext > 1e-14 * beta1)) break;
        t = vPrev;
        vPrev = v;
        v = q;
        q = t;
        beta = betaNext;
    }
finish:
    for (int i = 0; i < n; ++i) x[i] = scale ? scale[i] * (y0[i] + y[i]) : y0[i] + y[i];
    icFree(owned);
    if (stats) *stats = st;
    return st.iterations;
}

// Jacobi-PCG; stops on p.Ap <= 0 (the caller may fall back to MINRES).
int icJacobiCG(int n, icLinearOperatorFn *op, void *context, const icReal *invDiagonal,
               const icReal *b, const icReal *guess, icReal *x, icReal tolerance,
               icReal absoluteTolerance, int maxIterations, icReal *work, icKrylovStats *stats) {
    icKrylovStats st = {0};
    icReal *owned = NULL;
    if (!work) {
        work = owned = IC_ALLOC(icReal, 4 * (size_t)n + 1);
        if (!owned) return -1;
    }
    icReal *r = work, *z = work + n, *p = work + 2 * n, *q = work + 3 * n;
    for (int i = 0; i < n; ++i) r[i] = b[i];
    if (guess) {
        // x may be the guess itself: read it before x is written.
        op(context, guess, q);
        st.guessProducts = 1;
        icReal alpha = guessWeight(n, b, q);
        for (int i = 0; i < n; ++i) {
            x[i] = alpha * guess[i];
            r[i] -= alpha * q[i];
        }
    } else {
        for (int i = 0; i < n; ++i) x[i] = 0;
    }
    for (int i = 0; i < n; ++i) {
        z[i] = invDiagonal ? invDiagonal[i] * r[i] : r[i];
        p[i] = z[i];
    }
    icReal rho = dot(n, r, z);
    icReal bnorm = sqrt(dot(n, b, b));
    st.initialResidual = bnorm;
    st.residual = sqrt(dot(n, r, r));
    icReal stop = stopLevel(bnorm, tolerance, absoluteTolerance);
    if (st.residual <= stop || st.residual == 0) {
        st.converged = true;
        goto finish;
    }
    for (int k = 0; k < maxIterations; ++k) {
        op(context, p, q);
        st.iterations++;
        icReal pq = dot(n, p, q);
        if (!(pq > 0)) {
            st.breakdown = true;
            break;
        }
        icReal a = rho / pq;
        for (int i = 0; i < n; ++i) {
            x[i] += a * p[i];
            r[i] -= a * q[i];
        }
        st.residual = sqrt(dot(n, r, r));
        if (st.residual <= stop) {
            st.converged = true;
            break;
        }
        for (int i = 0; i < n; ++i) z[i] = invDiagonal ? invDiagonal[i] * r[i] : r[i];
        icReal rhoNew = dot(n, r, z);
        for (int i = 0; i < n; ++i) p[i] = z[i] + (rhoNew / rho) * p[i];
        rho = rhoNew;
    }
finish:
    icFree(owned);
    if (stats) *stats = st;
    return st.iterations;
}
