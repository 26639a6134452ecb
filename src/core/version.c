// SPDX-License-Identifier: MIT
// The library's version, from the IC_VERSION_* macros of base.h as compiled into it.
#include "isochor/base.h"

#define IC_STRINGIFY_(x) #x
#define IC_STRINGIFY(x) IC_STRINGIFY_(x)

int icVersion(void) {
    return IC_VERSION_MAJOR * 10000 + IC_VERSION_MINOR * 100 + IC_VERSION_PATCH;
}

const char *icVersionString(void) {
    return IC_STRINGIFY(IC_VERSION_MAJOR) "." IC_STRINGIFY(IC_VERSION_MINOR) "." IC_STRINGIFY(
        IC_VERSION_PATCH);
}
