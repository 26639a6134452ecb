// SPDX-License-Identifier: MIT
// Small path helpers: folder, stem, join (POSIX separators).
#include "formats/files_internal.h"

#include <stdio.h>
#include <string.h>

bool icPath_IsAbsolute(const char *path) { return path && path[0] == '/'; }

void icPath_Dir(const char *path, char *out, size_t size) {
    if (size == 0) return;
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash) {
        snprintf(out, size, ".");
    } else if (slash == path) {
        snprintf(out, size, "/");
    } else {
        snprintf(out, size, "%.*s", (int)(slash - path), path);
    }
}

void icPath_Stem(const char *path, char *out, size_t size) {
    if (size == 0) return;
    if (!path) path = "";
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    // A leading dot (".hidden") is part of the name, not an extension.
    size_t length = (dot && dot != name) ? (size_t)(dot - name) : strlen(name);
    snprintf(out, size, "%.*s", (int)length, name);
}

bool icPath_Join(const char *dir, const char *relative, char *out, size_t size) {
    int n;
    if (icPath_IsAbsolute(relative) || !dir || !dir[0] || strcmp(dir, ".") == 0)
        n = snprintf(out, size, "%s", relative);
    else if (dir[strlen(dir) - 1] == '/')
        n = snprintf(out, size, "%s%s", dir, relative);
    else
        n = snprintf(out, size, "%s/%s", dir, relative);
    return n >= 0 && (size_t)n < size;
}
