"""Pictures of the table with matplotlib (Agg, no window): pieces, zones with their values, and pawns
in seat colours, optionally with the paths they took."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sliders.boards import drawing
from sliders.boards.faces import Face
from sliders.boards.layout import Layout, Seat
from sliders.core.fileio import write_atomic
from sliders.core.outcome import SEAT_COLOURS, PawnRest, pawn_seat

INK: dict[str, str] = {colour: drawing.hex_ink(rgb) for colour, rgb in drawing.SEAT_INK.items()}
"""the players' inks (:data:`sliders.boards.drawing.SEAT_INK`) as matplotlib colours"""
LABEL_POINTS = 8.0
"""the font size (points) of the tallest number printed on the face"""


def seat_ink(seat: str) -> str:
    return drawing.hex_ink(drawing.seat_rgb(seat))


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
    from matplotlib import patches  # heavy: loaded when a picture is drawn

    ax.set_facecolor("#3b3b3b")
    for track in layout.tracks:
        rc = track.rect
        ax.add_patch(
            patches.Rectangle(
                (rc.xmin, rc.ymin),
                rc.xmax - rc.xmin,
                rc.ymax - rc.ymin,
                facecolor="#c9c1b3",
                edgecolor="none",
                zorder=1,
            )
        )
    _draw_joints(ax, layout)
    for group in drawing.seat_groups(layout):
        _draw_seats(ax, group)

    _draw_face(ax, face, patches)

    for rail in layout.rails:
        ax.plot(
            [rail.a[0], rail.b[0]],
            [rail.a[1], rail.b[1]],
            color=drawing.hex_ink(
                drawing.BLOCKER_INK if rail.kind == "blocker" else drawing.RAIL_INK
            ),
            lw=2.6 if rail.kind == "blocker" else 2.0,
            solid_capstyle="round",
            zorder=7,
        )

    for pid, path in (paths or {}).items():
        if len(path) > 1:
            xs, ys = zip(*path, strict=True)
            ax.plot(xs, ys, color=seat_ink(pawn_seat(pid)), lw=0.9, alpha=0.8, zorder=8)
    for pawn in pawns:
        _draw_pawn(ax, pawn, pawn_radius, patches)

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


def _draw_face(ax: Any, face: Face, patches: Any) -> None:
    """The face's print: its square, rings, 4/5/6 circle, hole, dots, SORRY! corners and
    numbers."""
    h = face.half
    ax.add_patch(
        patches.Rectangle(
            (-h, -h),
            face.side,
            face.side,
            facecolor=drawing.hex_ink(drawing.BASE_FILL),
            edgecolor=drawing.hex_ink(drawing.PRINT_INK),
            lw=1,
            zorder=2,
        )
    )
    for i, (radius, points) in enumerate(sorted(face.rings, reverse=True)):
        ax.add_patch(
            patches.Circle(
                (0, 0),
                radius,
                facecolor=drawing.hex_ink(drawing.ring_fill(points, i)),
                edgecolor=drawing.hex_ink(drawing.PRINT_INK),
                lw=0.6,
                zorder=3,
            )
        )
    if face.choice_radius:
        ax.add_patch(
            patches.Circle(
                (0, 0),
                face.choice_radius,
                facecolor=drawing.hex_ink(drawing.CHOICE_FILL),
                edgecolor=drawing.hex_ink(drawing.CHOICE_INK),
                lw=0.8,
                zorder=4,
            )
        )
    if face.hole_radius:
        ax.add_patch(
            patches.Circle(
                (0, 0), face.hole_radius, facecolor=drawing.hex_ink(drawing.HOLE_DEEP), zorder=5
            )
        )
    for dot in face.dots:
        ax.add_patch(
            patches.Circle(
                (dot.x, dot.y),
                dot.radius,
                facecolor=drawing.hex_ink(drawing.DOT_FILL),
                edgecolor=drawing.hex_ink(drawing.DOT_EDGE),
                lw=0.6,
                zorder=5,
            )
        )
    for cx, cy in face.corners:
        start = math.degrees(math.atan2(-cy, -cx)) - 45
        ax.add_patch(
            patches.Wedge(
                (cx, cy),
                face.sorry_radius,
                start,
                start + 90,
                facecolor=drawing.hex_ink(drawing.SORRY_FILL),
                edgecolor=drawing.hex_ink(drawing.PRINT_INK),
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
            color=drawing.hex_ink(drawing.SORRY_INK),
            rotation=45 if cx * cy > 0 else -45,
            zorder=6,
            fontweight="bold",
        )
    for zone in drawing.zone_labels(face):
        if zone.backing is not None:
            ax.add_patch(
                patches.Circle(
                    (zone.x, zone.y),
                    zone.height * 0.62,
                    facecolor=drawing.hex_ink(drawing.ring_fill(zone.backing, 0)),
                    edgecolor=drawing.hex_ink(drawing.PRINT_INK),
                    lw=0.4,
                    zorder=5.5,
                )
            )
        ax.text(
            zone.x,
            zone.y,
            zone.words,
            ha="center",
            va="center",
            fontsize=LABEL_POINTS * zone.height / drawing.LABEL_HEIGHT,
            fontweight="bold",
            color=drawing.hex_ink(drawing.CHOICE_INK if zone.choice else drawing.PRINT_INK),
            zorder=6,
        )


def _draw_pawn(ax: Any, pawn: PawnRest, pawn_radius: float, patches: Any) -> None:
    """One pawn in its seat's ink with its number, crossed out if removed, tagged with how it
    ended."""
    ink = seat_ink(pawn.seat)
    removed = pawn.status.removed
    ax.add_patch(
        patches.Circle(
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
            patches.Polygon(
                [(pawn.x - d, pawn.y - d), (pawn.x + d, pawn.y + d)],
                closed=False,
                edgecolor="black",
                lw=1,
                zorder=10,
            )
        )
        ax.add_patch(
            patches.Polygon(
                [(pawn.x - d, pawn.y + d), (pawn.x + d, pawn.y - d)],
                closed=False,
                edgecolor="black",
                lw=1,
                zorder=10,
            )
        )
    tag = drawing.pawn_tag(pawn)
    if tag is not None:
        ax.text(
            pawn.x + pawn_radius * 1.2,
            pawn.y + pawn_radius * 1.2,
            tag,
            fontsize=5,
            color="white",
            zorder=11,
            bbox={"boxstyle": "round,pad=0.15", "fc": "#000000aa", "ec": "none"},
        )


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


def _draw_seats(ax: Any, seats: list[Seat]) -> None:
    """The foul line (dashed in every sharing seat's colour) and the seats' names."""
    seat = seats[0]
    n = len(seats)
    for ((x0, y0), (x1, y1)), name in drawing.foul_stripes(seats):
        ax.plot([x0, x1], [y0, y1], color=seat_ink(name), lw=1.5, ls=(0, (4, 2)), zorder=2)
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
        rotation=drawing.text_angle(seat.forward),
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
        rotation=drawing.text_angle(seat.forward),
        zorder=3,
    )
