// SPDX-License-Identifier: MIT
// The VIPER experiments (after Angles et al. 2019, Figs. 6-16) run from scenes/viper/ with
// their checks; docs/viper.md lists the figures these tests print.
#include "test.h"

#include "isochor/io.h"
#include "isochor/rod.h"
#include "render/plot.h"
#include "rod/rod_internal.h"

#include <stdint.h>
#include <stdlib.h>

static bool loadScene(const char *name, icScene *scene) {
    char relative[256];
    IC_FORMAT(relative, "scenes/viper/%s", name);
    icDiagnostic diag = {0};
    icResult r = icScene_Load(icTest_SourcePath(relative), scene, &diag);
    if (r != IC_OK) {
        char text[1400];
        icDiag_Format(&diag, text, sizeof text);
        icTest_Fail(__FILE__, __LINE__, "%s", text);
        return false;
    }
    if (!scene->rods) {
        icTest_Fail(__FILE__, __LINE__, "%s has no rods", name);
        icScene_Destroy(scene);
        return false;
    }
    return true;
}

static bool stepRods(icScene *scene, icRodStepStats *stats) {
    icRodStepStats local;
    icResult r = icRodWorld_Step(scene->rods, scene->dt, stats ? stats : &local);
    if (r != IC_OK) icTest_Fail(__FILE__, __LINE__, "rod step failed: %s", icResult_Name(r));
    return r == IC_OK;
}

static double segLength(const icReal *x, int a, int b) {
    return icVec3_Distance(icVec3_Load(x, a), icVec3_Load(x, b));
}

// Relative length error sum |l - lbar| / sum lbar and the relative error of the conserved
// midpoint measure sum r_m^2 l (Angles et al. 2019, Fig. 13), over rod 0.
static void rodErrors(const icRodWorld *w, double *lengthError, double *volumeError) {
    icRodRange r = icRodWorld_GetRod(w, 0);
    const int *seg = icRodWorld_GetSegments(w);
    const icReal *x = icRodWorld_GetPositions(w), *x0 = icRodWorld_GetRestPositions(w);
    const icReal *rad = icRodWorld_GetRadii(w), *r0 = icRodWorld_GetRestRadii(w);
    double dl = 0, l0 = 0, v = 0, v0 = 0;
    for (int e = r.segmentStart; e < r.segmentStart + r.segmentCount; ++e) {
        int a = seg[2 * e], b = seg[2 * e + 1];
        double l = segLength(x, a, b), lb = segLength(x0, a, b);
        double rm = 0.5 * (rad[a] + rad[b]), rb = 0.5 * (r0[a] + r0[b]);
        dl += fabs(l - lb);
        l0 += lb;
        v += rm * rm * l;
        v0 += rb * rb * lb;
    }
    *lengthError = dl / l0;
    *volumeError = fabs(v - v0) / v0;
}

