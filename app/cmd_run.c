// SPDX-License-Identifier: MIT
// isochor run: loads a scene, runs its frames with progress on stderr, prints a summary and
// writes the run's figures as JSON; checkpoints, resumes, and stops cleanly on SIGINT/SIGTERM.
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "options.h"

#include "isochor/io.h"
#include "isochor/rod.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <unistd.h>

typedef struct icRunArgs {
    const char *scene;
    const char *outDir;    ///< NULL keeps the scene's
    const char *statsPath; ///< NULL writes none
    int frames;            ///< -1 keeps the scene's
    bool quiet, noOutput;
    int checkpointEvery;        ///< 0: only on SIGINT/SIGTERM
    const char *checkpointPath; ///< NULL: <out dir>/<scene stem>.ckpt
    const char *resumePath;     ///< NULL: start at frame 0
    int workers;                ///< -1 keeps the scene's; 0 = automatic
    int64_t maxMemory;          ///< 0: the library's default (half the physical memory)
    int64_t maxSceneBytes;      ///< 0: the library's default (64 MiB)
} icRunArgs;

static void usage(FILE *out) {
    fprintf(out,
            "usage: isochor run SCENE [--out DIR] [--frames N] [--stats FILE] [--quiet]\n"
            "                   [--no-output] [--workers N] [--checkpoint-every N]\n"
            "                   [--checkpoint FILE] [--resume FILE] [--max-memory BYTES]\n"
            "                   [--max-scene-size BYTES]\n"
            "  SCENE         scene file (JSON, see docs/scenes.md)\n"
            "  --out DIR     write frames to DIR instead of the scene's output.dir\n"
            "  --frames N    run N frames instead of the scene's frames (integer >= 0)\n"
            "  --stats FILE  write the run's figures as JSON to FILE\n"
            "  --quiet, -q   no progress on stderr (pre-flight notes and warnings still show)\n"
            "  --no-output   write no frame files (VTU, PVD)\n"
            "  --workers N   threads for every solver instead of the scene's \"workers\"\n"
            "                (0 = automatic: up to as many as the machine has cores; 0 to 1024)\n"
            "  --checkpoint-every N  write a checkpoint after every N-th frame (N >= 1)\n"
            "  --checkpoint FILE     where checkpoints go (default: OUT/<scene stem>.ckpt)\n"
            "  --resume FILE         continue the run that wrote this checkpoint (same scene)\n"
            "  --max-memory BYTES    memory budget of loading the scene (default: half the\n"
            "                        physical memory): a scene whose meshes and solver state\n"
            "                        are estimated to need more is refused before allocating\n"
            "  --max-scene-size BYTES  largest scene file read (default 64M)\n"
            "BYTES: a whole number, optionally followed by K, M, G or T (powers of 1024).\n"
            "Values go as '--opt value' or '--opt=value'; options are spelled whole.\n"
            "Before stepping, pre-flight notes warn of a body that will sag under its own\n"
            "weight, a substep too long for the stiffest element, or a mesh in other units\n"
            "(the scene key \"preflight\": false hides them).\n"
            "SIGINT or SIGTERM: the step under way stops within a substep (or Newton\n"
            "iteration) and goes back to the last whole frame; that frame's files are\n"
            "finished, a checkpoint of it and the stats are written, and the run exits with\n"
            "128 + the signal number (130, 143).\n"
            "exit status: 0 ok, 1 the run failed (NaN, health stop, cannot write), 2 bad scene,\n"
            "usage or checkpoint, 130/143 interrupted\n");
}

static void printDiag(const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "isochor run: %s\n", text);
}

// Digits only: "-3", "+3", "1e3", "3.0", " 3" and values past INT_MAX are refused, so a typo
// never silently becomes another frame count.
static bool parseCount(const char *text, int *value) {
    if (!text || !text[0]) return false;
    long long v = 0;
    for (const char *p = text; *p; ++p) {
        if (*p < '0' || *p > '9') return false;
        v = 10 * v + (*p - '0');
        if (v > INT_MAX) return false;
    }
    *value = (int)v;
    return true;
}

enum { OPT_NO_OUTPUT = 256, OPT_OUT, OPT_FRAMES, OPT_STATS, OPT_CHECKPOINT_EVERY, OPT_CHECKPOINT,
       OPT_RESUME, OPT_WORKERS, OPT_MAX_MEMORY, OPT_MAX_SCENE_SIZE };

