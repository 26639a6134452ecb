// SPDX-License-Identifier: MIT
// The packed sweep layout: tets along a space-filling curve, coloured into blocks of one
// vector width (AoSoA records of indices and constants), vertices renumbered to match and
// padded to 4 numbers, and the working copies the sweep kernels read and write.
#pragma once

#include "xpbd/kernel.h"
#include "xpbd/xpbd.h"

/// Where the sweep's multipliers currently live.
typedef enum icXpbdLambda {
    IC_XPBD_LAMBDA_STATE = 0, ///< in the state's arrays (user tet order)
    IC_XPBD_LAMBDA_ZERO,      ///< zero (a substep began): the kernel need not read them
    IC_XPBD_LAMBDA_PACKED,    ///< in layout->lambda, newer than the state's
} icXpbdLambda;

/// Seconds spent in the parts of the packed sweep, accumulated while `enabled` (benchmarks).
typedef struct icXpbdProfile {
    bool enabled;
    int64_t sweeps;
    double copyIn, colours, overflow, copyOut;
    double passes; ///< per-vertex passes of the step: prediction, plane contact, velocities,
                   ///< and the copies to and from the working copy fused with them
} icXpbdProfile;

/// The sweep's order: phases run one after the other; the chunks of a phase share no vertex
/// and run in parallel, each on one worker (large bodies: slabs in two phases, even and odd). A chunk runs its colours in order (each colour's
/// blocks share no vertex: lanes of a vector are independent) and then its overflow blocks
/// lane by lane. Small meshes have one chunk, and the blocks of each of its colours are
/// shared out between the workers instead (units: one block for greedy colours, the tet
/// slots of a group of cells for the cell scheme). Nothing here depends on the worker count.
typedef struct icXpbdLayout {
    icPrecision precision;
    icColouringScheme scheme; ///< what the def asked for
    bool cells;               ///< the cell scheme is in use (false: greedy or pairs)
    bool pairs;               ///< the pair scheme is in use
    int pairedTets;           ///< pair scheme: tets in a pair (the rest are coloured alone)
    bool chunked;             ///< several chunks (large meshes): parallel over chunks
    bool uniform;             ///< one material: compliances from det Q (no per-tet rows)
    double sixOverMu, sixOverLambda, gamma; ///< the uniform material (alpha = |det Q| 6 / mu)
    int lanes;                ///< tets per block (IC_XPBD_LANES)
    int rows;                 ///< constant rows per block (IC_XPBD_ROWS or IC_XPBD_ROWS_UNIFORM)
    size_t real;              ///< bytes per number: 4 or 8
    int modelVertexCount, modelTetCount, modelBodyCount;

    int vertexCount;     ///< packed vertices: the model's, then one dummy that padding uses
    int *packedOfVertex; ///< (model vertexCount) model vertex -> packed
    int *vertexOfPacked; ///< (vertexCount) packed -> model vertex, -1 for the dummy

    int blockCount;
    size_t blockBytes;   ///< 4 x lanes uint32 vertex record offsets, then `rows` x lanes numbers
    char *blocks;
    int *tetOfLane;      ///< (blockCount x lanes) model tet, -1 for padding
    int paddingLanes;

    int phaseCount;
    int *phaseChunks;    ///< (phaseCount + 1) chunks of phase p
    int chunkCount;
    int *chunkColours;   ///< (chunkCount + 1) colours of chunk c
    int *chunkOverflow;  ///< (chunkCount + 1) overflow blocks of chunk c: chunkOverflow[c] ..
                         ///< the first block of chunk c + 1 (chunkBlocks[c + 1])
    int *chunkBlocks;    ///< (chunkCount + 1) blocks of chunk c
    int colourCount;     ///< over all chunks
    int *colourUnits;    ///< (colourCount + 1) units of colour k
    int *colourEnd;      ///< (colourCount) block after colour k's last (its last unit ends there)
    int unitCount;
    int *unitBlocks;     ///< (unitCount + 1) blocks of unit u
    /// Cell scheme only (else NULL): units whose cells share a tet pattern run the cell kernel.
    unsigned char *unitFast;    ///< (unitCount) 1: a shared pattern
    unsigned *cellCorners;      ///< (unitCount x 8 x lanes) byte offsets of corner records
    unsigned char *cellPattern; ///< (unitCount x IC_XPBD_MAX_CELL_TETS x 4) corners of tet s
    int *unitConstBlocks;       ///< (unitCount) the first block whose constant rows unit u reads
    int sharedUnits;            ///< units reading an earlier unit's rows (regular hex grids)
    int overflowTets;

    // Working copies (float or double per precision), rewritten every sweep.
    void *x;          ///< (vertexCount x 4) x, y, z, w: position (relative to the body's origin
                      ///< in float) and isotropic inverse mass
    void *wAxes;      ///< (vertexCount x 4) per-axis inverse masses, once a vertex has them
    void *xPrev;      ///< (vertexCount x 4) substep start positions, when a body is damped
    void *lambda;     ///< (blockCount x 2 x lanes) lambda_D, lambda_H rows per block
    void *beta;       ///< (blockCount x lanes) damping beta, when a body is damped
    icReal *origin;   ///< (bodyCount x 3) float: positions are solved relative to these
    icReal *originNext; ///< (bodyCount x 3) the next substep's, while a fused pass moves on
    int *originVertex; ///< (bodyCount) the body's vertex nearest its rest bounding box centre
    icXpbdLambda lambdaWhere;
    const icState *lambdaOwner;
    bool stateStale;  ///< lambdaOwner's arrays were not zeroed when a substep began
    int sweepsLeft;   ///< sweeps left in the current step, -1 when unknown (multipliers are
                      ///< only written back when someone will read them)
    size_t bytes;     ///< everything above
    icXpbdProfile profile;
} icXpbdLayout;

