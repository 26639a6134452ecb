// SPDX-License-Identifier: MIT
// Pictures are checked by their content: the object covers the pixels it projects to and
// no others, the ground shows grid lines, the colour bar runs through the colour map, and
// field colours follow the field.
#include "render_testing.h"

#include "isochor/formats.h"
#include "isochor/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool isGrey(const uint8_t *p) { return abs(p[0] - p[1]) < 14 && abs(p[1] - p[2]) < 14; }
static int luminance(const uint8_t *p) { return (p[0] * 3 + p[1] * 6 + p[2]) / 10; }

// Projected bounding rectangle of the box [lo, hi].
static void projectBox(const icCamera *camera, icVec3 lo, icVec3 hi, int *x0, int *y0, int *x1,
                       int *y1) {
    double minX = 1e30, minY = 1e30, maxX = -1e30, maxY = -1e30;
    for (int c = 0; c < 8; ++c) {
        icVec3 p = icVec3_Make(c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z);
        icReal x, y;
        IC_CHECK(icCamera_Project(camera, p, &x, &y, NULL));
        minX = fmin(minX, x), maxX = fmax(maxX, x), minY = fmin(minY, y), maxY = fmax(maxY, y);
    }
    *x0 = (int)floor(minX), *y0 = (int)floor(minY), *x1 = (int)ceil(maxX), *y1 = (int)ceil(maxY);
}

IC_TEST(render, object_covers_its_projection) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    icRenderDef def = icDefaultRenderDef();
    def.width = 320, def.height = 240;
    icImage image;
    icRenderInfo info;
    icDiagnostic diag = {0};
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, &info, &diag) == IC_OK);
    int x0, y0, x1, y1;
    projectBox(&info.camera, icVec3_Make(-0.5, -0.5, -0.5), icVec3_Make(0.5, 0.5, 0.5), &x0, &y0,
               &x1, &y1);
    IC_CHECK(x0 > 0 && y0 > 0 && x1 < 320 && y1 < 240);   // auto-framed: all in view
    IC_CHECK((x1 - x0) > 320 / 3 || (y1 - y0) > 240 / 3); // and not tiny
    int inside = 0, outside = 0;
    for (int y = 0; y < 240; ++y)
        for (int x = 0; x < 320; ++x) {
            bool orange = renderIsOrange(renderPixel(&image, x, y));
            bool in = x >= x0 - 1 && x <= x1 + 1 && y >= y0 - 1 && y <= y1 + 1;
            inside += orange && in;
            outside += orange && !in;
        }
    int area = (x1 - x0) * (y1 - y0);
    IC_CHECK_MSG(inside > area / 2, "%d object pixels in a %d-pixel box", inside, area);
    IC_CHECK_INT(outside, 0);
    IC_CHECK(abs(info.surfacePixels - inside) < inside / 10 + 10);
    IC_CHECK(renderIsOrange(renderPixel(&image, (x0 + x1) / 2, (y0 + y1) / 2)));
    // No field: no colour bar.
    IC_CHECK_INT(info.barX1, 0);
    icImage_Destroy(&image);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Grid lines show as repeated dark dips along a row of the ground; without the grid the
// same row is a smooth gradient.
static int gridDips(const icImage *image, int y) {
    int dips = 0, base = luminance(renderPixel(image, 0, y));
    bool inDip = false;
    for (int x = 1; x < image->width * 2 / 3; ++x) {
        const uint8_t *p = renderPixel(image, x, y);
        int l = luminance(p);
        if (!inDip && l < base - 20 && isGrey(p)) {
            inDip = true;
            ++dips;
        } else if (inDip && l > base - 8) {
            inDip = false;
        }
        if (!inDip) base = l;
    }
    return dips;
}

