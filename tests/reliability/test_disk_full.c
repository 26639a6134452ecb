// SPDX-License-Identifier: MIT
// A full disk is named: `isochor run` writing into a 64 kB tmpfs fails with "No space left on
// device" and the file's path (not "Input/output error"), exit status 1, and leaves no
// temporary behind. Mounting needs root (CI runs as root); elsewhere the test says it
// skipped.
#include "test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Frames of a 3,456-tet box: frame 0 alone (about 300 kB of VTU) is more than the disk holds.
static const char *s_scene =
    "{\"dt\": 0.01, \"frames\": 2, \"preflight\": false, \"solver\": {\"substeps\": 2},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.3, 0.3], \"cells\": 8}}]}\n";

IC_TEST(reliability, disk_full_is_named) {
    if (geteuid() != 0) {
        printf("  skipped: mounting a tmpfs needs root (euid %d)\n", (int)geteuid());
        return;
    }
    const char *dir = icTest_TempDir();
    char mountPoint[1300], command[3000], path[1400];
    IC_FORMAT(mountPoint, "%s/full", dir);
    IC_REQUIRE(mkdir(mountPoint, 0755) == 0);
    IC_FORMAT(command, "mount -t tmpfs -o size=64k tmpfs '%s' 2>/dev/null", mountPoint);
    if (system(command) != 0) {
        printf("  skipped: cannot mount a tmpfs here (no CAP_SYS_ADMIN?)\n");
        return;
    }
    IC_FORMAT(path, "%s/s.json", dir);
    FILE *fp = fopen(path, "wb");
    IC_CHECK(fp != NULL);
    if (fp) {
        fputs(s_scene, fp);
        fclose(fp);
    }

    char args[3000];
    IC_FORMAT(args, "run '%s' --quiet --out '%s/out'", path, mountPoint);
    icCliRun run = icTest_RunCli(dir, args);
    IC_CHECK_INT(run.status, 1);
    IC_CHECK_MSG(strstr(run.err, "No space left on device"), "stderr: %s", run.err);
    IC_CHECK_MSG(!strstr(run.err, "Input/output error"), "stderr: %s", run.err);
    IC_CHECK_MSG(strstr(run.err, "full/out/frame_00000.vtu"), "stderr names no path: %s",
                 run.err);
    printf("  %s", run.err);
    icTest_FreeCli(&run);

    // Nothing half-written under any name: no temporary, no frame file.
    char outDir[1400];
    IC_FORMAT(outDir, "%s/out", mountPoint);
    DIR *d = opendir(outDir);
    IC_CHECK(d != NULL);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            IC_CHECK_MSG(!strstr(e->d_name, ".tmp."), "temporary file left: %s", e->d_name);
            IC_CHECK_MSG(!strstr(e->d_name, ".vtu"), "partial frame left: %s", e->d_name);
        }
        closedir(d);
    }
    IC_FORMAT(command, "umount '%s'", mountPoint);
    IC_CHECK_INT(system(command), 0);
}
