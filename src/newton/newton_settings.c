// SPDX-License-Identifier: MIT
// The world's settings and statistics of the force-based (Newton) solver, and the material
// it gives each body.
#include "world/world_internal.h"

#include <math.h>

void icWorld_SetNewtonDef(icWorld *world, const icNewtonDef *def) {
    IC_ASSERT(world);
    world->newtonDef = def ? *def : icDefaultNewtonDef();
}

icNewtonDef icWorld_GetNewtonDef(const icWorld *world) { return world->newtonDef; }

icNewtonStats icWorld_GetNewtonStats(const icWorld *world) { return world->newtonStats; }

icResult icModel_FemMaterial(const icModel *m, int b, icMaterial *out) {
    const icBodyRecord *body = &m->bodies[b];
    if (!isfinite(body->lambda)) return IC_ERR_BAD_VALUE; // nu = 0.5
    if (body->def.model == IC_MATERIAL_MM) {
        *out = icMaterial_FromLame(IC_MATERIAL_MM, body->mu, body->lambda);
        out->alpha = body->tetCount > 0 ? m->gamma[body->tetStart] : out->alpha;
    } else {
        icResult r = icMaterial_FromYoungs(body->def.model, body->def.youngsModulus,
                                           body->def.poissonRatio, out);
        if (r != IC_OK) return r;
    }
    out->density = body->def.density;
    return IC_OK;
}
