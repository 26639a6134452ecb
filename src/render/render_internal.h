// SPDX-License-Identifier: MIT
// Internal pieces of the rasteriser: the view basis of a camera and the framing rule.
#pragma once

#include "isochor/render.h"

#include "core/core.h"

/// Orthonormal view basis and projection constants of a camera.
typedef struct icView {
    icVec3 eye, forward, right, up;
    icReal tanHalf, aspect; ///< tan(fov/2), width / height
    int width, height;
} icView;

void icView_FromCamera(icView *view, const icCamera *camera);
/// Camera looking along -direction at the box [lower, upper] so that its bounding sphere fits
/// the picture left of reservedRight pixels (the colour bar).
icCamera icCamera_Frame(icVec3 lower, icVec3 upper, icVec3 direction, icVec3 up, icReal fovDeg,
                        int width, int height, int reservedRight);
/// World-space direction of the ray through pixel (x, y) (continuous pixel coordinates).
icVec3 icView_Ray(const icView *view, icReal x, icReal y);
