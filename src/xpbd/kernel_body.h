// SPDX-License-Identifier: MIT
// The XPBD tet projection over blocks of one colour, written once on the wide-number layer
// and compiled per width (Macklin & Müller 2021, sec. 4.1, eqs. 19-20, and supplement,
// sec. 1). Included by the kernel_*.c files after they define:
//   KW      the wide type's prefix (icWf16, icWd4, icWf1, ...): KW_Add etc. must exist
//   KR      float or double;  KL  lanes per value;  KB  lanes per block
//   K_NAME  the exported block kernel's name; K_CELL_NAME the cell kernel's
// Every lane does the same IEEE operations in the same order whatever KL is, so all widths give
// the same bits; sums are trees and chains fixed here. The float kernel fuses multiply-adds
// (FMA, FMS, FNMA: one rounding, the same in every width, fmaf in the one-lane and portable
// ones); the double kernel keeps the reference's unfused arithmetic (src/xpbd/project.c).
// No include guard: this file is meant to be included more than once. The including file
// has <math.h>, <stdint.h> and <string.h> (before any target pragma).

#define K_PASTE2_(a, b) a##b
#define K_PASTE_(a, b) K_PASTE2_(a, b)
#define K_(name) K_PASTE_(name, K_PASTE_(_, K_NAME))
#define KT KW
#define KM K_PASTE_(KW, m)
#define KOP(op) K_PASTE_(KW, _##op)
#define ADD KOP(Add)
#define SUB KOP(Sub)
#define MUL KOP(Mul)
#if !defined(K_FORM_F)
#define K_FUSED 1
#define FMA KOP(Fma)   // a b + c
#define FMS KOP(Fms)   // a b - c
#define FNMA KOP(Fnma) // c - a b
#endif
// Fixed-size loops over vertices and axes must become straight code (values in registers).
#define K_UNROLL _Pragma("GCC unroll 16")
#define K_PREFETCH_BLOCKS 4
// Helpers must melt into the loop (their arrays are registers): with several specialised
// loops per kernel the compiler's heuristics would otherwise call them out of line.
#define K_INLINE __attribute__((always_inline)) static inline

// Ds = [e0 e1 e2], e_j = x_j - x_3.
K_INLINE void K_(edges)(KT x[4][3], KT e[3][3]) {
    K_UNROLL
    for (int j = 0; j < 3; ++j)
        K_UNROLL
        for (int a = 0; a < 3; ++a) e[j][a] = SUB(x[j][a], x[3][a]);
}

#if !defined(K_FORM_F)
// Deviatoric gradients without F: grad C_D = (F / r) Q^T per vertex (Macklin & Müller 2021,
// supplement, eq. 7), and F Q^T = Ds Q Q^T = Ds N, so g_j = column j of Ds N,
// g_3 = -(g_0 + g_1 + g_2) (kept as g_0 + g_1 + g_2: the users flip its sign, which is exact);
// also r^2 = |F|^2 = tr(Ds N Ds^T) = sum_j e_j . g_j.
K_INLINE KT K_(deviatoric)(KT e[3][3], const KT n[6], KT g[4][3]) {
    const KT N[3][3] = {{n[0], n[1], n[2]}, {n[1], n[3], n[4]}, {n[2], n[4], n[5]}};
    K_UNROLL
    for (int j = 0; j < 3; ++j)
        K_UNROLL
        for (int a = 0; a < 3; ++a)
            g[j][a] = FMA(e[2][a], N[2][j], FMA(e[1][a], N[1][j], MUL(e[0][a], N[0][j])));
    K_UNROLL
    for (int a = 0; a < 3; ++a) g[3][a] = ADD(ADD(g[0][a], g[1][a]), g[2][a]);
    // Three short chains, not one of nine: a block is one long dependency chain, and the core
    // cannot overlap it with the next block's (too many instructions apart).
    KT d[3];
    K_UNROLL
    for (int j = 0; j < 3; ++j) d[j] = FMA(e[j][2], g[j][2], FMA(e[j][1], g[j][1], MUL(e[j][0], g[j][0])));
    return ADD(ADD(d[0], d[1]), d[2]);
}

#endif

#if defined(K_FORM_F)
// F = Ds Q, F[3a + k] = (e0_a Q_0k + e1_a Q_1k) + e2_a Q_2k (q row-major).
K_INLINE void K_(deformation)(KT e[3][3], const KT q[9], KT F[9]) {
    K_UNROLL
    for (int a = 0; a < 3; ++a)
        K_UNROLL
        for (int k = 0; k < 3; ++k)
            F[3 * a + k] = ADD(ADD(MUL(e[0][a], q[k]), MUL(e[1][a], q[3 + k])), MUL(e[2][a], q[6 + k]));
}

// Position gradients from dC/dF = P: g_j = column j of P Q^T, g_3 = -(g_0 + g_1 + g_2)
// (kept unnegated, as above).
K_INLINE void K_(gradients)(const KT P[9], const KT q[9], KT g[4][3]) {
    K_UNROLL
    for (int j = 0; j < 3; ++j)
        K_UNROLL
        for (int a = 0; a < 3; ++a)
            g[j][a] = ADD(ADD(MUL(P[3 * a], q[3 * j]), MUL(P[3 * a + 1], q[3 * j + 1])),
                          MUL(P[3 * a + 2], q[3 * j + 2]));
    K_UNROLL
    for (int a = 0; a < 3; ++a) g[3][a] = ADD(ADD(g[0][a], g[1][a]), g[2][a]);
}

