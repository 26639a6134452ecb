// SPDX-License-Identifier: MIT
// Half-space colliders: push vertices out along the normal and apply position-based
// Coulomb friction to the tangential motion of the substep (Macklin et al. 2014, sec. 6.1).
#include "world/world_internal.h"

int icXpbd_ProjectPlanes(const icModel *model, icState *state) {
    int contacts = 0;
    for (int p = 0; p < model->planeCount; ++p) {
        const icPlane *plane = &model->planes[p];
        for (int v = 0; v < model->vertexCount; ++v) {
            icVec3 w = icVec3_Load(model->invMass, v);
            if (w.x == 0 && w.y == 0 && w.z == 0) continue;
            icVec3 x = icVec3_Load(state->x, v);
            icReal depth = plane->offset - icVec3_Dot(plane->normal, x);
            if (depth <= 0) continue;
            ++contacts;
            x = icVec3_MulAdd(x, depth, plane->normal);
            // Friction: cancel the tangential displacement of this substep when it is within
            // the static cone (|dt| < mu d), else shorten it by mu d.
            icVec3 dx = icVec3_Sub(x, icVec3_Load(state->xPrev, v));
            icVec3 tangential = icVec3_MulAdd(dx, -icVec3_Dot(dx, plane->normal), plane->normal);
            icReal slide = icVec3_Length(tangential);
            icReal limit = plane->friction * depth;
            if (slide > 0) x = icVec3_MulAdd(x, -(slide <= limit ? 1.0 : limit / slide), tangential);
            // Held axes stay where their pin put them.
            icVec3 old = icVec3_Load(state->x, v);
            if (w.x == 0) x.x = old.x;
            if (w.y == 0) x.y = old.y;
            if (w.z == 0) x.z = old.z;
            icVec3_Store(state->x, v, x);
        }
    }
    return contacts;
}
