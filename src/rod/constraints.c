// SPDX-License-Identifier: MIT
// Rod constraint kernels (Angles et al. 2019, secs. 5 and 7.5): generalised XPBD over position,
// radius and quaternion blocks (eq. 28); each accumulates its corrections for the Jacobi
// average (sec. 7).
#include "rod/rod_internal.h"

#include <math.h>

static const icQuat s_ebarZ = {0, 0, 0, -1}; // pure quaternion of -e_z

// Stretch-shear (Angles et al. 2019, eq. 11; Kugelstadt & Schömer 2016):
// C = (x_b - x_a)/lbar - d3(q_e).
void icRod_ProjectStretch(const icRodWorld *w, const icRodStretch *c, icReal h2, icReal *lambda,
                          icRodWork *k) {
    const icRodModel *m = &w->model;
    const icRodState *s = &w->state;
    int e = c->seg, a = m->seg[2 * e], b = m->seg[2 * e + 1];
    icReal l = m->restLength[e], wa = m->w[a], wb = m->w[b], wq = m->wq[e];
    icQuat q = icQuat_Load(s->q, e);
    icVec3 C =
        icVec3_Sub(icVec3_Scale(1.0 / l, icVec3_Sub(icVec3_Load(s->x, b), icVec3_Load(s->x, a))),
                   icQuat_D3(q));
    icReal at = c->alpha / h2;
    icReal D = (wa + wb) / (l * l) + 4 * wq;
    if (!(D + at > 0)) return;
    icVec3 dl = icVec3_Make((-C.x - at * lambda[0]) / (D + at), (-C.y - at * lambda[1]) / (D + at),
                            (-C.z - at * lambda[2]) / (D + at));
    lambda[0] += dl.x;
    lambda[1] += dl.y;
    lambda[2] += dl.z;
    if (wa > 0) icRodAcc_X(k, a, icVec3_Scale(-wa / l, dl));
    if (wb > 0) icRodAcc_X(k, b, icVec3_Scale(wb / l, dl));
    // grad_q (d3 . mu) = 2 (0, mu) (x) q (x) ebar_z
    if (wq > 0)
        icRodAcc_Q(k, e,
                   icQuat_Scale(-2 * wq, icQuat_Mul(icQuat_Mul(icQuat_Pure(dl), q), s_ebarZ)));
}

// Bend-twist (Angles et al. 2019, eqs. 14, 40): C = Im(q_e* (x) q_f - Obar) in the material
// frame of e; bending (components 1, 2) and twist (3) have their own compliance. With
// scaledBending the Darboux vector is weighted by the radius at the shared vertex (a 3x3
// solve).
void icRod_ProjectBend(const icRodWorld *w, const icRodBend *c, icReal h2, icReal *lambda,
                       icRodWork *k) {
    const icRodModel *m = &w->model;
    const icRodState *s = &w->state;
    icQuat qe = icQuat_Load(s->q, c->e), qf = icQuat_Load(s->q, c->f);
    icQuat om = icQuat_Mul(icQuat_Conj(qe), qf);
    icQuat rest = c->rest;
    // q and -q are one rotation: compare with the nearer rest quaternion.
    icQuat dm = icQuat_Sub(om, rest), dp = icQuat_Add(om, rest);
    if (icQuat_Dot(dm, dm) > icQuat_Dot(dp, dp)) rest = icQuat_Scale(-1, rest);
    icReal wqe = m->wq[c->e], wqf = m->wq[c->f];
    icReal at[3] = {c->alphaBend / h2, c->alphaBend / h2, c->alphaTwist / h2};
    icVec3 dl;
    icReal scale = 1;
    icVec3 mIm = icQuat_Im(om);
    icReal wrv = 0;
    if (w->def.scaledBending) {
        // C = r_v Im(Om) - rbar_v Im(Obar); A = (r_v^2 (wq_e + wq_f) + at) I + wr_v m m^T.
        int v = c->v;
        icReal rv = s->r[v];
        wrv = m->wr[v];
        scale = rv;
        icVec3 C =
            icVec3_Sub(icVec3_Scale(rv, mIm), icVec3_Scale(m->restRadius[v], icQuat_Im(rest)));
        icReal base = rv * rv * (wqe + wqf);
        icMat3 A = icMat3_Add(icMat3_Diagonal(base + at[0], base + at[1], base + at[2]),
                              icMat3_Scale(wrv, icMat3_Outer(mIm, mIm)));
        icVec3 rhs = icVec3_Make(-C.x - at[0] * lambda[0], -C.y - at[1] * lambda[1],
                                 -C.z - at[2] * lambda[2]);
        bool ok;
        icMat3 Ai = icMat3_Inverse(A, &ok);
        if (!ok) return;
        dl = icMat3_MulVec(Ai, rhs);
        if (wrv > 0) icRodAcc_R(k, v, wrv * icVec3_Dot(mIm, dl));
    } else {
        icVec3 C = icQuat_Im(icQuat_Sub(om, rest));
        icReal D = wqe + wqf; // both maps q -> q (x) (0, mu) are orthonormal: exact
        icReal Cv[3] = {C.x, C.y, C.z}, d[3];
        for (int i = 0; i < 3; ++i)
            d[i] = D + at[i] > 0 ? (-Cv[i] - at[i] * lambda[i]) / (D + at[i]) : 0;
        dl = icVec3_Make(d[0], d[1], d[2]);
    }
    lambda[0] += dl.x;
    lambda[1] += dl.y;
    lambda[2] += dl.z;
    icQuat p = icQuat_Pure(dl);
    if (wqe > 0) icRodAcc_Q(k, c->e, icQuat_Scale(-wqe * scale, icQuat_Mul(qf, p)));
    if (wqf > 0) icRodAcc_Q(k, c->f, icQuat_Scale(wqf * scale, icQuat_Mul(qe, p)));
}

