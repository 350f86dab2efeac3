"""Random bad input at every way in: argv of every command, mutated scenes, layouts and game logs,
and lines typed to the scorekeeper. Whatever comes in, a command ends with exit status 0 or 2; on
2 it says one line on stderr, writes nothing and leaves every file as it was; there is never a
traceback. Commands run in-process through the CLI's ``main``; the window is never opened."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sliders.cli.play as play_command
from sliders.cli import _subparsers, build_parser, main

FUZZ = settings(
    max_examples=int(os.environ.get("SLIDERS_FUZZ_EXAMPLES", "60")),  # a long campaign: 5000
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

GOOD_SCENE = {
    "schema": 1,
    "layout": "square",
    "seats": ["south", "north"],
    "face": "race-for-home",
    "pawns": [{"id": "north-1", "x": 0.004, "y": 0.035}, {"id": "south-2", "x": 0.0, "y": -0.05}],
}
GOOD_LAYOUT = (Path(__file__).parents[2] / "docs" / "layouts" / "example.toml").read_text()
GOOD_LOG: dict[str, Any] = {
    "schema": 2,
    "kind": "sorry-sliders-game",
    "face": "instant-sorry",
    "seats": ["south", "north"],
    "starter": "south",
    "layout": {"name": "square", "seats": ["south", "north"]},
    "steps": [
        {
            "shot": {
                "face": "instant-sorry",
                "shooter": "south-1",
                "pawns": [
                    {"id": "south-1", "seat": "south", "x": 0.0, "y": 0.03,
                     "status": "on_target", "points": 4, "choices": [4, 5, 6]}
                ],
                "events": [{"t": 0.0, "type": "release", "pawns": ["south-1"], "impulse": 0.0,
                            "x": 0.0, "y": -0.3}],
                "settle_time": 1.5,
            },
            "home": {},
            "slide": {"seat": "south", "pawn": "south-1", "speed": 0.6, "angle_rad": 0.01,
                      "offset": 0.0, "release": None, "seed": 7},
        },
        {
            "shot": {
                "face": "instant-sorry",
                "shooter": "north-1",
                "pawns": [
                    {"id": "south-1", "seat": "south", "x": 0.0, "y": 0.03,
                     "status": "on_target", "points": 4, "choices": [4, 5, 6]},
                    {"id": "north-1", "seat": "north", "x": 0.0, "y": 0.2,
                     "status": "own_track", "points": 0, "choices": [0]},
                ],
                "events": [],
                "settle_time": 1.0,
            },
            "home": {},
        },
    ],
}  # fmt: skip

# values JSON cannot spell, written into the text after json.dumps
RAW = {"@@big@@": "9" * 5000, "@@huge@@": "1e400", "@@deep@@": "[" * 50_000 + "]" * 50_000}
NASTY: list[Any] = [
    None, True, False, 0, -1, 1, 3.7, 1e308, -1e308, 2**64, float("nan"), float("inf"),
    "", "1", "north-01", "north- 1", "north-+1", "south-9", "²", "x" * 300, [], [1, 2], {},
    {"a": 1}, *RAW,
]  # fmt: skip


class _Window(Exception):
    """Raised instead of opening the window: the command got as far as showing something."""


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    """Drills and hands are kept in a folder of the test's, never the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _no_window(monkeypatch):
    def refuse(*_args: object) -> None:
        raise _Window

    monkeypatch.setattr(play_command, "open_play_window", refuse)


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except _Window:
                code = 0
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def snapshot(root: Path) -> dict[str, tuple[str, int, bytes]]:
    """Every entry under ``root``: its kind, size and (for small files) its bytes."""
    seen = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st_ = p.lstat()
            body = p.read_bytes() if p.is_file() and st_.st_size < 1_000_000 else b""
            seen[str(p.relative_to(root))] = (oct(st_.st_mode), st_.st_size, body)
    return seen


def check_outcome(code: int, err: str, before: dict, after: dict, argv: list[str]) -> None:
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert err.endswith("\n") and err.count("\n") == 1, (argv, err)
        assert err.startswith("sliders"), (argv, err)
        assert before == after, (argv, err, set(after) ^ set(before))


