// SPDX-License-Identifier: MIT
// The monotonic clock the solvers' stage times and statistics read.
#include "core/core.h"

#include <time.h>

double icNowMs(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
