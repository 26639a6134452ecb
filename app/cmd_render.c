// SPDX-License-Identifier: MIT
// isochor render: PNG pictures of a scene (its initial state or after N frames, with its
// colliders in grey) or of a result collection (.pvd), coloured by a field, with one steady
// camera over all frames; an animated GIF or MP4 through ffmpeg when it is installed.
#define _GNU_SOURCE
#include "cli.h"
#include "options.h"

#include "isochor/formats.h"
#include "isochor/scene.h"
#include "isochor/render.h"

#include <float.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef enum icFieldKind {
    FIELD_NONE,
    FIELD_J,
    FIELD_PRESSURE,
    FIELD_STRESS,
    FIELD_DISPLACEMENT
} icFieldKind;

static const char *s_fieldNames[] = {"none", "J", "pressure", "stress_norm", "displacement"};
static const char *s_fieldLabels[] = {"", "J = DET F", "PRESSURE (PA)", "STRESS NORM (PA)",
                                      "DISPLACEMENT (M)"};

// One frame kept for drawing: the boundary surface's vertices and field values as floats,
// so that every frame of an animation fits in memory and the camera can frame them all.
typedef struct icShot {
    int index; ///< frame number in the scene or collection
    double time;
    int vertexCount;  ///< surface vertices
    float *positions; ///< (vertexCount x 3)
    int triangleCount;
    int *triangles; ///< (triangleCount x 3) into positions
    float *values;  ///< per triangle (tet fields) or per vertex (displacement), or NULL
    bool perTriangle;
    int obstacle; ///< the colliders at this frame's time: index into icShots.obstacles, or -1
} icShot;

// The colliders of a scene at one time, tessellated. Frames whose colliders did not move
// share one, so static colliders are kept once however many frames there are.
typedef struct icObstacles {
    int vertexCount;
    float *positions; ///< (vertexCount x 3)
    int triangleCount;
    int *triangles; ///< (triangleCount x 3)
} icObstacles;

typedef struct icShots {
    int count, capacity;
    icShot *items;
    icVec3 lower, upper; ///< over every frame
    double lo, hi;       ///< field range over every frame
    int obstacleCount, obstacleCapacity;
    icObstacles *obstacles;
    double obstacleLowest; ///< lowest y of any obstacle in any frame
    bool hasFloor;         ///< the scene has a plane facing up: the ground goes there
    double floorHeight;
    int wallCount; ///< the scene's other planes, drawn as walls
    icRenderPlane walls[IC_RENDER_MAX_WALLS];
} icShots;

typedef struct icRenderArgs {
    const char *input, *outDir;
    const char *scene; ///< with a .pvd: the scene it came from (planes and colliders)
    int frame;         ///< -1 with all
    bool all, gif, mp4;
    icFieldKind field;
    int width, height;
    bool hasRange;
    double rangeLo, rangeHi;
} icRenderArgs;

static void usage(FILE *out) {
    fprintf(
        out,
        "usage: isochor render SCENE.json|RESULT.pvd [--frame N | --all] --out DIR\n"
        "         [--field J|pressure|stress_norm|displacement|none] [--size WxH]\n"
        "         [--range LO,HI] [--gif] [--mp4] [--scene SCENE.json]\n"
        "  Writes DIR/frame_NNNN.png: the boundary surface over a ground grid, coloured by the\n"
        "  field (default J) with a colour bar. A scene is run for N frames first (every frame\n"
        "  with --all); its colliders are drawn in grey at each frame's time, the ground grid\n"
        "  lies on its floor plane and its other planes are walls. A .pvd result carries no\n"
        "  planes or colliders: --scene names the scene it came from to draw them.\n"
        "  A result's frames are drawn as written, zero-volume or inverted tets included (a\n"
        "  note counts them). --gif and --mp4 need ffmpeg.\n"
        "exit status: 0 ok, 1 drawing or writing failed, 2 bad input or usage\n");
}

