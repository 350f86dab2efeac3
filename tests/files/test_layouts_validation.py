"""Every mistake in a layout file is one line naming it and exit status 2, and nothing is written."""

from __future__ import annotations

import textwrap

import pytest

from sliders.cli import main

from ..helpers import run_main

TWO_TRACKS = """
[[track]]
name = "south"
edge = "south"
{track_extra}
[[track]]
name = "north"
edge = "north"
{rail}
[[seat]]
name = "south"
track = "south"
{seat_extra}
[[seat]]
name = "north"
track = "north"
"""


def good(track_extra: str = "", rail: str = "", seat_extra: str = "") -> str:
    return TWO_TRACKS.format(track_extra=track_extra, rail=rail, seat_extra=seat_extra)


MISTAKES = [
    (  # a mouth given as coordinates off every edge and track end
        good(track_extra="").replace(
            'name = "north"\nedge = "north"', 'name = "north"\nmouth = [0.3, 0.5]\nfacing = "south"'
        ),
        "track 'north': its mouth (0.3, 0.5) facing south is on no board edge and no track's near end",
    ),
    (  # a mouth slid along its edge past the corner
        good(track_extra="offset = 0.1"),
        "track 'south': its mouth is not on the south edge",
    ),
    (  # a hook onto a track that does not exist
        good().replace('name = "north"\nedge = "north"', 'name = "north"\nhook = "east"'),
        "track 'north' hooks onto track 'east', which the layout does not have",
    ),
    (  # tracks hooked onto each other in a circle
        good()
        .replace('name = "south"\nedge = "south"', 'name = "south"\nhook = "north"')
        .replace('name = "north"\nedge = "north"', 'name = "north"\nhook = "south"'),
        "hook onto each other in a circle",
    ),
    (  # two tracks on the same edge on top of each other
        good() + '[[track]]\nname = "third"\nedge = "south"\noffset = 0.05\n',
        "tracks 'south' and 'third' overlap",
    ),
    (  # a track lying on the board
        good() + '[[track]]\nname = "third"\nmouth = [0.0, -0.13]\nfacing = "south"\n',
        "track 'third' overlaps the target board (facing south",
    ),
    (  # side by side: one track's side rail runs on the other
        good() + '[[track]]\nname = "third"\nedge = "south"\noffset = -0.07\nwidth = 0.02\n',
        "overlaps a side rail of track",
    ),
    (  # a blocker rail closing a track's mouth
        good(rail='[[rail]]\nedge = "south"'),
        "blocker rail along the south edge overlaps track 'south'",
    ),
    (  # a seat with no track
        good().replace('name = "north"\ntrack = "north"', 'name = "north"'),
        "seat 'north' has no track",
    ),
    (  # a seat on a track the layout does not have
        good().replace('name = "north"\ntrack = "north"', 'name = "north"\ntrack = "nowhere"'),
        "seat 'north' shoots from track 'nowhere', which the layout does not have",
    ),
    (  # a painted foul line beyond the end of its track
        good(seat_extra="foul = 0.5"),
        "seat 'south': its foul line at 0.5 m is outside its track (0 to 0.38 m",
    ),
    (  # a blocker rail across a track, placed beyond its end
        good(rail='[[rail]]\nacross = "south"\nat = 0.45'),
        "foul line (blocker rail across track 'south') at 0.45 m is outside the track",
    ),
    (  # a painted foul line behind the blocker rail across the lane
        good(rail='[[rail]]\nacross = "south"\nat = 0.2', seat_extra="foul = 0.1"),
        "seat 'south': its foul line at 0.1 m is behind the blocker rail across its lane",
    ),
    ('[board]\nface = "tiddlywinks"\n' + good(), "unknown face 'tiddlywinks'"),
    (good() + "[[seat]\nname = 'west'\n", "bad TOML"),
    (good(track_extra="lenght = 0.5"), "track 'south': unknown key 'lenght'"),
    (good(track_extra='width = "wide"'), "track 'south': width must be a number"),
    (good() + '[[seat]]\nname = "purple"\ntrack = "south"\n', "is not a seat"),
    ("seat_counts = [3]\n" + good(), "seat_counts [3] must lie between 1 and the 2 seats"),
    ("", "no [[seat]]"),
    (  # a track of astronomical length
        good(track_extra="length = 1e300"),
        "track 'south': length must be above 0 and at most 2 m, got 1e+300",
    ),
    (  # a track wider than the board
        good(track_extra="width = 0.5"),
        "track 'south': width must be above 0 and at most 0.26 m, got 0.5",
    ),
    (  # a rail thicker than any rail
        good(rail='[[rail]]\nedge = "east"\nthickness = 1.0'),
        "rail #1: thickness must be above 0 and at most 0.05 m, got 1",
    ),
    (  # a foul line so near the end that a pawn cannot be released behind it
        good(seat_extra="foul = 0.005"),
        "seat 'south': its foul line at 0.005 m lies before the nearest release (0.0125 m",
    ),
    (  # the same behind a blocker rail across the lane
        good(rail='[[rail]]\nacross = "south"\nat = 0.05', seat_extra="foul = 0.06"),
        "seat 'south': its foul line at 0.06 m lies before the nearest release (0.0655 m",
    ),
    (  # a mouth far away
        good().replace(
            'name = "north"\nedge = "north"',
            'name = "north"\nmouth = [0.0, 1e300]\nfacing = "south"',
        ),
        "track 'north': mouth must be [x, y] within ±10 m",
    ),
    (  # numbers TOML can spell but no table has
        good(track_extra="offset = inf"),
        "track[0].offset: expected a finite number, got inf",
    ),
    (good(track_extra="offset = " + "9" * 60), "expected a whole number of at most 40 digits"),
    (good(track_extra="Length = 0.3"), "track 'south': unknown key 'Length'"),
]


