// SPDX-License-Identifier: MIT
// Surfaces to tetrahedra through the external `tetgen` program. TetGen is AGPL: isochor
// only writes its input file, runs it as a separate process and reads the files it writes.
#define _POSIX_C_SOURCE 200809L
#include "formats/fmt_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

icTetrahedralizeDef icDefaultTetrahedralizeDef(void) {
    icTetrahedralizeDef def;
    memset(&def, 0, sizeof def);
    def.maxVolume = 0;
    def.quality = 1.414;
    def.program = "tetgen";
    def.workDir = NULL;
    def.keepFiles = false;
    def.timeLimit = 300;
    def.interrupt = NULL;
    return def;
}

static bool isExecutable(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) && access(path, X_OK) == 0;
}

bool icFindProgram(const char *program, char *fullPath, size_t size) {
    if (!program || !program[0]) return false;
    char found[1024];
    if (strchr(program, '/')) {
        if (!isExecutable(program)) return false;
        snprintf(found, sizeof found, "%s", program);
    } else {
        const char *path = getenv("PATH");
        if (!path) path = "/usr/local/bin:/usr/bin:/bin";
        bool ok = false;
        while (*path && !ok) {
            const char *colon = strchr(path, ':');
            size_t length = colon ? (size_t)(colon - path) : strlen(path);
            int n =
                snprintf(found, sizeof found, "%.*s/%s", (int)length, length ? path : ".", program);
            ok = n > 0 && (size_t)n < sizeof found && isExecutable(found);
            path += length + (colon ? 1 : 0);
        }
        if (!ok) return false;
    }
    if (fullPath && size) snprintf(fullPath, size, "%s", found);
    return true;
}

// TetGen's .smesh: nodes, then facets (triangles), no holes, no regions.
static icResult writeSmesh(const char *path, const icTriSurface *s, icDiagnostic *diag) {
    icAtomicFile file;
    icResult result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) return result;
    fprintf(file.fp, "# written by isochor for tetgen\n%d 3 0 0\n", s->vertexCount);
    char line[160];
    for (int v = 0; v < s->vertexCount; ++v) {
        int k = icFmt_FormatInt(line, v);
        for (int d = 0; d < 3; ++d) {
            line[k++] = ' ';
            k += icFmt_FormatReal(line + k, s->positions[3 * (size_t)v + d]);
        }
        line[k++] = '\n';
        fwrite(line, 1, (size_t)k, file.fp);
    }
    fprintf(file.fp, "%d 0\n", s->triangleCount);
    for (int t = 0; t < s->triangleCount; ++t) {
        const int *tri = s->triangles + 3 * (size_t)t;
        fprintf(file.fp, "3 %d %d %d\n", tri[0], tri[1], tri[2]);
    }
    fprintf(file.fp, "0\n0\n");
    return icAtomicFile_Commit(&file, diag);
}

// The last non-empty line of the program's output, for the message when it fails.
static void lastLine(const char *logPath, char *out, size_t size) {
    out[0] = 0;
    char *text;
    size_t n;
    if (icReadWholeFile(logPath, &text, &n, NULL) != IC_OK) return;
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
        text[--n] = 0;
    char *start = n ? text + n - 1 : text;
    while (start > text && start[-1] != '\n') --start;
    snprintf(out, size, "%s", start);
    icFree(text);
}

static double nowSeconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Why runProgram stopped the program early (none: it exited by itself).
typedef enum icStopReason { IC_STOP_NONE, IC_STOP_TIME, IC_STOP_INTERRUPT } icStopReason;

