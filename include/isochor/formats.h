// SPDX-License-Identifier: MIT
/// \file
/// Mesh and surface file formats beyond TetGen: Gmsh, VTK legacy and XML, MEDIT, triangle
/// surfaces (OBJ, PLY, STL, OFF), their writers, Blender point caches and tetrahedralising
/// a closed surface with the external `tetgen` program; atomic output files. The
/// isochor_formats library: it needs the engine's mesh and core parts, zlib and expat.
#pragma once

#include "isochor/mesh.h"

#include <signal.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

// ---------------------------------------------------------------------------------------
// Files and paths (what the readers and the scene loader share)

/// Reads a whole regular file into a NUL-terminated buffer (free with icFree), in one
/// allocation sized by fstat. size may be NULL. IC_ERR_IO names the file and the reason,
/// also for a directory, FIFO or device (refused without being opened: a FIFO would block,
/// /dev/urandom would never end); IC_ERR_OUT_OF_MEMORY when the buffer cannot be allocated.
icResult icReadFile(const char *path, char **text, size_t *size, icDiagnostic *diag);
/// The folder part of path ("." when it has none), without the trailing slash.
void icPath_Dir(const char *path, char *out, size_t size);
/// The file name without folder and last extension ("out/a/scene.json" -> "scene").
void icPath_Stem(const char *path, char *out, size_t size);
/// dir/relative, or relative unchanged when it is absolute or dir is empty or ".".
/// False when the result does not fit.
bool icPath_Join(const char *dir, const char *relative, char *out, size_t size);
/// True when path starts with '/'.
bool icPath_IsAbsolute(const char *path);

// ---------------------------------------------------------------------------------------
// Atomic output files: write to "path.tmp.PID", then rename over path on commit, so an
// interrupted writer never leaves a truncated file under the final name.

/// An output file being written atomically (icAtomicFile_Open, then Commit or Abort).
typedef struct icAtomicFile {
    FILE *fp;            ///< the open temporary file to write to
    char path[1024];     ///< the final path
    char tempPath[1100]; ///< the temporary file, "path.tmp.PID"
} icAtomicFile;

/// Opens a temporary file next to path for binary writing. IC_ERR_IO (diag says why).
icResult icAtomicFile_Open(icAtomicFile *file, const char *path, icDiagnostic *diag);
/// Flushes, closes and renames to the final path; on any failure removes the temporary.
icResult icAtomicFile_Commit(icAtomicFile *file, icDiagnostic *diag);
/// Closes and removes the temporary; the final path is untouched.
void icAtomicFile_Abort(icAtomicFile *file);
/// Removes the temporaries that writers killed before Commit left in directory: regular files
/// named "NAME.tmp.PID" whose process no longer runs (a live writer's are kept). Stores how
/// many were removed in *removed (may be NULL). A folder that does not exist holds none (IC_OK);
/// one that cannot be read gives IC_ERR_IO. `isochor run` calls it on its output and
/// checkpoint folders before writing.
icResult icAtomicFile_RemoveStale(const char *directory, int *removed, icDiagnostic *diag);
/// Creates a directory and its parents (like mkdir -p). IC_ERR_IO on failure.
icResult icMakeDirectories(const char *path, icDiagnostic *diag);

// ---------------------------------------------------------------------------------------
// Mesh files

/// Options for mesh loading. A rest mesh (what a body is built from) is checked and oriented;
/// a result frame (a deformed state a run wrote) is read as written.
typedef struct icLoadOptions {
    bool strict; ///< refuse partly inverted meshes (IC_ERR_INVERTED_ELEMENT); default false
    /// Read a result frame, not a rest mesh: zero-volume and inverted tets are counted in the
    /// report (icTetMesh_CheckFrame) instead of refused, and no tet is reordered, so the
    /// frame's tets keep the order and orientation its fields and the rest mesh share. Only
    /// unusable files are refused (unreadable, NaN, bad or repeated indices). strict is
    /// ignored. Default false.
    bool resultFrame;
} icLoadOptions;

/// Loads a tet mesh, choosing the reader by extension: TetGen ".ele"/".node" (either name,
/// or the common basename). The mesh is checked (icTetMesh_Check) and oriented, or with
/// options->resultFrame only counted (icTetMesh_CheckFrame); report (optional) says what was
/// fixed or found. On failure nothing is returned (mesh zeroed) and diag names file, line
/// and problem.
icResult icLoadMesh(const char *path, const icLoadOptions *options, icTetMesh *mesh,
                    icOrientReport *report, icDiagnostic *diag);

