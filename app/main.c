// SPDX-License-Identifier: MIT
// isochor command-line tool: dispatches to the subcommands in app/cmd_*.c.
#include "cli.h"

#include "isochor/base.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

typedef struct icCommand {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
} icCommand;

static const icCommand s_commands[] = {
    {"run", icCli_Run, "run SCENE [--out DIR] [--frames N] [--workers N] [--stats FILE] [--quiet]"},
    {"info", icCli_Info,
     "info MESH|RESULT.pvd [--result] [--frame N] | --scene SCENE   counts, quality, notes"},
    {"convert", icCli_Convert,
     "convert IN OUT [--binary] [--strict] [--result]   between formats, fields kept"},
    {"render", icCli_Render, "render SCENE|RESULT.pvd --frame N|--all --out DIR"},
    {"tetrahedralize", icCli_Tetrahedralize,
     "tetrahedralize SURFACE OUT [--max-volume V] [--quality Q] [--time-limit S]"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: isochor [--help | --version] COMMAND [ARGS]\ncommands:\n");
    for (size_t i = 0; i < sizeof s_commands / sizeof s_commands[0]; ++i)
        fprintf(out, "  isochor %s\n", s_commands[i].help);
    fprintf(out, "'isochor COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv) {
    static const struct option options[] = {{"help", no_argument, NULL, 'h'},
                                            {"version", no_argument, NULL, 'V'},
                                            {NULL, 0, NULL, 0}};
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    // "+": the options end at the command's name; what follows is the command's.
    opterr = 0;
    int c, index = -1;
    while ((c = getopt_long(argc, argv, "+:hV", options, &index)) != -1) {
        const char *used = argv[optind - 1];
        // Only the whole names: getopt_long would also take "--vers".
        if (index >= 0 && strcmp(used + 2, options[index].name) != 0) c = '?';
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        if (c == 'V') {
            printf("isochor %s\n", icVersionString());
            return 0;
        }
        if (strncmp(used, "--", 2) == 0 || !(optopt > 0 && optopt < 128))
            fprintf(stderr, "isochor: unknown option '%s'\n", used);
        else
            fprintf(stderr, "isochor: unknown option '-%c'\n", optopt);
        usage(stderr);
        return 2;
    }
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[optind];
    for (size_t i = 0; i < sizeof s_commands / sizeof s_commands[0]; ++i)
        if (strcmp(name, s_commands[i].name) == 0)
            return s_commands[i].fn(argc - optind - 1, argv + optind + 1);
    fprintf(stderr, "isochor: unknown command '%s'\n", name);
    usage(stderr);
    return 2;
}
