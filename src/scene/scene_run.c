// SPDX-License-Identifier: MIT
// The scene runner: steps the frames, tracks volume and failures, writes VTU frames and a
// .pvd that is valid after every frame, and prints progress.
#define _POSIX_C_SOURCE 200809L
#include "scene/checkpoint_file.h"
#include "scene/scene_contact.h"
#include "scene/scene_internal.h"
#include "scene/scene_rods.h"

#include "core/core.h"
#include "isochor/incompressible.h"

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
    icReal *vertexPressure; ///< (vertexCount) incompressible solver only
    int fileCount, fileCapacity;
    char *names;          ///< (fileCapacity x 32)
    const char **files;   ///< (fileCapacity) into names
    icReal *times;        ///< (fileCapacity)
    int *frameNumbers;    ///< (fileCapacity) frame of each listed file (for checkpoints)
} icRunOutput;

static void releaseOutput(icRunOutput *o) {
    icFree(o->displacement);
    icFree(o->J);
    icFree(o->pressure);
    icFree(o->vertexPressure);
    icFree(o->stressNorm);
    icFree(o->names);
    icFree((void *)o->files);
    icFree(o->times);
    icFree(o->frameNumbers);
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
    icField pointFields[3] = {{"displacement", 3, o->displacement},
                              {"velocity", 3, icWorld_GetVelocities(world)},
                              {"vertex_pressure", 1, o->vertexPressure}};
    // Only the incompressible solver has vertex pressures (its one-ring constraints).
    int pointFieldCount = o->vertexPressure && icWorld_GetVertexPressure(world, o->vertexPressure) ? 3 : 2;
    icField cellFields[3] = {
        {"J", 1, o->J}, {"pressure", 1, o->pressure}, {"stress_norm", 1, o->stressNorm}};
    icResult r = icWriteVtu(path, o->vertexCount, x, o->tetCount, icWorld_GetTets(world),
                            pointFields, pointFieldCount, cellFields, 3, diag);
    if (r != IC_OK) return r;
    o->files[o->fileCount] = name;
    o->times[o->fileCount] = icWorld_GetTime(world);
    o->frameNumbers[o->fileCount] = frame;
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
        // A run killed while writing (SIGKILL, power loss) left its temporaries here.
        if (r == IC_OK) r = icAtomicFile_RemoveStale(dir, NULL, diag);
        if (r != IC_OK) return r;
    }

    int nv = o->vertexCount, nt = o->tetCount;
    o->J = IC_ALLOC(icReal, (size_t)nt + 1);
    if (!o->J) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, dir, 0, "cannot allocate J");
    if (!write) return IC_OK;

    o->fileCapacity = frames / every + 2;
    o->displacement = IC_ALLOC(icReal, 3 * (size_t)nv + 1);
    o->pressure = IC_ALLOC(icReal, (size_t)nt + 1);
    if (icWorld_GetDef(scene->world).solver == IC_SOLVER_INCOMPRESSIBLE &&
        !(o->vertexPressure = IC_ALLOC(icReal, (size_t)nv + 1)))
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, dir, 0, "cannot allocate output buffers");
    o->stressNorm = IC_ALLOC(icReal, (size_t)nt + 1);
    o->names = IC_ALLOC_ZERO(char, 32 * (size_t)o->fileCapacity);
    o->files = IC_ALLOC_ZERO(const char *, o->fileCapacity);
    o->times = IC_ALLOC(icReal, o->fileCapacity);
    o->frameNumbers = IC_ALLOC(int, o->fileCapacity);
    if (!o->displacement || !o->pressure || !o->stressNorm || !o->names || !o->files || !o->times ||
        !o->frameNumbers)
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

