#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes the golden VTU files of this folder with VTK's own vtkXMLUnstructuredGridWriter.

Run once with Debian's python3-vtk9 (apt-get install python3-vtk9):
    /usr/bin/python3 tests/data/formats/vtk_written/make_golden.py
The files are committed, so the test suite (tests/formats/test_vtk_written.c) needs no VTK.

The grid: six points, two tetrahedra, a triangle and a vertex cell (the last two are
skipped by isochor's reader; point 5 is used only by the vertex, so it is dropped).
Every value is a small dyadic number, exact in Float32 and in ascii, and follows a
formula test_vtk_written.c repeats:
    point i:  position      POSITIONS[i]
              displacement  (i, i/2, -i/4)          Float64, 3 components
              pressure      100 + i/8               Float32
    cell c:   J             1 + c/16                Float64
              fiber         (c, 1 - c/2, c/4)       Float32, 3 components
Modes: ascii, inline base64 ("binary"), inline base64 zlib, appended raw, appended base64,
appended raw zlib and appended base64 zlib, each with UInt32 headers (Int32 ids) and UInt64
headers (Int64 ids). VTK writes an <InformationKey> child into a DataArray once the array's
range was computed: in ascii and inline modes it computes the range itself (RangeMin and
RangeMax), so those files always hold them; appended files are written twice, as they come
("_plain") and after GetRange was called on every 3-component array ("_keys").
"""
import os
import sys

import vtk

POSITIONS = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1), (2, 2, 2)]
# VTK orders a positive tet so that det[x1-x0, x2-x0, x3-x0] > 0.
CELLS = [(vtk.VTK_TETRA, (0, 1, 2, 3)),
         (vtk.VTK_TRIANGLE, (0, 1, 2)),
         (vtk.VTK_TETRA, (1, 4, 2, 3)),
         (vtk.VTK_VERTEX, (5,))]


def make_grid(keys):
    points = vtk.vtkPoints()
    points.SetDataTypeToFloat()
    for p in POSITIONS:
        points.InsertNextPoint(p)
    grid = vtk.vtkUnstructuredGrid()
    grid.SetPoints(points)
    for kind, ids in CELLS:
        grid.InsertNextCell(kind, len(ids), ids)

    displacement = vtk.vtkDoubleArray()
    displacement.SetName("displacement")
    displacement.SetNumberOfComponents(3)
    pressure = vtk.vtkFloatArray()
    pressure.SetName("pressure")
    for i in range(len(POSITIONS)):
        displacement.InsertNextTuple3(i, i / 2, -i / 4)
        pressure.InsertNextValue(100 + i / 8)
    grid.GetPointData().AddArray(displacement)
    grid.GetPointData().AddArray(pressure)

    jacobian = vtk.vtkDoubleArray()
    jacobian.SetName("J")
    fiber = vtk.vtkFloatArray()
    fiber.SetName("fiber")
    fiber.SetNumberOfComponents(3)
    for c in range(len(CELLS)):
        jacobian.InsertNextValue(1 + c / 16)
        fiber.InsertNextTuple3(c, 1 - c / 2, c / 4)
    grid.GetCellData().AddArray(jacobian)
    grid.GetCellData().AddArray(fiber)

    if keys:
        # The vector norm's range is cached in the array's information (L2_NORM_RANGE),
        # which the writer then saves as an <InformationKey>.
        for array in (points.GetData(), displacement, fiber):
            array.GetRange(-1)
    return grid


def write(folder, name, mode, compress, encode, header64, keys):
    writer = vtk.vtkXMLUnstructuredGridWriter()
    writer.SetInputData(make_grid(keys))
    writer.SetFileName(os.path.join(folder, name))
    {"ascii": writer.SetDataModeToAscii, "binary": writer.SetDataModeToBinary,
     "appended": writer.SetDataModeToAppended}[mode]()
    if compress:
        writer.SetCompressorTypeToZLib()
    else:
        writer.SetCompressorTypeToNone()
    writer.SetEncodeAppendedData(encode)
    if header64:
        writer.SetHeaderTypeToUInt64()
        writer.SetIdTypeToInt64()
    else:
        writer.SetHeaderTypeToUInt32()
        writer.SetIdTypeToInt32()
    if not writer.Write():
        sys.exit("VTK could not write " + name)
    with open(os.path.join(folder, name), "rb") as f:
        has_keys = b"<InformationKey" in f.read()
    if has_keys != (keys or mode != "appended"):
        sys.exit(name + ": InformationKey present = %s, not as intended" % has_keys)


def main():
    folder = os.path.dirname(os.path.abspath(__file__))
    for bits in (32, 64):
        header64 = bits == 64
        write(folder, "ascii_h%d.vtu" % bits, "ascii", False, False, header64, False)
        write(folder, "binary_h%d.vtu" % bits, "binary", False, False, header64, False)
        write(folder, "binary_zlib_h%d.vtu" % bits, "binary", True, False, header64, False)
        for encode, encoding in ((False, "raw"), (True, "base64")):
            for compress in (False, True):
                for keys in (False, True):
                    name = "appended_%s%s_h%d_%s.vtu" % (encoding, "_zlib" if compress else "",
                                                         bits, "keys" if keys else "plain")
                    write(folder, name, "appended", compress, encode, header64, keys)
    print("VTK %s wrote the golden files in %s" % (vtk.vtkVersion.GetVTKVersion(), folder))


if __name__ == "__main__":
    main()
