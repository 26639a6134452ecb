// SPDX-License-Identifier: MIT
// Tests of the rotation-variant 3x3 SVD, the polar decomposition and its differential.
#include "fem/fem_test.h"
#include "math/svd_internal.h"

#include <string.h>

static double orthonormalError(icMat3 u) {
    icMat3 d = icMat3_Sub(icMat3_Mul(icMat3_Transpose(u), u), icMat3_Identity());
    return icTest_Mat3MaxAbs(d);
}

// Checks the rotation-variant contract (U, V rotations, s1 >= s2 >= |s3|, s3 with the sign of
// det A) and the reconstruction; returns false (after reporting once) on the first violation
// so a loop over 1e5 matrices does not flood the log.
static bool checkSvd(icMat3 a, const icSvd3 *d, double reconstructionTol, const char *what) {
    double na = sqrt(icMat3_NormSquared(a));
    icMat3 back = icSvd3_Compose(d);
    double err = sqrt(icMat3_NormSquared(icMat3_Sub(back, a)));
    double detA = icMat3_Det(a);
    bool ok = true;
    if (!(err <= reconstructionTol * na)) {
        icTest_Fail(__FILE__, __LINE__, "%s: |U S V^T - A| = %.3g, |A| = %.3g", what, err, na);
        ok = false;
    }
    if (!(orthonormalError(d->U) <= 1e-13 && orthonormalError(d->V) <= 1e-13)) {
        icTest_Fail(__FILE__, __LINE__, "%s: U or V not orthonormal (%.3g, %.3g)", what,
                    orthonormalError(d->U), orthonormalError(d->V));
        ok = false;
    }
    if (!(fabs(icMat3_Det(d->U) - 1) <= 1e-13 && fabs(icMat3_Det(d->V) - 1) <= 1e-13)) {
        icTest_Fail(__FILE__, __LINE__, "%s: det U = %.17g, det V = %.17g", what,
                    icMat3_Det(d->U), icMat3_Det(d->V));
        ok = false;
    }
    if (!(d->s.x >= d->s.y && d->s.y >= fabs(d->s.z))) {
        icTest_Fail(__FILE__, __LINE__, "%s: order s = %.17g %.17g %.17g", what, d->s.x, d->s.y,
                    d->s.z);
        ok = false;
    }
    // s3 < 0 exactly when det A < 0 (only decidable when det A is clearly nonzero).
    double s1 = d->s.x;
    if (fabs(detA) > 1e-10 * s1 * s1 * s1 && ((d->s.z < 0) != (detA < 0))) {
        icTest_Fail(__FILE__, __LINE__, "%s: sign of s3 %.3g vs det %.3g", what, d->s.z, detA);
        ok = false;
    }
    return ok;
}

static icMat3 fromSvd(icMat3 u, icReal a, icReal b, icReal c, icMat3 v) {
    icSvd3 d = {u, icVec3_Make(a, b, c), v};
    return icSvd3_Compose(&d);
}

// 1e5 random matrices of several kinds and scales.
IC_TEST(math, svd_random_contract) {
    static const double scales[3] = {1.0, 1e-8, 1e8};
    int failures = 0;
    for (int n = 0; n < 100000 && failures < 5; ++n) {
        icMat3 a;
        int kind = n % 8;
        icMat3 u = icTest_RandomRotation(), v = icTest_RandomRotation();
        switch (kind) {
        case 0: a = icTest_RandomMat3(1); break;
        case 1: a = icTest_RandomF(); break;
        case 2: // rank 2
            a = fromSvd(u, icTest_Uniform(0.5, 2), icTest_Uniform(0.1, 0.5), 0, v);
            break;
        case 3: // rank 1
            a = fromSvd(u, icTest_Uniform(0.5, 2), 0, 0, v);
            break;
        case 4: // repeated singular values (Q1 diag(1.2, 1.2, 0.8) Q2)
            a = fromSvd(u, 1.2, 1.2, 0.8, v);
            break;
        case 5: // inverted
            a = icTest_RandomF();
            a.col[n % 3] = icVec3_Neg(a.col[n % 3]);
            break;
        case 6: // all equal, possibly inverted
            a = fromSvd(u, 0.7, 0.7, (n & 8) ? -0.7 : 0.7, v);
            break;
        default: // nearly rank 1 with widely spread singular values
            a = fromSvd(u, 1, 1e-7, -1e-11, v);
            break;
        }
        a = icMat3_Scale(scales[(n / 8) % 3], a);
        icSvd3 d = icMat3_Svd(a);
        if (!checkSvd(a, &d, 1e-12, "random")) ++failures;
    }
    IC_CHECK_INT(failures, 0);
}

