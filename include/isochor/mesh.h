// SPDX-License-Identifier: MIT
/// \file
/// Tetrahedral meshes: the plain geometry a user builds, loads or generates, plus the
/// checks, reports and derived structures (surface, adjacency, colouring) the solvers need.
#pragma once

#include "isochor/math.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/// A linear tetrahedral mesh. Owned arrays are allocated through the isochor allocator;
/// release with icTetMesh_Destroy. Tet vertex order: vertex 4 (index 3) is the base, and a
/// positively oriented tet has det[x1-x4, x2-x4, x3-x4] > 0.
typedef struct icTetMesh {
    int vertexCount;   ///< vertices, >= 0
    int tetCount;      ///< tetrahedra, >= 0
    icReal *positions; ///< (vertexCount x 3) metres
    int *tets;         ///< (tetCount x 4) 0-based vertex indices
    int *regions;      ///< (tetCount) region / physical-group id per tet, or NULL
    /// Hex-grid provenance, filled by the box/sphere/torus/crazy-cube generators (else NULL / 0):
    /// tetCell[t] is the linear index i + nx (j + ny k) of the hex cell tet t came from.
    int *tetCell;       ///< (tetCount) or NULL
    int cellCounts[3];  ///< nx, ny, nz cells of the generating grid, 0 when not hex-derived
} icTetMesh;

/// Allocates a mesh with uninitialised positions and tets (regions, tetCell NULL).
icResult icTetMesh_Create(icTetMesh *mesh, int vertexCount, int tetCount);
/// Frees owned arrays and zeroes the struct. Safe on a zeroed struct.
void icTetMesh_Destroy(icTetMesh *mesh);
/// Deep copy.
icResult icTetMesh_Copy(icTetMesh *dst, const icTetMesh *src);

/// Signed volume of tet t (positive when correctly oriented), cubic metres.
icReal icTetMesh_TetVolume(const icTetMesh *mesh, const icReal *positions, int t);
/// Sum of signed tet volumes at the given positions (mesh->positions when NULL).
icReal icTetMesh_Volume(const icTetMesh *mesh, const icReal *positions);
/// Axis-aligned bounds of the positions.
void icTetMesh_Bounds(const icTetMesh *mesh, icVec3 *lower, icVec3 *upper);

/// What icTetMesh_Check found and changed.
typedef struct icOrientReport {
    bool flippedAll;       ///< every tet was negative: the file used the other convention
    int invertedCount;     ///< tets negative while others are positive (kept as inverted)
    int firstInverted[8];  ///< up to 8 of their indices
    int degenerateCount;   ///< zero-volume tets, counted by icTetMesh_CheckFrame only
    int firstDegenerate[8]; ///< up to 8 of their indices
} icOrientReport;

/// Validates a mesh and fixes its orientation convention. Errors, each naming the element
/// in diag->message (diag->file/line are left for the caller, who knows the source):
/// IC_ERR_EMPTY (no tets), IC_ERR_NOT_FINITE (vertex with NaN/Inf), IC_ERR_INDEX_OUT_OF_RANGE,
/// IC_ERR_REPEATED_INDEX, IC_ERR_DEGENERATE_ELEMENT (|6V| < 1e-12 * longest edge^3).
/// If every tet is negative all are reordered (swap local 2 and 3) and report->flippedAll is
/// set. If only some are, they are counted and kept (the solver recovers from inversion),
/// or IC_ERR_INVERTED_ELEMENT is returned when strict is true.
icResult icTetMesh_Check(icTetMesh *mesh, bool strict, icOrientReport *report, icDiagnostic *diag);
/// Checks a deformed state (a frame a run wrote) rather than a rest mesh: only what makes
/// the file unusable is refused (IC_ERR_EMPTY, IC_ERR_NOT_FINITE, IC_ERR_INDEX_OUT_OF_RANGE,
/// IC_ERR_REPEATED_INDEX, as icTetMesh_Check). Zero-volume and inverted tets are counted in
/// report (degenerateCount, invertedCount: every negative tet, even when all are), and the
/// mesh is never changed, so its tets keep the order and orientation of the rest mesh that
/// its fields and connectivity follow.
icResult icTetMesh_CheckFrame(const icTetMesh *mesh, icOrientReport *report, icDiagnostic *diag);

/// Mesh quality figures.
typedef struct icMeshQuality {
    //!@{
    icReal minVolume, maxVolume, totalVolume; ///< signed, cubic metres
    //!@}
    //!@{
    icReal minDihedralDeg, maxDihedralDeg;    ///< over all tets, degrees
    //!@}
    icReal minFaceAngleDeg;                   ///< smallest angle of any triangle face, degrees
    icReal maxEdgeRatio;                      ///< max over tets of longest / shortest edge
    //!@{
    icReal minEdge, maxEdge;                  ///< metres
    //!@}
    int invertedCount;                        ///< tets with negative volume
} icMeshQuality;

/// Computes quality over all tets at the mesh's positions (all zero without tets or with
/// out-of-range indices).
void icTetMesh_Quality(const icTetMesh *mesh, icMeshQuality *quality);

/// Boundary faces: triangles owned by exactly one tet, wound by the owning tet's vertex order
/// so that their normal (b-a) x (c-a) points out of it when the tet is positive. Listed by
/// owning tet, then local face (deterministic). *triangles is (triangleCount x 3), free with
/// icFree. *faceTets (optional, may be NULL) gets the owning tet of each triangle. No tets:
/// IC_OK with 0 and NULL. IC_ERR_INDEX_OUT_OF_RANGE when a tet names a missing vertex.
/// O(n): faces are bucketed by their smallest vertex (about 0.1 s for 1M tets).
icResult icTetMesh_ExtractSurface(const icTetMesh *mesh, int **triangles, int *triangleCount,
                                  int **faceTets);

