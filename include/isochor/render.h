// SPDX-License-Identifier: MIT
/// \file
/// Pictures of results without a GPU or a display: a software z-buffer rasteriser draws the
/// boundary surface with Lambert shading over a ground grid, coloured by a field with a
/// colour bar, with colliders (tessellated here) in grey, and writes PNG files. The
/// isochor_render library (needs libpng and isochor_formats).
#pragma once

#include "isochor/collision.h"
#include "isochor/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/// An 8-bit RGB image, rows top to bottom.
typedef struct icImage {
    //!@{
    int width, height; ///< size in pixels
    //!@}
    uint8_t *rgb; ///< (height x width x 3)
} icImage;

/// Allocates a black width x height image (1..16384 pixels each way).
/// IC_ERR_INVALID_ARGUMENT for other sizes, IC_ERR_OUT_OF_MEMORY.
icResult icImage_Create(icImage *image, int width, int height);
/// Frees the pixels and zeroes the struct. Safe on a zeroed struct.
void icImage_Destroy(icImage *image);
/// Writes a PNG (atomically).
icResult icImage_SavePng(const icImage *image, const char *path, icDiagnostic *diag);
/// Reads an 8-bit RGB or RGBA PNG (alpha dropped); for tests and comparisons.
icResult icImage_LoadPng(icImage *image, const char *path, icDiagnostic *diag);

/// Colour maps for fields.
typedef enum icColourMap {
    IC_COLOURMAP_SEQUENTIAL = 0, ///< dark blue -> teal -> yellow (magnitudes)
    IC_COLOURMAP_DIVERGING,      ///< blue -> light grey -> red (J about 1, pressure about 0)
} icColourMap;

/// The colour of t in [0, 1] (clamped) as 8-bit RGB.
void icColourMap_Sample(icColourMap map, icReal t, uint8_t rgb[3]);

/// A pinhole camera.
typedef struct icCamera {
    //!@{
    icVec3 eye, target, up; ///< eye and target positions (m) and the up direction
    //!@}
    icReal fovDeg; ///< vertical field of view, degrees
    //!@{
    int width, height; ///< image size, pixels
    //!@}
} icCamera;

/// Projects a world point to pixel coordinates (x right, y down); false when it lies behind
/// the camera. *depth gets the distance along the view direction.
bool icCamera_Project(const icCamera *camera, icVec3 point, icReal *x, icReal *y, icReal *depth);

/// What to draw: triangles (outward-wound) with an optional scalar per vertex or per
/// triangle (per-vertex values are interpolated, per-triangle ones drawn flat).
typedef struct icRenderMesh {
    int vertexCount;         ///< vertices
    const icReal *positions; ///< (vertexCount x 3), m
    int triangleCount;       ///< triangles
    const int *triangles;         ///< (triangleCount x 3)
    const icReal *vertexValues;   ///< (vertexCount) or NULL
    const icReal *triangleValues; ///< (triangleCount) or NULL
} icRenderMesh;

/// A plane for icRenderDef.walls: the points with normal . x >= offset are inside.
typedef struct icRenderPlane {
    icVec3 normal; ///< inward normal, any length > 0
    icReal offset; ///< normal . x at the plane (m times |normal|)
} icRenderPlane;

/// Most walls one picture draws (icRenderDef.wallCount).
#define IC_RENDER_MAX_WALLS 64

