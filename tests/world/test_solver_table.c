// SPDX-License-Identifier: MIT
// The solver table as a user meets it: icSolver_Supports says exactly which calls each solver
// refuses with IC_ERR_UNSUPPORTED, docs/architecture.md tabulates the same answers, and
// icWorld_GetProfile splits a step into its stages.
#include "test.h"

#include <stdlib.h>
#include <string.h>

static const icSolverType s_solvers[] = {IC_SOLVER_XPBD, IC_SOLVER_NEWTON,
                                         IC_SOLVER_INCOMPRESSIBLE};
enum { IC_SOLVER_COUNT = 3 };

static icWorld *boxWorld(icSolverType solver, icMaterialModel model) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver = solver;
    wd.gravity = icVec3_Make(0, -9.81, 0);
    icWorld *w = icCreateWorld(&wd);
    if (!w) return NULL;
    icTetMesh mesh = {0};
    int cells[3] = {3, 2, 2};
    IC_CHECK_RESULT(icGenerateBox(&mesh, icVec3_Make(0.3, 0.2, 0.2), cells, 6), IC_OK);
    icSoftBodyDef bd = icDefaultSoftBodyDef();
    bd.model = model;
    bd.youngsModulus = 1e5;
    bd.poissonRatio = 0.4;
    bd.translation = icVec3_Make(0, 0.2, 0);
    icResult r = icWorld_CreateSoftBody(w, &mesh, &bd, NULL, NULL);
    icTetMesh_Destroy(&mesh);
    if (r != IC_OK) {
        icDestroyWorld(w);
        return NULL;
    }
    return w;
}

// What each feature's call returns in a world of this solver: IC_ERR_UNSUPPORTED or not.
static bool refuses(icSolverType solver, icSolverFeature feature) {
    icResult r = IC_OK;
    if (feature == IC_FEATURE_ANY_MATERIAL) {
        icWorld *w = boxWorld(solver, IC_MATERIAL_COROTATED);
        if (w) icDestroyWorld(w);
        return w == NULL; // the only refusal possible here: an unsupported model
    }
    icWorld *w = boxWorld(solver, IC_MATERIAL_MM);
    IC_CHECK(w != NULL);
    if (!w) return false;
    switch (feature) {
    case IC_FEATURE_STATIC_SOLVE: {
        icStaticDef sd = icDefaultStaticDef();
        sd.maxSweeps = 5;
        r = icWorld_SolveStatic(w, &sd, NULL);
        break;
    }
    case IC_FEATURE_BONES: {
        icBoneDef bd = icDefaultBoneDef();
        r = icWorld_AddBone(w, &bd, NULL);
        break;
    }
    case IC_FEATURE_BODY_CONTACT: {
        icContactDef cd = icDefaultContactDef();
        cd.selfContact = true;
        r = icWorld_SetContactDef(w, &cd);
        break;
    }
    case IC_FEATURE_MOVING_PLANES: {
        icMovingPlaneDef pd = icDefaultMovingPlaneDef();
        r = icWorld_AddMovingPlane(w, &pd);
        break;
    }
    default: break;
    }
    icDestroyWorld(w);
    return r == IC_ERR_UNSUPPORTED;
}

