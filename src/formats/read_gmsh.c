// SPDX-License-Identifier: MIT
// Gmsh .msh reader: the $MeshFormat header, the section walk and the 2.x node and element
// sections (ASCII and binary). Tetrahedra only; other elements are counted and skipped.
#include "formats/read_gmsh.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

icResult icGmsh_Error(icGmshReader *r, icResult code, const char *at, const char *format, ...) {
    char message[600];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    if (r->binary && at)
        return icDiag_Set(r->diag, code, r->path, 0, "%s (byte %td)", message, at - r->c.begin);
    // Without a position the problem is the whole file's (no tets, no nodes).
    return icDiag_Set(r->diag, code, r->path, at ? r->c.line : 0, "%s", message);
}

// Nodes of each element type number Gmsh assigns (GmshDefines.h: MSH_LIN_2 = 1 to MSH_TRIH_4 =
// 140, and 67-70, the border and child elements of older releases). 0 marks polygons and
// polyhedra (34, 35, 69), whose node count varies; -1 the numbers Gmsh never assigned.
static const short s_nodesPerType[141] = {
    -1,  2,   3,   4,   4,   8,   6,   5,   3,    6,  9,  10, 27, 18,  14,  1,   8,   20,
    15,  13,  9,   10,  12,  15,  15,  21,  4,    5,  6,  20, 35, 56,  22,  28,  0,   0,
    16,  25,  36,  12,  16,  20,  28,  36,  45,   55, 66, 49, 64, 81,  100, 121, 18,  21,
    24,  27,  30,  24,  28,  32,  36,  40,  7,    8,  9,  10, 11, 2,   3,   0,   2,   84,
    120, 165, 220, 286, -1,  -1,  -1,  34,  40,   46, 52, 58, 1,  1,   1,   1,   1,   1,
    40,  75,  64,  125, 216, 343, 512, 729, 1000, 32, 44, 56, 68, 80,  92,  104, 126, 196,
    288, 405, 550, 24,  33,  42,  51,  60,  69,   78, 30, 55, 91, 140, 204, 285, 385, 21,
    29,  37,  45,  53,  61,  69,  1,   1,   2,    3,  4,  16, 4,  5,   4};

int icGmsh_NodesPerElement(long long type) {
    return type >= 0 && type <= 140 ? s_nodesPerType[type] : -1;
}

bool icGmsh_IsElementType(long long type) { return icGmsh_NodesPerElement(type) >= 0; }

icResult icGmsh_Need(icGmshReader *r, size_t n, const char *what) {
    if ((size_t)(r->c.end - r->c.p) < n)
        return icGmsh_Error(r, IC_ERR_TRUNCATED, r->c.p, "file ends inside %s", what);
    return IC_OK;
}

icResult icGmsh_AddTet(icGmshReader *r, long long elementTag, const long long nodes[4], int region,
                       int line) {
    int tet[4];
    for (int k = 0; k < 4; ++k) {
        tet[k] = icTagMap_Find(&r->tags, nodes[k]);
        if (tet[k] < 0)
            return icGmsh_Error(r, IC_ERR_INDEX_OUT_OF_RANGE, r->c.p,
                                "element %lld refers to node %lld, which $Nodes does not define",
                                elementTag, nodes[k]);
    }
    icFmt_SwapHandedness(tet);
    int index = r->tets.count / 4;
    bool ok = index < r->tetTagCapacity ||
              icGrowArray((void **)&r->tetTags, &r->tetTagCapacity, index + 1, sizeof(long long));
    if (ok) r->tetTags[index] = elementTag;
    for (int k = 0; k < 4; ++k) ok = ok && icIntArray_Push(&r->tets, tet[k]);
    ok = ok && icIntArray_Push(&r->regions, region);
    if (!r->binary) ok = ok && icIntArray_Push(&r->lines, line);
    if (!ok)
        return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0,
                          "out of memory at element %lld", elementTag);
    return IC_OK;
}

