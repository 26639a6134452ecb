# SPDX-License-Identifier: MIT
"""Figures of docs/results.md: TODO."""

from manifest import Figure, Source

SECTION = "viper"
DOC = "docs/results.md"

SOURCES = {
}

FIGURES = [
]

TABLES = {
    "viper-experiments": r"""
| experiment | paper's figure | isochor's figure | scene, test or bench |
|---|---|---|---|
| Rod stretch: 10 pills pulled to twice their length | Angles et al. 2019, Fig. 13 | volume error ≤ 1.06e-2 with radius springs (α = 0.1), 9.2e-4 without; interior radius 0.03535, 0.03530 (r̄/√2 = 0.03536) | `scenes/viper/rod_stretch.json`, `rod_stretch_hard.json`; `rod.scene_rod_stretch` |
| Convergence: ends jump to twice the length in one step | Angles et al. 2019, Fig. 14: linear convergence | volume energy log-log slope −1.02 over 16–512 passes; stretch energy saturates at 10 | `scenes/viper/convergence.json`; `rod.scene_convergence` |
| Volume shockwave: radial kick near one end of a held rod | Angles et al. 2019, Fig. 6 | the bump reaches vertex 5, 12, 19, 26 at frames 20, 40, 60, 80; length stays 2 m | `scenes/viper/shockwave.json`; `rod.scene_shockwave` |
| Against the radius update of Bergou et al. 2010 | Angles et al. 2019, Fig. 15: Bergou's "significantly dampened" | a radial squeeze moves VIPER's radius 2.18e-4 m in one step, Bergou's 2e-17 m; middle radius std 2.75 mm against 1.50 mm | `scenes/viper/oscillation_viper.json`, `oscillation_bergou.json`; `rod.scene_bergou` |
| Sheet of 5 rods against a tet sheet, both stretched 1.5× | Angles et al. 2019, Fig. 16 (load not given) | relative width at x = 0.25 / 0.5 / 0.75 (incompressible: 0.8165): tets 0.818 / 0.802 / 0.821, rods 0.828 / 0.816 / 0.801; V/V0 1.0121, 1.0023 | `scenes/viper/sheet.json`; `rod.scene_sheet` |
| Muscle contraction: 7 rods × 9 pills, middle third shortened 30 % | Angles et al. 2019, Fig. 10: the muscle bulges | cross-section spread 1.158 with scale-invariant matching, 0.999 with rigid; V/V0 1.011 and 1.006 | `scenes/viper/contraction_*.json`; `rod.scene_contraction` |
| 100 octopuses × 37 pills falling between pillars, skinned | Angles et al. 2019, Fig. 7: 26,000 DOFs at 140 Hz on a GTX 1080 | 75 frames: no NaN, deepest pill overlap after a step 7.7 cm; speed in [viper.md](viper.md) | `scenes/viper/octopus.json`; `rod.scene_octopus`; `bench_viper_octopus` |
| Viperized muscle: a fusiform surface becomes 7 rods × 9 slices | Angles et al. 2019, Fig. 12 | combing shortens the rods from 9.01 to 6.78 m; every rod vertex inside the surface (winding number 1.0000), also contracting | `scenes/viper/viperized_muscle.json`; `rod.viperize_fusiform`, `rod.scene_viperized_muscle` |
""",
}
