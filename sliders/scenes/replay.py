"""Play back a saved game: each shot as it ran, removals and penalties announced, and each
round's scoring moving the scoring pawns.

A shot whose log records it as slid (every shot of a game played in the window) is re-simulated:
a simulation of the same table, shot (with its seed), parameters and engine is stepped at
the physics' fixed step (a slice of it per frame), its outcome is checked against the logged one,
and the pawns are then shown along their real paths. The physics is deterministic, so the check
passes for a log made by this version. A shot logged without its slide (a scorekeeper's log), or
whose re-simulation does not give the logged outcome (a log from another physics version), is
shown as its pawns gliding from where they stood to where they came to rest; the screen says so
once. Keys: Space pauses, Right/Left step, R reviews the game shot by shot (the review screen's
Close comes back here), Esc quits.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import pygame

from sliders.boards import drawing, face
from sliders.core.errors import UserError
from sliders.core.outcome import SEAT_COLOURS, EventType, ShotResult, pawn_seat
from sliders.game.narrate import narrate_shot, wrap_all
from sliders.game.saves import params_of, replay_layout
from sliders.physics import Setup, Simulation, start
from sliders.rules import Game, GameState, ScoreStep, ShotStep, apply_shot, score_round
from sliders.scenes import draw
from sliders.scenes.app import App
from sliders.scenes.background import prepare_physics

STEP_TIME = 1.4
"""seconds each gliding shot or round's scoring is shown"""
MOVE_SHARE = 0.6
"""share of such a step spent moving the pawns"""
HOLD = 0.9
"""seconds a re-simulated shot's final table stays on screen before the next step"""
NOTICE_TIME = 6.0
"""seconds the note that shots glide stays under the title"""
TRAIL_EVERY = 4
"""a re-simulated pawn's trail joins its place every this many physics steps"""

Pos = tuple[float, float]


