// SPDX-License-Identifier: MIT
// The software renderer: sky gradient, ground plane with grid and a soft contact shadow,
// z-buffered triangles with Lambert shading (2x2 supersampled), grey obstacles (colliders) in
// the same z-buffer, walls (planes) cut to the picture's region, then the colour bar.
#include "render/font.h"
#include "render/render_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#define IC_SUPERSAMPLE 2
#define IC_SHADOW_SIZE 192
#define IC_BAR_SPACE 150

icRenderDef icDefaultRenderDef(void) {
    icRenderDef def;
    memset(&def, 0, sizeof def);
    def.width = 960;
    def.height = 640;
    def.viewDirection = icVec3_Make(1.0, 0.75, 1.6);
    def.up = icVec3_Make(0, 1, 0);
    def.fovDeg = 30;
    def.groundGrid = true;
    def.colourBar = true;
    def.colourMap = IC_COLOURMAP_SEQUENTIAL;
    def.fieldMin = 0;
    def.fieldMax = 0;
    def.centre = 0;
    const uint8_t surface[3] = {230, 140, 70}, sky[3] = {200, 214, 230}, grey[3] = {160, 160, 160};
    memcpy(def.surfaceColour, surface, 3);
    memcpy(def.background, sky, 3);
    def.obstacles = NULL;
    memcpy(def.obstacleColour, grey, 3);
    def.wallCount = 0;
    def.walls = NULL;
    const uint8_t wall[3] = {214, 220, 228};
    memcpy(def.wallColour, wall, 3);
    return def;
}

// ---------------------------------------------------------------------------------------
// Frame buffer at the supersampled resolution.

typedef struct icFrame {
    int width, height;
    float *rgb;    ///< (height x width x 3) in [0, 1]
    float *depth;  ///< view-space depth, FLT_MAX where empty
    uint8_t *mask; ///< 1 where the mesh was drawn
} icFrame;

static void putPixel(icFrame *f, int x, int y, const float c[3]) {
    float *p = f->rgb + 3 * ((size_t)y * (size_t)f->width + (size_t)x);
    p[0] = c[0], p[1] = c[1], p[2] = c[2];
}

// ---------------------------------------------------------------------------------------
// Ground

typedef struct icGround {
    icVec3 normal, axisA, axisB, centre;
    icReal height;  ///< along normal
    icReal extent;  ///< fades out beyond this distance from centre
    icReal spacing; ///< grid line spacing
    float *shadow;  ///< (IC_SHADOW_SIZE^2) occlusion in [0, 1], centred on centre
    icReal shadowHalf;
} icGround;

// Pixel bounds of a screen triangle clipped to a w x h raster (clamped before converting, so
// far-off corners cannot overflow an int).
static void clampBox(const icReal x[3], const icReal y[3], int w, int h, int *x0, int *y0, int *x1,
                     int *y1) {
    *x0 = (int)fmax(0.0, floor(fmin(x[0], fmin(x[1], x[2]))));
    *y0 = (int)fmax(0.0, floor(fmin(y[0], fmin(y[1], y[2]))));
    *x1 = (int)fmin((double)(w - 1), ceil(fmax(x[0], fmax(x[1], x[2]))));
    *y1 = (int)fmin((double)(h - 1), ceil(fmax(y[0], fmax(y[1], y[2]))));
}

// Barycentric weights of the pixel centre (px, py) in a screen triangle of signed doubled area
// `area`; false outside it.
static inline bool pixelWeights(const icReal sx[3], const icReal sy[3], icReal area, icReal px,
                                icReal py, icReal w[3]) {
    w[0] = ((sx[1] - px) * (sy[2] - py) - (sx[2] - px) * (sy[1] - py)) / area;
    w[1] = ((sx[2] - px) * (sy[0] - py) - (sx[0] - px) * (sy[2] - py)) / area;
    w[2] = 1 - w[0] - w[1];
    return !(w[0] < 0 || w[1] < 0 || w[2] < 0);
}

// Pixel (x, y) of a screen triangle with corners at view depths z: inside it and nearer than the
// z-buffer there? Then its depth is written, w holds its weights and *invZ the interpolated 1/z
// (1/z is linear on the screen), and *at its raster index.
static inline bool nearerPixel(icFrame *f, const icReal sx[3], const icReal sy[3],
                               const icReal z[3], icReal area, int x, int y, icReal w[3],
                               icReal *invZ, size_t *at) {
    if (!pixelWeights(sx, sy, area, x + 0.5, y + 0.5, w)) return false;
    *invZ = w[0] / z[0] + w[1] / z[1] + w[2] / z[2];
    float depth = (float)(1.0 / *invZ);
    *at = (size_t)y * f->width + x;
    if (depth >= f->depth[*at]) return false;
    f->depth[*at] = depth;
    return true;
}

