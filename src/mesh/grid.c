// SPDX-License-Identifier: MIT
// Hex-grid tet meshes: every kept cell cut into 5 or 6 positive tets that conform across cells.
#include "mesh/mesh_internal.h"

// Hex corners are numbered c = dx + 2 dy + 4 dz (d in {0, 1}).
// 6 tets: the Kuhn split around the diagonal 0-7, one tet per axis order. The same pattern
// in every cell cuts each face along the same diagonal as its neighbour does.
static const int s_six[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7},
                                {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
// 5 tets: four corner tets and a central one. Even cells cut off corners 0, 3, 5, 6 and odd
// cells corners 1, 2, 4, 7, so face diagonals always join vertices with odd i + j + k and
// neighbouring cells (of opposite parity) agree.
static const int s_five[2][5][4] = {
    {{0, 1, 2, 4}, {3, 2, 1, 7}, {5, 4, 1, 7}, {6, 4, 2, 7}, {1, 2, 4, 7}},
    {{1, 0, 3, 5}, {2, 0, 3, 6}, {4, 0, 5, 6}, {7, 3, 5, 6}, {0, 3, 5, 6}},
};

// Orders a tet's corners so that its determinant on the unit cube is positive; the grid
// scales each axis by a positive spacing, which keeps the sign.
static void orient(const int in[4], int out[4]) {
    int d[3][3];
    for (int a = 0; a < 3; ++a)
        for (int k = 0; k < 3; ++k)
            d[a][k] = ((in[a] >> k) & 1) - ((in[3] >> k) & 1);
    int det = d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) -
              d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
              d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
    IC_ASSERT(det != 0);
    out[0] = in[0];
    out[1] = det > 0 ? in[1] : in[2];
    out[2] = det > 0 ? in[2] : in[1];
    out[3] = in[3];
}

static icResult buildGrid(icTetMesh *mesh, const icReal *const coords[3], const int cells[3],
                          int split, const unsigned char *keep, bool mirror) {
    memset(mesh, 0, sizeof *mesh);
    const int nx = cells[0], ny = cells[1], nz = cells[2];
    if (nx < 1 || ny < 1 || nz < 1 || (split != 5 && split != 6)) return IC_ERR_INVALID_ARGUMENT;
    const int64_t gridVertices = (int64_t)(nx + 1) * (ny + 1) * (nz + 1);
    const int64_t gridCells = (int64_t)nx * ny * nz;
    if (gridVertices > INT32_MAX || gridCells * split > INT32_MAX / 4)
        return IC_ERR_INVALID_ARGUMENT;

    int keptCells = 0;
    for (int64_t c = 0; c < gridCells; ++c)
        keptCells += !keep || keep[c];
    if (keptCells == 0) return IC_ERR_EMPTY;

    // newIndex[v] of each grid vertex a kept cell uses, -1 otherwise; grid order is kept.
    int *newIndex = IC_ALLOC(int, gridVertices);
    if (!newIndex) return IC_ERR_OUT_OF_MEMORY;
    for (int64_t v = 0; v < gridVertices; ++v)
        newIndex[v] = keep ? -1 : 0;
    const int sx = 1, sy = nx + 1, sz = (nx + 1) * (ny + 1);
    if (keep) {
        for (int k = 0, c = 0; k < nz; ++k)
            for (int j = 0; j < ny; ++j)
                for (int i = 0; i < nx; ++i, ++c) {
                    if (!keep[c]) continue;
                    int base = i * sx + j * sy + k * sz;
                    for (int corner = 0; corner < 8; ++corner)
                        newIndex[base + (corner & 1) * sx + ((corner >> 1) & 1) * sy +
                                 (corner >> 2) * sz] = 0;
                }
    }
    int vertexCount = 0;
    for (int64_t v = 0; v < gridVertices; ++v)
        newIndex[v] = newIndex[v] == 0 ? vertexCount++ : -1;

    icResult result = icTetMesh_Create(mesh, vertexCount, keptCells * split);
    if (result == IC_OK) {
        mesh->tetCell = IC_ALLOC(int, keptCells *split);
        if (!mesh->tetCell) result = IC_ERR_OUT_OF_MEMORY;
    }
    if (result != IC_OK) {
        icTetMesh_Destroy(mesh);
        icFree(newIndex);
        return result;
    }
    for (int k = 0, v = 0; k <= nz; ++k)
        for (int j = 0; j <= ny; ++j)
            for (int i = 0; i <= nx; ++i, ++v)
                if (newIndex[v] >= 0)
                    icVec3_Store(mesh->positions, newIndex[v],
                                 icVec3_Make(coords[0][i], coords[1][j], coords[2][k]));

    int pattern[3][6][4]; // [0]: six, [1]/[2]: five even/odd
    for (int t = 0; t < 6; ++t)
        orient(s_six[t], pattern[0][t]);
    int mirrored[8][6][4]; // the six-tet split reflected on the axes of mask m (bit a: axis a)
    for (int mask = 0; mask < 8; ++mask)
        for (int t = 0; t < 6; ++t) {
            int reflected[4];
            for (int a = 0; a < 4; ++a)
                reflected[a] = s_six[t][a] ^ mask;
            orient(reflected, mirrored[mask][t]);
        }
    for (int p = 0; p < 2; ++p)
        for (int t = 0; t < 5; ++t)
            orient(s_five[p][t], pattern[1 + p][t]);

    int tet = 0;
    for (int k = 0, c = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i, ++c) {
                if (keep && !keep[c]) continue;
                int base = i * sx + j * sy + k * sz;
                int(*local)[4] = split == 6 ? pattern[0] : pattern[1 + ((i + j + k) & 1)];
                if (mirror) { // the diagonal runs from the corner nearest the origin outwards
                    int mask = (coords[0][i] + coords[0][i + 1] < 0) |
                               (coords[1][j] + coords[1][j + 1] < 0) << 1 |
                               (coords[2][k] + coords[2][k + 1] < 0) << 2;
                    local = mirrored[mask];
                }
                for (int t = 0; t < split; ++t, ++tet) {
                    for (int a = 0; a < 4; ++a) {
                        int corner = local[t][a];
                        int v = base + (corner & 1) * sx + ((corner >> 1) & 1) * sy +
                                (corner >> 2) * sz;
                        mesh->tets[4 * tet + a] = newIndex[v];
                    }
                    mesh->tetCell[tet] = c;
                }
            }
    mesh->cellCounts[0] = nx;
    mesh->cellCounts[1] = ny;
    mesh->cellCounts[2] = nz;
    icFree(newIndex);
    return IC_OK;
}

icResult icMesh_BuildGrid(icTetMesh *mesh, const icReal *const coords[3], const int cells[3],
                          int split, const unsigned char *keep) {
    return buildGrid(mesh, coords, cells, split, keep, false);
}

icResult icMesh_BuildGridMirrored(icTetMesh *mesh, const icReal *const coords[3],
                                  const int cells[3]) {
    return buildGrid(mesh, coords, cells, 6, NULL, true);
}
