// SPDX-License-Identifier: MIT
// Tetrahedralising a closed surface with the external TetGen program.
#define _POSIX_C_SOURCE 200809L
#include "formats_testing.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static bool haveTetgen(void) {
    if (icFindProgram("tetgen", NULL, 0)) return true;
    // The project's setup installs it; say so rather than fail where it is missing.
    fprintf(stderr, "note: tetgen is not installed; skipping (apt-get install tetgen)\n");
    return false;
}

IC_TEST(formats, tetrahedralize_cube) {
    if (!haveTetgen()) return;
    int64_t bytes = icGetByteCount();
    icTriSurface s;
    icDiagnostic diag = {0};
    IC_REQUIRE(icLoadSurface(icTest_SourcePath("tests/data/formats/cube.obj"), &s, &diag) == IC_OK);
    icTetrahedralizeDef def = icDefaultTetrahedralizeDef();
    def.maxVolume = 0.02;
    icTetMesh mesh;
    icResult result = icTetrahedralize(&s, &def, &mesh, &diag);
    IC_CHECK_MSG(result == IC_OK, "%s", diag.message);
    if (result == IC_OK) {
        icMeshQuality q;
        icTetMesh_Quality(&mesh, &q);
        IC_CHECK_NEAR(q.totalVolume, 1.0, 1e-12);
        IC_CHECK(mesh.tetCount >= 50); // 1 m^3 in tets of at most 0.02 m^3
        IC_CHECK(q.maxVolume <= 0.02 + 1e-12);
        IC_CHECK(q.minVolume > 0);
        IC_CHECK_INT(q.invertedCount, 0);
        icVec3 lo, hi;
        icTetMesh_Bounds(&mesh, &lo, &hi);
        IC_CHECK(lo.x == 0 && lo.y == 0 && lo.z == 0 && hi.x == 1 && hi.y == 1 && hi.z == 1);
        icTetMesh_Destroy(&mesh);
    }
    icTriSurface_Destroy(&s);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(formats, tetrahedralize_failures) {
    icTriSurface s;
    icDiagnostic diag = {0};
    IC_REQUIRE(icLoadSurface(icTest_SourcePath("tests/data/formats/cube.obj"), &s, &diag) == IC_OK);
    icTetrahedralizeDef def = icDefaultTetrahedralizeDef();
    def.program = "isochor-no-such-tetgen";
    icTetMesh mesh;
    IC_CHECK_RESULT(icTetrahedralize(&s, &def, &mesh, &diag), IC_ERR_UNSUPPORTED);
    IC_CHECK(strstr(diag.message, "apt-get install tetgen") != NULL);
    if (haveTetgen()) {
        // An open box (two of the twelve triangles removed) cannot be filled.
        s.triangleCount -= 2;
        def.program = "tetgen";
        icResult result = icTetrahedralize(&s, &def, &mesh, &diag);
        IC_CHECK_MSG(result == IC_ERR_EMPTY || result == IC_ERR_PARSE, "%s", icResult_Name(result));
        IC_CHECK(mesh.tets == NULL);
        s.triangleCount += 2;
    }
    icTriSurface_Destroy(&s);
}

// Entries of a folder (not "." and "..").
static int countEntries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL)
        n += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
    closedir(d);
    return n;
}

// A stand-in for tetgen that writes a partial output, starts a child of its own (its pid into
// dir/child_pid) and never finishes.
static const char *writeHangingTetgen(const char *dir) {
    char text[1200];
    IC_FORMAT(text,
              "#!/bin/sh\n"
              "echo partial > \"$(dirname \"$2\")/surface.1.node\"\n"
              "echo scratch > \"$(dirname \"$2\")/surface.1.neigh\"\n"
              "sleep 60 &\n"
              "echo $! > '%s/child_pid'\n"
              "wait\n",
              dir);
    const char *path = icFmtTest_WriteText(dir, "hanging_tetgen", text);
    chmod(path, 0755);
    return path;
}

// Whether the process has ended: gone, or a zombie waiting for init to reap it (which is not
// ours to wait for). Polled briefly, since the kill is delivered asynchronously.
static bool processGone(pid_t pid) {
    for (int i = 0; i < 200; ++i) {
        if (kill(pid, 0) != 0 && errno == ESRCH) return true;
        char path[64], state = 0;
        IC_FORMAT(path, "/proc/%d/stat", (int)pid);
        FILE *fp = fopen(path, "r");
        if (fp) {
            // "pid (comm) S ...": the state follows the command's closing parenthesis.
            int c, last = 0;
            while ((c = fgetc(fp)) != EOF) {
                if (last == ')' && c == ' ') {
                    state = (char)fgetc(fp);
                    break;
                }
                last = c;
            }
            fclose(fp);
        }
        if (state == 'Z') return true;
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return false;
}

static pid_t readPid(const char *dir) {
    char path[1300];
    IC_FORMAT(path, "%s/child_pid", dir);
    char *text = icFmtTest_ReadFile(path, NULL);
    pid_t pid = text ? (pid_t)atoi(text) : 0;
    free(text);
    return pid;
}

// Past timeLimit the program and everything it started are killed, and the temporary folder
// goes with all that was written into it.
IC_TEST(formats, tetrahedralize_time_limit) {
    const char *dir = icTest_TempDir();
    char work[1200], program[1200];
    IC_FORMAT(program, "%s", writeHangingTetgen(dir));
    IC_FORMAT(work, "%s/tmp", dir);
    IC_REQUIRE(mkdir(work, 0755) == 0);
    icTriSurface s;
    icDiagnostic diag = {0};
    IC_REQUIRE(icLoadSurface(icTest_SourcePath("tests/data/formats/cube.obj"), &s, &diag) == IC_OK);
    icTetrahedralizeDef def = icDefaultTetrahedralizeDef();
    IC_CHECK(def.timeLimit == 300);
    def.program = program;
    def.timeLimit = 0.2;
    const char *saved = getenv("TMPDIR");
    char *restore = saved ? strdup(saved) : NULL;
    setenv("TMPDIR", work, 1);
    icTetMesh mesh;
    IC_CHECK_RESULT(icTetrahedralize(&s, &def, &mesh, &diag), IC_ERR_INTERRUPTED);
    IC_CHECK_MSG(strstr(diag.message, "ran past the time limit of 0.2 s") != NULL, "%s",
                 diag.message);
    IC_CHECK(mesh.tets == NULL);
    IC_CHECK_INT(countEntries(work), 0);
    pid_t child = readPid(dir);
    IC_CHECK(child > 0 && processGone(child));

    // An interrupt flag that is already set stops it the same way.
    static volatile sig_atomic_t flag = 1;
    def.timeLimit = 0;
    def.interrupt = &flag;
    IC_CHECK_RESULT(icTetrahedralize(&s, &def, &mesh, &diag), IC_ERR_INTERRUPTED);
    IC_CHECK_MSG(strstr(diag.message, "stopped by an interrupt") != NULL, "%s", diag.message);
    IC_CHECK_INT(countEntries(work), 0);
    if (restore) {
        setenv("TMPDIR", restore, 1);
        free(restore);
    } else {
        unsetenv("TMPDIR");
    }
    icTriSurface_Destroy(&s);
}
