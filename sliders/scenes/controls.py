"""How a person slides a pawn: the two controls of the play screen. Each makes a
:class:`~sliders.physics.Shot` from what the hand did, nothing drawn at random: a miss is the
hand's.

``flick`` (the default, the game's own gesture): press on a pawn waiting in your hand and swing
it down the lane; it follows the pointer (on the lane, behind the foul line) and leaves with the
pointer's velocity when you let go. The velocity is the hand's own (see
:mod:`sliders.scenes.hand`), taken in screen pixels a second at a fixed rate (``FLICK_GAIN``),
so zooming does not change how hard to flick. The held pawn's centre crossing the foul line is
a foul, judged in the world.

``aim``: a slingshot with a swing meter. Press anywhere in your lane behind the foul line (or
just on it): the next pawn goes to the foul line at that point across the lane, and the power
meter starts: its marker rises from nothing to full and falls back, over and over, one rise
and fall every :attr:`~sliders.game.config.Meter.period` seconds. Pull the pointer back, away
from the board: the pawn will leave the other way (the aim line shows where it points; the
length of the pull does not matter). Let go: the marker's place at that moment is the power,
in proportion to the distance slid: half power (the marker half way) to the board's centre,
full power twice as far. Letting go 10 ms early or late on the ``normal`` meter is 2 % of full
power, 1.4 cm on the square. Let go within ``CANCEL_PULL`` pixels of the pawn to put it back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from sliders.boards import Seat
from sliders.core.errors import UserError
from sliders.game.config import DEFAULT_METER, METERS, Meter
from sliders.physics import Shot
from sliders.scenes import draw
from sliders.scenes.camera import HAND_BACK
from sliders.scenes.draw import TableView
from sliders.scenes.hand import Hand
from sliders.scenes.table import Flick, Match

CONTROLS = ("flick", "aim")
DEFAULT_CONTROL = "flick"
FLICK_GAIN = 0.001
"""metres a second of release speed for each pixel a second of the pointer (1000 px/s: 1 m/s)"""
PULL_MAX = 240
"""pixels of pull the aim line and the meter are scaled to on screen"""
CANCEL_PULL = 10
"""a pull shorter than this (pixels) at the release puts the pawn back"""
REACH = 2.0
"""the aim control's full power slides a lone pawn this many times as far as the board's centre
is from the foul line: the distance grows in proportion to the power, half power stops on the
centre"""

Pos = tuple[float, float]


def check_control(name: str) -> str:

    if name not in CONTROLS:
        raise UserError(f"--control {name!r}: choose from {', '.join(CONTROLS)}")
    return name


def hand_spot(match: Match, seat: str, index: int, count: int) -> Pos:
    """(along, across) where the ``index``-th of ``count`` pawns in a person's hand waits:
    side by side behind the near end of the lane."""
    lane = match.seat(seat)
    r = match.params.pawn_radius
    gap = min(2.4 * r, (lane.width - 2 * r) / max(count - 1, 1)) if count > 1 else 0.0
    return -HAND_BACK, (index - (count - 1) / 2) * gap


def centre_reach(match: Match, seat: str) -> float:
    """How far down ``seat``'s lane from the foul line the board's centre is (m)."""
    lane = match.seat(seat)
    return max(lane.from_world(0.0, 0.0)[0] - lane.foul, 0.05)


def meter_power(period: float, held: float) -> float:
    """Where the meter's marker is (0..1) ``held`` seconds after the press: it rises from 0 to
    1 in half a ``period``, falls back to 0 in the other half, and again."""
    phase = (max(held, 0.0) / period) % 1.0
    return 2 * phase if phase < 0.5 else 2 * (1 - phase)


def meter_times(period: float, power: float) -> tuple[float, float]:
    """The two moments (s after the press) in the first swing when the marker is at
    ``power``: rising and falling."""
    p = min(max(power, 0.0), 1.0)
    return p * period / 2, period - p * period / 2


def pull_speed(match: Match, seat: str, power: float) -> float:
    """The aim control's release speed for ``power`` (0..1, the meter's marker): the speed that
    slides a lone pawn ``power * REACH`` times the distance to the board's centre."""
    distance = REACH * centre_reach(match, seat) * max(power, 0.0)
    return match.limits(seat).clip_speed(math.sqrt(2 * match.params.deceleration * distance))


def pull_power(match: Match, seat: str, speed: float) -> float:
    """The power (0..1) that releases at ``speed`` (the inverse of :func:`pull_speed`)."""
    distance = speed * speed / (2 * match.params.deceleration)
    return distance / (REACH * centre_reach(match, seat))


@dataclass
class Outcome:
    """What a control did with a release: a shot, a foul, or a word for the player."""

    shot: Shot | None = None
    foul: bool = False
    words: str = ""


