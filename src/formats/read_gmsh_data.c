// SPDX-License-Identifier: MIT
// Gmsh post-processing sections ($NodeData, $ElementData; the same layout in 2.x and 4.1) read
// as mesh fields: one field per view name and kind, from the view's last time step.
#include "formats/read_gmsh.h"

#include <math.h>
#include <stdio.h>

// One view so far: the entries of its latest time step, merged over the sections
// (partitions) that give that step, in file order (a later entry for the same node or tet
// wins). Entries are kept as read, so memory follows what the file holds, and spread over the
// mesh only at the end.
struct icGmshView {
    char name[64];
    bool perCell;
    bool skipped;   ///< $ElementNodeData: not read
    long long step; ///< time step the entries belong to
    int components; ///< values per entry, 1..9
    int count, capacity;
    int *index;     ///< (count) node index or tet index of each entry
    icReal *values; ///< (count x components)
};

// Distinct views a file may hold: a bound on the work of finding a view by name.
enum { IC_GMSH_MAX_VIEWS = 1024 };

void icGmsh_DestroyViews(icGmshReader *r) {
    for (int i = 0; i < r->viewCount; ++i) {
        icFree(r->views[i].index);
        icFree(r->views[i].values);
    }
    icFree(r->views);
    r->views = NULL;
    r->viewCount = r->viewCapacity = 0;
    icFree(r->tetTags);
    r->tetTags = NULL;
    icTagMap_Destroy(&r->tetTagMap);
}

// The view of this name and kind, created when new. NULL when there are too many (*result
// IC_ERR_UNSUPPORTED) or memory runs out.
static icGmshView *findView(icGmshReader *r, const char *name, bool perCell, bool skipped,
                            icResult *result) {
    for (int i = 0; i < r->viewCount; ++i)
        if (r->views[i].perCell == perCell && r->views[i].skipped == skipped &&
            strcmp(r->views[i].name, name) == 0)
            return &r->views[i];
    if (r->viewCount == IC_GMSH_MAX_VIEWS) {
        *result = icGmsh_Error(r, IC_ERR_UNSUPPORTED, r->c.p, "more than %d data views",
                               IC_GMSH_MAX_VIEWS);
        return NULL;
    }
    if (!icGrowArray((void **)&r->views, &r->viewCapacity, r->viewCount + 1, sizeof *r->views)) {
        *result = icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
        return NULL;
    }
    icGmshView *v = &r->views[r->viewCount++];
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    v->perCell = perCell;
    v->skipped = skipped;
    v->step = -1;
    return v;
}

static bool addEntry(icGmshView *v, int index, const double *values) {
    if (v->count == v->capacity) {
        int capacity = v->capacity;
        if (!icGrowArray((void **)&v->index, &capacity, v->count + 1, sizeof(int))) return false;
        int valueCapacity = v->capacity * v->components;
        if (!icGrowArray((void **)&v->values, &valueCapacity, capacity * v->components,
                         sizeof(icReal)))
            return false;
        v->capacity = capacity;
    }
    v->index[v->count] = index;
    memcpy(v->values + (size_t)v->count * (size_t)v->components, values,
           sizeof(icReal) * (size_t)v->components);
    ++v->count;
    return true;
}

// A string tag: a quoted string on its own line (or the rest of the line, unquoted).
static icResult readStringTag(icGmshReader *r, char *out, size_t size) {
    icTextCursor *c = &r->c;
    if (!icText_Skip(c)) return icText_Error(c, IC_ERR_TRUNCATED, "file ends inside a string tag");
    const char *p = c->p, *lineEnd = p;
    while (lineEnd < c->end && *lineEnd != '\n' && *lineEnd != '\r') ++lineEnd;
    const char *start = p, *stop = lineEnd;
    if (*p == '"') {
        start = p + 1;
        stop = memchr(start, '"', (size_t)(lineEnd - start));
        if (!stop) return icText_Error(c, IC_ERR_PARSE, "string tag lacks its closing quote");
    } else {
        while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t')) --stop;
    }
    size_t n = (size_t)(stop - start);
    if (n >= size) n = size - 1;
    memcpy(out, start, n);
    out[n] = 0;
    icText_MoveTo(c, lineEnd);
    return IC_OK;
}

