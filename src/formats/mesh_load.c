// SPDX-License-Identifier: MIT
// icLoadMesh: picks a reader by content and extension, then checks and orients the mesh (a
// result frame is only checked, never reoriented).
#define _POSIX_C_SOURCE 200809L
#include "formats/files_internal.h"
#include "formats/fmt_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *extensionOf(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return (dot && (!slash || dot > slash)) ? dot : "";
}

// TetGen names its outputs "x.1.node": a basename with a dot is still a TetGen basename
// when "basename.ele" exists.
static bool isTetGenBasename(const char *path) {
    char ele[1100];
    int n = snprintf(ele, sizeof ele, "%s.ele", path);
    return n > 0 && (size_t)n < sizeof ele && access(ele, F_OK) == 0;
}

static icMeshFormat formatOfExtension(const char *path) {
    const char *ext = extensionOf(path);
    if (strcasecmp(ext, ".ele") == 0 || strcasecmp(ext, ".node") == 0 || ext[0] == 0 ||
        isTetGenBasename(path))
        return IC_FORMAT_TETGEN;
    if (strcasecmp(ext, ".msh") == 0) return IC_FORMAT_GMSH;
    if (strcasecmp(ext, ".vtk") == 0) return IC_FORMAT_VTK;
    if (strcasecmp(ext, ".vtu") == 0) return IC_FORMAT_VTU;
    if (strcasecmp(ext, ".mesh") == 0) return IC_FORMAT_MEDIT;
    return IC_FORMAT_UNKNOWN;
}

icMeshFormat icDetectMeshFormat(const char *path) {
    // Content first: a file's own header beats its name.
    char head[512] = {0};
    size_t got = 0;
    // Only a regular file is opened here: a FIFO would block the open; the reader reports it.
    FILE *fp = path && icRequireRegularFile(path, NULL) == IC_OK ? fopen(path, "rb") : NULL;
    if (fp) {
        got = fread(head, 1, sizeof head, fp);
        fclose(fp);
    }
    icMeshFormat format = icFmt_SniffMesh(head, got);
    return format != IC_FORMAT_UNKNOWN ? format : formatOfExtension(path ? path : "");
}

const char *icMeshFormat_Name(icMeshFormat format) {
    static const char *names[] = {"unknown", "tetgen", "gmsh", "vtk", "vtu", "medit"};
    return (unsigned)format < sizeof names / sizeof names[0] ? names[format] : "unknown";
}

// Reads one of the in-memory formats and checks the mesh (as a rest mesh or as a result frame),
// naming the line of a tet the check rejects when the reader recorded lines.
static icResult loadParsed(const char *path, icMeshFormat format, bool strict, bool resultFrame,
                           icTetMesh *mesh, icMeshFields *fields, icMeshFileInfo *info,
                           icOrientReport *report, icDiagnostic *diag) {
    char *text;
    size_t size;
    icResult result = icReadFile(path, &text, &size, diag);
    if (result != IC_OK) return result;
    icReadOut out = {mesh, fields, info, NULL};
    switch (format) {
    case IC_FORMAT_GMSH: result = icFmt_ReadGmsh(path, text, size, &out, diag); break;
    case IC_FORMAT_VTK: result = icFmt_ReadVtk(path, text, size, &out, diag); break;
    case IC_FORMAT_VTU: result = icFmt_ReadVtu(path, text, size, &out, diag); break;
    default: result = icFmt_ReadMedit(path, text, size, &out, diag); break;
    }
    icFree(text);
    if (result == IC_OK) {
        icDiagnostic check = {0};
        check.element = -1;
        result = resultFrame ? icTetMesh_CheckFrame(mesh, report, &check)
                             : icTetMesh_Check(mesh, strict, report, &check);
        if (result != IC_OK) {
            bool tetProblem = result != IC_ERR_NOT_FINITE && result != IC_ERR_EMPTY;
            int line = (out.tetLines && tetProblem && check.element >= 0 &&
                        check.element < mesh->tetCount)
                           ? out.tetLines[check.element]
                           : 0;
            icDiag_Set(diag, result, path, line, "%s", check.message);
            if (diag) diag->element = check.element;
        }
    }
    icFree(out.tetLines);
    return result;
}

icResult icLoadMeshEx(const char *path, const icLoadOptions *options, icTetMesh *mesh,
                      icMeshFields *fields, icMeshFileInfo *info, icOrientReport *report,
                      icDiagnostic *diag) {
    memset(mesh, 0, sizeof *mesh);
    if (fields) memset(fields, 0, sizeof *fields);
    icMeshFileInfo localInfo;
    if (!info) info = &localInfo;
    memset(info, 0, sizeof *info);
    icOrientReport localReport;
    if (!report) report = &localReport;
    memset(report, 0, sizeof *report);
    if (!path || !path[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no mesh path given");
    bool strict = options ? options->strict : false;
    bool resultFrame = options ? options->resultFrame : false;

    icMeshFormat format = icDetectMeshFormat(path);
    info->format = format;
    icResult result;
    if (format == IC_FORMAT_TETGEN) {
        // The TetGen reader runs the check itself, so its failures carry the file line.
        snprintf(info->formatName, sizeof info->formatName, "tetgen");
        result = icLoadTetGenChecked(path, strict, resultFrame, mesh, report, info, diag);
    } else if (format != IC_FORMAT_UNKNOWN) {
        result = loadParsed(path, format, strict, resultFrame, mesh, fields, info, report, diag);
    } else {
        return icDiag_Set(diag, IC_ERR_UNSUPPORTED, path, 0,
                          "unknown mesh format '%s' (expected .ele, .node, .msh, .vtk, .vtu or .mesh)",
                          extensionOf(path));
    }
    if (result != IC_OK) {
        icTetMesh_Destroy(mesh);
        if (fields) icMeshFields_Destroy(fields);
    }
    return result;
}

icResult icLoadMesh(const char *path, const icLoadOptions *options, icTetMesh *mesh,
                    icOrientReport *report, icDiagnostic *diag) {
    return icLoadMeshEx(path, options, mesh, NULL, NULL, report, diag);
}