/// TetGen reader: path may be "x.ele", "x.node" or "x"; 0- or 1-based ids taken from the
/// first node id; attributes, boundary markers and '#' comments tolerated.
icResult icLoadTetGen(const char *path, icTetMesh *mesh, icDiagnostic *diag);
/// Writes "base.node" and "base.ele" (0-based, %.17g), atomically.
icResult icSaveTetGen(const char *basePath, const icTetMesh *mesh, icDiagnostic *diag);

/// A named field for output files: `components` icReal per point or cell (1 or 3).
typedef struct icField {
    const char *name;    ///< array name in the file
    int components;      ///< values per point or cell: 1 or 3
    const icReal *data; ///< (count x components)
} icField;

/// VTK XML unstructured grid, binary appended raw (Float64 points, Int64 connectivity),
/// written atomically. Point and cell fields are optional.
icResult icWriteVtu(const char *path, int vertexCount, const icReal *positions, int tetCount,
                    const int *tets, const icField *pointFields, int pointFieldCount,
                    const icField *cellFields, int cellFieldCount, icDiagnostic *diag);

/// ParaView collection of time steps: files are written relative to the .pvd's folder.
icResult icWritePvd(const char *path, int count, const char *const *files, const icReal *times,
                    icDiagnostic *diag);


// ---------------------------------------------------------------------------------------
// Reading tet meshes

/// The file formats icLoadMesh knows.
typedef enum icMeshFormat {
    IC_FORMAT_UNKNOWN = 0, ///< not a tet mesh format isochor reads
    IC_FORMAT_TETGEN, ///< .node/.ele
    IC_FORMAT_GMSH,   ///< .msh 2.x and 4.1, ASCII and binary
    IC_FORMAT_VTK,    ///< legacy .vtk 2.0 to 5.1, ASCII and BINARY
    IC_FORMAT_VTU,    ///< XML .vtu: ascii, base64, raw appended, zlib-compressed
    IC_FORMAT_MEDIT,  ///< .mesh, MeshVersionFormatted 1 to 4 (ASCII)
} icMeshFormat;

/// What a reader found besides the mesh: notes for the user, not errors.
typedef struct icMeshFileInfo {
    icMeshFormat format; ///< the format read
    char formatName[48]; ///< e.g. "gmsh 4.1 binary", "vtk 5.1 ascii"
    int skippedElements; ///< elements that are not tetrahedra (triangles, lines, ...)
    int quadraticTets;   ///< 10-node tets read as linear tets from their corners
    int droppedVertices; ///< vertices no tet uses, removed (mid-edge nodes, ...)
    bool hasRegions;     ///< mesh->regions came from the file
    /// Data fields not read: Gmsh $ElementNodeData views, and $NodeData/$ElementData views
    /// that leave a kept vertex or tet without a value.
    int skippedFields;
    /// TetGen: records after the count a .node or .ele header gives, ignored as TetGen
    /// ignores them.
    int ignoredTrailingRecords;
} icMeshFileInfo;

/// A named point or cell array read along with a mesh (VTK/VTU point and cell data, Gmsh
/// $NodeData and $ElementData).
typedef struct icMeshField {
    char name[64];  ///< the array's name in the file
    int components; ///< values per point or cell, 1..9
    bool perCell;   ///< one tuple per tet (true) or per vertex (false)
    icReal *data;   ///< (tetCount or vertexCount) x components, in the loaded mesh's order
} icMeshField;

/// The fields of a file; release with icMeshFields_Destroy.
typedef struct icMeshFields {
    int count;          ///< fields held
    icMeshField *items; ///< (count)
} icMeshFields;

/// Frees the fields and their data and zeroes the struct. Safe on a zeroed struct.
void icMeshFields_Destroy(icMeshFields *fields);
/// The field with this name (case-insensitive) and kind, or NULL.
const icMeshField *icMeshFields_Find(const icMeshFields *fields, const char *name, bool perCell);

/// icLoadMesh with the reader's notes and, for VTK/VTU and Gmsh files, their point and cell
/// data (fields may be NULL). The reader is chosen by content first ("$MeshFormat", "# vtk
/// DataFile", "<?xml"/"<VTKFile", "MeshVersionFormatted"), then by extension (.ele, .node,
/// .msh, .vtk, .vtu, .mesh). Cell fields follow the tets that were kept; point fields the
/// vertices that were kept. On failure everything is released and zeroed.
icResult icLoadMeshEx(const char *path, const icLoadOptions *options, icTetMesh *mesh,
                      icMeshFields *fields, icMeshFileInfo *info, icOrientReport *report,
                      icDiagnostic *diag);

