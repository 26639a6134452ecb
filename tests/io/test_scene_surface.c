// SPDX-License-Identifier: MIT
// A scene whose body mesh is a closed surface: tetrahedralised by TetGen once, then cached.
#include "test.h"

#include "isochor/formats.h"
#include "isochor/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void writeText(const char *dir, const char *name, const char *text) {
    char path[1400];
    IC_FORMAT(path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    fputs(text, fp);
    fclose(fp);
}

// The unit cube [0,1]^3 as 12 outward triangles.
static const char *const s_cubeObj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
    "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";

IC_TEST(io, scene_surface_mesh_is_tetrahedralised_once) {
    char tetgen[1024];
    if (!icFindProgram("tetgen", tetgen, sizeof tetgen)) {
        printf("  tetgen is not installed: skipped (tools/install-deps.sh installs it)\n");
        return;
    }
    const char *dir = icTest_TempDir();
    writeText(dir, "cube.obj", s_cubeObj);
    char scene[2048];
    IC_FORMAT(scene,
              "{\"dt\": 0.01, \"frames\": 1, \"bodies\": [{\"mesh\": {\"file\": \"cube.obj\", "
              "\"max_volume\": 0.01}}], \"output\": {\"dir\": \"%s/out\"}}",
              dir);
    icScene s;
    icDiagnostic diag;
    IC_REQUIRE(icScene_LoadString(scene, "surface.json", dir, &s, &diag) == IC_OK);
    int tets = icWorld_GetTetCount(s.world);
    icTetMesh view = {0};
    view.vertexCount = icWorld_GetVertexCount(s.world);
    view.tetCount = tets;
    view.positions = (icReal *)icWorld_GetRestPositions(s.world);
    view.tets = (int *)icWorld_GetTets(s.world);
    printf("  unit cube surface -> %d tets, volume %.12f\n", tets, icTetMesh_Volume(&view, NULL));
    IC_CHECK(tets >= 100); // max_volume 0.01 forces at least 100
    IC_CHECK_NEAR(icTetMesh_Volume(&view, NULL), 1.0, 1e-12);
    icScene_Destroy(&s);

    // The second load reads the cache: it works even with TetGen out of reach.
    const char *oldPath = getenv("PATH");
    char saved[4096];
    IC_FORMAT(saved, "%s", oldPath ? oldPath : "");
    setenv("PATH", "/nonexistent", 1);
    icResult r = icScene_LoadString(scene, "surface.json", dir, &s, &diag);
    setenv("PATH", saved, 1);
    IC_REQUIRE(r == IC_OK);
    IC_CHECK_INT(icWorld_GetTetCount(s.world), tets);
    icScene_Destroy(&s);

    // Meshing keys on a tet mesh file are a mistake, named by path.
    IC_CHECK_RESULT(icScene_LoadString("{\"dt\": 0.01, \"bodies\": [{\"mesh\": {\"file\": \"x.ele\", "
                                       "\"quality\": 1.5}}]}", "bad.json", dir, &s, &diag),
                    IC_ERR_BAD_VALUE);
    IC_CHECK(strstr(diag.message, "bodies[0].mesh.quality") != NULL);
}
