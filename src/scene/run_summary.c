// SPDX-License-Identifier: MIT
// Run summaries as JSON (for the CLI, benchmarks and scripts) and the run defaults.
#include "formats/files_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

icRunOptions icDefaultRunOptions(void) {
    icRunOptions options;
    memset(&options, 0, sizeof options);
    options.frames = -1;
    options.writeOutput = true;
    return options;
}

// JSON has no NaN or infinity: a non-finite figure is written as null.
static void writeNumber(FILE *fp, const char *key, icReal value, bool last) {
    if (isfinite(value))
        fprintf(fp, "  \"%s\": %.17g%s\n", key, (double)value, last ? "" : ",");
    else
        fprintf(fp, "  \"%s\": null%s\n", key, last ? "" : ",");
}

icResult icWriteRunSummary(const char *path, const icRunSummary *summary, icDiagnostic *diag) {
    if (!summary)
        return icDiag_Set(diag, IC_ERR_INVALID_ARGUMENT, path ? path : "", 0, "no summary");
    icAtomicFile file;
    icResult r = icAtomicFile_Open(&file, path, diag);
    if (r != IC_OK) return r;
    FILE *fp = file.fp;
    fprintf(fp, "{\n");
    fprintf(fp, "  \"frames\": %d,\n", summary->frames);
    fprintf(fp, "  \"vertices\": %d,\n", summary->vertices);
    fprintf(fp, "  \"tets\": %d,\n", summary->tets);
    writeNumber(fp, "ms_per_frame", summary->msPerFrame, false);
    writeNumber(fp, "volume_ratio_final", summary->volumeRatioFinal, false);
    writeNumber(fp, "volume_ratio_min", summary->volumeRatioMin, false);
    writeNumber(fp, "volume_ratio_max", summary->volumeRatioMax, false);
    writeNumber(fp, "max_abs_J_minus_1", summary->maxAbsJMinus1, false);
    fprintf(fp, "  \"inverted_tets_final\": %d,\n", summary->invertedTetsFinal);
    fprintf(fp, "  \"nan\": %s,\n", summary->nan ? "true" : "false");
    fprintf(fp, "  \"sweeps_total\": %ld,\n", summary->sweepsTotal);
    fprintf(fp, "  \"not_converged\": %d,\n", summary->notConverged);
    if (summary->rods > 0) {
        fprintf(fp, "  \"rods\": %d,\n", summary->rods);
        fprintf(fp, "  \"rod_segments\": %d,\n", summary->rodSegments);
        fprintf(fp, "  \"rod_vertices\": %d,\n", summary->rodVertices);
        writeNumber(fp, "rod_volume_ratio_final", summary->rodVolumeRatioFinal, false);
        writeNumber(fp, "rod_volume_ratio_min", summary->rodVolumeRatioMin, false);
        writeNumber(fp, "rod_volume_ratio_max", summary->rodVolumeRatioMax, false);
    }
    // The world's health checks (docs/reliability.md), flat keys for scripts.
    const icHealthStats *h = &summary->health;
    fprintf(fp, "  \"health_steps\": %lld,\n", (long long)h->steps);
    fprintf(fp, "  \"health_warnings\": %lld,\n", (long long)h->warnings);
    fprintf(fp, "  \"health_non_finite_steps\": %lld,\n", (long long)h->nonFiniteSteps);
    fprintf(fp, "  \"health_speed_warnings\": %lld,\n", (long long)h->speedWarnings);
    fprintf(fp, "  \"health_inversion_warnings\": %lld,\n", (long long)h->inversionWarnings);
    fprintf(fp, "  \"health_volume_warnings\": %lld,\n", (long long)h->volumeWarnings);
    fprintf(fp, "  \"health_solver_warnings\": %lld,\n", (long long)h->solverWarnings);
    fprintf(fp, "  \"health_clamped_vertices\": %lld,\n", (long long)h->clampedVertices);
    fprintf(fp, "  \"health_stops\": %lld,\n", (long long)h->stops);
    writeNumber(fp, "health_max_speed", h->maxSpeedSeen, false);
    fprintf(fp, "  \"health_max_inverted_tets\": %d,\n", h->maxInvertedSeen);
    writeNumber(fp, "health_max_volume_drift", h->maxVolumeDriftSeen, false);
    writeNumber(fp, "health_max_tet_J_minus_1", h->maxTetJMinus1Seen, false);
    fprintf(fp, "  \"health_last_warning\": \"");
    for (const char *c = h->lastWarning; *c; ++c) {
        if (*c == '"' || *c == '\\') fputc('\\', fp);
        if ((unsigned char)*c >= 32) fputc(*c, fp);
    }
    fprintf(fp, "\"\n");
    fprintf(fp, "}\n");
    return icAtomicFile_Commit(&file, diag);
}
