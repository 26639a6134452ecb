// SPDX-License-Identifier: MIT
// Gmsh 4.1 sections: $Entities (for the physical group of each volume), $Nodes in entity
// blocks with sparse tags, $Elements in entity blocks; ASCII and binary.
#include "formats/read_gmsh.h"

#include <math.h>

// One value of the 4.1 layout, in either encoding: size_t (counts, 4.1 tags), int (entity
// tags, dimensions, types, physical tags) or double.
static icResult readSize(icGmshReader *r, long long *value, const char *what) {
    if (!r->binary) {
        icResult result = icText_Int(&r->c, value, what);
        if (result == IC_OK && *value < 0)
            return icText_Error(&r->c, IC_ERR_PARSE, "negative %s %lld", what, *value);
        return result;
    }
    icResult result = icGmsh_Need(r, (size_t)r->sizeT, what);
    if (result != IC_OK) return result;
    uint64_t v = r->sizeT == 8 ? icFmt_U64(r->c.p, r->swap) : icFmt_U32(r->c.p, r->swap);
    if (v >= (1ull << 62)) return icGmsh_Error(r, IC_ERR_PARSE, r->c.p, "%s is too large", what);
    r->c.p += r->sizeT;
    *value = (long long)v;
    return IC_OK;
}

static icResult readInt(icGmshReader *r, long long *value, const char *what) {
    if (!r->binary) return icText_Int(&r->c, value, what);
    icResult result = icGmsh_Need(r, 4, what);
    if (result != IC_OK) return result;
    *value = icFmt_I32(r->c.p, r->swap);
    r->c.p += 4;
    return IC_OK;
}

static icResult readDouble(icGmshReader *r, double *value, const char *what) {
    if (!r->binary) return icText_Real(&r->c, value, what);
    icResult result = icGmsh_Need(r, 8, what);
    if (result != IC_OK) return result;
    *value = icFmt_F64(r->c.p, r->swap);
    r->c.p += 8;
    return IC_OK;
}

// A count read from the file must fit the bytes left (at least minBytes per item), so a
// corrupt count fails as truncation instead of a huge allocation.
static icResult checkCount(icGmshReader *r, long long count, size_t minBytes, const char *what) {
    size_t left = (size_t)(r->c.end - r->c.p);
    if (count > INT32_MAX || (size_t)count > left / minBytes + 1)
        return icGmsh_Error(r, IC_ERR_TRUNCATED, r->c.p, "file too short for %lld %s", count, what);
    return IC_OK;
}

icResult icGmsh_ReadEntities4(icGmshReader *r) {
    long long counts[4];
    icResult result;
    for (int d = 0; d < 4; ++d)
        if ((result = readSize(r, &counts[d], "entity count")) != IC_OK) return result;
    for (int d = 0; d < 4; ++d)
        if ((result = checkCount(r, counts[d], 4, "entities")) != IC_OK) return result;
    icFree(r->volumeTags);
    icFree(r->volumePhysical);
    r->volumeCount = 0;
    r->volumeTags = IC_ALLOC(int, counts[3] + 1);
    r->volumePhysical = IC_ALLOC(int, counts[3] + 1);
    if (!r->volumeTags || !r->volumePhysical)
        return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "out of memory");
    for (int d = 0; d < 4; ++d) {
        for (long long e = 0; e < counts[d]; ++e) {
            long long tag, physicalCount, value;
            double x;
            if ((result = readInt(r, &tag, "entity tag")) != IC_OK) return result;
            for (int k = 0; k < (d == 0 ? 3 : 6); ++k)
                if ((result = readDouble(r, &x, "entity bounds")) != IC_OK) return result;
            if ((result = readSize(r, &physicalCount, "physical tag count")) != IC_OK)
                return result;
            if ((result = checkCount(r, physicalCount, 2, "physical tags")) != IC_OK) return result;
            int physical = 0;
            for (long long k = 0; k < physicalCount; ++k) {
                if ((result = readInt(r, &value, "physical tag")) != IC_OK) return result;
                if (k == 0) physical = (int)value;
            }
            if (d == 3) {
                r->volumeTags[r->volumeCount] = (int)tag;
                r->volumePhysical[r->volumeCount++] = physical;
            }
            if (d > 0) {
                long long boundingCount;
                if ((result = readSize(r, &boundingCount, "bounding entity count")) != IC_OK)
                    return result;
                if ((result = checkCount(r, boundingCount, 2, "bounding entities")) != IC_OK)
                    return result;
                for (long long k = 0; k < boundingCount; ++k)
                    if ((result = readInt(r, &value, "bounding entity")) != IC_OK) return result;
            }
        }
    }
    return icGmsh_ExpectEnd(r, "$EndEntities");
}

