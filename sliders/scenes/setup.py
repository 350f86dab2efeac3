"""The setup screen: choose the game (the face), the layout, how a person slides (the control)
and who sits at each seat, then start.

Choosing a layout seats its default players (a person at the first seat, the computer at the
others), so every layout starts as it is. Mouse: click the arrows beside a row (a click counts
when the button goes down and up on the same arrow). Keys: Up/Down pick a row, Left/Right change
it, Enter starts, Esc quits.
"""

from __future__ import annotations

import pygame

from sliders.ai import STRENGTHS
from sliders.boards import Face, HoleRule, face
from sliders.core.errors import UserError
from sliders.core.outcome import DEFAULT_ENGINE, FACES, SEAT_COLOURS
from sliders.files.layouts import load_layout, read_layout
from sliders.files.scenes import Scene
from sliders.game.config import (
    HANDS,
    METERS,
    MatchConfig,
    SeatSpec,
    available_layouts,
    default_seat_specs,
    layout_seats,
)
from sliders.game.howto import SCORING_LINE
from sliders.lab.skill import curve_line
from sliders.physics import PhysicsParams
from sliders.scenes import draw
from sliders.scenes.app import App, screen
from sliders.scenes.background import prepare_physics
from sliders.scenes.controls import CONTROLS
from sliders.scenes.table import Match

OFF = "off"
CURVE_HEIGHT = 560
"""a window at least this tall also says where the computers sit on a person's skill curve"""
CHOICES = (OFF, "human", *(f"computer: {s}" for s in STRENGTHS))
CONTROL_WORDS = {"flick": "flick: swing and let go", "aim": "aim: pull back, time the meter"}
METER_WORDS = {"slow": "slow", "normal": "normal", "fast": "fast, short aim line"}
HAND_WORDS = {
    "exact": "yours alone",
    "steady": "handicap: steady",
    "normal": "handicap: normal",
    "shaky": "handicap: shaky",
}


def game_name(name: str) -> str:
    """A face as players call the game ("Race for Home")."""
    try:
        return face(name).title
    except UserError:
        return name


def layout_name(layout: str) -> str:
    """A layout as players call it ("Crazy corner")."""
    return layout.replace("-", " ").capitalize()


def game_line(record: Face) -> str:
    """What a game is, in a line, read from its face's record: the object of every game, and
    what this face changes."""
    changes = []
    if record.hole is HoleRule.HOME:
        changes.append("a pawn in the centre hole sends a scoring pawn HOME")
    elif record.hole is HoleRule.PENALTY:
        changes.append("a pawn in the centre hole sends one back to START")
    if record.choice_points:
        points = [str(p) for p in record.choice_points]
        either = ", ".join(points[:-1]) + f" or {points[-1]}" if len(points) > 1 else points[0]
        changes.append(f"the {'/'.join(points)} circle scores {either}")
    if record.dots_remove:
        changes.append("a pawn on a danger dot is out and scores nothing")
    if not changes:
        return f"be first to move all 4 scoring pawns HOME, by exact count; {SCORING_LINE}"
    return "as Race for Home; " + "; ".join([*changes, SCORING_LINE])


SHORTCUTS = {pygame.K_p: "practice", pygame.K_d: "drills", pygame.K_l: "resume"}
"""keys that open another screen from the setup screen, and the method that opens it"""
NOTE_SIZE = 24
"""the size of the note above Start (what is wrong with the choice, or the physics being
prepared)"""


def fitted(words: str, size: int, width: int) -> str:
    """``words`` as they fit in ``width`` pixels at ``size``: whole, else as many of its
    clauses (between semicolons) as fit, else the first cut with an ellipsis."""
    clauses = words.split(";")
    for n in range(len(clauses), 0, -1):
        head = ";".join(clauses[:n])
        if draw.font(size).size(head)[0] <= width:
            return head
    return draw.clipped(clauses[0], size, width)


def default_seating(layout: str) -> dict[str, str]:
    """Who sits where when ``layout`` is chosen: its default seats, a person at the first and
    the computer at the others."""

    try:
        specs = default_seat_specs(layout)
    except UserError:
        return {}
    return {s.seat: _who(s) for s in specs}


def _who(spec: SeatSpec) -> str:
    """The setup screen's word for who sits in a seat."""
    return "human" if spec.human else f"computer: {spec.strength}"


