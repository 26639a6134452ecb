// SPDX-License-Identifier: MIT
// Contact of the force-based solvers with the world's planes and colliders as a potential
// that Newton minimises: a per-vertex quadratic penalty and IPC's lagged, smoothed Coulomb
// friction (Li et al. 2020, sec. 5). Internal: src/newton/newton_step.c drives it.
#pragma once

#include "collision/collision_internal.h"

/// A plane or a collider as one step sees it.
typedef struct icContactObstacle {
    const icColliderRecord *collider; ///< NULL for a static plane
    icVec3 normal;                    ///< plane: unit normal
    icReal offset;                    ///< plane: n . x = offset on the surface, m
    icXform x0, x1;                   ///< collider pose at the step's start and end
    icReal thickness;                 ///< the penalty starts this far outside the surface, m
    icReal friction;                  ///< Coulomb coefficient
} icContactObstacle;

/// One lagged friction contact: a vertex that touched an obstacle at the step's start.
typedef struct icContactFriction {
    int vertex, obstacle;
    icReal weight; ///< mu lambda: friction coefficient x lagged normal force, N
    icVec3 normal; ///< lagged unit normal
    icVec3 shift;  ///< the obstacle's displacement at the contact point over the step, m
} icContactFriction;

typedef struct icContactPotential {
    int vertexCount;
    icReal *stiffness;        ///< (vertexCount) penalty k, N/m; 0 = never in contact
    unsigned char *onSurface; ///< (vertexCount) 1 = boundary vertex (tested against colliders)
    const icReal *xn;         ///< (vertexCount x 3) positions at the step's start (borrowed)
    icContactObstacle *obstacles;
    int obstacleCount, obstacleCapacity;
    icContactFriction *friction;
    int frictionCount, frictionCapacity;
    icReal eps; ///< friction mollifier width eps_v dt, m
} icContactPotential;

void icContactPotential_Destroy(icContactPotential *c);
/// Gathers the world's planes and colliders with their poses at t0 and t1, the per-vertex
/// stiffness contactStiffness E h of each vertex's body, and, when friction is on (dt > 0),
/// the lagged friction contacts of xn (which must stay valid through the step).
/// IC_ERR_OUT_OF_MEMORY.
icResult icContactPotential_Begin(icContactPotential *c, icWorld *world, const icReal *xn,
                                  icReal t0, icReal t1, icReal contactStiffness, bool friction,
                                  icReal eps);
/// True when there is anything to touch.
static inline bool icContactPotential_Active(const icContactPotential *c) {
    return c->obstacleCount > 0;
}
/// The potential at x (icVertexPotentialFn): penalty plus friction energy, J; forces added
/// to f, PSD Hessian blocks added to blocks (both may be NULL). Sums per vertex in ascending
/// order, so the bits do not depend on any worker count.
icReal icContactPotential_Evaluate(void *context, const icReal *x, icReal *f, icReal *blocks);
/// Vertices inside some obstacle's thickness at x.
int icContactPotential_Count(const icContactPotential *c, const icReal *x);
/// The signed gap (distance minus thickness, m) of point p to obstacle o at the step's end,
/// with the unit outward normal and the closest point in the collider's rest frame.
icReal icContactObstacle_Gap(const icContactObstacle *o, icVec3 p, icReal margin, icVec3 *normal,
                             icVec3 *local);
