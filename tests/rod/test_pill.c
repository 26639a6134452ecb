// SPDX-License-Identifier: MIT
// Pill geometry against brute force (Angles et al. 2019, sec. 7.2 and App. D): point-pill
// distance, pill-pill search, bounding spheres, segment volume against Monte Carlo and its
// derivatives.
#include "test.h"

#include "isochor/rod.h"
#include "rod/rod_internal.h"

static icVec3 randomVec(double s) {
    return icVec3_Make(icTest_Uniform(-s, s), icTest_Uniform(-s, s), icTest_Uniform(-s, s));
}

// Brute force: the minimum over a fine t grid of |p - c(t)| - rho(t) (the pill is the union
// of those balls, Angles et al. 2019, sec. 7.2), refined by a golden-section search around the
// best sample.
static double bruteDistance(icVec3 p, icVec3 a, double ra, icVec3 b, double rb) {
    double best = INFINITY, bt = 0;
    const int n = 2000;
    for (int i = 0; i <= n; ++i) {
        double t = (double)i / n;
        icVec3 c = icVec3_MulAdd(a, t, icVec3_Sub(b, a));
        double d = icVec3_Distance(p, c) - (ra + t * (rb - ra));
        if (d < best) best = d, bt = t;
    }
    double lo = bt - 1.0 / n < 0 ? 0 : bt - 1.0 / n, hi = bt + 1.0 / n > 1 ? 1 : bt + 1.0 / n;
    for (int it = 0; it < 100; ++it) {
        double m1 = lo + (hi - lo) * 0.382, m2 = lo + (hi - lo) * 0.618;
        icVec3 c1 = icVec3_MulAdd(a, m1, icVec3_Sub(b, a)),
               c2 = icVec3_MulAdd(a, m2, icVec3_Sub(b, a));
        double d1 = icVec3_Distance(p, c1) - (ra + m1 * (rb - ra));
        double d2 = icVec3_Distance(p, c2) - (ra + m2 * (rb - ra));
        if (d1 < d2)
            hi = m2;
        else
            lo = m1;
    }
    double t = 0.5 * (lo + hi);
    icVec3 c = icVec3_MulAdd(a, t, icVec3_Sub(b, a));
    double d = icVec3_Distance(p, c) - (ra + t * (rb - ra));
    return d < best ? d : best;
}

IC_TEST(rod, point_pill_brute_force) {
    icTest_Seed(21);
    double worst = 0;
    for (int k = 0; k < 300; ++k) {
        icVec3 a = randomVec(1), b = randomVec(1), p = randomVec(1.5);
        double ra = icTest_Uniform(0.05, 0.5), rb = icTest_Uniform(0.05, 0.5);
        icReal t;
        double d = icPill_PointDistance(p, a, ra, b, rb, &t);
        double ref = bruteDistance(p, a, ra, b, rb);
        if (fabs(d - ref) > worst) worst = fabs(d - ref);
        IC_CHECK(t >= 0 && t <= 1);
    }
    printf("  point-pill distance vs brute force, 300 random pills: max error %.2e\n", worst);
    IC_CHECK_MSG(worst < 1e-9, "worst %g", worst);
}

// The gap of Angles et al. 2019, eq. 29 over a dense (u, v) grid, refined around the best cell.
static double gridGap(icVec3 a0, double ra0, icVec3 a1, double ra1, icVec3 b0, double rb0,
                      icVec3 b1, double rb1) {
    double best = INFINITY, bu = 0, bv = 0;
    const int n = 400;
    for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) {
            double u = (double)i / n, v = (double)j / n;
            icVec3 ca = icVec3_MulAdd(a0, u, icVec3_Sub(a1, a0));
            icVec3 cb = icVec3_MulAdd(b0, v, icVec3_Sub(b1, b0));
            double g = icVec3_Distance(ca, cb) - (ra0 + u * (ra1 - ra0)) - (rb0 + v * (rb1 - rb0));
            if (g < best) best = g, bu = u, bv = v;
        }
    // a finer grid over the best cell's neighbourhood
    for (int i = -200; i <= 200; ++i)
        for (int j = -200; j <= 200; ++j) {
            double u = bu + i * 1e-2 / n, v = bv + j * 1e-2 / n;
            if (u < 0 || u > 1 || v < 0 || v > 1) continue;
            icVec3 ca = icVec3_MulAdd(a0, u, icVec3_Sub(a1, a0));
            icVec3 cb = icVec3_MulAdd(b0, v, icVec3_Sub(b1, b0));
            double g = icVec3_Distance(ca, cb) - (ra0 + u * (ra1 - ra0)) - (rb0 + v * (rb1 - rb0));
            if (g < best) best = g;
        }
    return best;
}