// A mesh file (by extension or, for a name without one, by its header) rather than a scene:
// render draws results and scenes, and a lone frame would otherwise be parsed as JSON.
static bool isMeshFile(const char *path) {
    static const char *extensions[] = {".vtu", ".vtk", ".msh", ".mesh", ".ele", ".node"};
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (dot && (!slash || dot > slash)) {
        for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; ++i)
            if (strcasecmp(dot, extensions[i]) == 0) return true;
        if (strcasecmp(dot, ".json") == 0) return false;
    }
    icMeshFormat format = icDetectMeshFormat(path);
    return format != IC_FORMAT_UNKNOWN && format != IC_FORMAT_TETGEN;
}

static void printDiag(const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "isochor render: %s\n", text);
}

static void freeShots(icShots *shots) {
    for (int i = 0; i < shots->count; ++i) {
        free(shots->items[i].positions);
        free(shots->items[i].triangles);
        free(shots->items[i].values);
    }
    free(shots->items);
    for (int i = 0; i < shots->obstacleCount; ++i) {
        free(shots->obstacles[i].positions);
        free(shots->obstacles[i].triangles);
    }
    free(shots->obstacles);
    memset(shots, 0, sizeof *shots);
}

// Keeps a frame: the mesh's boundary at positions with its field (tet or vertex values).
static bool addShot(icShots *shots, int index, double time, const icTetMesh *mesh,
                    const icReal *positions, const icReal *tetValues, const icReal *vertexValues) {
    if (shots->count == shots->capacity) {
        int capacity = shots->capacity ? 2 * shots->capacity : 16;
        icShot *items = realloc(shots->items, sizeof *items * (size_t)capacity);
        if (!items) return false;
        shots->items = items;
        shots->capacity = capacity;
    }
    icTriSurface surface;
    if (icTriSurface_FromTetMesh(&surface, mesh, positions) != IC_OK) return false;
    icShot *s = &shots->items[shots->count++];
    memset(s, 0, sizeof *s);
    s->obstacle = -1;
    s->index = index;
    s->time = time;
    s->vertexCount = surface.vertexCount;
    s->triangleCount = surface.triangleCount;
    s->positions = malloc(sizeof(float) * 3 * (size_t)surface.vertexCount);
    s->triangles = malloc(sizeof(int) * 3 * (size_t)surface.triangleCount);
    int n = tetValues ? surface.triangleCount : vertexValues ? surface.vertexCount : 0;
    s->values = n ? malloc(sizeof(float) * (size_t)n) : NULL;
    bool ok = s->positions && s->triangles && (n == 0 || s->values);
    for (int i = 0; ok && i < surface.vertexCount; ++i) {
        icVec3 p = icVec3_Load(surface.positions, i);
        shots->lower = icVec3_Min(shots->lower, p);
        shots->upper = icVec3_Max(shots->upper, p);
        s->positions[3 * i] = (float)p.x, s->positions[3 * i + 1] = (float)p.y,
                         s->positions[3 * i + 2] = (float)p.z;
    }
    if (ok)
        memcpy(s->triangles, surface.triangles, sizeof(int) * 3 * (size_t)surface.triangleCount);
    s->perTriangle = tetValues != NULL;
    for (int i = 0; ok && i < n; ++i) {
        double v = tetValues ? tetValues[surface.meshTet[i]] : vertexValues[surface.meshVertex[i]];
        s->values[i] = (float)v;
        if (isfinite(v)) shots->lo = fmin(shots->lo, v), shots->hi = fmax(shots->hi, v);
    }
    icTriSurface_Destroy(&surface);
    return ok;
}

// |displacement| per vertex from a vector field or from positions and reference positions.
static icReal *displacementMagnitude(int count, const icReal *vectors, const icReal *positions,
                                     const icReal *reference) {
    icReal *m = malloc(sizeof(icReal) * (size_t)(count > 0 ? count : 1));
    if (!m) return NULL;
    for (int v = 0; v < count; ++v) {
        icVec3 d = vectors ? icVec3_Load(vectors, v)
                           : icVec3_Sub(icVec3_Load(positions, v), icVec3_Load(reference, v));
        m[v] = icVec3_Length(d);
    }
    return m;
}

