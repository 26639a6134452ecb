# SPDX-License-Identifier: MIT
"""Figures of the XPBD section of docs/results.md (Macklin & Müller 2021)."""

from manifest import Figure, Source, scene_source, stat_pattern, test_source

SECTION = "xpbd"
DOC = "docs/results.md"

SOURCES = {
    # Experiments (paper.*, scenes).
    "stretch_clamped": test_source("paper.stretch_clamped_table"),
    "stretch_clamped_nu0.495": scene_source("scenes/stretch/clamped_nu0.495.json", quick=True),
    "stretch_clamped_nu0.4995": scene_source("scenes/stretch/clamped_nu0.4995.json", quick=True),
    "stretch_sliding": test_source("paper.stretch_closed_form"),
    "stretch_incompressible": test_source("paper.stretch_incompressible"),
    "twist": test_source("paper.twist_two_quarter_turns"),
    "twist_360": test_source("paper.twist_full_turn_stays_finite"),
    "scramble": test_source("paper.crazy_cube_scramble"),
    "compress": test_source("paper.crazy_cube_compress"),
    # The compress scene stopped when the compression ends (t = 4 s), just after (t = 4.05 s)
    # and at t = 4.25 s.
    "compress_t4": scene_source("scenes/crazy_cube/compress.json", " --frames 240"),
    "compress_t4.05": scene_source("scenes/crazy_cube/compress.json", " --frames 243"),
    "compress_t4.25": scene_source("scenes/crazy_cube/compress.json", " --frames 255"),
    # The stretch phase at 20 substeps instead of 40 (the prose below the table).
    "compress_20_substeps": Source(
        "sed 's/\"substeps\": 40/\"substeps\": 20/' scenes/crazy_cube/compress.json"
        " > {tmp}/compress_20.json && grep -q '\"substeps\": 20' {tmp}/compress_20.json && "
        "{build}/isochor run {tmp}/compress_20.json --no-output --quiet --frames 120"
        " --stats {tmp}/stats.json && awk -F'[:,]' "
        "'/\"volume_ratio_max\"/ {{ printf \"20 substeps: volume gain %.2f %%\\n\", 100 * ($2 - 1) }}'"
        " {tmp}/stats.json"),
    # The scramble with the coupled projection instead of the paper's sequential one.
    "scramble_coupled": Source(
        "sed 's/\"projection\": \"sequential\"/\"projection\": \"coupled\"/'"
        " scenes/crazy_cube/scramble.json > {tmp}/scramble_coupled.json && "
        "grep -q '\"projection\": \"coupled\"' {tmp}/scramble_coupled.json && "
        "{build}/isochor run {tmp}/scramble_coupled.json --no-output --quiet"),
    "unfold_sphere": test_source("paper.unfold_sphere"),
    "unfold_bar": test_source("paper.unfold_bar"),
    # The unfold scenes' health summaries: when the inversion warnings stop.
    "unfold_sphere_run": scene_source("scenes/unfold/sphere.json", quick=True),
    "unfold_bar_run": scene_source("scenes/unfold/bar.json", quick=True),
    "tissue_20k": scene_source("scenes/tissue/tissue.json", stats=True),
    "tissue_80k": scene_source("scenes/tissue/tissue_80k.json", stats=True),
    # Solver checks (xpbd.*).
    "gradients": test_source("xpbd.gradients_match_finite_differences"),
    "theorem": test_source("xpbd.neohookean_theorem"),
    "rest_coupled": test_source("xpbd.rest_stability_coupled"),
    "rest_300k": test_source("xpbd.rest_stable_by_default_at_300k_tets", quick=False),  # 20-35 s
    "rest_sequential": test_source("xpbd.rest_stability_sequential"),
    "rest_no_shift": test_source("xpbd.rest_unstable_without_shift"),
    "cantilever": test_source("xpbd.cantilever_sag_independent_of_substeps"),
    "uniaxial": test_source("xpbd.uniaxial_closed_form"),
    "uniaxial_coupled": test_source("xpbd.uniaxial_closed_form_coupled"),
    # Contact, attachments and skinning (collision.*, skin.*).
    "incline": test_source("collision.incline_on_every_collider"),
    "moving_collider": test_source("collision.moving_collider_carries_body"),
    "cubes_dropped": test_source("collision.cubes_dropped_onto_each_other"),
    "folded_bar": test_source("collision.folded_bar_does_not_self_intersect"),
    "compliant": test_source("collision.bone_compliant_attachments_carry_the_weight"),
    "contact_scenes": test_source("collision.contact_scenes_run"),
    "skin_weights": test_source("skin.weights_reproduce_points_and_affine_maps"),
    "skin_surface": test_source("skin.tissue_surface_is_closed_and_on_the_union"),
}

