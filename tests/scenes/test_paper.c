// SPDX-License-Identifier: MIT
// The XPBD paper's experiments (Macklin & Müller 2021, sec. 5) run from the shipped scenes,
// with their numbers checked. docs/results.md lists the figures these tests print.
#include "test.h"

#include "isochor/io.h"

#include <stdlib.h>

// Loads a scene from scenes/, runs `frames` frames (-1: the scene's) without output.
static bool runScene(const char *relative, int frames, icScene *scene, icRunSummary *summary) {
    icDiagnostic diag = {0};
    icResult r = icScene_Load(icTest_SourcePath(relative), scene, &diag);
    if (r != IC_OK) {
        char text[1400];
        icDiag_Format(&diag, text, sizeof text);
        icTest_Fail(__FILE__, __LINE__, "%s", text);
        return false;
    }
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    options.frames = frames;
    r = icScene_Run(scene, &options, summary, &diag);
    if (r != IC_OK) {
        icTest_Fail(__FILE__, __LINE__, "%s: run failed: %s", relative, diag.message);
        return false;
    }
    return true;
}

static double maxAbs(const icReal *a, int n, double centre) {
    double worst = 0;
    for (int i = 0; i < n; ++i)
        if (fabs(a[i] - centre) > worst) worst = fabs(a[i] - centre);
    return worst;
}

// Incompressible stretch with sliding grips: the homogeneous stretch keeps every tet exactly
// incompressible, so the hard constraints are consistent and must all be met.
IC_TEST(paper, stretch_incompressible) {
    icScene scene;
    icRunSummary s;
    IC_REQUIRE(runScene("scenes/stretch/sliding_nu0.5.json", -1, &scene, &s));
    printf("  nu 0.5, sliding grips, stretch 2.25: V/V0 %.6f, max |J-1| %.2e, %ld sweeps\n",
           s.volumeRatioFinal, s.maxAbsJMinus1, s.sweepsTotal);
    IC_CHECK_NEAR(s.volumeRatioFinal, 1.0, 1e-3);
    IC_CHECK_MSG(s.maxAbsJMinus1 < 1e-2, "max |J - 1| = %g", s.maxAbsJMinus1);
    IC_CHECK_INT(s.notConverged, 0);
    IC_CHECK_INT(s.invertedTetsFinal, 0);
    icScene_Destroy(&scene);
}

// Compressible stretch with sliding grips: every tet reaches the uniaxial closed form
// J = 1 + (mu/lambda)(1 - 1/s) (from the energy of Macklin & Müller 2021, sec. 3.3) at
// s = 4.5 / 2.
IC_TEST(paper, stretch_closed_form) {
    icScene scene;
    icRunSummary s;
    IC_REQUIRE(runScene("scenes/stretch/sliding_nu0.41.json", -1, &scene, &s));
    icReal mu, lambda;
    icLame(1e5, 0.41, &mu, &lambda);
    double expected = 1 + (mu / lambda) * (1 - 2.0 / 4.5);
    int n = icWorld_GetTetCount(scene.world);
    icReal *J = malloc(sizeof(icReal) * (size_t)n);
    icWorld_GetTetFields(scene.world, J, NULL, NULL);
    double worst = maxAbs(J, n, expected);
    printf("  nu 0.41, sliding grips: V/V0 %.6f, closed form %.6f, worst tet %.2e\n",
           s.volumeRatioFinal, expected, worst);
    // The static solve's fixed point carries XPBD's O(h^2) error (h = 1e-3 here).
    IC_CHECK_NEAR(s.volumeRatioFinal, expected, 1e-3);
    IC_CHECK_MSG(worst < 5e-3, "worst |J - closed form| = %g", worst);
    free(J);
    icScene_Destroy(&scene);
}

// Table 1 of the paper with clamped grips: the volume ratio after the stretch falls towards 1
// as nu -> 0.5. Paper (both solvers): 1.24-1.25, 1.13, 1.02, 1.01-1.03, 1.001. The paper does
// not give E, the mesh or the stretch; ours (docs/results.md) lands within 20 % of its
// volume gain V/V0 - 1.
IC_TEST(paper, stretch_clamped_table) {
    static const char *const nus[] = {"0.41", "0.45", "0.49"};
    static const double paper[] = {1.245, 1.13, 1.02};
    double previous = INFINITY;
    for (int i = 0; i < 3; ++i) {
        char path[128];
        IC_FORMAT(path, "scenes/stretch/clamped_nu%s.json", nus[i]);
        icScene scene;
        icRunSummary s;
        if (!runScene(path, -1, &scene, &s)) return;
        printf("  nu %s clamped: V/V0 %.4f (paper %.3f), %ld sweeps, %.0f ms/step\n", nus[i],
               s.volumeRatioFinal, paper[i], s.sweepsTotal, s.msPerFrame);
        IC_CHECK_INT(s.notConverged, 0);
        IC_CHECK_MSG(fabs(s.volumeRatioFinal - paper[i]) < 0.2 * (paper[i] - 1) + 0.01,
                     "nu %s: V/V0 %g vs paper %g", nus[i], s.volumeRatioFinal, paper[i]);
        IC_CHECK(s.volumeRatioFinal < previous);
        previous = s.volumeRatioFinal;
        icScene_Destroy(&scene);
    }
}

