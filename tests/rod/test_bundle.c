// SPDX-License-Identifier: MIT
// Bundles, bones, skinning and viperization (Angles et al. 2019, secs. 7.3, 7.4, 8): Umeyama
// recovers a known similarity, the Hungarian method matches brute force, bones warm-start,
// skins follow similarities of the rods exactly, and viperization yields rods inside the muscle
// that combing shortens.
#include "test.h"

#include "isochor/rod.h"
#include "rod/rod_internal.h"

#include <stdlib.h>

static icQuat randomRotation(double maxAngle) {
    icVec3 axis = icVec3_Normalize(
        icVec3_Make(icTest_Uniform(-1, 1), icTest_Uniform(-1, 1), icTest_Uniform(-1, 1)));
    return icQuat_FromRotationVector(icVec3_Scale(icTest_Uniform(0, maxAngle), axis));
}

IC_TEST(rod, umeyama_recovers_similarity) {
    icTest_Seed(41);
    double worstR = 0, worstS = 0, worstT = 0, worstRigid = 0;
    for (int trial = 0; trial < 50; ++trial) {
        enum { N = 7 };
        icVec3 xb[N], x[N];
        icReal rb[N], r[N];
        icQuat qb[N], q[N];
        icQuat R = randomRotation(2.6); // up to 150 degrees from the warm start
        icReal sigma = icTest_Uniform(0.5, 2);
        icVec3 t = icVec3_Make(icTest_Uniform(-1, 1), icTest_Uniform(-1, 1), icTest_Uniform(-1, 1));
        for (int k = 0; k < N; ++k) {
            xb[k] = icVec3_Make(icTest_Uniform(-0.3, 0.3), icTest_Uniform(-0.3, 0.3),
                                icTest_Uniform(-0.3, 0.3));
            rb[k] = icTest_Uniform(0.02, 0.1);
            qb[k] = randomRotation(3);
            x[k] = icVec3_Add(icVec3_Scale(sigma, icQuat_Rotate(R, xb[k])), t);
            r[k] = sigma * rb[k];
            q[k] = icQuat_Mul(R, qb[k]);
        }
        icQuat rot = icQuat_Identity();
        icReal s;
        icVec3 tt;
        icRod_FitSimilarity(N, x, r, q, xb, rb, qb, false, &rot, &s, &tt);
        double dR = icMat3_NormSquared(icMat3_Sub(icQuat_ToMat3(rot), icQuat_ToMat3(R)));
        worstR = fmax(worstR, sqrt(dR));
        worstS = fmax(worstS, fabs(s - sigma));
        worstT = fmax(worstT, icVec3_Distance(tt, t));
        // traditional matching of the positions of a rigid motion (sigma forced to 1)
        for (int k = 0; k < N; ++k) x[k] = icVec3_Add(icQuat_Rotate(R, xb[k]), t);
        rot = icQuat_Identity();
        icRod_FitSimilarity(N, x, NULL, NULL, xb, NULL, NULL, true, &rot, &s, &tt);
        worstRigid = fmax(
            worstRigid, sqrt(icMat3_NormSquared(icMat3_Sub(icQuat_ToMat3(rot), icQuat_ToMat3(R)))));
        IC_CHECK(s == 1);
    }
    printf("  50 similarities: |R - R*| %.1e, |sigma - sigma*| %.1e, |t - t*| %.1e; rigid %.1e\n",
           worstR, worstS, worstT, worstRigid);
    IC_CHECK(worstR < 1e-9);
    IC_CHECK(worstS < 1e-9);
    IC_CHECK(worstT < 1e-9);
    IC_CHECK(worstRigid < 1e-9);
}

// The iterative rotation agrees with the polar decomposition of S.
IC_TEST(rod, extract_rotation_polar) {
    icTest_Seed(42);
    double worst = 0;
    for (int trial = 0; trial < 100; ++trial) {
        icMat3 S;
        for (int c = 0; c < 3; ++c)
            S.col[c] =
                icVec3_Make(icTest_Uniform(-1, 1), icTest_Uniform(-1, 1), icTest_Uniform(-1, 1));
        if (icMat3_Det(S) < 0.05) continue; // the polar rotation of S is then unique and proper
        icMat3 R;
        icMat3_Polar(S, &R, NULL);
        icQuat q = icRod_ExtractRotation(S, icQuat_Identity(), 200, 1e-14);
        worst = fmax(worst, sqrt(icMat3_NormSquared(icMat3_Sub(icQuat_ToMat3(q), R))));
    }
    printf("  Mueller et al. 2016 rotation vs polar decomposition: %.1e\n", worst);
    IC_CHECK(worst < 1e-8);
}

