# SPDX-License-Identifier: MIT
"""Figures of the VIPER section of docs/results.md (Angles et al. 2019)."""

import re

from manifest import Figure, Source, test_source

SECTION = "viper"
DOC = "docs/results.md"

SOURCES = {
    "rod_stretch": test_source("rod.scene_rod_stretch"),
    "convergence": test_source("rod.scene_convergence"),
    "shockwave": test_source("rod.scene_shockwave"),
    "bergou": test_source("rod.scene_bergou"),
    "sheet": test_source("rod.scene_sheet"),
    "contraction": test_source("rod.scene_contraction"),
    "octopus": test_source("rod.scene_octopus"),
    "viperize": test_source("rod.viperize_fusiform"),
    "viperized_muscle": test_source("rod.scene_viperized_muscle"),
    # about 10 s (it also writes the plots, here into the scratch folder)
    "figures": Source("{build}/bench_viper_figures {tmp}"),
}

FIGURES = [
    # rod stretch: rod_stretch.json has radius springs (alpha = 0.1), rod_stretch_hard.json none
    Figure("rod_stretch.springs.volume_error", "rod_stretch",
           r"^\s*rod_stretch\.json:.*volume error max ([0-9.e+-]+)", fmt=".2e"),
    Figure("rod_stretch.no_springs.volume_error", "rod_stretch",
           r"^\s*rod_stretch_hard\.json:.*volume error max ([0-9.e+-]+)", fmt=".1e"),
    Figure("rod_stretch.springs.interior_radius", "rod_stretch",
           r"^\s*rod_stretch\.json:.*interior radius ([0-9.]+)", fmt=".5f"),
    Figure("rod_stretch.no_springs.interior_radius", "rod_stretch",
           r"^\s*rod_stretch_hard\.json:.*interior radius ([0-9.]+)", fmt=".5f"),
    # the figures bench's table of the volume error against passes and radius compliance
    Figure("rod_stretch.compliance1e-3.k50.volume_error", "figures",
           r"radius compliance 0\.001\s.*?K=50\s+([0-9.e+-]+)", fmt=".2f"),
    # convergence: the page writes the slope as "−" and this magnitude
    Figure("convergence.volume_energy.minus_slope", "convergence",
           r"volume energy:.*log-log slope over 16\.\.512 (-?[0-9.]+)", fmt=".2f", scale=-1),
    Figure("convergence.stretch_energy.k2048", "convergence",
           r"stretch energy:.*2048: ([0-9.]+)", fmt=".3f"),
    # shockwave: the vertex the bump has reached at frames 20, 40, 60, 80
    *[Figure(f"shockwave.bump_vertex.frame{frame}", "shockwave",
             rf"bump at vertex [^;]*?\b([0-9]+) \({frame}\)") for frame in (20, 40, 60, 80)],
    Figure("shockwave.length_error", "shockwave", r"\|length - 2\| <= ([0-9.e+-]+)", fmt="g",
           tolerance="abs 1e-15"),
    # against Bergou et al. 2010
    Figure("bergou.squeeze.viper", "bergou", r"after one step: VIPER ([0-9.e+-]+) m", fmt=".2e"),
    Figure("bergou.squeeze.bergou", "bergou", r"after one step: VIPER [0-9.e+-]+ m, Bergou "
           r"([0-9.e+-]+) m", fmt=".0e"),
    Figure("bergou.std_mm.viper", "bergou", r"middle radius oscillation .*?: VIPER ([0-9.e+-]+) m",
           fmt=".2f", scale=1e3),
    Figure("bergou.std_mm.bergou", "bergou",
           r"middle radius oscillation .*?: VIPER [0-9.e+-]+ m, Bergou ([0-9.e+-]+) m",
           fmt=".2f", scale=1e3),
    # sheet: relative width at rest x = 0.25, 0.5, 0.75
    *[Figure(f"sheet.width.x{x}.{kind}", "sheet",
             rf"width at rest x = {re.escape(x)}0?: .*?{kind} ([0-9.]+)", fmt=".3f")
      for x in ("0.25", "0.5", "0.75") for kind in ("tets", "rods")],
    Figure("sheet.volume.tets", "sheet", r"V/V0: tets ([0-9.]+)", fmt=".4f"),
    Figure("sheet.volume.rods", "sheet", r"V/V0: tets [0-9.]+, rods ([0-9.]+)", fmt=".4f"),
    # muscle contraction
    Figure("contraction.spread.scale_invariant", "contraction",
           r"cross-section spread: scale-invariant ([0-9.]+)", fmt=".3f"),
    Figure("contraction.spread.rigid", "contraction",
           r"cross-section spread: .*?rigid ([0-9.]+)", fmt=".3f"),
    Figure("contraction.volume.scale_invariant", "contraction",
           r"cross-section spread: .*?V/V0 ([0-9.]+)", fmt=".3f"),
    Figure("contraction.volume.rigid", "contraction",
           r"cross-section spread: .*?V/V0 [0-9.]+, ([0-9.]+)", fmt=".3f"),
    # octopuses
    Figure("octopus.deepest_overlap_cm", "octopus",
           r"75 frames: deepest pill overlap after a step ([0-9.]+) m", fmt=".1f", scale=1e2),
    # viperized muscle
    Figure("viperize.length.before", "viperize", r"total length ([0-9.]+) m before combing",
           fmt=".2f"),
    Figure("viperize.length.after", "viperize",
           r"total length [0-9.]+ m before combing, ([0-9.]+) m after", fmt=".2f"),
    Figure("viperize.smallest_winding", "viperize",
           r"before combing.*smallest winding number ([0-9.]+)", fmt=".4f"),
    Figure("viperized_muscle.contracting.smallest_winding", "viperized_muscle",
           r"after 60 contracting frames: smallest winding number of the skin at a rod vertex "
           r"([0-9.]+)", fmt=".4f"),
]

