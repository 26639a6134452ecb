// SPDX-License-Identifier: MIT
// Tests of the pressure solvers and projections (Irving et al. 2007, secs. 2 and 4): MINRES on
// a singular consistent system, CG vs MINRES, warm starts, Newton convergence of eq. 1, the
// velocity projection and contact projectors.
#include "incomp_testing.h"

typedef struct denseOp {
    int n;
    const icReal *a;
} denseOp;

static void denseApply(void *context, const icReal *x, icReal *y) {
    const denseOp *d = context;
    for (int r = 0; r < d->n; ++r) {
        icReal s = 0;
        for (int c = 0; c < d->n; ++c) s += d->a[r * d->n + c] * x[c];
        y[r] = s;
    }
}

IC_TEST(incomp, minres_singular_and_cg_agree) {
    // Singular consistent: the pressure matrix of the Kuhn cube (rank n - 3).
    icTetMesh mesh = {0};
    incompBox(&mesh, 2, 6);
    int n = mesh.vertexCount, T = mesh.tetCount;
    icReal *invMass = malloc(sizeof(icReal) * 3 * (size_t)n);
    incompInvMass(&mesh, mesh.positions, invMass);
    icPressureSystem *s = icCreatePressureSystem(n, mesh.tets, T, invMass);
    IC_REQUIRE(s);
    icPressureSystem_Setup(s, mesh.positions);
    icReal *v = malloc(sizeof(icReal) * 3 * (size_t)n), *Jv = malloc(sizeof(icReal) * (size_t)n);
    icReal *g = malloc(sizeof(icReal) * 12 * (size_t)T), *ph = malloc(sizeof(icReal) * (size_t)n);
    for (int i = 0; i < 3 * n; ++i) v[i] = icTest_Uniform(-1, 1);
    icOneRing_Gradients(mesh.positions, mesh.tets, T, g);
    icOneRing_Divergence(g, mesh.tets, T, n, v, Jv);
    icReal before = 0, after = 0, keBefore = 0, keAfter = 0;
    for (int k = 0; k < n; ++k) before += Jv[k] * Jv[k];
    for (int i = 0; i < 3 * n; ++i) keBefore += v[i] * v[i] / invMass[i];
    icPressureDef def = icDefaultPressureDef();
    def.tolerance = 1e-10;
    def.absoluteTolerance = 0;
    icKrylovStats st;
    icPressureSystem_ProjectVelocity(s, NULL, &def, v, ph, false, &st);
    IC_CHECK(st.converged);
    icOneRing_Divergence(g, mesh.tets, T, n, v, Jv);
    for (int k = 0; k < n; ++k) after += Jv[k] * Jv[k];
    for (int i = 0; i < 3 * n; ++i) keAfter += v[i] * v[i] / invMass[i];
    IC_CHECK_MSG(sqrt(after) <= 1e-8 * sqrt(before), "div %g -> %g", sqrt(before), sqrt(after));
    IC_CHECK(keAfter <= keBefore);
    // With 1 % tolerance the divergence still drops at least 100x (U7).
    for (int i = 0; i < 3 * n; ++i) v[i] = icTest_Uniform(-1, 1);
    def = icDefaultPressureDef();
    icOneRing_Divergence(g, mesh.tets, T, n, v, Jv);
    before = 0;
    for (int k = 0; k < n; ++k) before += Jv[k] * Jv[k];
    icPressureSystem_ProjectVelocity(s, NULL, &def, v, ph, false, &st);
    icOneRing_Divergence(g, mesh.tets, T, n, v, Jv);
    after = 0;
    for (int k = 0; k < n; ++k) after += Jv[k] * Jv[k];
    IC_CHECK_MSG(sqrt(after) <= 0.011 * sqrt(before), "1%% solve: %g -> %g", sqrt(before), sqrt(after));

    // SPD: random A = B B^T + I; CG and MINRES agree.
    enum { N = 30 };
    icReal B[N * N], A[N * N], b[N], x1[N], x2[N];
    for (int i = 0; i < N * N; ++i) B[i] = icTest_Uniform(-1, 1);
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) {
            icReal sum = r == c ? 1.0 : 0.0;
            for (int k = 0; k < N; ++k) sum += B[r * N + k] * B[c * N + k];
            A[r * N + c] = sum;
        }
    for (int i = 0; i < N; ++i) b[i] = icTest_Uniform(-1, 1);
    icReal diag[N];
    for (int i = 0; i < N; ++i) diag[i] = 1.0 / A[i * N + i];
    denseOp op = {N, A};
    icKrylovStats s1, s2;
    icJacobiCG(N, denseApply, &op, diag, b, NULL, x1, 1e-12, 0, 200, NULL, &s1);
    icMinres(N, denseApply, &op, NULL, b, NULL, x2, 1e-12, 0, 200, NULL, &s2);
    IC_CHECK(s1.converged && s2.converged);
    for (int i = 0; i < N; ++i) IC_CHECK_NEAR(x1[i], x2[i], 1e-8 * (1 + fabs(x1[i])));
    free(invMass);
    free(v);
    free(Jv);
    free(g);
    free(ph);
    icDestroyPressureSystem(s);
    icTetMesh_Destroy(&mesh);
}

