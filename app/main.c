// SPDX-License-Identifier: MIT
// isochor command-line tool: dispatches to the subcommands in app/cmd_*.c.
#include "cli.h"

#include <stdio.h>
#include <string.h>

typedef struct icCommand {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
} icCommand;

static const icCommand s_commands[] = {
    {"run", icCli_Run, "run SCENE [--out DIR] [--frames N] [--stats FILE] [--quiet]"},
    {"info", icCli_Info, "info MESH            counts, volume, quality, orientation fixes"},
    {"convert", icCli_Convert, "convert IN OUT       between tet mesh formats"},
    {"render", icCli_Render, "render SCENE|RESULT.pvd --frame N|--all --out DIR"},
    {"tetrahedralize", icCli_Tetrahedralize, "tetrahedralize SURFACE OUT.ele [--max-volume V]"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: isochor COMMAND [ARGS]\ncommands:\n");
    for (size_t i = 0; i < sizeof s_commands / sizeof s_commands[0]; ++i)
        fprintf(out, "  isochor %s\n", s_commands[i].help);
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof s_commands / sizeof s_commands[0]; ++i)
        if (strcmp(argv[1], s_commands[i].name) == 0) return s_commands[i].fn(argc - 2, argv + 2);
    fprintf(stderr, "isochor: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
