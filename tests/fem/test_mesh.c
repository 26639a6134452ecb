// SPDX-License-Identifier: MIT
// Mesh-level FEM tests: model building, assembly vs matrix-free products, patch test,
// rigid rotation.
#include "fem/fem_test.h"

typedef struct {
    int vertexCount, tetCount;
    icReal *positions;
    int *tets;
} icTestGrid;

static icTestGrid makeGrid(int nx, int ny, int nz, double h, double jitter) {
    icTestGrid g = {0};
    int n[3] = {nx, ny, nz};
    if (!icTest_GridMesh(n, h, jitter, &g.vertexCount, &g.positions, &g.tetCount, &g.tets))
        icTest_Fail(__FILE__, __LINE__, "out of memory");
    return g;
}

static void freeGrid(icTestGrid *g) {
    free(g->positions);
    free(g->tets);
}

IC_TEST(fem, model_from_grid) {
    int64_t bytes = icGetByteCount();
    icTestGrid g = makeGrid(3, 2, 2, 0.5, 0.2);
    icMaterial m = icTest_Material(IC_MATERIAL_MM);
    m.density = 800;
    icFemModel model;
    icDiagnostic diag;
    IC_REQUIRE(icFemModel_Create(&model, g.vertexCount, g.positions, g.tetCount, g.tets, 1, &m,
                                 NULL, &diag) == IC_OK);
    double volume = 0, mass = 0;
    int swapped = 0;
    for (int t = 0; t < model.tetCount; ++t) {
        IC_CHECK(model.rest[t].W > 0);
        volume += model.rest[t].W;
        swapped += memcmp(model.tets + 4 * t, g.tets + 4 * t, sizeof(int) * 4) != 0;
    }
    for (int v = 0; v < model.vertexCount; ++v) mass += model.mass[v];
    IC_CHECK_NEAR(volume, 1.5 * 1.0 * 1.0, 1e-12);
    IC_CHECK_NEAR(mass, 800 * 1.5, 1e-9);
    IC_CHECK(swapped > 0 && swapped < model.tetCount); // Kuhn tets come in both orientations
    icFemModel_Destroy(&model);
    freeGrid(&g);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(fem, model_rejects_bad_input) {
    icReal x[5 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 5, 5};
    int tet[4] = {0, 1, 2, 3};
    icMaterial m = icTest_Material(IC_MATERIAL_SNH);
    icFemModel model;
    icDiagnostic diag;
    IC_CHECK_RESULT(icFemModel_Create(&model, 4, x, 1, tet, 1, &m, NULL, &diag), IC_OK);
    icFemModel_Destroy(&model);
    // vertex 4 has no tet (zero mass)
    IC_CHECK_RESULT(icFemModel_Create(&model, 5, x, 1, tet, 1, &m, NULL, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK(strstr(diag.message, "vertex 4") != NULL);
    int rep[4] = {0, 1, 1, 3}, out[4] = {0, 1, 2, 9};
    IC_CHECK_RESULT(icFemModel_Create(&model, 4, x, 1, rep, 1, &m, NULL, &diag), IC_ERR_REPEATED_INDEX);
    IC_CHECK_RESULT(icFemModel_Create(&model, 4, x, 1, out, 1, &m, NULL, &diag),
                    IC_ERR_INDEX_OUT_OF_RANGE);
    icReal flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    IC_CHECK_RESULT(icFemModel_Create(&model, 4, flat, 1, tet, 1, &m, NULL, &diag),
                    IC_ERR_DEGENERATE_ELEMENT);
    IC_CHECK(strstr(diag.message, "tet 0") != NULL);
    IC_CHECK_INT(diag.element, 0);
    icMaterial bad = m;
    bad.mu = -1;
    IC_CHECK_RESULT(icFemModel_Create(&model, 4, x, 1, tet, 1, &bad, NULL, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK_RESULT(icFemModel_Create(&model, 0, x, 0, tet, 1, &m, NULL, &diag), IC_ERR_EMPTY);
    int which = 3;
    IC_CHECK_RESULT(icFemModel_Create(&model, 4, x, 1, tet, 1, &m, &which, &diag),
                    IC_ERR_INDEX_OUT_OF_RANGE);
}

static void perturbed(const icTestGrid *g, double amount, icReal *x) {
    for (int i = 0; i < 3 * g->vertexCount; ++i) x[i] = g->positions[i] + amount * icTest_Normal();
}

// Assembled K equals the matrix-free product, its diagonal blocks the matrix-free diagonal,
// and (for exact Hessians) the central differences of the total forces.
IC_TEST(fem, assembled_matches_matrix_free) {
    int64_t bytes = icGetByteCount();
    icTestGrid g = makeGrid(2, 2, 2, 0.5, 0.15);
    int n = 3 * g.vertexCount;
    icReal *x = malloc(sizeof(icReal) * n), *w = malloc(sizeof(icReal) * n),
           *kw = malloc(sizeof(icReal) * n), *aw = malloc(sizeof(icReal) * n),
           *f = calloc((size_t)n, sizeof(icReal)), *f2 = calloc((size_t)n, sizeof(icReal)),
           *dense = malloc(sizeof(icReal) * n * n), *diag = malloc(sizeof(icReal) * 9 * g.vertexCount);
    static const icMaterialModel models[4] = {IC_MATERIAL_MM, IC_MATERIAL_COROTATED,
                                              IC_MATERIAL_STVK, IC_MATERIAL_SNH2018};
    for (int mi = 0; mi < 4; ++mi) {
        icMaterial m = icTest_Material(models[mi]);
        icFemModel model;
        IC_REQUIRE(icFemModel_Create(&model, g.vertexCount, g.positions, g.tetCount, g.tets, 1, &m,
                                     NULL, NULL) == IC_OK);
        icFemPattern pattern;
        IC_REQUIRE(icFemPattern_Create(&pattern, &model) == IC_OK);
        icReal *hess = malloc(sizeof(icReal) * 81 * model.tetCount);
        perturbed(&g, 0.05, x);
        for (int pass = 0; pass < 2; ++pass) {
            bool project = pass == 1;
            memset(f, 0, sizeof(icReal) * n);
            memset(f2, 0, sizeof(icReal) * n);
            double e = icFem_EvaluateAssemble(&model, x, project, f, 1.0, 0.0, &pattern, hess);
            IC_CHECK_NEAR(e, icFem_Energy(&model, x), 1e-13 * fmax(1, fabs(e)));
            icFem_AddForces(&model, x, f2);
            IC_CHECK(icTest_MaxAbsDiff(f, f2, n) <= 1e-14 * fmax(1, icTest_MaxAbs(f, n)));
            icBsr3_ToDense(&pattern.matrix, dense);
            double scale = icTest_MaxAbs(dense, n * n);
            for (int rep = 0; rep < 3; ++rep) {
                for (int i = 0; i < n; ++i) w[i] = icTest_Normal();
                icFem_StiffnessProduct(&model, hess, w, kw);
                icBsr3_Multiply(&pattern.matrix, w, aw);
                IC_CHECK(icTest_MaxAbsDiff(kw, aw, n) <= 1e-12 * scale * 10);
            }
            double asym = 0;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) asym = fmax(asym, fabs(dense[i + n * j] - dense[j + n * i]));
            IC_CHECK(asym <= 1e-12 * scale);
            icFem_StiffnessDiagonal(&model, hess, diag);
            for (int v = 0; v < g.vertexCount; ++v)
                IC_CHECK(icTest_MaxAbsDiff(diag + 9 * v, pattern.matrix.values + 9 * pattern.matrix.diag[v], 9) <=
                         1e-13 * scale);
            if (!project) {
                // K = -df/dx (a few columns)
                for (int c = 0; c < n; c += 7) {
                    const double h = 1e-6;
                    icReal xc = x[c];
                    memset(f, 0, sizeof(icReal) * n);
                    memset(f2, 0, sizeof(icReal) * n);
                    x[c] = xc + h;
                    icFem_AddForces(&model, x, f);
                    x[c] = xc - h;
                    icFem_AddForces(&model, x, f2);
                    x[c] = xc;
                    double worst = 0;
                    for (int r = 0; r < n; ++r)
                        worst = fmax(worst, fabs(-(f[r] - f2[r]) / (2 * h) - dense[r + n * c]));
                    IC_CHECK_MSG(worst <= 1e-6 * fmax(1, scale), "%s column %d: %.3g",
                                 icMaterialModel_Name(m.model), c, worst);
                }
            }
        }
        // Mass term: A = 2 K + 3 M on the diagonal blocks.
        icFem_Assemble(&model, hess, 2.0, 3.0, &pattern);
        icFem_StiffnessDiagonal(&model, hess, diag);
        for (int v = 0; v < g.vertexCount; ++v) {
            const icReal *blk = pattern.matrix.values + 9 * pattern.matrix.diag[v];
            IC_CHECK_NEAR(blk[4], 2 * diag[9 * v + 4] + 3 * model.mass[v], 1e-10);
        }
        free(hess);
        icFemPattern_Destroy(&pattern);
        icFemModel_Destroy(&model);
    }
    free(x), free(w), free(kw), free(aw), free(f), free(f2), free(dense), free(diag);
    freeGrid(&g);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

typedef struct {
    int v[3];
    int tet, opposite;
} icTestFace;

static int compareFace(const void *a, const void *b) {
    const icTestFace *x = a, *y = b;
    for (int i = 0; i < 3; ++i)
        if (x->v[i] != y->v[i]) return x->v[i] - y->v[i];
    return 0;
}

// Patch test: x = A X + b gives zero force on interior nodes, and on boundary nodes
// f_a = -P(A) sum_{boundary faces f at a} (Area_f / 3) N_f.
static void patchTest(const icTestGrid *g, icMaterialModel modelKind) {
    icMaterial m = icTest_Material(modelKind);
    icFemModel model;
    IC_REQUIRE(icFemModel_Create(&model, g->vertexCount, g->positions, g->tetCount, g->tets, 1, &m,
                                 NULL, NULL) == IC_OK);
    int n = 3 * g->vertexCount;
    icReal *x = malloc(sizeof(icReal) * n), *f = calloc((size_t)n, sizeof(icReal)),
           *expect = calloc((size_t)n, sizeof(icReal));
    icMat3 A;
    do A = icTest_RandomF();
    while (icMat3_Det(A) < 0.3);
    icVec3 b = icVec3_Make(0.3, -2, 1);
    for (int v = 0; v < g->vertexCount; ++v)
        icVec3_Store(x, v, icVec3_Add(icMat3_MulVec(A, icVec3_Load(g->positions, v)), b));
    icFem_AddForces(&model, x, f);
    // Boundary faces: those that occur once among all tet faces.
    icTestFace *faces = malloc(sizeof(icTestFace) * 4 * g->tetCount);
    for (int t = 0; t < g->tetCount; ++t)
        for (int k = 0; k < 4; ++k) {
            icTestFace *fc = &faces[4 * t + k];
            int c = 0;
            for (int a = 0; a < 4; ++a)
                if (a != k) fc->v[c++] = g->tets[4 * t + a];
            for (int i = 0; i < 3; ++i)
                for (int j = i + 1; j < 3; ++j)
                    if (fc->v[j] < fc->v[i]) {
                        int s = fc->v[i];
                        fc->v[i] = fc->v[j];
                        fc->v[j] = s;
                    }
            fc->tet = t;
            fc->opposite = g->tets[4 * t + k];
        }
    qsort(faces, 4 * (size_t)g->tetCount, sizeof(icTestFace), compareFace);
    bool *boundary = calloc((size_t)g->vertexCount, sizeof(bool));
    icMat3 P = icMaterial_Stress(&m, A);
    for (int i = 0; i < 4 * g->tetCount;) {
        int j = i + 1;
        while (j < 4 * g->tetCount && compareFace(&faces[i], &faces[j]) == 0) ++j;
        if (j == i + 1) {
            icVec3 p0 = icVec3_Load(g->positions, faces[i].v[0]), p1 = icVec3_Load(g->positions, faces[i].v[1]),
                   p2 = icVec3_Load(g->positions, faces[i].v[2]), po = icVec3_Load(g->positions, faces[i].opposite);
            icVec3 an = icVec3_Scale(0.5, icVec3_Cross(icVec3_Sub(p1, p0), icVec3_Sub(p2, p0)));
            if (icVec3_Dot(an, icVec3_Sub(p0, po)) < 0) an = icVec3_Neg(an); // outward
            icVec3 fa = icVec3_Scale(-1.0 / 3.0, icMat3_MulVec(P, an));
            for (int k = 0; k < 3; ++k) {
                int v = faces[i].v[k];
                boundary[v] = true;
                icVec3_Store(expect, v, icVec3_Add(icVec3_Load(expect, v), fa));
            }
        }
        i = j;
    }
    double scale = icTest_MaxAbs(f, n), interior = 0, bnd = 0;
    int interiorCount = 0;
    for (int v = 0; v < g->vertexCount; ++v) {
        double d = icVec3_Distance(icVec3_Load(f, v), icVec3_Load(expect, v));
        if (boundary[v])
            bnd = fmax(bnd, d);
        else
            interior = fmax(interior, d), ++interiorCount;
    }
    IC_CHECK(interiorCount > 0 && scale > 1e-3);
    IC_CHECK_MSG(interior <= 1e-13 * scale, "%s: interior force %.3g (scale %.3g)",
                 icMaterialModel_Name(modelKind), interior, scale);
    IC_CHECK_MSG(bnd <= 1e-13 * scale, "%s: boundary force off by %.3g",
                 icMaterialModel_Name(modelKind), bnd);
    free(x), free(f), free(expect), free(faces), free(boundary);
    icFemModel_Destroy(&model);
}

IC_TEST(fem, patch_test_affine_forces) {
    icTestGrid g = makeGrid(3, 3, 3, 1.0 / 3, 0.1);
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) patchTest(&g, (icMaterialModel)mi);
    freeGrid(&g);
    icTestGrid h = makeGrid(4, 2, 3, 0.3, 0.12);
    patchTest(&h, IC_MATERIAL_MM);
    patchTest(&h, IC_MATERIAL_COROTATED);
    freeGrid(&h);
}

// The same on the library's box generator (5- and 6-tet splits), interior vertices jittered.
IC_TEST(fem, patch_test_generated_box) {
    for (int split = 5; split <= 6; ++split) {
        icTetMesh mesh;
        int cells[3] = {3, 3, 2};
        IC_REQUIRE(icGenerateBox(&mesh, icVec3_Make(1.5, 1, 0.8), cells, split) == IC_OK);
        icTestGrid g = {mesh.vertexCount, mesh.tetCount, malloc(sizeof(icReal) * 3 * mesh.vertexCount),
                        malloc(sizeof(int) * 4 * mesh.tetCount)};
        memcpy(g.tets, mesh.tets, sizeof(int) * 4 * mesh.tetCount);
        for (int v = 0; v < mesh.vertexCount; ++v) {
            icVec3 p = icVec3_Load(mesh.positions, v);
            bool interior = fabs(p.x) < 0.74 && fabs(p.y) < 0.49 && fabs(p.z) < 0.39;
            double j = interior ? 0.04 : 0;
            icVec3_Store(g.positions, v, icVec3_Add(p, icVec3_Make(icTest_Uniform(-j, j), icTest_Uniform(-j, j),
                                                                   icTest_Uniform(-j, j))));
        }
        patchTest(&g, IC_MATERIAL_MM);
        patchTest(&g, IC_MATERIAL_SNH2018);
        patchTest(&g, IC_MATERIAL_STVK);
        freeGrid(&g);
        icTetMesh_Destroy(&mesh);
    }
}

// A rigidly rotated mesh has zero nodal forces; linear elasticity does not.
IC_TEST(fem, rigid_rotation_has_no_forces) {
    icTestGrid g = makeGrid(2, 2, 2, 0.5, 0.2);
    int n = 3 * g.vertexCount;
    icReal *x = malloc(sizeof(icReal) * n), *f = malloc(sizeof(icReal) * n);
    icMat3 q = icTest_RandomRotation();
    for (int v = 0; v < g.vertexCount; ++v)
        icVec3_Store(x, v, icVec3_Add(icMat3_MulVec(q, icVec3_Load(g.positions, v)), icVec3_Make(1, 2, 3)));
    for (int mi = 0; mi < IC_TEST_MODEL_COUNT; ++mi) {
        icMaterial m = icTest_Material((icMaterialModel)mi);
        icFemModel model;
        IC_REQUIRE(icFemModel_Create(&model, g.vertexCount, g.positions, g.tetCount, g.tets, 1, &m,
                                     NULL, NULL) == IC_OK);
        memset(f, 0, sizeof(icReal) * n);
        icFem_AddForces(&model, x, f);
        if (m.model == IC_MATERIAL_LINEAR)
            IC_CHECK(icTest_MaxAbs(f, n) > 1e-3);
        else
            IC_CHECK_MSG(icTest_MaxAbs(f, n) <= 1e-13, "%s: force %.3g under rotation",
                         icMaterialModel_Name(m.model), icTest_MaxAbs(f, n));
        icFemModel_Destroy(&model);
    }
    free(x), free(f);
    freeGrid(&g);
}
