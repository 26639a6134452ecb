// SPDX-License-Identifier: MIT
// Threaded kernels of the incompressible solver: agreement with the serial ones, same bits.
//
// The assembled tangent agrees with the per-tet Hessian kernels, the threaded M^-1 J^T is the
// serial scatter bit for bit (AVX2 and portable kernels), and a whole step gives the same bits
// for 1, 2 and 3 workers.
#include "core/pool.h"
#include "fem/fem_internal.h"
#include "incomp_testing.h"
#include "incompressible/pressure_internal.h"

static icReal maxAbs(const icReal *a, int count) {
    icReal m = 0;
    for (int i = 0; i < count; ++i) m = fmax(m, fabs(a[i]));
    return m;
}

static icReal maxDiff(const icReal *a, const icReal *b, int count) {
    icReal m = 0;
    for (int i = 0; i < count; ++i) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

// Forces, K w, (sK K + sM M) w and diag(K) of the threaded pass against icFem_AddForces and
// the per-tet projected Hessians (icFem_ComputeHessians / StiffnessProduct / Diagonal), and
// the threaded results with 2 workers against 1 worker bit for bit. 16^3 cells: enough
// vertices for the products to split too; tets on the range boundary are evaluated twice.
// The threaded K is stored in float, each addition rounded: K w, the operator and the diagonal
// within 1e-6 of their scale (measured 1.4e-7 to 1.6e-7; a block added twice or left out is
// off by O(1)); forces stay double.
IC_TEST(incomp, tangent_matches_element_kernels) {
    int64_t bytes = icGetByteCount();
    icTetMesh mesh = {0};
    incompBox(&mesh, 16, 6);
    int n = mesh.vertexCount, T = mesh.tetCount;
    IC_REQUIRE(n > 2 * 2048);
    icReal *x = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *w = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *fRef = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *f1 = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *f2 = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *yRef = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *y1 = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *y2 = malloc(sizeof(icReal) * 3 * (size_t)n);
    icReal *dRef = malloc(sizeof(icReal) * 9 * (size_t)n);
    icReal *d1 = malloc(sizeof(icReal) * 9 * (size_t)n);
    icReal *d2 = malloc(sizeof(icReal) * 9 * (size_t)n);
    icReal *hessians = malloc(sizeof(icReal) * 81 * (size_t)T);
    IC_REQUIRE(x && w && fRef && f1 && f2 && yRef && y1 && y2 && dRef && d1 && d2 && hessians);
    // Up to 30 % of an edge: compressed tets clamp twists, stretched ones do not.
    memcpy(x, mesh.positions, sizeof(icReal) * 3 * (size_t)n);
    incompPerturb(x, 3 * n, 0.3);
    for (int i = 0; i < 3 * n; ++i) w[i] = icTest_Uniform(-1, 1);
    icPool *one = icCreatePool(1, NULL, NULL, NULL), *two = icCreatePool(2, NULL, NULL, NULL);
    IC_REQUIRE(one && two);
    const icReal mu = 2e4;
    icMaterial materials[] = {
        icMaterial_FromLame(IC_MATERIAL_COROTATED, mu, 0),        // the solver's deviatoric
        icMaterial_FromLame(IC_MATERIAL_COROTATED, mu, 5 * mu),   // volume term
        icMaterial_FromLame(IC_MATERIAL_COROTATED, mu, -mu),      // projected volume value
        icMaterial_FromLame(IC_MATERIAL_STVK, mu, mu),            // generic path
        icMaterial_FromLame(IC_MATERIAL_NEOHOOKEAN, mu, 2 * mu),  // generic path
    };
    for (size_t k = 0; k < sizeof materials / sizeof materials[0]; ++k) {
        icFemModel a, b;
        IC_REQUIRE(icFemModel_Create(&a, n, mesh.positions, T, mesh.tets, 1, &materials[k], NULL,
                                     NULL) == IC_OK);
        IC_REQUIRE(icFemModel_Create(&b, n, mesh.positions, T, mesh.tets, 1, &materials[k], NULL,
                                     NULL) == IC_OK);
        IC_REQUIRE(icFemModel_SetPool(&a, one) == IC_OK && icFemModel_SetPool(&b, two) == IC_OK);
        memset(fRef, 0, sizeof(icReal) * 3 * (size_t)n);
        icFem_AddForces(&a, x, fRef);
        icFem_ComputeHessians(&a, x, true, hessians);
        icFem_StiffnessProduct(&a, hessians, w, yRef);
        icFem_StiffnessDiagonal(&a, hessians, dRef);
        memset(f1, 0, sizeof(icReal) * 3 * (size_t)n);
        memset(f2, 0, sizeof(icReal) * 3 * (size_t)n);
        icFem_Evaluate(&a, x, f1, true, true);
        icFem_Evaluate(&b, x, f2, true, true);
        icReal fScale = maxAbs(fRef, 3 * n);
        IC_CHECK(fScale > 0);
        IC_CHECK_MSG(maxDiff(f1, fRef, 3 * n) <= 1e-12 * fScale, "material %zu: force error %g of %g",
                     k, maxDiff(f1, fRef, 3 * n), fScale);
        IC_CHECK_MSG(memcmp(f1, f2, sizeof(icReal) * 3 * (size_t)n) == 0,
                     "material %zu: forces differ between 1 and 2 workers", k);
        icFem_TangentProduct(&a, 1, 0, w, y1);
        icFem_TangentProduct(&b, 1, 0, w, y2);
        icReal yScale = maxAbs(yRef, 3 * n);
        IC_CHECK(yScale > 0);
        IC_CHECK_MSG(maxDiff(y1, yRef, 3 * n) <= 1e-6 * yScale, "material %zu: K w error %g of %g",
                     k, maxDiff(y1, yRef, 3 * n), yScale);
        IC_CHECK_MSG(memcmp(y1, y2, sizeof(icReal) * 3 * (size_t)n) == 0,
                     "material %zu: K w differs between 1 and 2 workers", k);
        // The operator of the implicit solves: sK K w + sM M w.
        const icReal sK = 4e-6, sM = 1.5;
        icFem_TangentProduct(&b, sK, sM, w, y2);
        icReal worst = 0, scale = 0;
        for (int v = 0; v < n; ++v)
            for (int i = 0; i < 3; ++i) {
                icReal ref = sK * yRef[3 * v + i] + sM * a.mass[v] * w[3 * v + i];
                worst = fmax(worst, fabs(y2[3 * v + i] - ref));
                scale = fmax(scale, fabs(ref));
            }
        IC_CHECK_MSG(worst <= 1e-6 * scale, "material %zu: scaled operator error %g of %g", k,
                     worst, scale);
        icFem_TangentDiagonal(&a, d1);
        icFem_TangentDiagonal(&b, d2);
        IC_CHECK_MSG(maxDiff(d1, dRef, 9 * n) <= 1e-6 * maxAbs(dRef, 9 * n),
                     "material %zu: diagonal error %g", k, maxDiff(d1, dRef, 9 * n));
        IC_CHECK(memcmp(d1, d2, sizeof(icReal) * 9 * (size_t)n) == 0);
        // The exact (unprojected) Hessians too.
        icFem_ComputeHessians(&a, x, false, hessians);
        icFem_StiffnessProduct(&a, hessians, w, yRef);
        icFem_Evaluate(&a, x, NULL, true, false);
        icFem_TangentProduct(&a, 1, 0, w, y1);
        IC_CHECK_MSG(maxDiff(y1, yRef, 3 * n) <= 1e-6 * maxAbs(yRef, 3 * n),
                     "material %zu: exact K w error %g of %g", k, maxDiff(y1, yRef, 3 * n),
                     maxAbs(yRef, 3 * n));
        icFemModel_Destroy(&a);
        icFemModel_Destroy(&b);
    }
    icDestroyPool(one);
    icDestroyPool(two);
    icReal *arrays[] = {x, w, fRef, f1, f2, yRef, y1, y2, dRef, d1, d2, hessians};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) free(arrays[i]);
    icTetMesh_Destroy(&mesh);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// A sphere thrown onto a plane (contacts in both pressure solves) with 1, 2 and 3 workers:
// positions, velocities and pressures after every step are the same bits.
static icWorld *throwSphere(int workers) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver = IC_SOLVER_INCOMPRESSIBLE;
    wd.health.policy = IC_HEALTH_OFF;
    wd.workerCount = workers;
    icWorld *w = icCreateWorld(&wd);
    icTetMesh mesh = {0};
    bool ok = w && icGenerateSphere(&mesh, 0.1, 12, 6) == IC_OK;
    icSoftBodyDef bd = icDefaultSoftBodyDef();
    bd.model = IC_MATERIAL_COROTATED;
    bd.poissonRatio = 0.5;
    bd.youngsModulus = 2 * 2e4 * 1.5;
    bd.translation = icVec3_Make(0, 0.102, 0);
    bd.velocity = icVec3_Make(0.2, -0.5, 0);
    icBodyId id;
    ok = ok && icWorld_CreateSoftBody(w, &mesh, &bd, &id, NULL) == IC_OK;
    icTetMesh_Destroy(&mesh);
    icIncompressibleDef d = icDefaultIncompressibleDef();
    d.recoveryTime = 1.0 / 120;
    icPlaneDef pd = icDefaultPlaneDef();
    ok = ok && icWorld_SetIncompressibleDef(w, &d) == IC_OK && icWorld_AddPlane(w, &pd) == IC_OK;
    IC_CHECK(ok);
    if (!ok) {
        icDestroyWorld(w);
        return NULL;
    }
    return w;
}

