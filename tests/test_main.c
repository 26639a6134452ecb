// SPDX-License-Identifier: MIT
// Test runner: `isochor_tests` runs all, `isochor_tests suite.name` one, `suite.` a prefix,
// `--list` lists them.
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#define IC_TEST_MAX 1024

typedef struct icTestEntry {
    const char *suite, *name;
    icTestFn *fn;
} icTestEntry;

static icTestEntry s_tests[IC_TEST_MAX];
static int s_testCount;
static int s_failures;
static char s_current[256];
static unsigned long long s_rng = 0x9E3779B97F4A7C15ull;

void icTest_Register(const char *suite, const char *name, icTestFn *fn) {
    if (s_testCount < IC_TEST_MAX) s_tests[s_testCount++] = (icTestEntry){suite, name, fn};
}

void icTest_Fail(const char *file, int line, const char *format, ...) {
    ++s_failures;
    fprintf(stderr, "%s:%d: [%s] ", file, line, s_current);
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
}

void icTest_Format(const char *file, int line, char *buffer, size_t size, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf(buffer, size, format, args);
    va_end(args);
    if (n >= 0 && (size_t)n < size) return;
    fprintf(stderr, "%s:%d: [%s] formatted text of %d bytes does not fit %zu: '%s'\n", file, line,
            s_current, n, size, buffer);
    exit(1);
}

int icTest_FailureCount(void) { return s_failures; }

void icTest_Seed(unsigned long long seed) { s_rng = seed ? seed : 1; }

double icTest_Uniform(double lo, double hi) {
    // xorshift64*: deterministic across platforms
    s_rng ^= s_rng >> 12;
    s_rng ^= s_rng << 25;
    s_rng ^= s_rng >> 27;
    unsigned long long r = s_rng * 2685821657736338717ull;
    return lo + (hi - lo) * ((double)(r >> 11) * (1.0 / 9007199254740992.0));
}

const char *icTest_SourcePath(const char *relative) {
    static char buffers[4][1024];
    static int next;
    char *b = buffers[next++ & 3];
    IC_FORMAT_N(b, 1024, "%s/%s", IC_SOURCE_DIR, relative);
    return b;
}