// Cube twist (Fig. 5): two 90-degree turns, each solved statically to convergence.
IC_TEST(paper, twist_two_quarter_turns) {
    icScene scene;
    icDiagnostic diag;
    IC_REQUIRE(icScene_Load(icTest_SourcePath("scenes/twist/twist_2x90.json"), &scene, &diag) == IC_OK);
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    options.frames = 1;
    for (int turn = 1; turn <= 2; ++turn) {
        icRunSummary s;
        IC_REQUIRE(icScene_Run(&scene, &options, &s, &diag) == IC_OK);
        printf("  turn %d (%d deg): %ld sweeps to converge, V/V0 %.4f, %d inverted\n", turn,
               90 * turn, s.sweepsTotal, s.volumeRatioFinal, s.invertedTetsFinal);
        IC_CHECK_INT(s.notConverged, 0);
        IC_CHECK(!s.nan);
        IC_CHECK_MSG(s.sweepsTotal < 3000, "turn %d took %ld sweeps", turn, s.sweepsTotal);
        IC_CHECK_MSG(fabs(s.volumeRatioFinal - 1) < 0.06, "V/V0 %g", s.volumeRatioFinal);
    }
    // The held top face turned by exactly 180 degrees about y.
    const icReal *x = icWorld_GetPositions(scene.world), *X = icWorld_GetRestPositions(scene.world);
    double worst = 0;
    for (int v = 0; v < icWorld_GetVertexCount(scene.world); ++v)
        if (X[3 * v + 1] > 0.499) {
            worst = fmax(worst, fabs(x[3 * v] + X[3 * v]));
            worst = fmax(worst, fabs(x[3 * v + 2] + X[3 * v + 2]));
        }
    IC_CHECK_MSG(worst < 1e-9, "top face off its 180-degree turn by %g", worst);
    icScene_Destroy(&scene);
}

// The full 360-degree twist inverts tets near the axis at the half turn, then unwinds back to
// the rest shape; the solve must stay finite.
IC_TEST(paper, twist_full_turn_stays_finite) {
    icScene scene;
    icRunSummary s;
    IC_REQUIRE(runScene("scenes/twist/twist_360.json", -1, &scene, &s));
    printf("  360 deg: V/V0 %.4f, %d inverted, %ld sweeps, %d of 4 turns unconverged\n",
           s.volumeRatioFinal, s.invertedTetsFinal, s.sweepsTotal, s.notConverged);
    IC_CHECK(!s.nan);
    IC_CHECK(isfinite(s.volumeRatioFinal) && fabs(s.volumeRatioFinal - 1) < 0.2);
    const icReal *x = icWorld_GetPositions(scene.world);
    for (int i = 0; i < 3 * icWorld_GetVertexCount(scene.world); ++i)
        if (!isfinite(x[i]) || fabs(x[i]) > 10) {
            icTest_Fail(__FILE__, __LINE__, "vertex coordinate %g left the scene", x[i]);
            break;
        }
    icScene_Destroy(&scene);
}

// Crazy cube scramble (Fig. 6): nu = 0.5, every vertex randomised in a plane; the cube
// comes back with its volume and all but (at most) one tet positive. Measured for scramble
// seeds 1-7: exactly one sliver stays folded through the bottom face, tet 4411 with 2.5e-4
// of the mean volume: un-folding it would need its neighbours to change volume for a moment,
// which the hard (nu = 0.5) constraints forbid. Other generated crazy cubes lock a median of
// 12-16 slivers in any sweep order (40 mesh seeds); docs/results.md discusses it.
IC_TEST(paper, crazy_cube_scramble) {
    icScene scene;
    icRunSummary s;
    IC_REQUIRE(runScene("scenes/crazy_cube/scramble.json", -1, &scene, &s));
    icMeshQuality q;
    icTetMesh view = {0};
    view.vertexCount = icWorld_GetVertexCount(scene.world);
    view.tetCount = icWorld_GetTetCount(scene.world);
    view.positions = (icReal *)icWorld_GetRestPositions(scene.world);
    view.tets = (int *)icWorld_GetTets(scene.world);
    icTetMesh_Quality(&view, &q);
    printf("  %d tets (min face angle %.2f deg, edge ratio %.0f:1): V/V0 %.5f, %d inverted after "
           "%d frames\n", view.tetCount, q.minFaceAngleDeg, q.maxEdgeRatio, s.volumeRatioFinal,
           s.invertedTetsFinal, s.frames);
    IC_CHECK(q.minFaceAngleDeg < 1.0 && q.maxEdgeRatio > 50);
    IC_CHECK_MSG(s.invertedTetsFinal <= 1, "%d tets stay inverted", s.invertedTetsFinal);
    IC_CHECK_NEAR(s.volumeRatioFinal, 1.0, 0.01);
    IC_CHECK(s.volumeRatioMin < 0.5); // it did start collapsed
    icScene_Destroy(&scene);
}

