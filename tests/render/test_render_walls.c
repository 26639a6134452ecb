// SPDX-License-Identifier: MIT
// Walls (planes other than the ground) in pictures: drawn only from their inner side, in
// their own colour behind the body, cut to each other, to the region around the frame and to
// its top; a wall seen from outside leaves the picture exactly as it was; bad walls are
// refused with exact codes. The command line's walls: test_render_obstacles.c.
#include "render_testing.h"

#include "isochor/formats.h"
#include "isochor/render.h"

#include <string.h>

// Is the world point p drawn green (the test's wall colour) in the picture? -1: off it.
static int greenAt(const icImage *image, const icCamera *camera, icVec3 p) {
    icReal x, y;
    if (!icCamera_Project(camera, p, &x, &y, NULL)) return -1;
    int px = (int)x, py = (int)y;
    if (px < 0 || py < 0 || px >= image->width || py >= image->height) return -1;
    return renderIsGreen(renderPixel(image, px, py));
}

static icRenderDef greenWalls(void) {
    icRenderDef def = icDefaultRenderDef();
    def.width = 240, def.height = 160;
    const uint8_t green[3] = {40, 200, 60};
    memcpy(def.wallColour, green, 3);
    return def;
}

// The default view looks from +x, +y, +z: the wall z >= -1 behind the body faces the eye, the
// wall z <= 1 in front of it does not. The first is drawn where the body leaves room, the second
// not at all (the picture is byte for byte the one without walls), and the camera stays.
IC_TEST(render, walls_only_from_their_inner_side) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    icRenderDef def = greenWalls();
    IC_CHECK_INT(def.wallCount, 0);
    IC_CHECK(def.walls == NULL);
    icImage plain, back, front;
    icRenderInfo info, infoBack;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &plain, &info, NULL) == IC_OK);
    icRenderPlane behind = {icVec3_Make(0, 0, 2), -2};  // z >= -1, normal of length 2
    icRenderPlane before = {icVec3_Make(0, 0, -1), -1}; // z <= 1
    def.wallCount = 1;
    def.walls = &before;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &front, NULL, NULL) == IC_OK);
    IC_CHECK(memcmp(front.rgb, plain.rgb, (size_t)240 * 160 * 3) == 0);
    def.walls = &behind;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &back, &infoBack, NULL) == IC_OK);
    IC_CHECK(icVec3_Distance(info.camera.eye, infoBack.camera.eye) == 0);
    IC_CHECK_INT(infoBack.surfacePixels, info.surfacePixels); // the wall is behind the body
    int changed = 0, green = 0;
    for (int i = 0; i < 240 * 160; ++i) {
        if (memcmp(back.rgb + 3 * i, plain.rgb + 3 * i, 3) == 0) continue;
        ++changed;
        green += renderIsGreen(back.rgb + 3 * i);
    }
    IC_CHECK_MSG(changed > 240 * 160 / 10, "%d pixels changed", changed);
    // All but the antialiased rims of the wall and the body are the wall's colour.
    IC_CHECK_MSG(green > changed * 9 / 10, "%d of %d changed pixels green", green, changed);
    IC_CHECK_INT(greenAt(&back, &infoBack.camera, icVec3_Make(0.4, 0.3, -1)), 1);
    icImage_Destroy(&plain), icImage_Destroy(&back), icImage_Destroy(&front);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Walls z >= -1 (seen), x >= -1 (seen) and x <= 1 (not seen, but it still bounds the others),
// framed wide enough to show their edges: the back wall ends at x = 1 and a little above the
// frame's top (y = 0.5 + 5 % of the frame's half diagonal, 1.905: at 0.595); the side wall
// shows too.
IC_TEST(render, walls_are_cut_to_each_other_and_the_frame) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    icRenderDef def = greenWalls();
    def.hasFrame = true;
    def.frameLower = icVec3_Make(-1.3, -0.5, -1.3);
    def.frameUpper = icVec3_Make(1.3, 0.5, 1.3);
    icRenderPlane walls[3] = {
        {icVec3_Make(0, 0, 1), -1}, {icVec3_Make(1, 0, 0), -1}, {icVec3_Make(-1, 0, 0), -1}};
    def.wallCount = 3;
    def.walls = walls;
    icImage image, plain;
    icRenderInfo info, infoPlain;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, &info, NULL) == IC_OK);
    def.wallCount = 0;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &plain, &infoPlain, NULL) == IC_OK);
    IC_CHECK_INT(info.surfacePixels, infoPlain.surfacePixels); // no wall hides the body
    icImage_Destroy(&plain);
    const icCamera *camera = &info.camera;
    IC_CHECK_INT(greenAt(&image, camera, icVec3_Make(0.9, 0.3, -1)), 1);  // the back wall
    IC_CHECK_INT(greenAt(&image, camera, icVec3_Make(1.1, 0.3, -1)), 0);  // past x <= 1
    IC_CHECK_INT(greenAt(&image, camera, icVec3_Make(0.9, 0.55, -1)), 1); // below its top
    IC_CHECK_INT(greenAt(&image, camera, icVec3_Make(0.9, 0.65, -1)), 0); // above it
    IC_CHECK_INT(greenAt(&image, camera, icVec3_Make(-1, 0.3, 0.9)), 1);  // the side wall
    icImage_Destroy(&image);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(render, bad_walls_are_refused) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    icRenderDef def = greenWalls();
    icRenderPlane walls[IC_RENDER_MAX_WALLS + 1];
    for (int w = 0; w <= IC_RENDER_MAX_WALLS; ++w)
        walls[w] = (icRenderPlane){icVec3_Make(0, 0, 1), -1 - w};
    icImage image;
    icDiagnostic diag = {0};
    def.walls = walls;
    def.wallCount = IC_RENDER_MAX_WALLS + 1;
    IC_CHECK_RESULT(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, NULL, &diag),
                    IC_ERR_INVALID_ARGUMENT);
    IC_CHECK(strstr(diag.message, "walls") != NULL);
    def.wallCount = -1;
    IC_CHECK_RESULT(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, NULL, NULL),
                    IC_ERR_INVALID_ARGUMENT);
    def.wallCount = 1;
    def.walls = NULL;
    IC_CHECK_RESULT(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, NULL, NULL),
                    IC_ERR_INVALID_ARGUMENT);
    def.walls = walls;
    def.wallCount = 2;
    walls[1].normal = icVec3_Make(0, 0, 0);
    IC_CHECK_RESULT(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, NULL, &diag),
                    IC_ERR_BAD_VALUE);
    IC_CHECK(strstr(diag.message, "wall 1") != NULL);
    walls[1].normal = icVec3_Make(NAN, 0, 1);
    IC_CHECK_RESULT(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, NULL, NULL),
                    IC_ERR_BAD_VALUE);
    walls[1].normal = icVec3_Make(0, 0, 1);
    walls[1].offset = INFINITY;
    IC_CHECK_RESULT(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, NULL, NULL),
                    IC_ERR_BAD_VALUE);
    walls[1].offset = -2;
    def.wallCount = IC_RENDER_MAX_WALLS; // the most there may be
    IC_CHECK_RESULT(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, NULL, NULL), IC_OK);
    icImage_Destroy(&image);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}