IC_TEST(render, ground_grid_present) {
    icTetMesh mesh;
    renderTestCube(&mesh);
    icRenderDef def = icDefaultRenderDef();
    def.width = 320, def.height = 240;
    icImage with, without;
    icRenderInfo info;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &with, &info, NULL) == IC_OK);
    def.groundGrid = false;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &without, NULL, NULL) == IC_OK);
    int y = 240 - 12; // near the bottom: ground in front of the object
    int grey = 0;
    for (int x = 0; x < 320; ++x) grey += isGrey(renderPixel(&with, x, y));
    IC_CHECK(grey > 300);
    IC_CHECK_MSG(gridDips(&with, y) >= 2, "%d grid lines", gridDips(&with, y));
    IC_CHECK_INT(gridDips(&without, y), 0);
    // The sky above the object has no grid.
    IC_CHECK_INT(gridDips(&with, 3), 0);
    icImage_Destroy(&with);
    icImage_Destroy(&without);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(render, colour_bar_and_field_colours) {
    icTetMesh mesh;
    renderTestCube(&mesh);
    icReal *x = malloc(sizeof(icReal) * (size_t)mesh.vertexCount);
    for (int v = 0; v < mesh.vertexCount; ++v) x[v] = mesh.positions[3 * v]; // field = x
    icRenderDef def = icDefaultRenderDef();
    def.width = 480, def.height = 320;
    def.fieldLabel = "X";
    icImage image;
    icRenderInfo info;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, x, &def, &image, &info, NULL) == IC_OK);
    IC_CHECK_NEAR(info.fieldMin, -0.5, 1e-12);
    IC_CHECK_NEAR(info.fieldMax, 0.5, 1e-12);
    // The bar: inside the picture, right of the object, running from map(1) at the top to
    // map(0) at the bottom.
    IC_REQUIRE(info.barX1 > info.barX0 && info.barY1 > info.barY0 && info.barX1 < 480);
    int cx = (info.barX0 + info.barX1) / 2;
    uint8_t top[3], bottom[3];
    icColourMap_Sample(IC_COLOURMAP_SEQUENTIAL, 1.0, top);
    icColourMap_Sample(IC_COLOURMAP_SEQUENTIAL, 0.0, bottom);
    const uint8_t *pt = renderPixel(&image, cx, info.barY0),
                  *pb = renderPixel(&image, cx, info.barY1 - 1);
    for (int k = 0; k < 3; ++k) {
        IC_CHECK(abs(pt[k] - top[k]) <= 2);
        IC_CHECK(abs(pb[k] - bottom[k]) <= 2);
    }
    // Labels: dark text pixels right of the bar.
    int ink = 0;
    for (int y = info.barY0 - 10; y < info.barY1 + 10; ++y)
        for (int xx = info.barX1 + 6; xx < 480; ++xx)
            ink += luminance(renderPixel(&image, xx, y)) < 60;
    IC_CHECK_MSG(ink > 100, "%d label pixels", ink);
    // The object keeps clear of the bar.
    int x0, y0, x1, y1;
    projectBox(&info.camera, icVec3_Make(-0.5, -0.5, -0.5), icVec3_Make(0.5, 0.5, 0.5), &x0, &y0,
               &x1, &y1);
    IC_CHECK(x1 < info.barX0);
    // Field colours: the low-x end of the front face is blue-ish, the high-x end yellow-ish.
    icReal px, py;
    IC_REQUIRE(icCamera_Project(&info.camera, icVec3_Make(-0.42, 0, 0.5), &px, &py, NULL));
    const uint8_t *low = renderPixel(&image, (int)px, (int)py);
    IC_REQUIRE(icCamera_Project(&info.camera, icVec3_Make(0.42, 0, 0.5), &px, &py, NULL));
    const uint8_t *high = renderPixel(&image, (int)px, (int)py);
    IC_CHECK_MSG(low[2] > low[0], "low end %d %d %d", low[0], low[1], low[2]);
    IC_CHECK_MSG(high[0] + high[1] > 3 * high[2], "high end %d %d %d", high[0], high[1], high[2]);
    icImage_Destroy(&image);
    free(x);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(render, png_round_trip_and_camera) {
    icTetMesh mesh;
    renderTestCube(&mesh);
    icRenderDef def = icDefaultRenderDef();
    def.width = 200, def.height = 150;
    icImage image, back;
    icRenderInfo info;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, &info, NULL) == IC_OK);
    char path[1200];
    IC_FORMAT(path, "%s/cube.png", icTest_TempDir());
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icImage_SavePng(&image, path, &diag), IC_OK);
    IC_REQUIRE(icImage_LoadPng(&back, path, &diag) == IC_OK);
    IC_CHECK(back.width == 200 && back.height == 150);
    IC_CHECK(memcmp(back.rgb, image.rgb, 3 * 200 * 150) == 0);
    // Without a colour bar the target projects to the centre.
    icReal x, y;
    IC_CHECK(icCamera_Project(&info.camera, info.camera.target, &x, &y, NULL));
    IC_CHECK_NEAR(x, 100, 1e-9);
    IC_CHECK_NEAR(y, 75, 1e-9);
    icImage_Destroy(&back);
    icImage_Destroy(&image);
    // Not a PNG.
    IC_CHECK_RESULT(icImage_LoadPng(&back, icTest_SourcePath("tests/data/formats/cube.obj"), &diag),
                    IC_ERR_PARSE);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(render, refuses_bad_input) {
    icRenderDef def = icDefaultRenderDef();
    icImage image;
    icRenderMesh empty = {0, NULL, 0, NULL, NULL, NULL};
    IC_CHECK_RESULT(icRender(&empty, &def, &image, NULL, NULL), IC_ERR_EMPTY);
    icReal p[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int t[3] = {0, 1, 2};
    icRenderMesh one = {3, p, 1, t, NULL, NULL};
    def.width = 4;
    IC_CHECK_RESULT(icRender(&one, &def, &image, NULL, NULL), IC_ERR_BAD_VALUE);
    def.width = 64;
    p[4] = NAN;
    IC_CHECK_RESULT(icRender(&one, &def, &image, NULL, NULL), IC_ERR_NOT_FINITE);
    IC_CHECK(image.rgb == NULL);
}
