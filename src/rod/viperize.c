// SPDX-License-Identifier: MIT
// Viperization, simplified (Angles et al. 2019, sec. 8.1): a harmonic field along a closed
// muscle surface, iso-slices fitted by planes, n sites per slice by Lloyd's CVT with a
// rod-length penalty, and slice-to-slice combing by the Hungarian method.
#include "rod/laplace.h"

#include "isochor/svd.h"

#include <math.h>

icViperizeDef icDefaultViperizeDef(void) {
    icViperizeDef d;
    d.mesh = NULL;
    d.source = d.sink = NULL;
    d.rodCount = 7;
    d.sliceCount = 9;
    d.endLevel = 0.05;
    d.lloydIterations = 20;
    d.lengthPenalty = 0.25;
    d.alternations = 10;
    d.radiusScale = 1.0;
    return d;
}

void icViperizeResult_Destroy(icViperizeResult *r) {
    if (!r) return;
    icFree(r->positions);
    icFree(r->radii);
    icFree(r->field);
    memset(r, 0, sizeof *r);
}

// Van Oosterom-Strackee solid angles summed over the triangles, over 4 pi.
icReal icRodSurface_Winding(const icRodSurface *s, icVec3 p) {
    icReal total = 0;
    for (int t = 0; t < s->triangleCount; ++t) {
        icVec3 a = icVec3_Sub(icVec3_Load(s->positions, s->triangles[3 * t]), p);
        icVec3 b = icVec3_Sub(icVec3_Load(s->positions, s->triangles[3 * t + 1]), p);
        icVec3 c = icVec3_Sub(icVec3_Load(s->positions, s->triangles[3 * t + 2]), p);
        icReal la = icVec3_Length(a), lb = icVec3_Length(b), lc = icVec3_Length(c);
        icReal num = icVec3_Dot(a, icVec3_Cross(b, c));
        icReal den =
            la * lb * lc + icVec3_Dot(a, b) * lc + icVec3_Dot(b, c) * la + icVec3_Dot(c, a) * lb;
        total += 2 * atan2(num, den);
    }
    return total / (4 * IC_PI);
}

