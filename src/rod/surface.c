// SPDX-License-Identifier: MIT
// Triangle surfaces of rods: capsule outlines of the pills (output), a fusiform muscle, and
// the level set of the blended pill distance by marching tetrahedra (skins at rest).
#include "rod/rod_internal.h"

#include <math.h>

void icRodSurface_Destroy(icRodSurface *s) {
    if (!s) return;
    icFree(s->positions);
    icFree(s->triangles);
    memset(s, 0, sizeof *s);
}

static icResult allocSurface(icRodSurface *s, int nv, int nt) {
    memset(s, 0, sizeof *s);
    s->positions = IC_ALLOC(icReal, 3 * (size_t)nv + 1);
    s->triangles = IC_ALLOC(int, 3 * (size_t)nt + 1);
    if (!s->positions || !s->triangles) {
        icRodSurface_Destroy(s);
        return IC_ERR_OUT_OF_MEMORY;
    }
    s->vertexCount = nv;
    s->triangleCount = nt;
    return IC_OK;
}

// Two unit vectors completing n to an orthonormal basis.
static void basis(icVec3 n, icVec3 *u, icVec3 *v) {
    icVec3 a = fabs(n.x) < 0.7 ? icVec3_Make(1, 0, 0) : icVec3_Make(0, 1, 0);
    *u = icVec3_Normalize(icVec3_Cross(n, a));
    *v = icVec3_Cross(n, *u);
}

// Rings of a surface of revolution about an axis: pole, rings, pole. ringCount rings of
// `sides` vertices; triangles wound counter-clockwise seen from outside when the rings run
// from the first pole (on -axis) to the last (on +axis) and angles increase about the axis.
static void revolutionTriangles(int *tri, int base, int ringCount, int sides) {
    int t = 0, first = base, last = base + 1 + ringCount * sides;
    for (int s = 0; s < sides; ++s) {
        int a = base + 1 + s, b = base + 1 + (s + 1) % sides;
        tri[3 * t] = first, tri[3 * t + 1] = b, tri[3 * t + 2] = a, ++t;
    }
    for (int r = 0; r + 1 < ringCount; ++r)
        for (int s = 0; s < sides; ++s) {
            int a = base + 1 + r * sides + s, b = base + 1 + r * sides + (s + 1) % sides;
            int c = a + sides, d = b + sides;
            tri[3 * t] = a, tri[3 * t + 1] = b, tri[3 * t + 2] = d, ++t;
            tri[3 * t] = a, tri[3 * t + 1] = d, tri[3 * t + 2] = c, ++t;
        }
    for (int s = 0; s < sides; ++s) {
        int a = base + 1 + (ringCount - 1) * sides + s,
            b = base + 1 + (ringCount - 1) * sides + (s + 1) % sides;
        tri[3 * t] = last, tri[3 * t + 1] = a, tri[3 * t + 2] = b, ++t;
    }
}

// The pill surface: a cap of ball a up to its tangent circle with the cone, the cone, and a
// cap of ball b (Angles et al. 2019, App. D; sin(beta) = (rb - ra)/L).
icResult icRodWorld_PillSurface(const icRodWorld *w, int sides, icRodSurface *out) {
    if (sides < 3) return IC_ERR_BAD_VALUE;
    const icRodModel *m = &w->model;
    const icRodState *st = &w->state;
    int half = sides / 2 > 2 ? sides / 2 : 2;
    int rings = 2 * half;
    int nvPer = 2 + rings * sides, ntPer = 2 * sides * rings;
    icResult e = allocSurface(out, nvPer * m->segmentCount, ntPer * m->segmentCount);
    if (e != IC_OK) return e;
    for (int k = 0; k < m->segmentCount; ++k) {
        int a = m->seg[2 * k], b = m->seg[2 * k + 1];
        icVec3 xa = icVec3_Load(st->x, a), xb = icVec3_Load(st->x, b);
        icReal ra = st->r[a], rb = st->r[b];
        icVec3 ab = icVec3_Sub(xb, xa);
        icReal L = icVec3_Length(ab);
        icVec3 nu = L > 0 ? icVec3_Scale(1.0 / L, ab) : icQuat_D3(icQuat_Load(st->q, k));
        icReal sinb = L > fabs(rb - ra) ? (rb - ra) / L : (rb > ra ? 1 : -1);
        icVec3 u, v;
        basis(nu, &u, &v);
        icReal *p = out->positions + 3 * (size_t)nvPer * k;
        int n = 0;
        icVec3_Store(p, n++, icVec3_MulAdd(xa, -ra, nu));
        icReal phiA = acos(sinb), psiB = acos(-sinb);
        for (int r = 0; r < rings; ++r) {
            bool capA = r < half;
            // cap a: phi from the -nu pole to its tangent circle; cap b: from its tangent
            // circle to the +nu pole
            icReal ang = capA ? phiA * (r + 1) / half : psiB * (1.0 - (icReal)(r - half) / half);
            icVec3 c = capA ? xa : xb;
            icReal rad = capA ? ra : rb;
            icReal axial = capA ? -cos(ang) : cos(ang);
            for (int s = 0; s < sides; ++s) {
                icReal th = 2 * IC_PI * s / sides;
                icVec3 radial = icVec3_Add(icVec3_Scale(cos(th), u), icVec3_Scale(sin(th), v));
                icVec3 pt = icVec3_Add(c, icVec3_Add(icVec3_Scale(rad * axial, nu),
                                                     icVec3_Scale(rad * sin(ang), radial)));
                icVec3_Store(p, n++, pt);
            }
        }
        icVec3_Store(p, n++, icVec3_MulAdd(xb, rb, nu));
        revolutionTriangles(out->triangles + 3 * (size_t)ntPer * k, nvPer * k, rings, sides);
    }
    return IC_OK;
}