const char *icTest_TempDir(void) {
    static char dir[1024];
    IC_FORMAT(dir, "%s/test-tmp/%s", IC_BINARY_DIR, s_current);
    char cmd[2200];
    IC_FORMAT(cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot create %s\n", dir);
    return dir;
}

char *icTest_ReadFile(const char *path, size_t *size) {
    if (size) *size = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *data = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (data && fread(data, 1, (size_t)n, fp) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(fp);
    if (!data) return NULL;
    data[n] = 0;
    if (size) *size = (size_t)n;
    return data;
}

double icTest_WorstJ(const icWorld *world, double *minJ) {
    int n = icWorld_GetTetCount(world);
    icReal *J = malloc(sizeof(icReal) * (size_t)(n > 0 ? n : 1));
    double worst = 0, smallest = INFINITY;
    if (J) {
        icWorld_GetTetFields(world, J, NULL, NULL);
        for (int t = 0; t < n; ++t) {
            worst = fmax(worst, fabs(J[t] - 1));
            smallest = fmin(smallest, J[t]);
        }
        free(J);
    } else {
        worst = smallest = NAN; // fails every comparison a test makes
    }
    if (minJ) *minJ = smallest;
    return worst;
}

bool icTest_SameFile(const char *a, const char *b) {
    size_t na = 0, nb = 0;
    char *x = icTest_ReadFile(a, &na), *y = icTest_ReadFile(b, &nb);
    bool same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

// The stats JSON without its timing line.
static char *statsWithoutTiming(const char *path) {
    char *text = icTest_ReadFile(path, NULL);
    if (!text) return NULL;
    char *line = strstr(text, "  \"ms_per_frame\"");
    if (line) {
        char *end = strchr(line, '\n');
        if (end) memmove(line, end + 1, strlen(end + 1) + 1);
    }
    return text;
}

icCliRun icTest_RunCli(const char *dir, const char *args) {
    struct stat info;
    if (stat(IC_CLI_PATH, &info) != 0)
        icTest_Fail(__FILE__, __LINE__, "%s is missing: build the isochor_cli target first",
                    IC_CLI_PATH);
    char command[5000], outPath[1300], errPath[1300];
    IC_FORMAT(outPath, "%s/cli_stdout.txt", dir);
    IC_FORMAT(errPath, "%s/cli_stderr.txt", dir);
    IC_FORMAT(command, "'%s' %s > '%s' 2> '%s'", IC_CLI_PATH, args, outPath, errPath);
    int status = system(command);
    icCliRun run = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, icTest_ReadFile(outPath, NULL),
                    icTest_ReadFile(errPath, NULL)};
    if (!run.out) run.out = calloc(1, 1);
    if (!run.err) run.err = calloc(1, 1);
    return run;
}

void icTest_FreeCli(icCliRun *run) {
    free(run->out);
    free(run->err);
}

icResult icTest_RunSceneText(const char *text, const char *name, int frames,
                             const char *checkpoint, const char *resume, icRunSummary *summary,
                             uint64_t *stateHash, icDiagnostic *diag) {
    if (stateHash) *stateHash = 0;
    icScene scene;
    icResult r = icScene_LoadString(text, name, ".", &scene, diag);
    if (r != IC_OK) return r;
    icRunOptions options = icDefaultRunOptions();
    options.writeOutput = false;
    options.frames = frames;
    options.checkpointPath = checkpoint;
    options.checkpointEvery = checkpoint ? frames : 0;
    options.resumePath = resume;
    icRunSummary local;
    r = icScene_Run(&scene, &options, summary ? summary : &local, diag);
    if (r == IC_OK && stateHash) *stateHash = icWorld_HashState(scene.world);
    icScene_Destroy(&scene);
    return r;
}

void icTest_CheckResumedRun(const char *dir, const char *const *files, int count) {
    char a[1300], b[1300];
    for (int i = 0; i < count; ++i) {
        IC_FORMAT(a, "%s/full/%s", dir, files[i]);
        IC_FORMAT(b, "%s/part/%s", dir, files[i]);
        IC_CHECK_MSG(icTest_SameFile(a, b), "%s differs after resuming", files[i]);
    }
    IC_FORMAT(a, "%s/full.json", dir);
    IC_FORMAT(b, "%s/part.json", dir);
    char *x = statsWithoutTiming(a), *y = statsWithoutTiming(b);
    IC_CHECK_MSG(x && y && strcmp(x, y) == 0, "stats differ:\n%s\n%s", x ? x : "", y ? y : "");
    free(x);
    free(y);
}

static int compareTests(const void *a, const void *b) {
    const icTestEntry *x = a, *y = b;
    int c = strcmp(x->suite, y->suite);
    return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv) {
    qsort(s_tests, (size_t)s_testCount, sizeof s_tests[0], compareTests);
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < s_testCount; ++i) printf("%s.%s\n", s_tests[i].suite, s_tests[i].name);
        return 0;
    }
    int passed = 0, failed = 0;
    for (int i = 0; i < s_testCount; ++i) {
        char full[256];
        IC_FORMAT(full, "%s.%s", s_tests[i].suite, s_tests[i].name);
        if (argc > 1) {
            size_t n = strlen(argv[1]);
            bool prefix = n > 0 && argv[1][n - 1] == '.';
            if (prefix ? strncmp(full, argv[1], n) != 0 : strcmp(full, argv[1]) != 0) continue;
        }
        IC_FORMAT(s_current, "%s", full);
        int before = s_failures;
        icTest_Seed(0x9E3779B97F4A7C15ull);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        s_tests[i].fn();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
        if (s_failures == before) {
            ++passed;
            printf("PASS %s (%.0f ms)\n", full, ms);
        } else {
            ++failed;
            printf("FAIL %s (%.0f ms)\n", full, ms);
        }
        fflush(stdout);
    }
    if (passed + failed == 0) {
        fprintf(stderr, "no test matches '%s'\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
