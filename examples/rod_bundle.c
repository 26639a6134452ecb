// SPDX-License-Identifier: MIT
// rod_bundle: VIPER rods (rod.h), a world of its own beside the tet world.
//
// Three rods of different lengths start horizontal, hinged at one end (their first vertex
// pinned), swing down under gravity and come to hang straight below their pins. Next to them
// a bundle of three parallel rods, held together by scale-invariant shape matching
// (icRodWorld_AddBundle), falls onto a ground plane. After three seconds the tip (last
// vertex) of every rod is printed.
//
// Note: like every XPBD solver, rods get stiffer with more substeps and passes. "Hard"
// (zero-compliance) constraints are only as hard as the iterations make them: with 4 substeps
// of 10 passes the 30 cm rod here hangs 2.4 times its length (VIPER rods stretch by thinning,
// the volume constraint trades radius for length); with 40 substeps it is within 1 %.
//
//   usage: rod_bundle
//
// Build: see examples/README.md.
#include "isochor/rod.h"

#include <math.h>
#include <stdio.h>

static int fail(const char *what, const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "rod_bundle: %s: %s\n", what, text);
    return 1;
}

int main(void) {
    icRodWorldDef worldDef = icDefaultRodWorldDef(); // gravity -9.81 y, 10 passes per step
    worldDef.substeps = 40;                          // see the note above (default 1)
    // Velocities are multiplied by this every substep (2400 a second here): about a factor 0.1
    // a second, so that the swinging rods settle (default 0.9999).
    worldDef.velocityDamping = 0.999;
    icRodWorld *world = icCreateRodWorld(&worldDef);
    if (!world) {
        fprintf(stderr, "rod_bundle: cannot create the rod world\n");
        return 1;
    }
    icDiagnostic diag = {0};
    int rodCount = 0;

    // The ground: the half-space y >= 0.
    icRodPlaneDef ground = icDefaultRodPlaneDef();
    ground.normal = icVec3_Make(0, 1, 0);
    ground.offset = 0;
    if (icRodWorld_AddPlane(world, &ground) != IC_OK) {
        icDestroyRodWorld(world);
        fprintf(stderr, "rod_bundle: cannot add the ground\n");
        return 1;
    }

    // Hanging rods: 1 cm radius, 20, 30 and 40 cm long, starting horizontal at 0.6 m,
    // 10 cm apart. Default compliances: hard stretch and bending.
    const double lengths[3] = {0.2, 0.3, 0.4};
    for (int i = 0; i < 3; ++i, ++rodCount) {
        icRodDef def = icDefaultRodDef();
        def.radius = 0.01;
        int rod;
        icVec3 start = icVec3_Make(0, 0.6, 0.1 * i), end = icVec3_Make(lengths[i], 0.6, 0.1 * i);
        if (icRodWorld_AddStraightRod(world, start, end, 10, &def, &rod, &diag) != IC_OK) {
            icDestroyRodWorld(world);
            return fail("cannot add a rod", &diag);
        }
        // Hinge: pin the first vertex where it is (bone -1 = no motion; radius held too).
        icRodRange range = icRodWorld_GetRod(world, rod);
        if (icRodWorld_PinVertex(world, range.vertexStart, -1, true) != IC_OK) {
            icDestroyRodWorld(world);
            fprintf(stderr, "rod_bundle: cannot pin rod %d\n", rod);
            return 1;
        }
    }

    // A bundle: three parallel rods with the same vertex count, 0.3 m up, free to fall.
    int bundleRods[3];
    for (int i = 0; i < 3; ++i, ++rodCount) {
        icRodDef def = icDefaultRodDef(); // hard (compliance 0) stretch and bend
        def.radius = 0.01;
        icVec3 start = icVec3_Make(0, 0.3, 0.5 + 0.02 * i),
               end = icVec3_Make(0.3, 0.3, 0.5 + 0.02 * i);
        if (icRodWorld_AddStraightRod(world, start, end, 8, &def, &bundleRods[i], &diag) != IC_OK) {
            icDestroyRodWorld(world);
            return fail("cannot add a bundle rod", &diag);
        }
    }
    int bundle;
    if (icRodWorld_AddBundle(world, bundleRods, 3, IC_ROD_MATCHING_SCALE_INVARIANT, &bundle,
                             &diag) != IC_OK) {
        icDestroyRodWorld(world);
        return fail("cannot bundle the rods", &diag);
    }
    printf("rods: %d, vertices: %d, pills: %d\n", icRodWorld_GetRodCount(world),
           icRodWorld_GetVertexCount(world), icRodWorld_GetSegmentCount(world));

    // Three seconds of 1/60 s steps.
    for (int frame = 0; frame < 180; ++frame) {
        icRodStepStats stats;
        icResult r = icRodWorld_Step(world, 1.0 / 60, &stats);
        if (r != IC_OK || stats.nan) {
            fprintf(stderr, "rod_bundle: step %d failed: %s\n", frame, icResult_Message(r));
            icDestroyRodWorld(world);
            return 1;
        }
    }

    // Tips: the last vertex of every rod, from the world's position array (vertexCount x 3).
    const icReal *x = icRodWorld_GetPositions(world);
    double tipX[6], tipY[6];
    for (int rod = 0; rod < rodCount; ++rod) {
        icRodRange range = icRodWorld_GetRod(world, rod);
        int tip = range.vertexStart + range.vertexCount - 1;
        tipX[rod] = x[3 * tip];
        tipY[rod] = x[3 * tip + 1];
        printf("rod %d (%s) tip: (%+.4f, %+.4f, %+.4f) m\n", rod, rod < 3 ? "hanging" : "bundle",
               x[3 * tip], x[3 * tip + 1], x[3 * tip + 2]);
    }
    icDestroyRodWorld(world);

    // Hanging tips straight below their pins (x = 0), a rod length lower, within 2 cm; the
    // bundle on the ground (its tips at about their radius).
    bool ok = true;
    for (int rod = 0; rod < 3; ++rod)
        ok = ok && fabs(tipX[rod]) < 0.02 && fabs(tipY[rod] - (0.6 - lengths[rod])) < 0.02;
    for (int rod = 3; rod < rodCount; ++rod) ok = ok && fabs(tipY[rod] - 0.01) < 0.01;
    if (!ok) {
        fprintf(stderr, "rod_bundle: unexpected tip heights\n");
        return 1;
    }
    printf("ok: hanging_tip_y=%.4f,%.4f,%.4f bundle_tip_y=%.4f,%.4f,%.4f\n", tipY[0], tipY[1],
           tipY[2], tipY[3], tipY[4], tipY[5]);
    return 0;
}
