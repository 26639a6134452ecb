// SPDX-License-Identifier: MIT
// Obstacles (colliders) in pictures: drawn in their own neutral colour where they project and
// nowhere else, never coloured by the field, in one z-buffer with the body, clipped rather
// than dropped when they reach behind the camera, without moving the camera; and no obstacles
// leave the picture exactly as it was. `isochor render` draws a scene's colliders, and its
// planes other than the floor as walls (the renderer's walls: test_render_walls.c).
#include "render_testing.h"

#include "isochor/formats.h"
#include "isochor/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static bool isGrey(const uint8_t *p) { return abs(p[0] - p[1]) < 6 && abs(p[1] - p[2]) < 6; }

// A world holding one box collider; its surface tessellated at time 0.
static icWorld *boxCollider(icVec3 centre, icVec3 half, icColliderSurface *surface) {
    icWorld *world = icCreateWorld(NULL);
    icColliderDef def = icDefaultColliderDef();
    def.shape = IC_COLLIDER_BOX;
    def.centre = centre;
    def.halfExtents = half;
    icColliderId id;
    IC_CHECK_RESULT(icWorld_AddCollider(world, &def, &id, NULL), IC_OK);
    memset(surface, 0, sizeof *surface);
    IC_CHECK_RESULT(icWorld_TessellateColliders(world, 0, 8, surface), IC_OK);
    return world;
}

// Projected bounding rectangle of the box [centre - half, centre + half].
static void projectBox(const icCamera *camera, icVec3 centre, icVec3 half, int r[4]) {
    double minX = 1e30, minY = 1e30, maxX = -1e30, maxY = -1e30;
    for (int c = 0; c < 8; ++c) {
        icVec3 p = icVec3_Make(centre.x + (c & 1 ? half.x : -half.x),
                               centre.y + (c & 2 ? half.y : -half.y),
                               centre.z + (c & 4 ? half.z : -half.z));
        icReal x, y;
        IC_CHECK(icCamera_Project(camera, p, &x, &y, NULL));
        minX = fmin(minX, x), maxX = fmax(maxX, x), minY = fmin(minY, y), maxY = fmax(maxY, y);
    }
    r[0] = (int)floor(minX) - 1, r[1] = (int)floor(minY) - 1;
    r[2] = (int)ceil(maxX) + 1, r[3] = (int)ceil(maxY) + 1;
}

static bool inRect(const int r[4], int x, int y) {
    return x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3];
}

static bool samePicture(const icImage *a, const icImage *b) {
    return a->width == b->width && a->height == b->height &&
           memcmp(a->rgb, b->rgb, (size_t)a->width * a->height * 3) == 0;
}

IC_TEST(render, no_obstacles_leave_the_picture_unchanged) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    icReal *x = malloc(sizeof(icReal) * (size_t)mesh.vertexCount);
    for (int v = 0; v < mesh.vertexCount; ++v) x[v] = mesh.positions[3 * v + 1];
    icRenderDef def = icDefaultRenderDef();
    def.width = 200, def.height = 150;
    IC_CHECK(def.obstacles == NULL);
    IC_CHECK(def.obstacleColour[0] == def.obstacleColour[1] &&
             def.obstacleColour[1] == def.obstacleColour[2] && def.obstacleColour[0] > 90 &&
             def.obstacleColour[0] < 200); // a mid grey
    icImage plain, empty, field, fieldEmpty;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &plain, NULL, NULL) == IC_OK);
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, x, &def, &field, NULL, NULL) == IC_OK);
    // An obstacle list without triangles is no obstacle: the same bits.
    icRenderMesh none = {0, NULL, 0, NULL, NULL, NULL};
    def.obstacles = &none;
    def.obstacleColour[0] = 10;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &empty, NULL, NULL) == IC_OK);
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, x, &def, &fieldEmpty, NULL, NULL) == IC_OK);
    IC_CHECK(samePicture(&plain, &empty));
    IC_CHECK(samePicture(&field, &fieldEmpty));
    IC_CHECK(!samePicture(&plain, &field)); // the comparison can tell pictures apart
    icImage_Destroy(&plain), icImage_Destroy(&empty);
    icImage_Destroy(&field), icImage_Destroy(&fieldEmpty);
    // Bad obstacles are refused with a reason.
    int bad[3] = {0, 1, 7};
    icReal p[9] = {0};
    icRenderMesh wrong = {3, p, 1, bad, NULL, NULL};
    def.obstacles = &wrong;
    icImage image;
    IC_CHECK_RESULT(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, NULL, NULL),
                    IC_ERR_INDEX_OUT_OF_RANGE);
    free(x);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A box collider beside the body: grey pixels where it projects, the picture unchanged