// Scene 1: the length error grows to 1 (twice the length) while the volume error stays small;
// without radius springs the radii reach rbar / sqrt(2). A PNG plot of both errors.
IC_TEST(rod, scene_rod_stretch) {
    const char *files[2] = {"rod_stretch.json", "rod_stretch_hard.json"};
    double t[130], le[2][130], ve[2][130];
    for (int k = 0; k < 2; ++k) {
        icScene scene;
        IC_REQUIRE(loadScene(files[k], &scene));
        IC_REQUIRE(scene.frames == 130);
        double worst = 0;
        for (int f = 0; f < 130; ++f) {
            IC_REQUIRE(stepRods(&scene, NULL));
            t[f] = icRodWorld_GetTime(scene.rods);
            rodErrors(scene.rods, &le[k][f], &ve[k][f]);
            if (ve[k][f] > worst) worst = ve[k][f];
        }
        const icReal *r = icRodWorld_GetRadii(scene.rods);
        double mean = 0;
        for (int i = 1; i < 10; ++i) mean += r[i] / 9;
        printf("  %s: length error %.3f at 50 steps, %.4f at the end; volume error max %.2e; "
               "interior radius %.5f (rbar / sqrt 2 = %.5f)\n",
               files[k], le[k][49], le[k][129], worst, mean, 0.05 / sqrt(2));
        IC_CHECK_NEAR(le[k][129], 1.0, 0.01);
        IC_CHECK(le[k][49] > 0.45 && le[k][49] < 0.55); // grows with the pull
        IC_CHECK_MSG(worst < (k == 0 ? 0.02 : 2e-3), "%s: volume error %g", files[k], worst);
        if (k == 1) IC_CHECK_NEAR(mean, 0.05 / sqrt(2), 0.01 * 0.05 / sqrt(2));
        icScene_Destroy(&scene);
    }
    icPlotSeries s[3] = {{"LENGTH ERROR", 130, t, le[0], {200, 60, 40}},
                         {"VOLUME ERROR", 130, t, ve[0], {40, 90, 200}},
                         {"VOLUME, HARD", 130, t, ve[1], {60, 160, 80}}};
    icPlotDef def = {0};
    def.title = "ROD STRETCH";
    def.logY = true;
    char path[1024];
    IC_FORMAT(path, "%s/rod_stretch.png", icTest_TempDir());
    IC_CHECK_RESULT(icPlot_SavePng(path, &def, s, 3, NULL), IC_OK);
    icImage im;
    IC_REQUIRE(icImage_LoadPng(&im, path, NULL) == IC_OK);
    IC_CHECK_INT(im.width, 720);
    // some pixels carry the length curve's colour
    int red = 0;
    for (int i = 0; i < im.width * im.height; ++i)
        red += im.rgb[3 * i] == 200 && im.rgb[3 * i + 1] == 60 && im.rgb[3 * i + 2] == 40;
    IC_CHECK(red > 100);
    icImage_Destroy(&im);
}

// Scene 2: energies after K Jacobi passes in one step; the volume energy falls like K^-1,
// the stretch energy saturates (the rod cannot be at its rest length).
IC_TEST(rod, scene_convergence) {
    double K[12], Es[12], Ev[12];
    int n = 0;
    for (int k = 1; k <= 2048; k *= 2, ++n) {
        icScene scene;
        IC_REQUIRE(loadScene("convergence.json", &scene));
        icRodWorldDef d = icRodWorld_GetDef(scene.rods);
        d.iterations = k;
        d.collisionOnlyOddPasses = false;
        IC_REQUIRE(icRodWorld_SetDef(scene.rods, &d) == IC_OK);
        IC_REQUIRE(stepRods(&scene, NULL));
        icRodResiduals res = icRodWorld_GetResiduals(scene.rods);
        K[n] = k;
        Es[n] = res.stretch;
        Ev[n] = res.volume;
        icScene_Destroy(&scene);
    }
    // least-squares slope of log Ev against log K over K = 16 .. 512
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (K[i] < 16 || K[i] > 512) continue;
        double x = log(K[i]), y = log(Ev[i]);
        sx += x, sy += y, sxx += x * x, sxy += x * y, ++m;
    }
    double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    printf("  volume energy: K = 1: %.3g, 16: %.3g, 512: %.3g, 2048: %.3g; log-log slope over "
           "16..512 %.3f\n",
           Ev[0], Ev[4], Ev[9], Ev[11], slope);
    printf("  stretch energy: K = 1: %.3f, 512: %.3f, 2048: %.3f (saturates at 10 = 10 pills at "
           "strain 1)\n",
           Es[0], Es[9], Es[11]);
    IC_CHECK_MSG(slope < -0.7 && slope > -1.5, "slope %g", slope);
    IC_CHECK_NEAR(Es[11], 10.0, 0.05);
    IC_CHECK(Es[0] > 3 * Es[11]);
    IC_CHECK(Ev[11] > 0); // the radius springs compete: not zero
}

