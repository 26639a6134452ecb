// SPDX-License-Identifier: MIT
// icSaveMesh: picks the tet mesh writer by the output file's extension, and decides which
// point and cell fields the chosen format can hold.
#include "formats/fmt_internal.h"

#include <stdio.h>
#include <strings.h>

static const char *extensionOf(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return (dot && (!slash || dot > slash)) ? dot : "";
}

// A cell field that only repeats mesh->regions: every format writes the regions its own way
// (a "region" array, physical groups, TetGen attributes, MEDIT references), so the field
// would be a second copy.
static bool isRegionCopy(const icTetMesh *mesh, const icMeshField *field) {
    if (!mesh->regions || !field->perCell || field->components != 1 ||
        !icFmt_IsRegionName(field->name))
        return false;
    for (int t = 0; t < mesh->tetCount; ++t)
        if (field->data[t] != (icReal)mesh->regions[t]) return false;
    return true;
}

// Whether a file of this extension holds the field: VTU any; legacy VTK any whose name,
// %-encoded, still fits a reader's 63 characters; Gmsh views of 1, 3 or 9 components
// (scalar, vector, tensor) with a name that can be quoted.
static bool formatHolds(const char *ext, const icMeshField *field) {
    if (strcasecmp(ext, ".vtu") == 0) return true;
    if (strcasecmp(ext, ".vtk") == 0) {
        size_t length = 0;
        for (const unsigned char *c = (const unsigned char *)field->name; *c; ++c)
            length += (*c <= ' ' || *c > '~' || *c == '%') ? 3 : 1;
        return length < 64;
    }
    if (strcasecmp(ext, ".msh") == 0)
        return (field->components == 1 || field->components == 3 || field->components == 9) &&
               !strpbrk(field->name, "\"\n\r");
    return false;
}

bool icSaveMesh_KeepsField(const char *path, const icTetMesh *mesh, const icMeshField *field) {
    if (!path || !field) return false;
    if (mesh && isRegionCopy(mesh, field)) {
        const char *ext = extensionOf(path);
        return strcasecmp(ext, ".vtu") == 0 || strcasecmp(ext, ".vtk") == 0 ||
               strcasecmp(ext, ".msh") == 0 || strcasecmp(ext, ".mesh") == 0 ||
               strcasecmp(ext, ".ele") == 0 || strcasecmp(ext, ".node") == 0;
    }
    return formatHolds(extensionOf(path), field);
}

// VTU: the regions as the cell field "region", then the fields.
static icResult saveVtu(const char *path, const icTetMesh *mesh, const icMeshFields *fields,
                        icDiagnostic *diag) {
    int count = fields ? fields->count : 0;
    icField *list = IC_ALLOC(icField, count + 1);
    icReal *region = mesh->regions ? IC_ALLOC(icReal, mesh->tetCount) : NULL;
    if (!list || (mesh->regions && !region)) {
        icFree(list), icFree(region);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    }
    int cells = 0;
    if (region) {
        for (int t = 0; t < mesh->tetCount; ++t) region[t] = mesh->regions[t];
        list[cells++] = (icField){"region", 1, region};
    }
    for (int f = 0; f < count; ++f)
        if (fields->items[f].perCell)
            list[cells++] = (icField){fields->items[f].name, fields->items[f].components,
                                      fields->items[f].data};
    int points = cells;
    for (int f = 0; f < count; ++f)
        if (!fields->items[f].perCell)
            list[points++] = (icField){fields->items[f].name, fields->items[f].components,
                                       fields->items[f].data};
    icResult result = icWriteVtu(path, mesh->vertexCount, mesh->positions, mesh->tetCount,
                                 mesh->tets, list + cells, points - cells, list, cells, diag);
    icFree(list);
    icFree(region);
    return result;
}

icResult icSaveMeshWithFields(const char *path, const icTetMesh *mesh, const icMeshFields *fields,
                              bool binary, icDiagnostic *diag) {
    if (!path || !path[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no output path given");
    if (!mesh || mesh->vertexCount <= 0 || mesh->tetCount <= 0)
        return icDiag_Set(diag, IC_ERR_EMPTY, path, 0, "nothing to write");
    const char *ext = extensionOf(path);
    int count = fields ? fields->count : 0;
    for (int f = 0; f < count; ++f) {
        const icMeshField *field = &fields->items[f];
        if (field->components < 1 || field->components > 9 || !field->data || !field->name[0])
            return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0,
                              "field %d needs a name, 1 to 9 components and data", f);
    }
    // The fields this format writes, in their order (a shallow view of the caller's).
    icMeshFields kept = {0, count ? IC_ALLOC(icMeshField, count) : NULL};
    if (count && !kept.items)
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    for (int f = 0; f < count; ++f)
        if (!isRegionCopy(mesh, &fields->items[f]) && formatHolds(ext, &fields->items[f]))
            kept.items[kept.count++] = fields->items[f];

    icResult result;
    if (strcasecmp(ext, ".ele") == 0 || strcasecmp(ext, ".node") == 0) {
        char base[1024];
        snprintf(base, sizeof base, "%.*s", (int)(ext - path), path);
        result = icSaveTetGen(base, mesh, diag);
    } else if (strcasecmp(ext, ".msh") == 0) {
        result = icFmt_SaveGmsh(path, mesh, &kept, binary, diag);
    } else if (strcasecmp(ext, ".mesh") == 0) {
        result = icSaveMedit(path, mesh, diag);
    } else if (strcasecmp(ext, ".vtk") == 0) {
        result = icFmt_SaveVtk(path, mesh, &kept, binary, diag);
    } else if (strcasecmp(ext, ".vtu") == 0) {
        result = saveVtu(path, mesh, &kept, diag);
    } else {
        result = icDiag_Set(diag, IC_ERR_UNSUPPORTED, path, 0,
                            "cannot write '%s' meshes (.ele, .node, .msh, .mesh, .vtk, .vtu)", ext);
    }
    icFree(kept.items);
    return result;
}

icResult icSaveMesh(const char *path, const icTetMesh *mesh, bool binary, icDiagnostic *diag) {
    return icSaveMeshWithFields(path, mesh, NULL, binary, diag);
}
