// SPDX-License-Identifier: MIT
// icCG with a flag that stops it between iterations: a Newton iteration's PCG may take up to
// its maxCGIterations products (seconds on a large mesh), too long to wait for a signal.
#pragma once

#include "isochor/sparse.h"

#include <signal.h>

/// icCG that also stops before any product once *stop (when not NULL) is non-zero; y then
/// holds a partial solution the caller should drop.
int icCG_Stoppable(int n, icLinearOperatorFn *op, void *context, icPreconditionerKind kind,
                   const icReal *preconditioner, const unsigned char *freeMask, const icReal *b,
                   icReal *y, icReal tolerance, int maxIterations, icReal *work, icCGStats *stats,
                   const volatile sig_atomic_t *stop);