icResult icRodFusiformSurface(icReal length, icReal maxRadius, icReal endRadius, int rings,
                              int sectors, icRodSurface *out) {
    if (!(length > 0) || !(endRadius > 0) || !(maxRadius >= endRadius) || rings < 1 ||
        sectors < 3 || !isfinite(length) || !isfinite(maxRadius))
        return IC_ERR_BAD_VALUE;
    int ringCount = rings + 1;
    icResult e = allocSurface(out, 2 + ringCount * sectors, 2 * sectors * ringCount);
    if (e != IC_OK) return e;
    int n = 0;
    icVec3_Store(out->positions, n++, icVec3_Make(0, 0, 0));
    for (int r = 0; r < ringCount; ++r) {
        icReal z = length * r / rings;
        icReal rad = endRadius + (maxRadius - endRadius) * sin(IC_PI * z / length);
        for (int s = 0; s < sectors; ++s) {
            icReal th = 2 * IC_PI * s / sectors;
            icVec3_Store(out->positions, n++, icVec3_Make(rad * cos(th), rad * sin(th), z));
        }
    }
    icVec3_Store(out->positions, n++, icVec3_Make(0, 0, length));
    revolutionTriangles(out->triangles, 0, ringCount, sectors);
    return IC_OK;
}

// ---------------------------------------------------------------------------------------
// Marching tetrahedra over the blended pill distance.

typedef struct icSdfGrid {
    int n[3];
    icVec3 origin;
    icReal cell;
    icReal *value; ///< (n0 n1 n2)
    int *edge;     ///< (n0 n1 n2 x 7) vertex on the edge to +x, +y, +z, +xy, +xz, +yz, +xyz
} icSdfGrid;

static const int s_edgeDir[7][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0},
                                    {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};

static int gridIndex(const icSdfGrid *g, int i, int j, int k) {
    return (k * g->n[1] + j) * g->n[0] + i;
}

// Polynomial smooth minimum of width b (b = 0: plain min).
static icReal smoothMin(icReal a, icReal c, icReal b) {
    if (b <= 0) return a < c ? a : c;
    icReal h = 0.5 + 0.5 * (c - a) / b;
    h = h < 0 ? 0 : (h > 1 ? 1 : h);
    return c + (a - c) * h - b * h * (1 - h);
}

typedef struct icSurfaceBuilder {
    icRodSurface *s;
    int vcap, tcap;
} icSurfaceBuilder;

static int pushVertex(icSurfaceBuilder *b, icVec3 p) {
    icRodSurface *s = b->s;
    if (s->vertexCount + 1 > b->vcap) {
        int cap = b->vcap * 2 + 1024;
        icReal *np = IC_ALLOC(icReal, 3 * (size_t)cap);
        if (!np) return -1;
        if (s->positions) memcpy(np, s->positions, sizeof(icReal) * 3 * (size_t)s->vertexCount);
        icFree(s->positions);
        s->positions = np;
        b->vcap = cap;
    }
    icVec3_Store(s->positions, s->vertexCount, p);
    return s->vertexCount++;
}

static bool pushTriangle(icSurfaceBuilder *b, int a, int c, int d) {
    icRodSurface *s = b->s;
    if (s->triangleCount + 1 > b->tcap) {
        int cap = b->tcap * 2 + 1024;
        int *nt = IC_ALLOC(int, 3 * (size_t)cap);
        if (!nt) return false;
        if (s->triangles) memcpy(nt, s->triangles, sizeof(int) * 3 * (size_t)s->triangleCount);
        icFree(s->triangles);
        s->triangles = nt;
        b->tcap = cap;
    }
    s->triangles[3 * s->triangleCount] = a;
    s->triangles[3 * s->triangleCount + 1] = c;
    s->triangles[3 * s->triangleCount + 2] = d;
    ++s->triangleCount;
    return true;
}

