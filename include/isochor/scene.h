// SPDX-License-Identifier: MIT
/// \file
/// JSON scenes, the scene runner, checkpoint files and run summaries. The isochor_scene
/// library: it uses only the public engine API and isochor_formats, and needs cJSON.
#pragma once

#include "isochor/formats.h"
#include "isochor/world.h"

#include <signal.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

// ---------------------------------------------------------------------------------------
// Scenes (JSON, see docs/scenes.md)

/// How a scene's frames advance.
typedef enum icSolverMode {
    IC_MODE_DYNAMIC = 0, ///< time stepping with the world's solver, each frame = one step of dt
    IC_MODE_STATIC,      ///< each frame: advance kinematic pins by dt, then a static solve
} icSolverMode;

/// Per-body initial conditions a scene can ask for (the paper's scramble/unfold tests).
typedef struct icSceneBody {
    icBodyId id;         ///< the body in the scene's world
    bool scramble;       ///< collapse into a plane and randomise positions there
    icVec3 scrambleNormal; ///< normal of the scramble plane
    uint64_t scrambleSeed; ///< seed of the scramble's random positions
    icSoftBodyDef material; ///< the body's def as created (material, translation, velocity)
    int pinnedVertices;     ///< vertices its "pin" boxes hold
    bool attached;          ///< some of its vertices follow bones ("attach")
} icSceneBody;

/// Most soft bodies one scene holds.
#define IC_SCENE_MAX_BODIES 64

/// A loaded scene: its world, timing, solver mode and output settings.
typedef struct icScene {
    char path[1024];       ///< the scene file ("" when loaded from a string)
    icReal dt;             ///< seconds per frame, > 0
    int frames;            ///< frames to run, >= 0
    icSolverMode mode;     ///< dynamic or static frames
    icStaticDef staticDef; ///< used when mode is static
    icWorld *world;        ///< the world the scene built (owned)
    int bodyCount;         ///< soft bodies, 0..IC_SCENE_MAX_BODIES
    icSceneBody bodies[IC_SCENE_MAX_BODIES]; ///< (bodyCount) the bodies in creation order
    char outputDir[1024];  ///< resolved relative to the current directory
    int outputEvery;       ///< write every n-th frame, >= 1
    bool writeVtu;         ///< frame_NNNNN.vtu + `<stem>.pvd`
    bool writeObj;         ///< boundary surface per frame, frame_NNNNN.obj (Blender, any tool)
    bool writePly;         ///< boundary surface per frame, frame_NNNNN.ply (binary)
    bool writePc2;         ///< `<stem>.pc2` point cache over `<stem>_surface.obj` (Blender's
                           ///< Mesh Cache modifier)
    struct icRodWorld *rods; ///< VIPER rods of the "rods" key (isochor/rod.h), NULL when none
    bool preflight;        ///< the scene's "preflight" key (default true): `isochor run` prints
                           ///< the pre-flight notes (icScene_Preflight) before stepping
} icScene;

/// Loads and validates a scene file; mesh paths are relative to the scene file. Errors:
/// IC_ERR_IO (no file), IC_ERR_PARSE (malformed JSON, with the line), IC_ERR_UNKNOWN_KEY,
/// IC_ERR_BAD_VALUE, IC_ERR_MISSING_KEY (each naming the JSON path and line), or a mesh
/// loading error (naming the mesh file and line); IC_ERR_BAD_VALUE for a file over the size
/// cap and IC_ERR_OUT_OF_MEMORY for a scene over the memory budget (icSceneLoadOptions), both
/// before the memory is allocated.
icResult icScene_Load(const char *path, icScene *scene, icDiagnostic *diag);
/// Same from a string; name is used in messages, baseDir resolves mesh paths (NULL = ".").
icResult icScene_LoadString(const char *text, const char *name, const char *baseDir,
                            icScene *scene, icDiagnostic *diag);
/// Largest scene file icScene_LoadWith reads by default (64 MiB; the shipped scenes are a few
/// kB). Parsing takes up to about 60 bytes of memory per byte of JSON.
#define IC_SCENE_DEFAULT_MAX_FILE_BYTES ((int64_t)64 << 20)