// r^2 = |F|^2.
K_INLINE KT K_(normSquared)(const KT F[9]) {
    return ADD(ADD(ADD(MUL(F[0], F[0]), MUL(F[1], F[1])), ADD(MUL(F[2], F[2]), MUL(F[3], F[3]))),
               ADD(ADD(MUL(F[4], F[4]), MUL(F[5], F[5])), ADD(ADD(MUL(F[6], F[6]), MUL(F[7], F[7])), MUL(F[8], F[8]))));
}

// P = cof F (column j = f_(j+1) x f_(j+2), Macklin & Müller 2021, supplement, eq. 5); returns
// det F.
K_INLINE KT K_(cofactor)(const KT F[9], KT P[9]) {
    K_UNROLL
    for (int j = 0; j < 3; ++j) {
        int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        P[j] = SUB(MUL(F[3 + j1], F[6 + j2]), MUL(F[6 + j1], F[3 + j2]));
        P[3 + j] = SUB(MUL(F[6 + j1], F[j2]), MUL(F[j1], F[6 + j2]));
        P[6 + j] = SUB(MUL(F[j1], F[3 + j2]), MUL(F[3 + j1], F[j2]));
    }
    return ADD(ADD(MUL(F[0], P[0]), MUL(F[3], P[3])), MUL(F[6], P[6]));
}
#endif

#if !defined(K_FORM_F)
// Hydrostatic gradients without F: cof F = cof(Ds) cof(Q) and cof(Q) Q^T = det Q I, so
// grad C_H = det Q c_j with c_j = column j of cof Ds = e_(j+1) x e_(j+2) (Macklin & Müller
// 2021, supplement, eq. 5): the face normals (c_3 = -(c_0 + c_1 + c_2) kept unnegated).
// Returns det Ds; J = det Ds det Q.
K_INLINE KT K_(hydrostatic)(KT e[3][3], KT c[4][3]) {
    K_UNROLL
    for (int j = 0; j < 3; ++j) {
        int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        c[j][0] = FMS(e[j1][1], e[j2][2], MUL(e[j1][2], e[j2][1]));
        c[j][1] = FMS(e[j1][2], e[j2][0], MUL(e[j1][0], e[j2][2]));
        c[j][2] = FMS(e[j1][0], e[j2][1], MUL(e[j1][1], e[j2][0]));
    }
    K_UNROLL
    for (int a = 0; a < 3; ++a) c[3][a] = ADD(ADD(c[0][a], c[1][a]), c[2][a]);
    return FMA(e[0][2], c[0][2], FMA(e[0][1], c[0][1], MUL(e[0][0], c[0][0])));
}
#endif

// sum_i g_i^T W_i g_i with W_i = w_i I, or diag(wa_i) when inverse masses are per axis.
K_INLINE KT K_(weighted)(KT g[4][3], const KT w[4], KT wa[4][3], bool axes) {
#if defined(K_FUSED)
    KT q[4];
    K_UNROLL
    for (int i = 0; i < 4; ++i)
        q[i] = axes ? FMA(wa[i][2], MUL(g[i][2], g[i][2]),
                          FMA(wa[i][1], MUL(g[i][1], g[i][1]), MUL(wa[i][0], MUL(g[i][0], g[i][0]))))
                    : FMA(g[i][2], g[i][2], FMA(g[i][1], g[i][1], MUL(g[i][0], g[i][0])));
    if (axes) return ADD(ADD(q[0], q[1]), ADD(q[2], q[3]));
    return ADD(FMA(w[1], q[1], MUL(w[0], q[0])), FMA(w[3], q[3], MUL(w[2], q[2])));
#else
    KT s[4];
    K_UNROLL
    for (int i = 0; i < 4; ++i) {
        KT xx = MUL(g[i][0], g[i][0]), yy = MUL(g[i][1], g[i][1]), zz = MUL(g[i][2], g[i][2]);
        s[i] = axes ? ADD(ADD(MUL(wa[i][0], xx), MUL(wa[i][1], yy)), MUL(wa[i][2], zz))
                    : MUL(w[i], ADD(ADD(xx, yy), zz));
    }
    return ADD(ADD(s[0], s[1]), ADD(s[2], s[3]));
#endif
}

// sum_i a_i^T W_i b_i: the cross term of the coupled projection (a_3 and b_3 both held with
// their signs flipped, so their product keeps its sign).
K_INLINE KT K_(weightedDot)(KT a[4][3], KT b[4][3], const KT w[4], KT wa[4][3], bool axes) {
    KT s[4];
    K_UNROLL
    for (int i = 0; i < 4; ++i) {
#if defined(K_FUSED)
        s[i] = axes ? FMA(wa[i][2], MUL(a[i][2], b[i][2]),
                          FMA(wa[i][1], MUL(a[i][1], b[i][1]), MUL(wa[i][0], MUL(a[i][0], b[i][0]))))
                    : MUL(w[i], FMA(a[i][2], b[i][2], FMA(a[i][1], b[i][1], MUL(a[i][0], b[i][0]))));
#else
        KT xx = MUL(a[i][0], b[i][0]), yy = MUL(a[i][1], b[i][1]), zz = MUL(a[i][2], b[i][2]);
        s[i] = axes ? ADD(ADD(MUL(wa[i][0], xx), MUL(wa[i][1], yy)), MUL(wa[i][2], zz))
                    : MUL(w[i], ADD(ADD(xx, yy), zz));
#endif
    }
    return ADD(ADD(s[0], s[1]), ADD(s[2], s[3]));
}

