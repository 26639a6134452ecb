// SPDX-License-Identifier: MIT
// World skins: render surfaces embedded in a body's rest tets once, then evaluated at the
// current positions on request (Macklin & Müller 2021, sec. 5.3: the elephant's skinned
// surface).
#include "isochor/skin.h"
#include "world/world_internal.h"

typedef struct icSkinRecord {
    int vertexCount, triangleCount;
    int *triangles;       ///< (triangleCount x 3)
    icEmbedding embedding; ///< tets are global tet indices
    icReal *current;      ///< (vertexCount x 3) last evaluation
} icSkinRecord;

struct icSkinSet {
    int count, capacity;
    icSkinRecord *items;
};

icSkinDef icDefaultSkinDef(void) {
    icSkinDef d;
    memset(&d, 0, sizeof d);
    return d;
}

void icSkinSet_Destroy(icSkinSet *skins) {
    if (!skins) return;
    for (int i = 0; i < skins->count; ++i) {
        icFree(skins->items[i].triangles);
        icEmbedding_Destroy(&skins->items[i].embedding);
        icFree(skins->items[i].current);
    }
    icFree(skins->items);
    icFree(skins);
}

icResult icWorld_AddSkin(icWorld *world, const icSkinDef *def, int *index) {
    if (index) *index = -1;
    if (!world || !def || def->vertexCount < 0 || def->triangleCount < 0 ||
        (def->vertexCount > 0 && !def->positions) || (def->triangleCount > 0 && !def->triangles))
        return IC_ERR_INVALID_ARGUMENT;
    const icModel *m = &world->model;
    int tetStart = 0, tetCount = m->tetCount;
    if (def->body.index1 != 0) {
        if (!icBody_IsValid(world, def->body)) return IC_ERR_INVALID_ARGUMENT;
        icBody_GetRanges(world, def->body, NULL, NULL, &tetStart, &tetCount);
    }
    for (int i = 0; i < 3 * def->triangleCount; ++i)
        if (def->triangles[i] < 0 || def->triangles[i] >= def->vertexCount)
            return IC_ERR_INDEX_OUT_OF_RANGE;
    if (!world->skins) {
        world->skins = IC_ALLOC_ZERO(icSkinSet, 1);
        if (!world->skins) return IC_ERR_OUT_OF_MEMORY;
    }
    icSkinSet *set = world->skins;
    if (!icGrowArray((void **)&set->items, &set->capacity, set->count + 1, sizeof(icSkinRecord)))
        return IC_ERR_OUT_OF_MEMORY;
    icSkinRecord rec;
    memset(&rec, 0, sizeof rec);
    // Embedded in the body's own tets (global vertex indices, rest positions), so a skin
    // never follows a neighbouring body.
    icResult r = icEmbedPoints(m->restPositions, m->vertexCount, m->tets + 4 * (size_t)tetStart,
                               tetCount, def->positions, def->vertexCount, &rec.embedding);
    if (r != IC_OK) return r;
    for (int i = 0; i < rec.embedding.pointCount; ++i) rec.embedding.tet[i] += tetStart;
    rec.vertexCount = def->vertexCount;
    rec.triangleCount = def->triangleCount;
    rec.triangles = icMemDup(def->triangles, sizeof(int) * 3 * (size_t)def->triangleCount);
    rec.current = IC_ALLOC(icReal, 3 * (size_t)def->vertexCount + 1);
    if ((def->triangleCount > 0 && !rec.triangles) || !rec.current) {
        icFree(rec.triangles);
        icFree(rec.current);
        icEmbedding_Destroy(&rec.embedding);
        return IC_ERR_OUT_OF_MEMORY;
    }
    set->items[set->count] = rec;
    if (index) *index = set->count;
    set->count++;
    return IC_OK;
}

int icWorld_GetSkinCount(const icWorld *world) { return world->skins ? world->skins->count : 0; }

void icWorld_GetSkinSurface(icWorld *world, int index, const icReal **positions,
                            int *vertexCount, const int **triangles, int *triangleCount) {
    IC_ASSERT(world && index >= 0 && index < icWorld_GetSkinCount(world));
    icSkinRecord *rec = &world->skins->items[index];
    icEmbedding_Apply(&rec->embedding, world->model.tets, world->state->x, rec->current);
    if (positions) *positions = rec->current;
    if (vertexCount) *vertexCount = rec->vertexCount;
    if (triangles) *triangles = rec->triangles;
    if (triangleCount) *triangleCount = rec->triangleCount;
}

const icEmbedding *icWorld_GetSkinEmbedding(const icWorld *world, int index) {
    IC_ASSERT(world && index >= 0 && index < icWorld_GetSkinCount(world));
    return &world->skins->items[index].embedding;
}
