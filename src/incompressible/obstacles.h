// SPDX-License-Identifier: MIT
// Kinematic obstacles of the incompressible solver (static planes, moving planes, colliders): the
// deepest contact of a point, as a signed distance, unit normal, normal speed and friction.
#pragma once

#include "isochor/incompressible.h"
#include "world/world_internal.h"

/// What a point touches: depth < 0 inside (past the obstacle's thickness).
typedef struct icObstacleHit {
    icReal distance; ///< signed, m; > 0 outside
    icVec3 normal;   ///< unit, out of the obstacle
    icVec3 velocity; ///< of the obstacle's surface there, m/s
    icReal friction; ///< Coulomb coefficient
    bool plane;      ///< a static or moving plane (flat everywhere: contacts there may stick)
} icObstacleHit;

/// Everything a query needs: the world's planes and colliders plus the solver's moving planes.
typedef struct icObstacleSet {
    const icWorld *world;
    const icMovingPlaneDef *movingPlanes;
    int movingPlaneCount;
} icObstacleSet;

/// The deepest obstacle at p at time t (speeds over [t - dt, t]); false when there is none within
/// `margin` of p (hit->distance is then left at margin).
bool icObstacles_Query(const icObstacleSet *set, icVec3 p, icReal t, icReal dt, icReal margin,
                       icObstacleHit *hit);
/// True when the set has anything to collide with.
bool icObstacles_Any(const icObstacleSet *set);

/// Before the position correction (eq. 1): a free vertex whose end position x + dt v would be
/// inside an obstacle gets the normal part of v changed to land on the surface, and a constraint
/// normal; so do last step's contacts (prevNormal non-zero) that are not separating. normal (n)
/// receives the constraints (zero where none). Returns their count.
int icObstacles_PredictContacts(const icObstacleSet *set, int n, const unsigned char *mask,
                                const icReal *x, icReal *v, icReal t1, icReal dt,
                                const icVec3 *prevNormal, icVec3 *normal);
/// Active-set growth inside the Newton iterations of eq. 1: a free vertex without a constraint yet
/// (normal zero) that the correction moved into an obstacle is put back on its surface in xend and
/// gets a constraint normal. Returns how many were added.
int icObstacles_AddPenetrations(const icObstacleSet *set, int n, const unsigned char *mask,
                                icReal *xend, icReal t1, icReal dt, icVec3 *normal);
/// Step 5 of Irving et al. 2007, sec. 2: vertices of xnew inside obstacles are moved to the
/// surface and their time-n velocities vn stop approaching it (inelastic). Vertices with a
/// predicted contact stay in contact (they were placed on the surface). normal (n) receives each
/// contact's normal (zero where none), hits (n) what it touches, impulse (n) the normal velocity
/// removed (the start of its normal impulse per mass, for friction). Returns the contacts.
int icObstacles_Collide(const icObstacleSet *set, int n, const unsigned char *mask,
                        const icVec3 *predicted, icReal *xnew, icReal *vn, icReal t1, icReal dt,
                        icVec3 *normal, icObstacleHit *hits, icReal *impulse);
/// Coulomb friction on the end-of-step velocity v of every contact (normal non-zero): the
/// tangential velocity relative to the obstacle loses up to friction x impulse (the normal velocity
/// change the contact made over the step), and stops where that is enough.
void icObstacles_ApplyFriction(int n, const icVec3 *normal, const icObstacleHit *hits,
                               const icReal *impulse, icReal *v);
