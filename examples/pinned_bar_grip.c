// SPDX-License-Identifier: MIT
// pinned_bar_grip: boundary conditions and per-tet stress.
//
// A 40 cm bar along x is held fixed at its left end by one pin box, while a second pin box
// (the "grip") catches the right end and pulls it 2 cm further along +x over half a second
// (an icMotion: translation at a constant velocity inside a time window), then holds it.
// Each reported frame reads the per-tet fields J = det F and the deviatoric stress norm
// |P_D| (icWorld_GetTetFields) and prints their extremes.
//
// Two things worth knowing:
// - The fields come from the XPBD solver's constraint multipliers; with the Newton or the
//   incompressible solver the pressure and stress arrays read 0 (J is always filled).
// - |P_D| is the norm of the deviatoric term of the stable Neo-Hookean energy, mu F, so a tet
//   at rest already shows mu |I| = mu sqrt(3); it is the change from that value that the
//   stretch adds.
//
//   usage: pinned_bar_grip
//
// Build: see examples/README.md.
#include "isochor/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    // Bar 0.4 x 0.05 x 0.05 m centred at the origin: 16 x 2 x 2 hex cells of 6 tets each.
    icTetMesh mesh = {0};
    const int cells[3] = {16, 2, 2};
    icResult r = icGenerateBox(&mesh, icVec3_Make(0.4, 0.05, 0.05), cells, 6);
    if (r != IC_OK) {
        fprintf(stderr, "pinned_bar_grip: icGenerateBox: %s\n", icResult_Message(r));
        return 1;
    }

    icWorldDef worldDef = icDefaultWorldDef();
    worldDef.gravity = icVec3_Make(0, 0, 0); // pure stretching, no sag
    worldDef.linearDamping = 20;             // 1/s: settles the vibrations the pull excites
    // XPBD is accurate when a substep is shorter than the stiffest tet's wave time
    // sqrt(rho / E) x shortest edge (here ~0.8 ms); the default 20 substeps of a 1/60 s frame
    // are just above it and leave a stiff body too soft (about 3 % volume gain instead of 0.6 %).
    worldDef.substeps = 100;
    icWorld *world = icCreateWorld(&worldDef);
    if (!world) {
        icTetMesh_Destroy(&mesh);
        fprintf(stderr, "pinned_bar_grip: cannot create the world\n");
        return 1;
    }

    icSoftBodyDef bodyDef = icDefaultSoftBodyDef();
    bodyDef.youngsModulus = 1e6; // Pa, a firm rubber
    bodyDef.poissonRatio = 0.45;
    icBodyId bar;
    icDiagnostic diag = {0};
    r = icWorld_CreateSoftBody(world, &mesh, &bodyDef, &bar, &diag);
    icTetMesh_Destroy(&mesh); // the world keeps its own copy
    if (r != IC_OK) {
        char text[1400];
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "pinned_bar_grip: cannot create the body: %s\n", text);
        icDestroyWorld(world);
        return 1;
    }

    // Pin boxes are in world coordinates at the time of pinning; each catches the vertices
    // within 1 mm of an end face (the cells are 2.5 cm long, so one layer of vertices).
    icPinDef fixed = icDefaultPinDef(); // all three axes held, no motion
    fixed.boxMin = icVec3_Make(-0.201, -1, -1);
    fixed.boxMax = icVec3_Make(-0.199, 1, 1);

    icPinDef grip = icDefaultPinDef();
    grip.boxMin = icVec3_Make(0.199, -1, -1);
    grip.boxMax = icVec3_Make(0.201, 1, 1);
    grip.motionCount = 1;
    grip.motions[0] = icDefaultMotion();                // no rotation, window [0, inf)
    grip.motions[0].velocity = icVec3_Make(0.04, 0, 0); // m/s along +x ...
    grip.motions[0].start = 0;
    grip.motions[0].end = 0.5; // ... for 0.5 s: 2 cm, a nominal strain of 5 %

    int fixedCount = 0, gripCount = 0;
    if ((r = icBody_AddPin(world, bar, &fixed, &fixedCount)) != IC_OK ||
        (r = icBody_AddPin(world, bar, &grip, &gripCount)) != IC_OK || !fixedCount || !gripCount) {
        fprintf(stderr, "pinned_bar_grip: pinning failed: %s (%d and %d vertices caught)\n",
                icResult_Message(r), fixedCount, gripCount);
        icDestroyWorld(world);
        return 1;
    }
    printf("pinned %d vertices, gripped %d\n", fixedCount, gripCount);

    int tetCount = icWorld_GetTetCount(world);
    icReal *J = malloc(sizeof *J * (size_t)tetCount);
    icReal *stress = malloc(sizeof *stress * (size_t)tetCount);
    if (!J || !stress) {
        fprintf(stderr, "pinned_bar_grip: out of memory\n");
        free(J), free(stress), icDestroyWorld(world);
        return 1;
    }

    icReal mu, lambda;
    icLame(bodyDef.youngsModulus, bodyDef.poissonRatio, &mu, &lambda);
    const double restStress = mu * sqrt(3.0);
    printf("|P_D| at rest: mu sqrt(3) = %.1f Pa\n", restStress);

    double maxStress = 0, maxJError = 0;
    const double dt = 1.0 / 60.0;
    for (int frame = 1; frame <= 60 && r == IC_OK; ++frame) {
        r = icWorld_Step(world, dt, NULL);
        if (r != IC_OK) break;
        // Fields of the current state: any pointer may be NULL (pressure is not wanted here).
        icWorld_GetTetFields(world, J, NULL, stress);
        maxStress = maxJError = 0;
        for (int t = 0; t < tetCount; ++t) {
            maxStress = fmax(maxStress, stress[t]);
            maxJError = fmax(maxJError, fabs(J[t] - 1));
        }
        if (frame % 10 == 0)
            printf("t=%.3f s  max |P_D|=%9.1f Pa  max |J-1|=%.5f  V/V0=%.5f\n",
                   icWorld_GetTime(world), maxStress, maxJError, icWorld_GetVolumeRatio(world));
    }
    free(J);
    free(stress);
    icDestroyWorld(world);
    if (r != IC_OK) {
        fprintf(stderr, "pinned_bar_grip: step failed: %s\n", icResult_Message(r));
        return 1;
    }
    // A 5 % stretch with lateral contraction changes |F| by about 1 %: |P_D| rises a few kPa
    // above its rest value. With nu = 0.45 tets change volume by a few percent at most.
    if (!(maxStress > restStress + 1e3 && maxStress < restStress + 1e6) || !(maxJError < 0.05)) {
        fprintf(stderr, "pinned_bar_grip: unexpected fields (stress %g, |J-1| %g)\n", maxStress,
                maxJError);
        return 1;
    }
    printf("ok: max_stress_norm=%.1f max_abs_J_minus_1=%.5f\n", maxStress, maxJError);
    return 0;
}