// Hungarian method with potentials, O(n^3) (rows and columns 1-based inside).
icReal icRod_Hungarian(int n, const icReal *cost, int *assign) {
    enum { N = 33 };
    icReal u[N], v[N], minv[N];
    int p[N], way[N];
    bool used[N];
    if (n < 1 || n > 32) return 0;
    for (int i = 0; i <= n; ++i) u[i] = v[i] = 0, p[i] = way[i] = 0;
    for (int i = 1; i <= n; ++i) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; ++j) minv[j] = INFINITY, used[j] = false;
        do {
            used[j0] = true;
            int i0 = p[j0], j1 = 0;
            icReal delta = INFINITY;
            for (int j = 1; j <= n; ++j) {
                if (used[j]) continue;
                icReal cur = cost[(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
                if (cur < minv[j]) minv[j] = cur, way[j] = j0;
                if (minv[j] < delta) delta = minv[j], j1 = j;
            }
            for (int j = 0; j <= n; ++j) {
                if (used[j])
                    u[p[j]] += delta, v[j] -= delta;
                else
                    minv[j] -= delta;
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    icReal total = 0;
    for (int j = 1; j <= n; ++j) {
        assign[p[j] - 1] = j - 1;
        total += cost[(p[j] - 1) * n + (j - 1)];
    }
    return total;
}

// One slice: its plane (centre, e1, e2) and the polygon in plane coordinates.
typedef struct icSlice {
    icVec3 centre, e1, e2;
    int count;
    icReal *poly; ///< (count x 2)
    icReal area;
    icReal *sites; ///< (rodCount x 2) in plane coordinates
} icSlice;

static icVec3 planePoint(const icSlice *s, icReal a, icReal b) {
    return icVec3_Add(s->centre, icVec3_Add(icVec3_Scale(a, s->e1), icVec3_Scale(b, s->e2)));
}

static bool insidePolygon(const icReal *poly, int n, icReal x, icReal y) {
    bool in = false;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        icReal xi = poly[2 * i], yi = poly[2 * i + 1], xj = poly[2 * j], yj = poly[2 * j + 1];
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) in = !in;
    }
    return in;
}

// The longest closed iso-curve u = level on the surface, fitted by a plane.
static icResult extractSlice(const icRodSurface *m, const icReal *u, icReal level, icSlice *out) {
    int nt = m->triangleCount;
    // Crossing points keyed by mesh edge; each crossing triangle links two of them.
    int *edgeA = IC_ALLOC(int, 2 * (size_t)nt + 1), *edgeB = IC_ALLOC(int, 2 * (size_t)nt + 1);
    int *link = IC_ALLOC(int, 4 * (size_t)nt + 1); // (crossing x 2) neighbours
    int *tri2 = IC_ALLOC(int, 2 * (size_t)nt + 1);
    icReal *pt = IC_ALLOC(icReal, 6 * (size_t)nt + 1);
    icResult result = IC_OK;
    int nc = 0;
    if (!edgeA || !edgeB || !link || !tri2 || !pt) result = IC_ERR_OUT_OF_MEMORY;
    for (int t = 0; t < nt && result == IC_OK; ++t) {
        int ids[2], n = 0;
        for (int c = 0; c < 3; ++c) {
            int a = m->triangles[3 * t + c], b = m->triangles[3 * t + (c + 1) % 3];
            bool aa = u[a] >= level, ba = u[b] >= level;
            if (aa == ba) continue;
            int lo = a < b ? a : b, hi = a < b ? b : a;
            int found = -1;
            for (int k = 0; k < nc; ++k) // linear search is fine for the few hundred crossings
                if (edgeA[k] == lo && edgeB[k] == hi) found = k;
            if (found < 0) {
                found = nc++;
                edgeA[found] = lo;
                edgeB[found] = hi;
                link[2 * found] = link[2 * found + 1] = -1;
                icReal s = (level - u[a]) / (u[b] - u[a]);
                icVec3_Store(pt, found,
                             icVec3_MulAdd(icVec3_Load(m->positions, a), s,
                                           icVec3_Sub(icVec3_Load(m->positions, b),
                                                      icVec3_Load(m->positions, a))));
            }
            if (n < 2) ids[n++] = found;
        }
        if (n == 2) {
            for (int q = 0; q < 2; ++q) {
                int me = ids[q], other = ids[1 - q];
                if (link[2 * me] < 0)
                    link[2 * me] = other;
                else if (link[2 * me + 1] < 0)
                    link[2 * me + 1] = other;
            }
        }
    }
    // Walk the loops; keep the longest.
    int bestStart = -1, bestCount = 0;
    icReal bestLength = -1;
    unsigned char *seen = result == IC_OK ? IC_ALLOC_ZERO(unsigned char, (size_t)nc + 1) : NULL;
    if (result == IC_OK && !seen) result = IC_ERR_OUT_OF_MEMORY;
    for (int s = 0; s < nc && result == IC_OK; ++s) {
        if (seen[s]) continue;
        int prev = -1, cur = s, count = 0;
        icReal len = 0;
        while (cur >= 0 && !seen[cur]) {
            seen[cur] = 1;
            ++count;
            int next = link[2 * cur] != prev ? link[2 * cur] : link[2 * cur + 1];
            if (next >= 0) len += icVec3_Distance(icVec3_Load(pt, cur), icVec3_Load(pt, next));
            prev = cur;
            cur = next;
        }
        if (len > bestLength) bestLength = len, bestStart = s, bestCount = count;
    }
    if (result == IC_OK && bestCount < 3) result = IC_ERR_EMPTY;
    if (result == IC_OK) {
        out->count = bestCount;
        out->poly = IC_ALLOC(icReal, 2 * (size_t)bestCount);
        icReal *loop = IC_ALLOC(icReal, 3 * (size_t)bestCount);
        if (!out->poly || !loop) result = IC_ERR_OUT_OF_MEMORY;
        int prev = -1, cur = bestStart;
        icVec3 c = icVec3_Make(0, 0, 0);
        for (int k = 0; k < bestCount && result == IC_OK; ++k) {
            icVec3_Store(loop, k, icVec3_Load(pt, cur));
            c = icVec3_Add(c, icVec3_Load(pt, cur));
            int next = link[2 * cur] != prev ? link[2 * cur] : link[2 * cur + 1];
            prev = cur;
            cur = next;
        }
        if (result == IC_OK) {
            c = icVec3_Scale(1.0 / bestCount, c);
            icMat3 cov = icMat3_Zero();
            for (int k = 0; k < bestCount; ++k) {
                icVec3 d = icVec3_Sub(icVec3_Load(loop, k), c);
                cov = icMat3_Add(cov, icMat3_Outer(d, d));
            }
            icVec3 values;
            icMat3 vectors;
            icMat3_SymmetricEigen(cov, &values, &vectors);
            out->centre = c;
            out->e1 = vectors.col[2];
            out->e2 = icVec3_Cross(vectors.col[0], vectors.col[2]);
            icReal area = 0;
            for (int k = 0; k < bestCount; ++k) {
                icVec3 d = icVec3_Sub(icVec3_Load(loop, k), c);
                out->poly[2 * k] = icVec3_Dot(d, out->e1);
                out->poly[2 * k + 1] = icVec3_Dot(d, out->e2);
            }
            for (int k = 0; k < bestCount; ++k) {
                int j = (k + 1) % bestCount;
                area += out->poly[2 * k] * out->poly[2 * j + 1] -
                        out->poly[2 * j] * out->poly[2 * k + 1];
            }
            out->area = 0.5 * fabs(area);
        }
        icFree(loop);
    }
    icFree(edgeA);
    icFree(edgeB);
    icFree(link);
    icFree(tri2);
    icFree(pt);
    icFree(seen);
    return result;
}

// Lloyd iterations of a CVT restricted to the polygon (Angles et al. 2019, sec. 8.1), on a grid
// of samples.
static void lloyd(icSlice *s, int n, int iterations) {
    icReal lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < s->count; ++k)
        for (int d = 0; d < 2; ++d) {
            if (s->poly[2 * k + d] < lo[d]) lo[d] = s->poly[2 * k + d];
            if (s->poly[2 * k + d] > hi[d]) hi[d] = s->poly[2 * k + d];
        }
    enum { G = 48 };
    for (int it = 0; it < iterations; ++it) {
        icReal sum[IC_ROD_BUNDLE_MAX][2] = {{0}};
        int cnt[IC_ROD_BUNDLE_MAX] = {0};
        for (int a = 0; a < G; ++a)
            for (int b = 0; b < G; ++b) {
                icReal x = lo[0] + (hi[0] - lo[0]) * (a + 0.5) / G;
                icReal y = lo[1] + (hi[1] - lo[1]) * (b + 0.5) / G;
                if (!insidePolygon(s->poly, s->count, x, y)) continue;
                int best = 0;
                icReal bd = INFINITY;
                for (int k = 0; k < n; ++k) {
                    icReal dx = x - s->sites[2 * k], dy = y - s->sites[2 * k + 1];
                    if (dx * dx + dy * dy < bd) bd = dx * dx + dy * dy, best = k;
                }
                sum[best][0] += x;
                sum[best][1] += y;
                ++cnt[best];
            }
        for (int k = 0; k < n; ++k)
            if (cnt[k] > 0) {
                s->sites[2 * k] = sum[k][0] / cnt[k];
                s->sites[2 * k + 1] = sum[k][1] / cnt[k];
            }
    }
}