icResult icGmsh_ExpectEnd(icGmshReader *r, const char *endWord) {
    char word[64];
    const char *at = r->c.p;
    icResult result = icText_Word(&r->c, word, sizeof word, endWord);
    if (result != IC_OK)
        return r->binary ? icGmsh_Error(r, result, at, "file ends before %s", endWord) : result;
    if (strcmp(word, endWord) != 0)
        return icGmsh_Error(r, IC_ERR_PARSE, at, "expected %s, found '%s' (does the count match?)",
                            endWord, word);
    return IC_OK;
}

// ---------------------------------------------------------------------------------------
// 2.x sections

static icResult readNodes2(icGmshReader *r) {
    long long count;
    icResult result = icText_IntIn(&r->c, 0, INT32_MAX, &count, "node count");
    if (result != IC_OK) return result;
    int n = (int)count;
    // A node takes at least 8 characters ("1 0 0 0\n") or 28 bytes: a count beyond that is
    // a corrupt header, not a reason to allocate gigabytes.
    size_t left = (size_t)(r->c.end - r->c.p);
    if ((size_t)n > left / (r->binary ? 28 : 8) + 1)
        return icGmsh_Error(r, IC_ERR_TRUNCATED, r->c.p, "file too short for %d nodes", n);
    long long *tags = IC_ALLOC(long long, n > 0 ? n : 1);
    int *lines = r->binary ? NULL : IC_ALLOC(int, n > 0 ? n : 1);
    r->positions = IC_ALLOC(icReal, 3 * (size_t)(n > 0 ? n : 1));
    if (!tags || !r->positions || (!r->binary && !lines)) {
        icFree(tags);
        icFree(lines);
        return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "cannot allocate %d nodes", n);
    }
    r->nodeCount = n;
    if (r->binary) {
        icText_SkipLine(&r->c);
        if ((result = icGmsh_Need(r, 28 * (size_t)n, "$Nodes")) != IC_OK) goto done;
        const char *p = r->c.p;
        for (int i = 0; i < n; ++i, p += 28) {
            tags[i] = icFmt_I32(p, r->swap);
            for (int k = 0; k < 3; ++k) {
                double x = icFmt_F64(p + 4 + 8 * k, r->swap);
                if (!isfinite(x)) {
                    result = icGmsh_Error(r, IC_ERR_NOT_FINITE, p,
                                          "node %lld has a non-finite coordinate", tags[i]);
                    goto done;
                }
                r->positions[3 * i + k] = x;
            }
        }
        r->c.p = p;
    } else {
        for (int i = 0; i < n; ++i) {
            if ((result = icText_Int(&r->c, &tags[i], "node tag")) != IC_OK) goto done;
            lines[i] = r->c.line;
            for (int k = 0; k < 3; ++k) {
                double x;
                if ((result = icText_Real(&r->c, &x, "node coordinate")) != IC_OK) goto done;
                r->positions[3 * i + k] = x;
            }
        }
    }
    for (int i = 0; i < n; ++i)
        if (tags[i] < 0) {
            if (lines) r->c.line = lines[i];
            result = icGmsh_Error(r, IC_ERR_PARSE, r->c.p, "negative node tag %lld", tags[i]);
            goto done;
        }
    int duplicate = 0;
    result = icTagMap_Build(&r->tags, tags, n, &duplicate);
    if (result == IC_ERR_PARSE) {
        if (lines) r->c.line = lines[duplicate];
        result =
            icGmsh_Error(r, IC_ERR_PARSE, r->c.p, "node tag %lld appears twice", tags[duplicate]);
    }
    if (result == IC_OK) result = icGmsh_ExpectEnd(r, "$EndNodes");
done:
    icFree(tags);
    icFree(lines);
    return result;
}

// Reads an integer that must be on the current line (element records are one per line).
static icResult lineInt(icGmshReader *r, long long *value, const char *what, long long element) {
    if (!icText_SkipInLine(&r->c)) {
        if (r->c.p >= r->c.end)
            return icText_Error(&r->c, IC_ERR_TRUNCATED, "file ends inside element %lld", element);
        return icText_Error(&r->c, IC_ERR_PARSE, "element %lld: line ends before its %s", element,
                            what);
    }
    return icText_Int(&r->c, value, what);
}