IC_TEST(math, svd_degenerate_inputs) {
    icSvd3 d = icMat3_Svd(icMat3_Zero());
    IC_CHECK(d.s.x == 0 && d.s.y == 0 && d.s.z == 0);
    IC_CHECK(checkSvd(icMat3_Zero(), &d, 0, "zero"));

    d = icMat3_Svd(icMat3_Identity());
    IC_CHECK(checkSvd(icMat3_Identity(), &d, 1e-15, "identity"));
    IC_CHECK_NEAR(d.s.z, 1, 1e-15);

    // -I has det -1: s = (1, 1, -1)
    icMat3 m = icMat3_Scale(-1, icMat3_Identity());
    d = icMat3_Svd(m);
    IC_CHECK(checkSvd(m, &d, 1e-15, "-I"));
    IC_CHECK_NEAR(d.s.x, 1, 1e-15);
    IC_CHECK_NEAR(d.s.y, 1, 1e-15);
    IC_CHECK_NEAR(d.s.z, -1, 1e-15);

    // A reflection diag(1, -2, 3): s = (3, 2, -1)
    m = icMat3_Diagonal(1, -2, 3);
    d = icMat3_Svd(m);
    IC_CHECK(checkSvd(m, &d, 1e-15, "diag"));
    IC_CHECK_NEAR(d.s.x, 3, 1e-15);
    IC_CHECK_NEAR(d.s.y, 2, 1e-15);
    IC_CHECK_NEAR(d.s.z, -1, 1e-15);

    // Exact rank 1 (an outer product) and a single nonzero entry.
    m = icMat3_Outer(icVec3_Make(1, 2, 3), icVec3_Make(-1, 0.5, 2));
    d = icMat3_Svd(m);
    IC_CHECK(checkSvd(m, &d, 1e-15, "outer"));
    IC_CHECK_NEAR(d.s.x, sqrt(14.0) * sqrt(5.25), 1e-13);
    IC_CHECK(fabs(d.s.y) <= 1e-15 * d.s.x && fabs(d.s.z) <= 1e-15 * d.s.x);
    m = icMat3_Zero();
    icMat3_Set(&m, 2, 0, -5);
    d = icMat3_Svd(m);
    IC_CHECK(checkSvd(m, &d, 1e-15, "single entry"));
    IC_CHECK_NEAR(d.s.x, 5, 1e-15);

    // Relative accuracy of tiny singular values (the reason for one-sided Jacobi).
    icMat3 u = icTest_RandomRotation(), v = icTest_RandomRotation();
    m = fromSvd(u, 1, 1e-9, 1e-13, v);
    d = icMat3_Svd(m);
    IC_CHECK(checkSvd(m, &d, 1e-14, "graded"));
    IC_CHECK_NEAR(d.s.y / 1e-9, 1, 1e-5);
    IC_CHECK_NEAR(d.s.z / 1e-13, 1, 1e-2);

    // Non-finite input gives NaN singular values, no crash.
    m = icMat3_Identity();
    m.col[1].y = NAN;
    d = icMat3_Svd(m);
    IC_CHECK(isnan(d.s.x));
}

