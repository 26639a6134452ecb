// SPDX-License-Identifier: MIT
// Sphere and torus generators: hex cells of a cube grid whose centres lie inside the shape,
// with the boundary vertices then moved onto the analytic surface.
#include "mesh/mesh_internal.h"

typedef bool icInsideFn(icVec3 p, const icReal *shape);
typedef icVec3 icProjectFn(icVec3 p, const icReal *shape);

static bool insideSphere(icVec3 p, const icReal *shape) {
    return icVec3_LengthSquared(p) < shape[0] * shape[0];
}

// Torus around the y axis: distance to the circle of radius R in the xz-plane below r.
static bool insideTorus(icVec3 p, const icReal *shape) {
    icReal q = sqrt(p.x * p.x + p.z * p.z) - shape[0];
    return q * q + p.y * p.y < shape[1] * shape[1];
}

static icVec3 projectSphere(icVec3 p, const icReal *shape) {
    icReal l = icVec3_Length(p);
    return l > 0 ? icVec3_Scale(shape[0] / l, p) : p;
}

// Nearest point of the torus surface: towards p from the nearest point of the core circle.
static icVec3 projectTorus(icVec3 p, const icReal *shape) {
    icReal rho = sqrt(p.x * p.x + p.z * p.z);
    if (!(rho > 0)) return p;
    icVec3 core = icVec3_Make(shape[0] * p.x / rho, 0, shape[0] * p.z / rho);
    icVec3 d = icVec3_Sub(p, core);
    icReal l = icVec3_Length(d);
    return l > 0 ? icVec3_MulAdd(core, shape[1] / l, d) : p;
}

// Boundary vertices go onto the analytic surface, so that a sphere is round rather than a
// stack of cubes; a move is kept while every tet keeps half its carved volume, three passes.
typedef struct icShapeProjection {
    icProjectFn *project;
    const icReal *shape;
} icShapeProjection;

static bool shapeTarget(icVec3 p, const void *context, icVec3 *target) {
    const icShapeProjection *sp = context;
    *target = sp->project(p, sp->shape);
    return true;
}

static icResult snapToSurface(icTetMesh *mesh, icProjectFn *project, const icReal *shape) {
    icShapeProjection sp = {project, shape};
    return icMesh_SnapBoundary(mesh, shapeTarget, &sp, 0.5, 3);
}

// A grid of cubic cells of edge h, cells[a] along axis a, centred at the origin; keeps the
// cells whose centre `inside` accepts. tetCell keeps the grid's own cell index, so the cell
// colouring of the full grid still applies.
static icResult carve(icTetMesh *mesh, const int cells[3], icReal h, int split, icInsideFn *inside,
                      const icReal *shape) {
    const int64_t gridCells = (int64_t)cells[0] * cells[1] * cells[2];
    if (gridCells * split > IC_GENERATE_MAX_TETS) return IC_ERR_INVALID_ARGUMENT;
    icReal *coords[3] = {NULL, NULL, NULL};
    unsigned char *keep = IC_ALLOC(unsigned char, gridCells);
    icResult result = keep ? IC_OK : IC_ERR_OUT_OF_MEMORY;
    for (int a = 0; a < 3 && result == IC_OK; ++a) {
        coords[a] = IC_ALLOC(icReal, (size_t)cells[a] + 1);
        if (!coords[a]) {
            result = IC_ERR_OUT_OF_MEMORY;
            break;
        }
        // Symmetric about 0: plane i at (i - n/2) h.
        for (int i = 0; i <= cells[a]; ++i)
            coords[a][i] = (i - 0.5 * cells[a]) * h;
    }
    if (result == IC_OK) {
        for (int k = 0, c = 0; k < cells[2]; ++k)
            for (int j = 0; j < cells[1]; ++j)
                for (int i = 0; i < cells[0]; ++i, ++c) {
                    icVec3 centre = icVec3_Make(0.5 * (coords[0][i] + coords[0][i + 1]),
                                                0.5 * (coords[1][j] + coords[1][j + 1]),
                                                0.5 * (coords[2][k] + coords[2][k + 1]));
                    keep[c] = inside(centre, shape);
                }
        result = icMesh_BuildGrid(mesh, (const icReal *const *)coords, cells, split, keep);
    }
    for (int a = 0; a < 3; ++a)
        icFree(coords[a]);
    icFree(keep);
    return result;
}

icResult icGenerateSphere(icTetMesh *mesh, icReal radius, int cellsAcross, int split) {
    if (!mesh) return IC_ERR_INVALID_ARGUMENT;
    memset(mesh, 0, sizeof *mesh);
    if (!(radius > 0) || !isfinite(radius) || cellsAcross < 1 || (split != 5 && split != 6))
        return IC_ERR_INVALID_ARGUMENT;
    const int cells[3] = {cellsAcross, cellsAcross, cellsAcross};
    const icReal shape[1] = {radius};
    icResult r = carve(mesh, cells, 2 * radius / cellsAcross, split, insideSphere, shape);
    if (r == IC_OK) r = snapToSurface(mesh, projectSphere, shape);
    if (r != IC_OK) icTetMesh_Destroy(mesh);
    return r;
}

icResult icGenerateTorus(icTetMesh *mesh, icReal majorRadius, icReal minorRadius, int cellsAcross,
                         int split) {
    if (!mesh) return IC_ERR_INVALID_ARGUMENT;
    memset(mesh, 0, sizeof *mesh);
    if (!(majorRadius > 0) || !(minorRadius > 0) || !isfinite(majorRadius) ||
        !isfinite(minorRadius) || cellsAcross < 1 || (split != 5 && split != 6))
        return IC_ERR_INVALID_ARGUMENT;
    // cellsAcross spans the outer diameter 2 (R + r); the y extent 2r gets as many cells of
    // the same size as it needs (at least one).
    icReal h = 2 * (majorRadius + minorRadius) / cellsAcross;
    int ny = (int)ceil(2 * minorRadius / h - 1e-9);
    if (ny < 1) ny = 1;
    const int cells[3] = {cellsAcross, ny, cellsAcross};
    const icReal shape[2] = {majorRadius, minorRadius};
    icResult r = carve(mesh, cells, h, split, insideTorus, shape);
    if (r == IC_OK) r = snapToSurface(mesh, projectTorus, shape);
    if (r != IC_OK) icTetMesh_Destroy(mesh);
    return r;
}
