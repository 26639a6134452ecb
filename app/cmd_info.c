// SPDX-License-Identifier: MIT
// isochor info: what a tet mesh file holds: counts, volume, bounds, orientation fixes,
// quality, surface, colouring and regions; what a result (.pvd) holds frame by frame; a
// scene's pre-flight notes.
#define _GNU_SOURCE
#include "cli.h"
#include "options.h"

#include "isochor/formats.h"
#include "isochor/scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void usage(FILE *out) {
    fprintf(
        out,
        "usage: isochor info MESH [--strict | --result]\n"
        "       isochor info RESULT.pvd [--frame N]\n"
        "       isochor info --scene SCENE.json [--max-memory BYTES] [--max-scene-size BYTES]\n"
        "  MESH        tet mesh: TetGen .ele/.node (or their basename), Gmsh .msh, VTK .vtk,\n"
        "              .vtu, MEDIT .mesh; checked as a rest mesh (zero-volume tets refused)\n"
        "  --strict    refuse a mesh with some inverted tets (as scenes with \"strict\": true)\n"
        "  --result    MESH is a frame a run wrote: read it as written, counting zero-volume\n"
        "              and inverted tets instead of refusing them\n"
        "  RESULT.pvd  a run's frames, each read as a result: one line per frame with\n"
        "              zero-volume or inverted tets, then the volume range\n"
        "  --frame N   describe frame N of RESULT.pvd in full\n"
        "  --scene     the scene's pre-flight notes: each body's size, mass, sag under its\n"
        "              own weight, the substep against its stiffest element, units hints\n"
        "  --max-memory BYTES, --max-scene-size BYTES  limits of loading the scene, as in\n"
        "              isochor run (K, M, G, T suffixes; defaults half the physical memory, 64M)\n"
        "exit status: 0 ok, 2 the mesh, a frame or the scene cannot be loaded, or bad usage\n");
}

static void printDiag(const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "isochor info: %s\n", text);
}