// ---------------------------------------------------------------------------------------
// Frames from a result collection

static const icMeshField *findField(const icMeshFields *fields, icFieldKind kind) {
    static const char *names[][3] = {{NULL, NULL, NULL},
                                     {"J", "detF", "det_F"},
                                     {"pressure", "p", NULL},
                                     {"stress_norm", "stressNorm", "stress"},
                                     {"displacement", "disp", "u"}};
    for (int i = 0; i < 3 && names[kind][i]; ++i) {
        const icMeshField *f =
            icMeshFields_Find(fields, names[kind][i], kind != FIELD_DISPLACEMENT);
        if (f) return f;
    }
    return NULL;
}

static bool addObstacles(icShots *shots, const icWorld *world, double time, int *index);
static void findPlanes(icShots *shots, const icWorld *world);

static int collectCollection(const icRenderArgs *args, icShots *shots) {
    icDiagnostic diag = {0};
    icPvdList list;
    if (icLoadPvd(args->input, &list, &diag) != IC_OK) {
        printDiag(&diag);
        return 2;
    }
    if (!args->all && args->frame >= list.count) {
        fprintf(stderr, "isochor render: frame %d does not exist (%s has %d)\n", args->frame,
                args->input, list.count);
        icPvdList_Destroy(&list);
        return 2;
    }
    // The scene the result came from gives the planes and colliders (loaded, not run: the
    // colliders' tracks are evaluated at each frame's time).
    icScene scene = {0};
    if (args->scene) {
        if (icScene_Load(args->scene, &scene, &diag) != IC_OK) {
            printDiag(&diag);
            icPvdList_Destroy(&list);
            return 2;
        }
        findPlanes(shots, scene.world);
    }
    bool colliders = args->scene && icWorld_GetColliderCount(scene.world) > 0;
    // Frames are deformed states, drawn as written whatever their tets look like.
    const icLoadOptions frameOptions = {.resultFrame = true};
    int flagged = 0, firstFlagged = -1, degenerate = 0, inverted = 0;
    icReal *reference = NULL;
    int referenceCount = 0, status = 0;
    for (int f = 0; f < list.count && status == 0; ++f) {
        // The first frame is the reference for displacement when no field holds it.
        bool wanted = args->all || f == args->frame;
        if (!wanted && !(f == 0 && args->field == FIELD_DISPLACEMENT)) continue;
        icTetMesh mesh;
        icMeshFields fields;
        icOrientReport report;
        if (icLoadMeshEx(list.files[f], &frameOptions, &mesh, &fields, NULL, &report, &diag) !=
            IC_OK) {
            printDiag(&diag);
            status = 2;
            break;
        }
        if (wanted && (report.degenerateCount > 0 || report.invertedCount > 0)) {
            if (flagged++ == 0) firstFlagged = f;
            degenerate += report.degenerateCount;
            inverted += report.invertedCount;
        }
        if (f == 0) {
            referenceCount = mesh.vertexCount;
            reference = malloc(sizeof(icReal) * 3 * (size_t)mesh.vertexCount);
            if (reference)
                memcpy(reference, mesh.positions, sizeof(icReal) * 3 * (size_t)mesh.vertexCount);
        }
        const icReal *tetValues = NULL;
        icReal *vertexValues = NULL;
        if (args->field != FIELD_NONE) {
            const icMeshField *field = findField(&fields, args->field);
            if (args->field == FIELD_DISPLACEMENT) {
                if (field && field->components == 3) {
                    vertexValues = displacementMagnitude(mesh.vertexCount, field->data, NULL, NULL);
                } else if (field && field->components == 1) {
                    vertexValues = malloc(sizeof(icReal) * (size_t)mesh.vertexCount);
                    if (vertexValues)
                        memcpy(vertexValues, field->data,
                               sizeof(icReal) * (size_t)mesh.vertexCount);
                } else if (reference && referenceCount == mesh.vertexCount) {
                    vertexValues =
                        displacementMagnitude(mesh.vertexCount, NULL, mesh.positions, reference);
                }
                if (!vertexValues) status = 2;
            } else if (field && field->components == 1) {
                tetValues = field->data;
            } else {
                status = 2;
            }
            if (status) {
                fprintf(stderr, "isochor render: %s has no %s field; it has:", list.files[f],
                        s_fieldNames[args->field]);
                for (int i = 0; i < fields.count; ++i)
                    fprintf(stderr, " %s (%s)", fields.items[i].name,
                            fields.items[i].perCell ? "cell" : "point");
                fprintf(stderr, "\n");
            }
        }
        if (status == 0 && wanted &&
            !addShot(shots, f, list.times[f], &mesh, NULL, tetValues, vertexValues)) {
            fprintf(stderr, "isochor render: out of memory keeping frame %d\n", f);
            status = 1;
        }
        if (status == 0 && wanted && colliders) {
            int obstacle = -1;
            if (!addObstacles(shots, scene.world, list.times[f], &obstacle)) {
                fprintf(stderr, "isochor render: out of memory keeping frame %d\n", f);
                status = 1;
            }
            shots->items[shots->count - 1].obstacle = obstacle;
        }
        free(vertexValues);
        icMeshFields_Destroy(&fields);
        icTetMesh_Destroy(&mesh);
    }
    free(reference);
    if (status == 0 && flagged > 0)
        fprintf(stderr,
                "isochor render: note: %d frame%s (first: frame %d) hold %d zero-volume and %d "
                "inverted tets in all, drawn as written\n",
                flagged, flagged == 1 ? "" : "s", firstFlagged, degenerate, inverted);
    icPvdList_Destroy(&list);
    if (args->scene) icScene_Destroy(&scene);
    return status;
}

