// SPDX-License-Identifier: MIT
// TetGen .node/.ele writer: 0-based ids, %.17g so every double reads back exactly.
#include "formats/files_internal.h"

#include <stdio.h>

static icResult writeNodes(const char *path, const icTetMesh *mesh, icDiagnostic *diag) {
    icAtomicFile file;
    icResult r = icAtomicFile_Open(&file, path, diag);
    if (r != IC_OK) return r;
    fprintf(file.fp, "# written by isochor\n%d 3 0 0\n", mesh->vertexCount);
    for (int v = 0; v < mesh->vertexCount; ++v) {
        const icReal *p = mesh->positions + 3 * v;
        fprintf(file.fp, "%d %.17g %.17g %.17g\n", v, (double)p[0], (double)p[1], (double)p[2]);
    }
    return icAtomicFile_Commit(&file, diag);
}

static icResult writeElements(const char *path, const icTetMesh *mesh, icDiagnostic *diag) {
    icAtomicFile file;
    icResult r = icAtomicFile_Open(&file, path, diag);
    if (r != IC_OK) return r;
    fprintf(file.fp, "# written by isochor\n%d 4 %d\n", mesh->tetCount, mesh->regions ? 1 : 0);
    // Local 1 and 2 swapped: TetGen's positive orientation is the mirror of mesh.h's.
    for (int t = 0; t < mesh->tetCount; ++t) {
        const int *q = mesh->tets + 4 * t;
        if (mesh->regions)
            fprintf(file.fp, "%d %d %d %d %d %d\n", t, q[0], q[2], q[1], q[3], mesh->regions[t]);
        else
            fprintf(file.fp, "%d %d %d %d %d\n", t, q[0], q[2], q[1], q[3]);
    }
    return icAtomicFile_Commit(&file, diag);
}

icResult icSaveTetGen(const char *basePath, const icTetMesh *mesh, icDiagnostic *diag) {
    if (!basePath || !basePath[0] || !mesh || mesh->vertexCount < 0 || mesh->tetCount < 0 ||
        (mesh->vertexCount > 0 && !mesh->positions) || (mesh->tetCount > 0 && !mesh->tets))
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, basePath ? basePath : "", 0,
                          "no path or an incomplete mesh");
    char nodePath[1100], elePath[1100];
    int a = snprintf(nodePath, sizeof nodePath, "%s.node", basePath);
    int b = snprintf(elePath, sizeof elePath, "%s.ele", basePath);
    if (a < 0 || (size_t)a >= sizeof nodePath || b < 0 || (size_t)b >= sizeof elePath)
        return icDiag_Set(diag, IC_ERR_IO, basePath, 0, "path is too long");
    icResult r = writeNodes(nodePath, mesh, diag);
    if (r != IC_OK) return r;
    return writeElements(elePath, mesh, diag);
}
