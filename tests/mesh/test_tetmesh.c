// SPDX-License-Identifier: MIT
// Tests of the tet mesh container: create, copy, destroy, volumes and bounds.
#include "core/core.h"
#include "test.h"

#include <string.h>

// One unit corner tet: x3 at the origin, x0..x2 on the axes, so det = 1 and V = 1/6.
static void makeCornerTet(icTetMesh *mesh) {
    icTetMesh_Create(mesh, 4, 1);
    const double p[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    memcpy(mesh->positions, p, sizeof p);
    const int t[4] = {0, 1, 2, 3};
    memcpy(mesh->tets, t, sizeof t);
}

IC_TEST(mesh, create_destroy_counts_bytes) {
    int64_t before = icGetByteCount();
    icTetMesh mesh;
    IC_CHECK_RESULT(icTetMesh_Create(&mesh, 10, 7), IC_OK);
    IC_CHECK_INT(mesh.vertexCount, 10);
    IC_CHECK_INT(mesh.tetCount, 7);
    IC_CHECK(mesh.positions && mesh.tets && !mesh.regions && !mesh.tetCell);
    IC_CHECK(icGetByteCount() > before);
    mesh.regions = icAlloc(7 * sizeof(int)); // Destroy must free optional arrays too
    mesh.tetCell = icAlloc(7 * sizeof(int));
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), before);
    IC_CHECK(mesh.positions == NULL && mesh.vertexCount == 0);
    icTetMesh_Destroy(&mesh); // safe on a zeroed struct
    IC_CHECK_RESULT(icTetMesh_Create(&mesh, -1, 3), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_INT(icGetByteCount(), before);
}

IC_TEST(mesh, copy_is_deep) {
    int64_t before = icGetByteCount();
    icTetMesh box, copy;
    const int cells[3] = {2, 3, 1};
    IC_REQUIRE(icGenerateBox(&box, icVec3_Make(1, 2, 3), cells, 6) == IC_OK);
    box.regions = icAlloc(sizeof(int) * (size_t)box.tetCount);
    for (int t = 0; t < box.tetCount; ++t)
        box.regions[t] = t % 3;
    IC_REQUIRE(icTetMesh_Copy(&copy, &box) == IC_OK);
    IC_CHECK(copy.positions != box.positions && copy.tets != box.tets);
    IC_CHECK(copy.regions && copy.regions != box.regions && copy.tetCell != box.tetCell);
    IC_CHECK(memcmp(copy.positions, box.positions, sizeof(double) * 3 * box.vertexCount) == 0);
    IC_CHECK(memcmp(copy.tets, box.tets, sizeof(int) * 4 * box.tetCount) == 0);
    IC_CHECK(memcmp(copy.regions, box.regions, sizeof(int) * box.tetCount) == 0);
    IC_CHECK(memcmp(copy.tetCell, box.tetCell, sizeof(int) * box.tetCount) == 0);
    IC_CHECK(memcmp(copy.cellCounts, box.cellCounts, sizeof copy.cellCounts) == 0);
    copy.positions[0] = 42;
    IC_CHECK(box.positions[0] != 42);
    icTetMesh_Destroy(&box);
    icTetMesh_Destroy(&copy);
    IC_CHECK_INT(icGetByteCount(), before);
}

IC_TEST(mesh, tet_volume_sign_and_bounds) {
    icTetMesh mesh;
    makeCornerTet(&mesh);
    IC_CHECK_NEAR(icTetMesh_TetVolume(&mesh, NULL, 0), 1.0 / 6.0, 1e-15);
    IC_CHECK_NEAR(icTetMesh_Volume(&mesh, NULL), 1.0 / 6.0, 1e-15);
    // Other positions: stretch x by 3 (volume x3), then mirror (volume negative).
    double p[12];
    memcpy(p, mesh.positions, sizeof p);
    for (int v = 0; v < 4; ++v)
        p[3 * v] *= 3;
    IC_CHECK_NEAR(icTetMesh_Volume(&mesh, p), 0.5, 1e-15);
    for (int v = 0; v < 4; ++v)
        p[3 * v] *= -1;
    IC_CHECK_NEAR(icTetMesh_TetVolume(&mesh, p, 0), -0.5, 1e-15);
    icVec3 lo, hi;
    icTetMesh_Bounds(&mesh, &lo, &hi);
    IC_CHECK(lo.x == 0 && lo.y == 0 && lo.z == 0 && hi.x == 1 && hi.y == 1 && hi.z == 1);
    icTetMesh_Destroy(&mesh);
}
