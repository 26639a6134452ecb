// SPDX-License-Identifier: MIT
// Internal helpers shared by the mesh files: tet determinants, index validation, hex grids.
#pragma once

#include "core/core.h"
#include "isochor/mesh.h"

/// pi (M_PI is not standard C).
#define IC_MESH_PI 3.14159265358979323846

/// Local faces of a tet, face f opposite local vertex f, wound so that (b-a) x (c-a) points
/// out of a positive tet.
extern const int icMesh_tetFaces[4][3];

/// det[x0-x3, x1-x3, x2-x3] of tet t = 6 x signed volume (mesh.h's orientation convention).
static inline icReal icMesh_TetDet(const icReal *positions, const int *tet) {
    icVec3 x3 = icVec3_Load(positions, tet[3]);
    icVec3 d0 = icVec3_Sub(icVec3_Load(positions, tet[0]), x3);
    icVec3 d1 = icVec3_Sub(icVec3_Load(positions, tet[1]), x3);
    icVec3 d2 = icVec3_Sub(icVec3_Load(positions, tet[2]), x3);
    return icVec3_Dot(d0, icVec3_Cross(d1, d2));
}

/// True when every tet index lies in [0, vertexCount); derived structures refuse bad meshes
/// instead of reading out of bounds.
bool icMesh_IndicesValid(const icTetMesh *mesh);

/// Builds a hex-grid tet mesh from per-axis plane coordinates coords[a][0..cells[a]], each
/// cell cut into `split` (5 or 6) positive tets. keep (one byte per cell, NULL keeps all)
/// selects cells; vertices no kept cell uses are dropped and the rest renumbered in grid
/// order (i fastest). tetCell holds the grid's own cell index and cellCounts the grid size.
/// Returns IC_ERR_EMPTY when no cell is kept.
icResult icMesh_BuildGrid(icTetMesh *mesh, const icReal *const coords[3], const int cells[3],
                          int split, const unsigned char *keep);

/// All cells of the grid, each cut into six tets around the cell diagonal that points away
/// from the origin (the Kuhn split mirrored into each octant; faces still conform, since a
/// face's diagonal depends only on the mirroring of the two axes in its plane). In a cell on
/// the boundary of a grid centred at the origin every tet keeps the cell's innermost corner,
/// so no tet has all four corners on the boundary.
icResult icMesh_BuildGridMirrored(icTetMesh *mesh, const icReal *const coords[3],
                                  const int cells[3]);

/// Where boundary vertex p should move; false leaves it where it is.
typedef bool icSnapTargetFn(icVec3 p, const void *context, icVec3 *target);
/// Moves the boundary vertices towards their targets (full, half or quarter way) while every
/// tet around keeps at least minRatio of its volume, in `passes` passes (snap_boundary.c).
icResult icMesh_SnapBoundary(icTetMesh *mesh, icSnapTargetFn *target, const void *context,
                             icReal minRatio, int passes);
