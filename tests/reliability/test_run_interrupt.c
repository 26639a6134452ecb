// SPDX-License-Identifier: MIT
// `isochor run` with checkpoints as a user runs it: --checkpoint-every then --resume gives the
// same files as an uninterrupted run, a bad checkpoint is refused, and SIGTERM finishes the
// frame, writes a checkpoint and the stats, leaves no partial file and exits 143.
#include "test.h"

#include "isochor/formats.h"
#include "isochor/io.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void writeText(const char *path, const char *text) {
    FILE *fp = fopen(path, "wb");
    if (!fp) return;
    fputs(text, fp);
    fclose(fp);
}

static bool exists(const char *path) {
    struct stat info;
    return stat(path, &info) == 0;
}

// Runs the CLI with args (a shell command tail); returns its exit status, stderr into err.
static int runCli(const char *dir, const char *args, char **err) {
    char command[4000], errPath[1300];
    IC_FORMAT(errPath, "%s/stderr.txt", dir);
    IC_FORMAT(command, "cd '%s' && '%s' %s > /dev/null 2> '%s'", dir, IC_CLI_PATH, args, errPath);
    int status = system(command);
    if (err) *err = icTest_ReadFile(errPath, NULL);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *s_scene =
    "{\"dt\": 0.01, \"frames\": 16, \"solver\": {\"substeps\": 4},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2},\n"
    "   \"material\": {\"youngs_modulus\": 1e4, \"poisson_ratio\": 0.5},\n"
    "   \"pin\": [{\"box\": {\"min\": [-1, 0.09, -1], \"max\": [1, 1, 1]},\n"
    "            \"motion\": {\"rotate\": {\"axis\": [0, 1, 0], \"degrees_per_second\": "
    "180}}}]}],\n"
    " \"colliders\": [{\"plane\": {\"offset\": -0.12}}],\n"
    " \"output\": {\"every\": 3}}\n";

IC_TEST(reliability, cli_resume_gives_the_same_files) {
    const char *tmp = icTest_TempDir();
    char dir[1100], path[1300], a[1300], b[1300];
    IC_FORMAT(dir, "%s", tmp);
    IC_FORMAT(path, "%s/s.json", dir);
    writeText(path, s_scene);
    // Uninterrupted, then the same run stopped at frame 8 and resumed.
    IC_CHECK_INT(runCli(dir, "run s.json --quiet --out full --stats full.json", NULL), 0);
    IC_CHECK_INT(runCli(dir, "run s.json --quiet --out part --frames 8 --checkpoint-every 8", NULL),
                 0);
    IC_FORMAT(a, "%s/part/s.ckpt", dir);
    IC_REQUIRE(exists(a));
    IC_CHECK_INT(
        runCli(dir, "run s.json --quiet --out part --resume part/s.ckpt --stats part.json", NULL),
        0);
    // Frames 0, 3, 6 before the checkpoint; 9, 12, 15 and the last, 16, after it.
    const char *files[] = {
        "frame_00000.vtu", "frame_00003.vtu", "frame_00006.vtu", "frame_00009.vtu",
        "frame_00012.vtu", "frame_00015.vtu", "frame_00016.vtu", "s.pvd"};
    icTest_CheckResumedRun(dir, files, (int)(sizeof files / sizeof files[0]));

    // A corrupted checkpoint: exit status 2 and a message saying so; nothing is written.
    IC_FORMAT(a, "%s/part/s.ckpt", dir);
    size_t size = 0;
    char *data = icTest_ReadFile(a, &size);
    IC_REQUIRE(data && size > 100);
    data[size / 2] ^= 1;
    IC_FORMAT(b, "%s/bad.ckpt", dir);
    FILE *fp = fopen(b, "wb");
    fwrite(data, 1, size, fp);
    fclose(fp);
    free(data);
    char *err = NULL;
    IC_CHECK_INT(runCli(dir, "run s.json --quiet --out bad --resume bad.ckpt", &err), 2);
    IC_CHECK_MSG(err && strstr(err, "checksum") && strstr(err, "IC_ERR_PARSE"), "stderr: %s",
                 err ? err : "");
    free(err);
    IC_FORMAT(a, "%s/bad/frame_00009.vtu", dir);
    IC_CHECK(!exists(a));
    // The checkpoint of another scene (other material) is refused too.
    IC_FORMAT(path, "%s/other.json", dir);
    char other[2000];
    IC_FORMAT(other, "%s", s_scene);
    char *nu = strstr(other, "0.5}");
    IC_REQUIRE(nu);
    memcpy(nu, "0.4}", 4);
    writeText(path, other);
    IC_CHECK_INT(runCli(dir, "run other.json --quiet --out other --resume part/s.ckpt", &err), 2);
    IC_CHECK_MSG(err && strstr(err, "another model"), "stderr: %s", err ? err : "");
    free(err);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// A run long enough to be killed in the middle: 400 frames of a 6^3-cell box.
static const char *s_longScene =
    "{\"dt\": 0.005, \"frames\": 400, \"solver\": {\"substeps\": 10},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.3, 0.3], \"cells\": 6},\n"
    "   \"material\": {\"youngs_modulus\": 5e4, \"poisson_ratio\": 0.45},\n"
    "   \"pin\": [{\"box\": {\"min\": [-1, 0.14, -1], \"max\": [1, 1, 1]}}]}]}\n";

IC_TEST(reliability, cli_sigterm_finishes_the_frame_and_checkpoints) {
    const char *tmp = icTest_TempDir();
    char dir[1100], path[1300];
    IC_FORMAT(dir, "%s", tmp);
    IC_FORMAT(path, "%s/long.json", dir);
    writeText(path, s_longScene);
    char outDir[1300], probe[1400];
    IC_FORMAT(outDir, "%s/out", dir);
    IC_FORMAT(probe, "%s/frame_00010.vtu", outDir);
    char statsPath[1300];
    IC_FORMAT(statsPath, "%s/stats.json", dir);

    pid_t child = fork();
    IC_REQUIRE(child >= 0);
    if (child == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(99);
        execl(IC_CLI_PATH, IC_CLI_PATH, "run", path, "--quiet", "--out", outDir, "--stats",
              statsPath, (char *)NULL);
        _exit(98);
    }
    // Kill it once frame 10 is on disk (give up after 20 s).
    double start = now();
    struct timespec pause = {0, 1000000};
    while (!exists(probe) && now() - start < 20) nanosleep(&pause, NULL);
    IC_CHECK(kill(child, SIGTERM) == 0);
    int status = 0;
    IC_REQUIRE(waitpid(child, &status, 0) == child);
    IC_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 143,
                 "expected exit status 143, got %s %d", WIFEXITED(status) ? "exit" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));

    // The stats say how far it got; the checkpoint is there; no temporary is left.
    char *stats = icTest_ReadFile(statsPath, NULL);
    IC_REQUIRE(stats);
    int frames = -1;
    const char *f = strstr(stats, "\"frames\": ");
    if (f) frames = atoi(f + 10);
    free(stats);
    IC_CHECK_MSG(frames >= 10 && frames < 400, "stopped after %d frames", frames);
    char ckpt[1400];
    IC_FORMAT(ckpt, "%s/long.ckpt", outDir);
    IC_CHECK(exists(ckpt));
    DIR *d = opendir(outDir);
    IC_REQUIRE(d);
    int vtuCount = 0;
    for (struct dirent *e; (e = readdir(d));) {
        IC_CHECK_MSG(!strstr(e->d_name, ".tmp."), "temporary file left: %s", e->d_name);
        if (strstr(e->d_name, ".vtu")) ++vtuCount;
    }
    closedir(d);
    // Frames 0..frames, each whole: every one loads.
    IC_CHECK_INT(vtuCount, frames + 1);
    for (int i = 0; i <= frames; i += (frames > 20 ? frames / 10 : 1)) {
        char frame[1500];
        IC_FORMAT(frame, "%s/frame_%05d.vtu", outDir, i);
        icTetMesh mesh;
        icDiagnostic diag = {0};
        IC_CHECK_MSG(icLoadMeshEx(frame, NULL, &mesh, NULL, NULL, NULL, &diag) == IC_OK, "%s: %s",
                     frame, diag.message);
        icTetMesh_Destroy(&mesh);
    }
    // The checkpoint resumes to the same last frame as an uninterrupted run.
    char args[3000];
    IC_FORMAT(args, "run long.json --quiet --out out --resume out/long.ckpt");
    IC_CHECK_INT(runCli(dir, args, NULL), 0);
    IC_CHECK_INT(runCli(dir, "run long.json --quiet --out full", NULL), 0);
    char a[1500], b[1500];
    IC_FORMAT(a, "%s/out/frame_00400.vtu", dir);
    IC_FORMAT(b, "%s/full/frame_00400.vtu", dir);
    IC_CHECK_MSG(icTest_SameFile(a, b), "the resumed run's last frame differs");
    IC_FORMAT(a, "%s/out/long.pvd", dir);
    IC_FORMAT(b, "%s/full/long.pvd", dir);
    IC_CHECK_MSG(icTest_SameFile(a, b), "the resumed run's collection differs");
}