NUMBER = r"(-?[0-9.]+(?:e[+-]?[0-9]+)?)"

FIGURES = [
    # Stretch (Fig. 4, Table 1).
    *[Figure(f"stretch.clamped.nu{nu}.volume", "stretch_clamped",
             rf"nu {nu} clamped: V/V0 ([0-9.]+)") for nu in ("0.41", "0.45", "0.49")],
    *[Figure(f"stretch.clamped.nu{nu}.volume", f"stretch_clamped_nu{nu}",
             r"^V/V0\s+final ([0-9.]+)", fmt=".4f") for nu in ("0.495", "0.4995")],
    Figure("stretch.sliding.nu0.41.volume", "stretch_sliding", r"sliding grips: V/V0 ([0-9.]+)",
           fmt=".5f"),
    Figure("stretch.sliding.nu0.41.closed_form", "stretch_sliding", r"closed form ([0-9.]+)",
           fmt=".5f"),
    Figure("stretch.sliding.nu0.41.worst_tet", "stretch_sliding", r"worst tet ([0-9.e+-]+)",
           fmt=".1e"),
    Figure("stretch.sliding.nu0.5.volume", "stretch_incompressible",
           r"nu 0\.5, sliding grips, stretch 2\.25: V/V0 ([0-9.]+)", fmt=".5f"),
    Figure("stretch.sliding.nu0.5.worst_tet", "stretch_incompressible",
           r"nu 0\.5, sliding grips, .*max \|J-1\| ([0-9.e+-]+)", fmt=".1e"),
    # Cube twist (Fig. 5).
    *[f for turn in (1, 2) for f in (
        Figure(f"twist.turn{turn}.sweeps", "twist",
               rf"turn {turn} \([0-9]+ deg\): ([0-9]+) sweeps to converge"),
        Figure(f"twist.turn{turn}.volume", "twist",
               rf"turn {turn} \([0-9]+ deg\): .*V/V0 ([0-9.]+)", fmt=".4f"),
        Figure(f"twist.turn{turn}.inverted", "twist",
               rf"turn {turn} \([0-9]+ deg\): .*V/V0 [0-9.]+, ([0-9]+) inverted"))],
    Figure("twist.360.sweeps", "twist_360", r"360 deg: .*, ([0-9]+) sweeps"),
    Figure("twist.360.volume", "twist_360", r"360 deg: V/V0 ([0-9.]+)", fmt=".4f"),
    Figure("twist.360.inverted", "twist_360", r"360 deg: V/V0 [0-9.]+, ([0-9]+) inverted"),
    # Crazy cube scramble (Fig. 6).
    Figure("scramble.tets", "scramble", r"([0-9]+) tets \(min face angle", fmt=",d"),
    Figure("scramble.min_face_angle", "scramble", r"min face angle ([0-9.]+) deg", fmt=".2f"),
    Figure("scramble.edge_ratio", "scramble", r"edge ratio ([0-9]+):1"),
    Figure("scramble.volume", "scramble", r"edge ratio [0-9]+:1\): V/V0 ([0-9.]+)", fmt=".5f"),
    Figure("scramble.inverted", "scramble", r"V/V0 [0-9.]+, ([0-9]+) inverted after"),
    Figure("scramble.frames", "scramble", r"inverted after ([0-9]+) frames"),
    # Crazy cube compress (Fig. 7).
    Figure("compress.stretched.volume", "compress", r"stretched x4\.5: V/V0 ([0-9.]+)",
           fmt=".3f"),
    Figure("compress.stretched.inverted", "compress",
           r"stretched x4\.5: V/V0 .*\), ([0-9]+) inverted", fmt=",d"),
    Figure("compress.stretched.gain_percent", "compress",
           r"stretched x4\.5: volume gain ([0-9.]+) %", fmt=".1f"),
    Figure("compress.stretched.inverted_percent", "compress",
           r"stretched x4\.5: volume gain .*, ([0-9.]+) % of the tets inverted", fmt=".1f"),
    Figure("compress.t4.volume", "compress_t4", r"^V/V0\s+final ([0-9.]+)", fmt=".3f"),
    Figure("compress.t4.inverted", "compress_t4", r"^inverted tets\s+([0-9]+)", fmt=",d"),
    Figure("compress.t4.05.lowest", "compress_t4.05", r"^V/V0\s+final [0-9.]+, min ([0-9.]+)",
           fmt=".3f"),
    Figure("compress.t4.25.volume", "compress_t4.25", r"^V/V0\s+final ([0-9.]+)", fmt=".2f"),
    Figure("compress.lowest", "compress", r"from t = 2 s to 5 s: lowest V/V0 ([0-9.]+)",
           fmt=".3f"),
    Figure("compress.t5.volume", "compress", r"compressed to 1/3: V/V0 ([0-9.]+)", fmt=".3f"),
    Figure("compress.t5.inverted", "compress", r"compressed to 1/3: V/V0 [0-9.]+, ([0-9]+) inverted",
           fmt=",d"),
    Figure("compress.20_substeps.gain_percent", "compress_20_substeps",
           r"20 substeps: volume gain ([0-9.]+) %", fmt=".1f"),
    Figure("scramble.coupled.inverted", "scramble_coupled", r"^inverted tets\s+([0-9]+) at the end"),
    # Unfold (Fig. 8).
    *[f for body in ("sphere", "bar") for f in (
        Figure(f"unfold.{body}.rms", f"unfold_{body}",
               rf"{body}\.json: RMS distance from the rest shape ([0-9.e+-]+) m", fmt=".2e"),
        Figure(f"unfold.{body}.volume", f"unfold_{body}", rf"{body}\.json: .*V/V0 ([0-9.]+)",
               fmt=".4f"),
        Figure(f"unfold.{body}.inverted", f"unfold_{body}",
               rf"{body}\.json: .*V/V0 [0-9.]+, ([0-9]+) inverted"))],
    *[Figure(f"unfold.{body}.last_inversion_warning", f"unfold_{body}_run",
             r"last: t = ([0-9.]+) s: [0-9]+ inverted tets", fmt=".2f") for body in ("sphere", "bar")],
    # Tissue (sec. 5.3), from the run's summary and --stats JSON.
    *[f for size in ("20k", "80k") for f in (
        Figure(f"tissue.{size}.volume_min", f"tissue_{size}", stat_pattern("volume_ratio_min"),
               fmt=".4f"),
        Figure(f"tissue.{size}.volume_max", f"tissue_{size}", stat_pattern("volume_ratio_max"),
               fmt=".4f"),
        Figure(f"tissue.{size}.max_J_end", f"tissue_{size}", stat_pattern("max_abs_J_minus_1"),
               fmt=".2f"),
        Figure(f"tissue.{size}.max_inverted", f"tissue_{size}",
               stat_pattern("health_max_inverted_tets")),
        Figure(f"tissue.{size}.inversion_warnings", f"tissue_{size}",
               stat_pattern("health_inversion_warnings")),
        Figure(f"tissue.{size}.frames", f"tissue_{size}", stat_pattern("frames")))],
    # Solver checks.
    Figure("gradients.inverted", "gradients", r"200 tets, ([0-9]+) inverted"),
    Figure("gradients.hydrostatic", "gradients", r"gradient error hydrostatic ([0-9.e+-]+)",
           fmt=".1e"),
    Figure("gradients.deviatoric", "gradients", r"gradient error .*deviatoric ([0-9.e+-]+)",
           fmt=".1e"),
    Figure("theorem.both_held", "theorem",
           r"1000 random F: ([0-9]+) with det F = 1 and tr F\^T F = 3 both"),
    Figure("rest.coupled.nu0.3", "rest_coupled", r"coupled: .*nu=0\.3 ([0-9.e+-]+)", fmt=".1e"),
    Figure("rest.coupled.nu0.5", "rest_coupled", r"coupled: .*nu=0\.5 ([0-9.e+-]+) \(size"),
    *[f for precision in ("double", "float") for f in (
        Figure(f"rest.300k.{precision}.J", "rest_300k",
               rf"coupled, {precision}, +100 frames: max \|J-1\| ([0-9.e+-]+)", fmt=".1e"),
        Figure(f"rest.300k.{precision}.speed", "rest_300k",
               rf"coupled, {precision}, +100 frames: .*max speed ([0-9.e+-]+) m/s", fmt=".1e"))],
    Figure("rest.sequential.4", "rest_sequential",
           r"sequential: max drift after 1000 steps, 4 substeps: nu=0\.3 ([0-9.e+-]+)", fmt=".1e"),
    Figure("rest.sequential.16", "rest_sequential", r"sequential: 16 substeps: nu=0\.3 ([0-9.e+-]+)",
           fmt=".1e"),
    Figure("rest.no_shift.volume", "rest_no_shift", r"gamma = 1: .*V/V0 (-?[0-9.]+) after"),
    *[Figure(f"cantilever.{order}.{n}.sag", "cantilever",
             rf"{order}, substeps {n}: settled tip sag -([0-9.]+) m", fmt=".4f")
      for order in ("coupled", "sequential") for n in (10, 20, 40)],
    Figure("cantilever.sequential.10.volume", "cantilever",
           r"sequential, substeps 10: .*V/V0 ([0-9.]+)", fmt=".3f"),
    # The smallest and the largest of the six worst-tet errors (as of the last rerun).
    Figure("uniaxial.smallest", "uniaxial",
           r"nu 0\.30 s 1\.5 sequential: .*worst \|J - expected\| ([0-9.e+-]+)", fmt=".1e"),
    Figure("uniaxial.largest", "uniaxial_coupled",
           r"nu 0\.30 s 2\.0 coupled: .*worst \|J - expected\| ([0-9.e+-]+)", fmt=".1e"),
    # Contact, attachments and skinning.
    Figure("incline.closed_form", "incline", r"sphere +mu 0\.8 tan: .*closed form ([0-9.]+)",
           fmt=".4f"),
    *[Figure(f"incline.{shape}.slid", "incline", rf"{shape} +mu 0\.8 tan: slid ([0-9.]+) m",
             fmt=".4f") for shape in ("sphere", "box", "capsule", "mesh")],
    Figure("incline.mu_within_percent", "incline",
           r"every collider: mu seen within ([0-9.]+) %", fmt=".1f"),
    Figure("incline.stick_max", "incline", r"at mu 1\.2 tan moved at most ([0-9.e+-]+) m",
           fmt=".1e"),
    Figure("moving_collider.speed", "moving_collider",
           r"block on a box moving at 0\.5 m/s: ([0-9.]+) m/s", fmt=".4f"),
    Figure("cubes.inside_a", "cubes_dropped", r"with contact: ([0-9]+) / [0-9]+ vertices inside"),
    Figure("cubes.inside_b", "cubes_dropped", r"with contact: [0-9]+ / ([0-9]+) vertices inside"),
    Figure("cubes.inside_without", "cubes_dropped",
           r"without contact: ([0-9]+) vertices inside"),
    Figure("cubes.volume_a", "cubes_dropped", r"with contact: .*V/V0 ([0-9.]+) and", fmt=".5f"),
    Figure("cubes.volume_b", "cubes_dropped", r"with contact: .*V/V0 [0-9.]+ and ([0-9.]+)",
           fmt=".5f"),
    Figure("folded_bar.with", "folded_bar",
           r"folded bar: ([0-9]+) intersecting boundary triangle pairs with self contact"),
    Figure("folded_bar.without", "folded_bar", r"folded bar: .*\), ([0-9]+) without"),
    Figure("compliant.sag", "compliant", r"compliant hang: sum of sags ([0-9.]+) m", fmt=".6f"),
    Figure("compliant.expected", "compliant", r"compliant hang: .*alpha M g = ([0-9.]+) m",
           fmt=".6f"),
    *[f for scene in ("cubes", "squeeze", "stairs", "paddle", "fold") for f in (
        Figure(f"contact_scenes.{scene}.volume_min", "contact_scenes",
               rf"scenes/contact/{scene}\.json +[0-9]+ frames: V/V0 ([0-9.]+) \.\.", fmt=".4f"),
        Figure(f"contact_scenes.{scene}.volume_max", "contact_scenes",
               rf"scenes/contact/{scene}\.json +[0-9]+ frames: V/V0 [0-9.]+ \.\. ([0-9.]+)",
               fmt=".4f"))],
    Figure("skin.rest_error", "skin_weights", r"rest error ([0-9.e+-]+) m", fmt=".1e"),
    Figure("skin.affine_error", "skin_weights", r"affine map: worst error ([0-9.e+-]+) m",
           fmt=".1e"),
    Figure("skin.surface_volume", "skin_surface", r"capsule surface: .*volume ([0-9.]+) \(exact",
           fmt=".6f"),
    Figure("skin.surface_exact", "skin_surface", r"capsule surface: .*\(exact ([0-9.]+)\)",
           fmt=".6f"),
]

