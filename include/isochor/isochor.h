// SPDX-License-Identifier: MIT
// Umbrella header of the isochor engine. The file formats and scenes are in isochor/io.h
// (library isochor_io).
#pragma once

#include "isochor/base.h"
#include "isochor/math.h"
#include "isochor/mesh.h"
#include "isochor/world.h"
#include "isochor/svd.h"
#include "isochor/sparse.h"
#include "isochor/fem.h"
#include "isochor/collision.h"
#include "isochor/skin.h"
#include "isochor/incompressible.h"
#include "isochor/rod.h"
