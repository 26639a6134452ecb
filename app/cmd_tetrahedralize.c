// SPDX-License-Identifier: MIT
// isochor tetrahedralize: fills a closed triangle surface with tets by running the external
// TetGen program, then reports counts and quality and writes the mesh.
#include "cli.h"

#include "isochor/formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void) {
    fprintf(
        stderr,
        "usage: isochor tetrahedralize IN.obj|ply|stl|off OUT [--max-volume V] [--quality Q]\n"
        "                              [--tetgen PROGRAM] [--keep-temp]\n"
        "  OUT           .ele/.node, .msh, .vtu, .vtk or .mesh\n"
        "  --max-volume  largest tet volume in cubic metres (default: no limit)\n"
        "  --quality     radius-edge ratio bound, >= 1.1 (default 1.414; 0 = no refinement)\n"
        "Needs Debian's tetgen program (apt-get install tetgen); it runs as a separate process.\n");
}

static bool parseReal(const char *text, double *value) {
    char *end;
    *value = strtod(text, &end);
    return end != text && *end == 0;
}

int icCli_Tetrahedralize(int argc, char **argv) {
    const char *in = NULL, *out = NULL;
    icTetrahedralizeDef def = icDefaultTetrahedralizeDef();
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if ((strcmp(a, "--max-volume") == 0 || strcmp(a, "--quality") == 0 ||
             strcmp(a, "--tetgen") == 0) &&
            i + 1 >= argc) {
            fprintf(stderr, "isochor tetrahedralize: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--max-volume") == 0) {
            if (!parseReal(argv[++i], &def.maxVolume) || !(def.maxVolume > 0)) {
                fprintf(stderr, "isochor tetrahedralize: --max-volume wants a positive number\n");
                return 2;
            }
        } else if (strcmp(a, "--quality") == 0) {
            if (!parseReal(argv[++i], &def.quality) ||
                (def.quality != 0 && !(def.quality >= 1.0))) {
                fprintf(stderr, "isochor tetrahedralize: --quality wants 0 or a ratio >= 1\n");
                return 2;
            }
        } else if (strcmp(a, "--tetgen") == 0) {
            def.program = argv[++i];
        } else if (strcmp(a, "--keep-temp") == 0) {
            def.keepFiles = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "isochor tetrahedralize: unknown option '%s'\n", a);
            usage();
            return 2;
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            usage();
            return 2;
        }
    }
    if (!in || !out) {
        usage();
        return 2;
    }
    if (!icFindProgram(def.program, NULL, 0)) {
        fprintf(stderr,
                "isochor tetrahedralize: the TetGen program '%s' is not installed.\n"
                "  On Debian or Ubuntu: apt-get install tetgen\n",
                def.program);
        return 2;
    }
    icDiagnostic diag = {0};
    char text[1400];
    icTriSurface surface;
    if (icLoadSurface(in, &surface, &diag) != IC_OK) {
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "isochor tetrahedralize: %s\n", text);
        return 2;
    }
    printf("%s: %d vertices, %d triangles\n", in, surface.vertexCount, surface.triangleCount);
    icTetMesh mesh;
    icResult result = icTetrahedralize(&surface, &def, &mesh, &diag);
    icTriSurface_Destroy(&surface);
    if (result != IC_OK) {
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "isochor tetrahedralize: %s\n", text);
        return result == IC_ERR_UNSUPPORTED ? 2 : 1;
    }
    icMeshQuality q;
    icTetMesh_Quality(&mesh, &q);
    printf("tetgen: %d vertices, %d tets, volume %.6g m^3\n", mesh.vertexCount, mesh.tetCount,
           q.totalVolume);
    printf("quality: dihedral angles %.2f to %.2f deg, smallest face angle %.2f deg, "
           "edge ratio <= %.2f, tet volume %.3g to %.3g m^3, %d inverted\n",
           q.minDihedralDeg, q.maxDihedralDeg, q.minFaceAngleDeg, q.maxEdgeRatio, q.minVolume,
           q.maxVolume, q.invertedCount);
    int status = 0;
    if (icSaveMesh(out, &mesh, false, &diag) != IC_OK) {
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "isochor tetrahedralize: %s\n", text);
        status = 1;
    } else {
        printf("wrote %s\n", out);
    }
    icTetMesh_Destroy(&mesh);
    return status;
}
