// SPDX-License-Identifier: MIT
// Gmsh 4.1 writer, ASCII or binary: one volume entity per region (physical group = region
// id), all nodes in the first entity, element blocks in tet order so a round trip keeps it;
// point and cell fields as $NodeData / $ElementData views.
#include "formats/fmt_internal.h"

#include <stdio.h>
#include <stdlib.h>

static int compareInts(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

// Sorted distinct region ids (just {0} without regions).
static int distinctRegions(const icTetMesh *mesh, int **out) {
    int m = mesh->tetCount;
    int *ids = IC_ALLOC(int, m > 0 ? m : 1);
    if (!ids) return -1;
    if (!mesh->regions) {
        ids[0] = 0;
        *out = ids;
        return 1;
    }
    memcpy(ids, mesh->regions, sizeof(int) * (size_t)m);
    qsort(ids, (size_t)m, sizeof(int), compareInts);
    int n = 0;
    for (int i = 0; i < m; ++i)
        if (n == 0 || ids[i] != ids[n - 1]) ids[n++] = ids[i];
    *out = ids;
    return n;
}

static int entityOf(const int *ids, int count, int region) {
    int lo = 0, hi = count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (ids[mid] == region) return mid + 1;
        if (ids[mid] < region)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 1;
}

static void writeU64(FILE *fp, uint64_t v) { fwrite(&v, 8, 1, fp); }
static void writeI32(FILE *fp, int32_t v) { fwrite(&v, 4, 1, fp); }

// One field as a post-processing view: a quoted name, time 0, time step 0, the component
// count (1, 3 or 9), then a tag (node or element number, an int in binary files) and its
// values per row. Rows are vertices or tets in mesh order, tagged v + 1 / t + 1 as written.
static void writeField(FILE *fp, const icMeshField *field, int rows, bool binary) {
    const char *section = field->perCell ? "ElementData" : "NodeData";
    fprintf(fp, "$%s\n1\n\"%s\"\n1\n0\n3\n0\n%d\n%d\n", section, field->name, field->components,
            rows);
    const int k = field->components;
    char line[16 + 9 * 26];
    for (int i = 0; i < rows; ++i) {
        const icReal *values = field->data + (size_t)k * (size_t)i;
        if (binary) {
            writeI32(fp, i + 1);
            icFmt_WriteF64(fp, values, (size_t)k, false);
            continue;
        }
        int n = icFmt_FormatInt(line, i + 1);
        for (int c = 0; c < k; ++c) {
            line[n++] = ' ';
            n += icFmt_FormatReal(line + n, values[c]);
        }
        line[n++] = '\n';
        fwrite(line, 1, (size_t)n, fp);
    }
    if (binary) fputc('\n', fp);
    fprintf(fp, "$End%s\n", section);
}

icResult icSaveGmsh(const char *path, const icTetMesh *mesh, bool binary, icDiagnostic *diag) {
    return icFmt_SaveGmsh(path, mesh, NULL, binary, diag);
}

icResult icFmt_SaveGmsh(const char *path, const icTetMesh *mesh, const icMeshFields *fields,
                        bool binary, icDiagnostic *diag) {
    if (!mesh || mesh->vertexCount <= 0 || mesh->tetCount <= 0 || !mesh->positions || !mesh->tets)
        return icDiag_Set(diag, IC_ERR_EMPTY, path ? path : "", 0, "nothing to write");
    int *ids = NULL;
    int entities = distinctRegions(mesh, &ids);
    if (entities < 0) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    icAtomicFile file;
    icResult result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) {
        icFree(ids);
        return result;
    }
    FILE *fp = file.fp;
    const int n = mesh->vertexCount, m = mesh->tetCount;
    icVec3 lo, hi;
    icTetMesh_Bounds(mesh, &lo, &hi);

    // Blocks: maximal runs of tets with one region.
    int blocks = 0;
    for (int t = 0; t < m; ++t)
        if (t == 0 || (mesh->regions && mesh->regions[t] != mesh->regions[t - 1])) ++blocks;

    fprintf(fp, "$MeshFormat\n4.1 %d 8\n", binary ? 1 : 0);
    if (binary) {
        writeI32(fp, 1);
        fputc('\n', fp);
    }
    fprintf(fp, "$EndMeshFormat\n$Entities\n");
    if (binary) {
        writeU64(fp, 0);
        writeU64(fp, 0);
        writeU64(fp, 0);
        writeU64(fp, (uint64_t)entities);
        for (int e = 0; e < entities; ++e) {
            double box[6] = {lo.x, lo.y, lo.z, hi.x, hi.y, hi.z};
            writeI32(fp, e + 1);
            fwrite(box, 8, 6, fp);
            writeU64(fp, ids[e] != 0 ? 1 : 0);
            if (ids[e] != 0) writeI32(fp, ids[e]);
            writeU64(fp, 0);
        }
        fputc('\n', fp);
    } else {
        fprintf(fp, "0 0 0 %d\n", entities);
        for (int e = 0; e < entities; ++e) {
            fprintf(fp, "%d %.17g %.17g %.17g %.17g %.17g %.17g ", e + 1, lo.x, lo.y, lo.z, hi.x,
                    hi.y, hi.z);
            if (ids[e] != 0)
                fprintf(fp, "1 %d 0\n", ids[e]);
            else
                fprintf(fp, "0 0\n");
        }
    }
    fprintf(fp, "$EndEntities\n$Nodes\n");
    if (binary) {
        writeU64(fp, 1);
        writeU64(fp, (uint64_t)n);
        writeU64(fp, 1);
        writeU64(fp, (uint64_t)n);
        writeI32(fp, 3);
        writeI32(fp, 1);
        writeI32(fp, 0);
        writeU64(fp, (uint64_t)n);
        for (int v = 0; v < n; ++v) writeU64(fp, (uint64_t)v + 1);
        icFmt_WriteF64(fp, mesh->positions, 3 * (size_t)n, false);
        fputc('\n', fp);
    } else {
        fprintf(fp, "1 %d 1 %d\n3 1 0 %d\n", n, n, n);
        char line[128];
        for (int v = 0; v < n; ++v) {
            int k = icFmt_FormatInt(line, v + 1);
            line[k++] = '\n';
            fwrite(line, 1, (size_t)k, fp);
        }
        for (int v = 0; v < n; ++v) {
            int k = 0;
            for (int d = 0; d < 3; ++d) {
                k += icFmt_FormatReal(line + k, mesh->positions[3 * (size_t)v + d]);
                line[k++] = d < 2 ? ' ' : '\n';
            }
            fwrite(line, 1, (size_t)k, fp);
        }
    }
    fprintf(fp, "$EndNodes\n$Elements\n");
    if (binary) {
        writeU64(fp, (uint64_t)blocks);
        writeU64(fp, (uint64_t)m);
        writeU64(fp, 1);
        writeU64(fp, (uint64_t)m);
    } else {
        fprintf(fp, "%d %d 1 %d\n", blocks, m, m);
    }
    uint64_t record[5 * 256];
    for (int t = 0; t < m;) {
        int end = t + 1;
        while (end < m && (!mesh->regions || mesh->regions[end] == mesh->regions[t])) ++end;
        int entity = mesh->regions ? entityOf(ids, entities, mesh->regions[t]) : 1;
        if (binary) {
            writeI32(fp, 3);
            writeI32(fp, entity);
            writeI32(fp, 4);
            writeU64(fp, (uint64_t)(end - t));
        } else {
            fprintf(fp, "3 %d 4 %d\n", entity, end - t);
        }
        for (int s = t; s < end;) {
            int chunk = end - s < 256 ? end - s : 256;
            char line[128];
            for (int c = 0; c < chunk; ++c) {
                int tet[4];
                memcpy(tet, mesh->tets + 4 * (size_t)(s + c), sizeof tet);
                icFmt_SwapHandedness(tet);
                if (binary) {
                    record[5 * c] = (uint64_t)(s + c) + 1;
                    for (int k = 0; k < 4; ++k) record[5 * c + 1 + k] = (uint64_t)tet[k] + 1;
                } else {
                    int k = icFmt_FormatInt(line, s + c + 1);
                    for (int j = 0; j < 4; ++j) {
                        line[k++] = ' ';
                        k += icFmt_FormatInt(line + k, tet[j] + 1);
                    }
                    line[k++] = '\n';
                    fwrite(line, 1, (size_t)k, fp);
                }
            }
            if (binary) fwrite(record, 8, 5 * (size_t)chunk, fp);
            s += chunk;
        }
        t = end;
    }
    if (binary) fputc('\n', fp);
    fprintf(fp, "$EndElements\n");
    for (int f = 0; fields && f < fields->count; ++f)
        writeField(fp, &fields->items[f], fields->items[f].perCell ? m : n, binary);
    icFree(ids);
    return icAtomicFile_Commit(&file, diag);
}
