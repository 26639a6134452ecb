// SPDX-License-Identifier: MIT
// Rod outputs of a scene run: segments as VTK lines with the radius (ParaView's Tube filter
// can vary the radius by it), capsule triangles of the pills, and skinned meshes, per frame.
#include "scene/scene_rods.h"
#include "isochor/formats.h"

#include "core/core.h"

#include <stdio.h>
#include <string.h>

#define IC_VTK_LINE 3
#define IC_VTK_TRIANGLE 5

static void declare(FILE *fp, const char *type, const char *name, int components, uint64_t bytes,
                    uint64_t *offset) {
    fprintf(fp, "        <DataArray type=\"%s\" Name=\"%s\"", type, name);
    if (components > 1) fprintf(fp, " NumberOfComponents=\"%d\"", components);
    fprintf(fp, " format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)*offset);
    *offset += sizeof(uint64_t) + bytes;
}

static void block(FILE *fp, const void *data, uint64_t bytes) {
    fwrite(&bytes, sizeof bytes, 1, fp);
    if (bytes) fwrite(data, 1, (size_t)bytes, fp);
}

// VTK XML unstructured grid of cells with `nodes` vertices each, raw appended binary (the
// same layout as vtu_write.c); fields are Float64 per point.
static icResult writeCells(const char *path, int nv, const icReal *x, int cellCount, int nodes,
                           const int *cells, unsigned char type, const icField *fields,
                           int fieldCount, icDiagnostic *diag) {
    const uint16_t probe = 1;
    unsigned char little;
    memcpy(&little, &probe, 1);
    int64_t *conn = IC_ALLOC(int64_t, (size_t)cellCount * nodes + 1);
    int64_t *offs = IC_ALLOC(int64_t, (size_t)cellCount + 1);
    unsigned char *types = IC_ALLOC(unsigned char, (size_t)cellCount + 1);
    if (!conn || !offs || !types) {
        icFree(conn);
        icFree(offs);
        icFree(types);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    }
    for (size_t i = 0; i < (size_t)cellCount * nodes; ++i) conn[i] = cells[i];
    for (int c = 0; c < cellCount; ++c) {
        offs[c] = (int64_t)(c + 1) * nodes;
        types[c] = type;
    }
    icAtomicFile file;
    icResult e = icAtomicFile_Open(&file, path, diag);
    if (e == IC_OK) {
        FILE *fp = file.fp;
        uint64_t nvb = (uint64_t)nv, ncb = (uint64_t)cellCount, off = 0;
        fprintf(fp,
                "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
                "byte_order=\"%s\" header_type=\"UInt64\">\n  <UnstructuredGrid>\n    <Piece "
                "NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n      <PointData>\n",
                little ? "LittleEndian" : "BigEndian", nv, cellCount);
        for (int f = 0; f < fieldCount; ++f)
            declare(fp, "Float64", fields[f].name, fields[f].components,
                    nvb * fields[f].components * 8, &off);
        fprintf(fp, "      </PointData>\n      <Points>\n");
        declare(fp, "Float64", "Points", 3, nvb * 24, &off);
        fprintf(fp, "      </Points>\n      <Cells>\n");
        declare(fp, "Int64", "connectivity", 1, ncb * nodes * 8, &off);
        declare(fp, "Int64", "offsets", 1, ncb * 8, &off);
        declare(fp, "UInt8", "types", 1, ncb, &off);
        fprintf(fp, "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n"
                    "  <AppendedData encoding=\"raw\">\n   _");
        for (int f = 0; f < fieldCount; ++f)
            block(fp, fields[f].data, nvb * fields[f].components * 8);
        block(fp, x, nvb * 24);
        block(fp, conn, ncb * nodes * 8);
        block(fp, offs, ncb * 8);
        block(fp, types, ncb);
        fprintf(fp, "\n  </AppendedData>\n</VTKFile>\n");
        e = icAtomicFile_Commit(&file, diag);
    }
    icFree(conn);
    icFree(offs);
    icFree(types);
    return e;
}

static icResult writeObj(const char *path, int nv, const icReal *x, int nt, const int *tri,
                         icDiagnostic *diag) {
    icTriSurface s;
    memset(&s, 0, sizeof s);
    s.vertexCount = nv;
    s.triangleCount = nt;
    s.positions = (icReal *)x;
    s.triangles = (int *)tri;
    return icSaveSurfaceObj(path, &s, diag);
}

// The file names of one frame's three outputs.
static void nameFrame(icSceneRodOutput *out, int index, int frame) {
    char *name = out->names + 32 * (3 * index);
    snprintf(name, 32, "rods_%05d.vtu", frame);
    snprintf(name + 32, 32, "pills_%05d.vtu", frame);
    snprintf(name + 64, 32, "skin_%05d.vtu", frame);
}

icResult icSceneRods_Open(icSceneRodOutput *out, const icScene *scene, const char *dir, int frames,
                          int every, bool write, int listed, const int *listedFrames,
                          const icReal *listedTimes, icDiagnostic *diag) {
    memset(out, 0, sizeof *out);
    if (!scene->rods || !write || (!scene->writeVtu && !scene->writeObj)) return IC_OK;
    out->active = true;
    out->vtu = scene->writeVtu;
    out->obj = scene->writeObj;
    snprintf(out->dir, sizeof out->dir, "%s", dir);
    out->capacity = frames / (every > 0 ? every : 1) + 2;
    out->names = IC_ALLOC_ZERO(char, 3 * 32 * (size_t)out->capacity);
    out->times = IC_ALLOC(icReal, (size_t)out->capacity);
    out->frames = IC_ALLOC(int, (size_t)out->capacity);
    if (!out->names || !out->times || !out->frames) {
        icSceneRods_Close(out);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, dir, 0, "cannot allocate rod outputs");
    }
    if (listed < 0) return icSceneRods_Frame(out, (icScene *)scene, 0, diag);
    // A last frame off the output grid (a run stopped early by --frames) is written again.
    for (int i = 0; i < listed; ++i) {
        if (listedFrames[i] % (every > 0 ? every : 1) != 0) continue;
        if (out->count >= out->capacity)
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, dir, 0,
                              "checkpoint lists %d rod frames, more than this run writes", listed);
        nameFrame(out, out->count, listedFrames[i]);
        out->frames[out->count] = listedFrames[i];
        out->times[out->count++] = listedTimes[i];
    }
    return IC_OK;
}

