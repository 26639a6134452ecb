# SPDX-License-Identifier: MIT
"""Figures of the force-based Newton section of docs/results.md (Sifakis & Barbič 2012 against
XPBD, Macklin & Müller 2021, Table 1 and Figs. 4-5) and of its contact checks."""

from manifest import Figure, Source, scene_source, stat_pattern, test_source

SECTION = "newton"
DOC = "docs/results.md"

SOURCES = {
    "stretch": Source("{build}/bench_newton_vs_xpbd stretch"),
    "twist": Source("{build}/bench_newton_vs_xpbd twist"),
    "twist_scene": scene_source("scenes/newton/twist_2x90.json", stats=True),
    "derivatives": test_source("fem.contact_potential_derivatives"),
    "static_weight": test_source("fem.newton_contact_static_weight"),
    "drop": test_source("fem.newton_contact_drop_comes_to_rest"),
    "pushes": test_source("fem.newton_contact_collider_pushes"),
    "sticks": test_source("fem.newton_contact_slope_sticks"),
    "slides": test_source("fem.newton_contact_slope_slides"),
}

NUS = ("0.41", "0.45", "0.49", "0.495", "0.4995")
CELL = r" ([^|]+?) \|"


def row(first, cells, group):
    """Cell `group` (1 = the one after the first) of the Markdown row that starts with `first`
    and has `cells` cells: the bench's tables differ in their number of columns."""
    return "^\\| " + first.replace(".", r"\.") + " \\|" + CELL * (cells - 1) + "$", group


# The stretch bench's tables: 13 columns (runs), 11 (end states), 7 (time per iteration).
RUNS = {"newton.volume": 1, "newton.iterations": 3, "newton.not_converged": 5,
        "xpbd.volume": 6, "xpbd.sweeps": 8, "xpbd64.volume": 10}
END = {"reference.volume": 1, "newton.fmax": 6, "xpbd.fmax": 8, "xpbd64.fmax": 10}
# How the page writes f max: small and large ones in e notation, the others as printed.
FMAX_FMT = {
    "newton": {"0.41": ".1e", "0.45": ".1e", "0.49": ".1e", "0.495": ".3g", "0.4995": ".3g"},
    "xpbd": {"0.41": ".3g", "0.45": ".3g", "0.49": ".0f", "0.495": ".0f", "0.4995": ".1e"},
    "xpbd64": {"0.41": ".3g", "0.45": ".3g", "0.49": ".0f", "0.495": ".0f", "0.4995": ".1e"},
}
# The twist table: 14 columns.
TWIST = {"newton.iterations": 1, "newton.cg": 2, "newton.volume": 5, "newton.energy": 6,
         "newton.fmax": 7, "xpbd.sweeps": 8, "xpbd.volume": 11, "xpbd.energy": 12,
         "xpbd.fmax": 13}
TWIST_FMT = {"newton.fmax": ".1e", "xpbd.fmax": ".3g"}


def stretch_figures():
    figures = []
    for nu in NUS:
        for key, column in RUNS.items():
            pattern, group = row(nu, 13, column)
            figures.append(Figure(f"stretch.nu{nu}.{key}", "stretch", pattern, group))
        for key, column in END.items():
            pattern, group = row(nu, 11, column)
            fmt = FMAX_FMT[key.split(".")[0]][nu] if key.endswith("fmax") else None
            figures.append(Figure(f"stretch.nu{nu}.{key}", "stretch", pattern, group, fmt=fmt))
    return figures


def twist_figures():
    figures = []
    for turn in ("1", "2"):
        for key, column in TWIST.items():
            pattern, group = row(turn, 14, column)
            figures.append(Figure(f"twist.turn{turn}.{key}", "twist", pattern, group,
                                  fmt=TWIST_FMT.get(key)))
        # The experiments table writes CG iterations in thousands.
        pattern, group = row(turn, 14, TWIST["newton.cg"])
        figures.append(Figure(f"twist.turn{turn}.newton.cg_k", "twist", pattern, group,
                              fmt=".1f", scale=1e-3))
    return figures


POLISH = r"^Newton from XPBD's end state \(at most (\d+) iterations\): .*?"

