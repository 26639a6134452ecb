# SPDX-License-Identifier: MIT
"""Figures of docs/performance.md: XPBD throughput, kernel cycles, projections, worker counts,
scenes end to end and the other solvers' timings, all measured on the machine that reruns them.

Every bench source is `timing`: its figures are regenerated but never compared, since they
depend on the machine and its load. The machine source says which machine that was; it is
marked `timing` for the same reason. Only the worker-count thresholds, read from the source
code, are compared."""

from manifest import Figure, Source

SECTION = "performance"
DOC = "docs/performance.md"

SIZES = {"10k": 10368, "100k": 105456, "1m": 1053696}  # bench_xpbd --size 0, 1, 2
# Rows of bench_xpbd's main table: (id, mesh, precision, simd, scheme). The first row of a
# mesh, precision and scheme is the widest SIMD (`--simd auto`); `scalar` is the portable code.
ROWS = [
    ("general.float.greedy", "general", "float", r"\S+", "greedy"),
    ("general.float.pairs", "general", "float", r"\S+", "pairs"),
    ("hex.float.cell", "hex", "float", r"\S+", "cell"),
    ("general.double.greedy", "general", "double", r"\S+", "greedy"),
    ("general.float.portable", "general", "float", "scalar", "greedy"),
]
XPBD_WORKER_CELLS = [8, 9, 10, 11, 12]          # 3,072 ... 10,368 tets
INCOMPRESSIBLE_WORKER_CELLS = [6, 8, 9, 10, 11, 14]  # 1,296 ... 16,464 tets
ROD_WORKER_CELLS = [6, 8, 10]                   # bundles of 720, 1,280, 2,000 segments
# bench_scaling's runs: solver and its sizes (tets; segments for rods).
SCALING = [("xpbd", "tets", [10368, 105456, 998250, 4088832]),
           ("incompressible", "tets", [10368, 105456, 998250, 4088832]),
           ("newton", "tets", [10368, 105456, 998250, 4088832]),
           ("rods", "segments", [9680, 100820, 1003520])]
KERNEL_ROWS = [("general", "float"), ("pairs", "float"), ("hex", "float"),
               ("general", "double"), ("pairs", "double"), ("hex", "double")]


def table_row(mesh, tets, prec, simd, scheme, threads):
    """A row of bench_xpbd's table; groups: 1 kernel, 2 sweep, 3 step M/s, 4 2T/1T, 5 GB/s."""
    return (rf"^\| {mesh}\s*\|\s*{tets} \| {prec}\s*\| {simd}\s*\| {scheme}\s*\|[^|\n]*\|[^|\n]*"
            rf"\| {threads} \|\s*([0-9.]+) \|\s*([0-9.]+) \|\s*([0-9.]+) \|\s*([0-9.]+) \|"
            rf"\s*[0-9.]+% \|\s*([0-9.]+) \|")


def workers_source(solver, cells, frames, rounds):
    return Source(f"{{build}}/bench_workers {solver} {cells} 2 {frames} {rounds}", timing=True)


MEDIAN = r"^2 workers / 1 worker, time per frame: median ([0-9.]+)"

SOURCES = {
    "machine": Source("nproc && lscpu && grep -h '^set(CMAKE_C_COMPILER_\\(ID\\|VERSION\\) ' "
                      "{build}/CMakeFiles/*/CMakeCCompiler.cmake && "
                      "grep '^CMAKE_BUILD_TYPE:' {build}/CMakeCache.txt", timing=True),
    "thresholds": Source("grep -H '\\.autoMinTets = \\|IC_ROD_AUTO_MIN_SEGMENTS =' "
                         "src/*/solver_ops.c src/rod/world.c", quick=True),
    "throughput": Source("{build}/bench_xpbd --no-extras --plot docs/img/xpbd_throughput.png",
                         timing=True),
    "extras": Source("{build}/bench_xpbd --no-table", timing=True),
    "kernel": Source("taskset -c 1 {build}/bench_xpbd --kernel --cells 26", timing=True),
    **{f"projection.{projection}.{prec}":
       Source(f"{{build}}/bench_xpbd --cells 55 --mesh general --precision {prec} "
              f"--projection {projection} --no-extras --no-table", timing=True)
       for prec in ("float", "double") for projection in ("sequential", "coupled")},
    "health.off": Source("{build}/bench_xpbd --cells 26 --mesh general --precision float "
                         "--no-extras --no-table", timing=True),
    "health.on": Source("{build}/bench_xpbd --cells 26 --mesh general --precision float "
                        "--no-extras --no-table --health", timing=True),
    **{f"workers.xpbd.{c}": workers_source("xpbd", c, 60, 5) for c in XPBD_WORKER_CELLS},
    **{f"workers.incompressible.{c}": workers_source("incompressible", c, 10, 3)
       for c in INCOMPRESSIBLE_WORKER_CELLS},
    **{f"workers.rods.{c}": workers_source("rods", c, 30, 5) for c in ROD_WORKER_CELLS},
    "newton": Source("{build}/bench_fem_newton 12 mm assembled", timing=True),
    "incompressible.1": Source("{build}/bench_incompressible elastic 32 1", timing=True),
    "incompressible.2": Source("{build}/bench_incompressible elastic 32 2", timing=True),
    "io": Source("{build}/bench_io_load 58 {tmp}", timing=True),
    "scaling": Source("{build}/bench_scaling --max-step-seconds 60 --plot docs/img/scaling.png",
                      timing=True),
}