// Total rod length for the assignment perm (slice j, rod k -> site perm[j n + k]).
static icReal rodLength(const icSlice *s, int m, int n, const int *perm) {
    icReal len = 0;
    for (int j = 0; j + 1 < m; ++j)
        for (int k = 0; k < n; ++k) {
            int a = perm[j * n + k], b = perm[(j + 1) * n + k];
            len += icVec3_Distance(
                planePoint(&s[j], s[j].sites[2 * a], s[j].sites[2 * a + 1]),
                planePoint(&s[j + 1], s[j + 1].sites[2 * b], s[j + 1].sites[2 * b + 1]));
        }
    return len;
}

// Combing (Angles et al. 2019, sec. 8.1): slice j+1's sites go to slice j's rods by minimum
// total distance.
static bool comb(const icSlice *s, int m, int n, int *perm) {
    bool changed = false;
    icReal cost[IC_ROD_BUNDLE_MAX * IC_ROD_BUNDLE_MAX];
    int assign[IC_ROD_BUNDLE_MAX];
    for (int j = 0; j + 1 < m; ++j) {
        for (int k = 0; k < n; ++k) {
            int a = perm[j * n + k];
            icVec3 p = planePoint(&s[j], s[j].sites[2 * a], s[j].sites[2 * a + 1]);
            for (int b = 0; b < n; ++b)
                cost[k * n + b] = icVec3_Distance(
                    p, planePoint(&s[j + 1], s[j + 1].sites[2 * b], s[j + 1].sites[2 * b + 1]));
        }
        icRod_Hungarian(n, cost, assign);
        for (int k = 0; k < n; ++k) {
            if (perm[(j + 1) * n + k] != assign[k]) changed = true;
            perm[(j + 1) * n + k] = assign[k];
        }
    }
    return changed;
}

