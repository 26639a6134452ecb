// SPDX-License-Identifier: MIT
// all_headers: every public isochor header in one C++17 translation unit.
//
// Proves that the C headers compile cleanly as C++ (extern "C", no C-only syntax) under
// -std=c++17 -Wall -Wextra -Werror -pedantic, and that the libraries link into a C++
// program. It calls a few trivial functions and prints their results.
//
//   usage: all_headers
//
// Build: see examples/README.md.
#include "isochor/base.h"
#include "isochor/collision.h"
#include "isochor/fem.h"
#include "isochor/formats.h"
#include "isochor/incompressible.h"
#include "isochor/io.h"
#include "isochor/isochor.h"
#include "isochor/math.h"
#include "isochor/mesh.h"
#include "isochor/render.h"
#include "isochor/rod.h"
#include "isochor/scene.h"
#include "isochor/skin.h"
#include "isochor/sparse.h"
#include "isochor/svd.h"
#include "isochor/world.h"

#include <cstdio>

int main() {
    // Version of the library as built against the header's.
    std::printf("isochor %s (header %d.%d.%d)\n", icVersionString(), IC_VERSION_MAJOR,
                IC_VERSION_MINOR, IC_VERSION_PATCH);
    const int headerVersion = IC_VERSION_MAJOR * 10000 + IC_VERSION_MINOR * 100 + IC_VERSION_PATCH;
    if (icVersion() != headerVersion)
        std::printf("note: the library is not the version of these headers: rebuild it\n");

    // Default defs of several modules.
    icWorldDef worldDef = icDefaultWorldDef();
    icNewtonDef newtonDef = icDefaultNewtonDef();
    icIncompressibleDef incompressibleDef = icDefaultIncompressibleDef();
    icRodWorldDef rodDef = icDefaultRodWorldDef();
    icRenderDef renderDef = icDefaultRenderDef();
    std::printf("world: %d substeps, gravity y %.2f; newton: %d iterations; pressure tolerance "
                "%.3g; rods: %d iterations; render %dx%d\n",
                worldDef.substeps, worldDef.gravity.y, newtonDef.maxIterations,
                incompressibleDef.pressure.tolerance, rodDef.iterations, renderDef.width,
                renderDef.height);

    // Inline math from math.h and a result message from base.h.
    icVec3 a = icVec3_Make(1, 2, 3), b = icVec3_Make(4, 5, 6);
    icVec3 c = icVec3_Cross(a, b);
    std::printf("(1,2,3) x (4,5,6) = (%g, %g, %g); IC_ERR_PARSE: %s\n", c.x, c.y, c.z,
                icResult_Message(IC_ERR_PARSE));

    // An empty world round trip.
    icWorld *world = icCreateWorld(&worldDef);
    if (!world) {
        std::fprintf(stderr, "all_headers: cannot create a world\n");
        return 1;
    }
    int vertices = icWorld_GetVertexCount(world);
    icDestroyWorld(world);
    std::printf("ok: version=%s empty_world_vertices=%d\n", icVersionString(), vertices);
    return 0;
}