IC_TEST(rod, hungarian_brute_force) {
    icTest_Seed(43);
    for (int trial = 0; trial < 40; ++trial) {
        int n = 1 + trial % 6;
        icReal cost[36];
        for (int i = 0; i < n * n; ++i) cost[i] = icTest_Uniform(0, 10);
        int assign[6];
        icReal total = icRod_Hungarian(n, cost, assign);
        // every permutation by Heap's algorithm
        int perm[6], c[6] = {0};
        for (int i = 0; i < n; ++i) perm[i] = i;
        double best = 0;
        for (int i = 0; i < n; ++i) best += cost[i * n + perm[i]];
        for (int i = 0; i < n;) {
            if (c[i] < i) {
                int j = i % 2 == 0 ? 0 : c[i], tmp = perm[j];
                perm[j] = perm[i];
                perm[i] = tmp;
                double sum = 0;
                for (int k = 0; k < n; ++k) sum += cost[k * n + perm[k]];
                if (sum < best) best = sum;
                ++c[i];
                i = 0;
            } else {
                c[i++] = 0;
            }
        }
        IC_CHECK_NEAR(total, best, 1e-12);
        int seen = 0;
        for (int i = 0; i < n; ++i) seen |= 1 << assign[i];
        IC_CHECK_INT(seen, (1 << n) - 1);
    }
}

IC_TEST(rod, bundle_errors_and_activation) {
    icRodWorld *w = icCreateRodWorld(NULL);
    icRodDef d = icDefaultRodDef();
    int a, b, c, bundle;
    IC_REQUIRE(icRodWorld_AddStraightRod(w, icVec3_Make(0, 0, 0), icVec3_Make(1, 0, 0), 4, &d, &a,
                                         NULL) == IC_OK);
    IC_REQUIRE(icRodWorld_AddStraightRod(w, icVec3_Make(0, 0.2, 0), icVec3_Make(1, 0.2, 0), 4, &d,
                                         &b, NULL) == IC_OK);
    IC_REQUIRE(icRodWorld_AddStraightRod(w, icVec3_Make(0, 0.4, 0), icVec3_Make(1, 0.4, 0), 5, &d,
                                         &c, NULL) == IC_OK);
    int bad[2] = {a, c}, same[2] = {a, a}, good[2] = {a, b};
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icRodWorld_AddBundle(w, bad, 2, IC_ROD_MATCHING_SCALE_INVARIANT, NULL, &diag),
                    IC_ERR_BAD_VALUE);
    IC_CHECK(strstr(diag.message, "vertices") != NULL);
    IC_CHECK_RESULT(icRodWorld_AddBundle(w, same, 2, IC_ROD_MATCHING_RIGID, NULL, NULL),
                    IC_ERR_REPEATED_INDEX);
    IC_CHECK_RESULT(
        icRodWorld_AddBundle(w, good, 2, IC_ROD_MATCHING_SCALE_INVARIANT, &bundle, NULL), IC_OK);
    IC_CHECK_INT(icRodWorld_GetRod(w, a).group, icRodWorld_GetRod(w, b).group);
    IC_CHECK_RESULT(icRodWorld_SetActivation(w, bundle, 1, 3, 1.0), IC_ERR_BAD_VALUE);
    IC_CHECK_RESULT(icRodWorld_SetActivation(w, bundle, 2, 5, 0.2), IC_ERR_INDEX_OUT_OF_RANGE);
    // a ramp from 0 at t = 0 to 0.3 at t = 0.1 s over segments 1, 2 of both rods
    IC_REQUIRE(icRodWorld_SetActivationRamp(w, bundle, 1, 3, 0.3, 0, 0.1) == IC_OK);
    icRodWorldDef def = icRodWorld_GetDef(w);
    def.gravity = icVec3_Make(0, 0, 0);
    icRodWorld_SetDef(w, &def);
    for (int f = 0; f < 3; ++f) IC_REQUIRE(icRodWorld_Step(w, 0.025, NULL) == IC_OK);
    const icReal *l = icRodWorld_GetRestLengths(w);
    icRodRange rb = icRodWorld_GetRod(w, b);
    IC_CHECK_NEAR(l[rb.segmentStart + 1], 0.25 * (1 - 0.3 * 0.75), 1e-12);
    IC_CHECK_NEAR(l[rb.segmentStart + 0], 0.25, 1e-15);
    IC_CHECK_NEAR(l[rb.segmentStart + 3], 0.25, 1e-15);
    for (int f = 0; f < 3; ++f) IC_REQUIRE(icRodWorld_Step(w, 0.025, NULL) == IC_OK);
    IC_CHECK_NEAR(l[rb.segmentStart + 2], 0.25 * 0.7, 1e-12);
    icDestroyRodWorld(w);
}