static int compareInts(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void printRegions(const icTetMesh *mesh) {
    if (!mesh->regions || mesh->tetCount == 0) return;
    int *ids = malloc(sizeof(int) * (size_t)mesh->tetCount);
    if (!ids) {
        printf("regions        (out of memory counting them)\n");
        return;
    }
    memcpy(ids, mesh->regions, sizeof(int) * (size_t)mesh->tetCount);
    qsort(ids, (size_t)mesh->tetCount, sizeof(int), compareInts);
    int distinct = 1;
    for (int t = 1; t < mesh->tetCount; ++t) distinct += ids[t] != ids[t - 1];
    printf("regions        %d distinct id%s, %d .. %d\n", distinct, distinct == 1 ? "" : "s",
           ids[0], ids[mesh->tetCount - 1]);
    free(ids);
}

// A result frame is never reoriented: what it holds is reported as found.
static void printFrameState(const icOrientReport *report) {
    if (report->degenerateCount == 0 && report->invertedCount == 0) {
        printf("state          all tets positive (result frame, read as written)\n");
        return;
    }
    printf("state          %d zero-volume and %d inverted tets (result frame, read as written)\n",
           report->degenerateCount, report->invertedCount);
    if (report->degenerateCount > 0) {
        int shown = report->degenerateCount < 8 ? report->degenerateCount : 8;
        printf("zero volume    ");
        for (int i = 0; i < shown; ++i) printf("%s%d", i ? ", " : "", report->firstDegenerate[i]);
        printf("%s\n", report->degenerateCount > shown ? ", ..." : "");
    }
    if (report->invertedCount > 0) {
        int shown = report->invertedCount < 8 ? report->invertedCount : 8;
        printf("inverted       ");
        for (int i = 0; i < shown; ++i) printf("%s%d", i ? ", " : "", report->firstInverted[i]);
        printf("%s\n", report->invertedCount > shown ? ", ..." : "");
    }
}

static void printOrientation(const icOrientReport *report) {
    if (report->flippedAll)
        printf("orientation    every tet was negative (the other vertex order convention): "
               "all reordered\n");
    if (report->invertedCount > 0) {
        printf("orientation    %d tet%s inverted among positive ones (kept; --strict refuses): ",
               report->invertedCount, report->invertedCount == 1 ? "" : "s");
        int shown = report->invertedCount < 8 ? report->invertedCount : 8;
        for (int i = 0; i < shown; ++i) printf("%s%d", i ? ", " : "", report->firstInverted[i]);
        printf("%s\n", report->invertedCount > shown ? ", ..." : "");
    }
    if (!report->flippedAll && report->invertedCount == 0)
        printf("orientation    all tets positive, nothing changed\n");
}

static void printNotes(const icMeshFileInfo *info) {
    if (info->skippedElements > 0)
        printf("note           skipped %d elements that are not tetrahedra\n",
               info->skippedElements);
    if (info->quadraticTets > 0)
        printf("note           %d quadratic (10-node) tets read as linear from their corners\n",
               info->quadraticTets);
    if (info->droppedVertices > 0)
        printf("note           dropped %d vertices no tet uses\n", info->droppedVertices);
    if (info->ignoredTrailingRecords > 0)
        printf("note           %d records after the header's count ignored (as TetGen does)\n",
               info->ignoredTrailingRecords);
    if (info->skippedFields > 0)
        printf("note           %d data views not read (element-node data, or views missing "
               "values)\n",
               info->skippedFields);
}

static void printQuality(const icTetMesh *mesh) {
    icMeshQuality q;
    icTetMesh_Quality(mesh, &q);
    printf("tet volume     min %.6g, max %.6g m^3\n", (double)q.minVolume, (double)q.maxVolume);
    printf("dihedral       min %.4g, max %.4g deg\n", (double)q.minDihedralDeg,
           (double)q.maxDihedralDeg);
    printf("face angle     min %.4g deg\n", (double)q.minFaceAngleDeg);
    printf("edge           min %.6g, max %.6g m; worst tet ratio %.4g\n", (double)q.minEdge,
           (double)q.maxEdge, (double)q.maxEdgeRatio);
}

// Returns 0 on success, the exit code otherwise.
static int describe(const char *path, bool strict, bool result) {
    icLoadOptions options = {.strict = strict, .resultFrame = result};
    icTetMesh mesh;
    icMeshFileInfo info;
    icOrientReport report;
    memset(&info, 0, sizeof info);
    memset(&report, 0, sizeof report);
    icDiagnostic diag = {0};
    icResult loaded = icLoadMeshEx(path, &options, &mesh, NULL, &info, &report, &diag);
    if (loaded != IC_OK) {
        printDiag(&diag);
        if (!result && (loaded == IC_ERR_DEGENERATE_ELEMENT || loaded == IC_ERR_INVERTED_ELEMENT))
            fprintf(stderr, "isochor info: if this is a frame a run wrote, pass --result to read "
                            "it as written\n");
        return 2;
    }
    printf("file           %s (%s)\n", path,
           info.formatName[0] ? info.formatName : icMeshFormat_Name(info.format));
    printf("vertices       %d\n", mesh.vertexCount);
    printf("tets           %d\n", mesh.tetCount);
    printf("volume         %.9g m^3\n", (double)icTetMesh_Volume(&mesh, NULL));
    icVec3 lo, hi;
    icTetMesh_Bounds(&mesh, &lo, &hi);
    printf("bounds         [%g, %g, %g] .. [%g, %g, %g] m (size %g x %g x %g)\n", (double)lo.x,
           (double)lo.y, (double)lo.z, (double)hi.x, (double)hi.y, (double)hi.z,
           (double)(hi.x - lo.x), (double)(hi.y - lo.y), (double)(hi.z - lo.z));
    printNotes(&info);
    if (result)
        printFrameState(&report);
    else
        printOrientation(&report);
    printQuality(&mesh);

    int *triangles = NULL, triangleCount = 0;
    if (icTetMesh_ExtractSurface(&mesh, &triangles, &triangleCount, NULL) == IC_OK)
        printf("surface        %d triangles\n", triangleCount);
    else
        printf("surface        (could not be extracted)\n");
    icFree(triangles);

    icColouring colouring;
    memset(&colouring, 0, sizeof colouring);
    if (icTetMesh_ColourGreedy(&mesh, &colouring) == IC_OK)
        printf("colours        %d (greedy, tets of one colour share no vertex)\n",
               colouring.colourCount);
    else
        printf("colours        (out of memory)\n");
    icColouring_Destroy(&colouring);

    printRegions(&mesh);
    icTetMesh_Destroy(&mesh);
    return 0;
}

// A run's frames: each read as a result; frame holds a number to describe in full, or -1
// for one line per frame with zero-volume or inverted tets and the volume range.
static int describeCollection(const char *path, int frame) {
    icDiagnostic diag = {0};
    icPvdList list;
    if (icLoadPvd(path, &list, &diag) != IC_OK) {
        printDiag(&diag);
        return 2;
    }
    int status = 0;
    if (frame >= list.count) {
        fprintf(stderr, "isochor info: frame %d does not exist (%s has %d)\n", frame, path,
                list.count);
        status = 2;
    } else if (frame >= 0) {
        printf("collection     %s, frame %d of %d, t = %g s\n", path, frame, list.count,
               (double)list.times[frame]);
        status = describe(list.files[frame], false, true);
    } else {
        printf("collection     %s\n", path);
        printf("frames         %d, t = %g .. %g s\n", list.count, (double)list.times[0],
               (double)list.times[list.count - 1]);
        const icLoadOptions options = {.resultFrame = true};
        double volumeMin = 0, volumeMax = 0;
        int flagged = 0;
        for (int f = 0; f < list.count; ++f) {
            icTetMesh mesh;
            icOrientReport report;
            if (icLoadMeshEx(list.files[f], &options, &mesh, NULL, NULL, &report, &diag) != IC_OK) {
                printDiag(&diag);
                status = 2;
                break;
            }
            double volume = icTetMesh_Volume(&mesh, NULL);
            if (f == 0) {
                printf("vertices       %d\ntets           %d\n", mesh.vertexCount, mesh.tetCount);
                volumeMin = volumeMax = volume;
            }
            volumeMin = volume < volumeMin ? volume : volumeMin;
            volumeMax = volume > volumeMax ? volume : volumeMax;
            if (report.degenerateCount > 0 || report.invertedCount > 0) {
                printf("frame %-8d %d zero-volume, %d inverted tets\n", f, report.degenerateCount,
                       report.invertedCount);
                ++flagged;
            }
            icTetMesh_Destroy(&mesh);
        }
        if (status == 0) {
            printf("volume         %.9g .. %.9g m^3 over the frames\n", volumeMin, volumeMax);
            printf("state          %d of %d frames hold zero-volume or inverted tets\n", flagged,
                   list.count);
        }
    }
    icPvdList_Destroy(&list);
    return status;
}

static int describeScene(const char *path, const icSceneLoadOptions *options) {
    icDiagnostic diag = {0};
    icScene scene;
    if (icScene_LoadWith(path, options, &scene, &diag) != IC_OK) {
        printDiag(&diag);
        return 2;
    }
    icPreflightReport report;
    int status = 0;
    if (icScene_Preflight(&scene, &report) != IC_OK) {
        fprintf(stderr, "isochor info: no pre-flight figures for %s\n", path);
        status = 2;
    } else {
        printf("scene          %s, %d bod%s, %d frame%s of %g s\n", path, report.bodyCount,
               report.bodyCount == 1 ? "y" : "ies", scene.frames, scene.frames == 1 ? "" : "s",
               (double)scene.dt);
        int warnings = icPreflight_Print(&report, stdout, "", true);
        if (warnings == 0) printf("pre-flight     no warnings\n");
    }
    icScene_Destroy(&scene);
    return status;
}

static bool isCollection(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) && strcasecmp(dot, ".pvd") == 0;
}

