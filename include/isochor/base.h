// SPDX-License-Identifier: MIT
/// \file
/// isochor base definitions: the real type, result codes, diagnostics, allocator hooks.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
// The libraries export what the public headers declare, and nothing else.
#pragma GCC visibility push(default)

/// Major version of these headers (icVersion() gives the library's as built).
#define IC_VERSION_MAJOR 0
/// Minor version of these headers.
#define IC_VERSION_MINOR 2
/// Patch version of these headers.
#define IC_VERSION_PATCH 0

/// The library's version as built: major * 10000 + minor * 100 + patch (compare it with the
/// IC_VERSION_* of the header a program was compiled against).
int icVersion(void);
/// "MAJOR.MINOR.PATCH" of the library as built; never NULL.
const char *icVersionString(void);

/// Scalar type of the reference (double) solver path.
typedef double icReal;

/// All result codes and their messages, in one table so they cannot drift.
/// X(name, value, message)
#define IC_RESULT_TABLE(X)                                                                       \
    X(IC_OK, 0, "ok")                                                                            \
    X(IC_ERR_INVALID_ARGUMENT, 1, "invalid argument")                                            \
    X(IC_ERR_OUT_OF_MEMORY, 2, "out of memory")                                                  \
    X(IC_ERR_IO, 3, "cannot open, read or write a file")                                         \
    X(IC_ERR_PARSE, 4, "malformed input")                                                        \
    X(IC_ERR_TRUNCATED, 5, "input ends early")                                                   \
    X(IC_ERR_INDEX_OUT_OF_RANGE, 6, "index out of range")                                        \
    X(IC_ERR_NOT_FINITE, 7, "NaN or infinite number")                                            \
    X(IC_ERR_DEGENERATE_ELEMENT, 8, "zero-volume element")                                       \
    X(IC_ERR_REPEATED_INDEX, 9, "element repeats a vertex")                                      \
    X(IC_ERR_INVERTED_ELEMENT, 10, "inverted element refused by strict loading")                 \
    X(IC_ERR_UNKNOWN_KEY, 11, "unknown key")                                                     \
    X(IC_ERR_BAD_VALUE, 12, "value of the wrong type or out of range")                           \
    X(IC_ERR_MISSING_KEY, 13, "required key missing")                                            \
    X(IC_ERR_UNSUPPORTED, 14, "unsupported feature or format")                                   \
    X(IC_ERR_NOT_CONVERGED, 15, "solver did not converge")                                       \
    X(IC_ERR_NUMERICAL, 16, "numerical failure (NaN or blow-up) while stepping")                 \
    X(IC_ERR_EMPTY, 17, "nothing to work on (no vertices or elements)")                          \
    X(IC_ERR_INTERRUPTED, 18, "interrupted")

/// Result code of every fallible isochor function: IC_OK (0) or one of the IC_ERR_* codes,
/// with the values and messages of IC_RESULT_TABLE (icResult_Message, icResult_Name): the
/// table is each code's documentation.
typedef enum icResult {
/// Expands one IC_RESULT_TABLE row to its enumerator; undefined again right after the enum.
#define IC_RESULT_ENUM_(name, value, message) name = value,
    IC_RESULT_TABLE(IC_RESULT_ENUM_)
#undef IC_RESULT_ENUM_
        IC_RESULT_COUNT_ ///< one past the last code, not a result
} icResult;

/// Short English sentence for a result code; never NULL.
const char *icResult_Message(icResult result);
/// The enum's identifier as a string ("IC_ERR_PARSE"); never NULL.
const char *icResult_Name(icResult result);

/// Where and why something failed: readers and loaders fill one so that a user can act on it.
typedef struct icDiagnostic {
    icResult code;     ///< the result returned with it
    char file[512];    ///< file the problem is in ("" when none)
    int line;          ///< 1-based line, 0 when not applicable (binary data, whole file)
    int element;       ///< index of the tet (or vertex) concerned, -1 when none; lets a
                       ///< reader turn a mesh check's element into its own file line
    char message[768]; ///< a sentence naming the problem, e.g. "tet 12 repeats vertex 7"
} icDiagnostic;

/// Fills diag (when non-NULL) and returns code, so callers can `return icDiag_Set(...)`.
icResult icDiag_Set(icDiagnostic *diag, icResult code, const char *file, int line,
                    const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/// Writes "file:line: message [IC_ERR_X]" (parts omitted when empty) into buffer.
void icDiag_Format(const icDiagnostic *diag, char *buffer, size_t size);

/// Allocation hooks used by every isochor allocation. Set them before creating anything.
/// The allocation hook returns size bytes (> 0) aligned to alignment (64), or NULL.
typedef void *icAllocFn(size_t size, size_t alignment, void *context);
/// The free hook: releases a block the allocation hook returned (never called with NULL).
typedef void icFreeFn(void *memory, void *context);
/// Replaces the allocator (NULL, NULL restores the C library's aligned_alloc/free); set both
/// hooks or neither. Not thread-safe; call at start-up.
void icSetAllocator(icAllocFn *allocFn, icFreeFn *freeFn, void *context);
/// Frees memory that isochor functions returned (surface triangles, ...). NULL is fine.
void icFree(void *memory);
/// Allocates through the hooks, 64-byte aligned; NULL on failure (size 0 gives NULL). Free
/// with icFree. The formats and scene libraries allocate through these, so one allocator
/// serves them all.
void *icAlloc(size_t size);
/// Same, zero-filled.
void *icAllocZero(size_t size);
/// Grows *array (elementSize each) to at least `needed` elements, doubling; keeps contents.
/// Returns false (array unchanged) when out of memory.
bool icGrowArray(void **array, int *capacity, int needed, size_t elementSize);
/// Bytes currently allocated through the hooks (for leak checks and statistics).
int64_t icGetByteCount(void);

/// Assertion hook for programmer mistakes (null world, stale id). Return true to abort.
typedef bool icAssertFn(const char *condition, const char *file, int line);
/// Replaces the assertion hook; NULL restores the default (print to stderr, then trap).
/// Assertions are compiled into the library unless it is built with NDEBUG and without
/// IC_ENABLE_ASSERT.
void icSetAssertFn(icAssertFn *fn);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
