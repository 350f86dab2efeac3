"""Take the screenshots in this folder: the setup, play (mid-shot), round-end and results screens,
the Instant Home choice, a replay, each control in use and every built-in layout in play.

Runs headless (SDL_VIDEODRIVER=dummy): a four-player Instant Sorry! game, red a person whose
slides are chosen here by a computer player, the others the computer; it is saved and replayed.
The review screen shows the documents' example game (``review.png``).
Then an Instant Home game in its second round, red a person whose pawn drops into the hole.
Then red, a person, mid-way through a slide with each control (``control-<name>.png``: pointer
events are posted as a hand would make them), and a computer game on every built-in layout with
its default seats, caught while a pawn runs in round 2 (``layout-<name>.png``).

    python docs/screens/make_screens.py [OUTPUT_DIR]
"""

from __future__ import annotations

import inspect
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from sliders.ai import ComputerPlayer  # noqa: E402
from sliders.core.outcome import PawnRest, ShotResult, Status  # noqa: E402
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout  # noqa: E402
from sliders.game.config import MatchConfig, parse_seat_specs  # noqa: E402
from sliders.physics import Shot  # noqa: E402
from sliders.rules import HOME, Move, Phase  # noqa: E402
from sliders.scenes.app import App  # noqa: E402
from sliders.scenes.play import PlayScreen  # noqa: E402
from sliders.scenes.replay import Film, ReplayScreen  # noqa: E402
from sliders.scenes.results import ResultsScreen  # noqa: E402
from sliders.scenes.roundend import RoundEndScreen  # noqa: E402
from sliders.scenes.setup import SetupScreen  # noqa: E402
from sliders.scenes.table import Match  # noqa: E402

FRAME = 1 / 60


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    app = App((1280, 800), sound=False, think_budget=None)
    seats = "south=human,west=cpu:easy,north=cpu:medium,east=cpu:hard"
    config = MatchConfig("instant-sorry", "square", parse_seat_specs(seats), seed=6)

    app.show(SetupScreen(app, config))
    _shot(app, out / "setup.png")

    match = Match(config)
    hand = ComputerPlayer("south", "medium", seed=99)  # plays red's slides for the pictures
    app.show(PlayScreen(app, match))
    took_play = took_round = False
    for _ in range(200000):
        screen = app.screen
        if isinstance(screen, PlayScreen):
            m = screen.match
            if m.turn == "south" and not m.rolling and screen._leaving is None:
                m.start(hand.choose_shot(m.state, m.layout, m.face, m.params))
            if (
                not took_play
                and m.rolling
                and m.state.round == 2
                and len(m.state.table) >= 5
                and m.sim is not None
                and 0.55 < m.sim.t
                and m.sim.moving
            ):
                _shot(app, out / "play.png")
                took_play = True
        elif isinstance(screen, RoundEndScreen):
            if screen.seat == "south" and not took_round and match.state.round >= 2:
                app.step(FRAME)
                _shot(app, out / "round-end.png")
                took_round = True
            if screen.seat is not None:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
            elif screen.moved >= 1.0:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
        elif isinstance(screen, ResultsScreen):
            _shot(app, out / "results.png")
            break
        app.step(FRAME, draw=False)
    _replay(app, match, out / "replay.png")
    _instant_home(app, out / "instant-home.png")
    _review(app, out / "review.png")
    app.close()
    for control in _controls():
        _control(control, out / f"control-{control}.png")
    for layout in BUILTIN_LAYOUTS:
        _layout(layout, out / f"layout-{layout}.png")
    for layout, size in AIMING:
        _aiming(layout, size, out / f"aim-{layout}-{size[0]}x{size[1]}.png")


AIMING = (("crazy-corner", (1280, 800)), ("quadruple-track", (1280, 800)), ("square", (800, 600)))
"""the layouts and window sizes shown while a person aims (``aim-LAYOUT-WxH.png``)"""


def _aiming(name: str, size: tuple[int, int], path: Path) -> None:
    """A person about to slide on layout ``name``: the lane pane and the board beside it, the
    pawn pulled back a little to the side, its aim drawn in both panes."""
    options = {"control": "aim"} if len(_controls()) > 1 else {}
    app = App(size, sound=False, think_budget=None, **options)
    app.clock = lambda: app.time  # the aim's meter where the frames put it, every run
    try:
        seats = load_layout(name).seats
        specs = ",".join(
            f"{s.name}={'human' if i == 0 else 'cpu:easy'}" for i, s in enumerate(seats)
        )
        match = Match(MatchConfig("race-for-home", name, parse_seat_specs(specs), seed=3))
        screen = PlayScreen(app, match)
        app.show(screen)
        for _ in range(120):
            app.step(FRAME, draw=False)
        first = seats[0].name
        lane = match.seat(first)
        view = screen.lane_view
        at = view.to_screen(*lane.to_world(lane.foul - 0.004, 0.01))
        _post(pygame.MOUSEBUTTONDOWN, at, button=1)
        app.step(FRAME)
        back = view.to_screen(*lane.to_world(lane.foul - 0.09, 0.022))
        pull = (at[0] + (back[0] - at[0]) * 1.6, at[1] + (back[1] - at[1]) * 1.6)
        _post(pygame.MOUSEMOTION, pull, rel=(0, 0), buttons=(1, 0, 0))
        app.step(FRAME)
        _shot(app, path)
    finally:
        app.close()