IC_TEST(incomp, step_same_bits_any_workers) {
    icWorld *worlds[3] = {throwSphere(1), throwSphere(2), throwSphere(3)};
    IC_REQUIRE(worlds[0] && worlds[1] && worlds[2]);
    int n = icWorld_GetVertexCount(worlds[0]);
    IC_REQUIRE(n > 2 * 512); // two workers get a vertex range each in the FEM pass
    icReal *p = malloc(sizeof(icReal) * 2 * (size_t)n);
    IC_REQUIRE(p);
    int contacts = 0, local = 0;
    for (int s = 0; s < 8; ++s) {
        uint64_t hash[3];
        for (int k = 0; k < 3; ++k) {
            icStepStats st;
            IC_CHECK_RESULT(icWorld_Step(worlds[k], 1.0 / 240, &st), IC_OK);
            if (k == 0) contacts += st.contacts;
            if (k == 0) local += icWorld_GetIncompressibleStats(worlds[0]).localNewtonSolves;
            hash[k] = icWorld_HashState(worlds[k]);
        }
        IC_CHECK_MSG(hash[1] == hash[0] && hash[2] == hash[0], "step %d: states differ", s);
        IC_CHECK(icWorld_GetVertexPressure(worlds[0], p));
        IC_CHECK(icWorld_GetVertexPressure(worlds[2], p + n));
        IC_CHECK(memcmp(p, p + n, sizeof(icReal) * (size_t)n) == 0);
    }
    IC_CHECK_MSG(contacts > 0, "the sphere never touched the plane");
    // Some later Newton solves ran on sub-meshes (local_solve.c): those give the same bits too.
    IC_CHECK_MSG(local > 0, "no Newton solve ran on a sub-mesh");
    icIncompressibleStats is = icWorld_GetIncompressibleStats(worlds[0]);
    IC_CHECK(is.forceIterations > 0 && is.velocityIterations > 0);
    free(p);
    for (int k = 0; k < 3; ++k) icDestroyWorld(worlds[k]);
}