// sum_i g_i . (x_i - x_prev,i): the constraint's rate over the substep, for damping. g_3 is
// held with its sign flipped, so its term is subtracted (exact: rounding is symmetric).
K_INLINE KT K_(rate)(KT g[4][3], KT x[4][3], KT xp[4][3]) {
    KT s[4];
    K_UNROLL
    for (int i = 0; i < 4; ++i)
#if defined(K_FUSED)
        s[i] = FMA(g[i][2], SUB(x[i][2], xp[i][2]),
                   FMA(g[i][1], SUB(x[i][1], xp[i][1]), MUL(g[i][0], SUB(x[i][0], xp[i][0]))));
#else
        s[i] = ADD(ADD(MUL(g[i][0], SUB(x[i][0], xp[i][0])), MUL(g[i][1], SUB(x[i][1], xp[i][1]))),
                   MUL(g[i][2], SUB(x[i][2], xp[i][2])));
#endif
    return ADD(ADD(s[0], s[1]), SUB(s[2], s[3]));
}

// x_i += W_i g_i c (x_3 -= ...: g_3 is held with its sign flipped; x + (-y) is x - y exactly).
K_INLINE void K_(apply)(KT x[4][3], KT g[4][3], const KT w[4], KT wa[4][3], bool axes, KT c) {
    K_UNROLL
    for (int i = 0; i < 4; ++i) {
        KT wc = axes ? c : MUL(w[i], c);
        K_UNROLL
        for (int a = 0; a < 3; ++a) {
#if defined(K_FUSED)
            KT f = axes ? MUL(wa[i][a], c) : wc;
            x[i][a] = i == 3 ? FNMA(g[i][a], f, x[i][a]) : FMA(g[i][a], f, x[i][a]);
#else
            KT d = MUL(g[i][a], axes ? MUL(wa[i][a], c) : wc);
            x[i][a] = i == 3 ? SUB(x[i][a], d) : ADD(x[i][a], d);
#endif
        }
    }
}

// x_i += W_i (g_i a + c_i b): the two corrections summed before they meet x, so where they
// cancel (a body at rest) x keeps its bits instead of taking two roundings at its own scale.
K_INLINE void K_(applyPair)(KT x[4][3], KT g[4][3], KT c[4][3], const KT w[4], KT wa[4][3], bool axes, KT a,
                            KT b) {
    K_UNROLL
    for (int i = 0; i < 4; ++i) {
        K_UNROLL
        for (int j = 0; j < 3; ++j) {
#if defined(K_FUSED)
            KT d = FMA(c[i][j], b, MUL(g[i][j], a));
            KT f = axes ? wa[i][j] : w[i];
            x[i][j] = i == 3 ? FNMA(d, f, x[i][j]) : FMA(d, f, x[i][j]);
#else
            KT d = MUL(ADD(MUL(g[i][j], a), MUL(c[i][j], b)), axes ? wa[i][j] : w[i]);
            x[i][j] = i == 3 ? SUB(x[i][j], d) : ADD(x[i][j], d);
#endif
        }
    }
}

// The call's constants, splat once per call.
typedef struct K_(Consts) {
    KT zero, one, invH2, invH, minRs, minR2, minDen, sixOverMu, sixOverLambda, gamma;
    bool uniform, axes, damped, load, store, coupled;
} K_(Consts);

// The neighbour of a positive finite x in KR, up (dir 1) or down (dir -1): its bits plus dir.
static inline KR K_(neighbour)(KR x, int dir) {
    if (sizeof(KR) == sizeof(float)) {
        float f = (float)x;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        u += (uint32_t)dir;
        memcpy(&f, &u, sizeof f);
        return (KR)f;
    }
    double d = (double)x;
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    u += (uint64_t)(int64_t)dir;
    memcpy(&d, &u, sizeof d);
    return (KR)d;
}

// The least t with sqrt(t) >= m in KR: sqrt is correctly rounded, hence monotone, so
// sqrt(r^2) >= m exactly when r^2 >= t, and a sweep that needs r only for that test skips
// the square root with the same bits. A few scalar square roots per call.
static inline KR K_(minSquare)(KR m) {
#define K_SQRT_(v) (sizeof(KR) == sizeof(float) ? (KR)sqrtf((float)(v)) : (KR)sqrt((double)(v)))
    KR t = m * m;
    while (K_SQRT_(t) < m) t = K_(neighbour)(t, 1);
    while (K_SQRT_(K_(neighbour)(t, -1)) >= m) t = K_(neighbour)(t, -1);
#undef K_SQRT_
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
    k->coupled = args->coupled;
}

// What a call does besides the plain case, as compile-time constants in the specialised
// loops (K_DISPATCH_ below): the compiler then drops what a sweep does not need.
//   uniform: alphas from det Q;  axes: per-axis inverse masses;  damped: beta and x_prev;
//   load: multipliers read (else zero);  store: multipliers written;
//   coupled: both multipliers from one 2x2 solve (else deviatoric, then hydrostatic).
#define K_FLAGS_                                                                                   \
    const bool uniform, const bool axes, const bool damped, const bool load, const bool store,     \
        const bool coupled
#define K_FLAGS_PASS_ uniform, axes, damped, load, store, coupled

// Where the lanes of one value live: one place, or (K_PAIR: a pair of base values, the two
// halves of a block's lanes) one per half.
typedef struct K_(At) {
    const unsigned *idx[2]; ///< vertex record offsets of the value's first lane (vertex i: + i KB)
    const KR *rows[2];      ///< constants of the value's first lane (row r: + r KB)
    KR *lambda[2];          ///< lambda_D of the value's first lane (lambda_H: + KB)
    const KR *beta[2];
} K_(At);