// Rewrites the three .pvd lists (files relative to the output folder).
static icResult writeLists(icSceneRodOutput *out, bool skins, icDiagnostic *diag) {
    const char *names[3] = {"rods", "pills", "skin"};
    const char **files = IC_ALLOC(const char *, (size_t)out->count + 1);
    if (!files) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, out->dir, 0, "out of memory");
    icResult e = IC_OK;
    for (int k = 0; k < (skins ? 3 : 2) && e == IC_OK; ++k) {
        for (int i = 0; i < out->count; ++i) files[i] = out->names + 32 * (3 * i + k);
        char path[1200];
        snprintf(path, sizeof path, "%s/%s.pvd", out->dir, names[k]);
        e = icWritePvd(path, out->count, files, out->times, diag);
    }
    icFree((void *)files);
    return e;
}

icResult icSceneRods_Frame(icSceneRodOutput *out, icScene *scene, int frame, icDiagnostic *diag) {
    if (!out->active) return IC_OK;
    icRodWorld *w = scene->rods;
    if (out->count >= out->capacity)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, out->dir, 0, "too many frames");
    char path[1200];
    icResult e = IC_OK;
    int nv = icRodWorld_GetVertexCount(w), ns = icRodWorld_GetSegmentCount(w);
    char *name = out->names + 32 * (3 * out->count);
    nameFrame(out, out->count, frame);
    if (out->vtu) {
        snprintf(path, sizeof path, "%s/%s", out->dir, name);
        icField fields[2] = {{"radius", 1, icRodWorld_GetRadii(w)},
                             {"velocity", 3, icRodWorld_GetVelocities(w)}};
        e = writeCells(path, nv, icRodWorld_GetPositions(w), ns, 2, icRodWorld_GetSegments(w),
                       IC_VTK_LINE, fields, 2, diag);
    }
    icRodSurface pills;
    if (e == IC_OK && (e = icRodWorld_PillSurface(w, 12, &pills)) != IC_OK)
        return icDiag_Set(diag, e, out->dir, 0, "cannot build the pill surfaces");
    if (e == IC_OK && out->vtu) {
        snprintf(path, sizeof path, "%s/%s", out->dir, name + 32);
        e = writeCells(path, pills.vertexCount, pills.positions, pills.triangleCount, 3,
                       pills.triangles, IC_VTK_TRIANGLE, NULL, 0, diag);
    }
    if (e == IC_OK && out->obj) {
        snprintf(path, sizeof path, "%s/pills_%05d.obj", out->dir, frame);
        e = writeObj(path, pills.vertexCount, pills.positions, pills.triangleCount, pills.triangles,
                     diag);
    }
    icRodSurface_Destroy(&pills);
    bool skins = icRodWorld_GetSkinCount(w) > 0;
    if (e == IC_OK && skins) {
        icRodWorld_UpdateSkins(w);
        // all skins in one mesh per frame
        int tv = 0, tt = 0;
        for (int s = 0; s < icRodWorld_GetSkinCount(w); ++s) {
            int v, t;
            icRodWorld_GetSkin(w, s, &v, NULL, &t, NULL);
            tv += v;
            tt += t;
        }
        icReal *x = IC_ALLOC(icReal, 3 * (size_t)tv + 1);
        int *tri = IC_ALLOC(int, 3 * (size_t)tt + 1);
        if (!x || !tri) e = icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, out->dir, 0, "out of memory");
        int ov = 0, ot = 0;
        for (int s = 0; e == IC_OK && s < icRodWorld_GetSkinCount(w); ++s) {
            int v, t;
            const icReal *p;
            const int *tr;
            icRodWorld_GetSkin(w, s, &v, &p, &t, &tr);
            memcpy(x + 3 * (size_t)ov, p, sizeof(icReal) * 3 * (size_t)v);
            for (int i = 0; i < 3 * t; ++i) tri[3 * (size_t)ot + i] = tr[i] + ov;
            ov += v;
            ot += t;
        }
        if (e == IC_OK && out->vtu) {
            snprintf(path, sizeof path, "%s/%s", out->dir, name + 64);
            e = writeCells(path, tv, x, tt, 3, tri, IC_VTK_TRIANGLE, NULL, 0, diag);
        }
        if (e == IC_OK && out->obj) {
            snprintf(path, sizeof path, "%s/skin_%05d.obj", out->dir, frame);
            e = writeObj(path, tv, x, tt, tri, diag);
        }
        icFree(x);
        icFree(tri);
    }
    if (e != IC_OK) return e;
    out->frames[out->count] = frame;
    out->times[out->count++] = icRodWorld_GetTime(w);
    return out->vtu ? writeLists(out, skins, diag) : IC_OK;
}

void icSceneRods_Close(icSceneRodOutput *out) {
    icFree(out->names);
    icFree(out->times);
    icFree(out->frames);
    memset(out, 0, sizeof *out);
}
