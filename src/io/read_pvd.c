// SPDX-License-Identifier: MIT
// ParaView collection (.pvd) reader: the DataSet entries, in file order.
#include "io/fmt_internal.h"

#include <stdio.h>
#include <stdlib.h>

void icPvdList_Destroy(icPvdList *list) {
    if (!list) return;
    icFree(list->files);
    icFree(list->times);
    memset(list, 0, sizeof *list);
}

icResult icLoadPvd(const char *path, icPvdList *list, icDiagnostic *diag) {
    memset(list, 0, sizeof *list);
    char *text;
    size_t size;
    icResult result = icReadWholeFile(path, &text, &size, diag);
    if (result != IC_OK) return result;
    char dir[1024];
    icPath_Dir(path, dir, sizeof dir);
    int capacity = 0;
    bool sawCollection = false, bad = false;
    icXmlTag tag;
    const char *p = text;
    while (result == IC_OK && icXml_NextTag(p, text + size, &tag, &bad)) {
        p = tag.end;
        char value[1024];
        if (icXml_Is(&tag, "VTKFile") && !tag.closing) {
            if (!icXml_Attr(&tag, "type", value, sizeof value) || strcmp(value, "Collection") != 0)
                result = icDiag_Set(diag, IC_ERR_UNSUPPORTED, path, icText_LineOf(text, tag.start),
                                    "not a ParaView collection (VTKFile type '%s')", value);
            sawCollection = true;
        } else if (icXml_Is(&tag, "DataSet") && !tag.closing) {
            int line = icText_LineOf(text, tag.start);
            if (!icXml_Attr(&tag, "file", value, sizeof value)) {
                result = icDiag_Set(diag, IC_ERR_PARSE, path, line, "DataSet without a file");
                break;
            }
            if (list->count == capacity) {
                int newCapacity = capacity ? 2 * capacity : 16;
                char(*files)[1024] = icAlloc(sizeof *files * (size_t)newCapacity);
                icReal *times = IC_ALLOC(icReal, newCapacity);
                if (!files || !times) {
                    icFree(files);
                    icFree(times);
                    result = icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
                    break;
                }
                if (list->count) {
                    memcpy(files, list->files, sizeof *files * (size_t)list->count);
                    memcpy(times, list->times, sizeof *times * (size_t)list->count);
                }
                icFree(list->files);
                icFree(list->times);
                list->files = files;
                list->times = times;
                capacity = newCapacity;
            }
            if (!icPath_Join(dir, value, list->files[list->count], sizeof list->files[0])) {
                result = icDiag_Set(diag, IC_ERR_BAD_VALUE, path, line, "path too long: %s", value);
                break;
            }
            char timeText[64];
            double time = list->count;
            if (icXml_Attr(&tag, "timestep", timeText, sizeof timeText)) {
                bool finite;
                const char *e = icFmt_ParseReal(timeText, &time, &finite);
                if (!e || *e || !finite) {
                    result =
                        icDiag_Set(diag, IC_ERR_PARSE, path, line, "bad timestep '%s'", timeText);
                    break;
                }
            }
            list->times[list->count++] = time;
        }
    }
    if (result == IC_OK && bad)
        result = icDiag_Set(diag, IC_ERR_PARSE, path, 0, "a tag is not closed");
    if (result == IC_OK && !sawCollection)
        result = icDiag_Set(diag, IC_ERR_PARSE, path, 0, "no VTKFile element");
    if (result == IC_OK && list->count == 0)
        result = icDiag_Set(diag, IC_ERR_EMPTY, path, 0, "the collection lists no data sets");
    icFree(text);
    if (result != IC_OK) icPvdList_Destroy(list);
    return result;
}
