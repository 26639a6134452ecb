// SPDX-License-Identifier: MIT
// RGB images and their PNG files (libpng), written atomically.
#include "isochor/io.h"
#include "isochor/render.h"

#include "core/core.h"

#include <png.h>
#include <stdio.h>

icResult icImage_Create(icImage *image, int width, int height) {
    memset(image, 0, sizeof *image);
    if (width < 1 || height < 1 || width > 16384 || height > 16384) return IC_ERR_INVALID_ARGUMENT;
    image->rgb = IC_ALLOC_ZERO(uint8_t, 3 * (size_t)width * (size_t)height);
    if (!image->rgb) return IC_ERR_OUT_OF_MEMORY;
    image->width = width;
    image->height = height;
    return IC_OK;
}

void icImage_Destroy(icImage *image) {
    if (!image) return;
    icFree(image->rgb);
    memset(image, 0, sizeof *image);
}

icResult icImage_SavePng(const icImage *image, const char *path, icDiagnostic *diag) {
    if (!image || !image->rgb)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path ? path : "", 0, "no image to write");
    icAtomicFile file;
    icResult result = icAtomicFile_Open(&file, path, diag);
    if (result != IC_OK) return result;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        icAtomicFile_Abort(&file);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "libpng could not start");
    }
    // libpng reports errors by longjmp; nothing changed between here and there needs keeping.
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        icAtomicFile_Abort(&file);
        return icDiag_Set(diag, IC_ERR_IO, path, 0, "libpng failed to write the image");
    }
    png_init_io(png, file.fp);
    png_set_IHDR(png, info, (png_uint_32)image->width, (png_uint_32)image->height, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 3); // frames of an animation: speed over a few percent of size
    png_write_info(png, info);
    for (int y = 0; y < image->height; ++y)
        png_write_row(png, image->rgb + 3 * (size_t)image->width * (size_t)y);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return icAtomicFile_Commit(&file, diag);
}

icResult icImage_LoadPng(icImage *image, const char *path, icDiagnostic *diag) {
    memset(image, 0, sizeof *image);
    FILE *fp = fopen(path, "rb");
    if (!fp) return icDiag_Set(diag, IC_ERR_IO, path, 0, "cannot open");
    unsigned char signature[8];
    if (fread(signature, 1, 8, fp) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        fclose(fp);
        return icDiag_Set(diag, IC_ERR_PARSE, path, 0, "not a PNG file");
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(fp);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, path, 0, "libpng could not start");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(fp);
        icImage_Destroy(image);
        return icDiag_Set(diag, IC_ERR_PARSE, path, 0, "libpng failed to read the image");
    }
    png_init_io(png, fp);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    png_set_strip_16(png);
    png_set_palette_to_rgb(png);
    png_set_expand_gray_1_2_4_to_8(png);
    png_set_gray_to_rgb(png);
    png_set_strip_alpha(png);
    png_read_update_info(png, info);
    int width = (int)png_get_image_width(png, info), height = (int)png_get_image_height(png, info);
    if (png_get_rowbytes(png, info) != 3 * (size_t)width ||
        icImage_Create(image, width, height) != IC_OK) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(fp);
        return icDiag_Set(diag, IC_ERR_UNSUPPORTED, path, 0, "unsupported PNG layout or size");
    }
    for (int y = 0; y < height; ++y)
        png_read_row(png, image->rgb + 3 * (size_t)width * (size_t)y, NULL);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(fp);
    return IC_OK;
}
