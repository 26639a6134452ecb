// SPDX-License-Identifier: MIT
// isochor convert: tet meshes between formats (with their point and cell fields where the
// target holds them), a mesh's boundary to a surface file, and a result (.pvd) to Blender
// surface sequences (OBJ/PLY per frame, or OBJ + PC2 point cache).
#define _GNU_SOURCE
#include "cli.h"
#include "options.h"

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

static void usage(FILE *out) {
    fprintf(out,
            "usage: isochor convert IN OUT [--binary] [--strict] [--result]\n"
            "  IN   tet mesh (.ele/.node, .msh, .vtk, .vtu, .mesh), surface (.obj, .ply, .stl,\n"
            "       .off) or result collection (.pvd)\n"
            "  OUT  .ele/.node, .msh (Gmsh 4.1), .vtu, .vtk, .mesh; .obj/.ply/.stl/.off for the\n"
            "       boundary surface; from a .pvd: NAME.pc2 (NAME.obj + Blender point cache) or\n"
            "       a pattern such as frames/f%%04d.obj (one surface file per frame). OUT's\n"
            "       folder is created. Point and cell fields are kept where OUT's format holds\n"
            "       them (.vtu, .vtk; .msh for 1, 3 or 9 components); the dropped ones are named.\n"
            "  --binary  binary .msh / .vtk\n"
            "  --strict  refuse partly inverted meshes\n"
            "  --result  IN is a frame a run wrote: read it as written, counting zero-volume and\n"
            "            inverted tets instead of refusing them (always so for a .pvd's frames)\n"
            "exit status: 0 ok, 1 writing failed, 2 the input cannot be read or bad usage\n");
}

// Makes OUT's folder (mkdir -p of its parent) so a conversion can write into a new folder.
static bool makeParent(const char *out) {
    const char *slash = strrchr(out, '/');
    if (!slash || slash == out) return true;
    char dir[1024];
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
    icDiagnostic diag = {0};
    if (icMakeDirectories(dir, &diag) == IC_OK) return true;
    printDiag(&diag);
    return false;
}

static void describe(const char *path, const icTetMesh *mesh, const icMeshFileInfo *info,
                     const icOrientReport *report, bool result) {
    printf("%s: %s, %d vertices, %d tets, volume %.6g m^3\n", path, info->formatName,
           mesh->vertexCount, mesh->tetCount, icTetMesh_Volume(mesh, NULL));
    if (info->skippedElements)
        printf("  skipped %d elements that are not tetrahedra\n", info->skippedElements);
    if (info->quadraticTets)
        printf("  note: %d quadratic (10-node) tets read as linear tets from their corners\n",
               info->quadraticTets);
    if (info->droppedVertices) printf("  dropped %d vertices no tet uses\n", info->droppedVertices);
    if (info->ignoredTrailingRecords)
        printf("  note: %d records after the header's count ignored (as TetGen does)\n",
               info->ignoredTrailingRecords);
    if (info->skippedFields)
        printf("  note: %d data views not read (element-node data, or views missing values)\n",
               info->skippedFields);
    if (info->hasRegions) printf("  regions: per-tet ids kept\n");
    if (result) {
        if (report->degenerateCount || report->invertedCount)
            printf("  note: result frame with %d zero-volume and %d inverted tets, kept as "
                   "written\n",
                   report->degenerateCount, report->invertedCount);
        return;
    }
    if (report->flippedAll) printf("  orientation: every tet was reordered to positive volume\n");
    if (report->invertedCount)
        printf("  warning: %d tets are inverted (kept; use --strict to refuse)\n",
               report->invertedCount);
}

// Names on stderr the fields that OUT does not hold (all of them when mesh is NULL: a
// surface or point cache holds none).
static void noteDropped(const char *out, const icTetMesh *mesh, const icMeshFields *fields) {
    int dropped = 0;
    for (int f = 0; fields && f < fields->count; ++f) {
        const icMeshField *field = &fields->items[f];
        if (mesh && icSaveMesh_KeepsField(out, mesh, field)) continue;
        fprintf(stderr, "%s%s (%s, %d component%s)",
                dropped++ ? ", " : "isochor convert: note: dropped fields ", field->name,
                field->perCell ? "cell" : "point", field->components,
                field->components == 1 ? "" : "s");
    }
    if (dropped) fprintf(stderr, ": %s cannot hold them\n", out);
}

// The load failed the rest-mesh checks: a frame a run wrote may well hold such tets.
static void hintResult(icResult result) {
    if (result == IC_ERR_DEGENERATE_ELEMENT || result == IC_ERR_INVERTED_ELEMENT)
        fprintf(stderr, "isochor convert: if this is a frame a run wrote, pass --result to read "
                        "it as written\n");
}

// A printf pattern with exactly one integer conversion (%d, %04d, ...).
static bool isFramePattern(const char *s) {
    const char *p = strchr(s, '%');
    if (!p) return false;
    ++p;
    while (*p >= '0' && *p <= '9') ++p;
    return *p == 'd' && !strchr(p, '%');
}