// elsewhere, the same colour whatever field colours the body.
IC_TEST(render, obstacle_box_drawn_grey_where_it_projects) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    icVec3 centre = icVec3_Make(1.6, 0, -0.3), half = icVec3_Make(0.4, 0.5, 0.4);
    icColliderSurface surface;
    icWorld *world = boxCollider(centre, half, &surface);
    icRenderMesh obstacles = icColliderSurface_AsRenderMesh(&surface);
    icRenderDef def = icDefaultRenderDef();
    def.width = 320, def.height = 200;
    def.colourBar = false;
    // Frame both (the camera follows the frame, not the obstacles) and keep one ground.
    def.hasFrame = true;
    def.frameLower = icVec3_Make(-0.5, -0.5, -0.7);
    def.frameUpper = icVec3_Make(2.0, 0.5, 0.5);
    icImage without, with, green, field;
    icRenderInfo info, infoWith;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &without, &info, NULL) == IC_OK);
    def.obstacles = &obstacles;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &with, &infoWith, NULL) == IC_OK);
    int rect[4];
    projectBox(&info.camera, centre, half, rect);
    IC_REQUIRE(rect[0] > 0 && rect[1] > 0 && rect[2] < 320 && rect[3] < 200);
    int changedInside = 0, changedOutside = 0, greyInside = 0;
    for (int y = 0; y < 200; ++y)
        for (int x = 0; x < 320; ++x) {
            bool changed = memcmp(renderPixel(&with, x, y), renderPixel(&without, x, y), 3) != 0;
            if (!inRect(rect, x, y)) {
                changedOutside += changed;
                continue;
            }
            changedInside += changed;
            greyInside += changed && isGrey(renderPixel(&with, x, y));
        }
    int area = (rect[2] - rect[0]) * (rect[3] - rect[1]);
    IC_CHECK_INT(changedOutside, 0);
    IC_CHECK_MSG(changedInside > area / 2, "%d changed pixels in a %d-pixel box", changedInside,
                 area);
    IC_CHECK_MSG(greyInside > changedInside * 9 / 10, "%d of %d changed pixels grey", greyInside,
                 changedInside);
    IC_CHECK_INT(infoWith.surfacePixels, info.surfacePixels); // the body is not hidden
    // Its own colour where it projects and nowhere else.
    const uint8_t greenRgb[3] = {40, 200, 60};
    memcpy(def.obstacleColour, greenRgb, 3);
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &green, NULL, NULL) == IC_OK);
    int greenInside = 0, greenOutside = 0;
    for (int y = 0; y < 200; ++y)
        for (int x = 0; x < 320; ++x) {
            bool g = renderIsGreen(renderPixel(&green, x, y));
            greenInside += g && inRect(rect, x, y);
            greenOutside += g && !inRect(rect, x, y);
        }
    IC_CHECK_INT(greenOutside, 0);
    IC_CHECK_MSG(greenInside > area / 2, "%d green pixels in a %d-pixel box", greenInside, area);
    // A field colours the body only: the obstacle's pixels are those of the plain picture.
    icReal *values = malloc(sizeof(icReal) * (size_t)mesh.vertexCount);
    for (int v = 0; v < mesh.vertexCount; ++v) values[v] = 5 * mesh.positions[3 * v];
    def.obstacleColour[0] = def.obstacleColour[1] = def.obstacleColour[2] = 160;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, values, &def, &field, NULL, NULL) == IC_OK);
    int cx = (rect[0] + rect[2]) / 2, cy = (rect[1] + rect[3]) / 2;
    IC_CHECK(isGrey(renderPixel(&field, cx, cy)));
    IC_CHECK(memcmp(renderPixel(&field, cx, cy), renderPixel(&with, cx, cy), 3) == 0);
    free(values);
    icImage_Destroy(&without), icImage_Destroy(&with), icImage_Destroy(&green);
    icImage_Destroy(&field);
    icColliderSurface_Destroy(&surface);
    icDestroyWorld(world);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A small box on the line of sight: in front of the body it hides the body's centre, behind
