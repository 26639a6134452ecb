// SPDX-License-Identifier: MIT
// Tests of icTetMesh_Quality against closed forms for the regular and the corner tet.
#include "test.h"

#include <string.h>

static void makeTet(icTetMesh *mesh, const double p[12]) {
    icTetMesh_Create(mesh, 4, 1);
    memcpy(mesh->positions, p, sizeof(double) * 12);
    for (int a = 0; a < 4; ++a)
        mesh->tets[a] = a;
}

IC_TEST(mesh, quality_regular_tet) {
    // Alternate corners of a cube of edge 1: a regular tet of edge sqrt(2), V = 1/3.
    const double p[12] = {1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1};
    icTetMesh mesh;
    makeTet(&mesh, p);
    for (int i = 0; i < 12; ++i)
        mesh.positions[i] *= 0.5;
    double sign = icTetMesh_TetVolume(&mesh, NULL, 0) > 0 ? 1 : -1;
    icMeshQuality q;
    icTetMesh_Quality(&mesh, &q);
    const double dihedral = acos(1.0 / 3.0) * 180 / 3.14159265358979323846;
    IC_CHECK_NEAR(q.minDihedralDeg, dihedral, 1e-10);
    IC_CHECK_NEAR(q.maxDihedralDeg, dihedral, 1e-10);
    IC_CHECK_NEAR(q.minFaceAngleDeg, 60, 1e-10);
    IC_CHECK_NEAR(q.maxEdgeRatio, 1, 1e-14);
    IC_CHECK_NEAR(q.minEdge, sqrt(2), 1e-14);
    IC_CHECK_NEAR(q.maxEdge, sqrt(2), 1e-14);
    IC_CHECK_NEAR(q.totalVolume, sign / 3.0, 1e-14);
    IC_CHECK_NEAR(q.minVolume, sign / 3.0, 1e-14);
    IC_CHECK_INT(q.invertedCount, sign < 0);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, quality_corner_tet_and_inversion) {
    // x3 at the origin, the others on the axes: dihedral angles 90 (three edges at the
    // origin) and acos(1/sqrt 3) (the three edges of the slanted face); face angles 45..90.
    const double p[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    icTetMesh mesh;
    makeTet(&mesh, p);
    icMeshQuality q;
    icTetMesh_Quality(&mesh, &q);
    const double deg = 180 / 3.14159265358979323846;
    IC_CHECK_NEAR(q.minDihedralDeg, acos(1 / sqrt(3)) * deg, 1e-10);
    IC_CHECK_NEAR(q.maxDihedralDeg, 90, 1e-10);
    IC_CHECK_NEAR(q.minFaceAngleDeg, 45, 1e-10);
    IC_CHECK_NEAR(q.maxEdgeRatio, sqrt(2), 1e-14);
    IC_CHECK_NEAR(q.totalVolume, 1.0 / 6.0, 1e-15);
    IC_CHECK_INT(q.invertedCount, 0);
    // Mirror it: angles unchanged, volume negative, counted as inverted.
    mesh.positions[0] = -1;
    icTetMesh_Quality(&mesh, &q);
    IC_CHECK_NEAR(q.maxDihedralDeg, 90, 1e-10);
    IC_CHECK_NEAR(q.minFaceAngleDeg, 45, 1e-10);
    IC_CHECK_NEAR(q.maxVolume, -1.0 / 6.0, 1e-15);
    IC_CHECK_INT(q.invertedCount, 1);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, quality_flat_tet) {
    // A thin sliver: vertex 3 lifted by e above the triangle (0,1,2): the dihedral angles at
    // the base edges go to 0 like atan(e / inradius-ish) and the volume to e/6.
    const double e = 1e-3;
    const double p[12] = {1, 0, 0, 0, 1, 0, 0, 0, 0, 0.3, 0.3, -e};
    icTetMesh mesh;
    makeTet(&mesh, p);
    icMeshQuality q;
    icTetMesh_Quality(&mesh, &q);
    IC_CHECK_NEAR(q.totalVolume, e / 6, 1e-15);
    IC_CHECK(q.minDihedralDeg < 0.5 && q.minDihedralDeg > 0);
    IC_CHECK(q.maxDihedralDeg > 179);
    icTetMesh_Destroy(&mesh);
}
