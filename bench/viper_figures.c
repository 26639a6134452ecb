// SPDX-License-Identifier: MIT
// The VIPER experiments' figures (docs/viper.md): runs the scenes under scenes/viper/, prints
// their numbers and writes PNG plots. Usage: bench_viper_figures [OUTPUT_DIR] (default
// docs/img under the source tree).
#include "isochor/io.h"
#include "isochor/render.h"
#include "isochor/rod.h"
#include "render/plot.h"
#include "rod/rod_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char s_out[1024];

// Sets the compliance of every radius spring; a negative value switches them off (a huge
// compliance: the constraint then has no effect).
void icRodTest_SetRadiusCompliance(icRodWorld *w, double alpha);
void icRodTest_SetRadiusCompliance(icRodWorld *w, double alpha) {
    for (int c = 0; c < w->model.radiusCount; ++c)
        w->model.radius[c].alpha = alpha < 0 ? 1e30 : alpha;
}

static icScene loadScene(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/scenes/viper/%s", IC_SOURCE_DIR, name);
    icScene scene;
    icDiagnostic diag = {0};
    if (icScene_Load(path, &scene, &diag) != IC_OK) {
        char text[1400];
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "%s\n", text);
        exit(1);
    }
    return scene;
}

static void step(icScene *scene) {
    icRodStepStats st;
    if (icRodWorld_Step(scene->rods, scene->dt, &st) != IC_OK) {
        fprintf(stderr, "step failed\n");
        exit(1);
    }
}

static void savePlot(const char *file, const icPlotDef *def, const icPlotSeries *s, int n) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", s_out, file);
    icDiagnostic diag = {0};
    if (icPlot_SavePng(path, def, s, n, &diag) != IC_OK)
        fprintf(stderr, "cannot write %s: %s\n", path, diag.message);
    else
        printf("  wrote %s\n", path);
}

// Relative length error sum |l - lbar| / sum lbar and midpoint-volume error of rod 0.
static void rodErrors(const icRodWorld *w, double *lengthError, double *volumeError) {
    icRodRange r = icRodWorld_GetRod(w, 0);
    const int *seg = icRodWorld_GetSegments(w);
    const icReal *x = icRodWorld_GetPositions(w), *rad = icRodWorld_GetRadii(w);
    const icReal *x0 = icRodWorld_GetRestPositions(w), *r0 = icRodWorld_GetRestRadii(w);
    double dl = 0, l0 = 0, v = 0, v0 = 0;
    for (int e = r.segmentStart; e < r.segmentStart + r.segmentCount; ++e) {
        int a = seg[2 * e], b = seg[2 * e + 1];
        double l = sqrt(pow(x[3 * b] - x[3 * a], 2) + pow(x[3 * b + 1] - x[3 * a + 1], 2) +
                        pow(x[3 * b + 2] - x[3 * a + 2], 2));
        double lb = sqrt(pow(x0[3 * b] - x0[3 * a], 2) + pow(x0[3 * b + 1] - x0[3 * a + 1], 2) +
                         pow(x0[3 * b + 2] - x0[3 * a + 2], 2));
        double rm = 0.5 * (rad[a] + rad[b]), rb = 0.5 * (r0[a] + r0[b]);
        dl += fabs(l - lb);
        l0 += lb;
        v += rm * rm * l;
        v0 += rb * rb * lb;
    }
    *lengthError = dl / l0;
    *volumeError = fabs(v - v0) / v0;
}

