// SPDX-License-Identifier: MIT
// Bones and attachments: hard attachments follow their bone exactly, parents compose,
// compliant attachments settle where the springs carry the weight, and refusals.
#include "collision_testing.h"

// A bone turning 90 degrees about z through (0, 0.5, 0) and moving by (0.2, 0.1, 0) over 1 s.
static icBoneDef swingingBone(icRigidKey keys[2]) {
    keys[0] = icDefaultRigidKey();
    keys[1] = icDefaultRigidKey();
    keys[1].time = 1;
    keys[1].axis = icVec3_Make(0, 0, 1);
    keys[1].degrees = 90;
    keys[1].translation = icVec3_Make(0.2, 0.1, 0);
    icBoneDef def = icDefaultBoneDef();
    def.track.pivot = icVec3_Make(0, 0.5, 0);
    def.track.keys = keys;
    def.track.keyCount = 2;
    def.a = icVec3_Make(0, 0, 0);
    def.b = icVec3_Make(0, 1, 0);
    def.radius = 0.02;
    return def;
}

IC_TEST(collision, bone_hard_attachments_follow_the_bone) {
    icWorld *world = icCreateWorld(NULL);
    icBodyId body = icCollisionTest_AddBox(world, icVec3_Make(0.1, 1, 0.1), 1, 8, 1,
                                           icVec3_Make(0, 0.5, 0), NULL);
    icRigidKey keys[2];
    icBoneDef def = swingingBone(keys);
    icBoneId bone;
    IC_CHECK_RESULT(icWorld_AddBone(world, &def, &bone), IC_OK);
    icAttachDef at = icDefaultAttachDef();
    at.distance = 0.1; // the whole bar lies within 0.1 of the capsule
    int attached = 0;
    IC_CHECK_RESULT(icBody_Attach(world, body, &bone, 1, &at, &attached), IC_OK);
    IC_CHECK_INT(attached, icWorld_GetVertexCount(world));
    // A second call finds nothing left to attach.
    int again = -1;
    IC_CHECK_RESULT(icBody_Attach(world, body, &bone, 1, &at, &again), IC_OK);
    IC_CHECK_INT(again, 0);
    for (int i = 0; i < 30; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    icMat3 R;
    icVec3 T;
    icBone_GetTransform(world, bone, icWorld_GetTime(world), &R, &T);
    const icReal *x = icWorld_GetPositions(world), *X = icWorld_GetRestPositions(world);
    double worst = 0;
    for (int v = 0; v < icWorld_GetVertexCount(world); ++v) {
        icVec3 expected = icVec3_Add(icMat3_MulVec(R, icVec3_Load(X, v)), T);
        worst = fmax(worst, icVec3_Distance(expected, icVec3_Load(x, v)));
    }
    printf("  bar on a bone at t = %.3f s: worst distance from R x0 + T %.2e m\n",
           icWorld_GetTime(world), worst);
    IC_CHECK_MSG(worst < 1e-12, "attached vertices off by %g", worst);
    // Halfway: 45 degrees and half the translation, so the rest point (0, 1, 0) is at
    // (0.1 - 0.5 sin 45, 0.55 + 0.5 cos 45, 0).
    icVec3 tip = icVec3_Add(icMat3_MulVec(R, icVec3_Make(0, 1, 0)), T);
    IC_CHECK_NEAR(tip.x, 0.1 - 0.5 * sin(IC_PI / 4), 1e-12);
    IC_CHECK_NEAR(tip.y, 0.55 + 0.5 * cos(IC_PI / 4), 1e-12);
    IC_CHECK_NEAR(icBone_Distance(world, bone, tip, icWorld_GetTime(world)), 0, 1e-12);
    icDestroyWorld(world);
}

IC_TEST(collision, bone_parents_compose) {
    icWorld *world = icCreateWorld(NULL);
    icRigidKey keys[2];
    icBoneDef parentDef = swingingBone(keys);
    icBoneId parent, child;
    IC_CHECK_RESULT(icWorld_AddBone(world, &parentDef, &parent), IC_OK);
    icRigidKey childKeys[2] = {icDefaultRigidKey(), icDefaultRigidKey()};
    childKeys[1].time = 2;
    childKeys[1].axis = icVec3_Make(1, 0, 0);
    childKeys[1].degrees = 60;
    icBoneDef childDef = icDefaultBoneDef();
    childDef.parent = parent;
    childDef.track.pivot = icVec3_Make(0, 1, 0);
    childDef.track.keys = childKeys;
    childDef.track.keyCount = 2;
    IC_CHECK_RESULT(icWorld_AddBone(world, &childDef, &child), IC_OK);
    icMat3 Rp, Rc;
    icVec3 Tp, Tc;
    icBone_GetTransform(world, parent, 0.7, &Rp, &Tp);
    icBone_GetTransform(world, child, 0.7, &Rc, &Tc);
    icRigidTrack local = childDef.track;
    icMat3 Rl;
    icVec3 Tl;
    icRigidTrack_Evaluate(&local, 0.7, &Rl, &Tl);
    icVec3 p = icVec3_Make(0.3, 1.2, -0.1);
    icVec3 viaParent = icVec3_Add(icMat3_MulVec(Rp, icVec3_Add(icMat3_MulVec(Rl, p), Tl)), Tp);
    icVec3 direct = icVec3_Add(icMat3_MulVec(Rc, p), Tc);
    IC_CHECK_NEAR(icVec3_Distance(viaParent, direct), 0, 1e-14);
    // A stale or foreign parent is refused.
    icBoneDef bad = icDefaultBoneDef();
    bad.parent.index1 = 7;
    IC_CHECK_RESULT(icWorld_AddBone(world, &bad, NULL), IC_ERR_BAD_VALUE);
    bad = icDefaultBoneDef();
    bad.radius = -1;
    IC_CHECK_RESULT(icWorld_AddBone(world, &bad, NULL), IC_ERR_BAD_VALUE);
    icDestroyWorld(world);
}

// Every vertex of a block hangs on a compliant attachment to a bone at rest. At the XPBD
// fixed point (one projection per substep, multiplier reset each substep) vertex i's spring
// moves it by -(x_i - target_i) h^2 / (alpha m_i) per substep; the elastic corrections sum
// to zero when mass-weighted, so the springs undo gravity's h^2 g exactly when
// sum_i (x_i - target_i) = alpha M g.
IC_TEST(collision, bone_compliant_attachments_carry_the_weight) {
    icWorldDef wdef = icDefaultWorldDef();
    wdef.linearDamping = 5;
    icWorld *world = icCreateWorld(&wdef);
    icSoftBodyDef bdef = icDefaultSoftBodyDef();
    bdef.youngsModulus = 1e4;
    icBodyId body = icCollisionTest_AddBox(world, icVec3_Make(0.2, 0.2, 0.2), 2, 2, 2,
                                           icVec3_Make(0, 0, 0), &bdef);
    icBoneDef def = icDefaultBoneDef();
    def.radius = 1;
    icBoneId bone;
    IC_CHECK_RESULT(icWorld_AddBone(world, &def, &bone), IC_OK);
    icAttachDef at = icDefaultAttachDef();
    at.compliance = 1e-3; // m/N: a vertex of ~0.3 kg sags ~3 mm
    int attached = 0;
    IC_CHECK_RESULT(icBody_Attach(world, body, &bone, 1, &at, &attached), IC_OK);
    IC_CHECK_INT(attached, 27);
    for (int i = 0; i < 240; ++i) icWorld_Step(world, 1.0 / 60.0, NULL);
    // The total mass from the rest tets.
    int nv = icWorld_GetVertexCount(world), nt = icWorld_GetTetCount(world);
    const int *tets = icWorld_GetTets(world);
    const icReal *X = icWorld_GetRestPositions(world), *x = icWorld_GetPositions(world);
    double total = 0;
    for (int t = 0; t < nt; ++t) {
        const int *tv = tets + 4 * t;
        icVec3 d = icVec3_Load(X, tv[3]);
        double V = fabs(icMat3_Det(icMat3_FromCols(icVec3_Sub(icVec3_Load(X, tv[0]), d),
                                                   icVec3_Sub(icVec3_Load(X, tv[1]), d),
                                                   icVec3_Sub(icVec3_Load(X, tv[2]), d)))) / 6;
        total += 1000 * V;
    }
    double sum = 0;
    for (int v = 0; v < nv; ++v) sum += x[3 * v + 1] - X[3 * v + 1];
    printf("  compliant hang: sum of sags %.6f m vs alpha M g = %.6f m (mean %.5f m)\n", -sum,
           at.compliance * total * 9.81, -sum / nv);
    IC_CHECK_NEAR(sum, -at.compliance * total * 9.81, 1e-3 * at.compliance * total * 9.81);
    icDestroyWorld(world);
}

IC_TEST(collision, bone_attach_by_box_and_nearest_bone) {
    icWorld *world = icCreateWorld(NULL);
    icBodyId body = icCollisionTest_AddBox(world, icVec3_Make(1, 0.1, 0.1), 10, 1, 1,
                                           icVec3_Make(0, 0, 0), NULL);
    icBoneDef left = icDefaultBoneDef(), right = icDefaultBoneDef();
    left.a = icVec3_Make(-0.5, 0, 0);
    left.b = icVec3_Make(-0.4, 0, 0);
    right.a = icVec3_Make(0.4, 0, 0);
    right.b = icVec3_Make(0.5, 0, 0);
    icBoneId bones[2];
    IC_CHECK_RESULT(icWorld_AddBone(world, &left, &bones[0]), IC_OK);
    IC_CHECK_RESULT(icWorld_AddBone(world, &right, &bones[1]), IC_OK);
    // The box holds the two end layers (x = -0.5 and 0.5: 4 vertices each).
    icAttachDef at = icDefaultAttachDef();
    at.region = IC_ATTACH_BOX;
    at.boxMin = icVec3_Make(-1, -1, -1);
    at.boxMax = icVec3_Make(1, 1, 1);
    at.distance = 0;
    int attached = 0;
    // Box region: every vertex in the box goes to its nearest bone.
    IC_CHECK_RESULT(icBody_Attach(world, body, bones, 2, &at, &attached), IC_OK);
    IC_CHECK_INT(attached, icWorld_GetVertexCount(world));
    icBodyId stale = body;
    stale.generation++;
    IC_CHECK_RESULT(icBody_Attach(world, stale, bones, 2, &at, NULL), IC_ERR_INVALID_ARGUMENT);
    at.compliance = -1;
    IC_CHECK_RESULT(icBody_Attach(world, body, bones, 2, &at, NULL), IC_ERR_BAD_VALUE);
    icDestroyWorld(world);
    // Near-bone region on a fresh world: only the end layers are within 1 mm of the bones.
    world = icCreateWorld(NULL);
    body = icCollisionTest_AddBox(world, icVec3_Make(1, 0.1, 0.1), 10, 1, 1, icVec3_Make(0, 0, 0), NULL);
    left.radius = right.radius = 0.075; // reaches the corners at +-0.05, +-0.05
    IC_CHECK_RESULT(icWorld_AddBone(world, &left, &bones[0]), IC_OK);
    IC_CHECK_RESULT(icWorld_AddBone(world, &right, &bones[1]), IC_OK);
    at = icDefaultAttachDef();
    at.distance = 0.001;
    IC_CHECK_RESULT(icBody_Attach(world, body, bones, 2, &at, &attached), IC_OK);
    IC_CHECK_INT(attached, 16); // the layers at x = +-0.5 and +-0.4
    icDestroyWorld(world);
}
