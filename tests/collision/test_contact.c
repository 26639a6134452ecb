// SPDX-License-Identifier: MIT
// Contact between tet bodies and within one: two incompressible cubes dropped onto each other
// stay apart (point-in-tet) and keep their volume; a bar folded onto itself by its pinned
// ends ends without self-intersections of its boundary (triangle-triangle test); both fail
// without contact, and runs are bit-reproducible.
#include "collision_testing.h"

#include <string.h>

// Volume of body b's tets at the current positions over their rest volume.
static double bodyVolumeRatio(const icWorld *world, icBodyId body) {
    int t0, tn;
    icBody_GetRanges(world, body, NULL, NULL, &t0, &tn);
    const int *tets = icWorld_GetTets(world);
    const icReal *x = icWorld_GetPositions(world), *X = icWorld_GetRestPositions(world);
    double now = 0, rest = 0;
    for (int t = t0; t < t0 + tn; ++t) {
        const int *tv = tets + 4 * t;
        icVec3 a = icVec3_Load(x, tv[3]), A = icVec3_Load(X, tv[3]);
        now += icMat3_Det(icMat3_FromCols(icVec3_Sub(icVec3_Load(x, tv[0]), a),
                                          icVec3_Sub(icVec3_Load(x, tv[1]), a),
                                          icVec3_Sub(icVec3_Load(x, tv[2]), a)));
        rest += icMat3_Det(icMat3_FromCols(icVec3_Sub(icVec3_Load(X, tv[0]), A),
                                           icVec3_Sub(icVec3_Load(X, tv[1]), A),
                                           icVec3_Sub(icVec3_Load(X, tv[2]), A)));
    }
    return now / rest;
}

// Vertices of body `a` strictly inside a tet of body `b` (brute force).
static int verticesInside(const icWorld *world, icBodyId a, icBodyId b) {
    int v0, vn, t0, tn;
    icBody_GetRanges(world, a, &v0, &vn, NULL, NULL);
    icBody_GetRanges(world, b, NULL, NULL, &t0, &tn);
    const int *tets = icWorld_GetTets(world);
    const icReal *x = icWorld_GetPositions(world);
    int inside = 0;
    for (int v = v0; v < v0 + vn; ++v) {
        icVec3 p = icVec3_Load(x, v);
        for (int t = t0; t < t0 + tn; ++t) {
            const int *tv = tets + 4 * t;
            if (icCollisionTest_TetInside(p, icVec3_Load(x, tv[0]), icVec3_Load(x, tv[1]),
                                          icVec3_Load(x, tv[2]), icVec3_Load(x, tv[3])) > 1e-9) {
                ++inside;
                break;
            }
        }
    }
    return inside;
}

