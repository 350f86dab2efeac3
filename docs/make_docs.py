"""Regenerate every example output and every figure in the README and in docs/.

    python docs/make_docs.py                 # everything (about a minute)
    python docs/make_docs.py --examples      # only the console examples and included files
    python docs/make_docs.py --check         # change nothing; exit 1 if an example is stale

The Markdown files hold their generated parts between marker comments, which stay in place:

- ``<!-- example: sliders shot --speed 0.6 -->`` … ``<!-- /example -->``: the command is run and a
  ``console`` block shows it with its output (standard output and standard error, as a terminal
  shows them). ``< FILE`` at the end feeds FILE to standard input.
- ``<!-- output: python benchmarks/layout_study.py -->`` … ``<!-- /output -->``: the command's
  output as it is, for commands that print Markdown (a table).
- ``<!-- include: docs/layouts/example.toml -->`` … ``<!-- /include -->``: a file shown whole.
- ``<!-- figures: batch -->`` … ``<!-- /figures -->``: the commands that draw a group of figures
  (listed in ``FIGURES`` below), shown as a ``bash`` block.

Commands run in a fresh temporary folder in which ``docs`` and ``benchmarks`` are links to this
tree's, so files an example writes elsewhere are thrown away and figures land in ``docs/``.
``tests/test_readme.py`` runs the same examples and compares them with the Markdown.
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
LINKED = ("docs", "benchmarks")
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
    "screens": ["python docs/screens/make_screens.py docs/screens"],
}
"""every figure, by group; each command runs in the temporary folder (see the module's text)"""

VARIABLE: list[tuple[re.Pattern[str], str]] = [
    # sliders batch: "10,200 shots in 3.7 s (2,746 shots/s, 2 workers, local)"
    (
        re.compile(r"^([\d,]+ shots) in [\d.]+ s \([\d,]+ shots/s, \d+ workers?, "),
        r"\1 in T s (R, W, ",
    ),
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
            for command in commands:
                print(f"{group}: {command}")
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

    def expected(self) -> str:
        """What the part should hold now (runs the example's command)."""
        return render(self.kind, self.arg)


def parts(paths: list[Path] | None = None) -> Iterator[Part]:
    for path in paths or markdown_files():
        for m in MARKER.finditer(path.read_text(encoding="utf-8")):
            yield Part(path, m["kind"], m["arg"], m["body"])


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
    result = run(arg)
    if result.returncode != 0 and kind == "output":
        raise RuntimeError(f"{arg}: exit status {result.returncode}\n{result.output}")
    if kind == "output":
        return result.output
    return f"```console\n$ {shown(arg)}\n{result.output}```\n"


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
    words = shlex.split(command)
    stdin = None
    if len(words) >= 2 and words[-2] == "<":
        stdin = (ROOT / words[-1]).read_bytes()
        words = words[:-2]
    if words[0] == "sliders":
        argv = [sys.executable, "-c", _SLIDERS, *words[1:]]
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
    )
    with tempfile.TemporaryDirectory(prefix="sliders-docs-") as folder:
        for name in LINKED:
            os.symlink(ROOT / name, Path(folder) / name)
        done = subprocess.run(
            argv,
            cwd=folder,
            input=stdin if stdin is not None else b"",
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            timeout=600,
        )
    return Result(done.returncode, done.stdout.decode("utf-8"))


_SLIDERS = "import sys; sys.argv[0] = 'sliders'; from sliders.cli import main; sys.exit(main())"


def normalise(text: str) -> str:
    """The text with what legitimately varies from run to run replaced (see ``VARIABLE``)."""
    out = []
    for line in text.splitlines():
        for pattern, replacement in VARIABLE:
            line = pattern.sub(replacement, line)
        out.append(line)
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