// Scene 3: the radius bump travels at a finite speed while the total length stays.
IC_TEST(rod, scene_shockwave) {
    icScene scene;
    IC_REQUIRE(loadScene("shockwave.json", &scene));
    int peak[121] = {0};
    double worstLength = 0;
    for (int f = 1; f <= 80; ++f) {
        IC_REQUIRE(stepRods(&scene, NULL));
        const icReal *r = icRodWorld_GetRadii(scene.rods), *x = icRodWorld_GetPositions(scene.rods);
        double best = 0, L = 0;
        for (int i = 0; i <= 40; ++i)
            if (fabs(r[i] - 0.05) > best) best = fabs(r[i] - 0.05), peak[f] = i;
        for (int i = 0; i < 40; ++i) L += segLength(x, i, i + 1);
        if (fabs(L - 2) > worstLength) worstLength = fabs(L - 2);
    }
    printf("  bump at vertex %d (frame 4), %d (20), %d (40), %d (60), %d (80); |length - 2| <= "
           "%.1e\n",
           peak[4], peak[20], peak[40], peak[60], peak[80], worstLength);
    IC_CHECK(peak[20] >= 3 && peak[20] <= 12);
    IC_CHECK(peak[40] > peak[20] + 3);
    IC_CHECK(peak[60] > peak[40] + 3);
    IC_CHECK(peak[80] > peak[60] + 3 && peak[80] < 40);
    IC_CHECK(worstLength < 1e-6);
    icScene_Destroy(&scene);
}

// Scene 4: VIPER's radii respond to a squeeze and keep oscillating; Bergou's radius update is
// a function of the lengths (no response to the squeeze, damped look).
IC_TEST(rod, scene_bergou) {
    const char *files[2] = {"oscillation_viper.json", "oscillation_bergou.json"};
    double dev[2] = {0, 0}, first[2] = {0, 0}, spread[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
        icScene scene;
        IC_REQUIRE(loadScene(files[k], &scene));
        double rmid[121], mean = 0;
        for (int f = 1; f <= 120; ++f) {
            IC_REQUIRE(stepRods(&scene, NULL));
            const icReal *x = icRodWorld_GetPositions(scene.rods),
                         *r = icRodWorld_GetRadii(scene.rods);
            for (int i = 1; i < 20; ++i) {
                double l = 0.5 * (segLength(x, i, i + 1) + segLength(x, i - 1, i));
                double d = fabs(r[i] - 0.05 * sqrt(0.05 / l));
                if (d > dev[k]) dev[k] = d;
                if (f == 1 && d > first[k]) first[k] = d;
            }
            rmid[f] = r[10];
            if (f > 60) mean += r[10] / 60;
        }
        for (int f = 61; f <= 120; ++f) spread[k] += (rmid[f] - mean) * (rmid[f] - mean) / 60;
        spread[k] = sqrt(spread[k]);
        icScene_Destroy(&scene);
    }
    printf("  squeeze: |r - rbar sqrt(lbar / l)| after one step: VIPER %.2e m, Bergou %.2e m; "
           "largest over the run: VIPER %.2e m, Bergou %.2e m\n",
           first[0], first[1], dev[0], dev[1]);
    printf(
        "  middle radius oscillation (std over the second second): VIPER %.2e m, Bergou %.2e m\n",
        spread[0], spread[1]);
    IC_CHECK(first[0] > 1e-4);
    IC_CHECK(first[1] < 1e-12);
    IC_CHECK(dev[0] > 5e-5);
    IC_CHECK(dev[1] < 1e-12);
    IC_CHECK_MSG(spread[0] > 1.3 * spread[1], "VIPER %g, Bergou %g", spread[0], spread[1]);
}

