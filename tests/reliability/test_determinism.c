// SPDX-License-Identifier: MIT
// Determinism: the state hash after N frames of several scenes is the same for repeated runs,
// for 1 and 2 worker threads, and after a checkpoint/restart; and it equals the golden hash
// pinned for this build configuration in tests/data/determinism/golden.txt.
#include "test.h"

#include "isochor/io.h"

#include <stdlib.h>
#include <string.h>

// Scenes that reach different code: contact with friction and pins in motion; incompressible
// coupled projection with linear damping; the static solve; the Newton solver; a body large
// enough for the sweeps to run on several workers; a scramble (seeded randomness).
typedef struct icDetScene {
    const char *name;
    int frames;
    const char *text; ///< one %d: the worker count (ignored by solvers without one)
} icDetScene;

static const icDetScene s_scenes[] = {
    {"contact", 24,
     "{\"dt\": 0.01, \"solver\": {\"substeps\": 5, \"workers\": %d},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.2, 0.2], \"cells\": [3, 2, 2]},\n"
     "   \"material\": {\"youngs_modulus\": 2e4, \"poisson_ratio\": 0.45, \"damping\": 0.001},\n"
     "   \"velocity\": [1, -2, 0.5],\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, 0.09, -1], \"max\": [1, 1, 1]},\n"
     "            \"motion\": [{\"rotate\": {\"axis\": [0, 1, 0], \"degrees_per_second\": 200}},\n"
     "                        {\"translate\": [0, -0.5, 0], \"start\": 0.1}]}]}],\n"
     " \"colliders\": [{\"plane\": {\"offset\": -0.15, \"friction\": 0.6}},\n"
     "               {\"plane\": {\"normal\": [1, 0.2, 0], \"offset\": -0.2}}]}\n"},
    {"incompressible", 20,
     "{\"dt\": 0.02, \"solver\": {\"substeps\": 8, \"iterations\": 2, \"projection\": \"coupled\",\n"
     "   \"linear_damping\": 0.5, \"workers\": %d},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.6, 0.15, 0.15], \"cells\": [8, 2, 2]},\n"
     "   \"material\": {\"youngs_modulus\": 1e5, \"poisson_ratio\": 0.5},\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.29, 1, 1]}},\n"
     "           {\"box\": {\"min\": [0.29, -1, -1], \"max\": [1, 1, 1]},\n"
     "            \"motion\": {\"rotate\": {\"axis\": [1, 0, 0], \"degrees_per_second\": 360}}}]}]}\n"},
    {"static", 3,
     "{\"dt\": 1, \"solver\": {\"mode\": \"static\", \"workers\": %d,\n"
     "   \"static\": {\"max_sweeps\": 300, \"tolerance\": 1e-9}},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.4, 0.1, 0.1], \"cells\": [4, 1, 1]},\n"
     "   \"material\": {\"youngs_modulus\": 1e5, \"poisson_ratio\": 0.4},\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.19, 1, 1]}},\n"
     "           {\"box\": {\"min\": [0.19, -1, -1], \"max\": [1, 1, 1]},\n"
     "            \"motion\": {\"translate\": [0.02, 0, 0]}}]}]}\n"},
    {"newton", 6,
     "{\"dt\": 0.02, \"solver\": {\"type\": \"newton\", \"max_iterations\": 20}, \"description\": \"%d\",\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.3, 0.1, 0.1], \"cells\": [3, 1, 1]},\n"
     "   \"material\": {\"model\": \"snh\", \"youngs_modulus\": 5e4, \"poisson_ratio\": 0.45},\n"
     "   \"pin\": [{\"box\": {\"min\": [-1, -1, -1], \"max\": [-0.14, 1, 1]}}]}]}\n"},
    // Big enough (2197 vertices, 10368 tets) for the sweeps to be split among workers.
    {"threads", 3,
     "{\"dt\": 0.01, \"solver\": {\"substeps\": 4, \"workers\": %d},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.5, 0.5, 0.5], \"cells\": 12},\n"
     "   \"material\": {\"youngs_modulus\": 1e5, \"poisson_ratio\": 0.49},\n"
     "   \"velocity\": [0, -3, 1]}],\n"
     " \"colliders\": [{\"plane\": {\"offset\": -0.27, \"friction\": 0.3}}]}\n"},
    {"scramble", 10,
     "{\"dt\": 0.01, \"solver\": {\"substeps\": 10, \"workers\": %d},\n"
     " \"bodies\": [{\"mesh\": {\"generate\": \"box\", \"size\": [0.2, 0.2, 0.2], \"cells\": 2},\n"
     "   \"material\": {\"youngs_modulus\": 1e4, \"poisson_ratio\": 0.45},\n"
     "   \"scramble\": {\"normal\": [0, 1, 0], \"seed\": 7}}]}\n"},
};
#define IC_DET_SCENES ((int)(sizeof s_scenes / sizeof s_scenes[0]))

// Runs frames [from, to) through the scene runner (scrambles, static frames, the lot), with a
// checkpoint after the last one when checkpoint is set, or resuming from resume.
static uint64_t runHash(const icDetScene *d, int workers, int frames, const char *checkpoint,
                        const char *resume) {
    char text[3000];
    IC_FORMAT(text, d->text, workers);
    uint64_t hash = 0;
    icDiagnostic diag = {0};
    icResult r = icTest_RunSceneText(text, d->name, frames, checkpoint, resume, NULL, &hash, &diag);
    IC_CHECK_MSG(r == IC_OK, "%s: %s", d->name, diag.message);
    return hash;
}

