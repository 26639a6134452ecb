// SPDX-License-Identifier: MIT
// The XPBD tet projection over blocks of one colour, written once on the wide-number layer
// and compiled per width (seed 000, eqs. 19-20, sec. 4; seed 001, sec. 1). Included by the
// kernel_*.c files after they define:
//   KW      the wide type's prefix (icWf16, icWd4, icWf1, ...): KW_Add etc. must exist
//   KR      float or double;  KL  lanes per value;  KB  lanes per block
//   K_NAME  the exported block kernel's name; K_CELL_NAME the cell kernel's
// Every lane does the same IEEE operations in the same order whatever KL is, without fused
// multiply-adds, so all widths give the same bits; sums are balanced trees fixed here.
// No include guard: this file is meant to be included more than once.

#define K_PASTE2_(a, b) a##b
#define K_PASTE_(a, b) K_PASTE2_(a, b)
#define K_(name) K_PASTE_(name, K_PASTE_(_, K_NAME))
#define KT KW
#define KM K_PASTE_(KW, m)
#define KOP(op) K_PASTE_(KW, _##op)
#define ADD KOP(Add)
#define SUB KOP(Sub)
#define MUL KOP(Mul)
// Fixed-size loops over vertices and axes must become straight code (values in registers).
#define K_UNROLL _Pragma("GCC unroll 16")
#define K_PREFETCH_BLOCKS 4

// Ds = [e0 e1 e2], e_j = x_j - x_3.
static inline void K_(edges)(KT x[4][3], KT e[3][3]) {
    K_UNROLL
    for (int j = 0; j < 3; ++j)
        K_UNROLL
        for (int a = 0; a < 3; ++a) e[j][a] = SUB(x[j][a], x[3][a]);
}

#if !defined(K_FORM_F)
// Deviatoric gradients without F: grad C_D = (F / r) Q^T per vertex (seed 001, eq. 1), and
// F Q^T = Ds Q Q^T = Ds N, so g_j = column j of Ds N, g_3 = -(g_0 + g_1 + g_2) (kept as
// g_0 + g_1 + g_2: the users flip its sign, which is exact); also
// r^2 = |F|^2 = tr(Ds N Ds^T) = sum_j e_j . g_j.
static inline KT K_(deviatoric)(KT e[3][3], const KT n[6], KT g[4][3]) {
    const KT N[3][3] = {{n[0], n[1], n[2]}, {n[1], n[3], n[4]}, {n[2], n[4], n[5]}};
    K_UNROLL
    for (int j = 0; j < 3; ++j)
        K_UNROLL
        for (int a = 0; a < 3; ++a)
            g[j][a] = ADD(ADD(MUL(e[0][a], N[0][j]), MUL(e[1][a], N[1][j])), MUL(e[2][a], N[2][j]));
    K_UNROLL
    for (int a = 0; a < 3; ++a) g[3][a] = ADD(ADD(g[0][a], g[1][a]), g[2][a]);
    KT d[3];
    K_UNROLL
    for (int j = 0; j < 3; ++j) d[j] = ADD(ADD(MUL(e[j][0], g[j][0]), MUL(e[j][1], g[j][1])), MUL(e[j][2], g[j][2]));
    return ADD(ADD(d[0], d[1]), d[2]);
}

#endif

#if defined(K_FORM_F)
// F = Ds Q, F[3a + k] = (e0_a Q_0k + e1_a Q_1k) + e2_a Q_2k (q row-major).
static inline void K_(deformation)(KT e[3][3], const KT q[9], KT F[9]) {
    K_UNROLL
    for (int a = 0; a < 3; ++a)
        K_UNROLL
        for (int k = 0; k < 3; ++k)
            F[3 * a + k] = ADD(ADD(MUL(e[0][a], q[k]), MUL(e[1][a], q[3 + k])), MUL(e[2][a], q[6 + k]));
}

// Position gradients from dC/dF = P: g_j = column j of P Q^T, g_3 = -(g_0 + g_1 + g_2)
// (kept unnegated, as above).
static inline void K_(gradients)(const KT P[9], const KT q[9], KT g[4][3]) {
    K_UNROLL
    for (int j = 0; j < 3; ++j)
        K_UNROLL
        for (int a = 0; a < 3; ++a)
            g[j][a] = ADD(ADD(MUL(P[3 * a], q[3 * j]), MUL(P[3 * a + 1], q[3 * j + 1])),
                          MUL(P[3 * a + 2], q[3 * j + 2]));
    K_UNROLL
    for (int a = 0; a < 3; ++a) g[3][a] = ADD(ADD(g[0][a], g[1][a]), g[2][a]);
}
#endif

