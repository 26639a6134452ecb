// SPDX-License-Identifier: MIT
// Tet colourings for parallel Gauss-Seidel: greedy by vertex sharing, and by hex cell parity.
#include "mesh/mesh_internal.h"

// Lists tets by colour (ascending index within a colour) with a counting sort.
static icResult buildOrder(icColouring *colouring, const int *colour, int tetCount,
                           int colourCount) {
    int *colourStart = IC_ALLOC_ZERO(int, (size_t)colourCount + 1);
    int *order = tetCount ? IC_ALLOC(int, tetCount) : NULL;
    if (!colourStart || (tetCount && !order)) {
        icFree(colourStart);
        icFree(order);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int t = 0; t < tetCount; ++t)
        ++colourStart[colour[t] + 1];
    for (int c = 0; c < colourCount; ++c)
        colourStart[c + 1] += colourStart[c];
    for (int t = 0; t < tetCount; ++t)
        order[colourStart[colour[t]]++] = t;
    for (int c = colourCount; c > 0; --c)
        colourStart[c] = colourStart[c - 1];
    colourStart[0] = 0;
    colouring->colourCount = colourCount;
    colouring->colourStart = colourStart;
    colouring->order = order;
    return IC_OK;
}

// The smallest colour of 64 or more that no earlier tet sharing a vertex with tet t uses.
// Only meshes with very high vertex valence get here, so it may be slow.
static int overflowColour(const icTetMesh *mesh, const icAdjacency *adjacency, const int *colour,
                          int t, int *stamp) {
    const int *tet = mesh->tets + 4 * (size_t)t;
    for (int a = 0; a < 4; ++a) {
        int v = tet[a];
        for (int i = adjacency->offsets[v]; i < adjacency->offsets[v + 1]; ++i) {
            int other = adjacency->indices[i];
            if (other >= t) break; // rows ascend: later tets are not coloured yet
            stamp[colour[other]] = t;
        }
    }
    int c = 64;
    while (stamp[c] == t)
        ++c;
    return c;
}

