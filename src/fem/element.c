// SPDX-License-Identifier: MIT
// Linear tetrahedron kinematics: rest data, deformation gradient, forces, stiffness.
#include "isochor/fem.h"

// Sifakis & Barbič 2012, sec. 4.2: Dm = [X1-X4, X2-X4, X3-X4], Q = Dm^-1, W = det/6.
icResult icTet_Rest(const icVec3 X[4], icTetRest *rest) {
    icMat3 dm = icMat3_FromCols(icVec3_Sub(X[0], X[3]), icVec3_Sub(X[1], X[3]),
                                icVec3_Sub(X[2], X[3]));
    icReal det = icMat3_Det(dm);
    icReal longest = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) longest = fmax(longest, icVec3_Distance(X[a], X[b]));
    if (!isfinite(det) || !(fabs(det) >= 1e-12 * longest * longest * longest) || longest == 0)
        return IC_ERR_DEGENERATE_ELEMENT;
    if (det < 0) return IC_ERR_INVERTED_ELEMENT;
    rest->Q = icMat3_Inverse(dm, NULL);
    rest->W = det / 6;
    return IC_OK;
}

icMat3 icTet_DeformationGradient(const icVec3 x[4], icMat3 Q) {
    icMat3 ds = icMat3_FromCols(icVec3_Sub(x[0], x[3]), icVec3_Sub(x[1], x[3]),
                                icVec3_Sub(x[2], x[3]));
    return icMat3_Mul(ds, Q);
}

// g_a = Q^T e_a (row a of Q), g_4 = -(g_1 + g_2 + g_3) (Sifakis & Barbič 2012, sec. 4.2).
void icTet_ShapeGradients(icMat3 Q, icVec3 g[4]) {
    g[0] = icMat3_Row(Q, 0);
    g[1] = icMat3_Row(Q, 1);
    g[2] = icMat3_Row(Q, 2);
    g[3] = icVec3_Neg(icVec3_Add(icVec3_Add(g[0], g[1]), g[2]));
}

// H = -W P Q^T, f4 = -(f1 + f2 + f3) (Sifakis & Barbič 2012, eq. 4.7).
void icTet_ForcesFromStress(icMat3 P, const icTetRest *rest, icVec3 f[4]) {
    icMat3 h = icMat3_Scale(-rest->W, icMat3_MulTrans(P, rest->Q));
    f[0] = h.col[0];
    f[1] = h.col[1];
    f[2] = h.col[2];
    f[3] = icVec3_Neg(icVec3_Add(icVec3_Add(h.col[0], h.col[1]), h.col[2]));
}

void icTet_Forces(const icMaterial *material, const icTetRest *rest, const icVec3 x[4],
                  icVec3 f[4]) {
    icMat3 F = icTet_DeformationGradient(x, rest->Q);
    icTet_ForcesFromStress(icMaterial_Stress(material, F), rest, f);
}

// dF = dDs Q, dH = -W dP(F; dF) Q^T (Sifakis & Barbič 2012, sec. 4.3).
void icTet_ForceDifferential(const icMaterial *material, const icTetRest *rest,
                             const icVec3 x[4], const icVec3 dx[4], icVec3 df[4]) {
    icMat3 F = icTet_DeformationGradient(x, rest->Q);
    icMat3 dF = icTet_DeformationGradient(dx, rest->Q);
    icTet_ForcesFromStress(icMaterial_StressDifferential(material, F, dF), rest, df);
}

// K_e = W B^T Hf B, vec(F) = B x_e: [K_e](3a+i, 3b+k) = W sum_{j,l} Hf(i,j),(k,l) g_a[j] g_b[l].
// The 9x9 part of vertices 1..3 is formed first (T = Hf (G (x) I), then G^T-weighted sums);
// row and column 4 follow from g_4 = -sum g_a. Branch-free loops over contiguous rows so
// the compiler vectorises them.
void icTet_StiffnessBlocks(const icReal hessian[81], const icTetRest *rest, icReal blocks[16][9]) {
    icReal g[3][3]; // g[a][j] = Q(a, j)
    for (int a = 0; a < 3; ++a)
        for (int j = 0; j < 3; ++j) g[a][j] = icMat3_At(&rest->Q, a, j);
    // t[c][r] = sum_l Hf[r, (k,l)] g_b[l] with c = 3b + k: column c of Hf (G^T (x) I)
    icReal t[9][9];
    for (int k = 0; k < 3; ++k) {
        const icReal *h0 = hessian + 9 * k, *h1 = hessian + 9 * (3 + k), *h2 = hessian + 9 * (6 + k);
        for (int b = 0; b < 3; ++b) {
            icReal g0 = g[b][0], g1 = g[b][1], g2 = g[b][2];
            icReal *tc = t[3 * b + k];
            for (int r = 0; r < 9; ++r) tc[r] = h0[r] * g0 + h1[r] * g1 + h2[r] * g2;
        }
    }
    // block (a, b), entry (i, k) = W sum_j g_a[j] t[3b+k][3j+i]
    const icReal W = rest->W;
    for (int a = 0; a < 3; ++a) {
        icReal w0 = W * g[a][0], w1 = W * g[a][1], w2 = W * g[a][2];
        for (int b = 0; b < 3; ++b) {
            icReal *blk = blocks[4 * a + b];
            for (int k = 0; k < 3; ++k) {
                const icReal *tc = t[3 * b + k];
                for (int i = 0; i < 3; ++i) blk[3 * k + i] = w0 * tc[i] + w1 * tc[3 + i] + w2 * tc[6 + i];
            }
        }
    }
    // column 4: block (a, 3) = -sum_b block (a, b); row 4 by symmetry; (3, 3) = -sum_a (a, 3)
    for (int a = 0; a < 3; ++a) {
        icReal *col4 = blocks[4 * a + 3];
        const icReal *b0 = blocks[4 * a], *b1 = blocks[4 * a + 1], *b2 = blocks[4 * a + 2];
        for (int e = 0; e < 9; ++e) col4[e] = -(b0[e] + b1[e] + b2[e]);
        icReal *row4 = blocks[12 + a];
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 3; ++i) row4[3 * k + i] = col4[3 * i + k];
    }
    for (int e = 0; e < 9; ++e) blocks[15][e] = -(blocks[3][e] + blocks[7][e] + blocks[11][e]);
}

void icTet_Stiffness(const icReal hessian[81], const icTetRest *rest, icReal stiffness[144]) {
    icReal blocks[16][9];
    icTet_StiffnessBlocks(hessian, rest, blocks);
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            for (int k = 0; k < 3; ++k)
                for (int i = 0; i < 3; ++i)
                    stiffness[(3 * a + i) + 12 * (3 * b + k)] = blocks[4 * a + b][3 * k + i];
}