// ---------------------------------------------------------------------------------------
// Frames from a scene

// Tessellates the world's colliders at `time`; *index gets the entry in shots->obstacles,
// the last one again when nothing moved since.
static bool addObstacles(icShots *shots, const icWorld *world, double time, int *index) {
    icColliderSurface surface;
    memset(&surface, 0, sizeof surface);
    if (icWorld_TessellateColliders(world, time, IC_COLLIDER_SEGMENTS, &surface) != IC_OK) {
        icColliderSurface_Destroy(&surface);
        return false;
    }
    icObstacles o = {surface.vertexCount, malloc(sizeof(float) * 3 * (size_t)surface.vertexCount),
                     surface.triangleCount,
                     malloc(sizeof(int) * 3 * (size_t)surface.triangleCount)};
    bool ok = o.positions && o.triangles;
    for (int i = 0; ok && i < 3 * o.vertexCount; ++i) o.positions[i] = (float)surface.positions[i];
    if (ok) memcpy(o.triangles, surface.triangles, sizeof(int) * 3 * (size_t)o.triangleCount);
    icColliderSurface_Destroy(&surface);
    const icObstacles *last =
        shots->obstacleCount ? &shots->obstacles[shots->obstacleCount - 1] : NULL;
    if (ok && last && last->vertexCount == o.vertexCount &&
        last->triangleCount == o.triangleCount &&
        memcmp(last->positions, o.positions, sizeof(float) * 3 * (size_t)o.vertexCount) == 0 &&
        memcmp(last->triangles, o.triangles, sizeof(int) * 3 * (size_t)o.triangleCount) == 0) {
        free(o.positions), free(o.triangles);
        *index = shots->obstacleCount - 1;
        return true;
    }
    if (ok && shots->obstacleCount == shots->obstacleCapacity) {
        int capacity = shots->obstacleCapacity ? 2 * shots->obstacleCapacity : 4;
        icObstacles *items = realloc(shots->obstacles, sizeof *items * (size_t)capacity);
        if (items) {
            shots->obstacles = items;
            shots->obstacleCapacity = capacity;
        }
        ok = items != NULL;
    }
    if (!ok) {
        free(o.positions), free(o.triangles);
        return false;
    }
    for (int v = 0; v < o.vertexCount; ++v)
        shots->obstacleLowest = fmin(shots->obstacleLowest, o.positions[3 * v + 1]);
    *index = shots->obstacleCount;
    shots->obstacles[shots->obstacleCount++] = o;
    return true;
}

