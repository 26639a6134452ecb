// SPDX-License-Identifier: MIT
// Blender point cache (PC2) writer: a fixed header, then float32 xyz per point per sample,
// all little-endian. The sample count is patched into the header when the cache closes.
#include "formats/fmt_internal.h"

#include <stdio.h>

static void putU32(unsigned char *out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out[i] = (unsigned char)(v >> (8 * i));
}

static void putF32(unsigned char *out, float f) {
    uint32_t bits;
    memcpy(&bits, &f, 4);
    putU32(out, bits);
}

icResult icPointCache_Open(icPointCacheWriter *writer, const char *path, int pointCount,
                           float startFrame, float sampleRate, icDiagnostic *diag) {
    memset(writer, 0, sizeof *writer);
    if (pointCount <= 0)
        return icDiag_Set(diag, IC_ERR_EMPTY, path ? path : "", 0, "a point cache needs points");
    writer->scratch = IC_ALLOC(float, 3 * (size_t)pointCount);
    if (!writer->scratch) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    icResult result = icAtomicFile_Open(&writer->file, path, diag);
    if (result != IC_OK) {
        icFree(writer->scratch);
        writer->scratch = NULL;
        return result;
    }
    writer->pointCount = pointCount;
    unsigned char header[32];
    memcpy(header, "POINTCACHE2", 12); // with its NUL
    putU32(header + 12, 1);
    putU32(header + 16, (uint32_t)pointCount);
    putF32(header + 20, startFrame);
    putF32(header + 24, sampleRate);
    putU32(header + 28, 0);
    fwrite(header, 1, sizeof header, writer->file.fp);
    return IC_OK;
}

icResult icPointCache_Append(icPointCacheWriter *writer, const icReal *positions, const int *index,
                             icDiagnostic *diag) {
    if (!writer->file.fp)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, writer->file.path, 0,
                          "the cache is not open");
    unsigned char *bytes = (unsigned char *)writer->scratch;
    for (int i = 0; i < writer->pointCount; ++i) {
        const icReal *p = positions + 3 * (size_t)(index ? index[i] : i);
        for (int k = 0; k < 3; ++k) putF32(bytes + 12 * (size_t)i + 4 * (size_t)k, (float)p[k]);
    }
    fwrite(bytes, 12, (size_t)writer->pointCount, writer->file.fp);
    ++writer->sampleCount;
    return IC_OK;
}

icResult icPointCache_Close(icPointCacheWriter *writer, icDiagnostic *diag) {
    if (!writer->file.fp)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, writer->file.path, 0,
                          "the cache is not open");
    unsigned char count[4];
    putU32(count, (uint32_t)writer->sampleCount);
    if (fseek(writer->file.fp, 28, SEEK_SET) != 0 || fwrite(count, 1, 4, writer->file.fp) != 4) {
        char path[1024];
        snprintf(path, sizeof path, "%s", writer->file.path);
        icPointCache_Abort(writer);
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "cannot write the point cache header");
    }
    icFree(writer->scratch);
    writer->scratch = NULL;
    return icAtomicFile_Commit(&writer->file, diag);
}

void icPointCache_Abort(icPointCacheWriter *writer) {
    icAtomicFile_Abort(&writer->file);
    icFree(writer->scratch);
    writer->scratch = NULL;
}
