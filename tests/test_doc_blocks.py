"""Every code block of the README and docs/*.md is checked: shell commands and Python snippets run
as written (in a fresh folder that sees ``docs/``, ``examples/`` and ``benchmarks/``), ``json`` and
``toml`` blocks parse, console blocks are generated examples (compared with the program's output in
tests/test_readme.py). The conventions, and how to mark a block slow or not run:
docs/contributing.md. Blocks are found generically, so a new document's blocks are checked too.
"""

from __future__ import annotations

import json
import tempfile
import tomllib
from pathlib import Path

import pytest

from .helpers import make_docs

ROOT = Path(__file__).resolve().parent.parent


BLOCKS = list(make_docs.blocks())
SHELL = ("bash", "sh", "shell")
MAX_NOT_RUN = 8
"""blocks never run (installs, the suite itself, hours of games): few, each with its reason"""


def _param(block):
    marks = [pytest.mark.slow] if block.slow else []
    return pytest.param(block, marks=marks, id=block.name)


RUNNABLE = [
    b for b in BLOCKS if b.part is None and b.not_run is None and b.lang in (*SHELL, "python")
]


def test_every_block_is_run_compared_or_says_why_not():
    loose = [
        b.name for b in BLOCKS if b.lang == "console" and b.part != "example" and b.not_run is None
    ]
    assert not loose, (
        "console blocks outside an <!-- example: COMMAND --> marker (make the command an "
        "example, see docs/contributing.md): " + ", ".join(loose)
    )
    bare = [
        b.name
        for b in BLOCKS
        if b.lang == ""
        and any(line.split()[:1] in (["sliders"], ["python"]) for line in b.body.splitlines())
    ]
    assert not bare, (
        "commands in a fence without a language (make it bash and run it): " + ", ".join(bare)
    )
    skipped = [b for b in BLOCKS if b.not_run is not None]
    assert all(b.not_run.strip() for b in skipped)
    assert len(skipped) <= MAX_NOT_RUN, [f"{b.name}: {b.not_run}" for b in skipped]


def test_the_blocks_are_found():
    names = {b.path.name for b in BLOCKS}
    assert {"README.md", "players.md", "batch.md", "strategy.md"} <= names
    assert any(b.lang == "python" for b in RUNNABLE) and any(b.lang in SHELL for b in RUNNABLE)
    block = make_docs.Block(
        ROOT / "README.md", 1, "bash", "sliders a \\\n  --b 1  # c\n\n# d\n", None, ()
    )
    assert block.commands() == ["sliders a --b 1"]


@pytest.mark.parametrize("block", [_param(b) for b in RUNNABLE])
def test_documented_block_runs(block, tmp_path):
    for name in make_docs.LINKED:
        (tmp_path / name).symlink_to(ROOT / name)
    if block.lang == "python":
        (tmp_path / "snippet.py").write_text(block.body, encoding="utf-8")
        commands = ["python snippet.py"]
    else:
        commands = block.commands()
        assert commands, f"{block.name}: an empty shell block"
    results = make_docs.run_all(commands, str(tmp_path))
    for command, result in zip(commands, results, strict=True):
        assert result.returncode == 0, f"{block.name}: `{command}` failed:\n{result.output}"


@pytest.mark.parametrize(
    "block", [pytest.param(b, id=b.name) for b in BLOCKS if b.lang in ("json", "toml")]
)
def test_documented_data_parses(block):
    if block.lang == "json":
        try:
            data = [json.loads(block.body)]
        except json.JSONDecodeError:  # JSON Lines: one object a line
            data = [json.loads(line) for line in block.body.splitlines() if line.strip()]
    else:
        data = [tomllib.loads(block.body)]
    assert data and all(isinstance(d, dict) for d in data)


def test_tags_are_read():
    text = "a\n<!-- slow -->\n<!-- varies: \\d+ s -->\n```bash\nsliders x\n```\n"
    (block,) = _blocks_of(text)
    assert block.slow and block.not_run is None
    assert make_docs.normalise("took 12 s", make_docs.varies(block.tags)) == "took …"


def _blocks_of(text: str):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.md"
        path.write_text(text)
        return [
            make_docs.Block(b.path, b.line, b.lang, b.body, b.part, b.tags)
            for b in make_docs.blocks([path])
        ]


def test_the_documents_tournaments_can_be_run_in_any_order():
    """Two documented tournaments writing one results file would refuse each other (the file
    holds the first one's settings): each documented tournament names its own, or is the very
    same tournament, so a reader can run the examples in any order in one folder."""
    import shlex

    from sliders.cli import build_parser

    parser = build_parser()
    by_file: dict[str, set[tuple[str, ...]]] = {}
    for block in BLOCKS:
        if block.lang not in SHELL:
            continue
        for command in block.commands():
            words = shlex.split(command, comments=True)
            if words[:2] != ["sliders", "tournament"]:
                continue
            args = parser.parse_args(words[1:])
            settings = tuple(w for w in words[2:] if w not in ("--quiet",))
            by_file.setdefault(args.results, set()).add(settings)
    assert by_file, "no documented tournament found"
    shared = {f: s for f, s in by_file.items() if len(s) > 1}
    assert not shared, shared