// ||b - A x|| / ||b|| for the dense operator.
static icReal relativeResidual(const denseOp *op, const icReal *b, const icReal *x) {
    icReal ax[64], rr = 0, bb = 0;
    denseApply((void *)op, x, ax);
    for (int i = 0; i < op->n; ++i) {
        rr += (b[i] - ax[i]) * (b[i] - ax[i]);
        bb += b[i] * b[i];
    }
    return sqrt(rr / bb);
}

// Warm starts: the guess is weighed by the alpha that minimises the first residual, and the
// solve stops on the same tolerance times ||b|| as a start at zero.
IC_TEST(incomp, krylov_warm_start) {
    enum { N = 40 };
    icTest_Seed(11);
    icReal B[N * N], A[N * N], b[N], exact[N], guess[N], x[N], scale[N], invDiag[N];
    for (int i = 0; i < N * N; ++i) B[i] = icTest_Uniform(-1, 1);
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) {
            icReal sum = 0;
            for (int k = 0; k < N; ++k) sum += B[r * N + k] * B[c * N + k];
            A[r * N + c] = sum / N + (r == c ? 1.0 : 0.0); // condition number ~5
        }
    for (int i = 0; i < N; ++i) {
        b[i] = icTest_Uniform(-1, 1);
        invDiag[i] = 1.0 / A[i * N + i];
        scale[i] = sqrt(invDiag[i]);
    }
    denseOp op = {N, A};
    icKrylovStats st;
    // The reference: tight and cold.
    icMinres(N, denseApply, &op, NULL, b, NULL, exact, 1e-13, 0, 400, NULL, &st);
    IC_REQUIRE(st.converged && st.guessProducts == 0);
    for (int solver = 0; solver < 3; ++solver) {
        const char *name = solver == 0 ? "MINRES" : solver == 1 ? "scaled MINRES" : "CG";
        // Runs the solver from guess (NULL: cold) to tolerance tol; returns its iterations.
#define IC_SOLVE(g, tol)                                                                           \
    (solver == 0   ? icMinres(N, denseApply, &op, NULL, b, g, x, tol, 0, 400, NULL, &st)           \
     : solver == 1 ? icMinres(N, denseApply, &op, scale, b, g, x, tol, 0, 400, NULL, &st)          \
                   : icJacobiCG(N, denseApply, &op, invDiag, b, g, x, tol, 0, 400, NULL, &st))
        int cold = IC_SOLVE(NULL, 1e-6);
        IC_CHECK_MSG(cold >= 8, "%s: %d iterations cold", name, cold);
        // The solution itself, or three times it: the weight makes either exact at once.
        for (int times = 1; times <= 3; times += 2) {
            for (int i = 0; i < N; ++i) guess[i] = times * exact[i];
            int it = IC_SOLVE(guess, 1e-6);
            IC_CHECK_MSG(it == 0 && st.converged && st.guessProducts == 1,
                         "%s from %d x the solution: %d iterations", name, times, it);
            IC_CHECK_MSG(relativeResidual(&op, b, x) < 1e-9, "%s from %d x: residual %g", name,
                         times, relativeResidual(&op, b, x));
        }
        // Close to it: fewer iterations, the same tolerance on ||b - A x||. The guess may be x.
        for (int i = 0; i < N; ++i) x[i] = exact[i] * (1 + 1e-4 * icTest_Uniform(-1, 1));
        int near = IC_SOLVE(x, 1e-6);
        IC_CHECK_MSG(near < cold / 2, "%s: %d iterations from near the solution, %d cold", name,
                     near, cold);
        IC_CHECK_MSG(relativeResidual(&op, b, x) < 1.5e-6 * (solver == 1 ? 3 : 1),
                     "%s from near: residual %g", name, relativeResidual(&op, b, x));
        // A poor guess still ends within the tolerance.
        for (int i = 0; i < N; ++i) guess[i] = icTest_Uniform(-10, 10);
        IC_SOLVE(guess, 1e-6);
        IC_CHECK_MSG(st.converged && relativeResidual(&op, b, x) < 1.5e-6 * (solver == 1 ? 3 : 1),
                     "%s from a poor guess: residual %g", name, relativeResidual(&op, b, x));
#undef IC_SOLVE
    }
}

