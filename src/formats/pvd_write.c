// SPDX-License-Identifier: MIT
// ParaView .pvd collection writer: one DataSet per time step, paths relative to the .pvd.
#include "formats/files_internal.h"

#include <stdio.h>
#include <string.h>

// ParaView resolves DataSet files against the .pvd's folder. Callers may pass names that
// are already relative to it ("frame_00000.vtu") or paths that include that folder
// ("out/run/frame_00000.vtu" for "out/run/run.pvd"): the folder prefix is dropped.
static const char *relativeTo(const char *dir, const char *file) {
    size_t n = strlen(dir);
    if (strcmp(dir, ".") == 0 || n == 0) return file;
    if (strncmp(file, dir, n) == 0 && file[n] == '/') return file + n + 1;
    if (dir[n - 1] == '/' && strncmp(file, dir, n) == 0) return file + n;
    return file;
}

icResult icWritePvd(const char *path, int count, const char *const *files, const icReal *times,
                    icDiagnostic *diag) {
    if (!path) path = "";
    if (count < 0 || (count > 0 && (!files || !times)))
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0, "bad file or time list");
    for (int i = 0; i < count; ++i)
        if (!files[i] || !files[i][0])
            return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0, "time step %d has no file", i);

    char dir[1024];
    icPath_Dir(path, dir, sizeof dir);
    icAtomicFile file;
    icResult r = icAtomicFile_Open(&file, path, diag);
    if (r != IC_OK) return r;
    fprintf(file.fp, "<?xml version=\"1.0\"?>\n"
                     "<VTKFile type=\"Collection\" version=\"1.0\">\n"
                     "  <Collection>\n");
    for (int i = 0; i < count; ++i) {
        fprintf(file.fp, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"",
                (double)times[i]);
        icXml_WriteEscaped(file.fp, relativeTo(dir, files[i]));
        fprintf(file.fp, "\"/>\n");
    }
    fprintf(file.fp, "  </Collection>\n</VTKFile>\n");
    return icAtomicFile_Commit(&file, diag);
}