/// Settings that replace a scene file's when it is loaded (the world is built at load time).
typedef struct icSceneLoadOptions {
    int workers; ///< >= 0: every solver's "workers" (tets and rods; 0 = automatic);
                 ///< -1 (default): the scene's
    /// Largest scene file read, bytes; a larger one is refused before it is read
    /// (IC_ERR_BAD_VALUE). 0 (default): IC_SCENE_DEFAULT_MAX_FILE_BYTES.
    int64_t maxFileBytes;
    /// Memory budget of the load, bytes: parsing the JSON and every body's mesh and solver
    /// state are estimated before they are allocated, and a scene whose estimate exceeds the
    /// budget is refused with IC_ERR_OUT_OF_MEMORY, naming the body, the estimate and the
    /// budget. 0 (default): icScene_DefaultMemoryBudget().
    int64_t maxMemory;
} icSceneLoadOptions;
/// Defaults: workers -1 (the scene's own), file size and memory budget 0 (their defaults).
icSceneLoadOptions icDefaultSceneLoadOptions(void);
/// The default memory budget of a scene load: half of the machine's physical memory
/// (sysconf's page count times the page size), or 4 GiB where that cannot be read.
int64_t icScene_DefaultMemoryBudget(void);
/// icScene_Load with options (NULL: the defaults, the same as icScene_Load).
icResult icScene_LoadWith(const char *path, const icSceneLoadOptions *options, icScene *scene,
                          icDiagnostic *diag);
/// Frees the scene's world and rods and zeroes it. Safe on a zeroed struct.
void icScene_Destroy(icScene *scene);

/// Reports a finished frame: frames done so far, frames asked for, solver milliseconds per
/// frame so far and the current V/V0.
typedef void icRunProgressFn(int done, int total, double msPerFrame, icReal volumeRatio,
                             void *context);

// ---------------------------------------------------------------------------------------
// Pre-flight notes: figures a user can check before a long run, and warnings where the
// scene's numbers suggest a surprise (docs/scenes.md, "Pre-flight notes"). Warnings only:
// nothing here refuses a scene.

/// Warnings of icScene_Preflight (bit flags).
enum {
    IC_PREFLIGHT_SAG = 1,         ///< rho g H / E is large: the body sags under its own weight
    IC_PREFLIGHT_SUBSTEP = 2,     ///< the XPBD substep is longer than the stiffest element's
                                  ///< wave time: accuracy, not stability
    IC_PREFLIGHT_UNITS_LARGE = 4, ///< a soft body many metres across: other units (cm, mm)?
    IC_PREFLIGHT_UNITS_SMALL = 8, ///< a body a few millimetres across: other units?
};

/// One body's figures.
typedef struct icPreflightBody {
    icVec3 size;           ///< bounding box extent of the rest mesh, m
    icReal height;         ///< extent along gravity, m (0 without gravity)
    icReal mass;           ///< density x rest volume, kg
    icReal youngsModulus;  ///< Pa
    icReal density;        ///< kg/m^3
    icReal sagRatio;       ///< rho |g| H / E: the strain at the base of a free column under its
                           ///< own weight (it shortens by about half of it)
    icReal shortestEdge;   ///< m, over the body's tets
    icReal waveTime;       ///< sqrt(rho / E) x shortest edge, s
    int substepsNeeded;    ///< XPBD substeps per frame that bring the substep to waveTime
    unsigned warnings;     ///< IC_PREFLIGHT_* of this body
} icPreflightBody;

/// The notes for a scene.
typedef struct icPreflightReport {
    int bodyCount;                               ///< bodies, as in the scene
    icPreflightBody bodies[IC_SCENE_MAX_BODIES]; ///< (bodyCount) in the scene's order
    icReal substep;        ///< XPBD dynamic: dt / substeps, s; 0 for other solvers and modes
    unsigned warnings;     ///< union of the bodies' warnings
} icPreflightReport;

/// Computes the pre-flight figures and warnings of a loaded scene (no stepping; cost: one
/// pass over its tets). Ignores the scene's "preflight" key: callers decide whether to print.
/// IC_ERR_INVALID_ARGUMENT for a NULL or unloaded scene.
icResult icScene_Preflight(const icScene *scene, icPreflightReport *report);
/// Writes the notes as short lines (each starting with prefix, e.g.\ "isochor run: "): every
/// body's size and mass when all is set, else only for bodies with a warning, then the
/// warnings. Returns the number of warnings written.
int icPreflight_Print(const icPreflightReport *report, FILE *out, const char *prefix, bool all);

