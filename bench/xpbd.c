// SPDX-License-Identifier: MIT
// Packed XPBD sweep throughput (tet projections per second) for ~10k, 100k and 1M tets on
// general (jittered, shuffled) and hex-derived box meshes, 1 and 2 threads alternated in one
// process; the phases of a whole step; bytes per tet; a PNG plot. docs/performance.md
// explains the columns.
// Usage: bench_xpbd [--quick] [--repeats N] [--seconds S] [--threads N] [--plot FILE.png]
//                   [--csv FILE] [--size 0|1|2] [--no-table] [--no-extras] [--replot CSV] [--health]
//                   [--kernel (the colour passes alone, one thread: cycles per tet per width)]...
//                   [--cells N --mesh general|hex|hex5 --precision float|double
//                    --simd auto|scalar|avx2|avx512 --scheme greedy|cell
//                    --projection coupled|sequential]
// The full run takes ~6 minutes; on a shared machine run it in pieces (--size K --no-extras,
// then --no-table) and draw the plot from their CSV files with --replot.
#include "isochor/io.h"
#include "isochor/isochor.h"
#include "isochor/render.h"

#include "world/world_internal.h"
#include "xpbd/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(IC_XPBD_X86)
#include <x86intrin.h>
#endif

// The ceiling the performance issue puts on two cores (projections per second).
#define IC_BENCH_CEILING 1.2e9