// Adds a radius correction; the reference code counts it as a position correction.
static void accRadiusQuirk(const icRodWorld *w, icRodWork *k, int v, icReal d) {
    if (w->def.referenceQuirks) {
        k->dr[v] += d;
        ++k->nx[v];
    } else {
        icRodAcc_R(k, v, d);
    }
}

// Cross-section stretch (Angles et al. 2019, eq. 12): C = r/rbar - 1.
void icRod_ProjectRadius(const icRodWorld *w, const icRodRadius *c, icReal h2, icReal *lambda,
                         icRodWork *k) {
    const icRodModel *m = &w->model;
    int v = c->v;
    icReal wr = m->wr[v], rb = m->restRadius[v];
    if (!(wr > 0)) return;
    icReal C = w->state.r[v] / rb - 1;
    icReal at = c->alpha / h2;
    icReal dl = (-C - at * lambda[0]) / (wr / (rb * rb) + at);
    lambda[0] += dl;
    accRadiusQuirk(w, k, v, wr / rb * dl);
}

// First-order scale smoothness (Angles et al. 2019, eq. 13):
// C = ((r_b - rbar_b) - (r_a - rbar_a)) / lbar.
void icRod_ProjectSmooth(const icRodWorld *w, const icRodSmooth *c, icReal h2, icReal *lambda,
                         icRodWork *k) {
    const icRodModel *m = &w->model;
    const icReal *r = w->state.r;
    int e = c->seg, a = m->seg[2 * e], b = m->seg[2 * e + 1];
    icReal l = m->restLength0[e], wa = m->wr[a], wb = m->wr[b];
    icReal C = ((r[b] - m->restRadius[b]) - (r[a] - m->restRadius[a])) / l;
    icReal at = c->alpha / h2, D = (wa + wb) / (l * l);
    if (!(D + at > 0)) return;
    icReal dl = (-C - at * lambda[0]) / (D + at);
    lambda[0] += dl;
    if (wa > 0) icRodAcc_R(k, a, -wa / l * dl);
    if (wb > 0) icRodAcc_R(k, b, wb / l * dl);
}

