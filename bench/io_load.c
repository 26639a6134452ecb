// SPDX-License-Identifier: MIT
// Mesh loading speed: a ~1M-tet box written in every format isochor writes, each loaded
// back through icLoadMesh (parse + check) and timed; plus the cost of writing a VTU frame.
// Usage: bench_io_load [cells per side, default 58 -> 975,560 tets] [folder, default /tmp]
#define _POSIX_C_SOURCE 200809L
#include "isochor/formats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double fileMegabytes(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 ? (double)info.st_size / 1e6 : 0;
}

static void fail(const char *what, const icDiagnostic *diag) {
    char text[1400];
    icDiag_Format(diag, text, sizeof text);
    fprintf(stderr, "bench_io_load: %s: %s\n", what, text);
    exit(1);
}

typedef struct icCase {
    const char *name, *file;
    bool binary;
    double target; ///< MB/s
} icCase;

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 58;
    const char *base = argc > 2 ? argv[2] : "/tmp";
    if (n < 2 || n > 200) {
        fprintf(stderr, "usage: bench_io_load [cells 2..200] [folder]\n");
        return 2;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/isochor-bench-io-%ld", base, (long)getpid());
    icDiagnostic diag = {0};
    if (icMakeDirectories(dir, &diag) != IC_OK) fail("folder", &diag);

    icTetMesh mesh;
    int cells[3] = {n, n, n};
    if (icGenerateBox(&mesh, icVec3_Make(1, 1, 1), cells, 5) != IC_OK) {
        fprintf(stderr, "bench_io_load: cannot generate the box\n");
        return 1;
    }
    // Deform it a little, as a simulated frame is: every coordinate needs 17 digits.
    for (int v = 0; v < mesh.vertexCount; ++v) {
        icReal *p = mesh.positions + 3 * v;
        p[1] += 0.01 * sin(7 * p[0]) * cos(5 * p[2]);
    }
    mesh.regions = NULL;
    printf("mesh: %d vertices, %d tets\n\n", mesh.vertexCount, mesh.tetCount);

    const icCase cases[] = {
        {"TetGen .node/.ele (ascii)", "m.ele", false, 100},
        {"Gmsh 4.1 ascii", "m.msh", false, 100},
        {"Gmsh 4.1 binary", "mb.msh", true, 500},
        {"MEDIT .mesh (ascii)", "m.mesh", false, 100},
        {"VTK legacy ascii", "m.vtk", false, 100},
        {"VTK legacy binary", "mb.vtk", true, 500},
        {"VTU appended raw", "m.vtu", true, 500},
    };
    const int count = (int)(sizeof cases / sizeof cases[0]);
    printf("%-28s %9s %9s %9s %9s %8s\n", "format", "size MB", "write ms", "load ms", "MB/s",
           "target");
    for (int i = 0; i < count; ++i) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, cases[i].file);
        double t0 = now();
        if (icSaveMesh(path, &mesh, cases[i].binary, &diag) != IC_OK) fail(cases[i].name, &diag);
        double writeMs = 1e3 * (now() - t0);
        double mb = fileMegabytes(path);
        if (strstr(cases[i].file, ".ele")) {
            char node[1200];
            snprintf(node, sizeof node, "%s/m.node", dir);
            mb += fileMegabytes(node);
        }
        // Best of three loads (the first warms the page cache like any later run would).
        double best = 1e30;
        for (int r = 0; r < 3; ++r) {
            icTetMesh back;
            double t1 = now();
            if (icLoadMesh(path, NULL, &back, NULL, &diag) != IC_OK) fail(cases[i].name, &diag);
            double s = now() - t1;
            if (s < best) best = s;
            if (back.tetCount != mesh.tetCount) {
                fprintf(stderr, "bench_io_load: %s loaded %d tets\n", cases[i].name, back.tetCount);
                return 1;
            }
            icTetMesh_Destroy(&back);
        }
        double rate = mb / best;
        printf("%-28s %9.1f %9.0f %9.0f %9.0f %6.0f %s\n", cases[i].name, mb, writeMs, 1e3 * best,
               rate, cases[i].target, rate >= cases[i].target ? "ok" : "BELOW");
        remove(path);
        if (strstr(cases[i].file, ".ele")) {
            char node[1200];
            snprintf(node, sizeof node, "%s/m.node", dir);
            remove(node);
        }
    }

    // A result frame as the scene runner writes it: positions, displacement and velocity per
    // vertex, J, pressure and stress norm per tet.
    icReal *vectors = malloc(sizeof(icReal) * 3 * (size_t)mesh.vertexCount);
    icReal *scalars = malloc(sizeof(icReal) * (size_t)mesh.tetCount);
    for (int i = 0; i < 3 * mesh.vertexCount; ++i) vectors[i] = 1e-3 * (i % 17);
    for (int t = 0; t < mesh.tetCount; ++t) scalars[t] = 1 + 1e-4 * (t % 13);
    icField pointFields[2] = {{"displacement", 3, vectors}, {"velocity", 3, vectors}};
    icField cellFields[3] = {
        {"J", 1, scalars}, {"pressure", 1, scalars}, {"stress_norm", 1, scalars}};
    char path[1200];
    snprintf(path, sizeof path, "%s/frame.vtu", dir);
    double best = 1e30;
    for (int r = 0; r < 3; ++r) {
        double t0 = now();
        if (icWriteVtu(path, mesh.vertexCount, mesh.positions, mesh.tetCount, mesh.tets,
                       pointFields, 2, cellFields, 3, &diag) != IC_OK)
            fail("VTU frame", &diag);
        double s = now() - t0;
        if (s < best) best = s;
    }
    double mb = fileMegabytes(path);
    printf("\nVTU frame write (5 fields): %.1f MB in %.0f ms = %.0f MB/s\n", mb, 1e3 * best,
           mb / best);
    // ... and reading it back with its fields.
    best = 1e30;
    for (int r = 0; r < 3; ++r) {
        icTetMesh back;
        icMeshFields fields;
        double t0 = now();
        if (icLoadMeshEx(path, NULL, &back, &fields, NULL, NULL, &diag) != IC_OK)
            fail("VTU frame read", &diag);
        double s = now() - t0;
        if (s < best) best = s;
        icMeshFields_Destroy(&fields);
        icTetMesh_Destroy(&back);
    }
    printf("VTU frame read with fields: %.0f ms = %.0f MB/s\n", 1e3 * best, mb / best);
    remove(path);
    rmdir(dir);
    free(vectors);
    free(scalars);
    icTetMesh_Destroy(&mesh);
    return 0;
}