TABLES = {
    "xpbd-experiments": r"""
| experiment | paper's figure | isochor's figure | scene, test or bench |
|---|---|---|---|
| Stretch, clamped grips, ν = 0.41 / 0.45 / 0.49 / 0.495 / 0.4995: V/V0 at 2.25× the height | Macklin & Müller 2021, Table 1, Fig. 4: XPBD 1.25 / 1.13 / 1.02 / 1.01 / 1.001; Newton 1.24 / 1.13 / 1.02 / 1.03 / 1.001 | {{stretch.clamped.nu0.41.volume}} / {{stretch.clamped.nu0.45.volume}} / {{stretch.clamped.nu0.49.volume}} / {{stretch.clamped.nu0.495.volume}} / {{stretch.clamped.nu0.4995.volume}} | `scenes/stretch/clamped_nu*.json`; `paper.stretch_clamped_table`; `bench_xpbd_core` |
| Stretch, sliding grips, ν = 0.41 | closed form 1 + (μ/λ)(1 − 1/2.25) = {{stretch.sliding.nu0.41.closed_form}} | V/V0 {{stretch.sliding.nu0.41.volume}}; worst tet off by {{stretch.sliding.nu0.41.worst_tet}} | `scenes/stretch/sliding_nu0.41.json`; `paper.stretch_closed_form` |
| Stretch, sliding grips, ν = 0.5 | closed form 1 | V/V0 {{stretch.sliding.nu0.5.volume}}; worst tet off by {{stretch.sliding.nu0.5.worst_tet}} | `sliding_nu0.5.json`; `paper.stretch_incompressible` |
| Cube twist, two 90° turns (20,250 tets, ν = 0.45) | Macklin & Müller 2021, Fig. 5: 400 Gauss-Seidel iterations a turn | {{twist.turn1.sweeps}} / {{twist.turn2.sweeps}} sweeps; V/V0 {{twist.turn1.volume}} / {{twist.turn2.volume}}; {{twist.turn1.inverted}} / {{twist.turn2.inverted}} inverted tets | `scenes/twist/twist_2x90.json`; `paper.twist_two_quarter_turns` |
| Cube twist, four turns (360°) | extends Fig. 5 | {{twist.360.sweeps}} sweeps in all; ends at the rest shape: V/V0 {{twist.360.volume}}, {{twist.360.inverted}} inverted tets | `twist_360.json`; `paper.twist_full_turn_stays_finite` |
| Crazy cube scramble: ν = 0.5, every vertex scattered in a plane | Macklin & Müller 2021, Fig. 6: 40k tets, min face angle < 0.3°, edge ratio 67:1; recovers | {{scramble.tets}} tets, {{scramble.min_face_angle}}°, {{scramble.edge_ratio}}:1; V/V0 {{scramble.volume}} after 2.5 s ({{scramble.frames}} frames); {{scramble.inverted}} tet stays inverted | `scenes/crazy_cube/scramble.json`; `paper.crazy_cube_scramble` |
| Crazy cube stretched to 4.5× its height (t = 2 s) | Macklin & Müller 2021, Fig. 7: volume gain < 3 % | V/V0 {{compress.stretched.volume}}; {{compress.stretched.inverted}} inverted tets ({{compress.stretched.inverted_percent}} %) | `scenes/crazy_cube/compress.json`; `paper.crazy_cube_compress` |
| then compressed to 1/3 of its height (t = 4 s) and held (t = 5 s) | Fig. 7: stable | t = 4 s: V/V0 {{compress.t4.volume}}, {{compress.t4.inverted}} inverted; lowest {{compress.lowest}} just after (the minimum by t = 4.05 s is {{compress.t4.05.lowest}}); t = 5 s: {{compress.t5.volume}}, {{compress.t5.inverted}} inverted; no NaN | as above (`--frames 240` stops at t = 4 s) |
| Unfold: sphere (13,056 tets, ν = 0.45) collapsed into a plane and scattered | Macklin & Müller 2021, Fig. 8 (a dragon): recovers | RMS distance from rest after rigid alignment {{unfold.sphere.rms}} m (diameter 1 m); V/V0 {{unfold.sphere.volume}}; {{unfold.sphere.inverted}} inverted tets | `scenes/unfold/sphere.json`; `paper.unfold_sphere` |
| Unfold: bar (2,304 tets) | Fig. 8 | {{unfold.bar.rms}} m (diagonal 1.1 m); V/V0 {{unfold.bar.volume}}; {{unfold.bar.inverted}} inverted tets | `scenes/unfold/bar.json`; `paper.unfold_bar` |
| Tissue: a creature walking for 4 s, flesh (ν = 0.5) on kinematic bones, self contact, a skinned surface; 20k / 80k tets | Macklin & Müller 2021, sec. 5.3: 80k tets, 8 ms a frame on an RTX 2080 Ti | V/V0 {{tissue.20k.volume_min}}–{{tissue.20k.volume_max}} / {{tissue.80k.volume_min}}–{{tissue.80k.volume_max}}; worst \|J − 1\| at the end {{tissue.20k.max_J_end}} / {{tissue.80k.max_J_end}}; at most {{tissue.20k.max_inverted}} / {{tissue.80k.max_inverted}} transiently inverted tets ({{tissue.20k.inversion_warnings}} / {{tissue.80k.inversion_warnings}} of {{tissue.20k.frames}} frames warn) | `scenes/tissue/tissue.json`, `tissue_80k.json`; `bench_tissue` |
""",
    "xpbd-checks": r"""
| check | paper | isochor | test |
|---|---|---|---|
| constraint gradients against central differences, 200 random tets ({{gradients.inverted}} inverted) | supplement, sec. 1 (eqs. 5, 7) | worst relative error {{gradients.hydrostatic}} (hydrostatic), {{gradients.deviatoric}} (deviatoric); the test allows 1e-7 | `gradients_match_finite_differences` |
| det F = 1 and tr FᵀF = 3 for rotations; both for 1000 random F | supplement, sec. 2 | hold; {{theorem.both_held}} of 1000 | `neohookean_theorem` |
| rest stability, coupled projection, 1000 steps, no gravity | sec. 3.3 (rest shift) | drift {{rest.coupled.nu0.3}} (ν = 0.3), {{rest.coupled.nu0.5}} (ν = 0.5) of the size | `rest_stability_coupled` |
| rest stability at 303,918 tets, default settings, 100 frames, double / float | sec. 3.3 | max \|J − 1\| {{rest.300k.double.J}} / {{rest.300k.float.J}}; max speed {{rest.300k.double.speed}} / {{rest.300k.float.speed}} m/s | `rest_stable_by_default_at_300k_tets` |
| rest stability, sequential projection | Algorithm 1 | drift {{rest.sequential.4}} at 4 substeps, {{rest.sequential.16}} at 16 (falls like h²) | `rest_stability_sequential` |
| without the rest shift (γ = 1), ν = 0.3 | sec. 3.3 | the body collapses: V/V0 {{rest.no_shift.volume}} after 200 steps | `rest_unstable_without_shift` |
| cantilever tip sag, 10 / 20 / 40 substeps, coupled / sequential | — | {{cantilever.coupled.10.sag}} / {{cantilever.coupled.20.sag}} / {{cantilever.coupled.40.sag}} m; {{cantilever.sequential.10.sag}} / {{cantilever.sequential.20.sag}} / {{cantilever.sequential.40.sag}} m (V/V0 {{cantilever.sequential.10.volume}} at 10) | `cantilever_sag_independent_of_substeps` |
| uniaxial bar, sliding ends, s = 1.5 and 2, ν = 0.3 and 0.45: J against 1 + (μ/λ)(1 − 1/s) | sec. 3.3 | worst tet error {{uniaxial.smallest}} … {{uniaxial.largest}} | `uniaxial_closed_form`, `uniaxial_closed_form_coupled` |
""",
    "xpbd-contact-checks": r"""
| check | isochor | test |
|---|---|---|
| 5 cm block on each collider, gravity tilted 20°, μ = 0.8 tan 20°: slide in 0.5 s (closed form {{incline.closed_form}} m) | sphere {{incline.sphere.slid}}, box {{incline.box.slid}}, capsule {{incline.capsule.slid}}, mesh {{incline.mesh.slid}} m: μ within {{incline.mu_within_percent}} %; at μ = 1.2 tan 20° it sticks (≤ {{incline.stick_max}} m) | `collision.incline_on_every_collider` |
| block on a box collider moving at 0.5 m/s | carried at {{moving_collider.speed}} m/s | `collision.moving_collider_carries_body` |
| two ν = 0.5 cubes dropped onto each other | {{cubes.inside_a}} / {{cubes.inside_b}} vertices of one inside the other ({{cubes.inside_without}} without contact); V/V0 {{cubes.volume_a}}, {{cubes.volume_b}} | `collision.cubes_dropped_onto_each_other` |
| soft bar folded over itself by its pinned ends | {{folded_bar.with}} intersecting surface triangle pairs ({{folded_bar.without}} without self contact) | `collision.folded_bar_does_not_self_intersect` |
| compliant attachments (α = 1e-3 m/N), block hanging | Σ sag {{compliant.sag}} m against α M g = {{compliant.expected}} m | `collision.bone_compliant_attachments_carry_the_weight` |
| contact scenes, V/V0 over the first 60–90 frames | `cubes` {{contact_scenes.cubes.volume_min}} … {{contact_scenes.cubes.volume_max}}, `squeeze` {{contact_scenes.squeeze.volume_min}} … {{contact_scenes.squeeze.volume_max}}, `stairs` {{contact_scenes.stairs.volume_min}} … {{contact_scenes.stairs.volume_max}}, `paddle` {{contact_scenes.paddle.volume_min}} … {{contact_scenes.paddle.volume_max}}, `fold` {{contact_scenes.fold.volume_min}} … {{contact_scenes.fold.volume_max}} | `collision.contact_scenes_run` (`scenes/contact/*.json`) |
| embedding 20k points; the same under an affine map | rest positions to {{skin.rest_error}} m; {{skin.affine_error}} m | `skin.weights_reproduce_points_and_affine_maps` |
| tissue surface (marching tetrahedra around a capsule) | closed, consistently wound; volume {{skin.surface_volume}} against {{skin.surface_exact}} | `skin.tissue_surface_is_closed_and_on_the_union` |
""",
}
