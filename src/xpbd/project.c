// SPDX-License-Identifier: MIT
// The reference XPBD projection of one tet's deviatoric and hydrostatic constraints, and
// the coloured Gauss-Seidel sweep over all tets in double, tet by tet (Macklin & Müller 2021,
// eqs. 19-20 and Algorithm 1), for meshes too large for the packed sweep (xpbd/sweep.c), which
// is the fast form of both projections.
#include "xpbd/constraints.h"
#include "xpbd/xpbd.h"

// The four vertices of a tet with their per-axis inverse masses.
typedef struct icTetVerts {
    int index[4];
    icVec3 x[4], w[4];
} icTetVerts;

static inline icMat3 tetF(const icTetVerts *tv, icMat3 Q) {
    icMat3 Ds = icMat3_FromCols(icVec3_Sub(tv->x[0], tv->x[3]), icVec3_Sub(tv->x[1], tv->x[3]),
                                icVec3_Sub(tv->x[2], tv->x[3]));
    return icMat3_Mul(Ds, Q);
}

// sum_i g_i^T W_i g_i, with W_i the (diagonal, per-axis) inverse mass of vertex i.
static inline icReal weightedDot(const icTetVerts *tv, const icVec3 a[4], const icVec3 b[4]) {
    icReal s = 0;
    for (int i = 0; i < 4; ++i)
        s += tv->w[i].x * a[i].x * b[i].x + tv->w[i].y * a[i].y * b[i].y + tv->w[i].z * a[i].z * b[i].z;
    return s;
}

// grad C . (x - x_prev): the constraint's rate over the substep, for XPBD damping.
static inline icReal gradDotDisplacement(const icTetVerts *tv, const icVec3 g[4], const icReal *xPrev) {
    icReal s = 0;
    for (int i = 0; i < 4; ++i) s += icVec3_Dot(g[i], icVec3_Sub(tv->x[i], icVec3_Load(xPrev, tv->index[i])));
    return s;
}

static inline void applyCorrection(icTetVerts *tv, const icVec3 g[4], icReal dlambda) {
    for (int i = 0; i < 4; ++i) {
        tv->x[i].x += tv->w[i].x * g[i].x * dlambda;
        tv->x[i].y += tv->w[i].y * g[i].y * dlambda;
        tv->x[i].z += tv->w[i].z * g[i].z * dlambda;
    }
}

// One constraint, Macklin & Müller 2021, eq. 19 with the XPBD damping term (Macklin et al. 2016):
// dlambda = (-C - a~ lambda - gd grad C.(x - x_prev)) / ((1 + gd) sum w |grad C|^2 + a~),
// gd = alpha beta / h. Returns false when the denominator vanishes (nothing can move).
static bool projectOne(icTetVerts *tv, const icVec3 g[4], icReal C, icReal alphaTilde,
                       icReal gammaD, const icReal *xPrev, icReal *lambda) {
    icReal denominator = (1.0 + gammaD) * weightedDot(tv, g, g) + alphaTilde;
    if (!(denominator > IC_XPBD_MIN_DENOMINATOR)) return false;
    icReal rate = gammaD != 0 ? gammaD * gradDotDisplacement(tv, g, xPrev) : 0.0;
    icReal dlambda = (-C - alphaTilde * *lambda - rate) / denominator;
    applyCorrection(tv, g, dlambda);
    *lambda += dlambda;
    return true;
}

