"""Tracks hooked end to end form one continuous surface: a pawn rolls across the joints as if the
lane were one piece."""

from __future__ import annotations

import math

from sliders.boards import surface_at
from sliders.core.outcome import Status
from sliders.files.layouts import load_layout, parse_layout
from sliders.physics import PhysicsParams, Setup, Shot, start

P = PhysicsParams.default()


def speed_to_stop_after(distance: float) -> float:
    return math.sqrt(2 * distance * P.deceleration)  # v²/(2μg) = d, in both engines


def roll(layout, seat_name: str, speed: float, release: float | None = None):  # type: ignore[no-untyped-def]
    """Run a lone straight shot on the lane axis; return (track, along, across) samples and the
    result."""
    seat = layout.seat(seat_name)
    sim = start(Setup(layout, layout_face(layout), P), (), Shot(seat_name, speed, release=release))
    samples = []
    while sim.moving:
        sim.step()
        for x, y, _ in sim.positions().values():
            dx, dy = x - seat.near[0], y - seat.near[1]
            along = dx * seat.forward[0] + dy * seat.forward[1]
            across = dx * seat.right[0] + dy * seat.right[1]
            samples.append((surface_at(layout, x, y), along, across))
    return samples, sim.result()


def layout_face(layout):  # type: ignore[no-untyped-def]
    from sliders.boards import face

    return face(layout.face)


def test_a_pawn_rolls_across_two_joints_without_deflection() -> None:
    layout = load_layout("triple-track")
    seat = layout.seat("south")
    speed = 1.0
    samples, result = roll(layout, "south", speed)
    rest = result.pawns[0]
    assert rest.status is Status.OWN_TRACK
    # it crossed from the far track over both joints
    tracks = [t for t, _, _ in samples]
    assert tracks[0] == "lane-3" and "lane-2" in tracks and tracks[-1] == "lane-1"
    assert max(abs(c) for _, _, c in samples) < 1e-9
    assert abs(rest.x) < 1e-9
    travelled = (rest.y - seat.near[1]) - seat.foul
    expected = P.stopping_distance(speed)
    assert abs(travelled - expected) / expected < 0.005
    assert not any(e.type == "rail" for e in result.events)


def test_a_pawn_released_on_a_joint_rolls_on_like_on_one_long_track() -> None:
    """Two 0.38 m tracks hooked end to end against one 0.76 m track: same path, same stop."""
    hooked = parse_layout(
        """
        [[track]]
        name = "mouth"
        edge = "south"
        [[track]]
        name = "back"
        hook = "mouth"
        [[seat]]
        name = "south"
        track = "back"
        foul = 0.38
        """,
        "hooked",
    ).build()
    single = parse_layout(
        """
        [[track]]
        name = "whole"
        edge = "south"
        length = 0.76
        [[seat]]
        name = "south"
        track = "whole"
        foul = 0.38
        """,
        "single",
    ).build()
    assert hooked.seat("south").near == single.seat("south").near
    for speed in (0.4, 0.7):
        a_samples, a = roll(hooked, "south", speed, release=0.38)
        b_samples, b = roll(single, "south", speed, release=0.38)
        assert [s[1:] for s in a_samples] == [s[1:] for s in b_samples]
        assert (a.pawns[0].x, a.pawns[0].y) == (b.pawns[0].x, b.pawns[0].y)
        assert a.pawns[0].status is b.pawns[0].status


def test_a_pawn_grazing_the_side_rail_slides_past_the_joint_smoothly() -> None:
    """A shot angled into the side rail: on hooked tracks it bounces exactly as on one piece."""
    src = """
        [[track]]
        name = "a"
        edge = "south"
        {extra}
        [[seat]]
        name = "south"
        track = "{seat}"
        foul = 0.05
    """
    hooked = parse_layout(
        src.format(extra='[[track]]\nname = "b"\nhook = "a"', seat="b"), "hooked"
    ).build()
    single = parse_layout(src.format(extra="length = 0.76", seat="a"), "single").build()
    shot = Shot.from_degrees("south", 1.0, 4.0, offset=0.03)
    sims = [start(Setup(lay, layout_face(lay), P), (), shot) for lay in (hooked, single)]
    for sim in sims:
        sim.run()
    a, b = (sim.result() for sim in sims)
    assert (a.pawns[0].x, a.pawns[0].y) == (b.pawns[0].x, b.pawns[0].y)
    assert [e.type for e in a.events] == [e.type for e in b.events]
    assert any(e.type == "rail" for e in a.events)
