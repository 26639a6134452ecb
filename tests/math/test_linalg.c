// SPDX-License-Identifier: MIT
// Tests of the symmetric eigen-solvers, block-sparse matrices and filtered PCG.
#include "fem/fem_test.h"

// Random symmetric n x n with known eigenvalues: Q diag(lam) Q^T, Q from Gram-Schmidt.
static void randomSymmetric(int n, const double *lam, double *a) {
    double q[IC_SYM_EIGEN_MAX * IC_SYM_EIGEN_MAX];
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) q[i + n * j] = icTest_Normal();
        for (int pass = 0; pass < 2; ++pass) // twice is enough (Kahan-Parlett)
            for (int k = 0; k < j; ++k) {
                double d = 0;
                for (int i = 0; i < n; ++i) d += q[i + n * j] * q[i + n * k];
                for (int i = 0; i < n; ++i) q[i + n * j] -= d * q[i + n * k];
            }
        double nn = 0;
        for (int i = 0; i < n; ++i) nn += q[i + n * j] * q[i + n * j];
        for (int i = 0; i < n; ++i) q[i + n * j] /= sqrt(nn);
    }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = 0;
            for (int k = 0; k < n; ++k) s += q[i + n * k] * lam[k] * q[j + n * k];
            a[i + n * j] = s;
        }
}

static int compareDouble(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

IC_TEST(math, symmetric_eigen_nxn) {
    static const int sizes[4] = {2, 9, 12, 20};
    for (int si = 0; si < 4; ++si) {
        int n = sizes[si];
        for (int rep = 0; rep < 20; ++rep) {
            double lam[IC_SYM_EIGEN_MAX] = {0}, a[IC_SYM_EIGEN_MAX * IC_SYM_EIGEN_MAX];
            for (int i = 0; i < n; ++i) lam[i] = icTest_Uniform(-3, 3);
            if (rep % 4 == 1) lam[1] = lam[0];              // repeated
            if (rep % 4 == 2) lam[n - 1] = 0, lam[0] = 1e-9; // near-singular
            randomSymmetric(n, lam, a);
            double values[IC_SYM_EIGEN_MAX], vectors[IC_SYM_EIGEN_MAX * IC_SYM_EIGEN_MAX];
            int sweeps = icSymmetricEigen(n, a, values, vectors, 30);
            IC_CHECK(sweeps >= 0 && sweeps < 30);
            qsort(lam, (size_t)n, sizeof(double), compareDouble);
            IC_CHECK_MSG(icTest_MaxAbsDiff(lam, values, n) <= 1e-13 * 3, "n %d eigenvalues off by %.3g",
                         n, icTest_MaxAbsDiff(lam, values, n));
            // Orthonormal vectors reconstructing A.
            double worst = 0, worstRec = 0;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                    double d = 0, r = 0;
                    for (int k = 0; k < n; ++k) {
                        d += vectors[k + n * i] * vectors[k + n * j];
                        r += vectors[i + n * k] * values[k] * vectors[j + n * k];
                    }
                    worst = fmax(worst, fabs(d - (i == j)));
                    worstRec = fmax(worstRec, fabs(r - a[i + n * j]));
                }
            IC_CHECK(worst <= 1e-13);
            IC_CHECK(worstRec <= 1e-13 * 3);
        }
    }
    double dummy[1], v[1];
    IC_CHECK_INT(icSymmetricEigen(0, dummy, v, NULL, 10), -1);
    IC_CHECK_INT(icSymmetricEigen(IC_SYM_EIGEN_MAX + 1, dummy, v, NULL, 10), -1);
}

IC_TEST(math, symmetric_eigen_3x3) {
    for (int rep = 0; rep < 1000; ++rep) {
        double lam[3] = {icTest_Uniform(-2, 2), icTest_Uniform(-2, 2), icTest_Uniform(-2, 2)};
        if (rep % 3 == 1) lam[2] = lam[0];
        if (rep % 5 == 2) lam[0] = lam[1] = lam[2];
        double a[9];
        randomSymmetric(3, lam, a);
        icMat3 m;
        memcpy(&m, a, sizeof m);
        icVec3 ev;
        icMat3 q;
        icMat3_SymmetricEigen(m, &ev, &q);
        qsort(lam, 3, sizeof(double), compareDouble);
        icReal got[3] = {ev.x, ev.y, ev.z};
        IC_CHECK_MSG(icTest_MaxAbsDiff(got, lam, 3) <= 1e-14, "rep %d: eigenvalues off by %.3g",
                     rep, icTest_MaxAbsDiff(got, lam, 3));
        IC_CHECK_NEAR(icMat3_Det(q), 1, 1e-14);
        icMat3 rec = icMat3_MulTrans(
            icMat3_FromCols(icVec3_Scale(ev.x, q.col[0]), icVec3_Scale(ev.y, q.col[1]),
                            icVec3_Scale(ev.z, q.col[2])),
            q);
        IC_CHECK(icTest_Mat3Diff(rec, m) <= 1e-14);
    }
}