# the face each layout's picture is played on, so that every face is shown somewhere
LAYOUT_FACES = {
    "square": "race-for-home",
    "crazy-corner": "danger-dots",
    "head-to-head": "instant-sorry",
    "triple-track": "instant-home",
    "quadruple-track": "race-for-home",
    "solo": "danger-dots",
}


def _controls() -> tuple[str, ...]:
    """The controls a person can choose (the window's ``control`` option), or the one control
    there is when the window has no such option."""
    if "control" not in inspect.signature(App).parameters:
        return ("flick",)
    from sliders.scenes import controls

    return tuple(controls.CONTROLS)


def _control(name: str, path: Path) -> None:
    """Red, a person, mid-way through a slide on the two-player square: the pawn taken from the
    hand and the pointer drawn back (aim) or swung toward the foul line (flick)."""
    options = {"control": name} if len(_controls()) > 1 else {}
    app = App((1280, 800), sound=False, think_budget=None, **options)
    app.clock = lambda: app.time  # the aim's meter where the frames put it, every run
    try:
        seats = parse_seat_specs("south=human,north=cpu:easy")
        match = Match(MatchConfig("race-for-home", "square", seats, seed=3, starter="south"))
        screen = PlayScreen(app, match)
        app.show(screen)
        for _ in range(120):  # the lane pane slides in and settles on red's lane
            app.step(FRAME, draw=False)
        app.step(FRAME)
        lane = match.seat("south")
        view = getattr(screen, "lane_view", screen.view)  # where red's lane is large
        control = getattr(screen, "control", None)
        if control is not None:
            spot = control.waiting("south")[0][1]
        else:
            spot = match.hand_point("south", 0, len(match.state.player("south").in_hand))
        start = view.to_screen(*lane.to_world(*spot))
        forward = view.to_screen(*lane.to_world(spot[0] + 0.01, spot[1]))
        ux, uy = forward[0] - start[0], forward[1] - start[1]
        norm = math.hypot(ux, uy) or 1.0
        ux, uy = ux / norm, uy / norm
        _post(pygame.MOUSEBUTTONDOWN, start, button=1)
        app.step(FRAME)
        if name == "aim":  # pull back from where the pawn now waits, a little to the side
            held = getattr(control, "hold", spot)
            at = view.to_screen(*lane.to_world(*held))
            full = getattr(sys.modules.get("sliders.scenes.controls"), "PULL_MAX", 240)
            moves = [(at[0] - ux * d + uy * d * 0.2, at[1] - uy * d - ux * d * 0.2)
                     for d in range(10, round(full * 0.6), 10)]  # fmt: skip
        else:  # swing the pawn toward the foul line, not yet let go
            foul = view.to_screen(*lane.to_world(lane.foul, spot[1]))
            reach = math.dist(start, foul) * 0.6
            moves = [(start[0] + ux * reach * k / 12, start[1] + uy * reach * k / 12)
                     for k in range(1, 13)]  # fmt: skip
        for pos in moves:
            _post(pygame.MOUSEMOTION, pos, rel=(0, 0), buttons=(1, 0, 0))
            app.step(FRAME)
        _shot(app, path)
    finally:
        app.close()


def _layout(name: str, path: Path) -> None:
    """A computer game on layout ``name`` with its default seats, caught in round 2 while a pawn
    runs on the board (or, failing that, the last moving frame of the game)."""
    seats = ",".join(f"{s.name}=cpu:easy" for s in load_layout(name).seats)
    face = LAYOUT_FACES.get(name, "race-for-home")
    app = App((1280, 800), sound=False, think_budget=None)
    try:
        match = Match(MatchConfig(face, name, parse_seat_specs(seats), seed=5))
        app.show(PlayScreen(app, match))
        for _ in range(60000):
            screen = app.screen
            m = match
            if (
                isinstance(screen, PlayScreen)
                and m.rolling
                and m.sim is not None
                and m.sim.moving
                and m.state.round >= 2
                and 0.5 < m.sim.t
                and _on_board(m)
            ):
                _shot(app, path)
                return
            if isinstance(app.screen, RoundEndScreen):
                _post(pygame.KEYDOWN, None, key=pygame.K_RETURN, mod=0)
            elif isinstance(app.screen, ResultsScreen):
                break
            app.step(FRAME, draw=False)
        raise RuntimeError(f"no shot on {name} to show")
    finally:
        app.close()


