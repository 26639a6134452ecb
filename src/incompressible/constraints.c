// SPDX-License-Identifier: MIT
// Contact constraints c^T dv = 0 inside the pressure solves: M-orthogonal single projections
// applied as a palindromic symmetric Gauss-Seidel product (Irving et al. 2007, sec. 4).
#include "core/core.h"
#include "isochor/incompressible.h"

#include <string.h>

icResult icConstraintSet_Add(icConstraintSet *set, const icVelocityConstraint *constraint) {
    IC_ASSERT(constraint->count >= 1 && constraint->count <= 4);
    if (!icGrowArray((void **)&set->items, &set->capacity, set->count + 1,
                     sizeof(icVelocityConstraint)))
        return IC_ERR_OUT_OF_MEMORY;
    set->items[set->count++] = *constraint;
    return IC_OK;
}

void icConstraintSet_Clear(icConstraintSet *set) { set->count = 0; }

void icConstraintSet_Destroy(icConstraintSet *set) {
    icFree(set->items);
    memset(set, 0, sizeof *set);
}

// Irving et al. 2007, sec. 4: u -= M^-1 c (c^T u) / (c^T M^-1 c); the least-kinetic-energy
// change that satisfies the constraint. Mass cancels for a single-node constraint.
static void projectOne(const icVelocityConstraint *k, const icReal *invMass, icReal *u) {
    icReal s = 0, den = 0;
    for (int i = 0; i < k->count; ++i) {
        const icReal *w = invMass + 3 * k->vertices[i];
        const icReal *ui = u + 3 * k->vertices[i];
        icVec3 c = k->c[i];
        s += c.x * ui[0] + c.y * ui[1] + c.z * ui[2];
        den += c.x * c.x * w[0] + c.y * c.y * w[1] + c.z * c.z * w[2];
    }
    if (!(den > 0)) return;
    icReal f = s / den;
    for (int i = 0; i < k->count; ++i) {
        const icReal *w = invMass + 3 * k->vertices[i];
        icReal *ui = u + 3 * k->vertices[i];
        ui[0] -= f * k->c[i].x * w[0];
        ui[1] -= f * k->c[i].y * w[1];
        ui[2] -= f * k->c[i].z * w[2];
    }
}

// Irving et al. 2007, sec. 4: (Pi_1 .. Pi_m .. Pi_1)^q with the middle applied once per sweep
// and the shared end element merged between sweeps; a fixed linear map, so Pi M^-1 stays
// symmetric.
void icConstraintSet_Project(const icConstraintSet *set, const icReal *invMass, int sweeps,
                             icReal *u) {
    int m = set ? set->count : 0;
    if (m == 0) return;
    for (int q = 0; q < sweeps; ++q) {
        for (int i = q == 0 ? 0 : 1; i < m; ++i) projectOne(&set->items[i], invMass, u);
        for (int i = m - 2; i >= 0; --i) projectOne(&set->items[i], invMass, u);
    }
}
