#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reruns the experiments behind the published figures, stores them under bench/results/ and
fills the generated tables of the docs from those files (`make results`).

    tools/results/run.py                  rerun everything, rewrite the files and the tables
    tools/results/run.py --quick          rerun the quick sources only (a minute or two)
    tools/results/run.py --quick --check  rerun the quick sources and compare, write nothing:
                                          fails when a figure moved beyond its tolerance, when
                                          a page's tables differ from the files, or when a
                                          table of docs/results.md is not generated
    tools/results/run.py --tables         refill the tables from the stored files only
    tools/results/run.py --list           the sections and their sources (--section S and
                                          --source NAME rerun a part)

A page quotes a figure in its prose as <!--f SECTION/ID-->VALUE<!--/f-->; a section lists
the pages other than DOC that do so in PAGES.

Sections are the modules beside this file (manifest.py says what they define)."""

import argparse
import fcntl
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from manifest import within_tolerance

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RESULTS_DIR = os.path.join(ROOT, "bench", "results")
# Pages whose every table must be generated (the check lists any that is not).
STRICT_PAGES = ["docs/results.md"]
BLOCK = re.compile(
    r"(<!-- generated table ([^\s:]+):? [^\n]*-->\n)(.*?)(<!-- end generated table -->)", re.DOTALL)
FIELD = re.compile(r"\{\{([^{}]+)\}\}")
# A figure quoted in a page's prose: <!--f SECTION/ID-->1454<!--/f--> (the comments do not show).
INLINE = re.compile(r"<!--f (\S+?)/(\S+?)-->(.*?)<!--/f-->")


def load_sections(names):
    sections = []
    for file in sorted(os.listdir(HERE)):
        if not file.endswith(".py") or file in ("manifest.py", "run.py"):
            continue
        spec = importlib.util.spec_from_file_location(file[:-3], os.path.join(HERE, file))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if names and module.SECTION not in names:
            continue
        ids = [f.id for f in module.FIGURES]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            sys.exit(f"{file}: figure ids defined twice: {', '.join(duplicates)}")
        for f in module.FIGURES:
            if f.source not in module.SOURCES:
                sys.exit(f"{file}: figure {f.id} reads source '{f.source}', which is not defined")
        sections.append(module)
    if names and len(sections) != len(set(names)):
        sys.exit(f"unknown section among {', '.join(names)}")
    return sections


def tsv_path(section):
    return os.path.join(RESULTS_DIR, section.SECTION + ".tsv")


def read_tsv(section):
    """{id: (display, raw, command)} stored for the section, empty if there is no file."""
    rows = {}
    path = tsv_path(section)
    if not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) != 4:
                sys.exit(f"{path}:{number}: expected 4 tab-separated cells, found {len(cells)}")
            rows[cells[0]] = (cells[1], cells[2], cells[3])
    return rows


def write_atomically(path, text):
    directory = os.path.dirname(path)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".results-")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, path)


def write_tsv(section, rows):
    lines = ["# id\tvalue as the docs show it\traw value as the command printed it\tcommand\n"]
    for figure in section.FIGURES:
        if figure.id in rows:
            display, raw, command = rows[figure.id]
            lines.append(f"{figure.id}\t{display}\t{raw}\t{command}\n")
    write_atomically(tsv_path(section), "".join(lines))


def run_source(name, source, build):
    scratch = tempfile.mkdtemp(prefix="isochor-results-")
    command = source.command.format(build=build, tmp=scratch)
    started = time.monotonic()
    print(f"  {name}: {command}", flush=True)
    done = subprocess.run(command, shell=True, cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace")
    shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        tail = "\n".join(done.stdout.splitlines()[-15:])
        raise RuntimeError(f"'{command}' exited with {done.returncode} after {seconds:.0f} s:\n{tail}")
    print(f"    {seconds:.1f} s", flush=True)
    # The stored command names the build folder as the docs do.
    return done.stdout, source.command.format(build="build", tmp="DIR")


def rerun(section, build, quick, only, problems):
    """Reruns the section's sources (the quick ones when `quick`, those named in `only` when it
    is not empty): {id: (display, raw, command)}."""
    fresh = {}
    for name, source in section.SOURCES.items():
        if (quick and not source.quick) or (only and name not in only):
            continue
        try:
            output, command = run_source(name, source, build)
        except RuntimeError as error:
            problems.append(f"{section.SECTION}: source {name}: {error}")
            continue
        for figure in section.FIGURES:
            if figure.source != name:
                continue
            raw = figure.read(output)
            if raw is None:
                problems.append(f"{section.SECTION}: {figure.id}: /{figure.pattern}/ not found in "
                                f"the output of '{command}'")
                continue
            fresh[figure.id] = (figure.display(raw), raw, command)
    return fresh


def compare(section, stored, fresh, problems):
    figures = {f.id: f for f in section.FIGURES}
    timing = {n for n, s in section.SOURCES.items() if s.timing}
    for id, (display, raw, command) in fresh.items():
        if figures[id].source in timing:
            continue
        if id not in stored:
            problems.append(f"{section.SECTION}: {id} = {display} is not in {tsv_path(section)}")
            continue
        ok, allowance = within_tolerance(figures[id], stored[id][1], stored[id][0], raw)
        if not ok:
            problems.append(f"{section.SECTION}: {id} moved from {stored[id][1]} to {raw} "
                            f"(tolerance: {allowance}; '{command}')")


def fill(template, rows, where, problems):
    def value(match):
        id = match.group(1).strip()
        if id not in rows:
            problems.append(f"{where}: {{{{{id}}}}} has no stored figure")
            return "?"
        return rows[id][0]

    return FIELD.sub(value, template.lstrip("\n"))


def render_page(text, page, tables, rows, problems, complete):
    """The page with every generated block and inline figure refilled; `tables` maps a table
    name to its text, `rows` a section to its stored figures."""
    seen = set()

    def replace(match):
        name = match.group(2)
        if name not in tables:
            if complete:
                problems.append(f"{page}: generated table '{name}' is defined by no section")
            return match.group(0)
        seen.add(name)
        return match.group(1) + tables[name] + match.group(4)

    result = BLOCK.sub(replace, text)

    def inline(match):
        section, id = match.group(1), match.group(2)
        if section not in rows:
            return match.group(0)  # a section this run does not cover
        if id not in rows[section]:
            problems.append(f"{page}: inline figure {section}/{id} has no stored figure")
            return match.group(0)
        return f"<!--f {section}/{id}-->{rows[section][id][0]}<!--/f-->"

    result = INLINE.sub(inline, result)
    for name in tables:
        if name not in seen:
            problems.append(f"{page}: no '<!-- generated table {name} ... -->' block for it")
    return result


def tables_outside_blocks(text, page):
    outside = BLOCK.sub("", text)
    return [f"{page}: table line not generated from bench/results: {line[:80]}"
            for line in outside.splitlines()
            if line.startswith("|") and line.rstrip().endswith("|")]


def rows_without_figures(section):
    """Rows of a strict page's table that quote no stored figure (typed-in numbers)."""
    missing = []
    for name, template in section.TABLES.items():
        lines = [l for l in template.strip().splitlines() if l.startswith("|")]
        for line in lines[2:]:
            if not FIELD.search(line):
                missing.append(f"{section.SECTION}.py table {name}: row without a figure from "
                               f"bench/results: {line[:70]}")
    return missing


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.environ.get("BUILD", "build"),
                        help="build folder holding the programs (default: build)")
    parser.add_argument("--quick", action="store_true", help="rerun only the quick sources")
    parser.add_argument("--check", action="store_true",
                        help="compare with the stored figures and the pages; write nothing")
    parser.add_argument("--tables", action="store_true",
                        help="rerun nothing; refill the tables from the stored files")
    parser.add_argument("--section", action="append", default=[],
                        help="only this section (repeatable)")
    parser.add_argument("--source", action="append", default=[],
                        help="only this source of the sections (repeatable; --list names them)")
    parser.add_argument("--list", action="store_true",
                        help="list the sections and their sources, and run nothing")
    args = parser.parse_args()
    build = os.path.relpath(os.path.abspath(args.build), ROOT)
    sections = load_sections(args.section)
    problems = []
    if args.list:
        for section in sections:
            print(f"{section.SECTION} ({section.DOC}):")
            for name, source in section.SOURCES.items():
                kind = "quick" if source.quick else ("timing" if source.timing else "full")
                print(f"  {name:28} {kind:6} {source.command}")
        return 0

    stored = {s.SECTION: read_tsv(s) for s in sections}
    rows = {}
    for section in sections:
        fresh = {}
        if not args.tables:
            print(f"{section.SECTION}:", flush=True)
            fresh = rerun(section, build, args.quick, set(args.source), problems)
        if args.check:
            compare(section, stored[section.SECTION], fresh, problems)
            rows[section.SECTION] = stored[section.SECTION]
        else:
            merged = dict(stored[section.SECTION])
            merged.update(fresh)
            known = {f.id for f in section.FIGURES}
            rows[section.SECTION] = {k: v for k, v in merged.items() if k in known}
            if fresh:
                write_tsv(section, rows[section.SECTION])

    pages = {}
    for section in sections:
        for page in [section.DOC] + list(getattr(section, "PAGES", [])):
            pages.setdefault(page, {})
        for name, template in section.TABLES.items():
            where = f"{section.SECTION}.py table {name}"
            pages.setdefault(section.DOC, {})[name] = fill(template, rows[section.SECTION], where,
                                                           problems)
    with open(os.path.join(tempfile.gettempdir(), "isochor-results.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for page, tables in pages.items():
            path = os.path.join(ROOT, page)
            with open(path, encoding="utf-8") as file:
                text = file.read()
            new = render_page(text, page, tables, rows, problems, not args.section)
            if args.check:
                if new != text:
                    problems.append(f"{page}: its generated tables differ from bench/results "
                                    f"(run tools/results/run.py --tables)")
            elif new != text and not problems:
                write_atomically(path, new)
                print(f"updated {page}")
    if args.check and not args.section:
        for page in STRICT_PAGES:
            with open(os.path.join(ROOT, page), encoding="utf-8") as file:
                problems.extend(tables_outside_blocks(file.read(), page))
        for section in sections:
            if section.DOC in STRICT_PAGES:
                problems.extend(rows_without_figures(section))

    for problem in problems:
        print(f"results: {problem}", file=sys.stderr)
    if problems:
        return 1
    count = sum(len(r) for r in rows.values())
    print(f"results: {count} figures in {len(sections)} sections "
          f"{'agree' if args.check else 'written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