FIGURES = [
    # The machine.
    Figure("machine.cores", "machine", r"\A([0-9]+)\n"),
    Figure("machine.cpu", "machine", r"^Model name:\s*(.+?)\s*$"),
    Figure("machine.family", "machine", r"^CPU family:\s*([0-9]+)"),
    Figure("machine.model", "machine", r"^Model:\s*([0-9]+)"),
    Figure("machine.virtualization", "machine", r"^Hypervisor vendor:\s*(\S+)"),
    Figure("machine.compiler", "machine", r"^set\(CMAKE_C_COMPILER_ID \"(\S+)\"\)"),
    Figure("machine.compiler_version", "machine",
           r"^set\(CMAKE_C_COMPILER_VERSION \"([0-9]+)[0-9.]*\"\)"),
    Figure("machine.build_type", "machine", r"^CMAKE_BUILD_TYPE:STRING=(\S+)"),
    Figure("throughput.simd", "throughput", r"widest SIMD: (\S+);"),
    # Where a second worker starts (each solver's table row, src/rod/world.c).
    Figure("workers.xpbd.min_tets", "thresholds", r"xpbd/solver_ops\.c:\s*\.autoMinTets = ([0-9]+)",
           fmt=",d"),
    Figure("workers.incompressible.min_tets", "thresholds",
           r"incompressible/solver_ops\.c:\s*\.autoMinTets = ([0-9]+)", fmt=",d"),
    Figure("workers.rods.min_segments", "thresholds", r"IC_ROD_AUTO_MIN_SEGMENTS = ([0-9]+)",
           fmt=",d"),
    # The main table: kernel and step M/s, 1 and 2 threads; 2T/1T (kernel); GB/s.
    *[Figure(f"throughput.{row}.{size}.t{threads}.{what}", "throughput",
             table_row(mesh, tets, prec, simd, scheme, threads), group=group, fmt=".0f")
      for row, mesh, prec, simd, scheme in ROWS for size, tets in SIZES.items()
      for threads in (1, 2) for what, group in (("kernel", 1), ("step", 3))],
    *[Figure(f"throughput.{row}.{size}.speedup", "throughput",
             table_row(mesh, tets, prec, simd, scheme, 2), group=4, fmt=".2f")
      for row, mesh, prec, simd, scheme in ROWS[:4] for size, tets in SIZES.items()],
    Figure("throughput.general.float.greedy.1m.t2.gbs", "throughput",
           table_row("general", SIZES["1m"], "float", r"\S+", "greedy", 2), group=5, fmt=".1f"),
    # Health checks at 105,456 tets, general, float: step M/s.
    *[Figure(f"health.{state}.t{threads}.step", f"health.{state}",
             table_row("general", SIZES["100k"], "float", r"\S+", "greedy", threads), group=3,
             fmt=".0f") for state in ("off", "on") for threads in (1, 2)],
    # Projections at 998,250 tets: kernel / step M/s.
    *[Figure(f"projection.{projection}.{prec}.t{threads}.{what}", f"projection.{projection}.{prec}",
             table_row("general", 998250, prec, r"\S+", "greedy", threads), group=group,
             fmt=".0f")
      for prec in ("float", "double") for projection in ("sequential", "coupled")
      for threads in (1, 2) for what, group in (("kernel", 1), ("step", 3))],
    # Kernel cycles (time-stamp counter) per tet, one core, 105,456 tets.
    *[Figure(f"kernel.{mesh}.{prec}.{kernel}", "kernel",
             rf"^\| {mesh}\s*\| {prec}\s*\|\s*[0-9]+ \| {kernel}\s*\|\s*([0-9.]+) \|", fmt=".1f")
      for mesh, prec in KERNEL_ROWS for kernel in ("lane", "portable", "avx2")],
    # Scenes end to end, seconds, and their results.
    *[Figure(f"scenes.{scene}.{prec}.t{threads}", "extras",
             rf"^\| {pattern}\s*\| {prec} \| {threads} \| ([0-9.]+) \|", fmt=".3f")
      for scene, pattern in (("stretch", r"stretch/clamped_nu0\.45\.json"),
                             ("twist", r"twist/twist_2x90\.json \(first 90 deg\)"))
      for prec in ("double", "float") for threads in (1, 2)],
    Figure("scenes.stretch.volume", "extras",
           r"^\| stretch/clamped_nu0\.45\.json \| double \| 1 \| [0-9.]+ \| ([0-9.]+) \|"),
    Figure("scenes.twist.volume", "extras",
           r"^\| twist/twist_2x90\.json \(first 90 deg\) \| double \| 1 \| [0-9.]+ \| ([0-9.]+) \|"),
    *[Figure(f"scenes.{scene}.{prec}.sweeps", "extras",
             rf"^\| {pattern}\s*\| {prec} \| 1 \| [0-9.]+ \| [0-9.]+ \| ([0-9]+) \|", fmt=",d")
      for scene, pattern in (("stretch", r"stretch/clamped_nu0\.45\.json"),
                             ("twist", r"twist/twist_2x90\.json \(first 90 deg\)"))
      for prec in ("double", "float")],
    # Memory, bytes per tet at 1,053,696 tets (model, state, layout) and MB in all.
    *[Figure(f"memory.{prec}.{what}", "extras",
             rf"^\|\s*1053696 \| {prec}\s*\|\s*([0-9.]+) \|\s*([0-9.]+) \|\s*([0-9.]+) \|"
             rf"\s*[0-9.]+ \|\s*([0-9.]+) MB \|", group=group, fmt=".0f" if group < 4 else ".1f")
      for prec in ("float", "double")
      for what, group in (("model", 1), ("state", 2), ("layout", 3), ("mb", 4))],
    # Where a second worker pays: 2 workers' time per frame over 1 worker's, median of pairs.
    *[Figure(f"workers.xpbd.{c}", f"workers.xpbd.{c}", MEDIAN, fmt=".2f")
      for c in XPBD_WORKER_CELLS],
    *[Figure(f"workers.incompressible.{c}", f"workers.incompressible.{c}", MEDIAN, fmt=".2f")
      for c in INCOMPRESSIBLE_WORKER_CELLS],
    *[Figure(f"workers.rods.{c}", f"workers.rods.{c}", MEDIAN, fmt=".2f")
      for c in ROD_WORKER_CELLS],
    *[Figure(f"workers.{solver}.{c}.size", f"workers.{solver}.{c}",
             rf"^{solver} (?:tets|segments) ([0-9]+),", fmt=",d")
      for solver, cells in (("xpbd", XPBD_WORKER_CELLS),
                            ("incompressible", INCOMPRESSIBLE_WORKER_CELLS),
                            ("rods", ROD_WORKER_CELLS)) for c in cells],
    # Other solvers.
    Figure("newton.eval_ms", "newton", r"^assembled:.*eval\+assembly ([0-9.]+) ms", fmt=".0f"),
    Figure("newton.pcg_ms", "newton", r"^assembled:.*PCG ([0-9.]+) ms", fmt=".0f"),
    Figure("newton.tets", "newton", r"([0-9]+) tets, model", fmt=",d"),
    Figure("incompressible.tets", "incompressible.1", r"^elastic: ([0-9]+) tets", fmt=",d"),
    *[Figure(f"incompressible.t{w}.ms", f"incompressible.{w}",
             r"workers: ([0-9.]+) ms per tet pass", fmt=".1f") for w in (1, 2)],
    Figure("io.tets", "io", r"^mesh: [0-9]+ vertices, ([0-9]+) tets", fmt=",d"),
    *[Figure(f"io.{name}.mbs", "io",
             rf"^{pattern}\s+[0-9.]+\s+[0-9]+\s+[0-9]+\s+([0-9]+)", fmt=".0f")
      for name, pattern in (("tetgen", r"TetGen \.node/\.ele \(ascii\)"),
                            ("gmsh_ascii", r"Gmsh 4\.1 ascii"),
                            ("gmsh_binary", r"Gmsh 4\.1 binary"),
                            ("vtu", r"VTU appended raw"))],
    # Scaling: the rest of each bench_scaling row as printed (measured, or why not run).
    *[Figure(f"scaling.{solver}.{i}", "scaling",
             rf"^\| {solver}\s*\|\s*{size} {unit}\s*\| (.*?) \|\s*$")
      for solver, unit, sizes in SCALING for i, size in enumerate(sizes)],
    Figure("io.frame_mb", "io", r"^VTU frame write \([0-9]+ fields\): ([0-9.]+) MB", fmt=".0f"),
    Figure("io.frame_ms", "io", r"^VTU frame write \([0-9]+ fields\): [0-9.]+ MB in ([0-9]+) ms",
           fmt=".0f"),
]


