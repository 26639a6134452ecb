// SPDX-License-Identifier: MIT
// The kill test: `isochor run` killed at random points, 20 times (SIGKILL and SIGTERM in
// turn), each time resumed from its last checkpoint, ends with every frame file and the .pvd
// byte for byte those of an uninterrupted run, and no temporary file left.
#include "test.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// A box dropped onto the ground: 1,000 cheap frames, a file and a checkpoint every 10th.
static const char *s_scene =
    "{\"dt\": 0.01, \"frames\": 1000, \"preflight\": false, \"solver\": {\"substeps\": 10},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 3},\n"
    "   \"material\": {\"youngs_modulus\": 2e4}, \"translate\": [0, 0.2, 0]}],\n"
    " \"colliders\": [{\"plane\": {\"friction\": 0.3}}],\n"
    " \"output\": {\"every\": 10}}\n";

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bool exists(const char *path) {
    struct stat info;
    return stat(path, &info) == 0;
}

// Starts `isochor run SCENE --out OUT --checkpoint-every 10 [--resume CKPT]`, output discarded.
static pid_t start(const char *scene, const char *out, const char *checkpoint, bool resume) {
    pid_t child = fork();
    if (child != 0) return child;
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(99);
    if (resume)
        execl(IC_CLI_PATH, IC_CLI_PATH, "run", scene, "--quiet", "--out", out,
              "--checkpoint-every", "10", "--resume", checkpoint, (char *)NULL);
    else
        execl(IC_CLI_PATH, IC_CLI_PATH, "run", scene, "--quiet", "--out", out,
              "--checkpoint-every", "10", (char *)NULL);
    _exit(98);
}

static int finish(pid_t child) {
    int status = 0;
    waitpid(child, &status, 0);
    return status;
}

// The same bytes in both folders' copies of name.
static bool sameFile(const char *a, const char *b, const char *name) {
    char pa[1400], pb[1400];
    snprintf(pa, sizeof pa, "%s/%s", a, name);
    snprintf(pb, sizeof pb, "%s/%s", b, name);
    return icTest_SameFile(pa, pb);
}

IC_TEST(reliability, kill_and_resume_20_times_gives_the_same_files) {
    const char *tmp = icTest_TempDir();
    char scene[1100], reference[1100], killed[1100], checkpoint[1200];
    IC_FORMAT(scene, "%s/drop.json", tmp);
    IC_FORMAT(reference, "%s/reference", tmp);
    IC_FORMAT(killed, "%s/killed", tmp);
    IC_FORMAT(checkpoint, "%s/drop.ckpt", killed);
    FILE *fp = fopen(scene, "wb");
    IC_REQUIRE(fp);
    fputs(s_scene, fp);
    fclose(fp);
    double began = now();
    IC_REQUIRE(finish(start(scene, reference, NULL, false)) == 0);
    double whole = now() - began;

    // Kills land 1 % to 9 % of the whole run's time after a start (a seeded sequence), so
    // that 20 of them spread over the run on any machine or build: at loading, stepping,
    // writing a frame or a checkpoint. A run that finished before its kill ends the loop.
    uint32_t seed = 12345;
    int kills = 0, completed = 0, starts = 0, resumes = 0;
    while (kills < 20 && !completed) {
        seed = seed * 1664525u + 1013904223u;
        double wait = whole * (0.01 + 0.08 * (double)((seed >> 8) % 1000) / 1000.0);
        struct timespec delay = {(time_t)wait, (long)(1e9 * (wait - (double)(time_t)wait))};
        bool resume = exists(checkpoint);
        pid_t child = start(scene, killed, checkpoint, resume);
        IC_REQUIRE(child > 0);
        ++starts;
        resumes += resume;
        nanosleep(&delay, NULL);
        int signal = kills % 2 == 0 ? SIGKILL : SIGTERM;
        kill(child, signal);
        int status = finish(child);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            completed = 1;
        } else {
            // SIGKILL ends it on the spot; SIGTERM stops it at the next substep (exit 143).
            IC_CHECK_MSG((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
                             (WIFEXITED(status) && WEXITSTATUS(status) == 143) ||
                             (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM),
                         "start %d: unexpected status %#x after signal %d", starts, status,
                         signal);
            ++kills;
        }
    }
    if (!completed) IC_CHECK_INT(finish(start(scene, killed, checkpoint, exists(checkpoint))), 0);
    printf("  %d kills over %d starts (%d of them resumed; the whole run takes %.3f s), then "
           "resumed to the end\n", kills, starts, resumes, whole);
    IC_CHECK(kills >= 10 && resumes >= 5);

    // Every file of the uninterrupted run, byte for byte, and nothing half written.
    int frames = 0;
    DIR *d = opendir(reference);
    IC_REQUIRE(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".vtu") && !strstr(e->d_name, ".pvd")) continue;
        frames += strstr(e->d_name, ".vtu") != NULL;
        IC_CHECK_MSG(sameFile(reference, killed, e->d_name), "%s differs", e->d_name);
    }
    closedir(d);
    IC_CHECK_INT(frames, 101);
    d = opendir(killed);
    IC_REQUIRE(d);
    for (struct dirent *e; (e = readdir(d));)
        IC_CHECK_MSG(!strstr(e->d_name, ".tmp"), "temporary file left: %s", e->d_name);
    closedir(d);
}
