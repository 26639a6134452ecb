// SPDX-License-Identifier: MIT
// The XML walk the VTU and PVD readers share: expat over the in-memory text, fed in chunks
// so its buffer stays small, reporting where each piece of markup lies in that text.
#include "formats/fmt_internal.h"

#include <expat.h>
#include <limits.h>
#include <stdint.h>

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
    const char *lastEnd;      ///< end of the latest markup reported
    // Runs of text expat was not shown (see icXml_Walk): what its positions lack.
    size_t skippedBytes;
    int skippedLines;
} icXmlWalk;

static int currentLine(const icXmlWalk *w) {
    XML_Size line = XML_GetCurrentLineNumber(w->parser) + (XML_Size)w->skippedLines;
    return line > INT_MAX ? INT_MAX : (int)line;
}

// Where the current event lies in the text.
static void locate(icXmlWalk *w, icXmlEvent *event) {
    XML_Index at = XML_GetCurrentByteIndex(w->parser);
    int count = XML_GetCurrentByteCount(w->parser);
    event->at = w->text + w->skippedBytes + (at > 0 ? (size_t)at : 0);
    event->end = event->at + (count > 0 ? count : 0);
    event->line = currentLine(w);
    w->lastEnd = event->end;
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
    if (event.end == event.at) event.at = event.end = w->lastEnd = w->lastStartEnd;
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

// Text runs this long or longer inside an element are not shown to expat (below).
#define IC_XML_LONG_RUN 512

// The next run of at least IC_XML_LONG_RUN bytes from p on that holds neither '<' nor '>' and
// follows a '>': returns that '>' and sets *runEnd to the '<' (or the end) closing the run;
// NULL when there is none. memchr only, so it runs far faster than expat.
static const char *nextLongRun(const char *p, const char *end, const char **runEnd) {
    const char *gt = memchr(p, '>', (size_t)(end - p));
    while (gt) {
        const char *lt = memchr(gt + 1, '<', (size_t)(end - gt - 1));
        const char *stop = lt ? lt : end;
        // The last '>' before stop.
        for (const char *next; (next = memchr(gt + 1, '>', (size_t)(stop - gt - 1)));) gt = next;
        if (stop - gt - 1 >= IC_XML_LONG_RUN) {
            *runEnd = stop;
            return gt;
        }
        if (!lt) return NULL;
        gt = memchr(lt, '>', (size_t)(end - lt));
    }
    return NULL;
}

// High bit of each zero byte of v, exactly (no false positives, so the bits can be counted).
static inline uint64_t zeroBytes(uint64_t v) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    return ~(((v & low7) + low7) | v | low7);
}

// True when [p, end) is ASCII without '&' and without control characters but tab and line
// breaks: text XML takes as it stands. Counts its newlines. Eight bytes at a time.
static bool isPlainText(const char *p, const char *end, int *newlines) {
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t count = 0;
    for (; end - p >= 8; p += 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        // Bytes below 0x20 (with the high bit clear, adding 0x60 cannot carry out of a byte).
        uint64_t control = ~(v + 0x60 * ones) & high;
        uint64_t allowed = zeroBytes(v ^ (0x09 * ones)) | zeroBytes(v ^ (0x0A * ones)) |
                           zeroBytes(v ^ (0x0D * ones));
        if ((v & high) || zeroBytes(v ^ (0x26 * ones)) || (control & ~allowed)) return false;
        count += (uint64_t)__builtin_popcountll(zeroBytes(v ^ (0x0A * ones)));
    }
    for (; p < end; ++p) {
        unsigned char c = (unsigned char)*p;
        if (c > 0x7F || c == '&' || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) return false;
        count += c == '\n';
    }
    *newlines = count > INT_MAX ? INT_MAX : (int)count;
    return true;
}

// Feeds [p, end) to expat in chunks that bound its own buffer (it copies what it is given).
static enum XML_Status feed(icXmlWalk *w, const char *p, const char *end, bool last) {
    const size_t chunk = (size_t)1 << 16;
    do {
        size_t n = (size_t)(end - p) < chunk ? (size_t)(end - p) : chunk;
        enum XML_Status status = XML_Parse(w->parser, p, (int)n, last && p + n == end);
        if (status != XML_STATUS_OK) return status;
        p += n;
    } while (p < end);
    return XML_STATUS_OK;
}

icResult icXml_Walk(const char *path, const char *text, size_t size, const icXmlHandlers *handlers,
                    void *context, icDiagnostic *diag) {
    static const XML_Memory_Handling_Suite memory = {xmlMalloc, xmlRealloc, xmlFree};
    icXmlWalk w = {NULL, text, handlers, context, IC_OK, false, 0, text, NULL, 0, 0};
    w.parser = XML_ParserCreate_MM(NULL, &memory, NULL);
    if (!w.parser) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    XML_SetUserData(w.parser, &w);
    XML_SetElementHandler(w.parser, onStart, onEnd);
    if (handlers->other) {
        XML_SetCommentHandler(w.parser, onComment);
        XML_SetProcessingInstructionHandler(w.parser, onInstruction);
    }
    // Expat tokenizes text line by line, several times slower than the readers parse numbers:
    // a long run of plain text right after markup expat has just reported (so inside an
    // element, not in a comment or an attribute) is stepped over; the readers take it from the
    // text themselves, and positions and lines are corrected for what expat did not see.
    const char *p = text, *end = text + size;
    enum XML_Status status = XML_STATUS_OK;
    for (;;) {
        const char *runEnd = NULL;
        const char *gt = nextLongRun(p, end, &runEnd);
        const char *to = gt ? gt + 1 : end;
        status = feed(&w, p, to, !gt);
        if (status != XML_STATUS_OK || !gt) break;
        p = to;
        int lines;
        if (w.lastEnd == to && w.depth > 0 && isPlainText(to, runEnd, &lines)) {
            w.skippedLines += lines;
            w.skippedBytes += (size_t)(runEnd - to);
            p = runEnd;
        }
        if (p == end) {
            status = XML_Parse(w.parser, end, 0, true);
            break;
        }
    }
    icResult result = w.result;
    if (status != XML_STATUS_OK && !w.stopped) {
        enum XML_Error error = XML_GetErrorCode(w.parser);
        int line = currentLine(&w);
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