IC_TEST(rod, pill_pill_dense_grid) {
    icTest_Seed(22);
    double worst = 0, worst14 = 0;
    for (int k = 0; k < 40; ++k) {
        icVec3 a0 = randomVec(1), a1 = randomVec(1), b0 = randomVec(1), b1 = randomVec(1);
        double ra0 = icTest_Uniform(0.05, 0.4), ra1 = icTest_Uniform(0.05, 0.4);
        double rb0 = icTest_Uniform(0.05, 0.4), rb1 = icTest_Uniform(0.05, 0.4);
        icReal u, v;
        double g10 = icPill_PillDistance(a0, ra0, a1, ra1, b0, rb0, b1, rb1, 10, &u, &v);
        double g20 = icPill_PillDistance(a0, ra0, a1, ra1, b0, rb0, b1, rb1, 20, &u, &v);
        double ref = gridGap(a0, ra0, a1, ra1, b0, rb0, b1, rb1);
        // the grid minimum is within its spacing (2.5e-5 near a kink where the axes cross)
        // times the slope of the exact one; 20 iterations leave a bracket of ~1e-6
        IC_CHECK_MSG(g20 <= ref + 1e-5, "search %g above grid %g", g20, ref);
        IC_CHECK_MSG(g20 >= ref - 1e-5, "search %g below grid %g", g20, ref);
        if (g10 - ref > worst) worst = g10 - ref;
        if (g20 - ref > worst14) worst14 = g20 - ref;
        IC_CHECK(u >= 0 && u <= 1 && v >= 0 && v <= 1);
    }
    printf("  pill-pill search above the dense grid minimum: 10 iterations %.2e, 20: %.2e\n", worst,
           worst14);
    IC_CHECK_MSG(worst < 5e-3, "10 iterations: %g", worst);
}

// A sphere that must contain both end balls: the reference formula fails when one ball holds
// the other; ours falls back to the larger ball.
IC_TEST(rod, bounding_sphere_contains_pill) {
    icTest_Seed(23);
    int bad = 0;
    for (int k = 0; k < 1000; ++k) {
        icVec3 a = randomVec(1), b = randomVec(0.3);
        double ra = icTest_Uniform(0.01, 1), rb = icTest_Uniform(0.01, 1);
        icVec3 c;
        icReal R;
        icPill_BoundingSphere(a, ra, b, rb, 0, &c, &R);
        if (icVec3_Distance(c, a) + ra > R + 1e-12 || icVec3_Distance(c, b) + rb > R + 1e-12) ++bad;
    }
    IC_CHECK_INT(bad, 0);
}

// V + hemispheres is the volume of the pill (the union of the balls).
IC_TEST(rod, segment_volume_monte_carlo) {
    icTest_Seed(24);
    const double cases[3][3] = {{0.3, 0.12, 0.5}, {0.1, 0.1, 0.4}, {0.05, 0.25, 0.35}};
    for (int c = 0; c < 3; ++c) {
        double ra = cases[c][0], rb = cases[c][1], d = cases[c][2];
        double V = icRod_SegmentVolume(ra, rb, d, NULL, NULL, NULL) +
                   (2 * IC_PI / 3) * (ra * ra * ra + rb * rb * rb);
        double rmax = ra > rb ? ra : rb;
        icVec3 a = icVec3_Make(0, 0, 0), b = icVec3_Make(d, 0, 0);
        const int n = 400000;
        int inside = 0;
        for (int i = 0; i < n; ++i) {
            icVec3 p = icVec3_Make(icTest_Uniform(-ra, d + rb), icTest_Uniform(-rmax, rmax),
                                   icTest_Uniform(-rmax, rmax));
            if (icPill_PointDistance(p, a, ra, b, rb, NULL) <= 0) ++inside;
        }
        double box = (d + ra + rb) * 4 * rmax * rmax;
        double mc = box * inside / n;
        double sigma = box * sqrt((double)inside * (n - inside) / n) / n;
        printf("  pill (%.2f, %.2f, %.2f): formula %.6f, Monte Carlo %.6f +- %.6f\n", ra, rb, d, V,
               mc, sigma);
        IC_CHECK_NEAR(V, mc, 4 * sigma);
    }
    // cylinder limit
    IC_CHECK_NEAR(icRod_SegmentVolume(0.2, 0.2, 1.5, NULL, NULL, NULL), IC_PI * 0.04 * 1.5, 1e-14);
}

IC_TEST(rod, segment_volume_derivatives) {
    icTest_Seed(25);
    double worst = 0;
    for (int k = 0; k < 100; ++k) {
        double ra = icTest_Uniform(0.05, 0.5), rb = icTest_Uniform(0.05, 0.5);
        double d = fabs(ra - rb) + icTest_Uniform(0.01, 1);
        icReal Vd, Vra, Vrb;
        icRod_SegmentVolume(ra, rb, d, &Vd, &Vra, &Vrb);
        const double h = 1e-6;
        double fd[3] = {(icRod_SegmentVolume(ra, rb, d + h, NULL, NULL, NULL) -
                         icRod_SegmentVolume(ra, rb, d - h, NULL, NULL, NULL)) /
                            (2 * h),
                        (icRod_SegmentVolume(ra + h, rb, d, NULL, NULL, NULL) -
                         icRod_SegmentVolume(ra - h, rb, d, NULL, NULL, NULL)) /
                            (2 * h),
                        (icRod_SegmentVolume(ra, rb + h, d, NULL, NULL, NULL) -
                         icRod_SegmentVolume(ra, rb - h, d, NULL, NULL, NULL)) /
                            (2 * h)};
        double an[3] = {Vd, Vra, Vrb};
        for (int i = 0; i < 3; ++i) {
            double e = fabs(fd[i] - an[i]) / (fabs(an[i]) + 1e-3);
            if (e > worst) worst = e;
        }
    }
    printf("  dV/dd, dV/dra, dV/drb vs central differences: max relative error %.2e\n", worst);
    IC_CHECK_MSG(worst < 1e-7, "worst %g", worst);
}

