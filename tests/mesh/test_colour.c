// SPDX-License-Identifier: MIT
// Tests of the greedy and cell colourings: independence, order, determinism, overflow.
#include "test.h"

#include <stdlib.h>
#include <string.h>

// Builds the five meshes the colourings must handle (index 0..4); false past the end.
static bool makeMesh(int which, icTetMesh *mesh) {
    const int cells[3] = {5, 4, 3};
    switch (which) {
    case 0:
        return icGenerateBox(mesh, icVec3_Make(1, 1, 1), cells, 5) == IC_OK;
    case 1:
        return icGenerateBox(mesh, icVec3_Make(1, 1, 1), cells, 6) == IC_OK;
    case 2:
        return icGenerateSphere(mesh, 1.0, 9, 6) == IC_OK;
    case 3:
        return icGenerateTorus(mesh, 1.0, 0.4, 14, 5) == IC_OK;
    case 4:
        return icGenerateCrazyCube(mesh, 1.0, 3000, 5) == IC_OK;
    default:
        return false;
    }
}

// Sorted by colour, ascending tet index within a colour, every tet once.
static void checkOrder(const icColouring *c, int tetCount) {
    IC_CHECK_INT(c->colourStart[0], 0);
    IC_CHECK_INT(c->colourStart[c->colourCount], tetCount);
    for (int k = 0; k < c->colourCount; ++k)
        for (int i = c->colourStart[k] + 1; i < c->colourStart[k + 1]; ++i)
            IC_CHECK(c->order[i] > c->order[i - 1]);
}

IC_TEST(mesh, colour_greedy_valid_on_all_meshes) {
    for (int which = 0; which < 5; ++which) {
        icTetMesh mesh;
        IC_REQUIRE(makeMesh(which, &mesh));
        icColouring c, again;
        IC_REQUIRE(icTetMesh_ColourGreedy(&mesh, &c) == IC_OK);
        IC_CHECK_MSG(icColouring_IsValid(&c, &mesh), "mesh %d: invalid greedy colouring", which);
        checkOrder(&c, mesh.tetCount);
        // A tet shares vertices with at most (4 x valence) others; grids need a few dozen.
        IC_CHECK_MSG(c.colourCount >= 8 && c.colourCount <= 48, "mesh %d: %d colours", which,
                     c.colourCount);
        // Deterministic: a second run gives the same order.
        IC_REQUIRE(icTetMesh_ColourGreedy(&mesh, &again) == IC_OK);
        IC_CHECK_INT(again.colourCount, c.colourCount);
        IC_CHECK(memcmp(again.order, c.order, sizeof(int) * mesh.tetCount) == 0);
        icColouring_Destroy(&c);
        icColouring_Destroy(&again);
        icTetMesh_Destroy(&mesh);
    }
}

IC_TEST(mesh, colour_greedy_takes_smallest_colour) {
    icTetMesh mesh;
    IC_REQUIRE(makeMesh(1, &mesh));
    icColouring c;
    IC_REQUIRE(icTetMesh_ColourGreedy(&mesh, &c) == IC_OK);
    int *colour = malloc(sizeof(int) * mesh.tetCount);
    for (int k = 0; k < c.colourCount; ++k)
        for (int i = c.colourStart[k]; i < c.colourStart[k + 1]; ++i)
            colour[c.order[i]] = k;
    IC_CHECK_INT(colour[0], 0);
    // For every tet, each smaller colour is used by an earlier tet sharing a vertex.
    int bad = 0;
    for (int t = 0; t < mesh.tetCount; ++t) {
        unsigned long long seen = 0;
        for (int u = 0; u < t; ++u) {
            int shared = 0;
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    shared |= mesh.tets[4 * t + a] == mesh.tets[4 * u + b];
            if (shared && colour[u] < 64) seen |= 1ull << colour[u];
        }
        for (int k = 0; k < colour[t]; ++k)
            bad += !((seen >> k) & 1);
        bad += (seen >> colour[t]) & 1;
    }
    IC_CHECK_INT(bad, 0);
    free(colour);
    icColouring_Destroy(&c);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, colour_greedy_more_than_64_colours) {
    // 100 tets sharing vertex 0 and nothing else: 100 colours, past the 64-bit masks.
    icTetMesh fan;
    IC_REQUIRE(icTetMesh_Create(&fan, 301, 100) == IC_OK);
    for (int v = 0; v < 301; ++v)
        for (int d = 0; d < 3; ++d)
            fan.positions[3 * v + d] = v + d;
    for (int t = 0; t < 100; ++t) {
        fan.tets[4 * t] = 0;
        for (int a = 1; a < 4; ++a)
            fan.tets[4 * t + a] = 3 * t + a;
    }
    icColouring c;
    IC_REQUIRE(icTetMesh_ColourGreedy(&fan, &c) == IC_OK);
    IC_CHECK_INT(c.colourCount, 100);
    for (int k = 0; k < 100; ++k) {
        IC_CHECK_INT(c.colourStart[k + 1] - c.colourStart[k], 1);
        IC_CHECK_INT(c.order[c.colourStart[k]], k);
    }
    IC_CHECK(icColouring_IsValid(&c, &fan));
    icColouring_Destroy(&c);
    icTetMesh_Destroy(&fan);
}

