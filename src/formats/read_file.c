// SPDX-License-Identifier: MIT
// Reads a whole file into memory: the text readers parse from one NUL-terminated buffer.
#include "formats/files_internal.h"

#include "core/core.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

icResult icRequireRegularFile(const char *path, icDiagnostic *diag) {
    struct stat info;
    if (stat(path, &info) != 0)
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "cannot open: %s", strerror(errno));
    if (S_ISREG(info.st_mode)) return IC_OK;
    const char *what = S_ISDIR(info.st_mode)                            ? "a directory"
                       : S_ISFIFO(info.st_mode)                         ? "a FIFO (named pipe)"
                       : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                       : S_ISSOCK(info.st_mode)                         ? "a socket"
                                                                        : "not a plain file";
    return icDiag_Set(diag, IC_ERR_IO, path, 0, "is %s, not a regular file", what);
}

icResult icReadWholeFile(const char *path, char **text, size_t *size, icDiagnostic *diag) {
    *text = NULL;
    if (size) *size = 0;
    icResult regular = icRequireRegularFile(path, diag);
    if (regular != IC_OK) return regular;
    FILE *fp = fopen(path, "rb");
    if (!fp) return icDiag_Set(diag, IC_ERR_IO, path, 0, "cannot open: %s", strerror(errno));

    // Grow by doubling rather than trusting ftell, so pipes and special files work too.
    size_t capacity = 1 << 16, used = 0;
    char *buffer = IC_ALLOC(char, capacity);
    if (!buffer) {
        fclose(fp);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "cannot allocate a read buffer");
    }
    for (;;) {
        if (capacity - used < 2) {
            char *grown = capacity <= SIZE_MAX / 2 ? IC_ALLOC(char, capacity * 2) : NULL;
            if (!grown) {
                icFree(buffer);
                fclose(fp);
                return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0,
                                  "cannot allocate %zu bytes to read the file", capacity * 2);
            }
            memcpy(grown, buffer, used);
            icFree(buffer);
            buffer = grown;
            capacity *= 2;
        }
        size_t got = fread(buffer + used, 1, capacity - used - 1, fp);
        used += got;
        if (got == 0) break;
    }
    bool failed = ferror(fp) != 0;
    fclose(fp);
    if (failed) {
        icFree(buffer);
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "read error");
    }
    buffer[used] = 0;
    *text = buffer;
    if (size) *size = used;
    return IC_OK;
}
