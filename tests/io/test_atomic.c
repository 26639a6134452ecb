// SPDX-License-Identifier: MIT
// Atomic files: commit replaces, abort never clobbers, no temporary is left behind;
// mkdir -p semantics.
#define _POSIX_C_SOURCE 200809L
#include "test.h"

#include "isochor/io.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

// Number of entries in dir whose name contains ".tmp.".
static int countTemporaries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strstr(e->d_name, ".tmp.")) ++n;
    closedir(d);
    return n;
}

static void readBack(const char *path, char *buffer, size_t size) {
    buffer[0] = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return;
    size_t n = fread(buffer, 1, size - 1, fp);
    buffer[n] = 0;
    fclose(fp);
}

IC_TEST(io, atomic_commit_and_abort) {
    const char *dir = icTest_TempDir();
    char path[1200], text[256];
    IC_FORMAT(path, "%s/out.txt", dir);
    icDiagnostic diag = {0};

    icAtomicFile file;
    IC_REQUIRE(icAtomicFile_Open(&file, path, &diag) == IC_OK);
    fputs("first", file.fp);
    // Until the commit, the final name does not exist and the temporary does.
    struct stat info;
    IC_CHECK(stat(path, &info) != 0);
    IC_CHECK_INT(countTemporaries(dir), 1);
    IC_CHECK_RESULT(icAtomicFile_Commit(&file, &diag), IC_OK);
    readBack(path, text, sizeof text);
    IC_CHECK(strcmp(text, "first") == 0);
    IC_CHECK_INT(countTemporaries(dir), 0);

    // Abort leaves the old file exactly as it was.
    IC_REQUIRE(icAtomicFile_Open(&file, path, &diag) == IC_OK);
    fputs("second, longer, and never committed", file.fp);
    fflush(file.fp);
    icAtomicFile_Abort(&file);
    icAtomicFile_Abort(&file); // twice is harmless
    readBack(path, text, sizeof text);
    IC_CHECK(strcmp(text, "first") == 0);
    IC_CHECK_INT(countTemporaries(dir), 0);

    // Commit replaces.
    IC_REQUIRE(icAtomicFile_Open(&file, path, &diag) == IC_OK);
    fputs("third", file.fp);
    IC_CHECK_RESULT(icAtomicFile_Commit(&file, &diag), IC_OK);
    readBack(path, text, sizeof text);
    IC_CHECK(strcmp(text, "third") == 0);
    // A second commit is a programmer mistake, reported, not a crash.
    IC_CHECK_RESULT(icAtomicFile_Commit(&file, &diag), IC_ERR_INVALID_ARGUMENT);
    IC_CHECK_INT(countTemporaries(dir), 0);

    // A folder that does not exist: IC_ERR_IO naming the path.
    char missing[1200];
    IC_FORMAT(missing, "%s/no/such/dir/out.txt", dir);
    IC_CHECK_RESULT(icAtomicFile_Open(&file, missing, &diag), IC_ERR_IO);
    IC_CHECK(strcmp(diag.file, missing) == 0);
    IC_CHECK(file.fp == NULL);

    // A rename onto a directory fails at commit; the temporary is removed.
    char sub[1200];
    IC_FORMAT(sub, "%s/adir", dir);
    IC_REQUIRE(icMakeDirectories(sub, &diag) == IC_OK);
    IC_REQUIRE(icAtomicFile_Open(&file, sub, &diag) == IC_OK);
    fputs("x", file.fp);
    IC_CHECK_RESULT(icAtomicFile_Commit(&file, &diag), IC_ERR_IO);
    IC_CHECK_INT(countTemporaries(dir), 0);
    IC_CHECK(stat(sub, &info) == 0 && S_ISDIR(info.st_mode));
}

IC_TEST(io, make_directories) {
    const char *dir = icTest_TempDir();
    char path[1200];
    icDiagnostic diag = {0};
    IC_FORMAT(path, "%s/a/b//c/", dir);
    IC_CHECK_RESULT(icMakeDirectories(path, &diag), IC_OK);
    IC_FORMAT(path, "%s/a/b/c", dir);
    struct stat info;
    IC_CHECK(stat(path, &info) == 0 && S_ISDIR(info.st_mode));
    IC_CHECK_RESULT(icMakeDirectories(path, &diag), IC_OK); // exists already
    IC_CHECK_RESULT(icMakeDirectories("", &diag), IC_OK);

    // A file in the way.
    IC_FORMAT(path, "%s/a/file", dir);
    FILE *fp = fopen(path, "wb");
    IC_REQUIRE(fp != NULL);
    fclose(fp);
    IC_FORMAT(path, "%s/a/file/sub", dir);
    IC_CHECK_RESULT(icMakeDirectories(path, &diag), IC_ERR_IO);
    IC_CHECK(strcmp(diag.file, path) == 0);
}