#if defined(K_PAIR)
#define K_HALF_ (KL / 2)
#define K_LD_(a, off) KOP(Load2)((a)[0] + (off), (a)[1] + (off))
#define K_ST_(a, off, v) KOP(Store2)((a)[0] + (off), (a)[1] + (off), v)
#define K_GATHER_(base, off0, off1, x, y, z, w) KOP(Gather4x2)(base, off0, off1, x, y, z, w)
#define K_SCATTER_(base, off0, off1, x, y, z, w) KOP(Scatter4x2)(base, off0, off1, x, y, z, w)
#define K_COUNT_(m) KOP(CountFalse2)(m)
#else
#define K_HALF_ KL
#define K_LD_(a, off) KOP(Load)((a)[0] + (off))
#define K_ST_(a, off, v) KOP(Store)((a)[0] + (off), v)
#define K_GATHER_(base, off0, off1, x, y, z, w) ((void)(off1), KOP(Gather4)(base, off0, x, y, z, w))
#define K_SCATTER_(base, off0, off1, x, y, z, w) ((void)(off1), KOP(Scatter4)(base, off0, x, y, z, w))
#define K_COUNT_(m) KOP(CountFalse)(m)
#endif
_Static_assert(KL <= KB && KB % KL == 0, "a value covers part of one block");

// Half h of a value: lanes o .. of block b, whose constant rows are those of block rb (b itself,
// or a block of a cell unit with the same bytes).
K_INLINE void K_(at)(const icXpbdKernelArgs *args, K_(At) *at, int h, int b, int rb, int o, bool damped) {
    const char *record = args->blocks + (size_t)b * args->blockBytes;
    at->idx[h] = (const unsigned *)record + o;
    at->rows[h] = (const KR *)(args->blocks + (size_t)rb * args->blockBytes + 4 * sizeof(unsigned) * KB) + o;
    at->lambda[h] = (KR *)args->lambda + (size_t)b * 2 * KB + o;
    at->beta[h] = damped ? (const KR *)args->beta + (size_t)b * KB + o : NULL;
}

// a b + c and c - a b: fused in the float kernel, two roundings in the double one.
#if defined(K_FUSED)
#define K_MA_(a, b, c) FMA(a, b, c)
#define K_NMA_(a, b, c) FNMA(a, b, c)
#define K_MS_(a, b, c) FMS(a, b, c)
#else
#define K_MA_(a, b, c) ADD(MUL(a, b), c)
#define K_NMA_(a, b, c) SUB(c, MUL(a, b))
#define K_MS_(a, b, c) SUB(MUL(a, b), c)
#endif

// The coupled projection: both constraints of a tet from one 2x2 solve at the same positions,
// the pair form of Macklin & Müller 2021, eq. 19, with XPBD damping (Macklin et al. 2016, eq. 26). With
// G = F Q^T (grad C_D = G / r), hydrostatic gradients s c (N form: s = det Q, c the face
// normals; F form: s = 1, c = cof F Q^T), S_ab = sum_i a_i^T W_i b_i, p = 1 + gd and unknowns
// c_D = dlambda_D / r and dlambda_H, the system (first row times r) is
//   [p_D S_GG + a~_D r^2   p_D s S_Gc          ] [c_D      ]   [-r^2 - a~_D lambda_D r - gd_D G.dx]
//   [p_H s S_Gc            p_H s^2 S_cc + a~_H] [dlambda_H] = [-C_H - a~_H lambda_H - gd_H s c.dx ]
// and dx_i = W_i (G_i c_D + s c_i dlambda_H). At F = I the two gradients are parallel and the
// solution moves nothing: the pair is rest stable (Macklin & Müller 2021, sec. 3.3), which the sequential
// order is only up to O(h^2). Near rest the matrix is nearly singular in its stiff part, so its
// determinant is not taken as M11 M22 - M12 M21 (float would lose the digits that matter) but
//   det = p_D p_H s^2 S_GG S_pp + p_D S_GG a~_H + a~_D r^2 M22,
// with S_GG S_pp = S_GG S_cc - S_Gc^2 the Gram determinant from c's part across G,
// c_perp = c - (S_Gc / S_GG) G, whose rounding error is second order. Returns how many lanes
// could not be projected (det too small: nothing movable).
__attribute__((always_inline)) static inline int
K_(pair)(const K_(Consts) *k, KT x[4][3], const KT w[4], KT wa[4][3], KT xp[4][3], const K_(At) *at,
         const KT *rows, KT detQ, KT alphaD, KT alphaH, KT gamma, KT gdD, KT gdH, K_FLAGS_) {
    (void)uniform;
    (void)coupled;
    const KT zero = k->zero, one = k->one;
    KT e[3][3], g[4][3], c[4][3];
    K_(edges)(x, e);
#if defined(K_FORM_F)
    (void)detQ;
    KT F[9], P[9];
    K_(deformation)(e, rows, F);
    KT r2 = K_(normSquared)(F);
    K_(gradients)(F, rows, g);
    KT C = SUB(K_(cofactor)(F, P), gamma);
    K_(gradients)(P, rows, c);
#define K_S_(v) (v)
#else
    KT r2 = K_(deviatoric)(e, rows, g);
    KT C = FMS(K_(hydrostatic)(e, c), detQ, gamma);
#define K_S_(v) MUL(detQ, v)
#endif
    const bool needR = load || store;
    KT r = needR ? KOP(Sqrt)(r2) : zero;
    KM gradOk = needR ? KOP(Ge)(r, k->minRs) : KOP(Ge)(r2, k->minR2); // below it G counts as zero
    KT SGG = KOP(Select)(gradOk, K_(weighted)(g, w, wa, axes), zero);
    KT SGc = KOP(Select)(gradOk, K_(weightedDot)(g, c, w, wa, axes), zero);
    KT t = KOP(Select)(KOP(Gt)(SGG, zero), KOP(Div)(SGc, SGG), zero);
    KT perp[4][3];
    K_UNROLL
    for (int i = 0; i < 4; ++i)
        K_UNROLL
        for (int a = 0; a < 3; ++a) perp[i][a] = K_NMA_(t, g[i][a], c[i][a]);
    KT ssCC = K_S_(K_S_(K_(weighted)(c, w, wa, axes)));
    KT ssPP = K_S_(K_S_(K_(weighted)(perp, w, wa, axes)));
    KT sGc = K_S_(SGc);
    KT aD = MUL(alphaD, k->invH2), aH = MUL(alphaH, k->invH2);
    KT lambdaD = load ? K_LD_(at->lambda, 0) : zero, lambdaH = load ? K_LD_(at->lambda, KB) : zero;
    KT b1 = load ? K_NMA_(MUL(aD, lambdaD), r, KOP(Neg)(r2)) : KOP(Neg)(r2);
    KT b2 = load ? K_NMA_(aH, lambdaH, KOP(Neg)(C)) : KOP(Neg)(C);
    KT pD = one, pH = one;
    if (damped) {
        b1 = K_NMA_(gdD, KOP(Select)(gradOk, K_(rate)(g, x, xp), zero), b1);
        b2 = K_NMA_(gdH, K_S_(K_(rate)(c, x, xp)), b2);
        pD = ADD(one, gdD);
        pH = ADD(one, gdH);
    }
    KT pSGG = damped ? MUL(pD, SGG) : SGG;
    KT m11 = K_MA_(aD, r2, pSGG);
    KT m12 = damped ? MUL(pD, sGc) : sGc;
    KT m21 = damped ? MUL(pH, sGc) : sGc;
    KT m22 = damped ? K_MA_(pH, ssCC, aH) : ADD(ssCC, aH);
    KT gram = MUL(SGG, ssPP);
    KT det = K_MA_(MUL(aD, r2), m22, K_MA_(pSGG, aH, damped ? MUL(MUL(pD, pH), gram) : gram));
    KM ok = KOP(Gt)(det, MUL(k->minDen, r2));
    KT inv = KOP(Div)(one, det);
    KT cD = KOP(Select)(ok, MUL(K_MS_(b1, m22, MUL(m12, b2)), inv), zero);
    KT dH = KOP(Select)(ok, MUL(K_MS_(m11, b2, MUL(m21, b1)), inv), zero);
    K_(applyPair)(x, g, c, w, wa, axes, KOP(Select)(gradOk, cD, zero), K_S_(dH));
    if (store) {
        K_ST_(at->lambda, 0, K_MA_(cD, r, lambdaD));
        K_ST_(at->lambda, KB, ADD(lambdaH, dH));
    }
#undef K_S_
    return K_COUNT_(ok);
}

