// SPDX-License-Identifier: MIT
// A corpus of broken files (tests/data/formats/broken): each defect gives its exact result
// code and, for text formats, the 1-based line of the problem; nothing leaks and no partial
// mesh comes back.
#include "formats_testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct icBrokenCase {
    const char *file;
    icResult code;
    int line;    ///< 0: whole-file problem
    bool strict; ///< load with strict orientation
} icBrokenCase;

// Lines checked by hand against each file (see the defect in its name).
static const icBrokenCase s_cases[] = {
    {"gmsh41_block_too_big.msh", IC_ERR_PARSE, 26, false},
    {"gmsh41_element_count.msh", IC_ERR_PARSE, 37, false},
    {"gmsh_bad_node_ref.msh", IC_ERR_INDEX_OUT_OF_RANGE, 27, false},
    {"gmsh_degenerate.msh", IC_ERR_DEGENERATE_ELEMENT, 31, false},
    {"gmsh_duplicate_tag.msh", IC_ERR_PARSE, 18, false},
    {"gmsh_elements_first.msh", IC_ERR_PARSE, 4, false},
    {"gmsh_long_element.msh", IC_ERR_PARSE, 28, false},
    {"gmsh_nan.msh", IC_ERR_NOT_FINITE, 13, false},
    {"gmsh_no_end_format.msh", IC_ERR_PARSE, 3, false},
    {"gmsh_no_tets.msh", IC_ERR_EMPTY, 0, false},
    {"gmsh_node_count_high.msh", IC_ERR_PARSE, 19, false},
    {"gmsh_node_count_low.msh", IC_ERR_PARSE, 18, false},
    {"gmsh_overflow.msh", IC_ERR_NOT_FINITE, 16, false},
    {"gmsh_repeated.msh", IC_ERR_REPEATED_INDEX, 29, false},
    {"gmsh_short_element.msh", IC_ERR_PARSE, 28, false},
    {"gmsh_truncated_nodes.msh", IC_ERR_TRUNCATED, 10, false},
    {"gmsh_unterminated_section.msh", IC_ERR_TRUNCATED, 4, false},
    {"gmsh_version.msh", IC_ERR_UNSUPPORTED, 2, false},
    {"gmsh_version40.msh", IC_ERR_UNSUPPORTED, 2, false},
    {"medit_dimension.mesh", IC_ERR_UNSUPPORTED, 3, false},
    {"medit_index0.mesh", IC_ERR_INDEX_OUT_OF_RANGE, 22, false},
    {"medit_keyword.mesh", IC_ERR_UNSUPPORTED, 18, false},
    {"medit_no_tets.mesh", IC_ERR_EMPTY, 0, false},
    {"medit_truncated.mesh", IC_ERR_TRUNCATED, 5, false},
    {"medit_version.mesh", IC_ERR_UNSUPPORTED, 1, false},
    {"surface_bad_number.obj", IC_ERR_PARSE, 5, false},
    {"surface_empty.obj", IC_ERR_EMPTY, 0, false},
    {"surface_face_index.obj", IC_ERR_INDEX_OUT_OF_RANGE, 22, false},
    {"surface_format.ply", IC_ERR_UNSUPPORTED, 2, false},
    {"surface_index.ply", IC_ERR_INDEX_OUT_OF_RANGE, 27, false},
    {"surface_missing_endloop.stl", IC_ERR_PARSE, 7, false},
    {"surface_two_corners.obj", IC_ERR_PARSE, 21, false},
    {"surface_vertex_count.off", IC_ERR_TRUNCATED, 23, false},
    {"vtk51_offsets.vtk", IC_ERR_PARSE, 15, false},
    {"vtk_cells_size.vtk", IC_ERR_PARSE, 16, false},
    {"vtk_format_word.vtk", IC_ERR_PARSE, 3, false},
    {"vtk_index.vtk", IC_ERR_INDEX_OUT_OF_RANGE, 14, false},
    {"vtk_inf.vtk", IC_ERR_NOT_FINITE, 8, false},
    {"vtk_inverted_strict.vtk", IC_ERR_INVERTED_ELEMENT, 12, true},
    {"vtk_polydata.vtk", IC_ERR_UNSUPPORTED, 4, false},
    {"vtk_truncated.vtk", IC_ERR_TRUNCATED, 7, false},
    {"vtk_types_count.vtk", IC_ERR_PARSE, 17, false},
    {"vtk_version.vtk", IC_ERR_UNSUPPORTED, 1, false},
    {"vtu_count.vtu", IC_ERR_PARSE, 33, false},
    {"vtu_header_type.vtu", IC_ERR_UNSUPPORTED, 3, false},
    {"vtu_index.vtu", IC_ERR_INDEX_OUT_OF_RANGE, 31, false},
    {"vtu_nan.vtu", IC_ERR_NOT_FINITE, 23, false},
    {"vtu_no_points.vtu", IC_ERR_PARSE, 0, false},
    {"vtu_polydata.vtu", IC_ERR_UNSUPPORTED, 3, false},
    {"vtu_unclosed.vtu", IC_ERR_PARSE, 34, false},
};

