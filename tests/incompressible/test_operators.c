// SPDX-License-Identifier: MIT
// Tests of the one-ring operators (Irving et al. 2007, sec. 3): gradients, J as the exact
// Jacobian of the ring volumes, adjointness, momentum, the pressure matrix and the locking
// count.
#include "incomp_testing.h"

IC_TEST(incomp, unit_tet_gradients) {
    icVec3 g[4];
    icReal V = icTet_VolumeGradients(icVec3_Make(0, 0, 0), icVec3_Make(1, 0, 0),
                                     icVec3_Make(0, 1, 0), icVec3_Make(0, 0, 1), g);
    IC_CHECK_NEAR(V, 1.0 / 6, 1e-15);
    IC_CHECK_NEAR(g[1].x, 1.0 / 6, 1e-15);
    IC_CHECK_NEAR(g[2].y, 1.0 / 6, 1e-15);
    IC_CHECK_NEAR(g[3].z, 1.0 / 6, 1e-15);
    IC_CHECK_NEAR(g[0].x, -1.0 / 6, 1e-15);
    IC_CHECK_NEAR(g[0].y, -1.0 / 6, 1e-15);
    // Area-weighted outward normal of the face opposite vertex 0 is -3 g_0 = (1,1,1)/2.
    IC_CHECK_NEAR(-3 * g[0].z, 0.5, 1e-15);
    // Finite differences of the volume of a random tet.
    icVec3 x[4];
    for (int a = 0; a < 4; ++a)
        x[a] = icVec3_Make(icTest_Uniform(-1, 1), icTest_Uniform(-1, 1), icTest_Uniform(-1, 1));
    icTet_VolumeGradients(x[0], x[1], x[2], x[3], g);
    const icReal h = 1e-6;
    for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) {
            icVec3 xp[4], xm[4], gg[4];
            memcpy(xp, x, sizeof x);
            memcpy(xm, x, sizeof x);
            icReal *pp = i == 0 ? &xp[a].x : (i == 1 ? &xp[a].y : &xp[a].z);
            icReal *pm = i == 0 ? &xm[a].x : (i == 1 ? &xm[a].y : &xm[a].z);
            *pp += h;
            *pm -= h;
            icReal fd = (icTet_VolumeGradients(xp[0], xp[1], xp[2], xp[3], gg) -
                         icTet_VolumeGradients(xm[0], xm[1], xm[2], xm[3], gg)) / (2 * h);
            IC_CHECK_NEAR(fd, icVec3_Get(g[a], i), 1e-9);
        }
}

