// SPDX-License-Identifier: MIT
// Atomic output files (write a temporary, rename over the target) and mkdir -p.
#define _POSIX_C_SOURCE 200809L
#include "isochor/io.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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

// Why the writes of a stream failed: the stream keeps a flag, not the errno of the write that
// failed, and "Input/output error" would hide the usual cause, a full disk. A second flush
// retries what is still buffered and says why afresh; where nothing is left to retry, a file
// system without a free block for this user is the cause.
static int writeError(FILE *fp) {
    clearerr(fp);
    errno = 0;
    if (fflush(fp) != 0 && errno != 0) return errno;
    struct statvfs fs;
    if (fstatvfs(fileno(fp), &fs) == 0 && fs.f_bavail == 0) return ENOSPC;
    return EIO;
}

icResult icAtomicFile_Commit(icAtomicFile *file, icDiagnostic *diag) {
    if (!file->fp || !file->tempPath[0])
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, file->path, 0,
                          "the file is not open (committed or aborted already)");
    // No fsync: the point is that a killed writer leaves no half file under the final name,
    // and a sync per frame would dominate the cost of writing small frames.
    bool failed = ferror(file->fp) != 0;
    int error = failed ? writeError(file->fp) : 0;
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

// The writer's process id when name is "NAME.tmp.PID" (the temporaries icAtomicFile_Open
// makes), else 0.
static long temporaryOwner(const char *name) {
    const char *tag = NULL;
    for (const char *s = strstr(name, ".tmp."); s; s = strstr(s + 1, ".tmp.")) tag = s;
    if (!tag || tag == name) return 0;
    const char *digits = tag + 5;
    size_t count = strspn(digits, "0123456789");
    if (count == 0 || count > 9 || digits[count] != 0) return 0;
    return strtol(digits, NULL, 10);
}

icResult icAtomicFile_RemoveStale(const char *directory, int *removed, icDiagnostic *diag) {
    if (removed) *removed = 0;
    DIR *dir = opendir(directory && directory[0] ? directory : ".");
    if (!dir) {
        if (errno == ENOENT) return IC_OK; // nothing written there yet
        return icDiag_Set(diag, IC_ERR_IO, directory, 0, "cannot read the folder: %s",
                          strerror(errno));
    }
    long self = (long)getpid();
    for (struct dirent *entry; (entry = readdir(dir));) {
        long owner = temporaryOwner(entry->d_name);
        if (owner <= 0 || owner == self) continue;
        // A writer that still runs (or runs as another user: EPERM) keeps its temporary;
        // only one whose process is gone left it behind.
        if (kill((pid_t)owner, 0) == 0 || errno != ESRCH) continue;
        char path[1400];
        int n = snprintf(path, sizeof path, "%s/%s", directory && directory[0] ? directory : ".",
                         entry->d_name);
        struct stat info;
        if (n < 0 || (size_t)n >= sizeof path || lstat(path, &info) != 0 || !S_ISREG(info.st_mode))
            continue;
        if (remove(path) == 0 && removed) ++*removed;
    }
    closedir(dir);
    return IC_OK;
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
