// SPDX-License-Identifier: MIT
// Plane and collider contact of the force-based solvers as terms of the potential Newton
// minimises, so that the line search and the convergence test keep their meaning:
//   penalty   E_n = k/2 max(0, -g(x))^2, g = signed distance - thickness, Hessian k n n^T
//             (for g <= 0: the one-sided Hessian on the contact side)
//             (exact for planes and box faces; the curvature term of round and mesh colliders
//             is dropped, which keeps the block PSD);
//   friction  E_f = mu lambda f0(|P (x - x^n - s)|) (IPC, Li et al. 2020, eqs. 14-16): the
//             tangential slip over the step relative to the obstacle's motion s, with the
//             normal force lambda and the tangent projector P = I - n n^T lagged from the
//             step's start, and f0 the C1 mollifier of |u| of width eps = eps_v dt (eq. 16).
#include "newton/contact_potential.h"

#include "fem/fem_internal.h"

#include <string.h>

void icContactPotential_Destroy(icContactPotential *c) {
    if (!c) return;
    icFree(c->stiffness);
    icFree(c->onSurface);
    icFree(c->obstacles);
    icFree(c->friction);
    memset(c, 0, sizeof *c);
}

// Signed gap of p to obstacle o in the given pose; colliders' curvature is not returned.
static icReal gapAt(const icContactObstacle *o, const icXform *pose, icVec3 p, icReal margin,
                    icVec3 *normal, icVec3 *local) {
    if (!o->collider) {
        *normal = o->normal;
        *local = p;
        return icVec3_Dot(o->normal, p) - o->offset - o->thickness;
    }
    const icColliderRecord *col = o->collider;
    icVec3 lp = icXform_ApplyInverse(pose, p), nl;
    // Cheap reject before the exact distance (meshes search every triangle).
    if (col->shape == IC_COLLIDER_MESH && icVec3_Length(icVec3_Sub(lp, col->boundCentre)) >
                                              col->boundRadius + col->thickness + margin) {
        *normal = icVec3_Make(0, 1, 0);
        *local = lp;
        return INFINITY;
    }
    icReal d = icCollider_LocalDistance(col, lp, NULL, 0, local, &nl);
    *normal = icMat3_MulVec(pose->R, nl);
    return d - col->thickness;
}

icReal icContactObstacle_Gap(const icContactObstacle *o, icVec3 p, icReal margin, icVec3 *normal,
                             icVec3 *local) {
    return gapAt(o, &o->x1, p, margin, normal, local);
}

// k = contactStiffness E h per body, h = cbrt(6 x mean rest tet volume): the edge of a cube
// cut into six tets of that volume. A boundary vertex carries about h^2 of surface, so a
// contact pressure p sinks it by p h^2 / k = (p / E) h / contactStiffness.
static void fillStiffness(icContactPotential *c, const icModel *m, icReal factor) {
    memset(c->stiffness, 0, sizeof(icReal) * (size_t)m->vertexCount);
    for (int b = 0; b < m->bodyCount; ++b) {
        const icBodyRecord *body = &m->bodies[b];
        if (body->tetCount == 0) continue;
        icReal volume = 0;
        for (int t = body->tetStart; t < body->tetStart + body->tetCount; ++t)
            volume += m->restVolume[t];
        icReal h = cbrt(6 * volume / body->tetCount);
        icReal k = factor * body->def.youngsModulus * h;
        for (int v = body->vertexStart; v < body->vertexStart + body->vertexCount; ++v)
            c->stiffness[v] = m->mass[v] > 0 ? k : 0.0;
    }
}