// 1, 2 or 5 times a power of ten near x.
static icReal niceStep(icReal x) {
    icReal p = pow(10.0, floor(log10(x)));
    icReal m = x / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

// The mesh's footprint seen from straight above, blurred: a soft contact shadow.
static void buildShadow(icGround *g, const icRenderMesh *mesh) {
    const int n = IC_SHADOW_SIZE;
    float *cover = IC_ALLOC_ZERO(float, (size_t)n *n);
    float *blur = IC_ALLOC_ZERO(float, (size_t)n *n);
    if (!cover || !blur) {
        icFree(cover);
        icFree(blur);
        return;
    }
    icReal scale = n / (2 * g->shadowHalf);
    for (int t = 0; t < mesh->triangleCount; ++t) {
        icReal px[3], py[3];
        for (int k = 0; k < 3; ++k) {
            icVec3 p =
                icVec3_Sub(icVec3_Load(mesh->positions, mesh->triangles[3 * t + k]), g->centre);
            px[k] = (icVec3_Dot(p, g->axisA) + g->shadowHalf) * scale;
            py[k] = (icVec3_Dot(p, g->axisB) + g->shadowHalf) * scale;
        }
        icReal area = (px[1] - px[0]) * (py[2] - py[0]) - (px[2] - px[0]) * (py[1] - py[0]);
        if (!(fabs(area) > 0) || !isfinite(area)) continue; // also skips non-finite corners
        int x0, y0, x1, y1;
        clampBox(px, py, n, n, &x0, &y0, &x1, &y1);
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) {
                icReal sx = x + 0.5, sy = y + 0.5;
                icReal w0 = ((px[1] - sx) * (py[2] - sy) - (px[2] - sx) * (py[1] - sy)) / area;
                icReal w1 = ((px[2] - sx) * (py[0] - sy) - (px[0] - sx) * (py[2] - sy)) / area;
                if (w0 >= 0 && w1 >= 0 && w0 + w1 <= 1) cover[y * n + x] = 1;
            }
    }
    // Two box blurs (separable) soften the edge.
    const int r = n / 24;
    for (int pass = 0; pass < 2; ++pass) {
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                float s = 0;
                for (int k = -r; k <= r; ++k) {
                    int xx = x + k;
                    if (xx >= 0 && xx < n) s += cover[y * n + xx];
                }
                blur[y * n + x] = s / (float)(2 * r + 1);
            }
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                float s = 0;
                for (int k = -r; k <= r; ++k) {
                    int yy = y + k;
                    if (yy >= 0 && yy < n) s += blur[yy * n + x];
                }
                cover[y * n + x] = s / (float)(2 * r + 1);
            }
    }
    icFree(blur);
    g->shadow = cover;
}

static float shadowAt(const icGround *g, icReal a, icReal b) {
    if (!g->shadow) return 0;
    const int n = IC_SHADOW_SIZE;
    int x = (int)((a + g->shadowHalf) * n / (2 * g->shadowHalf));
    int y = (int)((b + g->shadowHalf) * n / (2 * g->shadowHalf));
    if (x < 0 || y < 0 || x >= n || y >= n) return 0;
    return g->shadow[y * n + x];
}

