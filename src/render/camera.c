// SPDX-License-Identifier: MIT
// Pinhole camera: projection, per-pixel rays and automatic framing of a bounding box.
#include "render/render_internal.h"

#include <math.h>

#define IC_RENDER_PI 3.14159265358979323846

void icView_FromCamera(icView *view, const icCamera *camera) {
    view->eye = camera->eye;
    view->forward = icVec3_Normalize(icVec3_Sub(camera->target, camera->eye));
    view->right = icVec3_Normalize(icVec3_Cross(view->forward, camera->up));
    if (icVec3_LengthSquared(view->right) == 0) // looking along up: any right will do
        view->right = icVec3_Normalize(icVec3_Cross(view->forward, icVec3_Make(1, 0, 0)));
    view->up = icVec3_Cross(view->right, view->forward);
    view->tanHalf = tan(0.5 * camera->fovDeg * IC_RENDER_PI / 180.0);
    view->width = camera->width;
    view->height = camera->height;
    view->aspect = (icReal)camera->width / (icReal)camera->height;
}

bool icCamera_Project(const icCamera *camera, icVec3 point, icReal *x, icReal *y, icReal *depth) {
    icView v;
    icView_FromCamera(&v, camera);
    icVec3 d = icVec3_Sub(point, v.eye);
    icReal z = icVec3_Dot(d, v.forward);
    if (depth) *depth = z;
    if (!(z > 0)) return false;
    icReal nx = icVec3_Dot(d, v.right) / (z * v.tanHalf * v.aspect);
    icReal ny = icVec3_Dot(d, v.up) / (z * v.tanHalf);
    *x = (0.5 + 0.5 * nx) * v.width;
    *y = (0.5 - 0.5 * ny) * v.height;
    return true;
}

icVec3 icView_Ray(const icView *view, icReal x, icReal y) {
    icReal nx = 2.0 * x / view->width - 1.0, ny = 1.0 - 2.0 * y / view->height;
    icVec3 d = icVec3_MulAdd(view->forward, nx * view->tanHalf * view->aspect, view->right);
    return icVec3_Normalize(icVec3_MulAdd(d, ny * view->tanHalf, view->up));
}

icCamera icCamera_Frame(icVec3 lower, icVec3 upper, icVec3 direction, icVec3 up, icReal fovDeg,
                        int width, int height, int reservedRight) {
    icCamera camera;
    icVec3 centre = icVec3_Scale(0.5, icVec3_Add(lower, upper));
    icReal radius = 0.5 * icVec3_Distance(lower, upper);
    if (!(radius > 0)) radius = 1;
    icVec3 dir = icVec3_Normalize(direction);
    if (icVec3_LengthSquared(dir) == 0) dir = icVec3_Make(0, 0, 1);
    // The sphere must fit the narrower of the two fields of view (the usable width excludes
    // the colour bar).
    icReal usable = (icReal)(width - reservedRight) / (icReal)height;
    icReal tanV = tan(0.5 * fovDeg * IC_RENDER_PI / 180.0), tanH = tanV * usable;
    icReal halfAngle = atan(tanV < tanH ? tanV : tanH);
    icReal distance = 1.08 * radius / sin(halfAngle);
    camera.eye = icVec3_MulAdd(centre, distance, dir);
    camera.target = centre;
    camera.up = up;
    camera.fovDeg = fovDeg;
    camera.width = width;
    camera.height = height;
    // Shift the view so the object centres in the part left of the colour bar.
    if (reservedRight > 0) {
        icView v;
        icView_FromCamera(&v, &camera);
        icReal shift = (0.5 * reservedRight / (0.5 * width)) * distance * v.tanHalf * v.aspect;
        camera.eye = icVec3_MulAdd(camera.eye, shift, v.right);
        camera.target = icVec3_MulAdd(camera.target, shift, v.right);
    }
    return camera;
}