IC_TEST(world, solver_features_match_what_the_calls_refuse) {
    const icSolverFeature features[] = {IC_FEATURE_STATIC_SOLVE, IC_FEATURE_BONES,
                                        IC_FEATURE_BODY_CONTACT, IC_FEATURE_MOVING_PLANES,
                                        IC_FEATURE_ANY_MATERIAL};
    for (int s = 0; s < IC_SOLVER_COUNT; ++s)
        for (size_t f = 0; f < sizeof features / sizeof features[0]; ++f) {
            bool supported = icSolver_Supports(s_solvers[s], features[f]);
            IC_CHECK_MSG(refuses(s_solvers[s], features[f]) == !supported,
                         "%s, feature %d: supported %d but the call %s",
                         icSolver_Name(s_solvers[s]), (int)features[f], supported,
                         supported ? "refuses" : "is taken");
        }
    IC_CHECK(strcmp(icSolver_Name(IC_SOLVER_XPBD), "xpbd") == 0);
    IC_CHECK(strcmp(icSolver_Name(IC_SOLVER_NEWTON), "newton") == 0);
    IC_CHECK(strcmp(icSolver_Name(IC_SOLVER_INCOMPRESSIBLE), "incompressible") == 0);
    IC_CHECK(strcmp(icSolver_Name((icSolverType)99), "") == 0);
    IC_CHECK(!icSolver_Supports((icSolverType)99, IC_FEATURE_STATIC_SOLVE));
    IC_CHECK(!icSolver_Supports((icSolverType)-1, IC_FEATURE_STATIC_SOLVE));
}

// A solver without adaptive substeps ignores the def's strain: it does not enter the model hash
// (so checkpoints do not depend on it) exactly where the feature is missing.
static uint64_t hashWithStrain(icSolverType solver, icReal strain) {
    icWorldDef wd = icDefaultWorldDef();
    wd.solver = solver;
    wd.maxSubstepStrain = strain;
    icWorld *w = icCreateWorld(&wd);
    IC_CHECK(w != NULL);
    if (!w) return 0;
    uint64_t h = icWorld_HashModel(w);
    icDestroyWorld(w);
    return h;
}

IC_TEST(world, adaptive_substep_strain_acts_where_supported) {
    for (int s = 0; s < IC_SOLVER_COUNT; ++s) {
        bool differs = hashWithStrain(s_solvers[s], 0.005) != hashWithStrain(s_solvers[s], 0.01);
        IC_CHECK_MSG(differs == icSolver_Supports(s_solvers[s], IC_FEATURE_ADAPTIVE_SUBSTEPS),
                     "%s", icSolver_Name(s_solvers[s]));
    }
}

// docs/architecture.md's table "| feature | xpbd | newton | incompressible |": one row per
// feature, named by its enum, "yes" or "no" per solver, as icSolver_Supports answers.
IC_TEST(world, architecture_doc_lists_the_solver_features) {
    char *doc = icTest_ReadFile(icTest_SourcePath("docs/architecture.md"), NULL);
    IC_REQUIRE(doc);
    const struct {
        const char *name;
        icSolverFeature feature;
    } rows[] = {
        {"IC_FEATURE_STATIC_SOLVE", IC_FEATURE_STATIC_SOLVE},
        {"IC_FEATURE_ADAPTIVE_SUBSTEPS", IC_FEATURE_ADAPTIVE_SUBSTEPS},
        {"IC_FEATURE_BONES", IC_FEATURE_BONES},
        {"IC_FEATURE_BODY_CONTACT", IC_FEATURE_BODY_CONTACT},
        {"IC_FEATURE_MOVING_PLANES", IC_FEATURE_MOVING_PLANES},
        {"IC_FEATURE_ANY_MATERIAL", IC_FEATURE_ANY_MATERIAL},
    };
    IC_CHECK(strstr(doc, "| xpbd | newton | incompressible |") != NULL);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        char key[64];
        IC_FORMAT(key, "| `%s` |", rows[i].name);
        const char *row = strstr(doc, key);
        IC_CHECK_MSG(row != NULL, "no row %s", key);
        if (!row) continue;
        row += strlen(key);
        for (int s = 0; s < IC_SOLVER_COUNT; ++s) {
            while (*row == ' ') ++row;
            bool yes = strncmp(row, "yes", 3) == 0, no = strncmp(row, "no", 2) == 0;
            IC_CHECK_MSG(yes || no, "%s: cell %d is neither yes nor no", rows[i].name, s);
            IC_CHECK_MSG(yes == icSolver_Supports(s_solvers[s], rows[i].feature), "%s, %s",
                         rows[i].name, icSolver_Name(s_solvers[s]));
            row = strchr(row, '|');
            if (!row) break;
            ++row;
        }
    }
    free(doc);
}