// The vertex where the level set crosses the grid edge from point (i, j, k) along dir.
static int edgeVertex(icSdfGrid *g, icSurfaceBuilder *b, int i, int j, int k, int dir) {
    int base = gridIndex(g, i, j, k);
    int *slot = &g->edge[7 * base + dir];
    if (*slot >= 0) return *slot;
    int i2 = i + s_edgeDir[dir][0], j2 = j + s_edgeDir[dir][1], k2 = k + s_edgeDir[dir][2];
    icReal f0 = g->value[base], f1 = g->value[gridIndex(g, i2, j2, k2)];
    icReal t = f0 / (f0 - f1);
    // Keep vertices off the grid points: no slivers, same topology.
    t = t < 0.1 ? 0.1 : (t > 0.9 ? 0.9 : t);
    icVec3 p0 = icVec3_Add(g->origin, icVec3_Make(g->cell * i, g->cell * j, g->cell * k));
    icVec3 p1 = icVec3_Add(g->origin, icVec3_Make(g->cell * i2, g->cell * j2, g->cell * k2));
    *slot = pushVertex(b, icVec3_MulAdd(p0, t, icVec3_Sub(p1, p0)));
    return *slot;
}

// One tet of the Kuhn split: corners c[4] as grid offsets from (i, j, k).
static bool marchTet(icSdfGrid *g, icSurfaceBuilder *b, int i, int j, int k, const int c[4][3]) {
    icReal f[4];
    icVec3 p[4];
    int gi[4][3];
    for (int a = 0; a < 4; ++a) {
        gi[a][0] = i + c[a][0], gi[a][1] = j + c[a][1], gi[a][2] = k + c[a][2];
        f[a] = g->value[gridIndex(g, gi[a][0], gi[a][1], gi[a][2])];
        p[a] = icVec3_Add(g->origin,
                          icVec3_Make(g->cell * gi[a][0], g->cell * gi[a][1], g->cell * gi[a][2]));
    }
    int in[4], out[4], ni = 0, no = 0;
    for (int a = 0; a < 4; ++a) {
        if (f[a] < 0)
            in[ni++] = a;
        else
            out[no++] = a;
    }
    if (ni == 0 || no == 0) return true;
    // The crossing on the edge between corners a and c (always stored from the lower corner).
    int verts[4], nvt = 0;
#define CROSS(a, c)                                                                                \
    do {                                                                                           \
        int lo = a, hi = c;                                                                        \
        if (gi[hi][0] < gi[lo][0] || gi[hi][1] < gi[lo][1] || gi[hi][2] < gi[lo][2])               \
            lo = c, hi = a;                                                                        \
        int d[3] = {gi[hi][0] - gi[lo][0], gi[hi][1] - gi[lo][1], gi[hi][2] - gi[lo][2]};          \
        int dir = -1;                                                                              \
        for (int q = 0; q < 7; ++q)                                                                \
            if (s_edgeDir[q][0] == d[0] && s_edgeDir[q][1] == d[1] && s_edgeDir[q][2] == d[2])     \
                dir = q;                                                                           \
        if (dir < 0) return false;                                                                 \
        verts[nvt] = edgeVertex(g, b, gi[lo][0], gi[lo][1], gi[lo][2], dir);                       \
        if (verts[nvt] < 0) return false;                                                          \
        ++nvt;                                                                                     \
    } while (0)
    icVec3 cin = icVec3_Make(0, 0, 0), cout = cin;
    for (int a = 0; a < ni; ++a) cin = icVec3_Add(cin, icVec3_Scale(1.0 / ni, p[in[a]]));
    for (int a = 0; a < no; ++a) cout = icVec3_Add(cout, icVec3_Scale(1.0 / no, p[out[a]]));
    icVec3 outward = icVec3_Sub(cout, cin);
    const icReal *P = b->s->positions;
    if (ni == 1 || no == 1) {
        int lone = ni == 1 ? in[0] : out[0];
        for (int a = 0; a < 4; ++a)
            if (a != lone) CROSS(lone, a);
        P = b->s->positions;
        icVec3 n = icVec3_Cross(icVec3_Sub(icVec3_Load(P, verts[1]), icVec3_Load(P, verts[0])),
                                icVec3_Sub(icVec3_Load(P, verts[2]), icVec3_Load(P, verts[0])));
        if (icVec3_Dot(n, outward) < 0) return pushTriangle(b, verts[0], verts[2], verts[1]);
        return pushTriangle(b, verts[0], verts[1], verts[2]);
    }
    // Two inside, two outside: a quad in0-out0, in0-out1, in1-out1, in1-out0.
    CROSS(in[0], out[0]);
    CROSS(in[0], out[1]);
    CROSS(in[1], out[1]);
    CROSS(in[1], out[0]);
#undef CROSS
    P = b->s->positions;
    icVec3 n = icVec3_Cross(icVec3_Sub(icVec3_Load(P, verts[1]), icVec3_Load(P, verts[0])),
                            icVec3_Sub(icVec3_Load(P, verts[2]), icVec3_Load(P, verts[0])));
    if (icVec3_Dot(n, outward) < 0)
        return pushTriangle(b, verts[0], verts[2], verts[1]) &&
               pushTriangle(b, verts[0], verts[3], verts[2]);
    return pushTriangle(b, verts[0], verts[1], verts[2]) &&
           pushTriangle(b, verts[0], verts[2], verts[3]);
}