// Scene 5: the rod sheet and the tet sheet stretched alike thin alike and keep their volume.
IC_TEST(rod, scene_sheet) {
    icScene scene;
    IC_REQUIRE(loadScene("sheet.json", &scene));
    IC_REQUIRE(icWorld_GetTetCount(scene.world) > 0);
    for (int f = 0; f < scene.frames; ++f) {
        icStepStats st;
        IC_REQUIRE(icWorld_Step(scene.world, scene.dt, &st) == IC_OK);
        IC_REQUIRE(stepRods(&scene, NULL));
    }
    // widths (z extent) along the sheet at rest x = 0.25, 0.5, 0.75 (rod vertices 5, 10, 15)
    const icReal *x = icWorld_GetPositions(scene.world),
                 *x0 = icWorld_GetRestPositions(scene.world);
    int nv = icWorld_GetVertexCount(scene.world);
    const icReal *rx = icRodWorld_GetPositions(scene.rods), *rr = icRodWorld_GetRadii(scene.rods);
    double worst = 0;
    for (int s = 1; s <= 3; ++s) {
        double zlo = INFINITY, zhi = -INFINITY;
        for (int i = 0; i < nv; ++i)
            if (fabs(x0[3 * i] - 0.25 * s) < 1e-6) {
                zlo = fmin(zlo, x[3 * i + 2]);
                zhi = fmax(zhi, x[3 * i + 2]);
            }
        int j = 5 * s;
        double rodWidth = (rx[3 * (84 + j) + 2] + rr[84 + j]) - (rx[3 * j + 2] - rr[j]);
        double tetWidth = zhi - zlo;
        printf("  width at rest x = %.2f: tets %.4f, rods %.4f (of 0.5; 1 / sqrt(1.5) = 0.8165)\n",
               0.25 * s, tetWidth / 0.5, rodWidth / 0.5);
        double e = fabs(rodWidth - tetWidth) / tetWidth;
        if (e > worst) worst = e;
    }
    double vt = icWorld_GetVolumeRatio(scene.world);
    double vr = icRodWorld_GetVolume(scene.rods, 0, 5, false) /
                icRodWorld_GetVolume(scene.rods, 0, 5, true);
    printf("  V/V0: tets %.4f, rods %.4f\n", vt, vr);
    IC_CHECK_MSG(worst < 0.04, "widths differ by %g", worst);
    IC_CHECK_NEAR(vt, 1.0, 0.02);
    IC_CHECK_NEAR(vr, 1.0, 0.01);
    icScene_Destroy(&scene);
}

// Mean distance of the rod centres of slice j from their centroid.
static double sliceSpread(const icRodWorld *w, int rods, int j, bool rest) {
    const icReal *x = rest ? icRodWorld_GetRestPositions(w) : icRodWorld_GetPositions(w);
    icVec3 c = icVec3_Make(0, 0, 0);
    for (int k = 0; k < rods; ++k)
        c = icVec3_Add(c, icVec3_Load(x, icRodWorld_GetRod(w, k).vertexStart + j));
    c = icVec3_Scale(1.0 / rods, c);
    double s = 0;
    for (int k = 0; k < rods; ++k)
        s += icVec3_Distance(icVec3_Load(x, icRodWorld_GetRod(w, k).vertexStart + j), c) / rods;
    return s;
}

// Scene 6: scale-invariant matching bulges, traditional matching does not.
IC_TEST(rod, scene_contraction) {
    const char *files[2] = {"contraction_scale_invariant.json", "contraction_rigid.json"};
    double bulge[2], volume[2];
    for (int k = 0; k < 2; ++k) {
        icScene scene;
        IC_REQUIRE(loadScene(files[k], &scene));
        for (int f = 0; f < scene.frames; ++f) IC_REQUIRE(stepRods(&scene, NULL));
        bulge[k] = sliceSpread(scene.rods, 7, 4, false) / sliceSpread(scene.rods, 7, 4, true);
        volume[k] = icRodWorld_GetVolume(scene.rods, 0, 7, false) /
                    icRodWorld_GetVolume(scene.rods, 0, 7, true);
        icScene_Destroy(&scene);
    }
    printf("  middle cross-section spread: scale-invariant %.4f, rigid %.4f; V/V0 %.4f, %.4f\n",
           bulge[0], bulge[1], volume[0], volume[1]);
    IC_CHECK(bulge[0] > 1.1);
    IC_CHECK_NEAR(bulge[1], 1.0, 0.01);
    IC_CHECK_NEAR(volume[0], 1.0, 0.03);
    IC_CHECK_NEAR(volume[1], 1.0, 0.03);
}

