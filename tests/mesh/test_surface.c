// SPDX-License-Identifier: MIT
// Tests of icTetMesh_ExtractSurface: counts, outward winding, divergence theorem, closedness.
#include "mesh_testing.h"

#include <string.h>

// Checks one mesh's surface: normals out of their tets, the divergence theorem against the
// tet volume sum, output order by owning tet. Returns the triangle count.
static int checkSurface(const icTetMesh *mesh, bool closed) {
    int *tris = NULL, *owners = NULL, count = -1;
    IC_CHECK_RESULT(icTetMesh_ExtractSurface(mesh, &tris, &count, &owners), IC_OK);
    if (count <= 0 || !tris || !owners) {
        icTest_Fail(__FILE__, __LINE__, "no surface (count %d)", count);
        return 0;
    }
    IC_CHECK_INT(icMeshTest_CountInward(mesh, tris, owners, count), 0);
    double volume = icTetMesh_Volume(mesh, NULL);
    IC_CHECK_NEAR(icMeshTest_EnclosedVolume(mesh, tris, count), volume, 1e-12 * fabs(volume));
    for (int f = 1; f < count; ++f)
        IC_CHECK(owners[f] >= owners[f - 1]);
    if (closed) IC_CHECK(icMeshTest_IsClosed(tris, count));
    icFree(tris);
    icFree(owners);
    return count;
}

IC_TEST(mesh, surface_box_counts_area_closed) {
    const int cells[3] = {3, 4, 5};
    for (int split = 5; split <= 6; ++split) {
        icTetMesh box;
        IC_REQUIRE(icGenerateBox(&box, icVec3_Make(1.5, 2, 0.7), cells, split) == IC_OK);
        int count = checkSurface(&box, true);
        // Each boundary quad is two triangles; non-conforming cells would add interior faces.
        IC_CHECK_INT(count, 4 * (3 * 4 + 4 * 5 + 3 * 5));
        int *tris, n;
        IC_REQUIRE(icTetMesh_ExtractSurface(&box, &tris, &n, NULL) == IC_OK);
        IC_CHECK_NEAR(icMeshTest_Area(&box, tris, n), 2 * (1.5 * 2 + 2 * 0.7 + 1.5 * 0.7), 1e-12);
        icFree(tris);
        icTetMesh_Destroy(&box);
    }
}

IC_TEST(mesh, surface_sphere_torus_divergence) {
    icTetMesh sphere, torus;
    IC_REQUIRE(icGenerateSphere(&sphere, 0.5, 12, 6) == IC_OK);
    IC_CHECK(checkSurface(&sphere, false) > 0);
    IC_REQUIRE(icGenerateTorus(&torus, 1.0, 0.3, 20, 5) == IC_OK);
    IC_CHECK(checkSurface(&torus, false) > 0);
    icTetMesh_Destroy(&sphere);
    icTetMesh_Destroy(&torus);
}

IC_TEST(mesh, surface_single_tet_winding) {
    // Both orderings of the four local faces must come out wound away from the far vertex.
    icTetMesh mesh;
    IC_REQUIRE(icTetMesh_Create(&mesh, 4, 1) == IC_OK);
    const double p[12] = {0.9, 0.1, 0, 0.2, 1.1, 0.1, 0, 0.1, 0.8, 0.05, 0, 0};
    memcpy(mesh.positions, p, sizeof p);
    for (int a = 0; a < 4; ++a)
        mesh.tets[a] = a;
    IC_REQUIRE(icTetMesh_TetVolume(&mesh, NULL, 0) > 0);
    IC_CHECK_INT(checkSurface(&mesh, true), 4);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, surface_is_deterministic_and_rejects_bad_indices) {
    icTetMesh box;
    const int cells[3] = {4, 3, 2};
    IC_REQUIRE(icGenerateBox(&box, icVec3_Make(1, 1, 1), cells, 6) == IC_OK);
    int *a, *b, na, nb;
    IC_REQUIRE(icTetMesh_ExtractSurface(&box, &a, &na, NULL) == IC_OK);
    IC_REQUIRE(icTetMesh_ExtractSurface(&box, &b, &nb, NULL) == IC_OK);
    IC_CHECK_INT(na, nb);
    IC_CHECK(memcmp(a, b, sizeof(int) * 3 * na) == 0);
    icFree(a);
    icFree(b);
    box.tets[17] = box.vertexCount;
    IC_CHECK_RESULT(icTetMesh_ExtractSurface(&box, &a, &na, NULL), IC_ERR_INDEX_OUT_OF_RANGE);
    IC_CHECK(a == NULL && na == 0);
    icTetMesh_Destroy(&box);
}

IC_TEST(mesh, surface_large_box) {
    // 40^3 x 6 = 384k tets: the bucketed matching must find exactly the boundary.
    icTetMesh box;
    const int cells[3] = {40, 40, 40};
    IC_REQUIRE(icGenerateBox(&box, icVec3_Make(2, 2, 2), cells, 6) == IC_OK);
    int *tris, count;
    IC_REQUIRE(icTetMesh_ExtractSurface(&box, &tris, &count, NULL) == IC_OK);
    IC_CHECK_INT(count, 12 * 40 * 40);
    IC_CHECK_NEAR(icMeshTest_EnclosedVolume(&box, tris, count), 8.0, 1e-10);
    icFree(tris);
    icTetMesh_Destroy(&box);
}
