// SPDX-License-Identifier: MIT
// Line plots into RGB images: axes with "nice" ticks (decades on log axes), anti-aliasing-free
// thick lines, legend, PNG output through image_png.c.
#include "render/plot.h"

#include "core/core.h"
#include "render/font.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void putPixel(icImage *im, int x, int y, const uint8_t rgb[3]) {
    if (x < 0 || y < 0 || x >= im->width || y >= im->height) return;
    uint8_t *p = im->rgb + 3 * ((size_t)y * (size_t)im->width + (size_t)x);
    p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2];
}

static void fillRect(icImage *im, int x0, int y0, int x1, int y1, const uint8_t rgb[3]) {
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) putPixel(im, x, y, rgb);
}

// A line two pixels thick (Bresenham with a 2x2 brush).
static void drawLine(icImage *im, double x0, double y0, double x1, double y1,
                     const uint8_t rgb[3]) {
    int ax = (int)lround(x0), ay = (int)lround(y0), bx = (int)lround(x1), by = (int)lround(y1);
    int dx = abs(bx - ax), dy = -abs(by - ay), sx = ax < bx ? 1 : -1, sy = ay < by ? 1 : -1;
    int err = dx + dy;
    for (int guard = 0; guard < 100000; ++guard) {
        fillRect(im, ax, ay, ax + 1, ay + 1, rgb);
        if (ax == bx && ay == by) break;
        int e2 = 2 * err;
        if (e2 >= dy) err += dy, ax += sx;
        if (e2 <= dx) err += dx, ay += sy;
    }
}

typedef struct icAxis {
    bool log;
    double lo, hi; ///< in plotted units (log10 for a log axis)
    int p0, p1;    ///< pixel range
} icAxis;

