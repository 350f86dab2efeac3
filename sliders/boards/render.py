"""Pictures of the table with matplotlib (Agg, no window): pieces, zones with their values, and pawns
in seat colours, optionally with the paths they took."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sliders.boards.faces import Face
from sliders.boards.layout import Layout, Seat
from sliders.fileio import write_atomic
from sliders.outcome import SEAT_COLOURS, PawnRest, Status, pawn_seat

# drawing colours for the seat colours
INK: dict[str, str] = {"red": "#d62828", "blue": "#1d4ed8", "yellow": "#f2c200", "green": "#2a9d3a"}
RING_FILLS = ("#fbf3df", "#d9e7f7")
BLOCKER_INK = "#7a4a1e"


def seat_ink(seat: str) -> str:
    return INK.get(SEAT_COLOURS.get(seat, ""), "#777777")


def draw_table(
    ax: Any,
    layout: Layout,
    face: Face,
    pawns: Iterable[PawnRest] = (),
    paths: Mapping[str, Sequence[tuple[float, float]]] | None = None,
    pawn_radius: float = 0.0125,
    title: str | None = None,
) -> None:
    """Draw the layout, the face, the pawns and their paths on a matplotlib ``ax``."""
    from matplotlib.patches import Circle, Polygon, Rectangle, Wedge

    ax.set_facecolor("#3b3b3b")
    for track in layout.tracks:
        rc = track.rect
        ax.add_patch(
            Rectangle(
                (rc.xmin, rc.ymin),
                rc.xmax - rc.xmin,
                rc.ymax - rc.ymin,
                facecolor="#c9c1b3",
                edgecolor="none",
                zorder=1,
            )
        )
    _draw_joints(ax, layout)
    for group in _seat_groups(layout):
        _draw_seats(ax, group)

    h = face.half
    ax.add_patch(
        Rectangle(
            (-h, -h),
            face.side,
            face.side,
            facecolor=RING_FILLS[0],
            edgecolor="#222222",
            lw=1,
            zorder=2,
        )
    )
    outer = [(r, pts) for r, pts in face.rings]
    for i, (radius, _) in enumerate(reversed(outer)):
        ax.add_patch(
            Circle(
                (0, 0),
                radius,
                facecolor=RING_FILLS[(i + 1) % 2],
                edgecolor="#555555",
                lw=0.8,
                zorder=3,
            )
        )
    prev = face.choice_radius
    for radius, points in face.rings:
        mid = (prev + radius) / 2 if prev else radius * 0.5
        ax.text(
            0, -mid, str(points), ha="center", va="center", fontsize=8, color="#444444", zorder=6
        )
        prev = radius
    ax.text(
        0,
        -(h + face.rings[-1][0]) / 2,
        str(face.base_points),
        ha="center",
        va="center",
        fontsize=8,
        color="#444444",
        zorder=6,
    )
    if face.choice_radius:
        ax.add_patch(
            Circle(
                (0, 0),
                face.choice_radius,
                facecolor="#ffd59e",
                edgecolor="#b35c00",
                lw=0.8,
                zorder=4,
            )
        )
        ax.text(
            0,
            -(face.choice_radius + face.hole_radius) / 2,
            "4/5/6",
            ha="center",
            va="center",
            fontsize=6.5,
            color="#7a3e00",
            zorder=6,
        )
    if face.hole_radius:
        ax.add_patch(
            Circle((0, 0), face.hole_radius, facecolor="#111111", edgecolor="#000000", zorder=5)
        )
    for dot in face.dots:
        ax.add_patch(
            Circle(
                (dot.x, dot.y),
                dot.radius,
                facecolor="#e63946",
                edgecolor="#7a0c14",
                lw=0.6,
                zorder=5,
            )
        )
    for cx, cy in face.corners:
        start = math.degrees(math.atan2(-cy, -cx)) - 45
        ax.add_patch(
            Wedge(
                (cx, cy),
                face.sorry_radius,
                start,
                start + 90,
                facecolor="#2f6fbd",
                edgecolor="#173a66",
                zorder=4,
            )
        )
        tx, ty = cx - math.copysign(0.018, cx), cy - math.copysign(0.018, cy)
        ax.text(
            tx,
            ty,
            "SORRY!",
            ha="center",
            va="center",
            fontsize=4.5,
            color="white",
            rotation=45 if cx * cy > 0 else -45,
            zorder=6,
            fontweight="bold",
        )

    for rail in layout.rails:
        ax.plot(
            [rail.a[0], rail.b[0]],
            [rail.a[1], rail.b[1]],
            color=BLOCKER_INK if rail.kind == "blocker" else "#1b1b1b",
            lw=2.6 if rail.kind == "blocker" else 2.0,
            solid_capstyle="round",
            zorder=7,
        )

    for pid, path in (paths or {}).items():
        if len(path) > 1:
            xs, ys = zip(*path, strict=True)
            ax.plot(xs, ys, color=seat_ink(pawn_seat(pid)), lw=0.9, alpha=0.8, zorder=8)
    for pawn in pawns:
        ink = seat_ink(pawn.seat)
        removed = pawn.status.removed
        ax.add_patch(
            Circle(
                (pawn.x, pawn.y),
                pawn_radius,
                facecolor=ink,
                edgecolor="#000000",
                lw=0.8,
                alpha=0.35 if removed else 1.0,
                zorder=9,
            )
        )
        label = pawn.id.rsplit("-", 1)[1]
        ax.text(
            pawn.x,
            pawn.y,
            label,
            ha="center",
            va="center",
            fontsize=6,
            color="black" if SEAT_COLOURS.get(pawn.seat) == "yellow" else "white",
            zorder=10,
        )
        if removed:
            d = pawn_radius * 0.8
            ax.add_patch(
                Polygon(
                    [(pawn.x - d, pawn.y - d), (pawn.x + d, pawn.y + d)],
                    closed=False,
                    edgecolor="black",
                    lw=1,
                    zorder=10,
                )
            )
            ax.add_patch(
                Polygon(
                    [(pawn.x - d, pawn.y + d), (pawn.x + d, pawn.y - d)],
                    closed=False,
                    edgecolor="black",
                    lw=1,
                    zorder=10,
                )
            )
        if pawn.status is not Status.IN_HAND:
            tag = str(pawn.status) if removed or not pawn.points else _points_label(pawn)
            ax.text(
                pawn.x + pawn_radius * 1.2,
                pawn.y + pawn_radius * 1.2,
                tag,
                fontsize=5,
                color="white",
                zorder=11,
                bbox={"boxstyle": "round,pad=0.15", "fc": "#000000aa", "ec": "none"},
            )

    edge_xs = [v for rc in layout.surface for v in (rc.xmin, rc.xmax)]
    edge_ys = [v for rc in layout.surface for v in (rc.ymin, rc.ymax)]
    pad = 0.02
    ax.set_xlim(min(edge_xs) - pad, max(edge_xs) + pad)
    ax.set_ylim(min(edge_ys) - pad, max(edge_ys) + pad)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=9, color="#eeeeee")


def render_png(
    path: str,
    layout: Layout,
    face: Face,
    pawns: Iterable[PawnRest] = (),
    paths: Mapping[str, Sequence[tuple[float, float]]] | None = None,
    pawn_radius: float = 0.0125,
    title: str | None = None,
    dpi: int = 150,
) -> None:
    """Render the table to a PNG file, written whole or not at all."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    xs = [v for rc in layout.surface for v in (rc.xmin, rc.xmax)]
    ys = [v for rc in layout.surface for v in (rc.ymin, rc.ymax)]
    w, hgt = max(xs) - min(xs) + 0.04, max(ys) - min(ys) + 0.04
    scale = 7.0 / max(w, hgt)
    min_w = 3.8 if title else 2.5
    fig = Figure(figsize=(max(w * scale, min_w), max(hgt * scale, 2.5) + (0.3 if title else 0)))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.92 if title else 0.96))
    draw_table(ax, layout, face, pawns, paths, pawn_radius, title)
    write_atomic(path, lambda fh: fig.savefig(fh, format="png", dpi=dpi, facecolor="#3b3b3b"))