static double nowSeconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t s_random = 0x9E3779B97F4A7C15ull;
static double uniform(void) { // xorshift64*, deterministic
    s_random ^= s_random >> 12;
    s_random ^= s_random << 25;
    s_random ^= s_random >> 27;
    return (double)((s_random * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}

static void shuffle(int *a, int n) {
    for (int i = 0; i < n; ++i) a[i] = i;
    for (int i = n - 1; i > 0; --i) {
        int j = (int)(uniform() * (i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

// A TetGen-like mesh from the box: interior vertices jittered by up to 0.1 of a cell, then
// vertices and tets in random order and the hex provenance dropped.
static void makeGeneral(icTetMesh *mesh, int cells) {
    int c[3] = {cells, cells, cells};
    icTetMesh box = {0};
    icGenerateBox(&box, icVec3_Make(1, 1, 1), c, 6);
    double h = 1.0 / cells;
    for (int v = 0; v < box.vertexCount; ++v)
        for (int a = 0; a < 3; ++a) {
            icReal *p = &box.positions[3 * v + a];
            if (fabs(fabs(*p) - 0.5) > 1e-9) *p += (uniform() - 0.5) * 0.2 * h;
        }
    icTetMesh_Create(mesh, box.vertexCount, box.tetCount);
    int *perm = malloc(sizeof(int) * (size_t)box.vertexCount), *tperm = malloc(sizeof(int) * (size_t)box.tetCount);
    shuffle(perm, box.vertexCount);
    shuffle(tperm, box.tetCount);
    for (int i = 0; i < box.vertexCount; ++i)
        for (int a = 0; a < 3; ++a) mesh->positions[3 * perm[i] + a] = box.positions[3 * i + a];
    for (int i = 0; i < box.tetCount; ++i)
        for (int k = 0; k < 4; ++k) mesh->tets[4 * tperm[i] + k] = perm[box.tets[4 * i + k]];
    free(perm);
    free(tperm);
    icTetMesh_Destroy(&box);
}

static void makeHex(icTetMesh *mesh, int cells, int split) {
    int c[3] = {cells, cells, cells};
    icGenerateBox(mesh, icVec3_Make(1, 1, 1), c, split);
}

typedef struct icBenchConfig {
    const char *mesh; ///< "general", "hex" or "hex5" (cells split in 5 tets instead of 6)
    icPrecision precision;
    icSimd simd;
    icColouringScheme scheme;
    icProjection projection;
    bool health; ///< --health: the default health checks on (else off: the solver alone)
} icBenchConfig;

enum { IC_BENCH_SUBSTEPS = 10 };

static icWorld *makeWorld(const icTetMesh *mesh, const icBenchConfig *cfg, int workers) {
    icWorldDef def = icDefaultWorldDef();
    def.substeps = IC_BENCH_SUBSTEPS;
    def.maxSubstepStrain = 0; // a fixed substep count: rates are per substep
    def.workerCount = workers;
    def.precision = cfg->precision;
    def.simd = cfg->simd;
    def.colouring = cfg->scheme;
    def.projection = cfg->projection;
    def.health.policy = cfg->health ? IC_HEALTH_REPORT : IC_HEALTH_OFF;
    icWorld *world = icCreateWorld(&def);
    icSoftBodyDef body = icDefaultSoftBodyDef();
    body.poissonRatio = 0.49;
    icBodyId id;
    icDiagnostic diag;
    if (icWorld_CreateSoftBody(world, mesh, &body, &id, &diag) != IC_OK) {
        fprintf(stderr, "bench_xpbd: cannot create the body: %s\n", diag.message);
        exit(1);
    }
    icPinDef pin = icDefaultPinDef();
    pin.boxMin = icVec3_Make(-1, -1, -1);
    pin.boxMax = icVec3_Make(-0.499, 1, 1);
    icBody_AddPin(world, id, &pin, NULL);
    icWorld_Step(world, 1.0 / 60.0, NULL); // builds the layout, warms caches
    return world;
}

static int compareDoubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n) {
    double s[32];
    memcpy(s, v, sizeof(double) * (size_t)n);
    qsort(s, (size_t)n, sizeof(double), compareDoubles);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/// One timed repeat: rates in projections per second, times in seconds per step.
typedef struct icBenchSample {
    double kernel; ///< colour passes and overflow only
    double sweep;  ///< kernel and the per-vertex passes around it: the copies between the state
                   ///< and the packed layout, which a world without body contact fuses with
                   ///< prediction, plane contact and velocities (all counted)
    double step;   ///< icWorld_Step
    double colourTime, copyTime, overflowTime, stepTime, outputTime;
} icBenchSample;

// About `seconds` of steps; the layout's profile splits the sweep. Output: the per-tet fields
// and the volume ratio a frame writer reads.
static icBenchSample timeWorld(icWorld *world, double seconds) {
    icModel *m = icWorld_Model(world);
    icXpbdLayout *L = m->layout;
    int tets = m->tetCount;
    int steps = (int)(seconds * 1.5e8 / ((double)tets * IC_BENCH_SUBSTEPS)) + 1;
    L->profile = (icXpbdProfile){.enabled = true};
    double t0 = nowSeconds();
    for (int s = 0; s < steps; ++s) icWorld_Step(world, 1.0 / 60.0, NULL);
    double elapsed = nowSeconds() - t0;
    icXpbdProfile p = L->profile;
    L->profile.enabled = false;
    icReal *field = malloc(sizeof(icReal) * (size_t)tets);
    double t1 = nowSeconds();
    icWorld_GetTetFields(world, field, field, field);
    volatile icReal ratio = icWorld_GetVolumeRatio(world);
    (void)ratio;
    double output = nowSeconds() - t1;
    free(field);
    double projections = (double)tets * p.sweeps;
    icBenchSample r;
    r.kernel = projections / (p.colours + p.overflow);
    r.sweep = projections / (p.copyIn + p.colours + p.overflow + p.copyOut + p.passes);
    r.step = (double)tets * IC_BENCH_SUBSTEPS * steps / elapsed;
    r.colourTime = p.colours / steps;
    r.overflowTime = p.overflow / steps;
    r.copyTime = (p.copyIn + p.copyOut + p.passes) / steps;
    r.stepTime = elapsed / steps;
    r.outputTime = output;
    return r;
}

// Bytes a sweep must move at least: block records read (for cell units: the corner offsets,
// and the constant rows unless an earlier unit's are shared), multipliers written (in the last
// sweep of a step only), the vertex working copy read and written once, the state's
// positions read and written and the inverse masses read by the copies.
static double bytesPerSweep(const icModel *m) {
    const icXpbdLayout *L = m->layout;
    double blocks = (double)L->blockBytes * L->blockCount;
    const double rowBytes = (double)L->blockBytes - 4.0 * sizeof(unsigned) * L->lanes;
    for (int u = 0; L->unitFast && u < L->unitCount; ++u) {
        if (!L->unitFast[u]) continue;
        int slots = L->unitBlocks[u + 1] - L->unitBlocks[u];
        bool shared = L->unitConstBlocks[u] != L->unitBlocks[u];
        blocks += 8.0 * sizeof(unsigned) * L->lanes - (double)L->blockBytes * slots + (shared ? 0 : rowBytes * slots);
    }
    double multipliers = 2.0 * L->lanes * L->real * L->blockCount / IC_BENCH_SUBSTEPS;
    double working = 2.0 * 4 * L->real * L->vertexCount;
    double state = 4.0 * 3 * sizeof(icReal) * m->vertexCount;
    return blocks + multipliers + working + state;
}

static const char *schemeName(const icXpbdLayout *L) {
    return icColouringName(icXpbdLayout_RunningScheme(L));
}

// ---------------------------------------------------------------- results and the plot

typedef struct icBenchRow {
    char label[48];
    int tets, threads;
    int paddingLanes, overflowTets, lanes; ///< the layout's: empty vector lanes, tets one by one
    double kernel, sweep, step;
} icBenchRow;

static icBenchRow s_rows[128];
static int s_rowCount;
static FILE *s_csv;

// One table row per thread count: 1 and `threads` alternate, `repeats` times each.
static void benchMesh(const icTetMesh *mesh, const icBenchConfig *cfg, int threads, int repeats,
                      double seconds) {
    icWorld *worlds[2] = {makeWorld(mesh, cfg, 1), threads > 1 ? makeWorld(mesh, cfg, threads) : NULL};
    int runs = worlds[1] ? 2 : 1;
    double kernel[2][32], sweep[2][32], step[2][32];
    for (int r = 0; r < repeats; ++r)
        for (int w = 0; w < runs; ++w) {
            icBenchSample s = timeWorld(worlds[w], seconds);
            kernel[w][r] = s.kernel;
            sweep[w][r] = s.sweep;
            step[w][r] = s.step;
        }
    const icModel *m = icWorld_Model(worlds[0]);
    const icXpbdLayout *L = m->layout;
    icSimd used;
    icXpbd_SelectKernel(cfg->simd, cfg->precision, &used);
    double bytes = bytesPerSweep(m), kernelOne = median(kernel[0], repeats);
    const char *prec = cfg->precision == IC_PRECISION_FLOAT ? "float" : "double";
    for (int w = 0; w < runs; ++w) {
        double k = median(kernel[w], repeats), sw = median(sweep[w], repeats), st = median(step[w], repeats);
        double gbs = bytes * (sw / m->tetCount) / 1e9;
        printf("| %-7s | %9d | %-6s | %-6s | %-6s | %4d | %3d/%d | %d | %7.1f | %7.1f | %7.1f | %4.2f | %5.1f%% | %5.1f |\n",
               cfg->mesh, m->tetCount, prec, icSimdName(used), schemeName(L), L->colourCount,
               L->chunkCount, L->phaseCount, w ? threads : 1, k / 1e6, sw / 1e6, st / 1e6,
               w ? k / kernelOne : 1.0, 100 * k / IC_BENCH_CEILING, gbs);
        if (s_csv)
            fprintf(s_csv, "%s,%d,%s,%s,%s,%d,%d,%d,%d,%.5g,%.5g,%.5g,%.4g\n", cfg->mesh, m->tetCount, prec,
                    icSimdName(used), schemeName(L), L->colourCount, L->chunkCount,
                    L->phaseCount, w ? threads : 1, k, sw, st, gbs);
        if (s_rowCount < 128) {
            icBenchRow *row = &s_rows[s_rowCount++];
            snprintf(row->label, sizeof row->label, "%s %s %s %s", cfg->mesh, prec, icSimdName(used),
                     schemeName(L));
            row->tets = m->tetCount;
            row->threads = w ? threads : 1;
            row->paddingLanes = L->paddingLanes;
            row->overflowTets = L->overflowTets;
            row->lanes = L->blockCount * L->lanes;
            row->kernel = k;
            row->sweep = sw;
            row->step = st;
        }
    }
    fflush(stdout);
    for (int w = 0; w < runs; ++w) icDestroyWorld(worlds[w]);
}

// Below the table: how full each layout's vectors are (padding lanes run no tet; the overflow
// tets run one lane at a time after the colours).
static void printLayouts(void) {
    printf("\nLayouts (each table pair): padding lanes of all lanes, tets run one by one:\n");
    for (int r = 0; r < s_rowCount; ++r)
        if (s_rows[r].threads == 1)
            printf("  %-30s %9d tets: %6d of %9d lanes padding (%.1f %%), %d one by one\n",
                   s_rows[r].label, s_rows[r].tets, s_rows[r].paddingLanes, s_rows[r].lanes,
                   100.0 * s_rows[r].paddingLanes / s_rows[r].lanes, s_rows[r].overflowTets);
    printf("\n");
}

// A 3x5 pixel font (rows top down, 3 bits each) for the plot's labels.
static const char s_glyphChars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ .,:/%()-+=";
static const unsigned short s_glyphs[] = {
    0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7292, 0x7BEF, 0x7BCF,
    0x2BED, 0x6BAE, 0x3923, 0x6B6E, 0x79A7, 0x79A4, 0x396B, 0x5BED, 0x7497, 0x126A,
    0x5D35, 0x4927, 0x5FED, 0x6B6D, 0x2B6A, 0x6BA4, 0x2B73, 0x6BAD, 0x388E, 0x7492,
    0x5B6F, 0x5B6A, 0x5BFD, 0x5AAD, 0x5A92, 0x72A7, 0x0000, 0x0002, 0x0014, 0x0410,
    0x12A4, 0x52A5, 0x2922, 0x224A, 0x01C0, 0x05D0, 0x0E38
};

typedef struct icCanvas {
    icImage image;
} icCanvas;

static void putPixel(icCanvas *c, int x, int y, const uint8_t rgb[3]) {
    if (x < 0 || y < 0 || x >= c->image.width || y >= c->image.height) return;
    memcpy(c->image.rgb + 3 * ((size_t)y * c->image.width + x), rgb, 3);
}

static void fillRect(icCanvas *c, int x0, int y0, int x1, int y1, const uint8_t rgb[3]) {
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) putPixel(c, x, y, rgb);
}

// A line `width` pixels thick; dashed when dash > 0 (pixels on, pixels off).
static void drawLine(icCanvas *c, double x0, double y0, double x1, double y1, int width, int dash,
                     const uint8_t rgb[3]) {
    double length = hypot(x1 - x0, y1 - y0);
    int steps = (int)(length * 2) + 1;
    for (int i = 0; i <= steps; ++i) {
        double t = (double)i / steps;
        if (dash > 0 && ((int)(t * length) / dash) % 2) continue;
        int x = (int)lround(x0 + t * (x1 - x0)), y = (int)lround(y0 + t * (y1 - y0));
        fillRect(c, x - width / 2, y - width / 2, x - width / 2 + width - 1, y - width / 2 + width - 1, rgb);
    }
}

static void drawText(icCanvas *c, int x, int y, const char *text, int scale, const uint8_t rgb[3]) {
    for (; *text; ++text, x += 4 * scale) {
        char ch = *text >= 'a' && *text <= 'z' ? (char)(*text - 32) : *text;
        const char *at = strchr(s_glyphChars, ch);
        if (!at || !ch) continue;
        unsigned short g = s_glyphs[at - s_glyphChars];
        for (int row = 0; row < 5; ++row)
            for (int col = 0; col < 3; ++col)
                if (g & (1u << (14 - 3 * row - col)))
                    fillRect(c, x + col * scale, y + row * scale, x + col * scale + scale - 1,
                             y + row * scale + scale - 1, rgb);
    }
}

// Kernel throughput with 2 threads against mesh size (log axis), one line per configuration.
static void writePlot(const char *path, int threads) {
    icCanvas c;
    if (icImage_Create(&c.image, 960, 560) != IC_OK) return;
    static const uint8_t white[3] = {255, 255, 255}, black[3] = {30, 30, 30}, grey[3] = {200, 200, 200};
    static const uint8_t colours[6][3] = {{31, 119, 180}, {214, 39, 40}, {44, 160, 44},
                                          {148, 103, 189}, {255, 127, 14}, {140, 86, 75}};
    fillRect(&c, 0, 0, 959, 559, white);
    const int left = 80, right = 640, top = 50, bottom = 490;
    double ymax = 450; // the targets
    for (int i = 0; i < s_rowCount; ++i)
        if (s_rows[i].kernel / 1e6 > ymax) ymax = s_rows[i].kernel / 1e6;
    ymax = 100 * ceil(ymax / 100 + 0.01);
    double lx0 = 3.8, lx1 = 6.2; // log10 tets
#define IC_PX(t) (left + (log10(t) - lx0) / (lx1 - lx0) * (right - left))
#define IC_PY(v) (bottom - (v) / ymax * (bottom - top))
    for (double v = 0; v <= ymax + 1e-9; v += 100) {
        drawLine(&c, left, IC_PY(v), right, IC_PY(v), 1, 0, grey);
        char text[16];
        snprintf(text, sizeof text, "%d", (int)v);
        drawText(&c, left - 10 - 8 * (int)strlen(text), (int)IC_PY(v) - 5, text, 2, black);
    }
    static const double xt[3] = {1e4, 1e5, 1e6};
    static const char *xl[3] = {"10K", "100K", "1M"};
    for (int i = 0; i < 3; ++i) {
        drawLine(&c, IC_PX(xt[i]), top, IC_PX(xt[i]), bottom, 1, 0, grey);
        drawText(&c, (int)IC_PX(xt[i]) - 4 * (int)strlen(xl[i]), bottom + 12, xl[i], 2, black);
    }
    drawLine(&c, left, bottom, right, bottom, 2, 0, black);
    drawLine(&c, left, top, left, bottom, 2, 0, black);
    drawText(&c, left, 15, "XPBD TET PROJECTIONS PER SECOND (MILLIONS) VS TETS", 2, black);
    char sub[64];
    snprintf(sub, sizeof sub, "KERNEL, %d THREADS. DASHED: TARGETS", threads);
    drawText(&c, left + 150, bottom + 40, sub, 2, black);
    // targets: 330 M/s at 100k, 250 M/s at 1M (general), 400 M/s at 1M (cell scheme)
    static const double targetTets[3] = {1.05e5, 1.05e6, 1.05e6}, targetRate[3] = {330, 250, 400};
    for (int i = 0; i < 3; ++i)
        drawLine(&c, IC_PX(targetTets[i]) - 30, IC_PY(targetRate[i]), IC_PX(targetTets[i]) + 30,
                 IC_PY(targetRate[i]), 2, 4, black);
    // series: rows with `threads` threads, grouped by label in first-seen order
    char labels[6][48];
    int series = 0;
    for (int i = 0; i < s_rowCount && series < 6; ++i) {
        if (s_rows[i].threads != threads) continue;
        bool seen = false;
        for (int s = 0; s < series; ++s) seen |= strcmp(labels[s], s_rows[i].label) == 0;
        if (!seen) snprintf(labels[series++], sizeof labels[0], "%.40s", s_rows[i].label);
    }
    for (int s = 0; s < series; ++s) {
        double px = -1, py = -1;
        for (int i = 0; i < s_rowCount; ++i) {
            if (s_rows[i].threads != threads || strcmp(labels[s], s_rows[i].label) != 0) continue;
            double x = IC_PX(s_rows[i].tets), y = IC_PY(s_rows[i].kernel / 1e6);
            if (px >= 0) drawLine(&c, px, py, x, y, 3, 0, colours[s]);
            fillRect(&c, (int)x - 4, (int)y - 4, (int)x + 4, (int)y + 4, colours[s]);
            px = x;
            py = y;
        }
        fillRect(&c, right + 30, top + 10 + 30 * s, right + 50, top + 20 + 30 * s, colours[s]);
        drawText(&c, right + 60, top + 10 + 30 * s, labels[s], 2, black);
    }
#undef IC_PX
#undef IC_PY
    icDiagnostic diag;
    if (icImage_SavePng(&c.image, path, &diag) != IC_OK) fprintf(stderr, "bench_xpbd: %s\n", diag.message);
    icImage_Destroy(&c.image);
}

// The paper's stretch test (nu = 0.45, 25 static load steps) and the first quarter turn of
// the cube twist, end to end as `isochor run` runs them, with the sweep's precision and
// worker count set before the first step.
static void benchScenes(int threads) {
    static const char *const scenes[2] = {"scenes/stretch/clamped_nu0.45.json", "scenes/twist/twist_2x90.json"};
    static const int frames[2] = {-1, 1};
    printf("\nScenes end to end (seconds; the reference serial solver's figures are in\n"
           "bench/results/xpbd_core_epyc_2core.txt):\n\n");
    printf("| scene | precision | threads | seconds | V/V0 | sweeps |\n|---|---|---|---|---|---|\n");
    for (int k = 0; k < 2; ++k)
        for (int variant = 0; variant < 4; ++variant) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", IC_SOURCE_DIR, scenes[k]);
            icScene scene;
            icDiagnostic diag;
            if (icScene_Load(path, &scene, &diag) != IC_OK) {
                printf("cannot load %s: %s\n", path, diag.message);
                return;
            }
            icModel *m = icWorld_Model(scene.world);
            m->def.precision = variant & 1 ? IC_PRECISION_FLOAT : IC_PRECISION_DOUBLE;
            m->def.workerCount = variant & 2 ? threads : 1;
            icRunOptions options = icDefaultRunOptions();
            options.writeOutput = false;
            options.frames = frames[k];
            icRunSummary summary;
            double t0 = nowSeconds();
            icResult r = icScene_Run(&scene, &options, &summary, &diag);
            double seconds = nowSeconds() - t0;
            printf("| %s%s | %s | %d | %.3f | %.4f | %ld |\n", scenes[k] + 7, k ? " (first 90 deg)" : "",
                   variant & 1 ? "float" : "double", m->def.workerCount, seconds, summary.volumeRatioFinal,
                   (long)summary.sweepsTotal);
            if (r != IC_OK) printf("  (run returned %s: %s)\n", icResult_Name(r), diag.message);
            fflush(stdout);
            icScene_Destroy(&scene);
        }
}

// Rows back from CSV files this program wrote (runs done in pieces), for the plot.
static void loadRows(const char *path) {
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f) && s_rowCount < 128) {
        char mesh[16], prec[16], simd[16], scheme[16];
        int tets, colours, chunks, phases, threads;
        double kernel, sweep, step, gbs;
        if (sscanf(line, "%15[^,],%d,%15[^,],%15[^,],%15[^,],%d,%d,%d,%d,%lf,%lf,%lf,%lf", mesh, &tets, prec,
                   simd, scheme, &colours, &chunks, &phases, &threads, &kernel, &sweep, &step, &gbs) != 13)
            continue; // the header
        icBenchRow *row = &s_rows[s_rowCount++];
        snprintf(row->label, sizeof row->label, "%.10s %.8s %.8s %.8s", mesh, prec, simd, scheme);
        row->tets = tets;
        row->threads = threads;
        row->kernel = kernel;
        row->sweep = sweep;
        row->step = step;
    }
    if (f) fclose(f);
}

// ---------------------------------------------------------------- kernel micro-benchmark

#if defined(IC_XPBD_X86)
static uint64_t ticks(void) { return __rdtsc(); }
#else
static uint64_t ticks(void) { return (uint64_t)(nowSeconds() * 1e9); }
#endif

typedef struct icKernelVariant {
    const char *name;
    icXpbdKernelFn *kernel;
    icXpbdCellKernelFn *cellKernel; ///< NULL: the cell units also go tet by tet
} icKernelVariant;

// Every colour of every chunk once, chunk by chunk (the overflow left out): what a sweep's
// colour passes do on one thread.
static void kernelPass(const icXpbdLayout *L, const icXpbdKernelArgs *args, const icKernelVariant *v) {
    icXpbdCells cells = icXpbdLayout_Cells(L);
    for (int k = 0; k < L->colourCount; ++k)
        for (int u = L->colourUnits[k]; u < L->colourUnits[k + 1];) {
            bool fast = L->unitFast && L->unitFast[u] && v->cellKernel;
            int w = u + 1;
            while (w < L->colourUnits[k + 1] && (L->unitFast && L->unitFast[w] && v->cellKernel) == fast) ++w;
            if (fast)
                v->cellKernel(args, &cells, u, w);
            else
                v->kernel(args, L->unitBlocks[u], w == L->colourUnits[k + 1] ? L->colourEnd[k] : L->unitBlocks[w]);
            u = w;
        }
}

static uint64_t hashBytes(const void *p, size_t n, uint64_t h) { // FNV-1a
    const unsigned char *c = p;
    for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 0x100000001B3ull;
    return h;
}

// One thread, the packed colour passes alone: each variant sweeps the same positions (the
// working copy restored before every pass) `repeats` times, variants interleaved; the
// minimum is what the kernel costs when nothing else runs on the core. Also checks that
// every width gives the same bits.
static void kernelMicro(const icTetMesh *mesh, const icBenchConfig *cfg, int repeats) {
    icWorld *world = makeWorld(mesh, cfg, 1);
    icModel *m = icWorld_Model(world);
    icXpbdLayout *L = m->layout;
    bool single = cfg->precision == IC_PRECISION_FLOAT;
    icKernelVariant variants[4];
    int count = 0;
    variants[count++] = (icKernelVariant){"lane", icXpbd_SelectLaneKernel(cfg->precision),
                                          icXpbd_SelectLaneCellKernel(cfg->precision)};
    static const icSimd levels[3] = {IC_SIMD_SCALAR, IC_SIMD_AVX2, IC_SIMD_AVX512};
    for (int i = 0; i < 3; ++i) {
        icSimd used;
        icXpbdKernelFn *fn = icXpbd_SelectKernel(levels[i], cfg->precision, &used);
        if (used != levels[i]) continue;
        variants[count++] = (icKernelVariant){used == IC_SIMD_SCALAR ? "portable" : icSimdName(used), fn,
                                              icXpbd_SelectCellKernel(levels[i], cfg->precision)};
    }
    size_t xBytes = 4 * L->real * (size_t)L->vertexCount, lambdaBytes = 2 * L->real * (size_t)L->lanes * L->blockCount;
    void *x0 = malloc(xBytes);
    memcpy(x0, L->x, xBytes);
    icXpbdKernelArgs args = icXpbdLayout_KernelArgs(L);
    double h = 1.0 / 60.0 / IC_BENCH_SUBSTEPS;
    args.invH = 1.0 / h;
    args.invH2 = 1.0 / (h * h);
    args.loadLambda = false; // one iteration per substep: the multipliers start at zero
    args.storeLambda = true;
    int blocks = 0;
    for (int k = 0; k < L->colourCount; ++k) blocks += L->colourEnd[k] - L->unitBlocks[L->colourUnits[k]];
    double lanes = (double)blocks * L->lanes;
    uint64_t hash[4];
    for (int v = 0; v < count; ++v) {
        memcpy(L->x, x0, xBytes);
        memset(L->lambda, 0, lambdaBytes);
        kernelPass(L, &args, &variants[v]);
        hash[v] = hashBytes(L->lambda, lambdaBytes, hashBytes(L->x, xBytes, 0xCBF29CE484222325ull));
    }
    // The time-stamp counter runs at a fixed rate (not the core's clock), and a virtual CPU
    // may see a jump when it moves: the cycles reported are the fastest pass's nanoseconds
    // times the counter's rate over the whole run.
    // Two kinds of sweep: multipliers neither read nor kept (all but the last sweep of a
    // step with one iteration per substep) and kept (the last one).
    double bestNs[2][4], allNs = 0, allTicks = 0;
    for (int v = 0; v < count; ++v) bestNs[0][v] = bestNs[1][v] = 1e300;
    for (int r = 0; r < repeats; ++r)
        for (int kind = 0; kind < 2; ++kind)
            for (int v = 0; v < count; ++v) {
                args.storeLambda = kind == 1;
                memcpy(L->x, x0, xBytes);
                uint64_t c0 = ticks();
                double t0 = nowSeconds();
                kernelPass(L, &args, &variants[v]);
                double ns = (nowSeconds() - t0) * 1e9;
                allTicks += (double)(ticks() - c0);
                allNs += ns;
                if (ns < bestNs[kind][v]) bestNs[kind][v] = ns;
            }
    double ghz = allTicks / allNs;
    for (int v = 0; v < count; ++v)
        printf("| %-7s | %-6s | %7d | %-8s | %7.2f | %6.2f | %7.1f | %7.2f | %6.2f | %s |\n", cfg->mesh,
               single ? "float" : "double", (int)lanes, variants[v].name, bestNs[0][v] * ghz / lanes,
               bestNs[0][v] / lanes, lanes / bestNs[0][v] * 1e3, bestNs[1][v] * ghz / lanes, bestNs[1][v] / lanes,
               hash[v] == hash[0] ? "same" : "DIFFERENT");
    printf("(hash of positions and multipliers after one pass: %016llx)\n", (unsigned long long)hash[0]);
    fflush(stdout);
    memcpy(L->x, x0, xBytes);
    free(x0);
    icDestroyWorld(world);
}

static void printMachine(void) {
    char line[512], model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            snprintf(model, sizeof model, "%.200s", colon ? colon + 2 : line);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    if (f) fclose(f);
    double load[3] = {0};
    f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
        fclose(f);
    }
    printf("CPU: %s; widest SIMD: %s; load average %.2f %.2f %.2f\n", model, icSimdName(icXpbd_CpuSimd()),
           load[0], load[1], load[2]);
}

static void header(void) {
    printf("| mesh    | tets      | prec   | simd   | scheme | colours | chunks/phases | threads | kernel M/s | sweep M/s | step M/s | 2T/1T | of 1.2 G/s | GB/s |\n");
    printf("|---------|-----------|--------|--------|--------|---------|---------------|---------|------------|-----------|----------|-------|------------|------|\n");
}

// Model, state and layout bytes per tet of a world (arrays at their filled sizes).
static void printMemory(icWorld *world) {
    const icModel *m = icWorld_Model(world);
    double nv = m->vertexCount, nt = m->tetCount;
    double perVertexModel = 3 * sizeof(icReal) * 3 + sizeof(icReal) + sizeof(int); // rest, invMass, pinBase, mass, pin
    double perTetModel = 4 * sizeof(int) * 1 + 2 * sizeof(int) + sizeof(icMat3) + 5 * sizeof(icReal);
    double model = nv * perVertexModel + nt * perTetModel;
    double state = nv * 9 * sizeof(icReal) + nt * 2 * sizeof(icReal);
    double layout = m->layout ? (double)m->layout->bytes : 0;
    printf("| %9d | %s | %6.1f | %6.1f | %6.1f | %6.1f | %7.1f MB |\n", m->tetCount,
           m->layout && m->layout->precision == IC_PRECISION_FLOAT ? "float " : "double", model / nt,
           state / nt, layout / nt, (model + state + layout) / nt, (model + state + layout) / 1e6);
}

int main(int argc, char **argv) {
    bool quick = false, custom = false, micro = false; // --kernel: the micro-benchmark
    int onlySize = -1;        // --size K: only the K-th of 10k / 100k / 1M in the main table
    bool replot = false;      // --replot CSV (repeatable) --plot PNG: the plot of earlier runs
    bool tables = true, extras = true; // --no-table, --no-extras (scaling, memory, scenes)
    int repeats = 5, cells = 26, threads = 2;
    double seconds = 0.4;
    const char *plot = NULL;
    icBenchConfig cfg = {"general", IC_PRECISION_FLOAT, IC_SIMD_AUTO, IC_COLOURING_GREEDY, IC_PROJECTION_COUPLED, false};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(a, "--quick") == 0) quick = true;
        else if (strcmp(a, "--repeats") == 0) repeats = atoi(v), ++i;
        else if (strcmp(a, "--seconds") == 0) seconds = atof(v), ++i;
        else if (strcmp(a, "--threads") == 0) threads = atoi(v), ++i;
        else if (strcmp(a, "--plot") == 0) plot = v, ++i;
        else if (strcmp(a, "--size") == 0) onlySize = atoi(v), ++i;
        else if (strcmp(a, "--replot") == 0) loadRows(v), replot = true, ++i;
        else if (strcmp(a, "--no-table") == 0) tables = false;
        else if (strcmp(a, "--no-extras") == 0) extras = false;
        else if (strcmp(a, "--kernel") == 0) micro = true;
        else if (strcmp(a, "--health") == 0) cfg.health = true;
        else if (strcmp(a, "--csv") == 0) s_csv = fopen(v, "w"), ++i;
        else if (strcmp(a, "--cells") == 0) cells = atoi(v), ++i, custom = true;
        else if (strcmp(a, "--mesh") == 0)
            cfg.mesh = strcmp(v, "hex") == 0 ? "hex" : strcmp(v, "hex5") == 0 ? "hex5" : "general", ++i, custom = true;
        else if (strcmp(a, "--precision") == 0)
            cfg.precision = strcmp(v, "double") == 0 ? IC_PRECISION_DOUBLE : IC_PRECISION_FLOAT, ++i, custom = true;
        else if (strcmp(a, "--simd") == 0) {
            cfg.simd = strcmp(v, "scalar") == 0 ? IC_SIMD_SCALAR
                       : strcmp(v, "avx2") == 0 ? IC_SIMD_AVX2
                       : strcmp(v, "avx512") == 0 ? IC_SIMD_AVX512 : IC_SIMD_AUTO;
            ++i, custom = true;
        } else if (strcmp(a, "--scheme") == 0)
            cfg.scheme = strcmp(v, "cell") == 0    ? IC_COLOURING_CELL
                         : strcmp(v, "pairs") == 0 ? IC_COLOURING_PAIRS
                                                   : IC_COLOURING_GREEDY,
            ++i, custom = true;
        else if (strcmp(a, "--projection") == 0)
            cfg.projection = strcmp(v, "sequential") == 0 ? IC_PROJECTION_SEQUENTIAL : IC_PROJECTION_COUPLED, ++i;
        else {
            fprintf(stderr, "usage: %s [--quick] [--repeats N] [--seconds S] [--threads N] [--plot FILE.png] "
                            "[--csv FILE] [--size 0|1|2] [--no-table] [--no-extras] [--replot CSV] [--kernel] [--health] [--cells N "
                            "--mesh general|hex|hex5 --precision float|double --simd auto|scalar|avx2|avx512 "
                            "--scheme greedy|cell|pairs --projection coupled|sequential]\n", argv[0]);
            return 2;
        }
    }
    if (replot) {
        if (plot) writePlot(plot, threads);
        return 0;
    }
    if (micro) { // repeats up to any count: only minima are kept
        if (repeats < 1) repeats = 1;
        printMachine();
        printf("Packed colour passes alone (no overflow), one thread, %d cells per side; minimum over\n"
               "%d passes of each variant, interleaved, on the same positions; per block lane (tet or\n"
               "padding); cycles of the time-stamp counter (its fixed rate, not the core clock);\n"
               "multipliers start at zero and are not kept (9 sweeps in 10 of the benchmark) or kept;\n"
               "bits: positions and multipliers after one pass, against the one-lane kernel.\n\n",
               cells, repeats);
        printf("| mesh    | prec   | lanes   | kernel   | TSC/tet | ns/tet | M tet/s | TSC/tet, lambda kept | ns/tet, kept | bits |\n");
        printf("|---------|--------|---------|----------|---------|--------|---------|----------------------|--------------|------|\n");
        static const icPrecision precisions[2] = {IC_PRECISION_FLOAT, IC_PRECISION_DOUBLE};
        // the general mesh greedy and in pairs (mesh column "pairs"), the hex mesh (cells in 6
        // tets, and in 5: "hex5") by cells
        static const icColouringScheme schemes[4] = {IC_COLOURING_GREEDY, IC_COLOURING_PAIRS, IC_COLOURING_CELL,
                                                     IC_COLOURING_CELL};
        static const char *const labels[4] = {"general", "pairs", "hex", "hex5"};
        for (int p = 0; p < 2; ++p)
            for (int v = 0; v < 4; ++v) {
                icTetMesh mesh = {0};
                icBenchConfig f = {labels[v], precisions[p], IC_SIMD_AUTO, schemes[v], cfg.projection, false};
                if (v >= 2)
                    makeHex(&mesh, cells, v == 3 ? 5 : 6);
                else
                    makeGeneral(&mesh, cells);
                kernelMicro(&mesh, &f, repeats);
                icTetMesh_Destroy(&mesh);
            }
        printMachine();
        return 0;
    }
    if (repeats < 1) repeats = 1;
    if (repeats > 32) repeats = 32;
    if (quick) seconds = 0.1, repeats = repeats > 3 ? 3 : repeats;
    if (s_csv) fprintf(s_csv, "mesh,tets,precision,simd,scheme,colours,chunks,phases,threads,kernel,sweep,step,gbs\n");
    printMachine();
    printf("XPBD, %s projection, %d substeps x 1 iteration, nu = 0.49, one face pinned, gravity on; medians of %d\n"
           "repeats of ~%.1f s, 1 and %d threads alternated. kernel: colour passes and overflow;\n"
           "sweep: with the per-vertex passes (copies to and from the packed layout, fused with\n"
           "prediction and velocities); step: icWorld_Step.\n\n",
           cfg.projection == IC_PROJECTION_COUPLED ? "coupled" : "sequential", IC_BENCH_SUBSTEPS, repeats, seconds,
           threads);
    header();
    if (custom) {
        icTetMesh mesh = {0};
        if (strncmp(cfg.mesh, "hex", 3) == 0)
            makeHex(&mesh, cells, cfg.mesh[3] == '5' ? 5 : 6);
        else
            makeGeneral(&mesh, cells);
        benchMesh(&mesh, &cfg, threads, repeats, seconds);
        icTetMesh_Destroy(&mesh);
        printLayouts();
        if (s_csv) fclose(s_csv);
        return 0;
    }
    static const int sizes[3] = {12, 26, 56}; // 10,368 / 105,456 / 1,053,696 tets
    int count = quick ? 2 : 3;
    for (int s = 0; s < count && tables; ++s) {
        if (onlySize >= 0 && s != onlySize) continue;
        icTetMesh general = {0}, hex = {0};
        makeGeneral(&general, sizes[s]);
        makeHex(&hex, sizes[s], 6);
        icBenchConfig f = cfg;
        benchMesh(&general, &f, threads, repeats, seconds);
        f.scheme = IC_COLOURING_PAIRS;
        benchMesh(&general, &f, threads, repeats, seconds);
        f.mesh = "hex";
        f.scheme = IC_COLOURING_CELL;
        benchMesh(&hex, &f, threads, repeats, seconds);
        f = cfg;
        f.simd = IC_SIMD_AVX2;
        benchMesh(&general, &f, threads, repeats, seconds);
        f = cfg;
        f.precision = IC_PRECISION_DOUBLE;
        benchMesh(&general, &f, threads, repeats, seconds);
        f = cfg;
        f.simd = IC_SIMD_SCALAR;
        benchMesh(&general, &f, threads, repeats, seconds);
        icTetMesh_Destroy(&general);
        icTetMesh_Destroy(&hex);
    }
    if (tables) printLayouts();
    if (!extras) {
        printMachine();
        if (plot) writePlot(plot, threads);
        if (s_csv) fclose(s_csv);
        return 0;
    }
    // The whole step against mesh size (the scaling curve): phases from the layout's profile.
    printf("\nWhole step, general mesh, float, widest SIMD, %d threads (ms per step of %d substeps;\n"
           "vertex passes: prediction, copies, planes, velocities; rest: inverted-tet count, NaN\n"
           "check, multipliers to the state; output: the per-tet fields and volume ratio a frame\n"
           "writer reads):\n\n", threads, IC_BENCH_SUBSTEPS);
    printf("| tets      | colour passes | overflow | vertex passes | rest of step | step   | ns/tet/substep | output |\n");
    printf("|-----------|---------------|----------|---------------|--------------|--------|----------------|--------|\n");
    static const int scaling[6] = {12, 18, 26, 38, 46, 56}; // 10k, 35k, 105k, 329k, 584k, 1.05M
    for (int s = 0; s < (quick ? 3 : 6); ++s) {
        icTetMesh general = {0};
        makeGeneral(&general, scaling[s]);
        icWorld *world = makeWorld(&general, &cfg, threads);
        icBenchSample p[32];
        double stepTimes[32];
        for (int r = 0; r < repeats; ++r) p[r] = timeWorld(world, seconds), stepTimes[r] = p[r].stepTime;
        // the repeat with the median step time
        double mid = median(stepTimes, repeats);
        int k = 0;
        for (int r = 0; r < repeats; ++r)
            if (fabs(p[r].stepTime - mid) < fabs(p[k].stepTime - mid)) k = r;
        int tets = icWorld_GetTetCount(world);
        printf("| %9d | %13.3f | %8.3f | %13.3f | %12.3f | %6.2f | %14.2f | %6.2f |\n", tets,
               p[k].colourTime * 1e3, p[k].overflowTime * 1e3, p[k].copyTime * 1e3,
               (p[k].stepTime - p[k].colourTime - p[k].overflowTime - p[k].copyTime) * 1e3,
               p[k].stepTime * 1e3, p[k].stepTime * 1e9 / ((double)tets * IC_BENCH_SUBSTEPS),
               p[k].outputTime * 1e3);
        fflush(stdout);
        icDestroyWorld(world);
        icTetMesh_Destroy(&general);
    }
    printf("\nMemory, bytes per tet (model: mesh, masses, pins, per-tet constants; state: positions,\n"
           "velocities, substep start, multipliers; layout: packed blocks and working copies):\n\n");
    printf("| tets      | prec   | model  | state  | layout | total  | total      |\n");
    printf("|-----------|--------|--------|--------|--------|--------|------------|\n");
    for (int s = 0; s < count; ++s) {
        icTetMesh general = {0};
        makeGeneral(&general, sizes[s]);
        for (int p = 0; p < 2; ++p) {
            icBenchConfig f = cfg;
            f.precision = p ? IC_PRECISION_DOUBLE : IC_PRECISION_FLOAT;
            icWorld *world = makeWorld(&general, &f, 1);
            printMemory(world);
            icDestroyWorld(world);
        }
        icTetMesh_Destroy(&general);
    }
    benchScenes(threads);
    printMachine();
    if (plot) writePlot(plot, threads);
    if (s_csv) fclose(s_csv);
    return 0;
}
