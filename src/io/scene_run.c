// SPDX-License-Identifier: MIT
// The scene runner: steps the frames, tracks volume and failures, writes VTU frames and a
// .pvd that is valid after every frame, and prints progress.
#define _POSIX_C_SOURCE 200809L
#include "io/scene_internal.h"

#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double nowSeconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Frame output: buffers for the fields and the list of frames the .pvd names.
typedef struct icRunOutput {
    char dir[1024];
    char pvdPath[1200];
    int vertexCount, tetCount;
    icReal *displacement; ///< (vertexCount x 3)
    icReal *J, *pressure, *stressNorm; ///< (tetCount)
    int fileCount, fileCapacity;
    char *names;          ///< (fileCapacity x 32)
    const char **files;   ///< (fileCapacity) into names
    icReal *times;        ///< (fileCapacity)
} icRunOutput;

static void releaseOutput(icRunOutput *o) {
    icFree(o->displacement);
    icFree(o->J);
    icFree(o->pressure);
    icFree(o->stressNorm);
    icFree(o->names);
    icFree((void *)o->files);
    icFree(o->times);
}

static icResult writeFrame(icRunOutput *o, icWorld *world, int frame, icDiagnostic *diag) {
    if (o->fileCount >= o->fileCapacity)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, o->pvdPath, 0, "too many frames");
    const icReal *x = icWorld_GetPositions(world);
    const icReal *rest = icWorld_GetRestPositions(world);
    for (int i = 0; i < 3 * o->vertexCount; ++i) o->displacement[i] = x[i] - rest[i];
    icWorld_GetTetFields(world, o->J, o->pressure, o->stressNorm);

    char *name = o->names + 32 * o->fileCount;
    snprintf(name, 32, "frame_%05d.vtu", frame);
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", o->dir, name);
    icField pointFields[2] = {{"displacement", 3, o->displacement},
                              {"velocity", 3, icWorld_GetVelocities(world)}};
    icField cellFields[3] = {
        {"J", 1, o->J}, {"pressure", 1, o->pressure}, {"stress_norm", 1, o->stressNorm}};
    icResult r = icWriteVtu(path, o->vertexCount, x, o->tetCount, icWorld_GetTets(world),
                            pointFields, 2, cellFields, 3, diag);
    if (r != IC_OK) return r;
    o->files[o->fileCount] = name;
    o->times[o->fileCount] = icWorld_GetTime(world);
    ++o->fileCount;
    // Rewritten after every frame, so a run that is killed still leaves a valid collection.
    return icWritePvd(o->pvdPath, o->fileCount, o->files, o->times, diag);
}

// Prepares frame output (folder, buffers, frame list) when write is set; the J buffer
// always, for the final figures.
static icResult openOutput(icRunOutput *o, const icScene *scene, const char *dir, int frames,
                           int every, bool write, icDiagnostic *diag) {
    if (write && strlen(dir) >= sizeof o->dir)
        return icDiag_Set(diag, IC_ERR_IO, dir, 0, "output path is too long");
    snprintf(o->dir, sizeof o->dir, "%s", dir);
    char stem[256];
    icPath_Stem(scene->path[0] ? scene->path : "scene", stem, sizeof stem);
    snprintf(o->pvdPath, sizeof o->pvdPath, "%s/%s.pvd", dir, stem[0] ? stem : "scene");
    if (write) {
        icResult r = icMakeDirectories(dir, diag);
        if (r != IC_OK) return r;
    }

    int nv = o->vertexCount, nt = o->tetCount;
    o->J = IC_ALLOC(icReal, (size_t)nt + 1);
    if (!o->J) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, dir, 0, "cannot allocate J");
    if (!write) return IC_OK;

    o->fileCapacity = frames / every + 2;
    o->displacement = IC_ALLOC(icReal, 3 * (size_t)nv + 1);
    o->pressure = IC_ALLOC(icReal, (size_t)nt + 1);
    o->stressNorm = IC_ALLOC(icReal, (size_t)nt + 1);
    o->names = IC_ALLOC_ZERO(char, 32 * (size_t)o->fileCapacity);
    o->files = IC_ALLOC_ZERO(const char *, o->fileCapacity);
    o->times = IC_ALLOC(icReal, o->fileCapacity);
    if (!o->displacement || !o->pressure || !o->stressNorm || !o->names || !o->files || !o->times)
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, dir, 0, "cannot allocate output buffers");
    return IC_OK;
}

// "[#####.....] 60/120 frames  12.3 ms/frame  V/V0 0.9998", redrawn in place.
static void drawProgress(int done, int total, double msPerFrame, icReal volumeRatio, bool last) {
    enum { width = 30 };
    char bar[width + 1];
    int filled = total > 0 ? (int)((long long)done * width / total) : width;
    for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
    bar[width] = 0;
    fprintf(stderr, "\r[%s] %d/%d frames  %.1f ms/frame  V/V0 %.4f", bar, done, total, msPerFrame,
            (double)volumeRatio);
    if (last) fputc('\n', stderr);
    fflush(stderr);
}

// Final per-tet figures: max |J - 1| (NaN when any J is NaN) and det F <= 0 count.
static void measureTets(icWorld *world, icReal *J, int tetCount, icRunSummary *summary) {
    icWorld_GetTetFields(world, J, NULL, NULL);
    icReal worst = 0;
    int inverted = 0;
    for (int t = 0; t < tetCount; ++t) {
        icReal d = fabs(J[t] - 1);
        if (!(d <= worst)) worst = d;
        if (J[t] <= 0) ++inverted;
    }
    summary->maxAbsJMinus1 = worst;
    summary->invertedTetsFinal = inverted;
}