static icResult readElements2Ascii(icGmshReader *r, int n) {
    for (int i = 0; i < n; ++i) {
        long long id, type, tagCount, tag;
        icResult result = icText_Int(&r->c, &id, "element tag");
        if (result != IC_OK) return result;
        int line = r->c.line;
        if ((result = lineInt(r, &type, "type", id)) != IC_OK) return result;
        if (!icGmsh_IsElementType(type))
            return icText_Error(&r->c, IC_ERR_PARSE,
                                "element %lld has type %lld, which no version of Gmsh defines", id,
                                type);
        if (type != 4 && type != 11) {
            ++r->skipped;
            icText_SkipLine(&r->c);
            continue;
        }
        if ((result = lineInt(r, &tagCount, "tag count", id)) != IC_OK) return result;
        if (tagCount < 0 || tagCount > 64)
            return icText_Error(&r->c, IC_ERR_PARSE, "element %lld has %lld tags", id, tagCount);
        int region = 0;
        for (long long k = 0; k < tagCount; ++k) {
            if ((result = lineInt(r, &tag, "tags", id)) != IC_OK) return result;
            if (k == 0) region = (int)tag;
        }
        long long nodes[10];
        int nodeCount = type == 4 ? 4 : 10;
        for (int k = 0; k < nodeCount; ++k)
            if ((result = lineInt(r, &nodes[k], "node tags", id)) != IC_OK) return result;
        if (icText_SkipInLine(&r->c))
            return icText_Error(&r->c, IC_ERR_PARSE,
                                "element %lld has more values than a type-%lld element", id, type);
        if (type == 11) ++r->quadratic;
        if ((result = icGmsh_AddTet(r, id, nodes, region, line)) != IC_OK) return result;
    }
    return IC_OK;
}

static icResult readElements2Binary(icGmshReader *r, int n) {
    int done = 0;
    while (done < n) {
        icResult result = icGmsh_Need(r, 12, "an element block header");
        if (result != IC_OK) return result;
        const char *p = r->c.p;
        int type = icFmt_I32(p, r->swap), follow = icFmt_I32(p + 4, r->swap);
        int tagCount = icFmt_I32(p + 8, r->swap);
        int nodes = icGmsh_NodesPerElement(type);
        if (nodes < 0)
            return icGmsh_Error(r, IC_ERR_PARSE, p,
                                "element block of type %d, which no version of Gmsh defines", type);
        if (nodes == 0)
            return icGmsh_Error(r, IC_ERR_UNSUPPORTED, p,
                                "element type %d (polygon or polyhedron) has no fixed node count, "
                                "so a binary file holding it cannot be read",
                                type);
        if (follow <= 0 || follow > n - done || tagCount < 0 || tagCount > 64)
            return icGmsh_Error(r, IC_ERR_PARSE, p,
                                "bad element block header (%d elements, %d tags)", follow,
                                tagCount);
        r->c.p += 12;
        size_t record = 4 * (size_t)(1 + tagCount + nodes);
        if ((result = icGmsh_Need(r, record * (size_t)follow, "an element block")) != IC_OK)
            return result;
        if (type != 4 && type != 11) {
            r->skipped += follow;
            r->c.p += record * (size_t)follow;
        } else {
            for (int e = 0; e < follow; ++e) {
                const char *q = r->c.p + record * (size_t)e;
                long long tags[4];
                for (int k = 0; k < 4; ++k)
                    tags[k] = icFmt_I32(q + 4 * (1 + tagCount + k), r->swap);
                int region = tagCount > 0 ? icFmt_I32(q + 4, r->swap) : 0;
                const char *save = r->c.p;
                r->c.p = q;
                result = icGmsh_AddTet(r, icFmt_I32(q, r->swap), tags, region, 0);
                r->c.p = save;
                if (result != IC_OK) return result;
            }
            if (type == 11) r->quadratic += follow;
            r->c.p += record * (size_t)follow;
        }
        done += follow;
    }
    return IC_OK;
}

