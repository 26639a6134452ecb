// SPDX-License-Identifier: MIT
// The small XML tag scanner the VTU and PVD readers share.
#include "io/fmt_internal.h"

static bool isNameChar(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == ':' || ch == '-' || ch == '.';
}

static const char *findText(const char *p, const char *limit, const char *needle) {
    size_t n = strlen(needle);
    while ((size_t)(limit - p) >= n) {
        const char *hit = memchr(p, needle[0], (size_t)(limit - p) - n + 1);
        if (!hit) return NULL;
        if (memcmp(hit, needle, n) == 0) return hit;
        p = hit + 1;
    }
    return NULL;
}

bool icXml_NextTag(const char *p, const char *limit, icXmlTag *tag, bool *bad) {
    *bad = false;
    for (;;) {
        const char *lt = p < limit ? memchr(p, '<', (size_t)(limit - p)) : NULL;
        if (!lt) return false;
        if (limit - lt >= 4 && memcmp(lt, "<!--", 4) == 0) {
            const char *e = findText(lt + 4, limit, "-->");
            if (!e) {
                *bad = true;
                return false;
            }
            p = e + 3;
            continue;
        }
        if (limit - lt >= 2 && (lt[1] == '?' || lt[1] == '!')) {
            const char *e = memchr(lt, '>', (size_t)(limit - lt));
            if (!e) {
                *bad = true;
                return false;
            }
            p = e + 1;
            continue;
        }
        memset(tag, 0, sizeof *tag);
        tag->start = lt;
        const char *q = lt + 1;
        if (q < limit && *q == '/') {
            tag->closing = true;
            ++q;
        }
        tag->name = q;
        while (q < limit && isNameChar(*q)) ++q;
        tag->nameLength = (int)(q - tag->name);
        if (tag->nameLength == 0) {
            *bad = true;
            return false;
        }
        tag->attrs = q;
        // The tag ends at the first '>' outside quotes.
        char quote = 0;
        while (q < limit) {
            if (quote) {
                if (*q == quote) quote = 0;
            } else if (*q == '"' || *q == '\'') {
                quote = *q;
            } else if (*q == '>') {
                break;
            }
            ++q;
        }
        if (q >= limit) {
            *bad = true;
            return false;
        }
        tag->attrsEnd = q;
        if (q > tag->attrs && q[-1] == '/') {
            tag->selfClosing = true;
            tag->attrsEnd = q - 1;
        }
        tag->end = q + 1;
        return true;
    }
}

bool icXml_Is(const icXmlTag *tag, const char *name) {
    size_t n = strlen(name);
    return (size_t)tag->nameLength == n && memcmp(tag->name, name, n) == 0;
}

bool icXml_Attr(const icXmlTag *tag, const char *key, char *out, size_t size) {
    size_t n = strlen(key);
    const char *p = tag->attrs;
    while (p < tag->attrsEnd) {
        while (p < tag->attrsEnd && !isNameChar(*p)) ++p;
        const char *name = p;
        while (p < tag->attrsEnd && isNameChar(*p)) ++p;
        size_t length = (size_t)(p - name);
        while (p < tag->attrsEnd && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
        if (p >= tag->attrsEnd || *p != '=') continue;
        ++p;
        while (p < tag->attrsEnd && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
        if (p >= tag->attrsEnd || (*p != '"' && *p != '\'')) continue;
        char quote = *p++;
        const char *value = p;
        while (p < tag->attrsEnd && *p != quote) ++p;
        const char *valueEnd = p;
        if (p < tag->attrsEnd) ++p;
        if (length != n || memcmp(name, key, n) != 0) continue;
        // Decode the predefined entities.
        size_t o = 0;
        for (const char *v = value; v < valueEnd && o + 1 < size;) {
            static const struct {
                const char *entity;
                char ch;
            } entities[] = {
                {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
            bool matched = false;
            if (*v == '&')
                for (size_t e = 0; e < 5; ++e) {
                    size_t el = strlen(entities[e].entity);
                    if ((size_t)(valueEnd - v) >= el && memcmp(v, entities[e].entity, el) == 0) {
                        out[o++] = entities[e].ch;
                        v += el;
                        matched = true;
                        break;
                    }
                }
            if (!matched) out[o++] = *v++;
        }
        if (size) out[o] = 0;
        return true;
    }
    return false;
}
