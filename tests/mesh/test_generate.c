// SPDX-License-Identifier: MIT
// Tests of the box, sphere and torus generators: volumes, orientation, layout, cells.
#include "mesh_testing.h"

// Every vertex of tet t lies in the closed box of its grid cell (planes lo + i h per axis).
static int countOutsideCell(const icTetMesh *mesh, const double lo[3], const double h[3]) {
    const int nx = mesh->cellCounts[0], ny = mesh->cellCounts[1];
    int outside = 0;
    for (int t = 0; t < mesh->tetCount; ++t) {
        int c = mesh->tetCell[t];
        int index[3] = {c % nx, (c / nx) % ny, c / (nx * ny)};
        for (int a = 0; a < 4; ++a) {
            const double *x = mesh->positions + 3 * mesh->tets[4 * t + a];
            for (int d = 0; d < 3; ++d) {
                double low = lo[d] + index[d] * h[d];
                if (x[d] < low - 1e-12 || x[d] > low + h[d] + 1e-12) ++outside;
            }
        }
    }
    return outside;
}

IC_TEST(mesh, box_volume_orientation_layout) {
    const int cells[3] = {3, 4, 5};
    const icVec3 size = icVec3_Make(1.5, 2.0, 0.7);
    for (int split = 5; split <= 6; ++split) {
        icTetMesh box;
        IC_REQUIRE(icGenerateBox(&box, size, cells, split) == IC_OK);
        IC_CHECK_INT(box.vertexCount, 4 * 5 * 6);
        IC_CHECK_INT(box.tetCount, split * 60);
        icOrientReport report;
        IC_CHECK_RESULT(icTetMesh_Check(&box, true, &report, NULL), IC_OK);
        IC_CHECK(!report.flippedAll && report.invertedCount == 0);
        icMeshQuality q;
        icTetMesh_Quality(&box, &q);
        IC_CHECK(q.minVolume > 0);
        IC_CHECK_NEAR(icTetMesh_Volume(&box, NULL), 1.5 * 2.0 * 0.7, 1e-12 * 2.1);
        icVec3 lo, hi;
        icTetMesh_Bounds(&box, &lo, &hi);
        IC_CHECK(lo.x == -0.75 && hi.x == 0.75 && lo.y == -1 && hi.y == 1 && lo.z == -0.35 &&
                 hi.z == 0.35);
        // Vertex (i, j, k) is i + 4 (j + 5 k): i runs fastest.
        IC_CHECK_NEAR(box.positions[3 * 1 + 0], -0.75 + 0.5, 1e-15);
        IC_CHECK_NEAR(box.positions[3 * 4 + 1], -1 + 0.5, 1e-15);
        IC_CHECK_NEAR(box.positions[3 * 20 + 2], -0.35 + 0.14, 1e-15);
        IC_CHECK(box.cellCounts[0] == 3 && box.cellCounts[1] == 4 && box.cellCounts[2] == 5);
        const double origin[3] = {-0.75, -1, -0.35}, h[3] = {0.5, 0.5, 0.14};
        IC_CHECK_INT(countOutsideCell(&box, origin, h), 0);
        // Each cell's tets fill exactly the cell (the split covers it, nothing overlaps
        // because all are positive and the surface is right).
        for (int c = 0; c < 60; ++c) {
            double sum = 0;
            for (int t = 0; t < box.tetCount; ++t)
                if (box.tetCell[t] == c) sum += icTetMesh_TetVolume(&box, NULL, t);
            IC_CHECK_NEAR(sum, 0.5 * 0.5 * 0.14, 1e-15);
        }
        icTetMesh_Destroy(&box);
    }
}