// The profile's stages: zero before the first step; after one, the step holds its solve and
// health checks, and the solve holds the collision gathering, which runs where something can
// be touched (a sphere collider for XPBD, a ground plane for Newton, proximity pairs for the
// incompressible solver's self contact).
IC_TEST(world, profile_splits_a_step_into_its_stages) {
    for (int s = 0; s < IC_SOLVER_COUNT; ++s) {
        icWorld *w = boxWorld(s_solvers[s], IC_MATERIAL_MM);
        IC_REQUIRE(w);
        icProfile p = icWorld_GetProfile(w);
        IC_CHECK(p.step == 0 && p.solve == 0 && p.collide == 0 && p.health == 0);
        if (s_solvers[s] == IC_SOLVER_XPBD) {
            icColliderDef cd = icDefaultColliderDef();
            cd.radius = 0.1;
            IC_CHECK_RESULT(icWorld_AddCollider(w, &cd, NULL, NULL), IC_OK);
        } else if (s_solvers[s] == IC_SOLVER_NEWTON) {
            icPlaneDef pd = icDefaultPlaneDef();
            IC_CHECK_RESULT(icWorld_AddPlane(w, &pd), IC_OK);
        } else {
            icIncompressibleDef d = icDefaultIncompressibleDef();
            d.selfContact = true;
            IC_CHECK_RESULT(icWorld_SetIncompressibleDef(w, &d), IC_OK);
        }
        IC_CHECK_RESULT(icWorld_Step(w, 1.0 / 60, NULL), IC_OK);
        p = icWorld_GetProfile(w);
        const char *name = icSolver_Name(s_solvers[s]);
        IC_CHECK_MSG(p.solve > 0 && p.collide > 0 && p.health >= 0, "%s: %g %g %g", name,
                     p.solve, p.collide, p.health);
        IC_CHECK_MSG(p.collide <= p.solve, "%s: collide %g > solve %g", name, p.collide, p.solve);
        IC_CHECK_MSG(p.solve + p.health <= p.step * (1 + 1e-12), "%s: %g + %g > %g", name,
                     p.solve, p.health, p.step);
        icDestroyWorld(w);
    }
}

// Every solver writes its own stress into the frame fields: the XPBD multipliers, Newton's
// material stress, the incompressible solver's vertex pressures and elastic stress. A box
// stretched by 10 % along x and stepped once carries a deviatoric stress in every tet and a
// finite pressure (the incompressible one's deviatoric norm was once left at zero).
IC_TEST(world, every_solver_writes_its_own_stress_fields) {
    for (int s = 0; s < IC_SOLVER_COUNT; ++s) {
        icWorld *w = boxWorld(s_solvers[s], IC_MATERIAL_MM);
        IC_REQUIRE(w);
        int nv = icWorld_GetVertexCount(w), nt = icWorld_GetTetCount(w);
        icReal *x = icWorld_GetPositionsMutable(w);
        for (int v = 0; v < nv; ++v) x[3 * v] *= 1.1;
        IC_CHECK_RESULT(icWorld_Step(w, 1e-4, NULL), IC_OK);
        icReal *pressure = malloc(sizeof(icReal) * (size_t)nt);
        icReal *norm = malloc(sizeof(icReal) * (size_t)nt);
        IC_REQUIRE(pressure && norm);
        icWorld_GetTetFields(w, NULL, pressure, norm);
        int stressed = 0, finite = 0;
        for (int t = 0; t < nt; ++t) {
            stressed += norm[t] > 1e3; // E = 1e5 Pa at 10 % strain: of the order of 1e4 Pa
            finite += isfinite(pressure[t]) && isfinite(norm[t]);
        }
        IC_CHECK_MSG(stressed == nt && finite == nt, "%s: %d of %d tets stressed, %d finite",
                     icSolver_Name(s_solvers[s]), stressed, nt, finite);
        free(pressure);
        free(norm);
        icDestroyWorld(w);
    }
}
