"""The README and docs/ tell the truth: their console examples are the program's real output,
the flags they name exist in each command's --help, the defaults they state agree with --help,
their links lead somewhere, and the batch's Python example (docs/batch.md) runs as a saved script.

The examples are run exactly as ``docs/make_docs.py`` runs them (it writes them); after a change
that alters an output, ``python docs/make_docs.py --examples`` brings the documents up to date.
"""

from __future__ import annotations

import contextlib
import io
import re
from functools import cache
from pathlib import Path

import pytest

from .helpers import make_docs

ROOT = Path(__file__).resolve().parent.parent


README = ROOT / "README.md"
PARTS = list(make_docs.parts())
RUN = [p for p in PARTS if p.kind in ("example", "output")]
RUN_PARAMS = [pytest.param(p, marks=[pytest.mark.slow] if p.slow else []) for p in RUN]
STATIC = [p for p in PARTS if p.kind in ("include", "figures")]


def _id(part) -> str:
    return f"{part.path.name}:{part.arg[:60]}"


def test_the_documents_have_examples():
    names = {p.path.name for p in RUN}
    assert {"README.md", "scorekeeper.md", "batch.md", "layouts.md"} <= names
    commands = {p.arg.split()[1] for p in RUN if p.path == README and p.arg.startswith("sliders")}
    # an example for the commands a newcomer starts with in the README itself, and one for each
    # command of the "which command" table somewhere in the documents
    assert {"score", "shot", "render", "batch", "layouts"} <= commands
    everywhere = {p.arg.split()[1] for p in RUN if p.arg.startswith("sliders")}
    assert {"score", "shot", "render", "params", "batch", "layouts"} <= everywhere


@pytest.mark.parametrize("part", RUN_PARAMS, ids=_id)
def test_console_example_is_the_real_output(part):
    assert part.normalise(part.body) == part.normalise(part.expected()), (
        f"{part.path.name}: the output of `{part.arg}` changed; "
        "run python docs/make_docs.py --examples"
    )


@pytest.mark.parametrize("part", STATIC, ids=_id)
def test_included_files_and_figure_commands_are_current(part):
    assert part.body == part.expected()


def test_normalise_hides_only_timings():
    line = "10,200 shots in 3.7 s (2,746 shots/s, 2 workers, local)"
    assert make_docs.normalise(line) == make_docs.normalise(
        "10,200 shots in 12.0 s (850 shots/s, 1 worker, local)"
    )
    assert make_docs.normalise(line) != make_docs.normalise(
        "10,100 shots in 3.7 s (2,746 shots/s, 2 workers, local)"
    )
    settled = "south-1 slid at 0.6 m/s, 0°, offset 0 m on race-for-home; settled after 1.233 s"
    assert make_docs.normalise(settled) == settled  # simulated time is a result, not a timing


def test_filling_a_marker_replaces_only_its_body():
    text = "a\n<!-- include: docs/layouts/example.toml -->\nold\n<!-- /include -->\nb\n"
    filled = make_docs.fill(text)
    body = (ROOT / "docs/layouts/example.toml").read_text()
    assert (
        filled
        == f"a\n<!-- include: docs/layouts/example.toml -->\n```toml\n{body}```\n<!-- /include -->\nb\n"
    )
    assert make_docs.fill(filled) == filled


# --- the install commands ------------------------------------------------------------------------


def test_ci_runs_the_readme_test_command_verbatim():
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(), re.S)
    play = next(b for b in blocks if b.startswith("# play"))
    test = next(b for b in blocks if b.startswith("# test"))
    assert play.splitlines()[1] == (
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/sliders play"
    )
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test.splitlines()[1] in ci


def test_readme_says_how_to_use_the_environment_and_which_python():
    text = README.read_text()
    head = text[: text.index("## Your first game")]
    assert "source .venv/bin/activate" in head and ".venv/bin/sliders" in head
    assert "Python 3.11" in head
    assert 'requires-python = ">=3.11"' in (ROOT / "pyproject.toml").read_text()


# --- --help and the documents --------------------------------------------------------------------


@cache
def help_text(command: str) -> str:
    from sliders.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([command, "--help"] if command else ["--help"]) == 0
    return " ".join(out.getvalue().split())


@cache
def commands() -> tuple[str, ...]:
    import argparse

    from sliders.cli import build_parser

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return tuple(action.choices)
    raise AssertionError("sliders has no commands")


