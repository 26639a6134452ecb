// SPDX-License-Identifier: MIT
// Atomic output files (write a temporary, rename over the target) and mkdir -p.
#define _POSIX_C_SOURCE 200809L
#include "isochor/io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

icResult icAtomicFile_Open(icAtomicFile *file, const char *path, icDiagnostic *diag) {
    memset(file, 0, sizeof *file);
    if (!path || !path[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no output path given");
    size_t length = strlen(path);
    if (length >= sizeof file->path)
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "path is longer than %d characters",
                          (int)sizeof file->path - 1);
    memcpy(file->path, path, length + 1);
    // The temporary sits beside the target so the final rename never crosses file systems;
    // the process id keeps two writers of the same path from sharing a temporary.
    snprintf(file->tempPath, sizeof file->tempPath, "%s.tmp.%ld", path, (long)getpid());
    file->fp = fopen(file->tempPath, "wb");
    if (!file->fp) {
        int error = errno;
        file->tempPath[0] = 0;
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "cannot create a temporary file: %s",
                          strerror(error));
    }
    return IC_OK;
}

icResult icAtomicFile_Commit(icAtomicFile *file, icDiagnostic *diag) {
    if (!file->fp || !file->tempPath[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, file->path, 0,
                          "the file is not open (committed or aborted already)");
    // No fsync: the point is that a killed writer leaves no half file under the final name,
    // and a sync per frame would dominate the cost of writing small frames.
    bool failed = ferror(file->fp) != 0;
    int error = failed ? EIO : 0;
    if (fclose(file->fp) != 0 && !failed) {
        failed = true;
        error = errno;
    }
    file->fp = NULL;
    if (!failed && rename(file->tempPath, file->path) != 0) {
        failed = true;
        error = errno;
    }
    if (failed) {
        remove(file->tempPath);
        file->tempPath[0] = 0;
        return icDiag_Set(diag, IC_ERR_IO, file->path, 0, "cannot write: %s", strerror(error));
    }
    file->tempPath[0] = 0;
    return IC_OK;
}

void icAtomicFile_Abort(icAtomicFile *file) {
    if (file->fp) fclose(file->fp);
    file->fp = NULL;
    if (file->tempPath[0]) remove(file->tempPath);
    file->tempPath[0] = 0;
}

// Creates one directory; an existing directory is fine.
static bool makeOne(const char *path) {
    if (mkdir(path, 0777) == 0) return true;
    if (errno != EEXIST) return false;
    struct stat info;
    if (stat(path, &info) != 0) return false;
    if (!S_ISDIR(info.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

icResult icMakeDirectories(const char *path, icDiagnostic *diag) {
    if (!path || !path[0]) return IC_OK;
    char buffer[1024];
    size_t length = strlen(path);
    if (length >= sizeof buffer)
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "path is longer than %d characters",
                          (int)sizeof buffer - 1);
    memcpy(buffer, path, length + 1);
    // Make each prefix that ends before a slash, then the whole path.
    for (size_t i = 1; i <= length; ++i) {
        if (buffer[i] != '/' && buffer[i] != 0) continue;
        if (buffer[i - 1] == '/') continue; // "a//b"
        char saved = buffer[i];
        buffer[i] = 0;
        bool ok = makeOne(buffer);
        int error = errno;
        buffer[i] = saved;
        if (!ok)
            return icDiag_Set(diag, IC_ERR_IO, path, 0, "cannot create directory: %s",
                              strerror(error));
    }
    return IC_OK;
}