// Rigid alignment (Kabsch) of positions x onto rest X; returns the RMS distance left.
static double rigidResidual(const icReal *x, const icReal *X, int n) {
    icVec3 cx = {0, 0, 0}, cX = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
        cx = icVec3_Add(cx, icVec3_Load(x, i));
        cX = icVec3_Add(cX, icVec3_Load(X, i));
    }
    cx = icVec3_Scale(1.0 / n, cx);
    cX = icVec3_Scale(1.0 / n, cX);
    icMat3 H = icMat3_Zero();
    for (int i = 0; i < n; ++i)
        H = icMat3_Add(H, icMat3_Outer(icVec3_Sub(icVec3_Load(X, i), cX), icVec3_Sub(icVec3_Load(x, i), cx)));
    icSvd3 svd = icMat3_Svd(H); // H = U S V^T; R = V U^T maps rest onto current
    icMat3 R = icMat3_MulTrans(svd.V, svd.U);
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        icVec3 p = icVec3_Add(cx, icMat3_MulVec(R, icVec3_Sub(icVec3_Load(X, i), cX)));
        sum += icVec3_LengthSquared(icVec3_Sub(p, icVec3_Load(x, i)));
    }
    return sqrt(sum / n);
}

static void unfold(const char *path, double size) {
    icScene scene;
    icRunSummary s;
    IC_REQUIRE(runScene(path, -1, &scene, &s));
    double rms = rigidResidual(icWorld_GetPositions(scene.world),
                               icWorld_GetRestPositions(scene.world),
                               icWorld_GetVertexCount(scene.world));
    printf("  %s: RMS distance from the rest shape %.2e m (size %.1f m), V/V0 %.4f, %d inverted\n",
           path, rms, size, s.volumeRatioFinal, s.invertedTetsFinal);
    IC_CHECK_INT(s.invertedTetsFinal, 0);
    IC_CHECK_MSG(rms < 0.01 * size, "shape not recovered: RMS %g", rms);
    icScene_Destroy(&scene);
}

// Unfold (Fig. 8): a body collapsed into a plane and randomised recovers its shape.
IC_TEST(paper, unfold_bar) { unfold("scenes/unfold/bar.json", 1.1); }
IC_TEST(paper, unfold_sphere) { unfold("scenes/unfold/sphere.json", 1.0); }

// Crazy cube compress (Fig. 7): stretched to 4.5x its height, then compressed to a third.
// The paper: stable, volume gain below 3 % when fully stretched.
IC_TEST(paper, crazy_cube_compress) {
    icScene scene;
    icDiagnostic diag;
    IC_REQUIRE(icScene_Load(icTest_SourcePath("scenes/crazy_cube/compress.json"), &scene, &diag) == IC_OK);
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    options.frames = 120; // t = 2 s: fully stretched
    icRunSummary s;
    IC_REQUIRE(icScene_Run(&scene, &options, &s, &diag) == IC_OK);
    printf("  stretched x4.5: V/V0 %.4f (max over the stretch %.4f), %d inverted\n",
           s.volumeRatioFinal, s.volumeRatioMax, s.invertedTetsFinal);
    printf("  stretched x4.5: volume gain %.1f %%, %.1f %% of the tets inverted\n",
           100 * (s.volumeRatioMax - 1), 100.0 * s.invertedTetsFinal / icWorld_GetTetCount(scene.world));
    IC_CHECK_MSG(s.volumeRatioMax < 1.03, "volume gain %.2f %%", 100 * (s.volumeRatioMax - 1));
    options.frames = 180; // to t = 5 s: compressed to 1/3 and held
    IC_REQUIRE(icScene_Run(&scene, &options, &s, &diag) == IC_OK);
    printf("  compressed to 1/3: V/V0 %.4f, %d inverted, max |J-1| %.3g\n", s.volumeRatioFinal,
           s.invertedTetsFinal, s.maxAbsJMinus1);
    printf("  from t = 2 s to 5 s: lowest V/V0 %.4f\n", s.volumeRatioMin);
    IC_CHECK(!s.nan);
    IC_CHECK_MSG(fabs(s.volumeRatioFinal - 1) < 0.1, "V/V0 %g", s.volumeRatioFinal);
    icScene_Destroy(&scene);
}
