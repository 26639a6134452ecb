// SPDX-License-Identifier: MIT
// Tests of the vertex-to-tet adjacency against a brute-force scan.
#include "test.h"

IC_TEST(mesh, vertex_tets_match_brute_force) {
    icTetMesh sphere;
    IC_REQUIRE(icGenerateSphere(&sphere, 1.0, 6, 5) == IC_OK);
    icAdjacency adj;
    IC_REQUIRE(icTetMesh_VertexTets(&sphere, &adj) == IC_OK);
    IC_CHECK_INT(adj.rowCount, sphere.vertexCount);
    IC_CHECK_INT(adj.offsets[0], 0);
    IC_CHECK_INT(adj.offsets[adj.rowCount], 4 * sphere.tetCount);
    int mismatches = 0;
    for (int v = 0; v < sphere.vertexCount; ++v) {
        int k = adj.offsets[v];
        for (int t = 0; t < sphere.tetCount; ++t) {
            const int *tet = sphere.tets + 4 * t;
            if (tet[0] != v && tet[1] != v && tet[2] != v && tet[3] != v) continue;
            if (k >= adj.offsets[v + 1] || adj.indices[k] != t) ++mismatches;
            ++k;
        }
        if (k != adj.offsets[v + 1]) ++mismatches;
    }
    IC_CHECK_INT(mismatches, 0);
    icAdjacency_Destroy(&adj);
    IC_CHECK(adj.offsets == NULL && adj.indices == NULL);
    sphere.tets[3] = -5;
    IC_CHECK_RESULT(icTetMesh_VertexTets(&sphere, &adj), IC_ERR_INDEX_OUT_OF_RANGE);
    icTetMesh_Destroy(&sphere);
}