static icResult gatherObstacles(icContactPotential *c, icWorld *world, icReal t0, icReal t1) {
    const icModel *m = &world->model;
    icContactSystem *cs = world->contact;
    int colliders = cs ? cs->colliderCount : 0;
    if (!icGrowArray((void **)&c->obstacles, &c->obstacleCapacity, m->planeCount + colliders,
                     sizeof(icContactObstacle)))
        return IC_ERR_OUT_OF_MEMORY;
    c->obstacleCount = 0;
    for (int i = 0; i < m->planeCount; ++i) {
        icContactObstacle *o = &c->obstacles[c->obstacleCount++];
        memset(o, 0, sizeof *o);
        o->normal = m->planes[i].normal;
        o->offset = m->planes[i].offset;
        o->x0 = o->x1 = icXform_Identity();
        o->thickness = 0; // as the XPBD solver: planes keep vertices on their surface
        o->friction = m->planes[i].friction;
    }
    bool any = false;
    for (int i = 0; i < colliders; ++i) {
        const icColliderRecord *col = &cs->colliders[i];
        if (col->generation == 0) continue;
        icContactObstacle *o = &c->obstacles[c->obstacleCount++];
        memset(o, 0, sizeof *o);
        o->collider = col;
        o->x0 = icTrack_Evaluate(&col->track, t0);
        o->x1 = icTrack_Evaluate(&col->track, t1);
        o->thickness = col->thickness;
        // Smoothed Coulomb friction has one coefficient: the dynamic one (staticFriction is
        // the XPBD solver's).
        o->friction = col->friction;
        any = true;
    }
    // Colliders are tested against the boundary vertices only (as in the XPBD solver).
    memset(c->onSurface, 0, (size_t)m->vertexCount);
    if (any) {
        icResult r = icContact_UpdateSurface(world, cs);
        if (r != IC_OK) return r;
        for (int i = 0; i < cs->boundaryCount; ++i) c->onSurface[cs->boundary[i]] = 1;
    }
    return IC_OK;
}

// Lagged friction contacts (IPC sec. 5.1): where xn is inside an obstacle's thickness at the
// step's start, lambda = k |g| and the normal are frozen for the step.
static icResult gatherFriction(icContactPotential *c, const icReal *xn) {
    c->frictionCount = 0;
    for (int v = 0; v < c->vertexCount; ++v) {
        icReal k = c->stiffness[v];
        if (!(k > 0)) continue;
        icVec3 p = icVec3_Load(xn, v);
        for (int i = 0; i < c->obstacleCount; ++i) {
            const icContactObstacle *o = &c->obstacles[i];
            if (!(o->friction > 0) || (o->collider && !c->onSurface[v])) continue;
            icVec3 n, q;
            icReal g = gapAt(o, &o->x0, p, 0, &n, &q);
            if (!(g < 0)) continue;
            if (!icGrowArray((void **)&c->friction, &c->frictionCapacity, c->frictionCount + 1,
                             sizeof(icContactFriction)))
                return IC_ERR_OUT_OF_MEMORY;
            icContactFriction *fc = &c->friction[c->frictionCount++];
            fc->vertex = v;
            fc->obstacle = i;
            fc->weight = o->friction * k * -g;
            fc->normal = n;
            fc->shift = o->collider ? icVec3_Sub(icXform_Apply(&o->x1, q), icXform_Apply(&o->x0, q))
                                    : icVec3_Make(0, 0, 0);
        }
    }
    return IC_OK;
}

icResult icContactPotential_Begin(icContactPotential *c, icWorld *world, const icReal *xn,
                                  icReal t0, icReal t1, icReal contactStiffness, bool friction,
                                  icReal eps) {
    const icModel *m = &world->model;
    if (c->vertexCount != m->vertexCount) {
        icFree(c->stiffness);
        icFree(c->onSurface);
        c->stiffness = IC_ALLOC(icReal, (size_t)m->vertexCount + 1);
        c->onSurface = IC_ALLOC(unsigned char, (size_t)m->vertexCount + 1);
        c->vertexCount = c->stiffness && c->onSurface ? m->vertexCount : 0;
        if (!c->stiffness || !c->onSurface) return IC_ERR_OUT_OF_MEMORY;
    }
    c->xn = xn;
    c->eps = eps;
    c->frictionCount = 0;
    icResult r = gatherObstacles(c, world, t0, t1);
    if (r != IC_OK) return r;
    fillStiffness(c, m, contactStiffness);
    return friction && c->obstacleCount > 0 ? gatherFriction(c, xn) : IC_OK;
}