static const struct option s_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"quiet", no_argument, NULL, 'q'},
    {"no-output", no_argument, NULL, OPT_NO_OUTPUT},
    {"out", required_argument, NULL, OPT_OUT},
    {"frames", required_argument, NULL, OPT_FRAMES},
    {"stats", required_argument, NULL, OPT_STATS},
    {"checkpoint-every", required_argument, NULL, OPT_CHECKPOINT_EVERY},
    {"checkpoint", required_argument, NULL, OPT_CHECKPOINT},
    {"resume", required_argument, NULL, OPT_RESUME},
    {"workers", required_argument, NULL, OPT_WORKERS},
    {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
    {"max-scene-size", required_argument, NULL, OPT_MAX_SCENE_SIZE},
    {NULL, 0, NULL, 0}};

// A file or folder name; an empty one ("--out ''" or "--out=") is refused.
static int setName(const char **field, const char *value, const char *option, const char *what) {
    if (value[0]) {
        *field = value;
        return 0;
    }
    fprintf(stderr, "isochor run: --%s needs %s\n", option, what);
    return 2;
}

// One option and its value into args. Returns 0 when good, else 2 (after saying why).
static int applyOption(int c, const char *value, icRunArgs *args) {
    switch (c) {
    case 'q':
        args->quiet = true;
        return 0;
    case OPT_NO_OUTPUT:
        args->noOutput = true;
        return 0;
    case OPT_OUT:
        return setName(&args->outDir, value, "out", "a folder");
    case OPT_STATS:
        return setName(&args->statsPath, value, "stats", "a file name");
    case OPT_CHECKPOINT:
        return setName(&args->checkpointPath, value, "checkpoint", "a file name");
    case OPT_RESUME:
        return setName(&args->resumePath, value, "resume", "a checkpoint file");
    case OPT_CHECKPOINT_EVERY:
        if (parseCount(value, &args->checkpointEvery) && args->checkpointEvery >= 1) return 0;
        fprintf(stderr,
                "isochor run: --checkpoint-every '%s' is not a whole number of frames (1 to %d, "
                "digits only)\n",
                value, INT_MAX);
        return 2;
    case OPT_FRAMES:
        if (parseCount(value, &args->frames)) return 0;
        fprintf(stderr,
                "isochor run: --frames '%s' is not a whole number of frames (0 to %d, digits "
                "only)\n",
                value, INT_MAX);
        return 2;
    case OPT_WORKERS:
        if (parseCount(value, &args->workers) && args->workers <= 1024) return 0;
        fprintf(stderr,
                "isochor run: --workers '%s' is not a number of threads (0 = automatic, 1 to "
                "1024, digits only)\n",
                value);
        return 2;
    case OPT_MAX_MEMORY:
    case OPT_MAX_SCENE_SIZE:
        if (icCli_ParseBytes(value, c == OPT_MAX_MEMORY ? &args->maxMemory : &args->maxSceneBytes))
            return 0;
        fprintf(stderr,
                "isochor run: --%s '%s' is not a number of bytes (a whole number > 0, optionally "
                "followed by K, M, G or T)\n",
                c == OPT_MAX_MEMORY ? "max-memory" : "max-scene-size", value);
        return 2;
    default:
        return 2;
    }
}

// Returns 0 when the arguments are good, else the exit code (0 after --help, 2 on errors).
static int parseArgs(int argc, char **argv, icRunArgs *args, bool *help) {
    memset(args, 0, sizeof *args);
    args->frames = -1;
    args->workers = -1;
    *help = false;
    icCliOptions cli;
    if (!icCliOptions_Begin(&cli, "isochor run", argc, argv, s_options, "hq")) return 1;
    int status = 0, c;
    const char *value;
    while (status == 0 && (c = icCliOptions_Next(&cli, &value)) != 0) {
        if (c < 0) {
            status = 2;
        } else if (c == 'h') {
            *help = true;
            break;
        } else {
            status = applyOption(c, value, args);
        }
    }
    if (status == 0 && !*help) {
        for (int i = 0; i < cli.operandCount; ++i) {
            if (args->scene) {
                fprintf(stderr, "isochor run: one scene at a time ('%s' and '%s')\n",
                        args->scene, cli.operands[i]);
                status = 2;
                break;
            }
            args->scene = cli.operands[i];
        }
        if (status == 0 && !args->scene) {
            fprintf(stderr, "isochor run: no scene given\n");
            status = 2;
        }
    }
    icCliOptions_End(&cli);
    return status;
}

// Progress for logs and pipes: a plain line whenever another 5 % of the frames are done,
// since a bar redrawn with carriage returns turns into one unreadable line there.
typedef struct icLogProgress {
    int lastBucket;
} icLogProgress;