def help_flags(command: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", help_text(command)))


SECTIONS = {
    "Play": "play",
    "Score a game on the physical board": "score",
    "Simulate a shot": "shot",
    "Draw a table": "render",
    "Physics parameters": "params",
    "Study shots": "batch",
    "Computer players and your own": "tournament",
}
"""README sections about one command: every flag named in them is that command's"""

DOCS = {
    "play.md": "play",
    "scorekeeper.md": "score",
    "batch.md": "batch",
    "shot.md": "shot",
    "calibration.md": "calibrate",
}
"""docs about one command"""

MISTAKES = {"--spee"}
"""flags the documents name as examples of what is refused"""

FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def flag_claims(path: Path, command: str | None) -> list[tuple[str | None, str, str]]:
    """(command, flag, where) for every flag the file names: a flag in a code span or a command
    line that names ``sliders X`` is X's; any other is the section's (or the file's) command's,
    or, where none is known, must be some command's."""
    claims = []
    text = re.sub(r"^<!-- .*? -->$", "", path.read_text(), flags=re.M)  # markers, not spans
    current = command
    block: list[str] | None = None
    pending = ""  # a code span may run across a line break: carry it to the next line
    for line in text.splitlines():
        if line.startswith("```"):
            if block is not None:
                claims += _block_claims(block, path)
            block = None if block is not None else []
            continue
        if block is not None:
            block.append(line)
            continue
        heading = re.match(r"#{2,3} (.*)", line)
        if heading and path == README:
            current = SECTIONS.get(heading[1].strip())
        line = pending + line
        pending = ""
        if line.count("`") % 2:
            pending = line + " "
            continue
        claims += _prose_claims(line, current, path)
    return claims


def _prose_claims(line: str, current: str | None, path: Path) -> list[tuple[str | None, str, str]]:
    claims = []
    rest = line
    for span in re.findall(r"`([^`]+)`", line):
        owner = _owner(span)
        if owner:
            if owner != "skip":
                claims += [(owner, f, f"{path.name}: {line}") for f in FLAG.findall(span)]
            rest = rest.replace(f"`{span}`", "")
    claims += [(current, f, f"{path.name}: {line}") for f in FLAG.findall(rest)]
    return claims


def _block_claims(lines: list[str], path: Path) -> list[tuple[str | None, str, str]]:
    claims = []
    owner = None
    continued = False
    console = any(line.startswith("$ ") for line in lines)  # else a script of commands
    for line in lines:
        typed = line[2:] if line.startswith("$ ") else line
        if continued or (line.startswith("$ ") if console else typed.startswith("sliders ")):
            if not continued:
                owner = _owner(typed)
            if owner and owner != "skip":
                claims += [(owner, f, f"{path.name}: {line}") for f in FLAG.findall(typed)]
            continued = line.rstrip().endswith("\\")
    return claims


def _owner(text: str) -> str | None:
    if "python" in text or ".py" in text or "pip " in text or "pytest" in text:
        return "skip"  # a script's, pip's or pytest's own flags
    m = re.search(r"\bsliders ([a-z]+)", text)
    return m[1] if m and m[1] in commands() else None


def all_claims():
    out = flag_claims(README, None)
    for path in sorted((ROOT / "docs").glob("*.md")):
        out += flag_claims(path, DOCS.get(path.name))
    return out


def test_every_flag_the_documents_name_is_in_its_commands_help():
    wrong = []
    every = set().union(*(help_flags(c) for c in commands())) | {"--help", "--version"}
    for command, flag, where in all_claims():
        if flag in MISTAKES:
            continue
        known = help_flags(command) if command else every
        if flag not in known:
            wrong.append(f"{flag} ({command or 'any command'}) in {where.strip()}")
    assert not wrong, "\n".join(wrong)


def test_every_flag_of_every_command_is_documented():
    text = "\n".join(p.read_text() for p in make_docs.markdown_files())
    missing = [
        f"sliders {c} {f}"
        for c in commands()
        for f in sorted(help_flags(c) - {"--help"})
        if not re.search(rf"{f}(?![\w-])", text)
    ]
    assert not missing, "documented nowhere: " + ", ".join(missing)


def test_the_flag_check_sees_flags():
    claims = all_claims()
    assert any(c == "batch" and f == "--resume" for c, f, _ in claims)
    assert any(c == "shot" and f == "--save-scene" for c, f, _ in claims)
    assert any(c == "score" and f == "--boards" for c, f, _ in claims)
    assert any(c == "play" and f == "--control" for c, f, _ in claims)


def test_every_command_is_in_the_which_command_table():
    text = README.read_text()
    table = text[text.index("## Which command do I want?") : text.index("## Play")]
    named = set(re.findall(r"`sliders ([a-z]+)`", table))
    assert named == set(commands())


def test_what_skips_the_setup_screen_agrees_with_help():
    text = " ".join(README.read_text().split())
    readme = next(s for s in re.split(r"(?<=\.) ", text) if "skips the setup screen" in s)
    helped = next(s for s in re.split(r"(?<=\.) ", help_text("play")) if "skip it" in s)
    assert set(FLAG.findall(readme)) == set(FLAG.findall(helped.split("e.g.")[0]))
    assert set(FLAG.findall(readme)) >= {"--face", "--layout", "--seats"}


def _face_default(command: str) -> str:
    m = re.search(r"--face \{[^}]*\} the game \(default: ([^)]*)\)", help_text(command))
    assert m, command
    return m[1]


def test_the_default_face_agrees_with_help_and_with_what_happens(tmp_path):
    """A layout file's own face: the documents, --help and the program say the same."""
    formats = " ".join((ROOT / "docs" / "formats.md").read_text().split())
    m = re.search(
        r"((?:`sliders \w+`|`\w+`)(?:, `\w+`)*(?: and `\w+`)?) play a layout on its own face",
        formats,
    )
    assert m, "docs/formats.md says which commands play a layout on its own face"
    own = {c.replace("sliders ", "") for c in re.findall(r"`([\w ]+)`", m[1])}
    for command in ("shot", "render", "batch", "play"):
        said_own = command in own
        helped_own = "layout" in _face_default(command)
        assert said_own == helped_own, command
    readme = " ".join(README.read_text().split())
    assert "(default: the layout's own face, race-for-home on the built-in layouts)" in readme
    assert "layout" in _face_default("shot")
    # and the program: the example layout file's face is danger-dots
    from sliders.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert (
            main(["shot", "--layout", str(ROOT / "docs/layouts/example.toml"), "--speed", "0.6"])
            == 0
        )
    assert "on danger-dots;" in out.getvalue()


def test_stated_defaults_agree_with_help():
    """``--flag …` … (default `X`)`` in the README: the command's --help says X too."""
    text = " ".join(README.read_text().split())
    checked = 0
    for section, body in re.findall(r"## ([^#]+?) (.*?)(?= ## |$)", text):
        command = SECTIONS.get(section.strip())
        if not command:
            continue
        for flag, value in re.findall(
            r"`(--[\w-]+)[^`]*`[^.;`]*?\(default:? `?([\w.-]+)`?\)", body
        ):
            assert flag in help_flags(command)
            h = help_text(command)
            at = h.index(f" {flag} ", h.index("options:"))
            assert f"default: {value}" in h[at : at + 300], (command, flag, value)
            checked += 1
    assert checked >= 1


# --- links ----------------------------------------------------------------------------------------


def test_links_lead_somewhere_and_every_doc_is_reachable():
    broken = []
    linked: set[Path] = set()
    for path in make_docs.markdown_files():
        text = path.read_text()
        for target in re.findall(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"", text):
            target = next(t for t in target if t)
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists():
                broken.append(f"{path.name}: {target}")
                continue
            linked.add(dest)
            if anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{path.name}: {target} (no such heading)")
    assert not broken, "\n".join(broken)
    for doc in (ROOT / "docs").glob("*.md"):
        assert doc.resolve() in linked, f"{doc.name} is not linked from the README or docs"


def _anchors(path: Path) -> set[str]:
    text = path.read_text()
    anchors = set(re.findall(r'<a id="([^"]+)">', text))
    for heading in re.findall(r"^#+ (.*)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchors.add(slug)
    return anchors


_NOUNS = ("track", "shot", "slide", "pawn", "game", "round", "frame", "worker", "point", "second",
          "step", "attempt", "collision", "seat", "player", "pairing", "contact", "row", "file",
          "hand", "drill", "win", "loss", "draw", "penalty", "move", "space", "turn", "room",
          "crossing", "sample", "tie", "line", "chunk", "event")  # fmt: skip


def _plural(noun: str) -> str:
    return noun[:-1] + "ies" if noun.endswith("y") else noun + "s"


_ONE = re.compile(r"(?<![\d.,/:#])\b1 (" + "|".join(map(_plural, _NOUNS)) + r")\b")
_MANY = re.compile(
    r"(?<![\d.,/:#])\b(0|[2-9]|[1-9]\d+|\d{1,3}(?:,\d{3})+) (" + "|".join(_NOUNS) + r")\b(?![-'])"
)


def test_the_numbers_commands_print_agree_with_their_nouns():
    """Every count a command prints in the documents' examples (their real output, compared
    above) reads as English: ``1 track``, ``6 slides``, never ``1 tracks`` or ``6 slide``."""
    wrong = [
        f"{p.path.name}: {m.group(0)!r} in {line.strip()[:80]!r}"
        for p in RUN
        for line in p.body.splitlines()
        for m in (*_ONE.finditer(line), *_MANY.finditer(line))
    ]
    assert not wrong, wrong
    assert _ONE.search("slide01.mp4: 103 frames at 60 fps, 1 tracks")
    assert _MANY.search("fitted from slides.csv: 6 slide, 3 collision")
    assert not _MANY.search("red#4 track 0") and not _ONE.search("1 track, 2 shots")
