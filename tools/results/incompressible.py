# SPDX-License-Identifier: MIT
"""Figures of the volume-conserving FEM section of docs/results.md (Irving et al. 2007)."""

from manifest import Figure, Source, scene_source, test_source
from manifest import stat_pattern as stat

SECTION = "incompressible"
DOC = "docs/results.md"


NUMBER = r"([0-9.eE+-]+)"

SOURCES = {
    "drop": Source("{build}/bench_incompressible drop 8 1.0", quick=True),
    "plates8": Source("{build}/bench_incompressible plates 8", quick=True),
    "plates12": Source("{build}/bench_incompressible plates 12"),
    "plates_scene": scene_source("scenes/incompressible/plates.json", stats=True),
    "stairs": scene_source("scenes/incompressible/stairs.json", stats=True),
    "tori": scene_source("scenes/incompressible/tori_pile.json", stats=True),
    "drop_soft": Source("IC_MU=7e3 IC_DROP_HEIGHT=0.7 IC_MAX_STEP_MOTION=0.25 "
                        "{build}/bench_incompressible drop 8 0.8"),
    "resting": test_source("incomp.resting_sphere_rests_with_the_end_projection"),
    "locking": test_source("incomp.locking_count"),
    "slope": test_source("incomp.obstacle_friction_on_a_slope"),
    "newton1_plates": Source("IC_NEWTON=1 {build}/bench_incompressible plates 8"),
    "timing_104k": Source("{build}/bench_incompressible timing 32 12 2", timing=True),
    "timing_104k_2steps": Source("{build}/bench_incompressible timing 32 12 2 2", timing=True),
    "timing_104k_newton1": Source("IC_NEWTON=1 {build}/bench_incompressible timing 32 12 2",
                                  timing=True),
    "timing_10k": Source("{build}/bench_incompressible timing 15 24 2", timing=True),
}


def drop(variant, key):
    """One row of `bench_incompressible drop`: variant one-ring, fem nu=0.45 or fem nu=0.499."""
    name = variant.replace(".", r"\.")
    fields = {
        "error": rf"max \|dV/V\| ([0-9.]+) %",
        "flattening": rf"max \|dV/V\| [0-9.]+ %, peak flattening ([0-9.]+) %",
        "cg": rf"force CG its/substep ([0-9.]+)",
    }
    return rf"^{name}\s+tets \d+: .*?{fields[key]}"


def plates(tets_source, key):
    fields = {
        "first": r"error first > 0\.1 % at H/H0 = (-?[0-9.]+)",
        "first_0.5": r"> 0\.5 % at (-?[0-9.]+)",
        "first_1": r"> 1 % at (-?[0-9.]+)",
        "reached": r"reached H/H0 = ([0-9.]+) without inversion",
        "error": r"without inversion, max error ([0-9.]+) %",
    }
    return rf"^plates tets \d+: .*?{fields[key]}"


def timing(key):
    fields = {
        "s_per_frame": r"workers: ([0-9.]+) s/frame",
        "elastic": r"s/frame \(elastic ([0-9.]+)",
        "pressure": r"s/frame \(elastic [0-9.]+, pressure ([0-9.]+)",
        "max_error": r"\(max ([0-9.]+) %\)",
        "inverted": r"inverted tets (\d+), height",
    }
    return rf"^timing tets \d+, .*?{fields[key]}"


FIGURES = [
    # Formats as the page writes them: fewer digits where the figure is larger.
    *[Figure(f"drop.{v}.{key}", "drop", drop(name, key), fmt=fmt[key])
      for v, name, fmt in (("one_ring", "one-ring", {"error": ".3f", "flattening": ".1f", "cg": ".1f"}),
                           ("nu0.45", "fem nu=0.45", {"error": ".1f", "flattening": ".1f", "cg": ".1f"}),
                           ("nu0.499", "fem nu=0.499", {"error": ".2f", "flattening": ".1f", "cg": ".0f"}))
      for key in ("error", "flattening", "cg")],
    *[Figure(f"plates.{tets}.{key}", src, plates(src, key),
             **({"fmt": ".1f", "scale": 1e2} if key == "reached" else {}))
      for tets, src in (("1680", "plates8"), ("5472", "plates12"))
      for key in ("reached", "error")],
    Figure("plates.1680.tets", "plates8", r"^plates tets (\d+):"),
    Figure("plates.5472.tets", "plates12", r"^plates tets (\d+):"),
    Figure("plates.scene.volume_min", "plates_scene", stat("volume_ratio_min"), fmt=".6f"),
    Figure("stairs.volume_drift", "stairs", stat("health_max_volume_drift"), fmt=".4f",
           scale=1e2),
    Figure("stairs.health_warnings", "stairs", stat("health_warnings")),
    Figure("stairs.health_steps", "stairs", stat("health_steps")),
    Figure("tori.volume_drift", "tori", stat("health_max_volume_drift"), fmt=".3f", scale=1e2),
    Figure("tori.health_warnings", "tori", stat("health_warnings")),
    Figure("tori.health_steps", "tori", stat("health_steps")),
    # Prose: a softer, faster drop.
    Figure("drop_soft.one_ring.error", "drop_soft", drop("one-ring", "error")),
    Figure("drop_soft.nu0.45.error", "drop_soft", drop("fem nu=0.45", "error"), fmt=".1f"),
    # Prose: the resting sphere, end / midpoint velocity projection.
    Figure("resting.drift.end", "resting", r"drift ([0-9.]+) / [0-9.]+ mm", fmt=".2f"),
    Figure("resting.drift.midpoint", "resting", r"drift [0-9.]+ / ([0-9.]+) mm", fmt=".0f"),
    Figure("resting.speed.end", "resting", r"rms speed ([0-9.]+) / [0-9.]+ m/s", fmt=".3f"),
    Figure("resting.speed.midpoint", "resting", r"rms speed [0-9.]+ / ([0-9.]+) m/s", fmt=".2f"),
    # Prose: friction on a 20 degree slope.
    Figure("slope.mu0.2.moved", "slope", r"mu 0\.2 moved ([0-9.]+) m", fmt=".4f"),
    Figure("slope.mu0.2.closed_form", "slope", r"mu 0\.2 moved [0-9.]+ m \(closed form ([0-9.]+)\)",
           fmt=".4f"),
    Figure("slope.kinetic.moved", "slope", r"kinetic only ([0-9.e+-]+) m", fmt=".0f", scale=1e3),
    Figure("slope.static.settled", "slope", r"mu 0\.6 moved ([0-9.e+-]+) m", fmt=".1f", scale=1e3),
    # Prose: operator checks.
    Figure("locking.tet_rank", "locking", r"per-tet rank (\d+)"),
    Figure("locking.ring_rank", "locking", r"one-ring rank (\d+)"),
    Figure("locking.free_modes", "locking", r"\((\d+) free modes\)"),
    # Prose: one eq. 1 solve a substep on the plates.
    Figure("newton1.plates.first0.1", "newton1_plates", plates("", "first"), fmt=".0f", scale=1e2),
    Figure("newton1.plates.first1", "newton1_plates", plates("", "first_1"), fmt=".1f",
           scale=1e2),
    Figure("newton1.plates.reached", "newton1_plates", plates("", "reached"), fmt=".1f",
           scale=1e2),
    *[Figure(f"timing.{run}.{key}", f"timing_{run}", timing(key),
             fmt=(".3f" if run == "10k" else ".2f") if key in ("s_per_frame", "elastic", "pressure")
             else None)
      for run in ("104k", "104k_2steps", "104k_newton1", "10k")
      for key in ("s_per_frame", "elastic", "pressure", "max_error", "inverted")],
]