def throughput_row(label, row):
    cells = lambda t: " | ".join(f"{{{{throughput.{row}.{size}.t{t}.kernel}}}} / "
                                 f"{{{{throughput.{row}.{size}.t{t}.step}}}}" for size in SIZES)
    return f"| {label} | 1 | {cells(1)} |\n| | 2 | {cells(2)} |\n"


def kernel_row(label, mesh, prec):
    return (f"| {label} | {{{{kernel.{mesh}.{prec}.lane}}}} | {{{{kernel.{mesh}.{prec}.portable}}}}"
            f" | {{{{kernel.{mesh}.{prec}.avx2}}}} |\n")


def projection_row(prec):
    cell = lambda j, t: (f"{{{{projection.{j}.{prec}.t{t}.kernel}}}} / "
                         f"{{{{projection.{j}.{prec}.t{t}.step}}}}")
    return (f"| {prec} | {cell('sequential', 1)} | {cell('coupled', 1)} | {cell('sequential', 2)}"
            f" | {cell('coupled', 2)} |\n")


def ratios(solver, cells, unit):
    return ", ".join(f"{{{{workers.{solver}.{c}}}}}× at {{{{workers.{solver}.{c}.size}}}}"
                     + (f" {unit}" if i == 0 else "") for i, c in enumerate(cells))


