// SPDX-License-Identifier: MIT
// Surface writers (OBJ, PLY, STL, OFF) and the boundary of a tet mesh as a compact surface,
// for Blender and other viewers that want triangles.
#include "formats/fmt_internal.h"

#include <stdio.h>
#include <strings.h>

icResult icTriSurface_FromTetMesh(icTriSurface *surface, const icTetMesh *mesh,
                                  const icReal *positions) {
    memset(surface, 0, sizeof *surface);
    if (!positions) positions = mesh->positions;
    int *triangles = NULL, *faceTets = NULL, triangleCount = 0;
    icResult result = icTetMesh_ExtractSurface(mesh, &triangles, &triangleCount, &faceTets);
    if (result != IC_OK) return result;
    surface->meshTet = faceTets;
    int *map = IC_ALLOC(int, mesh->vertexCount);
    if (!map) {
        icFree(triangles);
        icTriSurface_Destroy(surface);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int v = 0; v < mesh->vertexCount; ++v) map[v] = -1;
    // Surface vertices numbered by first use, so the order follows the triangles.
    int count = 0;
    for (int i = 0; i < 3 * triangleCount; ++i)
        if (map[triangles[i]] < 0) map[triangles[i]] = count++;
    surface->positions = IC_ALLOC(icReal, 3 * (size_t)count + 3);
    surface->meshVertex = IC_ALLOC(int, count + 1);
    if (!surface->positions || !surface->meshVertex) {
        icFree(map);
        icFree(triangles);
        icTriSurface_Destroy(surface);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int v = 0; v < mesh->vertexCount; ++v) {
        if (map[v] < 0) continue;
        surface->meshVertex[map[v]] = v;
        memcpy(surface->positions + 3 * (size_t)map[v], positions + 3 * (size_t)v,
               3 * sizeof(icReal));
    }
    for (int i = 0; i < 3 * triangleCount; ++i) triangles[i] = map[triangles[i]];
    surface->vertexCount = count;
    surface->triangleCount = triangleCount;
    surface->triangles = triangles;
    icFree(map);
    return IC_OK;
}

static icResult checkSurface(const char *path, const icTriSurface *s, icDiagnostic *diag) {
    if (!s || s->vertexCount <= 0 || s->triangleCount <= 0 || !s->positions || !s->triangles)
        return icDiag_Set(diag, IC_ERR_EMPTY, path ? path : "", 0, "no triangles to write");
    return IC_OK;
}

icResult icSaveSurfaceObj(const char *path, const icTriSurface *s, icDiagnostic *diag) {
    icResult result = checkSurface(path, s, diag);
    icAtomicFile file;
    if (result == IC_OK) result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) return result;
    // 9 significant digits: what a float (Blender's precision) holds.
    fprintf(file.fp, "# isochor surface: %d vertices, %d triangles\n", s->vertexCount,
            s->triangleCount);
    for (int v = 0; v < s->vertexCount; ++v) {
        const icReal *p = s->positions + 3 * (size_t)v;
        fprintf(file.fp, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
    }
    char line[96];
    for (int t = 0; t < s->triangleCount; ++t) {
        int k = 0;
        line[k++] = 'f';
        for (int j = 0; j < 3; ++j) {
            line[k++] = ' ';
            k += icFmt_FormatInt(line + k, s->triangles[3 * (size_t)t + j] + 1);
        }
        line[k++] = '\n';
        fwrite(line, 1, (size_t)k, file.fp);
    }
    return icAtomicFile_Commit(&file, diag);
}

