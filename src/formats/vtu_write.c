// SPDX-License-Identifier: MIT
// VTK XML unstructured grid writer: binary appended raw data, UInt64 block headers.
#include "formats/files_internal.h"

#include <stdio.h>
#include <string.h>

// Layout: the XML describes every DataArray with an offset into the appended section,
// which follows "_" and holds, per array, a UInt64 byte count and the raw little- (or
// big-, as the header says) endian values. Arrays are written in the order they are
// declared, so offsets are running sums.

#define IC_VTK_TETRA 10

static bool isLittleEndian(void) {
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

// Writes one DataArray declaration and advances the running offset.
static void declareArray(FILE *fp, const char *type, const char *name, int components,
                         uint64_t bytes, uint64_t *offset) {
    fprintf(fp, "        <DataArray type=\"%s\" Name=\"", type);
    icXml_WriteEscaped(fp, name);
    fputc('"', fp);
    if (components > 1) fprintf(fp, " NumberOfComponents=\"%d\"", components);
    fprintf(fp, " format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)*offset);
    *offset += sizeof(uint64_t) + bytes;
}

static void writeBlockHeader(FILE *fp, uint64_t bytes) { fwrite(&bytes, sizeof bytes, 1, fp); }

// Values as Float64; icReal is double, so this is a plain copy unless built otherwise.
static void writeFloat64(FILE *fp, const icReal *data, size_t count) {
    if (sizeof(icReal) == sizeof(double)) {
        if (count > 0) fwrite(data, sizeof(double), count, fp); // data may be NULL when empty
        return;
    }
    double chunk[1024];
    for (size_t i = 0; i < count;) {
        size_t n = count - i < 1024 ? count - i : 1024;
        for (size_t k = 0; k < n; ++k) chunk[k] = (double)data[i + k];
        fwrite(chunk, sizeof(double), n, fp);
        i += n;
    }
}

// Tets as VTK_TETRA connectivity. VTK's positive tet is the mirror of mesh.h's, so local
// vertices 1 and 2 are swapped (ParaView then sees positive volumes).
static void writeConnectivity(FILE *fp, const int *tets, size_t tetCount) {
    int64_t chunk[1024];
    for (size_t t = 0; t < tetCount;) {
        size_t n = tetCount - t < 256 ? tetCount - t : 256;
        for (size_t k = 0; k < n; ++k) {
            const int *q = tets + 4 * (t + k);
            chunk[4 * k] = q[0];
            chunk[4 * k + 1] = q[2];
            chunk[4 * k + 2] = q[1];
            chunk[4 * k + 3] = q[3];
        }
        fwrite(chunk, sizeof(int64_t), 4 * n, fp);
        t += n;
    }
}

static icResult checkFields(const char *path, const icField *fields, int count,
                            const char *kind, int rows, icDiagnostic *diag) {
    if (count < 0 || (count > 0 && !fields))
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0, "bad %s field list", kind);
    for (int i = 0; i < count; ++i) {
        const icField *f = &fields[i];
        if (!f->name || !f->name[0] || f->components < 1 || f->components > 9 ||
            (rows > 0 && !f->data))
            return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0,
                              "%s field %d needs a name, 1 to 9 components and data", kind, i);
    }
    return IC_OK;
}

icResult icWriteVtu(const char *path, int vertexCount, const icReal *positions, int tetCount,
                    const int *tets, const icField *pointFields, int pointFieldCount,
                    const icField *cellFields, int cellFieldCount, icDiagnostic *diag) {
    if (!path) path = "";
    if (vertexCount < 0 || tetCount < 0 || (vertexCount > 0 && !positions) ||
        (tetCount > 0 && !tets))
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path, 0, "bad vertex or tet arrays");
    icResult r = checkFields(path, pointFields, pointFieldCount, "point", vertexCount, diag);
    if (r == IC_OK) r = checkFields(path, cellFields, cellFieldCount, "cell", tetCount, diag);
    if (r != IC_OK) return r;

    icAtomicFile file;
    if ((r = icAtomicFile_Open(&file, path, diag)) != IC_OK) return r;
    FILE *fp = file.fp;
    size_t nv = (size_t)vertexCount, nt = (size_t)tetCount;

    fprintf(fp, "<?xml version=\"1.0\"?>\n"
                "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"%s\" "
                "header_type=\"UInt64\">\n"
                "  <UnstructuredGrid>\n"
                "    <Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n",
            isLittleEndian() ? "LittleEndian" : "BigEndian", vertexCount, tetCount);
    uint64_t offset = 0;
    fprintf(fp, "      <PointData>\n");
    for (int i = 0; i < pointFieldCount; ++i)
        declareArray(fp, "Float64", pointFields[i].name, pointFields[i].components,
                     nv * (size_t)pointFields[i].components * 8, &offset);
    fprintf(fp, "      </PointData>\n      <CellData>\n");
    for (int i = 0; i < cellFieldCount; ++i)
        declareArray(fp, "Float64", cellFields[i].name, cellFields[i].components,
                     nt * (size_t)cellFields[i].components * 8, &offset);
    fprintf(fp, "      </CellData>\n      <Points>\n");
    declareArray(fp, "Float64", "Points", 3, nv * 3 * 8, &offset);
    fprintf(fp, "      </Points>\n      <Cells>\n");
    declareArray(fp, "Int64", "connectivity", 1, nt * 4 * 8, &offset);
    declareArray(fp, "Int64", "offsets", 1, nt * 8, &offset);
    declareArray(fp, "UInt8", "types", 1, nt, &offset);
    fprintf(fp, "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n"
                "  <AppendedData encoding=\"raw\">\n   _");

    for (int i = 0; i < pointFieldCount; ++i) {
        size_t count = nv * (size_t)pointFields[i].components;
        writeBlockHeader(fp, count * 8);
        writeFloat64(fp, pointFields[i].data, count);
    }
    for (int i = 0; i < cellFieldCount; ++i) {
        size_t count = nt * (size_t)cellFields[i].components;
        writeBlockHeader(fp, count * 8);
        writeFloat64(fp, cellFields[i].data, count);
    }
    writeBlockHeader(fp, nv * 3 * 8);
    writeFloat64(fp, positions, nv * 3);
    writeBlockHeader(fp, nt * 4 * 8);
    writeConnectivity(fp, tets, nt);
    // offsets[t] is where cell t ends in the connectivity: 4 (t + 1).
    writeBlockHeader(fp, nt * 8);
    for (size_t t = 0; t < nt;) {
        int64_t chunk[1024];
        size_t n = nt - t < 1024 ? nt - t : 1024;
        for (size_t k = 0; k < n; ++k) chunk[k] = (int64_t)(4 * (t + k + 1));
        fwrite(chunk, sizeof(int64_t), n, fp);
        t += n;
    }
    writeBlockHeader(fp, nt);
    {
        unsigned char chunk[4096];
        memset(chunk, IC_VTK_TETRA, sizeof chunk);
        for (size_t t = 0; t < nt;) {
            size_t n = nt - t < sizeof chunk ? nt - t : sizeof chunk;
            fwrite(chunk, 1, n, fp);
            t += n;
        }
    }
    fprintf(fp, "\n  </AppendedData>\n</VTKFile>\n");
    return icAtomicFile_Commit(&file, diag);
}