#if !defined(K_FORM_F)
// Hydrostatic gradients without F: cof F = cof(Ds) cof(Q) and cof(Q) Q^T = det Q I, so
// grad C_H = det Q c_j with c_j = column j of cof Ds = e_(j+1) x e_(j+2) (seed 001, eq. 3):
// the face normals (c_3 = -(c_0 + c_1 + c_2) kept unnegated). Returns det Ds; J = det Ds det Q.
static inline KT K_(hydrostatic)(KT e[3][3], KT c[4][3]) {
    K_UNROLL
    for (int j = 0; j < 3; ++j) {
        int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        c[j][0] = SUB(MUL(e[j1][1], e[j2][2]), MUL(e[j1][2], e[j2][1]));
        c[j][1] = SUB(MUL(e[j1][2], e[j2][0]), MUL(e[j1][0], e[j2][2]));
        c[j][2] = SUB(MUL(e[j1][0], e[j2][1]), MUL(e[j1][1], e[j2][0]));
    }
    K_UNROLL
    for (int a = 0; a < 3; ++a) c[3][a] = ADD(ADD(c[0][a], c[1][a]), c[2][a]);
    return ADD(ADD(MUL(e[0][0], c[0][0]), MUL(e[0][1], c[0][1])), MUL(e[0][2], c[0][2]));
}
#endif

// sum_i g_i^T W_i g_i with W_i = w_i I, or diag(wa_i) when inverse masses are per axis.
static inline KT K_(weighted)(KT g[4][3], const KT w[4], KT wa[4][3], bool axes) {
    KT s[4];
    K_UNROLL
    for (int i = 0; i < 4; ++i) {
        KT xx = MUL(g[i][0], g[i][0]), yy = MUL(g[i][1], g[i][1]), zz = MUL(g[i][2], g[i][2]);
        s[i] = axes ? ADD(ADD(MUL(wa[i][0], xx), MUL(wa[i][1], yy)), MUL(wa[i][2], zz))
                    : MUL(w[i], ADD(ADD(xx, yy), zz));
    }
    return ADD(ADD(s[0], s[1]), ADD(s[2], s[3]));
}

// sum_i g_i . (x_i - x_prev,i): the constraint's rate over the substep, for damping. g_3 is
// held negated, so its term is subtracted (a sum of negated products is the negated sum).
static inline KT K_(rate)(KT g[4][3], KT x[4][3], KT xp[4][3]) {
    KT s[4];
    K_UNROLL
    for (int i = 0; i < 4; ++i)
        s[i] = ADD(ADD(MUL(g[i][0], SUB(x[i][0], xp[i][0])), MUL(g[i][1], SUB(x[i][1], xp[i][1]))),
                   MUL(g[i][2], SUB(x[i][2], xp[i][2])));
    return ADD(ADD(s[0], s[1]), SUB(s[2], s[3]));
}

// x_i += W_i g_i c (x_3 -= W_3 g_3 c: g_3 is held negated; x + (-y) is x - y exactly).
static inline void K_(apply)(KT x[4][3], KT g[4][3], const KT w[4], KT wa[4][3], bool axes, KT c) {
    K_UNROLL
    for (int i = 0; i < 4; ++i) {
        KT wc = axes ? c : MUL(w[i], c);
        K_UNROLL
        for (int a = 0; a < 3; ++a) {
            KT d = MUL(g[i][a], axes ? MUL(wa[i][a], c) : wc);
            x[i][a] = i == 3 ? SUB(x[i][a], d) : ADD(x[i][a], d);
        }
    }
}

// The call's constants, splat once per call.
typedef struct K_(Consts) {
    KT zero, one, invH2, invH, minRs, minR2, minDen, sixOverMu, sixOverLambda, gamma;
    bool uniform, axes, damped, load, store;
} K_(Consts);

