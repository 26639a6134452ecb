// SPDX-License-Identifier: MIT
// Internals of the pressure system (src/incompressible/pressure.c): its test hooks, and the tet
// volume it shares with the serial one-ring volumes (src/incompressible/operators.c).
#pragma once

#include "isochor/incompressible.h"

/// Whether the operators may use their AVX2 kernels (default: when the CPU has AVX2). The
/// portable kernels give the same bits; tests compare the two.
void icPressureSystem_UseWideKernels(icPressureSystem *system, bool use);

/// y = J Pi M^-1 J^T x as the Krylov solvers apply it, with no contact constraints (inactive rows
/// read and written as zero). For tests that compare it with the serial scatters.
void icPressureSystem_Apply(icPressureSystem *system, const icReal *x, icReal *y);

/// Signed volume of tet tv (4 vertex indices) at x, as icOneRing_Volumes sums it.
icReal icOneRing_TetVolume(const icReal *x, const int *tv);