/// The format a file holds, from its first bytes, else from its extension.
icMeshFormat icDetectMeshFormat(const char *path);
/// Short name of a format ("gmsh", ...).
const char *icMeshFormat_Name(icMeshFormat format);

// ---------------------------------------------------------------------------------------
// Writing tet meshes (all atomic: an interrupted write leaves no file under the final name)

/// Gmsh 4.1, ASCII or binary. Regions (when mesh->regions is set) become volume entities
/// with one physical group each, tagged with the region id.
icResult icSaveGmsh(const char *path, const icTetMesh *mesh, bool binary, icDiagnostic *diag);
/// MEDIT .mesh, MeshVersionFormatted 2 (double precision); regions are the tet references.
icResult icSaveMedit(const char *path, const icTetMesh *mesh, icDiagnostic *diag);
/// Legacy VTK 4.2 unstructured grid, ASCII or BINARY (big-endian); regions as cell data
/// "region".
icResult icSaveVtk(const char *path, const icTetMesh *mesh, bool binary, icDiagnostic *diag);
/// By extension: .ele/.node (TetGen, both files), .msh (Gmsh 4.1), .vtu (regions as the cell
/// field "region"), .vtk, .mesh. binary applies to .msh and .vtk. IC_ERR_UNSUPPORTED for
/// any other extension.
icResult icSaveMesh(const char *path, const icTetMesh *mesh, bool binary, icDiagnostic *diag);
/// icSaveMesh with point and cell fields (fields may be NULL; each field's data holds
/// vertexCount or tetCount tuples, in the mesh's order, as icLoadMeshEx returns them). .vtu
/// keeps every field (Float64 arrays), .vtk every field as FIELD arrays of doubles (names with
/// blanks %-encoded, as VTK writes them), .msh fields of 1, 3 or 9 components as $NodeData /
/// $ElementData views; other fields and formats leave them out (icSaveMesh_KeepsField says
/// which). A cell field that repeats mesh->regions is written once, as the regions.
/// IC_ERR_INVALID_ARGUMENT for a field without a name, data or 1 to 9 components.
icResult icSaveMeshWithFields(const char *path, const icTetMesh *mesh, const icMeshFields *fields,
                              bool binary, icDiagnostic *diag);
/// True when icSaveMeshWithFields(path, mesh, ...) keeps field, so that a caller can name
/// the ones a format drops (TetGen and MEDIT hold none but the regions).
bool icSaveMesh_KeepsField(const char *path, const icTetMesh *mesh, const icMeshField *field);

// ---------------------------------------------------------------------------------------
// Triangle surfaces

/// A triangle surface: a closed boundary to tetrahedralise, or a render mesh to embed.
typedef struct icTriSurface {
    int vertexCount;   ///< vertices
    int triangleCount; ///< triangles
    icReal *positions; ///< (vertexCount x 3), m
    int *triangles;    ///< (triangleCount x 3), 0-based, counter-clockwise seen from outside
    int *meshVertex;   ///< (vertexCount) tet-mesh vertex of each surface vertex, or NULL
    int *meshTet;      ///< (triangleCount) tet each triangle bounds, or NULL
} icTriSurface;

/// Frees the surface's arrays and zeroes it. Safe on a zeroed struct.
void icTriSurface_Destroy(icTriSurface *surface);

/// Reads .obj, .ply (ascii, binary little/big endian), .stl (ascii, binary) or .off, by
/// content then extension. Polygons are split into triangle fans; STL corners are welded
/// where positions are bitwise equal. Errors as the mesh readers (file, line, exact code).
icResult icLoadSurface(const char *path, icTriSurface *surface, icDiagnostic *diag);

/// The boundary of a tet mesh as a surface with its own compact vertex numbering
/// (meshVertex and meshTet map back). positions may be NULL for mesh->positions.
icResult icTriSurface_FromTetMesh(icTriSurface *surface, const icTetMesh *mesh,
                                  const icReal *positions);

/// Wavefront OBJ of a surface.
icResult icSaveSurfaceObj(const char *path, const icTriSurface *surface, icDiagnostic *diag);
/// PLY of a surface, ascii or binary little-endian (float32 positions, int32 indices).
icResult icSaveSurfacePly(const char *path, const icTriSurface *surface, bool binary,
                          icDiagnostic *diag);
