// SPDX-License-Identifier: MIT
// isochor tetrahedralize: fills a closed triangle surface with tets by running the external
// TetGen program, then reports counts and quality and writes the mesh. Everything that can be
// checked is checked before TetGen starts (a run can take minutes): the options, the output
// path, the program, the surface.
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "options.h"

#include "isochor/formats.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *out) {
    fprintf(
        out,
        "usage: isochor tetrahedralize IN OUT [--max-volume V] [--quality Q] [--time-limit S]\n"
        "                              [--tetgen PROGRAM] [--keep-temp]\n"
        "  IN            closed triangle surface: .obj, .ply, .stl or .off\n"
        "  OUT           .ele (with .node beside it; or name the .node), .msh, .vtu, .vtk or\n"
        "                .mesh; its folder is created when missing\n"
        "  --max-volume V    largest tet volume in cubic metres, > 0 (default: no limit)\n"
        "  --quality Q       radius-edge ratio bound, >= 1.1 (default 1.414; 0 = no refinement)\n"
        "  --time-limit S    stop TetGen after S seconds, > 0 (default 300)\n"
        "  --tetgen PROGRAM  the TetGen executable (default: tetgen on PATH)\n"
        "  --keep-temp       keep TetGen's files (in isochor-tetgen-* under $TMPDIR or /tmp)\n"
        "Values go as '--opt value' or '--opt=value'; options are spelled whole.\n"
        "Needs Debian's tetgen program (apt-get install tetgen); it runs as a separate process.\n"
        "exit status: 0 ok, 1 TetGen failed, stopped or the mesh cannot be written, 2 bad\n"
        "input, usage or no TetGen\n");
}

// A finite number and nothing else ("1e-3" yes, "0.1x", "", "nan" no).
static bool parseReal(const char *text, double *value) {
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return end != text && *end == 0 && errno == 0 && isfinite(*value);
}

static const char *const s_outputExtensions[] = {".ele", ".node", ".msh", ".vtu", ".vtk",
                                                 ".mesh"};

// OUT before TetGen runs: a known extension, not a folder, and a folder that exists and is
// writable or can be created (its nearest existing ancestor is a writable folder). Says why
// and returns false otherwise.
static bool checkOutput(const char *out) {
    const char *slash = strrchr(out, '/');
    const char *name = slash ? slash + 1 : out;
    const char *dot = strrchr(name, '.');
    bool known = false;
    for (size_t i = 0; dot && i < sizeof s_outputExtensions / sizeof s_outputExtensions[0]; ++i)
        known = known || strcasecmp(dot, s_outputExtensions[i]) == 0;
    struct stat info;
    if (stat(out, &info) == 0 && S_ISDIR(info.st_mode)) {
        fprintf(stderr, "isochor tetrahedralize: '%s' is a folder; OUT names the mesh file\n",
                out);
        return false;
    }
    if (!known || dot == name) {
        fprintf(stderr,
                "isochor tetrahedralize: '%s': OUT ends in .ele, .node, .msh, .vtu, .vtk or "
                ".mesh\n",
                out);
        return false;
    }
    char dir[1024];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == out)
        snprintf(dir, sizeof dir, "/");
    else if (snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out) >= (int)sizeof dir) {
        fprintf(stderr, "isochor tetrahedralize: '%s': the path is too long\n", out);
        return false;
    }
    // Up to the nearest folder that exists: it must be a writable folder.
    char existing[1024];
    snprintf(existing, sizeof existing, "%s", dir);
    while (stat(existing, &info) != 0) {
        char *up = strrchr(existing, '/');
        if (!up) {
            snprintf(existing, sizeof existing, ".");
        } else if (up == existing) {
            existing[1] = 0;
        } else {
            *up = 0;
        }
    }
    if (!S_ISDIR(info.st_mode)) {
        fprintf(stderr, "isochor tetrahedralize: cannot create the folder '%s': '%s' is a file\n",
                dir, existing);
        return false;
    }
    if (access(existing, W_OK | X_OK) != 0) {
        fprintf(stderr, "isochor tetrahedralize: cannot write into '%s': %s\n", existing,
                strerror(errno));
        return false;
    }
    return true;
}

enum { OPT_MAX_VOLUME = 256, OPT_QUALITY, OPT_TIME_LIMIT, OPT_TETGEN, OPT_KEEP_TEMP };

