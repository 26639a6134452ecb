// SPDX-License-Identifier: MIT
// Soak runs: many random small worlds (random meshes, materials from soft to incompressible,
// large steps, violent pins, plane collisions) stepped for many steps, checking that nothing
// turns NaN and the energy stays bounded. The suite runs a short one (test_soak.c), the
// benchmark bench/soak.c a long one (10^5 steps in all).
#pragma once

#include <stdbool.h>
#include <stdint.h>

typedef struct icSoakConfig {
    uint64_t seed;      ///< first scene's seed; scene i uses seed + i
    int scenes;         ///< random worlds to run
    int steps;          ///< steps per world
    bool verbose;       ///< one line per world on stdout
    bool doubleSweeps;  ///< the double (reference) sweep instead of the default float one
} icSoakConfig;

typedef struct icSoakReport {
    int scenes;               ///< worlds run
    long steps;               ///< steps taken in all
    int failures;             ///< worlds with a NaN, a failed step or energy past its bound
    char firstFailure[640];   ///< what went wrong first ("" when nothing)
    double worstEnergyRatio;  ///< max over worlds and steps of kinetic energy / its bound
    double maxSpeed;          ///< fastest vertex seen, m/s
    int64_t healthWarnings;   ///< warnings the worlds' health checks counted
    double seconds;           ///< wall time
} icSoakReport;

/// Runs the soak; the report says what happened (the caller decides what fails).
void icSoak_Run(const icSoakConfig *config, icSoakReport *report);