int icCli_Info(int argc, char **argv) {
    static const struct option options[] = {
        {"strict", no_argument, NULL, 's'},      {"result", no_argument, NULL, 'r'},
        {"frame", required_argument, NULL, 'f'}, {"scene", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},        {"max-memory", required_argument, NULL, 'M'},
        {"max-scene-size", required_argument, NULL, 'Z'}, {NULL, 0, NULL, 0}};
    icSceneLoadOptions loadOptions = icDefaultSceneLoadOptions();
    bool limits = false;
    icCliOptions cli;
    if (!icCliOptions_Begin(&cli, "isochor info", argc, argv, options, "h")) return 1;
    bool strict = false, result = false;
    const char *scene = NULL, *value;
    int frame = -1, status = -1, c;
    while (status < 0 && (c = icCliOptions_Next(&cli, &value)) != 0) {
        if (c == 's') {
            strict = true;
        } else if (c == 'r') {
            result = true;
        } else if (c == 'S') {
            scene = value;
        } else if (c == 'M' || c == 'Z') {
            limits = true;
            if (!icCli_ParseBytes(value, c == 'M' ? &loadOptions.maxMemory
                                                  : &loadOptions.maxFileBytes)) {
                fprintf(stderr,
                        "isochor info: --%s '%s' is not a number of bytes (a whole number > 0, "
                        "optionally followed by K, M, G or T)\n",
                        c == 'M' ? "max-memory" : "max-scene-size", value);
                status = 2;
            }
        } else if (c == 'f') {
            char *end;
            long n = strtol(value, &end, 10);
            if (!*value || *end || n < 0 || n > 100000000) {
                fprintf(stderr, "isochor info: --frame wants a frame number >= 0, not '%s'\n",
                        value);
                status = 2;
            }
            frame = (int)n;
        } else if (c == 'h') {
            usage(stdout);
            status = 0;
        } else {
            usage(stderr);
            status = 2;
        }
    }
    int positional = cli.operandCount;
    const char *path = positional > 0 ? cli.operands[0] : NULL;
    if (status < 0) {
        const char *problem = NULL;
        if (scene && positional > 0)
            problem = "--scene takes the scene alone, not a mesh too";
        else if (!scene && positional == 0)
            problem = "no mesh given";
        else if (positional > 1)
            problem = "one mesh at a time";
        else if (strict && result)
            problem = "--strict and --result exclude each other";
        else if (frame >= 0 && !(path && isCollection(path)))
            problem = "--frame goes with a .pvd result";
        else if (limits && !scene)
            problem = "--max-memory and --max-scene-size go with --scene";
        if (problem) {
            fprintf(stderr, "isochor info: %s\n", problem);
            usage(stderr);
            status = 2;
        }
    }
    if (status < 0) {
        if (scene)
            status = describeScene(scene, &loadOptions);
        else if (isCollection(path))
            status = describeCollection(path, frame);
        else
            status = describe(path, strict, result);
    }
    icCliOptions_End(&cli);
    return status;
}
