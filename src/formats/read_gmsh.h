// SPDX-License-Identifier: MIT
// State shared by the Gmsh 2.x and 4.1 section parsers.
#pragma once

#include "formats/fmt_internal.h"

typedef struct icGmshReader {
    const char *path;
    icTextCursor c; ///< over the whole file; binary parts move c.p directly
    icDiagnostic *diag;
    bool binary; ///< file-type 1
    bool swap;   ///< binary data in the other byte order
    int major;   ///< 2 or 4
    int sizeT;   ///< 4.1 binary: bytes of a size_t (data-size)

    bool haveNodes;
    int nodeCount;
    icReal *positions; ///< (nodeCount x 3)
    icTagMap tags;     ///< node tag -> index

    bool haveElements;
    icIntArray tets;    ///< 4 vertex indices per tet, mesh.h handedness
    icIntArray regions; ///< physical group per tet
    icIntArray lines;   ///< 1-based line per tet (ASCII files)
    int skipped, quadratic;

    int volumeCount; ///< 4.1 $Entities: volume entity tags and their first physical tag
    int *volumeTags;
    int *volumePhysical;

    long long *tetTags; ///< (tets.count / 4) element tag of each tet, for $ElementData
    int tetTagCapacity;
    icTagMap tetTagMap; ///< element tag -> tet, built at the first $ElementData
    bool tetTagMapBuilt;
    struct icGmshView *views; ///< $NodeData / $ElementData views read so far
    int viewCount, viewCapacity;
} icGmshReader;

/// Reports a problem: at the cursor's line in ASCII files, at a byte offset in binary ones.
icResult icGmsh_Error(icGmshReader *r, icResult code, const char *at, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/// Nodes per element of a Gmsh element type: 0 for polygons and polyhedra (their size
/// varies), -1 for numbers no version of Gmsh assigns.
int icGmsh_NodesPerElement(long long type);
/// True when some version of Gmsh defines element type number type (1-75, 79-140): other
/// numbers mark a corrupt file.
bool icGmsh_IsElementType(long long type);
/// Checks that n more bytes are there in binary data.
icResult icGmsh_Need(icGmshReader *r, size_t n, const char *what);
/// Adds one tet given its (file-order) node tags, mapping tags to indices; type 11's mid-edge
/// nodes are not passed.
icResult icGmsh_AddTet(icGmshReader *r, long long elementTag, const long long nodes[4], int region,
                       int line);
/// Expects the closing "$EndX" word of a section.
icResult icGmsh_ExpectEnd(icGmshReader *r, const char *endWord);

icResult icGmsh_ReadNodes4(icGmshReader *r);
icResult icGmsh_ReadElements4(icGmshReader *r);
icResult icGmsh_ReadEntities4(icGmshReader *r);

typedef struct icGmshView icGmshView;
/// Reads a $NodeData (perCell false) or $ElementData section after its name: values for
/// nodes $Nodes defines and for tets (values of other elements are dropped). The last time
/// step of each view name wins; sections giving the same step (partitions) are merged.
icResult icGmsh_ReadData(icGmshReader *r, bool perCell);
/// Skips a $ElementNodeData section after its name, remembering its view as not read.
icResult icGmsh_SkipElementNodeData(icGmshReader *r);
/// Appends every view with a value for each vertex the tets use (point fields) or each tet
/// (cell fields) to fields (may be NULL); the others are counted in info->skippedFields.
/// Point fields are laid out over the vertices icFmt_DropUnusedVertices keeps: call it on
/// the mesh (before dropping) and add the fields after dropping.
icResult icGmsh_ViewsToFields(icGmshReader *r, const icTetMesh *mesh, icMeshFields *fields,
                              icMeshFileInfo *info);
/// Frees the views and the tet tag map.
void icGmsh_DestroyViews(icGmshReader *r);
