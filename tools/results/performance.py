# SPDX-License-Identifier: MIT
"""Figures of docs/performance.md: TODO."""

from manifest import Figure, Source

SECTION = "performance"
DOC = "docs/performance.md"

SOURCES = {
}

FIGURES = [
]

TABLES = {
    "perf-xpbd-throughput": r"""
| configuration | threads | 10,368 tets | 105,456 tets | 1,053,696 tets |
|---|---|---|---|---|
| general, float, AVX-512 | 1 | 151 / 106 | 148 / 100 | 117 / 56 |
| | 2 | 216 / 140 | 290 / 188 | 248 / 143 |
| hex, float, AVX-512, cell | 1 | 215 / 136 | 214 / 138 | 210 / 110 |
| | 2 | 307 / 205 | 421 / 273 | 412 / 222 |
| general, float, AVX2 | 1 | 117 / 88 | 115 / 82 | 100 / 57 |
| | 2 | 189 / 135 | 209 / 146 | 206 / 128 |
| general, **double**, AVX-512 | 1 | 62 / 54 | 54 / 45 | 45 / 35 |
| | 2 | 101 / 86 | 114 / 96 | 90 / 72 |
| general, float, portable | 1 | 56 / 48 | 56 / 46 | 55 / 39 |
| | 2 | 93 / 77 | 97 / 77 | 101 / 77 |
""",
    "perf-scenes": r"""
| scene | double, 1 thread | float, 1 thread | double, 2 threads | float, 2 threads |
|---|---|---|---|---|
| stretch, ν = 0.45 | 0.704 | 0.399 | 0.689 | 0.400 |
| twist, first 90° | 0.209 | 0.118 | 0.165 | 0.109 |
""",
    "perf-workers": r"""
| solver | one worker below | 2 workers against 1 |
|---|---|---|
| XPBD | 8,193 tets | a body of more than 8,192 tets is cut into slabs that two workers sweep at once; a smaller one shares each colour between them, too few blocks to pay for the hand-overs. `bench_workers xpbd C 2 60 5`, median of 5 pairs: 0.90× at 3,072 tets, 0.94× at 4,374, 1.06× at 6,000, 1.02× at 7,986, 0.63× at 10,368; the default demo (8,832 tets, whole `isochor run` processes) 0.66× |
| incompressible | 7,000 tets | `bench_workers incompressible C 2 10 3`, median of 3 pairs: 0.99× at 1,296 tets, 1.00× at 3,072, 1.05× at 4,374, 1.14× at 6,000, 0.83× at 7,986, 0.84× at 16,464 |
| Newton, quasistatic | never | the Newton iterations run on one thread |
| rods | 2,000 segments | the pill searches run in parallel: a bundle piling up on a floor (`bench_workers rods C 2 30`, busy machine, whole processes) 1.36× at 720 segments, 1.15× at 1,280, 0.74× at 2,000 |
""",
    "perf-projection": r"""
| | sequential, 1 worker | coupled, 1 worker | sequential, 2 workers | coupled, 2 workers |
|---|---|---|---|---|
| float | 82–88 / 50–56 | 71–74 / 44–45 | 141–160 / 89–91 | 140–146 / 91–99 |
| double | 29–30 / 24–25 | 30 / 25 | 47–52 / 39–43 | 51–53 / 43–45 |
""",
    "perf-kernel-time": r"""
| kernel | one lane | portable | AVX2 | AVX-512 |
|---|---|---|---|---|
| general, float, greedy | 102 | 41–44 | 20.3–21.3 | 15.3–15.7 |
| hex, float, cell | 125 | 31 | 14.6 | 11.35 |
| general, double, greedy | 181 | 101 | 50.3 | 43.8 |
| hex, double, cell | 204 | 93 | 45.5 | 31.7 |
""",
}