static icResult readElements2(icGmshReader *r) {
    long long count;
    icResult result = icText_IntIn(&r->c, 0, INT32_MAX, &count, "element count");
    if (result != IC_OK) return result;
    if (r->binary) {
        icText_SkipLine(&r->c);
        result = readElements2Binary(r, (int)count);
    } else {
        result = readElements2Ascii(r, (int)count);
    }
    if (result != IC_OK) return result;
    return icGmsh_ExpectEnd(r, "$EndElements");
}

// ---------------------------------------------------------------------------------------

static icResult readHeader(icGmshReader *r) {
    icTextCursor *c = &r->c;
    if (!icText_Accept(c, "$MeshFormat"))
        return icText_Error(c, IC_ERR_PARSE, "expected $MeshFormat");
    char version[32];
    icResult result = icText_Word(c, version, sizeof version, "the version");
    if (result != IC_OK) return result;
    if (strcmp(version, "2") == 0 || strcmp(version, "2.0") == 0 || strcmp(version, "2.1") == 0 ||
        strcmp(version, "2.2") == 0) {
        r->major = 2;
    } else if (strcmp(version, "4.1") == 0) {
        r->major = 4;
    } else {
        return icText_Error(c, IC_ERR_UNSUPPORTED,
                            "Gmsh format version %s is not supported (2.2 and 4.1 are)", version);
    }
    long long fileType, dataSize;
    if ((result = icText_IntIn(c, 0, 1, &fileType, "file type")) != IC_OK) return result;
    if ((result = icText_Int(c, &dataSize, "data size")) != IC_OK) return result;
    r->binary = fileType == 1;
    if (r->major == 2 && dataSize != 8)
        return icText_Error(c, IC_ERR_UNSUPPORTED, "data size %lld (only 8-byte doubles)",
                            dataSize);
    if (r->major == 4 && r->binary && dataSize != 4 && dataSize != 8)
        return icText_Error(c, IC_ERR_UNSUPPORTED, "data size %lld (size_t of 4 or 8 bytes)",
                            dataSize);
    r->sizeT = (int)dataSize;
    if (r->binary) {
        // The integer 1 in binary tells the byte order.
        icText_SkipLine(c);
        if (c->end - c->p < 4) return icText_Error(c, IC_ERR_TRUNCATED, "file ends in $MeshFormat");
        uint32_t one = icFmt_U32(c->p, false);
        if (one == 1)
            r->swap = false;
        else if (icFmt_Bswap32(one) == 1)
            r->swap = true;
        else
            return icText_Error(c, IC_ERR_PARSE, "binary $MeshFormat lacks the integer 1");
        c->p += 4;
    }
    char word[64];
    if ((result = icText_Word(c, word, sizeof word, "$EndMeshFormat")) != IC_OK) return result;
    if (strcmp(word, "$EndMeshFormat") != 0)
        return icText_Error(c, IC_ERR_PARSE, "expected $EndMeshFormat, found '%s'", word);
    return IC_OK;
}

static icResult skipSection(icGmshReader *r, const char *name) {
    char end[80];
    snprintf(end, sizeof end, "$End%s", name + 1);
    const char *hit = icText_Find(&r->c, end);
    if (!hit) return icGmsh_Error(r, IC_ERR_TRUNCATED, r->c.end, "file ends before %s", end);
    icText_MoveTo(&r->c, hit + strlen(end));
    return IC_OK;
}

