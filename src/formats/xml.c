// SPDX-License-Identifier: MIT
// XML attribute escaping for the VTK writers.
#include "formats/files_internal.h"

void icXml_WriteEscaped(FILE *fp, const char *s) {
    for (; s && *s; ++s) {
        switch (*s) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        case '\'': fputs("&apos;", fp); break;
        default: fputc(*s, fp); break;
        }
    }
}
