// SPDX-License-Identifier: MIT
// Checkpoints: a restart continues bit for bit, and truncated, corrupted, foreign or newer
// checkpoints are refused with their exact codes while the world stays as it was.
#include "test.h"

#include "isochor/io.h"

#include <stdlib.h>
#include <string.h>

// A small pinned, spinning box over a floor: contact, pins with motion, nu close to 0.5.
static const char *s_scene =
    "{\"dt\": 0.01, \"frames\": 12, \"solver\": {\"substeps\": 4},\n"
    " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2},\n"
    "   \"material\": {\"youngs_modulus\": 1e4, \"poisson_ratio\": 0.49},\n"
    "   \"velocity\": [0.5, -1, 0],\n"
    "   \"pin\": [{\"box\": {\"min\": [-1, 0.09, -1], \"max\": [1, 1, 1]},\n"
    "            \"motion\": {\"rotate\": {\"axis\": [0, 1, 0], \"degrees_per_second\": 90}}}]}],\n"
    " \"colliders\": [{\"plane\": {\"offset\": -0.12}}]}\n";

static bool loadScene(icScene *scene, const char *text) {
    icDiagnostic diag = {0};
    icResult r = icScene_LoadString(text, "ck.json", ".", scene, &diag);
    IC_CHECK_MSG(r == IC_OK, "scene: %s", diag.message);
    return r == IC_OK;
}

static void stepFrames(icScene *scene, int frames) {
    for (int i = 0; i < frames; ++i)
        IC_CHECK_RESULT(icWorld_Step(scene->world, scene->dt, NULL), IC_OK);
}

static uint8_t *readBytes(const char *path, size_t *size) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)n + 1);
    *size = fread(data, 1, (size_t)n, fp);
    fclose(fp);
    return data;
}

static void writeBytes(const char *path, const uint8_t *data, size_t size) {
    FILE *fp = fopen(path, "wb");
    if (!fp) return;
    fwrite(data, 1, size, fp);
    fclose(fp);
}

IC_TEST(reliability, checkpoint_restart_is_bit_identical) {
    int64_t bytes = icGetByteCount();
    const char *dir = icTest_TempDir();
    char path[1200];
    IC_FORMAT(path, "%s/a.ckpt", dir);
    icScene a, b;
    IC_REQUIRE(loadScene(&a, s_scene) && loadScene(&b, s_scene));
    stepFrames(&a, 5);
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icSaveCheckpoint(path, a.world, &diag), IC_OK);
    uint64_t atSave = icWorld_HashState(a.world);
    stepFrames(&a, 7);
    // b restores a's frame-5 state and runs the same 7 frames.
    IC_CHECK(icWorld_HashState(b.world) != atSave);
    IC_CHECK_RESULT(icLoadCheckpoint(path, b.world, &diag), IC_OK);
    IC_CHECK(icWorld_HashState(b.world) == atSave);
    IC_CHECK(icWorld_HashModel(b.world) == icWorld_HashModel(a.world));
    stepFrames(&b, 7);
    IC_CHECK_MSG(icWorld_HashState(a.world) == icWorld_HashState(b.world),
                 "restarted state %016llx differs from the uninterrupted %016llx",
                 (unsigned long long)icWorld_HashState(b.world),
                 (unsigned long long)icWorld_HashState(a.world));
    IC_CHECK(memcmp(icWorld_GetPositions(a.world), icWorld_GetPositions(b.world),
                    sizeof(icReal) * 3 * (size_t)icWorld_GetVertexCount(a.world)) == 0);
    // The health counts travel with the state.
    IC_CHECK_INT(icWorld_GetHealth(a.world).steps, icWorld_GetHealth(b.world).steps);
    IC_CHECK(icWorld_GetHealth(a.world).maxTetJMinus1Seen > 0);
    IC_CHECK(icWorld_GetHealth(a.world).maxTetJMinus1Seen ==
             icWorld_GetHealth(b.world).maxTetJMinus1Seen);
    icScene_Destroy(&a);
    icScene_Destroy(&b);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// Loads data as a checkpoint into scene b and checks the code, the message and that b did
// not change.
static void expectRefused(icScene *b, const char *dir, const char *name, const uint8_t *data,
                          size_t size, icResult code, const char *words) {
    char path[1200];
    IC_FORMAT(path, "%s/%s", dir, name);
    writeBytes(path, data, size);
    uint64_t before = icWorld_HashState(b->world);
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icLoadCheckpoint(path, b->world, &diag), code);
    IC_CHECK_MSG(strstr(diag.message, words) != NULL, "%s: message '%s' lacks '%s'", name,
                 diag.message, words);
    IC_CHECK_MSG(strcmp(diag.file, path) == 0, "%s: diagnostic names '%s'", name, diag.file);
    IC_CHECK_MSG(icWorld_HashState(b->world) == before, "%s: the world changed", name);
}