@screen("setup")
class SetupScreen:
    def __init__(self, app: App, config: MatchConfig | None = None) -> None:
        self.app = app
        self.layouts = available_layouts()
        self.face = config.face if config else FACES[0]
        self.layout = config.layout if config and config.layout in self.layouts else self.layouts[0]
        self.seed = config.seed if config else None
        self.hand = config.hand if config else app.hand
        self.who: dict[str, str] = {}
        if config:
            self.who = {s.seat: _who(s) for s in config.seats}
        else:
            self.who = default_seating(self.layout)
        self.row = 0
        self._down: pygame.Rect | None = None  # where the mouse button went down
        self.note = ""
        self.rows: list[tuple[str, pygame.Rect, pygame.Rect]] = []
        self.pitch = 58
        self.line = draw.MIN_UI_SIZE  # the size of the game's and the layout's lines
        self.about_y = self.note_y = 0
        self.thumb = pygame.Rect(0, 0, 0, 0)  # where the layout's picture is drawn
        self._thumbs: dict[tuple[object, ...], pygame.Surface] = {}
        self.start_button = draw.Button("Start", self.start)
        self.quit_button = draw.Button("Quit", app.quit)
        self.resume_button = draw.Button("Resume saved game (L)", self.resume)
        self.practice_button = draw.Button("Practice (P)", self.practice)
        self.drills_button = draw.Button("Drills (D)", self.drills)
        engine = config.engine if config and config.engine else DEFAULT_ENGINE
        if app.background.threaded:  # the seated pawns first (a fraction of a second)
            seated = [s for s in self.seats() if self.who.get(s, OFF) != OFF]
            app.background.add("pawns", "drawing the pawns", lambda: draw.prepare_pawns(seated))
        prepare_physics(app.background, engine)  # at once: the first slide will not wait for it

    # -- choices ----------------------------------------------------------------------------------

    def seats(self) -> tuple[str, ...]:
        try:
            return layout_seats(self.layout)
        except UserError:
            return ()

    def row_names(self) -> list[str]:
        meter = ["meter"] if self.app.control == "aim" else []  # the aim control's difficulty
        return ["face", "layout", "control", *meter, "hand", *self.seats()]

    def change(self, row: str, step: int) -> None:
        self.note = ""
        if row == "face":
            self.face = FACES[(FACES.index(self.face) + step) % len(FACES)]
        elif row == "layout":
            i = self.layouts.index(self.layout) if self.layout in self.layouts else 0
            self.layout = self.layouts[(i + step) % len(self.layouts)]
            self.who = default_seating(self.layout)
        elif row == "control":
            i = CONTROLS.index(self.app.control) if self.app.control in CONTROLS else 0
            self.app.control = CONTROLS[(i + step) % len(CONTROLS)]
        elif row == "meter":
            meters = list(METERS)
            i = meters.index(self.app.meter) if self.app.meter in meters else 0
            self.app.meter = meters[(i + step) % len(meters)]
        elif row == "hand":
            hands = list(HANDS)
            self.hand = hands[(hands.index(self.hand) + step) % len(hands)]
        else:
            now = self.who.get(row, OFF)
            at = CHOICES.index(now) if now in CHOICES else CHOICES.index("human")  # a custom cpu
            self.who[row] = CHOICES[(at + step) % len(CHOICES)]

    def config(self) -> MatchConfig:
        specs = []
        for seat in self.seats():
            choice = self.who.get(seat, OFF)
            if choice == OFF:
                continue
            if choice == "human":
                specs.append(SeatSpec(seat, "human"))
            else:
                specs.append(SeatSpec(seat, "cpu", choice.split(": ")[1]))
        if not specs:
            raise UserError("choose at least one player")
        return MatchConfig(self.face, self.layout, tuple(specs), self.seed, hand=self.hand)

    def start(self) -> None:
        try:
            match = Match(self.config())
        except UserError as exc:
            self.note = str(exc)
            return
        self.app.go("play", match)

    def drills(self) -> None:
        self.app.go("drills")

    def resume(self) -> None:
        """The saved games, to take one up where it was saved (:mod:`sliders.scenes.resume`)."""
        try:
            config: MatchConfig | None = self.config()
        except UserError:
            config = None
        self.app.go("resume", config)

    def practice(self) -> None:
        """The practice sandbox on the game and layout chosen (every seat of the layout)."""
        try:
            scene = Scene(self.layout, layout_seats(self.layout), self.face)
        except UserError as exc:
            self.note = str(exc)
            return
        self.app.go("practice", scene, self.hand)

    def about(self) -> tuple[str, ...]:
        """The game and the layout chosen, each said in a line, and (in a window tall enough)
        where the computer's strengths sit on a person's skill curve."""
        game = f"{game_name(self.face)}: {game_line(face(self.face))}"
        try:
            described = read_layout(self.layout).description
        except UserError:
            described = ""
        lines = (game, f"{layout_name(self.layout)}: {described}")
        return (*lines, curve_line()) if self.app.surface.get_height() >= CURVE_HEIGHT else lines

    def thumbnail(self, edge: int) -> pygame.Surface:
        """The chosen layout drawn from its data, ``edge`` pixels square, with the seats in play
        (kept: drawn again only when the layout, the seats or the size change)."""
        seats = tuple(s for s in self.seats() if self.who.get(s, OFF) != OFF)
        key = (self.layout, self.face, seats, edge)
        found = self._thumbs.get(key)
        if found is not None:
            return found
        try:
            layout = load_layout(self.layout, seats or None)
        except UserError:
            layout = load_layout(self.layout)
        image = pygame.Surface((edge, edge))
        image.fill(draw.BACKGROUND)
        view = draw.TableView(layout, face(self.face), PhysicsParams.default().pawn_radius)
        view.fit(pygame.Rect(0, 0, edge, edge))
        view.draw_static(image)
        if len(self._thumbs) > 16:
            self._thumbs.clear()
        self._thumbs[key] = image
        return image

    # -- screen -----------------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        self._fit()
        names = self.row_names()
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.quit()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.start()
            elif event.key in SHORTCUTS:
                getattr(self, SHORTCUTS[event.key])()
            elif event.key == pygame.K_UP:
                self.row = (self.row - 1) % len(names)
            elif event.key == pygame.K_DOWN:
                self.row = (self.row + 1) % len(names)
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.change(names[self.row], 1 if event.key == pygame.K_RIGHT else -1)
            return
        buttons = (
            self.start_button, self.resume_button, self.quit_button, self.practice_button,
            self.drills_button,
        )  # fmt: skip
        if any([b.handle(event) for b in buttons]):
            return
        targets = [r for _, left, right in self.rows for r in (left, right)]
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._down = next((r for r in targets if r.collidepoint(event.pos)), None)
            return
        if not (event.type == pygame.MOUSEBUTTONUP and event.button == 1):
            return
        down, self._down = self._down, None
        if down is None or not down.collidepoint(event.pos):
            return  # a click counts only where it began, on this screen
        for i, (name, left, right) in enumerate(self.rows):
            if left.collidepoint(event.pos):
                self.row = i
                self.change(name, -1)
                return
            if right.collidepoint(event.pos):
                self.row = i
                self.change(name, 1)
                return

    def update(self, dt: float) -> None:
        pass

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        x = w // 2 - 300
        self.rows = []
        names = self.row_names()
        top = min(170, round(h * 0.24))
        self.line = draw.ui_size(self.app.surface, 22)
        about = len(self.about()) * round(self.line * draw.SIZE_TO_PX * 1.5)  # a line each

        note = round(NOTE_SIZE * draw.SIZE_TO_PX * 1.5)  # a line for the note, above Start
        button = 56 if h >= 600 else 44  # lower buttons in a low window: room for the rows
        rows = h - 64 - button - note - top - about  # the rows fit above them
        self.pitch = min(58, rows // max(len(names), 1))
        side = max(self.pitch - 8, 20)
        for i, name in enumerate(names):
            y = top + i * self.pitch
            self.rows.append(
                (
                    name,
                    pygame.Rect(x + 220, y, side, side),
                    pygame.Rect(x + 600 - side, y, side, side),
                )
            )
        self.row = min(self.row, len(self.rows) - 1)
        bw = min(220, (w - 60) // 3)  # Start, Resume saved game, Quit
        for i, b in enumerate((self.start_button, self.resume_button, self.quit_button)):
            b.rect = pygame.Rect(
                w // 2 - bw * 3 // 2 - 10 + i * (bw + 10), h - 54 - button, bw, button
            )
        corner = min(170, (w - 40) // 4)  # in the top corners, clear of the title
        self.practice_button.rect = pygame.Rect(10, 10, corner, 40)
        self.drills_button.rect = pygame.Rect(w - 10 - corner, 10, corner, 40)
        bottom = top + len(names) * self.pitch
        self.about_y = bottom + 2
        self.note_y = (self.about_y + about + self.start_button.rect.y) // 2
        room = w - (x + 600) - 40  # beside the rows, on the right
        if room >= 120:
            edge = min(room, bottom - top, 360)
            self.thumb = pygame.Rect(x + 620, top + (bottom - top - edge) // 2, edge, edge)
        else:  # a narrow window: small, in the corner beside Start
            lines = 2 * round(self.line * draw.SIZE_TO_PX * 1.5)
            edge = max(min(self.start_button.rect.x - 20, h - bottom - lines - 20, 150), 0)
            self.thumb = pygame.Rect(10, h - 10 - edge, edge, edge)

    def draw(self, surface: pygame.Surface) -> None:
        self._fit()
        surface.fill(draw.BACKGROUND)
        w, _ = surface.get_size()
        top = self.rows[0][1].y if self.rows else 170
        title = min(84, max(top - 40, 40))
        draw.text(
            surface, "Sorry! Sliders", (w // 2, top * 0.4), title, draw.HIGHLIGHT, "center", True
        )
        draw.text(
            surface,
            "choose the game, the layout, the control and the players",
            (w // 2, top * 0.4 + title * 0.4 + 14),
            26,
            draw.DIM,
            "center",
        )
        for i, (name, left, right) in enumerate(self.rows):
            if name == "face":
                label, value, rgb = "Game", game_name(self.face), draw.TEXT
            elif name == "layout":
                label, value, rgb = "Layout", layout_name(self.layout), draw.TEXT
            elif name == "control":
                value = CONTROL_WORDS.get(self.app.control, self.app.control)
                label, rgb = "Control", draw.TEXT
            elif name == "meter":
                label, value, rgb = "Power meter", METER_WORDS[self.app.meter], draw.TEXT
            elif name == "hand":
                label, value, rgb = "Your hand", HAND_WORDS[self.hand], draw.TEXT
            else:
                label = f"{SEAT_COLOURS[name].capitalize()} ({name})"
                value, rgb = self.who.get(name, OFF), draw.seat_rgb(name)
            y = left.centery
            if i == self.row:
                pygame.draw.rect(
                    surface,
                    (60, 60, 70),
                    pygame.Rect(left.x - 230, left.y - 4, 620, self.pitch - 6),
                    border_radius=8,
                )
            size = max(min(30, round(self.pitch * 0.55)), draw.MIN_UI_SIZE)
            draw.text(surface, label, (left.x - 210, y), size, rgb, "midleft", True)
            for r, arrow in ((left, "<"), (right, ">")):
                pygame.draw.rect(surface, (80, 80, 92), r, border_radius=6)
                draw.text(surface, arrow, r.center, size + 4, draw.TEXT, "center", True)
            draw.text(
                surface, value, ((left.right + right.left) // 2, y), size, draw.TEXT, "center"
            )
        for i, words in enumerate(self.about()):
            words = fitted(words, self.line, w - 20)
            y = self.about_y + i * round(self.line * draw.SIZE_TO_PX * 1.5)
            draw.text(surface, words, (w // 2, y), self.line, draw.DIM, "midtop")
        if self.thumb.w >= 40:
            surface.blit(self.thumbnail(self.thumb.w), self.thumb)
        note, rgb = self.note, (255, 120, 90)
        if not note:  # the physics prepared while the player chooses
            note, rgb = self.app.background.shown(), draw.DIM
        if note:
            draw.text(surface, note, (w // 2, self.note_y), NOTE_SIZE, rgb, "center")
        self.start_button.draw(surface, 32)
        words = self.resume_button.label  # as large as its button holds, never under 12 px
        fits = [
            n for n in (32, 26, 22) if draw.font(n).size(words)[0] <= self.resume_button.rect.w - 12
        ]
        self.resume_button.draw(surface, fits[0] if fits else draw.MIN_UI_SIZE)
        self.quit_button.draw(surface, 32)
        self.practice_button.draw(surface, draw.ui_size(surface, 20))
        self.drills_button.draw(surface, draw.ui_size(surface, 20))
