// SPDX-License-Identifier: MIT
// The side scanner that gives cJSON items their lines must agree with cJSON exactly:
// every item, in pre-order, on tricky text (escapes, brackets in strings, several items on
// one line, empty containers, CRLF, byte order mark, leading blank lines).
#include "test.h"

#include "scene/json_lines.h"

#include <stdlib.h>
#include <string.h>

static const char *s_document = "{\"k1\": 1,\n"                                         // 1
                                "  \"k2\": {\"k2\": \"a}\\\"[,:\", \"k2\": [], \"k2\": {}},\n" // 2
                                "  \"k3\":\n"                                              // 3
                                "    [ 4,\n"                                               // 4
                                "      5, 5,\n"                                            // 5
                                "      {\"k6\": true, \"k6\": null},\n"                    // 6
                                "      [7, [7,\n"                                          // 7
                                "           8]],\n"                                        // 8
                                "      \"L9\\\\\"\n"                                       // 9
                                "    ],\n"                                                 // 10
                                "  \"k\\\"11\": -1.5e3}\n";                                // 11

// Lines of the items in pre-order: root, k1, k2, its three members, k3, the array's
// elements (4, 5, 5, the object and its two members, the array [7, [7, 8]] and its items,
// "L9"), k"11.
static const int s_expected[] = {1, 1, 2, 2, 2, 2, 3, 4, 5, 5, 6, 6, 6, 7, 7, 7, 7, 8, 9, 11};
#define EXPECTED_COUNT ((int)(sizeof s_expected / sizeof s_expected[0]))

static void walk(const icJsonLines *map, const cJSON *item, int offset, int *index, int *bad) {
    int line = icJsonLines_Find(map, item);
    if (*index < EXPECTED_COUNT && line != s_expected[*index] + offset) {
        icTest_Fail(__FILE__, __LINE__, "item %d (%s) on line %d, expected %d", *index,
                    item->string ? item->string : "element", line, s_expected[*index] + offset);
        ++*bad;
    }
    ++*index;
    for (const cJSON *c = item->child; c; c = c->next) walk(map, c, offset, index, bad);
}

static void checkText(const char *text, int offset) {
    cJSON *root = cJSON_Parse(text);
    IC_REQUIRE(root != NULL);
    icJsonLines map;
    IC_CHECK_RESULT(icJsonLines_Build(&map, text, root), IC_OK);
    IC_CHECK_INT(map.count, EXPECTED_COUNT);
    int index = 0, bad = 0;
    walk(&map, root, offset, &index, &bad);
    IC_CHECK_INT(index, EXPECTED_COUNT);
    IC_CHECK_INT(icJsonLines_Find(&map, NULL), 0);
    icJsonLines_Destroy(&map);
    cJSON_Delete(root);
}

IC_TEST(io, json_lines_exact) {
    int64_t bytes = icGetByteCount();
    checkText(s_document, 0);

    // CRLF line ends, a byte order mark and two leading blank lines.
    size_t n = strlen(s_document);
    char *variant = malloc(2 * n + 16);
    char *out = variant;
    memcpy(out, "\xEF\xBB\xBF\r\n\r\n", 7);
    out += 7;
    for (const char *p = s_document; *p; ++p) {
        if (*p == '\n') *out++ = '\r';
        *out++ = *p;
    }
    *out = 0;
    checkText(variant, 2);
    free(variant);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(io, json_line_at) {
    const char *text = "a\nb\n\nc";
    IC_CHECK_INT(icJson_LineAt(text, text), 1);
    IC_CHECK_INT(icJson_LineAt(text, text + 2), 2);
    IC_CHECK_INT(icJson_LineAt(text, text + 5), 4);
}
