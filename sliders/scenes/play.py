"""The play screen: the table, the pawns, the score boards; a person drags and flicks a pawn, a
computer thinks and slides; removals, penalties and points appear as they happen.

A person slides with one of two controls (:mod:`sliders.scenes.controls`): ``aim`` (press
in the lane, pull back like a slingshot, let go) or ``flick`` (swing a pawn from the hand and let
go while it moves). While a seat aims the play area is two panes (:func:`sliders.scenes.camera.panes`):
the near end of the lane large in the lane pane, the target board in the main pane beside it,
the aim drawn in both; while pawns run the main pane takes the whole area and follows them, and
shows the board large at rest. Tab or the *Overview* button shows the whole table in the main
pane; a person aims from either pane. A press while a pane still moves is ignored.

A shot ends for the player when no pawn has visibly moved for ``STILL_TIME`` seconds: the
physics is then run to its rest at once (what is left is spin, or creeping too slow to see).

A host's own window (``sliders host --seats south=human,north=remote``) has an *Invite* button
(and I): each remote seat nobody has taken yet, its web page's link as a QR code, drawn over the
score boards (:mod:`sliders.scenes.invite`) while the table stays in sight.

W shows each seat's chance of winning, updated after every shot (a toggle, off by default); in
a game that allows hints (``sliders play --hints``) H shows the computer's suggested shot for the
person to slide, as a green arrow, and writes it in the game's log (:mod:`sliders.scenes.coach`).

Instant Home: when a person's roller pawn drops into the hole (on any player's turn), a picker on
that person's score board asks which scoring pawn goes HOME before the shot's outcome is applied:
click a scoring pawn or press its number (1-4); Enter takes the suggested one. A computer seat
chooses by itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from sliders.core.outcome import PAWNS_PER_PLAYER, SEAT_COLOURS, EventType, ShotResult, Status
from sliders.game import HomeChoice
from sliders.game.howto import SCORING_LINE
from sliders.game.narrate import pawn_name, wrap_all
from sliders.game.saves import save_note
from sliders.physics import Shot
from sliders.rules import InstantHome, PawnRemoved, Penalty, Phase, Won
from sliders.scenes import draw
from sliders.scenes.app import App, screen
from sliders.scenes.background import prepare_physics
from sliders.scenes.camera import EASE, Camera, panes
from sliders.scenes.coach import GameCoach
from sliders.scenes.controls import Control, Outcome, aim_path, board_far, hand_spot, make_control
from sliders.scenes.draw import TableView
from sliders.scenes.invite import Drawn, draw_invites
from sliders.scenes.table import REMOVING_EVENTS, Match, status_word

STILL_TIME = 0.3
"""seconds without visible motion that end a shot for the player"""
STILL_MOVE = 0.0003
"""metres: a pawn moving less than this in ``STILL_TIME`` is not seen to move"""
FOLLOW_LEAD = 0.35
"""seconds ahead of a moving pawn the camera looks while following it"""
REST_HOLD = 1.6
"""seconds the board stays in view after a shot before the next person's aim view"""
SETTLE_PAUSE = 0.5
"""seconds the table rests before the rules apply a shot"""
CPU_REACH = 0.9
"""seconds a computer's hand takes to carry a pawn to its release point (its aim drawn)"""
SETTLED_PX = 2.0
"""pixels: a pane whose camera has less than this left to move takes presses"""
ROUND_PAUSE = 1.2
SCORES_LINE = f"A pawn scores the ring it stops in; {SCORING_LINE}. F1 or ?: help"
"""said in the message log as a game opens, before the first score is seen"""
LOG_LINES = 3
"""lines of the message log the sidebar keeps room for under the score boards, at any size"""
FLOAT_LIFE = 2.5
OVERVIEW_KEYS = (pygame.K_TAB, pygame.K_v)
INVITE_KEYS = (pygame.K_i,)


@dataclass
class _Float:
    words: str
    x: float
    y: float
    t: float
    rgb: tuple[int, int, int]