IC_TEST(reliability, checkpoint_bad_files_are_refused_whole) {
    int64_t bytes = icGetByteCount();
    const char *dir = icTest_TempDir();
    char path[1200];
    IC_FORMAT(path, "%s/good.ckpt", dir);
    icScene a, b;
    IC_REQUIRE(loadScene(&a, s_scene) && loadScene(&b, s_scene));
    stepFrames(&a, 3);
    icDiagnostic diag = {0};
    IC_REQUIRE(icSaveCheckpoint(path, a.world, &diag) == IC_OK);
    size_t size = 0;
    uint8_t *good = readBytes(path, &size);
    IC_REQUIRE(good && size > 200);
    uint8_t *bad = malloc(size);

    // Every truncation is refused as truncated (the header names the full size).
    for (size_t n = 0; n < size; n += (n < 64 ? 1 : 97)) {
        char name[64];
        IC_FORMAT(name, "trunc%zu.ckpt", n);
        expectRefused(&b, dir, name, good, n, IC_ERR_TRUNCATED, "truncated");
    }
    // Any flipped bit past the header's size field breaks the checksum.
    for (size_t i = 24; i < size; i += 41) {
        memcpy(bad, good, size);
        bad[i] ^= 0x10;
        expectRefused(&b, dir, "flip.ckpt", bad, size, IC_ERR_PARSE, "checksum");
    }
    // Trailing bytes, other files, a newer version, another model.
    uint8_t *longer = malloc(size + 8);
    memcpy(longer, good, size);
    memset(longer + size, 0, 8);
    expectRefused(&b, dir, "long.ckpt", longer, size + 8, IC_ERR_PARSE, "header says");
    free(longer);
    expectRefused(&b, dir, "json.ckpt", (const uint8_t *)"{\"dt\": 1}", 9, IC_ERR_PARSE,
                  "not an isochor checkpoint");
    memcpy(bad, good, size);
    bad[8] = 2; // version 2 (the checksum is checked after the version)
    expectRefused(&b, dir, "v2.ckpt", bad, size, IC_ERR_UNSUPPORTED, "version 2 is newer");

    icScene other;
    char otherText[2000];
    IC_FORMAT(otherText, "%s", s_scene);
    char *nu = strstr(otherText, "0.49");
    IC_REQUIRE(nu);
    nu[3] = '8'; // poisson_ratio 0.48: same mesh, another material
    IC_REQUIRE(loadScene(&other, otherText));
    uint64_t before = icWorld_HashState(other.world);
    IC_CHECK_RESULT(icLoadCheckpoint(path, other.world, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK_MSG(strstr(diag.message, "another model"), "message '%s'", diag.message);
    IC_CHECK(icWorld_HashState(other.world) == before);
    icScene_Destroy(&other);

    // Colliders are part of the model: a world with a sphere the writer did not have, or with
    // another sphere, refuses the checkpoint; the same sphere alone loads.
    static const char *const sphereScenes[] = {"{\"sphere\": {\"center\": [0.5, 0, 0], "
                                               "\"radius\": 0.1}}",
                                               "{\"sphere\": {\"center\": [0.5, 0, 0], "
                                               "\"radius\": 0.11}}"};
    char withSphere[2][2000];
    for (int k = 0; k < 2; ++k) {
        IC_FORMAT(withSphere[k], "%s", s_scene);
        char *end = strstr(withSphere[k], "-0.12}}]}"); // the plane, last in s_scene
        IC_REQUIRE(end);
        IC_FORMAT_N(end, sizeof withSphere[k] - (size_t)(end - withSphere[k]), "-0.12}}, %s]}\n",
                    sphereScenes[k]);
    }
    icScene sphereA, sphereB, sphereC;
    IC_REQUIRE(loadScene(&sphereA, withSphere[0]) && loadScene(&sphereB, withSphere[1]) &&
               loadScene(&sphereC, withSphere[0]));
    IC_CHECK(icWorld_HashModel(sphereA.world) != icWorld_HashModel(b.world));
    IC_CHECK(icWorld_HashModel(sphereA.world) != icWorld_HashModel(sphereB.world));
    IC_CHECK(icWorld_HashModel(sphereA.world) == icWorld_HashModel(sphereC.world));
    char spherePath[1200];
    IC_FORMAT(spherePath, "%s/sphere.ckpt", dir);
    IC_CHECK_RESULT(icSaveCheckpoint(spherePath, sphereA.world, &diag), IC_OK);
    IC_CHECK_RESULT(icLoadCheckpoint(spherePath, sphereB.world, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK_MSG(strstr(diag.message, "another model"), "message '%s'", diag.message);
    IC_CHECK_RESULT(icLoadCheckpoint(spherePath, b.world, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK_RESULT(icLoadCheckpoint(path, sphereA.world, &diag), IC_ERR_BAD_VALUE);
    IC_CHECK_RESULT(icLoadCheckpoint(spherePath, sphereC.world, &diag), IC_OK);
    icScene_Destroy(&sphereA);
    icScene_Destroy(&sphereB);
    icScene_Destroy(&sphereC);

    // A missing file.
    IC_CHECK_RESULT(icLoadCheckpoint("no/such.ckpt", b.world, &diag), IC_ERR_IO);

    // The good one still loads after all that.
    IC_CHECK_RESULT(icLoadCheckpoint(path, b.world, &diag), IC_OK);
    IC_CHECK(icWorld_HashState(b.world) == icWorld_HashState(a.world));
    free(bad);
    free(good);
    icScene_Destroy(&a);
    icScene_Destroy(&b);
    IC_CHECK_INT(icGetByteCount(), bytes);
}

IC_TEST(reliability, checkpoint_refuses_non_finite_state) {
    icScene a;
    IC_REQUIRE(loadScene(&a, s_scene));
    icWorld_GetPositionsMutable(a.world)[4] = NAN;
    void *data = NULL;
    size_t size = 0;
    IC_CHECK_RESULT(icWorld_SaveCheckpoint(a.world, NULL, 0, &data, &size), IC_ERR_NOT_FINITE);
    IC_CHECK(data == NULL && size == 0);
    icScene_Destroy(&a);
}

// The layout of docs/reliability.md, byte for byte: header, sections, trailer.
IC_TEST(reliability, checkpoint_layout_matches_the_docs) {
    icScene a;
    IC_REQUIRE(loadScene(&a, s_scene));
    void *data = NULL;
    size_t size = 0;
    const char user[5] = "abcd";
    IC_REQUIRE(icWorld_SaveCheckpoint(a.world, user, 5, &data, &size) == IC_OK);
    const uint8_t *p = data;
    int nv = icWorld_GetVertexCount(a.world), nt = icWorld_GetTetCount(a.world);
    size_t state = 40 + 8 * (9 * (size_t)nv + 2 * (size_t)nt);
    IC_CHECK_INT(size, 48 + 16 + state + 16 + 272 + 16 + 8 + 8);
    IC_CHECK(memcmp(p, "ICCHKPT\0", 8) == 0);
    IC_CHECK_INT(p[8], 1);   // version
    IC_CHECK_INT(p[12], 48); // header size
    uint64_t total = 0, model = 0;
    for (int i = 7; i >= 0; --i) total = total << 8 | p[16 + i];
    for (int i = 7; i >= 0; --i) model = model << 8 | p[24 + i];
    IC_CHECK_INT(total, size);
    IC_CHECK(model == icWorld_HashModel(a.world));
    IC_CHECK_INT(p[32], 3); // sections
    IC_CHECK(memcmp(p + 48, "STAT", 4) == 0);
    IC_CHECK(memcmp(p + 48 + 16 + state, "HLTH", 4) == 0);
    IC_CHECK(memcmp(p + 48 + 16 + state + 16 + 272, "USER", 4) == 0);
    IC_CHECK(memcmp(p + 48 + 16 + state + 16 + 272 + 16, "abcd", 5) == 0);
    // The first position is the first number of the state's arrays.
    double x0;
    uint64_t w = 0;
    for (int i = 7; i >= 0; --i) w = w << 8 | p[48 + 16 + 40 + i];
    memcpy(&x0, &w, 8);
    IC_CHECK(x0 == icWorld_GetPositions(a.world)[0]);
    const void *back = NULL;
    size_t backSize = 0;
    icDiagnostic diag = {0};
    IC_CHECK_RESULT(icWorld_LoadCheckpoint(a.world, data, size, &back, &backSize, &diag), IC_OK);
    IC_CHECK(backSize == 5 && back && memcmp(back, "abcd", 5) == 0);
    icFree(data);
    icScene_Destroy(&a);
}