static void figureStretch(void) {
    printf("rod stretch (scenes/viper/rod_stretch.json, rod_stretch_hard.json)\n");
    const char *files[2] = {"rod_stretch.json", "rod_stretch_hard.json"};
    static double t[2][200], le[2][200], ve[2][200];
    int n = 0;
    for (int k = 0; k < 2; ++k) {
        icScene scene = loadScene(files[k]);
        n = scene.frames;
        for (int f = 0; f < n; ++f) {
            step(&scene);
            t[k][f] = icRodWorld_GetTime(scene.rods);
            rodErrors(scene.rods, &le[k][f], &ve[k][f]);
        }
        const icReal *r = icRodWorld_GetRadii(scene.rods);
        double worst = 0, mean = 0;
        for (int f = 0; f < n; ++f) worst = ve[k][f] > worst ? ve[k][f] : worst;
        for (int i = 1; i < 10; ++i) mean += r[i] / 9;
        printf("  %-22s length error %.4f, volume error %.2e at the end (max %.2e), interior "
               "radius %.5f (r / sqrt(2) = %.5f)\n",
               files[k], le[k][n - 1], ve[k][n - 1], worst, mean, 0.05 / sqrt(2));
        icScene_Destroy(&scene);
    }
    icPlotSeries s[3] = {
        {"LENGTH ERROR", n, t[0], le[0], {200, 60, 40}},
        {"VOLUME ERROR", n, t[0], ve[0], {40, 90, 200}},
        {"VOLUME, NO RADIUS SPRING", n, t[1], ve[1], {60, 160, 80}},
    };
    icPlotDef def = {0};
    def.title = "ROD STRETCH: RELATIVE ERRORS";
    def.xLabel = "TIME (S)";
    def.yLabel = "ERROR";
    def.logY = true;
    savePlot("viper_rod_stretch.png", &def, s, 3);

    // the volume error against K and the radius compliance (docs/viper.md)
    printf("  volume error at the end against passes K and radius compliance:\n");
    const double alphas[4] = {1e-3, 1e-2, 1e-1, -1};
    const int Ks[4] = {10, 20, 50, 200};
    for (int a = 0; a < 4; ++a) {
        char label[16];
        snprintf(label, sizeof label, alphas[a] < 0 ? "none" : "%g", alphas[a]);
        printf("    radius compliance %-6s", label);
        for (int k = 0; k < 4; ++k) {
            icScene scene = loadScene("rod_stretch.json");
            icRodWorldDef d = icRodWorld_GetDef(scene.rods);
            d.iterations = Ks[k];
            icRodWorld_SetDef(scene.rods, &d);
            // the compliance of every radius spring (the scene's only rod), or none
            icRodWorld *w = scene.rods;
            icRodTest_SetRadiusCompliance(w, alphas[a]);
            double lerr, verr;
            for (int f = 0; f < scene.frames; ++f) step(&scene);
            rodErrors(w, &lerr, &verr);
            printf("  K=%-4d %.1e", Ks[k], verr);
            icScene_Destroy(&scene);
        }
        printf("\n");
    }
}

static void figureConvergence(void) {
    printf("convergence (scenes/viper/convergence.json): energies after K passes of one step\n");
    static double K[13], Es[13], Ev[13];
    int n = 0;
    for (int k = 1; k <= 4096; k *= 2, ++n) {
        icScene scene = loadScene("convergence.json");
        icRodWorldDef d = icRodWorld_GetDef(scene.rods);
        d.iterations = k;
        d.collisionOnlyOddPasses = false;
        icRodWorld_SetDef(scene.rods, &d);
        step(&scene);
        icRodResiduals r = icRodWorld_GetResiduals(scene.rods);
        K[n] = k, Es[n] = r.stretch, Ev[n] = r.volume;
        printf("  K = %4d: stretch %.5g, volume %.4g\n", k, Es[n], Ev[n]);
        icScene_Destroy(&scene);
    }
    icPlotSeries s[2] = {{"STRETCH (SUM C^2)", n, K, Es, {200, 60, 40}},
                         {"VOLUME (SUM C^2)", n, K, Ev, {40, 90, 200}}};
    icPlotDef def = {0};
    def.title = "CONVERGENCE OF ONE STEP";
    def.xLabel = "PASSES K";
    def.yLabel = "ENERGY";
    def.logX = def.logY = true;
    savePlot("viper_convergence.png", &def, s, 2);
}

static void figureShockwave(void) {
    printf("volume shockwave (scenes/viper/shockwave.json): r - rbar along the rod\n");
    icScene scene = loadScene("shockwave.json");
    static double xs[5][41], ys[5][41];
    const int at[5] = {2, 15, 30, 45, 60};
    int next = 0;
    for (int f = 1; f <= 60; ++f) {
        step(&scene);
        if (f != at[next]) continue;
        const icReal *x = icRodWorld_GetPositions(scene.rods), *r = icRodWorld_GetRadii(scene.rods);
        int peak = 0;
        for (int i = 0; i <= 40; ++i) {
            xs[next][i] = x[3 * i];
            ys[next][i] = 1e3 * (r[i] - 0.05);
            if (fabs(ys[next][i]) > fabs(ys[next][peak])) peak = i;
        }
        printf("  frame %2d: largest |r - rbar| %.3f mm at x = %.2f m\n", f, fabs(ys[next][peak]),
               xs[next][peak]);
        ++next;
    }
    icScene_Destroy(&scene);
    icPlotSeries s[5];
    static char labels[5][32];
    const uint8_t colours[5][3] = {
        {40, 40, 40}, {200, 60, 40}, {220, 150, 30}, {60, 160, 80}, {40, 90, 200}};
    for (int k = 0; k < 5; ++k) {
        snprintf(labels[k], sizeof labels[k], "FRAME %d", at[k]);
        s[k] = (icPlotSeries){
            labels[k], 41, xs[k], ys[k], {colours[k][0], colours[k][1], colours[k][2]}};
    }
    icPlotDef def = {0};
    def.title = "VOLUME SHOCKWAVE";
    def.xLabel = "X (M)";
    def.yLabel = "R - RBAR (MM)";
    savePlot("viper_shockwave.png", &def, s, 5);
}