// A block tridiagonal SPD matrix: a chain of nodes with random SPD diagonal blocks coupled
// by -c I, diagonally dominant.
static void chainMatrix(icBsr3 *a, int nodes) {
    int *rowStart = malloc(sizeof(int) * (size_t)(nodes + 1));
    int *col = malloc(sizeof(int) * (size_t)(3 * nodes));
    int k = 0;
    for (int r = 0; r < nodes; ++r) {
        rowStart[r] = k;
        for (int c = r - 1; c <= r + 1; ++c)
            if (c >= 0 && c < nodes) col[k++] = c;
    }
    rowStart[nodes] = k;
    IC_CHECK_RESULT(icBsr3_Create(a, nodes, rowStart, col), IC_OK);
    for (int r = 0; r < nodes; ++r)
        for (int j = a->rowStart[r]; j < a->rowStart[r + 1]; ++j) {
            icReal *b = a->values + 9 * j;
            if (a->col[j] == r) {
                icMat3 m = icTest_RandomMat3(0.5);
                icMat3 spd = icMat3_Add(icMat3_Mul(icMat3_Transpose(m), m),
                                        icMat3_Scale(2.5, icMat3_Identity()));
                memcpy(b, &spd, sizeof spd);
            } else {
                b[0] = b[4] = b[8] = -1;
            }
        }
    free(rowStart);
    free(col);
}

// Dense Gaussian elimination with partial pivoting (tests only).
static void denseSolve(int n, double *a, double *b) {
    for (int k = 0; k < n; ++k) {
        int p = k;
        for (int i = k + 1; i < n; ++i)
            if (fabs(a[i + n * k]) > fabs(a[p + n * k])) p = i;
        for (int j = 0; j < n; ++j) {
            double t = a[k + n * j];
            a[k + n * j] = a[p + n * j];
            a[p + n * j] = t;
        }
        double t = b[k];
        b[k] = b[p];
        b[p] = t;
        for (int i = k + 1; i < n; ++i) {
            double f = a[i + n * k] / a[k + n * k];
            for (int j = k; j < n; ++j) a[i + n * j] -= f * a[k + n * j];
            b[i] -= f * b[k];
        }
    }
    for (int i = n - 1; i >= 0; --i) {
        double s = b[i];
        for (int j = i + 1; j < n; ++j) s -= a[i + n * j] * b[j];
        b[i] = s / a[i + n * i];
    }
}

IC_TEST(math, bsr_multiply_matches_dense) {
    icBsr3 a;
    chainMatrix(&a, 7);
    int n = 21;
    double *dense = malloc(sizeof(double) * n * n), x[21], y[21];
    icBsr3_ToDense(&a, dense);
    for (int i = 0; i < n; ++i) x[i] = icTest_Normal();
    icBsr3_Multiply(&a, x, y);
    for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int j = 0; j < n; ++j) s += dense[i + n * j] * x[j];
        IC_CHECK_NEAR(y[i], s, 1e-13);
    }
    free(dense);
    icBsr3_Destroy(&a);
    // A pattern without a diagonal block is refused.
    int rowStart[3] = {0, 1, 2}, col[2] = {1, 0};
    IC_CHECK_RESULT(icBsr3_Create(&a, 2, rowStart, col), IC_ERR_INVALID_ARGUMENT);
}

IC_TEST(math, cg_solves_spd_with_each_preconditioner) {
    int64_t bytes = icGetByteCount();
    int nodes = 40, n = 3 * nodes;
    icBsr3 a;
    chainMatrix(&a, nodes);
    double *dense = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n),
           *ref = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    double *diag = malloc(sizeof(double) * 9 * nodes), *pc = malloc(sizeof(double) * 9 * nodes);
    for (int i = 0; i < n; ++i) b[i] = ref[i] = icTest_Normal();
    icBsr3_ToDense(&a, dense);
    denseSolve(n, dense, ref);
    for (int v = 0; v < nodes; ++v) memcpy(diag + 9 * v, a.values + 9 * a.diag[v], 9 * sizeof(double));
    int iterations[3];
    for (int kind = 0; kind < 3; ++kind) {
        IC_CHECK_INT(icPreconditioner_Build((icPreconditionerKind)kind, nodes, diag, NULL, pc), 0);
        icCGStats st;
        int it = icCG(n, icBsr3_Operator, &a, (icPreconditionerKind)kind, pc, NULL, b, y, 1e-12,
                      500, NULL, &st);
        iterations[kind] = it;
        IC_CHECK(st.converged && !st.indefinite);
        IC_CHECK_INT(st.iterations, it);
        IC_CHECK_MSG(icTest_MaxAbsDiff(y, ref, n) <= 1e-9 * icTest_MaxAbs(ref, n),
                     "kind %d error %.3g", kind, icTest_MaxAbsDiff(y, ref, n));
    }
    // Preconditioning must not cost iterations on this block-dominated matrix.
    IC_CHECK(iterations[2] <= iterations[0]);
    // An iteration cap stops early and says so.
    icCGStats st;
    int it = icCG(n, icBsr3_Operator, &a, IC_PRECONDITIONER_NONE, NULL, NULL, b, y, 1e-14, 3,
                  NULL, &st);
    IC_CHECK_INT(it, 3);
    IC_CHECK(!st.converged && st.relativeResidual > 1e-14);
    free(dense), free(b), free(ref), free(y), free(diag), free(pc);
    icBsr3_Destroy(&a);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Filtered PCG (Baraff & Witkin 1998) equals the reduced system solved directly.
