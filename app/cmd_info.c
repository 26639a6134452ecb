// SPDX-License-Identifier: MIT
// isochor info: what a tet mesh file holds: counts, volume, bounds, orientation fixes,
// quality, surface, colouring and regions.
#include "cli.h"

#include "isochor/formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out) {
    fprintf(out,
            "usage: isochor info MESH [--strict]\n"
            "  MESH      tet mesh: TetGen .ele/.node (or their basename), Gmsh .msh, VTK .vtk,\n"
            "            .vtu, MEDIT .mesh\n"
            "  --strict  refuse a mesh with some inverted tets (as scenes with \"strict\": true)\n"
            "exit status: 0 ok, 2 the mesh cannot be loaded or bad usage\n");
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
static int describe(const char *path, bool strict) {
    icLoadOptions options = {strict};
    icTetMesh mesh;
    icMeshFileInfo info;
    icOrientReport report;
    memset(&info, 0, sizeof info);
    memset(&report, 0, sizeof report);
    icDiagnostic diag = {0};
    if (icLoadMeshEx(path, &options, &mesh, NULL, &info, &report, &diag) != IC_OK) {
        printDiag(&diag);
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

int icCli_Info(int argc, char **argv) {
    const char *path = NULL;
    bool strict = false;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--strict") == 0) {
            strict = true;
        } else if (arg[0] == '-' && arg[1] != 0) {
            fprintf(stderr, "isochor info: unknown option '%s'\n", arg);
            usage(stderr);
            return 2;
        } else if (path) {
            fprintf(stderr, "isochor info: one mesh at a time ('%s' and '%s')\n", path, arg);
            usage(stderr);
            return 2;
        } else {
            path = arg;
        }
    }
    if (!path) {
        fprintf(stderr, "isochor info: no mesh given\n");
        usage(stderr);
        return 2;
    }
    return describe(path, strict);
}