// The least t with sqrt(t) >= m in KR: sqrt is correctly rounded, hence monotone, so
// sqrt(r^2) >= m exactly when r^2 >= t, and a sweep that needs r only for that test skips
// the square root with the same bits.
static inline KR K_(minSquare)(KR m) {
    const bool single = sizeof(KR) == sizeof(float);
#define K_SQRT_(v) (single ? (KR)sqrtf((float)(v)) : (KR)sqrt((double)(v)))
#define K_STEP_(v, to) (single ? (KR)nextafterf((float)(v), (float)(to)) : (KR)nextafter((double)(v), (double)(to)))
    KR t = m * m;
    while (K_SQRT_(t) < m) t = K_STEP_(t, INFINITY);
    while (K_SQRT_(K_STEP_(t, 0)) >= m) t = K_STEP_(t, 0);
#undef K_SQRT_
#undef K_STEP_
    return t;
}

static inline void K_(consts)(const icXpbdKernelArgs *args, K_(Consts) *k) {
    k->zero = KOP(Set)((KR)0);
    k->one = KOP(Set)((KR)1);
    k->invH2 = KOP(Set)((KR)args->invH2);
    k->invH = KOP(Set)((KR)args->invH);
    k->minRs = KOP(Set)((KR)IC_XPBD_MIN_RS);
    k->minR2 = KOP(Set)(K_(minSquare)((KR)IC_XPBD_MIN_RS));
    k->minDen = KOP(Set)((KR)IC_XPBD_MIN_DENOMINATOR);
    k->sixOverMu = KOP(Set)((KR)args->sixOverMu);
    k->sixOverLambda = KOP(Set)((KR)args->sixOverLambda);
    k->gamma = KOP(Set)((KR)args->gamma);
    k->uniform = args->uniform;
    k->axes = args->wAxes != NULL;
    k->damped = args->xPrev != NULL && args->beta != NULL;
    k->load = args->loadLambda;
    k->store = args->storeLambda;
}

// What a call does besides the plain case, as compile-time constants in the specialised
// loops (K_DISPATCH_ below): the compiler then drops what a sweep does not need.
//   uniform: alphas from det Q;  axes: per-axis inverse masses;  damped: beta and x_prev;
//   load: multipliers read (else zero);  store: multipliers written.
#define K_FLAGS_ const bool uniform, const bool axes, const bool damped, const bool load, const bool store
#define K_FLAGS_PASS_ uniform, axes, damped, load, store

