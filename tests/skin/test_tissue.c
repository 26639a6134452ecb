// SPDX-License-Identifier: MIT
// The tissue generator: a soft layer around capsule bones (valid tets, boundary on the
// union's surface, nothing inside a bone) and its render surface (closed, outward, on the
// surface, enclosing the analytic volume).
#include "test.h"

#include "isochor/skin.h"

#include <stdlib.h>
#include <string.h>

// A torso along x and a leg hanging from it, each with a bone.
static const icTissueCapsule s_body[2] = {
    {{-0.3, 0.6, 0}, {0.3, 0.6, 0}, 0.2, 0.08},
    {{0.2, 0.6, 0}, {0.2, 0.15, 0}, 0.1, 0.04},
};

static double axisDistance(const icTissueCapsule *c, icVec3 p) {
    icVec3 ab = icVec3_Sub(c->b, c->a);
    double s = icVec3_Dot(icVec3_Sub(p, c->a), ab) / icVec3_Dot(ab, ab);
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    return icVec3_Distance(p, icVec3_MulAdd(c->a, s, ab));
}

IC_TEST(skin, tissue_mesh_around_bones) {
    icTissueDef def = icDefaultTissueDef();
    def.capsules = s_body;
    def.capsuleCount = 2;
    def.cellSize = 0.04;
    icTetMesh mesh;
    IC_CHECK_RESULT(icGenerateTissue(&mesh, &def), IC_OK);
    IC_REQUIRE(mesh.tetCount > 0);
    icOrientReport report;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icTetMesh_Check(&mesh, true, &report, &diag), IC_OK);
    IC_CHECK(!report.flippedAll);
    IC_CHECK(mesh.tetCell != NULL);
    icMeshQuality q;
    icTetMesh_Quality(&mesh, &q);
    int *tris = NULL, count = 0;
    icTetMesh_ExtractSurface(&mesh, &tris, &count, NULL);
    // Outer boundary vertices lie on the union's surface (most exactly; where the volume guard
    // stopped them, within a cell); none is inside a bone.
    int outer = 0, snapped = 0, inBone = 0;
    double farthest = 0;
    unsigned char *seen = calloc((size_t)mesh.vertexCount, 1);
    for (int i = 0; i < 3 * count; ++i) {
        if (seen[tris[i]]++) continue;
        icVec3 p = icVec3_Load(mesh.positions, tris[i]);
        double d = icTissue_Distance(&def, p);
        if (d > -0.75 * def.cellSize) {
            ++outer;
            snapped += fabs(d) < 1e-9;
            farthest = fmax(farthest, fabs(d));
        }
    }
    free(seen);
    for (int v = 0; v < mesh.vertexCount; ++v)
        for (int c = 0; c < 2; ++c)
            if (axisDistance(&s_body[c], icVec3_Load(mesh.positions, v)) < s_body[c].boneRadius - 0.75 * def.cellSize)
                ++inBone;
    printf("  tissue: %d tets, %d vertices, min dihedral %.1f deg; %d of %d outer boundary "
           "vertices on the surface, the farthest %.2f cells off\n",
           mesh.tetCount, mesh.vertexCount, q.minDihedralDeg, snapped, outer, farthest / def.cellSize);
    IC_CHECK(snapped > outer / 2);
    IC_CHECK(farthest < def.cellSize);
    IC_CHECK_INT(inBone, 0);
    IC_CHECK_INT(q.invertedCount, 0);
    icFree(tris);
    icTetMesh_Destroy(&mesh);
    def.capsuleCount = 0;
    IC_CHECK_RESULT(icGenerateTissue(&mesh, &def), IC_ERR_BAD_VALUE);
    icTissueCapsule bad = s_body[0];
    bad.boneRadius = bad.radius;
    def.capsules = &bad;
    def.capsuleCount = 1;
    IC_CHECK_RESULT(icGenerateTissue(&mesh, &def), IC_ERR_BAD_VALUE);
}

typedef struct icEdgeUse {
    int a, b, count;
} icEdgeUse;

static int compareEdgeUse(const void *x, const void *y) {
    const icEdgeUse *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

IC_TEST(skin, tissue_surface_is_closed_and_on_the_union) {
    // One capsule: the enclosed volume has a closed form.
    icTissueCapsule one = {{0, 0, 0}, {0.5, 0.2, 0}, 0.15, 0};
    icTissueDef def = icDefaultTissueDef();
    def.capsules = &one;
    def.capsuleCount = 1;
    icReal *x = NULL;
    int *tris = NULL, nv = 0, nt = 0;
    double h = 0.01;
    IC_CHECK_RESULT(icGenerateTissueSurface(&def, h, &x, &nv, &tris, &nt), IC_OK);
    // Closed and consistently oriented: every directed edge appears once, its reverse once.
    icEdgeUse *edges = malloc(sizeof(icEdgeUse) * 3 * (size_t)nt);
    for (int t = 0; t < nt; ++t)
        for (int k = 0; k < 3; ++k)
            edges[3 * t + k] = (icEdgeUse){tris[3 * t + k], tris[3 * t + (k + 1) % 3], 1};
    qsort(edges, 3 * (size_t)nt, sizeof *edges, compareEdgeUse);
    int repeated = 0, unmatched = 0;
    for (int i = 0; i < 3 * nt; ++i) {
        if (i > 0 && compareEdgeUse(&edges[i], &edges[i - 1]) == 0) ++repeated;
        icEdgeUse reverse = {edges[i].b, edges[i].a, 1};
        if (!bsearch(&reverse, edges, 3 * (size_t)nt, sizeof *edges, compareEdgeUse)) ++unmatched;
    }
    double volume = 0, worst = 0;
    for (int t = 0; t < nt; ++t) {
        icVec3 a = icVec3_Load(x, tris[3 * t]), b = icVec3_Load(x, tris[3 * t + 1]),
               c = icVec3_Load(x, tris[3 * t + 2]);
        volume += icVec3_Dot(a, icVec3_Cross(b, c)) / 6;
    }
    for (int v = 0; v < nv; ++v) worst = fmax(worst, fabs(icTissue_Distance(&def, icVec3_Load(x, v))));
    double L = icVec3_Distance(one.a, one.b), r = one.radius;
    double exact = IC_PI * r * r * L + 4.0 / 3.0 * IC_PI * r * r * r;
    printf("  capsule surface: %d vertices, %d triangles, volume %.6f (exact %.6f), farthest "
           "vertex %.1e m off\n",
           nv, nt, volume, exact, worst);
    IC_CHECK_INT(repeated, 0);
    IC_CHECK_INT(unmatched, 0);
    IC_CHECK_NEAR(volume, exact, 0.01 * exact);
    IC_CHECK_MSG(worst < 0.1 * h, "surface vertex %g off the capsule", worst);
    free(edges);
    icFree(x);
    icFree(tris);
    // Two overlapping capsules: still closed (checked by the Euler characteristic of a sphere).
    def.capsules = s_body;
    def.capsuleCount = 2;
    IC_CHECK_RESULT(icGenerateTissueSurface(&def, 0.02, &x, &nv, &tris, &nt), IC_OK);
    IC_CHECK_INT(nv - 3 * nt / 2 + nt, 2);
    icFree(x);
    icFree(tris);
    IC_CHECK_RESULT(icGenerateTissueSurface(&def, 0, &x, &nv, &tris, &nt), IC_ERR_BAD_VALUE);
}