@contextlib.contextmanager
def workspace() -> Any:
    """A fresh directory with good and bad input files; the current directory while in use."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "scene.json").write_text(json.dumps(GOOD_SCENE))
        (root / "layout.toml").write_text(GOOD_LAYOUT)
        (root / "game.json").write_text(json.dumps(GOOD_LOG))
        (root / "bad.json").write_text('{"schema": 1, "Pawns": []}')
        (root / "nan.json").write_text('{"x": NaN}')
        (root / "deep.toml").write_text("a = " + "[" * 10_000 + "]" * 10_000)
        (root / "out").mkdir()
        cwd = os.getcwd()
        os.chdir(root)
        try:
            yield root
        finally:
            os.chdir(cwd)


# -- argv -----------------------------------------------------------------------------------------


SERVING = {"host", "join"}
"""commands that serve or wait on the network until stopped: fuzzed by tests/net with hostile
clients and bad flags, not here"""


def _flags() -> dict[str, list[str]]:
    parser = build_parser()
    return {
        name: sorted({o for a in sub._actions for o in a.option_strings} - {"-h", "--help"})
        for name, sub in _subparsers(parser).items()
        if name not in SERVING
    }


FLAGS = _flags()
VALUES = [
    "0", "1", "-1", "2", "0.6", "3", "1e308", "-1e308", "nan", "inf", "-inf", "1e-320", "9" * 50,
    "0x10", "1_000", "²", "", " ", "-", "square", "solo", "crazy-corner", "head-to-head",
    "race-for-home", "instant-sorry", "danger-dots", "south", "red", "north,south", "south,south",
    "south=human,north=cpu", "south=cpu:hard", "south-1", "north-01", "mu_roll=0.06",
    "mu_roll=nan", "pawn_radius=1", "800x600", "0.3:1.2:3", "0:1:0", "speed,angle",
    "scene.json", "layout.toml", "game.json", "bad.json", "nan.json", "deep.toml", "missing.json",
    "/dev/zero", "/dev/null", ".", "out", "out/x.png", "out/x.json", "out/x.csv", "out/x.parquet",
    "no/such/dir/x.png", "a\nb.json", "out/a\nb.png",
    "x" * 300, "out/" + "x" * 300 + ".csv", "red=0,0,2,6", "red=²,0,0,0", "yellow=9,9,9,9", "red=home,h,s,start", "green=",
]  # fmt: skip


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(FLAGS)))
    flags = FLAGS[command]
    abbreviations = [f[:-1] for f in flags if len(f) > 4]
    token = st.one_of(
        st.sampled_from(flags), st.sampled_from(VALUES), st.sampled_from(abbreviations or flags)
    )
    argv = [command, *draw(st.lists(token, max_size=7))]
    if command == "batch":  # keep a study that happens to be valid small and in this process
        argv += ["--workers", "1", "--samples", "2", "--quiet"]
    return argv


@FUZZ
@given(argv=argvs())
def test_any_argv_is_exit_0_or_one_line_and_exit_2(argv):
    with workspace() as root:
        before = snapshot(root)
        code, _out, err = run_cli(argv)
        check_outcome(code, err, before, snapshot(root), argv)


# -- mutated files --------------------------------------------------------------------------------


def _paths(data: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*at, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*at, i))
    return out


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return data


@st.composite
def mutated_json(draw: st.DrawFn, good: dict[str, Any]) -> str:
    data = json.loads(json.dumps(good))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        kind = draw(st.sampled_from(["value", "delete", "unknown", "rename"]))
        parent = data
        for k in path[:-1]:
            parent = parent[k]
        if kind == "value" or not path:
            data = _set(data, path, copy.deepcopy(draw(st.sampled_from(NASTY))))
        elif kind == "delete" and isinstance(parent, dict | list):
            del parent[path[-1]]
        elif kind == "unknown" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["Pawns", "extra", "X", "steps "]))] = 1
        elif kind == "rename" and isinstance(parent, dict):
            parent[str(path[-1]).upper()] = parent.pop(path[-1])
    text = json.dumps(data)
    for marker, raw in RAW.items():
        text = text.replace(json.dumps(marker), raw)
    if draw(st.booleans()):  # sometimes a cut or a stray byte too
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["", "}", "\x00", "\ufffd", "]]]"])) + text[at:]
    return text


TOML_VALUES = [
    "1e400", "nan", "-inf", "9" * 5000, "9" * 60, "-1", "0", "1e300", "true", '"x"', "[]",
    "[1, 2]", "{a = 1}", '"south-01"', '"north"', "0.005", "-0.2",
]  # fmt: skip


@st.composite
def mutated_toml(draw: st.DrawFn) -> str:
    lines = GOOD_LAYOUT.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["value", "delete", "unknown", "duplicate"]))
        key, eq, _value = lines[i].partition("=")
        if kind == "value" and eq:
            lines[i] = f"{key}= {draw(st.sampled_from(TOML_VALUES))}"
        elif kind == "delete":
            del lines[i]
        elif kind == "unknown":
            lines.insert(i, f"{draw(st.sampled_from(['Name', 'lenght', 'extra']))} = 1")
        else:
            lines.insert(i, lines[i])
        if not lines:
            lines = [""]
    return "\n".join(lines) + "\n"


def _file_case(name: str, text: str, commands: list[Callable[[str], list[str]]]) -> None:
    with workspace() as root:
        path = root / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for command in commands:
            argv = command(name)
            before = snapshot(root)
            code, _out, err = run_cli(argv, stdin="quit\n")
            check_outcome(code, err, before, snapshot(root), argv)


@FUZZ
@given(text=mutated_json(GOOD_SCENE))
def test_mutated_scenes(text):
    _file_case(
        "s.json",
        text,
        [
            lambda f: ["render", "--scene", f, "--out", "out/t.png", "--dpi", "20"],
            lambda f: ["shot", "--scene", f, "--speed", "0.6", "--save-scene", "out/after.json"],
        ],
    )


@FUZZ
@given(text=mutated_toml())
def test_mutated_layouts(text):
    _file_case(
        "l.toml",
        text,
        [
            lambda f: ["layouts", f],
            lambda f: ["layouts", f, "--json"],
            lambda f: ["shot", "--layout", f, "--speed", "0.6"],
        ],
    )


@FUZZ
@given(text=mutated_json(GOOD_LOG))
def test_mutated_game_logs(text):
    _file_case(
        "g.json",
        text,
        [
            lambda f: ["score", "--replay", f],
            lambda f: ["play", "--replay", f],
            lambda f: ["score", "--log", f],  # resumes and saves on 0; untouched on 2
        ],
    )


# -- the scorekeeper's lines ----------------------------------------------------------------------

WORDS = [
    "red", "yellow", "blue", "red#1", "red#2", "yellow#1", "red#5", "red#²", "3", "5", "0", "6",
    "²", "٣", "tip", "track", "off", "sorry", "hole", "hole@2", "hole@²", "edge", "circle", "dot",
    "foul", "other", "over", "ok", "undo", "board", "moves", "help", "none", "3@0", "3²@0", "1@5",
    "default", ",", "#", "", "\x00", "quit",
]  # fmt: skip


@FUZZ
@given(
    face=st.sampled_from(["race-for-home", "instant-home", "instant-sorry", "danger-dots"]),
    lines=st.lists(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join), max_size=25
    ),
)
def test_any_scorekeeper_lines_never_crash_and_the_log_keeps_every_step(face, lines):
    with workspace() as root:
        argv = ["score", "--face", face, "--players", "red,yellow", "--log", "k.json"]
        code, out, err = run_cli(argv, "\n".join(lines) + "\n")
        assert code == 0 and "Traceback" not in err, (lines, err)
        assert all(line.startswith("error: ") for line in err.splitlines()), err
        # what the session showed last is what the log replays to
        code2, out2, err2 = run_cli(["score", "--replay", "k.json"])
        assert code2 == 0 and err2 == "", err2
        assert sorted(p.name for p in root.iterdir() if p.name.startswith(".")) == []