@pytest.mark.parametrize(("text", "needle"), MISTAKES, ids=[m[1][:40] for m in MISTAKES])
def test_each_mistake_is_one_clear_line_and_exit_2(
    tmp_path, capsys, text: str, needle: str
) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text(textwrap.dedent(text))
    png = tmp_path / "out.png"
    code, _, err = run_main(capsys, "render", "--layout", str(bad), "--out", str(png))
    assert code == 2
    assert needle in err, err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(f"sliders render: error: layout file {bad}: ")
    assert not png.exists()


def test_the_good_base_file_renders(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "good.toml"
    path.write_text(good(rail='[[rail]]\nedge = "east"'))
    png = tmp_path / "out.png"
    assert main(["render", "--layout", str(path), "--out", str(png), "--dpi", "40"]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (
            ["--layout", "head-to-head", "--seats", "south,west,north"],
            "layout 'head-to-head': takes 2 seats, not 3",
        ),
        (["--layout", "solo", "--seats", "south,north"], "layout 'solo': takes 1 seat, not 2"),
        (
            ["--layout", "crazy-corner", "--seats", "south,north"],
            "layout 'crazy-corner': has no seat 'north' (seats: south, west)",
        ),
        (["--layout", "hexagon"], "unknown layout 'hexagon' (built-in: square, crazy-corner"),
        (["--layout", "missing.toml"], "layout file missing.toml does not exist"),
    ],
)
def test_seat_counts_and_names_are_checked(tmp_path, capsys, argv, needle) -> None:  # type: ignore[no-untyped-def]
    png = tmp_path / "out.png"
    code, _, err = run_main(capsys, "render", *argv, "--out", str(png))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert not png.exists()


def test_shot_and_layouts_commands_report_the_same_mistakes(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text(good(seat_extra="foul = 0.5"))
    for argv in (["shot", "--layout", str(bad), "--speed", "0.6"], ["layouts", str(bad)]):
        code, _, err = run_main(capsys, *argv)
        assert code == 2 and "outside its track" in err, argv


def test_layouts_lists_every_builtin_with_seat_counts(capsys) -> None:  # type: ignore[no-untyped-def]
    from sliders.files.layouts import BUILTIN_LAYOUTS, read_layout

    assert main(["layouts"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name in BUILTIN_LAYOUTS:
        spec = read_layout(name)
        line = next(ln for ln in lines if ln.split()[:1] == [name])
        assert spec.description in line
    assert any(ln.split()[:2] == ["square", "1–4"] for ln in lines)
    assert any(ln.split()[:2] == ["head-to-head", "2"] for ln in lines)


def test_layouts_source_is_a_layout_file_that_loads(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from sliders.files.layouts import load_layout

    assert main(["layouts", "triple-track", "--source"]) == 0
    path = tmp_path / "copy.toml"
    path.write_text(capsys.readouterr().out)
    assert load_layout(str(path), 3).seats == load_layout("triple-track", 3).seats
    assert main(["layouts", str(path)]) == 0
    out = capsys.readouterr().out
    assert "4 seats (south, west, north, east)" in out and "lane lane-1+lane-2+lane-3" in out