// it it is hidden and the picture is that without it; so is a box under the ground.
IC_TEST(render, obstacles_share_the_depth_buffer) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    icRenderDef def = icDefaultRenderDef();
    def.width = 240, def.height = 160;
    def.hasGroundHeight = true; // the ground must not follow the obstacles here (and lies
    def.groundHeight = -0.6;    // clear of the body's bottom face)
    icImage plain;
    icRenderInfo info;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &plain, &info, NULL) == IC_OK);
    icVec3 toEye = icVec3_Normalize(icVec3_Sub(info.camera.eye, info.camera.target));
    icReal cx, cy;
    IC_REQUIRE(icCamera_Project(&info.camera, icVec3_Make(0, 0, 0), &cx, &cy, NULL));
    int px = (int)cx, py = (int)cy;
    IC_CHECK(renderIsOrange(renderPixel(&plain, px, py)));
    icVec3 half = icVec3_Make(0.15, 0.15, 0.15);
    for (int side = 0; side < 3; ++side) {
        // In front: 1.3 m towards the eye (the cube reaches 0.87); behind: 1.5 m away; a wide
        // slab 0.1 m under the ground.
        icVec3 centre = icVec3_Scale(side == 0 ? 1.3 : -1.5, toEye);
        icColliderSurface surface;
        icWorld *world =
            side < 2 ? boxCollider(centre, half, &surface)
                     : boxCollider(icVec3_Make(0, -1.2, 0), icVec3_Make(3, 0.5, 3), &surface);
        icRenderMesh obstacles = icColliderSurface_AsRenderMesh(&surface);
        def.obstacles = &obstacles;
        icImage image;
        icRenderInfo infoWith;
        IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, &infoWith, NULL) ==
                   IC_OK);
        if (side == 0) {
            IC_CHECK(isGrey(renderPixel(&image, px, py)));
            IC_CHECK_MSG(infoWith.surfacePixels < info.surfacePixels - 50, "%d vs %d",
                         infoWith.surfacePixels, info.surfacePixels);
        } else {
            IC_CHECK(samePicture(&image, &plain));
            IC_CHECK_INT(infoWith.surfacePixels, info.surfacePixels);
        }
        def.obstacles = NULL;
        icImage_Destroy(&image);
        icColliderSurface_Destroy(&surface);
        icDestroyWorld(world);
    }
    icImage_Destroy(&plain);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A 100 m ground box under the body reaches behind the camera: it is clipped, not dropped,
// so it fills the lower picture, and the camera still frames the body alone.
IC_TEST(render, huge_obstacle_is_clipped_and_keeps_the_camera) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    icColliderSurface surface;
    icWorld *world =
        boxCollider(icVec3_Make(0, -1, 0), icVec3_Make(50, 0.5, 50), &surface); // top at -0.5
    icRenderMesh obstacles = icColliderSurface_AsRenderMesh(&surface);
    icRenderDef def = icDefaultRenderDef();
    def.width = 240, def.height = 160;
    const uint8_t greenRgb[3] = {40, 200, 60};
    memcpy(def.obstacleColour, greenRgb, 3);
    icImage plain, image;
    icRenderInfo info, infoWith;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &plain, &info, NULL) == IC_OK);
    def.obstacles = &obstacles;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, &infoWith, NULL) == IC_OK);
    IC_CHECK(icVec3_Distance(info.camera.eye, infoWith.camera.eye) == 0);
    IC_CHECK(icVec3_Distance(info.camera.target, infoWith.camera.target) == 0);
    IC_CHECK_INT(infoWith.surfacePixels, info.surfacePixels);
    IC_CHECK(info.surfacePixels > 240 * 160 / 10); // the body is not a dot
    // Looking down 22 degrees at a box top 50 m wide: it fills every pixel the body leaves
    // (less the antialiased rim), the bottom rows, nearest the eye, included.
    int green = 0, bottom = 0;
    for (int y = 0; y < 160; ++y)
        for (int x = 0; x < 240; ++x) {
            bool g = renderIsGreen(renderPixel(&image, x, y));
            green += g;
            bottom += g && y >= 150;
        }
    IC_CHECK_INT(bottom, 240 * 10);
    IC_CHECK_MSG(abs(green + info.surfacePixels - 240 * 160) < 240 * 160 / 50,
                 "%d box + %d body pixels of %d", green, info.surfacePixels, 240 * 160);
    // Without clipping no triangle of the top face would be drawn (each has a corner behind
    // the eye): check that at least one does.
    icVec3 toEye = icVec3_Sub(info.camera.eye, info.camera.target);
    int behind = 0;
    for (int v = 0; v < surface.vertexCount; ++v) {
        icVec3 d = icVec3_Sub(icVec3_Load(surface.positions, v), info.camera.eye);
        behind += icVec3_Dot(d, toEye) > 0;
    }
    IC_CHECK(behind > 0);
    icImage_Destroy(&plain), icImage_Destroy(&image);
    icColliderSurface_Destroy(&surface);
    icDestroyWorld(world);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// An open sheet (a one-sided mesh collider used as a floor) lies exactly in the ground