// Both constraints of lanes o .. o + KL - 1 of one block (rows, lambda and beta point at the
// block's), at positions x, which it updates. Returns how many lanes neither could move.
__attribute__((always_inline)) static inline int
K_(project)(const K_(Consts) *k, KT x[4][3], const KT w[4], KT wa[4][3], KT xp[4][3], const KR *rows,
            KR *lambda, const KR *beta, int o, K_FLAGS_) {
    const KT zero = k->zero;
#if defined(K_FORM_F)
    KT q[9];
    K_UNROLL
    for (int r = 0; r < 9; ++r) q[r] = KOP(Load)(rows + (IC_XPBD_ROW_Q + r) * KB + o);
    KT detQ = KOP(Load)(rows + IC_XPBD_ROW_F_DET_Q * KB + o);
#define K_ROW_(name) IC_XPBD_ROW_F_##name
#else
    KT n[6];
    K_UNROLL
    for (int r = 0; r < 6; ++r) n[r] = KOP(Load)(rows + (IC_XPBD_ROW_N + r) * KB + o);
    KT detQ = KOP(Load)(rows + IC_XPBD_ROW_DET_Q * KB + o);
#define K_ROW_(name) IC_XPBD_ROW_##name
#endif
    KT gdD = zero, gdH = zero, alphaD, alphaH, gamma;
    if (uniform) { // alpha = 1 / (mu V) with V = 1 / (6 |det Q|)
        KT absDetQ = KOP(Abs)(detQ);
        alphaD = MUL(absDetQ, k->sixOverMu);
        alphaH = MUL(absDetQ, k->sixOverLambda);
        gamma = k->gamma;
    } else {
        alphaD = KOP(Load)(rows + K_ROW_(ALPHA_D) * KB + o);
        alphaH = KOP(Load)(rows + K_ROW_(ALPHA_H) * KB + o);
        gamma = KOP(Load)(rows + K_ROW_(GAMMA) * KB + o);
    }
#undef K_ROW_
    if (damped) {
        // XPBD damping (Macklin et al. 2016, eq. 26): gamma = alpha beta / h.
        KT betaInvH = MUL(KOP(Load)(beta + o), k->invH);
        gdD = MUL(alphaD, betaInvH);
        gdH = MUL(alphaH, betaInvH);
    }
    KT e[3][3], g[4][3];

    // Deviatoric, C_D = r = |F|. With G = F Q^T (= Ds N) the unnormalised gradient and
    // S = sum w |G_i|^2, eq. 19's
    //   dlambda = (-r - a~ lambda - gd G.dx / r) / ((1 + gd) S / r^2 + a~)
    // is dlambda = c r with dx_i = w_i G_i c for the single division
    //   c = (-r^2 - a~ lambda r - gd G.dx) / ((1 + gd) S + a~ r^2).
    // Without damping (1 + 0) S is S, and with lambda = 0 the numerator is -r^2 (both exact:
    // the only other cases, r^2 infinite or NaN, fail the denominator test either way); a
    // sweep that neither reads nor writes lambda then needs r only for the gradient test.
    K_(edges)(x, e);
#if defined(K_FORM_F)
    KT F[9];
    K_(deformation)(e, q, F);
    KT r2 = ADD(ADD(ADD(MUL(F[0], F[0]), MUL(F[1], F[1])), ADD(MUL(F[2], F[2]), MUL(F[3], F[3]))),
                ADD(ADD(MUL(F[4], F[4]), MUL(F[5], F[5])),
                    ADD(ADD(MUL(F[6], F[6]), MUL(F[7], F[7])), MUL(F[8], F[8]))));
    K_(gradients)(F, q, g);
#else
    KT r2 = K_(deviatoric)(e, n, g);
#endif
    const bool needR = load || store;
    KT r = needR ? KOP(Sqrt)(r2) : zero;
    KM gradOk = needR ? KOP(Ge)(r, k->minRs) : KOP(Ge)(r2, k->minR2); // below it the gradient counts as zero
    KT S = KOP(Select)(gradOk, K_(weighted)(g, w, wa, axes), zero);
    KT aT = MUL(alphaD, k->invH2);
    KT lambdaD = load ? KOP(Load)(lambda + o) : zero;
    KT top = load ? SUB(KOP(Neg)(r2), MUL(MUL(aT, lambdaD), r)) : KOP(Neg)(r2);
    if (damped) top = SUB(top, MUL(gdD, KOP(Select)(gradOk, K_(rate)(g, x, xp), zero)));
    KT den = ADD(damped ? MUL(ADD(k->one, gdD), S) : S, MUL(aT, r2));
    KM okD = KOP(Gt)(den, MUL(k->minDen, r2));
    KT c = KOP(Select)(okD, KOP(Div)(top, den), zero);
    K_(apply)(x, g, w, wa, axes, KOP(Select)(gradOk, c, zero));
    if (store) KOP(Store)(lambda + o, ADD(lambdaD, MUL(c, r)));

    // Hydrostatic, C_H = det F - gamma at the positions the deviatoric step left.
    K_(edges)(x, e);
#if defined(K_FORM_F)
    // The reference's arithmetic: F, cof F (seed 001, eq. 3), grad = cof F Q^T.
    K_(deformation)(e, q, F);
    KT P[9];
    K_UNROLL
    for (int j = 0; j < 3; ++j) { // column j of cof F = f_(j+1) x f_(j+2)
        int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        P[j] = SUB(MUL(F[3 + j1], F[6 + j2]), MUL(F[6 + j1], F[3 + j2]));
        P[3 + j] = SUB(MUL(F[6 + j1], F[j2]), MUL(F[j1], F[6 + j2]));
        P[6 + j] = SUB(MUL(F[j1], F[3 + j2]), MUL(F[3 + j1], F[j2]));
    }
    KT C = SUB(ADD(ADD(MUL(F[0], P[0]), MUL(F[3], P[3])), MUL(F[6], P[6])), gamma);
    K_(gradients)(P, q, g);
    S = K_(weighted)(g, w, wa, axes);
#else
    // With the gradients det Q c_i: S = det Q^2 sum w |c_i|^2, the rate det Q sum c_i.dx_i,
    // and dx_i = w_i c_i (det Q dlambda).
    KT C = SUB(MUL(K_(hydrostatic)(e, g), detQ), gamma);
    S = MUL(MUL(detQ, detQ), K_(weighted)(g, w, wa, axes));
#endif
    aT = MUL(alphaH, k->invH2);
    KT lambdaH = load ? KOP(Load)(lambda + KB + o) : zero;
    top = load ? SUB(KOP(Neg)(C), MUL(aT, lambdaH)) : KOP(Neg)(C); // -C - 0 is -C
#if defined(K_FORM_F)
    if (damped) top = SUB(top, MUL(gdH, K_(rate)(g, x, xp)));
#else
    if (damped) top = SUB(top, MUL(gdH, MUL(detQ, K_(rate)(g, x, xp))));
#endif
    den = ADD(damped ? MUL(ADD(k->one, gdH), S) : S, aT);
    KM okH = KOP(Gt)(den, k->minDen);
    KT dlambda = KOP(Select)(okH, KOP(Div)(top, den), zero);
#if defined(K_FORM_F)
    K_(apply)(x, g, w, wa, axes, dlambda);
#else
    K_(apply)(x, g, w, wa, axes, MUL(detQ, dlambda));
#endif
    if (store) KOP(Store)(lambda + KB + o, ADD(lambdaH, dlambda));
    return KOP(CountFalse)(KOP(Or)(okD, okH));
}