def _draw_joints(ax: Any, layout: Layout) -> None:
    """A thin line where a track's mouth hooks onto another track's near end."""
    nears = [t.near for t in layout.tracks]
    for t in layout.tracks:
        if any(math.hypot(t.mouth[0] - x, t.mouth[1] - y) < 1e-9 for x, y in nears):
            rx, ry = t.right
            hw = t.width / 2
            mx, my = t.mouth
            ax.plot(
                [mx - rx * hw, mx + rx * hw],
                [my - ry * hw, my + ry * hw],
                color="#9c9486",
                lw=0.8,
                zorder=1.5,
            )


def _seat_groups(layout: Layout) -> list[list[Seat]]:
    """Seats grouped by where they shoot from: seats sharing a lane share a near end and a foul
    line, and are drawn once, their names together."""
    groups: dict[tuple[object, ...], list[Seat]] = {}
    for seat in layout.seats:
        key = (round(seat.near[0], 9), round(seat.near[1], 9), seat.forward, round(seat.foul, 9))
        groups.setdefault(key, []).append(seat)
    return list(groups.values())


def _draw_seats(ax: Any, seats: list[Seat]) -> None:
    """The foul line (dashed in every sharing seat's colour) and the seats' names."""
    seat = seats[0]
    n = len(seats)
    if n == 1:
        (x0, y0), (x1, y1) = seat.foul_line()
        ax.plot([x0, x1], [y0, y1], color=seat_ink(seat.name), lw=1.5, ls=(0, (4, 2)), zorder=2)
    else:  # short dashes in turn in each sharing seat's colour
        pieces = 4 * n
        step = seat.width / pieces
        for i in range(pieces):
            a = -seat.width / 2 + i * step
            (x0, y0), (x1, y1) = (
                seat.to_world(seat.foul, a),
                seat.to_world(seat.foul, a + 0.7 * step),
            )
            ax.plot([x0, x1], [y0, y1], color=seat_ink(seats[i % n].name), lw=1.5, zorder=2)
    # one seat: its name behind a blocker rail when there is room there, else near the lane's
    # end; seats sharing a lane: their names stacked in front of the foul line
    if n > 1:
        along = seat.foul + 0.02 + 0.011 * n
    elif seat.release_min >= 0.04:
        along = seat.release_min / 2
    elif seat.release_min > 0:
        along = seat.foul + 0.025
    else:
        along = 0.02
    lx, ly = seat.to_world(along, 0.0)
    ax.text(
        lx,
        ly,
        "\n".join(s.name for s in seats),
        ha="center",
        va="center",
        fontsize=7 if n == 1 else 6,
        linespacing=1.0,
        color="#222222",
        rotation=_text_angle(seat.forward),
        zorder=3,
    )
    fx, fy = seat.to_world(seat.foul, seat.width / 2 + 0.004)
    ax.text(
        fx,
        fy,
        "foul",
        fontsize=5,
        color="#eeeeee",
        # outside the lane on the shooter's right, whichever way the lane runs
        ha={1: "left", -1: "right"}.get(seat.right[0], "center"),
        va={1: "bottom", -1: "top"}.get(seat.right[1], "center"),
        rotation=_text_angle(seat.forward),
        zorder=3,
    )


def _points_label(pawn: PawnRest) -> str:
    if len(pawn.choices) > 1:
        return "/".join(str(c) for c in pawn.choices)
    return f"{pawn.points}"


def _text_angle(forward: tuple[int, int]) -> float:
    return {(0, 1): 0, (0, -1): 180, (1, 0): -90, (-1, 0): 90}.get(forward, 0)
