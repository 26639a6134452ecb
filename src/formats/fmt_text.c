// SPDX-License-Identifier: MIT
// The text cursor of the format readers: tokens, numbers and errors that name their line.
#include "formats/fmt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

static inline bool isBlank(char ch) {
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

static inline bool atEnd(const icTextCursor *c, const char *p) { return p >= c->end; }

static inline bool isTokenEnd(const icTextCursor *c, const char *p) {
    char ch = *p;
    return atEnd(c, p) || isBlank(ch) || ch == '\n' || (c->comment && ch == c->comment);
}

void icText_Init(icTextCursor *c, const char *text, size_t size, const char *path,
                 icDiagnostic *diag, char comment) {
    c->p = c->begin = text;
    c->end = text + size;
    c->line = 1;
    c->comment = comment;
    c->path = path;
    c->diag = diag;
}

bool icText_Skip(icTextCursor *c) {
    const char *p = c->p;
    int line = c->line;
    for (;;) {
        if (atEnd(c, p)) break;
        char ch = *p;
        if (ch == '\n') {
            ++line;
            ++p;
        } else if (isBlank(ch)) {
            ++p;
        } else if (c->comment && ch == c->comment) {
            while (!atEnd(c, p) && *p != '\n') ++p;
        } else {
            break;
        }
    }
    c->p = p;
    c->line = line;
    return !atEnd(c, p);
}

bool icText_SkipInLine(icTextCursor *c) {
    const char *p = c->p;
    while (!atEnd(c, p) && isBlank(*p)) ++p;
    c->p = p;
    return !(atEnd(c, p) || *p == '\n' || (c->comment && *p == c->comment));
}

void icText_SkipLine(icTextCursor *c) {
    const char *p = c->p;
    const char *nl = memchr(p, '\n', (size_t)(c->end - p));
    if (nl) {
        c->p = nl + 1;
        ++c->line;
    } else {
        c->p = c->end;
    }
}

void icText_MoveTo(icTextCursor *c, const char *p) {
    int line = c->line;
    for (const char *q = c->p; q < p; ++q) line += *q == '\n';
    c->line = line;
    c->p = p;
}

const char *icText_Find(const icTextCursor *c, const char *needle) {
    size_t n = strlen(needle);
    const char *p = c->p;
    while ((size_t)(c->end - p) >= n) {
        const char *hit = memchr(p, needle[0], (size_t)(c->end - p) - n + 1);
        if (!hit) return NULL;
        if (memcmp(hit, needle, n) == 0) return hit;
        p = hit + 1;
    }
    return NULL;
}

int icText_LineOf(const char *begin, const char *p) {
    int line = 1;
    for (const char *q = begin; q < p; ++q) line += *q == '\n';
    return line;
}

void icText_Quote(const char *p, const char *end, char *out, size_t size) {
    size_t n = 0;
    while (p < end && n + 1 < size && n < 24 && *p != '\n' && *p != '\r' && *p != ' ' &&
           *p != '\t') {
        unsigned char ch = (unsigned char)*p++;
        out[n++] = (ch >= 32 && ch < 127) ? (char)ch : '?';
    }
    out[n] = 0;
}

icResult icText_Error(icTextCursor *c, icResult code, const char *format, ...) {
    if (!c->diag) return code;
    char message[600];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return icDiag_Set(c->diag, code, c->path, c->line, "%s", message);
}

// A file that ends early is reported at its last line with text, not the empty line after.
static icResult endError(icTextCursor *c, const char *format, const char *a, const char *b) {
    const char *p = c->end;
    while (p > c->begin && (p[-1] == '\n' || isBlank(p[-1]))) --p;
    char message[300];
    snprintf(message, sizeof message, format, a, b);
    return icDiag_Set(c->diag, IC_ERR_TRUNCATED, c->path, icText_LineOf(c->begin, p), "%s",
                      message);
}

// The common failures of reading a token: the text ended, or something else is there.
static icResult tokenError(icTextCursor *c, const char *expected, const char *what) {
    if (!icText_Skip(c)) return endError(c, "file ends early: expected %s (%s)", expected, what);
    char token[32];
    icText_Quote(c->p, c->end, token, sizeof token);
    return icText_Error(c, IC_ERR_PARSE, "expected %s (%s), found '%s'", expected, what, token);
}

icResult icText_Real(icTextCursor *c, double *value, const char *what) {
    if (!icText_Skip(c)) return tokenError(c, "a number", what);
    bool finite;
    const char *e = icFmt_ParseReal(c->p, value, &finite);
    if (!e || !isTokenEnd(c, e)) return tokenError(c, "a number", what);
    if (!finite) {
        char token[32];
        icText_Quote(c->p, c->end, token, sizeof token);
        return icText_Error(c, IC_ERR_NOT_FINITE, "%s is not finite ('%s')", what, token);
    }
    c->p = e;
    return IC_OK;
}

icResult icText_Int(icTextCursor *c, long long *value, const char *what) {
    if (!icText_Skip(c)) return tokenError(c, "an integer", what);
    const char *e = icFmt_ParseInt(c->p, value);
    if (!e || !isTokenEnd(c, e)) return tokenError(c, "an integer", what);
    c->p = e;
    return IC_OK;
}

icResult icText_IntIn(icTextCursor *c, long long lo, long long hi, long long *value,
                      const char *what) {
    icResult r = icText_Int(c, value, what);
    if (r != IC_OK) return r;
    if (*value < lo || *value > hi)
        return icText_Error(c, IC_ERR_PARSE, "%s %lld is out of range [%lld, %lld]", what, *value,
                            lo, hi);
    return IC_OK;
}

icResult icText_Word(icTextCursor *c, char *word, size_t size, const char *what) {
    if (!icText_Skip(c)) return endError(c, "file ends early: expected %s%s", what, "");
    size_t n = 0;
    const char *p = c->p;
    while (!isTokenEnd(c, p)) {
        if (n + 1 < size) word[n++] = *p;
        ++p;
    }
    word[n] = 0;
    c->p = p;
    return IC_OK;
}

bool icText_Accept(icTextCursor *c, const char *word) {
    if (!icText_Skip(c)) return false;
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || strncasecmp(c->p, word, n) != 0) return false;
    if (!isTokenEnd(c, c->p + n)) return false;
    c->p += n;
    return true;
}