// Bones: pinned ends follow them; the linear-blend warm start carries the free vertices along
// without injecting velocity (Angles et al. 2019, sec. 8.2), so the rod translates rigidly.
IC_TEST(rod, bone_warm_start) {
    double lag[2];
    for (int warm = 0; warm < 2; ++warm) {
        icRodWorldDef wd = icDefaultRodWorldDef();
        wd.gravity = icVec3_Make(0, 0, 0);
        icRodWorld *w = icCreateRodWorld(&wd);
        icRodDef d = icDefaultRodDef();
        IC_REQUIRE(icRodWorld_AddStraightRod(w, icVec3_Make(0, 0, 0), icVec3_Make(1, 0, 0), 8, &d,
                                             NULL, NULL) == IC_OK);
        icMotion mo = icDefaultMotion();
        mo.velocity = icVec3_Make(0, 2, 0);
        int bone0, bone1;
        IC_REQUIRE(icRodWorld_AddBone(w, &mo, 1, &bone0) == IC_OK);
        IC_REQUIRE(icRodWorld_AddBone(w, &mo, 1, &bone1) == IC_OK);
        IC_REQUIRE(icRodWorld_PinVertex(w, 0, bone0, false) == IC_OK);
        IC_REQUIRE(icRodWorld_PinVertex(w, 8, bone1, false) == IC_OK);
        if (warm)
            for (int i = 1; i < 8; ++i)
                IC_REQUIRE(icRodWorld_SetBoneWeights(w, i, bone0, bone1, 1 - i / 8.0) == IC_OK);
        for (int f = 0; f < 10; ++f) IC_REQUIRE(icRodWorld_Step(w, 0.01, NULL) == IC_OK);
        const icReal *x = icRodWorld_GetPositions(w);
        lag[warm] = 0;
        for (int i = 0; i <= 8; ++i) lag[warm] = fmax(lag[warm], fabs(x[3 * i + 1] - 0.2));
        IC_CHECK_NEAR(x[1], 0.2, 1e-12); // the pinned end is on its bone
        icDestroyRodWorld(w);
    }
    printf("  rod carried 0.2 m by two bones: largest lag without warm start %.2e m, with %.2e m\n",
           lag[0], lag[1]);
    IC_CHECK(lag[0] > 1e-3);
    IC_CHECK(lag[1] < 1e-9);
}

