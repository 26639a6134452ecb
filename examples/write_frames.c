// SPDX-License-Identifier: MIT
// write_frames: your own step loop with file output for ParaView.
//
// Drops a soft cube on the ground and writes the state at the start and after every step as
// a VTK XML unstructured grid (frame_NNNNN.vtu) with a point field "velocity" and cell fields
// "J" (det F) and "stress" (deviatoric stress norm, Pa); at the end a ParaView collection
// (frames.pvd) lists the frames with their times. Open frames.pvd in ParaView to play it.
// All writes are atomic: an interrupted run never leaves a half-written file.
//
//   usage: write_frames [output-dir]      (default: out/example_frames, created if missing)
//
// Build: see examples/README.md.
#include "isochor/formats.h" // icMakeDirectories, icWriteVtu, icWritePvd, icLoadPvd
#include "isochor/world.h"   // the engine

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 30

// Prints a diagnostic ("file: message [IC_ERR_X]") and returns 1.
static int fail(const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "write_frames: %s\n", text);
    return 1;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "out/example_frames";
    if (strlen(dir) > 1000) {
        fprintf(stderr, "write_frames: output folder name too long\n");
        return 1;
    }
    icDiagnostic diag = {0};
    if (icMakeDirectories(dir, &diag) != IC_OK) return fail(&diag);

    // A 10 cm cube (4 x 4 x 4 cells, 5 tets each) 5 cm above the ground.
    icTetMesh mesh = {0};
    const int cells[3] = {4, 4, 4};
    icWorld *world = icCreateWorld(NULL);
    icPlaneDef ground = icDefaultPlaneDef(); // normal +y, offset 0
    icSoftBodyDef body = icDefaultSoftBodyDef();
    body.translation = icVec3_Make(0, 0.1, 0);
    icBodyId id;
    if (!world || icGenerateBox(&mesh, icVec3_Make(0.1, 0.1, 0.1), cells, 5) != IC_OK ||
        icWorld_AddPlane(world, &ground) != IC_OK ||
        icWorld_CreateSoftBody(world, &mesh, &body, &id, &diag) != IC_OK) {
        fprintf(stderr, "write_frames: cannot build the scene: %s\n", diag.message);
        icTetMesh_Destroy(&mesh);
        icDestroyWorld(world);
        return 1;
    }
    icTetMesh_Destroy(&mesh);

    const int vertexCount = icWorld_GetVertexCount(world);
    const int tetCount = icWorld_GetTetCount(world);
    icReal *J = malloc(sizeof *J * (size_t)tetCount);
    icReal *stress = malloc(sizeof *stress * (size_t)tetCount);
    char names[FRAMES][32];    // file names relative to the .pvd's folder
    const char *files[FRAMES]; // what icWritePvd takes
    icReal times[FRAMES];
    char path[1200];
    icResult r = J && stress ? IC_OK : IC_ERR_OUT_OF_MEMORY;

    // Frame 0 is the initial state, each later one a step of 1/60 s further.
    for (int frame = 0; frame < FRAMES && r == IC_OK; ++frame) {
        if (frame > 0 && (r = icWorld_Step(world, 1.0 / 60, NULL)) != IC_OK) break;
        icWorld_GetTetFields(world, J, NULL, stress);
        // Fields: a name, 1 or 3 components, and the data (vertexCount or tetCount tuples).
        icField pointFields[1] = {{"velocity", 3, icWorld_GetVelocities(world)}};
        icField cellFields[2] = {{"J", 1, J}, {"stress", 1, stress}};
        snprintf(names[frame], sizeof names[frame], "frame_%05d.vtu", frame);
        snprintf(path, sizeof path, "%s/%s", dir, names[frame]);
        r = icWriteVtu(path, vertexCount, icWorld_GetPositions(world), tetCount,
                       icWorld_GetTets(world), pointFields, 1, cellFields, 2, &diag);
        files[frame] = names[frame];
        times[frame] = icWorld_GetTime(world);
    }
    free(J);
    free(stress);
    icDestroyWorld(world);
    if (r != IC_OK && diag.code == IC_OK) { // a step or an allocation, not a file, failed
        fprintf(stderr, "write_frames: %s\n", icResult_Message(r));
        return 1;
    }
    if (r != IC_OK) return fail(&diag);

    // The collection, then read it back to show what it holds.
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    if (icWritePvd(path, FRAMES, files, times, &diag) != IC_OK) return fail(&diag);
    icPvdList list = {0};
    if (icLoadPvd(path, &list, &diag) != IC_OK) return fail(&diag);
    printf("wrote %d frames of %d vertices, %d tets\n", list.count, vertexCount, tetCount);
    printf("first: %s (t=%.4f s)\n", list.files[0], list.times[0]);
    printf("last:  %s (t=%.4f s)\n", list.files[list.count - 1], list.times[list.count - 1]);
    int count = list.count;
    icPvdList_Destroy(&list);
    if (count != FRAMES) {
        fprintf(stderr, "write_frames: %s lists %d frames, not %d\n", path, count, FRAMES);
        return 1;
    }
    printf("ok: frames=%d pvd=%s\n", count, path);
    return 0;
}