// Both constraints of the lanes of one value (at), at positions x, which it updates. Returns
// how many lanes neither could move.
__attribute__((always_inline)) static inline int
K_(project)(const K_(Consts) *k, KT x[4][3], const KT w[4], KT wa[4][3], KT xp[4][3], const K_(At) *at,
            K_FLAGS_) {
    const KT zero = k->zero;
#if defined(K_FORM_F)
    KT q[9];
    K_UNROLL
    for (int r = 0; r < 9; ++r) q[r] = K_LD_(at->rows, (IC_XPBD_ROW_Q + r) * KB);
    KT detQ = K_LD_(at->rows, IC_XPBD_ROW_F_DET_Q * KB);
#define K_ROW_(name) IC_XPBD_ROW_F_##name
#else
    KT n[6];
    K_UNROLL
    for (int r = 0; r < 6; ++r) n[r] = K_LD_(at->rows, (IC_XPBD_ROW_N + r) * KB);
    KT detQ = K_LD_(at->rows, IC_XPBD_ROW_DET_Q * KB);
#define K_ROW_(name) IC_XPBD_ROW_##name
#endif
    KT gdD = zero, gdH = zero, alphaD, alphaH, gamma;
    if (uniform) { // alpha = 1 / (mu V) with V = 1 / (6 |det Q|)
        KT absDetQ = KOP(Abs)(detQ);
        alphaD = MUL(absDetQ, k->sixOverMu);
        alphaH = MUL(absDetQ, k->sixOverLambda);
        gamma = k->gamma;
    } else {
        alphaD = K_LD_(at->rows, K_ROW_(ALPHA_D) * KB);
        alphaH = K_LD_(at->rows, K_ROW_(ALPHA_H) * KB);
        gamma = K_LD_(at->rows, K_ROW_(GAMMA) * KB);
    }
#undef K_ROW_
    if (damped) {
        // XPBD damping (Macklin et al. 2016, eq. 26): gamma = alpha beta / h.
        KT betaInvH = MUL(K_LD_(at->beta, 0), k->invH);
        gdD = MUL(alphaD, betaInvH);
        gdH = MUL(alphaH, betaInvH);
    }
#if defined(K_FORM_F)
    if (coupled) return K_(pair)(k, x, w, wa, xp, at, q, detQ, alphaD, alphaH, gamma, gdD, gdH, K_FLAGS_PASS_);
#else
    if (coupled) return K_(pair)(k, x, w, wa, xp, at, n, detQ, alphaD, alphaH, gamma, gdD, gdH, K_FLAGS_PASS_);
#endif
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
    KT r2 = K_(normSquared)(F);
    K_(gradients)(F, q, g);
#else
    KT r2 = K_(deviatoric)(e, n, g);
#endif
    const bool needR = load || store;
    KT r = needR ? KOP(Sqrt)(r2) : zero;
    KM gradOk = needR ? KOP(Ge)(r, k->minRs) : KOP(Ge)(r2, k->minR2); // below it the gradient counts as zero
    KT S = KOP(Select)(gradOk, K_(weighted)(g, w, wa, axes), zero);
    KT aT = MUL(alphaD, k->invH2);
    KT lambdaD = load ? K_LD_(at->lambda, 0) : zero;
#if defined(K_FUSED)
    KT top = load ? FNMA(MUL(aT, lambdaD), r, KOP(Neg)(r2)) : KOP(Neg)(r2);
    if (damped) top = FNMA(gdD, KOP(Select)(gradOk, K_(rate)(g, x, xp), zero), top);
    KT den = FMA(aT, r2, damped ? MUL(ADD(k->one, gdD), S) : S);
#else
    KT top = load ? SUB(KOP(Neg)(r2), MUL(MUL(aT, lambdaD), r)) : KOP(Neg)(r2);
    if (damped) top = SUB(top, MUL(gdD, KOP(Select)(gradOk, K_(rate)(g, x, xp), zero)));
    KT den = ADD(damped ? MUL(ADD(k->one, gdD), S) : S, MUL(aT, r2));
#endif
    KM okD = KOP(Gt)(den, MUL(k->minDen, r2));
    KT c = KOP(Select)(okD, KOP(Div)(top, den), zero);
    K_(apply)(x, g, w, wa, axes, KOP(Select)(gradOk, c, zero));
#if defined(K_FUSED)
    if (store) K_ST_(at->lambda, 0, FMA(c, r, lambdaD));
#else
    if (store) K_ST_(at->lambda, 0, ADD(lambdaD, MUL(c, r)));
#endif

    // Hydrostatic, C_H = det F - gamma at the positions the deviatoric step left.
    K_(edges)(x, e);
#if defined(K_FORM_F)
    // The reference's arithmetic: F, cof F (Macklin & Müller 2021, supplement, eq. 5),
    // grad = cof F Q^T.
    K_(deformation)(e, q, F);
    KT P[9];
    KT C = SUB(K_(cofactor)(F, P), gamma);
    K_(gradients)(P, q, g);
    S = K_(weighted)(g, w, wa, axes);
#else
    // With the gradients det Q c_i: S = det Q^2 sum w |c_i|^2, the rate det Q sum c_i.dx_i,
    // and dx_i = w_i c_i (det Q dlambda).
    KT C = FMS(K_(hydrostatic)(e, g), detQ, gamma);
    S = MUL(MUL(detQ, detQ), K_(weighted)(g, w, wa, axes));
#endif
    aT = MUL(alphaH, k->invH2);
    KT lambdaH = load ? K_LD_(at->lambda, KB) : zero;
#if defined(K_FORM_F)
    top = load ? SUB(KOP(Neg)(C), MUL(aT, lambdaH)) : KOP(Neg)(C); // -C - 0 is -C
    if (damped) top = SUB(top, MUL(gdH, K_(rate)(g, x, xp)));
#else
    top = load ? FNMA(aT, lambdaH, KOP(Neg)(C)) : KOP(Neg)(C);
    if (damped) top = FNMA(gdH, MUL(detQ, K_(rate)(g, x, xp)), top);
#endif
    den = ADD(damped ? MUL(ADD(k->one, gdH), S) : S, aT);
    KM okH = KOP(Gt)(den, k->minDen);
    KT dlambda = KOP(Select)(okH, KOP(Div)(top, den), zero);
#if defined(K_FORM_F)
    K_(apply)(x, g, w, wa, axes, dlambda);
#else
    K_(apply)(x, g, w, wa, axes, MUL(detQ, dlambda));
#endif
    if (store) K_ST_(at->lambda, KB, ADD(lambdaH, dlambda));
    return K_COUNT_(KOP(Or)(okD, okH));
}

