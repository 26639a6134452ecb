# SPDX-License-Identifier: MIT
"""Figures of docs/results.md: TODO."""

from manifest import Figure, Source

SECTION = "incompressible"
DOC = "docs/results.md"

SOURCES = {
}

FIGURES = [
]

TABLES = {
    "incompressible-experiments": r"""
| experiment | paper's figure | isochor's figure | scene or bench |
|---|---|---|---|
| Sphere drop, one-ring pressure: R = 0.1 m, 1680 tets, μ = 1e4 Pa, from 0.75 m | Irving et al. 2007, Fig. 2: volume within 1 % | largest volume error 0.032 %; peak flattening 50.0 %; 8.1 force CG iterations a substep | `scenes/incompressible/sphere_drop.json`; `bench_incompressible drop 8 1.0` |
| same sphere, standard FEM ν = 0.45 | Fig. 2: loses > 15 % | 12.6 %; flattening 49.9 %; 21.2 CG iterations a substep | `sphere_drop_fem_nu045.json` |
| same sphere, standard FEM ν = 0.499 | Fig. 2: ~2 %, barely deforms; 18 : 25 : 204 s a frame for the three | 0.45 %; flattening 44.8 %; 133 CG iterations a substep | `sphere_drop_fem_nu0499.json` |
| Sphere squeezed between closing plates (1680 / 5472 tets), to 1.1 % of its thickness | Irving et al. 2007, Fig. 6 (22k tets, float): error first passes 0.1 % / 0.5 % / 1 % at 13 % / 2.3 % / 1.4 % of the thickness; 1.7 % at the end (1.1 %) | never above 0.1 %: largest error 0.004 % / 0.004 %; thinnest reached without an inverted tet 1.1 % / 3.1 % | `bench_incompressible plates 8` / `plates 12`; `scenes/incompressible/plates.json` (to 4 %: V/V0 ≥ 0.999964) |
| Sphere down four box steps (friction 0.4), 3 s | Irving et al. 2007, Fig. 3 | V/V0 within 0.0785 %; no health warning in 720 steps | `scenes/incompressible/stairs.json` |
| Eight tori (432 tets each) piling up in a box, 1.5 s | Irving et al. 2007, Fig. 5 | whole-scene V/V0 within 0.074 %; no health warning in 360 steps | `scenes/incompressible/tori_pile.json` (1–2 minutes) |
| Sphere drop at 104k tets | Irving et al. 2007: 18 s a frame (a 2007 Xeon) | 1.62–1.76 s a frame, 10.2–11.1× faster (table below) | `bench_incompressible timing 32 12 2` |
""",
    "incompressible-timing": r"""
| run | s / frame | × the paper's 18 s | max volume error | inverted tets |
|---|---|---|---|---|
| 104k tets, defaults, 10 steps a frame (`timing 32 12 2`) | 1.62–1.76 (elastic 0.74–0.78, pressure 0.85–0.87) | 10.2–11.1 | 0.006 % | 2, in one impact substep |
| same, 2 steps a frame (`timing 32 12 2 2`) | 1.41–1.43 | 12.6–12.8 | 0.007 % | 0 |
| same, one eq. 1 solve a substep, as the paper (`IC_NEWTON=1`) | 1.26–1.34 | 13.4–14.3 | 0.035 % | 4, in one impact substep |
| 10.7k tets, defaults (`timing 15 24 2`) | 0.144 | | | |
""",
}