// Both constraints from one 2x2 solve at the same F: the linearisation of eq. 19 for the
// pair, with off-diagonal sum_i w_i grad C_D . grad C_H. Less order dependent than the
// sequential form, and exactly rest stable per tet (at F = I the two gradients are parallel).
static bool projectCoupled(icTetVerts *tv, icMat3 Q, icReal gamma, icReal aD, icReal aH,
                           icReal gdD, icReal gdH, const icReal *xPrev, icReal *lambdaD,
                           icReal *lambdaH) {
    icMat3 F = tetF(tv, Q);
    icVec3 gD[4], gH[4];
    icReal CD, CH;
    icTet_DeviatoricGradient(F, Q, &CD, gD);
    icTet_HydrostaticGradient(F, Q, gamma, &CH, gH);
    icReal add = weightedDot(tv, gD, gD), ahh = weightedDot(tv, gH, gH), adh = weightedDot(tv, gD, gH);
    icReal a11 = (1 + gdD) * add + aD, a12 = (1 + gdD) * adh;
    icReal a21 = (1 + gdH) * adh, a22 = (1 + gdH) * ahh + aH;
    icReal b1 = -CD - aD * *lambdaD - (gdD != 0 ? gdD * gradDotDisplacement(tv, gD, xPrev) : 0);
    icReal b2 = -CH - aH * *lambdaH - (gdH != 0 ? gdH * gradDotDisplacement(tv, gH, xPrev) : 0);
    icReal det = a11 * a22 - a12 * a21;
    // Near-singular pairs (e.g. both gradients parallel and both hard) fall back.
    if (!(fabs(det) > 1e-12 * fabs(a11 * a22) + IC_XPBD_MIN_DENOMINATOR)) return false;
    icReal dD = (b1 * a22 - a12 * b2) / det;
    icReal dH = (a11 * b2 - a21 * b1) / det;
    for (int i = 0; i < 4; ++i) {
        icVec3 d = icVec3_Add(icVec3_Scale(dD, gD[i]), icVec3_Scale(dH, gH[i]));
        tv->x[i].x += tv->w[i].x * d.x;
        tv->x[i].y += tv->w[i].y * d.y;
        tv->x[i].z += tv->w[i].z * d.z;
    }
    *lambdaD += dD;
    *lambdaH += dH;
    return true;
}

// Projects tet t: deviatoric then hydrostatic with F recomputed in between (Macklin & Müller
// 2021, sec. 4), or the coupled pair. Returns 1 when the tet could not be projected.
static int projectTet(const icModel *m, icState *s, int t, icReal h, icProjection mode) {
    icTetVerts tv;
    const int *idx = m->tets + 4 * t;
    for (int i = 0; i < 4; ++i) {
        tv.index[i] = idx[i];
        tv.x[i] = icVec3_Load(s->x, idx[i]);
        tv.w[i] = icVec3_Load(m->invMass, idx[i]);
    }
    icMat3 Q = m->invRest[t];
    icReal invH2 = 1.0 / (h * h);
    icReal aD = m->alphaD[t] * invH2, aH = m->alphaH[t] * invH2;
    // Damping: XPBD (Macklin et al. 2016, eq. 26) has gamma = a~ b~ / h with b~ = h^2 beta,
    // so gamma = alpha beta / h for a Rayleigh damping beta K (seconds).
    icReal beta = m->damping[t];
    icReal gdD = beta > 0 ? m->alphaD[t] * beta / h : 0.0;
    icReal gdH = beta > 0 ? m->alphaH[t] * beta / h : 0.0;

    bool done = false;
    if (mode == IC_PROJECTION_COUPLED)
        done = projectCoupled(&tv, Q, m->gamma[t], aD, aH, gdD, gdH, s->xPrev, &s->lambdaD[t],
                              &s->lambdaH[t]);
    if (!done) {
        icVec3 g[4];
        icReal C;
        icTet_DeviatoricGradient(tetF(&tv, Q), Q, &C, g);
        bool movedD = projectOne(&tv, g, C, aD, gdD, s->xPrev, &s->lambdaD[t]);
        icTet_HydrostaticGradient(tetF(&tv, Q), Q, m->gamma[t], &C, g);
        bool movedH = projectOne(&tv, g, C, aH, gdH, s->xPrev, &s->lambdaH[t]);
        done = movedD || movedH;
    }
    for (int i = 0; i < 4; ++i) icVec3_Store(s->x, idx[i], tv.x[i]);
    return done ? 0 : 1;
}

int icXpbd_SweepReference(const icModel *model, icState *state, icReal h) {
    int skipped = 0;
    const icColouring *c = &model->colouring;
    icProjection mode = model->def.projection;
    // Colour by colour: tets of one colour share no vertex, so this order is the one a
    // parallel sweep reproduces exactly (Macklin & Müller 2021, sec. 5.3).
    for (int k = 0; k < c->colourCount; ++k)
        for (int i = c->colourStart[k]; i < c->colourStart[k + 1]; ++i)
            skipped += projectTet(model, state, c->order[i], h, mode);
    return skipped;
}
