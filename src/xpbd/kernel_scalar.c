// SPDX-License-Identifier: MIT
// The sweep kernel in portable C: one lane at a time (the serial solver of the overflow
// colours, whose tets may share vertices) and four lanes at a time with compiler vector
// types (the portable path for colours). Every vector width matches them bit for bit.
#include "xpbd/constraints.h"
#include "xpbd/kernel.h"
#include "xpbd/wide_portable.h"
#include "xpbd/wide_scalar.h"
#include "xpbd/wide_pair.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define KW icWf1
#define KR float
#define KL 1
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_ScalarFloat
#define K_CELL_NAME icXpbdCell_ScalarFloat
#include "xpbd/kernel_body.h"
#undef KW
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME

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

IC_WIDE_PAIR(icWp4fx2, icWp4f, float)
IC_WIDE_PAIR(icWp2dx2, icWp2d, double)

#define KW icWp4fx2
#define K_PAIR 1
#define KR float
#define KL 8
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_PortableFloat
#define K_CELL_NAME icXpbdCell_PortableFloat
#include "xpbd/kernel_body.h"
#undef KW
#undef K_PAIR
#undef KR
#undef KL
#undef KB
#undef K_NAME
#undef K_CELL_NAME

#define KW icWp2dx2
#define K_PAIR 1
#define K_FORM_F 1
#define KR double
#define KL 4
#define KB IC_XPBD_LANES
#define K_NAME icXpbdKernel_PortableDouble
#define K_CELL_NAME icXpbdCell_PortableDouble
#include "xpbd/kernel_body.h"
