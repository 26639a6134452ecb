// SPDX-License-Identifier: MIT
// Point and cell fields through conversions: VTU, legacy VTK (ASCII and binary) and Gmsh
// (ASCII and binary) keep their values bit for bit; formats that cannot hold them are named
// by `isochor convert` with the fields they drop.
#include "formats_testing.h"

#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

// A 2x2x2-cell box with two regions and four fields whose values need all 17 digits.
typedef struct icFieldMesh {
    icTetMesh mesh;
    icMeshFields fields;
} icFieldMesh;

static icReal *makeValues(int count, double seed) {
    icReal *v = icAlloc(sizeof(icReal) * (size_t)count);
    for (int i = 0; i < count; ++i) v[i] = sin(seed + 0.731 * i) / 3.0 + (i % 7) * 1e-9;
    return v;
}

static void makeFieldMesh(icFieldMesh *m, bool withPair) {
    memset(m, 0, sizeof *m);
    int cells[3] = {2, 2, 2};
    IC_REQUIRE(icGenerateBox(&m->mesh, icVec3_Make(1, 1, 1), cells, 6) == IC_OK);
    int n = m->mesh.vertexCount, t = m->mesh.tetCount;
    m->mesh.regions = icAlloc(sizeof(int) * (size_t)t);
    for (int i = 0; i < t; ++i) m->mesh.regions[i] = i < t / 2 ? 3 : 7;
    icFree(m->mesh.tetCell);
    m->mesh.tetCell = NULL;
    memset(m->mesh.cellCounts, 0, sizeof m->mesh.cellCounts);
    const struct {
        const char *name;
        int components;
        bool perCell;
    } specs[5] = {{"displacement", 3, false},
                  {"temperature", 1, false},
                  {"J", 1, true},
                  {"stress", 9, true},
                  {"pair", 2, true}};
    int count = withPair ? 5 : 4;
    m->fields.items = icAlloc(sizeof(icMeshField) * (size_t)count);
    m->fields.count = count;
    for (int f = 0; f < count; ++f) {
        icMeshField *field = &m->fields.items[f];
        memset(field, 0, sizeof *field);
        snprintf(field->name, sizeof field->name, "%s", specs[f].name);
        field->components = specs[f].components;
        field->perCell = specs[f].perCell;
        field->data = makeValues((specs[f].perCell ? t : n) * specs[f].components, f);
    }
}

static void freeFieldMesh(icFieldMesh *m) {
    icMeshFields_Destroy(&m->fields);
    icTetMesh_Destroy(&m->mesh);
}