// The string, real and integer tags of a data section: its name, and from the integer tags
// the time step, the components and the entry count.
static icResult readTags(icGmshReader *r, char *name, size_t nameSize, long long ints[3],
                         int lines[3]) {
    icTextCursor *c = &r->c;
    long long count;
    icResult result = icText_IntIn(c, 0, 1000, &count, "string tag count");
    if (result != IC_OK) return result;
    // The name is the first tag (cut to the field name's size); the others are read past.
    name[0] = 0;
    for (long long k = 0; k < count; ++k) {
        char other[8];
        if ((result = readStringTag(r, k == 0 ? name : other, k == 0 ? nameSize : sizeof other)) !=
            IC_OK)
            return result;
    }
    if (!name[0]) snprintf(name, nameSize, "data");
    if ((result = icText_IntIn(c, 0, 1000, &count, "real tag count")) != IC_OK) return result;
    for (long long k = 0; k < count; ++k) {
        double time;
        if ((result = icText_Real(c, &time, "real tag")) != IC_OK) return result;
    }
    if ((result = icText_IntIn(c, 0, 1000, &count, "integer tag count")) != IC_OK) return result;
    if (count < 3)
        return icText_Error(c, IC_ERR_PARSE,
                            "%lld integer tags (a data section needs its time step, components "
                            "and entry count)",
                            count);
    for (long long k = 0; k < count; ++k) {
        long long value;
        if ((result = icText_Int(c, &value, "integer tag")) != IC_OK) return result;
        if (k < 3) ints[k] = value, lines[k] = c->line;
    }
    if (ints[0] < 0)
        return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, lines[0], "negative time step %lld",
                          ints[0]);
    if (ints[1] < 1)
        return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, lines[1], "%lld components per value",
                          ints[1]);
    if (ints[1] > 9)
        return icDiag_Set(r->diag, IC_ERR_UNSUPPORTED, r->path, lines[1],
                          "%lld components per value (1 to 9 are supported)", ints[1]);
    if (ints[2] < 0)
        return icDiag_Set(r->diag, IC_ERR_PARSE, r->path, lines[2], "negative entry count %lld",
                          ints[2]);
    return IC_OK;
}

// In binary files lines are not counted through the data: a problem in the ASCII tags of a
// data section is reported at its byte instead.
static icResult atByte(icGmshReader *r, icResult result) {
    if (result == IC_OK || !r->binary || !r->diag) return result;
    char message[sizeof r->diag->message];
    snprintf(message, sizeof message, "%s", r->diag->message);
    return icDiag_Set(r->diag, result, r->path, 0, "%s (byte %td)", message, r->c.p - r->c.begin);
}

// The tet index of element tag, -1 for elements that are not tets (their values are not kept).
static icResult tetIndexOf(icGmshReader *r, long long tag, int *index) {
    if (!r->tetTagMapBuilt) {
        int duplicate = 0;
        icResult result = icTagMap_Build(&r->tetTagMap, r->tetTags, r->tets.count / 4, &duplicate);
        if (result == IC_ERR_PARSE)
            return icGmsh_Error(r, IC_ERR_PARSE, NULL,
                                "element tag %lld appears twice, so $ElementData cannot name "
                                "its tets",
                                r->tetTags[duplicate]);
        if (result != IC_OK)
            return icDiag_Set(r->diag, result, r->path, 0, "out of memory mapping element tags");
        r->tetTagMapBuilt = true;
    }
    *index = icTagMap_Find(&r->tetTagMap, tag);
    return IC_OK;
}

icResult icGmsh_ReadData(icGmshReader *r, bool perCell) {
    const char *section = perCell ? "$ElementData" : "$NodeData";
    if (!r->haveNodes) return icGmsh_Error(r, IC_ERR_PARSE, r->c.p, "%s before $Nodes", section);
    if (perCell && !r->haveElements)
        return icGmsh_Error(r, IC_ERR_PARSE, r->c.p, "%s before $Elements", section);
    char name[64];
    long long ints[3];
    int lines[3];
    icResult result = atByte(r, readTags(r, name, sizeof name, ints, lines));
    if (result != IC_OK) return result;
    int components = (int)ints[1];
    // An entry takes at least 2 characters per number in ASCII, its bytes in binary.
    size_t entryBytes = r->binary ? 4 + 8 * (size_t)components : 2 * (size_t)(1 + components);
    if (r->binary) icText_SkipLine(&r->c);
    size_t left = (size_t)(r->c.end - r->c.p);
    if (ints[2] > INT32_MAX || (size_t)ints[2] > left / entryBytes)
        return icGmsh_Error(r, IC_ERR_TRUNCATED, r->c.p, "file too short for %lld %s entries",
                            ints[2], section);
    icGmshView *view = findView(r, name, perCell, false, &result);
    if (!view) return result;
    if (ints[0] == view->step && components != view->components)
        return atByte(r, icDiag_Set(r->diag, IC_ERR_PARSE, r->path, lines[1],
                                    "%s \"%s\" gives time step %lld with %d components, and "
                                    "before with %d",
                                    section, name, ints[0], components, view->components));
    // A later time step replaces the entries; an earlier one is read and dropped.
    bool keep = ints[0] >= view->step;
    if (ints[0] > view->step) {
        if (components != view->components) {
            icFree(view->index);
            icFree(view->values);
            view->index = NULL;
            view->values = NULL;
            view->capacity = 0;
        }
        view->step = ints[0];
        view->components = components;
        view->count = 0;
    }
    for (long long e = 0; e < ints[2]; ++e) {
        const char *at = r->c.p;
        long long tag;
        double values[9];
        if (r->binary) {
            tag = icFmt_I32(at, r->swap);
            for (int k = 0; k < components; ++k) {
                values[k] = icFmt_F64(at + 4 + 8 * k, r->swap);
                if (!isfinite(values[k]))
                    return icGmsh_Error(r, IC_ERR_NOT_FINITE, at,
                                        "%s \"%s\": the value of %lld is not finite", section, name,
                                        tag);
            }
            r->c.p += entryBytes;
        } else {
            if ((result = icText_Int(&r->c, &tag, "entry tag")) != IC_OK) return result;
            for (int k = 0; k < components; ++k)
                if ((result = icText_Real(&r->c, &values[k], "data value")) != IC_OK) return result;
        }
        int index = -1;
        if (perCell) {
            if ((result = tetIndexOf(r, tag, &index)) != IC_OK) return result;
        } else {
            index = icTagMap_Find(&r->tags, tag);
            if (index < 0)
                return icGmsh_Error(r, IC_ERR_INDEX_OUT_OF_RANGE, at,
                                    "$NodeData \"%s\" gives a value for node %lld, which $Nodes "
                                    "does not define",
                                    name, tag);
        }
        if (keep && index >= 0 && !addEntry(view, index, values))
            return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    }
    const char *end = perCell ? "$EndElementData" : "$EndNodeData";
    return icGmsh_ExpectEnd(r, end);
}

