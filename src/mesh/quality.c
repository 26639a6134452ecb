// SPDX-License-Identifier: MIT
// icTetMesh_Quality: volumes, dihedral and face angles, edge lengths and ratios per tet.
#include "mesh/mesh_internal.h"

// Angle between two vectors; atan2 keeps precision near 0 and pi where acos does not.
static icReal angleBetween(icVec3 a, icVec3 b) {
    return atan2(icVec3_Length(icVec3_Cross(a, b)), icVec3_Dot(a, b));
}

void icTetMesh_Quality(const icTetMesh *mesh, icMeshQuality *quality) {
    IC_ASSERT(mesh && quality);
    memset(quality, 0, sizeof *quality);
    if (mesh->tetCount <= 0 || !icMesh_IndicesValid(mesh)) return;
    const icReal toDeg = 180.0 / IC_MESH_PI;
    icMeshQuality q = {
        .minVolume = INFINITY,
        .maxVolume = -INFINITY,
        .minDihedralDeg = INFINITY,
        .maxDihedralDeg = -INFINITY,
        .minFaceAngleDeg = INFINITY,
        .minEdge = INFINITY,
    };
    icReal volumeSum = 0;
    for (int t = 0; t < mesh->tetCount; ++t) {
        const int *tet = mesh->tets + 4 * (size_t)t;
        icVec3 x[4];
        for (int a = 0; a < 4; ++a)
            x[a] = icVec3_Load(mesh->positions, tet[a]);

        icReal det = icMesh_TetDet(mesh->positions, tet);
        icReal volume = det / 6.0;
        volumeSum += det;
        if (volume < q.minVolume) q.minVolume = volume;
        if (volume > q.maxVolume) q.maxVolume = volume;
        if (det < 0) ++q.invertedCount;

        icReal shortest = INFINITY, longest = 0;
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b) {
                icReal l = icVec3_Distance(x[a], x[b]);
                if (l < shortest) shortest = l;
                if (l > longest) longest = l;
            }
        if (shortest < q.minEdge) q.minEdge = shortest;
        if (longest > q.maxEdge) q.maxEdge = longest;
        icReal ratio = shortest > 0 ? longest / shortest : INFINITY;
        if (ratio > q.maxEdgeRatio) q.maxEdgeRatio = ratio;

        // Face area vectors (outward for a positive tet) and the three angles of each face.
        icVec3 normal[4];
        for (int f = 0; f < 4; ++f) {
            icVec3 p = x[icMesh_tetFaces[f][0]], r = x[icMesh_tetFaces[f][1]],
                   s = x[icMesh_tetFaces[f][2]];
            normal[f] = icVec3_Cross(icVec3_Sub(r, p), icVec3_Sub(s, p));
            icReal angles[3] = {angleBetween(icVec3_Sub(r, p), icVec3_Sub(s, p)),
                                angleBetween(icVec3_Sub(p, r), icVec3_Sub(s, r)),
                                angleBetween(icVec3_Sub(p, s), icVec3_Sub(r, s))};
            for (int k = 0; k < 3; ++k)
                if (angles[k] * toDeg < q.minFaceAngleDeg) q.minFaceAngleDeg = angles[k] * toDeg;
        }
        // The interior dihedral angle at the edge shared by faces f and g is pi minus the
        // angle between their outward normals (both flip together on an inverted tet).
        for (int f = 0; f < 4; ++f)
            for (int g = f + 1; g < 4; ++g) {
                icReal dihedral = (IC_MESH_PI - angleBetween(normal[f], normal[g])) * toDeg;
                if (dihedral < q.minDihedralDeg) q.minDihedralDeg = dihedral;
                if (dihedral > q.maxDihedralDeg) q.maxDihedralDeg = dihedral;
            }
    }
    q.totalVolume = volumeSum / 6.0;
    *quality = q;
}