icResult icGmsh_ReadNodes4(icGmshReader *r) {
    long long blockCount, nodeCount, minTag, maxTag;
    icResult result;
    if ((result = readSize(r, &blockCount, "entity block count")) != IC_OK ||
        (result = readSize(r, &nodeCount, "node count")) != IC_OK ||
        (result = readSize(r, &minTag, "minimum node tag")) != IC_OK ||
        (result = readSize(r, &maxTag, "maximum node tag")) != IC_OK)
        return result;
    if ((result = checkCount(r, nodeCount, r->binary ? (size_t)(24 + r->sizeT) : 8, "nodes")) !=
        IC_OK)
        return result;
    if ((result = checkCount(r, blockCount, 4, "node blocks")) != IC_OK) return result;
    int n = (int)nodeCount;
    int headerLine = r->c.line;
    long long *tags = IC_ALLOC(long long, n + 1);
    int *lines = r->binary ? NULL : IC_ALLOC(int, n + 1);
    r->positions = IC_ALLOC(icReal, 3 * (size_t)n + 3);
    if (!tags || !r->positions || (!r->binary && !lines)) {
        icFree(tags);
        icFree(lines);
        return icDiag_Set(r->diag, IC_ERR_OUT_OF_MEMORY, r->path, 0, "cannot allocate %d nodes", n);
    }
    r->nodeCount = n;
    int filled = 0;
    for (long long b = 0; b < blockCount && result == IC_OK; ++b) {
        long long dim, entity, parametric, inBlock;
        if ((result = readInt(r, &dim, "entity dimension")) != IC_OK ||
            (result = readInt(r, &entity, "entity tag")) != IC_OK ||
            (result = readInt(r, &parametric, "parametric flag")) != IC_OK ||
            (result = readSize(r, &inBlock, "nodes in block")) != IC_OK)
            break;
        if (dim < 0 || dim > 3 || parametric < 0 || parametric > 1) {
            result = icGmsh_Error(r, IC_ERR_PARSE, r->c.p,
                                  "bad node block header (dimension %lld, parametric %lld)", dim,
                                  parametric);
            break;
        }
        if (inBlock > n - filled) {
            result =
                icGmsh_Error(r, IC_ERR_PARSE, r->c.p,
                             "node blocks hold more than the %d nodes the header announces", n);
            break;
        }
        int m = (int)inBlock;
        int values = 3 + (parametric ? (int)dim : 0);
        if (r->binary) {
            size_t bytes = (size_t)m * ((size_t)r->sizeT + 8 * (size_t)values);
            if ((result = icGmsh_Need(r, bytes, "a node block")) != IC_OK) break;
            const char *p = r->c.p;
            for (int i = 0; i < m; ++i, p += r->sizeT)
                tags[filled + i] =
                    (long long)(r->sizeT == 8 ? icFmt_U64(p, r->swap) : icFmt_U32(p, r->swap));
            for (int i = 0; i < m && result == IC_OK; ++i, p += 8 * values) {
                for (int k = 0; k < 3; ++k) {
                    double x = icFmt_F64(p + 8 * k, r->swap);
                    if (!isfinite(x)) {
                        result =
                            icGmsh_Error(r, IC_ERR_NOT_FINITE, p,
                                         "node %lld has a non-finite coordinate", tags[filled + i]);
                        break;
                    }
                    r->positions[3 * (size_t)(filled + i) + k] = x;
                }
            }
            r->c.p = p;
        } else {
            for (int i = 0; i < m && result == IC_OK; ++i) {
                result = icText_Int(&r->c, &tags[filled + i], "node tag");
                lines[filled + i] = r->c.line;
            }
            for (int i = 0; i < m && result == IC_OK; ++i)
                for (int k = 0; k < values && result == IC_OK; ++k) {
                    double x;
                    result = icText_Real(&r->c, &x, "node coordinate");
                    if (k < 3) r->positions[3 * (size_t)(filled + i) + k] = x;
                }
        }
        filled += m;
    }
    if (result == IC_OK && filled != n) {
        r->c.line = headerLine;
        result = icGmsh_Error(r, IC_ERR_PARSE, r->c.p,
                              "node blocks hold %d nodes, the header says %d", filled, n);
    }
    if (result == IC_OK) {
        for (int i = 0; i < n && result == IC_OK; ++i)
            if (tags[i] < 0)
                result = icGmsh_Error(r, IC_ERR_PARSE, r->c.p, "negative node tag %lld", tags[i]);
    }
    if (result == IC_OK) {
        int duplicate = 0;
        result = icTagMap_Build(&r->tags, tags, n, &duplicate);
        if (result == IC_ERR_PARSE) {
            if (lines) r->c.line = lines[duplicate];
            result = icGmsh_Error(r, IC_ERR_PARSE, r->c.p, "node tag %lld appears twice",
                                  tags[duplicate]);
        }
    }
    icFree(tags);
    icFree(lines);
    if (result != IC_OK) return result;
    return icGmsh_ExpectEnd(r, "$EndNodes");
}

static int regionOfEntity(const icGmshReader *r, int dim, int entity) {
    if (dim != 3) return 0;
    for (int i = 0; i < r->volumeCount; ++i)
        if (r->volumeTags[i] == entity) return r->volumePhysical[i];
    return 0;
}