// Length penalty: each site moves towards the mean of its rod's sites in the adjacent
// slices (projected into its plane) by mu.
static void penalise(icSlice *s, int m, int n, const int *perm, icReal mu) {
    icReal *next = IC_ALLOC(icReal, 2 * (size_t)m * n);
    if (!next) return;
    for (int j = 0; j < m; ++j)
        for (int k = 0; k < n; ++k) {
            int a = perm[j * n + k];
            icVec3 mean = icVec3_Make(0, 0, 0);
            int count = 0;
            for (int d = -1; d <= 1; d += 2) {
                int jj = j + d;
                if (jj < 0 || jj >= m) continue;
                int b = perm[jj * n + k];
                mean = icVec3_Add(mean,
                                  planePoint(&s[jj], s[jj].sites[2 * b], s[jj].sites[2 * b + 1]));
                ++count;
            }
            icReal x = s[j].sites[2 * a], y = s[j].sites[2 * a + 1];
            if (count > 0) {
                icVec3 d = icVec3_Sub(icVec3_Scale(1.0 / count, mean), s[j].centre);
                x = (1 - mu) * x + mu * icVec3_Dot(d, s[j].e1);
                y = (1 - mu) * y + mu * icVec3_Dot(d, s[j].e2);
            }
            next[2 * (j * n + a)] = x;
            next[2 * (j * n + a) + 1] = y;
        }
    for (int j = 0; j < m; ++j)
        for (int a = 0; a < n; ++a) {
            s[j].sites[2 * a] = next[2 * (j * n + a)];
            s[j].sites[2 * a + 1] = next[2 * (j * n + a) + 1];
        }
    icFree(next);
}