IC_TEST(math, cg_filter_matches_reduced_system) {
    int nodes = 12, n = 36;
    icBsr3 a;
    chainMatrix(&a, nodes);
    unsigned char mask[36];
    for (int i = 0; i < n; ++i) mask[i] = (i % 5 != 0) && i != 7;
    double dense[36 * 36], b[36], y[36], diag[9 * 12], pc[9 * 12];
    icBsr3_ToDense(&a, dense);
    for (int i = 0; i < n; ++i) b[i] = icTest_Normal();
    int free_[36], m = 0;
    for (int i = 0; i < n; ++i)
        if (mask[i]) free_[m++] = i;
    double red[36 * 36], rb[36];
    for (int i = 0; i < m; ++i) {
        rb[i] = b[free_[i]];
        for (int j = 0; j < m; ++j) red[i + m * j] = dense[free_[i] + n * free_[j]];
    }
    denseSolve(m, red, rb);
    for (int v = 0; v < nodes; ++v) memcpy(diag + 9 * v, a.values + 9 * a.diag[v], 9 * sizeof(double));
    for (int kind = 0; kind < 3; ++kind) {
        icPreconditioner_Build((icPreconditionerKind)kind, nodes, diag, mask, pc);
        double work[4 * 36];
        icCGStats st;
        icCG(n, icBsr3_Operator, &a, (icPreconditionerKind)kind, pc, mask, b, y, 1e-13, 200, work,
             &st);
        IC_CHECK(st.converged);
        for (int i = 0; i < n; ++i)
            if (!mask[i]) IC_CHECK(y[i] == 0);
        for (int i = 0; i < m; ++i) IC_CHECK_NEAR(y[free_[i]], rb[i], 1e-10);
    }
    icBsr3_Destroy(&a);
}

// In exact arithmetic CG ends after as many iterations as A has distinct eigenvalues.
IC_TEST(math, cg_terminates_in_distinct_eigenvalue_count) {
    int nodes = 30, n = 90;
    int rowStart[31], col[30];
    for (int r = 0; r <= nodes; ++r) rowStart[r] = r;
    for (int r = 0; r < nodes; ++r) col[r] = r;
    icBsr3 a;
    IC_REQUIRE(icBsr3_Create(&a, nodes, rowStart, col) == IC_OK);
    for (int r = 0; r < nodes; ++r) {
        icMat3 q = icTest_RandomRotation(), d = icMat3_Diagonal(1, 2, 5);
        icMat3 b = icMat3_MulTrans(icMat3_Mul(q, d), q);
        memcpy(a.values + 9 * r, &b, sizeof b);
    }
    double b[90], y[90];
    for (int i = 0; i < n; ++i) b[i] = icTest_Normal();
    icCGStats st;
    int it = icCG(n, icBsr3_Operator, &a, IC_PRECONDITIONER_NONE, NULL, NULL, b, y, 1e-12, 50,
                  NULL, &st);
    IC_CHECK_INT(it, 3);
    IC_CHECK(st.converged);
    icBsr3_Destroy(&a);
}

IC_TEST(math, cg_reports_indefinite) {
    icBsr3 a;
    chainMatrix(&a, 3);
    // Make the matrix negative definite: CG must stop at once with a usable direction.
    for (int k = 0; k < 9 * a.blockCount; ++k) a.values[k] = -a.values[k];
    double b[9], y[9];
    for (int i = 0; i < 9; ++i) b[i] = 1;
    icCGStats st;
    int it = icCG(9, icBsr3_Operator, &a, IC_PRECONDITIONER_NONE, NULL, NULL, b, y, 1e-10, 50,
                  NULL, &st);
    IC_CHECK_INT(it, 1);
    IC_CHECK(st.indefinite && !st.converged);
    for (int i = 0; i < 9; ++i) IC_CHECK(y[i] == b[i]); // preconditioned residual, P = I
    // Negative diagonal blocks make every preconditioner pivot fall back.
    double diag[27], pc[27];
    for (int v = 0; v < 3; ++v) memcpy(diag + 9 * v, a.values + 9 * a.diag[v], 9 * sizeof(double));
    IC_CHECK_INT(icPreconditioner_Build(IC_PRECONDITIONER_JACOBI, 3, diag, NULL, pc), 9);
    IC_CHECK_INT(icPreconditioner_Build(IC_PRECONDITIONER_BLOCK_JACOBI, 3, diag, NULL, pc), 3);
    icBsr3_Destroy(&a);
}
