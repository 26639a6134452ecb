// SPDX-License-Identifier: MIT
// Inelastic self and body-body repulsion on proximity pairs (Irving et al. 2007, sec. 2, steps 3
// and 9, after Bridson et al. 2002), so close surfaces stop approaching before the pressure
// solves constrain them.
#pragma once

#include "isochor/collision.h"

/// For every pair, the gap d = n . sum_i w_i x_i at x and the relative normal velocity r = n .
/// sum_i w_i v_i; where d + dt r would end below `gap`, an impulse along the pair's constraint
/// vector (weights times normal, scaled by the inverse masses) raises r to (gap - d) / dt, or to 0
/// when `keepApart` is false (stop approaching only). Pairs already closer than gap separate at
/// half that rate. Gauss-Seidel over the pairs in list order, `iterations` times. active
/// (pairs->count) is set to 1 for pairs that were pushed (or left untouched when NULL). Returns the
/// number of pushed pairs.
int icRepulsion_Apply(const icProximityPairs *pairs, const icReal *x, const icReal *invMass,
                      icReal dt, icReal gap, bool keepApart, int iterations, icReal *v,
                      unsigned char *active);

/// Position-level guard after the positions advanced: pairs found at x^n keep their x^n normals and
/// weights, so a pair that crossed during the step has a negative gap here; every pair below `gap`
/// is moved apart along its constraint vector (inverse-mass weighted) to exactly `gap`,
/// Gauss-Seidel in list order, `iterations` times. Returns the number of corrections.
int icRepulsion_ProjectPositions(const icProximityPairs *pairs, const icReal *invMass, icReal gap,
                                 int iterations, icReal *x);
