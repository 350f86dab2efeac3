"""Regenerate every example output and every figure in the README and in docs/, and find every
documented command for the tests that run them (the conventions: docs/contributing.md).

    python docs/make_docs.py                 # examples and every figure (--quick: see below)
    python docs/make_docs.py --examples      # only the console examples and included files
    python docs/make_docs.py --check         # change nothing; exit 1 if an example is stale
    python docs/make_docs.py --group batch   # the examples and one group of figures

The Markdown files hold their generated parts between marker comments, which stay in place:

- ``<!-- example: sliders shot --speed 0.6 -->`` … ``<!-- /example -->``: the command is run and a
  ``console`` block shows it with its output (standard output and standard error, as a terminal
  shows them). ``< FILE`` at the end feeds FILE to standard input; commands joined by `` && ``
  run one after the other in the same folder, each shown with its output.
- ``<!-- output: python benchmarks/layout_study.py -->`` … ``<!-- /output -->``: the command's
  output as it is, for commands that print Markdown (a table).
- ``<!-- include: docs/layouts/example.toml -->`` … ``<!-- /include -->``: a file shown whole.
- ``<!-- figures: batch -->`` … ``<!-- /figures -->``: the commands that draw a group of figures
  (listed in ``FIGURES`` below), shown as a ``bash`` block.

A comment on the line(s) just above a code block (or above its marker) says how the tests treat
it: ``<!-- slow -->`` (run only with ``pytest --slow``), ``<!-- varies: REGEX -->`` (text of the
output matching REGEX differs from machine to machine and is not compared), ``<!-- not run:
REASON -->`` (never run, for the reason given). Every other ``bash``/``sh``/``console`` block and
every ``python`` block is run by ``tests/test_doc_blocks.py``; ``json`` and ``toml`` blocks are
parsed.

Commands run in a fresh temporary folder in which ``docs``, ``examples`` and ``benchmarks`` are
links to this tree's, so files an example writes elsewhere are thrown away and figures land in
``docs/``. ``tests/test_readme.py`` runs the same examples and compares them with the Markdown.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINKED = ("docs", "examples", "benchmarks")
"""the folders of this tree an example sees from its temporary working folder"""

FACES = ("race-for-home", "instant-home", "instant-sorry", "danger-dots")
FOUR = "south,west,north,east"
BATCH_GRID = "--seat south --speed 0.4:1.1:15 --angle -8:8:17 --samples 40 --noise medium --seed 1"

FIGURES: dict[str, list[str]] = {
    "faces": [
        *(
            f"sliders render --face {f} --seats {FOUR} --dpi 80 --out docs/faces/{f}.png"
            for f in FACES
        ),
        "sliders shot --scene docs/batch/three-near-centre.json --speed 0.8 --angle 1"
        " --png docs/faces/shot.png",
    ],
    "layouts": [
        "sliders render --layout square --seats south,west,north --dpi 100 --out docs/layouts/square.png",
        "sliders render --layout crazy-corner --dpi 100 --out docs/layouts/crazy-corner.png",
        "sliders render --layout head-to-head --dpi 100 --out docs/layouts/head-to-head.png",
        "sliders render --layout triple-track --dpi 100 --out docs/layouts/triple-track.png",
        "sliders render --layout quadruple-track --dpi 100 --out docs/layouts/quadruple-track.png",
        "sliders render --layout solo --face instant-home --dpi 100 --out docs/layouts/solo.png",
    ],
    "batch": [
        f"sliders batch {BATCH_GRID} --quiet --out empty.parquet"
        " --heatmap docs/batch/heatmap-empty.png",
        f"sliders batch --scene docs/batch/three-near-centre.json {BATCH_GRID} --quiet"
        " --out three.parquet --heatmap docs/batch/heatmap-three-near-centre.png"
        " --board docs/batch/board-three-near-centre.png",
    ],
    "strategy": [
        "sliders batch --face instant-home --speed 0.5:0.7:5 --angle -2:2:3 --samples 40 --seed 1"
        " --quiet --out ih.parquet --heatmap docs/strategy/instant-home-value.png"
        " --line docs/strategy/instant-home-line.png",
        "sliders best --scene docs/strategy/takeout.json --score-board south=3,2,0,0"
        " --score-board north=4,4,1,0 --seed 1 --engine exact --board docs/strategy/best-takeout.png",
    ],
    "screens": ["python docs/screens/make_screens.py docs/screens"],
}
"""every figure, by group; each command runs in the temporary folder (see the module's text)"""

VARIABLE: list[tuple[re.Pattern[str], str]] = [
    # sliders batch: "10,200 shots in 3.7 s (2,746 shots/s, 2 workers, local)"
    (
        re.compile(r"^([\d,]+ shots) in [\d.]+ s \([\d,]+ shots/s, \d+ workers?, "),
        r"\1 in T s (R, W, ",
    ),
    # sliders batch's progress bar: "... 600/600 shots  1,697 shots/s  done in 0:00:00"
    (re.compile(r"  [\d,]+ shots/s  done in [\d:]+$"), "  R  done in T"),
    # benchmarks/layout_study.py: "...empty table; 1.7 s (1.1 ms a shot)"
    (re.compile(r"; [\d.]+ s \([\d.]+ ms a shot\)$"), "; T s (T a shot)"),
]
"""what legitimately differs from run to run: elapsed time, rates, the number of processors"""

MARKER = re.compile(
    r"<!-- (?P<kind>example|output|include|figures): (?P<arg>.*?) -->\n(?P<body>.*?)<!-- /(?P=kind) -->",
    re.S,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", action="store_true", help="skip the figures")
    parser.add_argument("--check", action="store_true", help="change nothing; report stale parts")
    parser.add_argument(
        "--group", action="append", choices=list(FIGURES), help="draw only this group of figures"
    )
    args = parser.parse_args(argv)
    stale = []
    for path in markdown_files():
        text = path.read_text(encoding="utf-8")
        new = fill(text)
        if normalise(new) != normalise(text):
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
                print(f"updated {path.relative_to(ROOT)}")
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    failed = 0
    if not args.examples:
        for group, commands in FIGURES.items():
            if args.group and group not in args.group:
                continue
            for command in commands:
                print(f"{group}: {command}", flush=True)
                result = run(command)
                if result.returncode != 0:  # say so, and go on with the other figures
                    print(f"failed: {command}\n{result.output}", file=sys.stderr)
                    failed += 1
    return 1 if failed else 0


def markdown_files() -> list[Path]:
    """The README and every Markdown file in docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Part:
    """One generated part of a Markdown file."""

    path: Path
    kind: str
    arg: str
    body: str
    tags: tuple[str, ...] = ()

    def expected(self) -> str:
        """What the part should hold now (runs the example's command)."""
        return render(self.kind, self.arg)

    @property
    def slow(self) -> bool:
        return "slow" in self.tags

    def normalise(self, text: str) -> str:
        """``text`` with what varies from run to run hidden, this part's ``varies`` too."""
        return normalise(text, varies(self.tags))


def parts(paths: list[Path] | None = None) -> Iterator[Part]:
    for path in paths or markdown_files():
        text = path.read_text(encoding="utf-8")
        for m in MARKER.finditer(text):
            yield Part(path, m["kind"], m["arg"], m["body"], tags_above(text, m.start()))


TAG = re.compile(r"<!-- (slow|not run: .+|varies: .+) -->")
"""a comment just above a code block or its marker: how the tests treat the block"""

FENCE = re.compile(r"^```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)

RUN_LANGS = ("bash", "sh", "shell", "console", "python")
"""the code blocks that are run; ``json`` and ``toml`` are parsed; the others are shown only"""


def tags_above(text: str, start: int) -> tuple[str, ...]:
    """The tag comments on the lines just above offset ``start`` (the start of a line)."""
    lines = text[:start].splitlines()
    tags: list[str] = []
    while lines and (m := TAG.fullmatch(lines[-1].strip())):
        tags.insert(0, m[1])
        lines.pop()
    return tuple(tags)


def varies(tags: tuple[str, ...]) -> list[re.Pattern[str]]:
    return [re.compile(t.removeprefix("varies: ")) for t in tags if t.startswith("varies: ")]


@dataclass(frozen=True)
class Block:
    """One fenced code block of a Markdown file."""

    path: Path
    line: int
    lang: str
    body: str
    part: str | None
    """the kind of generated part it is in (example, output, include, figures), or None"""
    tags: tuple[str, ...]

    @property
    def slow(self) -> bool:
        return "slow" in self.tags

    @property
    def not_run(self) -> str | None:
        """Why the block is never run, or None."""
        return next(
            (t.removeprefix("not run: ") for t in self.tags if t.startswith("not run")), None
        )

    @property
    def name(self) -> str:
        path = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path.name
        return f"{path}:{self.line}"

    def commands(self) -> list[str]:
        """A shell block's commands: continuation lines joined, comments and blank lines dropped."""
        out: list[str] = []
        carry = ""
        for raw in self.body.splitlines():
            line = carry + raw
            if line.rstrip().endswith("\\"):
                carry = line.rstrip()[:-1] + " "
                continue
            carry = ""
            words = shlex.split(line, comments=True)
            if words:
                out.append(shlex.join(words))
        return out


def blocks(paths: list[Path] | None = None) -> Iterator[Block]:
    """Every fenced code block of the README and docs/*.md."""
    for path in paths or markdown_files():
        text = path.read_text(encoding="utf-8")
        spans = [(m.start(), m.end(), m["kind"], m.start()) for m in MARKER.finditer(text)]
        for m in FENCE.finditer(text):
            inside = next((s for s in spans if s[0] < m.start() < s[1]), None)
            above = tags_above(text, inside[3] if inside else m.start())
            yield Block(
                path,
                text.count("\n", 0, m.start()) + 1,
                m["lang"],
                m["body"],
                inside[2] if inside else None,
                above,
            )


def fill(text: str) -> str:
    """The text with every marked part regenerated."""

    def one(m: re.Match[str]) -> str:
        body = render(m["kind"], m["arg"])
        return f"<!-- {m['kind']}: {m['arg']} -->\n{body}<!-- /{m['kind']} -->"

    return MARKER.sub(one, text)


def render(kind: str, arg: str) -> str:
    if kind == "include":
        path = ROOT / arg
        lang = {".toml": "toml", ".json": "json", ".py": "python"}.get(path.suffix, "text")
        return f"```{lang}\n{path.read_text(encoding='utf-8')}```\n"
    if kind == "figures":
        return "```bash\n" + "".join(f"{shown(c)}\n" for c in FIGURES[arg]) + "```\n"
    if kind == "output":
        result = run(arg)
        if result.returncode != 0:
            raise RuntimeError(f"{arg}: exit status {result.returncode}\n{result.output}")
        return result.output
    commands = arg.split(" && ")
    results = run_all(commands)
    shown_ = "".join(f"$ {shown(c)}\n{r.output}" for c, r in zip(commands, results, strict=True))
    return f"```console\n{shown_}```\n"


def shown(command: str, width: int = 96) -> str:
    """A command as a reader would type it, broken with backslashes before a flag to fit ``width``."""
    groups: list[str] = []
    for word in command.split(" "):
        if groups and not word.startswith("-") and word != "<":
            groups[-1] += " " + word
        else:
            groups.append(word)
    lines, line = [], ""
    for group in groups:
        if line and len(line) + 1 + len(group) > width - 2:
            lines.append(line + " \\")
            line = "    " + group
        else:
            line = f"{line} {group}" if line else group
    return "\n".join([*lines, line])


@dataclass(frozen=True)
class Result:
    returncode: int
    output: str


def run(command: str) -> Result:
    """Run one documented command in a fresh folder; standard output and error as one stream."""
    return run_all([command])[0]


def run_all(commands: list[str], folder: str | None = None) -> list[Result]:
    """Run documented commands one after another in one fresh folder (or in ``folder``)."""
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="sliders-docs-") as fresh:
            for name in LINKED:
                os.symlink(ROOT / name, Path(fresh) / name)
            return run_all(commands, fresh)
    return [_run_one(c, folder) for c in commands]


def _run_one(command: str, folder: str) -> Result:
    words = shlex.split(command)
    stdin = None
    stdout: Path | None = None
    if len(words) >= 2 and words[-2] == "<":
        stdin = (Path(folder) / words[-1]).read_bytes()
        words = words[:-2]
    elif len(words) >= 2 and words[-2] == ">":  # standard output to a file; the rest is shown
        stdout = Path(folder) / words[-1]
        words = words[:-2]
    if words[0] == "sliders":
        code = _PLAY if words[1:2] in (["play"], ["practice"]) else _SLIDERS
        argv = [sys.executable, "-c", code, *words[1:]]
    elif words[0] == "python":
        argv = [sys.executable, *words[1:]]
    else:
        raise ValueError(f"{command}: a documented command starts with 'sliders' or 'python'")
    env = dict(
        os.environ,
        PYTHONUNBUFFERED="1",
        COLUMNS="80",
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        MPLBACKEND="Agg",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        XDG_DATA_HOME=str(Path(folder) / "data"),  # drills and hands kept in the fresh folder
    )
    done = subprocess.run(
        argv,
        cwd=folder,
        input=stdin if stdin is not None else b"",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stdout else subprocess.STDOUT,
        env=env,
        timeout=1800,
    )
    if stdout is not None:
        stdout.write_bytes(done.stdout)
        return Result(done.returncode, done.stderr.decode("utf-8"))
    return Result(done.returncode, done.stdout.decode("utf-8"))


_SLIDERS = "import sys; sys.argv[0] = 'sliders'; from sliders.cli import main; sys.exit(main())"
PLAY_FRAMES = 30
_PLAY = (
    "import sys; sys.argv[0] = 'sliders'; from sliders.scenes import app; "
    f"app.App.run = lambda self: [self.step(1 / 60) for _ in range({PLAY_FRAMES})] and 0; "
    "from sliders.cli import main; sys.exit(main())"
)
"""``sliders play`` and ``sliders practice`` as documented, on the dummy video driver, quitting
after a few frames"""


def normalise(text: str, more: list[re.Pattern[str]] | None = None) -> str:
    """The text with what legitimately varies from run to run replaced (see ``VARIABLE``; ``more``:
    a block's ``varies`` patterns), and without the one-off note of the engine's first compile."""
    out = []
    for line in text.splitlines():
        if line.startswith(COMPILE_NOTES):
            continue
        for pattern, replacement in VARIABLE:
            line = pattern.sub(replacement, line)
        for pattern in more or ():
            line = pattern.sub("…", line)
        out.append(line)
    return "\n".join(out)


COMPILE_NOTES = ("sliders: preparing the physics engine", "sliders: compiled the exact physics")
"""the lines a command prints only on the machine's first use of the exact engine"""


if __name__ == "__main__":
    sys.exit(main())