// groundPush > 0 moves the ground's depth back by that fraction, so obstacles lying in the
// ground plane (a floor sheet, a box top at the ground's height) win the depth test instead
// of flickering with it.
static void drawBackground(icFrame *f, const icView *view, const icRenderDef *def,
                           const icGround *g, icReal groundPush) {
    const float sky[3] = {def->background[0] / 255.0f, def->background[1] / 255.0f,
                          def->background[2] / 255.0f};
    const float horizon[3] = {0.93f, 0.94f, 0.95f};
    const float ground[3] = {0.80f, 0.80f, 0.78f}, line[3] = {0.52f, 0.53f, 0.55f};
    icReal pixelAngle = 2 * view->tanHalf / f->height;
    for (int y = 0; y < f->height; ++y) {
        float s = (float)y / (float)(f->height - 1);
        float bg[3] = {sky[0] + s * (horizon[0] - sky[0]), sky[1] + s * (horizon[1] - sky[1]),
                       sky[2] + s * (horizon[2] - sky[2])};
        for (int x = 0; x < f->width; ++x) {
            float c[3] = {bg[0], bg[1], bg[2]};
            if (def->groundGrid) {
                icVec3 ray = icView_Ray(view, x + 0.5, y + 0.5);
                icReal down = icVec3_Dot(ray, g->normal);
                icReal t = down < 0 ? (g->height - icVec3_Dot(view->eye, g->normal)) / down : -1;
                if (t > 0) {
                    icVec3 q = icVec3_Sub(icVec3_MulAdd(view->eye, t, ray), g->centre);
                    icReal a = icVec3_Dot(q, g->axisA), b = icVec3_Dot(q, g->axisB);
                    icReal r = sqrt(a * a + b * b);
                    float fade = (float)fmax(0.0, 1.0 - pow(r / g->extent, 4.0));
                    if (fade > 0) {
                        // Grid lines about one pixel wide, antialiased by the pixel footprint.
                        icReal footprint = t * pixelAngle / fmax(-down, 0.08);
                        icReal da = fabs(a / g->spacing - floor(a / g->spacing + 0.5)) * g->spacing;
                        icReal db = fabs(b / g->spacing - floor(b / g->spacing + 0.5)) * g->spacing;
                        icReal width = fmax(footprint, 0.01 * g->spacing);
                        float cover = (float)fmax(
                            0.0, fmin(1.0, 1.0 - (fmin(da, db) - 0.5 * width) / footprint));
                        // Far lines crowd into a grey blur: let them fade early.
                        cover *=
                            (float)fmax(0.0, fmin(1.0, 3.0 - 2.0 * footprint / g->spacing * 6));
                        float shade = 1.0f - 0.45f * shadowAt(g, a, b);
                        float gc[3];
                        for (int k = 0; k < 3; ++k) {
                            gc[k] = (ground[k] + cover * (line[k] - ground[k])) * shade;
                            c[k] = bg[k] + fade * (gc[k] - bg[k]);
                        }
                        icReal depth = t * icVec3_Dot(ray, view->forward);
                        if (groundPush > 0) depth *= 1 + groundPush;
                        f->depth[(size_t)y * f->width + x] = (float)depth;
                    }
                }
            }
            putPixel(f, x, y, c);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Triangles

typedef struct icShading {
    icVec3 light, head;
    icColourMap map;
    icReal lo, hi;
    float base[3];
    bool perVertex, perTriangle;
} icShading;

static void colourOf(const icShading *s, icReal value, float out[3]) {
    uint8_t rgb[3];
    icColourMap_Sample(s->map, (value - s->lo) / (s->hi - s->lo), rgb);
    for (int k = 0; k < 3; ++k) out[k] = rgb[k] / 255.0f;
}

// Flat Lambert shading, lit from both sides so inverted elements still show.
static float lambert(const icShading *s, const icView *view, const icVec3 p[3]) {
    icVec3 n = icVec3_Normalize(icVec3_Cross(icVec3_Sub(p[1], p[0]), icVec3_Sub(p[2], p[0])));
    if (icVec3_Dot(n, icVec3_Sub(view->eye, p[0])) < 0) n = icVec3_Neg(n);
    return (float)(0.36 + 0.52 * fmax(0.0, icVec3_Dot(n, s->light)) +
                   0.17 * fmax(0.0, icVec3_Dot(n, s->head)));
}

static void drawTriangles(icFrame *f, const icView *view, const icRenderMesh *mesh,
                          const icShading *s) {
    const icReal nearZ = 1e-6;
    for (int t = 0; t < mesh->triangleCount; ++t) {
        const int *tri = mesh->triangles + 3 * (size_t)t;
        icVec3 p[3];
        icReal sx[3], sy[3], z[3];
        bool visible = true;
        for (int k = 0; k < 3; ++k) {
            p[k] = icVec3_Load(mesh->positions, tri[k]);
            icVec3 d = icVec3_Sub(p[k], view->eye);
            z[k] = icVec3_Dot(d, view->forward);
            if (!(z[k] > nearZ)) {
                visible = false;
                break;
            }
            sx[k] =
                (0.5 + 0.5 * icVec3_Dot(d, view->right) / (z[k] * view->tanHalf * view->aspect)) *
                f->width;
            sy[k] = (0.5 - 0.5 * icVec3_Dot(d, view->up) / (z[k] * view->tanHalf)) * f->height;
        }
        if (!visible) continue;
        icReal area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
        if (!(fabs(area) > 1e-12)) continue;
        float light = lambert(s, view, p);
        float flat[3] = {s->base[0], s->base[1], s->base[2]};
        if (s->perTriangle) colourOf(s, mesh->triangleValues[t], flat);
        icReal v[3] = {0, 0, 0};
        if (s->perVertex)
            for (int k = 0; k < 3; ++k) v[k] = mesh->vertexValues[tri[k]];

        int x0, y0, x1, y1;
        clampBox(sx, sy, f->width, f->height, &x0, &y0, &x1, &y1);
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) {
                icReal w[3], invZ;
                size_t i;
                if (!nearerPixel(f, sx, sy, z, area, x, y, w, &invZ, &i)) continue;
                f->mask[i] = 1;
                float c[3] = {flat[0], flat[1], flat[2]};
                if (s->perVertex)
                    colourOf(s,
                             (w[0] * v[0] / z[0] + w[1] * v[1] / z[1] + w[2] * v[2] / z[2]) / invZ,
                             c);
                for (int k = 0; k < 3; ++k) c[k] = fminf(1.0f, c[k] * light);
                putPixel(f, x, y, c);
            }
    }
}

// One flat-coloured screen triangle (corners at view depths z) into the z-buffer; its
// pixels are not the mesh's.
static void fillFlat(icFrame *f, const icReal sx[3], const icReal sy[3], const icReal z[3],
                     const float c[3]) {
    icReal area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
    if (!(fabs(area) > 1e-12) || !isfinite(area)) return;
    int x0, y0, x1, y1;
    clampBox(sx, sy, f->width, f->height, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            icReal w[3], invZ;
            size_t i;
            if (!nearerPixel(f, sx, sy, z, area, x, y, w, &invZ, &i)) continue;
            f->mask[i] = 0;
            putPixel(f, x, y, c);
        }
}

// Corners a wall's polygon can have: a square cut by the other walls, the ground, the six
// faces of the region box, its top and the near plane, one corner more for each.
enum { IC_POLYGON_CORNERS = 4 + IC_RENDER_MAX_WALLS + 9 };

// The part of the convex polygon p (n corners) whose levels s (one per corner) are >= c:
// Sutherland-Hodgman against one plane, n + 1 corners at most into out. Rounding can make a
// nearly flat polygon cross the plane more than twice; corners past IC_POLYGON_CORNERS are
// then dropped rather than written past the end.
static int clipPolygon(const icVec3 *p, const icReal *s, int n, icReal c, icVec3 *out) {
    int m = 0;
    for (int k = 0; k < n; ++k) {
        int l = (k + 1) % n;
        if (s[k] >= c && m < IC_POLYGON_CORNERS) out[m++] = p[k];
        if ((s[k] >= c) != (s[l] >= c) && m < IC_POLYGON_CORNERS)
            out[m++] = icVec3_MulAdd(p[k], (c - s[k]) / (s[l] - s[k]), icVec3_Sub(p[l], p[k]));
    }
    return m;
}

// A flat-coloured convex polygon in world space (n <= IC_POLYGON_CORNERS corners), clipped
// at a near plane nearZ in front of the eye rather than dropped when a corner lies behind it:
// a collider or wall may reach past the camera, and dropping it would leave holes.
static void drawFlatPolygon(icFrame *f, const icView *view, const icVec3 *p, int n,
                            const float c[3], icReal nearZ) {
    icReal z[IC_POLYGON_CORNERS];
    for (int k = 0; k < n; ++k) z[k] = icVec3_Dot(icVec3_Sub(p[k], view->eye), view->forward);
    icVec3 q[IC_POLYGON_CORNERS];
    n = clipPolygon(p, z, n, nearZ, q);
    if (n < 3) return;
    icReal sx[IC_POLYGON_CORNERS], sy[IC_POLYGON_CORNERS], sz[IC_POLYGON_CORNERS];
    for (int k = 0; k < n; ++k) {
        icVec3 d = icVec3_Sub(q[k], view->eye);
        sz[k] = fmax(nearZ, icVec3_Dot(d, view->forward));
        sx[k] = (0.5 + 0.5 * icVec3_Dot(d, view->right) / (sz[k] * view->tanHalf * view->aspect)) *
                f->width;
        sy[k] = (0.5 - 0.5 * icVec3_Dot(d, view->up) / (sz[k] * view->tanHalf)) * f->height;
    }
    for (int k = 1; k + 1 < n; ++k) { // a fan from corner 0
        icReal ax[3] = {sx[0], sx[k], sx[k + 1]}, ay[3] = {sy[0], sy[k], sy[k + 1]},
               az[3] = {sz[0], sz[k], sz[k + 1]};
        fillFlat(f, ax, ay, az, c);
    }
}

// Obstacles in one colour, each triangle lit as a whole.
static void drawObstacles(icFrame *f, const icView *view, const icRenderMesh *mesh,
                          const icShading *s, const float colour[3], icReal nearZ) {
    for (int t = 0; t < mesh->triangleCount; ++t) {
        const int *tri = mesh->triangles + 3 * (size_t)t;
        icVec3 p[3];
        bool finite = true;
        for (int k = 0; k < 3; ++k) {
            p[k] = icVec3_Load(mesh->positions, tri[k]);
            finite = finite && icVec3_IsFinite(p[k]);
        }
        if (!finite) continue;
        float light = lambert(s, view, p), c[3];
        for (int k = 0; k < 3; ++k) c[k] = fminf(1.0f, colour[k] * light);
        drawFlatPolygon(f, view, p, 3, c, nearZ);
    }
}

// Is the eye on the wall's inner side? Only then is the wall drawn: from outside it would
// stand between the camera and the bodies.
static bool wallFacesEye(const icRenderPlane *wall, icVec3 eye) {
    return icVec3_Dot(wall->normal, eye) > wall->offset;
}

// The walls the camera sees from their inner side, each a polygon on its plane: a square
// around the frame's centre cut to the region box (the frame grown by `radius`, topped a
// little above the frame), to the ground and to the other walls' inner sides.
static void drawWalls(icFrame *f, const icView *view, const icRenderDef *def, const icGround *g,
                      icVec3 lower, icVec3 upper, icReal radius, const icShading *s, icReal nearZ) {
    icVec3 centre = icVec3_Scale(0.5, icVec3_Add(lower, upper));
    icReal top = -DBL_MAX;
    for (int c = 0; c < 8; ++c)
        top = fmax(top, icVec3_Dot(icVec3_Make(c & 1 ? upper.x : lower.x, c & 2 ? upper.y : lower.y,
                                               c & 4 ? upper.z : lower.z),
                                   g->normal));
    float colour[3];
    for (int k = 0; k < 3; ++k) colour[k] = def->wallColour[k] / 255.0f;
    for (int w = 0; w < def->wallCount; ++w) {
        if (!wallFacesEye(&def->walls[w], view->eye)) continue;
        icReal length = icVec3_Length(def->walls[w].normal);
        icVec3 n = icVec3_Scale(1 / length, def->walls[w].normal);
        icReal offset = def->walls[w].offset / length;
        icVec3 a = icVec3_Normalize(
            icVec3_Cross(n, fabs(n.x) < 0.9 ? icVec3_Make(1, 0, 0) : icVec3_Make(0, 0, 1)));
        icVec3 b = icVec3_Cross(n, a);
        icVec3 o = icVec3_MulAdd(centre, offset - icVec3_Dot(n, centre), n);
        icReal half = 8 * radius; // reaches past every corner of the region box
        icVec3 p[IC_POLYGON_CORNERS], q[IC_POLYGON_CORNERS];
        int count = 4;
        for (int k = 0; k < 4; ++k)
            p[k] = icVec3_MulAdd(icVec3_MulAdd(o, (k == 1 || k == 2) ? half : -half, a),
                                 k >= 2 ? half : -half, b);
        // Cuts: level(x) = dir . x >= c for each plane that bounds the wall.
        icVec3 dirs[IC_POLYGON_CORNERS];
        icReal cuts[IC_POLYGON_CORNERS];
        int cutCount = 0;
        for (int axis = 0; axis < 3; ++axis) {
            icVec3 e = icVec3_Make(axis == 0, axis == 1, axis == 2);
            dirs[cutCount] = e, cuts[cutCount++] = icVec3_Dot(e, lower) - radius;
            dirs[cutCount] = icVec3_Neg(e), cuts[cutCount++] = -icVec3_Dot(e, upper) - radius;
        }
        dirs[cutCount] = icVec3_Neg(g->normal), cuts[cutCount++] = -(top + 0.05 * radius);
        // A wall lying in the ground's plane is not cut by it (it could vanish or not).
        if (fabs(icVec3_Dot(n, g->normal)) < 0.9998)
            dirs[cutCount] = g->normal, cuts[cutCount++] = g->height;
        for (int v = 0; v < def->wallCount; ++v) {
            if (v == w) continue;
            icReal lv = icVec3_Length(def->walls[v].normal);
            dirs[cutCount] = icVec3_Scale(1 / lv, def->walls[v].normal);
            cuts[cutCount++] = def->walls[v].offset / lv;
        }
        for (int c = 0; c < cutCount && count >= 3; ++c) {
            icReal level[IC_POLYGON_CORNERS];
            for (int k = 0; k < count; ++k) level[k] = icVec3_Dot(dirs[c], p[k]);
            count = clipPolygon(p, level, count, cuts[c], q);
            memcpy(p, q, sizeof(icVec3) * (size_t)count);
        }
        if (count < 3) continue;
        // Softer than the bodies' shading: a wall is background, and a dark one would draw
        // the eye.
        icVec3 corners[3] = {o, icVec3_Add(o, a), icVec3_Add(o, b)};
        float light = 0.6f + 0.4f * lambert(s, view, corners), c[3];
        for (int k = 0; k < 3; ++k) c[k] = fminf(1.0f, colour[k] * light);
        drawFlatPolygon(f, view, p, count, c, nearZ);
    }
}

// ---------------------------------------------------------------------------------------
// Colour bar (drawn at the final resolution, after downsampling)

static void fillRect(icImage *image, int x0, int y0, int x1, int y1, const uint8_t rgb[3]) {
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            if (x < 0 || y < 0 || x >= image->width || y >= image->height) continue;
            uint8_t *p = image->rgb + 3 * ((size_t)y * image->width + x);
            p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2];
        }
}