static const struct option s_options[] = {{"max-volume", required_argument, NULL, OPT_MAX_VOLUME},
                                          {"quality", required_argument, NULL, OPT_QUALITY},
                                          {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
                                          {"tetgen", required_argument, NULL, OPT_TETGEN},
                                          {"keep-temp", no_argument, NULL, OPT_KEEP_TEMP},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};

// One option into def; false (after saying why) for a bad value.
static bool applyOption(int c, const char *value, icTetrahedralizeDef *def) {
    switch (c) {
    case OPT_MAX_VOLUME:
        if (parseReal(value, &def->maxVolume) && def->maxVolume > 0) return true;
        fprintf(stderr,
                "isochor tetrahedralize: --max-volume wants a positive number of cubic metres, "
                "not '%s'\n",
                value);
        return false;
    case OPT_QUALITY:
        if (parseReal(value, &def->quality) && (def->quality == 0 || def->quality >= 1.1))
            return true;
        fprintf(stderr,
                "isochor tetrahedralize: --quality wants 0 (no refinement) or a radius-edge "
                "ratio >= 1.1, not '%s'\n",
                value);
        return false;
    case OPT_TIME_LIMIT:
        if (parseReal(value, &def->timeLimit) && def->timeLimit > 0) return true;
        fprintf(stderr,
                "isochor tetrahedralize: --time-limit wants a positive number of seconds, not "
                "'%s'\n",
                value);
        return false;
    case OPT_TETGEN:
        if (value[0]) {
            def->program = value;
            return true;
        }
        fprintf(stderr, "isochor tetrahedralize: --tetgen needs a program\n");
        return false;
    case OPT_KEEP_TEMP:
        def->keepFiles = true;
        return true;
    default:
        return false;
    }
}

// Ctrl-C or SIGTERM while TetGen runs: TetGen is stopped and its files removed.
static volatile sig_atomic_t s_interrupt;

static void onSignal(int signal) { s_interrupt = signal; }

// Parses the arguments into in, out and def. Returns -1 to go on, else the exit status.
static int parseArgs(int argc, char **argv, const char **in, const char **out,
                     icTetrahedralizeDef *def) {
    icCliOptions cli;
    if (!icCliOptions_Begin(&cli, "isochor tetrahedralize", argc, argv, s_options, "h"))
        return 1;
    int status = -1, c;
    const char *value;
    while (status < 0 && (c = icCliOptions_Next(&cli, &value)) != 0) {
        if (c < 0) {
            usage(stderr);
            status = 2;
        } else if (c == 'h') {
            usage(stdout);
            status = 0;
        } else if (!applyOption(c, value, def)) {
            status = 2;
        }
    }
    int operands = cli.operandCount;
    if (status < 0 && operands != 2) {
        fprintf(stderr, "isochor tetrahedralize: %s\n",
                operands < 2 ? "needs a surface IN and a mesh OUT" : "one surface, one mesh");
        usage(stderr);
        status = 2;
    }
    if (status < 0) {
        *in = cli.operands[0];
        *out = cli.operands[1];
    }
    icCliOptions_End(&cli);
    return status;
}

int icCli_Tetrahedralize(int argc, char **argv) {
    const char *in = NULL, *out = NULL;
    icTetrahedralizeDef def = icDefaultTetrahedralizeDef();
    int status = parseArgs(argc, argv, &in, &out, &def);
    if (status >= 0) return status;
    if (!checkOutput(out)) return 2;
    if (!icFindProgram(def.program, NULL, 0)) {
        fprintf(stderr,
                "isochor tetrahedralize: the TetGen program '%s' is not installed.\n"
                "  On Debian or Ubuntu: apt-get install tetgen\n",
                def.program);
        return 2;
    }
    icDiagnostic diag = {0};
    char text[1400];
    icTriSurface surface;
    if (icLoadSurface(in, &surface, &diag) != IC_OK) {
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "isochor tetrahedralize: %s\n", text);
        return 2;
    }
    printf("%s: %d vertices, %d triangles\n", in, surface.vertexCount, surface.triangleCount);
    fflush(stdout);

    struct sigaction action, oldInt, oldTerm;
    memset(&action, 0, sizeof action);
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &oldInt);
    sigaction(SIGTERM, &action, &oldTerm);
    def.interrupt = &s_interrupt;
    icTetMesh mesh;
    icResult result = icTetrahedralize(&surface, &def, &mesh, &diag);
    sigaction(SIGINT, &oldInt, NULL);
    sigaction(SIGTERM, &oldTerm, NULL);
    icTriSurface_Destroy(&surface);
    if (result != IC_OK) {
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "isochor tetrahedralize: %s\n", text);
        if (s_interrupt) return 128 + (int)s_interrupt;
        return result == IC_ERR_UNSUPPORTED ? 2 : 1;
    }
    icMeshQuality q;
    icTetMesh_Quality(&mesh, &q);
    printf("tetgen: %d vertices, %d tets, volume %.6g m^3\n", mesh.vertexCount, mesh.tetCount,
           q.totalVolume);
    printf("quality: dihedral angles %.2f to %.2f deg, smallest face angle %.2f deg, "
           "edge ratio <= %.2f, tet volume %.3g to %.3g m^3, %d inverted\n",
           q.minDihedralDeg, q.maxDihedralDeg, q.minFaceAngleDeg, q.maxEdgeRatio, q.minVolume,
           q.maxVolume, q.invertedCount);
    // The folder was checked before TetGen ran; it is made only now that there is a mesh.
    char dir[1024];
    const char *slash = strrchr(out, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - out) : 0, out);
    status = 0;
    if ((dir[0] && icMakeDirectories(dir, &diag) != IC_OK) ||
        icSaveMesh(out, &mesh, false, &diag) != IC_OK) {
        icDiag_Format(&diag, text, sizeof text);
        fprintf(stderr, "isochor tetrahedralize: %s\n", text);
        status = 1;
    } else {
        printf("wrote %s\n", out);
    }
    icTetMesh_Destroy(&mesh);
    return status;
}
