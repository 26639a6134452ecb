// SPDX-License-Identifier: MIT
// Pill geometry (Angles et al. 2019, secs. 7.1-7.2 and App. D): closest point of a point on a
// pill, the deepest interpenetration of two pills by dichotomous search, bounding spheres, and
// the tapered segment volume P.
#include "rod/rod_internal.h"

#include <math.h>

// Pill B's constants for repeated point queries (the same arithmetic as
// icPill_PointDistance, so both give identical results).
typedef struct icPillFrame {
    icVec3 xa, ab, nu;
    icReal ra, dr, L, tanb;
    bool ball; ///< one end ball contains the other
    icVec3 xb;
    icReal rb;
} icPillFrame;

static icPillFrame pillFrame(icVec3 xa, icReal ra, icVec3 xb, icReal rb) {
    icPillFrame f;
    memset(&f, 0, sizeof f);
    f.xa = xa, f.xb = xb, f.ra = ra, f.rb = rb;
    f.ab = icVec3_Sub(xb, xa);
    f.L = icVec3_Length(f.ab);
    f.dr = rb - ra;
    f.ball = !(f.L > fabs(f.dr));
    if (!f.ball) {
        f.nu = icVec3_Scale(1.0 / f.L, f.ab);
        icReal sinb = f.dr / f.L;
        f.tanb = sinb / sqrt(1 - sinb * sinb);
    }
    return f;
}

static icReal frameDistance(const icPillFrame *f, icVec3 p, icReal *t) {
    if (f->ball) {
        icReal da = icVec3_Distance(p, f->xa) - f->ra, db = icVec3_Distance(p, f->xb) - f->rb;
        if (t) *t = da <= db ? 0 : 1;
        return da <= db ? da : db;
    }
    icVec3 ap = icVec3_Sub(p, f->xa);
    icReal a = icVec3_Dot(f->nu, ap);
    icReal hp = icVec3_Length(icVec3_MulAdd(ap, -a, f->nu));
    icReal s = (a + hp * f->tanb) / f->L;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    if (t) *t = s;
    icVec3 c = icVec3_MulAdd(f->xa, s, f->ab);
    return icVec3_Distance(p, c) - (f->ra + s * f->dr);
}

// f(u) = dist(c_A(u), pill B) - rho_A(u) (Angles et al. 2019, eq. 30); convex because the gap
// g(u, v) of eq. 29 is jointly convex.
static icReal gapAt(icReal u, icVec3 a0, icReal ra0, icVec3 a1, icReal ra1, const icPillFrame *b,
                    icReal *v) {
    icVec3 c = icVec3_Add(a0, icVec3_Scale(u, icVec3_Sub(a1, a0)));
    return frameDistance(b, c, v) - (ra0 + u * (ra1 - ra0));
}

// Angles et al. 2019, App. D (eq. 83): the distance to the ball at t is convex in t with its
// stationary point at tL = a + hp tan(beta), so clamping that to [0, 1] is exact. When one ball
// contains the other (or the pill is a ball), the nearer ball surface.
icReal icPill_PointDistance(icVec3 p, icVec3 xa, icReal ra, icVec3 xb, icReal rb, icReal *t) {
    icPillFrame f = pillFrame(xa, ra, xb, rb);
    return frameDistance(&f, p, t);
}