// Adds s n n^T (column-major 3x3) to h.
static void addOuter(icReal h[9], icReal s, icVec3 a, icVec3 b) {
    const icReal av[3] = {a.x, a.y, a.z}, bv[3] = {b.x, b.y, b.z};
    for (int col = 0; col < 3; ++col)
        for (int row = 0; row < 3; ++row) h[row + 3 * col] += s * av[row] * bv[col];
}

// Friction of one lagged contact at p (IPC eqs. 15-16 and the Hessian of sec. 5.2, which
// is PSD as it stands: eigenvalues f1(y)/y across the slip, and 2(eps - y)/eps^2 >= 0 or 0
// along it).
static icReal frictionTerm(const icContactPotential *c, const icContactFriction *fc, icVec3 p,
                           icVec3 *force, icReal h[9]) {
    icVec3 n = fc->normal;
    icVec3 w = icVec3_Sub(icVec3_Sub(p, icVec3_Load(c->xn, fc->vertex)), fc->shift);
    icVec3 u = icVec3_MulAdd(w, -icVec3_Dot(n, w), n);
    icReal y = icVec3_Length(u), eps = c->eps, a = fc->weight;
    icReal energy, f1overY, curvature;
    if (y < eps) {
        energy = a * (y * y / eps - y * y * y / (3 * eps * eps) + eps / 3);
        f1overY = a * (2 / eps - y / (eps * eps));
        curvature = y > 0 ? -a / (eps * eps * y) : 0.0;
    } else {
        energy = a * y;
        f1overY = a / y;
        curvature = -a / (y * y * y);
    }
    *force = icVec3_MulAdd(*force, -f1overY, u);
    if (h) {
        // f1/y P + curvature u u^T with P = I - n n^T.
        h[0] += f1overY, h[4] += f1overY, h[8] += f1overY;
        addOuter(h, -f1overY, n, n);
        addOuter(h, curvature, u, u);
    }
    return energy;
}

icReal icContactPotential_Evaluate(void *context, const icReal *x, icReal *f, icReal *blocks) {
    const icContactPotential *c = context;
    icKahanSum sum = {0, 0};
    int next = 0; // friction contacts are listed by ascending vertex
    for (int v = 0; v < c->vertexCount; ++v) {
        icReal k = c->stiffness[v];
        if (!(k > 0)) continue;
        icVec3 p = icVec3_Load(x, v), force = icVec3_Make(0, 0, 0), n, q;
        icReal h[9] = {0};
        icReal energy = 0;
        bool touched = false;
        for (int i = 0; i < c->obstacleCount; ++i) {
            const icContactObstacle *o = &c->obstacles[i];
            if (o->collider && !c->onSurface[v]) continue;
            icReal g = gapAt(o, &o->x1, p, 0, &n, &q);
            // A vertex exactly on the surface (g = 0: a body placed resting on the ground)
            // has no force yet but takes the contact's stiffness: without it a quasistatic
            // solve sees an unsupported body, a singular system, and diverges.
            if (!(g <= 0)) continue;
            touched = true;
            energy += 0.5 * k * g * g;
            force = icVec3_MulAdd(force, -k * g, n);
            addOuter(h, k, n, n);
        }
        for (; next < c->frictionCount && c->friction[next].vertex == v; ++next, touched = true)
            energy += frictionTerm(c, &c->friction[next], p, &force, blocks ? h : NULL);
        if (!touched) continue;
        icKahan_Add(&sum, energy);
        if (f) {
            f[3 * v] += force.x;
            f[3 * v + 1] += force.y;
            f[3 * v + 2] += force.z;
        }
        if (blocks)
            for (int i = 0; i < 9; ++i) blocks[9 * (size_t)v + i] += h[i];
    }
    return sum.sum;
}

int icContactPotential_Count(const icContactPotential *c, const icReal *x) {
    int count = 0;
    for (int v = 0; v < c->vertexCount; ++v) {
        if (!(c->stiffness[v] > 0)) continue;
        icVec3 p = icVec3_Load(x, v), n, q;
        for (int i = 0; i < c->obstacleCount; ++i) {
            const icContactObstacle *o = &c->obstacles[i];
            if (o->collider && !c->onSurface[v]) continue;
            if (gapAt(o, &o->x1, p, 0, &n, &q) < 0) {
                ++count;
                break;
            }
        }
    }
    return count;
}