IC_TEST(mesh, colour_is_valid_catches_conflicts) {
    icTetMesh mesh;
    IC_REQUIRE(makeMesh(0, &mesh));
    icColouring c;
    IC_REQUIRE(icTetMesh_ColourGreedy(&mesh, &c) == IC_OK);
    IC_REQUIRE(icColouring_IsValid(&c, &mesh));
    // Tets 0 and 1 share a cell, hence vertices: put both into colour 0.
    int i1 = -1;
    for (int i = 0; i < mesh.tetCount; ++i)
        if (c.order[i] == 1) i1 = i;
    IC_REQUIRE(i1 >= c.colourStart[1]);
    int saved = c.order[1];
    c.order[1] = 1;
    c.order[i1] = saved;
    IC_CHECK(!icColouring_IsValid(&c, &mesh));
    // A tet listed twice (and so another missing).
    c.order[1] = saved;
    c.order[i1] = 0;
    IC_CHECK(!icColouring_IsValid(&c, &mesh));
    icColouring_Destroy(&c);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(mesh, colour_by_cell) {
    for (int which = 0; which < 5; ++which) {
        icTetMesh mesh;
        IC_REQUIRE(makeMesh(which, &mesh));
        IC_REQUIRE(mesh.tetCell != NULL);
        icColouring c;
        int *cellStart = NULL, cellCount = 0;
        IC_REQUIRE(icTetMesh_ColourByCell(&mesh, &c, &cellStart, &cellCount) == IC_OK);
        IC_CHECK_INT(c.colourCount, 8);
        IC_CHECK_INT(c.colourStart[8], mesh.tetCount);
        IC_CHECK_INT(cellStart[0], 0);
        IC_CHECK_INT(cellStart[cellCount], mesh.tetCount);
        const int nx = mesh.cellCounts[0], ny = mesh.cellCounts[1];
        // Tets inside one cell share vertices by design, so the plain check must say no.
        IC_CHECK(!icColouring_IsValid(&c, &mesh));
        // Each cell range: one cell, tets ascending, the right parity colour, cells ascending
        // within a colour, and no vertex touched by two cells of one colour.
        int *owner = malloc(sizeof(int) * mesh.vertexCount);
        int *seen = calloc((size_t)mesh.tetCount, sizeof(int));
        int problems = 0, colour = 0;
        for (int v = 0; v < mesh.vertexCount; ++v)
            owner[v] = -1;
        for (int k = 0; k < cellCount; ++k) {
            while (colour < 8 && cellStart[k] >= c.colourStart[colour + 1])
                ++colour;
            int cell = mesh.tetCell[c.order[cellStart[k]]];
            int i = cell % nx, j = (cell / nx) % ny, l = cell / (nx * ny);
            problems += (i & 1) + 2 * (j & 1) + 4 * (l & 1) != colour;
            problems += cellStart[k + 1] > c.colourStart[colour + 1];
            if (k > 0 && cellStart[k] > c.colourStart[colour])
                problems += mesh.tetCell[c.order[cellStart[k - 1]]] >= cell;
            for (int e = cellStart[k]; e < cellStart[k + 1]; ++e) {
                int t = c.order[e];
                problems += mesh.tetCell[t] != cell || seen[t]++;
                if (e > cellStart[k]) problems += t <= c.order[e - 1];
                for (int a = 0; a < 4; ++a) {
                    int v = mesh.tets[4 * t + a];
                    // owner encodes (colour, cell): a different cell of the same colour clashes
                    int tag = colour * (nx * ny * mesh.cellCounts[2]) + cell;
                    if (owner[v] >= 0 && owner[v] / (nx * ny * mesh.cellCounts[2]) == colour &&
                        owner[v] != tag)
                        ++problems;
                    owner[v] = tag;
                }
            }
        }
        IC_CHECK_MSG(problems == 0, "mesh %d: %d problems in the cell colouring", which, problems);
        free(owner);
        free(seen);
        icFree(cellStart);
        icColouring_Destroy(&c);
        icTetMesh_Destroy(&mesh);
    }
}

IC_TEST(mesh, colour_by_cell_needs_cells) {
    icTetMesh mesh;
    IC_REQUIRE(makeMesh(0, &mesh));
    icFree(mesh.tetCell);
    mesh.tetCell = NULL;
    icColouring c;
    int *cellStart = (int *)&mesh, cellCount = 7;
    IC_CHECK_RESULT(icTetMesh_ColourByCell(&mesh, &c, &cellStart, &cellCount), IC_ERR_UNSUPPORTED);
    IC_CHECK(cellStart == NULL && cellCount == 0 && c.order == NULL);
    icTetMesh_Destroy(&mesh);
}