static icResult readSections(icGmshReader *r) {
    icResult result = readHeader(r);
    if (result != IC_OK) return result;
    while (icText_Skip(&r->c)) {
        char name[64];
        const char *at = r->c.p;
        icText_Word(&r->c, name, sizeof name, "a section");
        if (name[0] != '$')
            return icGmsh_Error(r, IC_ERR_PARSE, at,
                                "expected a section such as $Nodes, found '%s'", name);
        if (strcmp(name, "$Nodes") == 0) {
            if (r->haveNodes)
                return icGmsh_Error(r, IC_ERR_UNSUPPORTED, at, "more than one $Nodes section");
            r->haveNodes = true;
            if (r->binary) icText_SkipLine(&r->c);
            result = r->major == 2 ? readNodes2(r) : icGmsh_ReadNodes4(r);
        } else if (strcmp(name, "$Elements") == 0) {
            if (!r->haveNodes) return icGmsh_Error(r, IC_ERR_PARSE, at, "$Elements before $Nodes");
            if (r->haveElements)
                return icGmsh_Error(r, IC_ERR_UNSUPPORTED, at, "more than one $Elements section");
            r->haveElements = true;
            if (r->binary) icText_SkipLine(&r->c);
            result = r->major == 2 ? readElements2(r) : icGmsh_ReadElements4(r);
        } else if (strcmp(name, "$Entities") == 0 && r->major == 4) {
            if (r->binary) icText_SkipLine(&r->c);
            result = icGmsh_ReadEntities4(r);
        } else if (strcmp(name, "$NodeData") == 0 || strcmp(name, "$ElementData") == 0) {
            result = icGmsh_ReadData(r, name[1] == 'E');
        } else if (strcmp(name, "$ElementNodeData") == 0) {
            result = icGmsh_SkipElementNodeData(r);
        } else if (strncmp(name, "$End", 4) == 0) {
            return icGmsh_Error(r, IC_ERR_PARSE, at, "%s without its section", name);
        } else {
            result = skipSection(r, name);
        }
        if (result != IC_OK) return result;
    }
    if (!r->haveNodes) return icGmsh_Error(r, IC_ERR_EMPTY, NULL, "no $Nodes section");
    if (r->tets.count == 0)
        return icGmsh_Error(r, IC_ERR_EMPTY, NULL, "no tetrahedra (%d other elements skipped)",
                            r->skipped);
    return IC_OK;
}

static void destroyReader(icGmshReader *r) {
    icFree(r->positions);
    icTagMap_Destroy(&r->tags);
    icFree(r->tets.data);
    icFree(r->regions.data);
    icFree(r->lines.data);
    icFree(r->volumeTags);
    icFree(r->volumePhysical);
    icGmsh_DestroyViews(r);
}

icResult icFmt_ReadGmsh(const char *path, const char *text, size_t size, icReadOut *out,
                        icDiagnostic *diag) {
    icGmshReader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.diag = diag;
    icText_Init(&r.c, text, size, path, diag, 0);
    icResult result = readSections(&r);
    if (result == IC_OK) {
        int tetCount = r.tets.count / 4;
        result = icTetMesh_Create(out->mesh, r.nodeCount, tetCount);
        if (result == IC_OK) {
            memcpy(out->mesh->positions, r.positions, sizeof(icReal) * 3 * (size_t)r.nodeCount);
            memcpy(out->mesh->tets, r.tets.data, sizeof(int) * 4 * (size_t)tetCount);
            result = icFmt_SetRegions(out->mesh, r.regions.data, out->info);
        }
        if (result == IC_OK && !r.binary) {
            out->tetLines = r.lines.data;
            r.lines.data = NULL;
        }
        // The views are laid out over the vertices that stay, so they join the (so far empty)
        // fields after the drop.
        icMeshFields views = {0, NULL};
        if (result == IC_OK)
            result = icGmsh_ViewsToFields(&r, out->mesh, out->fields ? &views : NULL, out->info);
        if (result == IC_OK) result = icFmt_DropUnusedVertices(out->mesh, NULL, out->info);
        if (result == IC_OK && out->fields)
            *out->fields = views;
        else
            icMeshFields_Destroy(&views);
        out->info->skippedElements = r.skipped;
        out->info->quadraticTets = r.quadratic;
        snprintf(out->info->formatName, sizeof out->info->formatName, "gmsh %s %s",
                 r.major == 2 ? "2.2" : "4.1", r.binary ? "binary" : "ascii");
    }
    destroyReader(&r);
    return result;
}