// Scene 7: the octopus pile stays finite and its pills do not sink into each other.
IC_TEST(rod, scene_octopus) {
    int64_t bytes = icGetByteCount();
    icScene scene;
    IC_REQUIRE(loadScene("octopus.json", &scene));
    icRodWorld *w = scene.rods;
    IC_CHECK_INT(icRodWorld_GetRodCount(w), 125);
    IC_CHECK_INT(icRodWorld_GetSegmentCount(w), 100 * 37 + 25);
    IC_CHECK_INT(icRodWorld_GetSkinCount(w), 1);
    double worst = 0, ymin = INFINITY;
    int contacts = 0;
    for (int f = 0; f < 75; ++f) {
        icRodStepStats st;
        IC_REQUIRE(stepRods(&scene, &st));
        IC_CHECK(!st.nan);
        if (st.maxPenetration > worst) worst = st.maxPenetration;
        contacts += st.contacts;
    }
    const icReal *x = icRodWorld_GetPositions(w), *r = icRodWorld_GetRadii(w);
    const icReal *invMass = icRodWorld_GetInverseMasses(w);
    for (int i = 0; i < icRodWorld_GetVertexCount(w); ++i)
        if (invMass[i] > 0) ymin = fmin(ymin, x[3 * i + 1] - r[i]); // the octopuses, not pillars
    icRodWorld_UpdateSkins(w);
    int vc;
    const icReal *skin;
    icRodWorld_GetSkin(w, 0, &vc, &skin, NULL, NULL);
    bool finite = true;
    for (int i = 0; i < 3 * vc; ++i) finite = finite && isfinite(skin[i]);
    printf("  75 frames: deepest pill overlap after a step %.4f m, %d contacts, lowest octopus "
           "sphere bottom %.4f m, skin %d vertices\n",
           worst, contacts, ymin, vc);
    IC_CHECK(contacts > 0);
    // heads (r ~ 0.55 m) falling onto heads at ~10 m/s overlap by up to 8 cm with the demo's
    // K = 10 passes (3 cm with K = 20, docs/viper.md)
    IC_CHECK_MSG(worst < 0.1, "overlap %g m", worst);
    IC_CHECK(ymin > -1e-3);
    IC_CHECK(finite);
    icScene_Destroy(&scene);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Scene 8: the viperized muscle's rods start inside its surface and stay inside the skinned
// surface while it contracts.
IC_TEST(rod, scene_viperized_muscle) {
    icScene scene;
    IC_REQUIRE(loadScene("viperized_muscle.json", &scene));
    icRodWorld *w = scene.rods;
    IC_REQUIRE(icRodWorld_GetRodCount(w) == 7 && icRodWorld_GetSkinCount(w) == 1);
    icRodSurface surf = {0};
    const icReal *positions;
    const int *tris;
    for (int pass = 0; pass < 2; ++pass) {
        icRodWorld_UpdateSkins(w);
        icRodWorld_GetSkin(w, 0, &surf.vertexCount, &positions, &surf.triangleCount, &tris);
        surf.positions = (icReal *)positions;
        surf.triangles = (int *)tris;
        double least = INFINITY;
        const icReal *x = icRodWorld_GetPositions(w);
        for (int i = 0; i < icRodWorld_GetVertexCount(w); ++i)
            least = fmin(least, icRodSurface_Winding(&surf, icVec3_Load(x, i)));
        printf("  %s: smallest winding number of the skin at a rod vertex %.4f\n",
               pass == 0 ? "at rest" : "after 60 contracting frames", least);
        IC_CHECK(least > 0.99);
        for (int f = 0; pass == 0 && f < 60; ++f) IC_REQUIRE(stepRods(&scene, NULL));
    }
    icScene_Destroy(&scene);
}

// icScene_Run with a scene of rods only: VTU, OBJ and PVD files appear for the rods.
IC_TEST(rod, scene_run_outputs) {
    const char *text =
        "{\"dt\": 0.01, \"frames\": 4, \"gravity\": [0, -9.81, 0],"
        " \"colliders\": [{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0}}],"
        " \"rods\": [{\"helix\": {\"center\": [0, 0.5, 0], \"segments\": 30, \"radius\": 0.03}},"
        "            {\"octopus\": {\"count\": 1, \"origin\": [3, 1, 0],"
        "                         \"skin\": {\"cell\": 0.15}}},"
        "            {\"link\": {\"kind\": \"max_distance\", \"a\": [0, -1], \"b\": [1, 0],"
        "                      \"rest\": 2.6}}],"
        " \"output\": {\"every\": 2, \"format\": [\"vtu\", \"obj\"]}}";
    int64_t bytes = icGetByteCount();
    icScene scene;
    icDiagnostic diag = {0};
    IC_REQUIRE(icScene_LoadString(text, "rods", ".", &scene, &diag) == IC_OK);
    IC_CHECK_INT(icWorld_GetVertexCount(scene.world), 0);
    icRunOptions opt = icDefaultRunOptions();
    opt.outputDir = icTest_TempDir();
    icRunSummary sum;
    IC_CHECK_RESULT(icScene_Run(&scene, &opt, &sum, &diag), IC_OK);
    IC_CHECK_INT(sum.frames, 4);
    const char *files[] = {"rods_00000.vtu",  "rods_00004.vtu", "pills_00002.vtu",
                           "pills_00004.obj", "skin_00004.vtu", "skin_00000.obj",
                           "rods.pvd",        "pills.pvd",      "skin.pvd"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        char path[1200];
        IC_FORMAT(path, "%s/%s", opt.outputDir, files[i]);
        FILE *fp = fopen(path, "rb");
        IC_CHECK_MSG(fp != NULL, "%s missing", files[i]);
        if (fp) fclose(fp);
    }
    // the rods moved under gravity and met the floor; the link was read
    const icReal *x = icRodWorld_GetPositions(scene.rods);
    IC_CHECK(x[1] < 0.5);
    IC_CHECK_INT(scene.rods->model.linkCount, 1);
    icScene_Destroy(&scene);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Errors of the "rods" key name the JSON path and line with the exact code.
IC_TEST(rod, scene_errors) {
    struct {
        const char *text, *path;
        icResult code;
    } cases[] = {
        {"{\"dt\": 0.01, \"rods\": [{\"straigt\": {}}]}", "rods[0].straigt", IC_ERR_UNKNOWN_KEY},
        {"{\"dt\": 0.01, \"rods\": [{\"straight\": {\"end\": [1, 0, 0]}}]}",
         "rods[0].straight.start", IC_ERR_MISSING_KEY},
        {"{\"dt\": 0.01, \"rods\": [{\"straight\": {\"start\": [0, 0, 0], \"end\": [1, 0, 0],\n"
         " \"radius\": -1}}]}",
         "rods[0].straight.radius", IC_ERR_BAD_VALUE},
        {"{\"dt\": 0.01, \"rods\": [{\"straight\": {\"start\": [0, 0, 0], \"end\": [1, 0, 0],"
         " \"pin\": [{\"vertices\": [11]}]}}]}",
         "rods[0].straight.pin[0].vertices[0]", IC_ERR_INDEX_OUT_OF_RANGE},
        {"{\"dt\": 0.01, \"rods\": [{\"solver\": {\"radius_model\": \"x\"}}]}",
         "rods[0].solver.radius_model", IC_ERR_BAD_VALUE},
        {"{\"dt\": 0.01, \"rods\": [{\"rod\": {\"points\": [[0, 0, 0], [0, 0, 0]]}}]}",
         "rods[0].rod", IC_ERR_DEGENERATE_ELEMENT},
        {"{\"dt\": 0.01, \"rods\": {}}", "rods", IC_ERR_BAD_VALUE},
        {"{\"dt\": 0.01}", "bodies", IC_ERR_MISSING_KEY},
    };
    int64_t bytes = icGetByteCount();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        icScene scene;
        icDiagnostic diag = {0};
        IC_CHECK_RESULT(icScene_LoadString(cases[i].text, "bad", ".", &scene, &diag),
                        cases[i].code);
        IC_CHECK_MSG(strstr(diag.message, cases[i].path) != NULL, "case %zu: '%s' lacks '%s'", i,
                     diag.message, cases[i].path);
        IC_CHECK(scene.rods == NULL && scene.world == NULL);
    }
    // a line number for a value on the second line
    icScene scene;
    icDiagnostic diag = {0};
    icScene_LoadString(cases[2].text, "bad", ".", &scene, &diag);
    IC_CHECK_INT(diag.line, 2);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// FNV-1a of the rod state's bytes.
static uint64_t stateHash(const icRodWorld *w) {
    uint64_t h = 1469598103934665603ull;
    int nv = icRodWorld_GetVertexCount(w), ns = icRodWorld_GetSegmentCount(w);
    const unsigned char *p[3] = {(const unsigned char *)icRodWorld_GetPositions(w),
                                 (const unsigned char *)icRodWorld_GetRadii(w),
                                 (const unsigned char *)icRodWorld_GetFrames(w)};
    size_t n[3] = {sizeof(icReal) * 3 * (size_t)nv, sizeof(icReal) * (size_t)nv,
                   sizeof(icReal) * 4 * (size_t)ns};
    for (int a = 0; a < 3; ++a)
        for (size_t i = 0; i < n[a]; ++i) h = (h ^ p[a][i]) * 1099511628211ull;
    return h;
}

// The same bits for 1, 2 and 3 workers (pill searches and skinning run in parallel).
IC_TEST(rod, deterministic_workers) {
    const char *text =
        "{\"dt\": 0.0166667, \"colliders\": [{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0}}],"
        " \"rods\": [{\"pillars\": {\"rows\": 2, \"columns\": 2, \"spacing\": 3}},"
        "            {\"octopus\": {\"count\": 8, \"origin\": [-2, 1, -2], \"spacing\": 1.5,"
        "             \"columns\": 2, \"per_layer\": 4, \"layer_height\": 2.2}}]}";
    uint64_t hash[3];
    for (int k = 0; k < 3; ++k) {
        icScene scene;
        IC_REQUIRE(icScene_LoadString(text, "det", ".", &scene, NULL) == IC_OK);
        icRodWorldDef d = icRodWorld_GetDef(scene.rods);
        d.workerCount = k + 1;
        IC_REQUIRE(icRodWorld_SetDef(scene.rods, &d) == IC_OK);
        int contacts = 0;
        for (int f = 0; f < 70; ++f) {
            icRodStepStats st;
            IC_REQUIRE(stepRods(&scene, &st));
            contacts += st.contacts;
        }
        hash[k] = stateHash(scene.rods);
        if (k == 0) {
            printf("  8 octopuses, 70 frames, %d contacts: state hash %016llx\n", contacts,
                   (unsigned long long)hash[0]);
            IC_CHECK(contacts > 100);
        }
        icScene_Destroy(&scene);
    }
    IC_CHECK(hash[0] == hash[1]);
    IC_CHECK(hash[0] == hash[2]);
}