// The vertex records (and per-axis masses, substep start positions) of `count` vertex slots.
__attribute__((always_inline)) static inline void
K_(gather)(const K_(Consts) *k, const icXpbdKernelArgs *args, const unsigned *offsets, int count,
           KT x[][3], KT w[], KT wa[][3], KT xp[][3], const bool axes, const bool damped) {
    KT unused;
    for (int i = 0; i < count; ++i) {
        KOP(Gather4)((const KR *)args->x, offsets + i * KB, &x[i][0], &x[i][1], &x[i][2], &w[i]);
        if (axes)
            KOP(Gather4)((const KR *)args->wAxes, offsets + i * KB, &wa[i][0], &wa[i][1], &wa[i][2], &unused);
        else
            wa[i][0] = wa[i][1] = wa[i][2] = k->zero;
        if (damped)
            KOP(Gather4)((const KR *)args->xPrev, offsets + i * KB, &xp[i][0], &xp[i][1], &xp[i][2], &unused);
        else
            xp[i][0] = xp[i][1] = xp[i][2] = k->zero;
    }
}

// The block loop for one combination of flags.
__attribute__((always_inline)) static inline int K_(blocks)(const icXpbdKernelArgs *args, const K_(Consts) *k,
                                                            int blockStart, int blockEnd, K_FLAGS_) {
    int skipped = 0;
    for (int b = blockStart; b < blockEnd; ++b) {
        const char *record = args->blocks + (size_t)b * args->blockBytes;
        // Blocks stream from memory on large meshes: ask for a later one while this one
        // computes (the hardware prefetcher alone leaves the loads waiting).
        if (b + K_PREFETCH_BLOCKS < blockEnd)
            for (size_t line = 0; line < args->blockBytes; line += 64)
                __builtin_prefetch(record + K_PREFETCH_BLOCKS * args->blockBytes + line, 0, 3);
        const unsigned *idx = (const unsigned *)record;
        const KR *rows = (const KR *)(record + 4 * sizeof(unsigned) * KB);
        KR *lambda = (KR *)args->lambda + (size_t)b * 2 * KB;
        const KR *beta = damped ? (const KR *)args->beta + (size_t)b * KB : NULL;
        for (int o = 0; o < KB; o += KL) {
            KT x[4][3], w[4], wa[4][3], xp[4][3];
            K_UNROLL
            for (int i = 0; i < 4; ++i)
                K_(gather)(k, args, idx + i * KB + o, 1, &x[i], &w[i], &wa[i], &xp[i], axes, damped);
            skipped += K_(project)(k, x, w, wa, xp, rows, lambda, beta, o, K_FLAGS_PASS_);
            K_UNROLL
            for (int i = 0; i < 4; ++i) KOP(Scatter4)((KR *)args->x, idx + i * KB + o, x[i][0], x[i][1], x[i][2], w[i]);
        }
    }
    return skipped;
}

