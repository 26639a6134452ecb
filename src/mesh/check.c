// SPDX-License-Identifier: MIT
// icTetMesh_Check: validates indices and geometry, then settles the orientation convention.
#include "mesh/mesh_internal.h"

// Each failure names the element in the message and in diag->element; file and line are
// the caller's to fill (a reader knows which line a tet came from).
static icResult withElement(icDiagnostic *diag, icResult code, int element) {
    if (diag) diag->element = element;
    return code;
}

static icReal longestEdgeSquared(const icReal *positions, const int *tet) {
    icReal longest = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            icReal l = icVec3_LengthSquared(
                icVec3_Sub(icVec3_Load(positions, tet[a]), icVec3_Load(positions, tet[b])));
            if (l > longest) longest = l;
        }
    return longest;
}

// What makes a mesh unusable whatever it stands for: no tets, NaN or infinite positions, tets
// naming missing or repeated vertices.
static icResult checkStructure(const icTetMesh *mesh, icDiagnostic *diag) {
    if (!mesh) return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no mesh given");
    if (mesh->tetCount <= 0 || mesh->vertexCount <= 0)
        return icDiag_Set(diag, IC_ERR_EMPTY, "", 0, "the mesh has %d vertices and %d tets",
                          mesh->vertexCount, mesh->tetCount);
    if (!mesh->positions || !mesh->tets)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "the mesh has no %s array",
                          mesh->positions ? "tet" : "position");
    const int n = mesh->vertexCount, m = mesh->tetCount;

    // Each kind of check covers the whole mesh before the next kind starts, so a mesh with
    // several problems reports the most basic one (NaN, then index, repeat, volume).
    for (int v = 0; v < n; ++v) {
        const icReal *x = mesh->positions + 3 * (size_t)v;
        for (int d = 0; d < 3; ++d)
            if (!isfinite(x[d])) {
                icDiag_Set(diag, IC_ERR_NOT_FINITE, "", 0, "vertex %d has a%s coordinate", v,
                           isnan(x[d]) ? " NaN" : "n infinite");
                return withElement(diag, IC_ERR_NOT_FINITE, v);
            }
    }
    for (int t = 0; t < m; ++t) {
        const int *tet = mesh->tets + 4 * (size_t)t;
        for (int a = 0; a < 4; ++a)
            if (tet[a] < 0 || tet[a] >= n)
                return withElement(
                    diag,
                    icDiag_Set(diag, IC_ERR_INDEX_OUT_OF_RANGE, "", 0,
                               "tet %d refers to vertex %d but there are %d vertices", t, tet[a],
                               n),
                    t);
    }
    for (int t = 0; t < m; ++t) {
        const int *tet = mesh->tets + 4 * (size_t)t;
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b)
                if (tet[a] == tet[b])
                    return withElement(diag,
                                       icDiag_Set(diag, IC_ERR_REPEATED_INDEX, "", 0,
                                                  "tet %d repeats vertex %d", t, tet[a]),
                                       t);
    }
    return IC_OK;
}

// Zero volume relative to the tet's own size: |6V| < 1e-12 L^3 cannot be told from
// round-off, and such a tet has no inverse rest matrix. det == 0 is caught even when all
// four vertices coincide (L = 0).
static bool isDegenerate(const icReal *positions, const int *tet, icReal det, icReal *longest) {
    icReal l2 = longestEdgeSquared(positions, tet);
    *longest = sqrt(l2);
    return !(fabs(det) > 0) || fabs(det) < 1e-12 * l2 * sqrt(l2);
}

icResult icTetMesh_CheckFrame(const icTetMesh *mesh, icOrientReport *report, icDiagnostic *diag) {
    if (report) memset(report, 0, sizeof *report);
    icResult result = checkStructure(mesh, diag);
    if (result != IC_OK) return result;
    for (int t = 0; t < mesh->tetCount; ++t) {
        const int *tet = mesh->tets + 4 * (size_t)t;
        icReal det = icMesh_TetDet(mesh->positions, tet), longest;
        if (isDegenerate(mesh->positions, tet, det, &longest)) {
            if (report && report->degenerateCount < 8)
                report->firstDegenerate[report->degenerateCount] = t;
            if (report) ++report->degenerateCount;
        } else if (det < 0) {
            if (report && report->invertedCount < 8)
                report->firstInverted[report->invertedCount] = t;
            if (report) ++report->invertedCount;
        }
    }
    return IC_OK;
}

icResult icTetMesh_Check(icTetMesh *mesh, bool strict, icOrientReport *report, icDiagnostic *diag) {
    if (report) memset(report, 0, sizeof *report);
    icResult result = checkStructure(mesh, diag);
    if (result != IC_OK) return result;
    const int m = mesh->tetCount;

    int negativeCount = 0, firstNegative = -1;
    for (int t = 0; t < m; ++t) {
        const int *tet = mesh->tets + 4 * (size_t)t;
        icReal det = icMesh_TetDet(mesh->positions, tet), longest;
        bool degenerate = isDegenerate(mesh->positions, tet, det, &longest);
        // Coordinates so large that the tet's size or volume overflows are out of range, not
        // a zero volume.
        if (!isfinite(longest) || !isfinite(det)) {
            icDiag_Set(diag, IC_ERR_BAD_VALUE, "", 0,
                       "tet %d is too large to measure (its %s overflows): coordinates out of "
                       "range",
                       t, isfinite(longest) ? "volume" : "longest edge");
            return withElement(diag, IC_ERR_BAD_VALUE, t);
        }
        if (degenerate) {
            icDiag_Set(diag, IC_ERR_DEGENERATE_ELEMENT, "", 0,
                       "tet %d has zero volume (6V = %.3g, longest edge %.3g)", t, det, longest);
            return withElement(diag, IC_ERR_DEGENERATE_ELEMENT, t);
        }
        if (det < 0) {
            if (negativeCount < 8 && report) report->firstInverted[negativeCount] = t;
            if (firstNegative < 0) firstNegative = t;
            ++negativeCount;
        }
    }

    if (negativeCount == m) {
        // Every tet negative: the source used the other handedness. Swapping local vertices
        // 1 and 2 negates the determinant of every tet and keeps the mesh consistent.
        for (int t = 0; t < m; ++t) {
            int *tet = mesh->tets + 4 * (size_t)t;
            int s = tet[1];
            tet[1] = tet[2];
            tet[2] = s;
        }
        if (report) {
            memset(report->firstInverted, 0, sizeof report->firstInverted);
            report->flippedAll = true;
        }
        return IC_OK;
    }
    if (negativeCount > 0 && strict) {
        if (report) report->invertedCount = negativeCount;
        icDiag_Set(diag, IC_ERR_INVERTED_ELEMENT, "", 0,
                   "%d of %d tets are inverted (first: tet %d)", negativeCount, m, firstNegative);
        return withElement(diag, IC_ERR_INVERTED_ELEMENT, firstNegative);
    }
    if (report) report->invertedCount = negativeCount;
    return IC_OK;
}
