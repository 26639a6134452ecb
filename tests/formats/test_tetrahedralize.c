// SPDX-License-Identifier: MIT
// Tetrahedralising a closed surface with the external TetGen program.
#include "formats_testing.h"

#include <stdio.h>
#include <string.h>

static bool haveTetgen(void) {
    if (icFindProgram("tetgen", NULL, 0)) return true;
    // The project's setup installs it; say so rather than fail where it is missing.
    fprintf(stderr, "note: tetgen is not installed; skipping (apt-get install tetgen)\n");
    return false;
}

IC_TEST(formats, tetrahedralize_cube) {
    if (!haveTetgen()) return;
    int64_t bytes = icGetByteCount();
    icTriSurface s;
    icDiagnostic diag = {0};
    IC_REQUIRE(icLoadSurface(icTest_SourcePath("tests/data/formats/cube.obj"), &s, &diag) == IC_OK);
    icTetrahedralizeDef def = icDefaultTetrahedralizeDef();
    def.maxVolume = 0.02;
    icTetMesh mesh;
    icResult result = icTetrahedralize(&s, &def, &mesh, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s", diag.message);
    if (result == IC_OK) {
        icMeshQuality q;
        icTetMesh_Quality(&mesh, &q);
        IC_CHECK_NEAR(q.totalVolume, 1.0, 1e-12);
        IC_CHECK(mesh.tetCount >= 50); // 1 m^3 in tets of at most 0.02 m^3
        IC_CHECK(q.maxVolume <= 0.02 + 1e-12);
        IC_CHECK(q.minVolume > 0);
        IC_CHECK_INT(q.invertedCount, 0);
        icVec3 lo, hi;
        icTetMesh_Bounds(&mesh, &lo, &hi);
        IC_CHECK(lo.x == 0 && lo.y == 0 && lo.z == 0 && hi.x == 1 && hi.y == 1 && hi.z == 1);
        icTetMesh_Destroy(&mesh);
    }
    icTriSurface_Destroy(&s);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(formats, tetrahedralize_failures) {
    icTriSurface s;
    icDiagnostic diag = {0};
    IC_REQUIRE(icLoadSurface(icTest_SourcePath("tests/data/formats/cube.obj"), &s, &diag) == IC_OK);
    icTetrahedralizeDef def = icDefaultTetrahedralizeDef();
    def.program = "isochor-no-such-tetgen";
    icTetMesh mesh;
    IC_CHECK_RESULT(icTetrahedralize(&s, &def, &mesh, &diag), IC_ERR_UNSUPPORTED);
    IC_CHECK(strstr(diag.message, "apt-get install tetgen") != NULL);
    if (haveTetgen()) {
        // An open box (two of the twelve triangles removed) cannot be filled.
        s.triangleCount -= 2;
        def.program = "tetgen";
        icResult result = icTetrahedralize(&s, &def, &mesh, &diag);
        IC_CHECK_MSG(result == IC_ERR_EMPTY || result == IC_ERR_PARSE, "%s", icResult_Name(result));
        IC_CHECK(mesh.tets == NULL);
        s.triangleCount += 2;
    }
    icTriSurface_Destroy(&s);
}