icResult icViperize(const icViperizeDef *d, icViperizeResult *out, icDiagnostic *diag) {
    memset(out, 0, sizeof *out);
    const char *f = "viperize";
    if (!d || !d->mesh || !d->source || !d->sink || d->mesh->vertexCount < 4)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "needs a mesh with source and sink flags");
    int n = d->rodCount, m = d->sliceCount, nv = d->mesh->vertexCount;
    if (n < 1 || n > IC_ROD_BUNDLE_MAX || m < 2 || m > 1000)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "1..%d rods and 2..1000 slices",
                          IC_ROD_BUNDLE_MAX);
    if (!(d->endLevel > 0 && d->endLevel < 0.5) ||
        !(d->lengthPenalty >= 0 && d->lengthPenalty <= 1) || d->lloydIterations < 0 ||
        d->alternations < 1 || !(d->radiusScale > 0))
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0,
                          "endLevel in (0, 0.5), lengthPenalty in [0, 1], radiusScale > 0");
    int sources = 0, sinks = 0;
    for (int i = 0; i < nv; ++i) {
        sources += d->source[i] != 0;
        sinks += d->sink[i] != 0;
        if (d->source[i] && d->sink[i])
            return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "vertex %d is both source and sink", i);
    }
    if (!sources || !sinks)
        return icDiag_Set(diag, IC_ERR_BAD_VALUE, f, 0, "mark at least one source and one sink");

    // Step 2: harmonic u on the surface, 0 on sources, 1 on sinks.
    icRodLaplacian L;
    icResult e = icRodLaplacian_Build(&L, nv, d->mesh->positions, d->mesh->triangleCount,
                                      d->mesh->triangles);
    if (e != IC_OK) return icDiag_Set(diag, e, f, 0, "out of memory");
    unsigned char *fixed = IC_ALLOC(unsigned char, (size_t)nv);
    out->field = IC_ALLOC(icReal, (size_t)nv);
    if (!fixed || !out->field) {
        icFree(fixed);
        icRodLaplacian_Destroy(&L);
        icViperizeResult_Destroy(out);
        return icDiag_Set(diag, IC_ERR_OUT_OF_MEMORY, f, 0, "out of memory");
    }
    for (int i = 0; i < nv; ++i) {
        fixed[i] = d->source[i] || d->sink[i];
        out->field[i] = d->sink[i] ? 1 : (d->source[i] ? 0 : 0.5);
    }
    icRodLaplacian_Solve(&L, 0, fixed, NULL, out->field, 1e-12, 20 * nv + 100);
    icFree(fixed);
    icRodLaplacian_Destroy(&L);

    // Step 3: slices.
    icSlice *s = IC_ALLOC_ZERO(icSlice, (size_t)m);
    int *perm = IC_ALLOC(int, (size_t)m *n);
    if (!s || !perm) e = IC_ERR_OUT_OF_MEMORY;
    for (int j = 0; j < m && e == IC_OK; ++j) {
        icReal level = d->endLevel + (1 - 2 * d->endLevel) * j / (m - 1);
        e = extractSlice(d->mesh, out->field, level, &s[j]);
        if (e == IC_ERR_EMPTY) {
            icDiag_Set(diag, e, f, 0, "the level set u = %g is empty", level);
            break;
        }
        if (e != IC_OK) break;
        s[j].sites = IC_ALLOC(icReal, 2 * (size_t)n);
        if (!s[j].sites) {
            e = IC_ERR_OUT_OF_MEMORY;
            break;
        }
        // Start on a ring turned by a golden angle per slice: the per-slice order is arbitrary,
        // as after an independent CVT per slice, and combing has to sort it out.
        icReal req = sqrt(s[j].area / IC_PI);
        for (int k = 0; k < n; ++k) {
            icReal a = 2 * IC_PI * k / n + 2.39996 * j;
            icReal rad = n == 1 ? 0 : 0.5 * req;
            s[j].sites[2 * k] = rad * cos(a);
            s[j].sites[2 * k + 1] = rad * sin(a);
        }
        for (int k = 0; k < n; ++k) perm[j * n + k] = k;
    }
    if (e == IC_OK) {
        // Steps 4-5 alternated until the assignment no longer changes.
        int round = 0;
        for (; round < d->alternations; ++round) {
            for (int j = 0; j < m; ++j) lloyd(&s[j], n, d->lloydIterations);
            if (round == 0) out->lengthUncombed = rodLength(s, m, n, perm);
            bool changed = comb(s, m, n, perm);
            if (d->lengthPenalty > 0) penalise(s, m, n, perm, d->lengthPenalty);
            if (!changed && round > 0) {
                ++round;
                break;
            }
        }
        // The last penalty moved the sites: comb once more so the lengths are consistent.
        comb(s, m, n, perm);
        out->alternationsDone = round;
        out->lengthCombed = rodLength(s, m, n, perm);
        out->rodCount = n;
        out->sliceCount = m;
        out->positions = IC_ALLOC(icReal, 3 * (size_t)n * m);
        out->radii = IC_ALLOC(icReal, (size_t)m);
        if (!out->positions || !out->radii) e = IC_ERR_OUT_OF_MEMORY;
        for (int j = 0; j < m && e == IC_OK; ++j) {
            // Our choice (the paper asks for equal radii per slice): equal radii whose discs
            // add up to the slice area
            out->radii[j] = d->radiusScale * sqrt(s[j].area / (n * IC_PI));
            for (int k = 0; k < n; ++k) {
                int a = perm[j * n + k];
                icVec3_Store(out->positions, k * m + j,
                             planePoint(&s[j], s[j].sites[2 * a], s[j].sites[2 * a + 1]));
            }
        }
    }
    for (int j = 0; s && j < m; ++j) {
        icFree(s[j].poly);
        icFree(s[j].sites);
    }
    icFree(s);
    icFree(perm);
    if (e != IC_OK) {
        icViperizeResult_Destroy(out);
        if (diag && diag->code == IC_OK) icDiag_Set(diag, e, f, 0, "viperization failed");
        return e;
    }
    return IC_OK;
}