// A checkpoint after `frame`: the world's and the rods' states, the frames listed so far, the
// figures.
static icResult saveCheckpoint(const char *path, const icScene *scene, const icRunOutput *o,
                               const icSceneRodOutput *rodOut, int frame, double solverSeconds,
                               const icRunSummary *summary, icDiagnostic *diag) {
    icRunCheckpoint run;
    memset(&run, 0, sizeof run);
    run.frame = frame;
    run.solverSeconds = solverSeconds;
    run.volumeRatioMin = summary->volumeRatioMin;
    run.volumeRatioMax = summary->volumeRatioMax;
    run.sweepsTotal = summary->sweepsTotal;
    run.notConverged = summary->notConverged;
    run.outputCount = o->fileCount;
    run.outputFrames = o->frameNumbers;
    run.outputTimes = o->times;
    run.rodOutputCount = rodOut->count;
    run.rodOutputFrames = rodOut->frames;
    run.rodOutputTimes = rodOut->times;
    run.rodVolumeRatioMin = summary->rodVolumeRatioMin;
    run.rodVolumeRatioMax = summary->rodVolumeRatioMax;
    if (scene->rods) {
        run.rodStateSize = icRodWorld_GetStateSize(scene->rods);
        run.rodState = icAlloc(run.rodStateSize);
        if (!run.rodState) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
        icResult r = icRodWorld_SaveState(scene->rods, run.rodState, run.rodStateSize);
        if (r != IC_OK) {
            icFree(run.rodState);
            return icDiag_Set(diag, r, path, 0, "cannot make a checkpoint of the rods: %s",
                              icResult_Message(r));
        }
    }
    icResult r = icCheckpoint_Write(path, scene->world, &run, diag);
    icFree(run.rodState);
    return r;
}

// Resuming a scene with rods: their state from the checkpoint (checked whole first).
static icResult restoreRods(icScene *scene, const icRunCheckpoint *run, const char *path,
                            icDiagnostic *diag) {
    if (!scene->rods && run->rodState)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, path, 0,
                          "checkpoint holds rods but this scene has none: same scene?");
    if (!scene->rods) return IC_OK;
    if (!run->rodState)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, path, 0,
                          "checkpoint holds no rods but this scene has them: same scene?");
    icResult r = icRodWorld_LoadState(scene->rods, run->rodState, run->rodStateSize, diag);
    if (r != IC_OK && diag) {
        char message[sizeof diag->message];
        snprintf(message, sizeof message, "%s", diag->message);
        icDiag_Set(diag, r, path, 0, "checkpoint: %s", message);
    }
    return r;
}

// Resuming: the frames the checkpoint's run listed go back into the .pvd list, except a last
// frame off the output grid (a run stopped early by --frames lists its last frame).
static icResult restoreFrameList(icRunOutput *o, const icRunCheckpoint *run, int every,
                                 const char *path, icDiagnostic *diag) {
    o->fileCount = 0;
    for (int i = 0; i < run->outputCount; ++i) {
        if (run->outputFrames[i] % every != 0) continue;
        if (o->fileCount >= o->fileCapacity)
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, path, 0,
                              "checkpoint lists %d frames, more than this run writes",
                              run->outputCount);
        char *name = o->names + 32 * o->fileCount;
        snprintf(name, 32, "frame_%05d.vtu", run->outputFrames[i]);
        o->files[o->fileCount] = name;
        o->times[o->fileCount] = run->outputTimes[i];
        o->frameNumbers[o->fileCount] = run->outputFrames[i];
        ++o->fileCount;
    }
    return IC_OK;
}

