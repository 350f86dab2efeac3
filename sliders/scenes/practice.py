"""Practice and drills in the window.

**Practice** (:class:`PracticeScreen`): a sandbox on any layout and face. Drag a pawn of any
seat's colour from the panel onto the table, drag pawns about, right-click one (or drag it off
the table) to take it away; slide the shooting seat's pawns as often as you like with the game's
control (N: the next seat slides). Z takes back the last change (a shot or an edit), R puts the
table back as it was before the last shot to try it again, C clears the table; S saves the table
as a scene file (the format ``sliders shot --scene`` reads, :class:`sliders.files.scenes.Scene`)
and L loads it back. A (aim help, a toggle): while you aim, the path the pawn would take with no
noise up to its first contact and a ghost where it would stop; H: the computer's suggested shot
as a ghost arrow (:mod:`sliders.scenes.coach`).

**Drills** (:class:`DrillsScreen`, :class:`DrillScreen`): the ladder of
:mod:`sliders.game.drills` played with the mouse, every try slid as the hand made it (nothing
added), scored, the best scores kept and the ``centre`` and ``hole`` tries kept as attempts for
the hand fit, as ``sliders drills`` keeps them. At a drill's end, your spread in its tries
(speed %, angle °, as the hand fit measures it) is shown beside your first and your steadiest
and kept (:func:`sliders.game.hand.keep_spread`).

After every shot, in practice and in the drills, a line says what your hand did:
``your flick: 0.62 m/s, 2.0° left of your aim`` (against the drill's target, or the board's
centre; :func:`sliders.game.hand.slide_words`).

The table under both is :class:`PracticeTable`: a :class:`~sliders.scenes.table.Match` whose
position is the sandbox's (any pawns standing, one seat to slide: the position a study's shot is
taken in, :func:`sliders.ai.value.study_state`), so the play screen's panes, control and shot
animation serve it unchanged.
"""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pygame

from sliders.ai.value import GameSpot, study_state
from sliders.core.errors import UserError
from sliders.core.outcome import (
    PAWNS_PER_PLAYER,
    SEAT_COLOURS,
    Shot,
    ShotResult,
    Status,
    pawn_id,
)
from sliders.files.scenes import Scene, ScenePawn
from sliders.game import HomeChoice
from sliders.game.config import MatchConfig, SeatSpec, layout_seats
from sliders.game.drills import (
    LADDER,
    MAX_TRY,
    TRIES,
    Drill,
    attempt,
    best_scores,
    record_score,
    score_try,
)
from sliders.game.hand import (
    keep_attempts,
    keep_spread,
    progress_words,
    slide_words,
)
from sliders.game.narrate import narrate_shot, wrap_all
from sliders.lab.handfit import drill_spread
from sliders.physics import Noise, PhysicsParams, Simulation, at_rest, start
from sliders.physics.shot import rest_of
from sliders.rules import GameState, Happening, RulesError, apply_shot
from sliders.scenes import draw
from sliders.scenes.app import App, screen
from sliders.scenes.coach import HINT_RGB, AimHelp, Hint, draw_arrow, draw_help
from sliders.scenes.controls import AimControl
from sliders.scenes.draw import TableView
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match

DEFAULT_SCENE = "practice-scene.json"
"""where S saves the practice table and L loads it from, without ``--scene``"""
RESET_AFTER = 1.5
"""seconds a drill's try stays on the table before the table is set for the next"""

Pos = tuple[float, float]