// plane: it must show whole, not speckled with the grid it shares its depth with.
IC_TEST(render, obstacle_in_the_ground_plane_wins_over_the_ground) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh;
    renderTestCube(&mesh);
    const icReal sheet[] = {-1.5, -0.5, -1.5, 1.5, -0.5, -1.5, 1.5, -0.5, 1.5, -1.5, -0.5, 1.5};
    const int faces[] = {0, 2, 1, 0, 3, 2};
    icRenderMesh obstacles = {4, sheet, 2, faces, NULL, NULL};
    icRenderDef def = icDefaultRenderDef();
    def.width = 240, def.height = 160;
    const uint8_t greenRgb[3] = {40, 200, 60};
    memcpy(def.obstacleColour, greenRgb, 3);
    def.obstacles = &obstacles;
    icImage image;
    icRenderInfo info;
    IC_REQUIRE(icRenderTetMesh(&mesh, NULL, NULL, NULL, &def, &image, &info, NULL) == IC_OK);
    // Sampled inside the sheet's projection (from its centre towards the middle of each edge),
    // no pixel shows the ground's grey: each is the sheet, the body or a blend of the two.
    icReal x[4], y[4];
    for (int k = 0; k < 4; ++k)
        IC_REQUIRE(icCamera_Project(&info.camera, icVec3_Load(sheet, k), &x[k], &y[k], NULL));
    int notSheet = 0, samples = 0;
    for (int k = 0; k < 4; ++k)
        for (int i = 1; i < 40; ++i) {
            double s = i / 40.0;
            double ex = 0.5 * (x[k] + x[(k + 1) % 4]), ey = 0.5 * (y[k] + y[(k + 1) % 4]);
            double mx = 0.25 * (x[0] + x[1] + x[2] + x[3]), my = 0.25 * (y[0] + y[1] + y[2] + y[3]);
            int px = (int)(mx + 0.95 * s * (ex - mx)), py = (int)(my + 0.95 * s * (ey - my));
            if (px < 0 || py < 0 || px >= 240 || py >= 160) continue;
            const uint8_t *p = renderPixel(&image, px, py);
            ++samples;
            notSheet += abs(p[0] - p[1]) < 14 && abs(p[1] - p[2]) < 14; // ground or grid
        }
    IC_CHECK(samples > 60);
    IC_CHECK_MSG(notSheet == 0, "%d of %d samples show the ground", notSheet, samples);
    icImage_Destroy(&image);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// ---------------------------------------------------------------------------------------
// The command line

