// SPDX-License-Identifier: MIT
// A run killed while it wrote a file leaves "NAME.tmp.PID" behind. The next run into the same
// folder (a fresh run or a resume) removes the temporaries whose writer is gone and keeps a
// live writer's and every other file.
#include "test.h"

#include "isochor/io.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool exists(const char *path) {
    struct stat info;
    return stat(path, &info) == 0;
}

static void touch(const char *path) {
    FILE *f = fopen(path, "wb");
    IC_CHECK_MSG(f, "cannot create %s: %s", path, strerror(errno));
    if (!f) return;
    fputs("half a frame", f);
    fclose(f);
}

// The id of a process that has exited and been reaped: no process runs under it now.
static long finishedProcess(void) {
    pid_t child = fork();
    if (child < 0) return 0; // the caller's checks then fail
    if (child == 0) _exit(0);
    waitpid(child, NULL, 0);
    return (long)child;
}

IC_TEST(reliability, stale_temporaries_removed_before_writing) {
    char dir[1100], checkpoint[1200], dead[1300], deadCheckpoint[1300], live[1300], other[1300],
        notOurs[1300];
    const char *base = icTest_TempDir(); // a fresh folder on every call: asked once
    IC_FORMAT(dir, "%s/stale_tmp_run", base);
    icDiagnostic diag = {0};
    IC_REQUIRE(icMakeDirectories(dir, &diag) == IC_OK);
    IC_FORMAT(checkpoint, "%s/ck/run.ckpt", base);
    char ckDir[1200];
    IC_FORMAT(ckDir, "%s/ck", base);
    IC_REQUIRE(icMakeDirectories(ckDir, &diag) == IC_OK);
    long gone = finishedProcess();
    IC_REQUIRE(gone > 0);
    IC_FORMAT(dead, "%s/frame_00003.vtu.tmp.%ld", dir, gone);
    IC_FORMAT(deadCheckpoint, "%s/run.ckpt.tmp.%ld", ckDir, gone);
    IC_FORMAT(live, "%s/frame_00004.vtu.tmp.%ld", dir, (long)getppid()); // our parent runs
    IC_FORMAT(other, "%s/notes.tmp.txt", dir);
    IC_FORMAT(notOurs, "%s/tmp.%ld", dir, gone); // no NAME before ".tmp."
    touch(dead);
    touch(deadCheckpoint);
    touch(live);
    touch(other);
    touch(notOurs);

    const char *text = "{\"dt\": 0.01, \"frames\": 2, \"solver\": {\"substeps\": 2},\n"
                       " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], "
                       "\"cells\": 2}}]}\n";
    icScene scene;
    IC_REQUIRE(icScene_LoadString(text, "stale", ".", &scene, &diag) == IC_OK);
    icRunOptions options = icDefaultRunOptions();
    options.outputDir = dir;
    options.checkpointPath = checkpoint;
    options.checkpointEvery = 1;
    icRunSummary summary;
    IC_CHECK_RESULT(icScene_Run(&scene, &options, &summary, &diag), IC_OK);
    icScene_Destroy(&scene);

    IC_CHECK_MSG(!exists(dead), "%s was left", dead);
    IC_CHECK_MSG(!exists(deadCheckpoint), "%s was left", deadCheckpoint);
    IC_CHECK_MSG(exists(live), "%s (a live writer's) was removed", live);
    IC_CHECK_MSG(exists(other), "%s was removed", other);
    IC_CHECK_MSG(exists(notOurs), "%s was removed", notOurs);

    // The function alone: counts what it removed; a missing folder holds none.
    touch(dead);
    int removed = -1;
    IC_CHECK_RESULT(icAtomicFile_RemoveStale(dir, &removed, &diag), IC_OK);
    IC_CHECK_INT(removed, 1);
    char missing[1200];
    IC_FORMAT(missing, "%s/no_such_folder", base);
    IC_CHECK_RESULT(icAtomicFile_RemoveStale(missing, &removed, &diag), IC_OK);
    IC_CHECK_INT(removed, 0);
    remove(live);
    remove(other);
    remove(notOurs);
}