FIGURES = [
    *stretch_figures(),
    *twist_figures(),
    Figure("twist.turn2.newton.volume3", "twist", *row("2", 14, TWIST["newton.volume"]),
           fmt=".3f"),
    Figure("twist.scene.inverted", "twist_scene", stat_pattern("inverted_tets_final")),
    # Prose: the stretch test.
    Figure("stretch.nu0.41.newton.volume3", "stretch", *row("0.41", 13, RUNS["newton.volume"]),
           fmt=".3f"),
    Figure("stretch.nu0.45.newton.volume3", "stretch", *row("0.45", 13, RUNS["newton.volume"]),
           fmt=".3f"),
    # Prose: PCG iterations per Newton iteration (the 7-column table) and the reference's
    # Newton iterations at nu = 0.4995.
    *[Figure(f"stretch.nu{nu}.newton.cg_per_iteration", "stretch", *row(nu, 7, 5), fmt=".0f")
      for nu in ("0.41", "0.4995")],
    Figure("stretch.nu0.4995.reference.iterations", "stretch", *row("0.4995", 11, 3)),
    # Prose: Newton started from XPBD's end state of the twist.
    Figure("twist.polish.iterations", "twist", POLISH + r"(\d+) iterations,", group=2),
    Figure("twist.polish.initial_fmax", "twist", POLISH + r"\|f\|_inf ([0-9.e+-]+) ->", group=2),
    Figure("twist.polish.fmax", "twist", POLISH + r"-> ([0-9.e+-]+) N", group=2),
    Figure("twist.polish.energy", "twist", POLISH + r"E = ([0-9.e+]+) J", group=2, fmt=",.1f"),
    Figure("twist.polish.inverted", "twist", POLISH + r"(\d+) inverted tets", group=2),
    # Contact checks (tests/fem/test_newton_contact.c).
    Figure("contact.derivatives.gradient", "derivatives", r"gradient ([0-9.e+-]+),", fmt=".1e"),
    Figure("contact.derivatives.hessian", "derivatives", r"Hessian ([0-9.e+-]+) of the largest",
           fmt=".1e"),
    Figure("contact.static.weight", "static_weight", r"weight ([0-9.]+) N", fmt=".2f"),
    Figure("contact.static.penetration", "static_weight", r"penetration ([0-9.e+-]+) um"),
    Figure("contact.static.promised", "static_weight", r"\(p/E\) h/100 ([0-9.e+-]+) um"),
    Figure("contact.static.volume", "static_weight", r"V/V0 ([0-9.]+)"),
    Figure("contact.drop.deepest", "drop", r"deepest point ([0-9.e+-]+) um below the floor"),
    Figure("contact.drop.speed", "drop", r"at 1 s mean speed ([0-9.e+-]+) m/s", fmt=".1e"),
    Figure("contact.drop.depth", "drop", r"m/s, ([0-9.e+-]+) um deep"),
    Figure("contact.pushes.speed", "pushes", r"cube moves at ([0-9.]+) m/s"),
    Figure("contact.pushes.gap", "pushes", r"back face ([0-9.-]+) mm off", fmt=".0f"),
    Figure("contact.sticks.drift", "sticks", r"mu 0\.6: drift ([0-9.e+-]+) mm"),
    Figure("contact.slides.acceleration", "slides", r"mu 0\.2: a = ([0-9.]+) m/s\^2"),
    Figure("contact.slides.closed_form", "slides", r"closed form ([0-9.]+) m/s\^2"),
]


def stretch_row(nu):
    f = f"stretch.nu{nu}"
    return (f"| {nu} | {{{{{f}.newton.volume}}}} | {{{{{f}.newton.iterations}}}} "
            f"({{{{{f}.newton.not_converged}}}}) | {{{{{f}.xpbd.volume}}}} | "
            f"{{{{{f}.xpbd.sweeps}}}} | {{{{{f}.xpbd64.volume}}}} | {{{{{f}.reference.volume}}}} | "
            f"{{{{{f}.newton.fmax}}}} / {{{{{f}.xpbd.fmax}}}} / {{{{{f}.xpbd64.fmax}}}} |\n")


