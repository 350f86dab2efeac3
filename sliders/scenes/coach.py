"""The coach at the table: what the practice, drill, play, results and replay screens show to
help a person get better, each computed the project's one way and off the frame's path.

- :class:`AimHelp`: while a pawn is aimed, the path it would take with no noise up to its first
  contact and a ghost where it would stop, from the one physics interface
  (:func:`sliders.physics.simulate`), solved once per aim (the pull moves a pixel: a new aim).
- :class:`Hint`: the computer's suggested shot, from the one search the computer players use
  (:class:`sliders.ai.PlanSearch`, the :data:`HINT_MIND` settings), run in the window's
  background thread and drawn as a ghost arrow.
- :class:`WinChances`: each seat's chance of winning after every shot, from the one position
  value (:func:`sliders.ai.win_model`, each seat under its own hand), computed in the background.
- :class:`ReviewingScreen`: a finished game reviewed (:func:`sliders.lab.review.review_of`) in
  the background, then shown on the review screen.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pygame

from sliders.ai import MINDS, Mind, PlanSearch, win_model
from sliders.boards import Face, Layout, Seat
from sliders.boards import face as face_named
from sliders.core.errors import UserError
from sliders.core.outcome import EventType, PawnRest, Shot, ShotResult
from sliders.game.config import HANDS
from sliders.game.hand import person_noise
from sliders.game.narrate import name_pawns
from sliders.game.saves import params_of, replay_layout
from sliders.lab.review import REVIEW_MIND, log_digest, review_of
from sliders.physics import Noise, PhysicsParams, Setup, simulate
from sliders.rules import Game, GameState
from sliders.scenes import draw
from sliders.scenes.app import App, Screen, screen
from sliders.scenes.table import Match

HINT_MIND: Mind = MINDS["fair"]
"""the search's settings for a hint: the medium computer's mind (1,500 simulations)"""
REVIEWING_MIND: Mind = REVIEW_MIND
"""the search's settings for a review made in the window (the one ``sliders review`` uses)"""
ARROW_SECONDS = 0.25
"""a ghost arrow's length: the distance the pawn would cover in this long at the shot's speed"""
HELP_RGB = (120, 210, 255)
HINT_RGB = (90, 220, 120)

Pos = tuple[float, float]