// The frames with zero-volume or inverted tets, for one note after the conversion.
typedef struct icFrameNotes {
    int frames, degenerate, inverted, first;
} icFrameNotes;

static void noteFrame(icFrameNotes *notes, int frame, const icOrientReport *report) {
    if (!report->degenerateCount && !report->invertedCount) return;
    if (notes->frames++ == 0) notes->first = frame;
    notes->degenerate += report->degenerateCount;
    notes->inverted += report->invertedCount;
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
    if (!makeParent(out)) {
        icPvdList_Destroy(&list);
        return 1;
    }
    icPointCacheWriter writer;
    icTriSurface first = {0};
    icFrameNotes notes = {0};
    const icLoadOptions frameOptions = {.resultFrame = true};
    int status = 0, written = 0;
    for (int f = 0; f < list.count && status == 0; ++f) {
        icTetMesh mesh;
        icMeshFields fields;
        icOrientReport report;
        if (icLoadMeshEx(list.files[f], &frameOptions, &mesh, &fields, NULL, &report, &diag) !=
            IC_OK) {
            printDiag(&diag);
            status = 2;
            break;
        }
        noteFrame(&notes, f, &report);
        if (f == 0) noteDropped(out, NULL, &fields);
        icMeshFields_Destroy(&fields);
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
    if (notes.frames)
        printf("note: %d frame%s (first: frame %d) hold %d zero-volume and %d inverted tets in "
               "all, converted as written\n",
               notes.frames, notes.frames == 1 ? "" : "s", notes.first, notes.degenerate,
               notes.inverted);
    icTriSurface_Destroy(&first);
    icPvdList_Destroy(&list);
    return status;
}

static int convertSurface(const char *in, const char *out) {
    icDiagnostic diag = {0};
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
    } else if (!makeParent(out)) {
        status = 1;
    } else if (icSaveSurface(out, &surface, &diag) != IC_OK) {
        printDiag(&diag);
        status = 1;
    } else {
        printf("wrote %s\n", out);
    }
    icTriSurface_Destroy(&surface);
    return status;
}

static int convertMesh(const char *in, const char *out, bool binary, bool strict, bool result) {
    icDiagnostic diag = {0};
    icLoadOptions options = {.strict = strict, .resultFrame = result};
    icTetMesh mesh;
    icMeshFields fields;
    icMeshFileInfo info;
    icOrientReport report;
    icResult loaded = icLoadMeshEx(in, &options, &mesh, &fields, &info, &report, &diag);
    if (loaded != IC_OK) {
        printDiag(&diag);
        if (!result) hintResult(loaded);
        return 2;
    }
    describe(in, &mesh, &info, &report, result);
    int status = 0;
    if (!makeParent(out)) {
        status = 1;
    } else if (isSurfaceExtension(extensionOf(out))) {
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
                noteDropped(out, NULL, &fields);
            }
            icTriSurface_Destroy(&surface);
        }
    } else {
        icResult saved = icSaveMeshWithFields(out, &mesh, &fields, binary, &diag);
        if (saved != IC_OK) {
            printDiag(&diag);
            status = saved == IC_ERR_UNSUPPORTED ? 2 : 1;
        } else {
            printf("wrote %s\n", out);
            noteDropped(out, &mesh, &fields);
        }
    }
    icMeshFields_Destroy(&fields);
    icTetMesh_Destroy(&mesh);
    return status;
}

int icCli_Convert(int argc, char **argv) {
    static const struct option options[] = {{"binary", no_argument, NULL, 'b'},
                                            {"strict", no_argument, NULL, 's'},
                                            {"result", no_argument, NULL, 'r'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    icCliOptions cli;
    if (!icCliOptions_Begin(&cli, "isochor convert", argc, argv, options, "h")) return 1;
    bool binary = false, strict = false, result = false;
    int status = -1, c;
    const char *value;
    while (status < 0 && (c = icCliOptions_Next(&cli, &value)) != 0) {
        if (c == 'b') {
            binary = true;
        } else if (c == 's') {
            strict = true;
        } else if (c == 'r') {
            result = true;
        } else if (c == 'h') {
            usage(stdout);
            status = 0;
        } else {
            usage(stderr);
            status = 2;
        }
    }
    int positional = cli.operandCount;
    if (status < 0 && positional != 2) {
        fprintf(stderr, "isochor convert: %s\n",
                positional < 2 ? "needs IN and OUT" : "one input and one output only");
        usage(stderr);
        status = 2;
    }
    if (status < 0) {
        const char *in = cli.operands[0], *out = cli.operands[1];
        if (strcasecmp(extensionOf(in), ".pvd") == 0)
            status = convertCollection(in, out);
        else if (isSurfaceExtension(extensionOf(in)))
            status = convertSurface(in, out);
        else
            status = convertMesh(in, out, binary, strict, result);
    }
    icCliOptions_End(&cli);
    return status;
}