// The cell scheme with a shared tet pattern: each lane's 8 cell corners are gathered once,
// the cell's tets projected in order on them (tet s uses corners pattern[s][0..3]), and the
// corners written back once: a third of the gathers of tet by tet, with the same bits.
__attribute__((always_inline)) static inline int K_(cells)(const icXpbdKernelArgs *args, const K_(Consts) *k,
                                                           const icXpbdCells *cells, int unitStart, int unitEnd,
                                                           K_FLAGS_) {
    int skipped = 0;
    for (int u = unitStart; u < unitEnd; ++u) {
        const unsigned *corners = cells->corners + (size_t)u * 8 * KB;
        const unsigned char *pattern = cells->pattern + (size_t)u * IC_XPBD_MAX_CELL_TETS * 4;
        int first = cells->unitBlocks[u], slots = cells->unitBlocks[u + 1] - first;
        for (int o = 0; o < KB; o += KL) {
            KT cx[8][3], cw[8], cwa[8][3], cxp[8][3];
            K_(gather)(k, args, corners + o, 8, cx, cw, cwa, cxp, axes, damped);
            for (int s = 0; s < slots; ++s) {
                const char *record = args->blocks + (size_t)(first + s) * args->blockBytes;
                if (o == 0)
                    for (size_t line = 0; line < args->blockBytes; line += 64)
                        __builtin_prefetch(record + K_PREFETCH_BLOCKS * args->blockBytes + line, 0, 3);
                const KR *rows = (const KR *)(record + 4 * sizeof(unsigned) * KB);
                KR *lambda = (KR *)args->lambda + (size_t)(first + s) * 2 * KB;
                const KR *beta = damped ? (const KR *)args->beta + (size_t)(first + s) * KB : NULL;
                const unsigned char *p = pattern + 4 * s;
                KT x[4][3], w[4], wa[4][3], xp[4][3];
                K_UNROLL
                for (int i = 0; i < 4; ++i) {
                    w[i] = cw[p[i]];
                    K_UNROLL
                    for (int a = 0; a < 3; ++a) {
                        x[i][a] = cx[p[i]][a];
                        wa[i][a] = axes ? cwa[p[i]][a] : k->zero;
                        xp[i][a] = damped ? cxp[p[i]][a] : k->zero;
                    }
                }
                skipped += K_(project)(k, x, w, wa, xp, rows, lambda, beta, o, K_FLAGS_PASS_);
                K_UNROLL
                for (int i = 0; i < 4; ++i)
                    K_UNROLL
                    for (int a = 0; a < 3; ++a) cx[p[i]][a] = x[i][a];
            }
            for (int c = 0; c < 8; ++c)
                KOP(Scatter4)((KR *)args->x, corners + c * KB + o, cx[c][0], cx[c][1], cx[c][2], cw[c]);
        }
    }
    return skipped;
}

// The usual sweeps (one material, no per-axis masses, no damping; multipliers zero and not
// kept, zero and kept, or read and kept) get loops of their own; anything else the general one.
#define K_DISPATCH_(call)                                                                                   \
    do {                                                                                                    \
        if (k.uniform && !k.axes && !k.damped) {                                                            \
            if (!k.load && !k.store) return call(true, false, false, false, false);                         \
            if (!k.load) return call(true, false, false, false, true);                                      \
            if (k.store) return call(true, false, false, true, true);                                       \
        }                                                                                                   \
        return call(k.uniform, k.axes, k.damped, k.load, k.store);                                          \
    } while (0)

int K_NAME(const icXpbdKernelArgs *args, int blockStart, int blockEnd) {
    K_(Consts) k;
    K_(consts)(args, &k);
#define K_CALL_(...) K_(blocks)(args, &k, blockStart, blockEnd, __VA_ARGS__)
    K_DISPATCH_(K_CALL_);
#undef K_CALL_
}

int K_CELL_NAME(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd) {
    K_(Consts) k;
    K_(consts)(args, &k);
#define K_CALL_(...) K_(cells)(args, &k, cells, unitStart, unitEnd, __VA_ARGS__)
    K_DISPATCH_(K_CALL_);
#undef K_CALL_
}

#undef K_DISPATCH_
#undef K_FLAGS_
#undef K_FLAGS_PASS_
#undef K_PASTE2_
#undef K_PASTE_
#undef K_
#undef KT
#undef KM
#undef KOP
#undef ADD
#undef SUB
#undef MUL
#undef K_UNROLL
#undef K_PREFETCH_BLOCKS