// The vertex records (and per-axis masses, substep start positions) of `count` vertex slots
// (slot i at off0 + i KB, and off1 + i KB for a pair's second half).
__attribute__((always_inline)) static inline void
K_(gather)(const K_(Consts) *k, const icXpbdKernelArgs *args, const unsigned *off0, const unsigned *off1,
           int count, KT x[][3], KT w[], KT wa[][3], KT xp[][3], const bool axes, const bool damped) {
    KT unused;
    K_UNROLL
    for (int i = 0; i < count; ++i) {
        K_GATHER_((const KR *)args->x, off0 + i * KB, off1 + i * KB, &x[i][0], &x[i][1], &x[i][2], &w[i]);
        if (axes)
            K_GATHER_((const KR *)args->wAxes, off0 + i * KB, off1 + i * KB, &wa[i][0], &wa[i][1], &wa[i][2], &unused);
        else
            wa[i][0] = wa[i][1] = wa[i][2] = k->zero;
        if (damped)
            K_GATHER_((const KR *)args->xPrev, off0 + i * KB, off1 + i * KB, &xp[i][0], &xp[i][1], &xp[i][2], &unused);
        else
            xp[i][0] = xp[i][1] = xp[i][2] = k->zero;
    }
}

// Blocks stream from memory on large meshes: ask for a later one while this one computes
// (the hardware prefetcher alone leaves the loads waiting).
K_INLINE void K_(prefetch)(const icXpbdKernelArgs *args, int b) {
    const char *record = args->blocks + (size_t)(b + K_PREFETCH_BLOCKS) * args->blockBytes;
    for (size_t line = 0; line < args->blockBytes; line += 64) __builtin_prefetch(record + line, 0, 3);
}

// The block loop for one combination of flags.
__attribute__((always_inline)) static inline int K_(blocks)(const icXpbdKernelArgs *args, const K_(Consts) *k,
                                                            int blockStart, int blockEnd, K_FLAGS_) {
    int skipped = 0;
    for (int b = blockStart; b < blockEnd; ++b) {
        if (b + K_PREFETCH_BLOCKS < blockEnd) K_(prefetch)(args, b);
        for (int o = 0; o < KB; o += KL) {
            K_(At) at;
            K_(at)(args, &at, 0, b, b, o, damped);
            K_(at)(args, &at, 1, b, b, o + KL - K_HALF_, damped);
            KT x[4][3], w[4], wa[4][3], xp[4][3];
            K_(gather)(k, args, at.idx[0], at.idx[1], 4, x, w, wa, xp, axes, damped);
            skipped += K_(project)(k, x, w, wa, xp, &at, K_FLAGS_PASS_);
            K_UNROLL
            for (int i = 0; i < 4; ++i)
                K_SCATTER_((KR *)args->x, at.idx[0] + i * KB, at.idx[1] + i * KB, x[i][0], x[i][1], x[i][2], w[i]);
        }
    }
    return skipped;
}