static void logProgress(int done, int total, double msPerFrame, icReal volumeRatio,
                        void *context) {
    icLogProgress *log = context;
    int bucket = total > 0 ? (int)(20LL * done / total) : 20;
    if (bucket == log->lastBucket && done != total) return;
    log->lastBucket = bucket;
    fprintf(stderr, "frame %d/%d (%3d%%)  %.2f ms/frame  V/V0 %.6f\n", done, total,
            total > 0 ? (int)(100LL * done / total) : 100, msPerFrame, (double)volumeRatio);
    fflush(stderr);
}

// SIGINT/SIGTERM: the solvers see the flag once per substep and the step goes back to the
// last whole frame (or the runner sees it after a frame); it writes that frame's checkpoint
// and stops. A second signal ends the process at once (the handler is reset), which
// still leaves no truncated file under a final name: every output is written atomically.
static volatile sig_atomic_t s_interrupt;

static void onSignal(int signal) {
    s_interrupt = signal;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigaction(signal, &action, NULL);
}

static void installSignals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    // Restart interrupted reads and writes: a signal must not turn into a failed frame file.
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

static double nowSeconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// The name the runner gives the collection: <scene file stem>.pvd in the output folder.
static void pvdPathOf(const char *scenePath, const char *dir, char *out, size_t size) {
    const char *slash = strrchr(scenePath, '/');
    const char *name = slash ? slash + 1 : scenePath;
    const char *dot = strrchr(name, '.');
    int length = (int)((dot && dot != name) ? (size_t)(dot - name) : strlen(name));
    if (length == 0)
        snprintf(out, size, "%s/scene.pvd", dir);
    else
        snprintf(out, size, "%s/%.*s.pvd", dir, length, name);
}

// "%.6f" that says NaN plainly (printf writes "-nan" or "nan" depending on the sign bit).
static const char *fixed6(icReal value, char buffer[32]) {
    if (isnan(value)) return "NaN";
    snprintf(buffer, 32, "%.6f", (double)value);
    return buffer;
}

// Why the order that runs is not the one asked for: the layout's only fallback is "cell"
// without hex cell data, which runs greedy (src/xpbd/layout.c).
static const char s_cellFallback[] = "not every body has hex cell data (generated meshes have it)";

// The XPBD sweep as it ran: order, arithmetic, kernel width, threads and colours.
static void printSweep(const icSweepInfo *sweep) {
    if (!sweep->packed) {
        printf("sweep          reference (one tet at a time), %s order, %d colours, %d worker%s\n",
               icColouringName(sweep->scheme), sweep->colours, sweep->workers,
               sweep->workers == 1 ? "" : "s");
        return;
    }
    printf("sweep          %s order, %s, %s, %d worker%s, %d colours",
           icColouringName(sweep->scheme),
           sweep->precision == IC_PRECISION_FLOAT ? "float" : "double", icSimdName(sweep->simd),
           sweep->workers, sweep->workers == 1 ? "" : "s", sweep->colours);
    if (sweep->chunks > 1) printf(" in %d chunks", sweep->chunks);
    if (sweep->overflowTets > 0) printf(", %d tets one by one", sweep->overflowTets);
    if (sweep->scheme == IC_COLOURING_PAIRS) printf(", %d tets paired", sweep->pairedTets);
    if (sweep->asked != sweep->scheme)
        printf(" (asked: %s; %s)", icColouringName(sweep->asked), s_cellFallback);
    printf("\n");
}