static icResult readElementBlockAscii(icGmshReader *r, int type, int m, int region) {
    icResult result = IC_OK;
    bool tet = type == 4 || type == 11;
    int nodes = icGmsh_NodesPerElement(type);
    for (int e = 0; e < m; ++e) {
        long long id;
        if ((result = icText_Int(&r->c, &id, "element tag")) != IC_OK) return result;
        int line = r->c.line;
        if (!tet) {
            ++r->skipped;
            icText_SkipLine(&r->c);
            continue;
        }
        long long tags[10];
        for (int k = 0; k < nodes; ++k) {
            if (!icText_SkipInLine(&r->c)) {
                if (r->c.p >= r->c.end)
                    return icText_Error(&r->c, IC_ERR_TRUNCATED, "file ends inside element %lld",
                                        id);
                return icText_Error(&r->c, IC_ERR_PARSE,
                                    "element %lld: line ends before its node tags", id);
            }
            if ((result = icText_Int(&r->c, &tags[k], "node tag")) != IC_OK) return result;
        }
        if (icText_SkipInLine(&r->c))
            return icText_Error(&r->c, IC_ERR_PARSE,
                                "element %lld has more values than a type-%d element", id, type);
        if ((result = icGmsh_AddTet(r, id, tags, region, line)) != IC_OK) return result;
    }
    if (type == 11) r->quadratic += m;
    return IC_OK;
}

static icResult readElementBlockBinary(icGmshReader *r, int type, int m, int region) {
    int nodes = icGmsh_NodesPerElement(type);
    if (nodes == 0)
        return icGmsh_Error(r, IC_ERR_UNSUPPORTED, r->c.p,
                            "element type %d (polygon or polyhedron) has no fixed node count, so "
                            "a binary file holding it cannot be read",
                            type);
    size_t record = (size_t)r->sizeT * (size_t)(1 + nodes);
    icResult result = icGmsh_Need(r, record * (size_t)m, "an element block");
    if (result != IC_OK) return result;
    if (type != 4 && type != 11) {
        r->skipped += m;
        r->c.p += record * (size_t)m;
        return IC_OK;
    }
    const char *base = r->c.p;
    for (int e = 0; e < m; ++e) {
        const char *q = base + record * (size_t)e;
        long long id, tags[4];
        if (r->sizeT == 8) {
            id = (long long)icFmt_U64(q, r->swap);
            for (int k = 0; k < 4; ++k) tags[k] = (long long)icFmt_U64(q + 8 * (k + 1), r->swap);
        } else {
            id = icFmt_U32(q, r->swap);
            for (int k = 0; k < 4; ++k) tags[k] = icFmt_U32(q + 4 * (k + 1), r->swap);
        }
        r->c.p = q;
        if ((result = icGmsh_AddTet(r, id, tags, region, 0)) != IC_OK) return result;
    }
    r->c.p = base + record * (size_t)m;
    if (type == 11) r->quadratic += m;
    return IC_OK;
}

icResult icGmsh_ReadElements4(icGmshReader *r) {
    long long blockCount, elementCount, minTag, maxTag;
    icResult result;
    if ((result = readSize(r, &blockCount, "entity block count")) != IC_OK ||
        (result = readSize(r, &elementCount, "element count")) != IC_OK ||
        (result = readSize(r, &minTag, "minimum element tag")) != IC_OK ||
        (result = readSize(r, &maxTag, "maximum element tag")) != IC_OK)
        return result;
    if ((result = checkCount(r, elementCount, 4, "elements")) != IC_OK) return result;
    if ((result = checkCount(r, blockCount, 4, "element blocks")) != IC_OK) return result;
    int headerLine = r->c.line;
    long long total = 0;
    for (long long b = 0; b < blockCount; ++b) {
        long long dim, entity, type, inBlock;
        if ((result = readInt(r, &dim, "entity dimension")) != IC_OK ||
            (result = readInt(r, &entity, "entity tag")) != IC_OK)
            return result;
        const char *typeAt = r->c.p;
        if ((result = readInt(r, &type, "element type")) != IC_OK ||
            (result = readSize(r, &inBlock, "elements in block")) != IC_OK)
            return result;
        // Reported at the block's line (ASCII) or the type's byte (binary).
        if (!icGmsh_IsElementType(type))
            return icGmsh_Error(r, IC_ERR_PARSE, typeAt,
                                "element block of type %lld, which no version of Gmsh defines",
                                type);
        if (inBlock > elementCount - total)
            return icGmsh_Error(
                r, IC_ERR_PARSE, r->c.p,
                "element blocks hold more than the %lld elements the header announces",
                elementCount);
        int region = regionOfEntity(r, (int)dim, (int)entity);
        result = r->binary ? readElementBlockBinary(r, (int)type, (int)inBlock, region)
                           : readElementBlockAscii(r, (int)type, (int)inBlock, region);
        if (result != IC_OK) return result;
        total += inBlock;
    }
    if (total != elementCount) {
        r->c.line = headerLine;
        return icGmsh_Error(r, IC_ERR_PARSE, r->c.p,
                            "element blocks hold %lld elements, the header says %lld", total,
                            elementCount);
    }
    return icGmsh_ExpectEnd(r, "$EndElements");
}