icResult icTetMesh_ColourGreedy(const icTetMesh *mesh, icColouring *colouring) {
    if (!mesh || !colouring) return IC_ERR_INVALID_ARGUMENT;
    memset(colouring, 0, sizeof *colouring);
    if (mesh->tetCount < 0 || mesh->vertexCount < 0) return IC_ERR_INVALID_ARGUMENT;
    if (!icMesh_IndicesValid(mesh)) return IC_ERR_INDEX_OUT_OF_RANGE;
    const int m = mesh->tetCount;
    int *colour = m ? IC_ALLOC(int, m) : NULL;
    // One bit per colour below 64 per vertex: the colours its earlier tets took.
    uint64_t *used = IC_ALLOC_ZERO(uint64_t, (size_t)mesh->vertexCount + 1);
    icAdjacency adjacency = {0};
    int *stamp = NULL;
    icResult result = IC_OK;
    if ((m && !colour) || !used) {
        result = IC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    int colourCount = 0;
    for (int t = 0; t < m; ++t) {
        const int *tet = mesh->tets + 4 * (size_t)t;
        uint64_t taken = used[tet[0]] | used[tet[1]] | used[tet[2]] | used[tet[3]];
        int c;
        if (~taken) {
            c = __builtin_ctzll(~taken);
        } else {
            if (!stamp) {
                result = icTetMesh_VertexTets(mesh, &adjacency);
                // colours never exceed the tet count, so the stamp array cannot overflow
                stamp = IC_ALLOC(int, (size_t)m + 65);
                if (result == IC_OK && !stamp) result = IC_ERR_OUT_OF_MEMORY;
                if (result != IC_OK) goto done;
                for (int i = 0; i < m + 65; ++i)
                    stamp[i] = -1;
            }
            c = overflowColour(mesh, &adjacency, colour, t, stamp);
        }
        colour[t] = c;
        if (c < 64)
            for (int a = 0; a < 4; ++a)
                used[tet[a]] |= (uint64_t)1 << c;
        if (c + 1 > colourCount) colourCount = c + 1;
    }
    result = buildOrder(colouring, colour, m, colourCount);
done:
    icFree(colour);
    icFree(used);
    icFree(stamp);
    icAdjacency_Destroy(&adjacency);
    return result;
}

icResult icTetMesh_ColourByCell(const icTetMesh *mesh, icColouring *colouring, int **cellStart,
                                int *cellCount) {
    if (!mesh || !colouring) return IC_ERR_INVALID_ARGUMENT;
    memset(colouring, 0, sizeof *colouring);
    if (cellStart) *cellStart = NULL;
    if (cellCount) *cellCount = 0;
    if (!mesh->tetCell) return IC_ERR_UNSUPPORTED;
    const int nx = mesh->cellCounts[0], ny = mesh->cellCounts[1], nz = mesh->cellCounts[2];
    if (nx <= 0 || ny <= 0 || nz <= 0 || (int64_t)nx * ny * nz > INT32_MAX - 1)
        return IC_ERR_INVALID_ARGUMENT;
    const int gridCells = nx * ny * nz, m = mesh->tetCount;
    for (int t = 0; t < m; ++t)
        if (mesh->tetCell[t] < 0 || mesh->tetCell[t] >= gridCells) return IC_ERR_INDEX_OUT_OF_RANGE;

    // Tets per grid cell, in index order (counting sort by cell).
    int *cellFirst = IC_ALLOC_ZERO(int, (size_t)gridCells + 1);
    int *byCell = m ? IC_ALLOC(int, m) : NULL;
    int *colourStart = IC_ALLOC_ZERO(int, 9);
    int *order = m ? IC_ALLOC(int, m) : NULL;
    int *starts = NULL;
    if (!cellFirst || !colourStart || (m && (!byCell || !order))) goto outOfMemory;
    for (int t = 0; t < m; ++t)
        ++cellFirst[mesh->tetCell[t] + 1];
    for (int c = 0; c < gridCells; ++c)
        cellFirst[c + 1] += cellFirst[c];
    for (int t = 0; t < m; ++t)
        byCell[cellFirst[mesh->tetCell[t]]++] = t;
    for (int c = gridCells; c > 0; --c)
        cellFirst[c] = cellFirst[c - 1];
    cellFirst[0] = 0;

    int occupied = 0;
    for (int c = 0; c < gridCells; ++c)
        occupied += cellFirst[c + 1] > cellFirst[c];
    starts = IC_ALLOC(int, (size_t)occupied + 1);
    if (!starts) goto outOfMemory;

    // Macklin & Müller 2021, sec. 5.3: cells of equal (i%2, j%2, k%2) share no vertex, so 8
    // colours suffice when one task owns a whole cell.
    int k = 0, cell = 0;
    for (int colour = 0; colour < 8; ++colour) {
        colourStart[colour] = k;
        for (int c = 0; c < gridCells; ++c) {
            int i = c % nx, j = (c / nx) % ny, l = c / (nx * ny);
            if ((i & 1) + 2 * (j & 1) + 4 * (l & 1) != colour) continue;
            if (cellFirst[c + 1] == cellFirst[c]) continue;
            starts[cell++] = k;
            for (int e = cellFirst[c]; e < cellFirst[c + 1]; ++e)
                order[k++] = byCell[e];
        }
    }
    colourStart[8] = k;
    starts[occupied] = k;
    icFree(cellFirst);
    icFree(byCell);
    colouring->colourCount = 8;
    colouring->colourStart = colourStart;
    colouring->order = order;
    if (cellStart)
        *cellStart = starts;
    else
        icFree(starts);
    if (cellCount) *cellCount = occupied;
    return IC_OK;
outOfMemory:
    icFree(cellFirst);
    icFree(byCell);
    icFree(colourStart);
    icFree(order);
    icFree(starts);
    return IC_ERR_OUT_OF_MEMORY;
}

void icColouring_Destroy(icColouring *colouring) {
    if (!colouring) return;
    icFree(colouring->colourStart);
    icFree(colouring->order);
    memset(colouring, 0, sizeof *colouring);
}

bool icColouring_IsValid(const icColouring *colouring, const icTetMesh *mesh) {
    if (!colouring || !mesh || colouring->colourCount < 0) return false;
    const int m = mesh->tetCount, n = mesh->vertexCount;
    if (!colouring->colourStart || !icMesh_IndicesValid(mesh)) return false;
    if (colouring->colourStart[0] != 0 || colouring->colourStart[colouring->colourCount] != m)
        return false;
    for (int c = 0; c < colouring->colourCount; ++c)
        if (colouring->colourStart[c + 1] < colouring->colourStart[c]) return false;
    if (m > 0 && !colouring->order) return false;
    // lastColour[v] is the last colour that touched vertex v; seen[t] catches a tet listed
    // twice (and so, with the count right, a tet missing).
    int *lastColour = IC_ALLOC(int, (size_t)n + 1);
    unsigned char *seen = IC_ALLOC_ZERO(unsigned char, (size_t)m + 1);
    bool valid = lastColour && seen;
    for (int v = 0; valid && v < n; ++v)
        lastColour[v] = -1;
    for (int c = 0; valid && c < colouring->colourCount; ++c) {
        for (int i = colouring->colourStart[c]; valid && i < colouring->colourStart[c + 1]; ++i) {
            int t = colouring->order[i];
            if (t < 0 || t >= m || seen[t]) {
                valid = false;
                break;
            }
            seen[t] = 1;
            const int *tet = mesh->tets + 4 * (size_t)t;
            for (int a = 0; a < 4; ++a) {
                if (lastColour[tet[a]] == c) valid = false;
                lastColour[tet[a]] = c;
            }
        }
    }
    icFree(lastColour);
    icFree(seen);
    return valid;
}
