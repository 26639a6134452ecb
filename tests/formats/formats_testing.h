// SPDX-License-Identifier: MIT
// Helpers shared by the format tests: scratch files, byte buffers for hand-built binary
// files, mesh comparison and surface volume.
#pragma once

#include "isochor/formats.h"
#include "test.h"

#include <stdint.h>

/// Writes size bytes to dir/name and returns the full path (static buffer, 4 in rotation).
const char *icFmtTest_WriteFile(const char *dir, const char *name, const void *data, size_t size);
/// Same for a NUL-terminated text.
const char *icFmtTest_WriteText(const char *dir, const char *name, const char *text);
/// Reads a whole file (free with free()); NULL when missing.
char *icFmtTest_ReadFile(const char *path, size_t *size);

/// A growable byte buffer for building binary files in tests.
typedef struct icBytes {
    unsigned char *data;
    size_t size, capacity;
} icBytes;
void icBytes_Put(icBytes *b, const void *data, size_t n);
void icBytes_Text(icBytes *b, const char *text);
void icBytes_I32(icBytes *b, int32_t v, bool bigEndian);
void icBytes_U32(icBytes *b, uint32_t v, bool bigEndian);
void icBytes_U64(icBytes *b, uint64_t v, bool bigEndian);
void icBytes_F32(icBytes *b, float v, bool bigEndian);
void icBytes_F64(icBytes *b, double v, bool bigEndian);
void icBytes_Free(icBytes *b);

/// The five-tet unit cube of the golden files (vertices and tets in file order, file
/// handedness: det[x1-x0, x2-x0, x3-x0] > 0).
extern const double icFmtTest_cubePositions[8][3];
extern const int icFmtTest_cubeTets[5][4];
extern const int icFmtTest_cubeRegions[5];

/// True when b has a's vertices and tets exactly (positions bit for bit when exact, else to
/// tolerance), reporting the first difference.
bool icFmtTest_SameMesh(const icTetMesh *a, const icTetMesh *b, double tolerance);
/// Volume enclosed by a closed, outward-wound surface (divergence theorem).
double icFmtTest_SurfaceVolume(const icTriSurface *s);
/// Base64 text of n bytes appended to b.
void icBytes_Base64(icBytes *b, const void *data, size_t n);