static void drawColourBar(icImage *image, const icRenderDef *def, icReal lo, icReal hi,
                          icRenderInfo *info) {
    const uint8_t ink[3] = {30, 32, 36};
    int x0 = image->width - IC_BAR_SPACE + 14, x1 = x0 + 20;
    int y0 = image->height / 5, y1 = image->height - image->height / 5;
    if (y1 - y0 < 10) return;
    fillRect(image, x0 - 1, y0 - 1, x1 + 1, y1 + 1, ink);
    for (int y = y0; y < y1; ++y) {
        uint8_t rgb[3];
        icColourMap_Sample(def->colourMap, (icReal)(y1 - 1 - y) / (icReal)(y1 - 1 - y0), rgb);
        fillRect(image, x0, y, x1, y + 1, rgb);
    }
    int scale = image->height >= 400 ? 2 : 1;
    // Enough digits that the five ticks differ (a J range of 0.999..1.001 needs five).
    icReal magnitude = fmax(fabs(lo), fabs(hi));
    int digits = 3;
    if (hi > lo && magnitude > 0)
        digits = (int)fmin(8.0, fmax(3.0, ceil(log10(magnitude / ((hi - lo) / 4))) + 1));
    char labels[5][32];
    int widest = 0;
    for (int i = 0; i <= 4; ++i) {
        icReal value = lo + (hi - lo) * i / 4.0;
        snprintf(labels[i], sizeof labels[i], "%.*g", digits,
                 fabs(value) < 1e-12 * magnitude ? 0.0 : value);
        int w = icFont_Width(labels[i], scale);
        if (w > widest) widest = w;
    }
    // Long labels (many digits, exponents) drop to the small font rather than run off the edge.
    int labelScale = scale;
    if (x1 + 8 + widest > image->width - 2) scale = 1;
    for (int i = 0; i <= 4; ++i) {
        int y = y1 - 1 - (int)((y1 - 1 - y0) * i / 4.0 + 0.5);
        fillRect(image, x1, y, x1 + 5, y + 1, ink);
        icFont_Draw(image, x1 + 8, y - icFont_Height(scale) / 2, scale, labels[i], ink);
    }
    if (def->fieldLabel && def->fieldLabel[0]) {
        int w = icFont_Width(def->fieldLabel, labelScale);
        int x = x0 + 10 - w / 2;
        if (x + w > image->width - 4) x = image->width - 4 - w;
        icFont_Draw(image, x, y0 - icFont_Height(labelScale) - 10, labelScale, def->fieldLabel,
                    ink);
    }
    if (info) {
        info->barX0 = x0, info->barY0 = y0, info->barX1 = x1, info->barY1 = y1;
    }
}

