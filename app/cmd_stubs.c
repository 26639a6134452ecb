// SPDX-License-Identifier: MIT
// Placeholders for subcommands that have not landed yet; each file that implements one
// removes its line here.
#include "cli.h"

#include <stdio.h>

static int notYet(const char *name) {
    fprintf(stderr, "isochor %s: not available in this build yet\n", name);
    return 2;
}

int icCli_Run(int argc, char **argv) { (void)argc; (void)argv; return notYet("run"); }
int icCli_Info(int argc, char **argv) { (void)argc; (void)argv; return notYet("info"); }
