// SPDX-License-Identifier: MIT
// Loads an installed shared isochor library with dlopen and calls through dlsym, as a plugin
// host or a Python module would (tests/install/install.sh).
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: dlopen_check LIBRARY.so\n");
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    const char *(*versionString)(void) = (const char *(*)(void))dlsym(library, "icVersionString");
    // Internal functions are hidden: the solver's sweep is not reachable from outside.
    void *internal = dlsym(library, "icXpbd_SweepPacked");
    if (!versionString || internal) {
        fprintf(stderr, "dlsym: icVersionString %s, icXpbd_SweepPacked %s\n",
                versionString ? "found" : "missing", internal ? "exported" : "hidden");
        return 1;
    }
    printf("ok: %s version %s\n", argv[1], versionString());
    dlclose(library);
    return 0;
}