/// The order the layout runs (scheme is the one asked for).
static inline icColouringScheme icXpbdLayout_RunningScheme(const icXpbdLayout *L) {
    return L->cells ? IC_COLOURING_CELL : (L->pairs ? IC_COLOURING_PAIRS : IC_COLOURING_GREEDY);
}

/// Blocks a worker gets at least from one colour of a one-chunk mesh (default 24): tests
/// set 1 so that small meshes exercise the threads. Results do not depend on it.
void icXpbd_SetParallelGrain(int blocks);

/// The cell scheme's unit data for the cell kernels (all NULL without the cell scheme).
icXpbdCells icXpbdLayout_Cells(const icXpbdLayout *layout);
/// Kernel arguments pointing at the layout's records, working copy and material; the caller
/// sets the step (invH, invH2) and whether multipliers are read and kept.
icXpbdKernelArgs icXpbdLayout_KernelArgs(const icXpbdLayout *layout);

/// Builds the layout for the model's bodies and def (precision, colouring).
icResult icXpbdLayout_Create(const icModel *model, icXpbdLayout **layout);
void icXpbdLayout_Destroy(icXpbdLayout *layout);
/// True when layout was built for this model's current bodies and def.
bool icXpbdLayout_Matches(const icXpbdLayout *layout, const icModel *model);

/// The step can sweep in the packed layout (layout current; either projection).
bool icXpbd_PackedUsable(const icModel *model);
/// Float origins (the origin vertices' positions in xStart, vertexCount x 3); zero in double.
void icXpbd_SetOrigins(const icModel *model, const icReal *xStart, icReal *origin);
/// Allocates the per-axis inverse mass records (false: out of memory).
bool icXpbd_NeedAxes(icXpbdLayout *layout);
/// One sweep on the working copy as it stands (the caller copied the state in and copies it
/// back out): the colour passes and the overflow. Returns the tets skipped.
int icXpbd_SweepPacked(const icModel *model, icState *state, icReal h);
