# SPDX-License-Identifier: MIT
"""Figures of docs/results.md: TODO."""

from manifest import Figure, Source

SECTION = "newton"
DOC = "docs/results.md"

SOURCES = {
}

FIGURES = [
]

TABLES = {
    "newton-experiments": r"""
| experiment | paper's figure | isochor's figure | scene or bench |
|---|---|---|---|
| Stretch test as ν → 0.5 | Macklin & Müller 2021, Table 1: Newton's convergence worsens as ν → 0.5, XPBD's cost does not grow | Newton: 7, 16, 24 of 25 load steps unconverged at ν = 0.49, 0.495, 0.4995, time up 20× from ν = 0.41; XPBD's time hardly changes | `scenes/newton/stretch_nu*.json`; `bench_newton_vs_xpbd stretch` |
| Cube twist, Newton | Macklin & Müller 2021, Fig. 5: 3k–5k CG iterations (Smith et al. 2018's Newton) | 19 / 48 Newton iterations, 5.5k / 14.3k Jacobi-PCG iterations; 180°: V/V0 0.922, no inverted tet | `scenes/newton/twist_2x90.json`; `bench_newton_vs_xpbd twist` |
""",
    "newton-stretch": r"""
| ν | Newton V/V0 | it (n.c.) | XPBD V/V0 | sweeps | XPBD-64 V/V0 | reference V/V0 | f max: Newton / XPBD / XPBD-64 |
|---|---|---|---|---|---|---|---|
| 0.41 | 1.208364 | 161 (0) | 1.208712 | 5763 | 1.213696 | 1.208364 | 1.0e-5 / 51.8 / 346 |
| 0.45 | 1.116606 | 233 (0) | 1.116744 | 5621 | 1.113381 | 1.116606 | 1.5e-5 / 114 / 444 |
| 0.49 | 1.026078 | 815 (7) | 1.026537 | 5411 | 1.027448 | 1.026078 | 8.0e-4 / 1550 / 1820 |
| 0.495 | 1.014544 | 1039 (16) | 1.015176 | 5887 | 1.015343 | 1.014544 | 0.277 / 5120 / 5480 |
| 0.4995 | 1.002262 | 1236 (24) | 1.005190 | 8987 | 1.005978 | 1.002096 | 27.8 / 3.5e5 / 4.2e5 |
""",
    "newton-twist": r"""
| turn | Newton it (CG it) | V/V0 | E (J) | f max (N) | XPBD sweeps | V/V0 | E (J) | f max (N) |
|---|---|---|---|---|---|---|---|---|
| 1 | 19 (5506) | 0.982207 | 6574.85 | 4.8e-6 | 500 | 0.980711 | 6577.21 | 49.6 |
| 2 | 48 (14252) | 0.922034 | 25985.3 | 7.8e-6 | 1454 | 0.959502 | 19683.7 | 170 |
""",
    "newton-contact": r"""
| check | isochor | expected | test |
|---|---|---|---|
| gradient, Hessian against differences (every collider kind, friction) | within 1e-9, 2e-9 of the largest entry | 1e-6, 1e-5 | `contact_potential_derivatives` |
| cube resting on the floor, quasistatic | contact forces = weight (9.81 N) to rounding; penetration 3.44 µm; V/V0 0.99634 | penetration (p/E) h/100 = 3.27 µm | `newton_contact_static_weight` |
| dropped from 5 cm, 1 s | deepest point 21.7 µm below the floor; at 1 s 1.5e-6 m/s, 3.45 µm deep | no tunnelling (< 1 mm) | `newton_contact_drop_comes_to_rest` |
| box collider at 0.5 m/s pushes the cube | 0.5000 m/s, 1 mm off the collider | moves with it | `newton_contact_collider_pushes` |
| 20° slope, μ = 0.6 | drifts 0.785 mm in 1 s | sticks (< 1 mm) | `newton_contact_slope_sticks` |
| 20° slope, μ = 0.2 | 1.5115 m/s² | g (sin 20° − 0.2 cos 20°) = 1.5115 m/s² | `newton_contact_slope_slides` |
""",
}
