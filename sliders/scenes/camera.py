"""The cameras of the play screen: what part of the table is drawn how large, phase by phase.

While a seat aims, the play area is split in two panes (:func:`panes`): the lane pane shows the
near end of the shooter's lane large (the pawns waiting in the hand, the foul line and room to
pull back or swing in: at least ``AIM_ROOM`` pixels between the waiting pawns and the foul line,
and as much of the lane toward the board as fits), and the main pane beside it shows the target
board, so the target is in sight on every layout whatever the lane's length. While pawns run,
the main pane takes the whole play area and follows the moving pawns. At rest the target board
fills it. The overview shows the whole table. Each view is a target, a world centre (m) and a
scale (pixels a metre); the camera eases toward it (exponentially, in position and in the
logarithm of the scale), so it never jumps, and drives :class:`~sliders.scenes.draw.TableView`
through ``look_at``. Rules never look at the camera: a foul is judged in the world.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pygame

from sliders.boards import Layout, Seat
from sliders.scenes.draw import TableView

EASE = 0.22
"""seconds for the camera to cover about 63 % of the way to its target"""
AIM_ROOM = 180
"""pixels, at least, between the pawns waiting in the hand and the foul line while aiming"""
PULL_ROOM = 280
"""pixels, at least, behind the foul line while aiming (room for the aim control's pull)"""
HAND_BACK = 0.035
"""metres behind a lane's near end where the pawns in hand wait"""
BOARD_MARGIN = 0.03
"""metres of table shown around the board at rest"""
FOLLOW_MARGIN = 0.09
"""metres shown around the moving pawns"""
LANE_SHARE = 0.45
"""the most of the play area's width (or height, for a lane across the screen) the lane pane takes"""
LANE_LEAST = 110
"""pixels: the least width (or height) of the lane pane"""
AIM_FILL = 0.4
"""the least share of the lane pane's length the stretch from the hand to the foul line takes"""
PANE_GAP = 8
"""pixels between the lane pane and the main pane"""

Centre = tuple[float, float]


class Camera:
    """Eases a :class:`TableView` toward the view of the moment (see the module's words)."""

    def __init__(self, view: TableView, layout: Layout) -> None:
        self.view, self.layout = view, layout
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.centre: Centre = (0.0, 0.0)
        self.scale = 0.0  # 0: not placed yet, the first target is taken at once
        self.target: tuple[Centre, float] = ((0.0, 0.0), 1.0)

    # -- views ------------------------------------------------------------------------------------

    def overview(self) -> tuple[Centre, float]:
        """The whole table."""
        x0, y0, x1, y1 = self.view.bounds
        return self._fit((x0, y0, x1, y1))

    def board(self) -> tuple[Centre, float]:
        """The target board filling the play area."""
        h = self.layout.board_side / 2 + BOARD_MARGIN
        return self._fit((-h, -h, h, h))

    def aim(self, seat: Seat, foul: float | None = None) -> tuple[Centre, float]:
        """The near end of ``seat``'s lane, large: the hand, the foul line, the pull-back room
        and as much of the lane toward the board as fits."""
        w, h = self.rect.size
        length = h if seat.forward[0] == 0 else w  # screen pixels along the lane
        width = w if seat.forward[0] == 0 else h
        scale, back = aim_scale(seat, self.layout, length, width, foul)
        along = back + length / scale / 2
        return seat.to_world(along, 0.0), scale

    def follow(self, points: Iterable[Centre]) -> tuple[Centre, float]:
        """The moving pawns with room around them, no closer than the board view and no
        farther than the overview."""
        pts = list(points)
        if not pts:
            return self.board()
        m = FOLLOW_MARGIN
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        centre, scale = self._fit((min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m))
        low, high = self.overview()[1], self.board()[1]
        return centre, min(max(scale, low), high)

    # -- motion -----------------------------------------------------------------------------------

    def board_and(
        self, points: Sequence[tuple[float, float]], reach: float
    ) -> tuple[Centre, float]:
        """The board filling the play area, widened just enough to show every point (pawns
        resting on a track beyond it) within ``reach`` of its edge."""
        h = self.layout.board_side / 2 + BOARD_MARGIN
        xs = [-h, h, *(x - reach for x, _ in points), *(x + reach for x, _ in points)]
        ys = [-h, h, *(y - reach for _, y in points), *(y + reach for _, y in points)]
        return self._fit((min(xs), min(ys), max(xs), max(ys)))

    def place(self, rect: pygame.Rect) -> None:
        """The play area the view is drawn in (call before asking for views)."""
        self.rect = pygame.Rect(rect)

    @property
    def still(self) -> bool:
        """True when the camera is at its target (not easing)."""
        return self.scale > 0 and (self.centre, self.scale) == self.target

    def settled(self, px: float) -> bool:
        """True when what is left of the camera's way would move the picture less than ``px``
        pixels (a press made now lands where the person sees it)."""
        if self.scale <= 0:
            return False
        (tx, ty), ts = self.target
        span = max(self.rect.w, self.rect.h) / 2
        zoom = abs(self.scale / ts - 1) * span
        return zoom < px and math.hypot(tx - self.centre[0], ty - self.centre[1]) * ts < px

    def aim_at(self, target: tuple[Centre, float], snap: bool = False) -> None:
        self.target = target
        if snap or self.scale <= 0:
            self.centre, self.scale = target

    def update(self, dt: float) -> None:
        """Ease toward the target by ``dt`` seconds."""
        (tx, ty), ts = self.target
        if self.scale <= 0:
            self.centre, self.scale = (tx, ty), ts
            return
        k = 1.0 - math.exp(-max(dt, 0.0) / EASE)
        cx, cy = self.centre
        self.centre = (cx + (tx - cx) * k, cy + (ty - cy) * k)
        self.scale = math.exp(math.log(self.scale) + (math.log(ts) - math.log(self.scale)) * k)
        if abs(self.scale / ts - 1) < 1e-4 and math.hypot(tx - cx, ty - cy) * ts < 0.05:
            self.centre, self.scale = (tx, ty), ts

    def apply(self, part: pygame.Rect | None = None) -> None:
        """Point the table view where the camera is. With ``part`` (a pane sliding in or out,
        at the edge of the camera's rect), the view is drawn in ``part`` alone: the picture the
        whole rect would show, cut, neither moved within it nor scaled (the picture slides with
        the pane, whole where it shows)."""
        centre, scale = (self.centre, self.scale) if self.scale > 0 else self.overview()
        if part is None or part == self.rect:
            self.view.look_at(centre, scale, self.rect)
            return
        whole, part = self.rect, pygame.Rect(part)
        # the whole picture's edge kept at the part's inner edge: the right edge of a pane at
        # the left, the top edge of a pane at the bottom
        if part.h == whole.h:
            shown = whole.move(part.right - whole.right, 0)
        else:
            shown = whole.move(0, part.y - whole.y)
        dx = (part.centerx - shown.centerx) / scale
        dy = (part.centery - shown.centery) / scale
        self.view.look_at((centre[0] + dx, centre[1] - dy), scale, part)

    # -- helpers ----------------------------------------------------------------------------------

    def _fit(self, box: tuple[float, float, float, float]) -> tuple[Centre, float]:
        x0, y0, x1, y1 = box
        w, h = self.rect.size
        scale = min(w / max(x1 - x0, 1e-6), h / max(y1 - y0, 1e-6))
        return ((x0 + x1) / 2, (y0 + y1) / 2), scale


def aim_scale(
    seat: Seat, layout: Layout, length: float, width: float, foul: float | None = None
) -> tuple[float, float]:
    """(scale, back) of the aim view of ``seat`` in a pane ``length`` pixels along the lane and
    ``width`` across it: the least scale that gives the hand ``AIM_ROOM`` pixels (and
    ``AIM_FILL`` of the pane) before the foul line and shows the lane from behind the hand to
    the far edge of the board, no larger than fits the lane's width; ``back`` is how far behind the lane's near end the view starts (room
    to pull back: ``PULL_ROOM`` pixels behind the foul line)."""
    foul = seat.foul if foul is None else foul
    hand = -HAND_BACK
    need = max(AIM_ROOM, AIM_FILL * length) / (foul - hand)  # the least giving the hand room
    far = _board_far(seat, layout.board_side / 2) + BOARD_MARGIN
    back = hand - 0.03
    scale = need
    for _ in range(3):
        scale = max(need, length / (far - back))
        scale = min(scale, width / (seat.width + 0.04))
        back = min(hand - 0.03, foul - PULL_ROOM / scale)
    return scale, back


def across_screen(seat: Seat) -> bool:
    """True when ``seat``'s lane runs across the screen (left-right), not up-down."""
    return seat.forward[0] != 0


def panes(
    area: pygame.Rect, layout: Layout, seat: Seat | None, shown: float = 1.0
) -> tuple[pygame.Rect | None, pygame.Rect]:
    """(lane pane, main pane) of the play ``area`` while ``seat`` aims: the lane pane as wide as
    its aim view needs for the lane's width (at least ``LANE_LEAST`` pixels, at most
    ``LANE_SHARE`` of the area), at the left for a lane running up-down and at the bottom for
    one running across, ``shown`` (0..1) of it slid in; the main pane the rest. No lane pane
    (None, the main pane the whole area) without a seat or while it is hidden."""
    area = pygame.Rect(area)
    if seat is None or shown <= 0.01:
        return None, area
    across = across_screen(seat)
    length, cross = (area.w, area.h) if across else (area.h, area.w)
    scale, _ = aim_scale(seat, layout, length, math.inf)
    full = min(max((seat.width + 0.05) * scale, LANE_LEAST), LANE_SHARE * cross)
    size = round(full * min(shown, 1.0))
    gap = round(PANE_GAP * min(shown, 1.0))
    if across:
        lane = pygame.Rect(area.x, area.bottom - size, area.w, size)
        main = pygame.Rect(area.x, area.y, area.w, area.h - size - gap)
    else:
        lane = pygame.Rect(area.x, area.y, size, area.h)
        main = pygame.Rect(area.x + size + gap, area.y, area.w - size - gap, area.h)
    return lane, main


def _board_far(seat: Seat, half: float) -> float:
    """How far down ``seat``'s lane the far edge of the board is (metres from the near end)."""
    return seat.from_world(0.0, 0.0)[0] + half