icResult icScene_Run(icScene *scene, const icRunOptions *options, icRunSummary *summary,
                     icDiagnostic *diag) {
    icRunSummary localSummary;
    if (!summary) summary = &localSummary;
    memset(summary, 0, sizeof *summary);
    if (!scene || !scene->world)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no scene loaded");
    icRunOptions opt = options ? *options : icDefaultRunOptions();
    icWorld *world = scene->world;
    const char *name = scene->path[0] ? scene->path : "scene";
    int frames = opt.frames >= 0 ? opt.frames : scene->frames;
    int every = scene->outputEvery >= 1 ? scene->outputEvery : 1;
    bool writeVtu = opt.writeOutput && scene->writeVtu;
    bool write = writeVtu || (opt.writeOutput && (scene->writeObj || scene->writePly || scene->writePc2));

    // Scrambles apply once, at the start of the first run (then the flag is consumed).
    for (int b = 0; b < scene->bodyCount; ++b) {
        if (!scene->bodies[b].scramble) continue;
        icScene_Scramble(world, &scene->bodies[b]);
        scene->bodies[b].scramble = false;
    }

    icRunOutput out;
    memset(&out, 0, sizeof out);
    out.vertexCount = icWorld_GetVertexCount(world);
    out.tetCount = icWorld_GetTetCount(world);
    summary->vertices = out.vertexCount;
    summary->tets = out.tetCount;
    icResult result = openOutput(&out, scene, opt.outputDir ? opt.outputDir : scene->outputDir,
                                 frames, every, write, diag);
    icSurfaceOutput surfaceOut;
    memset(&surfaceOut, 0, sizeof surfaceOut);
    if (result == IC_OK && write) {
        char stem[256];
        icPath_Stem(scene->path[0] ? scene->path : "scene", stem, sizeof stem);
        result = icSurfaceOutput_Open(&surfaceOut, scene, world, out.dir, stem[0] ? stem : "scene",
                                      every, diag);
    }
    if (result == IC_OK && writeVtu) result = writeFrame(&out, world, 0, diag);
    if (result == IC_OK && write) result = icSurfaceOutput_Frame(&surfaceOut, world, 0, diag);

    icReal ratio = icWorld_GetVolumeRatio(world);
    summary->volumeRatioMin = summary->volumeRatioMax = summary->volumeRatioFinal = ratio;
    double solverSeconds = 0, lastDraw = -1;
    int done = 0;
    for (int frame = 1; frame <= frames && result == IC_OK; ++frame) {
        icStepStats stats;
        memset(&stats, 0, sizeof stats);
        double start = nowSeconds();
        icResult step;
        if (scene->mode == IC_MODE_STATIC) {
            icWorld_AdvanceTime(world, scene->dt);
            step = icWorld_SolveStatic(world, &scene->staticDef, &stats);
            if (step == IC_ERR_NOT_CONVERGED) {
                ++summary->notConverged;
                step = IC_OK;
            }
        } else {
            step = icWorld_Step(world, scene->dt, &stats);
            // A Newton step that stops at max_iterations still advanced the state (to its
            // last iterate): counted like a static solve at its cap, not a failed run.
            if (step == IC_ERR_NOT_CONVERGED) {
                ++summary->notConverged;
                step = IC_OK;
            }
        }
        solverSeconds += nowSeconds() - start;
        summary->sweepsTotal += stats.sweeps;

        ratio = icWorld_GetVolumeRatio(world);
        summary->volumeRatioFinal = ratio;
        if (step == IC_ERR_NUMERICAL || stats.nan || !isfinite(ratio)) {
            summary->nan = true;
            done = frame;
            result = icDiag_Set(diag, IC_ERR_NUMERICAL, name, 0,
                                "frame %d: the simulation produced NaN or infinite positions",
                                frame);
            break;
        }
        if (step != IC_OK) {
            result = icDiag_Set(diag, step, name, 0, "frame %d: the step failed: %s", frame,
                                icResult_Message(step));
            break;
        }
        done = frame;
        if (ratio < summary->volumeRatioMin) summary->volumeRatioMin = ratio;
        if (ratio > summary->volumeRatioMax) summary->volumeRatioMax = ratio;
        if (write && (frame % every == 0 || frame == frames)) {
            if (writeVtu) result = writeFrame(&out, world, frame, diag);
            if (result == IC_OK) result = icSurfaceOutput_Frame(&surfaceOut, world, frame, diag);
        }
        if (opt.progress) {
            double now = nowSeconds();
            // Redraw at most ten times a second: printing can cost more than a small frame.
            if (now - lastDraw >= 0.1) {
                drawProgress(frame, frames, 1e3 * solverSeconds / frame, ratio, false);
                lastDraw = now;
            }
        }
        if (opt.progressFn)
            opt.progressFn(frame, frames, 1e3 * solverSeconds / frame, ratio, opt.progressContext);
    }
    summary->frames = done;
    summary->msPerFrame = done > 0 ? 1e3 * solverSeconds / done : 0;
    if (opt.progress) drawProgress(done, frames, summary->msPerFrame, ratio, true);
    if (out.J) measureTets(world, out.J, out.tetCount, summary);
    // The point cache is committed only for a run that ended well (written whole or not at all).
    icResult closed = icSurfaceOutput_Close(&surfaceOut, result == IC_OK, diag);
    if (result == IC_OK) result = closed;
    releaseOutput(&out);
    return result;
}