// The highest plane facing straight up is the floor bodies land on: the ground grid goes
// there rather than under the lowest body, which could hide the colliders below it. The other
// planes (walls, slopes, ceilings) are drawn as walls; lower floors lie under the ground.
static void findPlanes(icShots *shots, const icWorld *world) {
    for (int i = 0; i < icWorld_GetPlaneCount(world); ++i) {
        icPlaneDef plane = icWorld_GetPlane(world, i);
        if (!(plane.normal.y > 0.999)) {
            if (shots->wallCount < IC_RENDER_MAX_WALLS)
                shots->walls[shots->wallCount++] = (icRenderPlane){plane.normal, plane.offset};
            continue;
        }
        double height = plane.offset / plane.normal.y;
        if (!shots->hasFloor || height > shots->floorHeight) shots->floorHeight = height;
        shots->hasFloor = true;
    }
}

static bool shootWorld(icShots *shots, int index, icWorld *world, icFieldKind field) {
    icTetMesh view;
    memset(&view, 0, sizeof view);
    view.vertexCount = icWorld_GetVertexCount(world);
    view.tetCount = icWorld_GetTetCount(world);
    view.positions = (icReal *)icWorld_GetPositions(world);
    view.tets = (int *)icWorld_GetTets(world);
    icReal *tetValues = NULL, *vertexValues = NULL;
    if (field == FIELD_DISPLACEMENT) {
        vertexValues = displacementMagnitude(view.vertexCount, NULL, view.positions,
                                             icWorld_GetRestPositions(world));
        if (!vertexValues) return false;
    } else if (field != FIELD_NONE) {
        tetValues = malloc(sizeof(icReal) * (size_t)view.tetCount);
        if (!tetValues) return false;
        icWorld_GetTetFields(world, field == FIELD_J ? tetValues : NULL,
                             field == FIELD_PRESSURE ? tetValues : NULL,
                             field == FIELD_STRESS ? tetValues : NULL);
    }
    bool ok = addShot(shots, index, icWorld_GetTime(world), &view, NULL, tetValues, vertexValues);
    free(tetValues);
    free(vertexValues);
    if (ok && icWorld_GetColliderCount(world) > 0) {
        int obstacle = -1;
        ok = addObstacles(shots, world, icWorld_GetTime(world), &obstacle);
        shots->items[shots->count - 1].obstacle = obstacle;
    }
    return ok;
}

static int collectScene(const icRenderArgs *args, icShots *shots) {
    icDiagnostic diag = {0};
    icScene scene;
    if (icScene_Load(args->input, &scene, &diag) != IC_OK) {
        printDiag(&diag);
        return 2;
    }
    findPlanes(shots, scene.world);
    icRunOptions run = icDefaultRunOptions();
    run.writeOutput = false;
    run.progress = false;
    int last = args->all ? scene.frames : args->frame;
    // The frame counter rewrites one line: only a terminal shows that as intended.
    bool counter = args->all && isatty(STDERR_FILENO);
    int status = 0;
    // A zero-frame run applies the scene's initial conditions (scrambles) without stepping.
    run.frames = args->all ? 0 : args->frame;
    if (icScene_Run(&scene, &run, NULL, &diag) != IC_OK) {
        printDiag(&diag);
        status = 1;
    }
    for (int f = args->all ? 0 : last; status == 0 && f <= last; ++f) {
        if (f > 0 && args->all) {
            run.frames = 1;
            if (icScene_Run(&scene, &run, NULL, &diag) != IC_OK) {
                printDiag(&diag);
                status = 1;
                break;
            }
        }
        if (!shootWorld(shots, f, scene.world, args->field)) {
            fprintf(stderr, "isochor render: out of memory keeping frame %d\n", f);
            status = 1;
        }
        if (counter) fprintf(stderr, "\rsimulated %d/%d frames", f, last);
    }
    if (counter) fputc('\n', stderr);
    icScene_Destroy(&scene);
    return status;
}

