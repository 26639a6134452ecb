// SPDX-License-Identifier: MIT
// Tests of icTetMesh_Check: each error code on a hand-built bad mesh, and orientation fixes.
#include "test.h"

#include <string.h>

// Two positive tets sharing the face (0, 1, 2): vertex 3 below it, vertex 4 above.
static void makeTwoTets(icTetMesh *mesh) {
    icTetMesh_Create(mesh, 5, 2);
    const double p[15] = {1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, -1, 0, 0, 1};
    memcpy(mesh->positions, p, sizeof p);
    // det[x0-x3, x1-x3, x2-x3] with x3 = (0,0,-1): [(1,0,1), (0,1,1), (0,0,1)] = 1 > 0.
    const int t[8] = {0, 1, 2, 3, 1, 0, 2, 4};
    memcpy(mesh->tets, t, sizeof t);
}

IC_TEST(mesh, check_accepts_good_mesh) {
    icTetMesh mesh;
    makeTwoTets(&mesh);
    icOrientReport report;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, true, &report, &diag), IC_OK);
    IC_CHECK(!report.flippedAll);
    IC_CHECK_INT(report.invertedCount, 0);
    IC_CHECK(icTetMesh_TetVolume(&mesh, NULL, 0) > 0 && icTetMesh_TetVolume(&mesh, NULL, 1) > 0);
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, NULL), IC_OK);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, check_empty) {
    icTetMesh mesh;
    icDiagnostic diag = {0};
    IC_REQUIRE(icTetMesh_Create(&mesh, 4, 0) == IC_OK);
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_ERR_EMPTY);
    IC_CHECK_INT(diag.code, IC_ERR_EMPTY);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, NULL), IC_ERR_EMPTY);
}

IC_TEST(mesh, check_not_finite) {
    icTetMesh mesh;
    makeTwoTets(&mesh);
    icDiagnostic diag = {0};
    mesh.positions[3 * 2 + 1] = NAN;
    mesh.tets[5] = 99; // also out of range: the vertex check comes first
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_ERR_NOT_FINITE);
    IC_CHECK_INT(diag.element, 2);
    IC_CHECK_MSG(strcmp(diag.message, "vertex 2 has a NaN coordinate") == 0, "message '%s'",
                 diag.message);
    mesh.positions[3 * 2 + 1] = 0;
    mesh.positions[3 * 4 + 2] = -INFINITY;
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_ERR_NOT_FINITE);
    IC_CHECK_INT(diag.element, 4);
    IC_CHECK_MSG(strcmp(diag.message, "vertex 4 has an infinite coordinate") == 0, "message '%s'",
                 diag.message);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, check_index_out_of_range) {
    icTetMesh mesh;
    makeTwoTets(&mesh);
    icDiagnostic diag = {0};
    mesh.tets[4 + 3] = 99;
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_ERR_INDEX_OUT_OF_RANGE);
    IC_CHECK_INT(diag.code, IC_ERR_INDEX_OUT_OF_RANGE);
    IC_CHECK_INT(diag.element, 1);
    IC_CHECK_MSG(strcmp(diag.message, "tet 1 refers to vertex 99 but there are 5 vertices") == 0,
                 "message '%s'", diag.message);
    mesh.tets[4 + 3] = 4;
    mesh.tets[0] = -1;
    mesh.tets[5] = 1; // also repeated in tet 1: the range check comes first
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_ERR_INDEX_OUT_OF_RANGE);
    IC_CHECK_INT(diag.element, 0);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, check_repeated_index) {
    icTetMesh mesh;
    makeTwoTets(&mesh);
    icDiagnostic diag = {0};
    mesh.tets[4 + 2] = 0; // tet 1 = (1, 0, 0, 4)
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, true, NULL, &diag), IC_ERR_REPEATED_INDEX);
    IC_CHECK_INT(diag.element, 1);
    IC_CHECK_MSG(strcmp(diag.message, "tet 1 repeats vertex 0") == 0, "message '%s'", diag.message);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, check_degenerate) {
    icTetMesh mesh;
    makeTwoTets(&mesh);
    icDiagnostic diag = {0};
    // Vertex 4 into the plane z = 0 of face (0, 1, 2): tet 1 has zero volume.
    mesh.positions[3 * 4 + 2] = 0;
    mesh.positions[3 * 4 + 0] = 0.3;
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_ERR_DEGENERATE_ELEMENT);
    IC_CHECK_INT(diag.element, 1);
    IC_CHECK_MSG(strncmp(diag.message, "tet 1 has zero volume", 21) == 0, "message '%s'",
                 diag.message);
    // Just above the threshold (|6V| = 1e-9 against L^3 ~ 1) is accepted: flat but usable.
    mesh.positions[3 * 4 + 2] = 1e-9;
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_OK);
    // Below it (1e-13) is not.
    mesh.positions[3 * 4 + 2] = 1e-13;
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_ERR_DEGENERATE_ELEMENT);
    // All four vertices at one point: zero edge length must not slip through.
    for (int v = 0; v < 5; ++v)
        mesh.positions[3 * v] = mesh.positions[3 * v + 1] = mesh.positions[3 * v + 2] = 0;
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, false, NULL, &diag), IC_ERR_DEGENERATE_ELEMENT);
    IC_CHECK_INT(diag.element, 0);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, check_flips_all_negative) {
    icTetMesh box, original;
    const int cells[3] = {3, 2, 2};
    IC_REQUIRE(icGenerateBox(&box, icVec3_Make(1, 1, 1), cells, 5) == IC_OK);
    IC_REQUIRE(icTetMesh_Copy(&original, &box) == IC_OK);
    // The other handedness: swap the last two vertices of every tet.
    for (int t = 0; t < box.tetCount; ++t) {
        int s = box.tets[4 * t + 2];
        box.tets[4 * t + 2] = box.tets[4 * t + 3];
        box.tets[4 * t + 3] = s;
    }
    IC_CHECK(icTetMesh_Volume(&box, NULL) < 0);
    icOrientReport report;
    IC_CHECK_RESULT(icTetMesh_Check(&box, true, &report, NULL), IC_OK);
    IC_CHECK(report.flippedAll);
    IC_CHECK_INT(report.invertedCount, 0);
    IC_CHECK_NEAR(icTetMesh_Volume(&box, NULL), 1.0, 1e-12);
    for (int t = 0; t < box.tetCount; ++t)
        IC_CHECK_NEAR(icTetMesh_TetVolume(&box, NULL, t), icTetMesh_TetVolume(&original, NULL, t),
                      1e-15);
    icTetMesh_Destroy(&box);
    icTetMesh_Destroy(&original);
}