class Film:
    """A logged shot re-simulated: where the pawns were after every physics step."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        self.dt = sim.params.dt
        self.frames: list[dict[str, Pos]] = [_xy(sim)]
        self.result: ShotResult | None = None  # once the shot has settled

    def make(self, seconds: float | None = None) -> bool:
        """Step the shot for up to ``seconds`` of wall time (None: to the end); True once it
        has settled and ``result`` is known."""
        sim, frames = self.sim, self.frames
        deadline = None if seconds is None else time.perf_counter() + seconds
        while sim.moving:
            sim.step()
            frames.append(_xy(sim))
            if deadline is not None and len(frames) % 16 == 0 and time.perf_counter() > deadline:
                return False
        self.result = sim.result()
        return True

    @property
    def duration(self) -> float:
        return (len(self.frames) - 1) * self.dt

    def at(self, t: float) -> dict[str, Pos]:
        """The pawns still in play at ``t`` seconds into the shot, between physics steps."""
        k = min(max(t / self.dt, 0.0), len(self.frames) - 1.0)
        i = int(k)
        a = self.frames[i]
        if i + 1 >= len(self.frames):
            return dict(a)
        b, f = self.frames[i + 1], k - i
        return {
            pid: (x + (b[pid][0] - x) * f, y + (b[pid][1] - y) * f) if pid in b else (x, y)
            for pid, (x, y) in a.items()
        }


class ReplayScreen:
    def __init__(self, app: App, game: Game) -> None:
        self.app, self.game = app, game
        self.layout = replay_layout(game)
        self.face = face(game.face)
        self.params = params_of(game)  # as the game was played
        self.view = draw.TableView(self.layout, self.face, self.params.pawn_radius)
        self.sidebar = pygame.Rect(0, 0, 0, 0)
        self.index = 0  # steps shown so far
        self.t = 0.0
        self.playing = True
        self.lines: list[str] = []
        self.menu = draw.Button("Quit", app.quit)
        self.review_button = draw.Button("Review (R)", self.review)
        self.film: Film | None = None  # the re-simulated shot being shown
        self.resimulated: dict[int, ShotResult] = {}  # step index -> the re-simulated outcome
        self.notice: str | None = None
        self.notice_t = 0.0
        engines = {  # a log that names no engine predates the choice: pymunk
            step.result.engine or "pymunk"
            for step in game.steps
            if isinstance(step, ShotStep) and step.slide is not None
        }
        self._waits_for = [prepare_physics(app.background, e) for e in sorted(engines)]
        self._entered = False  # the first step is shown once the physics is ready
        self._start()

    def _start(self) -> bool:
        """Show the first step once the physics is ready (prepared in the background: the
        window draws meanwhile, saying what it waits for); True when it is shown."""
        if not self._entered and all(self.app.background.ready(k) for k in self._waits_for):
            self._entered = True
            self._enter()
        return self._entered

    @property
    def state(self) -> GameState:
        """The game as far as the replay has got."""
        return self.game.states[self.index]

    @property
    def finished(self) -> bool:
        return self.index >= len(self.game.steps)

    def replays(self, index: int) -> bool:
        """Whether shot step ``index`` is shown re-simulated (known once it has been reached)."""
        step = self.game.steps[index]
        again = self.resimulated.get(index)
        return isinstance(step, ShotStep) and again is not None and again.matches(step.result)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_SPACE:
                self.playing = not self.playing
            elif event.key == pygame.K_RIGHT:
                self._advance()
            elif event.key == pygame.K_LEFT and self.index > 0:
                self.index -= 1
                self._enter()
            elif event.key == pygame.K_ESCAPE:
                self.app.quit()
            elif event.key == pygame.K_r:
                self.review()
            return
        if self.finished:
            self.menu.handle(event)
        self.review_button.handle(event)

    def review(self) -> None:
        """The game reviewed shot by shot (:class:`sliders.scenes.coach.ReviewingScreen`)."""
        self.playing = False
        self.app.go("reviewing", self.game, self)

    def update(self, dt: float) -> None:
        if self.notice is not None:
            self.notice_t += dt
        if not self._start() or not self.playing or self.finished:
            return
        film = self.film
        if film is not None and film.result is None:
            if film.make(self.app.think_budget):
                assert film.result is not None
                self.resimulated[self.index] = film.result
                if not self.replays(self.index):
                    self._glide(f"the re-simulation of step {self.index + 1} differs from the log")
            return  # the shot is shown from the next frame
        self.t += dt
        if self.t >= self._step_time():
            self._advance()

    def _step_time(self) -> float:
        if self.film is not None and self.film.result is not None:
            return self.film.duration + HOLD
        return STEP_TIME

    def _enter(self) -> None:
        """Start showing the step at ``index``: a shot logged as slid is re-simulated."""
        self.t = 0.0
        self.film = None
        if self.finished:
            return
        step = self.game.steps[self.index]
        if not isinstance(step, ShotStep) or step.slide is None:
            return
        if self.index in self.resimulated and not self.replays(self.index):
            self.film = None
            return
        try:
            # the engine it was played with; a log that names none predates the choice: pymunk
            setup = Setup(self.layout, self.face, self.params, step.result.engine or "pymunk")
            sim = start(setup, self.state.table, step.slide)
        except (UserError, ValueError) as exc:
            self._glide(f"step {self.index + 1} cannot be re-simulated ({exc})")
            return
        self.film = Film(sim)

    def _glide(self, why: str) -> None:
        """Show the current shot gliding; the first time, say why."""
        self.film = None
        if self.notice is None:
            self.notice = f"Shots glide where the physics differs from the log: {why}"
            self.lines.append(self.notice)

    def _advance(self) -> None:
        if self.finished:
            return
        before = self.game.states[self.index]
        step = self.game.steps[self.index]
        if isinstance(step, ShotStep):
            _, happened = apply_shot(before, step.result, step.home)
            self.lines += narrate_shot(step.result, happened, before.table, self.face)
        else:
            _, happened = score_round(before, step.assignments)
            self.lines += [h.describe() for h in happened]
        del self.lines[:-10]
        self.index += 1
        self._enter()

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        side = min(max(int(w * 0.3), 280), 420)
        self.view.fit(pygame.Rect(10, 50, w - side - 30, h - 60))
        self.sidebar = pygame.Rect(w - side - 10, 50, side, h - 60)
        self.menu.rect = pygame.Rect(self.sidebar.right - 160, h - 60, 160, 44)
        self.review_button.rect = pygame.Rect(self.sidebar.x, h - 60, 160, 44)

    def draw(self, surface: pygame.Surface) -> None:
        self._fit()
        surface.fill(draw.BACKGROUND)
        self.view.draw_static(surface)
        state = self.state
        k = min(self.t / (STEP_TIME * MOVE_SHARE), 1.0)
        boards: dict[str, Sequence[float]] | None = None
        if self.finished:
            for p in state.table:
                self.view.draw_pawn(surface, p.id, p.x, p.y)
        else:
            step = self.game.steps[self.index]
            if isinstance(step, ShotStep) and self.film is not None:
                self._draw_film(surface, state, step, self.film)
            elif isinstance(step, ShotStep):
                self._draw_shot(surface, state, step, k)
            else:
                after = self.game.states[self.index + 1]
                for p in state.table:
                    self.view.draw_pawn(surface, p.id, p.x, p.y)
                    self.view.tag(surface, draw.points_label(p), p.x, p.y, 22, draw.HIGHLIGHT)
                boards = (
                    {
                        s: [
                            a + (b - a) * k
                            for a, b in zip(
                                state.player(s).board, after.player(s).board, strict=True
                            )
                        ]
                        for s in state.seats
                    }
                    if isinstance(step, ScoreStep)
                    else None
                )
        n = len(self.game.steps)
        title = f"Replay · {self.face.title or self.face.name} · round {state.round} · step {self.index}/{n}"
        draw.text(surface, title, (14, 12), 30, draw.TEXT, bold=True)
        hint = "finished" if self.finished else ("Space: pause" if self.playing else "paused")
        hint, rgb = hint + " · Left/Right: step · Esc: quit", draw.DIM
        if not self._entered:
            hint = self.app.background.shown() or "getting ready…"
        elif self.finished and self.game.state.winner:  # beside the title, off the pawns
            winner = self.game.state.winner
            hint = f"{SEAT_COLOURS[winner].capitalize()} wins · Esc: quit"
            rgb = draw.seat_rgb(winner)
        draw.text(surface, hint, (surface.get_width() - 14, 14), 22, rgb, "topright")
        if self.notice is not None and self.notice_t < NOTICE_TIME:
            draw.text(
                surface,
                draw.clipped(self.notice, 22, self.view.rect.width),
                (14, 40),
                22,
                draw.HIGHLIGHT,
            )
        y = draw.draw_sidebar(surface, self.sidebar, state, {}, state.turn, boards)
        draw.text_lines(
            surface, _panel(self.lines[-8:], self.sidebar.width)[-12:], self.sidebar.x, y,
            self.sidebar.width, surface.get_height() - 80, draw.DIM,
        )  # fmt: skip
        if self.finished:
            self.menu.draw(surface)
        self.review_button.draw(surface)

    def _draw_shot(
        self, surface: pygame.Surface, before: GameState, step: ShotStep, k: float
    ) -> None:
        start = {p.id: (p.x, p.y) for p in before.table}
        for e in step.result.events:
            if e.type is EventType.RELEASE and e.pawns:
                start[e.pawns[0]] = (e.x, e.y)
        ease = k * k * (3 - 2 * k)
        for p in step.result.pawns:
            x0, y0 = start.get(p.id, (p.x, p.y))
            x, y = x0 + (p.x - x0) * ease, y0 + (p.y - y0) * ease
            gone = p.status.removed and k >= 1.0
            self.view.draw_pawn(surface, p.id, x, y, faded=gone)
            if k >= 1.0:
                self.view.tag(surface, drawing.pawn_tag(p) or "", x, y, 20)

    def _draw_film(
        self, surface: pygame.Surface, before: GameState, step: ShotStep, film: Film
    ) -> None:
        if film.result is None:  # still being re-simulated: the table as it stood
            for p in before.table:
                self.view.draw_pawn(surface, p.id, p.x, p.y)
            return
        where = film.at(self.t)
        done = self.t >= film.duration
        self._draw_trails(surface, film)
        for p in step.result.pawns:
            if p.id in where:
                x, y = where[p.id]
                self.view.draw_pawn(surface, p.id, x, y)
            else:  # left play during the shot
                x, y = p.x, p.y
                self.view.draw_pawn(surface, p.id, x, y, faded=True)
            if done:
                self.view.tag(surface, drawing.pawn_tag(p) or "", x, y, 20)

    def _draw_trails(self, surface: pygame.Surface, film: Film) -> None:
        """The path each pawn has run so far in this shot, a thin line in its colour."""
        last = min(int(self.t / film.dt), len(film.frames) - 1)
        paths: dict[str, list[tuple[int, int]]] = {}
        for frame in film.frames[: last + 1 : TRAIL_EVERY] + film.frames[last : last + 1]:
            for pid, (x, y) in frame.items():
                paths.setdefault(pid, []).append(self.view.to_screen(x, y))
        for pid, points in paths.items():
            if len(points) > 1 and points[0] != points[-1]:
                rgb = tuple((v + 255) // 2 for v in draw.seat_rgb(pawn_seat(pid)))
                pygame.draw.lines(surface, rgb, False, points, 2)


def _xy(sim: Simulation) -> dict[str, Pos]:
    return {pid: (x, y) for pid, (x, y, _) in sim.positions().items()}


def _panel(lines: list[str], width: int, size: int = 19) -> list[str]:
    """``lines`` wrapped to ``width`` pixels at the panel's font size: shown whole, never cut."""
    return wrap_all(lines, lambda words: draw.font(size).size(words)[0] <= width)