// Tet s of a unit (block first + s, constant rows of block rows + s) on the corners pattern p
// of the lanes' corner values, which it updates.
__attribute__((always_inline)) static inline int
K_(cornerTet)(const icXpbdKernelArgs *args, const K_(Consts) *k, int first, int rows, int s, int o, int o1,
              const unsigned char *p, KT cx[8][3], KT cw[8], KT cwa[8][3], KT cxp[8][3], K_FLAGS_) {
    if (o == 0 && rows == first) K_(prefetch)(args, first + s);
    K_(At) at;
    K_(at)(args, &at, 0, first + s, rows + s, o, damped);
    K_(at)(args, &at, 1, first + s, rows + s, o1, damped);
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
    int skipped = K_(project)(k, x, w, wa, xp, &at, K_FLAGS_PASS_);
    K_UNROLL
    for (int i = 0; i < 4; ++i)
        K_UNROLL
        for (int a = 0; a < 3; ++a) cx[p[i]][a] = x[i][a];
    return skipped;
}

// The grid generator's tet patterns (src/mesh/grid.c; corners numbered by octant, tets in index
// order, oriented): the Kuhn split in 6 (its default) and the 5-split of even and odd cells. A
// unit whose cells use one of them runs a copy of the loop below with the pattern as constants,
// so the corners stay in registers across its projections (read at run time they go through the
// stack); any mesh whose cells have exactly such a pattern qualifies. Float kernels, usual
// sweeps: on the 6-split hex box 12.2 -> 11.35 cycles a tet (AVX-512), 15.6 -> 14.6 (AVX2),
// 36 -> 31 (portable), 136 -> 125 (one lane); the double kernels gained nothing (portable double
// ran 30 % slower). Out of line: inlined next to the general loop, it slowed that loop (AVX2 hex
// 15.6 -> 17.5).
#if defined(K_FUSED) && !defined(K_NO_KNOWN_PATTERNS)
#define K_KNOWN_ 1
static const unsigned char K_(known)[3][6][4] = {
    {{0, 3, 1, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 6, 2, 7}, {0, 5, 4, 7}, {0, 4, 6, 7}},
    {{0, 2, 1, 4}, {3, 1, 2, 7}, {5, 4, 1, 7}, {6, 2, 4, 7}, {1, 4, 2, 7}},
    {{1, 0, 3, 5}, {2, 3, 0, 6}, {4, 0, 5, 6}, {7, 5, 3, 6}, {0, 3, 5, 6}},
};
K_INLINE int K_(knownUnit)(const icXpbdKernelArgs *args, const K_(Consts) *k, const icXpbdCells *cells, int u,
                           const int which, const int tets, K_FLAGS_) {
    const unsigned *corners = cells->corners + (size_t)u * 8 * KB;
    int first = cells->unitBlocks[u], rows = cells->constBlocks[u], skipped = 0;
    for (int o = 0; o < KB; o += KL) {
        const int o1 = o + KL - K_HALF_;
        KT cx[8][3], cw[8], cwa[8][3], cxp[8][3];
        K_(gather)(k, args, corners + o, corners + o1, 8, cx, cw, cwa, cxp, axes, damped);
        K_UNROLL
        for (int s = 0; s < tets; ++s)
            skipped +=
                K_(cornerTet)(args, k, first, rows, s, o, o1, K_(known)[which][s], cx, cw, cwa, cxp, K_FLAGS_PASS_);
        K_UNROLL
        for (int c = 0; c < 8; ++c)
            K_SCATTER_((KR *)args->x, corners + o + c * KB, corners + o1 + c * KB, cx[c][0], cx[c][1], cx[c][2], cw[c]);
    }
    return skipped;
}
// Which of K_(known) a unit's pattern is (its first `slots` tets), or -1.
static inline int K_(knownPattern)(const unsigned char *pattern, int slots) {
    for (int which = 0; which < 3; ++which)
        if (slots == (which == 0 ? 6 : 5) && memcmp(pattern, K_(known)[which], 4 * (size_t)slots) == 0) return which;
    return -1;
}
__attribute__((noinline)) static int K_(kuhnUnit)(const icXpbdKernelArgs *args, const K_(Consts) *k,
                                                   const icXpbdCells *cells, int u, K_FLAGS_) {
    return K_(knownUnit)(args, k, cells, u, 0, 6, K_FLAGS_PASS_);
}
__attribute__((noinline)) static int K_(fiveEvenUnit)(const icXpbdKernelArgs *args, const K_(Consts) *k,
                                                       const icXpbdCells *cells, int u, K_FLAGS_) {
    return K_(knownUnit)(args, k, cells, u, 1, 5, K_FLAGS_PASS_);
}
__attribute__((noinline)) static int K_(fiveOddUnit)(const icXpbdKernelArgs *args, const K_(Consts) *k,
                                                      const icXpbdCells *cells, int u, K_FLAGS_) {
    return K_(knownUnit)(args, k, cells, u, 2, 5, K_FLAGS_PASS_);
}
#else
#define K_KNOWN_ 0
#endif