/// Binary STL of a surface.
icResult icSaveSurfaceStl(const char *path, const icTriSurface *surface, icDiagnostic *diag);
/// OFF of a surface.
icResult icSaveSurfaceOff(const char *path, const icTriSurface *surface, icDiagnostic *diag);
/// By extension: .obj, .ply (binary), .stl, .off.
icResult icSaveSurface(const char *path, const icTriSurface *surface, icDiagnostic *diag);

// ---------------------------------------------------------------------------------------
// Blender point cache (PC2, the Mesh Cache modifier's format): "POINTCACHE2\0", int32
// version 1, int32 point count, float32 start frame, float32 sample rate, int32 sample
// count, then float32 xyz per point per sample, little-endian.

/// A PC2 file being written (icPointCache_Open, Append, then Close or Abort).
typedef struct icPointCacheWriter {
    icAtomicFile file; ///< the output, committed by icPointCache_Close
    int pointCount;    ///< points per sample
    int sampleCount;   ///< samples appended so far
    float *scratch; ///< (pointCount x 3)
} icPointCacheWriter;

/// Starts a cache of pointCount points; frames start at startFrame, sampleRate frames apart.
icResult icPointCache_Open(icPointCacheWriter *writer, const char *path, int pointCount,
                           float startFrame, float sampleRate, icDiagnostic *diag);
/// Appends one sample: positions[index[i]] for i < pointCount (index NULL: positions[i]).
icResult icPointCache_Append(icPointCacheWriter *writer, const icReal *positions, const int *index,
                             icDiagnostic *diag);
/// Writes the sample count into the header and commits the file.
icResult icPointCache_Close(icPointCacheWriter *writer, icDiagnostic *diag);
/// Drops the cache (nothing appears under the final name).
void icPointCache_Abort(icPointCacheWriter *writer);

// ---------------------------------------------------------------------------------------
// ParaView collections

/// The data sets of a .pvd, paths resolved against the .pvd's folder.
typedef struct icPvdList {
    int count;           ///< data sets listed
    char (*files)[1024]; ///< (count)
    icReal *times;       ///< (count) the data sets' times, s
} icPvdList;

/// Reads a .pvd (DataSet entries in file order). IC_ERR_EMPTY when it lists nothing.
icResult icLoadPvd(const char *path, icPvdList *list, icDiagnostic *diag);
/// Frees the list's arrays and zeroes it. Safe on a zeroed struct.
void icPvdList_Destroy(icPvdList *list);

// ---------------------------------------------------------------------------------------
// Surfaces to tetrahedra with the external TetGen program (Debian package `tetgen`). TetGen
// is AGPL, so isochor never links it: it writes a .smesh, runs the program, reads the result.

/// How icTetrahedralize runs TetGen.
typedef struct icTetrahedralizeDef {
    icReal maxVolume;    ///< largest tet volume in cubic metres, <= 0 for no limit; default 0
    icReal quality;      ///< radius-edge ratio bound (-q), <= 0 for no refinement; default 1.414
    const char *program; ///< the executable, found on PATH when it has no '/'; default "tetgen"
    const char *workDir; ///< folder for the temporary files; default: a fresh one under /tmp
    bool keepFiles;      ///< leave the temporary files (for debugging); default false
    double timeLimit;    ///< seconds TetGen may run before it is stopped, <= 0 for no limit;
                         ///< default 300
    /// Set by a signal handler (NULL: none): a non-zero value stops TetGen as the time limit
    /// does, within about 20 ms. TetGen runs in a process group of its own (so that a stop
    /// reaches all of it), which a terminal's Ctrl-C does not reach: a program that can be
    /// interrupted sets this.
    const volatile sig_atomic_t *interrupt;
} icTetrahedralizeDef;

/// Defaults: no volume limit, quality 1.414, "tetgen" on PATH, a fresh folder under /tmp,
/// files removed, 300 s time limit, no interrupt.
icTetrahedralizeDef icDefaultTetrahedralizeDef(void);

/// True when program (a name on PATH or a path) exists and is executable.
bool icFindProgram(const char *program, char *fullPath, size_t size);

/// Runs TetGen on a closed surface. IC_ERR_UNSUPPORTED when the program is not installed,
/// IC_ERR_IO when it cannot be run, IC_ERR_PARSE when it fails (diag quotes its last output
/// line), IC_ERR_EMPTY for a surface without triangles or when TetGen makes no tets (an open
/// surface), IC_ERR_INTERRUPTED when it ran past timeLimit or *interrupt was set (its whole
/// process group is killed and its files removed).
icResult icTetrahedralize(const icTriSurface *surface, const icTetrahedralizeDef *def,
                          icTetMesh *mesh, icDiagnostic *diag);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