IC_TEST(incomp, divergence_is_exact_jacobian) {
    icTetMesh mesh = {0};
    incompBox(&mesh, 2, 6);
    int n = mesh.vertexCount, T = mesh.tetCount;
    icReal *x = mesh.positions;
    incompPerturb(x, 3 * n, 0.1);
    icReal *g = malloc(sizeof(icReal) * 12 * (size_t)T);
    icReal *v = malloc(sizeof(icReal) * 3 * (size_t)n), *Jv = malloc(sizeof(icReal) * (size_t)n);
    icReal *Vp = malloc(sizeof(icReal) * (size_t)n), *Vm = malloc(sizeof(icReal) * (size_t)n);
    icReal *xp = malloc(sizeof(icReal) * 3 * (size_t)n), *p = malloc(sizeof(icReal) * (size_t)n);
    icReal *JTp = malloc(sizeof(icReal) * 3 * (size_t)n);
    for (int i = 0; i < 3 * n; ++i) v[i] = icTest_Uniform(-1, 1);
    for (int k = 0; k < n; ++k) p[k] = icTest_Uniform(-1, 1);
    icOneRing_Gradients(x, mesh.tets, T, g);
    icOneRing_Divergence(g, mesh.tets, T, n, v, Jv);
    const icReal h = 1e-6;
    for (int i = 0; i < 3 * n; ++i) xp[i] = x[i] + h * v[i];
    icOneRing_Volumes(xp, n, mesh.tets, T, Vp);
    for (int i = 0; i < 3 * n; ++i) xp[i] = x[i] - h * v[i];
    icOneRing_Volumes(xp, n, mesh.tets, T, Vm);
    icReal worst = 0;
    for (int k = 0; k < n; ++k) worst = fmax(worst, fabs((Vp[k] - Vm[k]) / (2 * h) - Jv[k]));
    IC_CHECK_MSG(worst < 1e-8, "J v vs finite differences: %g", worst);
    // Sum of ring volumes is the total volume.
    icReal total = icOneRing_Volumes(x, n, mesh.tets, T, Vp), sum = 0;
    for (int k = 0; k < n; ++k) sum += Vp[k];
    IC_CHECK_NEAR(sum, total, 1e-13 * fabs(total));
    // Adjointness <J v, p> = <v, J^T p>.
    icOneRing_DivergenceTranspose(g, mesh.tets, T, n, p, JTp);
    icReal a = 0, b = 0;
    for (int k = 0; k < n; ++k) a += Jv[k] * p[k];
    for (int i = 0; i < 3 * n; ++i) b += v[i] * JTp[i];
    IC_CHECK_NEAR(a, b, 1e-13 * fmax(1, fabs(a)));
    // Momentum: zero net force and torque of J^T p (Irving et al. 2007, sec. 3).
    icVec3 force = {0, 0, 0}, torque = {0, 0, 0};
    for (int j = 0; j < n; ++j) {
        icVec3 fj = icVec3_Load(JTp, j);
        force = icVec3_Add(force, fj);
        torque = icVec3_Add(torque, icVec3_Cross(icVec3_Load(x, j), fj));
    }
    IC_CHECK(icVec3_Length(force) < 1e-13);
    IC_CHECK(icVec3_Length(torque) < 1e-13);
    // Rigid velocities are divergence free (U4).
    icVec3 lin = {0.3, -0.2, 0.5}, ang = {0.7, 0.1, -0.4};
    for (int j = 0; j < n; ++j)
        icVec3_Store(v, j, icVec3_Add(lin, icVec3_Cross(ang, icVec3_Load(x, j))));
    icOneRing_Divergence(g, mesh.tets, T, n, v, Jv);
    worst = 0;
    for (int k = 0; k < n; ++k) worst = fmax(worst, fabs(Jv[k]));
    IC_CHECK_MSG(worst < 1e-14, "rigid divergence %g", worst);
    free(g);
    free(v);
    free(Jv);
    free(Vp);
    free(Vm);
    free(xp);
    free(p);
    free(JTp);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(incomp, pressure_matrix_unit_tet_and_assembly) {
    int tets[4] = {0, 1, 2, 3};
    icReal x[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    icReal g[12], invMass[12];
    for (int i = 0; i < 12; ++i) invMass[i] = 1;
    icOneRing_Gradients(x, tets, 1, g);
    icCsr J, A;
    IC_REQUIRE(icOneRing_AssembleDivergence(g, tets, 1, 4, &J) == IC_OK);
    IC_REQUIRE(icOneRing_AssemblePressure(&J, invMass, &A) == IC_OK);
    IC_CHECK_INT(A.nonzeroCount, 16);
    for (int k = 0; k < 16; ++k) IC_CHECK_NEAR(A.values[k], 1.0 / 96, 1e-15);
    // Matrix-free products agree with the assembled matrix.
    icPressureSystem *s = icCreatePressureSystem(4, tets, 1, invMass);
    IC_REQUIRE(s);
    icPressureSystem_Setup(s, x);
    icReal p[4] = {1, -2, 0.5, 3}, y[4], dv[12], u[12];
    icCsr_Multiply(&A, p, y);
    icPressureSystem_Correction(s, NULL, 1, p, dv);
    icOneRing_DivergenceTranspose(g, tets, 1, 4, p, u);
    for (int i = 0; i < 12; ++i) IC_CHECK_NEAR(dv[i], u[i], 1e-15);
    icReal Jdv[4];
    icOneRing_Divergence(g, tets, 1, 4, dv, Jdv);
    for (int k = 0; k < 4; ++k) IC_CHECK_NEAR(Jdv[k], y[k], 1e-15);
    // Uniform expansion: J v = 1/8 per node; projection leaves J v = 0.
    icReal v[12];
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 3; ++i) v[3 * j + i] = x[3 * j + i] - 0.25;
    icOneRing_Divergence(g, tets, 1, 4, v, Jdv);
    IC_CHECK_NEAR(Jdv[0], 0.125, 1e-15);
    icPressureDef def = icDefaultPressureDef();
    def.tolerance = 1e-12;
    icReal ph[4];
    icPressureSystem_ProjectVelocity(s, NULL, &def, v, ph, false, NULL);
    IC_CHECK_NEAR(ph[0] + ph[1] + ph[2] + ph[3], -12, 1e-9);
    icOneRing_Divergence(g, tets, 1, 4, v, Jdv);
    for (int k = 0; k < 4; ++k) IC_CHECK_NEAR(Jdv[k], 0, 1e-12);
    icDestroyPressureSystem(s);
    icCsr_Destroy(&J);
    icCsr_Destroy(&A);
}

// U6: Kuhn 2x2x2 cube: rank A = n - 3 (the four-colour modes), symmetric.
IC_TEST(incomp, pressure_matrix_singular_modes) {
    icTetMesh mesh = {0};
    incompBox(&mesh, 2, 6);
    int n = mesh.vertexCount, T = mesh.tetCount;
    IC_CHECK_INT(n, 27);
    IC_CHECK_INT(T, 48);
    icReal *g = malloc(sizeof(icReal) * 12 * (size_t)T), *invMass = malloc(sizeof(icReal) * 3 * (size_t)n);
    incompInvMass(&mesh, mesh.positions, invMass);
    icOneRing_Gradients(mesh.positions, mesh.tets, T, g);
    icCsr J, A;
    IC_REQUIRE(icOneRing_AssembleDivergence(g, mesh.tets, T, n, &J) == IC_OK);
    IC_REQUIRE(icOneRing_AssemblePressure(&J, invMass, &A) == IC_OK);
    icReal *dense = calloc((size_t)n * n, sizeof(icReal));
    for (int r = 0; r < n; ++r)
        for (int k = A.rowStart[r]; k < A.rowStart[r + 1]; ++k) dense[r * n + A.col[k]] = A.values[k];
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < r; ++c) IC_CHECK_NEAR(dense[r * n + c], dense[c * n + r], 1e-15);
    IC_CHECK_INT(incompRank(dense, n, n, 1e-10), n - 3);
    free(dense);
    free(g);
    free(invMass);
    icCsr_Destroy(&J);
    icCsr_Destroy(&A);
    icTetMesh_Destroy(&mesh);
}

