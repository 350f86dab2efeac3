"""A campaign over the surfaces added since the first one: saved tables flipped bit by bit
(``analyse``, ``--resume``), tournament results files tampered with, the environments' actions,
outputs that collide with inputs or each other, and argv of ``best``, ``analyse``,
``tournament``, ``render``, ``layouts``, ``params``, ``review``, ``drills`` and ``calibrate`` (the
commands that serve on the network, ``host`` and ``join``, are fuzzed by tests/net). Whatever comes in: a one-line refusal
(exit 2) or the very data written, never a traceback, never a changed value believed.

A short run is part of the everyday suite; ``SLIDERS_FUZZ_LONG=1`` runs the long campaign
(``SLIDERS_FUZZ_EXAMPLES`` sets its size)."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sliders.batch.saved import load
from sliders.batch.tables import write_table
from sliders.cli import main
from sliders.core.errors import UserError
from sliders.tournament.run import NEWER_GAME_KEYS, Settings, read_results

LONG = os.environ.get("SLIDERS_FUZZ_LONG") == "1"
FUZZ = settings(
    max_examples=int(os.environ.get("SLIDERS_FUZZ_EXAMPLES", "2000" if LONG else "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """A small study's table in each format, written by ``sliders batch`` (pymunk: no compile)."""
    d = tmp_path_factory.mktemp("tables")
    paths = {}
    for ext in ("parquet", "npz", "csv"):
        out = d / f"s.{ext}"
        argv = ["batch", "--engine", "pymunk", "--speed", "0.5:0.7:2", "--angle", "0",
                "--samples", "2", "--workers", "1", "--quiet", "--out", str(out)]  # fmt: skip
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(argv) == 0
        paths[ext] = out
    return paths


def _same(a, b):
    return set(a.table) == set(b.table) and all(
        np.array_equal(a.table[k], b.table[k], equal_nan=True) for k in a.table
    )


@FUZZ
@given(data=st.data())
def test_a_flipped_byte_in_a_table_is_refused_or_changes_nothing(tables, data, tmp_path_factory):
    ext = data.draw(st.sampled_from(sorted(tables)))
    src = tables[ext]
    base = load(str(src))
    raw = bytearray(src.read_bytes())
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(raw) - 1))
        raw[k] ^= 1 << data.draw(st.integers(0, 7))
    d = tmp_path_factory.mktemp("flip")
    path = d / src.name
    path.write_bytes(bytes(raw))
    if ext == "csv":
        (d / (src.name + ".json")).write_bytes(Path(str(src) + ".json").read_bytes())
    try:
        again = load(str(path))
    except UserError as exc:
        assert "\n" not in str(exc)
        return
    assert _same(again, base) and again.record == base.record


@FUZZ
@given(
    column=st.sampled_from(["points", "status", "value", "shot", "intended", "fault", "penalties"]),
    value=st.sampled_from([999, -1, 1e300, float("inf")]),
)
def test_an_edited_value_with_its_checksum_recomputed_is_refused(tables, column, value, tmp_path):
    base = load(str(tables["parquet"]))
    cols = {k: v.copy() for k, v in base.table.items()}
    with contextlib.suppress(OverflowError, ValueError):
        cols[column][0] = value
    if np.array_equal(cols[column], base.table[column], equal_nan=True):
        return  # the value did not fit the column: nothing changed
    path = tmp_path / "t.npz"  # NPZ holds any code, Parquet only a status's name
    write_table(str(path), cols, base.record)  # a fresh checksum: the ranges must catch it
    with pytest.raises(UserError):
        load(str(path))


SETTINGS = Settings(("centre", "centre:low"), 2, "race-for-home", "square",
                    ("south", "north"), 1, 2)  # fmt: skip
GAME = {
    "pairing": 0, "game": 0, "seed": 5, "seats": {"south": "centre", "north": "centre:low"},
    "winner": "centre", "winner_seat": "south", "ended_on_shot": False, "rounds": 2,
    "players": {"centre": {"shots": 3, "points": 4, "think": 0.1, "think_max": 0.05},
                "centre:low": {"shots": 3, "points": 2, "think": 0.1, "think_max": 0.05}},
    "by_seat": {"south": {"hole": 0, "hole_spaces": 0, "progress": 3},
                "north": {"hole": 0, "hole_spaces": 0, "progress": 1}},
}  # fmt: skip
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
    max_leaves=8,
)


def _mutate(data, record):
    record = json.loads(json.dumps(record))
    key = data.draw(st.sampled_from(sorted(record)))
    choice = data.draw(st.integers(0, 3))
    if choice == 0:
        record[key] = data.draw(JSON)
    elif choice == 1:
        del record[key]
    elif choice == 2:
        record[data.draw(st.text(max_size=6))] = 1
    elif isinstance(record[key], dict) and record[key]:
        inner = data.draw(st.sampled_from(sorted(record[key])))
        record[key][inner] = data.draw(JSON)
    return record


@FUZZ
@given(data=st.data())
def test_a_tampered_results_file_is_refused_in_one_line(data, tmp_path):
    header = json.dumps(SETTINGS.header(), sort_keys=True)
    lines = [header, json.dumps(GAME)]
    kind = data.draw(st.sampled_from(["game", "header", "twice", "deep", "list", "raw"]))
    if kind == "game":
        lines[1] = json.dumps(_mutate(data, GAME))
    elif kind == "header":
        lines[0] = json.dumps(_mutate(data, SETTINGS.header()))
    elif kind == "twice":
        lines.append(lines[1])
    elif kind == "deep":
        lines[1] = "[" * data.draw(st.integers(33, 100_000)) + "]" * 3
    elif kind == "list":
        lines[1] = json.dumps([GAME])
    else:
        lines[1] = data.draw(st.text(max_size=40))
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    try:
        games = read_results(str(path), SETTINGS)
    except UserError as exc:
        assert "\n" not in str(exc)
        return
    # only what a game of this tournament can be: as written now, or as the first results files
    # wrote it (without the keys counted since)
    assert all(
        set(GAME) - set(g) <= NEWER_GAME_KEYS and all(g[k] == GAME[k] for k in g) for g in games
    )


