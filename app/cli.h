// SPDX-License-Identifier: MIT
// Subcommands of the isochor tool. Each takes the arguments after its name and returns the
// process exit code (0 ok, 1 run failed, 2 bad input or usage).
#pragma once

int icCli_Run(int argc, char **argv);             // isochor run SCENE [...]
int icCli_Info(int argc, char **argv);            // isochor info MESH
int icCli_Convert(int argc, char **argv);         // isochor convert IN OUT
int icCli_Render(int argc, char **argv);          // isochor render SCENE|RESULT.pvd [...]
int icCli_Tetrahedralize(int argc, char **argv);  // isochor tetrahedralize IN OUT.ele [...]