// Second-order scale smoothness (Angles et al. 2019, eq. 15): vertex i alone towards the
// minimiser of the bilaplacian energy of (r - rbar) with its neighbours frozen.
void icRod_ProjectBilap(const icRodWorld *w, const icRodBilap *c, icReal h2, icReal *lambda,
                        icRodWork *k) {
    const icRodModel *m = &w->model;
    const icReal *r = w->state.r;
    int v = c->v;
    icReal cii = 0, sum = 0;
    for (int j = 0; j < c->count; ++j) {
        int i = c->idx[j];
        if (i == v)
            cii = c->coef[j];
        else
            sum += c->coef[j] * (r[i] - m->restRadius[i]);
    }
    if (cii == 0) return;
    icReal target = m->restRadius[v] - sum / cii;
    icReal wr = w->def.referenceQuirks ? m->w[v] : m->wr[v];
    if (!(m->wr[v] > 0)) return;
    icReal C = r[v] - target, at = c->alpha / h2;
    icReal dl = (-C - at * lambda[0]) / (wr + at);
    lambda[0] += dl;
    icRodAcc_R(k, v, wr * dl);
}

// Volume (Angles et al. 2019, sec. 5): measure M (midpoint cylinder, the reference code's
// form t = unit edge) or P (tapered segment), C = Q / Qbar - 1.
void icRod_ProjectVolume(const icRodWorld *w, const icRodVolumeC *c, icReal h2, icReal *lambda,
                         icRodWork *k) {
    const icRodModel *m = &w->model;
    const icRodState *s = &w->state;
    int e = c->seg, a = m->seg[2 * e], b = m->seg[2 * e + 1];
    icVec3 dx = icVec3_Sub(icVec3_Load(s->x, b), icVec3_Load(s->x, a));
    icReal d = icVec3_Length(dx);
    if (!(d > 1e-12)) return;
    icVec3 t = icVec3_Scale(1.0 / d, dx); // from a to b
    icReal ra = s->r[a], rb = s->r[b];
    icReal C, gx, gra, grb; // dC/dx_b = gx t = -dC/dx_a
    if (c->kind == IC_ROD_VOLUME_MIDPOINT) {
        icReal rm = 0.5 * (ra + rb);
        C = rm * rm * d / c->rest - 1;
        gx = rm * rm / c->rest;
        gra = grb = rm * d / c->rest;
    } else {
        if (!(fabs(rb - ra) < d)) return;
        icReal Vd, Vra, Vrb;
        icReal V = icRod_SegmentVolume(ra, rb, d, &Vd, &Vra, &Vrb);
        C = V / c->rest - 1;
        gx = Vd / c->rest;
        gra = Vra / c->rest;
        grb = Vrb / c->rest;
    }
    icReal wa = m->w[a], wb = m->w[b], wra = m->wr[a], wrb = m->wr[b];
    icReal D = (wa + wb) * gx * gx + wra * gra * gra + wrb * grb * grb;
    icReal at = c->alpha / h2;
    if (!(D + at > 0)) return;
    icReal dl = (-C - at * lambda[0]) / (D + at);
    lambda[0] += dl;
    if (wa > 0) icRodAcc_X(k, a, icVec3_Scale(-wa * gx * dl, t));
    if (wb > 0) icRodAcc_X(k, b, icVec3_Scale(wb * gx * dl, t));
    if (wra > 0) icRodAcc_R(k, a, wra * gra * dl);
    if (wrb > 0) icRodAcc_R(k, b, wrb * grb * dl);
}

// The reference code's utility constraints: distance (XPBD), maximum distance (stiffness 1,
// only when too long) and sphere touch C = |x_a - x_b| - r_a - r_b with the radii in the
// gradient (stiffness 1).
void icRod_ProjectLink(const icRodWorld *w, const icRodLink *c, icReal h2, icReal *lambda,
                       icRodWork *k) {
    const icRodModel *m = &w->model;
    const icRodState *s = &w->state;
    int a = c->a, b = c->b;
    icVec3 d = icVec3_Sub(icVec3_Load(s->x, a), icVec3_Load(s->x, b));
    icReal len = icVec3_Length(d);
    if (!(len > 1e-12)) return;
    icVec3 n = icVec3_Scale(1.0 / len, d); // grad_{x_a} C
    icReal wa = m->w[a], wb = m->w[b], wra = 0, wrb = 0;
    icReal C, at = 0;
    if (c->kind == IC_ROD_LINK_TOUCH) {
        C = len - s->r[a] - s->r[b];
        bool viper = w->def.radiusModel == IC_ROD_RADIUS_VIPER;
        wra = viper ? m->wr[a] : 0;
        wrb = viper ? m->wr[b] : 0;
    } else {
        C = len - c->rest;
        if (c->kind == IC_ROD_LINK_MAX_DISTANCE && !(C > 0)) return;
        if (c->kind == IC_ROD_LINK_DISTANCE) at = c->alpha / h2;
    }
    icReal D = wa + wb + wra + wrb;
    if (!(D + at > 0)) return;
    icReal dl = (-C - at * lambda[0]) / (D + at);
    lambda[0] += dl;
    if (wa > 0) icRodAcc_X(k, a, icVec3_Scale(wa * dl, n));
    if (wb > 0) icRodAcc_X(k, b, icVec3_Scale(-wb * dl, n));
    if (wra > 0) icRodAcc_R(k, a, -wra * dl); // dC/dr = -1
    if (wrb > 0) icRodAcc_R(k, b, -wrb * dl);
}