// Cube A rests on the ground, cube B (turned 30 degrees about y, shifted) falls onto it.
static icWorld *dropCubes(bool contact, icBodyId *a, icBodyId *b) {
    icWorldDef wdef = icDefaultWorldDef();
    icWorld *world = icCreateWorld(&wdef);
    icSoftBodyDef def = icDefaultSoftBodyDef();
    def.poissonRatio = 0.5;
    def.youngsModulus = 1e5;
    *a = icCollisionTest_AddBox(world, icVec3_Make(0.2, 0.2, 0.2), 4, 4, 4, icVec3_Make(0, 0.101, 0), &def);
    icTetMesh mesh = {0};
    int cells[3] = {4, 4, 4};
    icGenerateBox(&mesh, icVec3_Make(0.2, 0.2, 0.2), cells, 6);
    icMat3 R = icMat3_Rotation(icVec3_Make(0, 1, 0), 30 * IC_PI / 180);
    for (int v = 0; v < mesh.vertexCount; ++v)
        icVec3_Store(mesh.positions, v, icMat3_MulVec(R, icVec3_Load(mesh.positions, v)));
    def.translation = icVec3_Make(0.02, 0.36, 0.01);
    icWorld_CreateSoftBody(world, &mesh, &def, b, NULL);
    icTetMesh_Destroy(&mesh);
    icPlaneDef ground = icDefaultPlaneDef();
    icWorld_AddPlane(world, &ground);
    icContactDef cdef = icDefaultContactDef();
    cdef.bodyContact = contact;
    cdef.thickness = 0.005;
    cdef.restExclusion = 0.0075;
    IC_CHECK_RESULT(icWorld_SetContactDef(world, &cdef), IC_OK);
    for (int i = 0; i < 75; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    return world;
}

IC_TEST(collision, cubes_dropped_onto_each_other) {
    icBodyId a, b;
    icWorld *world = dropCubes(true, &a, &b);
    int inBA = verticesInside(world, b, a), inAB = verticesInside(world, a, b);
    double va = bodyVolumeRatio(world, a), vb = bodyVolumeRatio(world, b);
    int vb0, vbn;
    icBody_GetRanges(world, b, &vb0, &vbn, NULL, NULL);
    double centreB = 0;
    for (int v = vb0; v < vb0 + vbn; ++v) centreB += icWorld_GetPositions(world)[3 * v + 1] / vbn;
    icContactStats stats;
    icWorld_GetContactStats(world, &stats);
    printf("  with contact: %d / %d vertices inside the other cube, V/V0 %.5f and %.5f, "
           "B's centre at y = %.4f, %d contacts of %d candidates\n",
           inBA, inAB, va, vb, centreB, stats.selfContacts, stats.selfCandidates);
    IC_CHECK_INT(inBA, 0);
    IC_CHECK_INT(inAB, 0);
    IC_CHECK_NEAR(va, 1, 0.01);
    IC_CHECK_NEAR(vb, 1, 0.01);
    IC_CHECK_MSG(centreB > 0.27, "cube B sank to %g (it rests at 0.3 on A)", centreB);
    IC_CHECK(stats.selfContacts > 0);
    icDestroyWorld(world);

    // Without contact B falls into A: the check above can fail.
    world = dropCubes(false, &a, &b);
    int through = verticesInside(world, b, a) + verticesInside(world, a, b);
    printf("  without contact: %d vertices inside the other cube\n", through);
    IC_CHECK(through > 0);
    icDestroyWorld(world);
}

IC_TEST(collision, runs_are_bit_reproducible) {
    icBodyId a, b;
    icWorld *w1 = dropCubes(true, &a, &b);
    icWorld *w2 = dropCubes(true, &a, &b);
    size_t bytes = sizeof(icReal) * 3 * (size_t)icWorld_GetVertexCount(w1);
    IC_CHECK(memcmp(icWorld_GetPositions(w1), icWorld_GetPositions(w2), bytes) == 0);
    IC_CHECK(memcmp(icWorld_GetVelocities(w1), icWorld_GetVelocities(w2), bytes) == 0);
    icDestroyWorld(w1);
    icDestroyWorld(w2);
}

// A 1 m bar lying on the ground, both ends pinned; the right end turns 180 degrees about z
// around a point 1 cm above the bar's middle, folding the right half over the left one, where
// gravity presses it down (the lower half is supported by the ground).
static int foldBar(bool selfContact, double *volume, int *contacts) {
    icWorldDef wdef = icDefaultWorldDef();
    wdef.linearDamping = 2;
    icWorld *world = icCreateWorld(&wdef);
    icSoftBodyDef def = icDefaultSoftBodyDef();
    def.youngsModulus = 1e4;
    def.poissonRatio = 0.45;
    icBodyId bar = icCollisionTest_AddBox(world, icVec3_Make(1, 0.1, 0.1), 20, 2, 2, icVec3_Make(0, 0, 0), &def);
    icPinDef left = icDefaultPinDef();
    left.boxMin = icVec3_Make(-1, -1, -1);
    left.boxMax = icVec3_Make(-0.49, 1, 1);
    icBody_AddPin(world, bar, &left, NULL);
    icPinDef right = left;
    right.boxMin = icVec3_Make(0.49, -1, -1);
    right.boxMax = icVec3_Make(1, 1, 1);
    right.motionCount = 1;
    right.motions[0] = icDefaultMotion();
    right.motions[0].axis = icVec3_Make(0, 0, 1);
    right.motions[0].centre = icVec3_Make(0, 0.06, 0);
    right.motions[0].degreesPerSecond = 120;
    right.motions[0].end = 1.5;
    icBody_AddPin(world, bar, &right, NULL);
    icPlaneDef ground = icDefaultPlaneDef();
    ground.offset = -0.05;
    icWorld_AddPlane(world, &ground);
    icContactDef cdef = icDefaultContactDef();
    cdef.selfContact = selfContact;
    cdef.thickness = 0.01;
    cdef.restExclusion = 0.015;
    IC_CHECK_RESULT(icWorld_SetContactDef(world, &cdef), IC_OK);
    for (int i = 0; i < 150; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    icTetMesh view = {0};
    view.vertexCount = icWorld_GetVertexCount(world);
    view.tetCount = icWorld_GetTetCount(world);
    view.positions = (icReal *)icWorld_GetRestPositions(world);
    view.tets = (int *)icWorld_GetTets(world);
    int *tris = NULL, count = 0;
    icTetMesh_ExtractSurface(&view, &tris, &count, NULL);
    int hits = icCollisionTest_CountSurfaceIntersections(tris, count, icWorld_GetPositions(world));
    icFree(tris);
    *volume = icWorld_GetVolumeRatio(world);
    icContactStats stats;
    icWorld_GetContactStats(world, &stats);
    *contacts = stats.selfContacts;
    icDestroyWorld(world);
    return hits;
}

IC_TEST(collision, folded_bar_does_not_self_intersect) {
    double volume, volumeOff;
    int contacts, contactsOff;
    int hits = foldBar(true, &volume, &contacts);
    int hitsOff = foldBar(false, &volumeOff, &contactsOff);
    printf("  folded bar: %d intersecting boundary triangle pairs with self contact (%d contacts, "
           "V/V0 %.4f), %d without (V/V0 %.4f)\n",
           hits, contacts, volume, hitsOff, volumeOff);
    IC_CHECK_INT(hits, 0);
    IC_CHECK(contacts > 0);
    IC_CHECK(hitsOff > 0); // the test can fail
}