def _on_board(m: Match) -> bool:
    """Whether some pawn is moving on the target board."""
    h = m.face.half
    speeds = m.sim.velocities() if m.sim is not None and hasattr(m.sim, "velocities") else None
    for pid, (x, y) in m.positions().items():
        if abs(x) < h and abs(y) < h:
            if speeds is None:
                return True
            vx, vy = speeds.get(pid, (0.0, 0.0, 0.0))[:2]
            if math.hypot(vx, vy) > 0.05:
                return True
    return False


def _post(kind: int, pos: tuple[float, float] | None, **attrs: object) -> None:
    if pos is not None:
        attrs["pos"] = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(kind, **attrs))


def _replay(app: App, match: Match, path: Path) -> None:
    """The saved game replayed: a re-simulated shot of round 2 or later, the shot pawn knocking
    another, mid-way."""
    replay = ReplayScreen(app, match.game)
    app.show(replay)
    while not replay.finished:
        film = replay.film
        if (
            film is not None
            and film.result is not None
            and replay.state.round >= 2
            and replay.t > 0.3
            and _moving_on_board(film, replay.t)
            and _movers(film, replay.t) >= 2
        ):
            _shot(app, path)
            return
        app.step(FRAME, draw=False)
    raise RuntimeError("no re-simulated shot to show")


def _movers(film: Film, t: float) -> int:
    """How many pawns have run more than 3 cm by ``t`` into the shot."""
    start = film.frames[0]
    return sum(pid in start and math.dist(start[pid], xy) > 0.03 for pid, xy in film.at(t).items())


def _moving_on_board(film: Film, t: float) -> bool:
    """Whether some pawn is on the target board and still moving at ``t`` into the shot."""
    now, soon = film.at(t), film.at(t + 0.05)
    return any(
        pid in soon and abs(x) < 0.12 and abs(y) < 0.12 and abs(soon[pid][1] - y) > 0.004
        for pid, (x, y) in now.items()
    )


def _instant_home(app: App, path: Path) -> None:
    """Round 2 of an Instant Home game: red's pawn has dropped into the hole and red picks the
    scoring pawn that goes HOME. Round 1 is written here, not played: red's pawns scored 4, 1
    and 2, blue's 3 and 1, yellow's 5."""
    seats = "south=human,north=cpu:medium,west=cpu:easy"
    config = MatchConfig("instant-home", "square", parse_seat_specs(seats), 8, starter="north")
    match = Match(config)
    game = match.game
    points = {"south": (4, 1, 0, 2), "west": (3, 0, 1, 0), "north": (5, 0, 0, 0)}
    while game.state.phase is Phase.SHOOTING:
        s = game.state
        pid = s.next_pawn()
        assert pid is not None and s.turn is not None
        n = int(pid[-1])
        won = points[s.turn][n - 1]
        rest = (
            PawnRest(pid, s.turn, 0.0, 0.0, Status.ON_TARGET, won, (won,))
            if won
            else PawnRest(pid, s.turn, 0.0, 0.0, Status.FOUL)
        )
        game.shoot(ShotResult(s.face, pid, (*s.table, rest)))
    game.score(
        {
            seat: [Move(f"{seat}-{k + 1}", k, v) for k, v in enumerate(won) if 0 < v < HOME]
            for seat, won in points.items()
        }
    )
    screen = PlayScreen(app, match)
    app.show(screen)
    match.start(Shot("south", 0.66, 0.0, 0.0, None, "south-1"))
    for _ in range(2000):
        if screen.picking is not None:
            for _ in range(20):
                app.step(FRAME, draw=False)
            _shot(app, path)
            return
        app.step(FRAME, draw=False)
    raise RuntimeError("red's pawn did not drop into the hole")


def _review(app: App, path: Path) -> None:
    """The review screen of the documents' example game (``sliders review docs/examples/game.json
    --show``), on its costliest shot: the best shot drawn beside the one played."""
    from sliders.boards import face
    from sliders.game.saves import load_replay, replay_layout
    from sliders.lab.review import review_game
    from sliders.physics import PhysicsParams
    from sliders.scenes.reviewscreen import ReviewScreen

    log = Path(__file__).resolve().parents[1] / "examples" / "game.json"
    review = review_game(str(log))
    game = load_replay(log)
    screen = ReviewScreen(
        app, review, game.states, replay_layout(game), face(game.face),
        PhysicsParams.default().pawn_radius,
    )  # fmt: skip
    app.show(screen)
    screen.choose(max(range(len(review.shots)), key=lambda i: review.shots[i].loss))
    app.step(FRAME)
    _shot(app, path)


def _shot(app: App, path: Path) -> None:
    assert app.screen is not None
    app.screen.draw(app.surface)
    app.screen.draw(app.surface)  # a view held still is painted exactly on its second frame
    pygame.image.save(app.surface, str(path))
    print(f"{path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