TABLES = {
    "incompressible-experiments": r"""
| experiment | paper's figure | isochor's figure | scene or bench |
|---|---|---|---|
| Sphere drop, one-ring pressure: R = 0.1 m, 1680 tets, μ = 1e4 Pa, from 0.75 m | Irving et al. 2007, Fig. 2: volume within 1 % | largest volume error {{drop.one_ring.error}} %; peak flattening {{drop.one_ring.flattening}} %; {{drop.one_ring.cg}} force CG iterations a substep | `scenes/incompressible/sphere_drop.json`; `bench_incompressible drop 8 1.0` |
| same sphere, standard FEM ν = 0.45 | Fig. 2: loses > 15 % | {{drop.nu0.45.error}} %; flattening {{drop.nu0.45.flattening}} %; {{drop.nu0.45.cg}} CG iterations a substep | `sphere_drop_fem_nu045.json` |
| same sphere, standard FEM ν = 0.499 | Fig. 2: ~2 %, barely deforms; 18 : 25 : 204 s a frame for the three | {{drop.nu0.499.error}} %; flattening {{drop.nu0.499.flattening}} %; {{drop.nu0.499.cg}} CG iterations a substep | `sphere_drop_fem_nu0499.json` |
| Sphere squeezed between closing plates ({{plates.1680.tets}} / {{plates.5472.tets}} tets), to 1.1 % of its thickness | Irving et al. 2007, Fig. 6 (22k tets, float): error first passes 0.1 % / 0.5 % / 1 % at 13 % / 2.3 % / 1.4 % of the thickness; 1.7 % at the end (1.1 %) | never above 0.1 %: largest error {{plates.1680.error}} % / {{plates.5472.error}} %; thinnest reached without an inverted tet {{plates.1680.reached}} % / {{plates.5472.reached}} % | `bench_incompressible plates 8` / `plates 12`; `scenes/incompressible/plates.json` (to 4 %: V/V0 ≥ {{plates.scene.volume_min}}) |
| Sphere down four box steps (friction 0.4), 3 s | Irving et al. 2007, Fig. 3 | V/V0 within {{stairs.volume_drift}} %; {{stairs.health_warnings}} health warnings in {{stairs.health_steps}} steps | `scenes/incompressible/stairs.json` |
| Eight tori (432 tets each) piling up in a box, 1.5 s | Irving et al. 2007, Fig. 5 | whole-scene V/V0 within {{tori.volume_drift}} %; {{tori.health_warnings}} health warnings in {{tori.health_steps}} steps | `scenes/incompressible/tori_pile.json` (1–2 minutes) |
| Sphere drop at 104k tets | Irving et al. 2007: 18 s a frame (a 2007 Xeon) | {{timing.104k.s_per_frame}} s a frame (table below) | `bench_incompressible timing 32 12 2` |
""",
    "incompressible-timing": r"""
| run | s / frame | max volume error | inverted tets |
|---|---|---|---|
| 104k tets, defaults, 10 steps a frame (`timing 32 12 2`) | {{timing.104k.s_per_frame}} (elastic {{timing.104k.elastic}}, pressure {{timing.104k.pressure}}) | {{timing.104k.max_error}} % | {{timing.104k.inverted}} |
| same, 2 steps a frame (`timing 32 12 2 2`) | {{timing.104k_2steps.s_per_frame}} | {{timing.104k_2steps.max_error}} % | {{timing.104k_2steps.inverted}} |
| same, one eq. 1 solve a substep, as the paper (`IC_NEWTON=1`) | {{timing.104k_newton1.s_per_frame}} | {{timing.104k_newton1.max_error}} % | {{timing.104k_newton1.inverted}} |
| 10.7k tets, defaults (`timing 15 24 2`) | {{timing.10k.s_per_frame}} | | |
""",
}
