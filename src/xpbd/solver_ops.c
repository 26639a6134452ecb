// SPDX-License-Identifier: MIT
// The XPBD solver's row of the solver table (src/world/solver.h): Macklin & Müller 2021.
#include "world/solver.h"
#include "xpbd/layout.h"

// The XPBD constraints are the Macklin-Müller energy; any other model would silently simulate
// a different material.
static icResult checkMaterial(const icSoftBodyDef *def, icDiagnostic *diag) {
    if (def->model != IC_MATERIAL_MM)
        return icDiag_Set(diag, IC_ERR_UNSUPPORTED, "", 0,
                          "the XPBD solver minimises the 'mm' energy only; use model \"mm\" "
                          "or a force-based solver for other materials");
    return IC_OK;
}

static icResult step(icWorld *world, icReal dt, icStepStats *stats) {
    return icXpbd_Step(world, world->state, dt, stats);
}

static icResult solveStatic(icWorld *world, const icStaticDef *def, icStepStats *stats) {
    return icXpbd_SolveStatic(world, world->state, def, stats);
}

// The reference sweep (meshes too large for 32-bit offsets) walks
// greedy colours in tet order; the packed sweep builds its own order and data
// (src/xpbd/layout.c). Both are rebuilt after bodies are added.
icResult icModel_UpdateColouring(icModel *model) {
    icResult pr = icModel_EnsurePool(model);
    if (pr != IC_OK) return pr;
    if (model->colouringDirty || !icXpbdLayout_Matches(model->layout, model)) {
        icXpbdLayout_Destroy(model->layout);
        model->layout = NULL;
        icColouring_Destroy(&model->colouring);
        icResult r = icXpbdLayout_Create(model, &model->layout);
        if (r != IC_OK && r != IC_ERR_UNSUPPORTED) return r;
        model->colouringDirty = false;
        icModel_MeasureBodies(model);
    }
    bool reference = !model->layout;
    if (reference && !model->colouring.colourStart) {
        icTetMesh view = {0};
        view.vertexCount = model->vertexCount;
        view.tetCount = model->tetCount;
        view.positions = model->restPositions;
        view.tets = model->tets;
        return icTetMesh_ColourGreedy(&view, &model->colouring);
    }
    return IC_OK;
}

// The packed sweep order and data live with the model (rebuilt when bodies are added).
static void destroy(icWorld *world) {
    icXpbdLayout_Destroy(world->model.layout);
    world->model.layout = NULL;
}

const icSolverOps icXpbdSolverOps = {
    .name = "xpbd",
    .features = IC_FEATURE_STATIC_SOLVE | IC_FEATURE_ADAPTIVE_SUBSTEPS | IC_FEATURE_BONES |
                IC_FEATURE_BODY_CONTACT,
    // A body of more than 8,192 tets is cut into slabs that two workers sweep at once;
    // smaller ones share each colour, too small to pay for the hand-overs.
    .autoMinTets = 8193,
    .checkMaterial = checkMaterial,
    .step = step,
    .solveStatic = solveStatic,
    .destroy = destroy,
};
