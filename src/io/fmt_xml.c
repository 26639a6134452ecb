// SPDX-License-Identifier: MIT
// The XML walk the VTU and PVD readers share: expat over the in-memory text, fed in chunks
// so its buffer stays small, reporting where each piece of markup lies in that text.
#include "io/fmt_internal.h"

#include <expat.h>
#include <limits.h>

// Expat's memory comes from the isochor allocator (so it counts in byte totals and budgets);
// a size word in front of each block lets realloc copy.
#define IC_XML_HEADER 16

static void *xmlMalloc(size_t size) {
    if (size > SIZE_MAX - IC_XML_HEADER) return NULL;
    char *block = icAlloc(size + IC_XML_HEADER);
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    return block + IC_XML_HEADER;
}

static void xmlFree(void *memory) {
    if (memory) icFree((char *)memory - IC_XML_HEADER);
}

static void *xmlRealloc(void *memory, size_t size) {
    if (!memory) return xmlMalloc(size);
    size_t old;
    memcpy(&old, (char *)memory - IC_XML_HEADER, sizeof old);
    void *grown = xmlMalloc(size);
    if (!grown) return NULL;
    memcpy(grown, memory, old < size ? old : size);
    xmlFree(memory);
    return grown;
}

typedef struct icXmlWalk {
    XML_Parser parser;
    const char *text;
    const icXmlHandlers *handlers;
    void *context;
    icResult result; ///< a handler's error
    bool stopped;    ///< a handler asked to stop, or failed
    int depth;
    const char *lastStartEnd; ///< end of the latest start tag (an empty element's end event)
} icXmlWalk;

static int currentLine(XML_Parser parser) {
    XML_Size line = XML_GetCurrentLineNumber(parser);
    return line > INT_MAX ? INT_MAX : (int)line;
}

// Where the current event lies in the text.
static void locate(icXmlWalk *w, icXmlEvent *event) {
    XML_Index at = XML_GetCurrentByteIndex(w->parser);
    int count = XML_GetCurrentByteCount(w->parser);
    event->at = w->text + (at > 0 ? at : 0);
    event->end = event->at + (count > 0 ? count : 0);
    event->line = currentLine(w->parser);
}

static void dispatch(icXmlWalk *w, icXmlFn *fn, const icXmlEvent *event) {
    if (!fn) return;
    bool stop = false;
    icResult result = fn(w->context, event, &stop);
    if (result != IC_OK) {
        w->result = result;
        stop = true;
    }
    if (stop) {
        w->stopped = true;
        XML_StopParser(w->parser, XML_FALSE);
    }
}

static void XMLCALL onStart(void *user, const XML_Char *name, const XML_Char **attrs) {
    icXmlWalk *w = user;
    if (w->stopped) return;
    icXmlEvent event = {name, attrs, NULL, NULL, 0, w->depth++};
    locate(w, &event);
    w->lastStartEnd = event.end;
    dispatch(w, w->handlers->start, &event);
}

static void XMLCALL onEnd(void *user, const XML_Char *name) {
    icXmlWalk *w = user;
    if (w->stopped) return;
    icXmlEvent event = {name, NULL, NULL, NULL, 0, --w->depth};
    locate(w, &event);
    // The end of an empty-element tag is that tag: the element holds nothing.
    if (event.end == event.at) event.at = event.end = w->lastStartEnd;
    dispatch(w, w->handlers->end, &event);
}

static void otherMarkup(icXmlWalk *w) {
    if (w->stopped) return;
    icXmlEvent event = {NULL, NULL, NULL, NULL, 0, w->depth};
    locate(w, &event);
    dispatch(w, w->handlers->other, &event);
}

static void XMLCALL onComment(void *user, const XML_Char *data) {
    (void)data;
    otherMarkup(user);
}

static void XMLCALL onInstruction(void *user, const XML_Char *target, const XML_Char *data) {
    (void)target;
    (void)data;
    otherMarkup(user);
}

icResult icXml_Walk(const char *path, const char *text, size_t size, const icXmlHandlers *handlers,
                    void *context, icDiagnostic *diag) {
    static const XML_Memory_Handling_Suite memory = {xmlMalloc, xmlRealloc, xmlFree};
    icXmlWalk w = {NULL, text, handlers, context, IC_OK, false, 0, text};
    w.parser = XML_ParserCreate_MM(NULL, &memory, NULL);
    if (!w.parser) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    XML_SetUserData(w.parser, &w);
    XML_SetElementHandler(w.parser, onStart, onEnd);
    if (handlers->other) {
        XML_SetCommentHandler(w.parser, onComment);
        XML_SetProcessingInstructionHandler(w.parser, onInstruction);
    }
    // Chunks bound expat's own buffer (it copies what it is given) whatever the file's size.
    const size_t chunk = (size_t)1 << 16;
    size_t done = 0;
    enum XML_Status status = XML_STATUS_OK;
    for (;;) {
        size_t n = size - done < chunk ? size - done : chunk;
        bool last = done + n == size;
        status = XML_Parse(w.parser, text + done, (int)n, last);
        done += n;
        if (status != XML_STATUS_OK || last) break;
    }
    icResult result = w.result;
    if (status != XML_STATUS_OK && !w.stopped) {
        enum XML_Error error = XML_GetErrorCode(w.parser);
        int line = currentLine(w.parser);
        if (error == XML_ERROR_NO_MEMORY) {
            result = icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, line, "out of memory");
        } else {
            // The document ended, or an end tag came, while an element was still open.
            bool unclosed = error == XML_ERROR_TAG_MISMATCH || error == XML_ERROR_NO_ELEMENTS ||
                            error == XML_ERROR_UNCLOSED_TOKEN || error == XML_ERROR_PARTIAL_CHAR;
            result = handlers->malformed
                         ? handlers->malformed(context, line, unclosed, XML_ErrorString(error))
                         : icDiag_Set(diag, IC_ERR_PARSE, path, line, "malformed XML: %s",
                                      XML_ErrorString(error));
        }
    }
    XML_ParserFree(w.parser);
    return result;
}

const char *icXml_Attr(const icXmlEvent *event, const char *key) {
    for (const char **a = event->attrs; a && a[0]; a += 2)
        if (strcmp(a[0], key) == 0) return a[1];
    return NULL;
}

bool icXml_IsBlank(const char *p, const char *end) {
    for (; p < end; ++p)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') return false;
    return true;
}