/// Vertex-to-tet adjacency in compressed rows: tets of vertex v are
/// indices[offsets[v]..offsets[v+1]-1], ascending.
typedef struct icAdjacency {
    int rowCount;    ///< rows: the mesh's vertexCount
    int *offsets;    ///< (rowCount + 1)
    int *indices;    ///< (offsets[rowCount])
} icAdjacency;
/// The tets of every vertex. IC_ERR_INDEX_OUT_OF_RANGE for a bad tet index,
/// IC_ERR_INVALID_ARGUMENT for NULL or negative counts, IC_ERR_OUT_OF_MEMORY.
icResult icTetMesh_VertexTets(const icTetMesh *mesh, icAdjacency *adjacency);
/// Frees the arrays and zeroes the struct. Safe on a zeroed struct.
void icAdjacency_Destroy(icAdjacency *adjacency);

/// A partition of tets into colours: no two tets of one colour share a vertex.
/// Tets of colour c are order[colourStart[c] .. colourStart[c+1]-1].
typedef struct icColouring {
    int colourCount;  ///< colours
    int *colourStart; ///< (colourCount + 1)
    int *order;       ///< (tetCount) tets sorted by colour, ascending index within a colour
} icColouring;

/// Greedy colouring in tet index order (deterministic): each tet takes the smallest colour
/// none of its vertices' earlier tets use.
icResult icTetMesh_ColourGreedy(const icTetMesh *mesh, icColouring *colouring);
/// The paper's cell scheme for hex-derived meshes (Macklin & Müller 2021, sec.\ 5.3): one task owns
/// a whole cell, cells coloured by (i%2, j%2, k%2) into 8 colours. Here the returned colouring
/// lists, for each of the 8 cell colours, the tets of those cells grouped by cell (cell order
/// ascending, tets of a cell in index order). Tets inside one cell share vertices, so a colour is
/// processed cell by cell (serially within a cell, cells in parallel), and icColouring_IsValid is
/// false for this colouring by design. colourCount is always 8 (a colour may be empty on tiny
/// grids). cellStart (optional, free with icFree) gives the boundaries: tets of the k-th non-empty
/// cell in `order` are cellStart[k]..cellStart[k+1]-1, for k < *cellCount. IC_ERR_UNSUPPORTED when
/// the mesh has no tetCell data.
icResult icTetMesh_ColourByCell(const icTetMesh *mesh, icColouring *colouring, int **cellStart,
                                int *cellCount);
/// Frees the arrays and zeroes the struct. Safe on a zeroed struct.
void icColouring_Destroy(icColouring *colouring);
/// True when no two tets of any colour share a vertex.
bool icColouring_IsValid(const icColouring *colouring, const icTetMesh *mesh);

/// The most tets a box, sphere or torus generator makes from its grid (cells x split, counted
/// over the whole grid before carving); more gives IC_ERR_INVALID_ARGUMENT.
#define IC_GENERATE_MAX_TETS (INT32_MAX / 4)

/// Box generator: [-size/2, size/2] (m) centred at the origin, split into cells[0..2] hex cells,
/// each cut into 5 or 6 tets (split = 5 alternates the 5-tet pattern so faces match).
icResult icGenerateBox(icTetMesh *mesh, icVec3 size, const int cells[3], int split);
/// Sphere of the given radius (m) carved from a cube grid with cellsAcross cells per diameter:
/// keeps the hex cells whose centre lies inside, then moves the boundary vertices onto the
/// sphere as far as every tet keeps >= 1/2 of its carved volume (so the body is round).
icResult icGenerateSphere(icTetMesh *mesh, icReal radius, int cellsAcross, int split);
/// Sphere of the given radius (m) from a whole cube grid of cellsAcross (>= 2) cells per
/// diameter mapped onto the ball: an inner cube of 0.35 the radius stays regular, the shell
/// blends from cube to sphere along rays from the centre. Every boundary vertex is on the
/// sphere and no tet has all four corners on it; 6 cellsAcross^3 tets.
icResult icGenerateSphereMapped(icTetMesh *mesh, icReal radius, int cellsAcross);
/// Torus in the xz-plane around the y axis (major radius R, tube radius r, m), carved likewise;
/// cellsAcross cubic cells span the outer diameter 2 (R + r), y gets as many as 2r needs.
icResult icGenerateTorus(icTetMesh *mesh, icReal majorRadius, icReal minorRadius,
                         int cellsAcross, int split);
/// The "crazy cube" (Macklin & Müller 2021, Fig.\ 6): a cube of edge `size` (m) centred at the
/// origin with targetTets (>= 162) tets within 20 %, of very poor quality (min face angle < 1 deg,
/// edge ratio > 50:1; typically about 0.3 deg and 67:1 like the paper) but all positively oriented
/// and conforming. Built from a 6-split hex grid with graded, partly squeezed planes and random
/// vertex moves that keep every tet positive (boundary vertices stay in their face), driven by
/// `seed` (deterministic on every platform). Fills tetCell.
icResult icGenerateCrazyCube(icTetMesh *mesh, icReal size, int targetTets, uint64_t seed);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
