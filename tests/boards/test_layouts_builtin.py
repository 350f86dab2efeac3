"""Every built-in layout loads for each seat count it allows, renders, and lets a straight medium
shot from every seat reach the target board; the lane and status logic follows the layout."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from sliders.boards import Layout, classify, face, surface_at
from sliders.boards.layout import FOUL_REACH, RAIL_THICKNESS, TRACK_LENGTH, TRACK_WIDTH
from sliders.core.outcome import Status
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout, read_layout, square
from sliders.physics import PhysicsParams, Setup, Shot, simulate
from sliders.pictures.table import render_png

P = PhysicsParams.default()
H = 0.13

SEATINGS = [(name, count) for name in BUILTIN_LAYOUTS for count in read_layout(name).seat_counts]


def speed_to_stop_after(distance: float) -> float:
    """The speed whose closed-form stopping distance is ``distance``."""
    return math.sqrt(2 * distance * P.deceleration)  # v²/(2μg) = d, in both engines


def centre_distance(seat) -> float:  # type: ignore[no-untyped-def]
    """How far down the lane from the foul line the board centre lies (its projection)."""
    sx, sy = seat.to_world(seat.foul, 0.0)
    return -(sx * seat.forward[0] + sy * seat.forward[1])


@pytest.mark.parametrize(("name", "count"), SEATINGS)
def test_every_seating_loads_and_every_seat_owns_its_lane(name: str, count: int) -> None:
    layout = load_layout(name, count)
    assert len(layout.seats) == count
    assert layout.seat_counts == read_layout(name).seat_counts
    assert layout.source == "built-in"
    track_names = {t.name for t in layout.tracks}
    for seat in layout.seats:
        assert seat.tracks and set(seat.tracks) <= track_names
        # the whole lane, from the far end to the board, is the seat's own surface
        lane = sum(layout.track(t).length for t in seat.tracks)
        for along in (0.001, seat.foul, lane - 0.001):
            assert surface_at(layout, *seat.to_world(along, 0.0)) in seat.tracks
        assert surface_at(layout, *seat.to_world(lane + 0.001, 0.0)) == "board"
        assert 0 <= seat.release_min < seat.foul < lane


@pytest.mark.parametrize(("name", "count"), SEATINGS)
def test_a_straight_medium_shot_from_every_seat_reaches_the_board(name: str, count: int) -> None:
    layout = load_layout(name, count)
    game = face(layout.face)
    for seat in layout.seats:
        d = centre_distance(seat)
        result = simulate(
            Setup(layout, game, P), (), Shot(seat.name, speed_to_stop_after(d), seed=1)
        )
        rest = result.pawns[0]
        assert rest.status is Status.ON_TARGET, (name, seat.name, rest)
        # it stops where the closed form says: at the board centre's projection on its lane
        tx, ty = seat.to_world(seat.foul + d, 0.0)
        assert math.hypot(rest.x - tx, rest.y - ty) < 0.002
        assert rest.points >= 3


@pytest.mark.parametrize("name", BUILTIN_LAYOUTS)
def test_every_builtin_layout_renders_to_png(name: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    layout = load_layout(name)
    out = tmp_path / f"{name}.png"
    render_png(str(out), layout, face(layout.face), title=name, dpi=40)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


def test_square_from_data_is_the_rulebook_setup() -> None:
    layout = square("south,west,north")
    assert [t.name for t in layout.tracks] == ["south", "west", "north"]
    assert layout.track("south").mouth == (0.0, -H) and layout.track("south").forward == (0, 1)
    assert layout.track("west").mouth == (-H, 0.0) and layout.track("west").forward == (1, 0)
    blockers = [r for r in layout.rails if r.kind == "blocker"]
    assert len(blockers) == 1  # the east side has no track
    (ax, ay), (bx, by) = blockers[0].a, blockers[0].b
    assert ax == bx == pytest.approx(H + RAIL_THICKNESS / 2)
    assert sorted((ay, by)) == pytest.approx([-(H + RAIL_THICKNESS), H + RAIL_THICKNESS])
    assert len(layout.rails) == 3 * 2 + 1
    for seat in layout.seats:
        assert seat.foul == 0.16 and seat.release_min == 0.0 and seat.width == TRACK_WIDTH
    assert len(square("south,north").rails) == 2 * 2 + 2
    assert load_layout("square", ("south",)).seat_names == ("south",)


def test_load_layout_takes_a_path_and_defaults_to_the_layouts_own_seats(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sliders.files.layouts import LAYOUTS_DIR

    path = tmp_path / "mine.toml"
    path.write_text((LAYOUTS_DIR / "head-to-head.toml").read_text())
    from_path = load_layout(str(path))
    builtin = load_layout("head-to-head")
    assert from_path.seat_names == builtin.seat_names == ("south", "north")
    assert from_path.tracks == builtin.tracks and from_path.rails == builtin.rails
    assert from_path.seats == builtin.seats
    assert from_path.source == str(path)
    assert load_layout("crazy-corner").seat_names == ("south", "west")
    assert load_layout("triple-track", "red,blue,green").seat_names == ("south", "west", "east")


def test_crazy_corner_tracks_sit_flush_in_an_l_around_the_corner() -> None:
    layout = load_layout("crazy-corner")
    s, w = layout.track("south").rect, layout.track("west").rect
    assert s.xmin == pytest.approx(-H) and s.ymax == pytest.approx(-H)
    assert w.ymin == pytest.approx(-H) and w.xmax == pytest.approx(-H)
    for seat in layout.seats:  # the rail across the near end is the foul line
        assert seat.release_min == pytest.approx(2 * 0.003)
        assert seat.foul == pytest.approx(seat.release_min + FOUL_REACH)


def test_shared_lane_is_every_seats_own_track_and_they_share_near_end_and_foul() -> None:
    layout = load_layout("quadruple-track", 4)
    lane = {"lane-1", "lane-2", "lane-3", "lane-4"}
    assert {s.near for s in layout.seats} == {layout.track("lane-4").near}
    assert {s.foul for s in layout.seats} == {layout.seats[0].foul}
    assert layout.seats[0].near == pytest.approx((0.0, -H - 4 * TRACK_LENGTH))
    game = face("race-for-home")
    for seat in layout.seats:
        assert set(seat.tracks) == lane
        for y in (-0.3, -0.7, -1.1, -1.5):
            assert classify(layout, game, seat.name, 0.0, y, P.pawn_radius).status is (
                Status.OWN_TRACK
            )
    # one side rail per side runs the whole lane: no joint for a pawn to catch on
    sides = [r for r in layout.rails if r.kind == "side"]
    assert len(sides) == 2
    for r in sides:
        assert abs(r.a[1] - r.b[1]) == pytest.approx(4 * TRACK_LENGTH)


def test_head_to_head_open_sides_and_the_other_players_track() -> None:
    layout = load_layout("head-to-head")
    game = face("race-for-home")
    # south's pawn at rest on north's track is on another player's track
    v = classify(layout, game, "south", 0.0, 0.3, P.pawn_radius)
    assert v.status is Status.OTHER_TRACK
    # the edges beside the other track are open: a shot angled across the board falls off
    seat = layout.seat("south")
    shot = Shot.from_degrees("south", 1.2, 15.0, offset=-0.04)
    result = simulate(Setup(layout, game, P), (), replace(shot, seed=1))
    rest = result.pawns[0]
    assert rest.status is Status.OFF_BOARD and rest.x > 0.07
    assert not any(e.type == "rail" for e in result.events)
    # a hard straight shot crosses the board and stops on the other player's track
    d = centre_distance(seat) + 0.35
    result = simulate(Setup(layout, game, P), (), Shot("south", speed_to_stop_after(d), seed=1))
    assert result.pawns[0].status is Status.OTHER_TRACK


def test_crazy_corner_far_sides_are_open() -> None:
    layout = load_layout("crazy-corner")
    result = simulate(Setup(layout, face("race-for-home"), P), (), Shot("south", 2.0, seed=1))
    rest = result.pawns[0]
    assert rest.status is Status.OFF_BOARD and rest.y > H - 0.01


def test_solo_closes_three_sides() -> None:
    layout = load_layout("solo")
    assert layout.seat_names == ("south",) and layout.seat_counts == (1,)
    assert sum(r.kind == "blocker" for r in layout.rails) == 3
    # a straight shot too hard for the board bounces off the north blocker rail and stays
    result = simulate(Setup(layout, face("danger-dots"), P), (), Shot("south", 1.0, seed=1))
    rails = [e for e in result.events if e.type == "rail"]
    assert rails and rails[0].y > H - 1e-9  # the touch, on the north blocker rail's face
    assert result.pawns[0].status is not Status.OFF_BOARD


def test_layouts_differ_only_in_data(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every built-in layout is a file that parses to what load_layout returns."""
    from sliders.files.layouts import LAYOUTS_DIR, parse_layout

    for name in BUILTIN_LAYOUTS:
        text = (LAYOUTS_DIR / f"{name}.toml").read_text()
        built = parse_layout(text, "test").build()
        assert isinstance(built, Layout)
        assert built.tracks == load_layout(name).tracks


def test_the_readme_example_layout_file_loads_and_plays() -> None:
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "docs" / "layouts" / "example.toml"
    layout = load_layout(str(path))
    assert layout.name == "handicap" and layout.face == "danger-dots"
    south, north = layout.seat("south"), layout.seat("north")
    assert south.tracks == ("south", "south-far") and north.tracks == ("north",)
    assert south.release_min == pytest.approx(0.053) and north.foul == 0.16
    d = centre_distance(south)
    result = simulate(
        Setup(layout, face(layout.face), P), (), Shot("south", speed_to_stop_after(d))
    )
    assert result.pawns[0].status is Status.ON_TARGET
