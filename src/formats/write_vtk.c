// SPDX-License-Identifier: MIT
// Legacy VTK 4.2 writer (ASCII or big-endian BINARY) of a tet mesh, regions as cell data,
// point and cell fields as FIELD arrays of doubles.
#include "formats/fmt_internal.h"

#include <stdio.h>

// An array name is one word: blanks, non-ASCII bytes and '%' are written as %XX, as VTK's
// own writer does (VTK decodes them when it reads the file back).
static void writeName(FILE *fp, const char *name) {
    for (const unsigned char *c = (const unsigned char *)name; *c; ++c) {
        if (*c <= ' ' || *c > '~' || *c == '%')
            fprintf(fp, "%%%02X", *c);
        else
            fputc(*c, fp);
    }
}

// The fields of one kind (per cell or per point) as one FIELD block: "name components rows
// double", then the values, tuple by tuple (one line each in ASCII).
static void writeFields(FILE *fp, const icMeshFields *fields, bool perCell, int rows, bool binary,
                        bool swap) {
    int count = 0;
    for (int f = 0; fields && f < fields->count; ++f) count += fields->items[f].perCell == perCell;
    if (count == 0) return;
    fprintf(fp, "FIELD FieldData %d\n", count);
    char line[9 * 26];
    for (int f = 0; f < fields->count; ++f) {
        const icMeshField *field = &fields->items[f];
        if (field->perCell != perCell) continue;
        const int k = field->components;
        writeName(fp, field->name);
        fprintf(fp, " %d %d double\n", k, rows);
        if (binary) {
            icFmt_WriteF64(fp, field->data, (size_t)k * (size_t)rows, swap);
            fputc('\n', fp);
            continue;
        }
        for (int i = 0; i < rows; ++i) {
            int n = 0;
            for (int c = 0; c < k; ++c) {
                n += icFmt_FormatReal(line + n, field->data[(size_t)k * (size_t)i + (size_t)c]);
                line[n++] = c + 1 < k ? ' ' : '\n';
            }
            fwrite(line, 1, (size_t)n, fp);
        }
    }
}

static bool hasFields(const icMeshFields *fields, bool perCell) {
    for (int f = 0; fields && f < fields->count; ++f)
        if (fields->items[f].perCell == perCell) return true;
    return false;
}

icResult icSaveVtk(const char *path, const icTetMesh *mesh, bool binary, icDiagnostic *diag) {
    return icFmt_SaveVtk(path, mesh, NULL, binary, diag);
}

icResult icFmt_SaveVtk(const char *path, const icTetMesh *mesh, const icMeshFields *fields,
                       bool binary, icDiagnostic *diag) {
    if (!mesh || mesh->vertexCount <= 0 || mesh->tetCount <= 0 || !mesh->positions || !mesh->tets)
        return icDiag_Set(diag, IC_ERR_EMPTY, path ? path : "", 0, "nothing to write");
    icAtomicFile file;
    icResult result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) return result;
    FILE *fp = file.fp;
    const int n = mesh->vertexCount, m = mesh->tetCount;
    const bool swap = icFmt_HostLittle(); // BINARY legacy files are big-endian
    fprintf(fp,
            "# vtk DataFile Version 4.2\nisochor tetrahedral mesh\n%s\nDATASET UNSTRUCTURED_GRID\n",
            binary ? "BINARY" : "ASCII");
    fprintf(fp, "POINTS %d double\n", n);
    char line[160];
    if (binary) {
        icFmt_WriteF64(fp, mesh->positions, 3 * (size_t)n, swap);
        fputc('\n', fp);
    } else {
        for (int v = 0; v < n; ++v) {
            int k = 0;
            for (int d = 0; d < 3; ++d) {
                k += icFmt_FormatReal(line + k, mesh->positions[3 * (size_t)v + d]);
                line[k++] = d < 2 ? ' ' : '\n';
            }
            fwrite(line, 1, (size_t)k, fp);
        }
    }
    fprintf(fp, "CELLS %d %d\n", m, 5 * m);
    int cells[5 * 256];
    for (int t = 0; t < m;) {
        int chunk = m - t < 256 ? m - t : 256;
        for (int c = 0; c < chunk; ++c) {
            int *cell = cells + 5 * c;
            cell[0] = 4;
            memcpy(cell + 1, mesh->tets + 4 * (size_t)(t + c), 4 * sizeof(int));
            icFmt_SwapHandedness(cell + 1);
            if (!binary) {
                int k = 0;
                for (int j = 0; j < 5; ++j) {
                    k += icFmt_FormatInt(line + k, cell[j]);
                    line[k++] = j < 4 ? ' ' : '\n';
                }
                fwrite(line, 1, (size_t)k, fp);
            }
        }
        if (binary) icFmt_WriteI32(fp, cells, 5 * (size_t)chunk, swap);
        t += chunk;
    }
    if (binary) fputc('\n', fp);
    fprintf(fp, "CELL_TYPES %d\n", m);
    for (int i = 0; i < 5 * 256; ++i) cells[i] = 10;
    for (int t = 0; t < m;) {
        int chunk = m - t < 5 * 256 ? m - t : 5 * 256;
        if (binary) {
            icFmt_WriteI32(fp, cells, (size_t)chunk, swap);
        } else {
            for (int c = 0; c < chunk; ++c) fputs("10\n", fp);
        }
        t += chunk;
    }
    if (binary) fputc('\n', fp);
    if (mesh->regions || hasFields(fields, true)) fprintf(fp, "CELL_DATA %d\n", m);
    if (mesh->regions) {
        fprintf(fp, "SCALARS region int 1\nLOOKUP_TABLE default\n");
        if (binary) {
            icFmt_WriteI32(fp, mesh->regions, (size_t)m, swap);
            fputc('\n', fp);
        } else {
            for (int t = 0; t < m; ++t) {
                int k = icFmt_FormatInt(line, mesh->regions[t]);
                line[k++] = '\n';
                fwrite(line, 1, (size_t)k, fp);
            }
        }
    }
    writeFields(fp, fields, true, m, binary, swap);
    if (hasFields(fields, false)) fprintf(fp, "POINT_DATA %d\n", n);
    writeFields(fp, fields, false, n, binary, swap);
    return icAtomicFile_Commit(&file, diag);
}
