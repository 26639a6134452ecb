// SPDX-License-Identifier: MIT
// Procedural rods: straight chains, helices, kinematic capsules and the octopus of Angles et
// al. 2019, Fig. 7.
#include "rod/rod_internal.h"

#include <math.h>

icResult icRodWorld_AddStraightRod(icRodWorld *w, icVec3 start, icVec3 end, int segments,
                                   const icRodDef *def, int *rod, icDiagnostic *diag) {
    if (segments < 1 || segments > 1000000)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "rod", 0, "segments must be >= 1");
    icReal *p = IC_ALLOC(icReal, 3 * ((size_t)segments + 1));
    if (!p) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "rod", 0, "out of memory");
    for (int i = 0; i <= segments; ++i)
        icVec3_Store(p, i, icVec3_MulAdd(start, (icReal)i / segments, icVec3_Sub(end, start)));
    icRodDef d = def ? *def : icDefaultRodDef();
    d.vertexCount = segments + 1;
    d.positions = p;
    d.segments = NULL;
    if (d.radii) d.radii = NULL; // a per-vertex array cannot match a generated count
    d.masses = NULL;
    d.segmentBendCompliance = NULL;
    icResult e = icRodWorld_AddRod(w, &d, rod, diag);
    icFree(p);
    return e;
}

icResult icRodWorld_AddHelix(icRodWorld *w, icVec3 centre, icReal coilRadius, icReal pitch,
                             icReal turns, int segments, const icRodDef *def, int *rod,
                             icDiagnostic *diag) {
    if (segments < 1 || segments > 1000000 || !(coilRadius > 0) || !(turns > 0) || !isfinite(pitch))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "helix", 0,
                          "needs segments >= 1, coil radius > 0, turns > 0");
    icReal *p = IC_ALLOC(icReal, 3 * ((size_t)segments + 1));
    if (!p) return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, "helix", 0, "out of memory");
    for (int i = 0; i <= segments; ++i) {
        icReal a = 2 * IC_PI * turns * i / segments;
        icVec3_Store(p, i,
                     icVec3_Add(centre, icVec3_Make(coilRadius * cos(a), pitch * a / (2 * IC_PI),
                                                    coilRadius * sin(a))));
    }
    icRodDef d = def ? *def : icDefaultRodDef();
    d.vertexCount = segments + 1;
    d.positions = p;
    d.segments = NULL;
    d.radii = NULL;
    d.masses = NULL;
    d.segmentBendCompliance = NULL;
    icResult e = icRodWorld_AddRod(w, &d, rod, diag);
    icFree(p);
    return e;
}

icResult icRodWorld_AddCapsule(icRodWorld *w, icVec3 a, icVec3 b, icReal radius, int *rod,
                               icDiagnostic *diag) {
    icReal p[6] = {a.x, a.y, a.z, b.x, b.y, b.z};
    icRodDef d = icDefaultRodDef();
    d.vertexCount = 2;
    d.positions = p;
    d.radius = radius;
    d.kinematic = true;
    d.stretchShear = d.bendTwist = d.scaleBilaplacian = false;
    d.volume = IC_ROD_VOLUME_NONE;
    return icRodWorld_AddRod(w, &d, rod, diag);
}

// The octopus (Angles et al. 2019, Fig. 7) as a tree of 38 spheres and 37 pills (the paper's
// count; the reference code adds a head-top to head-top pill). Sizes and masses are the
// reference values; the placement is ours (the demo's mesh is proprietary).
enum { OCT_ROOT, OCT_HEAD, OCT_TOP0, OCT_TOP1, OCT_EYE0, OCT_EYE1, OCT_LEG0 };
#define IC_OCTOPUS_VERTICES 38
#define IC_OCTOPUS_SEGMENTS 37

icResult icRodWorld_AddOctopus(icRodWorld *w, icVec3 origin, icReal scale, int *rod,
                               icDiagnostic *diag) {
    if (!(scale > 0) || !icVec3_IsFinite(origin))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, "octopus", 0, "scale must be > 0");
    icReal p[3 * IC_OCTOPUS_VERTICES], r[IC_OCTOPUS_VERTICES], mass[IC_OCTOPUS_VERTICES];
    int seg[2 * IC_OCTOPUS_SEGMENTS];
    icReal bend[IC_OCTOPUS_SEGMENTS];
    int ns = 0;
#define PUT(i, x, y, z, radius, m)                                                                 \
    do {                                                                                           \
        icVec3_Store(p, i, icVec3_Make(x, y, z));                                                  \
        r[i] = radius;                                                                             \
        mass[i] = m;                                                                               \
    } while (0)
#define PILL(a, b, alpha)                                                                          \
    do {                                                                                           \
        seg[2 * ns] = a;                                                                           \
        seg[2 * ns + 1] = b;                                                                       \
        bend[ns++] = alpha;                                                                        \
    } while (0)
    PUT(OCT_ROOT, 0, 0, 0, 0.36, 1.0);
    PUT(OCT_HEAD, 0, 0.55, -0.1, 0.51, 1.0);
    PUT(OCT_TOP0, -0.22, 1.05, -0.25, 0.59, 1.0);
    PUT(OCT_TOP1, 0.22, 1.05, -0.25, 0.59, 1.0);
    PUT(OCT_EYE0, -0.3, 0.75, 0.35, 0.25, 0.1);
    PUT(OCT_EYE1, 0.3, 0.75, 0.35, 0.25, 0.1);
    PILL(OCT_ROOT, OCT_HEAD, 0);
    PILL(OCT_HEAD, OCT_EYE0, 0);
    PILL(OCT_HEAD, OCT_EYE1, 0);
    PILL(OCT_HEAD, OCT_TOP0, 0);
    PILL(OCT_HEAD, OCT_TOP1, 0);
    static const icReal legRadius[4] = {0.148, 0.148, 0.115, 0.077};
    static const icReal legReach[4] = {0.5, 0.85, 1.15, 1.42};
    static const icReal legDrop[4] = {-0.12, -0.25, -0.33, -0.37};
    static const icReal legBend[4] = {1e-4, 1e-3, 9e-3, 9e-3}; // root-hip, hip-knee, ...
    for (int l = 0; l < 8; ++l) {
        icReal a = 2 * IC_PI * (l + 0.5) / 8;
        int base = OCT_LEG0 + 4 * l;
        for (int j = 0; j < 4; ++j)
            PUT(base + j, legReach[j] * cos(a), legDrop[j], legReach[j] * sin(a), legRadius[j],
                0.3);
        PILL(OCT_ROOT, base, legBend[0]);
        for (int j = 1; j < 4; ++j) PILL(base + j - 1, base + j, legBend[j]);
    }
#undef PUT
#undef PILL
    for (int i = 0; i < IC_OCTOPUS_VERTICES; ++i) {
        icVec3_Store(p, i, icVec3_MulAdd(origin, scale, icVec3_Load(p, i)));
        r[i] *= scale;
        mass[i] *= scale * scale * scale;
    }
    icRodDef d = icPillObjectRodDef();
    d.vertexCount = IC_OCTOPUS_VERTICES;
    d.positions = p;
    d.radii = r;
    d.masses = mass;
    d.segmentCount = ns;
    d.segments = seg;
    d.segmentBendCompliance = bend;
    return icRodWorld_AddRod(w, &d, rod, diag);
}