// U12: per-tet constraints lock a perturbed 4x4x4 Kuhn cube, one-ring ones do not.
IC_TEST(incomp, locking_count) {
    icTetMesh mesh = {0};
    incompBox(&mesh, 4, 6);
    int n = mesh.vertexCount, T = mesh.tetCount;
    IC_CHECK_INT(n, 125);
    IC_CHECK_INT(T, 384);
    incompPerturb(mesh.positions, 3 * n, 0.05);
    icReal *g = malloc(sizeof(icReal) * 12 * (size_t)T);
    icOneRing_Gradients(mesh.positions, mesh.tets, T, g);
    icReal *perTet = calloc((size_t)T * 3 * n, sizeof(icReal));
    for (int t = 0; t < T; ++t)
        for (int a = 0; a < 4; ++a)
            for (int i = 0; i < 3; ++i) perTet[(size_t)t * 3 * n + 3 * mesh.tets[4 * t + a] + i] += g[12 * t + 3 * a + i];
    int tetRank = incompRank(perTet, T, 3 * n, 1e-8);
    icCsr J;
    IC_REQUIRE(icOneRing_AssembleDivergence(g, mesh.tets, T, n, &J) == IC_OK);
    icReal *ring = calloc((size_t)n * 3 * n, sizeof(icReal));
    for (int r = 0; r < n; ++r)
        for (int k = J.rowStart[r]; k < J.rowStart[r + 1]; ++k) ring[(size_t)r * 3 * n + J.col[k]] = J.values[k];
    int ringRank = incompRank(ring, n, 3 * n, 1e-8);
    printf("  perturbed 4x4x4 Kuhn cube: per-tet rank %d, one-ring rank %d (%d free modes)\n",
           tetRank, ringRank, 3 * n - ringRank);
    IC_CHECK_INT(tetRank, 352);   // 375 - 352 = 23 admissible modes (6 rigid)
    IC_CHECK_INT(ringRank, 122);  // 253 admissible modes
    free(perTet);
    free(ring);
    free(g);
    icCsr_Destroy(&J);
    icTetMesh_Destroy(&mesh);
}