icResult icScene_Run(icScene *scene, const icRunOptions *options, icRunSummary *summary,
                     icDiagnostic *diag) {
    icRunSummary localSummary;
    if (!summary) summary = &localSummary;
    memset(summary, 0, sizeof *summary);
    if (!scene || !scene->world)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, "", 0, "no scene loaded");
    // The rods' counts stand in every summary, a failed run's too.
    summary->rodVolumeRatioMin = summary->rodVolumeRatioMax = summary->rodVolumeRatioFinal = 1;
    if (scene->rods) {
        summary->rods = icRodWorld_GetRodCount(scene->rods);
        summary->rodSegments = icRodWorld_GetSegmentCount(scene->rods);
        summary->rodVertices = icRodWorld_GetVertexCount(scene->rods);
    }
    icRunOptions opt = options ? *options : icDefaultRunOptions();
    icWorld *world = scene->world;
    const char *name = scene->path[0] ? scene->path : "scene";
    int frames = opt.frames >= 0 ? opt.frames : scene->frames;
    int every = scene->outputEvery >= 1 ? scene->outputEvery : 1;
    bool writeVtu = opt.writeOutput && scene->writeVtu;
    bool write = writeVtu || (opt.writeOutput && (scene->writeObj || scene->writePly || scene->writePc2));
    // A scene of rods only writes rod frames (scene_rods.h), no empty tet frames.
    if (icWorld_GetVertexCount(world) == 0) writeVtu = false;

    // Resuming restores the state (scrambled already) and where the run stood.
    icRunCheckpoint resume;
    memset(&resume, 0, sizeof resume);
    if (opt.resumePath) {
        if (scene->writePc2 && opt.writeOutput)
            return icDiag_Set(diag, IC_ERR_UNSUPPORTED, opt.resumePath, 0,
                              "a run writing a pc2 point cache cannot be resumed (the cache is "
                              "written whole at the end); drop \"pc2\" from output.format");
        icResult r = icCheckpoint_Read(opt.resumePath, world, &resume, diag);
        if (r == IC_OK) r = restoreRods(scene, &resume, opt.resumePath, diag);
        if (r != IC_OK) {
            icRunCheckpoint_Destroy(&resume);
            return r;
        }
        if (resume.frame > frames) {
            int at = resume.frame; // read before the record is destroyed
            icRunCheckpoint_Destroy(&resume);
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, opt.resumePath, 0,
                              "checkpoint is at frame %d, past the run's %d frames", at, frames);
        }
        // Every frame advances the clock by dt: a state whose time is not its frame's was not
        // written by a run of this scene. The tolerance covers the rounding of summing dt
        // frame after frame (at most about frame^2 x 2^-53 x dt).
        double expected = resume.frame * (double)scene->dt;
        double slack = (double)scene->dt * (0.5 + 2.3e-16 * resume.frame * (double)resume.frame);
        // A scene of rods only keeps its clock in the rods (its tet world never steps).
        double time = icWorld_GetVertexCount(world) == 0 && scene->rods
                          ? icRodWorld_GetTime(scene->rods)
                          : icWorld_GetTime(world);
        if (!(fabs(time - expected) <= slack)) {
            int at = resume.frame;
            icRunCheckpoint_Destroy(&resume);
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, opt.resumePath, 0,
                              "checkpoint time %g s is not that of its frame %d (%d x dt %g s = "
                              "%g s): it was not written by a run of this scene",
                              time, at, at, (double)scene->dt, expected);
        }
        for (int b = 0; b < scene->bodyCount; ++b) scene->bodies[b].scramble = false;
    }

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
    if (result == IC_OK && opt.checkpointPath) {
        char checkpointDir[1024];
        icPath_Dir(opt.checkpointPath, checkpointDir, sizeof checkpointDir);
        result = icAtomicFile_RemoveStale(checkpointDir, NULL, diag);
    }
    icSurfaceOutput surfaceOut;
    memset(&surfaceOut, 0, sizeof surfaceOut);
    if (result == IC_OK && write && out.vertexCount > 0) { // none for a scene of rods only
        char stem[256];
        icPath_Stem(scene->path[0] ? scene->path : "scene", stem, sizeof stem);
        result = icSurfaceOutput_Open(&surfaceOut, scene, world, out.dir, stem[0] ? stem : "scene",
                                      every, diag);
    }
    // VIPER rods run beside the tet world (docs/viper.md); a resumed run lists the rod frames
    // its checkpoint's run wrote.
    icSceneRodOutput rodOut;
    memset(&rodOut, 0, sizeof rodOut);
    if (result == IC_OK)
        result = icSceneRods_Open(&rodOut, scene, out.dir, frames, every, write,
                                  opt.resumePath ? resume.rodOutputCount : -1,
                                  resume.rodOutputFrames, resume.rodOutputTimes, diag);
    int firstFrame = opt.resumePath ? resume.frame + 1 : 1;
    if (result == IC_OK && opt.resumePath && writeVtu)
        result = restoreFrameList(&out, &resume, every, opt.resumePath, diag);
    if (!opt.resumePath) {
        if (result == IC_OK && writeVtu) result = writeFrame(&out, world, 0, diag);
        if (result == IC_OK && write) result = icSurfaceOutput_Frame(&surfaceOut, world, 0, diag);
        if (result == IC_OK && write) result = icScene_WriteSkins(world, out.dir, 0, diag);
    }

    icReal ratio = icWorld_GetVolumeRatio(world);
    summary->volumeRatioMin = summary->volumeRatioMax = summary->volumeRatioFinal = ratio;
    icReal rodRest = 0;
    bool rodsOnly = scene->rods && icWorld_GetVertexCount(world) == 0;
    if (scene->rods) {
        const icRodWorld *rods = scene->rods;
        rodRest = icRodWorld_GetVolume(rods, 0, summary->rods, true);
        icReal now = rodRest > 0 ? icRodWorld_GetVolume(rods, 0, summary->rods, false) / rodRest : 1;
        summary->rodVolumeRatioMin = summary->rodVolumeRatioMax = summary->rodVolumeRatioFinal = now;
    }
    double solverSeconds = 0, lastDraw = -1;
    int done = firstFrame - 1;
    if (opt.resumePath) {
        summary->volumeRatioMin = resume.volumeRatioMin;
        summary->volumeRatioMax = resume.volumeRatioMax;
        summary->sweepsTotal = resume.sweepsTotal;
        summary->notConverged = resume.notConverged;
        if (scene->rods) {
            summary->rodVolumeRatioMin = resume.rodVolumeRatioMin;
            summary->rodVolumeRatioMax = resume.rodVolumeRatioMax;
        }
        solverSeconds = resume.solverSeconds;
        icRunCheckpoint_Destroy(&resume);
    }
    // A signal stops the step under way too, not only the run between frames (a frame of
    // 10^9 substeps would otherwise hold it for hours).
    icWorld_SetInterrupt(world, opt.interrupt);
    if (scene->rods) icRodWorld_SetInterrupt(scene->rods, opt.interrupt);
    for (int frame = firstFrame; frame <= frames && result == IC_OK; ++frame) {
        icStepStats stats;
        memset(&stats, 0, sizeof stats);
        double start = nowSeconds();
        int64_t stopsBefore = icWorld_GetHealth(world).stops;
        int64_t warningsBefore = icWorld_GetHealth(world).warnings;
        icResult step;
        if (scene->mode == IC_MODE_STATIC) {
            icWorld_AdvanceTime(world, scene->dt);
            step = icWorld_SolveStatic(world, &scene->staticDef, &stats);
            // The solve went back to its start, the clock's advance included.
            if (step == IC_ERR_INTERRUPTED) icWorld_AdvanceTime(world, -scene->dt);
            if (step == IC_ERR_NOT_CONVERGED) {
                ++summary->notConverged;
                step = IC_OK;
            }
        } else {
            // A scene of rods only has an empty tet world (nothing to step there).
            step = icWorld_GetVertexCount(world) > 0 ? icWorld_Step(world, scene->dt, &stats)
                                                     : IC_OK;
            // A Newton step that stops at max_iterations still advanced the state (to its
            // last iterate): counted like a static solve at its cap, not a failed run.
            if (step == IC_ERR_NOT_CONVERGED) {
                ++summary->notConverged;
                step = IC_OK;
            }
        }
        // The tet world is back at the previous frame (icWorld_SetInterrupt), and the rods
        // have not stepped; or the rods went back to the previous frame
        // (icRodWorld_SetInterrupt) after the tets stepped.
        bool tetsUndone = step == IC_ERR_INTERRUPTED;
        if (step == IC_OK) step = icSceneRods_Step(scene);
        bool rodsUndone = !tetsUndone && step == IC_ERR_INTERRUPTED;
        solverSeconds += nowSeconds() - start;
        // An undone frame's sweeps are not in the state a checkpoint resumes from.
        if (step != IC_ERR_INTERRUPTED) summary->sweepsTotal += stats.sweeps;

        ratio = icWorld_GetVolumeRatio(world);
        summary->volumeRatioFinal = ratio;
        // A signal during the frame: the run stops at the previous frame, whose files are
        // written. Its checkpoint is written when everything is back there: not when the rods
        // went back after the tets had stepped.
        if (step == IC_ERR_INTERRUPTED) {
            bool whole = tetsUndone || (rodsUndone && icWorld_GetVertexCount(world) == 0);
            bool checkpoint = whole && opt.checkpointPath;
            if (checkpoint)
                result = saveCheckpoint(opt.checkpointPath, scene, &out, &rodOut, frame - 1,
                                        solverSeconds, summary, diag);
            if (result == IC_OK)
                result = icDiag_Set(diag, IC_ERR_INTERRUPTED, name, 0,
                                    "interrupted during frame %d of %d: the run stops after frame "
                                    "%d%s%s", frame, frames, frame - 1,
                                    checkpoint ? "; checkpoint written to " : "",
                                    checkpoint ? opt.checkpointPath : "");
            break;
        }
        // The health policy "stop" undid the frame: the world keeps its last good state.
        if (step == IC_ERR_NUMERICAL && icWorld_GetHealth(world).stops > stopsBefore) {
            icHealthStats health = icWorld_GetHealth(world);
            summary->nan = stats.nan;
            summary->volumeRatioFinal = ratio;
            result = icDiag_Set(diag, IC_ERR_NUMERICAL, name, 0,
                                "frame %d: the health check stopped the run (%s); the world keeps "
                                "its state before this frame",
                                frame, health.lastWarning);
            break;
        }
        // The health check found a state without meaning (a diverged solve: the volume ratio,
        // or a Newton solve stopped far from its tolerance): its warning names the figure.
        if (step == IC_ERR_NUMERICAL && !stats.nan && isfinite(ratio) &&
            icWorld_GetHealth(world).warnings > warningsBefore) {
            summary->volumeRatioFinal = ratio;
            done = frame;
            result = icDiag_Set(diag, IC_ERR_NUMERICAL, name, 0, "frame %d: %s", frame,
                                icWorld_GetHealth(world).lastWarning);
            break;
        }
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
        if (rodRest > 0) {
            icReal r = icRodWorld_GetVolume(scene->rods, 0, summary->rods, false) / rodRest;
            summary->rodVolumeRatioFinal = r;
            if (r < summary->rodVolumeRatioMin) summary->rodVolumeRatioMin = r;
            if (r > summary->rodVolumeRatioMax) summary->rodVolumeRatioMax = r;
        }
        if (write && (frame % every == 0 || frame == frames)) {
            if (writeVtu) result = writeFrame(&out, world, frame, diag);
            if (result == IC_OK) result = icSurfaceOutput_Frame(&surfaceOut, world, frame, diag);
            // Embedded render surfaces (skins) follow their bodies into every written frame.
            if (result == IC_OK) result = icScene_WriteSkins(world, out.dir, frame, diag);
            if (result == IC_OK) result = icSceneRods_Frame(&rodOut, scene, frame, diag);
        }
        // A scene of rods only shows the rods' volume ratio (its tet world's is 1).
        icReal shown = rodsOnly ? summary->rodVolumeRatioFinal : ratio;
        if (opt.progress) {
            double now = nowSeconds();
            // Redraw at most ten times a second: printing can cost more than a small frame.
            if (now - lastDraw >= 0.1) {
                drawProgress(frame, frames, 1e3 * solverSeconds / frame, shown, false);
                lastDraw = now;
            }
        }
        if (opt.progressFn)
            opt.progressFn(frame, frames, 1e3 * solverSeconds / frame, shown, opt.progressContext);
        // Checkpoints come after the frame's files, so a resumed run starts at the next frame.
        bool interrupted = opt.interrupt && *opt.interrupt && frame < frames;
        if (result == IC_OK && opt.checkpointPath &&
            ((opt.checkpointEvery > 0 && frame % opt.checkpointEvery == 0) || interrupted))
            result = saveCheckpoint(opt.checkpointPath, scene, &out, &rodOut, frame, solverSeconds,
                                    summary, diag);
        if (result == IC_OK && interrupted) {
            result = icDiag_Set(diag, IC_ERR_INTERRUPTED, name, 0,
                                "interrupted after frame %d of %d%s%s", frame, frames,
                                opt.checkpointPath ? "; checkpoint written to " : "",
                                opt.checkpointPath ? opt.checkpointPath : "");
            break;
        }
    }
    icWorld_SetInterrupt(world, NULL); // the caller's flag may not outlive the run
    if (scene->rods) icRodWorld_SetInterrupt(scene->rods, NULL);
    summary->frames = done;
    summary->msPerFrame = done > 0 ? 1e3 * solverSeconds / done : 0;
    if (opt.progress) drawProgress(done, frames, summary->msPerFrame,
                                    rodsOnly ? summary->rodVolumeRatioFinal : ratio, true);
    if (out.J) measureTets(world, out.J, out.tetCount, summary);
    summary->health = icWorld_GetHealth(world);
    // The point cache is committed only for a run that ended well (written whole or not at all).
    icResult closed = icSurfaceOutput_Close(&surfaceOut, result == IC_OK, diag);
    if (result == IC_OK) result = closed;
    releaseOutput(&out);
    icSceneRods_Close(&rodOut);
    return result;
}
