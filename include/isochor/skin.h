// SPDX-License-Identifier: MIT
/// \file
/// Skinning: embedding a finer render surface in a tet mesh (containing or nearest tet and
/// barycentric weights, found with the collision module's spatial hash), world skins that
/// follow a body, and the "tissue" generator: a soft layer around capsule bones carved from
/// the hex grid (Macklin & Müller 2021, sec.\ 5.3, the elephant scene) and its smooth render
/// surface.
#pragma once

#include "isochor/world.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

// ---------------------------------------------------------------------------------------
// Embedding

/// Points embedded in a tet mesh: point i is sum_k weights[4i+k] x[tets[tet[i]][k]].
typedef struct icEmbedding {
    int pointCount;            ///< points embedded
    int *tet;                  ///< (pointCount) containing tet, or the nearest one
    icReal *weights;           ///< (pointCount x 4) barycentric weights, summing to 1
                               ///< (some negative for a point outside its tet)
    int outsideCount;          ///< points inside no tet, embedded in the nearest
    icReal maxOutsideDistance; ///< largest distance of such a point to its tet, m
} icEmbedding;

/// Embeds points (pointCount x 3) in the tet mesh given by positions (vertexCount x 3) and
/// tets (tetCount x 4). Each point gets the lowest-index tet containing it (within 1e-10 in
/// barycentric terms), else the nearest tet; its weights reproduce the point exactly (up to
/// round-off) at these positions and move it affinely under any affine map of the tets.
/// IC_ERR_EMPTY without tets, IC_ERR_INDEX_OUT_OF_RANGE, IC_ERR_NOT_FINITE,
/// IC_ERR_DEGENERATE_ELEMENT for a tet with zero volume, IC_ERR_OUT_OF_MEMORY.
icResult icEmbedPoints(const icReal *positions, int vertexCount, const int *tets, int tetCount,
                       const icReal *points, int pointCount, icEmbedding *embedding);
/// Deformed points: out (pointCount x 3) from the tets' current positions.
void icEmbedding_Apply(const icEmbedding *embedding, const int *tets, const icReal *positions,
                       icReal *out);
/// Frees the embedding's arrays and zeroes it. Safe on a zeroed struct.
void icEmbedding_Destroy(icEmbedding *embedding);

// ---------------------------------------------------------------------------------------
// World skins: a render surface that follows a body (embedded in its rest tets).

/// A render surface to embed in a world's rest tets (icWorld_AddSkin).
typedef struct icSkinDef {
    icBodyId body;             ///< the body to follow; {0} = all tets of the world
    int vertexCount;           ///< surface vertices
    const icReal *positions;   ///< (vertexCount x 3), m, in the world's rest coordinates
    int triangleCount;         ///< surface triangles
    const int *triangles;      ///< (triangleCount x 3)
} icSkinDef;

/// Defaults: all zero (every tet of the world, no surface).
icSkinDef icDefaultSkinDef(void);
/// Copies the surface and embeds it; *index (optional) gets the skin's index. Errors as
/// icEmbedPoints, IC_ERR_INVALID_ARGUMENT for a bad body id, IC_ERR_INDEX_OUT_OF_RANGE for
/// a bad triangle.
icResult icWorld_AddSkin(icWorld *world, const icSkinDef *def, int *index);
/// Skins added to the world.
int icWorld_GetSkinCount(const icWorld *world);
/// The skin at the world's current positions: *positions (vertexCount x 3) stays valid until
/// the next call for this skin or until the world is destroyed.
void icWorld_GetSkinSurface(icWorld *world, int index, const icReal **positions,
                            int *vertexCount, const int **triangles, int *triangleCount);
/// The embedding of skin `index` (0 <= index < icWorld_GetSkinCount; asserted), owned by the
/// world.
const icEmbedding *icWorld_GetSkinEmbedding(const icWorld *world, int index);

// ---------------------------------------------------------------------------------------
// Tissue: a soft layer around capsule bones

/// One capsule of a creature: flesh out to `radius` around segment a-b, hollow (the bone)
/// inside `boneRadius` (0 = solid).
typedef struct icTissueCapsule {
    //!@{
    icVec3 a, b;       ///< m
    //!@}
    icReal radius;     ///< outer radius, m, > 0
    icReal boneRadius; ///< m, in [0, radius)
} icTissueCapsule;

/// A creature's soft layer: capsules and the hex grid it is carved from.
typedef struct icTissueDef {
    const icTissueCapsule *capsules; ///< (capsuleCount)
    int capsuleCount;                ///< >= 1
    icReal cellSize;                 ///< hex cell edge of the tet mesh, m, > 0; default 0.05
    int split;                       ///< 5 or 6 tets per cell; default 6
} icTissueDef;

/// Defaults: no capsules, 0.05 m cells, 6 tets per cell.
icTissueDef icDefaultTissueDef(void);
/// Signed distance to the union of the capsules' outer surfaces (negative inside), m.
icReal icTissue_Distance(const icTissueDef *def, icVec3 p);
/// The tissue mesh: hex cells (edge cellSize) whose centre lies inside the union of the
/// capsules and outside every bone, cut into tets; outer boundary vertices are then moved
/// onto the union's surface as far as every tet keeps half its volume. Fills tetCell.
/// IC_ERR_BAD_VALUE for a bad def, IC_ERR_EMPTY when no cell is kept.
icResult icGenerateTissue(icTetMesh *mesh, const icTissueDef *def);
/// The union's outer surface as triangles, by marching tetrahedra on a grid of the given
/// cell size (only cells near the surface are visited). Outward counter-clockwise, closed,
/// vertices shared. *positions and *triangles are freed with icFree.
icResult icGenerateTissueSurface(const icTissueDef *def, icReal cellSize, icReal **positions,
                                 int *vertexCount, int **triangles, int *triangleCount);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
