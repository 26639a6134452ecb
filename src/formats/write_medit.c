// SPDX-License-Identifier: MIT
// MEDIT .mesh writer (MeshVersionFormatted 2, 1-based indices, regions as references).
#include "formats/fmt_internal.h"

#include <stdio.h>

icResult icSaveMedit(const char *path, const icTetMesh *mesh, icDiagnostic *diag) {
    if (!mesh || mesh->vertexCount <= 0 || mesh->tetCount <= 0 || !mesh->positions || !mesh->tets)
        return icDiag_Set(diag, IC_ERR_EMPTY, path ? path : "", 0, "nothing to write");
    icAtomicFile file;
    icResult result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) return result;
    FILE *fp = file.fp;
    fprintf(fp, "MeshVersionFormatted 2\n\nDimension 3\n\nVertices\n%d\n", mesh->vertexCount);
    char line[160];
    for (int v = 0; v < mesh->vertexCount; ++v) {
        int k = 0;
        for (int d = 0; d < 3; ++d) {
            k += icFmt_FormatReal(line + k, mesh->positions[3 * (size_t)v + d]);
            line[k++] = ' ';
        }
        line[k++] = '0';
        line[k++] = '\n';
        fwrite(line, 1, (size_t)k, fp);
    }
    fprintf(fp, "\nTetrahedra\n%d\n", mesh->tetCount);
    for (int t = 0; t < mesh->tetCount; ++t) {
        int tet[4];
        memcpy(tet, mesh->tets + 4 * (size_t)t, sizeof tet);
        icFmt_SwapHandedness(tet);
        int k = 0;
        for (int j = 0; j < 4; ++j) {
            k += icFmt_FormatInt(line + k, tet[j] + 1);
            line[k++] = ' ';
        }
        k += icFmt_FormatInt(line + k, mesh->regions ? mesh->regions[t] : 0);
        line[k++] = '\n';
        fwrite(line, 1, (size_t)k, fp);
    }
    fprintf(fp, "\nEnd\n");
    return icAtomicFile_Commit(&file, diag);
}