icResult icGmsh_SkipElementNodeData(icGmshReader *r) {
    char name[64];
    long long ints[3];
    int lines[3];
    icResult result = atByte(r, readTags(r, name, sizeof name, ints, lines));
    if (result != IC_OK) return result;
    if (!findView(r, name, true, true, &result)) return result;
    const char *hit = icText_Find(&r->c, "$EndElementNodeData");
    if (!hit)
        return icGmsh_Error(r, IC_ERR_TRUNCATED, r->c.end, "file ends before $EndElementNodeData");
    icText_MoveTo(&r->c, hit + strlen("$EndElementNodeData"));
    return IC_OK;
}

// Spreads view v over the mesh: for point views over the kept vertices (newIndex maps the
// reader's vertices to them, -1 for dropped ones). *data is NULL when some kept vertex or tet
// has no value.
static icResult spreadView(const icGmshView *v, const int *newIndex, int count, icReal **data) {
    *data = NULL;
    icReal *values = IC_ALLOC_ZERO(icReal, (size_t)count * (size_t)v->components + 1);
    uint8_t *set = IC_ALLOC_ZERO(uint8_t, (size_t)count + 1);
    if (!values || !set) {
        icFree(values);
        icFree(set);
        return IC_ERR_OUT_OF_MEMORY;
    }
    for (int e = 0; e < v->count; ++e) {
        int i = v->perCell ? v->index[e] : newIndex[v->index[e]];
        if (i < 0) continue;
        memcpy(values + (size_t)i * (size_t)v->components,
               v->values + (size_t)e * (size_t)v->components,
               sizeof(icReal) * (size_t)v->components);
        set[i] = 1;
    }
    bool complete = true;
    for (int i = 0; i < count && complete; ++i) complete = set[i] != 0;
    icFree(set);
    if (complete)
        *data = values;
    else
        icFree(values);
    return IC_OK;
}

icResult icGmsh_ViewsToFields(icGmshReader *r, const icTetMesh *mesh, icMeshFields *fields,
                              icMeshFileInfo *info) {
    // The vertices the tets use, numbered in order: icFmt_DropUnusedVertices keeps exactly
    // these, in this order.
    int *newIndex = IC_ALLOC(int, (size_t)mesh->vertexCount + 1);
    if (!newIndex) return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    for (int v = 0; v < mesh->vertexCount; ++v) newIndex[v] = -1;
    for (size_t k = 0; k < 4 * (size_t)mesh->tetCount; ++k) newIndex[mesh->tets[k]] = 0;
    int kept = 0;
    for (int v = 0; v < mesh->vertexCount; ++v)
        if (newIndex[v] == 0) newIndex[v] = kept++;
    bool ok = true;
    for (int i = 0; i < r->viewCount && ok; ++i) {
        const icGmshView *v = &r->views[i];
        icReal *data = NULL;
        if (!v->skipped)
            ok = spreadView(v, newIndex, v->perCell ? mesh->tetCount : kept, &data) == IC_OK;
        if (!ok) break;
        if (!data)
            ++info->skippedFields;
        else if (!fields)
            icFree(data);
        else
            ok = icFmt_AddField(fields, v->name, v->components, v->perCell, data);
    }
    icFree(newIndex);
    if (!ok) return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    return IC_OK;
}
