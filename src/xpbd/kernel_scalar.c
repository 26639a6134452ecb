// SPDX-License-Identifier: MIT
// The sweep kernel in portable C: one lane at a time (the serial solver of the overflow
// colours, whose tets may share vertices) and four lanes at a time with compiler vector
// types (the portable path for colours). Every vector width matches them bit for bit. The
// float ones are also built for FMA hardware (kernel_scalar_fma.c).
#include "xpbd/constraints.h"
#include "xpbd/kernel.h"
#include "xpbd/wide_portable.h"
#include "xpbd/wide_scalar.h"
#include "xpbd/wide_pair.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "xpbd/kernel_narrow_float.h"

#define KW icWd1
#define K_FORM_F 1
#define KR double
#define KL 1
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_ScalarDouble
#define K_CELL_NAME icXpbdCell_ScalarDouble
#include "xpbd/kernel_body.h"
#undef KW
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME
#undef K_FORM_F

IC_WIDE_PAIR(icWp2dx2, icWp2d, double)

#define KW icWp2dx2
#define K_PAIR 1
#define K_FORM_F 1
#define KR double
#define KL 4
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_PortableDouble
#define K_CELL_NAME icXpbdCell_PortableDouble
#include "xpbd/kernel_body.h"
