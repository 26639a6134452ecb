// SPDX-License-Identifier: MIT
// The later Newton solves of eq. 1 on the part of the mesh that needs them
// (src/incompressible/local_solve.c).
#pragma once

#include "isochor/incompressible.h"
#include "isochor/mesh.h"

struct icPool;

/// Vertex-to-tet incidence of one mesh and the scratch of the restricted solves.
typedef struct icLocalSolve {
    int n, tetCount;
    const int *tets;         ///< (tetCount x 4) borrowed
    icAdjacency rings;       ///< vertex -> incident tets
    int *neighbourStart;     ///< (n + 1) vertex -> vertices sharing a tet with it, in neighbours
    int *neighbours;
    int *localOf;            ///< (n) index in the sub-mesh, -1 outside
    int *globalOf;           ///< (n) sub-mesh vertex -> mesh vertex
    int *queue;              ///< (n) breadth-first search
    unsigned char *inDomain; ///< (n) the unknowns of the restricted solve
    unsigned char *tetIn;    ///< (tetCount) tets of the sub-mesh
    int *tetList;            ///< (tetCount) the same tets, listed
    int *subTets;            ///< (tetCount x 4) the sub-mesh, local vertex numbers
    icReal *subInvMass, *subX, *subGoal, *subRing, *subW, *subPhat; ///< (n x 3 or n)
    unsigned char *active; ///< (n) rows solved in the sub-mesh
    icConstraintSet constraints;
} icLocalSolve;

/// NULL when out of memory. tets must outlive it.
icLocalSolve *icCreateLocalSolve(int vertexCount, const int *tets, int tetCount);
void icDestroyLocalSolve(icLocalSolve *solve);

/// One Newton solve of eq. 1 (Irving et al. 2007, sec. 2, iterated) restricted to the rings whose
/// volume ring_k is more than `threshold` |scale_k| off goal_k, grown by `layers` rings of
/// neighbours; pressures outside are zero. Solves A q = (goal - ring) / dt on those rows of the
/// sub-mesh of their tets (positions x), with the constraints that touch it, and returns the
/// correction in w (n x 3, zero outside the sub-mesh) and q in phat (n, zero outside the
/// domain). *domainRings receives the unknowns' count; with none, or more than maxRings,
/// nothing is solved (w and phat zero, 0 returned). Returns the iterations, -1 when out of
/// memory.
int icLocalSolve_CorrectPositions(icLocalSolve *solve, struct icPool *pool, const icReal *x,
                                  const icReal *invMass, const icReal *scale, const icReal *goal,
                                  const icReal *ring, icReal threshold, int layers, int maxRings,
                                  const icConstraintSet *constraints, const icPressureDef *def,
                                  icReal dt, icReal *w, icReal *phat, int *domainRings,
                                  icKrylovStats *stats);
