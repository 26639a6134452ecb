// SPDX-License-Identifier: MIT
// The world's settings and statistics of the force-based (Newton) solver.
#include "world/world_internal.h"

void icWorld_SetNewtonDef(icWorld *world, const icNewtonDef *def) {
    IC_ASSERT(world);
    world->newtonDef = def ? *def : icDefaultNewtonDef();
}

icNewtonDef icWorld_GetNewtonDef(const icWorld *world) { return world->newtonDef; }

icNewtonStats icWorld_GetNewtonStats(const icWorld *world) { return world->newtonStats; }
