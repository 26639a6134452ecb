// SPDX-License-Identifier: MIT
// Inelastic repulsion impulses on point-triangle and edge-edge proximity pairs (Irving et al.
// 2007, sec. 2, steps 3 and 9; Bridson, Fedkiw & Anderson 2002, sec. 7.2).
#include "incompressible/repulsion.h"

#include "core/core.h"

static icReal pairDot(const icProximityPair *p, const icReal *a) {
    icReal s = 0;
    for (int i = 0; i < 4; ++i)
        s += p->weights[i] * icVec3_Dot(p->normal, icVec3_Load(a, p->vertices[i]));
    return s;
}

// The least-kinetic-energy impulse along c = (w_i n) that raises c.u by `amount`.
static void pushAlong(const icProximityPair *p, const icReal *invMass, icReal amount, icReal *u) {
    icReal den = 0;
    for (int i = 0; i < 4; ++i) {
        const icReal *w = invMass + 3 * p->vertices[i];
        icVec3 c = icVec3_Scale(p->weights[i], p->normal);
        den += c.x * c.x * w[0] + c.y * c.y * w[1] + c.z * c.z * w[2];
    }
    if (!(den > 0)) return;
    icReal f = amount / den;
    for (int i = 0; i < 4; ++i) {
        const icReal *w = invMass + 3 * p->vertices[i];
        icVec3 c = icVec3_Scale(f * p->weights[i], p->normal);
        icReal *ui = u + 3 * p->vertices[i];
        ui[0] += c.x * w[0];
        ui[1] += c.y * w[1];
        ui[2] += c.z * w[2];
    }
}

int icRepulsion_ProjectPositions(const icProximityPairs *pairs, const icReal *invMass, icReal gap,
                                 int iterations, icReal *x) {
    int moved = 0;
    for (int it = 0; it < iterations; ++it)
        for (int k = 0; k < pairs->count; ++k) {
            const icProximityPair *p = &pairs->items[k];
            icReal d = pairDot(p, x);
            if (d >= gap) continue;
            pushAlong(p, invMass, gap - d, x);
            ++moved;
        }
    return moved;
}

int icRepulsion_Apply(const icProximityPairs *pairs, const icReal *x, const icReal *invMass,
                      icReal dt, icReal gap, bool keepApart, int iterations, icReal *v,
                      unsigned char *active) {
    int pushed = 0;
    if (active)
        for (int k = 0; k < pairs->count; ++k) active[k] = 0;
    for (int it = 0; it < iterations; ++it)
        for (int k = 0; k < pairs->count; ++k) {
            const icProximityPair *p = &pairs->items[k];
            icReal d = pairDot(p, x), r = pairDot(p, v);
            if (d + dt * r >= gap) continue;
            icReal target = 0;
            if (keepApart) target = d >= gap ? (gap - d) / dt : 0.5 * (gap - d) / dt;
            if (r >= target) continue;
            pushAlong(p, invMass, target - r, v);
            if (active && !active[k]) {
                active[k] = 1;
                ++pushed;
            } else if (!active) {
                ++pushed;
            }
        }
    return pushed;
}
