// SPDX-License-Identifier: MIT
// Helpers the picture tests share: reading a pixel, telling the test colours apart, and the
// unit cube body they draw.
#pragma once

#include "test.h"

#include "isochor/formats.h"
#include "isochor/render.h"

#include <stdlib.h>

static inline const uint8_t *renderPixel(const icImage *image, int x, int y) {
    return image->rgb + 3 * ((size_t)y * image->width + x);
}

/// The default surface colour (a warm orange), shaded.
static inline bool renderIsOrange(const uint8_t *p) { return p[0] > p[1] + 20 && p[1] > p[2] + 20; }

/// The green the obstacle and wall tests draw with, shaded.
static inline bool renderIsGreen(const uint8_t *p) { return p[1] > p[0] + 60 && p[1] > p[2] + 60; }

/// The unit cube body, (-0.5, 0.5)^3, 3 cells a side.
static inline void renderTestCube(icTetMesh *mesh) {
    int cells[3] = {3, 3, 3};
    IC_CHECK_RESULT(icGenerateBox(mesh, icVec3_Make(1, 1, 1), cells, 6), IC_OK);
}