// With contacts (Irving et al. 2007, sec. 4) the right-hand side may leave the range of A.
// MINRES then stops on Paige and Saunders' ||A r|| test with the least-squares residual, long
// before its cap, and still converges normally when the same system is consistent.
IC_TEST(incomp, minres_stops_on_inconsistent_systems) {
    enum { N = 120, NULLITY = 4 };
    icTest_Seed(5);
    // A = Q diag(lambda) Q^T, Q from Gram-Schmidt on random vectors; NULLITY zero eigenvalues and
    // the rest from 1e-2 to 1 (condition number 100 on the range).
    static icReal Q[N * N], A[N * N];
    icReal lambda[N], b[N], x[N], coef[N];
    for (int j = 0; j < N; ++j) {
        icReal *q = Q + j * N;
        for (int i = 0; i < N; ++i) q[i] = icTest_Uniform(-1, 1);
        for (int pass = 0; pass < 2; ++pass)
            for (int k = 0; k < j; ++k) {
                icReal d = 0;
                for (int i = 0; i < N; ++i) d += q[i] * Q[k * N + i];
                for (int i = 0; i < N; ++i) q[i] -= d * Q[k * N + i];
            }
        icReal len = 0;
        for (int i = 0; i < N; ++i) len += q[i] * q[i];
        for (int i = 0; i < N; ++i) q[i] /= sqrt(len);
        lambda[j] = j < NULLITY ? 0.0 : pow(1e-2, (icReal)(j - NULLITY) / (N - NULLITY - 1));
    }
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) {
            icReal sum = 0;
            for (int j = 0; j < N; ++j) sum += Q[j * N + r] * lambda[j] * Q[j * N + c];
            A[r * N + c] = sum;
        }
    denseOp op = {N, A};
    for (int consistent = 0; consistent < 2; ++consistent) {
        // b's coefficients in the eigenbasis; its null part (norm nullNorm) is what no x removes.
        icReal nullNorm = 0;
        for (int j = 0; j < N; ++j) {
            coef[j] = j < NULLITY ? (consistent ? 0.0 : 0.5) : icTest_Uniform(-1, 1);
            if (j < NULLITY) nullNorm += coef[j] * coef[j];
        }
        nullNorm = sqrt(nullNorm);
        for (int i = 0; i < N; ++i) {
            b[i] = 0;
            for (int j = 0; j < N; ++j) b[i] += coef[j] * Q[j * N + i];
        }
        icKrylovStats st;
        int it = icMinres(N, denseApply, &op, NULL, b, NULL, x, 0.01, 0, N, NULL, &st);
        icReal ax[N], rr = 0, bb = 0;
        denseApply(&op, x, ax);
        for (int i = 0; i < N; ++i) {
            rr += (b[i] - ax[i]) * (b[i] - ax[i]);
            bb += b[i] * b[i];
        }
        if (consistent) {
            IC_CHECK_MSG(st.converged && !st.leastSquares && sqrt(rr) <= 0.0101 * sqrt(bb),
                         "consistent: converged %d, least squares %d, residual %g of %g",
                         st.converged, st.leastSquares, sqrt(rr), sqrt(bb));
        } else {
            // Stopped by the test, well before the Krylov space runs out, with the residual
            // within 1e-3 of the least-squares minimum (the null part of b).
            IC_CHECK_MSG(st.leastSquares && !st.converged && it < N / 2,
                         "inconsistent: least squares %d, converged %d after %d iterations",
                         st.leastSquares, st.converged, it);
            IC_CHECK_MSG(sqrt(rr) <= 1.001 * nullNorm && sqrt(rr) >= nullNorm * (1 - 1e-12),
                         "inconsistent: residual %.9g, least-squares minimum %.9g", sqrt(rr),
                         nullNorm);
            IC_CHECK_NEAR(st.residual, sqrt(rr), 1e-6 * nullNorm);
        }
    }
}

