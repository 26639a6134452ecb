// SPDX-License-Identifier: MIT
// Colour maps for fields: piecewise linear through a few hand-picked colours.
#include "isochor/render.h"

typedef struct icColourStop {
    float t, r, g, b;
} icColourStop;

// Dark blue through teal and green to yellow: brightness rises with the value, so the map
// reads in grey too.
static const icColourStop s_sequential[] = {{0.00f, 0.15f, 0.10f, 0.40f},
                                            {0.25f, 0.13f, 0.35f, 0.60f},
                                            {0.50f, 0.12f, 0.58f, 0.56f},
                                            {0.75f, 0.45f, 0.78f, 0.32f},
                                            {1.00f, 0.98f, 0.90f, 0.15f}};
// Blue to light grey to red, for values on either side of a reference.
static const icColourStop s_diverging[] = {{0.00f, 0.23f, 0.30f, 0.75f},
                                           {0.25f, 0.53f, 0.65f, 0.95f},
                                           {0.50f, 0.87f, 0.87f, 0.87f},
                                           {0.75f, 0.93f, 0.55f, 0.43f},
                                           {1.00f, 0.71f, 0.02f, 0.15f}};

void icColourMap_Sample(icColourMap map, icReal t, uint8_t rgb[3]) {
    const icColourStop *stops = map == IC_COLOURMAP_DIVERGING ? s_diverging : s_sequential;
    const int count = 5;
    if (!(t > 0)) t = 0; // NaN maps to the low end
    if (t > 1) t = 1;
    int i = 0;
    while (i + 2 < count && t > stops[i + 1].t) ++i;
    float s = (float)((t - stops[i].t) / (stops[i + 1].t - stops[i].t));
    float c[3] = {stops[i].r + s * (stops[i + 1].r - stops[i].r),
                  stops[i].g + s * (stops[i + 1].g - stops[i].g),
                  stops[i].b + s * (stops[i + 1].b - stops[i].b)};
    for (int k = 0; k < 3; ++k) rgb[k] = (uint8_t)(c[k] * 255.0f + 0.5f);
}
