# SPDX-License-Identifier: MIT
"""Figures of the XPBD section of docs/results.md (Macklin & Müller 2021)."""

from manifest import Figure, Source

SECTION = "xpbd"
DOC = "docs/results.md"

SOURCES = {
    "stretch_clamped": Source("{build}/isochor_tests paper.stretch_clamped_table", quick=True),
    "stretch_sliding": Source("{build}/isochor_tests paper.stretch_closed_form", quick=True),
}

FIGURES = [
    *[Figure(f"stretch.clamped.nu{nu}.volume", "stretch_clamped",
             rf"nu {nu} clamped: V/V0 ([0-9.]+)") for nu in ("0.41", "0.45", "0.49")],
    Figure("stretch.sliding.nu0.41.volume", "stretch_sliding", r"sliding grips: V/V0 ([0-9.]+)",
           fmt=".5f"),
    Figure("stretch.sliding.nu0.41.closed_form", "stretch_sliding", r"closed form ([0-9.]+)",
           fmt=".5f"),
    Figure("stretch.sliding.nu0.41.worst_tet", "stretch_sliding", r"worst tet ([0-9.e+-]+)",
           fmt=".1e"),
]

TABLES = {
    "xpbd-experiments": r"""
| experiment | paper's figure | isochor's figure | scene, test or bench |
|---|---|---|---|
| Stretch, clamped grips, ν = 0.41 / 0.45 / 0.49 / 0.495 / 0.4995: V/V0 at 2.25× the height | Macklin & Müller 2021, Table 1, Fig. 4: XPBD 1.25 / 1.13 / 1.02 / 1.01 / 1.001; Newton 1.24 / 1.13 / 1.02 / 1.03 / 1.001 | {{stretch.clamped.nu0.41.volume}} / {{stretch.clamped.nu0.45.volume}} / {{stretch.clamped.nu0.49.volume}} / 1.0152 / 1.0052 | `scenes/stretch/clamped_nu*.json`; `paper.stretch_clamped_table`; `bench_xpbd_core` |
| Stretch, sliding grips, ν = 0.41 | closed form 1 + (μ/λ)(1 − 1/2.25) = {{stretch.sliding.nu0.41.closed_form}} | V/V0 {{stretch.sliding.nu0.41.volume}}; worst tet off by {{stretch.sliding.nu0.41.worst_tet}} | `scenes/stretch/sliding_nu0.41.json`; `paper.stretch_closed_form` |
| Stretch, sliding grips, ν = 0.5 | closed form 1 | V/V0 1.00014; worst tet off by 1.8e-3 | `sliding_nu0.5.json`; `paper.stretch_incompressible` |
| Cube twist, two 90° turns (20,250 tets, ν = 0.45) | Macklin & Müller 2021, Fig. 5: 400 Gauss-Seidel iterations a turn | 500 / 1454 sweeps; V/V0 0.9807 / 0.9595; 0 / 14 inverted tets | `scenes/twist/twist_2x90.json`; `paper.twist_two_quarter_turns` |
| Cube twist, four turns (360°) | extends Fig. 5 | 3049 sweeps in all; ends at the rest shape: V/V0 0.9998, no inverted tet | `twist_360.json`; `paper.twist_full_turn_stays_finite` |
| Crazy cube scramble: ν = 0.5, every vertex scattered in a plane | Macklin & Müller 2021, Fig. 6: 40k tets, min face angle < 0.3°, edge ratio 67:1; recovers | 38,988 tets, 0.26°, 66:1; V/V0 0.99972 after 2.5 s; 1 tet stays inverted | `scenes/crazy_cube/scramble.json`; `paper.crazy_cube_scramble` |
| Crazy cube stretched to 4.5× its height (t = 2 s) | Macklin & Müller 2021, Fig. 7: volume gain < 3 % | V/V0 1.018; 1,379 inverted tets (3.5 %) | `scenes/crazy_cube/compress.json`; `paper.crazy_cube_compress` |
| then compressed to 1/3 of its height (t = 4 s) and held (t = 5 s) | Fig. 7: stable | t = 4 s: V/V0 0.912, 3,975 inverted; lowest 0.909 just after (by t = 4.05 s); t = 5 s: 0.981, 2,649 inverted; no NaN | as above (`--frames 240` stops at t = 4 s) |
| Unfold: sphere (13,056 tets, ν = 0.45) collapsed into a plane and scattered | Macklin & Müller 2021, Fig. 8 (a dragon): recovers | RMS distance from rest after rigid alignment 1.12e-3 m (diameter 1 m); V/V0 0.9990; no inverted tet | `scenes/unfold/sphere.json`; `paper.unfold_sphere` |
| Unfold: bar (2,304 tets) | Fig. 8 | 6.85e-4 m (diagonal 1.1 m); V/V0 0.9990; no inverted tet | `scenes/unfold/bar.json`; `paper.unfold_bar` |
| Tissue: a creature walking for 4 s, flesh (ν = 0.5) on kinematic bones, self contact, a skinned surface; 20k / 80k tets | Macklin & Müller 2021, sec. 5.3: 80k tets, 8 ms a frame on an RTX 2080 Ti | V/V0 0.9965–1.0003 / 0.9951–1.0006; worst \|J − 1\| at the end 0.18 / 0.19; at most 19 / 39 transiently inverted tets (13 / 37 of 120 frames warn) | `scenes/tissue/tissue.json`, `tissue_80k.json`; `bench_tissue` |
""",
    "xpbd-checks": r"""
| check | paper | isochor | test |
|---|---|---|---|
| constraint gradients against central differences, 200 random tets (100 inverted) | supplement, sec. 1 (eqs. 5, 7) | relative error < 1e-7 | `gradients_match_finite_differences` |
| det F = 1 and tr FᵀF = 3 for rotations; both for 1000 random F | supplement, sec. 2 | hold; 0 of 1000 | `neohookean_theorem` |
| rest stability, coupled projection, 1000 steps, no gravity | sec. 3.3 (rest shift) | drift 1.4e-17 (ν = 0.3), 0 (ν = 0.5) of the size | `rest_stability_coupled` |
| rest stability at 303,918 tets, default settings, 100 frames, double / float | sec. 3.3 | max \|J − 1\| 8.9e-16 / 1.9e-6; max speed 2.9e-15 / 3.1e-5 m/s | `rest_stable_by_default_at_300k_tets` |
| rest stability, sequential projection | Algorithm 1 | drift 2.1e-3 at 4 substeps, 1.2e-4 at 16 (falls like h²) | `rest_stability_sequential` |
| without the rest shift (γ = 1), ν = 0.3 | sec. 3.3 | the body collapses: V/V0 0.000 after 200 steps | `rest_unstable_without_shift` |
| cantilever tip sag, 10 / 20 / 40 substeps, coupled / sequential | — | 0.4274 / 0.4243 / 0.4236 m; 0.4515 / 0.4306 / 0.4251 m (V/V0 0.970 at 10) | `cantilever_sag_independent_of_substeps` |
| uniaxial bar, sliding ends, s = 1.5 and 2, ν = 0.3 and 0.45: J against 1 + (μ/λ)(1 − 1/s) | sec. 3.3 | worst tet error 2.3e-4 … 5.0e-4 | `uniaxial_closed_form`, `uniaxial_closed_form_coupled` |
""",
    "xpbd-contact-checks": r"""
| check | isochor | test |
|---|---|---|
| 5 cm block on each collider, gravity tilted 20°, μ = 0.8 tan 20°: slide in 0.5 s (closed form 0.1678 m) | sphere 0.1844, box 0.1831, capsule 0.1819, mesh 0.1831 m: μ within 2.5 %; at μ = 1.2 tan 20° it sticks (≤ 5.5e-6 m) | `collision.incline_on_every_collider` |
| block on a box collider moving at 0.5 m/s | carried at 0.5000 m/s | `collision.moving_collider_carries_body` |
| two ν = 0.5 cubes dropped onto each other | 0 vertices of either inside the other (100 without contact); V/V0 0.99932, 0.99980 | `collision.cubes_dropped_onto_each_other` |
| soft bar folded over itself by its pinned ends | 0 intersecting surface triangle pairs (109 without self contact) | `collision.folded_bar_does_not_self_intersect` |
| compliant attachments (α = 1e-3 m/N), block hanging | Σ sag 0.078480 m against α M g = 0.078480 m | `collision.bone_compliant_attachments_carry_the_weight` |
| contact scenes, V/V0 over the first 60–90 frames | `cubes` 0.9970 … 1.0000, `squeeze` 0.9946 … 1.0000, `stairs` 0.9972 … 1.0003, `paddle` 0.9944 … 1.0000, `fold` 0.9705 … 1.0077 | `collision.contact_scenes_run` (`scenes/contact/*.json`) |
| embedding 20k points; the same under an affine map | rest positions to 4.3e-16 m; 3.6e-15 m | `skin.weights_reproduce_points_and_affine_maps` |
| tissue surface (marching tetrahedra around a capsule) | closed, consistently wound; volume 0.052148 against 0.052203 | `skin.tissue_surface_is_closed_and_on_the_union` |
""",
}