// ---------------------------------------------------------------------------------------

static int drawShots(const icRenderArgs *args, const icShots *shots) {
    icDiagnostic diag = {0};
    if (icMakeDirectories(args->outDir, &diag) != IC_OK) {
        printDiag(&diag);
        return 1;
    }
    icRenderDef def = icDefaultRenderDef();
    def.width = args->width;
    def.height = args->height;
    def.hasFrame = true;
    def.frameLower = shots->lower;
    def.frameUpper = shots->upper;
    // One ground for every frame: the floor plane, or under the bodies and the colliders.
    if (shots->hasFloor) {
        def.hasGroundHeight = true;
        def.groundHeight = shots->floorHeight;
    } else if (shots->obstacleCount > 0) {
        def.hasGroundHeight = true;
        def.groundHeight = fmin(shots->lower.y, shots->obstacleLowest);
    }
    def.wallCount = shots->wallCount;
    def.walls = shots->walls;
    def.fieldLabel = s_fieldLabels[args->field];
    if (args->field == FIELD_J || args->field == FIELD_PRESSURE) {
        def.colourMap = IC_COLOURMAP_DIVERGING;
        def.centred = true;
        def.centre = args->field == FIELD_J ? 1.0 : 0.0;
    }
    // One colour range for every frame, so colours mean the same thing throughout.
    if (args->hasRange) {
        def.fieldMin = args->rangeLo, def.fieldMax = args->rangeHi;
    } else if (args->field != FIELD_NONE && shots->lo <= shots->hi) {
        double lo = shots->lo, hi = shots->hi;
        if (def.centred) {
            double d = fmax(fabs(lo - def.centre), fabs(hi - def.centre));
            lo = def.centre - d, hi = def.centre + d;
        }
        if (!(hi - lo > 1e-9 * fmax(1.0, fabs(hi))))
            lo -= 1e-3 * fmax(1e-3, fabs(lo)), hi += 1e-3 * fmax(1e-3, fabs(hi));
        def.fieldMin = lo, def.fieldMax = hi;
    }
    for (int i = 0; i < shots->count; ++i) {
        const icShot *s = &shots->items[i];
        icReal *positions = malloc(sizeof(icReal) * 3 * (size_t)s->vertexCount);
        icReal *values = s->values
                             ? malloc(sizeof(icReal) *
                                      (size_t)(s->perTriangle ? s->triangleCount : s->vertexCount))
                             : NULL;
        if (!positions || (s->values && !values)) {
            free(positions), free(values);
            fprintf(stderr, "isochor render: out of memory\n");
            return 1;
        }
        for (int k = 0; k < 3 * s->vertexCount; ++k) positions[k] = s->positions[k];
        for (int k = 0; values && k < (s->perTriangle ? s->triangleCount : s->vertexCount); ++k)
            values[k] = s->values[k];
        icRenderMesh mesh = {s->vertexCount,
                             positions,
                             s->triangleCount,
                             s->triangles,
                             s->perTriangle ? NULL : values,
                             s->perTriangle ? values : NULL};
        const icObstacles *o = s->obstacle >= 0 ? &shots->obstacles[s->obstacle] : NULL;
        icReal *obstaclePositions = o ? malloc(sizeof(icReal) * 3 * (size_t)o->vertexCount) : NULL;
        if (o && !obstaclePositions) {
            free(positions), free(values);
            fprintf(stderr, "isochor render: out of memory\n");
            return 1;
        }
        for (int k = 0; o && k < 3 * o->vertexCount; ++k) obstaclePositions[k] = o->positions[k];
        icRenderMesh obstacles = {o ? o->vertexCount : 0,
                                  obstaclePositions,
                                  o ? o->triangleCount : 0,
                                  o ? o->triangles : NULL,
                                  NULL,
                                  NULL};
        def.obstacles = o ? &obstacles : NULL;
        char title[96];
        snprintf(title, sizeof title, "FRAME %d  T = %.4g S", s->index, s->time);
        def.title = title;
        icImage image;
        char path[1200];
        // Numbered in sequence, so ffmpeg's frame pattern finds every picture.
        snprintf(path, sizeof path, "%s/frame_%04d.png", args->outDir, args->all ? i : s->index);
        icResult result = icRender(&mesh, &def, &image, NULL, &diag);
        if (result == IC_OK) result = icImage_SavePng(&image, path, &diag);
        icImage_Destroy(&image);
        free(positions), free(values), free(obstaclePositions);
        def.obstacles = NULL;
        if (result != IC_OK) {
            printDiag(&diag);
            return 1;
        }
        if (shots->count == 1) printf("wrote %s\n", path);
    }
    if (shots->count > 1)
        printf("wrote %d pictures %s/frame_0000.png ... frame_%04d.png\n", shots->count,
               args->outDir, shots->count - 1);
    return 0;
}