static bool plottable(const icAxis *a, double v) { return isfinite(v) && (!a->log || v > 0); }
static double axisValue(const icAxis *a, double v) { return a->log ? log10(v) : v; }
static double axisPixel(const icAxis *a, double v) {
    return a->p0 + (axisValue(a, v) - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

// The data range of one axis, widened a little (linear) or to whole decades (log).
static void fitAxis(icAxis *a, const icPlotSeries *s, int n, bool isX) {
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < n; ++k)
        for (int i = 0; i < s[k].count; ++i) {
            double v = isX ? s[k].x[i] : s[k].y[i];
            if (!plottable(a, v)) continue;
            v = axisValue(a, v);
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
    if (!(lo <= hi)) lo = 0, hi = 1;
    if (a->log) {
        lo = floor(lo);
        hi = ceil(hi);
        if (hi <= lo) hi = lo + 1;
    } else {
        if (hi - lo < 1e-300) lo -= 0.5, hi += 0.5;
        double pad = 0.05 * (hi - lo);
        if (!isX) lo -= pad, hi += pad;
    }
    a->lo = lo;
    a->hi = hi;
}

// Tick positions in plotted units: decades on log axes, 1/2/5 steps on linear ones.
static int ticks(const icAxis *a, double *out, int max) {
    int n = 0;
    if (a->log) {
        int step = (int)ceil((a->hi - a->lo) / 8);
        if (step < 1) step = 1;
        for (double v = a->lo; v <= a->hi + 1e-9 && n < max; v += step) out[n++] = v;
        return n;
    }
    double raw = (a->hi - a->lo) / 6, mag = pow(10, floor(log10(raw))), step = mag;
    if (raw / mag > 5)
        step = 10 * mag;
    else if (raw / mag > 2)
        step = 5 * mag;
    else if (raw / mag > 1)
        step = 2 * mag;
    for (double v = ceil(a->lo / step) * step; v <= a->hi + 1e-9 * step && n < max; v += step)
        out[n++] = fabs(v) < 1e-12 * step ? 0 : v;
    return n;
}

static void tickLabel(const icAxis *a, double v, char *buf, size_t size) {
    if (a->log)
        snprintf(buf, size, "1E%d", (int)lround(v));
    else
        snprintf(buf, size, "%g", v);
}

icResult icPlot_Draw(const icPlotDef *def, const icPlotSeries *s, int n, icImage *im) {
    int width = def->width > 0 ? def->width : 720, height = def->height > 0 ? def->height : 480;
    icResult e = icImage_Create(im, width, height);
    if (e != IC_OK) return e;
    static const uint8_t white[3] = {255, 255, 255}, black[3] = {30, 30, 30},
                         grid[3] = {225, 225, 225};
    fillRect(im, 0, 0, width - 1, height - 1, white);
    int left = 90, right = width - 20, top = 44, bottom = height - 60;
    icAxis ax = {def->logX, 0, 1, left, right}, ay = {def->logY, 0, 1, bottom, top};
    fitAxis(&ax, s, n, true);
    fitAxis(&ay, s, n, false);
    if (def->hasYRange && def->yMax > def->yMin &&
        (!def->logY || (def->yMin > 0 && def->yMax > 0))) {
        ay.lo = axisValue(&ay, def->yMin);
        ay.hi = axisValue(&ay, def->yMax);
    }
    double t[32];
    char buf[32];
    int nt = ticks(&ax, t, 32);
    for (int i = 0; i < nt; ++i) {
        int px = (int)lround(ax.p0 + (t[i] - ax.lo) / (ax.hi - ax.lo) * (ax.p1 - ax.p0));
        fillRect(im, px, top, px, bottom, grid);
        tickLabel(&ax, t[i], buf, sizeof buf);
        icFont_Draw(im, px - icFont_Width(buf, 2) / 2, bottom + 8, 2, buf, black);
    }
    nt = ticks(&ay, t, 32);
    for (int i = 0; i < nt; ++i) {
        int py = (int)lround(ay.p0 + (t[i] - ay.lo) / (ay.hi - ay.lo) * (ay.p1 - ay.p0));
        fillRect(im, left, py, right, py, grid);
        tickLabel(&ay, t[i], buf, sizeof buf);
        icFont_Draw(im, left - 8 - icFont_Width(buf, 2), py - icFont_Height(2) / 2, 2, buf, black);
    }
    fillRect(im, left, top, right, top, black);
    fillRect(im, left, bottom, right, bottom, black);
    fillRect(im, left, top, left, bottom, black);
    fillRect(im, right, top, right, bottom, black);
    for (int k = 0; k < n; ++k) {
        bool have = false;
        double px = 0, py = 0;
        for (int i = 0; i < s[k].count; ++i) {
            double x = s[k].x[i], y = s[k].y[i];
            if (!plottable(&ax, x) || !plottable(&ay, y)) {
                have = false;
                continue;
            }
            double cx = axisPixel(&ax, x), cy = axisPixel(&ay, y);
            // clip to the frame
            cy = cy < top ? top : (cy > bottom ? bottom : cy);
            if (have)
                drawLine(im, px, py, cx, cy, s[k].rgb);
            else if (s[k].count == 1)
                fillRect(im, (int)cx - 2, (int)cy - 2, (int)cx + 2, (int)cy + 2, s[k].rgb);
            px = cx, py = cy, have = true;
        }
    }
    // Legend in the top-right corner on a white box, after the curves so that it stays legible.
    int labelWidth = 0, labelled = 0;
    for (int k = 0; k < n; ++k)
        if (s[k].label) {
            int lw = icFont_Width(s[k].label, 2);
            labelWidth = lw > labelWidth ? lw : labelWidth;
            ++labelled;
        }
    if (labelled > 0) {
        int x0 = right - labelWidth - 56, y0 = top + 6;
        fillRect(im, x0, y0, right - 6, y0 + 22 * labelled + 6, white);
        int row = 0;
        for (int k = 0; k < n; ++k) {
            if (!s[k].label) continue;
            int ly = y0 + 8 + 22 * row++;
            fillRect(im, x0 + 8, ly + 5, x0 + 38, ly + 8, s[k].rgb);
            icFont_Draw(im, x0 + 46, ly, 2, s[k].label, black);
        }
    }
    if (def->title)
        icFont_Draw(im, (left + right) / 2 - icFont_Width(def->title, 2) / 2, 4, 2, def->title,
                    black);
    if (def->xLabel)
        icFont_Draw(im, (left + right) / 2 - icFont_Width(def->xLabel, 2) / 2, height - 26, 2,
                    def->xLabel, black);
    if (def->yLabel) icFont_Draw(im, 8, 22, 2, def->yLabel, black);
    return IC_OK;
}

icResult icPlot_SavePng(const char *path, const icPlotDef *def, const icPlotSeries *s, int n,
                        icDiagnostic *diag) {
    icImage im;
    icResult e = icPlot_Draw(def, s, n, &im);
    if (e != IC_OK) return icDiag_Set(diag, e, path, 0, "cannot draw the plot");
    e = icImage_SavePng(&im, path, diag);
    icImage_Destroy(&im);
    return e;
}