TABLES = {
    "perf-xpbd-throughput": "\n| configuration | threads | 10,368 tets | 105,456 tets | 1,053,696 tets |\n"
    "|---|---|---|---|---|\n"
    + throughput_row("general, float, {{throughput.simd}}, greedy", "general.float.greedy")
    + throughput_row("general, float, {{throughput.simd}}, pairs", "general.float.pairs")
    + throughput_row("hex, float, {{throughput.simd}}, cell", "hex.float.cell")
    + throughput_row("general, **double**, {{throughput.simd}}, greedy", "general.double.greedy")
    + throughput_row("general, float, portable, greedy", "general.float.portable"),
    "perf-scenes": r"""
| scene | double, 1 thread | float, 1 thread | double, 2 threads | float, 2 threads |
|---|---|---|---|---|
| stretch, ν = 0.45 | {{scenes.stretch.double.t1}} | {{scenes.stretch.float.t1}} | {{scenes.stretch.double.t2}} | {{scenes.stretch.float.t2}} |
| twist, first 90° | {{scenes.twist.double.t1}} | {{scenes.twist.float.t1}} | {{scenes.twist.double.t2}} | {{scenes.twist.float.t2}} |
""",
    "perf-workers": "\n| solver | one worker below | 2 workers against 1 |\n|---|---|---|\n"
    "| XPBD | {{workers.xpbd.min_tets}} tets | a larger body is cut into slabs that two workers "
    "sweep at once; a smaller one shares each colour between them, too few blocks to pay for "
    "the hand-overs. `bench_workers xpbd C 2 60 5`, median of 5 pairs: "
    + ratios("xpbd", XPBD_WORKER_CELLS, "tets") + " |\n"
    "| incompressible | {{workers.incompressible.min_tets}} tets | "
    "`bench_workers incompressible C 2 10 3`, median of 3 pairs: "
    + ratios("incompressible", INCOMPRESSIBLE_WORKER_CELLS, "tets") + " |\n"
    "| Newton, quasistatic | never | the Newton iterations run on one thread |\n"
    "| rods | {{workers.rods.min_segments}} segments | the pill searches run in parallel: a "
    "bundle piling up on a floor, `bench_workers rods C 2 30 5`, median of 5 pairs: "
    + ratios("rods", ROD_WORKER_CELLS, "segments") + " |\n",
    "perf-projection": "\n| | sequential, 1 worker | coupled, 1 worker | sequential, 2 workers "
    "| coupled, 2 workers |\n|---|---|---|---|---|\n"
    + projection_row("float") + projection_row("double"),
    "perf-scaling": "\n| solver | size | workers | build s | first step s | ms/step | steps timed "
    "| bytes per tet or segment | MB |\n|---|---|---|---|---|---|---|---|---|\n"
    + "".join(f"| {solver} | {size:,} {unit} | {{{{scaling.{solver}.{i}}}}} |\n"
              for solver, unit, sizes in SCALING for i, size in enumerate(sizes)),
    "perf-kernel-time": "\n| kernel | one lane | portable | AVX2 |\n|---|---|---|---|\n"
    + kernel_row("general, float, greedy", "general", "float")
    + kernel_row("general, float, pairs", "pairs", "float")
    + kernel_row("hex, float, cell", "hex", "float")
    + kernel_row("general, double, greedy", "general", "double")
    + kernel_row("general, double, pairs", "pairs", "double")
    + kernel_row("hex, double, cell", "hex", "double"),
}
