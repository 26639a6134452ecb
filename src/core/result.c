// SPDX-License-Identifier: MIT
// Result codes, their messages (from the one table in base.h) and diagnostics.
#include "isochor/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *icResult_Message(icResult result) {
    switch (result) {
#define IC_RESULT_MESSAGE_(name, value, message)                                                \
    case name:                                                                                  \
        return message;
        IC_RESULT_TABLE(IC_RESULT_MESSAGE_)
#undef IC_RESULT_MESSAGE_
    default:
        return "unknown result";
    }
}

const char *icResult_Name(icResult result) {
    switch (result) {
#define IC_RESULT_NAME_(name, value, message)                                                   \
    case name:                                                                                  \
        return #name;
        IC_RESULT_TABLE(IC_RESULT_NAME_)
#undef IC_RESULT_NAME_
    default:
        return "IC_ERR_UNKNOWN";
    }
}

icResult icDiag_Set(icDiagnostic *diag, icResult code, const char *file, int line,
                    const char *format, ...) {
    if (!diag) return code;
    diag->code = code;
    snprintf(diag->file, sizeof diag->file, "%s", file ? file : "");
    diag->line = line;
    diag->element = -1;
    if (format) {
        va_list args;
        va_start(args, format);
        vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
    } else {
        snprintf(diag->message, sizeof diag->message, "%s", icResult_Message(code));
    }
    return code;
}

void icDiag_Format(const icDiagnostic *diag, char *buffer, size_t size) {
    if (!buffer || size == 0) return;
    if (!diag) {
        buffer[0] = 0;
        return;
    }
    const char *message = diag->message[0] ? diag->message : icResult_Message(diag->code);
    if (diag->file[0] && diag->line > 0)
        snprintf(buffer, size, "%s:%d: %s [%s]", diag->file, diag->line, message,
                 icResult_Name(diag->code));
    else if (diag->file[0])
        snprintf(buffer, size, "%s: %s [%s]", diag->file, message, icResult_Name(diag->code));
    else
        snprintf(buffer, size, "%s [%s]", message, icResult_Name(diag->code));
}
