// SPDX-License-Identifier: MIT
// isochor convert: tet meshes between formats, a mesh's boundary to a surface file, and a
// result (.pvd) to Blender surface sequences (OBJ/PLY per frame, or OBJ + PC2 point cache).
#include "cli.h"

#include "isochor/formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *extensionOf(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return (dot && (!slash || dot > slash)) ? dot : "";
}

static bool isSurfaceExtension(const char *ext) {
    return strcasecmp(ext, ".obj") == 0 || strcasecmp(ext, ".ply") == 0 ||
           strcasecmp(ext, ".stl") == 0 || strcasecmp(ext, ".off") == 0;
}

static void printDiag(const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "isochor convert: %s\n", text);
}

static void usage(void) {
    fprintf(stderr,
            "usage: isochor convert IN OUT [--binary] [--strict]\n"
            "  IN   tet mesh (.ele/.node, .msh, .vtk, .vtu, .mesh), surface (.obj, .ply, .stl,\n"
            "       .off) or result collection (.pvd)\n"
            "  OUT  .ele/.node, .msh (Gmsh 4.1), .vtu, .vtk, .mesh; .obj/.ply/.stl/.off for the\n"
            "       boundary surface; from a .pvd: NAME.pc2 (NAME.obj + Blender point cache) or\n"
            "       a pattern such as frames/f%%04d.obj (one surface file per frame)\n"
            "  --binary  binary .msh / .vtk\n"
            "  --strict  refuse partly inverted meshes\n");
}

static void describe(const char *path, const icTetMesh *mesh, const icMeshFileInfo *info,
                     const icOrientReport *report) {
    printf("%s: %s, %d vertices, %d tets, volume %.6g m^3\n", path, info->formatName,
           mesh->vertexCount, mesh->tetCount, icTetMesh_Volume(mesh, NULL));
    if (info->skippedElements)
        printf("  skipped %d elements that are not tetrahedra\n", info->skippedElements);
    if (info->quadraticTets)
        printf("  note: %d quadratic (10-node) tets read as linear tets from their corners\n",
               info->quadraticTets);
    if (info->droppedVertices) printf("  dropped %d vertices no tet uses\n", info->droppedVertices);
    if (info->hasRegions) printf("  regions: per-tet ids kept\n");
    if (report->flippedAll) printf("  orientation: every tet was reordered to positive volume\n");
    if (report->invertedCount)
        printf("  warning: %d tets are inverted (kept; use --strict to refuse)\n",
               report->invertedCount);
}

// A printf pattern with exactly one integer conversion (%d, %04d, ...).
static bool isFramePattern(const char *s) {
    const char *p = strchr(s, '%');
    if (!p) return false;
    ++p;
    while (*p >= '0' && *p <= '9') ++p;
    return *p == 'd' && !strchr(p, '%');
}

static int convertCollection(const char *in, const char *out) {
    icDiagnostic diag = {0};
    icPvdList list;
    if (icLoadPvd(in, &list, &diag) != IC_OK) {
        printDiag(&diag);
        return 2;
    }
    bool cache = strcasecmp(extensionOf(out), ".pc2") == 0;
    if (!cache && !(isFramePattern(out) && isSurfaceExtension(extensionOf(out)))) {
        fprintf(stderr,
                "isochor convert: from a .pvd write NAME.pc2 or a pattern like f%%04d.obj\n");
        icPvdList_Destroy(&list);
        return 2;
    }
    if (!cache) {
        // A frame sequence goes into its own folder: make it.
        const char *slash = strrchr(out, '/');
        if (slash && slash != out) {
            char dir[1024];
            snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
            if (icMakeDirectories(dir, &diag) != IC_OK) {
                printDiag(&diag);
                icPvdList_Destroy(&list);
                return 1;
            }
        }
    }
    icPointCacheWriter writer;
    icTriSurface first = {0};
    int status = 0, written = 0;
    for (int f = 0; f < list.count && status == 0; ++f) {
        icTetMesh mesh;
        if (icLoadMesh(list.files[f], NULL, &mesh, NULL, &diag) != IC_OK) {
            printDiag(&diag);
            status = 2;
            break;
        }
        icTriSurface surface;
        if (icTriSurface_FromTetMesh(&surface, &mesh, NULL) != IC_OK) {
            fprintf(stderr, "isochor convert: cannot extract the surface of %s\n", list.files[f]);
            icTetMesh_Destroy(&mesh);
            status = 1;
            break;
        }
        if (cache) {
            if (f == 0) {
                // The OBJ fixes the vertex order every cached frame follows.
                char objPath[1100];
                snprintf(objPath, sizeof objPath, "%.*s.obj", (int)(extensionOf(out) - out), out);
                if (icSaveSurfaceObj(objPath, &surface, &diag) != IC_OK ||
                    icPointCache_Open(&writer, out, surface.vertexCount, 0.0f, 1.0f, &diag) !=
                        IC_OK) {
                    printDiag(&diag);
                    status = 1;
                } else {
                    printf("wrote %s (%d vertices, %d triangles)\n", objPath, surface.vertexCount,
                           surface.triangleCount);
                    first = surface;
                    memset(&surface, 0, sizeof surface);
                }
            }
            if (status == 0 && (mesh.vertexCount <= 0 || first.vertexCount == 0)) status = 1;
            if (status == 0) {
                // Same mesh every frame: the first frame's map picks the surface vertices.
                bool same = true;
                for (int i = 0; i < first.vertexCount && same; ++i)
                    same = first.meshVertex[i] < mesh.vertexCount;
                if (!same) {
                    fprintf(stderr, "isochor convert: %s has fewer vertices than the first frame\n",
                            list.files[f]);
                    status = 2;
                } else if (icPointCache_Append(&writer, mesh.positions, first.meshVertex, &diag) !=
                           IC_OK) {
                    printDiag(&diag);
                    status = 1;
                }
            }
        } else {
            char path[1100];
            snprintf(path, sizeof path, out, f);
            if (icSaveSurface(path, &surface, &diag) != IC_OK) {
                printDiag(&diag);
                status = 1;
            }
        }
        if (status == 0) ++written;
        icTriSurface_Destroy(&surface);
        icTetMesh_Destroy(&mesh);
    }
    if (cache && first.vertexCount > 0) {
        if (status == 0 && icPointCache_Close(&writer, &diag) != IC_OK) {
            printDiag(&diag);
            status = 1;
        } else if (status != 0) {
            icPointCache_Abort(&writer);
        }
    }
    if (status == 0) printf("wrote %s: %d frames\n", out, written);
    icTriSurface_Destroy(&first);
    icPvdList_Destroy(&list);
    return status;
}

