// SPDX-License-Identifier: MIT
// Sphere meshed by mapping a whole cube grid onto the ball: an inner cube stays a regular grid
// and the shell around it is blended from cube to sphere along rays from the centre (the
// "O-grid" of structured meshing). Every boundary vertex lies on the sphere, unlike the carved
// sphere whose grid corners the snapping cannot move all the way, and no tet has all four
// corners on the surface, so a ball pressed flat on the ground keeps every tet's volume
// within reach of its inner corner.
#include "mesh/mesh_internal.h"

// Half-size of the inner cube as a fraction of the radius (in the max-norm of the grid).
// Measured on 8 to 14 cells across: 0.35 gives the best worst dihedral angle (33 deg, largest
// 116 deg; 0.5 gives 20 and 130, 0.2 gives 29 and 114, the carved sphere 18 and 139).
#define IC_MAPPED_SPHERE_CORE 0.35

// Grid point p of [-1, 1]^3 -> the unit ball.
static icVec3 mapToBall(icVec3 p) {
    icReal m = fmax(fabs(p.x), fmax(fabs(p.y), fabs(p.z)));
    if (m <= IC_MAPPED_SPHERE_CORE) return p;
    icVec3 onCube = icVec3_Scale(1.0 / m, p); // the ray's point on the cube's surface
    icReal t = (m - IC_MAPPED_SPHERE_CORE) / (1.0 - IC_MAPPED_SPHERE_CORE);
    icVec3 onSphere = icVec3_Scale(1.0 / icVec3_Length(onCube), onCube);
    return icVec3_Add(icVec3_Scale((1.0 - t) * IC_MAPPED_SPHERE_CORE, onCube),
                      icVec3_Scale(t, onSphere));
}

icResult icGenerateSphereMapped(icTetMesh *mesh, icReal radius, int cellsAcross) {
    if (!mesh) return IC_ERR_INVALID_ARGUMENT;
    memset(mesh, 0, sizeof *mesh);
    if (!(radius > 0) || !isfinite(radius) || cellsAcross < 2) return IC_ERR_INVALID_ARGUMENT;
    if ((int64_t)cellsAcross * cellsAcross * cellsAcross * 6 > IC_GENERATE_MAX_TETS)
        return IC_ERR_INVALID_ARGUMENT;
    icReal *coords = IC_ALLOC(icReal, (size_t)cellsAcross + 1);
    if (!coords) return IC_ERR_OUT_OF_MEMORY;
    for (int i = 0; i <= cellsAcross; ++i) coords[i] = (2.0 * i - cellsAcross) / cellsAcross;
    const icReal *axes[3] = {coords, coords, coords};
    const int cells[3] = {cellsAcross, cellsAcross, cellsAcross};
    icResult r = icMesh_BuildGridMirrored(mesh, axes, cells);
    icFree(coords);
    if (r != IC_OK) return r;
    for (int v = 0; v < mesh->vertexCount; ++v)
        icVec3_Store(mesh->positions, v,
                     icVec3_Scale(radius, mapToBall(icVec3_Load(mesh->positions, v))));
    return IC_OK;
}