// ---------------------------------------------------------------------------------------

// Bounds of the finite triangles (a blown-up frame still shows what is left); returns how
// many there are.
static int meshBounds(const icRenderMesh *mesh, icVec3 *lower, icVec3 *upper) {
    *lower = icVec3_Make(DBL_MAX, DBL_MAX, DBL_MAX);
    *upper = icVec3_Neg(*lower);
    int finite = 0;
    for (int t = 0; t < mesh->triangleCount; ++t) {
        icVec3 p[3];
        for (int k = 0; k < 3; ++k) p[k] = icVec3_Load(mesh->positions, mesh->triangles[3 * t + k]);
        if (!icVec3_IsFinite(p[0]) || !icVec3_IsFinite(p[1]) || !icVec3_IsFinite(p[2])) continue;
        ++finite;
        for (int k = 0; k < 3; ++k) {
            *lower = icVec3_Min(*lower, p[k]);
            *upper = icVec3_Max(*upper, p[k]);
        }
    }
    return finite;
}

// Range of the values the picture shows.
static void valueRange(const icRenderMesh *mesh, const icRenderDef *def, icReal *lo, icReal *hi) {
    if (def->fieldMin < def->fieldMax) {
        *lo = def->fieldMin, *hi = def->fieldMax;
        return;
    }
    *lo = DBL_MAX, *hi = -DBL_MAX;
    for (int t = 0; t < mesh->triangleCount; ++t)
        for (int k = 0; k < 3; ++k) {
            icReal v = mesh->triangleValues ? mesh->triangleValues[t]
                                            : mesh->vertexValues[mesh->triangles[3 * t + k]];
            if (!isfinite(v)) continue;
            if (v < *lo) *lo = v;
            if (v > *hi) *hi = v;
        }
    if (*lo > *hi) *lo = *hi = 0;
    if (def->centred) {
        icReal d = fmax(fabs(*lo - def->centre), fabs(*hi - def->centre));
        *lo = def->centre - d, *hi = def->centre + d;
    }
    if (!(*hi - *lo > 1e-12 * fmax(1.0, fabs(*hi)))) {
        icReal pad = fmax(1e-6, 1e-3 * fabs(*hi));
        *lo -= pad, *hi += pad;
    }
}