static void figureBergou(void) {
    printf("against Bergou 2010 (scenes/viper/oscillation_*.json): middle radius over time\n");
    const char *files[2] = {"oscillation_viper.json", "oscillation_bergou.json"};
    static double t[2][121], r[2][121];
    for (int k = 0; k < 2; ++k) {
        icScene scene = loadScene(files[k]);
        for (int f = 0; f < 120; ++f) {
            step(&scene);
            t[k][f] = icRodWorld_GetTime(scene.rods);
            r[k][f] = 1e3 * icRodWorld_GetRadii(scene.rods)[10];
        }
        double mean = 0, var = 0;
        for (int f = 60; f < 120; ++f) mean += r[k][f] / 60;
        for (int f = 60; f < 120; ++f) var += (r[k][f] - mean) * (r[k][f] - mean) / 60;
        printf("  %-24s middle radius over the second second: mean %.3f mm, std %.3f mm\n",
               files[k], mean, sqrt(var));
        icScene_Destroy(&scene);
    }
    icPlotSeries s[2] = {{"VIPER", 120, t[0], r[0], {40, 90, 200}},
                         {"BERGOU 2010 UPDATE", 120, t[1], r[1], {200, 60, 40}}};
    icPlotDef def = {0};
    def.title = "PULLED AND SQUEEZED ROD: MIDDLE RADIUS";
    def.xLabel = "TIME (S)";
    def.yLabel = "RADIUS (MM)";
    savePlot("viper_bergou.png", &def, s, 2);
}

// Mean distance of slice j's rod centres from their centroid over its rest value.
static double sliceSpread(const icRodWorld *w, int rods, int j) {
    double s[2];
    for (int pass = 0; pass < 2; ++pass) {
        const icReal *x = pass ? icRodWorld_GetRestPositions(w) : icRodWorld_GetPositions(w);
        double c[3] = {0, 0, 0};
        for (int k = 0; k < rods; ++k)
            for (int d = 0; d < 3; ++d)
                c[d] += x[3 * (icRodWorld_GetRod(w, k).vertexStart + j) + d] / rods;
        s[pass] = 0;
        for (int k = 0; k < rods; ++k) {
            const icReal *p = x + 3 * (icRodWorld_GetRod(w, k).vertexStart + j);
            s[pass] += sqrt(pow(p[0] - c[0], 2) + pow(p[1] - c[1], 2) + pow(p[2] - c[2], 2)) / rods;
        }
    }
    return s[0] / s[1];
}

static void figureContraction(void) {
    printf("muscle contraction (scenes/viper/contraction_*.json): cross-section spread\n");
    const char *files[2] = {"contraction_scale_invariant.json", "contraction_rigid.json"};
    static double j[2][10], spread[2][10];
    for (int k = 0; k < 2; ++k) {
        icScene scene = loadScene(files[k]);
        for (int f = 0; f < scene.frames; ++f) step(&scene);
        for (int i = 0; i < 10; ++i) {
            j[k][i] = i;
            spread[k][i] = sliceSpread(scene.rods, 7, i);
        }
        double v = icRodWorld_GetVolume(scene.rods, 0, 7, false) /
                   icRodWorld_GetVolume(scene.rods, 0, 7, true);
        printf("  %-34s spread ratio at slices 1..8:", files[k]);
        for (int i = 1; i < 9; ++i) printf(" %.3f", spread[k][i]);
        printf("; V/V0 %.4f\n", v);
        icScene_Destroy(&scene);
    }
    icPlotSeries s[2] = {{"SCALE-INVARIANT", 10, j[0], spread[0], {40, 90, 200}},
                         {"TRADITIONAL (RIGID)", 10, j[1], spread[1], {200, 60, 40}}};
    icPlotDef def = {0};
    def.title = "CONTRACTION: CROSS-SECTION SIZE";
    def.xLabel = "SLICE";
    def.yLabel = "SPREAD / REST";
    savePlot("viper_contraction.png", &def, s, 2);
}