int icCli_Convert(int argc, char **argv) {
    const char *in = NULL, *out = NULL;
    bool binary = false, strict = false;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--binary") == 0) {
            binary = true;
        } else if (strcmp(argv[i], "--strict") == 0) {
            strict = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage();
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "isochor convert: unknown option '%s'\n", argv[i]);
            usage();
            return 2;
        } else if (!in) {
            in = argv[i];
        } else if (!out) {
            out = argv[i];
        } else {
            usage();
            return 2;
        }
    }
    if (!in || !out) {
        usage();
        return 2;
    }
    if (strcasecmp(extensionOf(in), ".pvd") == 0) return convertCollection(in, out);

    icDiagnostic diag = {0};
    if (isSurfaceExtension(extensionOf(in))) {
        icTriSurface surface;
        if (icLoadSurface(in, &surface, &diag) != IC_OK) {
            printDiag(&diag);
            return 2;
        }
        printf("%s: %d vertices, %d triangles\n", in, surface.vertexCount, surface.triangleCount);
        int status = 0;
        if (!isSurfaceExtension(extensionOf(out))) {
            fprintf(stderr, "isochor convert: a surface converts to .obj, .ply, .stl or .off; "
                            "use `isochor tetrahedralize` for tets\n");
            status = 2;
        } else if (icSaveSurface(out, &surface, &diag) != IC_OK) {
            printDiag(&diag);
            status = 1;
        } else {
            printf("wrote %s\n", out);
        }
        icTriSurface_Destroy(&surface);
        return status;
    }

    icLoadOptions options = {strict};
    icTetMesh mesh;
    icMeshFileInfo info;
    icOrientReport report;
    if (icLoadMeshEx(in, &options, &mesh, NULL, &info, &report, &diag) != IC_OK) {
        printDiag(&diag);
        return 2;
    }
    describe(in, &mesh, &info, &report);
    int status = 0;
    if (isSurfaceExtension(extensionOf(out))) {
        icTriSurface surface;
        if (icTriSurface_FromTetMesh(&surface, &mesh, NULL) != IC_OK) {
            fprintf(stderr, "isochor convert: cannot extract the boundary surface\n");
            status = 1;
        } else {
            if (icSaveSurface(out, &surface, &diag) != IC_OK) {
                printDiag(&diag);
                status = 1;
            } else {
                printf("wrote %s: boundary surface, %d vertices, %d triangles\n", out,
                       surface.vertexCount, surface.triangleCount);
            }
            icTriSurface_Destroy(&surface);
        }
    } else {
        icResult result = icSaveMesh(out, &mesh, binary, &diag);
        if (result != IC_OK) {
            printDiag(&diag);
            status = result == IC_ERR_UNSUPPORTED ? 2 : 1;
        } else {
            printf("wrote %s\n", out);
        }
    }
    icTetMesh_Destroy(&mesh);
    return status;
}