IC_TEST(reliability, determinism_repeat_threads_restart) {
    int64_t bytes = icGetByteCount();
    const char *dir = icTest_TempDir();
    for (int i = 0; i < IC_DET_SCENES; ++i) {
        const icDetScene *d = &s_scenes[i];
        uint64_t first = runHash(d, 1, d->frames, NULL, NULL);
        uint64_t again = runHash(d, 1, d->frames, NULL, NULL);
        IC_CHECK_MSG(first == again, "%s: repeated run %016llx != %016llx", d->name,
                     (unsigned long long)again, (unsigned long long)first);
        // Two workers must give the same bits (the coloured sweeps are order-independent).
        uint64_t two = runHash(d, 2, d->frames, NULL, NULL);
        IC_CHECK_MSG(first == two, "%s: 2 workers %016llx != 1 worker %016llx", d->name,
                     (unsigned long long)two, (unsigned long long)first);
        // Half the frames, a checkpoint, a fresh world resumed from it for the rest.
        char path[1300];
        IC_FORMAT(path, "%s/%s.ckpt", dir, d->name);
        int half = d->frames / 2;
        runHash(d, 1, half, path, NULL);
        uint64_t resumed = runHash(d, 1, d->frames, NULL, path);
        IC_CHECK_MSG(first == resumed, "%s: resumed after frame %d %016llx != %016llx", d->name,
                     half, (unsigned long long)resumed, (unsigned long long)first);
    }
    IC_CHECK_INT(icGetByteCount(), bytes);
}

// The build configuration the golden hashes are pinned for: compiler and version, build
// type, sanitizers. Floating-point results are expected to match across these (IEEE double,
// -ffp-contract=off, no fast-math) but are pinned separately so that a difference shows.
static void buildKey(char *key, size_t size) {
#if defined(__clang__)
    const char *compiler = "clang";
    int major = __clang_major__, minor = __clang_minor__;
#elif defined(__GNUC__)
    const char *compiler = "gcc";
    int major = __GNUC__, minor = __GNUC_MINOR__;
#else
    const char *compiler = "cc";
    int major = 0, minor = 0;
#endif
    bool asan = false;
#if defined(__SANITIZE_ADDRESS__)
    asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    asan = true;
#endif
#endif
#ifdef IC_BUILD_TYPE
    const char *type = IC_BUILD_TYPE[0] ? IC_BUILD_TYPE : "none";
#else
    const char *type = "unknown";
#endif
    IC_FORMAT_N(key, size, "%s-%d.%d/%s%s", compiler, major, minor, type, asan ? "+asan" : "");
}

IC_TEST(reliability, determinism_golden_hashes) {
    char key[128];
    buildKey(key, sizeof key);
    uint64_t hashes[IC_DET_SCENES];
    for (int i = 0; i < IC_DET_SCENES; ++i)
        hashes[i] = runHash(&s_scenes[i], 1, s_scenes[i].frames, NULL, NULL);

    const char *path = icTest_SourcePath("tests/data/determinism/golden.txt");
    FILE *fp = fopen(path, "rb");
    IC_REQUIRE(fp);
    char lines[200][160];
    int lineCount = 0, found = 0;
    while (lineCount < 200 && fgets(lines[lineCount], sizeof lines[0], fp)) {
        char k[128], scene[64];
        unsigned long long golden;
        if (lines[lineCount][0] != '#' &&
            sscanf(lines[lineCount], "%127s %63s %llx", k, scene, &golden) == 3 &&
            strcmp(k, key) == 0) {
            // Lines of this configuration are rewritten when updating.
            for (int i = 0; i < IC_DET_SCENES; ++i) {
                if (strcmp(scene, s_scenes[i].name) != 0) continue;
                ++found;
                IC_CHECK_MSG(golden == hashes[i],
                             "%s: state hash %016llx, golden %016llx for %s. If this change of "
                             "results is intended, update the golden hashes with "
                             "ISOCHOR_UPDATE_GOLDEN=1 ./isochor_tests "
                             "reliability.determinism_golden_hashes and commit "
                             "tests/data/determinism/golden.txt",
                             s_scenes[i].name, (unsigned long long)hashes[i], golden, key);
            }
            continue;
        }
        ++lineCount;
    }
    fclose(fp);
    const char *update = getenv("ISOCHOR_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        fp = fopen(path, "wb");
        IC_REQUIRE(fp);
        for (int i = 0; i < lineCount; ++i) fputs(lines[i], fp);
        for (int i = 0; i < IC_DET_SCENES; ++i)
            fprintf(fp, "%s %s %016llx\n", key, s_scenes[i].name, (unsigned long long)hashes[i]);
        fclose(fp);
        printf("golden hashes for %s written to %s\n", key, path);
    } else if (found == 0) {
        // A configuration nobody pinned yet (another compiler, a user's build): say so.
        printf("no golden hashes pinned for %s; to pin them: ISOCHOR_UPDATE_GOLDEN=1 "
               "./isochor_tests reliability.determinism_golden_hashes\n",
               key);
    } else {
        IC_CHECK_MSG(found == IC_DET_SCENES, "%s: %d of %d scenes pinned", key, found,
                     IC_DET_SCENES);
    }
}