// The output tubes: one closed, outward capsule per pill whose volume approaches the pill's.
IC_TEST(rod, pill_surface_closed) {
    icRodWorld *w = icCreateRodWorld(NULL);
    IC_REQUIRE(w);
    icReal p[6] = {0, 0, 0, 0.5, 0.2, 0.1}, r[2] = {0.25, 0.1};
    icRodDef d = icDefaultRodDef();
    d.vertexCount = 2;
    d.positions = p;
    d.radii = r;
    IC_REQUIRE(icRodWorld_AddRod(w, &d, NULL, NULL) == IC_OK);
    icRodSurface s;
    IC_REQUIRE(icRodWorld_PillSurface(w, 48, &s) == IC_OK);
    // signed volume by the divergence theorem; closedness: every edge used twice, opposite
    double vol = 0;
    for (int t = 0; t < s.triangleCount; ++t) {
        icVec3 a = icVec3_Load(s.positions, s.triangles[3 * t]);
        icVec3 b = icVec3_Load(s.positions, s.triangles[3 * t + 1]);
        icVec3 c = icVec3_Load(s.positions, s.triangles[3 * t + 2]);
        vol += icVec3_Dot(a, icVec3_Cross(b, c)) / 6;
    }
    int unmatched = 0;
    for (int t = 0; t < s.triangleCount; ++t)
        for (int e = 0; e < 3; ++e) {
            int a = s.triangles[3 * t + e], b = s.triangles[3 * t + (e + 1) % 3], found = 0;
            for (int u = 0; u < s.triangleCount; ++u)
                for (int f = 0; f < 3; ++f)
                    if (s.triangles[3 * u + f] == b && s.triangles[3 * u + (f + 1) % 3] == a)
                        ++found;
            if (found != 1) ++unmatched;
        }
    double L = sqrt(0.25 + 0.04 + 0.01);
    double exact = icRod_SegmentVolume(0.25, 0.1, L, NULL, NULL, NULL) +
                   (2 * IC_PI / 3) * (0.25 * 0.25 * 0.25 + 0.001);
    printf("  capsule mesh: %d triangles, volume %.5f vs pill %.5f\n", s.triangleCount, vol, exact);
    IC_CHECK_INT(unmatched, 0);
    IC_CHECK_NEAR(vol / exact, 1.0, 0.02);
    icRodSurface_Destroy(&s);
    icDestroyRodWorld(w);
}

// Pills far larger than their segments (16 rods of 2,000 segments 1 mm apart, radius 5 cm)
// overlap about 10^8 others: the broad phase stops at its cap (256 pairs a segment and 2^20
// more) and the step fails with IC_ERR_OUT_OF_MEMORY instead of asking for gigabytes (a
// 16 x 100,000-segment sheet overflowed the pair index and crashed).
IC_TEST(rod, broad_phase_caps_candidate_pairs) {
    int64_t bytes = icGetByteCount();
    icRodWorld *w = icCreateRodWorld(NULL);
    IC_REQUIRE(w);
    icRodDef d = icDefaultRodDef();
    d.radius = 0.05;
    for (int k = 0; k < 16; ++k)
        IC_REQUIRE(icRodWorld_AddStraightRod(w, icVec3_Make(0.001 * k, 0, 0),
                                             icVec3_Make(0.001 * k, 1, 0), 2000, &d, NULL,
                                             NULL) == IC_OK);
    icRodStepStats stats;
    IC_CHECK_RESULT(icRodWorld_Step(w, 1.0 / 60, &stats), IC_ERR_OUT_OF_MEMORY);
    int64_t cap = 256 * (int64_t)icRodWorld_GetSegmentCount(w) + (1 << 20);
    // The pair list (8 bytes a pair) grows by doubling: at most twice the cap, and the world.
    IC_CHECK_MSG(icGetByteCount() - bytes < 16 * cap + (64 << 20), "%lld bytes held",
                 (long long)(icGetByteCount() - bytes));
    icDestroyRodWorld(w);
    // A sparse world of the same rods still steps.
    w = icCreateRodWorld(NULL);
    d.radius = 0.0002;
    for (int k = 0; k < 16; ++k)
        IC_REQUIRE(icRodWorld_AddStraightRod(w, icVec3_Make(0.01 * k, 0, 0),
                                             icVec3_Make(0.01 * k, 1, 0), 2000, &d, NULL,
                                             NULL) == IC_OK);
    IC_CHECK_RESULT(icRodWorld_Step(w, 1.0 / 60, &stats), IC_OK);
    icDestroyRodWorld(w);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