// Runs ffmpeg over the pictures; a missing ffmpeg is a note, not a failure.
static int encode(const icRenderArgs *args, bool mp4) {
    char ffmpeg[1024];
    if (!icFindProgram("ffmpeg", ffmpeg, sizeof ffmpeg)) {
        fprintf(stderr,
                "isochor render: ffmpeg is not installed; no %s written (apt-get install ffmpeg)\n",
                mp4 ? "MP4" : "GIF");
        return 0;
    }
    char pattern[1200], out[1200];
    snprintf(pattern, sizeof pattern, "%s/frame_%%04d.png", args->outDir);
    snprintf(out, sizeof out, "%s/animation.%s", args->outDir, mp4 ? "mp4" : "gif");
    char *gifArgs[] = {
        ffmpeg, "-y", "-loglevel", "error", "-framerate",
        "25",   "-i", pattern,     "-vf",   "split[a][b];[a]palettegen[p];[b][p]paletteuse",
        out,    NULL};
    char *mp4Args[] = {ffmpeg,       "-y",
                       "-loglevel",  "error",
                       "-framerate", "25",
                       "-i",         pattern,
                       "-c:v",       "libx264",
                       "-pix_fmt",   "yuv420p",
                       "-vf",        "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                       out,          NULL};
    pid_t pid;
    if (posix_spawn(&pid, ffmpeg, NULL, NULL, mp4 ? mp4Args : gifArgs, environ) != 0) {
        fprintf(stderr, "isochor render: cannot run ffmpeg\n");
        return 1;
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "isochor render: ffmpeg failed making %s\n", out);
        return 1;
    }
    printf("wrote %s\n", out);
    return 0;
}

// One option's value; false (with a message) when it is not what the option wants.
static bool parseValue(icRenderArgs *args, int option, const char *value) {
    if (option == 'f') {
        char *end;
        long n = strtol(value, &end, 10);
        if (!*value || *end || n < 0 || n > 100000000) {
            fprintf(stderr, "isochor render: --frame wants a frame number >= 0, not '%s'\n", value);
            return false;
        }
        args->frame = (int)n;
    } else if (option == 'o') {
        args->outDir = value;
    } else if (option == 'F') {
        for (int k = 0; k < 5; ++k)
            if (strcasecmp(value, s_fieldNames[k]) == 0) {
                args->field = (icFieldKind)k;
                return true;
            }
        fprintf(stderr,
                "isochor render: unknown field '%s' (J, pressure, stress_norm, displacement, "
                "none)\n",
                value);
        return false;
    } else if (option == 'z') {
        char tail;
        if (sscanf(value, "%dx%d%c", &args->width, &args->height, &tail) != 2 || args->width < 64 ||
            args->height < 64 || args->width > 8192 || args->height > 8192) {
            fprintf(stderr, "isochor render: --size wants WxH between 64 and 8192\n");
            return false;
        }
    } else if (option == 'r') {
        char tail;
        if (sscanf(value, "%lf,%lf%c", &args->rangeLo, &args->rangeHi, &tail) != 2 ||
            !(args->rangeLo < args->rangeHi)) {
            fprintf(stderr, "isochor render: --range wants LO,HI with LO < HI\n");
            return false;
        }
        args->hasRange = true;
    } else if (option == 's') {
        args->scene = value;
    }
    return true;
}

