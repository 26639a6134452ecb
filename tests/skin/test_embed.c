// SPDX-License-Identifier: MIT
// Embedding: weights reproduce every point at rest and follow affine maps exactly, outside
// points go to their nearest tet (checked by brute force), world skins follow their body,
// refusals, and the throughput figure.
#include "test.h"

#include "isochor/collision.h"
#include "isochor/skin.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// A jittered box mesh (so tets are not axis-aligned) and points in and around it.
static void makeCase(icTetMesh *mesh, int cells, icReal **points, int count, double spread) {
    int c[3] = {cells, cells, cells};
    icGenerateBox(mesh, icVec3_Make(1, 1, 1), c, 6);
    icTest_Seed(5);
    double h = 1.0 / cells;
    for (int i = 0; i < 3 * mesh->vertexCount; ++i) mesh->positions[i] += icTest_Uniform(-0.2, 0.2) * h;
    *points = malloc(sizeof(icReal) * 3 * (size_t)count);
    for (int i = 0; i < 3 * count; ++i) (*points)[i] = icTest_Uniform(-spread, spread);
}

IC_TEST(skin, weights_reproduce_points_and_affine_maps) {
    icTetMesh mesh = {0};
    icReal *points;
    int count = 20000;
    makeCase(&mesh, 8, &points, count, 0.6); // some outside the unit box
    icEmbedding e;
    IC_CHECK_RESULT(icEmbedPoints(mesh.positions, mesh.vertexCount, mesh.tets, mesh.tetCount, points,
                                  count, &e),
                    IC_OK);
    icReal *out = malloc(sizeof(icReal) * 3 * (size_t)count);
    icEmbedding_Apply(&e, mesh.tets, mesh.positions, out);
    double worst = 0, weightSum = 0;
    for (int i = 0; i < count; ++i) {
        worst = fmax(worst, icVec3_Distance(icVec3_Load(out, i), icVec3_Load(points, i)));
        const icReal *w = e.weights + 4 * i;
        weightSum = fmax(weightSum, fabs(w[0] + w[1] + w[2] + w[3] - 1));
    }
    printf("  %d points, %d outside (farthest %.3f m): rest error %.2e m, |sum w - 1| %.1e\n",
           count, e.outsideCount, e.maxOutsideDistance, worst, weightSum);
    IC_CHECK_MSG(worst < 1e-13, "rest positions reproduced to %g only", worst);
    IC_CHECK(weightSum < 1e-13);
    IC_CHECK(e.outsideCount > 0 && e.outsideCount < count);
    // An affine map of the mesh moves every embedded point by the same map.
    icMat3 A = icMat3_FromCols(icVec3_Make(1.3, 0.2, -0.1), icVec3_Make(-0.4, 0.8, 0.3),
                               icVec3_Make(0.1, 0.5, 1.1));
    icVec3 b = icVec3_Make(0.3, -2, 5);
    icReal *moved = malloc(sizeof(icReal) * 3 * (size_t)mesh.vertexCount);
    for (int v = 0; v < mesh.vertexCount; ++v)
        icVec3_Store(moved, v, icVec3_Add(icMat3_MulVec(A, icVec3_Load(mesh.positions, v)), b));
    icEmbedding_Apply(&e, mesh.tets, moved, out);
    worst = 0;
    for (int i = 0; i < count; ++i) {
        icVec3 expected = icVec3_Add(icMat3_MulVec(A, icVec3_Load(points, i)), b);
        worst = fmax(worst, icVec3_Distance(expected, icVec3_Load(out, i)));
    }
    printf("  affine map: worst error %.2e m\n", worst);
    IC_CHECK_MSG(worst < 1e-12, "affine map reproduced to %g only", worst);
    free(moved);
    free(out);
    free(points);
    icEmbedding_Destroy(&e);
    icTetMesh_Destroy(&mesh);
}

