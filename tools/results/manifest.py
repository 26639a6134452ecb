# SPDX-License-Identifier: MIT
"""What a section of the published figures is made of: the commands that print figures
(sources), how each figure is read from a command's output, and the tables that show them.

A section module (xpbd.py, newton.py, ...) defines
    SECTION  the name of its machine-readable file, bench/results/SECTION.tsv
    DOC      the page its tables live in, relative to the repository root
    SOURCES  {name: Source(...)}
    FIGURES  [Figure(...)]
    TABLES   {name: template}: Markdown whose {{figure.id}} fields are filled from the file.
run.py reruns the sources, writes the file and fills the tables between the page's
`<!-- generated table NAME ... -->` and `<!-- end generated table -->` lines.
"""

import re


class Source:
    """A command, run from the repository root, that prints figures.

    `{build}` stands for the build folder and `{tmp}` for a scratch folder of its own.
    `quick` sources run in the quick check (`run.py --quick`, CI); the others only in a full
    rerun. `timing` marks commands whose figures are times: they are regenerated but never
    compared, since they depend on the machine and its load."""

    def __init__(self, command, quick=False, timing=False):
        self.command = command
        self.quick = quick
        self.timing = timing


class Figure:
    """One number read from a source's output.

    `pattern` is a regular expression searched in the output (stdout and stderr together);
    its group `group` is the figure. `fmt` formats the number for the page (a Python format
    spec such as ".4f" or ",d"); without it the page shows the text as printed. `scale`
    multiplies the number before formatting (1e2 for a percentage). `tolerance` is how far a
    rerun may move it before the check fails: "rel X" (relative), "abs X" (absolute), or by
    default one unit in the last digit the page shows."""

    def __init__(self, id, source, pattern, group=1, fmt=None, scale=None, tolerance=None):
        self.id = id
        self.source = source
        self.pattern = pattern
        self.group = group
        self.fmt = fmt
        self.scale = scale
        self.tolerance = tolerance

    def read(self, output):
        """The figure's raw text in `output`, or None when the pattern does not match."""
        match = re.search(self.pattern, output, re.MULTILINE)
        return match.group(self.group) if match else None

    def display(self, raw):
        """The text the page shows for the raw value `raw`."""
        if self.fmt is None and self.scale is None:
            return raw
        value = float(raw) * (self.scale if self.scale is not None else 1.0)
        if self.fmt is None:
            return repr(value)
        if self.fmt.endswith("d"):
            value = int(round(value))
        # 3.0e-03 -> 3.0e-3 and 1e+05 -> 1e5, as the docs write exponents.
        return re.sub(r"e\+?(-?)0*([0-9])", r"e\1\2", format(value, self.fmt))


def test_source(name, quick=True):
    """One test of build/isochor_tests (tests print their figures)."""
    return Source("{build}/isochor_tests " + name, quick=quick)


def scene_source(path, options="", stats=False, quick=False):
    """`isochor run` of a scene without output files: its summary and, with `stats`, its
    `--stats` JSON after it (read keys with stat_pattern)."""
    command = f"{{build}}/isochor run {path} --no-output --quiet{options}"
    if stats:
        command += " --stats {tmp}/stats.json && cat {tmp}/stats.json"
    return Source(command, quick=quick)


def stat_pattern(key):
    """The number of a key of `isochor run --stats` JSON."""
    return rf'"{key}": ([0-9.eE+-]+)'


def last_digit_unit(text):
    """One unit in the last digit of a displayed number: "0.9595" -> 1e-4, "1,454" -> 1."""
    number = re.search(r"[0-9][0-9,]*(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?", text)
    if not number:
        return 0.0
    decimals = len(number.group(1)) if number.group(1) else 0
    exponent = int(number.group(2)) if number.group(2) else 0
    return 10.0 ** (exponent - decimals)


def within_tolerance(figure, stored_raw, stored_display, new_raw):
    """Whether a rerun's raw value is within the figure's tolerance of the stored one,
    with the allowance it used (for the message)."""
    try:
        old = float(stored_raw)
        new = float(new_raw)
    except ValueError:
        return stored_raw == new_raw, "exact text"
    scale = figure.scale if figure.scale is not None else 1.0
    if figure.tolerance:
        kind, amount = figure.tolerance.split()
        amount = float(amount)
        allowed = amount * abs(old) if kind == "rel" else amount
        return abs(new - old) <= allowed, figure.tolerance
    unit = last_digit_unit(stored_display) / abs(scale)
    return abs(new - old) <= unit * (1 + 1e-9), "one unit in the last digit shown"