static void printSummary(const icScene *scene, const icRunSummary *s, int framesAsked,
                         double wallSeconds, const char *dir, bool wrote, const char *stats,
                         const icSweepInfo *sweep) {
    printf("scene          %s\n", scene->path);
    printf("mode           %s, dt %g s\n", scene->mode == IC_MODE_STATIC ? "static" : "dynamic",
           (double)scene->dt);
    printf("frames         %d of %d\n", s->frames, framesAsked);
    // A scene of rods only has an empty tet world: its tet lines (V/V0, J, inverted tets,
    // health) would say nothing, so the rods' own figures stand in for them.
    bool tets = s->tets > 0 || !scene->rods;
    if (tets) printf("mesh           %d vertices, %d tets\n", s->vertices, s->tets);
    if (scene->rods) {
        int workers = icRodWorld_GetWorkerCount(scene->rods);
        char a[32], b[32], c[32];
        printf("rods           %d rods, %d segments, %d vertices, %d worker%s\n", s->rods,
               s->rodSegments, s->rodVertices, workers, workers == 1 ? "" : "s");
        printf("rod volume     V/V0 final %s, min %s, max %s\n", fixed6(s->rodVolumeRatioFinal, a),
               fixed6(s->rodVolumeRatioMin, b), fixed6(s->rodVolumeRatioMax, c));
    }
    if (sweep) printSweep(sweep);
    icWorldDef def = icWorld_GetDef(scene->world);
    if (sweep && scene->mode != IC_MODE_STATIC && def.maxSubstepStrain > 0 && s->frames > 0)
        // Adaptive substeps (docs/scenes.md): how many the run took.
        printf("substeps       %.1f a frame on average (%d to %d, adaptive)\n",
               (double)s->sweepsTotal / ((double)s->frames * def.iterations), def.substeps,
               def.maxSubsteps > def.substeps ? def.maxSubsteps : def.substeps);
    printf("time           %.3f ms/frame (solver), %.3f s in all\n", (double)s->msPerFrame,
           wallSeconds);
    char a[32], b[32], c[32];
    if (tets)
        printf("V/V0           final %s, min %s, max %s\n", fixed6(s->volumeRatioFinal, a),
               fixed6(s->volumeRatioMin, b), fixed6(s->volumeRatioMax, c));
    // The health checks look at every step: the worst of them says more than the last frame
    // (a body resting on the ground hides the impact's squashed tets).
    const icHealthStats *h = &s->health;
    if (tets && h->steps > 0) {
        printf("max |J-1|      %s at the end, %s at worst (any step)\n", fixed6(s->maxAbsJMinus1, a),
               fixed6(h->maxTetJMinus1Seen, b));
        printf("inverted tets  %d at the end, %d at worst (any step)\n", s->invertedTetsFinal,
               h->maxInvertedSeen);
    } else if (tets) {
        printf("max |J-1|      %s (at the end)\n", fixed6(s->maxAbsJMinus1, a));
        printf("inverted tets  %d (at the end)\n", s->invertedTetsFinal);
    }
    printf("NaN            %s\n", s->nan ? "yes" : "no");
    if (scene->mode == IC_MODE_STATIC || s->notConverged > 0)
        printf("not converged  %d of %d frames stopped at their iteration cap\n",
               s->notConverged, s->frames);
    if (wrote) {
        char pvd[2200];
        printf("output         %s\n", dir);
        // The tet collection exists only with tets; rods write theirs (skin.pvd only with a
        // skinned surface), named here when they are on disk.
        if (icWorld_GetVertexCount(scene->world) > 0) {
            pvdPathOf(scene->path, dir, pvd, sizeof pvd);
            printf("pvd            %s\n", pvd);
        }
        const char *rodLists[3] = {"rods", "pills", "skin"};
        for (int k = 0; scene->rods && k < 3; ++k) {
            snprintf(pvd, sizeof pvd, "%s/%s.pvd", dir, rodLists[k]);
            if (access(pvd, F_OK) == 0) printf("pvd            %s\n", pvd);
        }
    } else {
        printf("output         none\n");
    }
    if (h->warnings > 0) {
        printf("health         %lld warnings: %lld non-finite, %lld speed, %lld inversion, %lld "
               "volume",
               (long long)h->warnings, (long long)h->nonFiniteSteps, (long long)h->speedWarnings,
               (long long)h->inversionWarnings, (long long)h->volumeWarnings);
        if (h->solverWarnings) printf(", %lld solver", (long long)h->solverWarnings);
        if (h->clampedVertices) printf(", %lld velocities clamped", (long long)h->clampedVertices);
        if (h->stops) printf(", stopped");
        printf("\n               last: %s\n", h->lastWarning);
    } else if (tets) {
        printf("health         no warnings in %lld checked steps\n", (long long)h->steps);
    } else {
        printf("health         none: the health checks watch tets, and this scene has none\n");
    }
    if (stats) printf("stats          %s\n", stats);
    fflush(stdout);
}