// Units with a shared tet pattern: each lane's corners (8 of a hex cell, or 5 of a pair of
// tets that share a face) are gathered once, its tets projected in order on them (tet s uses
// corners pattern[s][0..3]), and the corners written back once: a third (cells) or five
// eighths (pairs) of the gathers of tet by tet, with the same bits. The pairs' pattern is
// always the same, {0 1 2 3} then {0 1 2 4}: as constants the corners stay in registers; so do
// those of the known cell patterns above (usual: one of the usual sweeps, below).
__attribute__((always_inline)) static inline int K_(cells)(const icXpbdKernelArgs *args, const K_(Consts) *k,
                                                           const icXpbdCells *cells, int unitStart, int unitEnd,
                                                           const int nc, const bool usual, K_FLAGS_) {
    static const unsigned char pairPattern[2][4] = {{0, 1, 2, 3}, {0, 1, 2, 4}};
    int skipped = 0;
    for (int u = unitStart; u < unitEnd; ++u) {
        const unsigned *corners = cells->corners + (size_t)u * 8 * KB;
        const unsigned char *pattern = cells->pattern + (size_t)u * IC_XPBD_MAX_CELL_TETS * 4;
        int first = cells->unitBlocks[u], slots = cells->unitBlocks[u + 1] - first;
        int rows = cells->constBlocks[u]; // == first unless the rows are shared (no stream)
#if K_KNOWN_
        int which = nc == 8 && usual ? K_(knownPattern)(pattern, slots) : -1;
        if (which >= 0) {
            skipped += which == 0   ? K_(kuhnUnit)(args, k, cells, u, K_FLAGS_PASS_)
                       : which == 1 ? K_(fiveEvenUnit)(args, k, cells, u, K_FLAGS_PASS_)
                                    : K_(fiveOddUnit)(args, k, cells, u, K_FLAGS_PASS_);
            continue;
        }
#else
        (void)usual;
#endif
        for (int o = 0; o < KB; o += KL) {
            const int o1 = o + KL - K_HALF_; // the second half's lanes (o itself without pairs)
            KT cx[8][3], cw[8], cwa[8][3], cxp[8][3];
            K_(gather)(k, args, corners + o, corners + o1, nc, cx, cw, cwa, cxp, axes, damped);
            if (nc == 5) {
                // Written out rather than an unroll pragma: with both projections inlined,
                // clang under the sanitizers gives up unrolling it (an error with -Werror).
                skipped += K_(cornerTet)(args, k, first, rows, 0, o, o1, pairPattern[0], cx, cw, cwa, cxp,
                                         K_FLAGS_PASS_);
                skipped += K_(cornerTet)(args, k, first, rows, 1, o, o1, pairPattern[1], cx, cw, cwa, cxp,
                                         K_FLAGS_PASS_);
            } else {
                for (int s = 0; s < slots; ++s)
                    skipped += K_(cornerTet)(args, k, first, rows, s, o, o1, pattern + 4 * s, cx, cw, cwa, cxp,
                                             K_FLAGS_PASS_);
            }
            K_UNROLL
            for (int c = 0; c < nc; ++c)
                K_SCATTER_((KR *)args->x, corners + o + c * KB, corners + o1 + c * KB, cx[c][0], cx[c][1], cx[c][2],
                           cw[c]);
        }
    }
    return skipped;
}

// The usual sweeps (one material, no per-axis masses, no damping; multipliers zero and not
// kept, zero and kept, or read and kept; coupled or sequential) get loops of their own;
// anything else the general one.
// call(usual, flags...): usual says which.
#define K_DISPATCH_(call)                                                                                   \
    do {                                                                                                    \
        if (k.uniform && !k.axes && !k.damped && k.coupled) {                                               \
            if (!k.load && !k.store) return call(true, true, false, false, false, false, true);             \
            if (!k.load) return call(true, true, false, false, false, true, true);                          \
            if (k.store) return call(true, true, false, false, true, true, true);                           \
        }                                                                                                   \
        if (k.uniform && !k.axes && !k.damped && !k.coupled) {                                              \
            if (!k.load && !k.store) return call(true, true, false, false, false, false, false);            \
            if (!k.load) return call(true, true, false, false, false, true, false);                         \
            if (k.store) return call(true, true, false, false, true, true, false);                          \
        }                                                                                                   \
        return call(false, k.uniform, k.axes, k.damped, k.load, k.store, k.coupled);                        \
    } while (0)

int K_NAME(const icXpbdKernelArgs *args, int blockStart, int blockEnd) {
    K_(Consts) k;
    K_(consts)(args, &k);
#define K_CALL_(usual, ...) K_(blocks)(args, &k, blockStart, blockEnd, __VA_ARGS__)
    K_DISPATCH_(K_CALL_);
#undef K_CALL_
}

int K_CELL_NAME(const icXpbdKernelArgs *args, const icXpbdCells *cells, int unitStart, int unitEnd) {
    K_(Consts) k;
    K_(consts)(args, &k);
#define K_CALL_(...) K_(cells)(args, &k, cells, unitStart, unitEnd, 8, __VA_ARGS__)
#define K_CALL_PAIRS_(...) K_(cells)(args, &k, cells, unitStart, unitEnd, 5, __VA_ARGS__)
    if (cells->cornerCount == 5) K_DISPATCH_(K_CALL_PAIRS_);
    K_DISPATCH_(K_CALL_);
#undef K_CALL_
#undef K_CALL_PAIRS_
}

#undef K_DISPATCH_
#undef K_MA_
#undef K_NMA_
#undef K_MS_
#undef K_KNOWN_
#undef K_HALF_
#undef K_LD_
#undef K_ST_
#undef K_GATHER_
#undef K_SCATTER_
#undef K_COUNT_
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
#if defined(K_FUSED)
#undef K_FUSED
#undef FMA
#undef FMS
#undef FNMA
#endif
#undef K_UNROLL
#undef K_PREFETCH_BLOCKS
#undef K_INLINE
