// SPDX-License-Identifier: MIT
// Side scanner that gives cJSON items their source lines (see json_lines.h).
#include "scene/json_lines.h"

#include "core/core.h"

#include <stdint.h>
#include <stdlib.h>

// The scanner follows cJSON's grammar: whitespace is any byte <= 32, a UTF-8 byte order
// mark is skipped, and the text has been validated by cJSON already, so it only has to
// find where values and keys start. It records, in document order (pre-order):
//   - the root value's line,
//   - for each object member, the line of its key (a member is one cJSON item),
//   - for each array element, the line of its value.
// A pre-order walk of the cJSON tree visits items in exactly this order.

typedef struct icJsonScan {
    const char *p;
    int line;
    int *lines;
    int count, capacity;
    bool failed;
} icJsonScan;

static void push(icJsonScan *s) {
    if (s->failed) return;
    if (!icGrowArray((void **)&s->lines, &s->capacity, s->count + 1, sizeof(int))) {
        s->failed = true;
        return;
    }
    s->lines[s->count++] = s->line;
}

static void skipSpace(icJsonScan *s) {
    while (*s->p && (unsigned char)*s->p <= 32) {
        if (*s->p == '\n') ++s->line;
        ++s->p;
    }
}

static void skipString(icJsonScan *s) {
    ++s->p; // opening quote
    while (*s->p && *s->p != '"') {
        if (*s->p == '\\' && s->p[1]) ++s->p;
        if (*s->p == '\n') ++s->line;
        ++s->p;
    }
    if (*s->p == '"') ++s->p;
}

static void scanValue(icJsonScan *s, bool record) {
    skipSpace(s);
    if (record) push(s);
    char ch = *s->p;
    if (ch == '{') {
        ++s->p;
        for (;;) {
            skipSpace(s);
            if (*s->p == '}' || !*s->p) break;
            push(s); // the member's key
            skipString(s);
            skipSpace(s);
            if (*s->p == ':') ++s->p;
            scanValue(s, false);
            skipSpace(s);
            if (*s->p == ',') ++s->p;
        }
        if (*s->p) ++s->p;
    } else if (ch == '[') {
        ++s->p;
        for (;;) {
            skipSpace(s);
            if (*s->p == ']' || !*s->p) break;
            scanValue(s, true);
            skipSpace(s);
            if (*s->p == ',') ++s->p;
        }
        if (*s->p) ++s->p;
    } else if (ch == '"') {
        skipString(s);
    } else {
        // number, true, false, null
        while (*s->p && (unsigned char)*s->p > 32 && *s->p != ',' && *s->p != ']' &&
               *s->p != '}')
            ++s->p;
    }
}

typedef struct icJsonPair {
    const cJSON *item;
    int line;
} icJsonPair;

static int countItems(const cJSON *item) {
    int n = 1;
    for (const cJSON *c = item->child; c; c = c->next) n += countItems(c);
    return n;
}

static void collect(const cJSON *item, const int *lines, icJsonPair *pairs, int *next) {
    pairs[*next].item = item;
    pairs[*next].line = lines[*next];
    ++*next;
    for (const cJSON *c = item->child; c; c = c->next) collect(c, lines, pairs, next);
}

static int comparePairs(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)((const icJsonPair *)a)->item;
    uintptr_t y = (uintptr_t)((const icJsonPair *)b)->item;
    return x < y ? -1 : (x > y);
}

icResult icJsonLines_Build(icJsonLines *map, const char *text, const cJSON *root) {
    map->count = 0;
    map->items = NULL;
    map->lines = NULL;
    if (!text || !root) return IC_ERR_INVALID_ARGUMENT;

    icJsonScan scan = {text, 1, NULL, 0, 0, false};
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        scan.p += 3;
    scanValue(&scan, true);
    if (scan.failed) {
        icFree(scan.lines);
        return IC_ERR_OUT_OF_MEMORY;
    }
    int count = countItems(root);
    if (count != scan.count) {
        icFree(scan.lines);
        return IC_ERR_PARSE;
    }
    icJsonPair *pairs = IC_ALLOC(icJsonPair, count);
    map->items = IC_ALLOC(const cJSON *, count);
    map->lines = IC_ALLOC(int, count);
    if (!pairs || !map->items || !map->lines) {
        icFree(pairs);
        icFree(scan.lines);
        icJsonLines_Destroy(map);
        return IC_ERR_OUT_OF_MEMORY;
    }
    int next = 0;
    collect(root, scan.lines, pairs, &next);
    qsort(pairs, (size_t)count, sizeof *pairs, comparePairs);
    for (int i = 0; i < count; ++i) {
        map->items[i] = pairs[i].item;
        map->lines[i] = pairs[i].line;
    }
    map->count = count;
    icFree(pairs);
    icFree(scan.lines);
    return IC_OK;
}

int icJsonLines_Find(const icJsonLines *map, const cJSON *item) {
    int lo = 0, hi = map->count - 1;
    uintptr_t key = (uintptr_t)item;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        uintptr_t value = (uintptr_t)map->items[mid];
        if (value == key) return map->lines[mid];
        if (value < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

void icJsonLines_Destroy(icJsonLines *map) {
    icFree((void *)map->items);
    icFree(map->lines);
    map->items = NULL;
    map->lines = NULL;
    map->count = 0;
}

int icJson_LineAt(const char *text, const char *position) {
    int line = 1;
    for (const char *p = text; p < position && *p; ++p)
        if (*p == '\n') ++line;
    return line;
}