// U8: one position projection per iteration with exact solves converges quadratically.
IC_TEST(incomp, position_projection_newton) {
    icTetMesh mesh = {0};
    incompBox(&mesh, 2, 6);
    int n = mesh.vertexCount, T = mesh.tetCount;
    icReal *target = malloc(sizeof(icReal) * (size_t)n), *ring = malloc(sizeof(icReal) * (size_t)n);
    icReal *invMass = malloc(sizeof(icReal) * 3 * (size_t)n), *w = malloc(sizeof(icReal) * 3 * (size_t)n);
    icOneRing_Volumes(mesh.positions, n, mesh.tets, T, target);
    incompInvMass(&mesh, mesh.positions, invMass);
    icTest_Seed(7);
    incompPerturb(mesh.positions, 3 * n, 0.08);
    icPressureSystem *s = icCreatePressureSystem(n, mesh.tets, T, invMass);
    IC_REQUIRE(s);
    icPressureDef def = icDefaultPressureDef();
    def.tolerance = 1e-13;
    def.absoluteTolerance = 0;
    icReal err[5];
    const icReal dt = 0.01;
    for (int it = 0; it < 5; ++it) {
        icOneRing_Volumes(mesh.positions, n, mesh.tets, T, ring);
        err[it] = 0;
        for (int k = 0; k < n; ++k) err[it] = fmax(err[it], fabs(ring[k] - target[k]) / target[k]);
        if (it == 4) break;
        memset(w, 0, sizeof(icReal) * 3 * (size_t)n);
        icPressureSystem_Setup(s, mesh.positions);
        icPressureSystem_CorrectPositions(s, NULL, &def, target, ring, dt, 0, w, NULL, false, NULL);
        for (int i = 0; i < 3 * n; ++i) mesh.positions[i] += dt * w[i];
    }
    IC_CHECK_MSG(err[1] < 0.2 * err[0] && err[2] < 10 * err[1] * err[1] / err[0] + 1e-12 &&
                     err[3] < 1e-7,
                 "errors %g %g %g %g", err[0], err[1], err[2], err[3]);
    // Quadratic: the error ratio roughly squares.
    IC_CHECK_MSG(err[2] / err[1] < 0.5 * err[1] / err[0] || err[2] < 1e-10, "ratios %g %g",
                 err[1] / err[0], err[2] / err[1]);
    free(target);
    free(ring);
    free(invMass);
    free(w);
    icDestroyPressureSystem(s);
    icTetMesh_Destroy(&mesh);
}

// U10: a constraint holds after projection; palindromic sweeps keep Pi M^-1 symmetric.
IC_TEST(incomp, contact_projection_symmetric) {
    enum { N = 8 };
    icReal invMass[3 * N];
    for (int i = 0; i < 3 * N; ++i) invMass[i] = icTest_Uniform(0.5, 2);
    icConstraintSet set = {0};
    for (int k = 0; k < 5; ++k) {
        icVelocityConstraint c;
        c.count = 4;
        for (int j = 0; j < 4; ++j) {
            c.vertices[j] = (k + 2 * j) % N;
            c.c[j] = icVec3_Make(icTest_Uniform(-1, 1), icTest_Uniform(-1, 1), icTest_Uniform(-1, 1));
        }
        IC_REQUIRE(icConstraintSet_Add(&set, &c) == IC_OK);
    }
    icReal a[3 * N], b[3 * N], pa[3 * N], pb[3 * N];
    for (int i = 0; i < 3 * N; ++i) {
        a[i] = icTest_Uniform(-1, 1);
        b[i] = icTest_Uniform(-1, 1);
        pa[i] = invMass[i] * a[i];
        pb[i] = invMass[i] * b[i];
    }
    icConstraintSet_Project(&set, invMass, 4, pa);
    icConstraintSet_Project(&set, invMass, 4, pb);
    icReal ab = 0, ba = 0;
    for (int i = 0; i < 3 * N; ++i) {
        ab += pa[i] * b[i];
        ba += a[i] * pb[i];
    }
    IC_CHECK_NEAR(ab, ba, 1e-13);
    // One constraint alone is satisfied exactly.
    icConstraintSet one = {0};
    IC_REQUIRE(icConstraintSet_Add(&one, &set.items[0]) == IC_OK);
    icConstraintSet_Project(&one, invMass, 1, pa);
    icReal cu = 0;
    for (int j = 0; j < 4; ++j) cu += icVec3_Dot(one.items[0].c[j], icVec3_Load(pa, one.items[0].vertices[j]));
    IC_CHECK_NEAR(cu, 0, 1e-14);
    icConstraintSet_Destroy(&set);
    icConstraintSet_Destroy(&one);
}
