// SPDX-License-Identifier: MIT
/// \file
/// Umbrella header of the isochor engine (library isochor). Mesh files are in
/// isochor/formats.h (isochor_formats), scenes in isochor/scene.h (isochor_scene), pictures in
/// isochor/render.h (isochor_render).
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