/// Options of a run.
typedef struct icRunOptions {
    const char *outputDir; ///< overrides the scene's (NULL keeps it)
    int frames;            ///< overrides the scene's when >= 0
    bool progress;         ///< print a progress bar on stderr
    bool writeOutput;      ///< write frame files (VTU + PVD)
    /// Called after every completed frame when set (NULL = none), independently of
    /// progress: lets a caller report progress its own way (log lines, a GUI).
    icRunProgressFn *progressFn;
    void *progressContext; ///< passed to progressFn
    /// Checkpoints (docs/reliability.md): after every checkpointEvery-th frame (0 = never)
    /// and when *interrupt has become non-zero, the world's state and the run's position are
    /// written to checkpointPath atomically. An interrupt ends the run with IC_ERR_INTERRUPTED:
    /// one that comes during a step stops it within a substep (or Newton iteration) and the
    /// world goes back to the last whole frame, which the checkpoint then holds
    /// (icWorld_SetInterrupt); one between steps ends it after the current frame's files.
    int checkpointEvery;
    const char *checkpointPath;             ///< NULL: no checkpoints
    const volatile sig_atomic_t *interrupt; ///< set by a signal handler; NULL: none
    /// Continue the run this checkpoint (of the same scene) left: frames after its frame are
    /// run and the .pvd keeps the frames listed before. NULL: start at frame 0. A checkpoint
    /// whose time is not its frame's (frame x dt) is refused after its state was restored:
    /// discard the world after a refused resume.
    const char *resumePath;
} icRunOptions;
/// Defaults: the scene's output folder and frames, no progress, frame files written, no
/// checkpoints, no interrupt, no resume.
icRunOptions icDefaultRunOptions(void);

/// What a run measured.
typedef struct icRunSummary {
    //!@{
    int frames, vertices, tets; ///< frames run, and the world's vertex and tet counts
    //!@}
    icReal msPerFrame;      ///< solver wall time per frame, ms
    //!@{
    icReal volumeRatioFinal, volumeRatioMin, volumeRatioMax; ///< total V/V0 at the end, and
                                                             ///< its extremes over the frames
    //!@}
    icReal maxAbsJMinus1;   ///< max |det F - 1| over the tets at the end (NaN when any is)
    int invertedTetsFinal;  ///< tets with det F <= 0 at the end
    bool nan;               ///< a frame produced NaN or infinite positions (the run stopped)
    long sweepsTotal;       ///< constraint sweeps over the run
    int notConverged;       ///< frames whose solve stopped at its cap (static sweeps or Newton
                            ///< iterations) before its tolerance
    icHealthStats health;   ///< the world's health checks at the end (counts since creation,
                            ///< carried over a checkpoint)
    //!@{
    int rods, rodSegments, rodVertices; ///< the scene's VIPER rods (all 0 without rods)
    //!@}
    //!@{
    icReal rodVolumeRatioFinal, rodVolumeRatioMin, rodVolumeRatioMax; ///< the rods' pill volume
                                        ///< over its rest volume (icRodWorld_GetVolume) at the
                                        ///< end, and its extremes over the frames (1 without)
    //!@}
} icRunSummary;

/// Runs the scene's frames from its current state, writing frames and a .pvd as asked.
icResult icScene_Run(icScene *scene, const icRunOptions *options, icRunSummary *summary,
                     icDiagnostic *diag);
/// Writes the world's state to a checkpoint file, atomically (format: docs/reliability.md).
icResult icSaveCheckpoint(const char *path, const icWorld *world, icDiagnostic *diag);
/// Restores a world's state from a checkpoint file made from the same model; checked whole
/// first, so on any error (codes of icWorld_LoadCheckpoint, IC_ERR_IO) the world is unchanged.
icResult icLoadCheckpoint(const char *path, icWorld *world, icDiagnostic *diag);

/// Writes the summary as JSON (keys named as the fields, snake_case; the rod keys only for a
/// scene with rods), atomically.
icResult icWriteRunSummary(const char *path, const icRunSummary *summary, icDiagnostic *diag);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