icResult icRender(const icRenderMesh *mesh, const icRenderDef *def, icImage *image,
                  icRenderInfo *info, icDiagnostic *diag) {
    memset(image, 0, sizeof *image);
    if (info) memset(info, 0, sizeof *info);
    icRenderDef defaults = icDefaultRenderDef();
    if (!def) def = &defaults;
    if (!mesh || mesh->triangleCount <= 0 || !mesh->positions || !mesh->triangles)
        return icDiag_Set(diag, IC_ERR_EMPTY, "", 0, "nothing to draw");
    if (def->width < 16 || def->height < 16 || def->width > 8192 || def->height > 8192 ||
        !(def->fovDeg > 1 && def->fovDeg < 170))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                          "picture size %dx%d or field of view %g out of range", def->width,
                          def->height, def->fovDeg);
    const icRenderMesh *obstacles = def->obstacles;
    if (obstacles && obstacles->triangleCount > 0) {
        if (!obstacles->positions || !obstacles->triangles || obstacles->vertexCount <= 0)
            return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0,
                              "obstacles have triangles but no vertices");
        for (int i = 0; i < 3 * obstacles->triangleCount; ++i)
            if (obstacles->triangles[i] < 0 || obstacles->triangles[i] >= obstacles->vertexCount)
                return icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, "", 0,
                                  "obstacle triangle %d names vertex %d of %d", i / 3,
                                  obstacles->triangles[i], obstacles->vertexCount);
    } else {
        obstacles = NULL;
    }
    if (def->wallCount < 0 || def->wallCount > IC_RENDER_MAX_WALLS ||
        (def->wallCount > 0 && !def->walls))
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0,
                          "%d walls (at most %d, and an array for them)", def->wallCount,
                          IC_RENDER_MAX_WALLS);
    for (int w = 0; w < def->wallCount; ++w) {
        icReal length = icVec3_Length(def->walls[w].normal);
        if (!(length > 0) || !isfinite(length) || !isfinite(def->walls[w].offset))
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                              "wall %d: the normal must be finite and non-zero, the offset finite",
                              w);
    }
    bool hasField = mesh->vertexValues || mesh->triangleValues;
    bool bar = hasField && def->colourBar && def->width > 2 * IC_BAR_SPACE;
    icVec3 lower, upper;
    if (meshBounds(mesh, &lower, &upper) == 0)
        return icDiag_Set(diag, IC_ERR_NOT_FINITE, "", 0, "no triangle has finite positions");
    if (def->hasFrame) lower = def->frameLower, upper = def->frameUpper;
    if (!icVec3_IsFinite(lower) || !icVec3_IsFinite(upper) || lower.x > upper.x ||
        lower.y > upper.y || lower.z > upper.z)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0, "the frame bounds are not a box");
    icCamera camera = icCamera_Frame(lower, upper, def->viewDirection, def->up, def->fovDeg,
                                     def->width, def->height, bar ? IC_BAR_SPACE : 0);

    // Render at IC_SUPERSAMPLE x the size, then average down.
    icFrame f;
    f.width = def->width * IC_SUPERSAMPLE;
    f.height = def->height * IC_SUPERSAMPLE;
    size_t pixels = (size_t)f.width * f.height;
    f.rgb = IC_ALLOC(float, 3 * pixels);
    f.depth = IC_ALLOC(float, pixels);
    f.mask = IC_ALLOC_ZERO(uint8_t, pixels);
    icResult result = icImage_Create(image, def->width, def->height);
    if (!f.rgb || !f.depth || !f.mask || result != IC_OK) {
        icFree(f.rgb), icFree(f.depth), icFree(f.mask);
        icImage_Destroy(image);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "", 0, "out of memory for a %dx%d picture",
                          def->width, def->height);
    }
    for (size_t i = 0; i < pixels; ++i) f.depth[i] = FLT_MAX;
    icCamera big = camera;
    big.width = f.width, big.height = f.height;
    icView view;
    icView_FromCamera(&view, &big);

    // Ground: perpendicular to up, under the lowest point of the frame.
    icGround g;
    memset(&g, 0, sizeof g);
    g.normal = icVec3_Normalize(def->up);
    g.axisA = icVec3_Normalize(icVec3_Cross(
        g.normal, fabs(g.normal.x) < 0.9 ? icVec3_Make(1, 0, 0) : icVec3_Make(0, 0, 1)));
    g.axisB = icVec3_Cross(g.axisA, g.normal);
    icReal radius = fmax(0.5 * icVec3_Distance(lower, upper), 1e-9);
    icVec3 centre = icVec3_Scale(0.5, icVec3_Add(lower, upper));
    icReal lowest = DBL_MAX;
    for (int c = 0; c < 8; ++c) {
        icVec3 corner = icVec3_Make(c & 1 ? upper.x : lower.x, c & 2 ? upper.y : lower.y,
                                    c & 4 ? upper.z : lower.z);
        lowest = fmin(lowest, icVec3_Dot(corner, g.normal));
    }
    // Obstacles stand on the ground too, so it goes under them (hidden below it otherwise).
    for (int v = 0; obstacles && v < obstacles->vertexCount; ++v) {
        icVec3 p = icVec3_Load(obstacles->positions, v);
        if (icVec3_IsFinite(p)) lowest = fmin(lowest, icVec3_Dot(p, g.normal));
    }
    g.height = def->hasGroundHeight ? def->groundHeight : lowest;
    g.centre = icVec3_MulAdd(centre, g.height - icVec3_Dot(centre, g.normal), g.normal);
    g.extent = 4 * radius;
    g.spacing = niceStep(radius / 3);
    g.shadowHalf = 1.5 * radius;
    if (def->groundGrid) buildShadow(&g, mesh);
    int wallsSeen = 0;
    for (int w = 0; w < def->wallCount; ++w) wallsSeen += wallFacesEye(&def->walls[w], view.eye);
    drawBackground(&f, &view, def, &g, obstacles || wallsSeen > 0 ? 1e-4 : 0);
    icFree(g.shadow);

    icShading s;
    memset(&s, 0, sizeof s);
    s.light = icVec3_Normalize(
        icVec3_Add(icVec3_Add(icVec3_Scale(0.8, view.up), icVec3_Scale(0.35, view.right)),
                   icVec3_Scale(-0.5, view.forward)));
    s.head = icVec3_Neg(view.forward);
    s.map = def->colourMap;
    s.perTriangle = mesh->triangleValues != NULL;
    s.perVertex = !s.perTriangle && mesh->vertexValues != NULL;
    for (int k = 0; k < 3; ++k) s.base[k] = def->surfaceColour[k] / 255.0f;
    if (hasField) valueRange(mesh, def, &s.lo, &s.hi);
    if (obstacles) {
        // Drawn first, so where a body pixel wins the depth test it also marks the mask.
        float grey[3];
        for (int k = 0; k < 3; ++k) grey[k] = def->obstacleColour[k] / 255.0f;
        drawObstacles(&f, &view, obstacles, &s, grey,
                      1e-3 * icVec3_Distance(camera.eye, camera.target));
    }
    if (wallsSeen > 0)
        drawWalls(&f, &view, def, &g, lower, upper, radius, &s,
                  1e-3 * icVec3_Distance(camera.eye, camera.target));
    drawTriangles(&f, &view, mesh, &s);

    int surfacePixels = 0;
    const int ss = IC_SUPERSAMPLE;
    for (int y = 0; y < def->height; ++y)
        for (int x = 0; x < def->width; ++x) {
            float sum[3] = {0, 0, 0};
            int covered = 0;
            for (int dy = 0; dy < ss; ++dy)
                for (int dx = 0; dx < ss; ++dx) {
                    size_t i = (size_t)(y * ss + dy) * f.width + (size_t)(x * ss + dx);
                    for (int k = 0; k < 3; ++k) sum[k] += f.rgb[3 * i + k];
                    covered += f.mask[i];
                }
            surfacePixels += covered * 2 >= ss * ss;
            uint8_t *p = image->rgb + 3 * ((size_t)y * def->width + x);
            for (int k = 0; k < 3; ++k)
                p[k] = (uint8_t)fminf(255.0f, sum[k] / (ss * ss) * 255.0f + 0.5f);
        }
    icFree(f.rgb), icFree(f.depth), icFree(f.mask);
    if (bar) drawColourBar(image, def, s.lo, s.hi, info);
    if (def->title && def->title[0]) {
        const uint8_t ink[3] = {30, 32, 36};
        int scale = def->height >= 400 ? 2 : 1;
        icFont_Draw(image, 6 * scale, 6 * scale, scale, def->title, ink);
    }
    if (info) {
        info->camera = camera;
        info->surfacePixels = surfacePixels;
        info->fieldMin = s.lo;
        info->fieldMax = s.hi;
    }
    return IC_OK;
}

icResult icRenderTetMesh(const icTetMesh *mesh, const icReal *positions, const icReal *tetValues,
                         const icReal *vertexValues, const icRenderDef *def, icImage *image,
                         icRenderInfo *info, icDiagnostic *diag) {
    memset(image, 0, sizeof *image);
    int *triangles = NULL, *faceTets = NULL, count = 0;
    icResult result =
        icTetMesh_ExtractSurface(mesh, &triangles, &count, tetValues ? &faceTets : NULL);
    if (result != IC_OK)
        return icDiag_Set(diag, result, "", 0, "cannot extract the boundary surface");
    icReal *faceValues = NULL;
    if (tetValues) {
        faceValues = IC_ALLOC(icReal, count + 1);
        if (!faceValues) {
            icFree(triangles), icFree(faceTets);
            return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "", 0, "out of memory");
        }
        for (int i = 0; i < count; ++i) faceValues[i] = tetValues[faceTets[i]];
    }
    icRenderMesh r = {mesh->vertexCount, positions ? positions : mesh->positions, count,
                      triangles,         tetValues ? NULL : vertexValues,         faceValues};
    result = icRender(&r, def, image, info, diag);
    icFree(faceValues);
    icFree(triangles);
    icFree(faceTets);
    return result;
}