static int runTool(const char *command, const char *args) {
    char line[4096];
    IC_FORMAT(line, "'%s' %s %s > /dev/null 2>&1", IC_CLI_PATH, command, args);
    int status = system(line);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int runCli(const char *args) { return runTool("render", args); }

// `isochor render 'input' <frames> --out 'out' --size 160x120 --field none <extra>` must succeed.
static void renderSmall(const char *input, const char *frames, const char *out, const char *extra) {
    char args[3000];
    IC_FORMAT(args, "'%s' %s --out '%s' --size 160x120 --field none %s", input, frames, out, extra);
    IC_REQUIRE(runCli(args) == 0);
}

// Frame f of the pictures written to out.
static void loadFrame(const char *out, int frame, icImage *image) {
    char path[1400];
    IC_FORMAT(path, "%s/frame_%04d.png", out, frame);
    IC_REQUIRE(icImage_LoadPng(image, path, NULL) == IC_OK);
}

static void writeScene(const char *path, const char *colliders) {
    FILE *fp = fopen(path, "w");
    IC_REQUIRE(fp);
    fprintf(fp,
            "{\"dt\": 0.02, \"frames\": 2, \"gravity\": [0, 0, 0],\n"
            " \"solver\": {\"substeps\": 2, \"iterations\": 1},\n"
            " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.4, 0.4, 0.4], "
            "\"cells\": 2}, \"translate\": [0, 0.2, 0]}],\n"
            " \"colliders\": [%s]}\n",
            colliders);
    fclose(fp);
}

// A scene of writeScene at dir/name.json; its pictures go to dir/name.
typedef struct icSceneFiles {
    char scene[1300], out[1300];
} icSceneFiles;

static void writeNamedScene(const char *dir, const char *name, const char *colliders,
                            icSceneFiles *files) {
    IC_FORMAT(files->scene, "%s/%s.json", dir, name);
    IC_FORMAT(files->out, "%s/%s", dir, name);
    writeScene(files->scene, colliders);
}

// A scene with a box collider beside the body and one sphere moving past: the pictures show
// them in grey, moved with the frame's time, and the scene without them looks as before.
IC_TEST(render, cli_draws_scene_colliders) {
    const char *dir = icTest_TempDir();
    const char *plane = "{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0}}";
    char colliders[1000];
    IC_FORMAT(colliders,
              "%s, {\"box\": {\"center\": [0.45, 0.15, -0.1], \"size\": [0.2, 0.3, 0.2]}},\n"
              " {\"sphere\": {\"center\": [-0.4, 0.2, 0], \"radius\": 0.08, \"motion\": {\"keys\": "
              "[{\"time\": 0}, {\"time\": 0.04, \"translate\": [0, 0.15, 0]}]}}}",
              plane);
    icSceneFiles with, without;
    writeNamedScene(dir, "with", colliders, &with);
    writeNamedScene(dir, "without", plane, &without);
    icImage a[3], b;
    renderSmall(with.scene, "--all", with.out, "");
    for (int f = 0; f < 3; ++f) loadFrame(with.out, f, &a[f]);
    renderSmall(without.scene, "--frame 0", without.out, "");
    loadFrame(without.out, 0, &b);
    // Frame 0 with colliders against the same scene without: the changed pixels are grey.
    int changed = 0, grey = 0, moved = 0;
    for (int i = 0; i < 160 * 120; ++i) {
        const uint8_t *p = a[0].rgb + 3 * i, *q = b.rgb + 3 * i;
        if (memcmp(p, q, 3) == 0) continue;
        ++changed;
        grey += isGrey(p);
    }
    IC_CHECK_MSG(changed > 300, "%d pixels changed", changed);
    IC_CHECK_MSG(grey > changed * 8 / 10, "%d of %d changed pixels grey", grey, changed);
    // The body stays still (no gravity): below the title only the moving sphere changes.
    for (int i = 160 * 20; i < 160 * 120; ++i)
        moved += memcmp(a[0].rgb + 3 * i, a[2].rgb + 3 * i, 3) != 0;
    IC_CHECK_MSG(moved > 30, "%d pixels changed between frames 0 and 2", moved);
    for (int f = 0; f < 3; ++f) icImage_Destroy(&a[f]);
    icImage_Destroy(&b);
}

// A floor and a wall behind the body (z >= -0.4) against the floor alone: every pixel that
// changed is the default wall colour (a light blue-grey, shaded), and there are many.
IC_TEST(render, cli_draws_scene_walls) {
    const char *dir = icTest_TempDir();
    const char *floor = "{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0}}";
    char colliders[600];
    IC_FORMAT(colliders, "%s, {\"plane\": {\"normal\": [0, 0, 1], \"offset\": -0.4}}", floor);
    icSceneFiles with, without;
    writeNamedScene(dir, "walls", colliders, &with);
    writeNamedScene(dir, "floor", floor, &without);
    icImage a, b;
    renderSmall(with.scene, "--frame 0", with.out, "");
    renderSmall(without.scene, "--frame 0", without.out, "");
    loadFrame(with.out, 0, &a);
    loadFrame(without.out, 0, &b);
    icRenderDef def = icDefaultRenderDef();
    int changed = 0, wall = 0;
    for (int i = 0; i < 160 * 120; ++i) {
        const uint8_t *p = a.rgb + 3 * i, *q = b.rgb + 3 * i;
        if (memcmp(p, q, 3) == 0) continue;
        ++changed;
        // The default colour times a light in [0.74, 1]: blue above red, a little.
        bool hue = p[2] > p[0] && p[2] - p[0] < 2 * (def.wallColour[2] - def.wallColour[0]);
        wall += hue && p[0] > def.wallColour[0] * 7 / 10 && p[0] <= def.wallColour[0];
    }
    IC_CHECK_MSG(changed > 160 * 120 / 10, "%d pixels changed", changed);
    IC_CHECK_MSG(wall > changed * 9 / 10, "%d of %d changed pixels the wall's", wall, changed);
    icImage_Destroy(&a), icImage_Destroy(&b);
}

// A result collection carries no planes or colliders; with --scene naming the scene it came
// from, its pictures are those of the scene rendered directly, byte for byte (the same
// positions, the floor, a wall and a sphere moving with each frame's time, so later frames
// differ from the first), and without it they differ. --scene with a scene input, or a scene
// that does not load, is refused.
IC_TEST(render, cli_draws_a_result_with_its_scene) {
    const char *dir = icTest_TempDir();
    char scene[1300], args[3000];
    IC_FORMAT(scene, "%s/moving.json", dir);
    writeScene(scene,
               "{\"plane\": {\"normal\": [0, 1, 0], \"offset\": 0}},\n"
               " {\"plane\": {\"normal\": [0, 0, 1], \"offset\": -0.4}},\n"
               " {\"sphere\": {\"center\": [-0.4, 0.2, 0], \"radius\": 0.08, \"motion\": "
               "{\"keys\": [{\"time\": 0}, {\"time\": 0.04, \"translate\": [0, 0.15, 0]}]}}}");
    IC_FORMAT(args, "'%s' --out '%s/result' --quiet", scene, dir);
    IC_REQUIRE(runTool("run", args) == 0);
    char outs[3][1300], result[1300], sceneOption[1400];
    const char *names[3] = {"direct", "with", "without"};
    for (int k = 0; k < 3; ++k) IC_FORMAT(outs[k], "%s/%s", dir, names[k]);
    IC_FORMAT(result, "%s/result/moving.pvd", dir);
    IC_FORMAT(sceneOption, "--scene '%s'", scene);
    renderSmall(scene, "--all", outs[0], "");
    renderSmall(result, "--all", outs[1], sceneOption);
    renderSmall(result, "--all", outs[2], "");
    int moved = 0;
    icImage first;
    for (int f = 0; f < 3; ++f) {
        icImage im[3];
        for (int k = 0; k < 3; ++k) loadFrame(outs[k], f, &im[k]);
        size_t bytes = 3 * (size_t)im[0].width * (size_t)im[0].height;
        IC_CHECK_MSG(memcmp(im[0].rgb, im[1].rgb, bytes) == 0, "frame %d: not the scene's picture",
                     f);
        IC_CHECK_MSG(memcmp(im[0].rgb, im[2].rgb, bytes) != 0, "frame %d: drawn without the scene",
                     f);
        if (f == 0) {
            first = im[0];
        } else {
            for (size_t i = 3 * 160 * 20; i < bytes; ++i) moved += first.rgb[i] != im[0].rgb[i];
            icImage_Destroy(&im[0]);
        }
        icImage_Destroy(&im[1]), icImage_Destroy(&im[2]);
    }
    icImage_Destroy(&first);
    IC_CHECK_MSG(moved > 30, "%d bytes changed after frame 0: nothing moves", moved);
    IC_FORMAT(args, "'%s' --frame 0 --out '%s/x' --scene '%s'", scene, dir, scene);
    IC_CHECK_INT(runCli(args), 2);
    IC_FORMAT(args, "'%s/result/moving.pvd' --frame 0 --out '%s/x' --scene '%s/none.json'", dir,
              dir, dir);
    IC_CHECK_INT(runCli(args), 2);
}