// Runs argv with stdout and stderr into logPath in a process group of its own, so that a stop
// reaches whatever it started too (a wrapper script's children). *status gets the exit status
// (-1 killed). Past timeLimit seconds (> 0), or once *interrupt is set, the group is killed
// and *stopped says why.
static icResult runProgram(const char *fullPath, char *const argv[], const char *logPath,
                           double timeLimit, const volatile sig_atomic_t *interrupt, int *status,
                           icStopReason *stopped, icDiagnostic *diag) {
    *stopped = IC_STOP_NONE;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid;
    int error = posix_spawn(&pid, fullPath, &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0)
        return icDiag_Set(diag, IC_ERR_IO, fullPath, 0, "cannot run: %s", strerror(error));
    // Polled every 20 ms: TetGen runs for seconds to minutes, so the poll costs nothing.
    double deadline = timeLimit > 0 ? nowSeconds() + timeLimit : INFINITY;
    int raw;
    for (;;) {
        pid_t done = waitpid(pid, &raw, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) {
            kill(-pid, SIGKILL);
            return icDiag_Set(diag, IC_ERR_IO, fullPath, 0, "lost the process: %s",
                              strerror(errno));
        }
        if (*stopped == IC_STOP_NONE) {
            if (interrupt && *interrupt)
                *stopped = IC_STOP_INTERRUPT;
            else if (nowSeconds() >= deadline)
                *stopped = IC_STOP_TIME;
            // TetGen keeps nothing worth a graceful end: the group goes at once.
            if (*stopped != IC_STOP_NONE) kill(-pid, SIGKILL);
        }
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    // The program has exited; anything it left running in its group goes with it.
    if (*stopped != IC_STOP_NONE) kill(-pid, SIGKILL);
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return IC_OK;
}

// Removes the temporary files: in a folder of our own everything in it (TetGen may have
// written more than the files read back), then the folder; in the caller's folder only the
// files named.
static void removeTemporaries(const char *dir, bool ownDir, const char *const *files, int count) {
    for (int i = 0; i < count; ++i) remove(files[i]);
    if (!ownDir) return;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *entry;
        while ((entry = readdir(d)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
            char path[1400];
            snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
            remove(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

icResult icTetrahedralize(const icTriSurface *surface, const icTetrahedralizeDef *def,
                          icTetMesh *mesh, icDiagnostic *diag) {
    memset(mesh, 0, sizeof *mesh);
    icTetrahedralizeDef defaults = icDefaultTetrahedralizeDef();
    if (!def) def = &defaults;
    if (!surface || surface->triangleCount <= 0 || surface->vertexCount < 4)
        return icDiag_Set(diag, IC_ERR_EMPTY, "", 0, "the surface has no triangles to fill");
    const char *program = def->program ? def->program : "tetgen";
    char fullPath[1024];
    if (!icFindProgram(program, fullPath, sizeof fullPath))
        return icDiag_Set(diag, IC_ERR_UNSUPPORTED, program, 0,
                          "TetGen is not installed (on Debian: apt-get install tetgen)");

    char dir[1024];
    bool ownDir = !def->workDir;
    if (ownDir) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/isochor-tetgen-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (!mkdtemp(dir))
            return icDiag_Set(diag, IC_ERR_IO, dir, 0, "cannot create a temporary folder: %s",
                              strerror(errno));
    } else {
        snprintf(dir, sizeof dir, "%s", def->workDir);
    }
    char input[1100], node[1100], ele[1100], face[1100], edge[1100], log[1100];
    snprintf(input, sizeof input, "%s/surface.smesh", dir);
    snprintf(node, sizeof node, "%s/surface.1.node", dir);
    snprintf(ele, sizeof ele, "%s/surface.1.ele", dir);
    snprintf(face, sizeof face, "%s/surface.1.face", dir);
    snprintf(edge, sizeof edge, "%s/surface.1.edge", dir);
    snprintf(log, sizeof log, "%s/tetgen.log", dir);

    icResult result = writeSmesh(input, surface, diag);
    if (result == IC_OK) {
        // -p: a piecewise linear complex; q: radius-edge bound; a: volume bound.
        char switches[128];
        int n = snprintf(switches, sizeof switches, "-p");
        if (def->quality > 0)
            n += snprintf(switches + n, sizeof switches - (size_t)n, "q%.6g", def->quality);
        if (def->maxVolume > 0)
            snprintf(switches + n, sizeof switches - (size_t)n, "a%.6g", def->maxVolume);
        char *argv[] = {fullPath, switches, input, NULL};
        int status = 0;
        icStopReason stopped;
        result = runProgram(fullPath, argv, log, def->timeLimit, def->interrupt, &status,
                            &stopped, diag);
        if (result == IC_OK && stopped == IC_STOP_TIME)
            result = icDiag_Set(diag, IC_ERR_INTERRUPTED, program, 0,
                                "tetgen %s ran past the time limit of %g s and was stopped; "
                                "allow it more time, or ask for fewer tets (a larger maximum "
                                "volume, a looser quality bound)",
                                switches, def->timeLimit);
        else if (result == IC_OK && stopped == IC_STOP_INTERRUPT)
            result = icDiag_Set(diag, IC_ERR_INTERRUPTED, program, 0,
                                "tetgen %s was stopped by an interrupt", switches);
        else if (result == IC_OK && status != 0) {
            char last[400];
            lastLine(log, last, sizeof last);
            result = icDiag_Set(diag, IC_ERR_PARSE, program, 0,
                                "tetgen %s failed (exit %d): %s; is the surface closed and free of "
                                "self-intersections?",
                                switches, status, last[0] ? last : "no output");
        }
    }
    if (result == IC_OK) {
        icDiagnostic load = {0};
        result = icLoadMesh(ele, NULL, mesh, NULL, &load);
        if (result == IC_ERR_EMPTY)
            icDiag_Set(
                diag, result, program, 0,
                "TetGen made no tetrahedra: is the surface closed and free of self-intersections?");
        else if (result != IC_OK)
            icDiag_Set(diag, result, load.file, load.line, "reading TetGen's output: %s",
                       load.message);
    }
    if (!def->keepFiles) {
        const char *const files[] = {input, node, ele, face, edge, log};
        removeTemporaries(dir, ownDir, files, 6);
    }
    return result;
}