// Violations as the kernels see them (same formulas), for convergence plots and tests.
icRodResiduals icRodWorld_GetResiduals(const icRodWorld *w) {
    const icRodModel *m = &w->model;
    const icRodState *s = &w->state;
    icRodResiduals out = {0, 0, 0, 0, 0, 0, 0};
    for (int c = 0; c < m->stretchCount; ++c) {
        int e = m->stretch[c].seg, a = m->seg[2 * e], b = m->seg[2 * e + 1];
        icVec3 C = icVec3_Sub(icVec3_Scale(1.0 / m->restLength[e],
                                           icVec3_Sub(icVec3_Load(s->x, b), icVec3_Load(s->x, a))),
                              icQuat_D3(icQuat_Load(s->q, e)));
        out.stretch += icVec3_LengthSquared(C);
    }
    for (int c = 0; c < m->bendCount; ++c) {
        const icRodBend *b = &m->bend[c];
        icQuat om = icQuat_Mul(icQuat_Conj(icQuat_Load(s->q, b->e)), icQuat_Load(s->q, b->f));
        icQuat dm = icQuat_Sub(om, b->rest), dp = icQuat_Add(om, b->rest);
        icQuat d = icQuat_Dot(dm, dm) > icQuat_Dot(dp, dp) ? dp : dm;
        out.bend += icVec3_LengthSquared(icQuat_Im(d));
    }
    for (int c = 0; c < m->radiusCount; ++c) {
        int v = m->radius[c].v;
        icReal C = s->r[v] / m->restRadius[v] - 1;
        out.radius += C * C;
    }
    for (int c = 0; c < m->smoothCount; ++c) {
        int e = m->smooth[c].seg, a = m->seg[2 * e], b = m->seg[2 * e + 1];
        icReal C =
            ((s->r[b] - m->restRadius[b]) - (s->r[a] - m->restRadius[a])) / m->restLength0[e];
        out.smoothing += C * C;
    }
    for (int c = 0; c < m->bilapCount; ++c) {
        const icRodBilap *b = &m->bilap[c];
        icReal g = 0;
        for (int j = 0; j < b->count; ++j)
            g += b->coef[j] * (s->r[b->idx[j]] - m->restRadius[b->idx[j]]);
        out.bilaplacian += g * g;
    }
    for (int c = 0; c < m->volumeCount; ++c) {
        const icRodVolumeC *v = &m->volume[c];
        int a = m->seg[2 * v->seg], b = m->seg[2 * v->seg + 1];
        icReal d = icVec3_Distance(icVec3_Load(s->x, a), icVec3_Load(s->x, b));
        icReal Q = v->kind == IC_ROD_VOLUME_MIDPOINT
                       ? icRod_MidpointVolume(s->r[a], s->r[b], d)
                       : icRod_SegmentVolume(s->r[a], s->r[b], d, NULL, NULL, NULL);
        icReal C = Q / v->rest - 1;
        out.volume += C * C;
    }
    for (int c = 0; c < m->linkCount; ++c) {
        const icRodLink *l = &m->links[c];
        icReal len = icVec3_Distance(icVec3_Load(s->x, l->a), icVec3_Load(s->x, l->b));
        icReal C = l->kind == IC_ROD_LINK_TOUCH ? len - s->r[l->a] - s->r[l->b] : len - l->rest;
        if (l->kind == IC_ROD_LINK_MAX_DISTANCE && C < 0) C = 0;
        out.links += C * C;
    }
    return out;
}
