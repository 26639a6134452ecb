// SPDX-License-Identifier: MIT
// The vectorised XPBD sweep kernel's interface: one function per instruction set and
// precision, all computing the same bits (xpbd/kernel_body.h is the one source of them).
#pragma once

#include "isochor/world.h"

#include <stdbool.h>
#include <stddef.h>

/// Tets per block, in both precisions, so that float and double sweep the tets in the same
/// order and differ only by rounding: a row of one constant is 64 bytes of floats (one
/// AVX-512 register) or 128 bytes of doubles (two).
enum { IC_XPBD_LANES = 16 };

/// Per-tet constants of a block, each a row of `lanes` numbers after the 4 index rows:
/// N = Q Q^T with Q = Dm^-1 (upper triangle: N00 N01 N02 N11 N12 N22), det Q = 1 / det Dm,
/// alpha_D, alpha_H, gamma. Q itself is not needed (xpbd/kernel_body.h says why).
/// With one material for every tet the last three rows are left out (IC_XPBD_ROWS_UNIFORM):
/// alpha = 1 / (mu V) = 6 |det Q| / mu.
enum { IC_XPBD_ROW_N = 0, IC_XPBD_ROW_DET_Q = 6, IC_XPBD_ROW_ALPHA_D = 7, IC_XPBD_ROW_ALPHA_H = 8,
       IC_XPBD_ROW_GAMMA = 9, IC_XPBD_ROWS = 10, IC_XPBD_ROWS_UNIFORM = 7 };
/// The double kernels keep the reference's arithmetic (xpbd/project.c: F = Ds Q, gradients
/// F Q^T / r and cof F Q^T) and so store Q = Dm^-1 row-major instead of N.
enum { IC_XPBD_ROW_Q = 0, IC_XPBD_ROW_F_DET_Q = 9, IC_XPBD_ROW_F_ALPHA_D = 10, IC_XPBD_ROW_F_ALPHA_H = 11,
       IC_XPBD_ROW_F_GAMMA = 12, IC_XPBD_ROWS_F = 13, IC_XPBD_ROWS_F_UNIFORM = 10 };

/// What one kernel call reads and writes. Pointers are float or double per the layout.
typedef struct icXpbdKernelArgs {
    const char *blocks; ///< block records: uint32 byte offsets of the 4 vertex records [4][lanes],
                        ///< then IC_XPBD_ROWS rows of constants
    size_t blockBytes;
    void *x;            ///< vertex records (x, y, z, w = inverse mass)
    const void *wAxes;  ///< per-axis inverse masses (wx, wy, wz, 0) or NULL (w is isotropic)
    const void *xPrev;  ///< positions at the substep start (x, y, z, -); NULL without damping
    void *lambda;       ///< per block: lambda_D [lanes], lambda_H [lanes]
    const void *beta;   ///< per block: damping beta [lanes]; NULL without damping
    bool uniform;       ///< no compliance rows: alpha_D = |det Q| sixOverMu, alpha_H likewise
    double sixOverMu, sixOverLambda, gamma; ///< the uniform material
    double invH2;       ///< 1 / h^2
    double invH;        ///< 1 / h
    bool loadLambda;    ///< false: the multipliers are known to be zero (first sweep of a substep)
    bool storeLambda;   ///< false: nobody reads this sweep's multipliers
    bool coupled;       ///< both multipliers of a tet from one 2x2 solve (IC_PROJECTION_COUPLED)
} icXpbdKernelArgs;

/// Projects blocks [blockStart, blockEnd): both constraints of every lane, lane by lane in
/// the scalar kernels. Returns the number of lanes where neither could be projected.
typedef int icXpbdKernelFn(const icXpbdKernelArgs *args, int blockStart, int blockEnd);

/// Most tets in one hex cell of the cell scheme (6 for the usual splits).
enum { IC_XPBD_MAX_CELL_TETS = 8 };

/// Units whose lanes all have the same tet pattern: each lane's cell has 8 corners (the cell
/// scheme) or each lane's pair of face-sharing tets 5 (the pair scheme), and the unit's block s
/// holds tet s of every lane, on the corners pattern[s].
typedef struct icXpbdCells {
    int cornerCount;              ///< 8 or 5 (the first of the 8 rows a unit has)
    const unsigned *corners;      ///< (units x 8 x lanes) byte offsets of the corner records
    const unsigned char *pattern; ///< (units x IC_XPBD_MAX_CELL_TETS x 4) corners of tet s
    const int *unitBlocks;        ///< the layout's: unit u is blocks unitBlocks[u] .. [u + 1]
    const int *constBlocks;       ///< (units) where unit u's constant rows are: its own first
                                  ///< block, or an earlier unit's with the same bytes
} icXpbdCells;

/// Projects the tets of units [unitStart, unitEnd) (all with a shared pattern) cell by cell.
typedef int icXpbdCellKernelFn(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart,
                               int unitEnd);

/// One lane at a time: the overflow colours (lanes may share vertices).
int icXpbdKernel_ScalarFloat(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
int icXpbdKernel_ScalarDouble(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
/// Four lanes at a time in portable C (IC_SIMD_SCALAR).
int icXpbdKernel_PortableFloat(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
int icXpbdKernel_PortableDouble(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define IC_XPBD_X86 1
/// The float ones compiled for FMA hardware: the same bits, fused multiply-adds as instructions.
int icXpbdKernel_ScalarFloatFma(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
int icXpbdKernel_PortableFloatFma(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
int icXpbdKernel_Avx2Float(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
int icXpbdKernel_Avx2Double(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
int icXpbdKernel_Avx512Float(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
int icXpbdKernel_Avx512Double(const icXpbdKernelArgs *args, int blockStart, int blockEnd);
#endif

int icXpbdCell_ScalarFloat(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
int icXpbdCell_ScalarDouble(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
int icXpbdCell_PortableFloat(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
int icXpbdCell_PortableDouble(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
#if defined(IC_XPBD_X86)
int icXpbdCell_ScalarFloatFma(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
int icXpbdCell_PortableFloatFma(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
int icXpbdCell_Avx2Float(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
int icXpbdCell_Avx2Double(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
int icXpbdCell_Avx512Float(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
int icXpbdCell_Avx512Double(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd);
#endif

/// The widest level this CPU runs (IC_SIMD_AVX512, IC_SIMD_AVX2 or IC_SIMD_SCALAR).
icSimd icXpbd_CpuSimd(void);
/// The kernel for a requested level (clamped to what the CPU has) and precision; *used
/// (optional) says which level that is.
icXpbdKernelFn *icXpbd_SelectKernel(icSimd requested, icPrecision precision, icSimd *used);
/// The cell kernel of the same level.
icXpbdCellKernelFn *icXpbd_SelectCellKernel(icSimd requested, icPrecision precision);
/// The one-lane kernel of the overflow colours, and its cell kernel (benchmarks).
icXpbdKernelFn *icXpbd_SelectLaneKernel(icPrecision precision);
icXpbdCellKernelFn *icXpbd_SelectLaneCellKernel(icPrecision precision);
/// Tests: false makes the float kernels below AVX2 call the C library's fmaf even on FMA
/// hardware (the path of CPUs without FMA; the same bits, slower). Default true.
void icXpbd_SetHardwareFma(bool use);