static int runCli(const char *args, const char *errPath) {
    char command[5000];
    IC_FORMAT(command, "'%s' %s > /dev/null 2> '%s'", IC_CLI_PATH, args, errPath);
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Loads path and compares its mesh, regions and fields with the original, values exactly.
static void checkSameFields(const char *path, const icFieldMesh *original, int expectFields) {
    icTetMesh mesh;
    icMeshFields fields;
    icDiagnostic diag = {0};
    IC_REQUIRE(icLoadMeshEx(path, NULL, &mesh, &fields, NULL, NULL, &diag) == IC_OK);
    IC_CHECK(icFmtTest_SameMesh(&original->mesh, &mesh, 0));
    IC_CHECK_MSG(mesh.regions && memcmp(mesh.regions, original->mesh.regions,
                                        sizeof(int) * (size_t)mesh.tetCount) == 0,
                 "%s: regions differ", path);
    for (int f = 0; f < expectFields; ++f) {
        const icMeshField *want = &original->fields.items[f];
        const icMeshField *got = icMeshFields_Find(&fields, want->name, want->perCell);
        IC_CHECK_MSG(got != NULL, "%s: no %s field", path, want->name);
        if (!got) continue;
        IC_CHECK_INT(got->components, want->components);
        int rows = want->perCell ? mesh.tetCount : mesh.vertexCount;
        int differ = 0;
        for (int i = 0; i < rows * want->components; ++i) differ += got->data[i] != want->data[i];
        IC_CHECK_MSG(differ == 0, "%s: %d values of %s differ", path, differ, want->name);
    }
    icMeshFields_Destroy(&fields);
    icTetMesh_Destroy(&mesh);
}

// VTU -> VTK (ASCII) -> VTK (binary) -> VTU, each step through `isochor convert`.
IC_TEST(fields_convert, vtu_vtk_round_trip_keeps_values) {
    const char *dir = icTest_TempDir();
    icFieldMesh m;
    makeFieldMesh(&m, false);
    char paths[4][1300], args[3000], err[1300];
    const char *names[4] = {"a.vtu", "b.vtk", "c.vtk", "d.vtu"};
    for (int i = 0; i < 4; ++i) IC_FORMAT(paths[i], "%s/%s", dir, names[i]);
    IC_FORMAT(err, "%s/err.txt", dir);
    IC_REQUIRE(icSaveMeshWithFields(paths[0], &m.mesh, &m.fields, false, NULL) == IC_OK);
    checkSameFields(paths[0], &m, 4);
    for (int i = 1; i < 4; ++i) {
        IC_FORMAT(args, "convert '%s' '%s' %s", paths[i - 1], paths[i], i == 2 ? "--binary" : "");
        IC_CHECK_INT(runCli(args, err), 0);
        checkSameFields(paths[i], &m, 4);
    }
    // Nothing was dropped, so nothing was said about it.
    char *text = icFmtTest_ReadFile(err, NULL);
    IC_CHECK_MSG(text && !strstr(text, "dropped"), "stderr: %s", text ? text : "");
    free(text);
    freeFieldMesh(&m);
}

// The Gmsh writer's views: a name, time 0, step 0, components, then tag and values per row.
IC_TEST(fields_convert, gmsh_writes_node_and_element_data) {
    const char *dir = icTest_TempDir();
    icFieldMesh m;
    makeFieldMesh(&m, true);
    char path[1300];
    IC_FORMAT(path, "%s/f.msh", dir);
    IC_REQUIRE(icSaveMeshWithFields(path, &m.mesh, &m.fields, false, NULL) == IC_OK);
    char *text = icFmtTest_ReadFile(path, NULL);
    IC_REQUIRE(text != NULL);
    char expect[200];
    IC_FORMAT(expect, "$NodeData\n1\n\"displacement\"\n1\n0\n3\n0\n3\n%d\n1 ", m.mesh.vertexCount);
    IC_CHECK_MSG(strstr(text, expect) != NULL, "no displacement view");
    IC_FORMAT(expect, "$ElementData\n1\n\"stress\"\n1\n0\n3\n0\n9\n%d\n1 ", m.mesh.tetCount);
    IC_CHECK_MSG(strstr(text, expect) != NULL, "no stress view");
    // Two components are no Gmsh view type: left out, as icSaveMesh_KeepsField says.
    IC_CHECK(strstr(text, "\"pair\"") == NULL);
    IC_CHECK(!icSaveMesh_KeepsField(path, &m.mesh, &m.fields.items[4]));
    IC_CHECK(icSaveMesh_KeepsField(path, &m.mesh, &m.fields.items[3]));
    free(text);
    freeFieldMesh(&m);
}

// VTU -> Gmsh (ASCII) -> Gmsh (binary) -> VTU.
IC_TEST(fields_convert, vtu_gmsh_round_trip_keeps_values) {
    const char *dir = icTest_TempDir();
    icFieldMesh m;
    makeFieldMesh(&m, false);
    char paths[4][1300], args[3000], err[1300];
    const char *names[4] = {"a.vtu", "b.msh", "c.msh", "d.vtu"};
    for (int i = 0; i < 4; ++i) IC_FORMAT(paths[i], "%s/%s", dir, names[i]);
    IC_FORMAT(err, "%s/err.txt", dir);
    IC_REQUIRE(icSaveMeshWithFields(paths[0], &m.mesh, &m.fields, false, NULL) == IC_OK);
    for (int i = 1; i < 4; ++i) {
        IC_FORMAT(args, "convert '%s' '%s' %s", paths[i - 1], paths[i], i == 2 ? "--binary" : "");
        IC_CHECK_INT(runCli(args, err), 0);
        checkSameFields(paths[i], &m, 4);
    }
    freeFieldMesh(&m);
}

IC_TEST(fields_convert, convert_names_the_dropped_fields) {
    const char *dir = icTest_TempDir();
    icFieldMesh m;
    makeFieldMesh(&m, true);
    char in[1300], args[3000], err[1300];
    IC_FORMAT(in, "%s/a.vtu", dir);
    IC_FORMAT(err, "%s/err.txt", dir);
    IC_REQUIRE(icSaveMeshWithFields(in, &m.mesh, &m.fields, false, NULL) == IC_OK);
    // TetGen keeps the regions (as attributes) and no field.
    IC_FORMAT(args, "convert '%s' '%s/t.ele'", in, dir);
    IC_CHECK_INT(runCli(args, err), 0);
    char *text = icFmtTest_ReadFile(err, NULL);
    IC_CHECK_MSG(text &&
                     strstr(text, "isochor convert: note: dropped fields displacement "
                                  "(point, 3 components), temperature (point, 1 component), "
                                  "J (cell, 1 component), stress (cell, 9 components), pair "
                                  "(cell, 2 components): ") &&
                     strstr(text, "t.ele cannot hold them\n"),
                 "stderr: %s", text ? text : "");
    IC_CHECK(text && !strstr(text, "region"));
    free(text);
    // Gmsh keeps all but the two-component one.
    IC_FORMAT(args, "convert '%s' '%s/g.msh'", in, dir);
    IC_CHECK_INT(runCli(args, err), 0);
    text = icFmtTest_ReadFile(err, NULL);
    IC_CHECK_MSG(text && strstr(text, "note: dropped fields pair (cell, 2 components): "),
                 "stderr: %s", text ? text : "");
    IC_CHECK(text && !strstr(text, "stress"));
    free(text);
    // A surface holds none.
    IC_FORMAT(args, "convert '%s' '%s/s.obj'", in, dir);
    IC_CHECK_INT(runCli(args, err), 0);
    text = icFmtTest_ReadFile(err, NULL);
    IC_CHECK(text && strstr(text, "dropped fields displacement") && strstr(text, "s.obj cannot"));
    free(text);
    freeFieldMesh(&m);
}

IC_TEST(fields_convert, save_refuses_a_malformed_field) {
    const char *dir = icTest_TempDir();
    icFieldMesh m;
    makeFieldMesh(&m, false);
    char path[1300];
    IC_FORMAT(path, "%s/bad.vtk", dir);
    m.fields.items[1].components = 0;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icSaveMeshWithFields(path, &m.mesh, &m.fields, false, &diag),
                    IC_ERR_INVALID_ARGUMENT);
    IC_CHECK(strstr(diag.message, "field 1 needs a name") != NULL);
    m.fields.items[1].components = 1;
    freeFieldMesh(&m);
}