// The pressure system's threaded M^-1 J^T (vertex ranges, each summing in tet order), its whole
// product J M^-1 J^T (J as per-tet values, then ring sums in tet order) and its ring volumes are
// the serial scatters (icOneRing_DivergenceTranspose, icOneRing_Divergence, icOneRing_Volumes)
// bit for bit with 1 and 2 workers and with the AVX2 and portable kernels, and a whole velocity
// projection (J, J^T, the diagonal, MINRES, contact sweeps) gives the same bits with all four.
// 16^3 cells: enough vertices for every loop to split.
IC_TEST(incomp, threaded_pressure_matches_serial) {
    icTetMesh mesh = {0};
    incompBox(&mesh, 16, 6);
    int n = mesh.vertexCount, T = mesh.tetCount;
    IC_REQUIRE(n > 2 * 2048);
    size_t bytes3 = sizeof(icReal) * 3 * (size_t)n, bytes1 = sizeof(icReal) * (size_t)n;
    icReal *x = malloc(bytes3), *invMass = malloc(bytes3), *p = malloc(bytes1);
    icReal *g = malloc(sizeof(icReal) * 12 * (size_t)T), *ref = malloc(bytes3), *out = malloc(bytes3);
    icReal *v0 = malloc(bytes3), *v[4], *ph[4];
    for (int run = 0; run < 4; ++run) {
        v[run] = malloc(bytes3);
        ph[run] = malloc(bytes1);
        IC_REQUIRE(v[run] && ph[run]);
    }
    IC_REQUIRE(x && invMass && p && g && ref && out && v0);
    memcpy(x, mesh.positions, bytes3);
    incompPerturb(x, 3 * n, 0.2);
    for (int i = 0; i < 3 * n; ++i) {
        invMass[i] = icTest_Uniform(0.5, 2);
        v0[i] = icTest_Uniform(-1, 1);
    }
    for (int i = 0; i < 3 * 20; ++i) invMass[i] = 0; // some kinematic vertices
    for (int k = 0; k < n; ++k) p[k] = icTest_Uniform(-1, 1);
    icOneRing_Gradients(x, mesh.tets, T, g);
    icOneRing_DivergenceTranspose(g, mesh.tets, T, n, p, ref);
    for (int i = 0; i < 3 * n; ++i) ref[i] *= invMass[i];
    // The product's reference from the serial scatters, on a p that is zero on the rows whose ring
    // has no free vertex (the product reads those as zero and writes zero there).
    icReal *pMasked = malloc(bytes1), *product = malloc(bytes1), *refProduct = malloc(bytes1);
    icReal *uRef = malloc(bytes3), *refVolumes = malloc(bytes1);
    IC_REQUIRE(pMasked && product && refProduct && uRef && refVolumes);
    icOneRing_Volumes(x, n, mesh.tets, T, refVolumes);
    memset(pMasked, 0, bytes1);
    for (int t = 0; t < T; ++t) {
        const int *tv = mesh.tets + 4 * t;
        bool moves = false;
        for (int a = 0; a < 4; ++a) moves |= invMass[3 * tv[a]] > 0;
        for (int a = 0; moves && a < 4; ++a) pMasked[tv[a]] = p[tv[a]];
    }
    icOneRing_DivergenceTranspose(g, mesh.tets, T, n, pMasked, uRef);
    for (int i = 0; i < 3 * n; ++i) uRef[i] *= invMass[i];
    icOneRing_Divergence(g, mesh.tets, T, n, uRef, refProduct);
    for (int k = 0; k < n; ++k)
        if (pMasked[k] == 0) refProduct[k] = 0;
    // A few single-node contact constraints for the projection.
    icConstraintSet set = {0};
    for (int j = 0; j < 8; ++j) {
        icVelocityConstraint c;
        memset(&c, 0, sizeof c);
        c.count = 1;
        c.vertices[0] = 100 + 37 * j;
        c.c[0] = icVec3_Make(0, 1, 0);
        IC_REQUIRE(icConstraintSet_Add(&set, &c) == IC_OK);
    }
    icPressureDef def = icDefaultPressureDef();
    int its[4] = {0};
    for (int run = 0; run < 4; ++run) {
        int workers = 1 + run % 2;
        bool wide = run < 2;
        icPool *pool = icCreatePool(workers, NULL, NULL, NULL);
        icPressureSystem *s = icCreatePressureSystem(n, mesh.tets, T, invMass);
        IC_REQUIRE(pool && s);
        icPressureSystem_SetPool(s, pool);
        icPressureSystem_UseWideKernels(s, wide);
        icPressureSystem_Setup(s, x);
        icPressureSystem_Correction(s, NULL, 1, p, out);
        IC_CHECK_MSG(memcmp(out, ref, bytes3) == 0,
                     "%d workers, %s kernels: M^-1 J^T p differs from the serial scatter", workers,
                     wide ? "wide" : "portable");
        icPressureSystem_RingVolumes(s, x, product);
        IC_CHECK_MSG(memcmp(product, refVolumes, bytes1) == 0,
                     "%d workers: the ring volumes differ from icOneRing_Volumes", workers);
        // The whole product: J (the divergence's tet pass and ring sums) after M^-1 J^T, with
        // the inactive rows (all of whose vertices are kinematic) read and written as zero.
        icPressureSystem_Apply(s, pMasked, product);
        IC_CHECK_MSG(memcmp(product, refProduct, bytes1) == 0,
                     "%d workers, %s kernels: J M^-1 J^T p differs from the serial scatters",
                     workers, wide ? "wide" : "portable");
        memcpy(v[run], v0, bytes3);
        icKrylovStats ks;
        its[run] = icPressureSystem_ProjectVelocity(s, &set, &def, v[run], ph[run], false, &ks);
        icDestroyPressureSystem(s);
        icDestroyPool(pool);
    }
    for (int run = 1; run < 4; ++run) {
        IC_CHECK_MSG(its[0] > 1 && its[run] == its[0], "iterations %d and %d", its[0], its[run]);
        IC_CHECK_MSG(memcmp(v[0], v[run], bytes3) == 0, "run %d: velocities differ", run);
        IC_CHECK_MSG(memcmp(ph[0], ph[run], bytes1) == 0, "run %d: pressures differ", run);
    }
    icConstraintSet_Destroy(&set);
    for (int run = 0; run < 4; ++run) {
        free(v[run]);
        free(ph[run]);
    }
    icReal *arrays[] = {x,  invMass, p,       g,          ref,  out,
                        v0, pMasked, product, refProduct, uRef, refVolumes};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) free(arrays[i]);
    icTetMesh_Destroy(&mesh);
}