// Parses the options ("--opt value" and "--opt=value" alike). Returns -1 to go on, else the
// exit status (0 after --help).
static int parseArgs(int argc, char **argv, icRenderArgs *args) {
    static const struct option options[] = {{"frame", required_argument, NULL, 'f'},
                                            {"all", no_argument, NULL, 'a'},
                                            {"out", required_argument, NULL, 'o'},
                                            {"field", required_argument, NULL, 'F'},
                                            {"size", required_argument, NULL, 'z'},
                                            {"range", required_argument, NULL, 'r'},
                                            {"scene", required_argument, NULL, 's'},
                                            {"gif", no_argument, NULL, 'g'},
                                            {"mp4", no_argument, NULL, 'm'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    memset(args, 0, sizeof *args);
    args->frame = -1;
    args->field = FIELD_J;
    args->width = 960;
    args->height = 640;
    icCliOptions cli;
    if (!icCliOptions_Begin(&cli, "isochor render", argc, argv, options, "h")) return 1;
    int status = -1, c;
    const char *value;
    while (status < 0 && (c = icCliOptions_Next(&cli, &value)) != 0) {
        if (c == 'h') {
            usage(stdout);
            status = 0;
        } else if (c == 'a') {
            args->all = true;
        } else if (c == 'g') {
            args->gif = true;
        } else if (c == 'm') {
            args->mp4 = true;
        } else if (c < 0 || !parseValue(args, c, value)) {
            status = 2;
        }
    }
    if (status < 0) {
        const char *problem = NULL;
        if (cli.operandCount > 1)
            problem = "one input only";
        else if (cli.operandCount == 1)
            args->input = cli.operands[0];
        if (!problem && (!args->input || !args->outDir))
            problem = "needs an input and --out DIR";
        else if (!problem && args->all && args->frame >= 0)
            problem = "--frame and --all exclude each other";
        if (problem) {
            fprintf(stderr, "isochor render: %s\n", problem);
            status = 2;
        }
    }
    icCliOptions_End(&cli);
    if (status == 2) usage(stderr);
    if (status < 0 && !args->all && args->frame < 0) args->frame = 0;
    return status;
}

int icCli_Render(int argc, char **argv) {
    icRenderArgs args;
    int parsed = parseArgs(argc, argv, &args);
    if (parsed >= 0) return parsed;
    icShots shots;
    memset(&shots, 0, sizeof shots);
    shots.lower = icVec3_Make(DBL_MAX, DBL_MAX, DBL_MAX);
    shots.upper = icVec3_Neg(shots.lower);
    shots.lo = DBL_MAX, shots.hi = -DBL_MAX;
    shots.obstacleLowest = DBL_MAX;
    const char *dot = strrchr(args.input, '.');
    bool collection = dot && strcasecmp(dot, ".pvd") == 0;
    if (!collection && isMeshFile(args.input)) {
        fprintf(stderr,
                "isochor render: %s is a mesh file; pass the .pvd collection a run wrote (its "
                "frames) or a scene (.json) to run\n",
                args.input);
        return 2;
    }
    if (args.scene && !collection) {
        fprintf(stderr, "isochor render: --scene goes with a .pvd result (a scene input draws its "
                        "own planes and colliders)\n");
        return 2;
    }
    int status = collection ? collectCollection(&args, &shots) : collectScene(&args, &shots);
    if (status == 0 && shots.count == 0) {
        fprintf(stderr, "isochor render: no frames to draw\n");
        status = 2;
    }
    if (status == 0) status = drawShots(&args, &shots);
    freeShots(&shots);
    if (status == 0 && args.gif) status = encode(&args, false);
    if (status == 0 && args.mp4) status = encode(&args, true);
    return status;
}