icResult icRodWorld_RestSurface(const icRodWorld *w, int rod, icReal cell, icReal offset,
                                icReal blend, icRodSurface *out) {
    memset(out, 0, sizeof *out);
    const icRodModel *m = &w->model;
    if (rod < 0 || rod >= m->rodCount) return IC_ERR_INDEX_OUT_OF_RANGE;
    if (!(cell > 0) || !isfinite(offset) || !(blend >= 0)) return IC_ERR_BAD_VALUE;
    const icRodRecord *rr = &m->rods[rod];
    icVec3 lo = icVec3_Make(INFINITY, INFINITY, INFINITY), hi = icVec3_Neg(lo);
    for (int i = rr->vertexStart; i < rr->vertexStart + rr->vertexCount; ++i) {
        icReal r = m->restRadius[i] + offset + blend + 2 * cell;
        icVec3 p = icVec3_Load(m->restPos, i);
        lo = icVec3_Min(lo, icVec3_Sub(p, icVec3_Make(r, r, r)));
        hi = icVec3_Max(hi, icVec3_Add(p, icVec3_Make(r, r, r)));
    }
    icSdfGrid g;
    memset(&g, 0, sizeof g);
    g.cell = cell;
    g.origin = lo;
    size_t total = 1;
    for (int d = 0; d < 3; ++d) {
        g.n[d] = (int)ceil((icVec3_Get(hi, d) - icVec3_Get(lo, d)) / cell) + 1;
        total *= (size_t)g.n[d];
    }
    if (total > 50000000) return IC_ERR_BAD_VALUE;
    g.value = IC_ALLOC(icReal, total);
    g.edge = IC_ALLOC(int, 7 * total);
    if (!g.value || !g.edge) {
        icFree(g.value);
        icFree(g.edge);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < 7 * total; ++i) g.edge[i] = -1;
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                icVec3 p = icVec3_Add(lo, icVec3_Make(cell * i, cell * j, cell * k));
                icReal f = INFINITY;
                for (int e = rr->segmentStart; e < rr->segmentStart + rr->segmentCount; ++e) {
                    int a = m->seg[2 * e], b = m->seg[2 * e + 1];
                    icReal t;
                    icReal d =
                        icPill_PointDistance(p, icVec3_Load(m->restPos, a), m->restRadius[a],
                                             icVec3_Load(m->restPos, b), m->restRadius[b], &t);
                    f = f == INFINITY ? d : smoothMin(f, d, blend);
                }
                g.value[gridIndex(&g, i, j, k)] = f - offset;
            }
    // Kuhn split of the cube into 6 tets around the diagonal 000-111: consistent across faces.
    static const int tets[6][4][3] = {
        {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}}, {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {1, 1, 1}},
        {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 1, 1}}, {{0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {1, 1, 1}},
        {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}}, {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 1, 1}}};
    icSurfaceBuilder b = {out, 0, 0};
    icResult result = IC_OK;
    for (int k = 0; k + 1 < g.n[2] && result == IC_OK; ++k)
        for (int j = 0; j + 1 < g.n[1] && result == IC_OK; ++j)
            for (int i = 0; i + 1 < g.n[0] && result == IC_OK; ++i)
                for (int t = 0; t < 6; ++t)
                    if (!marchTet(&g, &b, i, j, k, tets[t])) {
                        result = IC_ERR_OUT_OF_MEMORY;
                        break;
                    }
    icFree(g.value);
    icFree(g.edge);
    if (result != IC_OK) icRodSurface_Destroy(out);
    return result;
}
