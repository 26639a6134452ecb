// SPDX-License-Identifier: MIT
// ParaView collection (.pvd) reader: the DataSet entries, in file order.
#include "formats/fmt_internal.h"

#include <stdio.h>
#include <stdlib.h>

void icPvdList_Destroy(icPvdList *list) {
    if (!list) return;
    icFree(list->files);
    icFree(list->times);
    memset(list, 0, sizeof *list);
}

typedef struct icPvdReader {
    const char *path;
    char dir[1024];
    icPvdList *list;
    int capacity;
    bool sawCollection;
    icDiagnostic *diag;
} icPvdReader;

static icResult addDataSet(icPvdReader *r, const icXmlEvent *tag) {
    icPvdList *list = r->list;
    const char *file = icXml_Attr(tag, "file");
    if (!file)
        return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, tag->line, "DataSet without a file");
    if (list->count == r->capacity) {
        int newCapacity = r->capacity ? 2 * r->capacity : 16;
        char(*files)[1024] = icAlloc(sizeof *files * (size_t)newCapacity);
        icReal *times = IC_ALLOC(icReal, newCapacity);
        if (!files || !times) {
            icFree(files);
            icFree(times);
            return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
        }
        if (list->count) {
            memcpy(files, list->files, sizeof *files * (size_t)list->count);
            memcpy(times, list->times, sizeof *times * (size_t)list->count);
        }
        icFree(list->files);
        icFree(list->times);
        list->files = files;
        list->times = times;
        r->capacity = newCapacity;
    }
    if (!icPath_Join(r->dir, file, list->files[list->count], sizeof list->files[0]))
        return icDiag_Set(r->diag, IC_ERR_BAD_VALUE, r->path, tag->line, "path too long: %s", file);
    double time = list->count;
    const char *timeText = icXml_Attr(tag, "timestep");
    if (timeText) {
        bool finite;
        const char *e = icFmt_ParseReal(timeText, &time, &finite);
        if (!e || *e || !finite)
            return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, tag->line, "bad timestep '%.64s'",
                              timeText);
    }
    list->times[list->count++] = time;
    return IC_OK;
}

static icResult onStart(void *context, const icXmlEvent *tag, bool *stop) {
    (void)stop;
    icPvdReader *r = context;
    if (strcmp(tag->name, "VTKFile") == 0) {
        const char *type = icXml_Attr(tag, "type");
        if (!type || strcmp(type, "Collection") != 0)
            return icDiag_Set(r->diag, IC_ERR_UNSUPPORTED, r->path, tag->line,
                              "not a ParaView collection (VTKFile type '%.64s')", type ? type : "");
        r->sawCollection = true;
    } else if (strcmp(tag->name, "DataSet") == 0) {
        return addDataSet(r, tag);
    }
    return IC_OK;
}

icResult icLoadPvd(const char *path, icPvdList *list, icDiagnostic *diag) {
    memset(list, 0, sizeof *list);
    char *text;
    size_t size;
    icResult result = icReadWholeFile(path, &text, &size, diag);
    if (result != IC_OK) return result;
    icPvdReader r = {path, "", list, 0, false, diag};
    icPath_Dir(path, r.dir, sizeof r.dir);
    static const icXmlHandlers handlers = {onStart, NULL, NULL, NULL};
    result = icXml_Walk(path, text, size, &handlers, &r, diag);
    if (result == IC_OK && !r.sawCollection)
        result = icDiag_Set(diag, IC_ERR_PARSE, path, 0, "no VTKFile element");
    if (result == IC_OK && list->count == 0)
        result = icDiag_Set(diag, IC_ERR_EMPTY, path, 0, "the collection lists no data sets");
    icFree(text);
    if (result != IC_OK) icPvdList_Destroy(list);
    return result;
}