class PracticeTable(Match):
    """The sandbox's table: pawns standing anywhere, ``shooter`` to slide (see the module)."""

    def __init__(
        self,
        scene: Scene,
        shooter: str | None = None,
        hand: str = "exact",
        params: PhysicsParams | None = None,
    ) -> None:
        seats = tuple(SeatSpec(s, "human") for s in scene.seats)
        super().__init__(MatchConfig(scene.face, scene.layout, seats, hand=hand), params)
        self.scene = scene
        self.seats = self.turns.game.seats
        self.shooter = shooter if shooter in self.seats else self.seats[0]
        self.pawns: tuple[ScenePawn, ...] = ()
        self.history: list[tuple[ScenePawn, ...]] = []
        """the tables before each change, the latest last (Z takes them back)"""
        self.before_shot: tuple[ScenePawn, ...] | None = None
        self.last: ShotResult | None = None
        self.last_slide: Shot | None = None
        self._sim: Simulation | None = None
        self._slide: Shot | None = None
        self.set_pawns(scene.pawns, keep=False)

    # -- the position --------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self._state

    @property
    def turn(self) -> str | None:
        return self._state.turn

    @property
    def sim(self) -> Simulation | None:
        return self._sim

    @property
    def slide(self) -> Shot | None:
        return self._slide

    @property
    def hand(self) -> Noise:
        """the hand the person practises with"""
        return self.turns.hand

    def set_pawns(self, pawns: tuple[ScenePawn, ...] | list[ScenePawn], keep: bool = True) -> None:
        """Stand ``pawns`` on the table (``keep``: the table before can be taken back)."""
        if keep:
            self.history.append(self.pawns)
        self.pawns = tuple(pawns)
        self._rebuild()

    def _rebuild(self) -> None:
        table = at_rest(self.layout, self.face, self.pawns, self.params)
        self._state = study_state(self.face.name, self.seats, self.shooter, table, GameSpot())

    def set_shooter(self, seat: str) -> None:
        self.shooter = seat
        self._rebuild()

    def scene_now(self) -> Scene:
        """The table as a scene file holds it."""
        return Scene(self.scene.layout, self.seats, self.face.name, self.pawns)

    def free_pawn(self, seat: str) -> str | None:
        """A pawn of ``seat`` not on the table (None: all four are)."""
        standing = {p.id for p in self.pawns}
        for n in range(1, PAWNS_PER_PLAYER + 1):
            if (pid := pawn_id(seat, n)) not in standing:
                return pid
        return None

    def place(self, pid: str, x: float, y: float) -> str:
        """Stand ``pid`` at (x, y), moved or added; "" when done, else why not."""
        r = self.params.pawn_radius
        if not rest_of(self.layout, self.face, pid, x, y, r).status.in_play:
            return "A pawn stands on the board, or on its own seat's track"
        others = [p for p in self.pawns if p.id != pid]
        if any(math.hypot(p.x - x, p.y - y) < 2 * r for p in others):
            return "That spot is taken by another pawn"
        self.set_pawns([*others, ScenePawn(pid, x, y)])
        return ""

    def remove(self, pid: str) -> None:
        self.set_pawns([p for p in self.pawns if p.id != pid])

    def undo(self) -> bool:
        """Take back the last change; False when there is none."""
        if not self.history:
            return False
        self.pawns = self.history.pop()
        self._rebuild()
        return True

    def retry(self) -> bool:
        """The table as it was before the last shot; False when no shot was slid."""
        if self.before_shot is None:
            return False
        self.set_pawns(self.before_shot)
        return True

    # -- a shot --------------------------------------------------------------------------------

    def home_choice(self, result: ShotResult, home: dict[str, int]) -> HomeChoice | None:
        return None  # a pawn in the hole sends no scoring pawn HOME here: no score boards

    def by_hand(self, shot: Shot) -> Shot:
        return self.turns.by_hand(shot, self._state)

    def think(self, seconds: float | None) -> Shot | None:
        return None

    def start(self, shot: Shot) -> bool:
        if self._sim is not None:
            return False
        if shot.pawn is None:
            shot = replace(shot, pawn=self._state.next_pawn())
        slide = replace(shot, seed=int(self.turns.physics_rng.integers(2**63)))
        try:
            sim = start(self.turns.setup, self._state.table, slide)
        except UserError as exc:
            self.turns.told.append(f"The shot is refused ({exc}).")
            return False
        self._sim, self._slide = sim, slide
        self._acc = 0.0
        self._curr = sim.positions()
        self._prev = dict(self._curr)
        self._seen_events = 0
        return True

    def finish(self, home: dict[str, int] | None = None) -> tuple[ShotResult, list[Happening]]:
        if self._sim is None or self._sim.moving:
            raise UserError("no shot has come to rest")
        before = self._state
        result = self._sim.result()
        try:
            _, happened = apply_shot(before, result, home)
        except RulesError:
            happened = []
        self.before_shot = self.pawns
        self.last, self.last_slide = result, self._slide
        self.set_pawns([ScenePawn(p.id, p.x, p.y) for p in result.pawns if p.status.in_play])
        self._sim, self._slide = None, None
        self._prev, self._curr = {}, {}
        self.turns.told.extend(narrate_shot(result, happened, before.table, self.face))
        return result, happened


