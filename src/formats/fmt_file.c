// SPDX-License-Identifier: MIT
// Whole-file reads sized by fstat: one allocation and one pass for the large mesh files
// (growing a buffer by doubling copies a 40 MB file twice over).
#define _POSIX_C_SOURCE 200809L
#include "formats/files_internal.h"
#include "formats/fmt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

icResult icReadFile(const char *path, char **text, size_t *size, icDiagnostic *diag) {
    *text = NULL;
    if (size) *size = 0;
    icResult regular = icRequireRegularFile(path, diag);
    if (regular != IC_OK) return regular;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return icDiag_Set(diag, IC_ERR_IO, path, 0, "cannot open: %s", strerror(errno));
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        // Replaced by something else since the check: the general way checks again.
        close(fd);
        return icReadWholeFile(path, text, size, diag);
    }
    size_t length = (size_t)info.st_size;
    char *buffer = icAlloc(length + 1);
    if (!buffer) {
        close(fd);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0,
                          "cannot allocate %zu bytes to read the file", length + 1);
    }
    size_t done = 0;
    int error = 0;
    while (done < length) {
        ssize_t got = read(fd, buffer + done, length - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) error = errno;
        if (got <= 0) break;
        done += (size_t)got;
    }
    close(fd);
    if (done != length) {
        icFree(buffer);
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "read error: %s",
                          error ? strerror(error) : "the file shrank while being read");
    }
    buffer[length] = 0;
    *text = buffer;
    if (size) *size = length;
    return IC_OK;
}