int icCli_Run(int argc, char **argv) {
    icRunArgs args;
    bool help;
    int status = parseArgs(argc, argv, &args, &help);
    if (help) {
        usage(stdout);
        return 0;
    }
    if (status != 0) {
        usage(stderr);
        return status;
    }

    icScene scene;
    icDiagnostic diag = {0};
    icSceneLoadOptions loadOptions = icDefaultSceneLoadOptions();
    loadOptions.workers = args.workers;
    loadOptions.maxMemory = args.maxMemory;
    loadOptions.maxFileBytes = args.maxSceneBytes;
    if (icScene_LoadWith(args.scene, &loadOptions, &scene, &diag) != IC_OK) {
        printDiag(&diag);
        return 2;
    }
    // Figures that predict a surprise (a body that sags, units), said before a long run.
    icPreflightReport preflight;
    if (scene.preflight && icScene_Preflight(&scene, &preflight) == IC_OK)
        icPreflight_Print(&preflight, stderr, "isochor run: ", false);

    // Checkpoints go beside the frames unless told otherwise.
    char checkpointPath[2200];
    const char *outDir = args.outDir ? args.outDir : scene.outputDir;
    if (args.checkpointPath) {
        snprintf(checkpointPath, sizeof checkpointPath, "%s", args.checkpointPath);
    } else {
        const char *slash = strrchr(args.scene, '/');
        const char *base = slash ? slash + 1 : args.scene;
        const char *dot = strrchr(base, '.');
        int length = (int)((dot && dot != base) ? (size_t)(dot - base) : strlen(base));
        snprintf(checkpointPath, sizeof checkpointPath, "%s/%.*s.ckpt", outDir, length, base);
    }

    icRunOptions options = icDefaultRunOptions();
    options.outputDir = args.outDir;
    options.checkpointEvery = args.checkpointEvery;
    options.checkpointPath = checkpointPath;
    options.resumePath = args.resumePath;
    options.interrupt = &s_interrupt;
    options.frames = args.frames;
    options.writeOutput = !args.noOutput;
    icLogProgress log = {-1};
    if (!args.quiet) {
        // A terminal gets the runner's bar redrawn in place; logs get plain lines.
        if (isatty(fileno(stderr))) {
            options.progress = true;
        } else {
            options.progressFn = logProgress;
            options.progressContext = &log;
        }
    }
    int framesAsked = args.frames >= 0 ? args.frames : scene.frames;
    const char *dir = args.outDir ? args.outDir : scene.outputDir;
    bool wrote = options.writeOutput && scene.writeVtu;

    // The XPBD sweep's order as resolved (the next step builds the same layout), said up front
    // when it is not the one the scene asked for.
    icSweepInfo sweep;
    bool haveSweep = icWorld_GetDef(scene.world).solver == IC_SOLVER_XPBD &&
                     icWorld_GetTetCount(scene.world) > 0 &&
                     icWorld_GetSweepInfo(scene.world, &sweep) == IC_OK;
    if (haveSweep && sweep.packed && sweep.asked != sweep.scheme)
        fprintf(stderr, "isochor run: note: \"colouring\": \"%s\" runs as \"%s\": %s\n",
                icColouringName(sweep.asked), icColouringName(sweep.scheme),
                s_cellFallback);

    icRunSummary summary;
    installSignals();
    double start = nowSeconds();
    icResult result = icScene_Run(&scene, &options, &summary, &diag);
    double wallSeconds = nowSeconds() - start;
    // A failed run still reports what it measured: the figures say how far it got.
    if (result != IC_OK) printDiag(&diag);
    status = result == IC_OK ? 0 : 1;
    if (result == IC_ERR_INTERRUPTED) status = 128 + (int)s_interrupt;
    // A checkpoint that cannot be resumed from is a bad input, like a bad scene.
    if (args.resumePath && summary.frames == 0 && result != IC_OK && result != IC_ERR_INTERRUPTED &&
        (diag.code == IC_ERR_PARSE || diag.code == IC_ERR_TRUNCATED || diag.code == IC_ERR_BAD_VALUE ||
         diag.code == IC_ERR_UNSUPPORTED || diag.code == IC_ERR_NOT_FINITE || diag.code == IC_ERR_IO) &&
        strcmp(diag.file, args.resumePath) == 0)
        status = 2;
    // Nothing ran: the error is the whole answer (no summary of an empty world, no stats).
    if (status == 2) {
        icScene_Destroy(&scene);
        return status;
    }

    if (args.statsPath) {
        icDiagnostic statsDiag = {0};
        if (icWriteRunSummary(args.statsPath, &summary, &statsDiag) != IC_OK) {
            printDiag(&statsDiag);
            args.statsPath = NULL;
            status = 1;
        }
    }
    printSummary(&scene, &summary, framesAsked, wallSeconds, dir, wrote, args.statsPath,
                 haveSweep ? &sweep : NULL);
    // Frames whose solve hit its iteration cap are a property of the scene's settings, not a
    // failure of the run: reported, exit status unchanged.
    if (summary.notConverged > 0)
        fprintf(stderr,
                "isochor run: warning: %d frames stopped at their iteration cap (max_sweeps or "
                "max_iterations) before reaching the tolerance\n",
                summary.notConverged);
    icScene_Destroy(&scene);
    return status;
}