// Euclidean distance from p to tet t by dense sampling of its faces (brute-force reference).
static double distanceToTet(const icTetMesh *mesh, int t, icVec3 p) {
    static const int faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
    double best = INFINITY;
    for (int f = 0; f < 4; ++f) {
        icVec3 a = icVec3_Load(mesh->positions, mesh->tets[4 * t + faces[f][0]]);
        icVec3 b = icVec3_Load(mesh->positions, mesh->tets[4 * t + faces[f][1]]);
        icVec3 c = icVec3_Load(mesh->positions, mesh->tets[4 * t + faces[f][2]]);
        for (int i = 0; i <= 40; ++i)
            for (int j = 0; i + j <= 40; ++j) {
                icVec3 s = icVec3_Add(icVec3_Add(icVec3_Scale(i / 40.0, a), icVec3_Scale(j / 40.0, b)),
                                      icVec3_Scale(1 - (i + j) / 40.0, c));
                best = fmin(best, icVec3_Distance(p, s));
            }
    }
    return best;
}

IC_TEST(skin, outside_points_take_the_nearest_tet) {
    icTetMesh mesh = {0};
    icReal *points;
    int count = 40;
    makeCase(&mesh, 4, &points, count, 0.9);
    icEmbedding e;
    IC_CHECK_RESULT(icEmbedPoints(mesh.positions, mesh.vertexCount, mesh.tets, mesh.tetCount, points,
                                  count, &e),
                    IC_OK);
    int wrong = 0, checked = 0;
    for (int i = 0; i < count; ++i) {
        const icReal *w = e.weights + 4 * i;
        if (w[0] >= 0 && w[1] >= 0 && w[2] >= 0 && w[3] >= 0) continue; // inside
        icVec3 p = icVec3_Load(points, i);
        double chosen = distanceToTet(&mesh, e.tet[i], p), best = INFINITY;
        for (int t = 0; t < mesh.tetCount; ++t) best = fmin(best, distanceToTet(&mesh, t, p));
        // Sampled distances are within 2 % of an edge of the true ones.
        if (chosen > best + 0.01) ++wrong;
        ++checked;
    }
    printf("  %d outside points checked against all %d tets\n", checked, mesh.tetCount);
    IC_CHECK(checked > 10);
    IC_CHECK_INT(wrong, 0);
    free(points);
    icEmbedding_Destroy(&e);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(skin, refuses_bad_input) {
    icTetMesh mesh = {0};
    int c[3] = {1, 1, 1};
    icGenerateBox(&mesh, icVec3_Make(1, 1, 1), c, 6);
    icReal p[3] = {0, 0, 0};
    icEmbedding e;
    IC_CHECK_RESULT(icEmbedPoints(mesh.positions, mesh.vertexCount, mesh.tets, 0, p, 1, &e), IC_ERR_EMPTY);
    mesh.tets[5] = 99;
    IC_CHECK_RESULT(icEmbedPoints(mesh.positions, mesh.vertexCount, mesh.tets, mesh.tetCount, p, 1, &e),
                    IC_ERR_INDEX_OUT_OF_RANGE);
    mesh.tets[5] = mesh.tets[4]; // tet 1 repeats a vertex: zero volume
    IC_CHECK_RESULT(icEmbedPoints(mesh.positions, mesh.vertexCount, mesh.tets, mesh.tetCount, p, 1, &e),
                    IC_ERR_DEGENERATE_ELEMENT);
    p[1] = NAN;
    IC_CHECK_RESULT(icEmbedPoints(mesh.positions, mesh.vertexCount, mesh.tets, mesh.tetCount, p, 1, &e),
                    IC_ERR_NOT_FINITE);
    icTetMesh_Destroy(&mesh);
}

IC_TEST(skin, world_skin_follows_its_body) {
    icWorld *world = icCreateWorld(NULL);
    icTetMesh mesh = {0};
    int c[3] = {2, 4, 2};
    icGenerateBox(&mesh, icVec3_Make(0.2, 0.4, 0.2), c, 6);
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    icBodyId other, body;
    bdef.translation = icVec3_Make(5, 0, 0); // a first body the skin must ignore
    icWorld_CreateSoftBody(world, &mesh, &bdef, &other, NULL);
    bdef.translation = icVec3_Make(0, 0, 0);
    icWorld_CreateSoftBody(world, &mesh, &bdef, &body, NULL);
    icTetMesh_Destroy(&mesh);
    // The body turns rigidly with a bone (every vertex hard-attached).
    icRigidKey keys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
    keys[1].time = 1;
    keys[1].axis = icVec3_Make(1, 1, 0);
    keys[1].degrees = 120;
    keys[1].translation = icVec3_Make(0, 0.3, 0);
    icBoneDef bone = icDefaultBoneDef();
    bone.track.keys = keys;
    bone.track.keyCount = 2;
    bone.radius = 1;
    icBoneId id;
    icWorld_AddBone(world, &bone, &id);
    icAttachDef at = icDefaultAttachDef();
    icBody_Attach(world, body, &id, 1, &at, NULL);
    // A skin of three points and one triangle inside the body (one slightly outside).
    icReal skin[9] = {0.05, 0.1, 0.02, -0.08, -0.15, 0.01, 0.0, 0.0, 0.101};
    int tri[3] = {0, 1, 2};
    icSkinDef def = icDefaultSkinDef();
    def.body = body;
    def.vertexCount = 3;
    def.positions = skin;
    def.triangleCount = 1;
    def.triangles = tri;
    int index = -1;
    IC_CHECK_RESULT(icWorld_AddSkin(world, &def, &index), IC_OK);
    IC_CHECK_INT(index, 0);
    IC_CHECK_INT(icWorld_GetSkinCount(world), 1);
    int t0, tn;
    icBody_GetRanges(world, body, NULL, NULL, &t0, &tn);
    const icEmbedding *e = icWorld_GetSkinEmbedding(world, 0);
    for (int i = 0; i < 3; ++i) IC_CHECK(e->tet[i] >= t0 && e->tet[i] < t0 + tn);
    for (int i = 0; i < 45; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    icMat3 R;
    icVec3 T;
    icBone_GetTransform(world, id, icWorld_GetTime(world), &R, &T);
    const icReal *x;
    const int *tris;
    int nv, ntri;
    icWorld_GetSkinSurface(world, 0, &x, &nv, &tris, &ntri);
    IC_CHECK_INT(nv, 3);
    IC_CHECK_INT(ntri, 1);
    IC_CHECK_INT(tris[2], 2);
    double worst = 0;
    for (int i = 0; i < 3; ++i)
        worst = fmax(worst, icVec3_Distance(icVec3_Add(icMat3_MulVec(R, icVec3_Load(skin, i)), T),
                                            icVec3_Load(x, i)));
    IC_CHECK_MSG(worst < 1e-12, "skin off its body by %g", worst);
    icSkinDef bad = def;
    bad.body.generation = 9;
    IC_CHECK_RESULT(icWorld_AddSkin(world, &bad, NULL), IC_ERR_INVALID_ARGUMENT);
    tri[1] = 3;
    IC_CHECK_RESULT(icWorld_AddSkin(world, &def, NULL), IC_ERR_INDEX_OUT_OF_RANGE);
    icDestroyWorld(world);
}

// Throughput: 200k points (inside and near a jittered 50k-tet box). The 1M-into-100k figure
// is bench_tissue's.
IC_TEST(skin, embedding_throughput) {
    icTetMesh mesh = {0};
    icReal *points;
    int count = 200000;
    makeCase(&mesh, 15, &points, count, 0.52);
    icEmbedding e;
    double t0 = seconds();
    IC_CHECK_RESULT(icEmbedPoints(mesh.positions, mesh.vertexCount, mesh.tets, mesh.tetCount, points,
                                  count, &e),
                    IC_OK);
    double elapsed = seconds() - t0;
    printf("  %d points into %d tets in %.3f s (%.2f M points/s), %d outside\n", count, mesh.tetCount,
           elapsed, count / elapsed / 1e6, e.outsideCount);
    IC_CHECK_INT(e.pointCount, count);
    free(points);
    icEmbedding_Destroy(&e);
    icTetMesh_Destroy(&mesh);
}