// Agreement with the reference path (icMat3_SvdReference) on well-conditioned matrices.
IC_TEST(math, svd_matches_reference) {
    for (int n = 0; n < 2000; ++n) {
        icMat3 a = icTest_RandomF();
        if (n & 1) a.col[0] = icVec3_Neg(a.col[0]);
        icSvd3 d = icMat3_Svd(a), r = icMat3_SvdReference(a);
        IC_REQUIRE(checkSvd(a, &r, 1e-10, "reference"));
        icReal s[3] = {d.s.x, d.s.y, d.s.z}, t[3] = {r.s.x, r.s.y, r.s.z};
        IC_CHECK(icTest_MaxAbsDiff(s, t, 3) <= 1e-12 * d.s.x);
        // The polar rotation is unique when s2 + s3 is clearly positive.
        if (d.s.y + d.s.z > 0.05 && d.s.y - fabs(d.s.z) > 1e-3) {
            icMat3 rd = icMat3_MulTrans(d.U, d.V), rr = icMat3_MulTrans(r.U, r.V);
            IC_CHECK(icTest_Mat3Diff(rd, rr) <= 1e-9);
        }
    }
}

IC_TEST(math, polar_decomposition) {
    for (int n = 0; n < 500; ++n) {
        icMat3 a = icTest_RandomF();
        if (n & 1) a.col[1] = icVec3_Neg(a.col[1]);
        icMat3 r, s;
        icMat3_Polar(a, &r, &s);
        IC_CHECK(orthonormalError(r) <= 1e-14);
        IC_CHECK_NEAR(icMat3_Det(r), 1, 1e-14);
        IC_CHECK(icTest_Mat3Diff(s, icMat3_Transpose(s)) <= 1e-14);
        IC_CHECK(icTest_Mat3Diff(icMat3_Mul(r, s), a) <= 1e-13);
        // S is indefinite exactly for inverted A (its determinant is det A).
        IC_CHECK_NEAR(icMat3_Det(s), icMat3_Det(a), 1e-12);
    }
    // For a rotation times a symmetric positive matrix, R is that rotation.
    icMat3 q = icTest_RandomRotation();
    icMat3 spd = icMat3_Add(icMat3_Identity(), icMat3_Scale(0.2, icMat3_Diagonal(1, 2, 3)));
    icMat3 r;
    icMat3_Polar(icMat3_Mul(q, spd), &r, NULL);
    IC_CHECK(icTest_Mat3Diff(r, q) <= 1e-14);
}

// dR = U Om V^T with Om_ij = (dFh_ij - dFh_ji)/(s_i + s_j), dFh = U^T dF V,
// against central differences of R(F) from the polar decomposition.
IC_TEST(math, polar_rotation_differential) {
    int checked = 0;
    for (int n = 0; n < 200; ++n) {
        icMat3 F = icTest_RandomF();
        if (n & 1) F.col[2] = icVec3_Neg(F.col[2]);
        icSvd3 d = icMat3_Svd(F);
        icReal s[3] = {d.s.x, d.s.y, d.s.z};
        if (s[1] + s[2] < 0.1) continue; // keep |s_i + s_j| > 0.1
        icMat3 dF = icTest_RandomMat3(1);
        icMat3 dfh = icMat3_Mul(icMat3_Transpose(d.U), icMat3_Mul(dF, d.V));
        icMat3 om = icMat3_Zero();
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                if (i != j)
                    icMat3_Set(&om, i, j,
                               (icMat3_At(&dfh, i, j) - icMat3_At(&dfh, j, i)) / (s[i] + s[j]));
        icMat3 dr = icMat3_MulTrans(icMat3_Mul(d.U, om), d.V);
        const double h = 1e-6;
        icMat3 rp, rm;
        icMat3_Polar(icMat3_Add(F, icMat3_Scale(h, dF)), &rp, NULL);
        icMat3_Polar(icMat3_Sub(F, icMat3_Scale(h, dF)), &rm, NULL);
        icMat3 fd = icMat3_Scale(0.5 / h, icMat3_Sub(rp, rm));
        IC_CHECK_MSG(icTest_Mat3Diff(fd, dr) <= 1e-6 * fmax(1, icTest_Mat3MaxAbs(dr)),
                     "dR mismatch %.3g", icTest_Mat3Diff(fd, dr));
        ++checked;
    }
    IC_CHECK(checked > 100);
}

