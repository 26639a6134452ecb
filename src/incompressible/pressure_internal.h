// SPDX-License-Identifier: MIT
// Test hooks of the pressure system (src/incompressible/pressure.c).
#pragma once

#include "isochor/incompressible.h"

/// Whether the operators may use their AVX2 kernels (default: when the CPU has AVX2). The
/// portable kernels give the same bits; tests compare the two.
void icPressureSystem_UseWideKernels(icPressureSystem *system, bool use);
