"""``--layout NAME`` alone plays, simulates, draws and studies that layout with its own default
seats (the layout file's ``default_seats``), in ``play`` as in ``shot``, ``render`` and ``batch``;
a wrong number of seats is told grammatically."""

from __future__ import annotations

import json

import pytest

from sliders.cli import main
from sliders.files.layouts import BUILTIN_LAYOUTS, read_layout
from sliders.game.config import config_from_flags, default_seat_specs

LAYOUTS = sorted(BUILTIN_LAYOUTS)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_play_with_the_layout_alone_seats_its_default_seats(layout, monkeypatch) -> None:
    from sliders.scenes.app import App
    from sliders.scenes.play import PlayScreen

    shown = []
    monkeypatch.setattr(App, "run", lambda self: shown.append(self.screen) or 0)
    assert main(["play", "--layout", layout, "--no-sound"]) == 0
    (screen,) = shown
    assert isinstance(screen, PlayScreen)
    match = screen.match
    spec = read_layout(layout)
    assert match.layout.seat_names == spec.default_seats
    assert match.config.seat_names == spec.default_seats
    assert match.config.face == spec.face
    kinds = [s.kind for s in match.config.seats]
    assert kinds == ["human"] + ["cpu"] * (len(kinds) - 1)


def test_default_seats_are_the_layout_files() -> None:
    assert [s.seat for s in default_seat_specs("crazy-corner")] == ["south", "west"]
    assert [(s.seat, s.kind) for s in default_seat_specs("solo")] == [("south", "human")]
    config = config_from_flags(layout="solo", face="danger-dots", seed=4)
    assert (config.layout, config.face, config.seat_names, config.seed) == (
        "solo",
        "danger-dots",
        ("south",),
        4,
    )
    # no flag at all: the square, south a person against the computer north
    config = config_from_flags()
    assert config.layout == "square" and config.seat_names == ("south", "north")
    assert [s.kind for s in config.seats] == ["human", "cpu"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--layout", "solo", "--seats", "south=human,north=cpu"], "takes 1 seat, not 2"),
        (["--layout", "crazy-corner", "--seats", "south,north=cpu"], "has no seat 'north'"),
        (["--layout", "no-such-layout"], "unknown layout 'no-such-layout'"),
    ],
)
def test_play_seats_that_do_not_fit_are_one_line(argv, message, capsys) -> None:
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sliders play: error: ") and err.count("\n") == 1, err
    assert message in err, err


@pytest.mark.parametrize("layout", LAYOUTS)
def test_shot_with_the_layout_alone(layout, capsys) -> None:
    """From the layout's first and last default seat alike (``--seat`` picks one of them)."""
    spec = read_layout(layout)
    for seat in (spec.default_seats[0], spec.default_seats[-1]):
        argv = ["shot", "--layout", layout, "--seat", seat, "--speed", "0.6", "--json"]
        assert main(argv) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["shooter"] == f"{seat}-1"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_render_with_the_layout_alone(layout, tmp_path) -> None:
    out = tmp_path / "board.png"
    assert main(["render", "--layout", layout, "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("layout", ["crazy-corner", "solo"])
def test_batch_with_the_layout_alone(layout, tmp_path, capsys) -> None:
    out = tmp_path / "shots.csv"
    argv = ["batch", "--layout", layout, "--speed", "0.6", "--samples", "2", "--workers", "1"]
    assert main([*argv, "--quiet", "--out", str(out)]) == 0
    rows = out.read_text().splitlines()
    assert len(rows) == 3  # a header and two shots


def test_shot_with_too_many_seats_says_seat_not_seats(capsys) -> None:
    assert main(["shot", "--layout", "solo", "--seats", "south,north", "--speed", "0.6"]) == 2
    err = capsys.readouterr().err
    assert err == "sliders shot: error: layout 'solo': takes 1 seat, not 2\n"