// The batched SVD (four lanes) keeps the contract and matches the scalar one, including
// lanes with zero or non-finite matrices and a count that is not a multiple of four.
IC_TEST(math, svd_batch_matches_scalar) {
    enum { N = 1003 };
    static icMat3 a[N];
    static icSvd3 batch[N];
    for (int i = 0; i < N; ++i) {
        a[i] = icTest_RandomF();
        if (i % 7 == 3) a[i].col[i % 3] = icVec3_Neg(a[i].col[i % 3]);
        if (i % 50 == 9) a[i] = icMat3_Zero();
        if (i % 50 == 10) a[i] = icMat3_Outer(icVec3_Make(1, 2, 3), icVec3_Make(0, 1, -1));
    }
    a[17].col[1].y = NAN;
    icMat3_SvdBatch(N, a, batch);
    int bad = 0;
    for (int i = 0; i < N && bad < 5; ++i) {
        if (i == 17) {
            IC_CHECK(isnan(batch[i].s.x));
            continue;
        }
        icSvd3 d = icMat3_Svd(a[i]);
        icReal x[3] = {d.s.x, d.s.y, d.s.z}, y[3] = {batch[i].s.x, batch[i].s.y, batch[i].s.z};
        double scale = fmax(1e-300, d.s.x);
        if (!(icTest_MaxAbsDiff(x, y, 3) <= 1e-14 * scale) || !checkSvd(a[i], &batch[i], 1e-13, "batch")) {
            icTest_Fail(__FILE__, __LINE__, "batch lane %d differs", i);
            ++bad;
        }
    }
}

// The AVX2 and AVX-512 lanes of the batch give the bits of the two-wide lanes: the same
// matrices (strains from 0 to large, reflections, zero, rank-one and NaN lanes that send a batch
// to the scalar path) through each width, compared byte for byte. The wide paths run batches
// side by side (AVX-512: four, or two for a call's last eight; AVX2: two), each sweeping until its
// own lanes are done: called in sets of four, two or one batch they give the same bits. On a CPU
// without AVX2 or AVX-512 those runs take a narrower path and the comparisons hold trivially.
IC_TEST(math, svd_batch_wide_same_bits) {
    enum { N = 4003 };
    static icMat3 a[N];
    static icSvd3 narrow[N], wide[N];
    for (int i = 0; i < N; ++i) {
        a[i] = icTest_RandomF();
        if (i % 5 == 1) // near a rotation: the columns start nearly orthogonal
            a[i] = icMat3_Add(icMat3_Identity(), icMat3_Scale(1e-3 * (i % 7), a[i]));
        if (i % 7 == 3) a[i].col[i % 3] = icVec3_Neg(a[i].col[i % 3]);
        if (i % 97 == 9) a[i] = icMat3_Zero();
        if (i % 89 == 10) a[i] = icMat3_Outer(icVec3_Make(1, 2, 3), icVec3_Make(0, 1, -1));
    }
    a[17].col[1].y = NAN;
    a[402].col[2].x = INFINITY;
    icSvd_LimitLanes(2);
    icMat3_SvdBatch(N, a, narrow);
    const int widths[] = {4, 8};
    for (int w = 0; w < 2; ++w) {
        icSvd_LimitLanes(widths[w]);
        // Calls of N (sets of four batches), of 12 (two batches, then one) and of 4 (one batch).
        const int perCall[] = {N, 12, 4};
        for (int c = 0; c < 3; ++c) {
            memset(wide, 0, sizeof wide);
            for (int i = 0; i < N; i += perCall[c])
                icMat3_SvdBatch(i + perCall[c] <= N ? perCall[c] : N - i, a + i, wide + i);
            int differ = 0;
            for (int i = 0; i < N; ++i) differ += memcmp(&wide[i], &narrow[i], sizeof(icSvd3)) != 0;
            IC_CHECK_MSG(differ == 0,
                         "%d lanes, calls of %d: %d of %d SVDs differ from the two-wide lanes",
                         widths[w], perCall[c], differ, N);
        }
    }
    icSvd_LimitLanes(8);
}
