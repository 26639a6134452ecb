// SPDX-License-Identifier: MIT
// drop_on_ground: the smallest complete isochor program.
//
// Loads a tet mesh from a file (TetGen, Gmsh, VTK, VTU or MEDIT, chosen by content) or, with
// no argument, generates a sphere; puts it 0.3 m above a ground plane in an XPBD world with
// default settings and lets it fall for two seconds, printing the height of its lowest vertex
// and its volume ratio V/V0 as it goes. Without damping the soft body bounces, so the check at
// the end is that it reached the ground and never sank through it.
//
//   usage: drop_on_ground [mesh-file]
//
// Build: see examples/README.md.
#include "isochor/formats.h" // icLoadMesh: the formats library (isochor/io.h has it too)
#include "isochor/world.h"   // the engine: worlds, bodies, planes; includes mesh.h

#include <math.h>
#include <stdio.h>

// Prints a loader's or body's diagnostic ("file:line: message [IC_ERR_X]") and returns 1.
static int fail(const char *what, const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "drop_on_ground: %s: %s\n", what, text);
    return 1;
}

// Height (y) of the lowest vertex of the world's current state.
static double lowestY(const icWorld *world) {
    const icReal *x = icWorld_GetPositions(world);
    double y = INFINITY;
    for (int i = 0; i < icWorld_GetVertexCount(world); ++i) y = fmin(y, x[3 * i + 1]);
    return y;
}

int main(int argc, char **argv) {
    icTetMesh mesh = {0};
    icDiagnostic diag = {0};

    if (argc > 1) {
        // Rest meshes are checked and, if written with the other orientation, flipped.
        icLoadOptions options = {0}; // non-strict, a rest mesh (not a result frame)
        icOrientReport report = {0};
        if (icLoadMesh(argv[1], &options, &mesh, &report, &diag) != IC_OK)
            return fail("cannot load mesh", &diag);
        if (report.flippedAll) printf("note: all tets were flipped to positive orientation\n");
    } else {
        // Sphere of radius 0.1 m carved from a grid of 8 cells across, 5 tets per cell.
        icResult r = icGenerateSphere(&mesh, 0.1, 8, 5);
        if (r != IC_OK) {
            fprintf(stderr, "drop_on_ground: icGenerateSphere: %s\n", icResult_Message(r));
            return 1;
        }
    }
    printf("mesh: %d vertices, %d tets\n", mesh.vertexCount, mesh.tetCount);

    // The default world: XPBD, gravity -9.81 m/s^2 along y, 20 substeps per step.
    icWorld *world = icCreateWorld(NULL);
    if (!world) {
        icTetMesh_Destroy(&mesh);
        fprintf(stderr, "drop_on_ground: cannot create the world\n");
        return 1;
    }

    // Ground: the half-space y >= 0.
    icPlaneDef ground = icDefaultPlaneDef();
    ground.normal = icVec3_Make(0, 1, 0);
    ground.offset = 0;
    icResult r = icWorld_AddPlane(world, &ground);
    if (r != IC_OK) {
        fprintf(stderr, "drop_on_ground: icWorld_AddPlane: %s\n", icResult_Message(r));
        icTetMesh_Destroy(&mesh);
        icDestroyWorld(world);
        return 1;
    }

    // Whatever the file's coordinates, centre the body over the origin with its lowest point
    // 0.3 m above the ground. The world copies the mesh, so ours can go right away.
    icVec3 lower, upper;
    icTetMesh_Bounds(&mesh, &lower, &upper);
    icSoftBodyDef body = icDefaultSoftBodyDef(); // E = 100 kPa, nu = 0.45, 1000 kg/m^3
    body.translation =
        icVec3_Make(-0.5 * (lower.x + upper.x), 0.3 - lower.y, -0.5 * (lower.z + upper.z));
    icBodyId id;
    r = icWorld_CreateSoftBody(world, &mesh, &body, &id, &diag);
    icTetMesh_Destroy(&mesh);
    if (r != IC_OK) {
        icDestroyWorld(world);
        return fail("cannot create the body", &diag);
    }

    // 120 frames of 1/60 s. A step returns an error (IC_ERR_NUMERICAL) if it blows up.
    const double dt = 1.0 / 60.0;
    const int frames = 120;
    double minY = INFINITY; // lowest point over the whole run
    for (int frame = 1; frame <= frames; ++frame) {
        icStepStats stats;
        r = icWorld_Step(world, dt, &stats);
        if (r != IC_OK) {
            fprintf(stderr, "drop_on_ground: step %d failed: %s\n", frame, icResult_Message(r));
            icDestroyWorld(world);
            return 1;
        }
        minY = fmin(minY, lowestY(world));
        if (frame % 20 == 0)
            printf("t=%.3f s  lowest y=%+.5f m  V/V0=%.5f  substeps=%d\n", icWorld_GetTime(world),
                   lowestY(world), icWorld_GetVolumeRatio(world), stats.substeps);
    }

    double y = lowestY(world), ratio = icWorld_GetVolumeRatio(world);
    icDestroyWorld(world);
    // The body touched the ground (within 1 cm), never sank more than 1 cm into it, is above
    // it at the end and kept its volume within 10 %.
    if (!(fabs(minY) < 0.01) || !(y > -0.01) || !(fabs(ratio - 1) < 0.1)) {
        fprintf(stderr, "drop_on_ground: unexpected motion (min y=%g, y=%g, V/V0=%g)\n", minY, y,
                ratio);
        return 1;
    }
    printf("ok: min_lowest_y=%.5f final_lowest_y=%.5f volume_ratio=%.5f\n", minY, y, ratio);
    return 0;
}