TABLES = {
    "viper-experiments": r"""
| experiment | paper's figure | isochor's figure | scene, test or bench |
|---|---|---|---|
| Rod stretch: 10 pills pulled to twice their length | Angles et al. 2019, Fig. 13 | volume error ≤ {{rod_stretch.springs.volume_error}} with radius springs (α = 0.1), {{rod_stretch.no_springs.volume_error}} without; interior radius {{rod_stretch.springs.interior_radius}}, {{rod_stretch.no_springs.interior_radius}} (r̄/√2 = 0.03536) | `scenes/viper/rod_stretch.json`, `rod_stretch_hard.json`; `rod.scene_rod_stretch` |
| Convergence: ends jump to twice the length in one step | Angles et al. 2019, Fig. 14: linear convergence | volume energy log-log slope −{{convergence.volume_energy.minus_slope}} over 16–512 passes; stretch energy saturates at 10 ({{convergence.stretch_energy.k2048}} after 2048 passes) | `scenes/viper/convergence.json`; `rod.scene_convergence` |
| Volume shockwave: radial kick near one end of a held rod | Angles et al. 2019, Fig. 6 | the bump reaches vertex {{shockwave.bump_vertex.frame20}}, {{shockwave.bump_vertex.frame40}}, {{shockwave.bump_vertex.frame60}}, {{shockwave.bump_vertex.frame80}} at frames 20, 40, 60, 80; length stays 2 m (off by {{shockwave.length_error}}) | `scenes/viper/shockwave.json`; `rod.scene_shockwave` |
| Against the radius update of Bergou et al. 2010 | Angles et al. 2019, Fig. 15: Bergou's "significantly dampened" | a radial squeeze moves VIPER's radius {{bergou.squeeze.viper}} m in one step, Bergou's {{bergou.squeeze.bergou}} m; middle radius std {{bergou.std_mm.viper}} mm against {{bergou.std_mm.bergou}} mm | `scenes/viper/oscillation_viper.json`, `oscillation_bergou.json`; `rod.scene_bergou` |
| Sheet of 5 rods against a tet sheet, both stretched 1.5× | Angles et al. 2019, Fig. 16 (load not given) | relative width at x = 0.25 / 0.5 / 0.75 (incompressible: 0.8165): tets {{sheet.width.x0.25.tets}} / {{sheet.width.x0.5.tets}} / {{sheet.width.x0.75.tets}}, rods {{sheet.width.x0.25.rods}} / {{sheet.width.x0.5.rods}} / {{sheet.width.x0.75.rods}}; V/V0 {{sheet.volume.tets}}, {{sheet.volume.rods}} | `scenes/viper/sheet.json`; `rod.scene_sheet` |
| Muscle contraction: 7 rods × 9 pills, middle third shortened 30 % | Angles et al. 2019, Fig. 10: the muscle bulges | cross-section spread {{contraction.spread.scale_invariant}} with scale-invariant matching, {{contraction.spread.rigid}} with rigid; V/V0 {{contraction.volume.scale_invariant}} and {{contraction.volume.rigid}} | `scenes/viper/contraction_*.json`; `rod.scene_contraction` |
| 100 octopuses × 37 pills falling between pillars, skinned | Angles et al. 2019, Fig. 7: 26,000 DOFs at 140 Hz on a GTX 1080 | 75 frames: no NaN, deepest pill overlap after a step {{octopus.deepest_overlap_cm}} cm; speed in [viper.md](viper.md) | `scenes/viper/octopus.json`; `rod.scene_octopus`; `bench_viper_octopus` |
| Viperized muscle: a fusiform surface becomes 7 rods × 9 slices | Angles et al. 2019, Fig. 12 | combing shortens the rods from {{viperize.length.before}} to {{viperize.length.after}} m; every rod vertex inside the surface (winding number {{viperize.smallest_winding}}), also after 60 frames of contraction ({{viperized_muscle.contracting.smallest_winding}}) | `scenes/viper/viperized_muscle.json`; `rod.viperize_fusiform`, `rod.scene_viperized_muscle` |
""",
}