static void figureSheet(void) {
    printf("sheets of rods and tets stretched to 1.5 (scenes/viper/sheet.json)\n");
    icScene scene = loadScene("sheet.json");
    for (int f = 0; f < scene.frames; ++f) {
        icStepStats st;
        icWorld_Step(scene.world, scene.dt, &st);
        step(&scene);
    }
    const icReal *x = icWorld_GetPositions(scene.world),
                 *x0 = icWorld_GetRestPositions(scene.world);
    int nv = icWorld_GetVertexCount(scene.world);
    const icReal *rx = icRodWorld_GetPositions(scene.rods), *rr = icRodWorld_GetRadii(scene.rods);
    static double xt[21], wt[21], xr[21], wr[21];
    for (int j = 0; j <= 20; ++j) {
        double zlo = INFINITY, zhi = -INFINITY, xm = 0;
        int c = 0;
        for (int i = 0; i < nv; ++i)
            if (fabs(x0[3 * i] - 0.05 * j) < 1e-6) {
                zlo = fmin(zlo, x[3 * i + 2]);
                zhi = fmax(zhi, x[3 * i + 2]);
                xm += x[3 * i], ++c;
            }
        xt[j] = xm / c;
        wt[j] = zhi - zlo;
        xr[j] = rx[3 * j];
        wr[j] = (rx[3 * (84 + j) + 2] + rr[84 + j]) - (rx[3 * j + 2] - rr[j]);
    }
    double vr = icRodWorld_GetVolume(scene.rods, 0, 5, false) /
                icRodWorld_GetVolume(scene.rods, 0, 5, true);
    printf("  width at the middle: tets %.4f m, rods %.4f m (0.5 / sqrt(1.5) = %.4f); V/V0 tets "
           "%.4f, rods %.4f\n",
           wt[10], wr[10], 0.5 / sqrt(1.5), icWorld_GetVolumeRatio(scene.world), vr);
    icScene_Destroy(&scene);
    icPlotSeries s[2] = {{"TET SHEET (XPBD SNH)", 21, xt, wt, {200, 60, 40}},
                         {"BUNDLED RODS", 21, xr, wr, {40, 90, 200}}};
    icPlotDef def = {0};
    def.title = "SHEETS STRETCHED TO 1.5: WIDTH";
    def.xLabel = "X (M)";
    def.yLabel = "WIDTH (M)";
    savePlot("viper_sheet.png", &def, s, 2);
}

// A picture of the octopus scene after 4 s: the skins and the pillars.
static void figureOctopus(void) {
    printf("octopuses (scenes/viper/octopus.json): picture after 240 frames\n");
    icScene scene = loadScene("octopus.json");
    icRodWorld *w = scene.rods;
    for (int f = 0; f < 240; ++f) step(&scene);
    icRodWorld_UpdateSkins(w);
    int sv, st;
    const icReal *sp;
    const int *stri;
    icRodWorld_GetSkin(w, 0, &sv, &sp, &st, &stri);
    icRodSurface pills;
    icRodWorld_PillSurface(w, 16, &pills);
    // the pillars are the first 25 pills
    int pillVerts = pills.vertexCount / icRodWorld_GetSegmentCount(w) * 25;
    int pillTris = pills.triangleCount / icRodWorld_GetSegmentCount(w) * 25;
    int nv = sv + pillVerts, nt = st + pillTris;
    icReal *x = malloc(sizeof(icReal) * 3 * (size_t)nv);
    int *tri = malloc(sizeof(int) * 3 * (size_t)nt);
    icReal *value = malloc(sizeof(icReal) * (size_t)nt);
    memcpy(x, sp, sizeof(icReal) * 3 * (size_t)sv);
    memcpy(x + 3 * (size_t)sv, pills.positions, sizeof(icReal) * 3 * (size_t)pillVerts);
    memcpy(tri, stri, sizeof(int) * 3 * (size_t)st);
    for (int i = 0; i < 3 * pillTris; ++i) tri[3 * st + i] = pills.triangles[i] + sv;
    for (int t = 0; t < nt; ++t) value[t] = t < st ? 0.8 : 0.15;
    icRenderMesh mesh = {nv, x, nt, tri, NULL, value};
    icRenderDef def = icDefaultRenderDef();
    def.viewDirection = icVec3_Make(1, 0.9, 1.4);
    def.colourBar = false;
    def.fieldMin = 0;
    def.fieldMax = 1;
    def.title = "100 OCTOPUSES X 37 PILLS, 25 PILLARS, T = 4 S";
    icImage image;
    icDiagnostic diag = {0};
    if (icRender(&mesh, &def, &image, NULL, &diag) == IC_OK) {
        char path[1200];
        snprintf(path, sizeof path, "%s/viper_octopus.png", s_out);
        if (icImage_SavePng(&image, path, &diag) == IC_OK) printf("  wrote %s\n", path);
        icImage_Destroy(&image);
    }
    free(x);
    free(tri);
    free(value);
    icRodSurface_Destroy(&pills);
    icScene_Destroy(&scene);
}

int main(int argc, char **argv) {
    snprintf(s_out, sizeof s_out, "%s", argc > 1 ? argv[1] : IC_SOURCE_DIR "/docs/img");
    figureStretch();
    figureConvergence();
    figureShockwave();
    figureBergou();
    figureContraction();
    figureSheet();
    figureOctopus();
    return 0;
}
