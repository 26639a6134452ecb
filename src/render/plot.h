// SPDX-License-Identifier: MIT
// Line plots as PNG files (figures of the VIPER experiments): linear or logarithmic axes,
// ticks with labels, a legend. Labels use the 5x7 font (capitals, digits, a few signs).
#pragma once

#include "isochor/render.h"

/// One curve: count points (x[i], y[i]); non-finite points, and non-positive ones on a log
/// axis, break the line.
typedef struct icPlotSeries {
    const char *label;
    int count;
    const double *x, *y;
    uint8_t rgb[3];
} icPlotSeries;

/// How the plot looks; zero-initialise and set what you need (width, height 0: 720 x 480).
typedef struct icPlotDef {
    int width, height;
    const char *title, *xLabel, *yLabel;
    bool logX, logY;
    bool hasYRange; ///< use yMin..yMax instead of the data's range
    double yMin, yMax;
} icPlotDef;

/// Draws the series into image (created here; free with icImage_Destroy).
icResult icPlot_Draw(const icPlotDef *def, const icPlotSeries *series, int seriesCount,
                     icImage *image);
/// icPlot_Draw, then writes the PNG (atomically).
icResult icPlot_SavePng(const char *path, const icPlotDef *def, const icPlotSeries *series,
                        int seriesCount, icDiagnostic *diag);
