// SPDX-License-Identifier: MIT
// The subcommands' option scanner: getopt_long with one behaviour for every command. Options
// are spelled whole ("--fr" is refused, naming --frames), values go as "--opt value" or
// "--opt=value", options and operands mix, "--" ends the options, and a bad option gets the
// same message in every command, prefixed with the command's name.
#pragma once

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct icCliOptions {
    const char *command;          ///< "isochor run": the messages' prefix
    const struct option *options; ///< the command's long options; every val nonzero and unique
    const char *shortOptions;     ///< getopt's short options, e.g. "hq"
    char **args;                  ///< the command, then the caller's arguments (argc + 1)
    int count;                    ///< elements in args
    char **operands;              ///< the non-options, once Next has returned 0
    int operandCount;
} icCliOptions;

// Starts a scan of argv (the arguments after the command's name; they are not changed).
// False when out of memory.
bool icCliOptions_Begin(icCliOptions *cli, const char *command, int argc, char **argv,
                        const struct option *options, const char *shortOptions);

// The next option's code (its val, or the short option's letter) with its value, or NULL
// for a flag; 0 when the options are done (the operands are then set); -1 after a message on
// stderr for an unknown or abbreviated option, a missing value or a value given to a flag.
int icCliOptions_Next(icCliOptions *cli, const char **value);

// Frees the scan's copy; the strings stay the caller's.
void icCliOptions_End(icCliOptions *cli);

// A byte count for --max-memory and --max-scene-size: digits, then optionally one of K, M, G,
// T (powers of 1024, upper or lower case, an optional trailing "B" or "iB": 512M, 4GiB, 64k).
// False for anything else, for 0, and for counts past INT64_MAX.
bool icCli_ParseBytes(const char *text, int64_t *bytes);
