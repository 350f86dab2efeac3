"""Every output flag of every command, found in the parsers (so a new one is tried as soon as it
exists), named where it cannot be written: a missing folder, a read-only folder, a folder, and the
command's own input. Each is refused in one line with status 2 before the command runs (its
work is replaced by a stub that fails the test if called) and with nothing written."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

import sliders.cli as cli
from sliders.cli import build_parser
from sliders.cli.args import FILE_ROLE

BASE: dict[str, list[str]] = {
    "play": [],
    "shot": ["--speed", "0.5"],
    "render": ["--out", "r.png"],
    "params": [],
    "layouts": [],
    "score": [],
    "batch": ["--speed", "0.5", "--out", "t.parquet"],
    "analyse": ["in.json"],
    "best": [],
    "tournament": ["--players", "centre,centre:low"],
    "review": ["in.json"],
    "drills": ["--fit-hand"],
    "practice": [],
    "calibrate": ["fit", "in.json"],
    "host": [],
    "join": ["127.0.0.1:1"],
}
"""each command's least command line that parses (positional inputs name ``in.json``)"""

FILE_METAVARS = {"FILE", "PNG", "DIR", "LOG", "TABLE"}


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


def _role(action: argparse.Action) -> str | None:
    return getattr(action, FILE_ROLE, None)


def _input_words(name: str, parser: argparse.ArgumentParser) -> list[str] | None:
    """Words naming ``in.json`` as an input of the command (None: it reads no file)."""
    for action in parser._actions:
        if _role(action) == "input":
            if not action.option_strings:
                return [] if "in.json" in BASE[name] else None
            return [action.option_strings[0], "in.json"]
    return None


def _cases() -> list[tuple[str, str, str, str]]:
    cases = []
    for name, parser in _commands().items():
        for action in parser._actions:
            role = _role(action)
            if role not in ("output", "update", "folder"):
                continue
            flag = action.option_strings[0]
            kinds = ["missing folder", "read-only folder"]
            reads = _input_words(name, parser) is not None
            if role == "folder":  # a file where a folder is wanted: the input if there is one
                kinds.append("the input" if reads else "a file")
            else:
                kinds += ["a folder", *(["the input"] if reads else [])]
            cases += [(name, flag, role, kind) for kind in kinds]
    return cases


CASES = _cases()


def test_the_campaign_covers_every_command_and_many_flags() -> None:
    assert set(BASE) == set(cli.COMMANDS), "name the least command line of a new command in BASE"
    commands = {name for name, *_ in CASES}
    assert commands >= set(cli.COMMANDS) - {"layouts", "join"}  # these two write nothing
    assert len(CASES) >= 100, len(CASES)
    errors = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text()
    assert f"{len(CASES)} cases" in " ".join(errors.split()), "docs/errors.md's count of cases"


@pytest.mark.parametrize("name", sorted(BASE))
def test_every_flag_naming_a_file_says_whether_it_is_read_or_written(name) -> None:
    for action in _commands()[name]._actions:
        named = action.metavar in FILE_METAVARS or action.dest in {"layout", "dir", "out"}
        if named:
            assert _role(action) is not None, (name, action.option_strings or action.dest)


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize(("name", "flag", "role", "kind"), CASES, ids=[" ".join(c) for c in CASES])
def test_an_output_that_cannot_be_written_is_refused_before_the_work(
    name, flag, role, kind, tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.json").write_text("{}\n")
    (tmp_path / "adir").mkdir()
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro").chmod(0o555)
    ro = str(tmp_path / "ro")
    access = os.access

    def read_only(path, mode, *args, **kwargs):  # type: ignore[no-untyped-def]
        # root writes into a folder whatever its mode: the folder reads as a read-only one
        if mode & os.W_OK and os.path.abspath(path).startswith(ro):
            return False
        return access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", read_only)
    ran: list[str] = []

    def work(args: argparse.Namespace) -> int:
        ran.append(name)
        return 0

    monkeypatch.setitem(cli.COMMANDS, name, (cli.COMMANDS[name][0], work))
    parser = _commands()[name]
    argv = [name, *BASE[name]]
    if role == "folder":
        value = {"missing folder": "nodir", "read-only folder": "ro"}.get(kind, "in.json")
        words = None if kind == "read-only folder" else "not a folder"
    else:
        value = {
            "missing folder": "nodir/out.png",
            "read-only folder": "ro/out.png",
            "a folder": "adir",
            "the input": "in.json",
        }[kind]
        words = {
            "missing folder": "directory nodir does not exist",
            "a folder": "it is a directory",
            "the input": "never replaces an input",
        }.get(kind)
    if kind == "the input":
        argv += _input_words(name, parser) or []
    argv += [flag, value]
    before = _snapshot(tmp_path)
    try:
        code = cli.main(argv)
    finally:
        (tmp_path / "ro").chmod(0o755)
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    assert err.startswith(f"sliders {name}: error: ") and err.count("\n") == 1, (argv, err)
    assert value in err and "Traceback" not in err, (argv, err)
    if words is None:  # the read-only folder
        assert "read-only" in err or "not writable" in err, (argv, err)
    else:
        assert words in err, (argv, err)
    assert ran == [], f"{name} ran before {flag} was refused"
    assert _snapshot(tmp_path) == before, argv