// A skin follows any similarity of the whole rod exactly: bones are per-pill-end similarities.
IC_TEST(rod, skin_follows_similarity) {
    int64_t bytes = icGetByteCount();
    icRodWorld *w = icCreateRodWorld(NULL);
    int rod;
    IC_REQUIRE(icRodWorld_AddOctopus(w, icVec3_Make(0.3, 1, -0.2), 1, &rod, NULL) == IC_OK);
    icRodSurface mesh;
    IC_REQUIRE(icRodWorld_RestSurface(w, rod, 0.12, 0.03, 0.12, &mesh) == IC_OK);
    icRodSkinDef sd = icDefaultRodSkinDef();
    sd.mesh = &mesh;
    sd.rod = rod;
    int skin;
    IC_REQUIRE(icRodWorld_AddSkin(w, &sd, &skin, NULL) == IC_OK);
    // weights: at most 4, non-negative, summing to 1, the heaviest on a pill near the vertex
    int bad = 0, far = 0;
    for (int v = 0; v < mesh.vertexCount; ++v) {
        int seg[4], end[4];
        icReal wt[4];
        int n = icRodWorld_GetSkinWeights(w, skin, v, seg, end, wt);
        double sum = 0;
        for (int k = 0; k < n; ++k) sum += wt[k], bad += wt[k] < 0;
        bad += n < 1 || n > 4 || fabs(sum - 1) > 1e-12;
        const icReal *x = icRodWorld_GetRestPositions(w), *r = icRodWorld_GetRestRadii(w);
        const int *s = icRodWorld_GetSegments(w);
        int e = seg[0];
        icReal d =
            icPill_PointDistance(icVec3_Load(mesh.positions, v), icVec3_Load(x, s[2 * e]),
                                 r[s[2 * e]], icVec3_Load(x, s[2 * e + 1]), r[s[2 * e + 1]], NULL);
        far += d > 0.2;
    }
    printf("  octopus skin: %d vertices, %d triangles; %d bad weight rows, %d vertices whose "
           "heaviest pill is > 0.2 m away\n",
           mesh.vertexCount, mesh.triangleCount, bad, far);
    IC_CHECK_INT(bad, 0);
    IC_CHECK(far < mesh.vertexCount / 100);
    // rest pose reproduces the mesh
    int vc;
    const icReal *p;
    icRodWorld_GetSkin(w, skin, &vc, &p, NULL, NULL);
    double restErr = 0;
    for (int i = 0; i < 3 * vc; ++i) restErr = fmax(restErr, fabs(p[i] - mesh.positions[i]));
    // x -> s R x + t, r -> s r, q -> R q
    icQuat R = icQuat_FromRotationVector(icVec3_Make(0.3, -1.1, 0.5));
    double s = 1.7;
    icVec3 t = icVec3_Make(0.5, -2, 1);
    icReal *x = icRodWorld_GetPositionsMutable(w), *r = icRodWorld_GetRadiiMutable(w);
    for (int i = 0; i < icRodWorld_GetVertexCount(w); ++i) {
        icVec3_Store(x, i, icVec3_Add(icVec3_Scale(s, icQuat_Rotate(R, icVec3_Load(x, i))), t));
        r[i] *= s;
    }
    for (int e = 0; e < icRodWorld_GetSegmentCount(w); ++e)
        icQuat_Store(w->state.q, e, icQuat_Mul(R, icQuat_Load(w->state.q, e)));
    icRodWorld_UpdateSkins(w);
    icRodWorld_GetSkin(w, skin, &vc, &p, NULL, NULL);
    double err = 0;
    for (int i = 0; i < vc; ++i) {
        icVec3 expected =
            icVec3_Add(icVec3_Scale(s, icQuat_Rotate(R, icVec3_Load(mesh.positions, i))), t);
        err = fmax(err, icVec3_Distance(icVec3_Load(p, i), expected));
    }
    printf("  rest pose error %.1e m, similarity error %.1e m\n", restErr, err);
    IC_CHECK(restErr < 1e-12);
    IC_CHECK(err < 1e-12);
    icRodSurface_Destroy(&mesh);
    icDestroyRodWorld(w);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(rod, viperize_fusiform) {
    icRodSurface mesh;
    IC_REQUIRE(icRodFusiformSurface(1, 0.15, 0.04, 32, 24, &mesh) == IC_OK);
    unsigned char *src = calloc((size_t)mesh.vertexCount, 1),
                  *snk = calloc((size_t)mesh.vertexCount, 1);
    for (int i = 0; i < mesh.vertexCount; ++i) {
        src[i] = mesh.positions[3 * i + 2] <= 1e-9;
        snk[i] = mesh.positions[3 * i + 2] >= 1 - 1e-9;
    }
    icViperizeDef d = icDefaultViperizeDef();
    d.mesh = &mesh;
    d.source = src;
    d.sink = snk;
    icViperizeResult r;
    icDiagnostic diag = {0};
    IC_REQUIRE(icViperize(&d, &r, &diag) == IC_OK);
    IC_CHECK_INT(r.rodCount, 7);
    IC_CHECK_INT(r.sliceCount, 9);
    double least = INFINITY, uLo = INFINITY, uHi = -INFINITY;
    for (int i = 0; i < 7 * 9; ++i)
        least = fmin(least, icRodSurface_Winding(&mesh, icVec3_Load(r.positions, i)));
    for (int i = 0; i < mesh.vertexCount; ++i) {
        uLo = fmin(uLo, r.field[i]);
        uHi = fmax(uHi, r.field[i]);
        if (src[i]) IC_CHECK(r.field[i] == 0);
        if (snk[i]) IC_CHECK(r.field[i] == 1);
    }
    // the field is symmetric about the middle of the muscle: its slices are planes z = const
    double tilt = 0;
    for (int k = 0; k < 7; ++k) tilt = fmax(tilt, fabs(r.positions[3 * (k * 9 + 4) + 2] - 0.5));
    printf("  7 x 9 rods: total length %.4f m before combing, %.4f m after (%d rounds); smallest "
           "winding number %.4f; middle slice at |z - 0.5| <= %.1e; radii %.4f .. %.4f\n",
           r.lengthUncombed, r.lengthCombed, r.alternationsDone, least, tilt, r.radii[0],
           r.radii[4]);
    IC_CHECK(least > 0.999);
    IC_CHECK(r.lengthCombed <= r.lengthUncombed);
    IC_CHECK(uLo >= 0 && uHi <= 1);
    IC_CHECK(tilt < 1e-3);
    IC_CHECK(r.radii[4] > r.radii[0]);
    icViperizeResult_Destroy(&r);
    // no sink: refused
    memset(snk, 0, (size_t)mesh.vertexCount);
    IC_CHECK_RESULT(icViperize(&d, &r, &diag), IC_ERR_BAD_VALUE);
    free(src);
    free(snk);
    icRodSurface_Destroy(&mesh);
}