IC_TEST(mesh, check_partial_inversion) {
    icTetMesh box;
    const int cells[3] = {2, 2, 2};
    IC_REQUIRE(icGenerateBox(&box, icVec3_Make(1, 1, 1), cells, 6) == IC_OK);
    const int flipped[3] = {3, 7, 40};
    for (int i = 0; i < 3; ++i) {
        int *tet = box.tets + 4 * flipped[i];
        int s = tet[0];
        tet[0] = tet[1];
        tet[1] = s;
    }
    icTetMesh before;
    IC_REQUIRE(icTetMesh_Copy(&before, &box) == IC_OK);
    icOrientReport report;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icTetMesh_Check(&box, false, &report, &diag), IC_OK);
    IC_CHECK(!report.flippedAll);
    IC_CHECK_INT(report.invertedCount, 3);
    for (int i = 0; i < 3; ++i)
        IC_CHECK_INT(report.firstInverted[i], flipped[i]);
    // Kept as they are: the solver recovers from inversion.
    IC_CHECK(memcmp(box.tets, before.tets, sizeof(int) * 4 * box.tetCount) == 0);

    IC_CHECK_RESULT(icTetMesh_Check(&box, true, &report, &diag), IC_ERR_INVERTED_ELEMENT);
    IC_CHECK_INT(diag.element, 3);
    IC_CHECK_INT(report.invertedCount, 3);
    IC_CHECK_MSG(strcmp(diag.message, "3 of 48 tets are inverted (first: tet 3)") == 0,
                 "message '%s'", diag.message);
    IC_CHECK(memcmp(box.tets, before.tets, sizeof(int) * 4 * box.tetCount) == 0);
    icTetMesh_Destroy(&box);
    icTetMesh_Destroy(&before);
}

IC_TEST(mesh, check_reports_at_most_eight_inverted) {
    icTetMesh box;
    const int cells[3] = {2, 2, 2};
    IC_REQUIRE(icGenerateBox(&box, icVec3_Make(1, 1, 1), cells, 6) == IC_OK);
    for (int t = 0; t < 20; ++t) {
        int s = box.tets[4 * (2 * t)];
        box.tets[4 * (2 * t)] = box.tets[4 * (2 * t) + 1];
        box.tets[4 * (2 * t) + 1] = s;
    }
    icOrientReport report;
    IC_CHECK_RESULT(icTetMesh_Check(&box, false, &report, NULL), IC_OK);
    IC_CHECK_INT(report.invertedCount, 20);
    for (int i = 0; i < 8; ++i)
        IC_CHECK_INT(report.firstInverted[i], 2 * i);
    icTetMesh_Destroy(&box);
}