icResult icSaveSurfacePly(const char *path, const icTriSurface *s, bool binary,
                          icDiagnostic *diag) {
    icResult result = checkSurface(path, s, diag);
    icAtomicFile file;
    if (result == IC_OK) result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) return result;
    FILE *fp = file.fp;
    fprintf(fp,
            "ply\nformat %s 1.0\ncomment isochor surface\nelement vertex %d\nproperty float x\n"
            "property float y\nproperty float z\nelement face %d\n"
            "property list uchar int vertex_indices\nend_header\n",
            binary ? "binary_little_endian" : "ascii", s->vertexCount, s->triangleCount);
    const bool swap = !icFmt_HostLittle();
    for (int v = 0; v < s->vertexCount; ++v) {
        const icReal *p = s->positions + 3 * (size_t)v;
        if (binary) {
            for (int k = 0; k < 3; ++k) {
                float f = (float)p[k];
                uint32_t bits;
                memcpy(&bits, &f, 4);
                if (swap) bits = icFmt_Bswap32(bits);
                fwrite(&bits, 4, 1, fp);
            }
        } else {
            fprintf(fp, "%.9g %.9g %.9g\n", p[0], p[1], p[2]);
        }
    }
    for (int t = 0; t < s->triangleCount; ++t) {
        const int *tri = s->triangles + 3 * (size_t)t;
        if (binary) {
            unsigned char three = 3;
            fwrite(&three, 1, 1, fp);
            icFmt_WriteI32(fp, tri, 3, swap);
        } else {
            fprintf(fp, "3 %d %d %d\n", tri[0], tri[1], tri[2]);
        }
    }
    return icAtomicFile_Commit(&file, diag);
}

icResult icSaveSurfaceStl(const char *path, const icTriSurface *s, icDiagnostic *diag) {
    icResult result = checkSurface(path, s, diag);
    icAtomicFile file;
    if (result == IC_OK) result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) return result;
    char header[80];
    memset(header, 0, sizeof header);
    // A binary STL must not start with "solid" or readers take it for ASCII.
    snprintf(header, sizeof header, "isochor binary STL");
    fwrite(header, 1, 80, file.fp);
    uint32_t count = (uint32_t)s->triangleCount;
    fwrite(&count, 4, 1, file.fp);
    for (int t = 0; t < s->triangleCount; ++t) {
        const int *tri = s->triangles + 3 * (size_t)t;
        icVec3 a = icVec3_Load(s->positions, tri[0]), b = icVec3_Load(s->positions, tri[1]);
        icVec3 c = icVec3_Load(s->positions, tri[2]);
        icVec3 n = icVec3_Normalize(icVec3_Cross(icVec3_Sub(b, a), icVec3_Sub(c, a)));
        float record[12] = {(float)n.x, (float)n.y, (float)n.z, (float)a.x, (float)a.y, (float)a.z,
                            (float)b.x, (float)b.y, (float)b.z, (float)c.x, (float)c.y, (float)c.z};
        fwrite(record, 4, 12, file.fp);
        uint16_t attributes = 0;
        fwrite(&attributes, 2, 1, file.fp);
    }
    return icAtomicFile_Commit(&file, diag);
}

icResult icSaveSurfaceOff(const char *path, const icTriSurface *s, icDiagnostic *diag) {
    icResult result = checkSurface(path, s, diag);
    icAtomicFile file;
    if (result == IC_OK) result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) return result;
    fprintf(file.fp, "OFF\n%d %d 0\n", s->vertexCount, s->triangleCount);
    char line[160];
    for (int v = 0; v < s->vertexCount; ++v) {
        int k = 0;
        for (int d = 0; d < 3; ++d) {
            k += icFmt_FormatReal(line + k, s->positions[3 * (size_t)v + d]);
            line[k++] = d < 2 ? ' ' : '\n';
        }
        fwrite(line, 1, (size_t)k, file.fp);
    }
    for (int t = 0; t < s->triangleCount; ++t) {
        const int *tri = s->triangles + 3 * (size_t)t;
        fprintf(file.fp, "3 %d %d %d\n", tri[0], tri[1], tri[2]);
    }
    return icAtomicFile_Commit(&file, diag);
}

icResult icSaveSurface(const char *path, const icTriSurface *surface, icDiagnostic *diag) {
    const char *slash = path ? strrchr(path, '/') : NULL;
    const char *dot = path ? strrchr(path, '.') : NULL;
    const char *ext = (dot && (!slash || dot > slash)) ? dot : "";
    if (strcasecmp(ext, ".obj") == 0) return icSaveSurfaceObj(path, surface, diag);
    if (strcasecmp(ext, ".ply") == 0) return icSaveSurfacePly(path, surface, true, diag);
    if (strcasecmp(ext, ".stl") == 0) return icSaveSurfaceStl(path, surface, diag);
    if (strcasecmp(ext, ".off") == 0) return icSaveSurfaceOff(path, surface, diag);
    return icDiag_Set(diag, IC_ERR_UNSUPPORTED, path ? path : "", 0,
                      "cannot write '%s' surfaces (.obj, .ply, .stl, .off)", ext);
}