/// How a picture is drawn. Get defaults from icDefaultRenderDef().
typedef struct icRenderDef {
    //!@{
    int width, height;    ///< pixels, 16..8192; default 960 x 640
    //!@}
    icVec3 viewDirection; ///< from the target towards the eye (any length); default (1, 0.75, 1.6)
    icVec3 up;            ///< default +y (gravity is -y)
    icReal fovDeg;        ///< vertical field of view, degrees; default 30
    bool hasFrame;        ///< frame these bounds instead of the mesh's (steady animations);
                          ///< default false
    //!@{
    icVec3 frameLower, frameUpper; ///< with hasFrame: the box to frame, m
    //!@}
    bool groundGrid;           ///< draw the ground plane with a grid; default true
    bool hasGroundHeight;      ///< put the ground at groundHeight instead of the frame's lowest
                               ///< y; default false
    icReal groundHeight;       ///< y of the ground, metres
    bool colourBar;            ///< draw a colour bar when a field is given; default true
    icColourMap colourMap;     ///< default sequential
    //!@{
    icReal fieldMin, fieldMax; ///< colour range, in the field's units; fieldMin >= fieldMax
                               ///< (default 0, 0) means the data's range
    //!@}
    bool centred;              ///< make the data's range symmetric about centre (J about 1);
                               ///< default false
    icReal centre;             ///< the value centred ranges are symmetric about; default 0
    const char *fieldLabel;   ///< shown above the colour bar (NULL: none)
    const char *title;        ///< shown in the top-left corner (NULL: none)
    uint8_t surfaceColour[3]; ///< colour without a field; default a warm orange
    uint8_t background[3];    ///< top of the sky gradient; default light blue-grey
    /// Extra geometry that is not the body (colliders: icWorld_TessellateColliders), drawn
    /// in obstacleColour with the same Lambert shading, never coloured by a field, in the same
    /// z-buffer as the mesh (whichever is nearer shows) and in front of the ground where they
    /// lie in its plane. The camera still frames the mesh (or frameLower/Upper) only, so a big
    /// obstacle cannot shrink the body; without hasGroundHeight the ground goes under the
    /// lowest point of the frame and the obstacles. Obstacles cast no shadow. NULL (default)
    /// or no triangles: none, and the picture is exactly what it was without this field.
    const icRenderMesh *obstacles;
    uint8_t obstacleColour[3]; ///< default a mid grey
    /// Walls: planes the bodies stay on the inner side of (normal .\ x >= offset; normals of any
    /// length, the ground excepted: it is drawn on its own). Each is cut to the frame box grown
    /// by its half diagonal (up to a little above the frame's top), to the ground and to the
    /// other walls' inner sides, and drawn in wallColour only when the camera is on its inner
    /// side: a wall between the camera and the bodies is left out, so the far walls of a box
    /// show and the near ones do not. At most IC_RENDER_MAX_WALLS; 0 (default): none.
    int wallCount;
    const icRenderPlane *walls; ///< (wallCount) the walls; NULL (default) when none
    uint8_t wallColour[3]; ///< default a light blue-grey
} icRenderDef;

/// Defaults as listed in icRenderDef: 960 x 640, 30 degrees, ground grid and colour bar on,
/// sequential colours over the data's range, no obstacles or walls.
icRenderDef icDefaultRenderDef(void);

/// Where things landed in the picture.
typedef struct icRenderInfo {
    icCamera camera;                ///< the camera that framed the picture
    int surfacePixels;              ///< pixels showing the mesh
    //!@{
    int barX0, barY0, barX1, barY1; ///< colour bar rectangle, pixels (all 0 when none)
    //!@}
    //!@{
    icReal fieldMin, fieldMax;      ///< the range the colours span
    //!@}
} icRenderInfo;

/// Draws mesh into image (created here; free with icImage_Destroy). info may be NULL.
icResult icRender(const icRenderMesh *mesh, const icRenderDef *def, icImage *image,
                  icRenderInfo *info, icDiagnostic *diag);

/// Triangles of colliders, owned (icColliderSurface_Destroy frees them).
typedef struct icColliderSurface {
    int vertexCount;   ///< vertices
    icReal *positions; ///< (vertexCount x 3), m
    int triangleCount; ///< triangles
    int *triangles; ///< (triangleCount x 3), counter-clockwise seen from outside
    //!@{
    int vertexCapacity, triangleCapacity; ///< growth bookkeeping (array elements), internal
    //!@}
} icColliderSurface;

#define IC_COLLIDER_SEGMENTS 32 ///< a good default for `segments` below

/// Appends the surface of a collider at time t (its track applied, as icCollider_GetTransform
/// says) to surface (zero it before the first call). Boxes are 12 triangles, meshes as they
/// were given; spheres and capsules are inscribed polyhedra with `segments` (>= 3) vertices
/// around and segments / 2 (at least 2, rounded up to even for capsules) bands from pole to
/// pole. IC_ERR_INVALID_ARGUMENT for a bad id or segments, IC_ERR_OUT_OF_MEMORY.
icResult icCollider_Tessellate(const icWorld *world, icColliderId id, icReal t, int segments,
                               icColliderSurface *surface);
/// Appends every collider of the world at time t (planes are left out: the renderer's ground
/// stands for them).
icResult icWorld_TessellateColliders(const icWorld *world, icReal t, int segments,
                                     icColliderSurface *surface);
/// Frees the surface's arrays and zeroes it. Safe on a zeroed struct.
void icColliderSurface_Destroy(icColliderSurface *surface);
/// A view of surface for icRenderDef.obstacles (no values).
icRenderMesh icColliderSurface_AsRenderMesh(const icColliderSurface *surface);

/// Draws the boundary of a tet mesh at positions (NULL: mesh->positions), coloured by a
/// per-tet field (tetValues) or a per-vertex field (vertexValues), either may be NULL.
icResult icRenderTetMesh(const icTetMesh *mesh, const icReal *positions, const icReal *tetValues,
                         const icReal *vertexValues, const icRenderDef *def, icImage *image,
                         icRenderInfo *info, icDiagnostic *diag);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