class AimHelp:
    """The noise-free path of an aimed shot up to its first contact, and where it would stop."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.on = False
        self._key: tuple[Any, ...] | None = None
        self._found: tuple[list[Pos], PawnRest | None] | None = None
        self.solved = 0
        """shots solved so far (one per new aim)"""

    def at(
        self, table: Sequence[PawnRest], shot: Shot | None
    ) -> tuple[list[Pos], PawnRest | None] | None:
        """(the path's points, the shot pawn's rest) of ``shot`` onto ``table``; None when no
        shot is aimed or the physics refuses it. Solved again only when the aim has changed."""
        if shot is None:
            return None
        key = (
            tuple((p.id, p.x, p.y) for p in table),
            shot.seat, shot.pawn, round(shot.speed, 3), round(shot.angle, 4),
            round(shot.offset, 4), shot.release,
        )  # fmt: skip
        if key == self._key:
            return self._found
        self._key = key
        try:
            result = simulate(self.setup, table, replace(shot, seed=0))
        except UserError:
            self._found = None
            return None
        self.solved += 1
        self._found = first_contact(result)
        return self._found


def first_contact(result: ShotResult) -> tuple[list[Pos], PawnRest | None]:
    """The shot pawn's path from its release to its first contact with a pawn or a rail (or to
    where it left play, or stopped), and its rest."""
    me = result.shooter
    path: list[Pos] = []
    for e in result.events:
        if me not in e.pawns:
            continue
        if e.type is EventType.RELEASE:
            path.append((e.x, e.y))
        elif e.type in (
            EventType.CONTACT, EventType.RAIL, EventType.OFF_BOARD, EventType.IN_HOLE,
            EventType.KNOCKED_OVER,
        ):  # fmt: skip
            path.append((e.x, e.y))
            break
    rest = result.pawn(me)
    if len(path) < 2 and rest is not None:
        path.append((rest.x, rest.y))
    return path, rest


def draw_help(
    surface: pygame.Surface, view: draw.TableView, found: tuple[list[Pos], PawnRest | None]
) -> None:
    """The aim help in ``view``: the path as a line, the rest as a faded pawn ringed."""
    path, rest = found
    clip = surface.get_clip()
    surface.set_clip(view.rect.clip(clip))
    points = [view.to_screen(x, y) for x, y in path]
    if len(points) > 1:
        pygame.draw.lines(surface, (20, 22, 28), False, points, 5)
        pygame.draw.lines(surface, HELP_RGB, False, points, 2)
        pygame.draw.circle(surface, HELP_RGB, points[-1], 4)
    if rest is not None:
        if rest.status.in_play:
            view.draw_pawn(surface, rest.id, rest.x, rest.y, faded=True)
        centre = view.to_screen(rest.x, rest.y)
        pygame.draw.circle(surface, HELP_RGB, centre, view.px(view.r) + 3, 2)
    surface.set_clip(clip)


def draw_arrow(
    surface: pygame.Surface,
    view: draw.TableView,
    seat: Seat,
    speed: float,
    angle: float,
    offset: float,
    release: float | None,
    rgb: tuple[int, int, int],
) -> None:
    """A shot as an arrow in ``view``: from its release point, along its heading (``angle`` rad
    to the shooter's right), as long as the pawn runs in :data:`ARROW_SECONDS` at ``speed``."""
    along = seat.foul if release is None else release
    length = speed * ARROW_SECONDS
    x0, y0 = seat.to_world(along, offset)
    x1, y1 = seat.to_world(along + length * math.cos(angle), offset + length * math.sin(angle))
    p0, p1 = view.to_screen(x0, y0), view.to_screen(x1, y1)
    clip = surface.get_clip()
    surface.set_clip(view.rect.clip(clip))
    pygame.draw.line(surface, (20, 22, 28), p0, p1, 8)  # edged dark, to show on the lane
    pygame.draw.circle(surface, (20, 22, 28), p1, 8)
    pygame.draw.line(surface, rgb, p0, p1, 4)
    pygame.draw.circle(surface, rgb, p1, 6)
    surface.set_clip(clip)


class Hint:
    """The computer's suggested shot for a position, searched in the background."""

    def __init__(self, app: App, mind: Mind | None = None) -> None:
        self.app = app
        self.mind = mind or HINT_MIND
        self._found: dict[object, tuple[Shot, str, float]] = {}
        self._asked: set[object] = set()
        self.error = ""

    def ask(
        self,
        key: object,
        seat: str,
        hand: Noise,
        state: GameState,
        layout: Layout,
        face: Face,
        params: PhysicsParams,
        rng: np.random.Generator,
    ) -> None:
        """Search ``seat``'s best shot in ``state`` (once for each ``key``: the position)."""
        if key in self._asked:
            return
        self._asked.add(key)
        mind = self.mind

        def work() -> None:
            try:
                search = PlanSearch(seat, hand, mind, rng, state, layout, face, params)
                search.run()
                kind, label, value = search.best_candidate()
                self._found[key] = (search.best(), name_pawns(f"{kind}: {label}"), value)
            except UserError as exc:
                self.error = str(exc)

        self.app.background.add(f"hint:{id(self)}:{len(self._asked)}", "finding a hint", work)

    def asked(self, key: object) -> bool:
        return key in self._asked

    def found(self, key: object) -> tuple[Shot, str, float] | None:
        """(the shot, what it is, its chance of winning) for ``key``, once searched."""
        return self._found.get(key)


class WinChances:
    """Each seat's chance of winning (its own hand's model), after every step of a game."""

    def __init__(
        self,
        app: App,
        layout: Layout,
        face: Face,
        params: PhysicsParams,
        hands: Mapping[str, Noise],
    ) -> None:
        self.app, self.layout, self.face, self.params = app, layout, face, params
        self.hands = dict(hands)
        self.on = False
        self._found: dict[object, dict[str, float]] = {}
        self._latest: dict[str, float] | None = None

    def ask(self, key: object, state: GameState) -> None:
        """Value ``state`` for every seat in the background (once for each ``key``)."""
        if key in self._found:
            return
        self._found[key] = {}
        layout, face, params, hands = self.layout, self.face, self.params, self.hands

        def work() -> None:
            got = {
                s: win_model(layout, face, s, hands[s], params).win_probability(state, s)
                for s in state.seats
            }
            self._found[key] = got

        self.app.background.add(
            f"win:{id(self)}:{len(self._found)}", "the chances of winning", work
        )

    def chances(self, key: object) -> dict[str, float] | None:
        """The chances for ``key`` once known; else the last known (None: none yet)."""
        got = self._found.get(key)
        if got:
            self._latest = got
        return self._latest

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, key: object) -> None:
        """A bar per seat in ``rect`` (its top left), in the seat's colour, the chance in
        words beside it: the seats' shares of the chances, in whole percents adding to 100
        (:func:`whole_percents`)."""
        got = self.chances(key)
        size = draw.MIN_UI_SIZE
        line = round(size * draw.SIZE_TO_PX * 1.6)
        seats = list(self.hands)
        panel = pygame.Rect(rect.x, rect.y, min(rect.w, 260), line * (len(seats) + 1) + 8)
        pygame.draw.rect(surface, draw.PANEL, panel)  # opaque: its words read on any table
        draw.text(surface, "chance of winning", (panel.x + 6, panel.y + 4), size, draw.DIM)
        shares = whole_percents(got) if got is not None and set(seats) <= set(got) else None
        for i, seat in enumerate(seats):
            y = panel.y + 4 + line * (i + 1)
            bar = pygame.Rect(panel.x + 6, y + 2, panel.w - 70, line - 6)
            pygame.draw.rect(surface, (70, 72, 80), bar)
            if shares is not None:
                fill = bar.copy()
                fill.w = round(bar.w * shares[seat] / 100)
                pygame.draw.rect(surface, draw.seat_rgb(seat), fill)
                words = f"{shares[seat]}%"
            else:
                words = "…"
            draw.text(surface, words, (bar.right + 8, bar.centery), size, draw.TEXT, "midleft")