IC_TEST(mesh, box_rejects_bad_arguments) {
    icTetMesh box;
    const int good[3] = {2, 2, 2}, zero[3] = {2, 0, 2};
    IC_CHECK_RESULT(icGenerateBox(&box, icVec3_Make(1, 1, 1), zero, 6), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateBox(&box, icVec3_Make(1, 1, 1), good, 4), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateBox(&box, icVec3_Make(1, 0, 1), good, 5), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateBox(&box, icVec3_Make(1, -1, 1), good, 5), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateBox(&box, icVec3_Make(NAN, 1, 1), good, 5), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK(box.positions == NULL && box.tetCount == 0);
    IC_CHECK_RESULT(icGenerateSphere(&box, 0, 8, 6), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateSphere(&box, 1, 0, 6), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateSphere(&box, 1, 8, 7), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateTorus(&box, 1, -0.2, 8, 6), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateTorus(&box, 0, 0.2, 8, 6), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateCrazyCube(&box, 1, 10, 0), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateCrazyCube(&box, -1, 1000, 0), IC_ERR_INVALID_ARGUMENT);
}

// Relative volume error of a carved shape; also checks it is a valid, compact mesh.
static double carvedError(icTetMesh *mesh, double exact) {
    icOrientReport report;
    IC_CHECK_RESULT(icTetMesh_Check(mesh, true, &report, NULL), IC_OK);
    IC_CHECK(!report.flippedAll && report.invertedCount == 0);
    // Compact: every vertex is used; ordered: grid order (z, then y, then x) is kept.
    char *used = calloc((size_t)mesh->vertexCount, 1);
    for (int i = 0; i < 4 * mesh->tetCount; ++i)
        used[mesh->tets[i]] = 1;
    int unused = 0, unordered = 0;
    for (int v = 0; v < mesh->vertexCount; ++v)
        unused += !used[v];
    // Interior vertices keep their grid positions, so they still come in grid order (the
    // boundary ones were moved onto the surface).
    int *triangles = NULL, triangleCount = 0;
    IC_CHECK_RESULT(icTetMesh_ExtractSurface(mesh, &triangles, &triangleCount, NULL), IC_OK);
    char *surface = calloc((size_t)mesh->vertexCount, 1);
    for (int i = 0; i < 3 * triangleCount; ++i)
        surface[triangles[i]] = 1;
    icFree(triangles);
    const double *last = NULL;
    for (int v = 0; v < mesh->vertexCount; ++v) {
        if (surface[v]) continue;
        const double *q = mesh->positions + 3 * v;
        if (last) {
            bool less = last[2] < q[2] ||
                        (last[2] == q[2] && (last[1] < q[1] || (last[1] == q[1] && last[0] < q[0])));
            unordered += !less;
        }
        last = q;
    }
    free(surface);
    IC_CHECK_INT(unused, 0);
    IC_CHECK_INT(unordered, 0);
    free(used);
    return fabs(icTetMesh_Volume(mesh, NULL) - exact) / exact;
}

IC_TEST(mesh, sphere_volume_converges) {
    const double r = 0.7, pi = 3.14159265358979323846, exact = 4.0 / 3.0 * pi * r * r * r;
    double errors[3];
    const int across[3] = {8, 16, 32};
    for (int i = 0; i < 3; ++i) {
        icTetMesh sphere;
        IC_REQUIRE(icGenerateSphere(&sphere, r, across[i], i == 1 ? 5 : 6) == IC_OK);
        errors[i] = carvedError(&sphere, exact);
        if (i == 1) {
            // tetCell refers to the full grid: cells of edge 2r/16 from -r.
            IC_CHECK(sphere.cellCounts[0] == 16 && sphere.cellCounts[1] == 16 &&
                     sphere.cellCounts[2] == 16);
            // Most boundary vertices sit exactly on the sphere (47 % here; the rest moved part way
            // where a full move would crush a tet); none strays further than a cell.
            int *triangles = NULL, triangleCount = 0;
            IC_REQUIRE(icTetMesh_ExtractSurface(&sphere, &triangles, &triangleCount, NULL) == IC_OK);
            int on = 0, far = 0;
            for (int k = 0; k < 3 * triangleCount; ++k) {
                double d = fabs(icVec3_Length(icVec3_Load(sphere.positions, triangles[k])) - r);
                on += d < 1e-12;
                far += d > 2 * r / 16;
            }
            icFree(triangles);
            IC_CHECK_MSG(on > 0.4 * 3 * triangleCount, "%d of %d corners on the sphere", on,
                         3 * triangleCount);
            IC_CHECK_INT(far, 0);
        }
        icTetMesh_Destroy(&sphere);
    }
    printf("  sphere volume error at 8/16/32 cells: %.2e %.2e %.2e\n", errors[0], errors[1], errors[2]);
    IC_CHECK_MSG(errors[1] < 0.1, "sphere error at 16 cells %.3g", errors[1]);
    IC_CHECK_MSG(errors[2] < errors[0] && errors[2] < 0.05, "errors %.3g %.3g %.3g", errors[0],
                 errors[1], errors[2]);
}

IC_TEST(mesh, torus_volume_converges) {
    const double R = 1.0, r = 0.35, pi = 3.14159265358979323846, exact = 2 * pi * pi * R * r * r;
    double errors[3];
    const int across[3] = {12, 24, 48};
    for (int i = 0; i < 3; ++i) {
        icTetMesh torus;
        IC_REQUIRE(icGenerateTorus(&torus, R, r, across[i], 6) == IC_OK);
        errors[i] = carvedError(&torus, exact);
        // In the xz-plane around y: |y| <= r and R - r <= sqrt(x^2 + z^2) <= R + r, up to a cell.
        double h = 2 * (R + r) / across[i], worst = 0;
        for (int v = 0; v < torus.vertexCount; ++v) {
            const double *p = torus.positions + 3 * v;
            double q = sqrt(p[0] * p[0] + p[2] * p[2]) - R;
            double d = sqrt(q * q + p[1] * p[1]) - r;
            if (d > worst) worst = d;
        }
        IC_CHECK_MSG(worst <= sqrt(3.0) * h, "vertex %.3g outside the tube", worst);
        icTetMesh_Destroy(&torus);
    }
    IC_CHECK_MSG(errors[1] < 0.1, "torus error at 24 cells %.3g", errors[1]);
    IC_CHECK_MSG(errors[2] < errors[0] && errors[2] < 0.05, "errors %.3g %.3g %.3g", errors[0],
                 errors[1], errors[2]);
}

// The mapped sphere: the whole grid, conforming (a closed surface of 12 n^2 triangles), every
// boundary vertex on the sphere, no tet with all four corners on it, no sliver, and a volume
// that converges to 4/3 pi R^3 at second order (halving the cells takes 0.31, 0.26, 0.25 of it).
IC_TEST(mesh, mapped_sphere_is_round_conforming_and_well_shaped) {
    const double radius = 0.3,
                 exact = 4.0 / 3.0 * 3.14159265358979323846 * radius * radius * radius;
    double lastError = INFINITY;
    for (int n = 2; n <= 16; n *= 2) {
        icTetMesh ball;
        IC_REQUIRE(icGenerateSphereMapped(&ball, radius, n) == IC_OK);
        IC_CHECK_INT(ball.tetCount, 6 * n * n * n);
        IC_CHECK_INT(ball.vertexCount, (n + 1) * (n + 1) * (n + 1));
        icOrientReport report;
        IC_CHECK_RESULT(icTetMesh_Check(&ball, true, &report, NULL), IC_OK);
        IC_CHECK(!report.flippedAll && report.invertedCount == 0);
        icMeshQuality q;
        icTetMesh_Quality(&ball, &q);
        // Worst angles measured: 32.7 and 116.1 deg at 16 cells (the carved sphere: 18, 139).
        if (n >= 4)
            IC_CHECK_MSG(q.minDihedralDeg > 30 && q.maxDihedralDeg < 120, "n %d: dihedral %g .. %g",
                         n, q.minDihedralDeg, q.maxDihedralDeg);
        int *tri = NULL, triCount = 0;
        IC_REQUIRE(icTetMesh_ExtractSurface(&ball, &tri, &triCount, NULL) == IC_OK);
        IC_CHECK_INT(triCount, 12 * n * n); // the six faces of the grid, two triangles a square
        unsigned char *onSurface = calloc((size_t)ball.vertexCount, 1);
        IC_REQUIRE(onSurface != NULL);
        for (int i = 0; i < 3 * triCount; ++i) onSurface[tri[i]] = 1;
        double worstRadius = 0;
        for (int v = 0; v < ball.vertexCount; ++v)
            if (onSurface[v])
                worstRadius =
                    fmax(worstRadius, fabs(icVec3_Length(icVec3_Load(ball.positions, v)) - radius));
        IC_CHECK_MSG(worstRadius < 1e-14, "n %d: a boundary vertex %g m off the sphere", n,
                     worstRadius);
        int allOnSurface = 0;
        for (int t = 0; t < ball.tetCount; ++t) {
            int k = 0;
            for (int a = 0; a < 4; ++a) k += onSurface[ball.tets[4 * t + a]];
            allOnSurface += k == 4;
        }
        IC_CHECK_INT(allOnSurface, 0);
        double error = fabs(icTetMesh_Volume(&ball, NULL) - exact) / exact;
        printf(
            "  mapped sphere %2d cells: %6d tets, dihedral %.1f .. %.1f deg, volume error %.2e\n",
            n, ball.tetCount, q.minDihedralDeg, q.maxDihedralDeg, error);
        if (n >= 4)
            IC_CHECK_MSG(error < 0.35 * lastError, "n %d: volume error %g after %g", n, error,
                         lastError);
        lastError = error;
        free(onSurface);
        icFree(tri);
        icTetMesh_Destroy(&ball);
    }
    icTetMesh ball;
    IC_CHECK_RESULT(icGenerateSphereMapped(&ball, 0.3, 1), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateSphereMapped(&ball, 0, 8), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateSphereMapped(&ball, NAN, 8), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateSphereMapped(&ball, 0.3, 1000), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_RESULT(icGenerateSphereMapped(NULL, 0.3, 8), IC_ERR_INVALID_ARGUMENT);
}
