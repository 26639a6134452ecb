// SPDX-License-Identifier: MIT
// Long soak: random worlds (tests/reliability/soak.h) for 10^5 steps in all, printing one line
// per world and the totals: by default 250 worlds x 400 steps from seed 1000, float sweeps.
// `bench_soak [worlds] [steps] [seed] [float|double]`; exits 1 when a world failed.
#include "../tests/reliability/soak.c"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    icSoakConfig config = {1000, 250, 400, true, false};
    if (argc > 1) config.scenes = atoi(argv[1]);
    if (argc > 2) config.steps = atoi(argv[2]);
    if (argc > 3) config.seed = strtoull(argv[3], NULL, 10);
    if (argc > 4) config.doubleSweeps = strcmp(argv[4], "double") == 0;
    if (config.scenes < 1 || config.steps < 1 ||
        (argc > 4 && !config.doubleSweeps && strcmp(argv[4], "float") != 0)) {
        fprintf(stderr, "usage: bench_soak [worlds >= 1] [steps >= 1] [seed] [float|double]\n");
        return 2;
    }
    icSoakReport report;
    icSoak_Run(&config, &report);
    printf("soak: %d worlds, %ld steps in %.1f s (%.0f steps/s); %d failed; worst kinetic "
           "energy %.3g x bound; fastest vertex %.3g m/s; %lld health warnings\n",
           report.scenes, report.steps, report.seconds, report.steps / report.seconds,
           report.failures, report.worstEnergyRatio, report.maxSpeed,
           (long long)report.healthWarnings);
    if (report.failures) printf("first failure: %s\n", report.firstFailure);
    return report.failures ? 1 : 0;
}