static bool isSurface(const char *file) {
    const char *ext = strrchr(file, '.');
    return strcmp(ext, ".obj") == 0 || strcmp(ext, ".ply") == 0 || strcmp(ext, ".stl") == 0 ||
           strcmp(ext, ".off") == 0;
}

IC_TEST(formats, broken_files_give_exact_codes_and_lines) {
    int64_t bytes = icGetByteCount();
    int count = (int)(sizeof s_cases / sizeof s_cases[0]);
    IC_CHECK(count >= 30);
    for (int i = 0; i < count; ++i) {
        const icBrokenCase *c = &s_cases[i];
        char relative[256];
        IC_FORMAT(relative, "tests/data/formats/broken/%s", c->file);
        const char *path = icTest_SourcePath(relative);
        icDiagnostic diag;
        memset(&diag, 0, sizeof diag);
        icResult result;
        if (isSurface(c->file)) {
            icTriSurface s;
            memset(&s, 0xAB, sizeof s);
            result = icLoadSurface(path, &s, &diag);
            IC_CHECK_MSG(s.positions == NULL && s.triangles == NULL && s.triangleCount == 0,
                         "%s: partial surface returned", c->file);
        } else {
            icTetMesh mesh;
            icMeshFields fields;
            icLoadOptions options = {.strict = c->strict};
            result = icLoadMeshEx(path, &options, &mesh, &fields, NULL, NULL, &diag);
            IC_CHECK_MSG(mesh.positions == NULL && mesh.tets == NULL && mesh.tetCount == 0 &&
                             fields.count == 0,
                         "%s: partial mesh returned", c->file);
        }
        IC_CHECK_MSG(result == c->code, "%s: %s, expected %s (%s)", c->file, icResult_Name(result),
                     icResult_Name(c->code), diag.message);
        IC_CHECK_MSG(diag.code == c->code, "%s: diag code %s", c->file, icResult_Name(diag.code));
        IC_CHECK_MSG(diag.line == c->line, "%s: line %d, expected %d (%s)", c->file, diag.line,
                     c->line, diag.message);
        IC_CHECK_MSG(strstr(diag.file, c->file) != NULL, "%s: diag names '%s'", c->file, diag.file);
        IC_CHECK_MSG(diag.message[0] != 0, "%s: no message", c->file);
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Cutting a valid file at every length never crashes and never succeeds partially.
IC_TEST(formats, every_truncation_fails_cleanly) {
    const char *files[] = {"cube22.msh", "cube41.msh",     "cube42.vtk",
                           "cube51.vtk", "cube_ascii.vtu", "cube2.mesh"};
    const char *dir = icTest_TempDir();
    int64_t bytes = icGetByteCount();
    for (int f = 0; f < 6; ++f) {
        char relative[256];
        IC_FORMAT(relative, "tests/data/formats/%s", files[f]);
        size_t size;
        char *text = icFmtTest_ReadFile(icTest_SourcePath(relative), &size);
        IC_REQUIRE(text);
        // The tail after the last element may be optional (field data, End): cut before it.
        for (size_t n = 0; n + 40 < size; n += 3) {
            const char *path = icFmtTest_WriteFile(dir, files[f], text, n);
            icTetMesh mesh;
            icDiagnostic diag = {0};
            icResult result = icLoadMesh(path, NULL, &mesh, NULL, &diag);
            if (result == IC_OK) {
                // Only a cut in trailing data the readers treat as optional may load.
                IC_CHECK_MSG(mesh.tetCount == 5, "%s cut at %zu loads %d tets", files[f], n,
                             mesh.tetCount);
                icTetMesh_Destroy(&mesh);
            } else {
                IC_CHECK(mesh.tets == NULL);
            }
        }
        free(text);
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}
