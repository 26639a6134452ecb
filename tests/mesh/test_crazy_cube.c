// SPDX-License-Identifier: MIT
// Tests of the crazy cube (Macklin & Müller 2021, Fig. 6): terrible quality, yet valid and
// conforming.
#include "mesh_testing.h"

#include <stdlib.h>
#include <string.h>

IC_TEST(mesh, crazy_cube_quality_and_validity) {
    const double size = 2.0;
    icTetMesh cube;
    IC_REQUIRE(icGenerateCrazyCube(&cube, size, 40000, 0) == IC_OK);
    IC_CHECK_MSG(cube.tetCount >= 32000 && cube.tetCount <= 48000, "%d tets", cube.tetCount);
    icOrientReport report;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icTetMesh_Check(&cube, true, &report, &diag), IC_OK);
    IC_CHECK(!report.flippedAll && report.invertedCount == 0);
    icMeshQuality q;
    icTetMesh_Quality(&cube, &q);
    IC_CHECK_MSG(q.minFaceAngleDeg < 1.0, "min face angle %.3g deg", q.minFaceAngleDeg);
    IC_CHECK_MSG(q.maxEdgeRatio > 50.0, "edge ratio %.3g", q.maxEdgeRatio);
    IC_CHECK(q.minVolume > 0 && q.invertedCount == 0);
    IC_CHECK_NEAR(q.totalVolume, size * size * size, 1e-12 * 8);

    // Conforming and still the cube: the surface is closed, exactly the six faces (area and
    // a grid's worth of triangles), every surface vertex on a face plane.
    int *tris, *owners, count;
    IC_REQUIRE(icTetMesh_ExtractSurface(&cube, &tris, &count, &owners) == IC_OK);
    const int *n = cube.cellCounts;
    IC_CHECK_INT(count, 4 * (n[0] * n[1] + n[1] * n[2] + n[0] * n[2]));
    IC_CHECK_NEAR(icMeshTest_Area(&cube, tris, count), 6 * size * size, 1e-11);
    IC_CHECK_NEAR(icMeshTest_EnclosedVolume(&cube, tris, count), size * size * size, 1e-11);
    IC_CHECK(icMeshTest_IsClosed(tris, count));
    IC_CHECK_INT(icMeshTest_CountInward(&cube, tris, owners, count), 0);
    int offFace = 0;
    for (int i = 0; i < 3 * count; ++i) {
        const double *p = cube.positions + 3 * tris[i];
        bool onFace = false;
        for (int d = 0; d < 3; ++d)
            onFace |= fabs(p[d]) == 0.5 * size;
        offFace += !onFace;
    }
    IC_CHECK_INT(offFace, 0);
    icFree(tris);
    icFree(owners);
    icTetMesh_Destroy(&cube);
}

IC_TEST(mesh, crazy_cube_is_deterministic_per_seed) {
    icTetMesh a, b, c;
    IC_REQUIRE(icGenerateCrazyCube(&a, 1.0, 5000, 42) == IC_OK);
    IC_REQUIRE(icGenerateCrazyCube(&b, 1.0, 5000, 42) == IC_OK);
    IC_REQUIRE(icGenerateCrazyCube(&c, 1.0, 5000, 43) == IC_OK);
    IC_REQUIRE(a.vertexCount == b.vertexCount && a.tetCount == b.tetCount);
    IC_CHECK(memcmp(a.positions, b.positions, sizeof(double) * 3 * a.vertexCount) == 0);
    IC_CHECK(memcmp(a.tets, b.tets, sizeof(int) * 4 * a.tetCount) == 0);
    IC_REQUIRE(a.vertexCount == c.vertexCount);
    IC_CHECK(memcmp(a.positions, c.positions, sizeof(double) * 3 * a.vertexCount) != 0);
    icTetMesh_Destroy(&a);
    icTetMesh_Destroy(&b);
    icTetMesh_Destroy(&c);
}

IC_TEST(mesh, crazy_cube_small_and_other_seeds) {
    // The promise holds across sizes and seeds, not just the one above.
    const int targets[4] = {162, 1000, 8000, 20000};
    for (int i = 0; i < 4; ++i) {
        icTetMesh cube;
        IC_REQUIRE(icGenerateCrazyCube(&cube, 1.0, targets[i], 1000 + (uint64_t)i) == IC_OK);
        IC_CHECK_MSG(abs(cube.tetCount - targets[i]) <= targets[i] / 5, "%d tets for %d",
                     cube.tetCount, targets[i]);
        IC_CHECK_RESULT(icTetMesh_Check(&cube, true, NULL, NULL), IC_OK);
        icMeshQuality q;
        icTetMesh_Quality(&cube, &q);
        IC_CHECK_MSG(q.minFaceAngleDeg < 1.0 && q.maxEdgeRatio > 50.0 && q.minVolume > 0,
                     "target %d: face angle %.3g, ratio %.3g, min volume %.3g", targets[i],
                     q.minFaceAngleDeg, q.maxEdgeRatio, q.minVolume);
        IC_CHECK_NEAR(q.totalVolume, 1.0, 1e-12);
        icTetMesh_Destroy(&cube);
    }
}