def whole_percents(chances: Mapping[str, float]) -> dict[str, int]:
    """Each seat's share of ``chances`` in whole percents that add to 100 (largest remainder
    first; equal remainders in seat order). Each seat's chance comes from its own hand's model,
    so the raw chances need not add to one: they are shared out in proportion."""
    seats = list(chances)
    raw = [min(max(chances[s], 0.0), 1.0) for s in seats]
    total = sum(raw)
    if not seats:
        return {}
    exact = [100 * v / total for v in raw] if total > 0 else [100 / len(seats)] * len(seats)
    whole = [math.floor(v) for v in exact]
    order = sorted(range(len(seats)), key=lambda i: (-(exact[i] - whole[i]), i))
    for i in order[: 100 - sum(whole)]:
        whole[i] += 1
    return dict(zip(seats, whole, strict=True))


@screen("reviewing")
class ReviewingScreen:
    """A game being reviewed in the background (the shot it has reached shown), then the review
    screen; Escape goes back to ``back`` (the screen it came from)."""

    def __init__(self, app: App, game: Game, back: Screen) -> None:
        self.app, self.game, self.back = app, game, back
        self.done, self.total = 0, 0
        self.review: Any = None
        self.cancelled = False
        self.error = ""
        self.button = draw.Button("Back", self.cancel)
        self._drawn: tuple[int, int, str] | None = None
        mind = REVIEWING_MIND

        def progress(done: int, total: int) -> None:
            if self.cancelled:
                raise _Cancelled
            self.done, self.total = done, total

        def work() -> None:
            try:
                self.review = review_of(
                    game, log_digest(game), mind=mind, params=params_of(game), progress=progress
                )
            except _Cancelled:
                pass
            except UserError as exc:
                self.error = str(exc)

        app.background.add(f"review:{id(self)}", "reviewing the game", work)

    def cancel(self) -> None:
        self.cancelled = True
        self.app.show(self.back)

    def changed(self) -> bool:
        """True when the words shown differ from the last drawn (the app draws only then, or on
        input)."""
        key = (self.done, self.total, self.error)
        if key == self._drawn:
            return False
        self._drawn = key
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.cancel()
            return
        self.button.handle(event)

    def update(self, dt: float) -> None:
        if self.review is not None and not self.cancelled and self.app.screen is self:
            game = self.game
            self.app.go(
                "review",
                self.review,
                game.states,
                replay_layout(game),
                face_named(game.face),
                params_of(game).pawn_radius,
                lambda: self.app.show(self.back),
            )

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(draw.BACKGROUND)
        w, h = surface.get_size()
        size = draw.ui_size(surface, 30)
        if self.error:
            words = f"The game cannot be reviewed: {self.error}"
        elif self.total:
            words = f"Reviewing the game: shot {self.done} of {self.total}"
        else:
            words = "Reviewing the game…"
        draw.text(surface, draw.clipped(words, size, w - 40), (w // 2, h // 2 - 40), size,
                  draw.TEXT, "center", True)  # fmt: skip
        note = "each shot searched for the best the computer finds (Esc: back)"
        draw.text(surface, note, (w // 2, h // 2 + 10), draw.MIN_UI_SIZE, draw.DIM, "center")
        bh = max(round(50 * draw.ui_scale(surface)), 40)
        self.button.rect = pygame.Rect(w // 2 - 100, h - bh - 30, 200, bh)
        self.button.draw(surface, draw.ui_size(surface, 26))


class _Cancelled(Exception):
    """A review left before it finished (raised in its own thread, at its next shot)."""


class GameCoach:
    """The play screen's coach: each seat's chance of winning (W, a toggle, off by default),
    updated after every shot; and, in a game that allows them (``sliders play --hints``), a hint
    for a person whose turn it is (H), each one shown written in the game's log."""

    def __init__(self, app: App, match: Match) -> None:
        self.app, self.match = app, match
        config = match.config
        person = person_noise(HANDS[config.hand])
        hands = {s.seat: person if s.human else s.level().hand for s in config.seats}
        self.person = person
        self.chances = WinChances(app, match.layout, match.face, match.params, hands)
        self.hint = Hint(app)
        self.allowed = bool(getattr(app, "hints", False))
        self.hinted: object = None
        self._logged: set[object] = set()

    def position(self) -> object:
        return len(self.match.game.steps), self.match.turn

    def key(self, key: int) -> bool:
        """Take a key press; True when it was the coach's."""
        if key == pygame.K_w:
            self.chances.on = not self.chances.on
            return True
        if key == pygame.K_h and self.allowed:
            self.ask_hint()
            return True
        return False

    def ask_hint(self) -> None:
        m = self.match
        seat = m.turn
        if seat is None or m.rolling or m.is_computer(seat) or m.state.next_pawn() is None:
            return
        key = self.position()
        self.hinted = key
        seed = m.config.seed
        rng = np.random.default_rng([seed, len(m.game.steps)] if seed is not None else None)
        self.hint.ask(key, seat, self.person, m.state, m.layout, m.face, m.params, rng)

    def update(self) -> None:
        if self.chances.on and not self.match.rolling:
            self.chances.ask(self.match.state, self.match.state)  # each position once

    def shown(self) -> tuple[object, ...]:
        """What the coach shows now (the play screen draws again when it changes)."""
        m = self.match
        got = self.chances.chances(m.state) if self.chances.on else None
        return (self.chances.on, str(got), self.current() is not None, self.hinted)

    def current(self) -> Shot | None:
        """The hint to show now: the one asked for this very position, once found."""
        if self.hinted is None or self.hinted != self.position() or self.match.rolling:
            return None
        got = self.hint.found(self.hinted)
        return None if got is None else got[0]

    def draw(self, surface: pygame.Surface, views: Sequence[draw.TableView]) -> None:
        """The hint's arrow in every pane (written in the log the first time it is shown) and
        the chances over the main pane (the first of ``views``)."""
        shot = self.current()
        if shot is not None:
            if self.hinted not in self._logged:
                self._logged.add(self.hinted)
                self.match.game.hints.append((len(self.match.game.steps), shot))
            seat = self.match.seat(shot.seat)
            for view in views:
                draw_arrow(surface, view, seat, shot.speed, shot.angle, shot.offset,
                           shot.release, HINT_RGB)  # fmt: skip
        if self.chances.on and views:
            rect = views[0].rect
            self.chances.draw(surface, pygame.Rect(rect.x + 8, rect.y + 8, rect.w - 16, 0),
                              self.match.state)  # fmt: skip
