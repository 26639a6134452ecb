// SPDX-License-Identifier: MIT
// A 5x7 bitmap font for labels (digits, capitals and a little punctuation).
#pragma once

#include "isochor/render.h"

/// Draws text with its top-left corner at (x, y), each font pixel scale x scale image pixels.
/// Lower-case letters are drawn as capitals; characters without a glyph as blanks.
void icFont_Draw(icImage *image, int x, int y, int scale, const char *text, const uint8_t rgb[3]);
/// Width in image pixels of text drawn at scale.
int icFont_Width(const char *text, int scale);
/// Height in image pixels of a line at scale.
int icFont_Height(int scale);
