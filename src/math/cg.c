// SPDX-License-Identifier: MIT
// Filtered preconditioned conjugate gradients and Jacobi / block-Jacobi preconditioners.
#include "core/core.h"
#include "isochor/sparse.h"
#include "math/cg_internal.h"

int icPreconditioner_Build(icPreconditionerKind kind, int nodeCount, const icReal *diagBlocks,
                           const unsigned char *freeMask, icReal *out) {
    int fallbacks = 0;
    if (kind == IC_PRECONDITIONER_NONE) return 0;
    for (int v = 0; v < nodeCount; ++v) {
        const icReal *b = diagBlocks + 9 * (size_t)v;
        bool f[3];
        for (int i = 0; i < 3; ++i) f[i] = !freeMask || freeMask[3 * v + i];
        if (kind == IC_PRECONDITIONER_BLOCK_JACOBI) {
            // Block of the filtered matrix S A S + (I - S): identity on constrained DOFs.
            icMat3 m;
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 3; ++i)
                    icMat3_Set(&m, i, j, (f[i] && f[j]) ? b[3 * j + i] : (i == j ? 1.0 : 0.0));
            icReal det = icMat3_Det(m);
            // SPD blocks have positive leading minors; anything else falls back to Jacobi.
            bool spd = m.col[0].x > 0 && m.col[0].x * m.col[1].y - m.col[1].x * m.col[0].y > 0 &&
                       det > 0 && isfinite(det);
            icReal *o = out + 9 * (size_t)v;
            if (spd) {
                icMat3 inv = icMat3_Inverse(m, NULL);
                memcpy(o, &inv, sizeof inv);
            } else {
                ++fallbacks;
                for (int k = 0; k < 9; ++k) o[k] = 0;
                for (int i = 0; i < 3; ++i) {
                    icReal d = icMat3_At(&m, i, i);
                    o[4 * i] = d > 0 ? 1 / d : 1;
                }
            }
        } else {
            for (int i = 0; i < 3; ++i) {
                icReal d = b[4 * i];
                if (!f[i]) {
                    out[3 * v + i] = 1;
                } else if (d > 0 && isfinite(d)) {
                    out[3 * v + i] = 1 / d;
                } else {
                    out[3 * v + i] = 1;
                    ++fallbacks;
                }
            }
        }
    }
    return fallbacks;
}

// z = S Pinv r (S the DOF filter).
static void applyPreconditioner(int n, icPreconditionerKind kind, const icReal *pc,
                                const unsigned char *freeMask, const icReal *r, icReal *z) {
    if (kind == IC_PRECONDITIONER_JACOBI) {
        for (int i = 0; i < n; ++i) z[i] = pc[i] * r[i];
    } else if (kind == IC_PRECONDITIONER_BLOCK_JACOBI) {
        for (int v = 0; v < n / 3; ++v) {
            const icReal *b = pc + 9 * (size_t)v;
            icReal r0 = r[3 * v], r1 = r[3 * v + 1], r2 = r[3 * v + 2];
            z[3 * v] = b[0] * r0 + b[3] * r1 + b[6] * r2;
            z[3 * v + 1] = b[1] * r0 + b[4] * r1 + b[7] * r2;
            z[3 * v + 2] = b[2] * r0 + b[5] * r1 + b[8] * r2;
        }
    } else {
        memcpy(z, r, sizeof(icReal) * (size_t)n);
    }
    if (freeMask)
        for (int i = 0; i < n; ++i) z[i] = freeMask[i] ? z[i] : 0.0;
}

static icReal dot(int n, const icReal *a, const icReal *b) {
    // Four partial sums: shorter dependency chains, and a fixed summation order.
    icReal s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; ++i) s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

// Filtered PCG (Baraff & Witkin 1998).
int icCG(int n, icLinearOperatorFn *op, void *context, icPreconditionerKind kind,
         const icReal *preconditioner, const unsigned char *freeMask, const icReal *b, icReal *y,
         icReal tolerance, int maxIterations, icReal *work, icCGStats *stats) {
    return icCG_Stoppable(n, op, context, kind, preconditioner, freeMask, b, y, tolerance,
                          maxIterations, work, stats, NULL);
}

int icCG_Stoppable(int n, icLinearOperatorFn *op, void *context, icPreconditionerKind kind,
                   const icReal *preconditioner, const unsigned char *freeMask, const icReal *b,
                   icReal *y, icReal tolerance, int maxIterations, icReal *work, icCGStats *stats,
                   const volatile sig_atomic_t *stopFlag) {
    icCGStats st = {0, 0, true, false};
    icReal *owned = NULL;
    if (!work) {
        owned = IC_ALLOC(icReal, 4 * (size_t)(n > 0 ? n : 1));
        if (!owned) return -1;
        work = owned;
    }
    icReal *r = work, *z = work + n, *c = work + 2 * (size_t)n, *q = work + 3 * (size_t)n;
    for (int i = 0; i < n; ++i) {
        y[i] = 0;
        r[i] = (!freeMask || freeMask[i]) ? b[i] : 0.0;
    }
    applyPreconditioner(n, kind, preconditioner, freeMask, r, z);
    memcpy(c, z, sizeof(icReal) * (size_t)n);
    icReal d = dot(n, r, z), d0 = d;
    int it = 0;
    if (d0 > 0) {
        icReal stop = tolerance * tolerance * d0;
        while (d > stop && it < maxIterations) {
            if (stopFlag && *stopFlag) break; // the caller checks the flag and drops y
            op(context, c, q);
            if (freeMask)
                for (int i = 0; i < n; ++i) q[i] = freeMask[i] ? q[i] : 0.0;
            ++it;
            icReal cq = dot(n, c, q);
            if (!(cq > 0)) {
                // Indefinite (or NaN) direction: keep y, or take the preconditioned
                // residual as a descent direction when nothing was accumulated yet.
                st.indefinite = true;
                if (it == 1) memcpy(y, z, sizeof(icReal) * (size_t)n);
                break;
            }
            icReal a = d / cq;
            for (int i = 0; i < n; ++i) {
                y[i] += a * c[i];
                r[i] -= a * q[i];
            }
            applyPreconditioner(n, kind, preconditioner, freeMask, r, z);
            icReal dn = dot(n, r, z);
            icReal beta = dn / d;
            for (int i = 0; i < n; ++i) c[i] = z[i] + beta * c[i];
            d = dn;
        }
        st.relativeResidual = sqrt(fabs(d) / d0);
        st.converged = !st.indefinite && d <= stop;
    }
    st.iterations = it;
    if (stats) *stats = st;
    icFree(owned);
    return it;
}