// Dichotomous search (Angles et al. 2019, sec. 7.2; the reference code's bracket update,
// eps = 1e-6). The minimiser of the convex f stays in [lo, hi]; with a finite cutoff the
// search also stops as soon as f is proved >= cutoff there: the secant through m -+ eps bounds
// a convex f from below outside [m - eps, m + eps], and inside it
// f >= min(f(m -+ eps)) - 2 eps Lip(f).
static icReal pillSearch(icVec3 a0, icReal ra0, icVec3 a1, icReal ra1, icVec3 b0, icReal rb0,
                         icVec3 b1, icReal rb1, int iterations, icReal cutoff, icReal *u,
                         icReal *v) {
    const icReal eps = 1e-6;
    icReal lo = 0, hi = 1, dummy;
    icPillFrame pb = pillFrame(b0, rb0, b1, rb1);
    icReal lip = icVec3_Length(icVec3_Sub(a1, a0)) + fabs(ra1 - ra0);
    for (int i = 0; i < iterations; ++i) {
        icReal m = 0.5 * (lo + hi);
        icReal fl = gapAt(m - eps, a0, ra0, a1, ra1, &pb, &dummy);
        icReal fh = gapAt(m + eps, a0, ra0, a1, ra1, &pb, &dummy);
        if (cutoff < INFINITY) {
            icReal s = (fh - fl) / (2 * eps);
            icReal right = fh + (s < 0 ? s * (hi - (m + eps)) : 0);
            icReal left = fl + (s > 0 ? s * (lo - (m - eps)) : 0);
            icReal inside = (fl < fh ? fl : fh) - 2 * eps * lip - 1e-12;
            icReal bound = right < left ? right : left;
            bound = bound < inside ? bound : inside;
            if (bound >= cutoff) {
                if (u) *u = m;
                if (v) *v = 0;
                return bound;
            }
        }
        if (fl == fh) {
            lo = m - eps;
            hi = m + eps;
        } else if (fl > fh) {
            lo = m - eps;
        } else {
            hi = m + eps;
        }
    }
    icReal us = 0.5 * (lo + hi);
    us = us < 0 ? 0 : (us > 1 ? 1 : us);
    icReal vs;
    icReal g = gapAt(us, a0, ra0, a1, ra1, &pb, &vs);
    if (u) *u = us;
    if (v) *v = vs;
    return g;
}

icReal icPill_PillDistance(icVec3 a0, icReal ra0, icVec3 a1, icReal ra1, icVec3 b0, icReal rb0,
                           icVec3 b1, icReal rb1, int iterations, icReal *u, icReal *v) {
    return pillSearch(a0, ra0, a1, ra1, b0, rb0, b1, rb1, iterations, INFINITY, u, v);
}

icReal icPill_PillDistanceCut(icVec3 a0, icReal ra0, icVec3 a1, icReal ra1, icVec3 b0, icReal rb0,
                              icVec3 b1, icReal rb1, int iterations, icReal cutoff, icReal *u,
                              icReal *v) {
    return pillSearch(a0, ra0, a1, ra1, b0, rb0, b1, rb1, iterations, cutoff, u, v);
}

// Angles et al. 2019, sec. 7.1: the smallest sphere holding both end balls; when one ball
// holds the other that ball is the bound (the reference formula is then not conservative).
void icPill_BoundingSphere(icVec3 xa, icReal ra, icVec3 xb, icReal rb, icReal margin,
                           icVec3 *centre, icReal *radius) {
    icVec3 ab = icVec3_Sub(xb, xa);
    icReal L = icVec3_Length(ab);
    if (!(L > fabs(rb - ra))) {
        *centre = ra >= rb ? xa : xb;
        *radius = (ra >= rb ? ra : rb) + 0.5 * margin;
        return;
    }
    icVec3 mid = icVec3_Scale(0.5, icVec3_Add(xa, xb));
    *centre = icVec3_MulAdd(mid, 0.5 * (rb - ra) / L, ab);
    *radius = 0.5 * (L + ra + rb) + 0.5 * margin;
}

// Volume P: tapered pill segment minus half of each end ball, and its partials (checked
// against finite differences in tests/rod).
icReal icRod_SegmentVolume(icReal ra, icReal rb, icReal d, icReal *dVdd, icReal *dVdra,
                           icReal *dVdrb) {
    if (!(d > 0)) {
        if (dVdd) *dVdd = *dVdra = *dVdrb = 0;
        return 0;
    }
    icReal e = (rb - ra) / d;
    icReal s2 = ra * ra + ra * rb + rb * rb;
    icReal V = (IC_PI / 3.0) * ((ra * ra * ra - rb * rb * rb) * (e * e * e - 3 * e) +
                                d * (1 - e * e) * (1 - e * e) * s2);
    if (dVdd) {
        *dVdd = (IC_PI / 3.0) * (1 - e * e) * s2;
        *dVdra =
            IC_PI *
            (2 * d * d * ra + d * d * rb + 4 * ra * ra * ra - 3 * ra * ra * rb - rb * rb * rb) /
            (3 * d);
        *dVdrb =
            IC_PI *
            (2 * d * d * rb + d * d * ra + 4 * rb * rb * rb - 3 * rb * rb * ra - ra * ra * ra) /
            (3 * d);
    }
    return V;
}

icReal icRod_MidpointVolume(icReal ra, icReal rb, icReal d) {
    icReal rm = 0.5 * (ra + rb);
    return rm * rm * d;
}