@screen("play")
class PlayScreen:
    """One game being played; hands over to the round-end and results screens.

    While a person holds a pawn and nothing else moves, a frame draws only the hand: the
    picture without it is kept (``_base``), what the hand covered last frame is put back from
    it and the hand drawn anew, and only those rectangles are presented (``PARTIAL``; a screen
    that draws more over this one's picture turns it off)."""

    PARTIAL = True

    def __init__(self, app: App, match: Match) -> None:
        self.app, self.match = app, match
        self.view = draw.TableView(match.layout, match.face, match.params.pawn_radius)
        self.camera = Camera(self.view, match.layout)
        self.lane_view = draw.TableView(match.layout, match.face, match.params.pawn_radius)
        self.lane_camera = Camera(self.lane_view, match.layout)
        self.lane_seat: str | None = None  # the seat the lane pane shows
        self.lane_shown = 0.0  # how far the lane pane has slid in (0..1)
        self.lane_rect: pygame.Rect | None = None
        self.control: Control = make_control(app.control, match, self.lane_view, app.meter)
        self.overview = False
        self._rest_hold = 0.0
        self._still: list[tuple[float, dict[str, tuple[float, float]]]] = []
        state = match.state
        fresh = all(len(p.in_hand) == PAWNS_PER_PLAYER for p in state.players)
        self.messages: list[str] = [  # a game joined, or loaded, in the middle of a round
            f"Round {state.round}: {self._name(match.turn)} "
            + ("slides first" if fresh else "to slide"),
            SCORES_LINE,
        ]
        self.floats: list[_Float] = []
        self.paused = False
        self.saved_note = ""  # what the pause menu's Save game said, shown under its buttons
        self._settle = 0.0
        self._cpu: tuple[Shot, float] | None = None
        self._leaving: float | None = None
        self.picking: HomeChoice | None = None  # an Instant Home choice a person is making
        self._home: dict[str, int] = {}  # Instant Home choices made for the settled shot
        self._settled: ShotResult | None = None
        self.sidebar = pygame.Rect(0, 0, 0, 0)
        self.log_room = 0
        self.play_area = pygame.Rect(0, 0, 1, 1)
        self.gauge_rect = pygame.Rect(0, 0, 0, 0)
        self.buttons = [
            draw.Button("Resume", self._resume),
            draw.Button("Save game", self.save),
            draw.Button("Quit to menu", self._to_menu),
        ]
        self.overview_button = draw.Button("Overview (Tab)", self.toggle_overview)
        self.inviting = False
        """the Invite panel is shown (a host's own window: the free seats' QR codes)"""
        self.invite_button = draw.Button("Invite (I)", self.toggle_invite)
        self.invited: list[Drawn] = []  # the QR codes as last drawn
        self._drawn_key: tuple[object, ...] | None = None
        self._base: pygame.Surface | None = None  # the picture without the hand, while held
        self._hand_drawn: list[pygame.Rect] = []  # where the hand was drawn last frame
        self._waits_for = [f"physics:{match.turns.setup.engine}"]
        if match.turns.computers:
            self._waits_for.append(f"players:{id(match)}")
        self._prepared = False  # asked for after the first frame, which then draws uncontended
        self.coach = GameCoach(app, match)

    # -- input ------------------------------------------------------------------------------------

    @property
    def held(self) -> str | None:
        """The pawn a person is holding, if any."""
        return self.control.held

    def handle_event(self, event: pygame.event.Event) -> None:
        self._fit()
        if self.paused:
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self._resume()
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_q:
                self._to_menu()
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_s:
                self.save()
            self._click(self.buttons, event)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.paused = True
            self.overview_button.forget()
            self.control.cancel()
            return
        if event.type == pygame.KEYDOWN and event.key in OVERVIEW_KEYS:
            self.toggle_overview()
            return
        if event.type == pygame.KEYDOWN and event.key in INVITE_KEYS and self.can_invite:
            self.toggle_invite()
            return
        if event.type == pygame.KEYDOWN and self.coach.key(event.key):
            return
        if self.control.engaged:
            self._hand_event(event)
            return
        if self._click(self._corner_buttons(), event):
            return
        if self.picking is not None:
            self._pick_event(event)
            return
        self._hand_event(event)

    def _click(self, buttons: list[draw.Button], event: pygame.event.Event) -> bool:
        """Give ``event`` to ``buttons`` (each fires only for a click that began on it). True
        when the event was a button's: a press on one, or the release of such a press."""
        was_pressed = any(b.pressed for b in buttons)
        fired = [b.handle(event) for b in buttons]
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return any(b.pressed for b in buttons)
        return any(fired) or was_pressed

    def _hand_event(self, event: pygame.event.Event) -> None:
        t = self.app.pulled_at
        control = self.control
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            seat = self._human_turn()
            if seat is None:
                return
            if self._rest_hold > 0:  # a click while the board is shown: on to the aim view
                self._rest_hold = 0.0
                return
            view = self.pane_at(event.pos)
            if view is not None:
                control.view = view
                control.press(seat, event.pos, t)
        elif event.type == pygame.MOUSEMOTION and control.engaged:
            self._outcome(control.move(event.pos, t))
        elif event.type == pygame.MOUSEMOTION:
            control.observe(event.pos, t)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and control.engaged:
            self._outcome(control.release(event.pos, t))

    def _outcome(self, outcome: Outcome | None) -> None:
        if outcome is None:
            return
        if outcome.words:
            self._say(outcome.words)
        if outcome.shot is not None:
            if not self.match.play(outcome.shot, outcome.foul):  # refused: told, back in hand
                for line in self.match.news():
                    self._say(line)
            # a foul is told once, with the pawn's name, when the rules apply it

    def pane_at(self, pos: tuple[int, int]) -> draw.TableView | None:
        """The view a press at ``pos`` aims in: the pane under it, when that pane's camera is
        settled (a press while the view still moves is ignored); else None."""
        if not self.lane_settled():
            return None
        for view, camera in ((self.lane_view, self.lane_camera), (self.view, self.camera)):
            if view is self.lane_view and self.lane_rect is None:
                continue
            if view.rect.collidepoint(pos) and camera.settled(SETTLED_PX):
                return view
        return None

    def lane_settled(self) -> bool:
        """True when the lane pane is where it is going (fully in, or out)."""
        return self.lane_shown in (0.0, 1.0)

    @property
    def can_invite(self) -> bool:
        """Whether this window invites phones (a host's own window serving the web page)."""
        return bool(getattr(self.match, "links", None))

    def toggle_invite(self) -> None:
        """Show the free seats' QR codes over the score boards, or the score boards again."""
        self.inviting = not self.inviting and self.can_invite

    def _corner_buttons(self) -> list[draw.Button]:
        return (
            [self.overview_button, self.invite_button]
            if self.can_invite
            else [self.overview_button]
        )

    def toggle_overview(self) -> None:
        """Show the whole table, or go back to the view of the moment."""
        if not self.control.engaged:
            self.overview = not self.overview

    def _pick_event(self, event: pygame.event.Event) -> None:
        choice = self.picking
        assert choice is not None
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.pick(choice.default)
            elif pygame.K_1 <= event.key <= pygame.K_4:
                self.pick(event.key - pygame.K_1)
            elif pygame.K_KP1 <= event.key <= pygame.K_KP4:
                self.pick(event.key - pygame.K_KP1)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            panel = self.panels()[choice.seat]
            spots = draw.scoring_spots(panel, choice.board, large=True)
            for i, (x, y, r) in enumerate(spots):
                if (event.pos[0] - x) ** 2 + (event.pos[1] - y) ** 2 <= (r + 3) ** 2:
                    self.pick(i)
                    return

    def pick(self, index: int) -> None:
        """Send scoring pawn ``index`` HOME for the Instant Home choice being made (ignored when
        that pawn may not go)."""
        choice = self.picking
        if choice is None or index not in choice.options:
            return
        self._home[choice.pawn] = index
        self.picking = None
        self._resolve()

    def ready(self) -> bool:
        """True once the physics and the computers are prepared (in the background: until then
        no computer slides, and the banner says what the game waits for)."""
        return all(self.app.background.ready(key) for key in self._waits_for)

    def physics_ready(self) -> bool:
        """True once the physics is loaded: a person may slide (the computers are prepared
        meanwhile, each before its turn) and a host's shot may roll here."""
        return self.app.background.ready(self._waits_for[0])

    def _human_turn(self) -> str | None:
        m = self.match
        if not self.physics_ready():
            return None
        if m.rolling or self._leaving is not None or m.state.phase is not Phase.SHOOTING:
            return None
        seat = m.turn
        if seat is None or m.is_computer(seat) or m.is_remote(seat) or m.awaiting:
            return None
        return seat

    def _resume(self) -> None:
        self.paused = False
        for b in self.buttons:  # a press on the pause menu ends with it
            b.forget()

    def _to_menu(self) -> None:
        self.app.go("setup", self.match.config)

    def save(self) -> None:
        """*Save game*: the log as it stands (every shot that has settled; a shot still rolling
        is not in it yet), where ``--save`` says or under a dated name; the message log says
        where it went, or why not."""
        _, note = save_note(self.match.game, self.app.save_path)
        self.messages.append(note)
        self.saved_note = note

    # -- time ---------------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        if not self._prepared and not self.app.background.threaded:  # at once, headless
            self._prepare()
        for began, t in zip(self.app.poll_began, self.app.polls, strict=True):
            self.control.pulled(t, began)  # every look at the queue, with input or none
        if not self.control.engaged:
            self._slide_lane(dt)
        self._fit()
        if not self.control.engaged:
            self._frame_camera(dt)
        m = self.match
        # a game played on a host: what it said since the last frame (its shots once the
        # physics is ready here)
        m.poll(slides=self.physics_ready())
        for line in m.notes():
            self._say(line)
        if self.control.engaged:
            m.aim(self.control.hold)
        if self.paused:
            return
        self.coach.update()
        self.floats = [f for f in self.floats if self.app.time - f.t < FLOAT_LIFE]
        if self._leaving is not None:
            self._leaving -= dt
            if self._leaving <= 0:
                self._next_screen()
        elif m.rolling:
            self._roll(dt)
        elif m.state.phase is not Phase.SHOOTING:
            self._leaving = ROUND_PAUSE
        elif m.is_computer(m.turn) and self.ready():
            self._computer(dt)

    def _roll(self, dt: float) -> None:
        """The shot in flight, on by ``dt``; applied once it has rested ``SETTLE_PAUSE``."""
        m = self.match
        m.advance(dt)
        self._events()
        self._end_when_still(dt)
        if m.settled and self.picking is None:
            self._settle += dt
            if self._settle >= SETTLE_PAUSE:
                self._settle = 0.0
                self._resolve()

    def _computer(self, dt: float) -> None:
        """A computer's turn: its search in slices, then its hand carrying the pawn to the
        release point (its aim drawn) and the slide."""
        m = self.match
        if self._cpu is None:
            shot = m.think(self.app.think_budget)
            if shot is not None:
                self._cpu = (shot, 0.0)
            return
        shot, t = self._cpu
        if self.lane_seat != m.turn or self.lane_shown < 1.0:
            return  # its hand moves where the person sees it: once its lane pane is in
        self._cpu = (shot, t + dt)
        if t + dt >= CPU_REACH:
            self._cpu = None
            if not m.start(shot):  # refused: told, and the seat shoots again
                for line in m.news():
                    self._say(line)

    def _aiming_seat(self) -> str | None:
        """The seat aiming now, whose lane the lane pane shows (None: no one is aiming)."""
        m = self.match
        if m.rolling or self._leaving is not None or m.state.phase is not Phase.SHOOTING:
            return None
        if self._rest_hold > 0 or self.picking is not None:
            return None
        return m.turn

    def _slide_lane(self, dt: float) -> None:
        """Slide the lane pane in for the seat aiming, out when no one aims."""
        seat = self._aiming_seat()
        if seat is not None and seat != self.lane_seat and self.lane_shown > 0:
            seat = None  # another seat's turn: out first, then in with its lane
        goal = 0.0 if seat is None else 1.0
        if seat is not None:
            self.lane_seat = seat
        k = 1.0 - math.exp(-max(dt, 0.0) / (EASE * 0.6))
        shown = self.lane_shown + (goal - self.lane_shown) * k
        self.lane_shown = goal if abs(goal - shown) < 0.01 else shown
        if self.lane_shown == 0.0 and seat is None:
            self.lane_seat = None

    def _end_when_still(self, dt: float) -> None:
        """Run the shot to its rest at once when no pawn has visibly moved for ``STILL_TIME``."""
        m = self.match
        if m.sim is None or not m.sim.moving:
            self._still = []
            return
        now = m.sim.t
        where = m.positions()
        self._still.append((now, where))
        while len(self._still) > 1 and now - self._still[1][0] >= STILL_TIME:
            self._still.pop(0)
        t0, before = self._still[0]
        if now - t0 < STILL_TIME:
            return
        if all(
            pid in before and math.dist(before[pid], xy) < STILL_MOVE for pid, xy in where.items()
        ):
            m.advance(m.params.max_time, max_steps=10**7)
            self._events()
            self._still = []

    def _frame_camera(self, dt: float) -> None:
        """Point the camera at what matters now and ease it there."""
        m, cam = self.match, self.camera
        if self.overview:
            cam.aim_at(cam.overview())
        elif m.rolling and m.sim is not None and m.sim.moving:
            self._rest_hold = REST_HOLD
            moving: list[tuple[float, float]] = []
            speeds = m.sim.velocities()
            for pid, (x, y) in m.positions().items():
                vx, vy, _ = speeds.get(pid, (0.0, 0.0, 0.0))
                if math.hypot(vx, vy) > 0.005:  # where it is and where it is going
                    moving += [(x, y), (x + vx * FOLLOW_LEAD, y + vy * FOLLOW_LEAD)]
            cam.aim_at(cam.follow(moving))
        else:
            self._rest_hold = max(self._rest_hold - dt, 0.0)
            cam.aim_at(cam.board())
        cam.update(dt)
        if self.lane_seat is not None:
            snap = self.lane_shown < 1.0  # sliding in or out: fitted to the pane as it moves
            self.lane_camera.aim_at(self.lane_camera.aim(m.seat(self.lane_seat)), snap)
            self.lane_camera.update(dt)

    def _events(self) -> None:
        for e in self.match.new_events():
            if e.type is EventType.CONTACT:
                self.app.sounds.hit(e.impulse)
            elif e.type is EventType.RAIL:
                self.app.sounds.hit(e.impulse, rail=True)
            elif e.type in REMOVING_EVENTS and e.pawns:
                self._float(status_word(REMOVING_EVENTS[e.type]), e.x, e.y, (255, 120, 90))

    def _resolve(self) -> None:
        """Make the settled shot's Instant Home choices (a person's by the picker, a computer's
        at once), then apply the shot."""
        m = self.match
        assert m.sim is not None
        if self._settled is None:
            self._settled = m.sim.result()
        while (choice := m.home_choice(self._settled, self._home)) is not None:
            if m.is_computer(choice.seat):
                self._home[choice.pawn] = m.home_for(choice, self._settled, self._home)
                continue
            self.picking = choice
            self._say(
                f"{pawn_name(choice.pawn)} is in the hole: "
                f"{self._name(choice.seat)} sends a pawn HOME"
            )
            return
        if not m.can_finish():  # a hosted game: its host has not applied the shot yet
            self._settle = SETTLE_PAUSE
            return
        home, self._home, self._settled = self._home, {}, None
        self._apply(home)

    def _apply(self, home: dict[str, int]) -> None:
        result, happened = self.match.finish(home)
        for line in self.match.news():  # the shot told in full sentences
            self._say(line)
        where = {p.id: (p.x, p.y) for p in result.pawns}
        for h in happened:
            if isinstance(h, PawnRemoved):
                if h.status in (Status.OTHER_TRACK, Status.SORRY_CORNER, Status.DANGER_DOT):
                    x, y = where.get(h.pawn, (0.0, 0.0))
                    self._float(status_word(h.status), x, y, (255, 120, 90))
            elif isinstance(h, Penalty | InstantHome | Won):
                if isinstance(h, Penalty) and h.scoring is not None:
                    x, y = where.get(h.cause, (0.0, 0.0))
                    self._float("penalty: back to START", x, y - 0.02, (255, 80, 80))
                if isinstance(h, InstantHome) and h.scoring is not None:
                    self._float("HOME!", 0.0, 0.02, draw.HIGHLIGHT)
        for p in self.match.state.table:
            if p.id == result.shooter:
                self._float(
                    f"+{draw.points_label(p)}" if p.points else "0", p.x, p.y, draw.HIGHLIGHT
                )
        state = self.match.state
        if state.phase is Phase.SHOOTING and state.turn is not None:
            self._say(f"{self._name(state.turn)} to slide")

    def _next_screen(self) -> None:
        state = self.match.state
        if state.phase is Phase.OVER:
            self.app.go("results", self.match)
        else:
            self.app.go("round-end", self.match)

    def _say(self, words: str) -> None:
        self.messages.append(words)
        del self.messages[:-8]

    def _float(self, words: str, x: float, y: float, rgb: tuple[int, int, int]) -> None:
        self.floats.append(_Float(words, x, y, self.app.time, rgb))

    def _name(self, seat: str | None) -> str:
        if seat is None:
            return "nobody"

        return SEAT_COLOURS[seat].capitalize()

    # -- drawing ------------------------------------------------------------------------------------

    def changed(self) -> bool:
        """True when the picture differs from the one drawn last (the app draws only then, or
        on input that is more than the pointer's motion): anything moving (a shot, the cameras,
        a computer's hand, a held pawn, the floating words, the thinking dots), a button lit or
        no longer, or any change of the game."""
        return self.control.engaged or self._key() != self._drawn_key

    def _key(self) -> tuple[object, ...]:
        """What the picture shows, but for a held pawn (:meth:`changed`)."""
        m = self.match
        moving = m.rolling or bool(self.floats) or self._cpu is not None
        buttons = [*self._corner_buttons(), *(self.buttons if self.paused else [])]
        return (
            self.app.time if moving else None,
            self._thinking_dots() if m.is_computer(m.turn) else None,
            self.app.background.shown(),
            self.camera.centre, self.camera.scale, tuple(self.camera.rect),
            self.lane_camera.centre, self.lane_camera.scale, self.lane_shown, self.lane_seat,
            self.overview, self.paused, self.picking, len(self.match.told), len(self.messages),
            m.state, self._leaving is not None, self.coach.shown(), m.awaiting,
            (m.banner(m.turn), m.hand_of(m.turn or "")) if m.is_remote(m.turn) else None,
            tuple(b.hovered() for b in buttons),
            tuple(m.invites()) if self.inviting else None,
        )  # fmt: skip

    def _thinking_dots(self) -> int:
        """How many dots the "thinking" line shows now (1-3, turning over as time passes)."""
        return 1 + int(self.app.time * 3) % 3

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        side = min(
            max(int(w * 0.3), 280), round(draw.BOARD_WIDTH * draw.ui_scale(self.app.surface))
        )
        top = draw.banner_bottom(self.app.surface)
        gauge = self.control.gauge_height(draw.ui_size(self.app.surface, 20))
        self.play_area = pygame.Rect(10, top, w - side - 30, h - top - 10 - gauge)
        self.gauge_rect = pygame.Rect(10, self.play_area.bottom + 6, self.play_area.w, gauge - 6)
        m = self.match
        seat = None if self.lane_seat is None else m.seat(self.lane_seat)
        self.lane_rect, main = panes(self.play_area, m.layout, seat, self.lane_shown)
        self.camera.place(main)
        self.camera.apply()
        if self.lane_rect is not None and seat is not None:
            full, _ = panes(self.play_area, m.layout, seat, 1.0)
            assert full is not None
            self.lane_camera.place(full)  # a pane sliding in or out shows part of its picture
            self.lane_camera.apply(self.lane_rect)
        bh = max(34, round(34 * draw.ui_scale(self.app.surface)))
        self.overview_button.rect = pygame.Rect(w - side - 10, h - bh - 10, side, bh)
        if self.can_invite:  # the two side by side
            half = (side - 8) // 2
            self.overview_button.rect.w = side - 8 - half
            self.invite_button.rect = pygame.Rect(w - half - 10, h - bh - 10, half, bh)
        self.sidebar = pygame.Rect(w - side - 10, top, side, self.overview_button.rect.y - 8 - top)
        size = draw.ui_size(self.app.surface, 19)
        self.log_room = LOG_LINES * draw.line_step(size) + 4

    def panels(self) -> dict[str, pygame.Rect]:
        """Each seat's score board's place in the sidebar (the message log's lines below)."""
        return draw.sidebar_panels(self.sidebar, self.match.state.seats, self.log_room)

    def draw(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """The screen; only the hand's rectangles (returned) when nothing else changed."""
        key = self._key()
        base = self._base
        if (
            key == self._drawn_key and self.control.engaged and base is not None
            and base.get_size() == surface.get_size()
        ):  # fmt: skip
            before = self._hand_drawn
            for rect in before:  # what the hand covered, as it was without it
                surface.blit(base, rect, rect)
            self.app.pump()
            self._hand_drawn = self._draw_control(surface)
            return before + self._hand_drawn
        self._drawn_key = key
        self._draw_all(surface)
        if self.PARTIAL and self.control.engaged and not self.paused:
            if base is None or base.get_size() != surface.get_size():
                base = pygame.Surface(surface.get_size(), 0, surface)
            base.blit(surface, (0, 0))
            self._base = base
        else:
            self._base = None
        self._hand_drawn = [] if self.paused else self._draw_control(surface)
        if self.paused:
            self._draw_pause(surface)
        return None

    def _draw_control(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """The person's control (the held pawn, an aim, a gauge) over the panes; the
        rectangles it drew over."""
        drawn = []
        for view in self._panes():
            surface.set_clip(view.rect)
            if self.control.view is view:
                drawn += self.control.draw(surface)
            else:
                drawn += self.control.draw_in(surface, view)
            surface.set_clip(None)
        size = draw.ui_size(surface, 20)
        drawn += self.control.draw_gauge(surface, self.gauge_rect, size)
        return [r for r in drawn if r.w > 0 and r.h > 0]

    def _panes(self) -> list[TableView]:
        """The views drawn: the main pane, and the lane pane when it shows."""
        lane = self.lane_rect is not None and self.lane_rect.w > 2 and self.lane_rect.h > 2
        return [self.view, self.lane_view] if lane else [self.view]

    def _draw_all(self, surface: pygame.Surface) -> None:
        """The whole screen but the person's control and the pause menu."""
        self._fit()
        surface.fill(draw.BACKGROUND)
        m = self.match
        self._draw_pane(surface, self.view, main=True)
        self.app.pump()
        if self.lane_rect is not None and self.lane_rect.w > 2 and self.lane_rect.h > 2:
            self._draw_pane(surface, self.lane_view, main=False)
            pygame.draw.rect(surface, (120, 124, 136), self.lane_rect.inflate(2, 2), 1)
            self.app.pump()
        self.coach.draw(surface, self._panes())
        self.overview_button.label = "Back (Tab)" if self.overview else "Overview (Tab)"
        self.overview_button.draw(surface, draw.ui_size(surface, 22))
        if self.can_invite:
            self.invite_button.label = "Scores (I)" if self.inviting else "Invite (I)"
            self.invite_button.draw(surface, draw.ui_size(surface, 22))
        self._draw_banner(surface)
        who = m.who()
        pick = self.picking
        active = pick.seat if pick else m.turn
        boards: dict[str, Sequence[float]] | None = (
            {pick.seat: [float(sq) for sq in pick.board]} if pick else None
        )
        bottom = draw.draw_sidebar(
            surface, self.sidebar, m.state, who, active, boards, pick, self.log_room
        )
        size = draw.ui_size(surface, 19)
        fits = lambda words: draw.font(size).size(words)[0] <= self.sidebar.width  # noqa: E731
        room = (self.sidebar.bottom - bottom) // draw.line_step(size)
        lines = newest_lines(self.messages, fits, room)
        draw.text_lines(
            surface, lines, self.sidebar.x, bottom, self.sidebar.width, self.sidebar.bottom,
            draw.DIM, size,
        )  # fmt: skip
        if self.inviting:  # over the score boards: the table stays in sight
            self.invited = draw_invites(surface, self.sidebar, m.invites())
        self.app.pump()
        if not self._prepared:
            self._prepare()

    def _prepare(self) -> None:
        """Ask for the physics, the pawns' pictures and every computer to be made ready in the
        background (each computer before its first turn, as :meth:`Turns.prepare` does it; a
        pawn first drawn in a frame held it some 25 ms)."""
        self._prepared = True
        work = self.app.background
        prepare_physics(work, self.match.turns.setup.engine)
        seats = [s.name for s in self.match.layout.seats]
        work.add(f"pawns:{id(self.match)}", "drawing the pawns", lambda: draw.prepare_pawns(seats))
        if self.match.turns.computers:
            work.add(
                self._waits_for[-1], "preparing the computer players", self.match.turns.prepare
            )

    def _draw_pane(self, surface: pygame.Surface, view: TableView, main: bool) -> None:
        """The table in one pane: the pawns, their points at rest, the hand, the aim; the
        floating words in the main pane."""
        m = self.match
        surface.set_clip(view.rect)
        view.draw_static(surface)
        for pid, (x, y) in m.positions().items():
            view.draw_pawn(surface, pid, x, y)
        if not m.rolling:
            for p in m.state.table:
                view.tag(surface, draw.points_label(p), p.x, p.y, 20)
        self._draw_hand(surface, view)
        if main:
            now = self.app.time
            size = draw.ui_size(surface, 26)
            for f in self.floats:
                age = (now - f.t) / FLOAT_LIFE
                px, py = view.to_screen(f.x, f.y)
                draw.text(surface, f.words, (px, py - 20 - 30 * age), size, f.rgb, "center", True)
        surface.set_clip(None)

    def _draw_hand(self, surface: pygame.Surface, view: TableView) -> None:
        m = self.match
        seat = m.turn
        if seat is None or m.rolling or m.state.phase is not Phase.SHOOTING:
            return
        lane = m.seat(seat)
        hand = m.state.player(seat).in_hand
        remote = m.hand_of(seat) if m.is_remote(seat) else None  # another machine's hand
        moving = self._cpu[0].pawn if self._cpu else self.held
        if remote is not None:
            moving = m.state.next_pawn()
            x, y = lane.to_world(*remote)
            view.draw_pawn(surface, moving or "", x, y, ring=(200, 200, 255))
        for i, pid in enumerate(hand):
            if pid == moving:
                continue
            x, y = lane.to_world(*hand_spot(m, seat, i, len(hand)))
            view.draw_pawn(surface, pid, x, y)
        if self._cpu is not None and self.held is None:
            shot, t = self._cpu
            i = hand.index(shot.pawn) if shot.pawn in hand else 0
            a0, c0 = hand_spot(m, seat, i, len(hand))
            a1 = lane.foul if shot.release is None else shot.release
            k = min(t / (CPU_REACH * 0.6), 1.0)  # carried there, then aimed a moment
            hold = (a0 + (a1 - a0) * k, c0 + (shot.offset - c0) * k)
            if k >= 1.0:
                far = board_far(m, seat)
                aim_path(surface, view, lane, hold, shot.angle, far, draw.seat_rgb(seat))
            x, y = lane.to_world(*hold)
            view.draw_pawn(surface, shot.pawn or "", x, y, ring=(200, 200, 255))

    def _draw_banner(self, surface: pygame.Surface) -> None:
        m = self.match
        state = m.state
        seat = state.turn
        if self.picking is not None:
            seat = self.picking.seat
            status = (
                f"{self._name(seat)}: click a scoring pawn to send HOME "
                f"(1-4; Enter: pawn {self.picking.default + 1})"
            )
        elif state.phase is Phase.OVER:
            status = f"{self._name(state.winner)} wins!"
        elif not self.physics_ready() or (m.is_computer(seat) and not self.ready()):
            status = self.app.background.shown() or "getting ready…"
            seat = None
        elif state.phase is Phase.SCORING:
            status = "Round over: scoring"
        elif m.rolling:
            status = "Sliding…"
        elif m.is_computer(seat) and self._cpu is None:
            status = f"{self._name(seat)} (computer) is thinking" + "." * self._thinking_dots()
        elif m.is_computer(seat):
            status = f"{self._name(seat)} (computer) is aiming"
        elif m.is_remote(seat):
            status = m.banner(seat)
        elif m.awaiting:
            status = "sent: the host slides it…"
        else:
            status = f"{self._name(seat)}: {self.control.hint}"
        rgb = draw.seat_rgb(seat) if seat else draw.TEXT
        w = surface.get_width()
        big, small = draw.ui_size(surface, 30), draw.ui_size(surface, 26)
        room = w - 28 - draw.font(small).size(status)[0] - 24  # what the status leaves the title
        for title in (
            f"Sorry! Sliders · {m.face.title} · round {state.round}",
            f"{m.face.title} · round {state.round}",
            f"Round {state.round}",
        ):
            if draw.font(big, True).size(title)[0] <= room:
                break
        else:
            title = ""
        status = draw.clipped(status, small, w - 28 - draw.font(big, True).size(title)[0] - 24)
        draw.text(surface, title, (14, 12), big, draw.TEXT, bold=True)
        draw.text(surface, status, (w - 14, 14), small, rgb, "topright")

    def _draw_pause(self, surface: pygame.Surface) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 160))
        surface.blit(shade, (0, 0))
        cx, cy = surface.get_width() // 2, surface.get_height() // 2
        draw.text(surface, "Paused", (cx, cy - 90), 64, draw.TEXT, "center", True)
        draw.text(
            surface,
            "Esc: resume · S: save game · Q: quit to menu · F11: full screen",
            (cx, cy - 40),
            24,
            draw.DIM,
            "center",
        )
        for i, b in enumerate(self.buttons):
            b.rect = pygame.Rect(cx - 110, cy + i * 60, 220, 46)
            b.draw(surface)
        if self.saved_note:
            below = cy + len(self.buttons) * 60
            note = draw.clipped(self.saved_note, 18, surface.get_width() - 20)
            draw.text(surface, note, (cx, below), 18, draw.DIM, "center")


def newest_lines(messages: Sequence[str], fits: Callable[[str], bool], room: int) -> list[str]:
    """The lines of the newest ``messages`` that fit in ``room`` lines, each message whole
    (wrapped where it does not ``fit``); the newest alone, its first lines, when it is longer."""
    out: list[str] = []
    for words in reversed(messages):
        lines = wrap_all([words], fits)
        if len(out) + len(lines) > room:
            return out or lines[:room]
        out = lines + out
    return out