@FUZZ
@given(
    action=st.one_of(
        st.lists(st.floats() | st.integers() | st.none() | st.text(max_size=2), max_size=6),
        st.lists(st.lists(st.floats(-1, 1), min_size=1, max_size=3), max_size=4),
        st.just(np.zeros((2, 2))),
        st.just(np.zeros((4, 1))),
        st.just(np.array([1j, 0, 0, 0])),
    )
)
def test_an_environments_action_is_checked(action):
    from sliders.env.observation import check_action

    try:
        a = check_action(action)
    except ValueError as exc:
        assert "\n" not in str(exc)
        return
    assert a.shape == (4,) and a.dtype == np.float64 and np.isfinite(a).all()


def _run(argv, cwd):
    out, err = io.StringIO(), io.StringIO()
    before = sorted(os.listdir(cwd))
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue(), before, sorted(os.listdir(cwd))


FLAGS = {
    "best": ["--speed", "--angle", "--offset", "--release", "--final", "--confidence", "--board",
             "--seat", "--noise", "--seed"],
    "analyse": ["--summary", "--heatmap", "--board", "--line", "--confidence", "--top",
                "--vmin", "--vmax", "--metric", "--format"],
    "tournament": ["--players", "--games", "--jobs", "--seed", "--max-rounds", "--results",
                   "--png", "--seats", "--face"],
    "render": ["--out", "--dpi", "--layout", "--face", "--seats", "--scene"],
    "layouts": ["--json", "--source"],
    "params": ["--json"],
    "review": ["--out", "--picture", "--hand", "--json"],
    "drills": ["--try", "--save-scene", "--fit-hand", "--picture"],
    "calibrate": ["--corners", "--colours", "--camera-height", "--out", "--pictures"],
}  # fmt: skip
POSITIONAL = {
    "analyse": ["s.parquet", "nowhere.csv", ".", "/dev/null"],
    "review": ["nowhere.json", ".", "/dev/null", "r.jsonl"],
    "drills": ["nope", "centre-race-for-home"],
    "calibrate": ["fit t.csv", "video x.png", "fit .", "fit /dev/null", "video"],
}
"""the commands' positional words, one of which is given first"""
VALUES = st.sampled_from(
    ["0", "-1", "1e308", "-1e308", "nan", "10**30", "1000000000000000000000", "x.png", "t.csv",
     "r.jsonl", "s.parquet", ".", "/", "/dev/null", "", "a,b", "centre,centre", "0.5:0.5"]
)  # fmt: skip


@FUZZ
@given(data=st.data())
def test_flags_of_the_newer_commands_are_refused_in_one_line_and_write_nothing(data, tmp_path):
    command = data.draw(st.sampled_from(sorted(FLAGS)))
    argv = [command]
    if command in POSITIONAL:
        argv += data.draw(st.sampled_from(POSITIONAL[command])).split()
    for flag in data.draw(st.lists(st.sampled_from(FLAGS[command]), max_size=4)):
        argv += [flag, data.draw(VALUES)]
    if command in ("best", "tournament", "render") and "--dpi" not in argv:
        # nothing here is to be played or drawn for long: a refusal is what is looked for
        argv += {
            "best": ["--final", "0"],
            "tournament": ["--games", "0"],
            "render": ["--dpi", "1"],
        }[command]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, err, before, after = _run(argv, tmp_path)
    finally:
        os.chdir(cwd)
    assert code in (0, 2), (argv, err)
    if code == 2:
        assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)
        assert before == after, argv


SCENE = {"schema": 1, "layout": "square", "seats": ["south", "north"], "face": "race-for-home",
         "pawns": []}  # fmt: skip


@pytest.mark.parametrize(
    "argv, words",
    [
        (["tournament", "--players", "centre,centre:low", "--results", "r.png"], "picture"),
        (["tournament", "--players", "centre,centre:low", "--png", "r.png", "--results", "r.png"],
         "same file"),
        (["tournament", "--players", "centre,centre:low", "--games", str(10**30)], "more than"),
        (["render", "--scene", "s.json", "--out", "s.json"], "never replaces an input"),
        (["render", "--layout", "l.toml", "--out", "l.toml.png", "--dpi", "20"], None),
        (["batch", "--speed", "0.5", "--scene", "s.json", "--out", "s.json"], "never replaces an input"),
        (["batch", "--speed", "0.5", "--out", "t.csv", "--summary", "t.csv.json", "--format", "csv"], "same file"),
        (["analyse", "t.parquet", "--summary", "t.parquet"], "same file"),
        (["analyse", "."], "not a regular file"),
        (["best", "--board", "ro/b.png"], "not writable"),
    ],
)  # fmt: skip
def test_outputs_are_checked_before_the_work(argv, words, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.json").write_text(json.dumps(SCENE))
    (tmp_path / "t.parquet").write_bytes(b"PAR1")
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro").chmod(0o555)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    try:
        code = main(argv)
    finally:
        (tmp_path / "ro").chmod(0o755)
    err = capsys.readouterr().err
    if words is None:  # an input's name with .png added is another file: allowed
        return
    if os.geteuid() == 0 and words == "not writable":
        return  # root writes anywhere
    assert code == 2 and err.count("\n") == 1 and words in err, err
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert after == before
