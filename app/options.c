// SPDX-License-Identifier: MIT
// One getopt_long scan for every subcommand, with the command's own messages (opterr = 0)
// and whole option names only: getopt_long takes unique abbreviations ("--fr 3" for
// "--frames 3"), but a command accepts only what its help names.
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool icCliOptions_Begin(icCliOptions *cli, const char *command, int argc, char **argv,
                        const struct option *options, const char *shortOptions) {
    memset(cli, 0, sizeof *cli);
    // getopt_long wants the program name first; a copy keeps the caller's argv in order.
    cli->args = malloc(sizeof(char *) * ((size_t)argc + 2));
    if (!cli->args) return false;
    cli->args[0] = (char *)command;
    memcpy(cli->args + 1, argv, sizeof(char *) * (size_t)argc);
    cli->args[argc + 1] = NULL;
    cli->count = argc + 1;
    cli->command = command;
    cli->options = options;
    cli->shortOptions = shortOptions;
    optind = 0; // restart getopt's scan
    opterr = 0; // our own messages, in the command's words
    return true;
}

// The long option spelled exactly name[0..length), or NULL.
static const struct option *findName(const struct option *options, const char *name,
                                     size_t length) {
    for (const struct option *o = options; o->name; ++o)
        if (strlen(o->name) == length && strncmp(o->name, name, length) == 0) return o;
    return NULL;
}

static const struct option *findCode(const struct option *options, int code) {
    for (const struct option *o = options; o->name; ++o)
        if (o->val == code) return o;
    return NULL;
}

// Says what is wrong with the long option in element ("--name" or "--name=value"); matched
// is the option getopt took it for (NULL when none), missing whether its value was missing.
static void reportLong(const icCliOptions *cli, const char *element, const struct option *matched,
                       bool missing) {
    const char *name = element + 2;
    int length = (int)strcspn(name, "=");
    if (matched && !findName(cli->options, name, (size_t)length))
        fprintf(stderr, "%s: unknown option '--%.*s' (did you mean --%s?)\n", cli->command, length,
                name, matched->name);
    else if (matched && missing)
        fprintf(stderr, "%s: --%.*s needs a value\n", cli->command, length, name);
    else if (matched)
        fprintf(stderr, "%s: --%.*s takes no value\n", cli->command, length, name);
    else
        fprintf(stderr, "%s: unknown option '--%.*s'\n", cli->command, length, name);
}

int icCliOptions_Next(icCliOptions *cli, const char **value) {
    *value = NULL;
    int first = optind > 0 ? optind : 1; // the first element this call may read
    char spec[64];
    snprintf(spec, sizeof spec, ":%s", cli->shortOptions);
    int index = -1;
    int c = getopt_long(cli->count, cli->args, spec, cli->options, &index);
    if (c == -1) {
        cli->operands = cli->args + optind;
        cli->operandCount = cli->count - optind;
        return 0;
    }
    if (c == '?' || c == ':') {
        // A long option's element is always consumed: it is args[optind - 1], read by this
        // call. A short one may sit inside a cluster ("-qx") that optind has not left yet.
        const char *element = optind - 1 >= first ? cli->args[optind - 1] : "";
        if (strncmp(element, "--", 2) == 0) {
            // getopt puts the option it matched in optopt, 0 for an unknown or ambiguous name.
            reportLong(cli, element, optopt ? findCode(cli->options, optopt) : NULL, c == ':');
        } else if (c == ':') {
            fprintf(stderr, "%s: -%c needs a value\n", cli->command, optopt);
        } else {
            fprintf(stderr, "%s: unknown option '-%c'\n", cli->command, optopt);
        }
        return -1;
    }
    if (index >= 0) {
        // The element read: args[optind - 1], or the one before when the value came next.
        const char *element = optarg && optarg == cli->args[optind - 1] ? cli->args[optind - 2]
                                                                        : cli->args[optind - 1];
        if (!findName(cli->options, element + 2, strcspn(element + 2, "="))) {
            reportLong(cli, element, &cli->options[index], false);
            return -1;
        }
    }
    *value = optarg;
    return c;
}

void icCliOptions_End(icCliOptions *cli) {
    free(cli->args); // the strings stay the caller's
    cli->args = NULL;
    cli->operands = NULL;
    cli->operandCount = 0;
}

bool icCli_ParseBytes(const char *text, int64_t *bytes) {
    if (!text || !text[0]) return false;
    int64_t value = 0;
    const char *p = text;
    for (; *p >= '0' && *p <= '9'; ++p) {
        if (value > (INT64_MAX - 9) / 10) return false;
        value = 10 * value + (*p - '0');
    }
    if (p == text) return false;
    int shift = 0;
    switch (*p) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: break;
    }
    if (shift) {
        ++p;
        if (*p == 'i') ++p;
    }
    if (*p == 'b' || *p == 'B') ++p;
    if (*p || value == 0 || value > (INT64_MAX >> shift)) return false;
    *bytes = value << shift;
    return true;
}