class Control:
    """Shared by both controls: the pawn taken, the seat, the screen transform."""

    name = ""
    hint = ""

    def __init__(self, match: Match, view: draw.TableView) -> None:
        self.match, self.view = match, view
        self.seat: str | None = None
        self.held: str | None = None
        self.hold: Pos = (0.0, 0.0)  # (along, across) of the held pawn

    @property
    def engaged(self) -> bool:
        return self.held is not None

    def cancel(self) -> None:
        self.held = None

    def lane(self) -> Seat:
        assert self.seat is not None
        return self.match.seat(self.seat)

    def lane_at(self, pos: Pos) -> Pos:
        assert self.seat is not None
        return self.match.lane_coords(self.seat, *self.view.to_world(*pos))

    def waiting(self, seat: str) -> list[tuple[str, Pos]]:
        hand = self.match.state.player(seat).in_hand
        return [(pid, hand_spot(self.match, seat, i, len(hand))) for i, pid in enumerate(hand)]

    def pulled(self, t: float, began: float | None = None) -> None:
        """The window pulled its events at ``t`` (every frame), having begun to at ``began``."""

    def observe(self, pos: Pos, t: float) -> None:
        """The pointer moved to ``pos`` with no pawn held (pulled at ``t``)."""

    # each control: press (True when it took a pawn), move, release, draw
    def press(self, seat: str, pos: Pos, t: float) -> bool:
        raise NotImplementedError

    def move(self, pos: Pos, t: float) -> Outcome | None:
        raise NotImplementedError

    def release(self, pos: Pos, t: float) -> Outcome:
        raise NotImplementedError

    # each draws, and returns the rectangles it drew over (the window presents only those
    # while nothing but the hand moves)
    def draw(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """The control in the view it was taken in."""
        return []

    def draw_in(self, surface: pygame.Surface, view: TableView) -> list[pygame.Rect]:
        """The control as seen in another view (the held pawn)."""
        if self.held is None or self.seat is None:
            return []
        x, y = self.lane().to_world(*self.hold)
        return [view.draw_pawn(surface, self.held, x, y, ring=draw.HIGHLIGHT)]

    def draw_gauge(
        self, surface: pygame.Surface, rect: pygame.Rect, size: int
    ) -> list[pygame.Rect]:
        """The control's gauge, if it has one, in ``rect``."""
        return []

    def gauge_height(self, size: int) -> int:
        """Pixels the screen keeps under the table for the gauge, its words at ``size`` (0:
        the control has none). The gauge never covers the table."""
        return 0


class FlickControl(Control):
    name = "flick"
    hint = "drag a pawn from your hand and flick it toward the board"

    def __init__(self, match: Match, view: draw.TableView) -> None:
        super().__init__(match, view)
        self.hand = Hand()

    def press(self, seat: str, pos: Pos, t: float) -> bool:
        self.seat = seat
        along, across = self.lane_at(pos)
        reach = 1.6 * self.match.params.pawn_radius
        for pid, (a, c) in self.waiting(seat):
            if math.hypot(along - a, across - c) <= reach:
                self.held = pid
                self.hold = self.match.clamp_hold(seat, along, across)
                self.hand.begin(t, *pos)
                return True
        return False

    def pulled(self, t: float, began: float | None = None) -> None:
        self.hand.pulled(t, began)

    def observe(self, pos: Pos, t: float) -> None:
        self.hand.observe(t, *pos)  # free motion teaches the hand the pointer's event rate

    def move(self, pos: Pos, t: float) -> Outcome | None:
        if self.held is None or self.seat is None:
            return None
        self.hand.add(t, *pos)
        along, across = self.lane_at(pos)
        if along > self.lane().foul:
            return self._foul()
        hold = self.match.clamp_hold(self.seat, along, across)
        if not self.match.blocked(self.seat, *hold):
            self.hold = hold
        return None

    def release(self, pos: Pos, t: float) -> Outcome:
        assert self.held is not None and self.seat is not None
        along, _ = self.lane_at(pos)
        if along > self.lane().foul:
            return self._foul()
        vx, vy = self.hand.release(t, *pos)
        lane = self.lane()
        wx, wy = vx * FLICK_GAIN, -vy * FLICK_GAIN  # screen y grows downward
        flick = Flick(
            self.seat, self.held, self.hold[0], self.hold[1], *lane.vector_from_world(wx, wy)
        )
        self.held = None
        shot = self.match.flick_shot(flick)
        if shot is None:
            return Outcome(words="Flick the pawn toward the board to slide it")
        return Outcome(shot=shot)

    def _foul(self) -> Outcome:
        assert self.held is not None and self.seat is not None
        pid, self.held = self.held, None
        return Outcome(shot=self.match.foul_shot(self.seat, pid, self.hold[1]), foul=True)

    def draw(self, surface: pygame.Surface) -> list[pygame.Rect]:
        return self.draw_in(surface, self.view)


class AimControl(Control):
    name = "aim"
    hint = "press in your lane, pull back to aim, let go when the meter shows the power"

    def __init__(self, match: Match, view: draw.TableView, meter: str = DEFAULT_METER) -> None:
        super().__init__(match, view)
        self.pointer: Pos = (0.0, 0.0)
        self.meter: Meter = METERS[meter]
        self.pressed_at = 0.0
        """when the pawn was taken: the meter's marker starts from nothing then"""
        self.now = 0.0
        """the latest reading of the input clock (the meter drawn where it is now)"""

    def press(self, seat: str, pos: Pos, t: float) -> bool:
        self.seat = seat
        lane = self.lane()
        along, across = self.lane_at(pos)
        r = self.match.params.pawn_radius
        # anywhere in the lane from the hand to a pawn's radius past the foul line (snapped to it)
        if not (-HAND_BACK - 2 * r <= along <= lane.foul + r and abs(across) <= lane.width / 2 + r):
            return False
        waiting = self.waiting(seat)
        if not waiting:
            return False
        pid = waiting[0][0]
        for p, (a, c) in waiting:  # a pawn pressed in the hand is the one slid
            if math.hypot(along - a, across - c) <= 1.2 * r:
                pid = p
        spot = self._free_spot(across)
        if spot is None:
            return False
        self.held, self.hold, self.pointer = pid, spot, pos
        self.pressed_at = self.now = t
        return True

    def _free_spot(self, across: float) -> Pos | None:
        assert self.seat is not None
        lane = self.lane()
        along = lane.foul
        limit = lane.width / 2 - self.match.params.pawn_radius
        first = min(max(across, -limit), limit)
        for k in range(0, 41):
            for sign in (1, -1):
                c = first + sign * k * limit / 20
                if abs(c) <= limit and not self.match.blocked(self.seat, along, c):
                    return along, c
        return None

    def pulled(self, t: float, began: float | None = None) -> None:
        self.now = max(self.now, t)

    def move(self, pos: Pos, t: float) -> Outcome | None:
        if self.held is not None:
            self.pointer = pos
            self.now = max(self.now, t)
        return None

    def power(self, t: float | None = None) -> float:
        """The meter's marker (0..1) at ``t`` (None: now)."""
        return meter_power(self.meter.period, (self.now if t is None else t) - self.pressed_at)

    def pull(self) -> tuple[float, Pos]:
        """(length 0..1 of ``PULL_MAX``, unit direction in the world) of the pull now: the
        direction aims; the length only says whether the pawn is pulled at all."""
        ax, ay = self.view.to_screen(*self.lane().to_world(*self.hold))
        dx, dy = ax - self.pointer[0], ay - self.pointer[1]
        length = math.hypot(dx, dy)
        if length < 1e-9:
            return 0.0, self.lane().forward
        return min(length / PULL_MAX, 1.0), (dx / length, -dy / length)

    def speed(self) -> float:
        assert self.seat is not None
        return pull_speed(self.match, self.seat, self.power())

    def release(self, pos: Pos, t: float) -> Outcome:
        assert self.held is not None and self.seat is not None
        self.pointer = pos
        self.now = t
        ax, ay = self.view.to_screen(*self.lane().to_world(*self.hold))
        pid = self.held
        self.held = None
        if math.hypot(pos[0] - ax, pos[1] - ay) < CANCEL_PULL:
            return Outcome(words="Pull back from the pawn, away from the board, then let go")
        self.held = pid
        shot = self.intended()
        self.held = None
        if shot is None:
            return Outcome(words="Pull back, away from the board, to slide the pawn forward")
        return Outcome(shot=shot)

    def intended(self) -> Shot | None:
        """The shot letting go now would slide (None: no pawn held, or the pull does not push
        it toward the board)."""
        if self.held is None or self.seat is None:
            return None
        speed = self.speed()
        _, (wx, wy) = self.pull()
        v_along, v_across = self.lane().vector_from_world(speed * wx, speed * wy)
        flick = Flick(self.seat, self.held, self.hold[0], self.hold[1], v_along, v_across)
        return self.match.flick_shot(flick)

    def aim(self) -> tuple[float, float] | None:
        """(speed fraction 0..1, angle to the shooter's right of straight, rad) of the pull now;
        None when the pull does not point the pawn toward the board."""
        if self.held is None or self.seat is None:
            return None
        length, (wx, wy) = self.pull()
        along, across = self.lane().vector_from_world(wx, wy)
        if along <= 0 or length <= 0:
            return None
        return self.power(), math.atan2(across, along)

    def draw(self, surface: pygame.Surface) -> list[pygame.Rect]:
        if self.held is None or self.seat is None:
            return []
        lane = self.lane()
        x, y = lane.to_world(*self.hold)
        a = self.view.to_screen(x, y)
        aim = self.aim()
        drawn = []
        if aim is not None:
            far = self.far()
            drawn.append(
                aim_path(surface, self.view, lane, self.hold, aim[1], far, (255, 255, 255))
            )
            drawn.append(pygame.draw.line(surface, (250, 200, 60), a, self.pointer, 2))
        return [*drawn, self.view.draw_pawn(surface, self.held, x, y, ring=draw.HIGHLIGHT)]

    def draw_in(self, surface: pygame.Surface, view: TableView) -> list[pygame.Rect]:
        """The aim as seen in another pane: the path the pawn is aimed along, and the pawn."""
        aim = self.aim()
        if self.held is None or self.seat is None:
            return []
        lane = self.lane()
        drawn = []
        if aim is not None:
            drawn.append(
                aim_path(surface, view, lane, self.hold, aim[1], self.far(), (255, 255, 255))
            )
        x, y = lane.to_world(*self.hold)
        return [*drawn, view.draw_pawn(surface, self.held, x, y, ring=draw.HIGHLIGHT)]

    def far(self) -> float:
        """How far down the lane the aim line is drawn (m): the meter's share of the way from
        the pawn to the far edge of the board."""
        assert self.seat is not None
        far = board_far(self.match, self.seat)
        return self.hold[0] + (far - self.hold[0]) * self.meter.line

    def draw_gauge(
        self, surface: pygame.Surface, rect: pygame.Rect, size: int
    ) -> list[pygame.Rect]:
        """The power meter in ``rect``: a bar filled to the moving marker, no number and no
        mark for the centre (where to let go is the hand's to learn)."""
        if self.held is None:
            return []
        power = self.power()
        pygame.draw.rect(surface, (20, 20, 24), rect, border_radius=6)
        fill = rect.inflate(-6, -6)
        fill.width = round(fill.width * power)
        rgb = (90, 200, 90) if power < 0.7 else (240, 190, 60) if power < 0.9 else (230, 80, 60)
        if fill.width > 0:
            pygame.draw.rect(surface, rgb, fill, border_radius=4)
            x = fill.right - 1
            pygame.draw.line(surface, (250, 250, 250), (x, rect.y + 2), (x, rect.bottom - 3), 3)
        pygame.draw.rect(surface, (200, 200, 200), rect, 1, border_radius=6)
        words = draw.text(surface, "power", (rect.x + 10, rect.centery), size, draw.TEXT,
                          "midleft", True)  # fmt: skip
        return [rect, words]

    def gauge_height(self, size: int) -> int:
        return max(round(size * draw.SIZE_TO_PX * 2), 26) + 6


def board_far(match: Match, seat: str) -> float:
    """How far down ``seat``'s lane the far edge of the board is (m)."""
    lane = match.seat(seat)
    return lane.from_world(0.0, 0.0)[0] + match.layout.board_side / 2


def aim_path(
    surface: pygame.Surface,
    view: draw.TableView,
    lane: Seat,
    hold: Pos,
    angle: float,
    far: float,
    rgb: tuple[int, int, int],
) -> pygame.Rect:
    """The dashed path of a pawn released at ``hold`` (along, across) heading ``angle`` (rad,
    to the shooter's right), drawn in ``view`` up to the far edge of the board (``far`` metres
    down the lane), clipped to the view; returns the rectangle it lies in."""
    along, across = hold
    length = max(far - along, 0.0) / max(math.cos(angle), 0.2)
    end = (along + length * math.cos(angle), across + length * math.sin(angle))
    a = view.to_screen(*lane.to_world(along, across))
    b = view.to_screen(*lane.to_world(*end))
    clip = surface.get_clip()
    surface.set_clip(view.rect.clip(clip))
    _dashes(surface, (20, 22, 28), a, b, 5)
    _dashes(surface, rgb, a, b, 2)
    surface.set_clip(clip)
    return pygame.Rect(a, (0, 0)).union(pygame.Rect(b, (0, 0))).inflate(8, 8).clip(view.rect)


def make_control(
    name: str, match: Match, view: draw.TableView, meter: str = DEFAULT_METER
) -> Control:
    if check_control(name) == "aim":
        return AimControl(match, view, meter)
    return FlickControl(match, view)


def _dashes(
    s: pygame.Surface, rgb: tuple[int, int, int], a: tuple[int, int], b: tuple[int, int], w: int
) -> None:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    n = max(int(length / 10), 1)
    for k in range(0, n, 2):
        t0, t1 = k / n, min((k + 1) / n, 1.0)
        p = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        q = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        pygame.draw.line(s, rgb, p, q, w)