def twist_row(turn):
    f = f"twist.turn{turn}"
    return (f"| {turn} | {{{{{f}.newton.iterations}}}} ({{{{{f}.newton.cg}}}}) | "
            f"{{{{{f}.newton.volume}}}} | {{{{{f}.newton.energy}}}} | {{{{{f}.newton.fmax}}}} | "
            f"{{{{{f}.xpbd.sweeps}}}} | {{{{{f}.xpbd.volume}}}} | {{{{{f}.xpbd.energy}}}} | "
            f"{{{{{f}.xpbd.fmax}}}} |\n")


TABLES = {
    "newton-experiments": r"""
| experiment | paper's figure | isochor's figure | scene or bench |
|---|---|---|---|
| Stretch test as ν → 0.5 | Macklin & Müller 2021, Table 1: Newton's convergence worsens as ν → 0.5, XPBD's cost does not grow | Newton: {{stretch.nu0.49.newton.not_converged}}, {{stretch.nu0.495.newton.not_converged}}, {{stretch.nu0.4995.newton.not_converged}} of 25 load steps unconverged at ν = 0.49, 0.495, 0.4995, {{stretch.nu0.41.newton.iterations}} → {{stretch.nu0.4995.newton.iterations}} iterations from ν = 0.41; XPBD's sweeps {{stretch.nu0.41.xpbd.sweeps}} → {{stretch.nu0.4995.xpbd.sweeps}} | `scenes/newton/stretch_nu*.json`; `bench_newton_vs_xpbd stretch` |
| Cube twist, Newton | Macklin & Müller 2021, Fig. 5: 3k–5k CG iterations (Smith et al. 2018's Newton) | {{twist.turn1.newton.iterations}} / {{twist.turn2.newton.iterations}} Newton iterations, {{twist.turn1.newton.cg_k}}k / {{twist.turn2.newton.cg_k}}k Jacobi-PCG iterations; 180°: V/V0 {{twist.turn2.newton.volume3}}, {{twist.scene.inverted}} inverted tets | `scenes/newton/twist_2x90.json`; `bench_newton_vs_xpbd twist` |
""",
    "newton-stretch": r"""
| ν | Newton V/V0 | it (n.c.) | XPBD V/V0 | sweeps | XPBD-64 V/V0 | reference V/V0 | f max: Newton / XPBD / XPBD-64 |
|---|---|---|---|---|---|---|---|
""" + "".join(stretch_row(nu) for nu in NUS),
    "newton-twist": r"""
| turn | Newton it (CG it) | V/V0 | E (J) | f max (N) | XPBD sweeps | V/V0 | E (J) | f max (N) |
|---|---|---|---|---|---|---|---|---|
""" + twist_row("1") + twist_row("2"),
    "newton-contact": r"""
| check | isochor | expected | test |
|---|---|---|---|
| gradient, Hessian against differences (every collider kind, friction) | within {{contact.derivatives.gradient}}, {{contact.derivatives.hessian}} of the largest entry | 1e-6, 1e-5 | `contact_potential_derivatives` |
| cube resting on the floor, quasistatic | contact forces = weight ({{contact.static.weight}} N) to rounding; penetration {{contact.static.penetration}} µm; V/V0 {{contact.static.volume}} | penetration (p/E) h/100 = {{contact.static.promised}} µm | `newton_contact_static_weight` |
| dropped from 5 cm, 1 s | deepest point {{contact.drop.deepest}} µm below the floor; at 1 s {{contact.drop.speed}} m/s, {{contact.drop.depth}} µm deep | no tunnelling (< 1 mm) | `newton_contact_drop_comes_to_rest` |
| box collider at 0.5 m/s pushes the cube | {{contact.pushes.speed}} m/s, {{contact.pushes.gap}} mm off the collider | moves with it | `newton_contact_collider_pushes` |
| 20° slope, μ = 0.6 | drifts {{contact.sticks.drift}} mm in 1 s | sticks (< 1 mm) | `newton_contact_slope_sticks` |
| 20° slope, μ = 0.2 | {{contact.slides.acceleration}} m/s² | g (sin 20° − 0.2 cos 20°) = {{contact.slides.closed_form}} m/s² | `newton_contact_slope_slides` |
""",
}
