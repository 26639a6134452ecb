// SPDX-License-Identifier: MIT
// The cell type numbers VTK defines (vtkCellType.h), shared by the legacy and XML readers.
#include "formats/fmt_internal.h"

bool icVtk_IsCellType(long long type) {
    // Linear 0-16 (empty cell to hexagonal prism), quadratic and cubic 21-37, convex point set
    // 41, polyhedron 42, parametric 51-56, higher-order, Lagrange and Bezier 60-81. The gaps
    // (17-20, 38-40, 43-50, 57-59) and everything past 81 were never assigned.
    return (type >= 0 && type <= 16) || (type >= 21 && type <= 37) || type == 41 || type == 42 ||
           (type >= 51 && type <= 56) || (type >= 60 && type <= 81);
}
