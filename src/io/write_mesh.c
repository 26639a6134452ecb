// SPDX-License-Identifier: MIT
// icSaveMesh: picks the tet mesh writer by the output file's extension.
#include "io/fmt_internal.h"

#include <stdio.h>
#include <strings.h>

static const char *extensionOf(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return (dot && (!slash || dot > slash)) ? dot : "";
}

static icResult saveVtu(const char *path, const icTetMesh *mesh, icDiagnostic *diag) {
    if (!mesh->regions)
        return icWriteVtu(path, mesh->vertexCount, mesh->positions, mesh->tetCount, mesh->tets,
                          NULL, 0, NULL, 0, diag);
    icReal *region = IC_ALLOC(icReal, mesh->tetCount);
    if (!region) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    for (int t = 0; t < mesh->tetCount; ++t) region[t] = mesh->regions[t];
    icField field = {"region", 1, region};
    icResult result = icWriteVtu(path, mesh->vertexCount, mesh->positions, mesh->tetCount,
                                 mesh->tets, NULL, 0, &field, 1, diag);
    icFree(region);
    return result;
}

icResult icSaveMesh(const char *path, const icTetMesh *mesh, bool binary, icDiagnostic *diag) {
    if (!path || !path[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no output path given");
    if (!mesh || mesh->vertexCount <= 0 || mesh->tetCount <= 0)
        return icDiag_Set(diag, IC_ERR_EMPTY, path, 0, "nothing to write");
    const char *ext = extensionOf(path);
    if (strcasecmp(ext, ".ele") == 0 || strcasecmp(ext, ".node") == 0) {
        char base[1024];
        snprintf(base, sizeof base, "%.*s", (int)(ext - path), path);
        return icSaveTetGen(base, mesh, diag);
    }
    if (strcasecmp(ext, ".msh") == 0) return icSaveGmsh(path, mesh, binary, diag);
    if (strcasecmp(ext, ".mesh") == 0) return icSaveMedit(path, mesh, diag);
    if (strcasecmp(ext, ".vtk") == 0) return icSaveVtk(path, mesh, binary, diag);
    if (strcasecmp(ext, ".vtu") == 0) return saveVtu(path, mesh, diag);
    return icDiag_Set(diag, IC_ERR_UNSUPPORTED, path, 0,
                      "cannot write '%s' meshes (.ele, .node, .msh, .mesh, .vtk, .vtu)", ext);
}
