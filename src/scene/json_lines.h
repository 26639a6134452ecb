// SPDX-License-Identifier: MIT
// Line numbers of cJSON items: cJSON keeps none, so a side scan of the same text records
// the line of every value in document order and a pre-order walk of the tree pairs them.
#pragma once

#include "isochor/base.h"

#include <cjson/cJSON.h>

/// Maps items of one parsed document to 1-based lines: an object member to the line of
/// its key, any other item to the line where its value starts.
typedef struct icJsonLines {
    int count;
    const cJSON **items; ///< (count) sorted by address
    int *lines;          ///< (count)
} icJsonLines;

/// Builds the map for root, parsed by cJSON from text (which must be that exact text).
/// IC_ERR_OUT_OF_MEMORY, or IC_ERR_PARSE when scan and tree disagree (then every look-up
/// answers 0).
icResult icJsonLines_Build(icJsonLines *map, const char *text, const cJSON *root);
/// The line of item, or 0 when it is not in the map.
int icJsonLines_Find(const icJsonLines *map, const cJSON *item);
void icJsonLines_Destroy(icJsonLines *map);

/// 1-based line of position in text (counts the newlines before it).
int icJson_LineAt(const char *text, const char *position);