def scene_for(face: str, layout: str) -> Scene:
    """An empty table of ``layout`` with every seat it has, on ``face``."""
    return Scene(layout, layout_seats(layout), face)


@screen("practice")
class PracticeScreen(PlayScreen):
    """The sandbox (see the module)."""

    editable = True
    PARTIAL = False  # its panel and aim help are drawn over the play screen's picture

    def __init__(
        self, app: App, scene: Scene, hand: str = "exact", path: str | None = None
    ) -> None:
        table = PracticeTable(scene, hand=hand)
        super().__init__(app, table)
        self.table = table
        self.path = Path(path or DEFAULT_SCENE)
        self.overview = False  # the board large; Tab: the whole table, every lane
        self.help = AimHelp(table.turns.setup)
        self.hint = Hint(app)
        self.hinted: object = None  # the position a hint was asked for
        self.drag: tuple[str, bool] | None = None  # (the pawn dragged, whether it is new)
        self.drag_at: tuple[int, int] = (0, 0)
        self.swatches: list[tuple[str, pygame.Rect]] = []
        self.tools = self._tools()
        self._panel_key: tuple[object, ...] | None = None
        self.messages = [self.welcome()]

    def welcome(self) -> str:
        return (
            f"Practice: {SEAT_COLOURS[self.table.shooter].capitalize()} slides. Drag colours "
            "onto the table; Z undo, R retry, A aim help, H hint"
        )

    def _tools(self) -> list[draw.Button]:
        return [
            draw.Button("Undo (Z)", self.undo),
            draw.Button("Retry (R)", self.retry),
            draw.Button("Aim help (A)", self.toggle_help),
            draw.Button("Hint (H)", self.ask_hint),
            draw.Button("Next seat (N)", self.next_shooter),
            draw.Button("Clear (C)", self.clear),
            draw.Button("Save (S)", self.save),
            draw.Button("Load (L)", self.load),
        ]

    # -- actions -------------------------------------------------------------------------------

    def idle(self) -> bool:
        """True when the table may change: no shot rolling, no pawn held."""
        return not self.table.rolling and not self.control.engaged and self.drag is None

    def undo(self) -> None:
        if self.idle() and self.editable:
            self._say("Taken back" if self.table.undo() else "Nothing to take back")

    def retry(self) -> None:
        if self.idle() and self.editable:
            self._say("The table before the last shot" if self.table.retry() else "No shot yet")

    def clear(self) -> None:
        if self.idle() and self.editable:
            self.table.set_pawns([])

    def toggle_help(self) -> None:
        self.help.on = not self.help.on  # the panel says which (no message besides)

    def next_shooter(self) -> None:
        if self.idle() and self.editable:
            seats = self.table.seats
            self.table.set_shooter(seats[(seats.index(self.table.shooter) + 1) % len(seats)])
            self._say(f"{SEAT_COLOURS[self.table.shooter].capitalize()} slides")

    def position(self) -> object:
        """The position a hint is for: the table and the seat to slide."""
        return (self.table.pawns, self.table.shooter)

    def ask_hint(self) -> None:
        t = self.table
        if t.rolling or t.turn is None or t.state.next_pawn() is None:
            self._say("No pawn to slide: no hint")
            return
        key = self.position()
        self.hinted = key
        if not self.hint.asked(key):
            rng = np.random.default_rng([len(t.history), len(t.pawns)])
            t_state, seat = t.state, t.turn
            self.hint.ask(key, seat, t.hand, t_state, t.layout, t.face, t.params, rng)

    def save(self) -> None:
        try:
            self.table.scene_now().save(str(self.path))
            self._say(f"Saved the table to {self.path}")
        except (UserError, OSError) as exc:
            self._say(f"Not saved: {exc}")

    def load(self) -> None:
        if not self.idle():
            return
        try:
            scene = Scene.load(str(self.path))
            screen = PracticeScreen(self.app, scene, self.table.config.hand, str(self.path))
        except (UserError, OSError) as exc:
            self._say(f"Not loaded: {exc}")
            return
        screen.help.on = self.help.on
        screen._say(f"Loaded {self.path}")
        self.app.show(screen)

    # -- input ---------------------------------------------------------------------------------

    KEYS = {
        pygame.K_z: "undo",
        pygame.K_BACKSPACE: "undo",
        pygame.K_r: "retry",
        pygame.K_a: "toggle_help",
        pygame.K_h: "ask_hint",
        pygame.K_n: "next_shooter",
        pygame.K_c: "clear",
        pygame.K_s: "save",
        pygame.K_l: "load",
    }

    def handle_event(self, event: pygame.event.Event) -> None:
        self._fit()
        if self.paused:
            super().handle_event(event)
            return
        if event.type == pygame.KEYDOWN and event.key in self.KEYS:
            getattr(self, self.KEYS[event.key])()
            return
        if self.drag is not None:
            self._drag_event(event)
            return
        if not self.control.engaged and self._click(self.tools, event):
            return
        if self.editable and self.idle() and event.type == pygame.MOUSEBUTTONDOWN:
            if self._pick(event):
                return
        super().handle_event(event)

    def _pick(self, event: pygame.event.Event) -> bool:
        """A press that takes a pawn from the panel or the table (left), or removes one
        (right); True when it did."""
        if event.button == 1:
            for seat, rect in self.swatches:
                if rect.collidepoint(event.pos):
                    pid = self.table.free_pawn(seat)
                    if pid is None:
                        self._say(f"All of {SEAT_COLOURS[seat]}'s pawns are on the table")
                        return True
                    self.drag, self.drag_at = (pid, True), event.pos
                    return True
        pid = self.pawn_at(event.pos)
        if pid is None:
            return False
        if event.button == 3:
            self.table.remove(pid)
            return True
        if event.button == 1:
            self.drag, self.drag_at = (pid, False), event.pos
            return True
        return False

    def _drag_event(self, event: pygame.event.Event) -> None:
        assert self.drag is not None
        if event.type == pygame.MOUSEMOTION:
            self.drag_at = event.pos
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            pid, new = self.drag
            self.drag = None
            view = self.view_at(event.pos)
            if view is None:  # dropped off the table's panes: taken away
                if not new:
                    self.table.remove(pid)
                return
            why = self.table.place(pid, *view.to_world(*event.pos))
            if why:
                self._say(why)

    def view_at(self, pos: tuple[int, int]) -> TableView | None:
        """The pane under ``pos`` (the lane pane first, drawn over the main one)."""
        if self.lane_rect is not None and self.lane_view.rect.collidepoint(pos):
            return self.lane_view
        return self.view if self.view.rect.collidepoint(pos) else None

    def pawn_at(self, pos: tuple[int, int]) -> str | None:
        """The pawn on the table under ``pos``, if any."""
        view = self.view_at(pos)
        if view is None:
            return None
        reach = max(view.px(self.table.params.pawn_radius) * 1.2, 6)
        for p in self.table.state.table:
            sx, sy = view.to_screen(p.x, p.y)
            if math.hypot(sx - pos[0], sy - pos[1]) <= reach:
                return p.id
        return None

    # -- drawing -------------------------------------------------------------------------------

    def _apply(self, home: dict[str, int]) -> None:
        super()._apply(home)
        self.shot_done()

    def shot_done(self) -> None:
        """A shot has been applied to the table: what the hand did, in a line (the drills also
        score it)."""
        slid, result = self.table.last_slide, self.table.last
        fouled = result is not None and any(
            q.id == result.shooter and q.status is Status.FOUL for q in result.pawns
        )
        if slid is not None and not fouled:
            self._say(slide_words(self.app.control, slid, self.meant(slid)))

    def meant(self, slid: Shot) -> tuple[float, float] | None:
        """(speed, angle°) the shot aimed at: the board's centre's direction from where it was
        let go (no speed: the sandbox has no target)."""
        lane = self.table.seat(slid.seat)
        along = lane.foul if slid.release is None else slid.release
        a, c = lane.from_world(0.0, 0.0)
        return 0.0, math.degrees(math.atan2(c - slid.offset, a - along))

    def changed(self) -> bool:
        base = super().changed()
        key = (
            self.drag, self.drag_at if self.drag else None, self.help.on,
            self.hint.found(self.hinted) is not None, self.table.pawns, self.table.shooter,
        )  # fmt: skip
        if key != self._panel_key:
            self._panel_key = key
            return True
        return base

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.paused:
            return
        self._draw_coach(surface)
        self._draw_panel(surface)
        if self.drag is not None:
            view = self.view_at(self.drag_at) or self.view
            x, y = view.to_world(*self.drag_at)
            view.draw_pawn(surface, self.drag[0], x, y, ring=draw.HIGHLIGHT)

    def panes(self) -> list[TableView]:
        views = [self.view]
        if self.lane_rect is not None and self.lane_rect.w > 2 and self.lane_rect.h > 2:
            views.append(self.lane_view)
        return views

    def _draw_coach(self, surface: pygame.Surface) -> None:
        """The aim help while a pawn is aimed; the hint's arrow while the table is as asked."""
        if self.help.on and isinstance(self.control, AimControl) and self.control.engaged:
            found = self.help.at(self.table.state.table, self.control.intended())
            if found is not None:
                for view in self.panes():
                    draw_help(surface, view, found)
        got = self.hint.found(self.hinted)
        if got is not None and self.hinted == self.position() and not self.table.rolling:
            shot = got[0]
            seat = self.table.seat(shot.seat)
            for view in self.panes():
                draw_arrow(surface, view, seat, shot.speed, shot.angle, shot.offset,
                           shot.release, HINT_RGB)  # fmt: skip

    def _panel_rect(self) -> pygame.Rect:
        top = self.sidebar.y
        return pygame.Rect(self.sidebar.x, top, self.sidebar.w, self.overview_button.rect.y - top)

    def _draw_panel(self, surface: pygame.Surface) -> None:
        """The sidebar: the colours to drag, the tools, the last words."""
        rect = self._panel_rect()
        surface.fill(draw.BACKGROUND, rect)
        size = draw.ui_size(surface, 20)
        y = draw.text(surface, "Practice", (rect.x, rect.y), draw.ui_size(surface, 28),
                      draw.HIGHLIGHT, bold=True).bottom + 4  # fmt: skip
        who = SEAT_COLOURS[self.table.shooter].capitalize()
        y = draw.text(surface, f"{who} slides · {self.table.face.title}", (rect.x, y), size,
                      draw.seat_rgb(self.table.shooter)).bottom + 8  # fmt: skip
        y = self._draw_swatches(surface, rect, y, size)
        y = self._draw_tools(surface, rect, y, size)
        self._draw_words(surface, rect, y, size)

    def _draw_swatches(self, surface: pygame.Surface, rect: pygame.Rect, y: int, size: int) -> int:
        y = draw.text(surface, "drag a colour onto the table:", (rect.x, y), size,
                      draw.DIM).bottom + 4  # fmt: skip
        side = max(min(44, (rect.w - 10) // max(len(self.table.seats), 1) - 10), 24)
        self.swatches = []
        for i, seat in enumerate(self.table.seats):
            r = pygame.Rect(rect.x + i * (side + 10), y, side, side)
            self.swatches.append((seat, r))
            pygame.draw.circle(surface, draw.seat_rgb(seat), r.center, side // 2)
            pygame.draw.circle(surface, (20, 22, 28), r.center, side // 2, 2)
            left = sum(1 for n in range(1, 5) if pawn_id(seat, n) not in
                       {p.id for p in self.table.pawns})  # fmt: skip
            draw.text(surface, str(left), r.center, size, (20, 22, 28), "center", True)
        return y + side + 10

    def _draw_tools(self, surface: pygame.Surface, rect: pygame.Rect, y: int, size: int) -> int:
        bw, bh = (rect.w - 10) // 2, max(size + 14, 30)
        for i, b in enumerate(self.tools):
            b.rect = pygame.Rect(rect.x + (i % 2) * (bw + 10), y + (i // 2) * (bh + 8), bw, bh)
            b.draw(surface, size)
        rows = (len(self.tools) + 1) // 2
        on = "on" if self.help.on else "off"
        y += rows * (bh + 8)
        return draw.text(surface, f"aim help {on}", (rect.x, y), size, draw.DIM).bottom + 6

    def _draw_words(self, surface: pygame.Surface, rect: pygame.Rect, y: int, size: int) -> None:
        lines = list(self.messages[-5:])
        got = self.hint.found(self.hinted)
        if self.hinted is not None and self.hinted == self.position():
            if got is not None:
                lines.append(f"Hint (green arrow): {got[1]}, chance {got[2]:.0%}")
            elif self.hint.error:
                lines.append(f"No hint: {self.hint.error}")
            else:
                lines.append("Looking for the computer's shot…")
        fits = lambda words: draw.font(size).size(words)[0] <= rect.w  # noqa: E731
        draw.text_lines(surface, wrap_all(lines, fits)[-8:], rect.x, y, rect.w, rect.bottom,
                        draw.DIM, size)  # fmt: skip


@screen("drill")
class DrillScreen(PracticeScreen):
    """One drill: :data:`~sliders.game.drills.TRIES` tries from its table, each scored."""

    editable = False

    def __init__(self, app: App, drill: Drill) -> None:
        self.drill = drill
        self.scores: list[int] = []
        self.attempts: list[tuple[tuple[float, float], tuple[float, float]]] = []
        self.reset_in = 0.0
        self.outcome = ""
        self.spread = ""
        """your spread in the drill's tries, in words, once it is over"""
        super().__init__(app, drill.scene, "exact")
        self.overview = False

    def welcome(self) -> str:
        return f"Drill: {self.drill.title} ({self.drill.face}). {TRIES} tries, each scored 0-3"

    def _tools(self) -> list[draw.Button]:
        return [
            draw.Button("Again", self.again),
            draw.Button("Drills", lambda: self.app.go("drills")),
        ]

    KEYS = {pygame.K_RETURN: "again"}

    @property
    def finished(self) -> bool:
        return len(self.scores) >= TRIES

    def again(self) -> None:
        if not self.table.rolling:
            self.scores, self.attempts, self.outcome, self.reset_in = [], [], "", 0.0
            self.spread = ""
            self.table.set_pawns(self.drill.scene.pawns, keep=False)
            self._say(self.welcome())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and not self.paused:
            self.app.go("drills")
            return
        pressing = event.type == pygame.MOUSEBUTTONDOWN
        if pressing and (self.finished or self.reset_in > 0):
            self._fit()
            self._click(self.tools, event)
            return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.reset_in > 0:
            self.reset_in -= dt
            if self.reset_in <= 0 and not self.finished:
                self.table.set_pawns(self.drill.scene.pawns, keep=False)

    def meant(self, slid: Shot) -> tuple[float, float] | None:
        """The shot that stops on the drill's target from where this one was let go, or (a
        drill without one) the board's centre's direction."""
        a = attempt(self.drill, slid, self.table.params)
        return a[0] if a is not None else super().meant(slid)

    def shot_done(self) -> None:
        t = self.table
        assert t.last is not None
        got = score_try(self.drill, t.last)
        self.scores.append(got)
        if t.last_slide is not None:
            a = attempt(self.drill, t.last_slide, t.params)
            if a is not None:
                self.attempts.append(a)
        self._say(f"Try {len(self.scores)}: {got}/{MAX_TRY}")
        super().shot_done()
        self.reset_in = RESET_AFTER
        if self.finished:
            total = sum(self.scores)
            try:
                best, new = record_score(self.drill.name, total)
                kept = keep_attempts(self.attempts) if self.attempts else 0
            except (UserError, OSError) as exc:
                self.outcome = f"{total}/{TRIES * MAX_TRY} (not kept: {exc})"
            else:
                self.outcome = f"{total}/{TRIES * MAX_TRY}" + (
                    " · a new best" if new else f" · best {best}"
                )
                if kept:
                    self._say(f"{len(self.attempts)} attempts kept for your hand ({kept} in all)")
            self._say(f"Drill over: {self.outcome}. Enter: again")
            self.spread = self._spread()

    def _spread(self) -> str:
        """Your spread in this drill's tries (those with a target), kept with the others: in
        words, against your first and your steadiest."""
        today = datetime.now(UTC).date().isoformat()
        spread = drill_spread(self.drill.name, self.attempts, today)
        if spread is None:
            return ""
        try:
            words = progress_words(keep_spread(spread))
        except (UserError, OSError) as exc:
            words = f"your spread: {spread.describe()} (not kept: {exc})"
        self._say(words)
        return words

    def changed(self) -> bool:
        return super().changed() or self.reset_in > 0

    def _draw_panel(self, surface: pygame.Surface) -> None:
        rect = self._panel_rect()
        surface.fill(draw.BACKGROUND, rect)
        size = draw.ui_size(surface, 20)
        y = draw.text(surface, "Drill", (rect.x, rect.y), draw.ui_size(surface, 28),
                      draw.HIGHLIGHT, bold=True).bottom + 4  # fmt: skip
        y = draw.text(surface, draw.clipped(self.drill.title, size, rect.w), (rect.x, y), size,
                      draw.TEXT).bottom + 2  # fmt: skip
        y = draw.text(surface, self.drill.face.replace("-", " "), (rect.x, y), size,
                      draw.DIM).bottom + 10  # fmt: skip
        for k in range(TRIES):
            words = f"try {k + 1}: " + (f"{self.scores[k]}/{MAX_TRY}" if k < len(self.scores)
                                        else "-")  # fmt: skip
            rgb = draw.TEXT if k < len(self.scores) else draw.DIM
            y = draw.text(surface, words, (rect.x, y), size, rgb).bottom + 2
        total = f"score {sum(self.scores)}/{TRIES * MAX_TRY}"
        y = draw.text(surface, total, (rect.x, y + 6), size, draw.HIGHLIGHT, bold=True).bottom
        best = best_scores().get(self.drill.name)
        y = draw.text(surface, f"best {'-' if best is None else best}", (rect.x, y + 2), size,
                      draw.DIM).bottom + 10  # fmt: skip
        y = self._draw_tools(surface, rect, y, size)
        self._draw_words(surface, rect, y, size)

    def _draw_tools(self, surface: pygame.Surface, rect: pygame.Rect, y: int, size: int) -> int:
        bw, bh = (rect.w - 10) // 2, max(size + 14, 30)
        for i, b in enumerate(self.tools):
            b.rect = pygame.Rect(rect.x + i * (bw + 10), y, bw, bh)
            b.draw(surface, size)
        return y + bh + 10


@screen("drills")
class DrillsScreen:
    """The ladder of drills with your best scores: choose one (Up/Down and Enter, or click
    it); Escape goes back to the setup screen."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.row = 0
        self.rows: list[pygame.Rect] = []
        self._down: int | None = None
        self.best = best_scores_or_none()
        self.back = draw.Button("Back", lambda: app.go("setup"))
        self._shown = False

    def play(self, index: int) -> None:
        self.app.go("drill", LADDER[index])

    def changed(self) -> bool:
        """Drawn once, then again on input only (the app draws a frame with input)."""
        first, self._shown = not self._shown, True
        return first

    def handle_event(self, event: pygame.event.Event) -> None:
        self._fit()
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.go("setup")
            elif event.key == pygame.K_UP:
                self.row = (self.row - 1) % len(LADDER)
            elif event.key == pygame.K_DOWN:
                self.row = (self.row + 1) % len(LADDER)
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.play(self.row)
            return
        if self.back.handle(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._down = next((i for i, r in enumerate(self.rows) if r.collidepoint(event.pos)),
                              None)  # fmt: skip
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            down, self._down = self._down, None
            if down is not None and self.rows[down].collidepoint(event.pos):
                self.play(down)

    def update(self, dt: float) -> None:
        pass

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        top, bottom = 90, h - 90
        pitch = max(min(40, (bottom - top) // len(LADDER)), 18)
        x = max(w // 2 - 380, 10)
        self.rows = [pygame.Rect(x, top + i * pitch, min(760, w - 20), pitch - 4)
                     for i in range(len(LADDER))]  # fmt: skip
        self.back.rect = pygame.Rect(w // 2 - 100, h - 70, 200, 50)

    def draw(self, surface: pygame.Surface) -> None:
        self._fit()
        surface.fill(draw.BACKGROUND)
        w, _ = surface.get_size()
        draw.text(surface, "Drills", (w // 2, 40), draw.ui_size(surface, 44), draw.HIGHLIGHT,
                  "center", True)  # fmt: skip
        size = max(min(draw.ui_size(surface, 22), round(self.rows[0].h / draw.SIZE_TO_PX * 0.8)),
                   12)  # fmt: skip
        for i, (d, r) in enumerate(zip(LADDER, self.rows, strict=True)):
            if i == self.row:
                pygame.draw.rect(surface, (60, 60, 70), r, border_radius=6)
            got = self.best.get(d.name) if self.best is not None else None
            draw.text(surface, d.title, (r.x + 10, r.centery), size, draw.TEXT, "midleft")
            draw.text(surface, d.face.replace("-", " "), (r.x + 330, r.centery), size, draw.DIM,
                      "midleft")  # fmt: skip
            best = f"best {'-' if got is None else got}/{TRIES * MAX_TRY}"
            draw.text(surface, best, (r.right - 10, r.centery), size, draw.TEXT, "midright")
        self.back.draw(surface, draw.ui_size(surface, 26))


def best_scores_or_none() -> dict[str, int] | None:
    """The best scores kept, or None when the file cannot be read (the list shows none)."""
    try:
        return best_scores()
    except (UserError, OSError):
        return None
