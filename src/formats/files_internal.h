// SPDX-License-Identifier: MIT
// Services shared by the isochor_formats readers and writers: whole-file reads, path pieces,
// the checked TetGen loader, XML escaping.
#pragma once

#include "isochor/formats.h"
#include "isochor/io.h"

/// IC_OK when path names a regular file (symbolic links followed); otherwise IC_ERR_IO naming
/// what it is (a directory, a FIFO, a device). It does not open the file: opening a FIFO for
/// reading blocks until a writer comes, and a device such as /dev/urandom never ends.
icResult icRequireRegularFile(const char *path, icDiagnostic *diag);
/// Reads a whole file into a NUL-terminated buffer (free with icFree). IC_ERR_IO names the
/// file and the reason; IC_ERR_OUT_OF_MEMORY when the buffer cannot be allocated.
icResult icReadWholeFile(const char *path, char **text, size_t *size, icDiagnostic *diag);


/// The TetGen reader with the mesh check folded in, so that check failures (degenerate,
/// repeated, out of range, strict inversion) are reported at their line in the .ele file.
/// resultFrame: icTetMesh_CheckFrame instead (see icLoadOptions). report and info (where the
/// records after a header's count are counted) may be NULL.
icResult icLoadTetGenChecked(const char *path, bool strict, bool resultFrame, icTetMesh *mesh,
                             icOrientReport *report, icMeshFileInfo *info, icDiagnostic *diag);

/// Writes s to fp with the XML special characters escaped (for attribute values).
void icXml_WriteEscaped(FILE *fp, const char *s);
